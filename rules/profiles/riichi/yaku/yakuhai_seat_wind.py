"""Seat wind (yakuhai_seat_wind) — 1 han closed, 1 open. A pon or kan of the player's seat wind. (004 Rules
4.2.1)
"""

from __future__ import annotations

from rules.profiles.riichi.reading import F_HONOR_PON, Reading
from rules.profiles.riichi.yaku.base import YakuDef

DEF = YakuDef(
    id="yakuhai_seat_wind",
    name="Seat wind",
    closed=1,
    open=1,
    ref="004 Rules 4.2.1",
    needs=F_HONOR_PON,
)


def check(r: Reading) -> bool:
    return r.info.seat_wind in r.pons
