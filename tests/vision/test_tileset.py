"""Tile-set enrollment: the held-out style is learned from a few examples; files round-trip; merging."""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from tests.conftest import scaled
from vision.enrollment import MIN_THRESHOLD, _lowest_safe, enroll
from vision.tile_eval import enroll_style, render_set, score
from vision.tile_render import render_tile
from vision.tileset import ROTATION_PROTOTYPES, TileSet, TileSetError, scan_folder


@pytest.fixture(scope="module")
def kai3(classifier) -> TileSet:
    return enroll_style(classifier, "kai", 3)


def test_enrolled_held_out_style_beats_the_base_model(classifier, kai3):
    test = render_set("kai", scaled(2, 20), seed=987_654_321)
    base, enrolled = score(classifier, test), score(classifier, test, kai3)
    # regression guards for a style the network never saw (make bench / docs: base ~0.88, 3 shots ~0.99)
    assert base.accuracy >= scaled(0.75, 0.8), base
    assert enrolled.accuracy >= scaled(0.9, 0.96), enrolled
    assert enrolled.accuracy >= base.accuracy + 0.05, (base, enrolled)
    assert enrolled.accepted_accuracy >= 0.95, enrolled


def test_a_photo_read_in_four_turns_has_its_own_threshold(classifier, kai3):
    # the one-read threshold (the pipeline's) stays the model's for a set this sure of its own crops; a
    # photo averaged over four turns is less confident when right, and its threshold, calibrated on
    # camera copies of the enrolled crops, lets more answers through -- still right
    assert MIN_THRESHOLD <= kai3.turns_threshold < kai3.threshold <= classifier.fusion.threshold
    assert kai3.threshold_for(1) == kai3.threshold and kai3.threshold_for(4) == kai3.turns_threshold
    test = render_set("kai", scaled(3, 20), seed=987_654_321)
    photo = score(classifier, test, kai3)
    one_read_threshold = score(classifier, test, replace(kai3, turns_threshold=0.0))
    assert photo.coverage >= one_read_threshold.coverage + scaled(0.03, 0.05), (photo, one_read_threshold)
    assert photo.accepted_accuracy >= 0.99, photo


def test_the_photo_threshold_needs_enough_reads_and_no_error_at_the_top():
    rng = np.random.default_rng(0)
    conf = np.sort(rng.uniform(0.6, 1.0, 1000))[::-1]
    right = np.ones(1000, bool)
    assert _lowest_safe(conf, right, 0.93) == pytest.approx(conf[-1])  # all right: the lowest one
    assert _lowest_safe(conf[:100], right[:100], 0.93) == 0.93  # 100 right reads cannot show 0.2 %
    wrong_top = right.copy()
    wrong_top[:3] = False
    assert _lowest_safe(conf, wrong_top, 0.93) == 0.93  # wrong where it is surest: the model's
    low = np.sort(rng.uniform(0.1, 0.4, 1000))[::-1]
    assert _lowest_safe(low, right, 0.93) == MIN_THRESHOLD  # never an answer less likely than not
    one_wrong = right.copy()
    one_wrong[700] = False  # one error in 1000 is within 0.2 % (counting one more) only with all of them
    assert _lowest_safe(conf, one_wrong, 0.93) == pytest.approx(conf[-1])


def test_each_quarter_turn_has_its_own_prototype(classifier, kai3):
    assert kai3.prototypes.shape[1] == ROTATION_PROTOTYPES
    labels = ["3m", "7p", "2z", "7f", "j", "6s"]
    crops, turns = [], []
    for i, lab in enumerate(labels):
        for k in range(4):
            crops.append(render_tile("kai", lab, orientation=k, size=64, seed=4_000 + 4 * i + k))
            turns.append(k)
    emb = classifier.embed(crops)
    own = np.stack([kai3.prototypes[kai3.labels.index(lab)] for lab in labels for _ in range(4)])
    nearest = np.einsum("nd,nmd->nm", emb, own).argmax(1)
    # a crop turned k quarter turns is nearest its class's k-th prototype (or the half-turn twin)
    assert np.mean(nearest % 2 == np.array(turns) % 2) >= 0.9, nearest


def test_tileset_file_round_trip(classifier, kai3, tmp_path):
    path = tmp_path / "kai.set"  # any file name works
    kai3.save(path)
    back = TileSet.load(path)
    assert back.labels == kai3.labels and back.model_id == classifier.model_id
    assert np.array_equal(back.prototypes, kai3.prototypes) and np.array_equal(back.counts, kai3.counts)
    assert list(back.counts) == [3] * len(back.labels)
    crops = [render_tile("kai", lab, size=64, seed=77 + i, orientation=i % 4) for i, lab in enumerate(["2m", "5z", "j"])]
    a = classifier.classify(crops, tileset=kai3)
    b = classifier.classify(crops, tileset=back)
    assert [(r.label, r.confidence) for r in a] == [(r.label, r.confidence) for r in b]
    assert (back.threshold, back.turns_threshold) == pytest.approx((kai3.threshold, kai3.turns_threshold))


def test_a_file_with_a_threshold_out_of_range_is_refused(kai3, tmp_path):
    path = tmp_path / "bad.npz"
    replace(kai3, turns_threshold=7.0).save(path)
    with pytest.raises(TileSetError, match="thresholds out of range"):
        TileSet.load(path)


def test_two_sets_merge_and_each_is_still_read(classifier, kai3):
    labels = ["2m", "6p", "3s", "6z", "9m"]
    classic = enroll(classifier, {lab: [render_tile("classic", lab, size=64, seed=900 + i)] for i, lab in enumerate(labels)})
    both = TileSet.merge([kai3, classic])
    assert set(both.labels) == set(kai3.labels) | set(classic.labels)
    assert both.prototypes.shape[1] == 2 * kai3.prototypes.shape[1] == 2 * ROTATION_PROTOTYPES
    crops = [render_tile(st, lab, size=64, seed=5 + i) for st in ("kai", "classic") for i, lab in enumerate(labels)]
    got = [r.best for r in classifier.classify(crops, tileset=both)]
    assert got[5:] == labels  # the trained style, through its own prototypes
    assert both.turns_threshold == 0.0  # the one-crop set has no calibration of its own: the model's
    assert sum(g == t for g, t in zip(got[:5], labels)) >= 4  # the held-out style, through its own


def test_enroll_rejects_unknown_labels(classifier):
    with pytest.raises(ValueError, match="9z"):
        enroll(classifier, {"9z": [np.zeros((40, 30, 3), np.uint8)]})


def test_scan_folder_reads_both_layouts_and_names_bad_labels(tmp_path):
    (tmp_path / "1m").mkdir()
    (tmp_path / "1m" / "a.png").write_bytes(b"x")
    (tmp_path / "0p_left.jpg").write_bytes(b"x")
    (tmp_path / "notes.txt").write_text("ignored")
    found = scan_folder(tmp_path)
    assert sorted(found) == ["0p", "1m"]
    (tmp_path / "10m_x.png").write_bytes(b"x")
    with pytest.raises(ValueError, match="10m"):
        scan_folder(tmp_path)
