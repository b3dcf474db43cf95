"""Dragon pon: red (yakuhai_chun) — 1 han closed, 1 open. A pon or kan of red dragons (7z). (004 Rules
4.2.1)
"""

from __future__ import annotations

from rules.profiles.riichi.reading import F_HONOR_PON, Reading
from rules.profiles.riichi.yaku.base import YakuDef

DEF = YakuDef(
    id="yakuhai_chun",
    name="Dragon pon: red",
    closed=1,
    open=1,
    ref="004 Rules 4.2.1",
    needs=F_HONOR_PON,
)


def check(r: Reading) -> bool:
    return 33 in r.pons
