"""Scoring one arrangement and choosing the best (001 «Система подсчёта очков»; spec §6).

raw = Σ fan points (all fans additive, a set may serve several fans); value = min(raw, cap 300); an agreed
minimum is checked on the basic points (raw without fan 1 by default, spec A30).
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from rules.profiles.red.arrangement import Arrangement
from rules.profiles.red.detectors import Reading
from rules.profiles.red.fans import CHAOTIC_FAN, FANS, Fan
from rules.profiles.red.options import RedOptions


@dataclass
class FanHit:
    fan: Fan
    count: int
    unit: int  # points per count

    @property
    def points(self) -> int:
        return self.unit * self.count


@dataclass
class Scored:
    arrangement: Arrangement
    hits: list[FanHit] = field(default_factory=list)

    @property
    def raw(self) -> int:
        return sum(h.points for h in self.hits)

    @property
    def flower_points(self) -> int:
        return sum(h.points for h in self.hits if h.fan.no == 1)

    def basic(self, opts: RedOptions) -> int:
        """Points counted towards an agreed minimum (001 §Система подсчёта очков 4)."""
        return self.raw - self.flower_points if opts.min_excludes_flowers else self.raw

    def value(self, opts: RedOptions) -> int:
        return cap_value(self.raw, opts.cap)


def cap_value(raw: int, cap: int = 300) -> int:
    """001 §Система подсчёта очков 5: a hand is worth at most 300."""
    return min(raw, cap)


def score_arrangement(a: Arrangement, opts: RedOptions) -> Scored:
    hits = []
    reading = Reading(a, opts)
    for fan in FANS:
        n = fan.unit.check(reading)
        if not n:
            continue
        if opts.fan_multiplicity == "once" and fan.no != 1:
            n = 1
        unit = opts.chaotic_value if fan is CHAOTIC_FAN else fan.value
        hits.append(FanHit(fan, n, unit))
    return Scored(a, hits)


def best(arrs: Iterable[Arrangement], opts: RedOptions) -> Scored | None:
    """The reading worth most (001 §Подсчёт очков на победной руке 5–6: the maximum may be demanded)."""
    top: Scored | None = None
    for a in arrs:
        s = score_arrangement(a, opts)
        if top is None or s.raw > top.raw:
            top = s
    return top
