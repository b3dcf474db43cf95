"""Cutting a set into tiles where the depths alone do not part its upright tiles from its sideways one."""
from pathlib import Path

import cv2
import numpy as np

from vision.geometry import DEFAULT_GEOMETRY as GEO
from vision.tile_finder import _split_band
from vision.zones import table_zones

PX = 1.2
MELD = next(z for z in table_zones() if z.kind == "meld")
#: the mask of a pung of fluffy's 6s on a green cloth as the camera saw it (simulate sichuan-mpl2025, seed 11,
#: hand 63): upright, sideways (claimed from opposite), upright
GREEN_PUNG = Path(__file__).parent / "data" / "green_pung_meld_mask.png"


def _band(depths_mm: list[float]) -> np.ndarray:
    """A set's mask from its column depths (mm), laid on the near edge."""
    cols = [int(round(d * PX)) for d in depths_mm]
    mask = np.zeros((max(cols) + 2, len(cols)), np.uint8)
    for x, d in enumerate(cols):
        mask[mask.shape[0] - d:, x] = 255
    return mask


def test_a_pung_whose_upright_tiles_read_short_is_two_upright_tiles_and_a_sideways_one():
    """Fluffy's green bamboo on a green cloth: the upright tiles' far-edge glyphs look like felt, so they read
    31-33 mm deep (not 36), hardly deeper than the sideways tile (28-29): the set's length tells the
    tiles, the shallow stretch the sideways one (the zone was untrusted, the set never seen)."""
    mask = cv2.imread(str(GREEN_PUNG), cv2.IMREAD_GRAYSCALE)
    found, fits = _split_band(mask, 0, 0, "meld", PX, GEO, MELD)
    assert fits and [f.turns for f in found] == [0, 1, 0]
    xs = [(f.box[0], f.box[2]) for f in found]
    assert 40 <= xs[1][1] - xs[1][0] <= 48 and xs[0][1] == xs[1][0] and xs[1][1] == xs[2][0]


def test_a_set_cut_unevenly_by_its_depths_is_cut_by_its_length():
    """The same tiles where the depths do fit a cut — 29, 44 and 39 px — but the upright tile's glyph at its
    outer edge left it 4 px short, its neighbours' shares too long (sichuan-mpl2025, seed 11, hand 95: the
    5s cut so read unknown): two upright tiles and a sideways one of their own sizes."""
    mask = cv2.imread(str(GREEN_PUNG.with_name("green_pung_uneven_mask.png")), cv2.IMREAD_GRAYSCALE)
    found, fits = _split_band(mask, 0, 0, "meld", PX, GEO, MELD)
    widths = [f.box[2] - f.box[0] for f in found]
    assert fits and [f.turns for f in found] == [0, 1, 0] and all(abs(w - 33) <= 2 for w in widths[::2]), widths


def test_a_set_of_clear_depths_is_cut_as_before():
    w, h = int(round((GEO.tile_w + 0.6) * PX)), int(round((GEO.tile_h + 0.6) * PX))
    found, fits = _split_band(_band([36.0] * w + [27.0] * h + [36.0] * w), 0, 0, "meld", PX, GEO, MELD)
    assert fits and [f.turns for f in found] == [0, 1, 0]
    found, fits = _split_band(_band([36.0] * (3 * w)), 0, 0, "meld", PX, GEO, MELD)
    assert fits and [f.turns for f in found] == [0, 0, 0]


def test_a_pond_tile_pushed_against_the_row_behind_is_cut_without_the_gap():
    """A 二萬 pushed against the tile behind it (sichuan-mpl2025, seed 11, hand 25): the shaded gap between
    them is no felt, so the mask took 3 rows of it with the tile, the template reader saw a third stroke
    (三萬) and the tile was asked. Cut to a tile's depth, without the gap."""
    from vision.tile_finder import Found, _to_depth

    img = cv2.imread(str(GREEN_PUNG.with_name("pond_2m_pushed.png")))  # the tile with 8 px all round
    pond = next(z for z in table_zones() if z.kind == "pond")
    depth = int(round(GEO.tile_h * PX))
    f = _to_depth(Found(pond, (8, 5, 42, 52), 0), img, PX, GEO)  # as found: 3 rows of the gap above it
    assert f.box == (8, 8, 42, 8 + depth)
    # a tile with no gap in its box (bare cloth below it) is left as found
    flat = np.full_like(img, 235)
    flat[:, :4] = 60
    assert _to_depth(Found(pond, (8, 8, 42, 55), 0), flat, PX, GEO).box == (8, 8, 42, 55)


def test_one_pond_tile_found_twice_is_one_tile():
    """A stain of the felt's colour cut a pond tile's mask in two (mcr seed 11 hand 38): the finder gave the tile
    and a second box 7 px to its right, mostly on it — two questions, one of them about no tile at all. Two
    pond tiles cannot lie one on the other; neighbours that touch (or overlap a pixel or two) stay."""
    from vision.tile_finder import Found, _one_per_place

    pond = next(z for z in table_zones() if z.kind == "pond")
    row = [Found(pond, (115, 53, 149, 96), 0), Found(pond, (149, 52, 183, 95), 0), Found(pond, (156, 56, 183, 99), 0)]
    assert _one_per_place(row) == row[:2]
    touching = [Found(pond, (k * 33, 10, k * 33 + 35, 53), 0) for k in range(6)]  # 2 px over each neighbour
    assert _one_per_place(touching) == touching


def test_a_cell_of_cloth_enclosed_by_tiles_is_no_tile():
    """Red's free pond (red@3 seed 11 hand 7): an empty cell with tiles on all four sides is a hole the mask
    fills as it fills a glyph's, so the finder cut a tile there — read 'none', later '5z': a discard out of
    turn. Hardly any of its pixels differ from the felt before the filling: no tile. Tiles stay."""
    from vision.tile_finder import Found, _on_cloth_left_out

    pond = next(z for z in table_zones() if z.kind == "pond")
    raw = np.zeros((140, 110), np.uint8)
    boxes = [(0, 0, 34, 43), (35, 0, 69, 43), (70, 0, 104, 43), (0, 45, 34, 88), (35, 45, 69, 88),
             (70, 45, 104, 88), (0, 90, 34, 133), (35, 90, 69, 133), (70, 90, 104, 133)]
    for k, (x0, y0, x1, y1) in enumerate(boxes):
        if k != 4:  # the middle cell is cloth
            raw[y0:y1, x0:x1] = 255
            raw[y0 + 12:y0 + 30, x0 + 8:x0 + 26] = 0  # a glyph of the felt's colour: still a tile
    found = [Found(pond, b, 0) for b in boxes]
    assert [f.box for f in _on_cloth_left_out(found, raw)] == boxes[:4] + boxes[5:]
    assert _on_cloth_left_out(found, None) == found  # (no mask before the filling: as found)
