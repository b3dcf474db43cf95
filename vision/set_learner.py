"""The table learns its set while it plays: crops whose face the record confirms join the set's prototypes.

    learner = SetLearner(tileset, classifier)
    learner.add("h12/pond2/5", "3m", crop, hand="h12")    # a face the record confirmed (a question answered,
                                                          # a hand settled and signed, a judge's correction)
    learner.withdraw("h12/pond2/5")                        # a later correction withdrew it
    reader_set = learner.tileset()                         # the enrolled set plus what was learned
    learner.save("table.learned.npz"); SetLearner.load("table.learned.npz", tileset, classifier)

Every tile whose face the record confirms is a labelled crop of the table's own set under its own lamp: the
very picture the camera will read again. The learner keeps, per face, at most :data:`PER_FACE` such crops
(the oldest goes out), never one the record does not confirm (the caller adds only confirmed faces), and
forgets one again when a correction withdraws it. It stores each crop's embedding in its four quarter turns
(not the picture), and :meth:`tileset` gives the enrolled set with one more prototype per quarter turn for
every face with learned crops -- the mean of those crops -- beside the enrolled ones (a crop matches the
nearest: a face the table's light shows unlike the enrollment frames is matched by its learned look). The
set's calibration (threshold, match level) stays the enrolled one's. Pure: no I/O but :meth:`save` and
:meth:`load`; the controller decides what the record confirms.
"""
from __future__ import annotations

from collections import OrderedDict
from dataclasses import replace
from pathlib import Path

import numpy as np
import numpy.typing as npt

from vision.arrays import Float32Array, Image
from vision.tile_classifier import TileClassifier
from vision.tile_labels import CLASS_LABELS, is_label
from vision.tileset import ROTATION_PROTOTYPES, TileSet, TileSetError

PER_FACE = 12  # learned crops kept per face (the oldest out)
#: a confirmed crop whose face's enrolled prototypes already match it this well (at least the set's match level
#: less this) shows nothing the set does not know, and is not kept: the learned prototype is the mean of the
#: looks the enrollment missed (a face drawn otherwise on some copies, a face unlike itself under the table's
#: lamp), not drawn back toward the enrolled look by the many crops that already read well
NOVEL = 0.05


