"""All green (ryuuiisou) — Yakuman. Only 2, 3, 4, 6, 8 bamboo and green dragons. (004 Rules 4.2.5)"""

from __future__ import annotations

from rules.profiles.riichi.reading import Reading
from rules.profiles.riichi.yaku.base import YakuDef
from rules.tiles import GREEN

DEF = YakuDef(
    id="ryuuiisou",
    name="All green",
    closed=13,
    open=13,
    ref="004 Rules 4.2.5",
    yakuman=True,
    hand_level=True,
)


def check(r: Reading) -> bool:
    i = r.info
    if i.suits not in ((), (2,)):
        return False
    c = i.counts
    return all(c[k] == 0 for k in range(18, 34) if k not in GREEN)


