"""All terminals (chinroutou) — Yakuman. Only 1 and 9 tiles. (004 Rules 4.2.5)"""

from __future__ import annotations

from rules.profiles.riichi.reading import Reading
from rules.profiles.riichi.yaku.base import YakuDef

DEF = YakuDef(
    id="chinroutou",
    name="All terminals",
    closed=13,
    open=13,
    ref="004 Rules 4.2.5",
    yakuman=True,
    hand_level=True,
)


def check(r: Reading) -> bool:
    i = r.info
    return i.terminals_honors_only and not i.has_honor  # only terminals (1 and 9 of the suits)
