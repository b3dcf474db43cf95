"""Whole-set enrollment: all four copies of every face laid in the table's centre over three camera pages, each
frame read as its page (told from the frame), each cell filled / empty / doubtful, and the check that names
missing faces and faces too alike before a set is accepted."""
from __future__ import annotations

from collections import Counter
from dataclasses import replace

import numpy as np
import pytest

from vision.geometry import DEFAULT_GEOMETRY
from vision.heldout_styles import heldout_style
from vision.scene_render import render_enrollment_layout, render_laid_out
from vision.set_check import DOUBT_MARGIN, Doubt, check_set, doubtful_pairs, expected_faces
from vision.tile_labels import ENROLLABLE
from vision.tile_layout import LAYOUT_PITCH_MM
from vision.tile_reader import pipeline_classifier
from vision.tile_render import load_style
from vision.tileset import TileSet
from vision.whole_set import (
    DOUBTFUL,
    EMPTY,
    FILLED,
    PAGES,
    WHOLE_SET_HALF,
    Grid,
    PageError,
    detect_page,
    enroll_rendered_whole_set,
    page,
    page_view,
    read_page,
    render_page,
)


def _truth_label(rd, cell, truth) -> str:
    """The label of the rendered tile nearest the cell's tile (the ground truth, not the layout)."""
    x, y, w, h = cell.box
    mx, my = rd.view.to_mm(x + w / 2 - 0.5, y + h / 2 - 0.5)
    d = [float(np.hypot(*(o.poly_mm.mean(axis=0) - (mx, my)))) for o in truth.objects]
    return truth.objects[int(np.argmin(d))].label


def test_the_pages_hold_four_copies_of_every_face():
    per_frame = Counter(lab for pg in PAGES for row in pg.rows for lab in row for _ in range(pg.frames))
    assert set(per_frame) == set(ENROLLABLE)  # every face and the back, once the pages are taken as the guide says
    assert all(n == 4 for lab, n in per_frame.items() if lab != "j"), per_frame
    assert per_frame["j"] == 16  # a red set's four jokers on each of page 3's four frames
    assert [pg.frames for pg in PAGES] == [1, 1, 4]


def test_the_pages_fit_inside_the_markers_and_the_tiles_stay_apart():
    geo = DEFAULT_GEOMETRY
    inner = geo.centre - geo.marker_inset - geo.marker  # the markers' inner edges, from the centre
    assert max(WHOLE_SET_HALF) < inner
    pa, pb = LAYOUT_PITCH_MM
    assert pa - geo.tile_w >= 8 and pb - geo.tile_h >= 8  # the finder's mask keeps neighbours apart
    for pg in PAGES:
        rows, cols = pg.shape
        half = ((cols - 1) * pa + geo.tile_w) / 2, ((rows - 1) * pb + geo.tile_h) / 2
        # a page laid up to 60 mm off the centre (and 5 % wider) still lies inside the view looked in
        assert all(1.05 * h + 60 <= lim for h, lim in zip(half, WHOLE_SET_HALF)), (pg.number, half)


@pytest.mark.parametrize("style", ["kai", "fluffy"])
@pytest.mark.parametrize("number", [1, 2, 3])
def test_each_page_frame_gives_every_tile_under_its_label(style, number):
    """fluffy has no jokers or flowers: page 3 holds its three red fives, the other cells stay empty."""
    frame, truth = render_page(style, number, seed=7)
    rd = read_page(frame, number)
    have = set(load_style(style).labels)
    laid = [c for c in rd.cells if c.label in have]
    assert all(c.state == FILLED for c in laid), [(c.label, c.state, c.why) for c in laid if c.state != FILLED]
    assert all(c.state == EMPTY for c in rd.cells if c.label not in have) and not rd.strays
    assert [c.label for c in laid] == [_truth_label(rd, c, truth) for c in laid]
    for crop in rd.crops.values():  # cut as the pipeline cuts a tile: about 27 x 36 mm at 1.2 px/mm
        assert 26 <= crop.shape[1] <= 40 and 38 <= crop.shape[0] <= 50, crop.shape


def _laid(number: int, offset=(0.0, 0.0), scale=(1.0, 1.0), skip=lambda r, c: False, extra=()):
    g = Grid.centred(page(number))
    out = []
    for r, c, lab in page(number).cells():
        if not skip(r, c):
            x, y = g.centre(r, c)
            out.append((lab, x * scale[0] + offset[0], y * scale[1] + offset[1], 0.0))
    return out + list(extra)


