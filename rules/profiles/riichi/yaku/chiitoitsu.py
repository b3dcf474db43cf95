"""Seven pairs (chiitoitsu) — 2 han closed, - open. Closed, seven different pairs; always 25 fu. (004 Rules
4.2.2)
"""

from __future__ import annotations

from rules.profiles.riichi.reading import CHIITOITSU, Reading
from rules.profiles.riichi.yaku.base import YakuDef

DEF = YakuDef(id="chiitoitsu", name="Seven pairs", closed=2, open=0, ref="004 Rules 4.2.2")


def check(r: Reading) -> bool:
    return r.shape == CHIITOITSU
