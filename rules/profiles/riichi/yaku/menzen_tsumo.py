"""Fully concealed hand (menzen_tsumo) — 1 han closed, - open. A self-drawn win with a closed hand (a
replacement tile counts as self-drawn). (004 Rules 4.2.1)
"""

from __future__ import annotations

from rules.profiles.riichi.reading import Reading
from rules.profiles.riichi.yaku.base import YakuDef

DEF = YakuDef(
    id="menzen_tsumo",
    name="Fully concealed hand",
    closed=1,
    open=0,
    ref="004 Rules 4.2.1",
    hand_level=True,
)


def check(r: Reading) -> bool:
    return r.info.closed and (r.info.self_drawn or r.info.kong_replacement)
