"""Round wind (yakuhai_round_wind) — 1 han closed, 1 open. A pon or kan of the round wind (with the seat
wind too, both count). (004 Rules 4.2.1)
"""

from __future__ import annotations

from rules.profiles.riichi.reading import F_HONOR_PON, Reading
from rules.profiles.riichi.yaku.base import YakuDef

DEF = YakuDef(
    id="yakuhai_round_wind",
    name="Round wind",
    closed=1,
    open=1,
    ref="004 Rules 4.2.1",
    needs=F_HONOR_PON,
)


def check(r: Reading) -> bool:
    return r.info.round_wind in r.pons
