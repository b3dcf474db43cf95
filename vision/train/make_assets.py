"""Build the tile-face assets in ``vision/assets/tiles/`` (run once; needs fonts, the runtime does not).

Styles:

``fluffy``        the CC0 *fluffystuff* artwork (Regular), vendored from ``shared/tiles/fluffystuff``.
``fluffy_black``  the same artwork's *Black* colourway (dark faces, other glyph colours).
``classic``       drawn here: Chinese set with Noto Serif CJK numerals and 萬, ringed dots, segmented
                  bamboo, a bird 1s, a framed white dragon, flowers/seasons with numbers, a 百搭 joker.
``kai``           drawn here, *held out of training*: brush (AR PL UKai) characters, solid discs, thin
                  blue bamboo, western corner indices, a blank white dragon, a star joker.

``random_faces(seed)`` draws randomised training-only styles (fonts, colours, pips, layouts; never AR PL
UKai); ``python -m vision.train.dataset --random-styles N`` writes them into the git-ignored cache.

Each style folder holds ``style.json`` (face/back/side colours) and one RGBA ``<label>.png`` per face:
the glyph layer of the tile's top face (transparent where the face colour shows), 96x128 pixels.

    python -m vision.train.make_assets [--fluffy ../shared/tiles/fluffystuff/Export]

Fonts: ``apt-get install fonts-noto-cjk fonts-arphic-ukai`` (plus DejaVu, installed by default).
"""
from __future__ import annotations

import argparse
import json
import math
from pathlib import Path
from typing import TYPE_CHECKING

from PIL import Image, ImageDraw, ImageFont

if TYPE_CHECKING:
    import numpy as np

ASSETS = Path(__file__).resolve().parents[1] / "assets" / "tiles"
W, H = 96, 128  # asset size (portrait 3:4)
S = 4  # supersampling factor for drawing
CW, CH = W * S, H * S

NOTO_SERIF = "/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc"
UKAI = "/usr/share/fonts/truetype/arphic/ukai.ttc"
DEJAVU_BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
DEJAVU_SERIF = "/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf"

FLUFFY_NAMES = {
    **{f"{n}m": f"Man{n}" for n in range(1, 10)},
    **{f"{n}p": f"Pin{n}" for n in range(1, 10)},
    **{f"{n}s": f"Sou{n}" for n in range(1, 10)},
    "0m": "Man5-Dora", "0p": "Pin5-Dora", "0s": "Sou5-Dora",
    "1z": "Ton", "2z": "Nan", "3z": "Shaa", "4z": "Pei", "5z": "Haku", "6z": "Hatsu", "7z": "Chun",
}
CJK_NUM = "一二三四五六七八九"
WINDS = "東南西北"
FLOWER_NAMES = "梅蘭菊竹"
SEASON_NAMES = "春夏秋冬"

Color = tuple[int, int, int]


def _canvas() -> tuple[Image.Image, ImageDraw.ImageDraw]:
    im = Image.new("RGBA", (CW, CH), (0, 0, 0, 0))
    return im, ImageDraw.Draw(im)


def _finish(im: Image.Image) -> Image.Image:
    return im.convert("RGBa").resize((W, H), Image.Resampling.LANCZOS).convert("RGBA")


def _text(d: ImageDraw.ImageDraw, xy: tuple[float, float], txt: str, font: str, size: float, fill: Color,
          index: int = 0, stroke: int = 0) -> None:
    """Draw ``txt`` centred on ``xy`` (fractions of the canvas)."""
    f = ImageFont.truetype(font, int(size * CH), index=index)
    d.text((xy[0] * CW, xy[1] * CH), txt, font=f, fill=fill + (255,), anchor="mm", stroke_width=stroke,
           stroke_fill=fill + (255,))


# ---- dots ------------------------------------------------------------------------------------------------

PIN_LAYOUT: dict[int, list[tuple[float, float]]] = {
    1: [(0.5, 0.5)],
    2: [(0.5, 0.3), (0.5, 0.7)],
    3: [(0.28, 0.24), (0.5, 0.5), (0.72, 0.76)],
    4: [(0.3, 0.3), (0.7, 0.3), (0.3, 0.7), (0.7, 0.7)],
    5: [(0.28, 0.25), (0.72, 0.25), (0.5, 0.5), (0.28, 0.75), (0.72, 0.75)],
    6: [(0.3, 0.2), (0.7, 0.2), (0.3, 0.55), (0.7, 0.55), (0.3, 0.82), (0.7, 0.82)],
    7: [(0.25, 0.15), (0.5, 0.26), (0.75, 0.37), (0.3, 0.6), (0.7, 0.6), (0.3, 0.84), (0.7, 0.84)],
    8: [(0.3, y) for y in (0.16, 0.39, 0.61, 0.84)] + [(0.7, y) for y in (0.16, 0.39, 0.61, 0.84)],
    9: [(x, y) for y in (0.2, 0.5, 0.8) for x in (0.24, 0.5, 0.76)],
}
PIN_R = {1: 0.3, 2: 0.17, 3: 0.14, 4: 0.15, 5: 0.13, 6: 0.12, 7: 0.105, 8: 0.1, 9: 0.105}


