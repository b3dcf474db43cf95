"""Mixed triple chow (sanshoku_doujun) — 2 han closed, 1 open. Chi of the same numbers in all three suits.
(004 Rules 4.2.1)
"""

from __future__ import annotations

from rules.profiles.riichi.reading import F_CHI3, Reading
from rules.profiles.riichi.yaku.base import YakuDef

DEF = YakuDef(
    id="sanshoku_doujun",
    name="Mixed triple chow",
    closed=2,
    open=1,
    ref="004 Rules 4.2.1",
    needs=F_CHI3,
)


def check(r: Reading) -> bool:
    bases = set(r.chis)
    return any(b in bases and b + 9 in bases and b + 18 in bases for b in range(7))
