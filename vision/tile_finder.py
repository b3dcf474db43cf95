"""Find every tile (face up, face down, standing) in the rectified top-down table image, zone by zone.

Each seat zone is a slice of the rectified image turned into its owner's view (``a`` right, ``b`` down
towards the owner), so rows of tiles run along the image's x axis whatever the seat. In a zone:

1. foreground = pixels far from the felt colour (estimated on the empty gutter just outside the zone),
   cleaned and hole-filled per contour (glyph strokes that match the felt do not punch holes);
2. each blob is cut into rows (pond rows touching) and each row into runs of columns by the blob's
   height there — upright tiles are 36 mm deep, sideways tiles 27 mm, a sideways tile with an added-kong
   tile beside it 54 mm, standing tiles 20 mm — and each run into ``round(length / tile length)`` tiles;
3. a blob that fits no tile shape (a hand, a sleeve) or runs out of the zone marks the zone occluded.

Output: :class:`Found` boxes in the zone's local pixels plus oriented rectangles in table millimetres.
Everything is vectorised per zone; a 100-tile table takes a few milliseconds.
"""
from __future__ import annotations

import functools
from collections.abc import Iterator
from dataclasses import dataclass
from typing import cast

import cv2
import numpy as np
import numpy.typing as npt

from vision.arrays import Float32Array, Float64Array, Image, IntArray
from vision.geometry import DEFAULT_GEOMETRY, TableGeometry, local_to_table
from vision.zones import Zone

FG_THRESHOLD = 38.0
POND_B0 = 98.0  # the pond grid (mm, seat-local b): first row top, row pitch
ROW_PITCH_B = 37.5  # max channel difference from the felt that counts as "something"


@dataclass(frozen=True, eq=False)
class Found:
    """A tile-sized object in a zone. ``box``: (x0, y0, x1, y1) in the zone's local pixels (owner view);
    ``turns`` 0 upright (or standing), 1 sideways; ``layer`` 1 for the tile lying beyond a sideways tile
    (an added kong's 4th tile); ``shape``: "tile", "stand", "stick", "card", "die"."""

    zone: Zone
    box: tuple[int, int, int, int]
    turns: int
    layer: int = 0
    shape: str = "tile"

    def centre_local_mm(self, px_per_mm: float) -> tuple[float, float]:
        a0, _, b0, _ = self.zone.local
        x0, y0, x1, y1 = self.box
        m = MARGIN_PX / px_per_mm
        return a0 - m + (x0 + x1) / 2 / px_per_mm, b0 - m + (y0 + y1) / 2 / px_per_mm

    def poly_mm(self, px_per_mm: float, geo: TableGeometry = DEFAULT_GEOMETRY) -> Float64Array:
        """The oriented rectangle (4, 2) in table millimetres (owner-view TL, TR, BR, BL)."""
        a0, _, b0, _ = self.zone.local
        x0, y0, x1, y1 = self.box
        m = MARGIN_PX / px_per_mm
        loc = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float64) / px_per_mm + [a0 - m, b0 - m]
        return local_to_table(self.zone.seat or 0, loc, geo)


@dataclass
class ZoneImage:
    """A zone's slice of the rectified image in its owner's view, and its felt colour."""

    zone: Zone
    image: Image
    felt: Float32Array
    mask: Image | None = None
    raw: Image | None = None  # the thresholded mask before morphology

    def pixels(self, x0: int, y0: int, x1: int, y1: int) -> Image:
        """The pixels of the box (local pixels), clipped to the slice."""
        h, w = self.image.shape[:2]
        return self.image[max(0, y0):min(h, y1), max(0, x0):min(w, x1)]


def zone_slice(zone: Zone, px_per_mm: float, geo: TableGeometry = DEFAULT_GEOMETRY,
               margin_px: int = 0) -> tuple[slice, slice]:
    x0, y0, x1, y1 = zone.table_rect(geo)
    return (slice(int(round(y0 * px_per_mm)) - margin_px, int(round(y1 * px_per_mm)) + margin_px),
            slice(int(round(x0 * px_per_mm)) - margin_px, int(round(x1 * px_per_mm)) + margin_px))


