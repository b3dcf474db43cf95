"""Render photo-like crops of single mahjong tiles, deterministic from a seed.

The tile faces come from the styles in ``vision/assets/tiles/`` (built by ``vision.train.make_assets``):
each style has a face colour, a back colour, a side colour and one RGBA glyph layer per face label.

Two levels of API, both pure functions of their arguments (no global state besides a read-only asset
cache):

* :func:`face_image` -- the clean top face of a tile (or its back) at a given height, BGRA, for scene
  renderers that place tiles themselves.
* :func:`render_tile` -- a crop as the tile finder would cut it out of a camera frame: the tile on a
  table background, in one of four orientations, with perspective, lighting gradients, glare, shadows,
  occlusion, blur, noise and JPEG artefacts. :func:`render_none` renders crops that hold no tile.

Images are OpenCV-style BGR ``uint8`` arrays.
"""
from __future__ import annotations

import colorsys
import json
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import cast

import cv2
import numpy as np

from vision.arrays import Float32Array, Image
from vision.tile_labels import BACK, FACE_LABELS

ASSET_DIR = Path(__file__).resolve().parent / "assets" / "tiles"
TILE_ASPECT = 0.75  # width / height of a tile's top face
MIN_BACK_FACE_DISTANCE = 200.0  # least L1 distance (BGR) between a rendered tile's back and face colours: clearly apart

#: Table colours (BGR) the crops are rendered on.
TABLE_COLOURS = [(60, 110, 40), (50, 90, 30), (120, 80, 40), (140, 100, 60), (70, 70, 70), (40, 40, 45),
                 (50, 80, 120), (30, 60, 100), (110, 110, 105), (25, 95, 75)]


@dataclass(frozen=True)
class TileStyle:
    """One tile set's look: colours (BGR) and the glyph layer of every face it has."""

    name: str
    face: tuple[int, int, int]
    back: tuple[int, int, int]
    side: tuple[int, int, int]
    radius: float
    glyphs: dict[str, Image]  # label -> RGBA glyph layer (H, W, 4)

    @property
    def labels(self) -> tuple[str, ...]:
        """The face labels of this style, plus ``back``."""
        return tuple(lab for lab in FACE_LABELS if lab in self.glyphs) + (BACK,)


def available_styles() -> list[str]:
    """Names of the styles shipped in the asset folder."""
    return sorted(p.parent.name for p in ASSET_DIR.glob("*/style.json"))


@lru_cache(maxsize=16)
def load_style(name: str) -> TileStyle:
    """Load a style's assets (cached; the returned object must not be mutated). ``name`` is a shipped style
    or a path to a style folder (the training cache's randomised styles)."""
    folder = Path(name) if "/" in name else ASSET_DIR / name
    meta_path = folder / "style.json"
    if not meta_path.is_file():
        raise ValueError(f"unknown tile style {name!r}; available: {', '.join(available_styles())}")
    try:
        meta = json.loads(meta_path.read_text())
        labels = [str(lab) for lab in meta["labels"]]
        colours = [meta[k] for k in ("face", "back", "side")]
        radius = float(meta["radius"])
    except (ValueError, KeyError, TypeError) as exc:
        raise ValueError(f"tile style {name!r}: {meta_path} is not a style description ({exc})") from None
    bad = [lab for lab in labels if lab not in FACE_LABELS]
    if bad:
        raise ValueError(f"tile style {name!r}: unknown face labels {bad}")
    glyphs: dict[str, Image] = {}
    for lab in labels:
        bgra = cast("Image | None", cv2.imread(str(folder / f"{lab}.png"), cv2.IMREAD_UNCHANGED))  # None: unread
        if bgra is None or bgra.ndim != 3 or bgra.shape[2] != 4:
            raise ValueError(f"tile style {name!r}: {folder / (lab + '.png')} is missing or not an RGBA PNG")
        glyphs[lab] = bgra
        glyphs[lab].setflags(write=False)

    def bgr(c: list[int]) -> tuple[int, int, int]:
        return (int(c[2]), int(c[1]), int(c[0]))

    return TileStyle(name, bgr(colours[0]), bgr(colours[1]), bgr(colours[2]), radius, glyphs)


