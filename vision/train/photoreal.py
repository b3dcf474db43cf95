"""Photo-like tile crops from a small physically based renderer (numpy + OpenCV, no GPU, no Blender).

The flat renders of :mod:`vision.tile_render` paste a face's glyph layer on a coloured rounded rectangle.
Real tiles are solid bodies under lamps, seen by a camera; this module renders that, per pixel, in linear
light:

* **the body**: an ivory / cream / white block with a coloured *back layer* (green, blue, yellow, ...; a
  share of the thickness, sometimes with a thin third layer) that shows at the sides the camera sees. The
  camera is above the table's centre (:mod:`vision.geometry`: a 900 mm table, tiles 27 x 36 x 20 mm) at a
  random height; the pipeline rectifies the table *plane* (1.2 px/mm), so a tile's top, 20 mm above it, is
  shifted away from the camera's nadir and a little magnified, and the walls facing the nadir show
  between its footprint and its top -- the parallax computed here from the tile's place on the table.
* **the face**: a height map (a rounded bevel at the edge, a slight dome) gives normals; ink is painted
  into *engraved* recesses (its edges tilt the normal: the rim of a character catches or loses the light);
* **light**: a random environment (a ceiling of area lights -- one to four soft rectangles and discs, warm
  or cool -- over a dim gradient) lights the diffuse albedo and is reflected by the glossy face through a
  Fresnel (Schlick) term, prefiltered by the coat's roughness (a GGX-ish lobe as a blur of the
  environment): highlights and glare where a lamp's mirror image falls on the face or a bevel;
* **shadows**: every light casts the tile's and its neighbours' footprints onto the felt, blurred by the
  light's size (soft shadows); a hand or an arm over the crop takes part of the light away;
* **the camera**: a small residual perspective (calibration error), focus and motion blur, an exposure
  that may clip highlights, bloom around clipped highlights, signal-dependent sensor noise, a white
  balance error (the lamps' colour temperature not fully corrected), a tone curve, JPEG.

A *set look* (:class:`SetLook`, from a seed) is what one physical set keeps on every tile: body and back
colours, layer shares, gloss, bevel, engraving depth and its inks (the style's glyph colours mapped to
real inks: black / navy / red / green / blue). A photoreal *set* is a face style (a shipped style or a
style folder) rendered with one look; the dataset (``vision.train.dataset --photoreal N``) trains on many,
and :mod:`vision.heldout_styles` keeps some out for reporting (``kai`` and reserved random-style seeds).

    crop = render_photo("classic", "3m", look=random_look(7), orientation=1, size=64, seed=5)

Cost: 15 ms of CPU a crop (36-80 px, one core, numpy), against 5 ms for
:func:`vision.tile_render.render_tile` (same run). Why not Blender: ``bpy``'s Cycles path tracer on this
machine's 2 shared CPU cores needs of the order of 1-5 s per small crop even at 16-64 samples with glossy
and bevelled materials (a scene build and a render per tile), so the ~16 000-60 000 photoreal crops of one
training cache would take 2 hours to 2 days of both cores; this renderer makes them in 2-8 minutes (an
estimate from Cycles' published CPU sample rates, not a run here: ``bpy`` was not installed).
"""
from __future__ import annotations

import colorsys
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from vision.geometry import DEFAULT_GEOMETRY
from vision.tile_labels import BACK, NONE
from vision.tile_render import TABLE_COLOURS, TileStyle, load_style, rounded_mask

TILE_ASPECT = DEFAULT_GEOMETRY.tile_w / DEFAULT_GEOMETRY.tile_h
#: Inks of real sets (BGR): what a style's glyph colours are mapped to, by hue class.
INKS: dict[str, tuple[tuple[int, int, int], ...]] = {
    "dark": ((20, 20, 20), (90, 35, 20), (40, 60, 10), (25, 25, 60), (60, 40, 30)),  # black, navy, dark green
    "reds": ((40, 30, 200), (50, 20, 170), (30, 40, 220), (70, 40, 190)),
    "greens": ((60, 130, 10), (80, 120, 0), (50, 100, 20), (110, 150, 30)),
    "blues": ((170, 70, 20), (140, 50, 10), (160, 110, 20), (200, 90, 40)),
}


