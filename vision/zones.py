"""Zones of the table from its geometry: each seat's pond, meld row, flower/card row, hand row, riichi-stick
strip, and the shared centre (dice, cards, sticks).

Zones are axis-aligned rectangles in the owner's local frame ``(a, b)`` (see :mod:`vision.geometry`) and
therefore axis-aligned in the table frame too, so a zone is a plain slice of the rectified top-down image
turned by a multiple of 90°. The layout (mm, seat-local):

====== ============================ =========================================================
zone   extent (a; b)                what lies there
====== ============================ =========================================================
centre |a|,|b| < 65 (shared)        dice, hu cards "1/2/3" before they are taken, honba sticks
stick  |a| < 60; 68..92             the seat's riichi stick
pond   |a| < 95; 95..287.5          discards, rows of 6, first row nearest the centre (five rows)
meld   |a| < 286; 288..348          declared sets, laid from the player's right end leftwards
side   |a| < 286; 352..394          flowers set aside (left), missing-suit / hu card (right end)
hand   |a| < 286; 398..446          standing tiles (their tops), or the hand laid face up at a reveal
====== ============================ =========================================================
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.geometry import DEFAULT_GEOMETRY, TableGeometry, local_to_table

ZONE_KINDS = ("centre", "stick", "pond", "meld", "side", "hand")

#: kind -> (a0, a1, b0, b1) in the seat's local frame (mm).
_LOCAL_RECTS: dict[str, tuple[float, float, float, float]] = {
    "stick": (-60.0, 60.0, 68.0, 92.0),
    "pond": (-95.0, 95.0, 95.0, 287.5),  # a 5th row (three players) ends at 284 ± 2 (pushed)
    "meld": (-286.0, 286.0, 288.0, 348.0),
    "side": (-286.0, 286.0, 352.0, 394.0),
    "hand": (-286.0, 286.0, 398.0, 446.0),
}
CENTRE_HALF = 65.0
#: Where, inside the side zone, the missing-suit / hu card lies (a range): the flowers lie left of it.
CARD_A0 = 200.0


@dataclass(frozen=True)
class Zone:
    """One zone: ``seat`` is None for the centre. ``local`` is (a0, a1, b0, b1) in the owner's frame."""

    kind: str
    seat: int | None
    local: tuple[float, float, float, float]

    @property
    def name(self) -> str:
        return self.kind if self.seat is None else f"{self.kind}{self.seat}"

    def table_rect(self, geo: TableGeometry = DEFAULT_GEOMETRY) -> tuple[float, float, float, float]:
        """(x0, y0, x1, y1) of the zone in the table frame (mm)."""
        a0, a1, b0, b1 = self.local
        pts = local_to_table(self.seat or 0, np.array([[a0, b0], [a1, b1]]), geo)
        return (float(pts[:, 0].min()), float(pts[:, 1].min()), float(pts[:, 0].max()), float(pts[:, 1].max()))

    def contains_local(self, a: float, b: float) -> bool:
        a0, a1, b0, b1 = self.local
        return a0 <= a <= a1 and b0 <= b <= b1


def table_zones(n_seats: int = 4) -> list[Zone]:
    """Every zone of a table with ``n_seats`` seats (seats 0..n-1; a three-player table leaves North empty)."""
    out = [Zone("centre", None, (-CENTRE_HALF, CENTRE_HALF, -CENTRE_HALF, CENTRE_HALF))]
    for s in range(n_seats):
        for kind, rect in _LOCAL_RECTS.items():
            out.append(Zone(kind, s, rect))
    return out


def zone_of(x: float, y: float, zones: list[Zone], geo: TableGeometry = DEFAULT_GEOMETRY) -> Zone | None:
    """The zone holding table point (x, y) mm, or None."""
    for z in zones:
        x0, y0, x1, y1 = z.table_rect(geo)
        if x0 <= x <= x1 and y0 <= y <= y1:
            return z
    return None
