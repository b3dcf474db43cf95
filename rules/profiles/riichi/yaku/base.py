"""The shape of one yaku unit: its definition (id, name, han closed/open, seed reference)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class YakuDef:
    """``closed``/``open``: han when the hand is closed/open; 0 = not possible that way.

    Yakuman carry ``yakuman=True`` and the marker value 13 (they never stack, 004 Rules 4.2).
    ``hand_level``: the yaku depends only on the tiles and the context, not on how the hand is read
    into sets (the scorer checks it once per hand instead of once per reading).
    """

    id: str
    name: str
    closed: int
    open: int
    ref: str
    yakuman: bool = False
    hand_level: bool = False
    needs: int = 0  # reading features (``reading.F_*`` bits) the yaku cannot exist without

    def han(self, closed: bool) -> int:
        return self.closed if closed else self.open
