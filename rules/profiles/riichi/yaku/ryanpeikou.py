"""Twice pure double chow (ryanpeikou) — 3 han closed, - open. Closed, four chi forming two pure double
chows; iipeikou is not added. (004 Rules 4.2.3)
"""

from __future__ import annotations

from rules.profiles.riichi.reading import F_CHI4, REGULAR, Reading
from rules.profiles.riichi.yaku.base import YakuDef

DEF = YakuDef(
    id="ryanpeikou",
    name="Twice pure double chow",
    closed=3,
    open=0,
    ref="004 Rules 4.2.3",
    needs=F_CHI4,
)


def check(r: Reading) -> bool:
    if not r.info.closed or r.shape != REGULAR:
        return False
    return identical_chi_pairs(r) == 2


def identical_chi_pairs(r: Reading) -> int:
    """How many pairs of identical chi the reading holds (4 identical chi = 2 pairs)."""
    bases = r.chis
    n = i = 0
    while i + 1 < len(bases):
        if bases[i] == bases[i + 1]:
            n += 1
            i += 2
        else:
            i += 1
    return n