def test_a_page_laid_off_centre_at_its_own_spacing_and_with_gaps_keeps_its_labels():
    """Laid 45 mm right and 30 mm up, 5 % wider and 4 % tighter than the guide, its first column and a few
    tiles missing: the grid is fitted to the tiles, nothing shifts."""
    gone = {(2, 4), (5, 8), (7, 3)}
    tiles = _laid(1, (45.0, -30.0), (1.05, 0.96), lambda r, c: c == 0 or (r, c) in gone)
    frame, truth = render_laid_out("kai", tiles, seed=12)
    rd = read_page(frame, 1, classifier=pipeline_classifier())
    empty = {(c.row, c.col) for c in rd.cells if c.state == EMPTY}
    assert empty == gone | {(r, 0) for r in range(8)}, sorted(empty)
    filled = [c for c in rd.cells if c.state == FILLED]
    assert len(filled) == 72 - 8 - 3 and [c.label for c in filled] == [_truth_label(rd, c, truth) for c in filled]
    assert rd.empty_faces() == ["1m", "1p"]


def test_page_3_with_only_its_flowers_is_read_in_the_flowers_row():
    """A set with flowers and no red fives or jokers (MCR) leaves page 3's first row empty; laid 25 mm up --
    more than half a row -- the flowers still land in their own row: the network's reading chooses the shift."""
    tiles = _laid(3, (-20.0, -25.0), skip=lambda r, c: r == 0)
    frame, truth = render_laid_out("classic", tiles, seed=5)
    rd = read_page(frame, 3, classifier=pipeline_classifier())
    filled = [c for c in rd.cells if c.state == FILLED]
    assert [c.label for c in filled] == [f"{n}f" for n in range(1, 9)]
    assert [c.label for c in filled] == [_truth_label(rd, c, truth) for c in filled]


def test_cells_with_two_tiles_a_turned_tile_or_a_tile_between_cells_are_doubtful_and_give_no_crop():
    g = Grid.centred(page(2))
    x1, y1 = g.centre(1, 1)
    x5, y5 = g.centre(5, 5)
    x3, y3 = g.centre(3, 8)
    tiles = _laid(2, skip=lambda r, c: (r, c) in {(1, 1), (5, 5), (3, 8)}, extra=[
        ("2s", x1 - 7, y1 - 6, 0.0), ("2s", x1 + 7, y1 + 6, 0.0),  # two tiles piled in one cell
        ("6z", x5, y5, 90.0),  # a tile turned sideways
        ("9s", x3 + 0.5 * LAYOUT_PITCH_MM[0], y3, 0.0),  # half-way out of the last column
    ])
    frame, _ = render_laid_out("kai", tiles, seed=9)
    rd = read_page(frame, 2)
    doubt = {(c.row, c.col): c.why for c in rd.cells if c.state == DOUBTFUL}
    bad = {(1, 1), (5, 5), (3, 8)}
    assert bad <= doubt.keys(), doubt
    # a blob that reaches a neighbour's tile (the mask closes gaps of a few mm) takes it along: never a crop
    assert all(any(r == br and abs(c - bc) <= 1 for br, bc in bad) for r, c in doubt), doubt
    assert doubt[(5, 5)] == "not one upright tile" and doubt[(3, 8)] in ("between two cells", "not one upright tile")
    assert not set(doubt) & set(rd.crops) and rd.count(FILLED) == 68 - len(doubt) and rd.count(EMPTY) == 0


@pytest.mark.parametrize("style", ["kai", "kai-green", "kai-violet"])
def test_the_page_is_told_from_the_frame(style):
    """Held-out styles the network never trained on: each page told from its frame, by a wide lead."""
    st = heldout_style(style) if style != "kai" else style
    clf = pipeline_classifier()
    for number in (1, 2, 3):
        frame, _ = render_page(st, number, seed=20 + number)
        rd = detect_page(frame, clf)
        assert rd.page.number == number, rd.scores
        assert rd.count(FILLED) == len(rd.cells)


def test_a_frame_that_is_no_page_is_a_clear_error():
    clf = pipeline_classifier()
    calib, _ = render_enrollment_layout("kai", seed=3)
    with pytest.raises(PageError, match="calibration layout"):
        detect_page(calib, clf)
    bare, _ = render_laid_out("kai", [], seed=3)
    with pytest.raises(PageError, match="found 0 tiles"):
        detect_page(bare, clf)
    with pytest.raises(ValueError, match="marker"):
        page_view(np.full_like(bare, 90))
    with pytest.raises(ValueError, match="no page 4"):
        page(4)
    with pytest.raises(ValueError, match="none of page 3"):
        render_page("fluffy", 3, labels={"1m"})


