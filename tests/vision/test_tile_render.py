"""The tile renderer: styles, determinism, orientation, sizes."""
from __future__ import annotations

import numpy as np
import pytest

from tests.conftest import scaled
from vision.tile_labels import BACK, FACE_LABELS
from vision.tile_render import (
    available_styles,
    face_image,
    load_style,
    random_back_colour,
    random_face_colour,
    render_none,
    render_tile,
)


def test_at_least_three_styles_and_full_procedural_sets():
    styles = available_styles()
    assert {"fluffy", "classic", "kai"} <= set(styles)
    for name in ("classic", "kai"):
        assert set(load_style(name).labels) == set(FACE_LABELS) | {BACK}
    fluffy = load_style("fluffy").labels
    assert "1m" in fluffy and "0p" in fluffy and "7z" in fluffy and "1f" not in fluffy


def test_same_seed_same_crop_other_seed_other_crop():
    a = render_tile("classic", "3m", seed=11, size=56)
    b = render_tile("classic", "3m", seed=11, size=56)
    c = render_tile("classic", "3m", seed=12, size=56)
    assert np.array_equal(a, b)
    assert a.shape != c.shape or not np.array_equal(a, c)


@pytest.mark.parametrize("k", [0, 1, 2, 3])
def test_orientation_turns_the_clean_render(k):
    up = render_tile("kai", "7z", orientation=0, size=64, seed=3, augment=False)
    turned = render_tile("kai", "7z", orientation=k, size=64, seed=3, augment=False)
    assert turned.shape[:2] == np.rot90(up, k).shape[:2]
    diff = np.abs(turned.astype(int) - np.rot90(up, k).astype(int)).mean()
    assert diff < 3.0
    if k % 2:
        assert turned.shape[1] > turned.shape[0]  # sideways tiles are landscape crops


def test_long_side_is_the_requested_size():
    for size in (32, 48, 96):
        img = render_tile("fluffy", "5p", size=size, seed=size)
        assert max(img.shape[:2]) == size and img.dtype == np.uint8 and img.shape[2] == 3
        assert max(render_none(size=size, seed=size).shape[:2]) == size


def test_face_image_is_bgra_with_rounded_corners():
    img = face_image("classic", "5z", 120)
    assert img.shape == (120, 90, 4)
    assert img[0, 0, 3] < 50 and img[60, 45, 3] == 255


def test_unknown_face_or_style_is_an_error():
    with pytest.raises(ValueError):
        render_tile("fluffy", "1f")
    with pytest.raises(ValueError):
        load_style("no-such-style")


def test_a_back_never_looks_like_its_face():
    # fluffy_black's own back colour is nearly its face colour; a rendered back must still differ
    st = load_style("fluffy_black")
    for seed in range(scaled(12, 60)):
        crop = render_tile(st, BACK, size=64, seed=seed)
        h, w = crop.shape[:2]
        centre = crop[h // 3:2 * h // 3, w // 3:2 * w // 3].reshape(-1, 3).mean(0)
        face = render_tile(st, "5z", size=64, seed=seed)[h // 3:2 * h // 3, w // 3:2 * w // 3].reshape(-1, 3).mean(0)
        assert np.abs(centre - face).sum() > 25, (seed, centre, face)


def _hsv(bgr):
    import cv2

    h, s, v = cv2.cvtColor(np.uint8([[bgr]]), cv2.COLOR_BGR2HSV)[0, 0]
    return s / 255.0, v / 255.0


def test_random_faces_are_light_and_random_backs_clear_colours():
    # a blank white dragon is the face colour; a back must never be a colour a face can have
    rng = np.random.default_rng(5)
    for _ in range(scaled(200, 2000)):
        s, v = _hsv(random_face_colour(rng))
        assert s <= 0.15 and v >= 0.74
        s, v = _hsv(random_back_colour(rng))
        assert s >= 0.49 and v >= 0.49


def test_a_style_can_be_loaded_from_a_folder(tmp_path):
    import json

    import cv2

    folder = tmp_path / "mystyle"
    folder.mkdir()
    glyph = np.zeros((128, 96, 4), np.uint8)
    glyph[40:90, 30:66] = (0, 0, 200, 255)
    cv2.imwrite(str(folder / "7z.png"), glyph)
    (folder / "style.json").write_text(json.dumps({"face": [240, 240, 230], "back": [20, 90, 160],
                                                   "side": [20, 90, 160], "radius": 0.1, "labels": ["7z"]}))
    st = load_style(str(folder))
    assert st.name == str(folder) and st.labels == ("7z", BACK)
    assert render_tile(str(folder), "7z", size=48, seed=1).shape[2] == 3


def test_tight_crops_are_cut_like_the_pipeline_cuts_tiles():
    """``tight``: the tile's own box (tile aspect, hardly any table), deterministic, with camera effects."""
    from vision.train.dataset import _render_job

    a = render_tile("classic", "7p", size=48, seed=11, tight=True)
    assert np.array_equal(a, render_tile("classic", "7p", size=48, seed=11, tight=True))
    aspects = [c.shape[1] / c.shape[0] for c in (render_tile("classic", "3m", size=48, seed=s, tight=True)
                                                 for s in range(12))]
    assert all(0.68 <= r <= 0.82 for r in aspects), aspects
    loose = [c.shape[1] / c.shape[0] for c in (render_tile("classic", "3m", size=48, seed=s) for s in range(12))]
    assert np.mean(loose) > np.mean(aspects) + 0.02  # the usual crops keep some table at the sides
    imgs, orients = _render_job(("classic", "5s", 900, 4, False, 32, 1.0))
    assert imgs.shape == (4, 32, 32, 3) and list(orients) == [0, 0, 0, 0]
