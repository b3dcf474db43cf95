"""The table pipeline's tile reader: vision I's classifier with the table's own enrolled tile set(s).

    reader = SetReader([TileSet.load("table3.npz")])          # the default reader of the pipeline
    readings = reader.read(crops, allowed)                     # one Reading per upright crop

Each crop the tile finder cut (upright or upside-down in its owner's view) is read once by the network;
the class probabilities are combined with the set's prototypes (:meth:`TileClassifier.probabilities`),
restricted to the labels the zone allows (no face-down tile in a pond, only flowers among the flowers) and
renormalised. A :class:`~vision.tile_match.Reading` carries the label, its probability, whether the tile
lies upside-down, and the whole probability row, which the scene parser combines with the rules
(:mod:`vision.rules_prior`). :class:`SetReader` with no set reads with the base model alone.

A face the reader is not sure of is ``unknown`` (the referee asks; its probability row still goes to the rules
prior): the fused probability must reach the set's threshold *and* the embedding agree with it
(:meth:`TileClassifier.sure`: the nearest prototype is the answer by a margin, and the crop looks like the
set's own crops). A running similarity of the crops read to the set (:class:`vision.set_watch.SetWatch`)
notices a set that is not the table's during play; while it says so, every face is ``unknown`` with an even
row (no face of the wrong set is taken, not even through a meld), and :meth:`SetReader.set_check` says why.

Reading is thread-safe (onnxruntime sessions are); the pipeline splits a frame's crops in two batches on
two threads, so the model is loaded with one onnxruntime thread.
"""
from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

import numpy as np

from vision.set_watch import SetCheck, SetWatch
from vision.tile_classifier import TileClassifier
from vision.tile_labels import BACK, CLASS_LABELS, NONE, UNKNOWN
from vision.tile_match import Reading
from vision.tileset import TileSet, TileSetError

#: a crop whose nearest face prototype is less similar than this is no tile face of any set (a back, an arm,
#: a shadow; 0.25-0.45 measured): it tells the set watch nothing (another set's faces: 0.67-0.89)
WATCH_FLOOR = 0.55


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
                 model: str | Path | None = None, guard: bool = True):
        """``guard``: ask about faces the reader is not sure of, and watch for a wrong set (False: every crop
        read as its most probable class, as before vision IV -- the benchmark's comparison)."""
        self.guard = guard
        self.clf = classifier or pipeline_classifier(str(model) if model else None)
        self.sets = tuple(tilesets)
        self.tileset = TileSet.merge(self.sets) if self.sets else None
        if self.tileset is not None and self.tileset.model_id and self.clf.model_id \
                and self.tileset.model_id != self.clf.model_id:
            raise TileSetError(f"tile set {self.tileset.name!r} was enrolled with another model: enroll it again "
                               "('mahjong-table tiles enroll')")
        self._classes = np.array(CLASS_LABELS)
        self._none = CLASS_LABELS.index(NONE)
        self._faces = ~np.isin(self._classes, [NONE, BACK])
        self._masks: dict[frozenset[str], np.ndarray] = {}
        level = self.tileset.match_level if self.tileset is not None else 0.0
        self.watch = SetWatch(level) if level > 0 and guard else None

    def use(self, tileset: TileSet) -> None:
        """Read with ``tileset`` from now on (the same set with what the table learned,
        :class:`vision.set_learner.SetLearner`); the set watch goes on."""
        self.tileset = tileset

    def set_check(self) -> SetCheck | None:
        """Whether the tiles in view still look like the enrolled set (None: no set, or one without a match
        level to compare with)."""
        return self.watch.check() if self.watch is not None else None

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
        p, orient, _, _ = self._read(crops)
        return p, orient

    def _read(self, crops: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray, np.ndarray | None, np.ndarray]:
        """Probabilities, orientation logits, similarities to the prototypes and the blank-dragon mask."""
        logits, orient, emb = self.clf.run_prepared(self.clf.prepare(list(crops)))
        p, cos = self.clf.fused(logits, emb, self.tileset)
        blank = self.clf.blank_of(p, crops, self.tileset)
        return self.clf.apply_blank(p, blank), orient, cos, blank

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
        p, orient, cos, blank = self._read(crops)
        seen_face = self._faces[p.argmax(1)]  # before the zone's mask: a crop the reader itself takes for a face
        keep = None
        if allowed is not None:  # the zone priors, one mask per distinct label set
            keep = np.ones_like(p, bool)
            for ok in set(a for a in allowed if a is not None):
                keep[[i for i, a in enumerate(allowed) if a == ok]] = self._mask(ok)
            p = np.where(keep, p, 0.0)
            p /= np.maximum(p.sum(1, keepdims=True), 1e-12)
        best = p.argmax(1)
        conf = p[np.arange(len(p)), best]
        up_down = (orient.argmax(1) == 2) & (best != self._none)
        labels = self._classes[best]
        if self.tileset is not None and self.guard:
            face = self._faces[best]
            sure = self.clf.sure(p, cos, self.tileset, self.threshold, keep, blank)
            labels = np.where(face & ~sure, UNKNOWN, labels)
            if self.watch is not None and cos is not None:
                near = np.where(self._faces[None, :] & ~np.isnan(cos), cos, -2.0).max(1)
                # a face at all (not a back or a shadow the zone's mask made a face): the watch's sample
                watched = face & seen_face & ~blank & (near >= WATCH_FLOOR)
                if self.watch.see(near[watched]):  # the tiles in view are not the set's: ask, read nothing
                    labels = np.where(face, UNKNOWN, labels)
                    p = p.copy()
                    p[face] = np.where(self._faces, 1.0, 0.0) / self._faces.sum()
        return [Reading(str(lab), float(c), bool(u), q) for lab, c, u, q in zip(labels, conf, up_down, p)]
