"""Little three dragons (shousangen) — 2 han closed, 2 open. Two dragon pons/kans and a dragon pair (the
two dragon pons count as yakuhai too). (004 Rules 4.2.2)
"""

from __future__ import annotations

from rules.profiles.riichi.reading import F_DRAGON_PAIR, F_HONOR_PON, Reading
from rules.profiles.riichi.yaku.base import YakuDef
from rules.tiles import DRAGONS

DEF = YakuDef(
    id="shousangen",
    name="Little three dragons",
    closed=2,
    open=2,
    ref="004 Rules 4.2.2",
    needs=F_DRAGON_PAIR | F_HONOR_PON,
)


def check(r: Reading) -> bool:
    bases = r.pons
    return r.pair in DRAGONS and sum(1 for d in DRAGONS if d in bases) == 2