# ---- the clean face ------------------------------------------------------------------------------------


@lru_cache(maxsize=512)
def rounded_mask(h: int, w: int, radius_frac: float) -> Float32Array:
    """Float mask (h, w) of a rounded rectangle, anti-aliased (cached, read-only)."""
    ss = 4
    m = np.zeros((h * ss, w * ss), np.uint8)
    r = max(1, int(radius_frac * w * ss))
    cv2.rectangle(m, (r, 0), (w * ss - 1 - r, h * ss - 1), 255, -1)
    cv2.rectangle(m, (0, r), (w * ss - 1, h * ss - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w * ss - 1 - r, r), (r, h * ss - 1 - r), (w * ss - 1 - r, h * ss - 1 - r)):
        cv2.circle(m, (cx, cy), r, 255, -1)
    mask = cv2.resize(m, (w, h), interpolation=cv2.INTER_AREA).astype(np.float32) / 255.0
    mask.setflags(write=False)
    return mask


def face_image(style: TileStyle | str, label: str, height: int, face_colour: tuple[int, int, int] | None = None,
               back_colour: tuple[int, int, int] | None = None) -> Image:
    """The top of a tile lying face up (or of its back for ``label == "back"``): BGRA, ``height`` pixels
    tall, alpha is the rounded tile outline."""
    st = load_style(style) if isinstance(style, str) else style
    if label != BACK and label not in st.glyphs:
        raise ValueError(f"style {st.name!r} has no face {label!r}")
    h = int(height)
    w = max(2, round(h * TILE_ASPECT))
    out = np.empty((h, w, 4), np.float32)
    if label == BACK:
        out[..., :3] = back_colour or st.back
    else:
        out[..., :3] = face_colour or st.face
        g = cv2.resize(st.glyphs[label], (w, h), interpolation=cv2.INTER_AREA).astype(np.float32)
        a = g[..., 3:4] / 255.0
        out[..., :3] = out[..., :3] * (1 - a) + g[..., :3] * a
    out[..., 3] = rounded_mask(h, w, st.radius) * 255.0
    return np.clip(out, 0, 255).astype(np.uint8)


# ---- photo-like crops ----------------------------------------------------------------------------------


