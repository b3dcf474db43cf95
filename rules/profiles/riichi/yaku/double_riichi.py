"""Double riichi (double_riichi) — 1 han closed, - open. Riichi declared on the player's very first turn,
no call before it (+1 on top of riichi). (004 Rules 4.2.1)
"""

from __future__ import annotations

from rules.profiles.riichi.reading import Reading
from rules.profiles.riichi.yaku.base import YakuDef

DEF = YakuDef(
    id="double_riichi",
    name="Double riichi",
    closed=1,
    open=0,
    ref="004 Rules 4.2.1",
    hand_level=True,
)


def check(r: Reading) -> bool:
    return r.info.riichi and r.info.double_riichi
