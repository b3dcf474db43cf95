"""Big four winds (daisuushii) — Yakuman. Four wind pons/kans (a single yakuman, never doubled). (004 Rules
4.2.5; liability 3.3.9)
"""

from __future__ import annotations

from rules.profiles.riichi.reading import F_HONOR_PON, F_NO_CHI, F_PON3, Reading
from rules.profiles.riichi.yaku.base import YakuDef
from rules.tiles import WINDS

DEF = YakuDef(
    id="daisuushii",
    name="Big four winds",
    closed=13,
    open=13,
    ref="004 Rules 4.2.5; liability 3.3.9",
    yakuman=True,
    needs=F_PON3 | F_HONOR_PON | F_NO_CHI,
)


def check(r: Reading) -> bool:
    bases = r.pons
    return all(w in bases for w in WINDS)