def _table(rng: np.random.Generator, h: int, w: int) -> Float32Array:
    base = np.array(TABLE_COLOURS[rng.integers(len(TABLE_COLOURS))], np.float32) * rng.uniform(0.7, 1.25, 3)
    img = np.empty((h, w, 3), np.float32)
    img[:] = base
    noise = rng.normal(0, rng.uniform(2, 10), (max(2, h // 4), max(2, w // 4), 1)).astype(np.float32)
    img += cv2.resize(noise, (w, h), interpolation=cv2.INTER_LINEAR)[..., None]
    return img


def _paste(dst: Float32Array, src_bgra: Image, x: int, y: int, colour_scale: float = 1.0) -> None:
    """Alpha-composite ``src_bgra`` onto float ``dst`` at (x, y), clipped to the canvas."""
    h, w = src_bgra.shape[:2]
    x0, y0, x1, y1 = max(0, x), max(0, y), min(dst.shape[1], x + w), min(dst.shape[0], y + h)
    if x1 <= x0 or y1 <= y0:
        return
    s = src_bgra[y0 - y:y1 - y, x0 - x:x1 - x].astype(np.float32)
    a = s[..., 3:4] / 255.0
    dst[y0:y1, x0:x1] = dst[y0:y1, x0:x1] * (1 - a) + s[..., :3] * colour_scale * a


def _shape(h: int, w: int, radius: float, colour: tuple[float, float, float]) -> Float32Array:
    out = np.empty((h, w, 4), np.float32)
    out[..., :3] = colour
    out[..., 3] = rounded_mask(h, w, radius) * 255.0
    return out


def _jitter_colour(rng: np.random.Generator, c: tuple[int, int, int], amount: float) -> tuple[float, float, float]:
    b, g, r = (float(np.clip(v + rng.normal(0, amount), 0, 255)) for v in c)
    return b, g, r


def _int_colour(c: Iterable[float]) -> tuple[int, int, int]:
    """A BGR colour's three channels as whole numbers (truncated, as ``int``)."""
    b, g, r = (int(v) for v in c)
    return b, g, r


def _hsv_bgr(h: float, s: float, v: float) -> tuple[int, int, int]:
    r, g, b = colorsys.hsv_to_rgb(h, s, v)
    return int(b * 255), int(g * 255), int(r * 255)


def random_face_colour(rng: np.random.Generator) -> tuple[int, int, int]:
    """A light face colour as real tiles have: white, ivory, cream, light grey or a faint tint (BGR)."""
    return _hsv_bgr(rng.random(), rng.uniform(0.0, 0.14), rng.uniform(0.75, 1.0))


def random_back_colour(rng: np.random.Generator) -> tuple[int, int, int]:
    """A back colour as real sets have: a clear colour (green, blue, yellow, orange, pink, ...) -- never a
    near-neutral, which is what a blank white dragon looks like: pale on a white-faced set, dark on a
    black-faced one. Otherwise a lone blank face and a back could be the very same picture (BGR)."""
    return _hsv_bgr(rng.random(), rng.uniform(0.5, 1.0), rng.uniform(0.5, 1.0))


def _tile_layer(rng: np.random.Generator, st: TileStyle, label: str, th: int, augment: bool) -> Float32Array:
    """The tile seen from above: top face plus a visible side band; BGRA float (with a margin)."""
    face_c: tuple[float, float, float] = _jitter_colour(rng, st.face, 12) if augment else st.face
    if augment and rng.random() < 0.25 and sum(st.face) > 300:  # a differently coloured (light) face
        face_c = random_face_colour(rng)
    back_c = st.back
    if augment and rng.random() < 0.5:
        back_c = random_back_colour(rng)
    # a real set's back always differs from its face (that is how face-down is told from face-up)
    while label == BACK and sum(abs(float(a) - float(b)) for a, b in zip(back_c, face_c)) < MIN_BACK_FACE_DISTANCE:
        back_c = random_back_colour(rng)
    top = face_image(st, label, th, face_colour=_int_colour(face_c), back_colour=back_c).astype(np.float32)
    tw = top.shape[1]
    depth = rng.uniform(0.0, 0.12) * th if augment else 0.05 * th
    ang = rng.uniform(0, 2 * np.pi)
    dx, dy = int(round(np.cos(ang) * depth)), int(round(np.sin(ang) * depth))
    pad = int(np.ceil(depth)) + 2
    layer = np.zeros((th + 2 * pad, tw + 2 * pad, 4), np.float32)
    side_c = st.side if label != BACK else st.face
    if augment and rng.random() < 0.3:
        side_c = _int_colour(rng.uniform(0, 255, 3))
    side = _shape(th, tw, st.radius, (side_c[0] * 0.75, side_c[1] * 0.75, side_c[2] * 0.75))
    for t in (1.0, 0.66, 0.33):
        _blend_layer(layer, side, pad + int(dx * t), pad + int(dy * t))
    _blend_layer(layer, top, pad, pad)
    return layer


def _blend_layer(dst: Float32Array, src: Float32Array, x: int, y: int) -> None:
    h, w = src.shape[:2]
    d = dst[y:y + h, x:x + w]
    a = src[..., 3:4] / 255.0
    d[..., :3] = d[..., :3] * (1 - a) + src[..., :3] * a
    d[..., 3:4] = np.maximum(d[..., 3:4], src[..., 3:4])


def _photometric(rng: np.random.Generator, img: Float32Array) -> Float32Array:
    """Lighting gradient, glare, cast shadow, colour cast, blur, noise (float BGR in, float BGR out)."""
    h, w = img.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    ang = rng.uniform(0, 2 * np.pi)
    ramp = (np.cos(ang) * (xx / w - 0.5) + np.sin(ang) * (yy / h - 0.5))
    img = img * (rng.uniform(0.75, 1.15) + rng.uniform(0, 0.5) * ramp)[..., None]
    if rng.random() < 0.35:  # glare
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        s = rng.uniform(0.08, 0.35) * max(h, w)
        blob = np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * s * s))
        img = img + (rng.uniform(40, 150) * blob)[..., None]
    if rng.random() < 0.3:  # soft cast shadow over a half-plane
        a2 = rng.uniform(0, 2 * np.pi)
        d = np.cos(a2) * (xx - rng.uniform(0, w)) + np.sin(a2) * (yy - rng.uniform(0, h))
        m = 1.0 / (1.0 + np.exp(-d / rng.uniform(1, 0.1 * w + 1)))
        img = img * (1 - rng.uniform(0.2, 0.5) * m)[..., None]
    img = img * rng.uniform(0.85, 1.15, 3).astype(np.float32) + rng.normal(0, 6, 3).astype(np.float32)
    img = np.clip(img, 0, 255)
    lut = (255.0 * (np.arange(256) / 255.0) ** rng.uniform(0.75, 1.3)).astype(np.float32)
    return lut[img.astype(np.uint8)]


def _occlude(rng: np.random.Generator, img: Float32Array, max_frac: float) -> None:
    """Cover part of the crop from one edge with a finger-, sleeve- or tile-coloured blob."""
    h, w = img.shape[:2]
    colour = [(120, 150, 200), (90, 120, 170), (40, 40, 40), (200, 200, 200), (60, 60, 140)][rng.integers(5)]
    depth = rng.uniform(0.05, max_frac)
    edge = rng.integers(4)
    pts = []
    for t in np.linspace(0, 1, 6):
        d = depth * rng.uniform(0.3, 1.0)
        p = {0: (t * w, d * h), 1: (w - d * w, t * h), 2: (t * w, h - d * h), 3: (d * w, t * h)}[int(edge)]
        pts.append(p)
    corners = {0: [(w, 0), (0, 0)], 1: [(w, h), (w, 0)], 2: [(w, h), (0, h)], 3: [(0, h), (0, 0)]}[int(edge)]
    poly = np.array(pts + corners, np.int32)
    cv2.fillPoly(img, [poly], tuple(float(c) * rng.uniform(0.7, 1.2) for c in colour))


def _finish(rng: np.random.Generator, img: Float32Array, out_hw: tuple[int, int], augment: bool) -> Image:
    out = cast(Float32Array, cv2.resize(img, (out_hw[1], out_hw[0]), interpolation=cv2.INTER_AREA))
    if augment:
        if rng.random() < 0.5:
            out = cast(Float32Array, cv2.GaussianBlur(out, (0, 0), rng.uniform(0.3, 1.3)))
        elif rng.random() < 0.2:
            k = int(rng.integers(3, 6))
            kern: Float32Array = np.zeros((k, k), np.float32)
            kern[k // 2] = 1.0 / k
            rot = cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), rng.uniform(0, 180), 1.0)
            kern = cast(Float32Array, cv2.warpAffine(kern, rot, (k, k)))
            out = cast(Float32Array, cv2.filter2D(out, -1, kern / max(kern.sum(), 1e-6)))
        out = out + rng.normal(0, rng.uniform(0, 8), out.shape).astype(np.float32)
    crop: Image = np.clip(out, 0, 255).astype(np.uint8)
    if augment and rng.random() < 0.7:
        ok, buf = cv2.imencode(".jpg", crop, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(30, 96))])
        crop = cast(Image, cv2.imdecode(buf, cv2.IMREAD_COLOR))
    return crop


