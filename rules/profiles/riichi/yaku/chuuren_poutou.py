"""Nine gates (chuuren_poutou) — Yakuman. Closed, 1112345678999 in one suit plus one more tile of that suit
(never doubled). (004 Rules 4.2.5)
"""

from __future__ import annotations

from rules.profiles.riichi.reading import Reading
from rules.profiles.riichi.yaku.base import YakuDef

DEF = YakuDef(
    id="chuuren_poutou",
    name="Nine gates",
    closed=13,
    open=0,
    ref="004 Rules 4.2.5",
    yakuman=True,
    hand_level=True,
)


def check(r: Reading) -> bool:
    i = r.info
    if i.hand.melds or i.has_honor or i.suit < 0:
        return False
    s = i.suit * 9
    c = i.counts[s : s + 9]
    return c[0] >= 3 and c[8] >= 3 and all(c[k] >= 1 for k in range(1, 8))
