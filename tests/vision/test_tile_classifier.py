"""The shipped tile model: it loads, reads rendered tiles of the trained styles, orientation, none, API."""
from __future__ import annotations

import numpy as np
import pytest

from tests.conftest import scaled
from vision.tile_classifier import MODEL_PATH, Result
from vision.tile_eval import render_set, score
from vision.tile_labels import CLASS_LABELS, NONE, UNKNOWN
from vision.tile_render import render_none, render_tile


def test_shipped_model_is_small_and_describes_itself(classifier):
    assert MODEL_PATH.stat().st_size <= 5_000_000
    assert classifier.classes == CLASS_LABELS
    assert 0.0 < classifier.threshold < 1.0 and classifier.temperature > 0
    assert "kai" in classifier.meta["held_out_styles"]
    assert "kai" not in classifier.meta["train_styles"]


@pytest.mark.parametrize("style", ["fluffy", "fluffy_black", "classic"])
def test_trained_styles_are_read_accurately(classifier, style):
    data = render_set(style, scaled(2, 20), seed=123_456_789)
    s = score(classifier, data)
    # regression guard (bench: 99.8-99.95 % per style with four turns, docs/vision-model.md)
    assert s.accuracy >= scaled(0.97, 0.99), s
    assert s.orientation_accuracy >= 0.95, s


def test_not_a_tile_is_none(classifier):
    crops = [render_none(size=56, seed=1000 + i) for i in range(scaled(40, 400))]
    res = classifier.classify(crops)
    assert np.mean([r.best == NONE for r in res]) >= 0.9


def test_orientation_of_an_asymmetric_face(classifier):
    crops = [render_tile("classic", "7m", orientation=k, size=64, seed=40 + k) for k in range(4)]
    assert [r.orientation for r in classifier.classify(crops)] == [0, 1, 2, 3]


def test_batch_equals_single_and_results_are_well_formed(classifier):
    crops = [render_tile("fluffy", lab, size=60, seed=i) for i, lab in enumerate(["1m", "9p", "6z", "0s", "back"])]
    batch = classifier.classify(crops)
    single = [classifier.classify([c])[0] for c in crops]
    for b, s in zip(batch, single):
        assert isinstance(b, Result)
        assert b.best == s.best and b.orientation == s.orientation
        assert abs(b.confidence - s.confidence) < 1e-4
        assert 0.0 <= b.confidence <= 1.0 and b.orientation in range(4)
        assert b.label in (b.best, UNKNOWN)
    assert [b.best for b in batch] == ["1m", "9p", "6z", "0s", "back"]
    assert classifier.classify([]) == []


def test_grey_and_bgra_and_odd_sized_crops_are_accepted(classifier):
    crop = render_tile("classic", "2z", size=200, seed=5)
    grey = crop.mean(axis=2).astype(np.uint8)
    bgra = np.dstack([crop, np.full(crop.shape[:2], 255, np.uint8)])
    res = classifier.classify([crop, bgra, grey, crop[:, :3]])
    assert res[0].best == "2z" and res[1].best == "2z"
    assert all(0 <= r.confidence <= 1 for r in res)


def test_low_confidence_reads_as_unknown(classifier):
    n = len(CLASS_LABELS)
    flat = np.zeros((1, n), np.float32)  # no preference: confidence 1/n
    sure = np.full((1, n), -10.0, np.float32)
    sure[0, CLASS_LABELS.index("3s")] = 16.0
    orient = np.array([[0.0, 3.0, 0.0, 0.0]], np.float32)
    emb = np.zeros((1, 64), np.float32)
    low = classifier.results(flat, orient, emb)[0]
    high = classifier.results(sure, orient, emb)[0]
    assert low.label == UNKNOWN and low.confidence < classifier.threshold
    assert high.label == "3s" and high.confidence >= classifier.threshold and high.orientation == 1


def test_test_time_turns_average_the_four_quarter_turns(classifier):
    crops = [render_tile("classic", lab, orientation=k, size=52, seed=70 + k)
             for k, lab in enumerate(["3m", "7s", "2z", "1f"])]
    x = classifier.prepare(crops)
    passes = [classifier.run_prepared(np.ascontiguousarray(np.rot90(x, k, axes=(1, 2)))) for k in range(4)]
    p = np.mean([classifier.probabilities(lg, e) for lg, _, e in passes], axis=0)
    four = classifier.classify(crops, turns=4)
    assert [r.best for r in four] == [CLASS_LABELS[i] for i in p.argmax(1)]
    assert np.allclose([r.confidence for r in four], p.max(1), atol=1e-5)
    assert [r.orientation for r in four] == [r.orientation for r in classifier.results(*passes[0])]
    one = classifier.classify(crops, turns=1)
    assert [(r.best, round(r.confidence, 5)) for r in one] == [
        (r.best, round(r.confidence, 5)) for r in classifier.results(*passes[0])]


def test_onnxruntime_is_told_to_send_no_telemetry():
    """onnxruntime's telemetry (a DNS query to Microsoft's collector from a running table) is off before it starts:
    ORT_DISABLE_TELEMETRY in the process that imports our vision modules, even where the environment has none."""
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "ORT_DISABLE_TELEMETRY"}
    code = ("import os, vision.tile_classifier, vision.tile_match, onnxruntime; "
            "print(os.environ.get('ORT_DISABLE_TELEMETRY'))")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "1"
