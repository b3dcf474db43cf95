"""The seat check's badges (issue #32 part 4): a badge per player — the name and a QR code holding the
player's id — printed on A4 sheets (``mahjong-table hall badges --out badges.pdf``, or PNG sheets), read
back from an overhead frame with OpenCV's QR detector (no new dependency: OpenCV's ``QRCodeEncoder`` draws
them, Pillow writes the PDF), and compared with the hall's seating.

Which seat a badge lies at is the side of the frame it is nearest: :data:`SIDES` names the sides of seats
0..3 as the table's page draws them (East, seat 0, at the bottom; counter-clockwise: right, top, left) — a
camera mounted otherwise passes its own order.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, cast

import numpy as np

if TYPE_CHECKING:
    from PIL import Image as PILImage

DPI = 150
A4 = (round(210 / 25.4 * DPI), round(297 / 25.4 * DPI))  # 1240 x 1754 px
COLS, ROWS = 2, 4
SIDES = ("bottom", "right", "top", "left")
PREFIX = "MTP:"  # what a badge's QR code holds before the id (another QR code is not a badge); short: a small code


class BadgeError(ValueError):
    """Badges cannot be written (no players, a format not PDF or PNG)."""


def qr(text: str, module_px: int = 8, quiet: int = 4) -> np.ndarray:
    """``text`` as a QR code image (uint8, black on white, ``quiet`` modules of margin)."""
    import cv2

    enc = cv2.QRCodeEncoder.create()
    img = enc.encode(text)
    img = cv2.resize(img, None, fx=module_px, fy=module_px, interpolation=cv2.INTER_NEAREST)
    m = quiet * module_px
    return cv2.copyMakeBorder(img, m, m, m, m, cv2.BORDER_CONSTANT, value=255)


def badge(player: str, name: str, size: tuple[int, int] = (A4[0] // COLS, A4[1] // ROWS)) -> PILImage.Image:
    """One badge (a Pillow image): the QR code of the player's id, the name and the id under it."""
    from PIL import Image, ImageDraw, ImageFont

    w, h = size
    img = Image.new("L", (w, h), 255)
    code = Image.fromarray(qr(PREFIX + player))
    side = min(w - 40, h - 110)
    code = code.resize((side, side), Image.Resampling.NEAREST)
    img.paste(code, ((w - side) // 2, 10))
    draw = ImageDraw.Draw(img)
    font: ImageFont.FreeTypeFont | ImageFont.ImageFont
    small: ImageFont.FreeTypeFont | ImageFont.ImageFont
    try:
        font = ImageFont.truetype("DejaVuSans.ttf", 30)
        small = ImageFont.truetype("DejaVuSans.ttf", 20)
    except OSError:  # no DejaVu on this machine: Pillow's own font (Latin only)
        font = small = ImageFont.load_default()
    for text, f, y in ((name, font, side + 20), (player, small, side + 60)):
        tw = draw.textlength(text, font=f)
        draw.text(((w - tw) / 2, y), text, fill=0, font=f)
    draw.rectangle((0, 0, w - 1, h - 1), outline=160)  # where to cut
    return img


def sheets(players: Sequence[tuple[str, str]]) -> list[PILImage.Image]:
    """A4 sheets of badges, ``COLS x ROWS`` a sheet, for ``(id, name)`` in order."""
    from PIL import Image

    if not players:
        raise BadgeError("no players registered: nothing to print (hall players import FILE)")
    out = []
    per = COLS * ROWS
    bw, bh = A4[0] // COLS, A4[1] // ROWS
    for start in range(0, len(players), per):
        sheet = Image.new("L", A4, 255)
        for k, (pid, name) in enumerate(players[start:start + per]):
            sheet.paste(badge(pid, name), ((k % COLS) * bw, (k // COLS) * bh))
        out.append(sheet)
    return out


def write(path: str | Path, players: Sequence[tuple[str, str]]) -> list[Path]:
    """The badges into ``path``: ``.pdf`` one file, a page a sheet; ``.png`` one file a sheet
    (``badges.png``, ``badges-2.png``, ...). The files written."""
    p = Path(path)
    ext = p.suffix.lower()
    if ext not in (".pdf", ".png"):
        raise BadgeError(f"{p}: badges are written as .pdf or .png")
    pages = sheets(players)
    if ext == ".pdf":
        pages[0].save(p, "PDF", resolution=DPI, save_all=True, append_images=pages[1:])
        return [p]
    out = []
    for i, page in enumerate(pages, 1):
        q = p if i == 1 else p.with_name(f"{p.stem}-{i}{p.suffix}")
        page.save(q, "PNG")
        out.append(q)
    return out


# --- reading them back ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Badge:
    player: str
    x: float  # the code's centre, as a fraction of the frame's width
    y: float  # and of its height


def read(frame: np.ndarray) -> list[Badge]:
    """The badges an overhead frame shows (a grey or BGR image): each QR code holding a player's id. Each
    code found is decoded again from its own region enlarged (a small code far from the lens decodes more
    surely so than in the whole frame)."""
    import cv2

    grey = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    h, w = grey.shape[:2]
    det = cv2.QRCodeDetector()
    ok, texts, found, _ = det.detectAndDecodeMulti(grey)
    points = cast("np.ndarray | None", found)  # None when no code is found (OpenCV's stubs say never)
    if not ok or points is None:
        ok, found = det.detectMulti(grey)
        points = cast("np.ndarray | None", found)
        texts = [""] * (len(points) if ok and points is not None else 0)
    if points is None:
        return []
    out = []
    for text, quad in zip(texts, points, strict=False):
        q = np.asarray(quad).reshape(-1, 2)
        if not text:
            x0, y0 = np.maximum(q.min(axis=0).astype(int) - 20, 0)
            x1, y1 = q.max(axis=0).astype(int) + 20
            crop = cv2.resize(grey[y0:y1, x0:x1], None, fx=2, fy=2, interpolation=cv2.INTER_CUBIC)
            text = det.detectAndDecode(crop)[0] if crop.size else ""
        if text.startswith(PREFIX):
            c = q.mean(axis=0)
            out.append(Badge(text[len(PREFIX):], float(c[0]) / w, float(c[1]) / h))
    # a code the whole frame's pass missed: each of 3 x 3 overlapping parts of the frame on its own
    seen = {x.player for x in out}
    for j in range(3):
        for i in range(3):
            x0, y0 = int(w * i / 4), int(h * j / 4)
            part = grey[y0:y0 + h // 2, x0:x0 + w // 2]
            text, quad, _ = det.detectAndDecode(part)
            if text.startswith(PREFIX) and text[len(PREFIX):] not in seen and quad is not None:
                c = np.asarray(quad).reshape(-1, 2).mean(axis=0)
                out.append(Badge(text[len(PREFIX):], float(c[0] + x0) / w, float(c[1] + y0) / h))
                seen.add(text[len(PREFIX):])
    return out


def side_of(b: Badge) -> str:
    """The side of the frame the badge lies nearest."""
    d = {"top": b.y, "bottom": 1.0 - b.y, "left": b.x, "right": 1.0 - b.x}
    return min(d, key=lambda k: d[k])


@dataclass(frozen=True)
class SeatCheck:
    """What the camera read at each seat against the hall's seating."""

    expected: tuple[str, ...]  # the hall's seating, seat by seat
    found: tuple[str | None, ...]  # the badge read at each seat (None: none, or two at one seat)

    @property
    def ok(self) -> bool:
        return self.expected == self.found

    def problems(self) -> list[str]:
        """One line per seat that does not match (English; :meth:`problems_ru` in Russian)."""
        out = []
        for seat, (want, got) in enumerate(zip(self.expected, self.found, strict=True)):
            if got is None:
                out.append(f"seat {seat}: no single badge read (expected {want})")
            elif got != want:
                elsewhere = self.expected.index(got) if got in self.expected else None
                where = f"seated at seat {elsewhere}" if elsewhere is not None else "not seated at this table"
                out.append(f"seat {seat}: {got} sits here ({where}); expected {want}")
        return out

    def problems_ru(self) -> list[str]:
        out = []
        for seat, (want, got) in enumerate(zip(self.expected, self.found, strict=True)):
            if got is None:
                out.append(f"место {seat}: не прочитан один бейдж (должен сидеть {want})")
            elif got != want:
                elsewhere = self.expected.index(got) if got in self.expected else None
                where = f"его место {elsewhere}" if elsewhere is not None else "не за этим столом"
                out.append(f"место {seat}: сидит {got} ({where}); должен сидеть {want}")
        return out


def check(badges: Sequence[Badge], seating: Sequence[str], sides: Sequence[str] = SIDES) -> SeatCheck:
    """The badges read against the hall's seating (``seating[seat]`` = the player's id)."""
    at: dict[int, list[str]] = {}
    for b in badges:
        s = side_of(b)
        if s in sides[:len(seating)]:
            at.setdefault(list(sides).index(s), []).append(b.player)
    found = tuple(at[s][0] if len(at.get(s, [])) == 1 else None for s in range(len(seating)))
    return SeatCheck(tuple(seating), found)
