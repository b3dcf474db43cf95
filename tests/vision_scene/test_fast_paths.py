"""The fast paths of the full-frame read give what the plain computations give: zone views rectified
straight into the owner's view, blobs from contours, histogram medians, the one-GEMM template scores,
and the pipeline on two threads."""
import cv2
import numpy as np
import pytest

from tests.vision_scene.helpers import feature_scene, parse_frame, parse_top
from vision.calibration import Rectifier, calibrate
from vision.pipeline import VisionPipeline
from vision.scene_eval import structure
from vision.scene_render import render_scene
from vision.tile_finder import (
    MARGIN_PX,
    _blobs,
    foreground,
    median_u8,
    quarter_turns,
    zone_image,
    zone_slice,
)
from vision.tile_match import SHIFTS, TEMPLATE_H, TEMPLATE_W, TemplateReader, _padded_batch, _Product
from vision.zones import table_zones


@pytest.fixture(scope="module")
def frame():
    img, _ = render_scene(feature_scene("riichi-ema2016"), seed=515, style="classic")
    return img


def test_zone_views_equal_turned_slices_of_the_rectified_table(frame):
    rect = Rectifier(calibrate(frame))
    top = rect.rectify(frame)
    for z in table_zones():
        m1, m2 = rect.block_maps(*zone_slice(z, 1.2, margin_px=MARGIN_PX), quarter_turns(z))
        view = cv2.remap(frame, m1, m2, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
        assert np.array_equal(view, zone_image(top, z, 1.2).image), z.name
    m1, _ = rect.block_maps(slice(-7, 20), slice(1070, 1090))  # past the table's edges: still mapped
    assert m1.shape[:2] == (27, 20)


def test_blobs_are_the_connected_components(frame):
    top = Rectifier(calibrate(frame)).rectify(frame)
    min_area = 150
    for z in table_zones():
        zi = zone_image(top, z, 1.2)
        mask = foreground(zi)
        n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
        big = [i for i in range(1, n) if stats[i][4] >= min_area]
        got = list(_blobs(mask, min_area))
        assert len(got) == len(big), z.name
        for x, y, w, h, sub in got:
            ys, xs = np.nonzero(sub)
            lab = labels[y + ys[0], x + xs[0]]
            assert lab in big and tuple(int(v) for v in stats[lab][:4]) == (x, y, w, h)
            assert np.array_equal(sub.astype(bool), labels[y:y + h, x:x + w] == lab)


def test_histogram_median_is_numpy_median():
    rng = np.random.default_rng(3)
    for n in (1, 2, 7, 300, 1001):
        px = rng.integers(0, 256, (n, 3)).astype(np.uint8)
        assert np.array_equal(median_u8(px), np.median(px, axis=0).astype(np.float32))


def test_template_scores_are_the_normalised_weighted_correlation():
    """Each shifted window centred, weighted, centred again and normalised, dotted with the bank rows."""
    reader = TemplateReader(["classic"])
    rng = np.random.default_rng(4)
    crops = [rng.integers(0, 256, (int(rng.integers(38, 48)), int(rng.integers(28, 36)), 3)).astype(np.uint8)
             for _ in range(5)]
    a = _padded_batch(crops)
    got = reader._scores(a)
    for i in range(len(crops)):
        for s, (dx, dy) in enumerate(SHIFTS):
            x = a[i, 1 + dy:1 + dy + TEMPLATE_H, 1 + dx:1 + dx + TEMPLATE_W].reshape(-1).astype(np.float64)
            v = (x - x.mean()) * reader.weight
            v -= v.mean()
            v /= np.linalg.norm(v)
            np.testing.assert_allclose(got[i, s], reader.bank @ v, atol=2e-4)


def test_correlations_match_numpy():
    """The hand-written ONNX model: valid correlations of padded crops with kernels, and of their squares."""
    rng = np.random.default_rng(5)
    k = rng.standard_normal((5, 3, TEMPLATE_H, TEMPLATE_W)).astype(np.float32)
    k2 = rng.random((1, 3, TEMPLATE_H, TEMPLATE_W)).astype(np.float32)
    x = rng.standard_normal((4, 3, TEMPLATE_H + 2, TEMPLATE_W + 2)).astype(np.float32)
    g, sq = _Product(k, k2)(x)
    assert g.shape == (4, 5, 3, 3) and sq.shape == (4, 1, 3, 3)
    for i in range(3):
        for j in range(3):
            win = x[:, :, i:i + TEMPLATE_H, j:j + TEMPLATE_W]
            np.testing.assert_allclose(g[:, :, i, j], np.einsum("nchw,mchw->nm", win, k), rtol=1e-4, atol=1e-3)
            np.testing.assert_allclose(sq[:, 0, i, j], np.einsum("nchw,chw->n", win * win, k2[0]), rtol=1e-4)


def test_two_threads_read_what_one_thread_reads(frame):
    cal = calibrate(frame)
    one = VisionPipeline(cal, "riichi-ema2016", ["classic"], threads=1)
    two = VisionPipeline(cal, "riichi-ema2016", ["classic"], threads=2)
    try:
        for t in range(3):
            a, b = one.process(frame, t_mono=t / 10, t_wall=0.0), two.process(frame, t_mono=t / 10, t_wall=0.0)
            assert a.scene == b.scene and a.events == b.events and a.read == b.read
        assert structure(a.scene) == structure(feature_scene("riichi-ema2016"))
    finally:
        two.close()
    assert two.process(frame, full=True).scene == a.scene  # closed: on the caller's thread


def test_pipeline_reads_what_the_plain_parser_reads(frame):
    """Zone views rectified straight from the frame, zones found and read on one thread = the rectified
    table image cut into zones and parsed."""
    scene, info = parse_frame(frame, "riichi-ema2016", "classic")
    plain, plain_info = parse_top(frame, "riichi-ema2016", "classic")
    assert scene == plain and info.labels == plain_info.labels
    assert {n: [(f.box, f.turns, f.layer, f.shape) for f in fs] for n, fs in info.found.items()} == \
        {n: [(f.box, f.turns, f.layer, f.shape) for f in fs] for n, fs in plain_info.found.items()}
