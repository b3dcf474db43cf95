"""Scoring one MCR hand: every reading, its fans under the principles, the best one, the 8-fan minimum.

003 §Подсчёт 1a: a hand may be declared only with 8 fan or more, flowers aside (§Способы победы:
«отдельно от необходимых 8и очков, считаются цветы и сезоны»); flowers (#81) are added last.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from types import SimpleNamespace

from rules.notation import Hand
from rules.profiles.mcr import fans as F
from rules.profiles.mcr.fan_table import BY_NO, FLOWERS_NO, MIN_FAN
from rules.profiles.mcr.options import MCROptions
from rules.profiles.mcr.principles import apply_exclusions, chow_fans, exclusion_table, kong_fans, pung_fans
from rules.profiles.mcr.reading import Reading, WinContext, readings
from rules.shapes import Shape


@dataclass
class Scored:
    """The fans of the best reading. ``fans``: fan number -> count (flowers not included)."""

    fans: Counter[int]
    hand_fan: int
    flower_fan: int
    reading: Reading | None

    @property
    def total_fan(self) -> int:
        return self.hand_fan + self.flower_fan


_EXCL_CACHE: dict[MCROptions, dict[int, frozenset[int]]] = {}


_VALUES: dict[int, dict[int, int]] = {}


def _values(opts: MCROptions) -> dict[int, int]:
    """Fan number -> value under these options (#48 is an option, spec §12 A44)."""
    got = _VALUES.get(opts.two_concealed_kongs_fan)
    if got is None:
        got = {no: f.value for no, f in BY_NO.items()}
        got[48] = opts.two_concealed_kongs_fan
        _VALUES[opts.two_concealed_kongs_fan] = got
    return got


def _value(no: int, opts: MCROptions) -> int:
    return _values(opts)[no]


@lru_cache(maxsize=4096)
def tile_fans(mask: int) -> tuple[tuple[int, int], ...]:
    """The fans that depend only on which kinds the hand holds (memoised by that set)."""
    view = SimpleNamespace(cache={"mask": mask})
    # a stand-in holding the cache only: the tile-scope detectors read nothing else of a reading
    return tuple((no, n) for no, det in F.TILE_SCOPE if (n := det(view)))  # type: ignore[arg-type]


def fans_of(r: Reading, opts: MCROptions, without: frozenset[int] = frozenset()) -> Counter[int]:
    """All fans of one reading after the principles (flowers excluded); ``without``: fans that may not be
    counted at all, taken out before the exclusions (Siamese first win without the drawn tile, 003
    §Сиамский 17: what they would exclude counts again)."""
    hand_fans = r.cache.get("hand_fans")
    if hand_fans is None:  # the same for every reading of the hand
        hand_fans = dict(tile_fans(F.mask_of(r)))
        hand_fans.update((no, n) for no, det in F.HAND_SCOPE if (n := det(r)))
        r.cache["hand_fans"] = hand_fans
    raw: Counter[int] = Counter(hand_fans)
    if r.sets:
        for no, det in F.SET_SCOPE:
            n = det(r)
            if n:
                raw[no] += n
        if len(r.chows) >= 2:
            for no in chow_fans(tuple(sorted(r.chows)), r.pair):
                raw[no] += 1
        suited = [k for k in r.pungs if k < 27]
        if len(suited) >= 2:
            for no in pung_fans(tuple(sorted(suited))):
                raw[no] += 1
        for no in kong_fans(r, opts):
            raw[no] += 1
    if r.shape is not Shape.REGULAR:
        for no, det in F.SHAPE_SCOPE:
            n = det(r)
            if n:
                raw[no] += n
    excl = _EXCL_CACHE.get(opts)
    if excl is None:
        excl = _EXCL_CACHE[opts] = exclusion_table(opts)
    if opts.nine_gates_terminal_pungs and raw[4] and raw[73]:
        raw[73] -= 1  # GB reading of #4 (spec §12 A15): the 111/999 pung is part of the gates
    for no in without:
        raw.pop(no, None)
    kept = apply_exclusions(raw, excl)
    if not kept:
        kept[43] = 1  # Chicken Hand: nothing else (003 #43)
    return kept


def score_readings(rs: list[Reading], n_flowers: int, opts: MCROptions) -> Scored | None:
    best: Scored | None = None
    values = _values(opts)
    for r in rs:
        fans = fans_of(r, opts)
        total = sum(values[no] * n for no, n in fans.items())
        if best is None or total > best.hand_fan:
            best = Scored(fans, total, n_flowers, r)
    return best


def score_tiles(hand: Hand, ctx: WinContext, opts: MCROptions) -> Scored | None:
    """The best reading's fans, or None when the tiles make no winning shape."""
    rs = readings(hand, ctx, opts.phantom_waits)
    if not rs:
        return None
    return score_readings(rs, len(hand.flowers), opts)


def fan_value(no: int, opts: MCROptions) -> int:
    return _value(no, opts)


__all__ = ["Scored", "score_tiles", "fans_of", "fan_value", "MIN_FAN", "FLOWERS_NO"]
