"""Camera frames of a simulated hand, fast enough to play it through the vision pipeline, with the nuisances
of a real table.

:class:`TableFilm` keeps one camera (pose, felt, tile style, lighting) for a hand and the table's top-down
canvas; when the table changes it redraws only the tiles that moved (:func:`vision.scene_render.layout` puts
every tile where the renderer would, zone by zone, so nothing else moves) and re-projects only that part of
the frame. Each frame then gets its own camera noise; on request an arm over the zones a player reaches
into, a blur, a lighting change. A tile may be pushed slightly out of line (it stays so), and a discard may
be rendered unreadable (smudged: the classifier must not guess it). Riichi's dead-wall indicators lie in
a fixed strip of the emulated table (:data:`controller.referee.camera.INDICATOR_STRIP`).
"""
from __future__ import annotations

import dataclasses
import zlib
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from controller.referee.camera import INDICATOR_SLOTS
from vision.geometry import DEFAULT_GEOMETRY, apply_homography, local_to_table
from vision.scene_model import Scene
from vision.scene_render import (
    RENDER_PX_PER_MM,
    SKIN,
    CameraPose,
    felt_for,
    layout,
    paste_items,
    render_topdown,
)

GEO = DEFAULT_GEOMETRY
R = RENDER_PX_PER_MM
APART_MM = 9.0  # the tile just drawn stands this far right of the rack
NOISE = 3.0


@dataclass(frozen=True)
class Placed:
    """An object on the table (the fields :func:`vision.scene_render.paste_items` draws)."""

    label: str
    seat: int | None
    zone: str
    index: int
    turns: int
    a: float
    b: float
    w: float
    h: float
    angle: float = 0.0


def _two_racks(items: list[Placed]) -> list[Placed]:
    """A rack of more than twenty tiles (Siamese: two hands of fourteen) stands in two rows."""
    by_seat: dict[int | None, list[Placed]] = {}
    for it in items:
        if it.label == "stand":
            by_seat.setdefault(it.seat, []).append(it)
    for stands in by_seat.values():
        if len(stands) <= 20:
            continue
        stands.sort(key=lambda i: i.a)
        half = (len(stands) + 1) // 2
        for row, part in enumerate((stands[:half], stands[half:])):
            x0 = -(len(part) * (part[0].w + 0.6)) / 2
            for k, it in enumerate(part):
                new = dataclasses.replace(it, a=x0 + k * (it.w + 0.6) + it.w / 2, b=411.0 + 22.0 * row)
                items[items.index(it)] = new
    return items


@lru_cache(maxsize=4)
def _empty_table(style: str, felt: tuple[int, int, int]) -> np.ndarray:
    """The bare table (felt, its texture, the markers) drawn once per tile style and felt."""
    base, _ = render_topdown(Scene("basic", ()), style=style, seed=7, felt=felt)
    base.setflags(write=False)
    return base


