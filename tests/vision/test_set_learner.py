"""Vision IV: the table learns its set while it plays (vision.set_learner): confirmed crops join the set's
prototypes, bounded per face, oldest out, withdrawn on a correction, persisted beside the set file."""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from vision.set_learner import SetLearner
from vision.style_sets import style_tileset
from vision.tile_eval import table_crops
from vision.tile_labels import CLASS_LABELS
from vision.tile_reader import pipeline_classifier
from vision.tileset import TileSetError


@pytest.fixture(scope="module")
def crops():
    return table_crops("kai", 2, seed=84_000)


def _emb(v: float, d: int = 64) -> np.ndarray:
    e = np.zeros((4, d), np.float32)
    e[:, 0] = v
    e[:, 1] = 1.0
    return e / np.linalg.norm(e, axis=1, keepdims=True)


def test_bounded_per_face_oldest_out_and_withdrawn():
    base = style_tileset("classic")
    lr = SetLearner(base, per_face=3)
    for i in range(5):
        lr.add(f"k{i}", "3m", hand=f"h{i}", embedding=_emb(float(i)))
    assert lr.counts() == {"3m": 3} and lr.hands == 3  # k0, k1 went out
    assert lr.withdraw("k4") and not lr.withdraw("k0") and lr.counts() == {"3m": 2}
    ts = lr.tileset()
    i = ts.labels.index("3m")
    assert ts.prototypes.shape[1] == base.prototypes.shape[1] + 4 and ts.counts[i] == base.counts[i] + 2
    assert np.allclose(ts.prototypes[:, :base.prototypes.shape[1]], base.prototypes)  # the enrolled ones stay
    with pytest.raises(ValueError):
        lr.add("x", "9z", embedding=_emb(1.0))  # not a face
    lr.withdraw("k2")
    lr.withdraw("k3")
    assert lr.tileset() is base


def test_saved_beside_the_set_and_loaded_back(tmp_path):
    base = style_tileset("classic")
    lr = SetLearner(base)
    lr.add("h1/pond0/3", "7p", hand="h1", embedding=_emb(0.3))
    lr.add("h2/pond1/0", "7p", hand="h2", embedding=_emb(0.5))
    path = tmp_path / "table.learned.npz"
    lr.save(path)
    back = SetLearner.load(path, base)
    assert back.counts() == {"7p": 2} and back.hands == 2
    assert np.allclose(back.tileset().prototypes, lr.tileset().prototypes)
    assert SetLearner.load(tmp_path / "none-yet.npz", base).counts() == {}
    with pytest.raises(TileSetError, match="another model"):
        SetLearner.load(path, replace(base, model_id="0123456789abcdef"))
    (tmp_path / "bad.npz").write_bytes(b"not a file")
    with pytest.raises(TileSetError, match="not readable"):
        SetLearner.load(tmp_path / "bad.npz", base)


def test_learned_crops_bring_the_face_closer_to_the_tables_own_look(crops):
    """kai's tiles read against kai-unlike prototypes (classic's set): a few confirmed kai crops of a face make
    other kai crops of that face (another frame) nearer to it."""
    clf = pipeline_classifier()
    base = style_tileset("classic")
    lr = SetLearner(base, clf)
    half = len(crops.crops) // 2
    face = next(lab for lab in crops.labels[:half] if lab in crops.labels[half:] and lab in base.labels)
    for i in range(half):
        if crops.labels[i] == face:
            lr.add(f"a{i}", face, crops.crops[i], hand="h1")
    test = [c for c, lab in zip(crops.crops[half:], crops.labels[half:]) if lab == face]
    col = CLASS_LABELS.index(face)
    emb = clf.embed(test)
    before = base.similarities(emb)[:, col]
    after = lr.tileset().similarities(emb)[:, col]
    assert (after > before + 0.02).all(), (before, after)