def _pins(n: int, colors: list[Color], ringed: bool, margin: float = 0.1) -> Image.Image:
    im, d = _canvas()
    r = PIN_R[n] * CW * (1 - margin)
    for i, (x, y) in enumerate(PIN_LAYOUT[n]):
        cx = (margin + x * (1 - 2 * margin)) * CW
        cy = (margin * 0.75 + y * (1 - 1.5 * margin)) * CH
        c = colors[i % len(colors)]
        if ringed:  # concentric rings with a flower centre (the classic Chinese dot)
            d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=c + (255,), width=max(2, int(r * 0.16)))
            r2 = r * 0.62
            d.ellipse((cx - r2, cy - r2, cx + r2, cy + r2), fill=c + (255,))
            r3 = r * 0.28
            d.ellipse((cx - r3, cy - r3, cx + r3, cy + r3), fill=(255, 255, 255, 0))
            for k in range(8):
                a = k * math.pi / 4
                px, py = cx + math.cos(a) * r * 0.8, cy + math.sin(a) * r * 0.8
                d.ellipse((px - r * 0.07, py - r * 0.07, px + r * 0.07, py + r * 0.07), fill=c + (255,))
        else:  # solid disc with a white ring
            d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=c + (255,))
            r2 = r * 0.55
            d.ellipse((cx - r2, cy - r2, cx + r2, cy + r2), outline=(255, 255, 255, 255), width=max(2, int(r * 0.1)))
    return im


# ---- bamboo ----------------------------------------------------------------------------------------------

SOU_LAYOUT: dict[int, list[tuple[float, float]]] = {
    2: [(0.5, 0.27), (0.5, 0.73)],
    3: [(0.5, 0.27), (0.3, 0.73), (0.7, 0.73)],
    4: [(0.3, 0.27), (0.7, 0.27), (0.3, 0.73), (0.7, 0.73)],
    5: [(0.25, 0.27), (0.75, 0.27), (0.5, 0.5), (0.25, 0.73), (0.75, 0.73)],
    6: [(x, y) for y in (0.27, 0.73) for x in (0.22, 0.5, 0.78)],
    7: [(0.5, 0.17)] + [(x, y) for y in (0.5, 0.83) for x in (0.22, 0.5, 0.78)],
    8: [(x, y) for y in (0.27, 0.73) for x in (0.16, 0.39, 0.61, 0.84)],
    9: [(x, y) for y in (0.17, 0.5, 0.83) for x in (0.22, 0.5, 0.78)],
}


def _stick(d: ImageDraw.ImageDraw, cx: float, cy: float, h: float, w: float, c: Color, segmented: bool) -> None:
    if segmented:
        d.rounded_rectangle((cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2), radius=w / 2, fill=c + (255,))
        for t in (-0.5, 0.0, 0.5):
            y = cy + t * h * 0.8
            d.rectangle((cx - w * 0.75, y - w * 0.12, cx + w * 0.75, y + w * 0.12), fill=c + (255,))
            d.line((cx - w * 0.3, y - w * 0.45, cx + w * 0.3, y - w * 0.45), fill=(255, 255, 255, 0), width=2)
    else:
        d.line((cx, cy - h / 2, cx, cy + h / 2), fill=c + (255,), width=max(3, int(w * 0.45)))
        for t in (-0.5, -0.17, 0.17, 0.5):
            y = cy + t * h * 0.9
            d.ellipse((cx - w * 0.4, y - w * 0.2, cx + w * 0.4, y + w * 0.2), fill=c + (255,))