@dataclass(frozen=True)
class SetLook:
    """What one physical set keeps on all its tiles (colours BGR 0-255)."""

    seed: int
    body: tuple[int, int, int]
    back: tuple[int, int, int]
    back_share: float  # share of the thickness that is the back layer
    stripe: tuple[int, int, int] | None  # a thin layer between body and back
    roughness: float  # of the face's coat: 0.03 mirror-like .. 0.35 satin
    f0: float  # reflectance at normal incidence (plastics ~0.04)
    bevel: float  # bevel width, share of the tile's width
    dome: float  # height of the face's dome, px per 100 px of tile
    engrave: float  # depth of the ink's recess (0: printed flat)
    ink_map: tuple[tuple[str, tuple[int, int, int]], ...]  # hue class -> ink (empty: the style's own inks)
    depth_ratio: float  # thickness / face height


def _hsv(h: float, s: float, v: float) -> tuple[int, int, int]:
    r, g, b = colorsys.hsv_to_rgb(h % 1.0, s, v)
    return int(b * 255), int(g * 255), int(r * 255)


def random_look(seed: int) -> SetLook:
    """A physical set's look drawn from ``seed``: ivory / cream / white bodies, a clear back colour."""
    rng = np.random.default_rng([seed, 4242])
    kind = rng.random()
    if kind < 0.35:
        body = _hsv(rng.uniform(0.08, 0.15), rng.uniform(0.08, 0.22), rng.uniform(0.86, 0.97))  # ivory, cream
    elif kind < 0.85:
        body = _hsv(rng.random(), rng.uniform(0.0, 0.05), rng.uniform(0.9, 1.0))  # white
    else:
        body = _hsv(rng.random(), rng.uniform(0.05, 0.15), rng.uniform(0.85, 0.97))  # a faint tint
    backs = [(0.33, 0.8, 0.55), (0.6, 0.85, 0.6), (0.14, 0.9, 0.9), (0.07, 0.9, 0.85), (0.95, 0.6, 0.8),
             (0.0, 0.85, 0.7), (0.5, 0.7, 0.55), (0.75, 0.6, 0.6), (0.55, 0.6, 0.85), (0.0, 0.0, 0.12)]
    h, s, v = backs[int(rng.integers(len(backs)))]
    back = _hsv(h + rng.normal(0, 0.02), float(np.clip(s + rng.normal(0, 0.08), 0, 1)),
                float(np.clip(v + rng.normal(0, 0.08), 0.08, 1)))
    ink_map: tuple[tuple[str, tuple[int, int, int]], ...] = ()
    if rng.random() < 0.7:
        ink_map = tuple((k, INKS[k][int(rng.integers(len(INKS[k])))]) for k in INKS)
    return SetLook(
        seed=seed, body=body, back=back, back_share=float(rng.uniform(0.3, 0.6)),
        stripe=_hsv(rng.random(), 0.02, 0.95) if rng.random() < 0.15 else None,
        roughness=float(rng.uniform(0.03, 0.35)), f0=float(rng.uniform(0.03, 0.06)),
        bevel=float(rng.uniform(0.04, 0.12)), dome=float(rng.uniform(0.0, 1.5)),
        engrave=float(rng.uniform(0.0, 2.5)) if rng.random() < 0.8 else 0.0,
        ink_map=ink_map, depth_ratio=float(rng.uniform(0.5, 0.72)))


# ---- the face's albedo and ink ---------------------------------------------------------------------------


def _hue_class(bgr: np.ndarray) -> np.ndarray:
    """Per pixel: 0 keep, 1 dark, 2 red, 3 green, 4 blue (for ink mapping)."""
    hsv = cv2.cvtColor(bgr, cv2.COLOR_BGR2HSV)
    h, s, v = hsv[..., 0].astype(np.int32), hsv[..., 1], hsv[..., 2]
    out = np.zeros(h.shape, np.uint8)
    out[(h < 10) | (h > 160)] = 2
    out[(h >= 35) & (h < 85)] = 3
    out[(h >= 85) & (h < 135)] = 4
    out[(v < 80) | ((s < 90) & (v < 150))] = 1
    out[(s < 40) & (v >= 150)] = 0  # white / pale paint stays
    return out


