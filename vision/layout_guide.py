"""The printable guide to an enrollment layout (``mahjong-table tiles guide --out guide.pdf [--whole-set]``): an A4
page per layout page with where each tile goes -- the grid of faces (drawn in the ``classic`` style, with their
labels), the table with its four markers and the page's place in its centre, East's edge at the bottom --, and
what to do, in English and Russian. Pillow writes the PDF (as ``hall badges`` does); DejaVu Sans draws the
Cyrillic (Pillow's own font where it is missing: Latin only).
"""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from vision.geometry import DEFAULT_GEOMETRY
from vision.tile_layout import LAYOUT_PITCH_MM
from vision.whole_set import CALIBRATION_PAGE, PAGES, Page

if TYPE_CHECKING:
    from PIL import Image, ImageDraw, ImageFont

    Font = ImageFont.FreeTypeFont | ImageFont.ImageFont

DPI = 150
A4 = (round(210 / 25.4 * DPI), round(297 / 25.4 * DPI))  # 1240 x 1754 px
MARGIN = 70
FACE_STYLE = "classic"  # the faces the guide draws: every label, plain ink

_STEPS_EN = (
    "Clear the table's centre. Lay the tiles face up, upright for East: the top of every tile towards West, "
    "East's edge (the camera's bottom edge) at the bottom of this sheet.",
    "Lay the grid below in the table's centre, a gap of about a third of a tile between tiles: centres "
    "{pa:.0f} mm apart along a row, {pb:.0f} mm between rows. A face the set does not have: leave its cells empty.",
    "Keep the four markers in the corners uncovered and nothing else in the centre; take a frame: "
    "mahjong-table vision grab --camera picamera --out {file}",
)
_STEPS_RU = (
    "Освободите центр стола. Кладите кости лицом вверх, прямо для Востока: верх каждой кости к Западу, "
    "край Востока (нижний край кадра камеры) внизу этого листа.",
    "Выложите сетку ниже в центре стола, с промежутком около трети кости: центры в {pa:.0f} мм друг от друга "
    "в ряду и в {pb:.0f} мм между рядами. Костей, которых нет в наборе, не кладите: их клетки пустые.",
    "Не закрывайте четыре метки в углах и не кладите в центр ничего другого; снимите кадр: "
    "mahjong-table vision grab --camera picamera --out {file}",
)


def _fonts() -> tuple[Font, Font, Font]:
    from PIL import ImageFont

    try:
        return (ImageFont.truetype("DejaVuSans-Bold.ttf", 30), ImageFont.truetype("DejaVuSans.ttf", 21),
                ImageFont.truetype("DejaVuSans.ttf", 17))
    except OSError:  # no DejaVu on this machine: Pillow's own font
        f = ImageFont.load_default()
        return f, f, f


def _wrap(draw: ImageDraw.ImageDraw, text: str, font: Font, width: int) -> list[str]:
    lines: list[str] = []
    for word in text.split():
        if lines and draw.textlength(lines[-1] + " " + word, font=font) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def _paragraph(draw: ImageDraw.ImageDraw, xy: tuple[int, int], text: str, font: Font, width: int, gap: int = 4) -> int:
    """Draw wrapped text; the y below it."""
    x, y = xy
    for line in _wrap(draw, text, font, width):
        draw.text((x, y), line, fill=(0, 0, 0), font=font)
        y += _size(font) + gap
    return y


def _size(font: Font) -> int:
    """The font's size in pixels (Pillow's built-in bitmap font has none: 14)."""
    from PIL import ImageFont

    return int(font.size) if isinstance(font, ImageFont.FreeTypeFont) else 14


def _face(label: str, height: int) -> Image.Image:
    import cv2
    from PIL import Image

    from vision.tile_render import face_image

    f = face_image(FACE_STYLE, label, height)
    rgba = cv2.cvtColor(np.ascontiguousarray(f), cv2.COLOR_BGRA2RGBA)
    return Image.fromarray(rgba)


