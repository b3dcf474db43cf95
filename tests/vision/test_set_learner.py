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
    lr = SetLearner(base, clf, novel=None)  # every confirmed crop kept
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


def test_a_crop_the_enrolled_set_already_reads_well_is_not_kept():
    """The learned prototype is the mean of the looks the enrollment missed: a confirmed crop its face's enrolled
    prototypes match about as well as the set's own crops (classic's tiles, classic's set) teaches nothing."""
    clf = pipeline_classifier()
    own = table_crops("classic", 1, seed=84_500)
    lr = SetLearner(style_tileset("classic"), clf)
    kept = [lr.add(f"k{i}", lab, c, hand="h1") for i, (c, lab) in enumerate(zip(own.crops, own.labels))]
    assert sum(kept) <= 0.2 * len(kept) and sum(lr.counts().values()) == sum(kept)
    assert lr.tileset() is lr.base or sum(kept) > 0


def test_a_face_asked_at_first_is_not_asked_once_the_judge_has_answered_it():
    """kai with its 1s drawn as a peacock on the table's copies (vision.heldout_styles kai-redrawn) and the set
    enrolled from kai's own layout (the bamboo): every peacock is asked, never misread; learning from the
    judge's answers and the signed record, the table stops asking after the first hand."""
    from vision.heldout_styles import heldout_style
    from vision.style_sets import enroll_rendered
    from vision.tile_eval import learning_curve, table_crops

    clf = pipeline_classifier()
    kai = enroll_rendered(clf, "kai", shots=3, seed=82_000)
    data = table_crops(heldout_style("kai-redrawn"), 1, seed=87_000, labels=("1s",) * 24 + ("2s", "9m") * 6)
    data.crops, data.labels = [c for c, lab in zip(data.crops, data.labels) if lab == "1s"], ["1s"] * 24
    learned = learning_curve(clf, "kai", 4, per_hand=6, data=data, tileset=kai)
    plain = learning_curve(clf, "kai", 4, per_hand=6, data=data, tileset=kai, learn=False)
    assert [h.misreads for h in learned + plain] == [0] * 8
    assert sum(h.questions for h in plain) >= 20  # the peacock is not the enrolled 1s
    assert learned[0].questions >= 4 and sum(h.questions for h in learned[1:]) <= 1, learned
