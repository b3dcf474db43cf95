"""Last discard (houtei) — 1 han closed, 1 open. Ron on the last discard of the hand. (004 Rules 4.2.1)"""

from __future__ import annotations

from rules.profiles.riichi.reading import Reading
from rules.profiles.riichi.yaku.base import YakuDef

DEF = YakuDef(id="houtei", name="Last discard", closed=1, open=1, ref="004 Rules 4.2.1", hand_level=True)


def check(r: Reading) -> bool:
    i = r.info
    return i.last_tile and not i.self_drawn and not i.kong_replacement and not i.robbing_kong
