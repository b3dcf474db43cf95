"""Four concealed pons (suuankou) — Yakuman. Four concealed pons/kans; on a discard only with a pair wait
(a pon completed by ron is open). (004 Rules 4.2.5)
"""

from __future__ import annotations

from rules.profiles.riichi.reading import F_NO_CHI, F_PON3, REGULAR, Reading
from rules.profiles.riichi.yaku.base import YakuDef

DEF = YakuDef(
    id="suuankou",
    name="Four concealed pons",
    closed=13,
    open=0,
    ref="004 Rules 4.2.5",
    yakuman=True,
    needs=F_PON3 | F_NO_CHI,
)


def check(r: Reading) -> bool:
    return r.shape == REGULAR and r.n_concealed_pons == 4