#: a blob in a hand zone this deep (mm), where tiles may stand in two rows, is two rows of standing tiles
#: (20 mm each, 22 mm apart) that touch, not a hand laid face up (36 mm; 37.5 with its shadow, more with a
#: tile pushed out of line)
TWO_RACKS_MM = (41.0, 50.0)
MARGIN_PX = 5  # felt ring (outer 2 px) and morphology margin around a zone
CLOTH_PLACE = 0.25  # a pond "tile" with less of its box unlike the felt than this is a hole of cloth (tiles: >= 0.9)
SPILL_MM = 8.0  # a blob at a zone's edge no deeper than this is the edge of a tile of the next zone (no tile is)


def zone_image(top: Image, zone: Zone, px_per_mm: float, geo: TableGeometry = DEFAULT_GEOMETRY) -> ZoneImage:
    """Cut ``zone`` (with a margin) out of the rectified image ``top`` and turn it into its owner's view."""
    ys, xs = zone_slice(zone, px_per_mm, geo, MARGIN_PX)
    big = top[ys, xs]
    k = quarter_turns(zone)
    rot = (None, cv2.ROTATE_90_CLOCKWISE, cv2.ROTATE_180, cv2.ROTATE_90_COUNTERCLOCKWISE)[k]
    return zone_view(cast(Image, cv2.rotate(big, rot)) if rot is not None else big, zone)


def quarter_turns(zone: Zone) -> int:
    """Clockwise quarter turns from the table image to the zone owner's view: seat 1 one, seat 2 two,
    seat 3 three (anticlockwise one); the centre is seen as seat 0 sees it."""
    return (zone.seat or 0) % 4


def zone_view(view: Image, zone: Zone) -> ZoneImage:
    """A zone image from its pixels already in the owner's view (the zone slice with ``MARGIN_PX``, turned
    by :func:`quarter_turns`): the felt colour is the median of the outer two pixels all round."""
    return ZoneImage(zone, view, median_u8(_felt(view, zone, 2)[::3]))


def _felt(view: Image, zone: Zone, ring: int) -> Image:
    """The pixels (n, 3) of the outer ``ring`` rows and columns, in the table image's order."""
    big = np.rot90(view, quarter_turns(zone))  # the table image's orientation (a view, no copy)
    px = np.concatenate([big[:ring].reshape(-1, 3), big[-ring:].reshape(-1, 3), big[:, :ring].reshape(-1, 3),
                         big[:, -ring:].reshape(-1, 3)])
    return px


