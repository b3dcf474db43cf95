"""Three concealed pons (sanankou) — 2 han closed, 2 open. Three concealed pons/kans (a pon completed by a
discard is not concealed); the hand may be open. (004 Rules 4.2.2)
"""

from __future__ import annotations

from rules.profiles.riichi.reading import F_PON3, Reading
from rules.profiles.riichi.yaku.base import YakuDef

DEF = YakuDef(
    id="sanankou",
    name="Three concealed pons",
    closed=2,
    open=2,
    ref="004 Rules 4.2.2",
    needs=F_PON3,
)


def check(r: Reading) -> bool:
    return r.n_concealed_pons >= 3
