"""Pure double chow (iipeikou) — 1 han closed, - open. Closed, two identical chi (same numbers, same suit);
not counted with ryanpeikou. (004 Rules 4.2.1)
"""

from __future__ import annotations

from rules.profiles.riichi.reading import F_CHI2, REGULAR, Reading
from rules.profiles.riichi.yaku.base import YakuDef
from rules.profiles.riichi.yaku.ryanpeikou import identical_chi_pairs

DEF = YakuDef(id="iipeikou", name="Pure double chow", closed=1, open=0, ref="004 Rules 4.2.1", needs=F_CHI2)


def check(r: Reading) -> bool:
    if not r.info.closed or r.shape != REGULAR:
        return False
    return identical_chi_pairs(r) == 1