def _sous(n: int, main: Color, accent: Color, segmented: bool, margin: float = 0.1) -> Image.Image:
    im, d = _canvas()
    pts = SOU_LAYOUT[n]
    rows = len({y for _, y in pts})
    h = (0.36 if rows == 2 else 0.25) * CH * (1 - margin)
    w = 0.11 * CW if n < 8 else 0.09 * CW
    for i, (x, y) in enumerate(pts):
        cx = (margin + x * (1 - 2 * margin)) * CW
        cy = (margin * 0.75 + y * (1 - 1.5 * margin)) * CH
        red = (n in (5, 9) and i == len(pts) // 2) or (n == 7 and i == 0)
        _stick(d, cx, cy, h, w, accent if red else main, segmented)
    return im


def _bird(main: Color, accent: Color) -> Image.Image:
    im, d = _canvas()
    cx, cy = CW * 0.5, CH * 0.52
    for k in range(7):  # fan tail
        a = math.radians(200 + k * 20)
        d.line((cx, cy, cx + math.cos(a) * CW * 0.38, cy + math.sin(a) * CH * 0.3), fill=main + (255,), width=S * 3)
        d.ellipse((cx + math.cos(a) * CW * 0.38 - 10, cy + math.sin(a) * CH * 0.3 - 10,
                   cx + math.cos(a) * CW * 0.38 + 10, cy + math.sin(a) * CH * 0.3 + 10), fill=accent + (255,))
    d.ellipse((cx - CW * 0.2, cy - CH * 0.05, cx + CW * 0.2, cy + CH * 0.22), fill=main + (255,))
    d.ellipse((cx + CW * 0.08, cy - CH * 0.16, cx + CW * 0.3, cy + CH * 0.0), fill=accent + (255,))
    d.polygon([(cx + CW * 0.29, cy - CH * 0.1), (cx + CW * 0.42, cy - CH * 0.06), (cx + CW * 0.29, cy - CH * 0.03)],
              fill=(200, 150, 0, 255))
    d.line((cx - CW * 0.05, cy + CH * 0.22, cx - CW * 0.1, cy + CH * 0.36), fill=accent + (255,), width=S * 3)
    d.line((cx + CW * 0.05, cy + CH * 0.22, cx + CW * 0.1, cy + CH * 0.36), fill=accent + (255,), width=S * 3)
    return im


def _big_stalk(main: Color, accent: Color) -> Image.Image:
    im, d = _canvas()
    cx = CW * 0.5
    d.line((cx, CH * 0.1, cx, CH * 0.9), fill=main + (255,), width=S * 7)
    for y in (0.3, 0.5, 0.7):
        d.ellipse((cx - S * 9, CH * y - S * 4, cx + S * 9, CH * y + S * 4), fill=main + (255,))
    for sgn, y in ((-1, 0.28), (1, 0.45), (-1, 0.62)):
        d.polygon([(cx, CH * y), (cx + sgn * CW * 0.34, CH * (y - 0.08)), (cx + sgn * CW * 0.3, CH * (y + 0.0))],
                  fill=accent + (255,))
    return im


# ---- flowers, seasons, joker -----------------------------------------------------------------------------


def _flower_drawing(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, petals: int, c: Color,
                    centre: Color) -> None:
    for k in range(petals):
        a = 2 * math.pi * k / petals
        px, py = cx + math.cos(a) * r * 0.6, cy + math.sin(a) * r * 0.6
        d.ellipse((px - r * 0.42, py - r * 0.42, px + r * 0.42, py + r * 0.42), fill=c + (255,))
    d.ellipse((cx - r * 0.3, cy - r * 0.3, cx + r * 0.3, cy + r * 0.3), fill=centre + (255,))


def _sun_drawing(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, c: Color, rays: int) -> None:
    for k in range(rays):
        a = 2 * math.pi * k / rays
        d.line((cx, cy, cx + math.cos(a) * r, cy + math.sin(a) * r), fill=c + (255,), width=S * 2)
    d.ellipse((cx - r * 0.5, cy - r * 0.5, cx + r * 0.5, cy + r * 0.5), fill=c + (255,))


# ---- styles ----------------------------------------------------------------------------------------------


def classic_faces() -> dict[str, Image.Image]:
    """The procedural Chinese set (trained)."""
    ink, red, green, blue = (25, 40, 110), (200, 25, 25), (0, 120, 60), (20, 70, 170)
    faces: dict[str, Image.Image] = {}
    for n in range(1, 10):
        im, d = _canvas()
        _text(d, (0.5, 0.3), CJK_NUM[n - 1], NOTO_SERIF, 0.36, ink)
        _text(d, (0.5, 0.7), "萬", NOTO_SERIF, 0.4, red)
        faces[f"{n}m"] = im
    im, d = _canvas()
    _text(d, (0.5, 0.3), "五", NOTO_SERIF, 0.36, red)
    _text(d, (0.5, 0.7), "萬", NOTO_SERIF, 0.4, red)
    faces["0m"] = im
    for n in range(1, 10):
        faces[f"{n}p"] = _pins(n, [blue, green, red] if n != 1 else [green], ringed=True)
    faces["0p"] = _pins(5, [red], ringed=True)
    faces["1s"] = _bird(green, red)
    for n in range(2, 10):
        faces[f"{n}s"] = _sous(n, green, red, segmented=True)
    faces["0s"] = _sous(5, red, red, segmented=True)
    for i, ch in enumerate(WINDS):
        im, d = _canvas()
        _text(d, (0.5, 0.5), ch, NOTO_SERIF, 0.55, ink)
        faces[f"{i + 1}z"] = im
    im, d = _canvas()  # framed white dragon
    d.rectangle((CW * 0.14, CH * 0.12, CW * 0.86, CH * 0.88), outline=blue + (255,), width=S * 5)
    d.rectangle((CW * 0.24, CH * 0.2, CW * 0.76, CH * 0.8), outline=blue + (255,), width=S * 2)
    faces["5z"] = im
    for lab, ch, c in (("6z", "發", green), ("7z", "中", red)):
        im, d = _canvas()
        _text(d, (0.5, 0.5), ch, NOTO_SERIF, 0.58, c)
        faces[lab] = im
    for i in range(4):
        im, d = _canvas()
        _flower_drawing(d, CW * 0.5, CH * 0.33, CW * 0.26, 5 + i, [(220, 60, 120), (150, 60, 200), (230, 160, 0),
                                                                  green][i], (240, 200, 0))
        _text(d, (0.5, 0.75), FLOWER_NAMES[i], NOTO_SERIF, 0.3, green)
        _text(d, (0.16, 0.1), str(i + 1), DEJAVU_BOLD, 0.14, red)
        faces[f"{i + 1}f"] = im
        im, d = _canvas()
        _sun_drawing(d, CW * 0.5, CH * 0.3, CW * 0.28, (230, 120, 0), 6 + 2 * i)
        _text(d, (0.5, 0.73), SEASON_NAMES[i], NOTO_SERIF, 0.32, blue)
        _text(d, (0.16, 0.1), str(i + 1), DEJAVU_BOLD, 0.14, blue)
        faces[f"{i + 5}f"] = im
    im, d = _canvas()
    _text(d, (0.5, 0.3), "百", NOTO_SERIF, 0.34, red)
    _text(d, (0.5, 0.7), "搭", NOTO_SERIF, 0.34, (200, 140, 0))
    faces["j"] = im
    return {k: _finish(v) for k, v in faces.items()}


def kai_faces() -> dict[str, Image.Image]:
    """The procedural brush-script set with western indices (held out of training)."""
    ink, red, teal, orange, navy = (10, 10, 10), (150, 0, 40), (0, 110, 130), (225, 95, 0), (30, 50, 150)
    faces: dict[str, Image.Image] = {}

    def index(d: ImageDraw.ImageDraw, txt: str, c: Color) -> None:
        _text(d, (0.15, 0.1), txt, DEJAVU_SERIF, 0.13, c)

    for n in range(1, 10):
        im, d = _canvas()
        _text(d, (0.55, 0.32), CJK_NUM[n - 1], UKAI, 0.4, ink)
        _text(d, (0.52, 0.72), "萬", UKAI, 0.42, red)
        index(d, str(n), red)
        faces[f"{n}m"] = im
    im, d = _canvas()
    _text(d, (0.55, 0.32), "五", UKAI, 0.4, orange)
    _text(d, (0.52, 0.72), "萬", UKAI, 0.42, orange)
    index(d, "5", orange)
    faces["0m"] = im
    for n in range(1, 10):
        im = _pins(n, [teal, orange] if n > 1 else [orange], ringed=False, margin=0.16)
        index(ImageDraw.Draw(im), str(n), navy)
        faces[f"{n}p"] = im
    im = _pins(5, [red], ringed=False, margin=0.16)
    index(ImageDraw.Draw(im), "5", red)
    faces["0p"] = im
    faces["1s"] = _big_stalk(navy, teal)
    index(ImageDraw.Draw(faces["1s"]), "1", navy)
    for n in range(2, 10):
        im = _sous(n, navy, orange, segmented=False, margin=0.16)
        index(ImageDraw.Draw(im), str(n), navy)
        faces[f"{n}s"] = im
    im = _sous(5, red, red, segmented=False, margin=0.16)
    index(ImageDraw.Draw(im), "5", red)
    faces["0s"] = im
    for i, (ch, letter) in enumerate(zip(WINDS, "ESWN")):
        im, d = _canvas()
        _text(d, (0.52, 0.55), ch, UKAI, 0.6, navy)
        index(d, letter, red)
        faces[f"{i + 1}z"] = im
    faces["5z"] = _canvas()[0]  # blank white dragon
    for lab, ch, c in (("6z", "發", (0, 130, 40)), ("7z", "中", red)):
        im, d = _canvas()
        _text(d, (0.5, 0.52), ch, UKAI, 0.66, c)
        faces[lab] = im
    for i in range(4):
        im, d = _canvas()
        _flower_drawing(d, CW * 0.5, CH * 0.6, CW * 0.32, 4 + 2 * i, [(200, 40, 60), (120, 40, 160), (240, 180, 0),
                                                                      (0, 140, 80)][i], navy)
        _text(d, (0.5, 0.2), FLOWER_NAMES[i], UKAI, 0.2, navy)
        index(d, str(i + 1), red)
        faces[f"{i + 1}f"] = im
        im, d = _canvas()
        _text(d, (0.5, 0.6), SEASON_NAMES[i], UKAI, 0.42, teal)
        _text(d, (0.5, 0.22), "SPRING SUMMER AUTUMN WINTER".split()[i], DEJAVU_SERIF, 0.07, orange)
        index(d, str(i + 1), teal)
        faces[f"{i + 5}f"] = im
    im, d = _canvas()
    star = [(CW * 0.5 + math.cos(math.radians(-90 + 36 * k)) * CW * (0.36 if k % 2 == 0 else 0.15),
             CH * 0.45 + math.sin(math.radians(-90 + 36 * k)) * CW * (0.36 if k % 2 == 0 else 0.15)) for k in range(10)]
    d.polygon(star, fill=orange + (255,))
    _text(d, (0.5, 0.85), "JOKER", DEJAVU_SERIF, 0.1, red)
    faces["j"] = im
    return {k: _finish(v) for k, v in faces.items()}


# ---- randomised styles (training cache only) -----------------------------------------------------------

#: CJK fonts a random style may draw its characters with: never AR PL UKai (the held-out ``kai`` style's).
RANDOM_CJK_FONTS = [(f"/usr/share/fonts/opentype/noto/Noto{fam}CJK-{w}.ttc", idx)
                    for fam in ("Serif", "Sans") for w in ("Regular", "Bold") for idx in range(5)]
RANDOM_CJK_FONTS.append(("/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc", 0))
RANDOM_LATIN_FONTS = ["/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
                      "/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf",
                      "/usr/share/fonts/truetype/liberation/LiberationSerif-Bold.ttf",
                      "/usr/share/fonts/truetype/dejavu/DejaVuSansCondensed-Bold.ttf"]
SEASON_WORDS = ("SPRING", "SUMMER", "AUTUMN", "WINTER")


def _rand_colour(rng: np.random.Generator, dark: bool = False) -> Color:
    import colorsys

    h, s, v = rng.random(), rng.uniform(0.5, 1.0), rng.uniform(0.25, 0.55) if dark else rng.uniform(0.45, 0.9)
    r, g, b = (int(c * 255) for c in colorsys.hsv_to_rgb(h, s, v))
    return r, g, b


def _warp_glyphs(im: Image.Image, rng: np.random.Generator) -> Image.Image:
    """A random shear / stretch / thickness change of a glyph layer (other fonts' proportions)."""
    from PIL import ImageFilter

    sx, sh = rng.uniform(0.85, 1.12), rng.uniform(-0.12, 0.12)
    sy = rng.uniform(0.9, 1.08)
    a, b = 1 / sx, -sh / sx
    c = CW / 2 - a * CW / 2 - b * CH / 2
    im = im.transform(im.size, Image.Transform.AFFINE, (a, b, c, 0, 1 / sy, CH / 2 - CH / (2 * sy)),
                      Image.Resampling.BICUBIC)
    t = int(rng.integers(-1, 3))  # thinner, same, bolder strokes
    if t:
        alpha = im.getchannel("A")
        alpha = alpha.filter(ImageFilter.MaxFilter(4 * t + 1) if t > 0 else ImageFilter.MinFilter(3))
        im.putalpha(alpha)
    return im


def random_faces(seed: int, rich: bool = False) -> tuple[dict[str, Image.Image], dict[str, object]]:
    """A randomised procedural tile set for training: fonts, ink colours, pip drawings, layouts, corner
    indices, white dragon and joker variants drawn at random (never the held-out ``kai`` font).

    ``rich`` (the photoreal sets, :mod:`vision.train.photoreal`) draws what real sets vary in and the plain
    random styles do not, from a second random stream (so ``rich=False`` gives exactly the styles the
    shipped model was trained on): ink palettes of real sets (blue / black / red-and-green), more dot
    designs, several 1-bamboo birds, flowers and seasons drawn many ways, and corner indices (a numeral,
    E S W N on the winds, numbers on the flowers) in either top corner, in most sets."""
    import numpy as np

    from vision.tile_render import random_back_colour

    rng = np.random.default_rng(seed)
    rng2 = np.random.default_rng([seed, 17])
    font, idx = RANDOM_CJK_FONTS[rng.integers(len(RANDOM_CJK_FONTS))]
    font2, idx2 = RANDOM_CJK_FONTS[rng.integers(len(RANDOM_CJK_FONTS))]
    latin = RANDOM_LATIN_FONTS[rng.integers(len(RANDOM_LATIN_FONTS))]
    ink, red, c1, c2, c3 = (_rand_colour(rng, True), _rand_colour(rng), _rand_colour(rng), _rand_colour(rng),
                            _rand_colour(rng, True))
    if rng.random() < 0.6:
        red = (int(rng.uniform(150, 230)), int(rng.uniform(0, 60)), int(rng.uniform(0, 60)))
    indices = rng.random() < 0.5
    corner = (rng.uniform(0.12, 0.2), rng.uniform(0.08, 0.13))
    if rich:  # real sets' inks; corner indices are drawn at the end (_rich_faces)
        ink, red, c1, c2, c3 = _ink_palette(rng2)
        indices = False
    warp = rng.random() < 0.7
    margin = rng.uniform(0.06, 0.18)
    stroke = int(rng.integers(0, 2)) * S
    faces: dict[str, Image.Image] = {}

    def index(im: Image.Image, txt: str, c: Color) -> Image.Image:
        if indices:
            _text(ImageDraw.Draw(im), corner, txt, latin, rng.uniform(0.1, 0.15), c)
        return im

    def chars(top: str, bottom: str | None, ct: Color, cb: Color, size: float) -> Image.Image:
        im, d = _canvas()
        if bottom is None:
            _text(d, (0.5 + rng.normal(0, 0.02), 0.5 + rng.normal(0, 0.02)), top, font, size, ct, idx, stroke)
        else:
            _text(d, (0.5 + rng.normal(0, 0.02), 0.3 + rng.normal(0, 0.02)), top, font, size * 0.68, ct, idx, stroke)
            _text(d, (0.5 + rng.normal(0, 0.02), 0.71 + rng.normal(0, 0.02)), bottom, font2, size * 0.72, cb, idx2,
                  stroke)
        return _warp_glyphs(im, rng) if warp else im

    size = rng.uniform(0.5, 0.62)
    for n in range(1, 10):
        faces[f"{n}m"] = index(chars(CJK_NUM[n - 1], "萬", ink, red, size), str(n), red)
    faces["0m"] = index(chars("五", "萬", red, red, size), "5", red)
    ringed = rng.random() < 0.5
    pin_cols = [c1, c2, c3][: int(rng.integers(1, 4))]
    for n in range(1, 10):
        faces[f"{n}p"] = index(_pins(n, pin_cols if n > 1 else [red], ringed=ringed, margin=margin), str(n), c3)
    faces["0p"] = index(_pins(5, [red], ringed=ringed, margin=margin), "5", red)
    seg = rng.random() < 0.5
    faces["1s"] = index(_bird(c1, red) if rng.random() < 0.6 else chars("幺", None, c1, c1, 0.55), "1", c1)
    for n in range(2, 10):
        faces[f"{n}s"] = index(_sous(n, c1, red, segmented=seg, margin=margin), str(n), c1)
    faces["0s"] = index(_sous(5, red, red, segmented=seg, margin=margin), "5", red)
    wind_c = ink if rng.random() < 0.6 else c3
    for i, (ch, letter) in enumerate(zip(WINDS, "ESWN")):
        faces[f"{i + 1}z"] = index(chars(ch, None, wind_c, wind_c, rng.uniform(0.5, 0.66)), letter, red)
    im, d = _canvas()
    kind = rng.integers(3)
    if kind == 1:  # framed
        fc = _rand_colour(rng)
        d.rectangle((CW * 0.14, CH * 0.12, CW * 0.86, CH * 0.88), outline=fc + (255,), width=S * int(rng.integers(2, 7)))
    elif kind == 2:  # corner brackets
        fc = _rand_colour(rng)
        for x0, x1 in ((0.14, 0.3), (0.86, 0.7)):
            for y0, y1 in ((0.12, 0.26), (0.88, 0.74)):
                d.line((CW * x0, CH * y0, CW * x1, CH * y0), fill=fc + (255,), width=S * 3)
                d.line((CW * x0, CH * y0, CW * x0, CH * y1), fill=fc + (255,), width=S * 3)
    faces["5z"] = im
    faces["6z"] = chars("發", None, (0, int(rng.uniform(90, 150)), int(rng.uniform(20, 80))), ink, rng.uniform(0.55, 0.68))
    faces["7z"] = chars("中", None, red, red, rng.uniform(0.55, 0.68))
    for i in range(4):
        im, d = _canvas()
        fy = rng.uniform(0.3, 0.62)
        _flower_drawing(d, CW * 0.5, CH * fy, CW * rng.uniform(0.2, 0.3), int(rng.integers(4, 9)), _rand_colour(rng),
                        _rand_colour(rng))
        _text(d, (0.5, 0.8 if fy < 0.45 else 0.2), FLOWER_NAMES[i], font, 0.26, c1, idx)
        faces[f"{i + 1}f"] = index(im, str(i + 1), red)
        im, d = _canvas()
        if rng.random() < 0.5:
            _sun_drawing(d, CW * 0.5, CH * 0.3, CW * 0.25, _rand_colour(rng), int(rng.integers(5, 12)))
            _text(d, (0.5, 0.74), SEASON_NAMES[i], font, 0.32, c3, idx)
        else:
            _text(d, (0.5, 0.55), SEASON_NAMES[i], font, 0.42, c3, idx)
            if rng.random() < 0.5:
                _text(d, (0.5, 0.86), SEASON_WORDS[i], latin, 0.07, red)
        faces[f"{i + 5}f"] = index(im, str(i + 1), c3)
    jk = rng.integers(3)
    faces["j"] = (chars("百", "搭", red, c1, size) if jk == 0 else chars("財", "神", red, red, size) if jk == 1
                  else chars("J", None, red, red, 0.5))
    if rich:
        _rich_faces(faces, rng2, (ink, red, c1, c2, c3), font, idx, latin, margin)
    faces = {k: _finish(v) for k, v in faces.items()}
    face = [int(v) for v in rng.uniform([215, 210, 190], [255, 252, 245])]
    back = list(random_back_colour(rng))[::-1]  # style.json holds RGB
    meta: dict[str, object] = {"face": face, "back": back, "side": back if rng.random() < 0.5 else face,
            "radius": float(rng.uniform(0.05, 0.14)), "source": f"randomised procedural style, seed {seed}"}
    return faces, meta


# ---- rich random styles (photoreal training sets) ---------------------------------------------------

#: Ink palettes of real sets: (characters, red, pips 1, pips 2, pips 3), RGB.
INK_PALETTES: tuple[tuple[Color, Color, Color, Color, Color], ...] = (
    ((15, 15, 15), (200, 20, 30), (0, 120, 60), (20, 60, 170), (15, 15, 15)),     # black, red, green, blue
    ((20, 35, 120), (190, 20, 40), (0, 110, 70), (20, 35, 120), (190, 20, 40)),   # blue-black characters
    ((10, 10, 10), (210, 30, 30), (0, 140, 60), (0, 140, 60), (210, 30, 30)),     # red and green only
    ((25, 60, 160), (25, 60, 160), (25, 60, 160), (25, 60, 160), (200, 30, 40)),  # a blue set
    ((30, 30, 30), (170, 10, 20), (10, 90, 50), (30, 30, 30), (170, 10, 20)),     # dark inks
    ((0, 70, 40), (200, 40, 20), (0, 110, 50), (30, 80, 160), (0, 70, 40)),       # green characters
)


def _ink_palette(rng: np.random.Generator) -> tuple[Color, Color, Color, Color, Color]:
    """A real set's inks, each jittered a little."""
    pal = INK_PALETTES[int(rng.integers(len(INK_PALETTES)))]

    def jitter(col: Color) -> Color:
        r, g, b = (int(min(255, max(0, c + rng.normal(0, 12)))) for c in col)
        return r, g, b

    ink, red, c1, c2, c3 = (jitter(col) for col in pal)
    return ink, red, c1, c2, c3


def _pins_rich(n: int, colors: list[Color], design: int, margin: float) -> Image.Image:
    """Dot faces in other designs than :func:`_pins`: 0 a coin (disc, square hole), 1 a double ring,
    2 a disc in a ring of beads, 3 a disc with a cross, 4 a plain disc with a pale centre."""
    im, d = _canvas()
    r = PIN_R[n] * CW * (1 - margin)
    for i, (x, y) in enumerate(PIN_LAYOUT[n]):
        cx = (margin + x * (1 - 2 * margin)) * CW
        cy = (margin * 0.75 + y * (1 - 1.5 * margin)) * CH
        c = colors[i % len(colors)] + (255,)
        clear = (255, 255, 255, 0)
        if design == 0:
            d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=c)
            q = r * 0.28
            d.rectangle((cx - q, cy - q, cx + q, cy + q), fill=clear)
        elif design == 1:
            w = max(2, int(r * 0.18))
            d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=c, width=w)
            r2 = r * 0.6
            d.ellipse((cx - r2, cy - r2, cx + r2, cy + r2), outline=c, width=w)
            r3 = r * 0.2
            d.ellipse((cx - r3, cy - r3, cx + r3, cy + r3), fill=c)
        elif design == 2:
            r2 = r * 0.55
            d.ellipse((cx - r2, cy - r2, cx + r2, cy + r2), fill=c)
            for k in range(10):
                a = k * math.pi / 5
                px, py = cx + math.cos(a) * r * 0.85, cy + math.sin(a) * r * 0.85
                d.ellipse((px - r * 0.12, py - r * 0.12, px + r * 0.12, py + r * 0.12), fill=c)
        elif design == 3:
            d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=c)
            w = max(2, int(r * 0.14))
            d.line((cx - r * 0.6, cy, cx + r * 0.6, cy), fill=clear, width=w)
            d.line((cx, cy - r * 0.6, cx, cy + r * 0.6), fill=clear, width=w)
        else:
            d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=c)
            r2 = r * 0.35
            d.ellipse((cx - r2, cy - r2, cx + r2, cy + r2), fill=(250, 240, 200, 255))
    return im


