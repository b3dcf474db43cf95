"""Vision III: a table learns its own tile set from its own camera, and the pipeline reads with it.

The held-out style (``kai``) is enrolled from rendered frames of the enrollment layout -- three crops per
face cut by the table's own pipeline -- and the table is then read without ever being given the art.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from tests.conftest import scaled
from vision.calibration import calibrate
from vision.conventions import conventions
from vision.pipeline import VisionPipeline
from vision.rules_prior import RulesPrior
from vision.scene_eval import rates
from vision.scene_render import render_enrollment_layout, render_scene
from vision.style_sets import enroll_rendered
from vision.tile_labels import CLASS_LABELS, NONE
from vision.tile_layout import read_table_layout
from vision.tile_reader import SetReader, pipeline_classifier
from vision.tile_render import load_style, render_none
from vision.tileset import FACE_H, FACE_W, TileSet, TileSetError


@pytest.fixture(scope="module")
def kai_table() -> TileSet:
    """kai enrolled as a table would: three rendered photos of the layout (seeds of this test only)."""
    return enroll_rendered(pipeline_classifier(), "kai", shots=3, seed=81_000)


@pytest.mark.parametrize("style", ["kai", "fluffy"])
def test_the_layout_frame_gives_every_face_under_its_label(style):
    """fluffy has no red fives, jokers or flowers: its rows 5 and 6 stay empty and nothing shifts."""
    frame, _ = render_enrollment_layout(style, seed=3)
    crops = read_table_layout(frame)
    assert set(crops) == set(load_style(style).labels)
    reader = SetReader([TileSet.load(f"vision/tilesets/{style}.npz")])
    labs = list(crops)
    got = [r.label for r in reader.read([crops[lab] for lab in labs])]
    assert np.mean([g == t for g, t in zip(got, labs)]) >= 0.95, [(g, t) for g, t in zip(got, labs) if g != t]
    for c in crops.values():  # cut as the pipeline cuts a tile: about 27 x 36 mm at 1.2 px/mm
        assert 26 <= c.shape[1] <= 40 and 38 <= c.shape[0] <= 50, c.shape


def test_a_layout_frame_without_markers_or_grid_is_a_clear_error():
    frame, _ = render_enrollment_layout("kai", seed=4)
    with pytest.raises(ValueError, match="marker"):
        read_table_layout(np.full_like(frame, 90))
    empty, _ = render_enrollment_layout("kai", seed=4, labels=set())
    with pytest.raises(ValueError, match="layout"):
        read_table_layout(empty)


def test_the_set_records_faces_colours_and_its_own_calibration(kai_table):
    st = load_style("kai")
    assert kai_table.faces is not None and kai_table.faces.shape == (len(kai_table.labels), FACE_H, FACE_W, 3)
    assert np.abs(np.subtract(kai_table.face_colour, st.face)).max() < 45, kai_table.face_colour
    assert np.abs(np.subtract(kai_table.back_colour, st.back)).max() < 45, kai_table.back_colour
    assert 0.9 < kai_table.match_level < 1.0 and kai_table.loo_accuracy >= 0.95
    assert 0.3 <= kai_table.threshold <= pipeline_classifier().fusion.threshold


def test_a_set_file_round_trips_and_bad_files_are_one_line(kai_table, tmp_path):
    p = tmp_path / "kai-table.npz"
    kai_table.save(p)
    back = TileSet.load(p)
    assert back.labels == kai_table.labels and np.array_equal(back.faces, kai_table.faces)
    assert (back.threshold, back.face_colour) == (pytest.approx(kai_table.threshold), kai_table.face_colour)
    (tmp_path / "empty.npz").write_bytes(b"")
    (tmp_path / "text.npz").write_text("not a tile set")
    np.savez(tmp_path / "nolabels.npz", x=np.zeros(3))
    np.savez(tmp_path / "zero.npz", labels=np.array([], str), prototypes=np.zeros((0, 4, 64)), counts=np.zeros(0),
             model_id=np.array(""), name=np.array(""))
    for name, why in [("empty.npz", "not a readable"), ("text.npz", "not a readable"),
                      ("nolabels.npz", "not a tile-set file"), ("zero.npz", "empty"), ("missing.npz", "not found")]:
        with pytest.raises(TileSetError, match=why) as e:
            TileSet.load(tmp_path / name)
        assert "\n" not in str(e.value)


def test_a_set_of_another_model_is_refused(kai_table):
    with pytest.raises(TileSetError, match="enroll it again"):
        SetReader([replace(kai_table, model_id="0123456789abcdef")])


def test_the_pipeline_reads_a_held_out_style_it_was_never_given(kai_table):
    """No art given: the reader knows kai only through the three enrolled layout photos."""
    from bench.bench_vision_scene import _scenes
    from vision.scene_eval import label_outcomes

    tot = {"tiles": [0, 0], "meld_source": [0, 0]}
    asked = wrong = 0
    n = scaled(1, 3)
    for k, profile in enumerate(["mcr", "riichi-ema2016", "sichuan-mpl2025", "red"][:scaled(2, 4)]):
        for sc in _scenes(profile, range(71_000, 71_000 + n), 0.9):
            frame, _ = render_scene(sc, seed=72_000 + k, style="kai")
            got = VisionPipeline(calibrate(frame), profile, tilesets=[kai_table], threads=1).process(frame, full=True).scene
            for name, (r, t) in rates(got, sc).items():
                if name in tot:
                    tot[name][0] += r
                    tot[name][1] += t
            _, a, w, _ = label_outcomes(got, sc)
            asked, wrong = asked + a, wrong + w
            prior = RulesPrior(profile)
            for v in got.seats:  # never an illegal meld
                for m in v.melds:
                    assert m.kind != "unknown" and prior.legal(m.kind, m.tiles), m
    right, total = tot["tiles"]
    # a tile the reader doubts is asked (vision IV: never sure and wrong), so: no wrong face, few questions
    assert total > 80 and wrong == 0 and right >= total - max(1, total // 20), (tot, asked, wrong)


def test_fusion_trusts_a_good_match_over_none_but_not_felt(kai_table):
    """A face that matches its enrolled prototype as closely as the set's own crops wins over the base
    model's ``none``; bare felt and tile slivers match no face and stay ``none``."""
    clf = pipeline_classifier()
    frame, _ = render_enrollment_layout("kai", seed=5)
    crops = read_table_layout(frame)
    faces = [crops[lab] for lab in ("1f", "5f", "3z", "j")]
    felt = [render_none(size=44, seed=s) for s in range(scaled(12, 60))]
    logits, _, emb = clf.run_prepared(clf.prepare(faces + felt))
    sure_none = np.full_like(logits, -8.0)
    sure_none[:, CLASS_LABELS.index(NONE)] = 8.0  # the base model is certain these are no tiles
    p = clf.probabilities(sure_none, emb, kai_table)
    got = [CLASS_LABELS[i] for i in p.argmax(1)]
    assert got[:4] == ["1f", "5f", "3z", "j"], got[:4]
    p_real = clf.probabilities(logits[4:], emb[4:], kai_table)
    assert np.mean(p_real.argmax(1) == CLASS_LABELS.index(NONE)) >= 0.85