def median_u8(px: Image) -> Float32Array:
    """Per-channel median (float32, as ``np.median``) of uint8 pixels (n, c), from one histogram."""
    n, c = px.shape
    if n == 0:
        return np.zeros(c, np.float32)
    hist = np.bincount((px + np.arange(c, dtype=np.int32) * 256).ravel(), minlength=256 * c)
    cum = np.cumsum(hist.reshape(c, 256), axis=1)
    lo: IntArray = (cum < (n - 1) // 2 + 1).sum(1)  # the two middle order statistics of each channel
    hi: IntArray = (cum < n // 2 + 1).sum(1)
    return ((lo + hi) / 2).astype(np.float32)


@functools.lru_cache(maxsize=64)
def _hsv(bgr: tuple[int, int, int]) -> tuple[int, int, int]:
    h, s, v = cv2.cvtColor(np.array([[bgr]], np.uint8), cv2.COLOR_BGR2HSV)[0, 0]
    return int(h), int(s), int(v)


def foreground(zi: ZoneImage, threshold: float = FG_THRESHOLD, px_per_mm: float = 1.2,
               face: tuple[int, int, int] | None = None) -> Image:
    """Hole-filled uint8 mask (0/255) of everything that is not felt (margin included); with ``face`` (the
    tile set's face colour, BGR) pixels of that colour under any lighting count too, so a tile's border
    closes around glyph inks that happen to look like the felt."""
    img = zi.image
    felt = (float(zi.felt[0]), float(zi.felt[1]), float(zi.felt[2]), 0.0)
    d = cv2.absdiff(img, felt)  # type: ignore[call-overload]  # a scalar operand: OpenCV's stubs list arrays only
    b, g, r = cv2.split(d)
    dm = cv2.max(cv2.max(b, g), r)
    _, thresholded = cv2.threshold(dm, threshold, 255, cv2.THRESH_BINARY)
    mask = cast(Image, thresholded)
    if face is not None:  # the face colour under any lighting: its hue/saturation, a range of values
        hsv = cast(Image, cv2.cvtColor(img, cv2.COLOR_BGR2HSV))
        fh, fs, fv = _hsv(tuple(face))
        felt_v = float(max(zi.felt))
        v_lo = max(0.55 * fv, felt_v * 1.15) if felt_v < fv else 0.55 * fv
        lo = (0, max(0, fs - 30), int(v_lo))
        hi = (180, min(255, fs + 30), min(255, int(1.35 * fv) + 1))
        face_like = cast(Image, cv2.inRange(hsv, lo, hi))
        if fs > 60:  # a coloured face: its hue matters too
            dh = cast(Image, cv2.absdiff(hsv[..., 0], fh))  # type: ignore[call-overload]  # a scalar operand, as above
            face_like &= ((dh < 12) | (dh > 168)).astype(np.uint8) * 255
        mask |= face_like
    zi.raw = mask.copy()
    mask = cast(Image, cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)))
    mask = cast(Image, cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8)))  # glyph strokes of felt colour
    contours, hier = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hier is not None:  # fill small holes only (a notch between tiles is not a hole in a tile)
        # a glyph hole lies inside one tile; the notch above a sideways tile between two upright ones is
        # a whole tile long (36 mm) and shallow
        holes = [c for c, h in zip(contours, hier[0]) if h[3] >= 0
                 and (cv2.boundingRect(c)[2] < 31 * px_per_mm or cv2.contourArea(c) < 250 * px_per_mm ** 2)]
        if holes:
            cv2.drawContours(mask, holes, -1, 255, -1)
    zi.mask = mask
    return mask


_VKERNEL = np.ones((5, 1), np.uint8)
Classes = npt.NDArray[np.int32]  # a column class per column of a band (see _DEPTH_MM)


def _runs(cls: Classes) -> list[tuple[int, int, int]]:
    """(start, end_exclusive, value) runs of a 1-D int array."""
    if len(cls) == 0:
        return []
    edges = (np.flatnonzero(cls[1:] != cls[:-1]) + 1).tolist()
    starts = [0] + edges
    vals = cls[starts].tolist()
    return list(zip(starts, edges + [len(cls)], vals))


# column classes: 0 empty, 1 standing (20 mm), 2 sideways (27), 3 upright (36), 4 sideways + added (54)
_DEPTH_MM = {1: 20.0, 2: 27.0, 3: 36.0, 4: 54.0}


def _classify_heights(h_mm: Float64Array, kind: str) -> Classes:
    c = np.zeros(len(h_mm), np.int32)
    if kind == "upright":  # a pond where no tile lies sideways: any column of a tile is an upright tile's
        c[h_mm > 6] = 3
        return c
    if kind == "hand":
        c[h_mm > 6] = 1
        c[h_mm > 29] = 3
        return c
    c[h_mm > 6] = 2
    c[h_mm > 32.5] = 3
    if kind == "meld":
        c[h_mm > 45] = 4
    return c