def _overview(draw: ImageDraw.ImageDraw, box: tuple[int, int, int], pg: Page, fonts: tuple[Font, Font, Font]) -> None:
    """The table (its markers, ids as the camera sees them) with the page's place at scale, East at the bottom."""
    x0, y0, side = box
    geo = DEFAULT_GEOMETRY
    s = side / geo.size
    draw.rectangle((x0, y0, x0 + side, y0 + side), outline=(0, 0, 0), width=3, fill=(226, 238, 226))
    for i, (cx, cy) in enumerate(geo.marker_centres()):
        h = geo.marker / 2 * s
        draw.rectangle((x0 + cx * s - h, y0 + cy * s - h, x0 + cx * s + h, y0 + cy * s + h), fill=(0, 0, 0))
        draw.text((x0 + cx * s - 5, y0 + cy * s - 9), str(i), fill=(255, 255, 255), font=fonts[2])
    rows, cols = pg.shape
    pa, pb = LAYOUT_PITCH_MM
    w, h = (cols - 1) * pa + geo.tile_w, (rows - 1) * pb + geo.tile_h
    c = geo.centre
    draw.rectangle((x0 + (c - w / 2) * s, y0 + (c - h / 2) * s, x0 + (c + w / 2) * s, y0 + (c + h / 2) * s),
                   fill=(255, 255, 255), outline=(180, 0, 0), width=2)
    draw.line((x0 + c * s - 6, y0 + c * s, x0 + c * s + 6, y0 + c * s), fill=(180, 0, 0), width=2)
    draw.line((x0 + c * s, y0 + c * s - 6, x0 + c * s, y0 + c * s + 6), fill=(180, 0, 0), width=2)
    draw.text((x0, y0 + side + 6), "East / Восток ↓", fill=(0, 0, 0), font=fonts[2])
    draw.text((x0, y0 - 24), f"{w:.0f} x {h:.0f} mm in the centre / в центре", fill=(0, 0, 0), font=fonts[2])


