"""PyMahjongGB (module ``MahjongGB``, a dev/test dependency only) as the reference MCR fan calculator.

``gb_fans`` returns its answer as ``Counter({our fan name: count})`` plus its flower count and total;
``compare`` decides agreement: the same total and the same fan multiset, or — when several readings of
the hand score the same best total — PyMahjongGB's multiset is one of our equally-best readings' (the
referee may announce either; principle 4 only asks for the highest total).
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from rules.notation import Hand
from rules.profiles.mcr.fan_table import BY_NO
from rules.profiles.mcr.profile import MCR
from rules.profiles.mcr.reading import readings
from rules.profiles.mcr.scorer import fan_value, fans_of
from tests.profiles.mcr.randhands import to_gb

try:  # the reference is a dev dependency; tests that need it fail without it (tests/needs.py)
    from MahjongGB import MahjongFanCalculator
except ImportError:  # pragma: no cover
    MahjongFanCalculator = None

# PyMahjongGB's English spellings that differ from the fan table's names
ALIASES = {"Robbing The Kong": "Robbing the Kong", "Two Dragons Pungs": "Two Dragon Pungs", "All Five": "All Fives"}


def gb_fans(hand: Hand, ctx: dict[str, Any]) -> tuple[Counter, int, int]:
    """(fans without flowers, flower count, total incl. flowers) as PyMahjongGB scores the hand."""
    out: Counter = Counter()
    flowers = total = 0
    for pts, cnt, _zh, en in MahjongFanCalculator(**to_gb(hand, ctx)):
        total += pts * cnt
        if en == "Flower Tiles":
            flowers = cnt
        else:
            out[ALIASES.get(en, en)] += cnt
    return out, flowers, total


def our_fans(p: MCR, hand: Hand, ctx: dict[str, Any]) -> tuple[Counter, int, int]:
    s = p.evaluate(hand, p.context(ctx))
    assert not isinstance(s, str), s
    return Counter({BY_NO[no].name: n for no, n in s.fans.items()}), s.flower_fan, s.total_fan


def equally_best(p: MCR, hand: Hand, ctx: dict[str, Any]) -> list[Counter]:
    """The fan multisets of every reading that reaches the best total."""
    wc = p.scoring_context(p.context(ctx))
    assert not isinstance(wc, str)
    scored = []
    for r in readings(hand, wc, p.options.phantom_waits):
        f = fans_of(r, p.options)
        scored.append((sum(fan_value(no, p.options) * n for no, n in f.items()),
                       Counter({BY_NO[no].name: n for no, n in f.items()})))
    top = max(t for t, _ in scored)
    return [f for t, f in scored if t == top]


def agrees(p: MCR, hand: Hand, ctx: dict[str, Any], ref: tuple[Counter, int, int]) -> bool:
    fans, flowers, total = our_fans(p, hand, ctx)
    if (flowers, total) != (ref[1], ref[2]):
        return False
    return fans == ref[0] or ref[0] in equally_best(p, hand, ctx)
