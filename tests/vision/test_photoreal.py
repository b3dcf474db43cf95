"""The photoreal tile renderer (vision.train.photoreal) and the held-out photoreal sets."""
from __future__ import annotations

import numpy as np
import pytest

from vision.heldout_styles import PHOTOREAL, photoreal_crops, photoreal_style
from vision.tile_render import load_style
from vision.train.dataset import PHOTO_LOOK_SEED, RICH_SEED, photo_sets
from vision.train.photoreal import random_look, render_photo


def test_a_crop_is_deterministic_sized_and_turned():
    look = random_look(3)
    a = render_photo("classic", "3m", look=look, size=60, seed=7)
    b = render_photo("classic", "3m", look=look, size=60, seed=7)
    assert a.dtype == np.uint8 and a.ndim == 3 and a.shape[2] == 3
    assert max(a.shape[:2]) == 60 and a.shape[0] > a.shape[1]  # upright: a portrait crop
    assert np.array_equal(a, b)
    c = render_photo("classic", "3m", look=look, size=60, seed=8)
    assert not np.array_equal(a, c)
    side = render_photo("classic", "3m", look=look, size=60, seed=7, orientation=1)
    assert side.shape[1] > side.shape[0]  # a quarter turn lies the tile on its side


def test_a_face_shows_its_ink_and_a_back_has_none():
    look = random_look(11)
    face = render_photo("classic", "6z", look=look, size=72, seed=1, tight=True).astype(np.float32)
    back = render_photo("classic", "back", look=look, size=72, seed=1, tight=True).astype(np.float32)
    h, w = face.shape[:2]
    inner = (slice(h // 4, 3 * h // 4), slice(w // 4, 3 * w // 4))
    def spread(img: np.ndarray) -> float:  # spatial spread per channel, not the colour's
        return float(img[inner].reshape(-1, 3).std(axis=0).mean())

    assert spread(face) > 2 * spread(back)  # the green dragon's ink against a plain back
    assert spread(face) > 12


def test_a_set_keeps_its_look_and_two_sets_differ():
    a, b = random_look(1), random_look(2)
    assert a == random_look(1)
    assert a != b
    for look in (random_look(s) for s in range(40)):
        assert 0.3 <= look.back_share <= 0.6
        assert min(look.body) >= 150  # ivory, cream, white or a faint tint: never a dark body


def test_unknown_face_is_refused():
    with pytest.raises(ValueError, match="no face"):
        render_photo("fluffy", "1f", look=random_look(0), size=40, seed=0)


def test_held_out_photoreal_sets_are_never_training_sets():
    train = photo_sets(("r0", "r1"), ("rich0",))
    train_looks = {look for _, look, _ in train}
    assert train_looks.isdisjoint({look for _, look in PHOTOREAL.values()})
    assert all(PHOTO_LOOK_SEED <= look < PHOTO_LOOK_SEED + 100 for look in train_looks)
    rich_held = [int(src.removeprefix("rich:")) for src, _ in PHOTOREAL.values() if src.startswith("rich:")]
    assert rich_held and min(rich_held) >= RICH_SEED + 1000  # far past any rich training style's seed
    assert any(src == "kai" for src, _ in PHOTOREAL.values())


def test_held_out_photoreal_crops_have_their_labels(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    data = photoreal_crops("photo-kai-green", 1, seed=5, rotate=False)
    style = photoreal_style("photo-kai-green")
    assert data.labels == list(load_style(style).labels)
    assert len(data.crops) == len(data.labels) and all(k == 0 for k in data.orientations)
    again = photoreal_crops("photo-kai-green", 1, seed=5, rotate=False)
    assert all(np.array_equal(x, y) for x, y in zip(data.crops, again.crops))
    with pytest.raises(KeyError):
        photoreal_style("photo-nonesuch")


def test_a_crop_without_a_tile_never_has_one_over_its_centre():
    """The photo-like `none` crops (felt, a sliver at an edge, the gap of a row) leave the crop's centre
    bare: no tile footprint covers it, and a sliver shows under half a tile."""
    from vision.train.photoreal import TILE_ASPECT, _no_tile_places

    th, cw, ch = 100, 84, 110
    tw = th * TILE_ASPECT
    kinds = set()
    for seed in range(300):
        rng = np.random.default_rng(seed)
        places = _no_tile_places(rng, cw / 2, ch / 2, th, tw + 3, cw, ch)
        kinds.add(len(places))
        for x, y in places:
            assert abs(x - cw / 2) >= tw / 2 or abs(y - ch / 2) >= th / 2  # the centre is not under it
            inside_x = max(0.0, min(cw, x + tw / 2) - max(0.0, x - tw / 2)) / tw
            inside_y = max(0.0, min(ch, y + th / 2) - max(0.0, y - th / 2)) / th
            assert inside_x * inside_y <= 0.6  # at most part of a tile (a gap shows two halves)
    assert kinds >= {0, 1, 2}


def test_a_crop_without_a_tile_is_exposed_as_the_table_is():
    """Bare felt is exposed for the tiles around it, as a camera exposing the whole table does: darker than
    a tile's top under the same lamps, never stretched to white."""
    look = random_look(70_000)
    felt = [render_photo("classic", "none", look=look, size=60, seed=s).astype(np.float32) for s in range(40)]
    tile = [render_photo("classic", "5z", look=look, size=60, seed=s, tight=True).astype(np.float32)
            for s in range(10)]
    bare = [c for c in felt if c.std() < 12]  # crops of felt alone
    assert bare
    assert max(float(c.mean()) for c in bare) < 0.8 * np.mean([float(np.percentile(t, 90)) for t in tile])
    assert np.array_equal(felt[3], render_photo("classic", "none", look=look, size=60, seed=3))


def test_the_photoreal_cache_has_none_crops_of_no_style():
    from vision.tile_labels import CLASS_LABELS, NONE
    from vision.train.dataset import NONE_STYLE, build_photo

    data = build_photo([("classic", PHOTO_LOOK_SEED, 40)], 1, 0, False, 1, n_none=3)
    none = data["y"] == CLASS_LABELS.index(NONE)
    assert int(none.sum()) == 3 and bool(np.all(data["style"][none] == NONE_STYLE))
    assert int((data["style"] == 40).sum()) == len(load_style("classic").labels)
