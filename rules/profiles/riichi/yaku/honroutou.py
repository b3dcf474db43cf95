"""All terminals and honours (honroutou) — 2 han closed, 2 open. Only terminals and honours (always with
toitoi or chiitoitsu). (004 Rules 4.2.2)
"""

from __future__ import annotations

from rules.profiles.riichi.reading import Reading
from rules.profiles.riichi.yaku.base import YakuDef

DEF = YakuDef(
    id="honroutou",
    name="All terminals and honours",
    closed=2,
    open=2,
    ref="004 Rules 4.2.2",
    hand_level=True,
)


def check(r: Reading) -> bool:
    return r.info.terminals_honors_only