def test_profiles_restrict_what_the_table_can_hold():
    assert conventions("sichuan-mpl2025")  # a known profile
    sichuan = RulesPrior("sichuan-mpl2025").faces
    assert "1z" not in sichuan and "1f" not in sichuan and "j" not in sichuan and "5m" in sichuan
    red = RulesPrior("red").faces
    assert "j" in red and "1f" in red
    mcr = RulesPrior("mcr").faces
    assert "1f" in mcr and "j" not in mcr and "7z" in mcr


def test_templates_come_from_the_sets_own_photos(kai_table):
    """The template reader a real table may use reads with the mean enrolled crops, never shipped art."""
    from vision.pipeline import make_reader
    from vision.tile_eval import table_crops

    reader = make_reader(reader="template", tilesets=[kai_table])
    assert reader.styles == () and set(reader.labels) == set(kai_table.labels)
    test = table_crops("kai", 1, seed=88_000)
    got = [r.label for r in reader.read(test.crops)]
    assert len(test.crops) > 30 and np.mean([g == t for g, t in zip(got, test.labels)]) >= 0.95


def _plain(colour, h: int = 43, w: int = 33, rim=(70, 70, 70)) -> np.ndarray:
    """A tile-sized crop of one colour with a darker rim (the tile's edge and the table showing round it)."""
    c = np.full((h, w, 3), rim, np.uint8)
    c[2:-2, 2:-2] = colour
    return c


