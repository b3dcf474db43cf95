"""The referee's tile reader: two readers must agree on a face, else the tile is ``unknown`` (asked, never
guessed) — or ``none`` where the finder cut a "tile" out of bare cloth."""
from __future__ import annotations

import numpy as np

from controller.referee.camera import AgreeingReader, ConfidentReader, is_felt
from vision.tile_labels import CLASS_LABELS, NONE


class Fixed:
    """A reader that answers what it is told, one label per crop."""

    def __init__(self, labels, score=0.9):
        self.labels, self.score = labels, score

    def read(self, crops, allowed=None):
        from controller.referee.camera import _Reading

        return [_Reading(lab, self.score) for lab in self.labels[:len(crops)]]


def _face() -> np.ndarray:
    img = np.full((45, 34, 3), 235, np.uint8)
    img[10:35, 12:22] = (40, 40, 200)  # a symbol
    return img


def _felt(seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.clip(rng.normal((76, 150, 100), 8, (45, 34, 3)), 0, 255).astype(np.uint8)


def test_felt_and_faces():
    assert is_felt(_felt()) and not is_felt(_face())


def test_readers_that_agree_give_the_face_and_disagree_give_unknown_or_none():
    r = AgreeingReader(Fixed(["9s", "9s", "4s", "back", "3p"]), Fixed(["9s", "7s", "5z", "1m", "unknown"]))
    out = r.read([_face(), _face(), _felt(), _face(), _face()])
    assert [x.label for x in out] == ["9s", "unknown", NONE, "back", "unknown"]  # (not confirmed: not taken)
    # an unknown carries even class probabilities: no evidence for any face (vision's rules prior reads a
    # set from its other tiles); none is no tile
    p = out[1].probs
    assert p is not None and np.allclose(p[[CLASS_LABELS.index(x) for x in ("1m", "9s", "7z")]], p[0])
    assert p[CLASS_LABELS.index(NONE)] == 0.0 and abs(p.sum() - 1.0) < 1e-9
    assert out[2].probs[CLASS_LABELS.index(NONE)] == 1.0


def test_a_plain_matcher_is_held_to_its_minimum_score():
    out = ConfidentReader(Fixed(["3p", "3p"], score=0.5)).read([_face(), _face()])
    assert [x.label for x in out] == ["unknown", "unknown"] and out[0].probs is not None
    out = ConfidentReader(Fixed(["3p"], score=0.95)).read([_face()])
    assert [x.label for x in out] == ["3p"]