def _sparrow(main: Color, accent: Color, rng: np.random.Generator) -> Image.Image:
    """Another 1-bamboo bird: a small bird on a bamboo branch, facing left or right."""
    im, d = _canvas()
    flip = rng.random() < 0.5
    cx, cy = CW * rng.uniform(0.45, 0.55), CH * rng.uniform(0.42, 0.55)
    d.line((CW * 0.15, CH * 0.8, CW * 0.85, CH * 0.62), fill=(0, 120, 50, 255), width=S * 4)  # branch
    for t in (0.3, 0.7):
        x, y = CW * (0.15 + 0.7 * t), CH * (0.8 - 0.18 * t)
        d.polygon([(x, y), (x + CW * 0.12, y - CH * 0.12), (x + CW * 0.04, y - CH * 0.02)], fill=(0, 140, 60, 255))
    d.ellipse((cx - CW * 0.22, cy - CH * 0.1, cx + CW * 0.16, cy + CH * 0.12), fill=main + (255,))  # body
    d.polygon([(cx - CW * 0.05, cy - CH * 0.02), (cx + CW * 0.12, cy + CH * 0.02), (cx - CW * 0.12, cy + CH * 0.1)],
              fill=accent + (255,))  # wing
    d.polygon([(cx - CW * 0.2, cy), (cx - CW * 0.42, cy - CH * 0.12), (cx - CW * 0.38, cy + CH * 0.04)],
              fill=main + (255,))  # tail
    d.ellipse((cx + CW * 0.06, cy - CH * 0.2, cx + CW * 0.26, cy - CH * 0.04), fill=main + (255,))  # head
    d.ellipse((cx + CW * 0.16, cy - CH * 0.15, cx + CW * 0.2, cy - CH * 0.12), fill=(255, 255, 255, 255))
    d.polygon([(cx + CW * 0.25, cy - CH * 0.13), (cx + CW * 0.36, cy - CH * 0.1), (cx + CW * 0.25, cy - CH * 0.08)],
              fill=(220, 150, 0, 255))
    return im.transpose(Image.Transpose.FLIP_LEFT_RIGHT) if flip else im