def test_the_cells_outline_where_the_tiles_lie_in_the_frame():
    frame, truth = render_page("kai", 1, seed=4)
    rd = read_page(frame, 1)
    lines = rd.outlines()
    assert len(lines) == 72 and {ln["state"] for ln in lines} == {FILLED}
    centres = np.array([np.mean(ln["poly"], axis=0) for ln in lines])
    tiles = np.array([o.poly_px.mean(axis=0) for o in truth.objects])
    near = np.min(np.linalg.norm(centres[:, None] - tiles[None], axis=2), axis=1)
    assert near.max() < 8, near.max()  # pixels of a 1920 x 1080 frame: each cell drawn on its tile


@pytest.fixture(scope="module")
def kai_whole() -> TileSet:
    return enroll_rendered_whole_set(pipeline_classifier(), "kai", seed=83_000)


def test_a_whole_set_enrollment_has_four_crops_of_every_face_and_passes_the_check(kai_whole):
    counts = dict(zip(kai_whole.labels, (int(n) for n in kai_whole.counts)))
    assert set(counts) == set(load_style("kai").labels)
    assert all(n == 4 for lab, n in counts.items() if lab != "j") and counts["j"] == 16, counts
    assert check_set(kai_whole, expected_faces()).ok
    assert check_set(kai_whole, expected_faces("red")).ok  # jokers and flowers enrolled too


def test_the_check_names_missing_faces_for_the_rule_set():
    assert set(expected_faces()) == {*(f"{n}{s}" for s in "mps" for n in range(1, 10)),
                                     *(f"{n}z" for n in range(1, 8)), "back"}
    assert "1z" not in expected_faces("sichuan-mpl2025") and "1f" in expected_faces("mcr")
    assert "j" in expected_faces("red") and "0m" not in expected_faces("riichi-ema2016")
    ts = TileSet(("1m", "2m", "back"), np.eye(3, 8, dtype=np.float32)[:, None, :].repeat(4, 1),
                 np.array([4, 4, 4]), match_level=0.97)
    chk = check_set(ts, expected_faces("sichuan-mpl2025"))
    assert chk.missing == tuple(f"{n}{s}" for s in "mps" for n in range(1, 10) if f"{n}{s}" not in ("1m", "2m"))
    assert chk.lines()[0].startswith("missing: 3m 4m") and len(chk.lines()) == 1
    assert chk.lines_ru()[0].startswith("нет костей: 3m 4m")


def test_faces_too_alike_or_confused_when_left_out_are_doubtful():
    protos = np.eye(4, 8, dtype=np.float32)
    c = 0.97 - DOUBT_MARGIN + 0.02  # 2m's prototype this alike to 1m's: past the reader's least margin
    protos[1] = c * protos[0] + np.sqrt(1 - c * c) * protos[1]
    ts = TileSet(("1m", "2m", "3m", "back"), protos[:, None, :].repeat(4, 1), np.array([4] * 4), match_level=0.97)
    pairs = doubtful_pairs(ts)
    assert [(d.a, d.b) for d in pairs] == [("1m", "2m")] and pairs[0].closeness == pytest.approx(c, abs=1e-4)
    far = replace(ts, prototypes=np.eye(4, 8, dtype=np.float32)[:, None, :].repeat(4, 1))
    assert doubtful_pairs(far) == []
    confused = doubtful_pairs(far, {("3m", "1m"): 2}, {"3m": 16, "1m": 16})
    assert confused == [Doubt("1m", "3m", 0.0, 2, 32)]
    assert "2 of 32 left-out reads" in confused[0].text()


def test_a_set_whose_two_faces_look_alike_is_doubtful_and_one_laid_right_is_not(kai_whole):
    """The left-out reads on real crops: kai passes; kai with 2m's crops laid in the 3m cells as well fails."""
    clf = pipeline_classifier()
    frame, _ = render_page("kai", 1, seed=31)
    ex = read_page(frame, 1).examples()
    good = check_set(kai_whole, ["1m"], clf, ex)
    assert good.doubtful == ()
    bad_ex = {**ex, "3m": ex["2m"][:2] + ex["3m"][:2]}
    from vision.enrollment import enroll

    bad = enroll(clf, bad_ex, seed=1)
    chk = check_set(bad, ["1m"], clf, bad_ex)
    assert any({d.a, d.b} == {"2m", "3m"} for d in chk.doubtful), chk.lines()


def test_the_table_reads_its_tiles_with_the_whole_set_it_enrolled(kai_whole):
    """The held-out style's table crops (cut by the pipeline, read a frame at a time as the table reads them) with
    the set enrolled from its whole-set pages: nearly every best guess right and no wrong face taken."""
    from vision.tile_eval import sure_score, table_crops
    from vision.tile_reader import SetReader

    s = sure_score(SetReader([kai_whole], classifier=pipeline_classifier()), table_crops("kai", 2, seed=84_000))
    assert s.n >= 90 and s.best >= 0.98 and s.wrong == 0 and s.answered >= 0.9, s
