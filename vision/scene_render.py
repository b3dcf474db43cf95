"""Synthetic overhead-camera frames of a whole table, with exact ground truth.

    frame, truth = render_scene(scene, seed=7)              # BGR 1920×1080 and a :class:`Truth`
    frame, truth = render_scene(scene, style="kai", pose=CameraPose.nominal(), hands=[(2, "pond")])

A :class:`~vision.scene_model.Scene` (what lies where, per seat) is laid out by the profile's physical
conventions (:mod:`vision.conventions`): ponds in rows of 6 from the centre (scattered for a free layout),
melds from the owner's right end with the claimed tile sideways towards its source, concealed kongs with
the profile's face-down tiles, added kongs with the 4th tile sideways beside the claimed one, flowers and
cards set aside, riichi sticks, dice, standing or revealed hands. Tile faces come from vision I's
:func:`vision.tile_render.face_image`. The table is drawn top-down in millimetres, ArUco markers in its
corners, then seen through a camera pose (a homography with pose errors), with felt colour, lighting
gradient, vignetting, noise and optional hands passing over zones.

Everything is a pure function of its arguments; the same seed gives the same frame.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Protocol, cast

import cv2
import numpy as np

from vision.arrays import Float32Array, Float64Array, Image
from vision.conventions import Conventions, conventions
from vision.geometry import DEFAULT_GEOMETRY, TableGeometry, apply_homography, local_to_table, rect_corners
from vision.scene_model import MeldView, Scene, SeatView
from vision.tile_finder import POND_B0, ROW_PITCH_B  # the pond grid the finder expects
from vision.tile_render import available_styles, face_image, load_style
from vision.zones import CARD_A0

FRAME_SIZE = (1920, 1080)
RENDER_PX_PER_MM = 1.6  # the top-down canvas is drawn at this scale, then warped into the frame
GAP = 0.6  # gap between touching tiles of a set (mm)
#: Felt colours (BGR) a table may have; a style is drawn only on felts that contrast with its tiles.
FELTS = [(60, 110, 40), (50, 90, 30), (120, 80, 40), (140, 100, 60), (110, 110, 105), (25, 95, 75),
         (130, 60, 30), (70, 140, 90), (150, 150, 140), (90, 60, 120)]
SKIN = [(120, 150, 200), (90, 120, 170), (70, 95, 140), (150, 175, 215)]


# ---- camera -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CameraPose:
    """The camera as a homography from table millimetres to frame pixels."""

    h: Float64Array
    size: tuple[int, int] = FRAME_SIZE

    @staticmethod
    def nominal(geo: TableGeometry = DEFAULT_GEOMETRY, size: tuple[int, int] = FRAME_SIZE,
                px_per_mm: float = 1.08) -> CameraPose:
        return CameraPose.make(geo, size, px_per_mm, 0.0, (0.0, 0.0), (0.0, 0.0))

    @staticmethod
    def make(geo: TableGeometry, size: tuple[int, int], px_per_mm: float, rot_deg: float,
             shift_px: tuple[float, float], tilt: tuple[float, float]) -> CameraPose:
        c = geo.centre
        t0 = np.array([[1, 0, -c], [0, 1, -c], [0, 0, 1]], np.float64)
        p = np.array([[1, 0, 0], [0, 1, 0], [tilt[0], tilt[1], 1]], np.float64)
        th = np.deg2rad(rot_deg)
        r = np.array([[np.cos(th), -np.sin(th), 0], [np.sin(th), np.cos(th), 0], [0, 0, 1]])
        s = np.diag([px_per_mm, px_per_mm, 1.0])
        t1 = np.array([[1, 0, size[0] / 2 + shift_px[0]], [0, 1, size[1] / 2 + shift_px[1]], [0, 0, 1]])
        return CameraPose(t1 @ s @ r @ p @ t0, size)

    @staticmethod
    def random(rng: np.random.Generator, geo: TableGeometry = DEFAULT_GEOMETRY,
               size: tuple[int, int] = FRAME_SIZE) -> CameraPose:
        """A mounting error: scale ±3 %, roll ±3°, shift, keystone tilt."""
        return CameraPose.make(geo, size, 1.08 * rng.uniform(0.97, 1.02), rng.uniform(-3, 3),
                               (rng.uniform(-40, 40), rng.uniform(-12, 12)),
                               tuple(rng.uniform(-2.5e-5, 2.5e-5, 2)))


# ---- ground truth -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class TileTruth:
    """One object on the table. ``label``: tile label, ``back`` (face down), ``stand`` (a standing tile's
    top), or ``card:*`` / ``die:n`` / ``stick``. ``turns``: quarter turns CCW from upright in the owner's
    view (1 = sideways). ``index``: position in its zone's reading order."""

    label: str
    seat: int | None
    zone: str
    index: int
    turns: int
    poly_mm: Float64Array  # (4, 2) table frame
    poly_px: Float64Array  # (4, 2) frame pixels