def _flower_rich(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, petals: int, c: Color, centre: Color,
                 kind: int, leaf: Color) -> None:
    """A flower in one of several drawings: 0 round petals, 1 pointed petals, 2 a spray of small blossoms on
    a stem with leaves, 3 an orchid-like pair of long leaves and a blossom."""
    if kind in (2, 3):
        d.line((cx, cy + r * 1.2, cx, cy - r * 0.2), fill=leaf + (255,), width=S * 2)
        d.polygon([(cx, cy + r), (cx - r * 1.1, cy + r * 0.2), (cx - r * 0.2, cy + r * 0.7)], fill=leaf + (255,))
        d.polygon([(cx, cy + r * 0.8), (cx + r * 1.1, cy + r * 0.1), (cx + r * 0.2, cy + r * 0.6)], fill=leaf + (255,))
    if kind == 2:
        for dx, dy in ((-0.5, -0.3), (0.5, -0.5), (0.0, -0.9), (-0.2, 0.2)):
            _flower_drawing(d, cx + dx * r, cy + dy * r, r * 0.45, petals, c, centre)
        return
    if kind == 3:
        cy -= r * 0.5
        r *= 0.7
    for k in range(petals):
        a = 2 * math.pi * k / petals
        if kind == 1:
            tip = (cx + math.cos(a) * r, cy + math.sin(a) * r)
            s1 = (cx + math.cos(a + 0.35) * r * 0.4, cy + math.sin(a + 0.35) * r * 0.4)
            s2 = (cx + math.cos(a - 0.35) * r * 0.4, cy + math.sin(a - 0.35) * r * 0.4)
            d.polygon([(cx, cy), s1, tip, s2], fill=c + (255,))
        else:
            px, py = cx + math.cos(a) * r * 0.6, cy + math.sin(a) * r * 0.6
            d.ellipse((px - r * 0.42, py - r * 0.42, px + r * 0.42, py + r * 0.42), fill=c + (255,))
    d.ellipse((cx - r * 0.25, cy - r * 0.25, cx + r * 0.25, cy + r * 0.25), fill=centre + (255,))


