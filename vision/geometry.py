"""Table geometry in millimetres: the top-down table frame, the seats' own frames and tile sizes.

The table frame has its origin at the top-left corner of the playing surface as the overhead camera sees
it after calibration, ``x`` to the right and ``y`` down, both in millimetres. Seat 0 (East) sits at the
bottom edge; turn order E→S→W→N runs counter-clockwise seen from above, so South (1) sits on the right
edge, West (2) at the top and North (3) on the left — East's left player is North, as
:func:`rules.events.relative_source` counts it.

Every seat also has a *local* frame ``(a, b)``: ``a`` points to the player's right, ``b`` from the table
centre towards the player (so the pond's first row, nearest the centre, has the smallest ``b``).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from vision.arrays import Float64Array

#: Seat axes in the table frame: (a axis, b axis) unit vectors for seats 0..3.
_SEAT_AXES: tuple[tuple[tuple[int, int], tuple[int, int]], ...] = (
    ((1, 0), (0, 1)),    # East, bottom edge
    ((0, -1), (1, 0)),   # South, right edge
    ((-1, 0), (0, -1)),  # West, top edge
    ((0, 1), (-1, 0)),   # North, left edge
)


@dataclass(frozen=True)
class TableGeometry:
    """Physical dimensions of the table and its tiles (mm)."""

    size: float = 900.0  # the square playing surface seen by the camera
    tile_w: float = 27.0  # a tile's top face, short side
    tile_h: float = 36.0  # a tile's top face, long side
    tile_depth: float = 20.0  # tile thickness: what a standing tile shows from above
    marker: float = 60.0  # ArUco marker side
    marker_inset: float = 15.0  # marker edge to table edge

    @property
    def centre(self) -> float:
        return self.size / 2.0

    def marker_centres(self) -> Float64Array:
        """Centres (4, 2) of the calibration markers: ids 0..3 at the TL, TR, BR, BL corners."""
        c = self.marker_inset + self.marker / 2.0
        s = self.size
        return np.array([[c, c], [s - c, c], [s - c, s - c], [c, s - c]], np.float64)

    def marker_corners(self) -> Float64Array:
        """Corners (4 markers, 4 corners, 2) in ArUco order (TL, TR, BR, BL of each marker, as printed)."""
        h = self.marker / 2.0
        off = np.array([[-h, -h], [h, -h], [h, h], [-h, h]], np.float64)
        return self.marker_centres()[:, None, :] + off[None, :, :]


DEFAULT_GEOMETRY = TableGeometry()


def seat_axes(seat: int) -> tuple[Float64Array, Float64Array]:
    """The seat's ``a`` (player's right) and ``b`` (centre → player) unit vectors in the table frame."""
    a, b = _SEAT_AXES[seat % 4]
    return np.array(a, np.float64), np.array(b, np.float64)


def local_to_table(seat: int, pts: npt.ArrayLike, geo: TableGeometry = DEFAULT_GEOMETRY) -> Float64Array:
    """Map seat-local points (N, 2) of ``(a, b)`` to table-frame millimetres."""
    a, b = seat_axes(seat)
    p = np.asarray(pts, np.float64).reshape(-1, 2)
    return geo.centre + p[:, :1] * a + p[:, 1:2] * b


def table_to_local(seat: int, pts: npt.ArrayLike, geo: TableGeometry = DEFAULT_GEOMETRY) -> Float64Array:
    """Map table-frame points (N, 2) to the seat's ``(a, b)`` frame."""
    a, b = seat_axes(seat)
    d = np.asarray(pts, np.float64).reshape(-1, 2) - geo.centre
    return np.stack([d @ a, d @ b], axis=1)


def rect_corners(cx: float, cy: float, w: float, h: float, angle_deg: float = 0.0) -> Float64Array:
    """Corners (4, 2) of a ``w``×``h`` rectangle centred at (cx, cy), turned ``angle_deg`` (TL, TR, BR, BL)."""
    t = np.deg2rad(angle_deg)
    r = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]], np.float64)
    off = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]], np.float64)
    return off @ r.T + np.array([cx, cy], np.float64)


def apply_homography(h: npt.ArrayLike, pts: npt.ArrayLike) -> Float64Array:
    """Apply a 3×3 homography to points (..., 2)."""
    p = np.asarray(pts, np.float64)
    flat = p.reshape(-1, 2)
    q: Float64Array = np.c_[flat, np.ones(len(flat))] @ np.asarray(h, np.float64).T
    return (q[:, :2] / q[:, 2:3]).reshape(p.shape)
