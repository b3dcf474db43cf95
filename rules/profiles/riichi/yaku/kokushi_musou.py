"""Thirteen orphans (kokushi_musou) — Yakuman. One of each terminal and honour plus one duplicate; may rob
a concealed kan. (004 Rules 4.2.5)
"""

from __future__ import annotations

from rules.profiles.riichi.reading import KOKUSHI, Reading
from rules.profiles.riichi.yaku.base import YakuDef

DEF = YakuDef(
    id="kokushi_musou",
    name="Thirteen orphans",
    closed=13,
    open=0,
    ref="004 Rules 4.2.5",
    yakuman=True,
)


def check(r: Reading) -> bool:
    return r.shape == KOKUSHI