@dataclass
class Truth:
    scene: Scene
    style: str
    pose: CameraPose
    objects: list[TileTruth] = field(default_factory=list)
    hands: tuple[tuple[int, str], ...] = ()

    def tiles(self) -> list[TileTruth]:
        return [o for o in self.objects if not o.label.startswith(("card:", "die:", "stick", "stand"))]


# ---- layout ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Item:
    label: str
    seat: int | None
    zone: str
    index: int
    turns: int  # in the owner's view
    a: float  # centre, seat-local (mm)
    b: float
    w: float  # extent along a
    h: float  # extent along b
    angle: float = 0.0  # small placement error (deg, CCW in the image)


class LaidOut(Protocol):
    """What :func:`paste_items` draws of an object (a layout's :class:`_Item`, or any object with these fields)."""

    @property
    def label(self) -> str: ...
    @property
    def seat(self) -> int | None: ...
    @property
    def zone(self) -> str: ...
    @property
    def turns(self) -> int: ...
    @property
    def a(self) -> float: ...
    @property
    def b(self) -> float: ...
    @property
    def w(self) -> float: ...
    @property
    def h(self) -> float: ...
    @property
    def angle(self) -> float: ...


def _meld_items(seat: int, melds: tuple[MeldView, ...], geo: TableGeometry, conv: Conventions,
                rng: np.random.Generator) -> list[_Item]:
    tw, th = geo.tile_w, geo.tile_h
    near = 344.5  # near edge (b) of the meld row
    right = 284.0
    out: list[_Item] = []
    for mi, m in enumerate(melds):
        n_row = len(m.tiles) - (1 if m.added else 0)
        widths = [th if i == m.sideways else tw for i in range(n_row)]
        total = sum(widths) + GAP * (n_row - 1)
        x = right - total
        for i in range(n_row):
            w = widths[i]
            side = i == m.sideways
            h = tw if side else th
            lab = "back" if m.tiles[i] == "x" else m.tiles[i]
            out.append(_Item(lab, seat, "meld", mi * 8 + i, 1 if side else 0, x + w / 2, near - h / 2, w, h,
                             float(rng.normal(0, 0.3))))
            if side and m.added:
                lab4 = "back" if m.tiles[-1] == "x" else m.tiles[-1]
                out.append(_Item(lab4, seat, "meld", mi * 8 + 4, 1, x + w / 2, near - tw - GAP - tw / 2, w, tw,
                                 float(rng.normal(0, 0.3))))
            x += w + GAP
        right -= total + 7.0 + rng.uniform(0, 3)
    return out