def _merge_short(runs: list[tuple[int, int, int]], min_len: float, min_gap: float) -> list[tuple[int, int, int]]:
    """Merge runs shorter than ``min_len`` (seams, rounded corners, glyph notches) and interior empty runs
    shorter than ``min_gap`` into their longer neighbour; the tile count of the merged run still comes
    from its length, so a real hair-line gap between two tiles is not lost."""
    runs = list(runs)
    while len(runs) > 1:
        best = None
        for i, (s, e, v) in enumerate(runs):
            interior = 0 < i < len(runs) - 1
            short = (v != 0 and e - s < min_len) or (v == 0 and interior and e - s < min_gap)
            if short and (best is None or e - s < runs[best][1] - runs[best][0]):
                best = i
        if best is None:
            break
        i = best
        nb = [j for j in (i - 1, i + 1) if 0 <= j < len(runs) and runs[j][2] != 0]
        if not nb:
            if runs[i][2] != 0:  # an isolated speck
                runs[i] = (runs[i][0], runs[i][1], 0)
                merged: list[tuple[int, int, int]] = []
                for r in runs:
                    if merged and merged[-1][2] == r[2]:
                        merged[-1] = (merged[-1][0], r[1], r[2])
                    else:
                        merged.append(r)
                runs = merged
                continue
            break
        j = max(nb, key=lambda j: runs[j][1] - runs[j][0])
        lo, hi = min(i, j), max(i, j)
        if runs[i][2] == 0 and len(nb) == 2:  # a gap between two runs: join all three
            lo, hi = i - 1, i + 1
            j = max((i - 1, i + 1), key=lambda j: runs[j][1] - runs[j][0])
        runs[lo:hi + 1] = [(runs[lo][0], runs[hi][1], runs[j][2])]
        joined: list[tuple[int, int, int]] = []  # neighbours of one class become one run
        for r in runs:
            if joined and joined[-1][2] == r[2]:
                joined[-1] = (joined[-1][0], r[1], r[2])
            else:
                joined.append(r)
        runs = joined
    return runs


def _trim_sideways(runs: list[tuple[int, int, int]], side_len: float, up_len: float) -> list[tuple[int, int, int]]:
    """A sideways run longer than whole sideways tiles next to an upright run that is short of whole
    upright tiles has taken that tile's columns (a glyph notch at its top edge): give them back."""
    runs = list(runs)
    for i, (s, e, v) in enumerate(runs):
        if v != 2:
            continue
        k = max(1, round((e - s) / side_len))
        excess = (e - s) - k * side_len
        if excess < 0.15 * up_len:
            continue
        best = None
        for j in (i - 1, i + 1):
            if 0 <= j < len(runs) and runs[j][2] == 3:
                ln = runs[j][1] - runs[j][0]
                short = round(ln / up_len + 0.5) * up_len - ln if ln % up_len else 0
                gain = abs((ln + excess) / up_len - round((ln + excess) / up_len))
                if best is None or gain < best[1]:
                    best = (j, gain, short)
        if best is None or best[1] > 0.25:
            continue
        j = best[0]
        cut = int(round(excess))
        if j < i:
            runs[j] = (runs[j][0], runs[j][1] + cut, 3)
            runs[i] = (s + cut, e, 2)
        else:
            runs[i] = (s, e - cut, 2)
            runs[j] = (runs[j][0] - cut, runs[j][1], 3)
    return runs


def _along(v: int, geo: TableGeometry) -> float:
    """A tile's size along its row (mm) for a column class: standing and upright tiles their width, sideways
    ones their length."""
    return geo.tile_w if v in (1, 3) else geo.tile_h


def _cut_runs(runs: list[tuple[int, int, int]], px: float, geo: TableGeometry
              ) -> tuple[bool, list[int], list[int], list[int]]:
    """Each run cut into whole tiles of its class: (fits, tile starts, tile ends, tile classes)."""
    fits = True
    x0s: list[int] = []
    x1s: list[int] = []
    kinds: list[int] = []
    for s, e, v in runs:
        along = _along(v, geo)
        n_f = (e - s) / px / (along + 0.6)
        n = max(1, int(round(n_f)))
        if abs(n_f - n) > 0.35 or n_f < 0.6:
            fits = False
        step = (e - s) / n  # np.linspace(s, e, n + 1), rounded half to even
        edges = [int(round(s + k * step)) for k in range(n)] + [int(e)]
        x0s += edges[:-1]
        x1s += edges[1:]
        kinds += [v] * n
    return fits, x0s, x1s, kinds


