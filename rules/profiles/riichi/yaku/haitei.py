"""Last tile from the wall (haitei) — 1 han closed, 1 open. Tsumo on the last live-wall tile (not on a
replacement tile: spec Ambiguity A9). (004 Rules 4.2.1)
"""

from __future__ import annotations

from rules.profiles.riichi.reading import Reading
from rules.profiles.riichi.yaku.base import YakuDef

DEF = YakuDef(
    id="haitei",
    name="Last tile from the wall",
    closed=1,
    open=1,
    ref="004 Rules 4.2.1",
    hand_level=True,
)


def check(r: Reading) -> bool:
    i = r.info
    return i.last_tile and i.self_drawn and not i.kong_replacement
