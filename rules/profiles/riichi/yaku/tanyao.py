"""All simples (tanyao) — 1 han closed, 1 open. No terminals or honours anywhere (open allowed: EMA 2016,
see the spec's Ambiguity A3). (004 Rules 4.2.1)
"""

from __future__ import annotations

from rules.profiles.riichi.reading import Reading
from rules.profiles.riichi.yaku.base import YakuDef

DEF = YakuDef(id="tanyao", name="All simples", closed=1, open=1, ref="004 Rules 4.2.1", hand_level=True)


def check(r: Reading) -> bool:
    return r.info.simples_only
