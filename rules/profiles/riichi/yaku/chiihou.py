"""Blessing of earth (chiihou) — Yakuman. A non-dealer self-draw on his first draw in the first
uninterrupted go-around (no concealed kan). (004 Rules 4.2.5)
"""

from __future__ import annotations

from rules.profiles.riichi.reading import Reading
from rules.profiles.riichi.yaku.base import YakuDef

DEF = YakuDef(
    id="chiihou",
    name="Blessing of earth",
    closed=13,
    open=0,
    ref="004 Rules 4.2.5",
    yakuman=True,
    hand_level=True,
)


def check(r: Reading) -> bool:
    i = r.info
    return i.first_go_around and i.self_drawn and not i.dealer