def _season_rich(d: ImageDraw.ImageDraw, i: int, kind: int, c: Color, accent: Color, rng: np.random.Generator
                 ) -> None:
    """A season's picture: 0 a sun, 1 a tree, 2 a mountain with a moon, 3 a fan."""
    cx, cy, r = CW * 0.5, CH * rng.uniform(0.3, 0.45), CW * rng.uniform(0.22, 0.3)
    if kind == 0:
        _sun_drawing(d, cx, cy, r, accent, 6 + 2 * i)
    elif kind == 1:
        d.rectangle((cx - r * 0.1, cy, cx + r * 0.1, cy + r * 1.2), fill=(120, 70, 20, 255))
        for k in range(3 + i):
            a = math.pi * (0.1 + 0.8 * k / (2 + i))
            px, py = cx - math.cos(a) * r * 0.7, cy - math.sin(a) * r * 0.5
            d.ellipse((px - r * 0.35, py - r * 0.3, px + r * 0.35, py + r * 0.3), fill=c + (255,))
    elif kind == 2:
        d.polygon([(cx - r * 1.2, cy + r), (cx - r * 0.2, cy - r * 0.4), (cx + r * 0.4, cy + r * 0.3),
                   (cx + r * 0.8, cy - r * 0.1), (cx + r * 1.3, cy + r)], fill=c + (255,))
        m = r * (0.2 + 0.05 * i)
        d.ellipse((cx + r * 0.4 - m, cy - r * 0.9 - m, cx + r * 0.4 + m, cy - r * 0.9 + m), fill=accent + (255,))
    else:
        for k in range(5 + i):
            a = math.pi * (1.1 + 0.8 * k / (4 + i))
            d.line((cx, cy + r * 0.6, cx + math.cos(a) * r * 1.2, cy + r * 0.6 + math.sin(a) * r * 1.2),
                   fill=c + (255,), width=S * 2)
        d.pieslice((cx - r * 1.2, cy - r * 0.6, cx + r * 1.2, cy + r * 1.8), 200, 340, outline=accent + (255,),
                   width=S * 3)


