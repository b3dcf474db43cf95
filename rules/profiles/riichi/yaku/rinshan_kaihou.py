"""After a kan (rinshan_kaihou) — 1 han closed, 1 open. A win on a kan replacement tile (counts as self-
drawn). (004 Rules 4.2.1)
"""

from __future__ import annotations

from rules.profiles.riichi.reading import Reading
from rules.profiles.riichi.yaku.base import YakuDef

DEF = YakuDef(
    id="rinshan_kaihou",
    name="After a kan",
    closed=1,
    open=1,
    ref="004 Rules 4.2.1",
    hand_level=True,
)


def check(r: Reading) -> bool:
    return r.info.kong_replacement
