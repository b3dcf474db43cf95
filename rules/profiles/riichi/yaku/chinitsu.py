"""Full flush (chinitsu) — 6 han closed, 5 open. One suit only, no honours. (004 Rules 4.2.4)"""

from __future__ import annotations

from rules.profiles.riichi.reading import Reading
from rules.profiles.riichi.yaku.base import YakuDef

DEF = YakuDef(id="chinitsu", name="Full flush", closed=6, open=5, ref="004 Rules 4.2.4", hand_level=True)


def check(r: Reading) -> bool:
    i = r.info
    return i.suit >= 0 and not i.has_honor
