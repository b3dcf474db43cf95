"""Triple pon (sanshoku_doukou) — 2 han closed, 2 open. Pons/kans of one number in all three suits. (004
Rules 4.2.2)
"""

from __future__ import annotations

from rules.profiles.riichi.reading import F_PON3, Reading
from rules.profiles.riichi.yaku.base import YakuDef

DEF = YakuDef(id="sanshoku_doukou", name="Triple pon", closed=2, open=2, ref="004 Rules 4.2.2", needs=F_PON3)


def check(r: Reading) -> bool:
    bases = set(r.pons)
    return any(b in bases and b + 9 in bases and b + 18 in bases for b in range(9))