def _uneven(x0s: list[int], x1s: list[int], kinds: list[int], px: float, geo: TableGeometry) -> bool:
    """Whether a tile of the cut is 3 mm or more off its width (upright) or length (sideways)."""
    return any(abs((b - a) / px - _along(v, geo) - 0.6) >= 3.0 for a, b, v in zip(x0s, x1s, kinds))


def _mixed_set(h_mm: Float64Array, s: int, e: int, px: float, geo: TableGeometry) -> list[tuple[int, int, int]] | None:
    """A set whose upright tiles read short (a glyph of the felt's colour at the far edge: fluffy's green
    bamboo on a green cloth, 31-32 mm deep) next to its sideways tile (28-29 mm): the depths alone do not
    part them. Its length says how many of each (one sideways tile at most, in a set as claimed); the
    shallowest stretch of a sideways tile's length is the sideways one. None when no such set fits."""
    if float(h_mm[s:e].max(initial=0.0)) > 45.0:
        return None  # a sideways tile with the added one on it: not this case
    up, side = (geo.tile_w + 0.6) * px, (geo.tile_h + 0.6) * px
    length = e - s
    best = None
    for n_side in (0, 1):
        n_up = int(round((length - n_side * side) / up))
        err = abs(length - n_side * side - n_up * up)
        if 1 <= n_up + n_side <= 4 and n_up >= 0 and err < 0.2 * up and (best is None or err < best[0]):
            best = (err, n_up, n_side)
    if best is None:
        return None
    _, n_up, n_side = best
    scale = length / (n_up * up + n_side * side)
    if not n_side:
        return [(s, e, 3)]
    placed = []
    for k in range(n_up + 1):  # the sideways tile after k upright ones
        a = s + int(round(k * up * scale))
        b = a + int(round(side * scale))
        placed.append((float(h_mm[a:b].mean()), a, b))
    depth, a, b = min(placed)
    rest = np.concatenate([h_mm[s:a], h_mm[b:e]])
    if rest.size and float(rest.mean()) < depth + 1.5:  # no shallower stretch: no sideways tile to be seen
        return None
    return [r for r in ((s, a, 3), (a, b, 2), (b, e, 3)) if r[1] > r[0]]


