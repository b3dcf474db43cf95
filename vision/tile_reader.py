"""The table pipeline's tile reader: vision I's classifier with the table's own enrolled tile set(s).

    reader = SetReader([TileSet.load("table3.npz")])          # the default reader of the pipeline
    readings = reader.read(crops, allowed)                     # one Reading per upright crop

Each crop the tile finder cut (upright or upside-down in its owner's view) is read once by the network;
the class probabilities are combined with the set's prototypes (:meth:`TileClassifier.probabilities`),
restricted to the labels the zone allows (no face-down tile in a pond, only flowers among the flowers) and
renormalised. A :class:`~vision.tile_match.Reading` carries the label, its probability, whether the tile
lies upside-down, and the whole probability row, which the scene parser combines with the rules
(:mod:`vision.rules_prior`). :class:`SetReader` with no set reads with the base model alone.

Reading is thread-safe (onnxruntime sessions are); the pipeline splits a frame's crops in two batches on
two threads, so the model is loaded with one onnxruntime thread.
"""
from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

import numpy as np

from vision.tile_classifier import TileClassifier
from vision.tile_labels import CLASS_LABELS, NONE
from vision.tile_match import Reading
from vision.tileset import TileSet, TileSetError


@lru_cache(maxsize=4)
def pipeline_classifier(model: str | None = None) -> TileClassifier:
    """The tile model loaded once per process with one onnxruntime thread (shared by every pipeline)."""
    return TileClassifier.load(model, threads=1)


class SetReader:
    """Reads upright tile crops with the classifier and the enrolled sets ``tilesets`` (merged: a table
    that alternates two sets gives both)."""

    thread_safe = True
    crop_margin_px = 0

    def __init__(self, tilesets: Sequence[TileSet] = (), classifier: TileClassifier | None = None,
                 model: str | Path | None = None):
        self.clf = classifier or pipeline_classifier(str(model) if model else None)
        self.sets = tuple(tilesets)
        self.tileset = TileSet.merge(self.sets) if self.sets else None
        if self.tileset is not None and self.tileset.model_id and self.clf.model_id \
                and self.tileset.model_id != self.clf.model_id:
            raise TileSetError(f"tile set {self.tileset.name!r} was enrolled with another model: enroll it again "
                               "('mahjong-table tiles enroll')")
        self._classes = np.array(CLASS_LABELS)
        self._none = CLASS_LABELS.index(NONE)
        self._masks: dict[frozenset[str], np.ndarray] = {}

    @property
    def threshold(self) -> float:
        """The confidence below which an answer is ``unknown``: the set's own calibrated threshold, else the
        model's tile-set threshold (the base model's without a set)."""
        if self.tileset is None:
            return self.clf.threshold
        return self.tileset.threshold or self.clf.fusion.threshold

    @property
    def face(self) -> tuple[int, int, int] | None:
        """The set's face colour (BGR) where it is known: it sharpens the tile finder's masks."""
        return self.tileset.colour("face") if self.tileset is not None else None

    def _mask(self, ok: frozenset[str]) -> np.ndarray:
        m = self._masks.get(ok)
        if m is None:
            m = self._masks[ok] = np.isin(self._classes, list(ok))
        return m

    def probabilities(self, crops: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        """Class probabilities (N, classes) with the sets, and orientation logits (N, 4), one pass a crop."""
        logits, orient, emb = self.clf.run_prepared(self.clf.prepare(list(crops)))
        p = self.clf.probabilities(logits, emb, self.tileset)
        return self.clf.trust_blank_faces(p, crops, self.tileset), orient

    def similarity(self, crops: Sequence[np.ndarray]) -> np.ndarray:
        """Each crop's cosine similarity to its nearest enrolled prototype (N,): how much it looks like a face
        of the set (NaN without a set)."""
        if self.tileset is None or not len(crops):
            return np.full(len(crops), np.nan)
        emb = self.clf.run_prepared(self.clf.prepare(list(crops)))[2]
        return np.nanmax(self.tileset.similarities(emb), axis=1)

    def read(self, crops: Sequence[np.ndarray], allowed: Sequence[frozenset[str] | None] | None = None) -> list[Reading]:
        """The most probable allowed class of each crop (batched); ``Reading.probs`` is the renormalised row."""
        if not crops:
            return []
        p, orient = self.probabilities(crops)
        if allowed is not None:  # the zone priors, one mask per distinct label set
            keep = np.ones_like(p, bool)
            for ok in set(a for a in allowed if a is not None):
                keep[[i for i, a in enumerate(allowed) if a == ok]] = self._mask(ok)
            p = np.where(keep, p, 0.0)
            p /= np.maximum(p.sum(1, keepdims=True), 1e-12)
        best = p.argmax(1)
        conf = p[np.arange(len(p)), best]
        up_down = (orient.argmax(1) == 2) & (best != self._none)
        return [Reading(str(self._classes[j]), float(c), bool(u), q) for j, c, u, q in zip(best, conf, up_down, p)]