def _perspective(rng: np.random.Generator, img: Float32Array, amount: float) -> Float32Array:
    h, w = img.shape[:2]
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    dst = src + rng.uniform(-amount, amount, (4, 2)).astype(np.float32) * np.array([w, h], np.float32)
    m = cv2.getPerspectiveTransform(src, dst)
    return cast(Float32Array, cv2.warpPerspective(img, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT))


def _camera(rng: np.random.Generator, img: Float32Array) -> Float32Array:
    """What a table camera adds (float BGR in and out): a white-balance error, an exposure error and the
    soft shadow of a hand or an arm over part of the tile."""
    h, w = img.shape[:2]
    img = img * rng.uniform(0.8, 1.2, 3).astype(np.float32) * rng.uniform(0.7, 1.3)
    if rng.random() < 0.3:
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        cx, cy = rng.uniform(-0.3, 1.3) * w, rng.uniform(-0.3, 1.3) * h
        rx, ry = rng.uniform(0.3, 0.9) * w, rng.uniform(0.3, 0.9) * h
        d = ((xx - cx) / rx) ** 2 + ((yy - cy) / ry) ** 2
        img = img * (1 - rng.uniform(0.2, 0.55) / (1 + np.exp(np.minimum((d - 1) * rng.uniform(2, 8), 60))))[..., None]
    return np.clip(img, 0, 255)