def _split_band(mask: Image, y_off: int, x_off: int, kind: str, px: float, geo: TableGeometry,
                zone: Zone) -> tuple[list[Found], bool]:
    """Cut one row band of one blob into tiles. Returns (tiles, fits)."""
    has = mask > 0
    # the column's extent (robust to glyph holes), after removing thin leaks across the band cut
    op = cv2.morphologyEx(mask, cv2.MORPH_OPEN, _VKERNEL) > 0
    any_c = op.any(0)
    ext = np.where(any_c, op.shape[0] - np.argmax(op[::-1], 0) - np.argmax(op, 0), 0)
    count = ext
    h_mm = count / px
    cls = _classify_heights(h_mm, kind)
    runs = _runs(cls)
    tw = geo.tile_w * px
    runs = _merge_short(runs, 0.45 * tw, 0.3 * tw)
    # a "sideways" run that is no whole number of sideways tiles but is of upright ones: a glyph notch
    # (or one whose length fits upright tiles clearly better: a glyph of the felt's colour at the tile's far
    # edge — fluffy's green bamboo — left it 32 mm deep)
    fixed = []
    for s0, e0, v in runs:
        if v == 2:
            n_s = (e0 - s0) / ((geo.tile_h + 0.6) * px)
            n_u = (e0 - s0) / ((geo.tile_w + 0.6) * px)
            err_s, err_u = abs(n_s - round(n_s)), abs(n_u - round(n_u))
            if err_s > 0.25 and err_u < 0.2 or n_s < 0.7 or (err_u + 0.1 < err_s and round(n_u) >= 1):
                v = 3
        fixed.append((s0, e0, v))
    joined: list[tuple[int, int, int]] = []
    for r in fixed:
        if joined and joined[-1][2] == r[2] and r[2] != 0:
            joined[-1] = (joined[-1][0], r[1], r[2])
        else:
            joined.append(r)
    joined = _trim_sideways(joined, (geo.tile_h + 0.6) * px, (geo.tile_w + 0.6) * px)
    tiles = [(s, e, v) for s, e, v in joined if v != 0]
    fits, x0s, x1s, kinds = _cut_runs(tiles, px, geo)
    if kind == "meld" and tiles and (not fits or _uneven(x0s, x1s, kinds, px, geo)):
        # the depths cut the set badly (a glyph of the felt's colour at a tile's edge): cut it by its length
        mixed = _mixed_set(h_mm, tiles[0][0], tiles[-1][1], px, geo)
        if mixed is not None:
            fits, x0s, x1s, kinds = _cut_runs(mixed, px, geo)
    if not kinds:
        return [], fits
    # each tile's rows: those more than half covered across its columns (column sums from one cumsum)
    csum = np.zeros((mask.shape[0], mask.shape[1] + 1), np.int32)
    np.cumsum(has, axis=1, out=csum[:, 1:])
    a0, a1 = np.array(x0s), np.array(x1s)
    full = 2 * (csum[:, a1] - csum[:, a0]) > (a1 - a0)
    found = full.any(0)
    tops = np.where(found, np.argmax(full, 0), 0).tolist()
    bots = np.where(found, mask.shape[0] - np.argmax(full[::-1], 0), mask.shape[0]).tolist()
    out: list[Found] = []
    for x0, x1, v, col_top, col_bot in zip(x0s, x1s, kinds, tops, bots):
        if v == 4:  # the sideways claimed tile (near) and the added tile beyond it
            mid = col_bot - int(round((geo.tile_w + 0.3) * px))
            out.append(Found(zone, (x0 + x_off, mid + y_off, x1 + x_off, col_bot + y_off), 1, 0))
            out.append(Found(zone, (x0 + x_off, col_top + y_off, x1 + x_off, mid + y_off), 1, 1))
        else:
            shape = "stand" if v == 1 else "tile"
            out.append(Found(zone, (x0 + x_off, col_top + y_off, x1 + x_off, col_bot + y_off),
                             1 if v == 2 else 0, 0, shape))
    return out, fits


