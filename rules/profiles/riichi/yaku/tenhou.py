"""Blessing of heaven (tenhou) — Yakuman. The dealer wins on his dealt fourteen tiles (no concealed kan
before). (004 Rules 4.2.5)
"""

from __future__ import annotations

from rules.profiles.riichi.reading import Reading
from rules.profiles.riichi.yaku.base import YakuDef

DEF = YakuDef(
    id="tenhou",
    name="Blessing of heaven",
    closed=13,
    open=0,
    ref="004 Rules 4.2.5",
    yakuman=True,
    hand_level=True,
)


def check(r: Reading) -> bool:
    i = r.info
    return i.first_go_around and i.self_drawn and i.dealer
