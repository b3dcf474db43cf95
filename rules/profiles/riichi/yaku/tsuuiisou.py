"""All honours (tsuuiisou) — Yakuman. Only honour tiles (any shape, seven pairs included). (004 Rules
4.2.5)
"""

from __future__ import annotations

from rules.profiles.riichi.reading import Reading
from rules.profiles.riichi.yaku.base import YakuDef

DEF = YakuDef(
    id="tsuuiisou",
    name="All honours",
    closed=13,
    open=13,
    ref="004 Rules 4.2.5",
    yakuman=True,
    hand_level=True,
)


def check(r: Reading) -> bool:
    c = r.info.counts
    return not any(c[:27])