def _blobs(mask: Image, min_area: float) -> Iterator[tuple[int, int, int, int, Image]]:
    """(x, y, w, h, own pixels (h, w) uint8 0/1) of the 8-connected blobs of ``mask`` with at least
    ``min_area`` pixels: outer contours filled and cut by the mask (OpenCV's component statistics cost
    4x the contours here). Unlike connected components, a blob lying inside a hole of another (not a
    tile shape) counts as part of it."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    for c in sorted(contours, key=lambda c: (int(c[:, 0, 1].min()), int(c[:, 0, 0].min()))):
        x, y, w, h = cv2.boundingRect(c)
        if w * h < min_area:
            continue
        sub = np.zeros((h, w), np.uint8)
        cv2.drawContours(sub, [c], -1, 1, -1, offset=(-x, -y))
        sub &= mask[y:y + h, x:x + w] > 0
        if cv2.countNonZero(sub) < min_area:
            continue
        yield x, y, w, h, sub


def _spill(x: int, y: int, w: int, h: int, wid: int, hgt: int, px: float) -> bool:
    """A blob along one edge of the zone image and shallow across it: the edge of a tile lying in the next zone,
    seen through the margin (a fifth pond row's near edge in the meld zone's view)."""
    s = SPILL_MM * px
    return ((y <= 1 or y + h >= hgt - 1) and h < s and 1 < x and x + w < wid - 1) or (
        (x <= 1 or x + w >= wid - 1) and w < s and 1 < y and y + h < hgt - 1)


def find_in_zone(zi: ZoneImage, px: float, geo: TableGeometry = DEFAULT_GEOMETRY, *,
                 two_racks: bool = False, sideways: bool = True) -> tuple[list[Found], list[str]]:
    """Tiles of one seat zone (pond, meld, side, hand). Returns (tiles, why the zone is not trusted).
    ``two_racks``: a player's tiles may stand in two rows one behind the other (Siamese: two hands);
    ``sideways``: a pond tile may lie sideways (riichi) — where not, every pond tile is upright, however
    short a glyph of the felt's colour at its edge leaves its columns (fluffy's bamboo on a green cloth)."""
    mask = zi.mask if zi.mask is not None else foreground(zi)
    kind = zi.zone.kind
    out: list[Found] = []
    why: list[str] = []
    hgt, wid = mask.shape
    row_pitch = (geo.tile_h + 1.5) * px
    for x, y, w, h, sub in _blobs(mask, 0.15 * geo.tile_w * geo.tile_depth * px * px):  # specks left out
        if kind == "side" and (x + w / 2 - MARGIN_PX) / px + zi.zone.local[0] >= _card_a0():
            out.append(Found(zi.zone, (x, y, x + w, y + h), 0, 0, "card"))
            continue
        touches = x <= 1 or y <= 1 or x + w >= wid - 1 or y + h >= hgt - 1  # runs out of the zone
        if touches and _spill(x, y, w, h, wid, hgt, px):
            continue
        max_depth = {"meld": 56.0, "hand": 40.0}.get(kind, 39.0)
        if kind == "pond":
            n_rows = max(1, int(round(h / row_pitch)))
            if abs(h / row_pitch - n_rows) > 0.3 and h > 1.3 * row_pitch:
                why.append(f"blob {h / px:.0f} mm deep fits no rows")
                continue
            cuts = [0]
            raw_rows = (zi.raw[y:y + h, x:x + w] > 0).sum(1) if zi.raw is not None else sub.sum(1)
            b_top = zi.zone.local[2] - MARGIN_PX / px  # b of the zone image's first row
            for k in range(1, n_rows):
                # the boundary expected from the pond grid nearest to the k-th equal cut, refined locally
                c_eq = k * h / n_rows
                b_eq = b_top + (y + c_eq) / px
                kk = round((b_eq - POND_B0 + 0.75) / ROW_PITCH_B)
                c = (POND_B0 + kk * ROW_PITCH_B - 0.75 - b_top) * px - y
                if abs(c - c_eq) > 0.3 * row_pitch:
                    c = c_eq
                r = int(3 * px)
                lo, hi = max(1, int(c) - r), min(h - 1, int(c) + r)
                cuts.append(lo + int(np.argmin(raw_rows[lo:hi])) if hi > lo else int(c))
            cuts.append(h)
            bands = [(cuts[k], cuts[k + 1]) for k in range(n_rows)]
        elif kind == "hand" and two_racks and TWO_RACKS_MM[0] < h / px <= TWO_RACKS_MM[1]:
            # two rows of standing tiles one behind the other (Siamese: two hands of fourteen), touching: cut
            # between them where the fewest pixels are set (a revealed hand lies flat, 36 mm deep)
            raw_rows = (zi.raw[y:y + h, x:x + w] > 0).sum(1) if zi.raw is not None else sub.sum(1)
            r = int(4 * px)
            cut = h // 2 - r + int(np.argmin(raw_rows[h // 2 - r:h // 2 + r]))
            bands = [(0, cut), (cut, h)]
        else:
            if h / px > max_depth + 3:
                why.append(f"blob {h / px:.0f} mm deep")
                continue
            bands = [(0, h)]
        for b0, b1 in bands:
            how = "upright" if kind == "pond" and not sideways else kind
            tiles, fits = _split_band(sub[b0:b1], y + b0, x, how, px, geo, zi.zone)
            if kind == "pond":
                tiles = [_to_depth(_on_pond_grid(f, zi.zone, px, geo), zi.image, px, geo) for f in tiles]
            if not fits:
                why.append(f"blob at x={x} of {w / px:.0f} mm fits no tile row")
            if touches:
                why.append(f"blob at x={x} touches the zone edge")
            out += tiles
    return (_one_per_place(_on_cloth_left_out(out, zi.raw)) if kind == "pond" else out), why


def _on_cloth_left_out(found: list[Found], raw: Image | None) -> list[Found]:
    """A place of bare cloth enclosed by tiles on all sides (a free pond's empty cell: the mask fills such a
    hole as it fills a glyph's) is no tile: hardly any of its pixels differ from the felt before the filling
    (red@3 seed 11 hand 7: read 'none', later '5z' — a discard out of turn)."""
    if raw is None:
        return found
    return [f for f in found if f.shape != "tile" or np.count_nonzero(
        raw[f.box[1]:f.box[3], f.box[0]:f.box[2]]) >= CLOTH_PLACE * max(1, _area(f.box))]


def _area(b: tuple[int, int, int, int]) -> int:
    return max(0, b[2] - b[0]) * max(0, b[3] - b[1])


def _one_per_place(found: list[Found]) -> list[Found]:
    """Two pond tiles cannot lie one on the other: a box mostly (over half of it) inside a larger one is the same
    tile found twice (a stain of the felt's colour cut its mask in two: mcr seed 11 hand 38)."""
    if len(found) < 2:
        return found
    b = np.array([f.box for f in found], np.int64)
    area = np.clip(b[:, 2] - b[:, 0], 0, None) * np.clip(b[:, 3] - b[:, 1], 0, None)
    inter = (np.clip(np.minimum(b[:, None, 2], b[None, :, 2]) - np.maximum(b[:, None, 0], b[None, :, 0]), 0, None)
             * np.clip(np.minimum(b[:, None, 3], b[None, :, 3]) - np.maximum(b[:, None, 1], b[None, :, 1]), 0, None))
    keep = np.zeros(len(found), bool)
    for i in np.argsort(-area, kind="stable"):  # the larger first
        keep[i] = not (2 * inter[i, keep] > area[i]).any()
    return [f for f, k in zip(found, keep) if k]


def _on_pond_grid(f: Found, zone: Zone, px: float, geo: TableGeometry) -> Found:
    """An upright pond tile found short of a tile's depth (a glyph of the felt's colour at its edge left
    the mask short) is given its whole depth, from the edge that lies on its row of the pond grid."""
    x0, y0, x1, y1 = f.box
    depth = int(round(geo.tile_h * px))
    if f.turns or f.shape != "tile" or y1 - y0 >= depth - int(2 * px):
        return f
    b_top = zone.local[2] - MARGIN_PX / px  # b of the zone image's first row
    row = int(np.floor((b_top + (y0 + y1) / 2 / px - POND_B0) / ROW_PITCH_B))
    top = (POND_B0 + row * ROW_PITCH_B - b_top) * px
    if abs(y0 - top) <= abs(y1 - (top + depth)):
        return Found(f.zone, (x0, y0, x1, y0 + depth), f.turns, f.layer, f.shape)
    return Found(f.zone, (x0, y1 - depth, x1, y1), f.turns, f.layer, f.shape)


def _to_depth(f: Found, img: Image, px: float, geo: TableGeometry) -> Found:
    """An upright pond tile found deeper than a tile (a tile pushed against the row behind it: the shaded gap
    between them is no felt, the mask takes it with the tile) keeps a tile's depth without the gap's rows —
    even, darker than a face — (the template reader allows ~1 px of crop error, not 4: a 二 was read 三 from
    the edge above it). Left as found where no such row shows."""
    x0, y0, x1, y1 = f.box
    depth = int(round(geo.tile_h * px))
    extra = (y1 - y0) - depth
    if f.turns or f.shape != "tile" or extra < 2 or extra > int(6 * px):
        return f
    q = (x1 - x0) // 4
    core = img[y0:y1, x0 + q:x1 - q].astype(np.float32).mean(axis=2)
    gap = (core.std(axis=1) < 20.0) & (core.mean(axis=1) < 200.0)
    if not gap.any():
        return f
    cg = np.concatenate([[0], np.cumsum(gap)])
    inside = cg[depth:depth + extra + 1] - cg[:extra + 1]
    k = min(np.flatnonzero(inside == inside.min()).tolist(), key=lambda k: abs(k - extra / 2))
    return Found(f.zone, (x0, y0 + k, x1, y0 + k + depth), f.turns, f.layer, f.shape)


def _card_a0() -> float:
    from vision.zones import CARD_A0

    return CARD_A0
