"""Big three dragons (daisangen) — Yakuman. Three dragon pons/kans. (004 Rules 4.2.5; liability 3.3.9)"""

from __future__ import annotations

from rules.profiles.riichi.reading import F_HONOR_PON, F_PON3, Reading
from rules.profiles.riichi.yaku.base import YakuDef
from rules.tiles import DRAGONS

DEF = YakuDef(
    id="daisangen",
    name="Big three dragons",
    closed=13,
    open=13,
    ref="004 Rules 4.2.5; liability 3.3.9",
    yakuman=True,
    needs=F_PON3 | F_HONOR_PON,
)


def check(r: Reading) -> bool:
    bases = r.pons
    return all(d in bases for d in DRAGONS)
