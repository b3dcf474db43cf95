"""Dragon pon: green (yakuhai_hatsu) — 1 han closed, 1 open. A pon or kan of green dragons (6z). (004 Rules
4.2.1)
"""

from __future__ import annotations

from rules.profiles.riichi.reading import F_HONOR_PON, Reading
from rules.profiles.riichi.yaku.base import YakuDef

DEF = YakuDef(
    id="yakuhai_hatsu",
    name="Dragon pon: green",
    closed=1,
    open=1,
    ref="004 Rules 4.2.1",
    needs=F_HONOR_PON,
)


def check(r: Reading) -> bool:
    return 32 in r.pons
