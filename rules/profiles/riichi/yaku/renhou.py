"""Blessing of man (renhou) — 5 han closed, - open. Ron in the first uninterrupted go-around before the
player's own first turn (non-dealer). (004 Rules 4.2.4; spec Ambiguity A7 (5 han, cumulative))
"""

from __future__ import annotations

from rules.profiles.riichi.reading import Reading
from rules.profiles.riichi.yaku.base import YakuDef

DEF = YakuDef(
    id="renhou",
    name="Blessing of man",
    closed=5,
    open=0,
    ref="004 Rules 4.2.4; spec Ambiguity A7 (5 han, cumulative)",
    hand_level=True,
)


def check(r: Reading) -> bool:
    i = r.info
    return i.first_go_around and not i.self_drawn and not i.dealer