@lru_cache(maxsize=2)
def _noise_bank(size: tuple[int, int], n: int = 4) -> tuple[tuple[np.ndarray, np.ndarray], ...]:
    """Camera noise frames as (add, subtract) pairs of saturating uint8 images (made once per process)."""
    rng = np.random.default_rng(12345)
    out = []
    for _ in range(n):
        half = rng.standard_normal((size[1] // 2, size[0] // 2, 3), dtype=np.float32) * NOISE
        z = cv2.resize(half, size, interpolation=cv2.INTER_NEAREST)
        out.append((np.clip(z, 0, 255).astype(np.uint8), np.clip(-z, 0, 255).astype(np.uint8)))
    return tuple(out)


class TableFilm:
    """One hand's camera: ``set_table`` when the table changes, ``frame`` for each camera frame."""

    def __init__(self, profile: str, n_views: int, *, style: str, seed: int):
        self.rng = np.random.default_rng(seed)
        self.style = style
        self.pose = CameraPose.random(self.rng)
        self.felt = felt_for(style, self.rng)
        self.layout_seed = int(self.rng.integers(1 << 30))
        self.base = _empty_table(style, self.felt)
        self.canvas = self.base.copy()
        self.items: list[Placed] = []
        self.pushed: dict[tuple[int | None, str, int], tuple[float, float, float]] = {}
        self.smudged: dict[tuple[int | None, str, int], str] = {}
        self.m = self.pose.h @ np.diag([1.0 / R, 1.0 / R, 1.0])  # canvas px -> frame px
        size = self.pose.size
        self.floor = tuple(float(v) for v in self.rng.uniform(20, 60, 3))
        self.gain = self._lighting()
        self.warped = cv2.warpPerspective(self.canvas, self.m, size, flags=cv2.INTER_LINEAR,
                                          borderMode=cv2.BORDER_CONSTANT, borderValue=self.floor)
        self.clean = self._lit(self.warped, self.gain)
        self.noise = _noise_bank(size)
        self.k = 0

    # --- the table --------------------------------------------------------------------------------------
    def set_table(self, scene: Scene, *, apart: dict[int, int] | None = None, indicators: tuple[str, ...] = (),
                  ura: tuple[str, ...] = ()) -> None:
        """The table now: the scene, tiles standing apart at the right end of a rack, riichi indicators."""
        items = _two_racks([self._placed(it) for it in layout(scene, GEO, self.layout_seed)])
        for seat, n in (apart or {}).items():
            stands = sorted((i for i in items if i.seat == seat and i.label == "stand"), key=lambda i: i.a)
            for it in stands[len(stands) - n:] if n else ():
                items[items.index(it)] = dataclasses.replace(it, a=it.a + APART_MM)
        for row, tiles in enumerate((indicators, ura)):
            for i, t in enumerate(tiles[:len(INDICATOR_SLOTS)]):
                a, b = INDICATOR_SLOTS[i]
                items.append(Placed(t, 0, "dead", 10 * row + i, 0, a, b + row * (GEO.tile_h + 4.0), GEO.tile_w,
                                    GEO.tile_h))
        items = [self._pushed(it) for it in items]
        here = {(it.seat, it.zone, it.index, it.label) for it in items}  # a smudge goes with its tile (a tile
        self.smudged = {k: v for k, v in self.smudged.items() if (*k, v) in here}  # laid there later is clean)
        old, new = set(self.items), set(items)
        dirty = [it for it in old ^ new]
        self.items = items
        if dirty:
            self._redraw(self._rects(dirty))

    def push(self, scene_item: tuple[int, str, int], mm: tuple[float, float], deg: float) -> None:
        """A tile pushed slightly out of line (``(seat, zone, index)``); it stays so."""
        self.pushed[scene_item] = (mm[0], mm[1], deg)

    def smudge(self, seat: int, zone: str, index: int, label: str) -> None:
        """Render the tile ``label`` at (seat, zone, index) unreadable while it lies there."""
        self.smudged[(seat, zone, index)] = label

    def relight(self) -> None:
        """A lighting change: the whole frame shifts a little."""
        self.gain = self._lighting()
        self.clean = self._lit(self.warped, self.gain)

    def pond_items(self, seat: int) -> list[tuple[int, str, int]]:
        return [(i.seat, i.zone, i.index) for i in self.items if i.seat == seat and i.zone == "pond"]

    # --- frames -------------------------------------------------------------------------------------
    def frame(self, hands: tuple[tuple[int, str], ...] = (), blur: bool = False) -> np.ndarray:
        """One camera frame (BGR uint8): the table, an arm over each of ``hands``, this frame's noise."""
        f = self.clean.copy()
        for seat, zone in hands:
            self._arm(f, seat, zone)
        n = len(self.noise)
        cv2.add(f, self.noise[self.k % n][0], dst=f)
        cv2.subtract(f, self.noise[(self.k + 1 + self.k // n) % n][1], dst=f)
        self.k += 1
        if blur:
            f = cv2.GaussianBlur(f, (0, 0), 1.1)
        return f

    # --- internals ----------------------------------------------------------------------------------
    @staticmethod
    def _placed(it: object) -> Placed:
        return Placed(*(getattr(it, f.name) for f in dataclasses.fields(Placed)))

    def _pushed(self, it: Placed) -> Placed:
        p = self.pushed.get((it.seat, it.zone, it.index))
        return dataclasses.replace(it, a=it.a + p[0], b=it.b + p[1], angle=it.angle + p[2]) if p else it

    def _rects(self, items: list[Placed]) -> list[tuple[int, int, int, int]]:
        """Canvas px rectangles covering ``items`` (with their side and shadow), merged where they touch."""
        rects = []
        n = self.canvas.shape[0]
        for it in items:
            c = local_to_table(it.seat if it.seat is not None else 0, np.array([[it.a, it.b]]), GEO)[0] * R
            h = 0.5 * np.hypot(it.w, it.h) * R + 3 * R + 3
            rects.append((max(0, int(c[0] - h)), max(0, int(c[1] - h)), min(n, int(c[0] + h) + 1),
                          min(n, int(c[1] + h) + 1)))
        merged: list[tuple[int, int, int, int]] = []
        for r in sorted(rects):
            for k, m in enumerate(merged):
                if r[0] <= m[2] + 4 and m[0] <= r[2] + 4 and r[1] <= m[3] + 4 and m[1] <= r[3] + 4:
                    merged[k] = (min(r[0], m[0]), min(r[1], m[1]), max(r[2], m[2]), max(r[3], m[3]))
                    break
            else:
                merged.append(r)
        return merged

    def _redraw(self, rects: list[tuple[int, int, int, int]]) -> None:
        for x0, y0, x1, y1 in rects:
            view = self.canvas[y0:y1, x0:x1]
            view[:] = self.base[y0:y1, x0:x1]
            inside = [it for it in self.items if self._overlaps(it, (x0, y0, x1, y1))]
            paste_items(view, inside, style=self.style, geo=GEO, r=R, origin=(x0, y0))
            for it in inside:
                if self.smudged.get((it.seat, it.zone, it.index)) == it.label:
                    self._smudge(view, it, (x0, y0))
            self._reproject((x0, y0, x1, y1))

    def _overlaps(self, it: Placed, rect: tuple[int, int, int, int]) -> bool:
        c = local_to_table(it.seat if it.seat is not None else 0, np.array([[it.a, it.b]]), GEO)[0] * R
        h = 0.5 * np.hypot(it.w, it.h) * R + 3 * R + 3
        return bool(c[0] + h >= rect[0] and c[0] - h <= rect[2] and c[1] + h >= rect[1] and c[1] - h <= rect[3])

    def _smudge(self, view: np.ndarray, it: Placed, origin: tuple[int, int]) -> None:
        """A stain over most of the tile's face (inside the tile): no face can be read from it."""
        from vision.geometry import rect_corners

        corners = local_to_table(it.seat if it.seat is not None else 0,
                                 rect_corners(it.a, it.b, it.w * 0.86, it.h * 0.88, -it.angle), GEO) * R
        poly = (corners - np.array(origin)).astype(np.int32)
        mask = np.zeros(view.shape[:2], np.uint8)
        cv2.fillConvexPoly(mask, poly, 255)
        stain = view.copy()
        # (a stable seed: Python's str hash changes from process to process, and so did the stain — and
        # whether a reader could still see a face through it)
        rng = np.random.default_rng(zlib.crc32(f"{it.seat}/{it.zone}/{it.index}".encode()))
        cx, cy = poly.mean(0)
        ax = 0.5 * min(it.w, it.h) * R
        for _ in range(22):
            dx, dy = rng.normal(0, ax * 0.4, 2)
            col = tuple(float(v) for v in rng.uniform(60, 200, 3))
            cv2.ellipse(stain, (int(cx + dx), int(cy + dy)), (int(ax * rng.uniform(0.35, 0.8)),
                        int(ax * rng.uniform(0.35, 0.8))), float(rng.uniform(0, 180)), 0, 360, col, -1, cv2.LINE_AA)
        view[mask > 0] = stain[mask > 0]

    def _reproject(self, rect: tuple[int, int, int, int]) -> None:
        x0, y0, x1, y1 = rect
        pts = apply_homography(self.m, np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float64))
        w, h = self.pose.size
        fx0, fy0 = max(0, int(np.floor(pts[:, 0].min())) - 2), max(0, int(np.floor(pts[:, 1].min())) - 2)
        fx1, fy1 = min(w, int(np.ceil(pts[:, 0].max())) + 3), min(h, int(np.ceil(pts[:, 1].max())) + 3)
        if fx1 <= fx0 or fy1 <= fy0:
            return
        t = np.array([[1, 0, -fx0], [0, 1, -fy0], [0, 0, 1]], np.float64)
        part = cv2.warpPerspective(self.canvas, t @ self.m, (fx1 - fx0, fy1 - fy0), flags=cv2.INTER_LINEAR,
                                   borderMode=cv2.BORDER_CONSTANT, borderValue=self.floor)
        self.warped[fy0:fy1, fx0:fx1] = part
        self.clean[fy0:fy1, fx0:fx1] = self._lit(part, self.gain[fy0:fy1, fx0:fx1])

    def _lighting(self) -> np.ndarray:
        """A lighting field over the frame: overall level, a gradient, vignetting, a colour cast."""
        w, h = self.pose.size
        yy, xx = np.mgrid[0:h:8, 0:w:8].astype(np.float32)
        xx, yy = xx / w - 0.5, yy / h - 0.5
        ang = self.rng.uniform(0, 2 * np.pi)
        g = self.rng.uniform(0.88, 1.08) + self.rng.uniform(0, 0.2) * (np.cos(ang) * xx + np.sin(ang) * yy)
        g -= self.rng.uniform(0, 0.2) * (xx * xx + yy * yy)
        g = cv2.resize(g.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
        cast = self.rng.uniform(0.95, 1.05, 3).astype(np.float32)
        light: np.ndarray = g[..., None] * cast
        return light

    @staticmethod
    def _lit(img: np.ndarray, gain: np.ndarray) -> np.ndarray:
        lit: np.ndarray = np.clip(img * gain, 0, 255).astype(np.uint8)
        return lit

    def _arm(self, f: np.ndarray, seat: int, zone: str) -> None:
        """A player's arm reaching from his edge of the table to ``zone`` (drawn in the frame)."""
        target_b = {"pond": 180.0, "meld": 318.0, "side": 370.0, "card": 370.0, "hand": 420.0,
                    "stick": 80.0}.get(zone, 150.0)
        a = {"meld": 200.0, "side": -250.0, "card": 245.0}.get(zone, 0.0) + float(self.rng.uniform(-30, 30))
        local = np.array([[a, target_b], [a + float(self.rng.uniform(-40, 40)), GEO.size / 2 + 40]])
        tip, base = apply_homography(self.pose.h, local_to_table(seat, local, GEO))
        skin = tuple(float(v) for v in SKIN[int(self.rng.integers(len(SKIN)))])
        px = float(np.linalg.norm(self.pose.h[:2, :2], 2))  # frame px per mm, about
        cv2.line(f, (int(base[0]), int(base[1])), (int(tip[0]), int(tip[1])), skin, int(70 * px), cv2.LINE_AA)
        cv2.ellipse(f, (int(tip[0]), int(tip[1])), (int(48 * px), int(40 * px)), float(self.rng.uniform(0, 180)),
                    0, 360, skin, -1, cv2.LINE_AA)