def _rich_faces(faces: dict[str, Image.Image], rng: np.random.Generator, inks: tuple[Color, Color, Color, Color, Color], font: str,
                idx: int, latin: str, margin: float) -> None:
    """Redraw the dots, the 1-bamboo, the flowers and seasons of a random style in other designs and add
    the corner indices real sets carry (in place, on the unfinished canvases)."""
    ink, red, c1, c2, c3 = inks
    design = int(rng.integers(6))  # 5: keep _pins' ringed / solid dots
    if design < 5:
        cols = [c1, c2, c3][: int(rng.integers(1, 4))]
        for n in range(1, 10):
            faces[f"{n}p"] = _pins_rich(n, cols if n > 1 else [red], design, margin)
        faces["0p"] = _pins_rich(5, [red], design, margin)
    bird = int(rng.integers(3))
    if bird == 1:
        faces["1s"] = _sparrow(c1, red, rng)
    elif bird == 2:
        faces["1s"] = faces["1s"].transpose(Image.Transpose.FLIP_LEFT_RIGHT)
    kind, skind = int(rng.integers(4)), int(rng.integers(5))
    leaf = (0, int(rng.uniform(90, 150)), int(rng.uniform(30, 80)))
    for i in range(4):
        im, d = _canvas()
        fy = rng.uniform(0.35, 0.55)
        _flower_rich(d, CW * 0.5, CH * fy, CW * rng.uniform(0.2, 0.28), int(rng.integers(4, 9)), _rand_colour(rng),
                     _rand_colour(rng), kind, leaf)
        if rng.random() < 0.7:
            _text(d, (0.5, 0.86), FLOWER_NAMES[i], font, 0.2, c1 if rng.random() < 0.5 else red, idx)
        faces[f"{i + 1}f"] = im
        im, d = _canvas()
        if skind < 4:
            _season_rich(d, i, skind, c3, _rand_colour(rng), rng)
            _text(d, (0.5, 0.82), SEASON_NAMES[i], font, 0.24, c3, idx)
        else:
            _text(d, (0.5, 0.55), SEASON_NAMES[i], font, 0.42, c3, idx)
        faces[f"{i + 5}f"] = im
    if rng.random() < 0.85:  # corner indices: a numeral, E S W N, numbers on the flowers
        right = rng.random() < 0.3
        pos = (rng.uniform(0.8, 0.88) if right else rng.uniform(0.12, 0.2), rng.uniform(0.08, 0.13))
        size = rng.uniform(0.1, 0.16)
        col = [red, ink, c3][int(rng.integers(3))]
        boxed = rng.random() < 0.25
        for lab, im in faces.items():
            txt = "" if len(lab) != 2 else (lab[0] if lab[1] in "mpsf" and lab[0] != "0" else "5" if lab[0] == "0"
                   else "ESWN"[int(lab[0]) - 1] if lab[1] == "z" and lab[0] in "1234" else "")
            if not txt:
                continue
            d = ImageDraw.Draw(im)
            if boxed:
                rr = size * CH * 0.55
                d.ellipse((pos[0] * CW - rr, pos[1] * CH - rr, pos[0] * CW + rr, pos[1] * CH + rr), outline=col + (255,),
                          width=S * 2)
            _text(d, pos, txt, latin, size * (0.8 if boxed else 1.0), col)


