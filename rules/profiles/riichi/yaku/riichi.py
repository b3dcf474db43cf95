"""Riichi (riichi) — 1 han closed, - open. A closed waiting hand with a 1000-point stake declared. (004
Rules 4.2.1, 3.3.14)
"""

from __future__ import annotations

from rules.profiles.riichi.reading import Reading
from rules.profiles.riichi.yaku.base import YakuDef

DEF = YakuDef(id="riichi", name="Riichi", closed=1, open=0, ref="004 Rules 4.2.1, 3.3.14", hand_level=True)


def check(r: Reading) -> bool:
    return r.info.riichi
