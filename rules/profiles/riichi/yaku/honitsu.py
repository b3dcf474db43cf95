"""Half flush (honitsu) — 3 han closed, 2 open. One suit plus honours. (004 Rules 4.2.2)"""

from __future__ import annotations

from rules.profiles.riichi.reading import Reading
from rules.profiles.riichi.yaku.base import YakuDef

DEF = YakuDef(id="honitsu", name="Half flush", closed=3, open=2, ref="004 Rules 4.2.2", hand_level=True)


def check(r: Reading) -> bool:
    i = r.info
    return i.suit >= 0 and i.has_honor
