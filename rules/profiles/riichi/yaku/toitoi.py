"""All pons (toitoi) — 2 han closed, 2 open. Four pons/kans and a pair. (004 Rules 4.2.2)"""

from __future__ import annotations

from rules.profiles.riichi.reading import CHI, F_NO_CHI, REGULAR, Reading
from rules.profiles.riichi.yaku.base import YakuDef

DEF = YakuDef(id="toitoi", name="All pons", closed=2, open=2, ref="004 Rules 4.2.2", needs=F_NO_CHI)


def check(r: Reading) -> bool:
    return r.shape == REGULAR and all(k != CHI for k, _, _ in r.sets)