def test_an_inkless_crop_of_the_face_colour_is_the_blank_white_dragon(kai_table):
    """The network has nothing to go by on a blank face and calls some "not a tile" (kai table crops:
    3 of 8 white dragons); the set knows its white dragon is blank and its face colour: such a crop is 5z.
    Felt, a back, an arm, a dark thing are other colours: the rule leaves them as the network reads them."""
    assert kai_table.blank_white_dragon()
    face, back = np.array(kai_table.face_colour), np.array(kai_table.back_colour)
    tinted = [np.clip(face + d, 0, 255) for d in ((6, -8, 4), (-10, 5, 2), (0, 0, 0), (12, 10, -4))]
    crops = [_plain(c) for c in tinted]
    crops[0] = np.clip(crops[0] + np.random.default_rng(0).normal(0, 2, crops[0].shape), 0, 255).astype(np.uint8)
    others = [_plain((60, 120, 40)), _plain(back), _plain((150, 170, 215)), _plain((35, 35, 35))]
    inked = _plain(face)
    inked[15:28, 10:22] = (40, 40, 160)  # a glyph: any other face has ink
    reader = SetReader([kai_table])
    assert list(kai_table.blank_faces(crops + others + [inked])) == [True] * 4 + [False] * 5
    got = reader.read(crops + others + [inked])
    assert [r.label for r in got[:4]] == ["5z"] * 4 and min(r.score for r in got[:4]) > 0.9
    unruled = SetReader([replace(kai_table, faces=None)]).read(others + [inked])  # the same set, no rule
    assert [r.label for r in got[4:]] == [r.label for r in unruled]
    res = pipeline_classifier().classify(crops, tileset=kai_table)  # a photo read by `tiles classify` too
    assert [r.label for r in res] == ["5z"] * 4


def test_the_blank_rule_is_off_where_the_set_cannot_tell(kai_table):
    # a framed white dragon (classic) has ink: the rule never applies
    classic = TileSet.load("vision/tilesets/classic.npz")
    assert not classic.blank_white_dragon()
    assert not classic.blank_faces([_plain(classic.face_colour)]).any()
    # a dark set whose backs are about its face colour: an inkless crop may be either
    dark = replace(kai_table, face_colour=(34, 35, 36), back_colour=(40, 42, 44),
                   faces=np.full_like(kai_table.faces, 34))
    assert dark.blank_white_dragon() and not dark.blank_faces([_plain((36, 36, 38))]).any()
    # a set enrolled without its white dragon, or an old file without faces
    assert not replace(kai_table, faces=None).blank_faces([_plain(kai_table.face_colour)]).any()


def test_the_white_dragons_of_a_held_out_table_are_read(kai_table):
    """kai's blank white dragons as the pipeline cuts them from a rendered table (the network alone calls
    the first frame's "not a tile" at 0.99)."""
    from vision.tile_eval import table_crops

    test = table_crops("kai", 1)
    white = [c for c, lab in zip(test.crops, test.labels) if lab == "5z"]
    got = [r.label for r in SetReader([kai_table]).read(white)]
    unruled = [r.label for r in SetReader([replace(kai_table, faces=None)]).read(white)]
    assert white, "no white dragon in the frame"
    assert got == ["5z"] * len(white), (got, unruled)
