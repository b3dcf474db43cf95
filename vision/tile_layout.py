"""Enrollment from one photo of the documented calibration layout.

Lay each face of the set once, face up and upright (top of the tile away from the camera's bottom edge),
in this grid on a plain table, and take one photo from above (see ``docs/vision-model.md``)::

    row 1:  1m 2m 3m 4m 5m 6m 7m 8m 9m
    row 2:  1p 2p 3p 4p 5p 6p 7p 8p 9p
    row 3:  1s 2s 3s 4s 5s 6s 7s 8s 9s
    row 4:  1z 2z 3z 4z 5z 6z 7z back
    row 5:  0m 0p 0s j
    row 6:  1f 2f 3f 4f 5f 6f 7f 8f

A set without some faces leaves their cells empty (rows 5 and 6 may be missing altogether). The tiles are
found as blobs that differ from the table colour, grouped into rows, and assigned to columns by the
row pitch.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

import cv2
import numpy as np

from vision.arrays import Float32Array, Image

if TYPE_CHECKING:
    from vision.calibration import Calibration

LAYOUT: tuple[tuple[str, ...], ...] = (
    tuple(f"{n}m" for n in range(1, 10)),
    tuple(f"{n}p" for n in range(1, 10)),
    tuple(f"{n}s" for n in range(1, 10)),
    tuple(f"{n}z" for n in range(1, 8)) + ("back",),
    ("0m", "0p", "0s", "j"),
    tuple(f"{n}f" for n in range(1, 9)),
)
#: Centre-to-centre spacing (mm) of the layout on a table (along a row, between rows): a gap of about a
#: third of a tile.
LAYOUT_PITCH_MM = (37.0, 48.0)


def find_tiles(photo: Image) -> list[tuple[int, int, int, int]]:
    """Bounding boxes (x, y, w, h) of tile-sized blobs that stand out from the table colour."""
    h, w = photo.shape[:2]
    lab = cv2.cvtColor(cv2.GaussianBlur(photo, (5, 5), 0), cv2.COLOR_BGR2LAB).astype(np.float32)
    border = np.concatenate([lab[:4].reshape(-1, 3), lab[-4:].reshape(-1, 3), lab[:, :4].reshape(-1, 3),
                             lab[:, -4:].reshape(-1, 3)])
    table = np.median(border, axis=0)
    dist = np.linalg.norm(lab - table, axis=2)
    scale = 255.0 / max(float(dist.max()), 1.0)
    otsu, _ = cv2.threshold(np.clip(dist * scale, 0, 255).astype(np.uint8), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    mask = (dist > max(18.0, 0.5 * otsu / scale)).astype(np.uint8) * 255
    edges = cv2.Canny(cv2.cvtColor(photo, cv2.COLOR_BGR2GRAY), 30, 90)
    mask = cv2.bitwise_or(mask, edges)  # dark faces on a dark table still have glyph and outline edges
    k = max(3, int(min(h, w) * 0.02)) | 1
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((k, k), np.uint8))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((k, k), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    boxes = [(int(x), int(y), int(bw), int(bh)) for x, y, bw, bh in map(cv2.boundingRect, contours)]
    boxes = [b for b in boxes if b[2] * b[3] > 0.0005 * h * w]
    if not boxes:
        return []
    med = float(np.median([b[2] * b[3] for b in boxes]))
    return [b for b in boxes if 0.4 * med < b[2] * b[3] < 2.2 * med and 0.45 < b[2] / b[3] < 1.2]


def _grid(boxes: list[tuple[int, int, int, int]], pitch: tuple[float, float] | None = None
          ) -> list[tuple[tuple[int, int, int, int], str]]:
    """Each box with its layout label: rows by their vertical pitch from the top row, columns by the row
    pitch from the leftmost tile (so a missing row or face keeps the others in place). ``pitch`` (px along
    a row, between rows) where the scale is known, else estimated from the boxes."""
    boxes = sorted(boxes, key=lambda b: b[1] + b[3] / 2)
    th = float(np.median([b[3] for b in boxes]))
    rows: list[list[tuple[int, int, int, int]]] = [[boxes[0]]]
    for b in boxes[1:]:
        prev = rows[-1][-1]
        if (b[1] + b[3] / 2) - (prev[1] + prev[3] / 2) > 0.5 * th:
            rows.append([])
        rows[-1].append(b)
    ys = [float(np.median([b[1] + b[3] / 2 for b in r])) for r in rows]
    if pitch is None:
        full = [r for r in rows if len(r) >= 2]
        if not full:
            raise ValueError("no row of the calibration layout has two tiles")
        pa = float(np.median([np.median(np.diff(sorted(b[0] + b[2] / 2 for b in r))) for r in full]))
        gaps = np.diff(ys)
        pb = float(np.min(gaps)) if len(gaps) else th * 1.3
        pb = float(np.median([g for g in gaps if g < 1.5 * pb])) if len(gaps) else pb
    else:
        pa, pb = pitch
    x0 = min(b[0] + b[2] / 2 for r in rows for b in r)
    out = []
    for y, row in zip(ys, rows):
        r = int(round((y - ys[0]) / pb))
        if r >= len(LAYOUT):
            raise ValueError(f"found tiles in row {r + 1}, the calibration layout has {len(LAYOUT)} rows")
        for b in row:
            col = int(round((b[0] + b[2] / 2 - x0) / pa))
            if col >= len(LAYOUT[r]):
                raise ValueError(f"row {r + 1} has a tile in column {col + 1}, beyond its {len(LAYOUT[r])} faces")
            out.append((b, LAYOUT[r][col]))
    return out


def read_layout(photo: Image, margin: float = 0.04) -> dict[str, Image]:
    """Crops per label from a photo of the calibration layout; ValueError if no grid is recognisable."""
    boxes = find_tiles(photo)
    if len(boxes) < 9:
        raise ValueError(f"found {len(boxes)} tiles, expected the calibration grid (at least one full row)")
    out: dict[str, Image] = {}
    for (x, y, w, h), lab in _grid(boxes):
        mx, my = int(w * margin), int(h * margin)
        out[lab] = photo[max(0, y - my):y + h + my, max(0, x - mx):x + w + mx].copy()
    return out


#: The part of the table (mm from the centre, x and y) the table camera's layout is looked for in.
TABLE_LAYOUT_HALF = (215.0, 175.0)


@dataclass
class CentreView:
    """The table's centre as the pipeline rectifies it (``image``, at ``px_per_mm``, its top-left pixel at
    ``origin_mm`` in the table frame), its foreground ``mask`` (the tile finder's) and the calibration."""

    image: Image
    mask: Image
    calibration: Calibration
    px_per_mm: float
    origin_mm: tuple[float, float]

    def to_mm(self, x: float, y: float) -> tuple[float, float]:
        """Table-frame mm of a pixel of the view (its centre at +0.5, as the rectifier maps them)."""
        return (self.origin_mm[0] + (x + 0.5) / self.px_per_mm, self.origin_mm[1] + (y + 0.5) / self.px_per_mm)


def centre_view(frame: Image, calibration: Calibration | None = None, px_per_mm: float = 1.2,
                half: tuple[float, float] = TABLE_LAYOUT_HALF) -> CentreView:
    """The centre of a frame of the table's camera (``half`` mm either way), rectified exactly as the table
    pipeline rectifies a zone, with the tile finder's foreground mask against the felt around it. ValueError
    (CalibrationError) if the markers are not found."""
    from vision.calibration import Rectifier, calibrate
    from vision.tile_finder import ZoneImage, foreground, median_u8

    cal = calibration if calibration is not None else calibrate(frame)
    rect = Rectifier(cal, px_per_mm)
    c = cal.geometry.centre * px_per_mm
    hx, hy = (int(round(v * px_per_mm)) for v in half)
    ys, xs = slice(int(c) - hy, int(c) + hy), slice(int(c) - hx, int(c) + hx)
    view = rect.block_maps(ys, xs)
    img = cast(Image, cv2.remap(frame, view[0], view[1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT))
    ring = np.concatenate([img[:2].reshape(-1, 3), img[-2:].reshape(-1, 3), img[:, :2].reshape(-1, 3),
                           img[:, -2:].reshape(-1, 3)])
    zi = ZoneImage(None, img, median_u8(ring))  # type: ignore[arg-type]
    mask = foreground(zi, px_per_mm=px_per_mm)
    return CentreView(img, mask, cal, px_per_mm, (xs.start / px_per_mm, ys.start / px_per_mm))


Box = tuple[int, int, int, int]


def centre_blobs(view: CentreView) -> tuple[list[Box], list[Box]]:
    """The view's blobs as (tile-sized boxes, the other boxes of a tenth of a tile or more): a tile lies
    upright; the others are tiles touching, a tile turned sideways, a hand, clutter."""
    n, _, stats, _ = cv2.connectedComponentsWithStats(view.mask, connectivity=8)
    geo = view.calibration.geometry
    tw, th = geo.tile_w * view.px_per_mm, geo.tile_h * view.px_per_mm
    tiles: list[Box] = []
    other: list[Box] = []
    for i in range(1, n):
        x, y, w, h, area = (int(v) for v in stats[i])
        if 0.75 * tw < w < 1.3 * tw and 0.75 * th < h < 1.3 * th:
            tiles.append((x, y, w, h))
        elif area >= 0.1 * tw * th:
            other.append((x, y, w, h))
    return tiles, other


def read_table_layout(frame: Image, calibration: Calibration | None = None, px_per_mm: float = 1.2
                      ) -> dict[str, Image]:
    """Crops per label from a frame of the table's own camera with the calibration layout laid out in the
    table's centre, upright for East (the camera's bottom edge). The frame is rectified as the table
    pipeline rectifies it and the tiles are cut as its tile finder cuts them, so the crops are the very
    kind of picture the pipeline reads. ValueError (CalibrationError) if the markers or the grid are not
    found."""
    view = centre_view(frame, calibration, px_per_mm)
    img = view.image
    boxes, _ = centre_blobs(view)
    if len(boxes) < 9:
        raise ValueError(f"found {len(boxes)} tiles in the table's centre, expected the calibration layout")
    pitch = (LAYOUT_PITCH_MM[0] * px_per_mm, LAYOUT_PITCH_MM[1] * px_per_mm)
    out: dict[str, Image] = {}
    for (x, y, w, h), lab in _grid(boxes, pitch):
        out[lab] = np.ascontiguousarray(img[y:y + h, x:x + w])
    return out


def render_layout(style: str, tile_height: int = 80, seed: int = 0, labels: set[str] | None = None) -> Image:
    """A synthetic overhead photo of the calibration layout for ``style`` (tests, docs)."""
    from vision.tile_render import TABLE_COLOURS, face_image, load_style

    st = load_style(style)
    have = set(st.labels) if labels is None else labels
    rng = np.random.default_rng(seed)
    tw = int(tile_height * 0.75)
    gap = int(tile_height * 0.35)
    rows = [r for r in LAYOUT if any(lab in have for lab in r)]
    h = len(rows) * (tile_height + gap) + gap
    w = 9 * (tw + gap) + gap
    img: Float32Array = np.empty((h, w, 3), np.float32)
    img[:] = TABLE_COLOURS[int(rng.integers(len(TABLE_COLOURS)))]
    img += rng.normal(0, 4, img.shape)
    for r, row in enumerate(rows):
        for c, lab in enumerate(row):
            if lab not in have:
                continue
            f = face_image(st, lab, tile_height).astype(np.float32)
            x, y = gap + c * (tw + gap) + int(rng.integers(-3, 4)), gap + r * (tile_height + gap) + int(rng.integers(-3, 4))
            a = f[..., 3:4] / 255.0
            img[y:y + tile_height, x:x + f.shape[1]] = img[y:y + tile_height, x:x + f.shape[1]] * (1 - a) + f[..., :3] * a
    ramp: Float32Array = np.linspace(0.85, 1.1, w, dtype=np.float32)[None, :, None]
    out: Image = np.clip(img * ramp, 0, 255).astype(np.uint8)
    return out