class SetLearner:
    """Confirmed crops of one table's set (see the module docstring)."""

    def __init__(self, base: TileSet, classifier: TileClassifier | None = None, per_face: int = PER_FACE,
                 novel: float | None = NOVEL):
        self.base = base
        self.clf = classifier
        self.per_face = per_face
        self.novel = novel  # None: keep every confirmed crop
        self._crops: dict[str, OrderedDict[str, tuple[Float32Array, str]]] = {}  # label -> key -> (emb (4, D), hand)
        self._of: dict[str, str] = {}  # key -> label
        self._cache: TileSet | None = None

    # ---- what the record confirms ----------------------------------------------------------------------
    def add(self, key: str, label: str, crop: Image | None = None, hand: str = "",
            embedding: npt.ArrayLike | None = None) -> bool:
        """Learn ``crop`` (upright BGR, as the pipeline cut it) as face ``label``; ``key`` names it for a later
        withdrawal (adding a key again replaces it), ``hand`` the hand it was confirmed in. ``embedding``: its
        (4, D) embeddings in the four quarter turns, where already known (else ``crop`` is embedded). Whether it
        was kept: a crop the enrolled prototypes of its face already match (:data:`NOVEL`) is not."""
        if not is_label(label) or label not in self.base.labels:
            raise ValueError(f"face {label!r} is not in the set {self.base.name!r}")
        if embedding is None:
            if crop is None or self.clf is None:
                raise ValueError("a crop and a classifier, or the crop's embedding, are needed")
            emb = self.clf.embed([np.ascontiguousarray(np.rot90(crop, k)) for k in range(ROTATION_PROTOTYPES)])
        else:
            emb = np.asarray(embedding, np.float32)
        self.withdraw(key)
        if self.novel is not None and self._known(label, emb):
            return False
        faces = self._crops.setdefault(label, OrderedDict())
        faces[key] = (emb.astype(np.float32), hand)
        self._of[key] = label
        while len(faces) > self.per_face:  # the oldest out
            old, _ = faces.popitem(last=False)
            self._of.pop(old, None)
        self._cache = None
        return True

    def _known(self, label: str, emb: Float32Array) -> bool:
        """Whether the enrolled prototypes of ``label`` match the crop (upright, its first row) as well as the
        set's own crops match theirs, less :data:`NOVEL`."""
        assert self.novel is not None
        protos = self.base.prototypes[self.base.labels.index(label)]  # (M, D)
        level = self.base.match_level or 0.95
        return float((protos * emb[0]).sum(1).max()) >= level - self.novel

    def withdraw(self, key: str) -> bool:
        """Forget the crop ``key`` (a correction withdrew its face); whether it was learned."""
        label = self._of.pop(key, None)
        if label is None:
            return False
        self._crops[label].pop(key, None)
        self._cache = None
        return True

    # ---- what it gives ---------------------------------------------------------------------------------
    @property
    def hands(self) -> int:
        """Hands the kept crops were confirmed in ("learned from N hands")."""
        return len({h for faces in self._crops.values() for _, h in faces.values() if h})

    def counts(self) -> dict[str, int]:
        """Learned crops kept per face."""
        return {lab: len(v) for lab, v in self._crops.items() if v}

    def tileset(self) -> TileSet:
        """The enrolled set with a learned prototype per quarter turn for each face with learned crops."""
        if self._cache is not None:
            return self._cache
        learned = {lab: v for lab, v in self._crops.items() if v}
        if not learned:
            self._cache = self.base
            return self.base
        p, m, d = self.base.prototypes.shape
        protos = np.concatenate([self.base.prototypes, self.base.prototypes[:, :ROTATION_PROTOTYPES]], axis=1)
        counts = self.base.counts.copy()
        for lab, faces in learned.items():
            i = self.base.labels.index(lab)
            mean = np.sum([e for e, _ in faces.values()], axis=0)  # (4, D)
            protos[i, m:] = mean / np.maximum(np.linalg.norm(mean, axis=1, keepdims=True), 1e-6)
            counts[i] += len(faces)
        self._cache = replace(self.base, prototypes=protos.astype(np.float32), counts=counts)
        return self._cache

    # ---- persistence -------------------------------------------------------------------------------------
    def save(self, path: str | Path) -> None:
        """Write the learned crops (embeddings, labels, keys, hands) beside the table's set file."""
        keys, labels, hands, embs = [], [], [], []
        for lab, faces in self._crops.items():
            for k, (e, h) in faces.items():
                keys.append(k)
                labels.append(lab)
                hands.append(h)
                embs.append(e)
        d = self.base.prototypes.shape[2]
        tmp = Path(f"{path}.tmp")
        with open(tmp, "wb") as fh:
            np.savez_compressed(fh, keys=np.array(keys, str), labels=np.array(labels, str), hands=np.array(hands, str),
                                embeddings=np.array(embs, np.float32).reshape(len(embs), ROTATION_PROTOTYPES, d),
                                model_id=np.array(self.base.model_id))
        tmp.replace(path)  # a crash never leaves half a file

    @classmethod
    def load(cls, path: str | Path, base: TileSet, classifier: TileClassifier | None = None,
             per_face: int = PER_FACE) -> SetLearner:
        """The learner of ``base`` with the crops saved at ``path`` (none where there is no file yet);
        :class:`TileSetError` (one line) for a file that is not one, or of another model."""
        out = cls(base, classifier, per_face)
        if not Path(path).exists():
            return out
        try:
            with np.load(path, allow_pickle=False) as z:
                if str(z["model_id"]) != base.model_id:
                    raise TileSetError(f"learned crops {path} are of another model: they are not used")
                for k, lab, h, e in zip(z["keys"], z["labels"], z["hands"], z["embeddings"]):
                    if str(lab) in base.labels and str(lab) in CLASS_LABELS:
                        out.add(str(k), str(lab), hand=str(h), embedding=e)
        except TileSetError:
            raise
        except (OSError, ValueError, KeyError, EOFError) as exc:
            raise TileSetError(f"learned crops {path} are not readable ({exc})") from None
        return out