def _grid(img: Image.Image, draw: ImageDraw.ImageDraw, top: int, bottom: int, pg: Page,
          fonts: tuple[Font, Font, Font]) -> None:
    rows, cols = pg.shape
    width = A4[0] - 2 * MARGIN
    cell_w = min(width // cols, 130)
    cell_h = min((bottom - top) // rows, int(cell_w * 1.45))
    tile_h = int(min(cell_h - _size(fonts[2]) - 12, (cell_w - 14) / 0.75))
    left = (A4[0] - cell_w * cols) // 2
    faces: dict[str, Image.Image] = {}
    for r, row in enumerate(pg.rows):
        draw.text((left - 34, top + r * cell_h + cell_h // 2 - 10), str(r + 1), fill=(90, 90, 90), font=fonts[1])
        for c, lab in enumerate(row):
            x, y = left + c * cell_w, top + r * cell_h
            draw.rectangle((x + 2, y + 2, x + cell_w - 2, y + cell_h - 2), outline=(150, 150, 150), width=1)
            face = faces.get(lab) or faces.setdefault(lab, _face(lab, tile_h))
            img.paste(face, (x + (cell_w - face.width) // 2, y + 6), face)
            tw = draw.textlength(lab, font=fonts[2])
            draw.text((x + (cell_w - tw) / 2, y + 8 + tile_h), lab, fill=(0, 0, 0), font=fonts[2])
    y = top + rows * cell_h + 8
    draw.text((left, y), "↓ East / Восток", fill=(120, 0, 0), font=fonts[1])


def guide_page(pg: Page, of: int) -> Image.Image:
    """One A4 page of the guide (a Pillow image)."""
    from PIL import Image, ImageDraw

    fonts = _fonts()
    img = Image.new("RGB", A4, (255, 255, 255))
    draw = ImageDraw.Draw(img)
    whole = pg.number > 0
    head = f"Whole-set enrollment — page {pg.number} of {of}: {pg.title}" if whole else \
        "Enrollment: the calibration layout"
    head_ru = f"Запись всего набора — страница {pg.number} из {of}: {pg.title_ru}" if whole else \
        "Запись набора: калибровочная раскладка"
    y = _paragraph(draw, (MARGIN, 40), head, fonts[0], A4[0] - 2 * MARGIN)
    y = _paragraph(draw, (MARGIN, y + 2), head_ru, fonts[0], A4[0] - 2 * MARGIN) + 16
    side = 300
    _overview(draw, (MARGIN, y + 26, side), pg, fonts)
    x = MARGIN + side + 40
    text_w = A4[0] - MARGIN - x
    pa, pb = LAYOUT_PITCH_MM
    file = ("p3a.png (p3b.png, ...)" if pg.frames > 1 else f"p{pg.number}.png") if whole else "f1.png (f2.png, f3.png)"
    ty = y
    for en, ru in zip(_STEPS_EN, _STEPS_RU):
        ty = _paragraph(draw, (x, ty), "• " + en.format(pa=pa, pb=pb, file=file), fonts[2], text_w)
        ty = _paragraph(draw, (x, ty + 2), "• " + ru.format(pa=pa, pb=pb, file=file), fonts[2], text_w) + 8
    if pg.frames > 1:
        en = (f"Take this page {pg.frames} times, lifting the tiles and laying them down again between frames: a set "
              f"has one of each of these faces, {pg.frames} frames give {pg.frames} crops of each." if whole else
              "Take three frames, moving the tiles a little between them: three crops of each face.")
        ru = (f"Снимите эту страницу {pg.frames} раза, поднимая и снова кладя кости между кадрами: в наборе по одной "
              f"такой кости, {pg.frames} кадра дают {pg.frames} снимка каждой." if whole else
              "Снимите три кадра, немного сдвигая кости между ними: три снимка каждой кости.")
        ty = _paragraph(draw, (x, ty), "• " + en, fonts[2], text_w)
        ty = _paragraph(draw, (x, ty + 2), "• " + ru, fonts[2], text_w) + 8
    top = max(ty, y + 26 + side + 40) + 20
    footer = A4[1] - 150
    _grid(img, draw, top, footer - 40, pg, fonts)
    cmd = ("mahjong-table tiles enroll --whole-set --out table.npz --layout p1.png --layout p2.png --layout p3a.png "
           "--layout p3b.png --layout p3c.png --layout p3d.png" if whole else
           "mahjong-table tiles enroll --out table.npz --layout f1.png --layout f2.png --layout f3.png")
    fy = _paragraph(draw, (MARGIN, footer), "Then / Затем: " + cmd, fonts[2], A4[0] - 2 * MARGIN)
    _paragraph(draw, (MARGIN, fy + 4), "The frames may come in any order: each frame's page is told from the frame. / "
               "Кадры можно давать в любом порядке: страница каждого кадра узнаётся по самому кадру." if whole else
               "A set without red fives, jokers or flowers leaves rows 5-6 empty. / Набор без красных пятёрок, "
               "джокеров и цветов оставляет ряды 5-6 пустыми.", fonts[2], A4[0] - 2 * MARGIN)
    return img


def guide_pages(whole_set: bool) -> list[Image.Image]:
    pages: Sequence[Page] = PAGES if whole_set else (CALIBRATION_PAGE,)
    return [guide_page(pg, len(pages)) for pg in pages]


def write_guide(path: str | Path, whole_set: bool = False) -> list[Path]:
    """The guide into ``path``: ``.pdf`` one file, a page a layout page (A4 at 150 dpi); ``.png`` a file a page
    (``guide.png``, ``guide-2.png``, ...). The files written."""
    p = Path(path)
    if p.suffix.lower() not in (".pdf", ".png"):
        raise ValueError(f"{p}: the guide is written as .pdf or .png")
    pages = guide_pages(whole_set)
    if p.suffix.lower() == ".pdf":
        pages[0].save(p, "PDF", resolution=DPI, save_all=True, append_images=pages[1:])
        return [p]
    out = []
    for i, page in enumerate(pages, 1):
        q = p if i == 1 else p.with_name(f"{p.stem}-{i}{p.suffix}")
        page.save(q, "PNG")
        out.append(q)
    return out
