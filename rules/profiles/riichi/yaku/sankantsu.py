"""Three kans (sankantsu) — 2 han closed, 2 open. Three kans of any kind. (004 Rules 4.2.2)"""

from __future__ import annotations

from rules.profiles.riichi.reading import Reading
from rules.profiles.riichi.yaku.base import YakuDef

DEF = YakuDef(id="sankantsu", name="Three kans", closed=2, open=2, ref="004 Rules 4.2.2", hand_level=True)


def check(r: Reading) -> bool:
    return r.info.n_kans == 3
