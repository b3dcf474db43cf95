"""Ippatsu (ippatsu) — 1 han closed, - open. A win within the first uninterrupted go-around after the
riichi declaration (incl. the declarer's next draw). (004 Rules 4.2.1, 3.3.14)
"""

from __future__ import annotations

from rules.profiles.riichi.reading import Reading
from rules.profiles.riichi.yaku.base import YakuDef

DEF = YakuDef(id="ippatsu", name="Ippatsu", closed=1, open=0, ref="004 Rules 4.2.1, 3.3.14", hand_level=True)


def check(r: Reading) -> bool:
    return r.info.riichi and r.info.ippatsu
