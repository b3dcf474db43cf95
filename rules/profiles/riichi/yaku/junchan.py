"""Terminals in all sets (junchan) — 3 han closed, 2 open. Every set and the pair hold a terminal; no
honours; at least one chi. (004 Rules 4.2.2)
"""

from __future__ import annotations

from rules.profiles.riichi.reading import CHI, F_OUTSIDE_PAIR, REGULAR, TERMINAL_OR_HONOR, Reading
from rules.profiles.riichi.yaku.base import YakuDef

DEF = YakuDef(
    id="junchan",
    name="Terminals in all sets",
    closed=3,
    open=2,
    ref="004 Rules 4.2.2",
    needs=F_OUTSIDE_PAIR,
)


def check(r: Reading) -> bool:
    return not r.info.has_honor and outside(r)


def outside(r: Reading) -> bool:
    """Every set and the pair hold a terminal or honour, and there is at least one chi."""
    if r.shape != REGULAR or r.pair not in TERMINAL_OR_HONOR:
        return False
    has_chi = False
    for k, b, _ in r.sets:
        if k == CHI:
            has_chi = True
            if b % 9 not in (0, 6):
                return False
        elif b not in TERMINAL_OR_HONOR:
            return False
    return has_chi
