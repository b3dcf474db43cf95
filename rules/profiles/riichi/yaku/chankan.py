"""Robbing a kan (chankan) — 1 han closed, 1 open. Ron on the tile added to a pon (or, for thirteen
orphans, on a concealed kan); counts as ron. (004 Rules 4.2.1)
"""

from __future__ import annotations

from rules.profiles.riichi.reading import Reading
from rules.profiles.riichi.yaku.base import YakuDef

DEF = YakuDef(id="chankan", name="Robbing a kan", closed=1, open=1, ref="004 Rules 4.2.1", hand_level=True)


def check(r: Reading) -> bool:
    return r.info.robbing_kong
