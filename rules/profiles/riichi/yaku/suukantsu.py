"""Four kans (suukantsu) — Yakuman. Four kans of any kind. (004 Rules 4.2.5)"""

from __future__ import annotations

from rules.profiles.riichi.reading import Reading
from rules.profiles.riichi.yaku.base import YakuDef

DEF = YakuDef(
    id="suukantsu",
    name="Four kans",
    closed=13,
    open=13,
    ref="004 Rules 4.2.5",
    yakuman=True,
    hand_level=True,
)


def check(r: Reading) -> bool:
    return r.info.n_kans == 4
