"""Pure straight (ittsu) — 2 han closed, 1 open. Chi 123, 456 and 789 in one suit. (EMA 2016 (missing in
the 004 text; spec Ambiguity A2))
"""

from __future__ import annotations

from rules.profiles.riichi.reading import F_CHI3, Reading
from rules.profiles.riichi.yaku.base import YakuDef

DEF = YakuDef(
    id="ittsu",
    name="Pure straight",
    closed=2,
    open=1,
    ref="EMA 2016 (missing in the 004 text; spec Ambiguity A2)",
    needs=F_CHI3,
)


def check(r: Reading) -> bool:
    bases = set(r.chis)
    return any(s in bases and s + 3 in bases and s + 6 in bases for s in (0, 9, 18))