def _pond_items(seat: int, view: SeatView, geo: TableGeometry, conv: Conventions,
                rng: np.random.Generator) -> list[_Item]:
    tw, th = geo.tile_w, geo.tile_h
    out: list[_Item] = []
    n = len(view.pond)
    if n > 30:
        raise ValueError(f"seat {seat}: {n} discards do not fit the pond (max 30)")
    if conv.pond_layout == "free":  # scattered over a jittered grid, order not given by position
        cells = rng.permutation(24)[:n] if n <= 24 else rng.permutation(30)[:n]
        for i, (pt, c) in enumerate(zip(view.pond, cells)):
            r, col = divmod(int(c), 6)
            a = -71.5 + col * 28.6 + rng.uniform(-0.5, 0.5)
            b = POND_B0 + r * ROW_PITCH_B + th / 2 + rng.uniform(-0.5, 0.5)
            out.append(_Item(pt.tile, seat, "pond", i, 0, a, b, tw, th, float(rng.normal(0, 0.8))))
        return out
    for r in range(0, n, 6):
        row = view.pond[r:r + 6]
        x = -89.0 + rng.uniform(-0.8, 0.8)
        b_top = POND_B0 + (r // 6) * ROW_PITCH_B + rng.uniform(-0.4, 0.4)
        for j, pt in enumerate(row):
            w, h = (th, tw) if pt.sideways else (tw, th)
            b = b_top + th - h / 2  # aligned to the row's near edge
            out.append(_Item(pt.tile, seat, "pond", r + j, 1 if pt.sideways else 0, x + w / 2 + rng.uniform(-0.3, 0.3),
                             b + rng.uniform(-0.3, 0.3), w, h, float(rng.normal(0, 0.8))))
            x += w + rng.uniform(0.5, 1.8)
    return out


def _seat_items(seat: int, view: SeatView, geo: TableGeometry, conv: Conventions, seed: int) -> list[_Item]:
    """A seat's objects; each zone draws its placement errors from its own stream, so adding a tile to a
    zone moves nothing already lying on the table."""
    tw, th = geo.tile_w, geo.tile_h

    def zrng(k: int) -> np.random.Generator:
        return np.random.default_rng([seed, seat, k])

    items = _pond_items(seat, view, geo, conv, zrng(0)) + _meld_items(seat, view.melds, geo, conv, zrng(1))
    rng = zrng(2)
    for i, f in enumerate(view.flowers):
        items.append(_Item(f, seat, "side", i, 0, -283 + i * (tw + 2.0) + tw / 2, 371.5, tw, th,
                           float(rng.normal(0, 1.0))))
    if view.card is not None:
        items.append(_Item(f"card:{view.card}", seat, "side", 99, 0, CARD_A0 + 45, 371.5, 56, 38,
                           float(rng.normal(0, 1.5))))
    if view.revealed:
        n = len(view.revealed)
        x0 = -(n * (tw + GAP)) / 2
        for i, t in enumerate(view.revealed):
            lab = "back" if t == "x" else t
            items.append(_Item(lab, seat, "hand", i, 0, x0 + i * (tw + GAP) + tw / 2, 422.0, tw, th))
    elif view.standing:
        n = view.standing
        x0 = -(n * (tw + GAP)) / 2
        for i in range(n):
            items.append(_Item("stand", seat, "hand", i, 0, x0 + i * (tw + GAP) + tw / 2, 430.0, tw,
                               geo.tile_depth))
    if view.riichi_stick:
        r3 = zrng(3)
        items.append(_Item("stick", seat, "stick", 0, 0, r3.uniform(-8, 8), 80.0, 100.0, 9.0,
                           float(r3.normal(0, 1.0))))
    return items


def layout(scene: Scene, geo: TableGeometry = DEFAULT_GEOMETRY, seed: int = 0) -> list[_Item]:
    """Where every object of ``scene`` lies (seat-local mm), by the profile's conventions."""
    conv = conventions(scene.profile)
    items: list[_Item] = []
    for s, view in enumerate(scene.seats):
        items += _seat_items(s, view, geo, conv, seed)
    rng = np.random.default_rng([seed, 99])
    for i, v in enumerate(scene.dice):  # dice in the centre (seat 0's frame)
        items.append(_Item(f"die:{v}", None, "centre", i, 0, -20 + 40 * i + rng.uniform(-3, 3), rng.uniform(-20, 20),
                           18.0, 18.0, float(rng.uniform(-40, 40))))
    return items


# ---- drawing ---------------------------------------------------------------------------------------


def _seat_of(item: LaidOut) -> int:
    return item.seat if item.seat is not None else 0


def _table_poly(item: _Item, geo: TableGeometry) -> Float64Array:
    """Corners (4, 2) in the table frame of an item, its first corner its owner-view top-left."""
    s = _seat_of(item)
    local = rect_corners(item.a, item.b, item.w, item.h, -item.angle)
    return local_to_table(s, local, geo)


@lru_cache(maxsize=4096)
def _face(style: str, label: str, h_px: int) -> Image:
    img = face_image(style, label, h_px)
    img.setflags(write=False)
    return img


def _die_image(v: int, px: int) -> Image:
    img = np.zeros((px, px, 4), np.uint8)
    cv2.rectangle(img, (0, 0), (px - 1, px - 1), (235, 235, 235, 255), -1)
    pips = {1: [(1, 1)], 2: [(0, 0), (2, 2)], 3: [(0, 0), (1, 1), (2, 2)], 4: [(0, 0), (0, 2), (2, 0), (2, 2)],
            5: [(0, 0), (0, 2), (1, 1), (2, 0), (2, 2)], 6: [(0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2)]}[v]
    r = max(1, int(round(px * 0.085)))
    for i, j in pips:
        c = (40, 40, 200, 255) if v == 1 else (30, 30, 30, 255)
        cv2.circle(img, (int(px * (0.25 + 0.25 * j)), int(px * (0.25 + 0.25 * i))), r, c, -1, cv2.LINE_AA)
    return img


_CARD_TEXT = {"m": "M", "p": "P", "s": "S", "1": "1", "2": "2", "3": "3"}


def card_image(card: str, w: int, h: int) -> Image:
    """A card as the emulated table shows it (BGRA): a missing-suit card (m, p, s), a judge's card (1-3), its
    back (x). Also the templates the scene parser reads cards with."""
    img = np.zeros((h, w, 4), np.uint8)
    if card == "x":
        cv2.rectangle(img, (0, 0), (w - 1, h - 1), (140, 60, 40, 255), -1)
        for k in range(0, w + h, max(3, w // 8)):
            cv2.line(img, (k, 0), (k - h, h), (170, 90, 60, 255), 1)
        return img
    cv2.rectangle(img, (0, 0), (w - 1, h - 1), (245, 245, 245, 255), -1)
    colour = (30, 30, 190, 255) if card in "123" else (150, 40, 30, 255)
    scale = h / 30.0
    (tw, th), _ = cv2.getTextSize(_CARD_TEXT[card], cv2.FONT_HERSHEY_DUPLEX, scale, max(1, int(h / 14)))
    cv2.putText(img, _CARD_TEXT[card], ((w - tw) // 2, (h + th) // 2), cv2.FONT_HERSHEY_DUPLEX, scale, colour,
                max(1, int(h / 14)), cv2.LINE_AA)
    return img


def _stick_image(w: int, h: int) -> Image:
    img = np.zeros((h, w, 4), np.uint8)
    cv2.rectangle(img, (0, 0), (w - 1, h - 1), (240, 240, 240, 255), -1)
    cv2.circle(img, (w // 2, h // 2), max(1, h // 3), (40, 40, 200, 255), -1, cv2.LINE_AA)
    return img


def _stand_image(style: str, w: int, h: int) -> Image:
    st = load_style(style)
    img = np.zeros((h, w, 4), np.uint8)
    img[..., 3] = 255
    img[: h // 2, :, :3] = st.back
    img[h // 2:, :, :3] = st.face
    return img


def _object_image(item: LaidOut, style: str, r: float, geo: TableGeometry) -> Image:
    """The object's top in its owner's upright orientation, BGRA, at ``r`` px/mm."""
    if item.label.startswith("die:"):
        return _die_image(int(item.label[4:]), int(round(item.w * r)))
    if item.label.startswith("card:"):
        return card_image(item.label[5:], int(round(item.w * r)), int(round(item.h * r)))
    if item.label == "stick":
        return _stick_image(int(round(item.w * r)), int(round(item.h * r)))
    if item.label == "stand":
        return _stand_image(style, int(round(item.w * r)), int(round(item.h * r)))
    img = _face(style, item.label, int(round(geo.tile_h * r)))
    return np.rot90(img, item.turns) if item.turns else img


def _paste(canvas: Float32Array, img: Image, cx: float, cy: float, angle: float,
           side: tuple[float, float, float] | None, r: float) -> None:
    """Composite BGRA ``img`` centred at canvas px (cx, cy), turned ``angle`` degrees; a side band and a
    soft shadow under it when ``side`` is given."""
    h, w = img.shape[:2]
    pad = int(np.ceil(0.5 * np.hypot(h, w) - 0.5 * min(h, w))) + int(3 * r) + 2
    big: Float32Array = np.zeros((h + 2 * pad, w + 2 * pad, 4), np.float32)
    big[pad:pad + h, pad:pad + w] = img
    if abs(angle) > 0.05:
        m = cv2.getRotationMatrix2D(((w + 2 * pad) / 2 - 0.5, (h + 2 * pad) / 2 - 0.5), angle, 1.0)
        big = cast(Float32Array, cv2.warpAffine(big, m, (big.shape[1], big.shape[0]), flags=cv2.INTER_LINEAR))
    bh, bw = big.shape[:2]
    x0 = int(round(cx - bw / 2))
    y0 = int(round(cy - bh / 2))
    xa, ya, xb, yb = max(0, x0), max(0, y0), min(canvas.shape[1], x0 + bw), min(canvas.shape[0], y0 + bh)
    if xb <= xa or yb <= ya:
        return
    dst = canvas[ya:yb, xa:xb]
    src = big[ya - y0:yb - y0, xa - x0:xb - x0]
    a = src[..., 3:4] / 255.0
    if side is not None:
        d = max(1, int(round(0.8 * r)))
        sh = np.zeros_like(a)
        sh[d:, d:] = a[:-d, :-d]
        if sh.shape[0] > 4 and sh.shape[1] > 4:
            sh = cast(Float32Array, cv2.GaussianBlur(sh, (0, 0), 0.6 * r))[..., None]
        dst *= 1 - 0.25 * sh
        sd = np.zeros_like(a)
        sd[d:, d:] = a[:-d, :-d]
        dst[:] = dst * (1 - sd) + np.array(side, np.float32) * sd
    dst[:] = dst * (1 - a) + src[..., :3] * a


@lru_cache(maxsize=16)
def felts_for(style: str) -> tuple[tuple[int, int, int], ...]:
    """Felt colours that contrast with the style's face, back and glyph inks (a table's felt is chosen so;
    :mod:`vision.selftest` checks it on the real table)."""
    st = load_style(style)
    inks = []
    for g in st.glyphs.values():
        small = cv2.resize(g, (48, 64), interpolation=cv2.INTER_AREA)
        inks.append(small[..., :3][small[..., 3] > 48].astype(np.int32))
    scored = []
    for f in FELTS:
        if min(np.abs(np.subtract(f, st.face)).max(), np.abs(np.subtract(f, st.back)).max()) <= 70:
            continue
        worst = max(float((np.abs(i - np.array(f)).max(1) < 60).sum()) / (48 * 64) for i in inks if len(i))
        scored.append((worst, f))
    ok = [f for w, f in scored if w < 0.005]  # no glyph has 0.5 % of the face in a felt-like ink
    return tuple(ok) or (min(scored)[1],)


def felt_for(style: str, rng: np.random.Generator) -> tuple[int, int, int]:
    """A felt colour that contrasts with the style's tiles."""
    ok = felts_for(style)
    return ok[int(rng.integers(len(ok)))]


def draw_markers(canvas: Float32Array, geo: TableGeometry, r: float) -> None:
    """Draw the four ArUco calibration markers (with their white margins) onto a top-down canvas."""
    from vision.calibration import marker_image

    for mid, c in enumerate(geo.marker_centres()):
        side = int(round(geo.marker * r))
        img = marker_image(mid, side)
        m = int(round(geo.marker_inset * 0.6 * r))
        x0, y0 = int(round(c[0] * r - side / 2)), int(round(c[1] * r - side / 2))
        canvas[y0 - m:y0 + side + m, x0 - m:x0 + side + m] = 250
        canvas[y0:y0 + side, x0:x0 + side] = img[..., None]


def render_topdown(scene: Scene, *, style: str, seed: int = 0, geo: TableGeometry = DEFAULT_GEOMETRY,
                   r: float = RENDER_PX_PER_MM, felt: tuple[int, int, int] | None = None,
                   hands: tuple[tuple[int, str], ...] = (), items: list[_Item] | None = None
                   ) -> tuple[Float32Array, list[_Item]]:
    """The table drawn from straight above at ``r`` px/mm (float32 BGR) and the laid-out items (``items``:
    these instead of the scene's layout)."""
    rng = np.random.default_rng(seed)
    n = int(round(geo.size * r))
    felt = felt or felt_for(style, rng)
    canvas = np.empty((n, n, 3), np.float32)
    canvas[:] = felt
    tex = rng.normal(0, 4, (n // 16 + 1, n // 16 + 1, 1)).astype(np.float32)
    canvas += cv2.resize(tex, (n, n), interpolation=cv2.INTER_LINEAR)[..., None]
    draw_markers(canvas, geo, r)
    items = layout(scene, geo, seed) if items is None else items
    paste_items(canvas, items, style=style, geo=geo, r=r)
    for seat, zone in hands:
        _draw_hand(canvas, seat, zone, geo, r, rng)
    return canvas, items


def paste_items(canvas: Float32Array, items: Sequence[LaidOut], *, style: str, geo: TableGeometry = DEFAULT_GEOMETRY,
                r: float = RENDER_PX_PER_MM, origin: tuple[float, float] = (0.0, 0.0)) -> None:
    """Draw laid-out items (:func:`layout`'s, or any with its fields) onto a top-down canvas at ``r`` px/mm;
    ``origin``: the canvas px of the table's corner is ``-origin`` (a canvas that is a window of the table)."""
    st = load_style(style)
    side_b, side_g, side_r = (float(v) * 0.8 for v in st.side)
    side = (side_b, side_g, side_r)
    for it in items:
        img = _object_image(it, style, r, geo)
        k = _seat_of(it) if it.zone != "centre" else 0
        img = np.rot90(img, k) if k else img
        c = local_to_table(_seat_of(it), np.array([[it.a, it.b]]), geo)[0] * r
        flat = it.label.startswith(("card:", "stick", "die:"))
        _paste(canvas, np.ascontiguousarray(img), c[0] - origin[0], c[1] - origin[1], it.angle,
               None if flat else side, r)


def _draw_hand(canvas: Float32Array, seat: int, zone: str, geo: TableGeometry, r: float,
               rng: np.random.Generator) -> None:
    target_b = {"pond": 180.0, "meld": 318.0, "side": 370.0, "card": 370.0, "hand": 420.0,
                "stick": 80.0}.get(zone, 150.0)
    a = {"meld": 200.0, "side": -250.0, "card": 245.0}.get(zone, 0.0) + rng.uniform(-30, 30)
    tip = local_to_table(seat, np.array([[a, target_b]]), geo)[0] * r
    base = local_to_table(seat, np.array([[a + rng.uniform(-40, 40), geo.size / 2 + 40]]), geo)[0] * r
    colour = tuple(float(v) for v in SKIN[int(rng.integers(len(SKIN)))])
    cv2.line(canvas, tuple(int(v) for v in base), tuple(int(v) for v in tip), colour, int(70 * r), cv2.LINE_AA)
    cv2.ellipse(canvas, tuple(int(v) for v in tip), (int(48 * r), int(40 * r)), rng.uniform(0, 180), 0, 360,
                colour, -1, cv2.LINE_AA)


EXPOSURE_PEAK = 245.0  # where the rendered camera's auto-exposure puts the 99.5th brightness percentile


def render_scene(scene: Scene, *, seed: int = 0, style: str | None = None, pose: CameraPose | None = None,
                 geo: TableGeometry = DEFAULT_GEOMETRY, hands: tuple[tuple[int, str], ...] = (),
                 lighting: bool = True, noise: float = 3.0, felt: tuple[int, int, int] | None = None,
                 layout_seed: int | None = None, items: list[_Item] | None = None) -> tuple[Image, Truth]:
    """A camera frame (BGR uint8, ``pose.size``) of ``scene`` and its ground truth.

    ``layout_seed`` fixes where the tiles lie independently of the frame's noise (a sequence of frames of
    one table keeps its tiles in place); it defaults to ``seed``. ``items``: objects laid out by the
    caller instead of the scene's layout (:func:`render_enrollment_layout`).
    """
    rng = np.random.default_rng(seed)
    style = style or available_styles()[int(rng.integers(len(available_styles())))]
    pose = pose or CameraPose.random(rng, geo)
    lseed = seed if layout_seed is None else layout_seed
    r = RENDER_PX_PER_MM
    canvas, items = render_topdown(scene, style=style, seed=lseed, geo=geo, r=r, felt=felt, hands=hands, items=items)
    if lighting:
        n = canvas.shape[0]
        yy, xx = np.mgrid[0:n:8, 0:n:8].astype(np.float32) / n - 0.5
        ang = rng.uniform(0, 2 * np.pi)
        gain = rng.uniform(0.85, 1.1) + rng.uniform(0, 0.25) * (np.cos(ang) * xx + np.sin(ang) * yy)
        gain -= rng.uniform(0, 0.25) * (xx * xx + yy * yy)
        gain = cv2.resize(gain, (n, n), interpolation=cv2.INTER_LINEAR)
        canvas *= gain[..., None]
        canvas *= rng.uniform(0.94, 1.06, 3).astype(np.float32)
        # the camera's auto-exposure: the brightest tile faces stay below clipping, as vision.selftest asks
        # of a real camera ("exposure": under 1 % of the table at 250 or more)
        peak = float(np.percentile(canvas[::4, ::4].max(axis=2), 99.5))
        if peak > EXPOSURE_PEAK:
            canvas *= EXPOSURE_PEAK / peak
    m = pose.h @ np.diag([1.0 / r, 1.0 / r, 1.0])
    floor = tuple(float(v) for v in rng.uniform(20, 60, 3))
    frame = cast(Float32Array, cv2.warpPerspective(canvas, m, pose.size, flags=cv2.INTER_LINEAR,
                                                   borderMode=cv2.BORDER_CONSTANT, borderValue=floor))
    if noise > 0:
        small = rng.standard_normal((frame.shape[0] // 2, frame.shape[1] // 2, 3), dtype=np.float32) * noise
        frame += cv2.resize(small, (frame.shape[1], frame.shape[0]), interpolation=cv2.INTER_NEAREST)
    np.clip(frame, 0, 255, out=frame)
    image = frame.astype(np.uint8)
    truth = Truth(scene, style, pose, hands=tuple(hands))
    for it in items:
        poly = _table_poly(it, geo)
        truth.objects.append(TileTruth(it.label, it.seat, it.zone, it.index, it.turns, poly,
                                       apply_homography(pose.h, poly)))
    return image, truth


def render_enrollment_layout(style: str, *, seed: int = 0, pose: CameraPose | None = None,
                             labels: set[str] | None = None, geo: TableGeometry = DEFAULT_GEOMETRY,
                             felt: tuple[int, int, int] | None = None) -> tuple[Image, Truth]:
    """A camera frame of the table with the enrollment layout (:data:`vision.tile_layout.LAYOUT`: every face
    once, upright for East, in the table's centre) in ``style``, as ``tiles enroll --layout`` reads it.
    ``labels`` limits the faces laid out (default: every face of the style and ``back``); ``pose`` and
    ``felt`` fix the camera and the cloth (one table's frames), else drawn from ``seed``."""
    from vision.tile_layout import LAYOUT, LAYOUT_PITCH_MM

    st = load_style(style)
    have = set(st.labels) if labels is None else set(labels)
    rng = np.random.default_rng([seed, 7])
    pa, pb = LAYOUT_PITCH_MM
    b0 = -(len(LAYOUT) - 1) * pb / 2  # every row keeps its place, also where a set has none of its faces
    items: list[_Item] = []
    for r, row in enumerate(LAYOUT):
        for c, lab in enumerate(row):
            if lab in have:
                items.append(_Item(lab, 0, "layout", len(items), 0, (c - 4) * pa + rng.uniform(-1.5, 1.5),
                                   b0 + r * pb + rng.uniform(-1.5, 1.5), geo.tile_w, geo.tile_h,
                                   float(rng.normal(0, 1.0))))
    return render_scene(Scene("mcr"), seed=seed, style=style, pose=pose, geo=geo, items=items, felt=felt)


def render_laid_out(style: str, tiles: Sequence[tuple[str, float, float, float]], *, seed: int = 0,
                    pose: CameraPose | None = None, geo: TableGeometry = DEFAULT_GEOMETRY,
                    felt: tuple[int, int, int] | None = None) -> tuple[Image, Truth]:
    """A camera frame of the table with ``tiles`` laid face up, upright for East, in ``style``: each
    ``(label, x, y, angle)`` at (x, y) mm from the table's centre (x to East's right, y towards East) and
    turned ``angle`` degrees (a layout page of :mod:`vision.whole_set`); ``pose``, ``felt`` as
    :func:`render_enrollment_layout`'s."""
    items = [_Item(lab, 0, "layout", i, 0, x, y, geo.tile_w, geo.tile_h, angle)
             for i, (lab, x, y, angle) in enumerate(tiles)]
    return render_scene(Scene("mcr"), seed=seed, style=style, pose=pose, geo=geo, items=items, felt=felt)