def render_tile(style: TileStyle | str, label: str, *, orientation: int = 0, size: int = 64, seed: int = 0,
                augment: bool = True, tight: bool = False) -> Image:
    """A crop of one tile, BGR uint8, its long side ``size`` pixels.

    ``orientation`` k turns the tile k quarter turns counter-clockwise (0 upright, 1 top to the left,
    2 upside-down, 3 top to the right). With ``augment`` the crop is jittered (position, scale, rotation,
    perspective, lighting, glare, shadow, occlusion, blur, noise, JPEG); the same seed gives the same crop.
    ``tight``: the crop as the table pipeline's tile finder cuts it -- the tile's box with hardly any table
    around it -- and a table camera's white-balance and exposure errors and hand shadows on top.
    """
    st = load_style(style) if isinstance(style, str) else style
    if label != BACK and label not in st.glyphs:
        raise ValueError(f"style {st.name!r} has no face {label!r}")
    rng = np.random.default_rng(seed)
    work = 2 * size  # render at twice the output size, then downsample
    fill = (rng.uniform(0.93, 1.03) if tight else rng.uniform(0.78, 0.95)) if augment else 0.86
    th = int(work * fill)
    layer = _tile_layer(rng, st, label, th, augment)
    lh, lw = layer.shape[:2]
    ch = work
    if tight:
        cw = int(round(work * fill * TILE_ASPECT * rng.uniform(0.97, 1.06)))
    else:
        cw = int(round(work * TILE_ASPECT * rng.uniform(1.0, 1.12))) if augment else int(round(work * 0.8))
    canvas = _table(rng, ch, cw)
    if augment and rng.random() < 0.4:  # neighbouring tiles of a row at the crop's sides
        for side in (0, 1):
            if rng.random() < 0.7:
                n_w = lw
                nb = _tile_layer(rng, st, st.labels[rng.integers(len(st.labels) - 1)], th, False)
                gap = int(rng.uniform(0.0, 0.06) * work)
                cx0 = (cw - lw) // 2
                x = cx0 - n_w - gap if side == 0 else cx0 + lw + gap
                _paste(canvas, nb.astype(np.uint8), x, (ch - lh) // 2)
    # drop shadow
    if augment:
        sh = np.zeros((lh, lw, 4), np.float32)
        sh[..., 3] = cv2.GaussianBlur(layer[..., 3], (0, 0), max(1.0, 0.03 * th)) * rng.uniform(0.2, 0.6)
        _paste(canvas, sh.astype(np.uint8), (cw - lw) // 2 + int(rng.normal(0, 0.03 * th)),
               (ch - lh) // 2 + int(rng.normal(0, 0.03 * th)))
    jx = int(rng.normal(0, 0.025 * work)) if augment else 0
    jy = int(rng.normal(0, 0.025 * work)) if augment else 0
    if augment:
        rot = cv2.getRotationMatrix2D((lw / 2, lh / 2), rng.normal(0, 3.0), 1.0)
        layer = cast(Float32Array, cv2.warpAffine(layer, rot, (lw, lh), flags=cv2.INTER_LINEAR, borderValue=(0, 0, 0, 0)))
    _paste(canvas, np.clip(layer, 0, 255).astype(np.uint8), (cw - lw) // 2 + jx, (ch - lh) // 2 + jy)
    if augment:
        canvas = _perspective(rng, canvas, 0.04)
        if rng.random() < 0.15:
            _occlude(rng, canvas, 0.22)
        canvas = _photometric(rng, canvas)
        if tight:
            canvas = _camera(rng, canvas)
    canvas = np.ascontiguousarray(np.rot90(canvas, orientation % 4))
    h, w = canvas.shape[:2]
    scale = size / max(h, w)
    return _finish(rng, canvas, (max(1, round(h * scale)), max(1, round(w * scale))), augment)


def render_none(*, size: int = 64, seed: int = 0, style: TileStyle | str | None = None) -> Image:
    """A crop that holds no whole tile: bare table, clutter, a tile sliver at an edge or the gap between
    two tiles. BGR uint8, long side ``size``."""
    rng = np.random.default_rng(seed)
    names = available_styles()
    st = load_style(style or names[rng.integers(len(names))]) if not isinstance(style, TileStyle) else style
    work = 2 * size
    ch, cw = work, int(round(work * TILE_ASPECT * rng.uniform(1.0, 1.15)))
    if rng.random() < 0.5:
        ch, cw = cw, ch
    canvas = _table(rng, ch, cw)
    kind = rng.integers(4)
    th = int(work * rng.uniform(0.75, 0.95))
    if kind == 1:  # a tile mostly outside the crop
        layer = _tile_layer(rng, st, st.labels[rng.integers(len(st.labels))], th, True)
        lh, lw = layer.shape[:2]
        vis = rng.uniform(0.05, 0.4)
        edge = rng.integers(4)
        x = {0: int(-lw * (1 - vis)), 1: int(cw - lw * vis), 2: (cw - lw) // 2, 3: (cw - lw) // 2}[int(edge)]
        y = {0: (ch - lh) // 2, 1: (ch - lh) // 2, 2: int(-lh * (1 - vis)), 3: int(ch - lh * vis)}[int(edge)]
        _paste(canvas, np.clip(layer, 0, 255).astype(np.uint8), x, y)
    elif kind == 2:  # centred on the gap between two tiles of a row
        for side in (0, 1):
            layer = _tile_layer(rng, st, st.labels[rng.integers(len(st.labels))], th, True)
            lh, lw = layer.shape[:2]
            gap = int(rng.uniform(0.0, 0.05) * work)
            x = cw // 2 - lw - gap // 2 if side == 0 else cw // 2 + gap // 2
            _paste(canvas, np.clip(layer, 0, 255).astype(np.uint8), x, (ch - lh) // 2)
    elif kind == 3:  # clutter: blobs and strokes (hands, dice, coins, sleeves)
        for _ in range(int(rng.integers(1, 5))):
            c = tuple(float(v) for v in rng.uniform(0, 255, 3))
            if rng.random() < 0.5:
                cv2.ellipse(canvas, (int(rng.uniform(0, cw)), int(rng.uniform(0, ch))),
                            (int(rng.uniform(5, cw / 2)), int(rng.uniform(5, ch / 2))), rng.uniform(0, 180), 0, 360, c, -1)
            else:
                cv2.line(canvas, (int(rng.uniform(0, cw)), int(rng.uniform(0, ch))),
                         (int(rng.uniform(0, cw)), int(rng.uniform(0, ch))), c, int(rng.integers(2, 12)))
    canvas = _perspective(rng, canvas, 0.04)
    if rng.random() < 0.2:
        _occlude(rng, canvas, 0.3)
    canvas = _photometric(rng, canvas)
    scale = size / max(ch, cw)
    return _finish(rng, canvas, (max(1, round(ch * scale)), max(1, round(cw * scale))), True)
