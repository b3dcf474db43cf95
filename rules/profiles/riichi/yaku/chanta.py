"""Outside hand (chanta) — 2 han closed, 1 open. Every set and the pair hold a terminal or honour; at least
one chi; at least one honour (else junchan). (004 Rules 4.2.1)
"""

from __future__ import annotations

from rules.profiles.riichi.reading import F_OUTSIDE_PAIR, Reading
from rules.profiles.riichi.yaku.base import YakuDef
from rules.profiles.riichi.yaku.junchan import outside

DEF = YakuDef(id="chanta", name="Outside hand", closed=2, open=1, ref="004 Rules 4.2.1", needs=F_OUTSIDE_PAIR)


def check(r: Reading) -> bool:
    return r.info.has_honor and outside(r)