def write_random_styles(out: Path, count: int, seed: int, rich: bool = False, prefix: str = "rand") -> list[Path]:
    """Write ``count`` randomised styles as style folders under ``out`` (the training cache)."""
    paths = []
    for i in range(count):
        faces, meta = random_faces(seed + i, rich=rich)
        folder = out / f"{prefix}{i:02d}"
        folder.mkdir(parents=True, exist_ok=True)
        for lab, im in faces.items():
            im.save(folder / f"{lab}.png")
        (folder / "style.json").write_text(json.dumps(dict(meta, labels=sorted(faces)), indent=1) + "\n")
        paths.append(folder)
    return paths


def fluffy_faces(export_dir: Path, colourway: str) -> dict[str, Image.Image]:
    out: dict[str, Image.Image] = {}
    for lab, name in FLUFFY_NAMES.items():
        im = Image.open(export_dir / colourway / f"{name}.png").convert("RGBA")
        out[lab] = im.convert("RGBa").resize((W, H), Image.Resampling.LANCZOS).convert("RGBA")
    return out


STYLES: dict[str, dict[str, object]] = {
    "fluffy": {"face": [243, 238, 232], "back": [230, 50, 50], "side": [235, 225, 210], "radius": 0.12,
               "source": "fluffystuff Regular (CC0)"},
    "fluffy_black": {"face": [32, 32, 32], "back": [40, 40, 40], "side": [200, 200, 200], "radius": 0.12,
                     "source": "fluffystuff Black (CC0)"},
    "classic": {"face": [238, 236, 222], "back": [20, 120, 70], "side": [20, 120, 70], "radius": 0.1,
                "source": "procedural, Noto Serif CJK (OFL) glyphs"},
    "kai": {"face": [250, 246, 232], "back": [30, 80, 160], "side": [245, 200, 60], "radius": 0.07,
            "source": "procedural, AR PL UKai (Arphic Public License) glyphs"},
}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fluffy", type=Path,
                    default=Path(__file__).resolve().parents[3] / "shared" / "tiles" / "fluffystuff" / "Export")
    args = ap.parse_args(argv)
    makers = {
        "fluffy": lambda: fluffy_faces(args.fluffy, "Regular"),
        "fluffy_black": lambda: fluffy_faces(args.fluffy, "Black"),
        "classic": classic_faces,
        "kai": kai_faces,
    }
    for name, make in makers.items():
        out = ASSETS / name
        out.mkdir(parents=True, exist_ok=True)
        faces = make()
        for lab, im in faces.items():
            im.save(out / f"{lab}.png", optimize=True)
        meta = dict(STYLES[name], labels=sorted(faces))
        (out / "style.json").write_text(json.dumps(meta, indent=1) + "\n")
        print(f"{name}: {len(faces)} faces")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
