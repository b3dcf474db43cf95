"""Little four winds (shousuushii) — Yakuman. Three wind pons/kans and a wind pair. (004 Rules 4.2.5)"""

from __future__ import annotations

from rules.profiles.riichi.reading import F_HONOR_PON, F_PON3, Reading
from rules.profiles.riichi.yaku.base import YakuDef
from rules.tiles import WINDS

DEF = YakuDef(
    id="shousuushii",
    name="Little four winds",
    closed=13,
    open=13,
    ref="004 Rules 4.2.5",
    yakuman=True,
    needs=F_PON3 | F_HONOR_PON,
)


def check(r: Reading) -> bool:
    bases = r.pons
    return r.pair in WINDS and sum(1 for w in WINDS if w in bases) == 3