@lru_cache(maxsize=4096)
def _face_layers(style: str, label: str, look: SetLook, h: int, w: int) -> tuple[np.ndarray, np.ndarray]:
    """(ink colour BGR float32 (h, w, 3), ink alpha (h, w)) of a face at (h, w), inks mapped by the look."""
    st = load_style(style)
    if label == BACK or label not in st.glyphs:
        return np.zeros((h, w, 3), np.float32), np.zeros((h, w), np.float32)
    g = st.glyphs[label]
    bgr = np.ascontiguousarray(g[..., :3])
    if look.ink_map:
        inks = dict(look.ink_map)
        cls = _hue_class(bgr)
        bgr = bgr.copy()
        for i, name in ((1, "dark"), (2, "reds"), (3, "greens"), (4, "blues")):
            bgr[cls == i] = inks[name]
    col = cv2.resize(bgr, (w, h), interpolation=cv2.INTER_AREA).astype(np.float32)
    a = cv2.resize(g[..., 3], (w, h), interpolation=cv2.INTER_AREA).astype(np.float32) / 255.0
    col.setflags(write=False)
    a.setflags(write=False)
    return col, a


def _lin(c: np.ndarray | tuple[float, ...]) -> np.ndarray:
    """sRGB-ish 0-255 -> linear light."""
    out: np.ndarray = (np.asarray(c, np.float32) / 255.0) ** 2.2
    return out


def _shift(x: float, y: float) -> np.ndarray:
    """The affine matrix of a translation by (x, y)."""
    return np.array([[1, 0, x], [0, 1, y]], np.float32)


# ---- light ----------------------------------------------------------------------------------------------

ENV_N = 96  # environment texture: (u, v) = (rx / rz, ry / rz) over [-ENV_R, ENV_R]^2
ENV_R = 2.5


@dataclass
class Lights:
    """The lamps over the table: directions (unit, towards the lamp), BGR linear intensities, angular
    sizes; an ambient term and the environment texture the glossy coat reflects."""

    dirs: np.ndarray  # (n, 3)
    power: np.ndarray  # (n, 3)
    size: np.ndarray  # (n,) tan of the angular radius
    ambient: np.ndarray  # (3,)
    env: np.ndarray  # (ENV_N, ENV_N, 3) linear radiance


def _temperature(rng: np.random.Generator) -> np.ndarray:
    """A lamp's colour (BGR gains, G = 1): warm 2700 K .. cool 6500 K."""
    t = rng.uniform(0.0, 1.0)
    r, b = 1.0 + 0.35 * (1 - t), 0.6 + 0.45 * t
    return np.array([b, 1.0, r], np.float32)


def random_lights(rng: np.random.Generator) -> Lights:
    n = int(rng.integers(1, 5))
    uu = (np.arange(ENV_N, dtype=np.float32) + 0.5) / ENV_N * 2 * ENV_R - ENV_R
    u, v = np.meshgrid(uu, uu)
    base = rng.uniform(0.03, 0.15)
    grad = rng.uniform(-0.04, 0.04, 2)
    env = (base + grad[0] * u + grad[1] * v)[..., None] * _temperature(rng)[None, None]
    env = np.maximum(env, 0.005).astype(np.float32)
    dirs, power, size = [], [], []
    for i in range(n):
        elev = np.deg2rad(rng.uniform(25, 80) if i else rng.uniform(30, 78))
        az = rng.uniform(0, 2 * np.pi)
        d = np.array([np.cos(az) * np.cos(elev), np.sin(az) * np.cos(elev), np.sin(elev)], np.float32)
        p = (rng.uniform(0.6, 1.4) if i == 0 else rng.uniform(0.1, 0.7)) * _temperature(rng)
        s = rng.uniform(0.08, 0.45)
        dirs.append(d)
        power.append(p)
        size.append(s)
        cu, cv = d[0] / d[2], d[1] / d[2]
        # the lamp in the environment: a soft disc or rectangle whose radiance integrates to its power
        if rng.random() < 0.5:
            m = ((u - cu) ** 2 + (v - cv) ** 2) < s * s
        else:
            ar = rng.uniform(0.4, 2.5)
            m = (np.abs(u - cu) < s * np.sqrt(ar)) & (np.abs(v - cv) < s / np.sqrt(ar))
        area = max(float(m.sum()) * (2 * ENV_R / ENV_N) ** 2, 1e-3)
        env += (m.astype(np.float32) / area * 0.6)[..., None] * p[None, None]
    return Lights(np.array(dirs), np.array(power, np.float32), np.array(size, np.float32),
                  rng.uniform(0.08, 0.25) * _temperature(rng), env)


