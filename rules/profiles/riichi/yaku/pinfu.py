"""Pinfu (pinfu) — 1 han closed, - open. Closed, four chi and a pair of no value; the winning tile
completes a chi with a two-sided wait. (004 Rules 4.2.1)
"""

from __future__ import annotations

from rules.profiles.riichi.reading import CHI, F_CHI4, F_RYANMEN, REGULAR, RYANMEN, Reading
from rules.profiles.riichi.yaku.base import YakuDef
from rules.tiles import DRAGONS

DEF = YakuDef(id="pinfu", name="Pinfu", closed=1, open=0, ref="004 Rules 4.2.1", needs=F_RYANMEN | F_CHI4)


def check(r: Reading) -> bool:
    i = r.info
    if r.shape != REGULAR or not i.closed or r.wait != RYANMEN or i.meld_sets:
        return False
    if any(k != CHI for k, _, _ in r.sets):
        return False
    p = r.pair
    return p is not None and p not in DRAGONS and p != i.seat_wind and p != i.round_wind