def _blur_env(env: np.ndarray, roughness: float) -> np.ndarray:
    """The environment prefiltered for a coat of ``roughness`` (the specular lobe as a blur)."""
    return cv2.GaussianBlur(env, (0, 0), max(0.6, roughness * ENV_N / 2.5))


def _env_lookup(env: np.ndarray, r: np.ndarray) -> np.ndarray:
    """Radiance of the (blurred) environment in reflected directions ``r`` (h, w, 3 unit vectors)."""
    rz = np.maximum(r[..., 2], 0.08)
    mx = ((r[..., 0] / rz + ENV_R) / (2 * ENV_R) * ENV_N - 0.5).astype(np.float32)
    my = ((r[..., 1] / rz + ENV_R) / (2 * ENV_R) * ENV_N - 0.5).astype(np.float32)
    return cv2.remap(env, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


# ---- one tile -------------------------------------------------------------------------------------------


@dataclass
class _Scene:
    """Per-crop constants: lights, camera, canvas scale."""

    lights: Lights
    env_spec: np.ndarray  # the environment blurred by the look's roughness
    cam_h: float  # camera height over the table, in canvas px
    nadir: np.ndarray  # the camera's nadir in canvas px (x, y)
    px_per_mm: float


def _normals(z: np.ndarray) -> np.ndarray:
    gy, gx = np.gradient(z)
    n = np.dstack([-gx, -gy, np.ones_like(z)])
    out: np.ndarray = n / np.linalg.norm(n, axis=2, keepdims=True)
    return out


def _shade_top(sc: _Scene, look: SetLook, albedo: np.ndarray, ink_a: np.ndarray, mask: np.ndarray,
               x0: float, y0: float, back: bool) -> np.ndarray:
    """Linear BGR radiance of a tile's top face (h, w, 3) whose top-left canvas pixel is (x0, y0)."""
    h, w = mask.shape
    dist = cv2.distanceTransform((mask > 0.5).astype(np.uint8), cv2.DIST_L2, 3).astype(np.float32)
    bw = max(1.0, look.bevel * w)
    t = np.minimum(dist / bw, 1.0)
    z = bw * 0.6 * (1 - (1 - t) ** 2)  # a rounded bevel
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    z += look.dome * w / 100.0 * (1 - ((xx - w / 2) / (w / 2)) ** 2 - ((yy - h / 2) / (h / 2)) ** 2)
    if look.engrave > 0 and not back:
        z -= look.engrave * w / 100.0 * cv2.GaussianBlur(ink_a, (0, 0), 0.7)
    n = _normals(cv2.GaussianBlur(z, (0, 0), 0.6))
    # view direction: towards the camera over the nadir
    px = np.dstack([xx + x0 - sc.nadir[0], yy + y0 - sc.nadir[1], np.zeros_like(xx)])
    v = -px
    v[..., 2] = sc.cam_h
    v /= np.linalg.norm(v, axis=2, keepdims=True)
    ndl = np.clip(n @ sc.lights.dirs.T, 0, None)  # (h, w, nl)
    irr = sc.lights.ambient[None, None] + np.einsum("hwl,lc->hwc", ndl, sc.lights.power)
    if not back and look.engrave > 0:  # the recess is a little darker (occlusion)
        irr *= (1 - 0.15 * min(1.0, look.engrave / 2.0) * ink_a)[..., None]
    ndv = np.clip(np.sum(n * v, axis=2), 0.05, 1.0)
    r = 2 * ndv[..., None] * n - v
    fres = look.f0 + (1 - look.f0) * (1 - ndv) ** 5
    spec = _env_lookup(sc.env_spec, r) * (fres * (1 - 0.5 * ink_a * (not back)))[..., None] * 1.2
    out: np.ndarray = albedo * irr + spec
    return out


def _tile_layer(sc: _Scene, style: str, label: str, look: SetLook, th: int, cx: float, cy: float
                ) -> tuple[np.ndarray, np.ndarray, int, int, np.ndarray]:
    """Render one tile whose footprint is centred at canvas (cx, cy), face height ``th`` px: (linear BGR
    layer, alpha, x, y of its top-left on the canvas, footprint mask in layer coordinates)."""
    st: TileStyle = load_style(style)
    tw = max(4, round(th * TILE_ASPECT))
    depth = look.depth_ratio * th
    rel = np.array([cx, cy], np.float64) - sc.nadir
    shift = rel * depth / max(sc.cam_h - depth, 1.0)  # parallax of the top face in the rectified plane
    mag = sc.cam_h / max(sc.cam_h - depth, 1.0)
    tth, ttw = max(4, round(th * mag)), max(4, round(tw * mag))
    pad = int(np.ceil(np.abs(shift).max())) + 3
    lh, lw = tth + 2 * pad, ttw + 2 * pad
    rgb = np.zeros((lh, lw, 3), np.float32)
    alpha = np.zeros((lh, lw), np.float32)
    radius = st.radius
    foot = rounded_mask(th, tw, radius)
    fx, fy = (lw - tw) / 2.0, (lh - th) / 2.0
    back = label == BACK
    body, backc = _lin(look.body), _lin(look.back)
    # the walls facing the camera: the footprint swept up to the top face, layer by layer
    steps = min(14, max(2, int(np.ceil(np.abs(shift).max())) + 1))
    wall_n = -shift / max(np.linalg.norm(shift), 1e-6)
    wall_normal = np.array([wall_n[0], wall_n[1], 0.0], np.float32)
    wall_irr = sc.lights.ambient * 0.8 + np.clip(sc.lights.dirs @ wall_normal, 0, None) @ sc.lights.power
    wall_irr = wall_irr + 0.25 * (sc.lights.dirs[:, 2:3] * sc.lights.power).sum(0)  # light bounced by the felt
    tmap = np.zeros((lh, lw), np.float32)  # per pixel: how high up the wall the camera sees (0 felt .. 1 top)
    for i in range(steps - 1):
        t = i / (steps - 1)
        mw = cv2.warpAffine(foot, _shift(fx + shift[0] * t, fy + shift[1] * t), (lw, lh),
                            flags=cv2.INTER_LINEAR)
        tmap[mw > 0.5] = t
        np.maximum(alpha, mw, out=alpha)
    layer_t = 1 - tmap if back else tmap  # a face-down tile shows its back layer on top
    wall = np.where((layer_t < look.back_share)[..., None], backc[None, None], body[None, None])
    if look.stripe is not None:
        wall[np.abs(layer_t - look.back_share) < 0.06] = _lin(look.stripe)
    rgb = wall * wall_irr[None, None] * (0.55 + 0.45 * tmap)[..., None]  # occlusion towards the felt
    # the top face, magnified, at the parallax shift
    top_mask = rounded_mask(tth, ttw, radius)
    if back:
        albedo = np.broadcast_to(backc, (tth, ttw, 3)).astype(np.float32)
        ink_a = np.zeros((tth, ttw), np.float32)
    else:
        ink_c, ink_a = _face_layers(style, label, look, tth, ttw)
        albedo = (body[None, None] * (1 - ink_a[..., None]) + _lin(ink_c) * ink_a[..., None]).astype(np.float32)
    tx, ty = (lw - ttw) / 2.0 + shift[0], (lh - tth) / 2.0 + shift[1]
    x0, y0 = int(round(cx - lw / 2.0)), int(round(cy - lh / 2.0))
    top = _shade_top(sc, look, albedo, ink_a, top_mask, x0 + tx, y0 + ty, back)
    mt = _shift(tx, ty)
    top_w = cv2.warpAffine(top, mt, (lw, lh), flags=cv2.INTER_LINEAR)
    top_a = cv2.warpAffine(top_mask, mt, (lw, lh), flags=cv2.INTER_LINEAR)
    rgb = rgb * (1 - top_a[..., None]) + top_w * top_a[..., None]
    alpha = np.maximum(alpha, top_a)
    foot_l = cv2.warpAffine(foot, _shift(fx, fy), (lw, lh), flags=cv2.INTER_LINEAR)
    return rgb, alpha, x0, y0, foot_l


def _paste(dst: np.ndarray, src: np.ndarray, a: np.ndarray, x: int, y: int) -> None:
    h, w = a.shape
    x0, y0, x1, y1 = max(0, x), max(0, y), min(dst.shape[1], x + w), min(dst.shape[0], y + h)
    if x1 <= x0 or y1 <= y0:
        return
    s, sa = src[y0 - y:y1 - y, x0 - x:x1 - x], a[y0 - y:y1 - y, x0 - x:x1 - x, None]
    dst[y0:y1, x0:x1] = dst[y0:y1, x0:x1] * (1 - sa) + s * sa


def _add_mask(dst: np.ndarray, m: np.ndarray, x: int, y: int) -> None:
    h, w = m.shape
    x0, y0, x1, y1 = max(0, x), max(0, y), min(dst.shape[1], x + w), min(dst.shape[0], y + h)
    if x1 > x0 and y1 > y0:
        dst[y0:y1, x0:x1] = np.maximum(dst[y0:y1, x0:x1], m[y0 - y:y1 - y, x0 - x:x1 - x])


# ---- the camera ------------------------------------------------------------------------------------------


def _camera(rng: np.random.Generator, lin: np.ndarray, wb: np.ndarray, white: float = 0.0) -> np.ndarray:
    """Linear radiance -> sRGB-ish uint8 through exposure, clipping, bloom, white balance and a tone curve.
    The exposure is set by the crop's brightest (a tile's top) or ``white``, a tile's top under these lamps
    where the crop holds none (the camera exposes the whole table, not one patch of felt)."""
    lum = lin.mean(axis=2)
    expo = rng.uniform(0.6, 0.95) / max(float(np.percentile(lum, 97)), white, 1e-4)
    x = lin * expo * wb[None, None]
    over = np.clip(x.max(axis=2) - 1.0, 0, None)
    if over.max() > 0:  # glare: light scattered around clipped highlights
        x = x + cv2.GaussianBlur(over, (0, 0), max(1.0, 0.04 * max(x.shape[:2])))[..., None] * rng.uniform(0.2, 0.6)
    x = np.clip(x, 0, 1)
    gamma = rng.uniform(1.9, 2.4)
    y = x ** (1 / gamma)
    s = rng.uniform(0.0, 0.25)  # a mild S-curve
    y = y + s * (y - 0.5) * (1 - np.abs(2 * y - 1))
    out: np.ndarray = np.clip(y * 255.0, 0, 255)
    return out


def _no_tile_places(rng: np.random.Generator, cx: float, cy: float, th: int, pitch: float, cw: int, ch: int
                    ) -> list[tuple[float, float]]:
    """Where the tiles of a crop that holds no whole tile lie (footprint centres), as the flat
    :func:`vision.tile_render.render_none` draws them: bare felt (its neighbours' shadows at most), a tile
    mostly outside the crop, or the gap between two tiles of a row centred."""
    kind = int(rng.integers(3))
    tw = th * TILE_ASPECT
    if kind == 0:  # bare felt: at most a tile beyond each side, casting its shadow in
        return [(cx + side * (cw / 2 + tw * rng.uniform(0.55, 0.8)), cy) for side in (-1, 1) if rng.random() < 0.4]
    if kind == 1:  # a sliver: 5-40 % of a tile inside, at one edge
        vis, edge = rng.uniform(0.05, 0.4), int(rng.integers(4))
        if edge < 2:
            return [(cw + tw * (0.5 - vis) if edge else -tw * (0.5 - vis), cy)]
        return [(cx, ch + th * (0.5 - vis) if edge == 3 else -th * (0.5 - vis))]
    return [(cx - pitch / 2, cy), (cx + pitch / 2, cy)]  # the gap between two tiles


def render_photo(style: str, label: str, *, look: SetLook, orientation: int = 0, size: int = 64, seed: int = 0,
                 tight: bool | None = None) -> np.ndarray:
    """A photo-like crop of one tile of ``style`` in ``look`` (BGR uint8, long side ``size`` px); for
    ``label`` ``none`` a crop that holds no whole tile (:func:`_no_tile_places`) under the same lamps.

    ``orientation`` k: quarter turns counter-clockwise (as :func:`vision.tile_render.render_tile`).
    ``tight``: cut as the table pipeline's tile finder cuts (the tile's box, hardly any felt); ``None``
    draws it (half the crops). The same arguments give the same crop."""
    st = load_style(style)
    if label not in (BACK, NONE) and label not in st.glyphs:
        raise ValueError(f"style {st.name!r} has no face {label!r}")
    rng = np.random.default_rng([seed, look.seed, 99])
    if tight is None:
        tight = bool(rng.random() < 0.5)
    work = 2 * size
    fill = rng.uniform(0.9, 1.0) if tight else rng.uniform(0.72, 0.88)  # of the crop's height: the tile's blob
    # where the tile lies on the table, and how high the camera hangs over its centre (in tile heights)
    cam_h_t = rng.uniform(750, 1200) / DEFAULT_GEOMETRY.tile_h
    off_t = rng.uniform(-300, 300, 2) / DEFAULT_GEOMETRY.tile_h
    shift_t = off_t * look.depth_ratio / (cam_h_t - look.depth_ratio)  # the top's parallax, in tile heights
    mag = cam_h_t / (cam_h_t - look.depth_ratio)
    th = int(work * fill / (mag + abs(shift_t[1])))  # the blob (footprint to top) fills ``fill`` of the crop
    ch = work
    blob_w = th * (TILE_ASPECT * mag + abs(shift_t[0]))
    cw = int(round(blob_w * (rng.uniform(1.0, 1.06) if tight else rng.uniform(1.1, 1.3))))
    px_per_mm = th / DEFAULT_GEOMETRY.tile_h
    cam_h, off = cam_h_t * th, off_t * th
    lights = random_lights(rng)
    env_spec = _blur_env(lights.env, look.roughness)
    cx = cw / 2.0 - shift_t[0] * th / 2 + rng.normal(0, 0.015 * cw)
    cy = ch / 2.0 - shift_t[1] * th / 2 + rng.normal(0, 0.015 * ch)
    sc = _Scene(lights, env_spec, float(cam_h), np.array([cx, cy]) - off, px_per_mm)
    # the felt, lit by the lamps with the tiles' soft shadows
    felt = _lin(TABLE_COLOURS[int(rng.integers(len(TABLE_COLOURS)))]) * rng.uniform(0.7, 1.3, 3).astype(np.float32)
    fib: np.ndarray = cv2.GaussianBlur(rng.normal(0, rng.uniform(0.03, 0.12), (ch, cw)).astype(np.float32), (0, 0),
                                       rng.uniform(0.5, 1.5))
    albedo_t = felt[None, None] * (1 + fib[..., None])
    foot = np.zeros((ch, cw), np.float32)
    tiles: list[tuple[np.ndarray, np.ndarray, int, int]] = []
    depth = look.depth_ratio * th
    gap = rng.uniform(0.0, 0.1) * th * TILE_ASPECT
    labels = [lab for lab in st.labels if lab != BACK]
    pitch = th * TILE_ASPECT + gap
    neighbours = _no_tile_places(rng, cx, cy, th, pitch, cw, ch) if label == NONE else []
    if label != NONE and rng.random() < 0.45:  # the row's neighbours at the sides
        for side in (-1, 1):
            if rng.random() < 0.7:
                neighbours.append((cx + side * pitch, cy))
    if label != NONE and rng.random() < 0.15:  # a row above or below (a pond)
        neighbours.append((cx + rng.normal(0, 0.1 * th), cy + (1 if rng.random() < 0.5 else -1) * th * 1.12))
    for nx, ny in neighbours:
        nb_lab = labels[int(rng.integers(len(labels)))] if rng.random() < 0.85 else BACK
        tiles.append(_tile_layer(sc, style, nb_lab, look, th, nx, ny)[:4])
    for nx, ny in neighbours:
        tw = max(4, round(th * TILE_ASPECT))
        _add_mask(foot, rounded_mask(th, tw, st.radius), int(round(nx - tw / 2)), int(round(ny - th / 2)))
    if label != NONE:
        layer, a, x0, y0, fl = _tile_layer(sc, style, label, look, th, cx, cy)
        tiles.append((layer, a, x0, y0))
        _add_mask(foot, fl, x0, y0)
    irr = np.broadcast_to(lights.ambient, (ch, cw, 3)).astype(np.float32).copy()
    for d, p, s in zip(lights.dirs, lights.power, lights.size):
        dx, dy = -d[0] / d[2] * depth * 0.7, -d[1] / d[2] * depth * 0.7
        sh = cv2.warpAffine(foot, _shift(dx, dy), (cw, ch))
        sh = cv2.GaussianBlur(sh, (0, 0), max(0.8, float(s) * depth * 1.5))
        irr += (d[2] * (1 - np.maximum(sh, foot)))[..., None] * p[None, None]
    img: np.ndarray = albedo_t * irr
    for t in tiles:
        _paste(img, t[0], t[1], t[2], t[3])
    if rng.random() < 0.3:  # a hand or an arm between the lamps and the table: part of the light gone
        yy, xx = np.mgrid[0:ch, 0:cw].astype(np.float32)
        hx, hy = rng.uniform(-0.3, 1.3) * cw, rng.uniform(-0.3, 1.3) * ch
        rx, ry = rng.uniform(0.3, 0.9) * cw, rng.uniform(0.3, 0.9) * ch
        dd = ((xx - hx) / rx) ** 2 + ((yy - hy) / ry) ** 2
        img *= (1 - rng.uniform(0.3, 0.7) / (1 + np.exp(np.minimum((dd - 1) * rng.uniform(2, 8), 60))))[..., None]
    # the camera: residual perspective, focus, exposure and tone, orientation, sampling, noise, JPEG
    src = np.array([[0, 0], [cw, 0], [cw, ch], [0, ch]], np.float32)
    dst = (src + rng.uniform(-0.025, 0.025, (4, 2)) * np.array([cw, ch])).astype(np.float32)
    img = cv2.warpPerspective(img, cv2.getPerspectiveTransform(src, dst), (cw, ch), borderMode=cv2.BORDER_REFLECT)
    img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 1.3) if rng.random() < 0.85 else rng.uniform(1.3, 2.4))
    if rng.random() < 0.15:
        k = int(rng.integers(3, 7))
        kern: np.ndarray = np.zeros((k, k), np.float32)
        kern[k // 2] = 1.0 / k
        kern = cv2.warpAffine(kern, cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), rng.uniform(0, 180), 1.0), (k, k))
        img = cv2.filter2D(img, -1, (kern / max(float(kern.sum()), 1e-6)).astype(np.float32))
    wb = rng.uniform(0.85, 1.15, 3).astype(np.float32)
    wb /= wb[1]
    wb = wb / np.clip(lights.power.sum(0) / lights.power.sum(0)[1], 0.7, 1.4) ** rng.uniform(0.0, 1.0)
    img = np.ascontiguousarray(np.rot90(img, orientation % 4))
    h, w = img.shape[:2]
    scale = size / max(h, w)
    img = cv2.resize(img, (max(1, round(w * scale)), max(1, round(h * scale))), interpolation=cv2.INTER_AREA)
    # a tile's top under these lamps: what sets the exposure of a crop that holds no tile
    white = float(_lin(look.body).mean() * (lights.ambient + (lights.dirs[:, 2:3] * lights.power).sum(0)).mean()
                  ) if label == NONE else 0.0
    expo_lin = img / max(float(np.percentile(img.mean(axis=2), 97)), white, 1e-4)
    iso = rng.uniform(0.0, 0.004)
    noise = rng.standard_normal(img.shape).astype(np.float32) * np.sqrt(iso * np.clip(expo_lin, 0, 2) + 1e-5)
    noise = cv2.GaussianBlur(noise, (0, 0), 0.5) * 1.6
    out = _camera(rng, np.clip(img + noise * img / np.maximum(expo_lin, 1e-4), 0, None), wb, white)
    out = out.astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(35, 96))])
    decoded = np.asarray(cv2.imdecode(buf, cv2.IMREAD_COLOR))
    return decoded


def contact_sheet(styles: list[tuple[str, SetLook]], labels: list[str], size: int = 64, seed: int = 0
                  ) -> np.ndarray:
    """Rows of the flat render (:func:`vision.tile_render.render_tile`) beside photoreal renders of the same
    faces, for ``docs/``: per style two rows, flat and photo-like."""
    from vision.tile_render import render_tile

    rows = []
    for style, look in styles:
        for photo in (False, True):
            cells = []
            for i, lab in enumerate(labels):
                crop = (render_photo(style, lab, look=look, size=size, seed=seed + i) if photo
                        else render_tile(style, lab, size=size, seed=seed + i))
                cell = np.full((size + 4, int(size * 0.95) + 4, 3), 255, np.uint8)
                h, w = crop.shape[:2]
                cell[2:2 + h, 2:2 + min(w, cell.shape[1] - 4)] = crop[:, :cell.shape[1] - 4]
                cells.append(cell)
            rows.append(np.hstack(cells))
    return np.vstack(rows)
