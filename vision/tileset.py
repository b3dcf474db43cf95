"""Per-table tile sets: class prototypes in the classifier's embedding space.

A tile set is enrolled from a few labelled, upright crops per face. Each crop and a few jittered copies
are embedded in their four quarter turns; a class gets one prototype per quarter turn (the normalised
mean of its crops turned that way) and a crop matches the nearest of them. At classification
time :meth:`vision.tile_classifier.TileClassifier.classify` combines the base logits with the cosine
similarity to the prototypes. A table that alternates two sets enrolls both and merges them
(:meth:`TileSet.merge`): each class then matches its closer prototype.

Files are ``.npz`` with ``labels`` (P,), ``prototypes`` (P, M, D), ``counts`` (P,), ``model_id`` and ``name``.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.tile_labels import CLASS_LABELS, is_label

if TYPE_CHECKING:
    from vision.tile_classifier import TileClassifier

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png")
ROTATION_PROTOTYPES = 4  # prototypes per class and enrolled set: one per quarter turn


@dataclass(frozen=True)
class TileSet:
    """Enrolled prototypes: ``prototypes[i]`` holds one or more unit vectors for class ``labels[i]``."""

    labels: tuple[str, ...]
    prototypes: np.ndarray  # (P, M, D) float32, unit rows (M per class: one per quarter turn and set)
    counts: np.ndarray  # (P,) number of enrolled crops per class
    model_id: str = ""
    name: str = ""

    def similarities(self, emb: np.ndarray) -> np.ndarray:
        """Cosine similarity (N, classes) of embeddings to each class's closest prototype; NaN for classes
        the set does not hold."""
        out = np.full((len(emb), len(CLASS_LABELS)), np.nan, np.float32)
        if not self.labels:
            return out
        sims = np.einsum("nd,pmd->npm", emb, self.prototypes).max(axis=2)
        cols = [CLASS_LABELS.index(lab) for lab in self.labels]
        out[:, cols] = sims
        return out

    def save(self, path: str | Path) -> None:
        with open(path, "wb") as fh:  # np.savez would append ".npz" to other names
            np.savez(fh, labels=np.array(self.labels), prototypes=self.prototypes.astype(np.float32),
                     counts=self.counts.astype(np.int32), model_id=np.array(self.model_id), name=np.array(self.name))

    @classmethod
    def load(cls, path: str | Path) -> TileSet:
        with np.load(path, allow_pickle=False) as z:
            labels = tuple(str(s) for s in z["labels"])
            bad = [lab for lab in labels if not is_label(lab)]
            if bad:
                raise ValueError(f"{path}: unknown labels {bad}")
            protos = z["prototypes"].astype(np.float32)
            if protos.ndim != 3 or protos.shape[0] != len(labels):
                raise ValueError(f"{path}: malformed prototypes {protos.shape}")
            return cls(labels, protos, z["counts"], str(z["model_id"]), str(z["name"]))

    @classmethod
    def merge(cls, sets: Sequence[TileSet]) -> TileSet:
        """One set matching any of ``sets`` (classes keep one prototype per set that enrolled them)."""
        if not sets:
            raise ValueError("no tile sets to merge")
        if len({s.model_id for s in sets}) > 1:
            raise ValueError("tile sets were enrolled with different models; enroll them again")
        if len(sets) == 1:
            return sets[0]
        labels = sorted({lab for s in sets for lab in s.labels}, key=CLASS_LABELS.index)
        m = sum(s.prototypes.shape[1] for s in sets)
        d = sets[0].prototypes.shape[2]
        protos = np.zeros((len(labels), m, d), np.float32)
        counts = np.zeros(len(labels), np.int32)
        col = 0
        for s in sets:
            k = s.prototypes.shape[1]
            for i, lab in enumerate(labels):
                if lab in s.labels:
                    j = s.labels.index(lab)
                    protos[i, col:col + k] = s.prototypes[j]
                    counts[i] += int(s.counts[j])
                else:  # fill with another set's prototype so the max ignores the gap
                    src = next(t for t in sets if lab in t.labels)
                    protos[i, col:col + k] = src.prototypes[src.labels.index(lab)][:1]
            col += k
        return cls(tuple(labels), protos, counts, sets[0].model_id, "+".join(s.name for s in sets))


def _jitter(crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A slightly rescaled, shifted, re-lit and blurred copy of a crop (enrollment augmentation)."""
    h, w = crop.shape[:2]
    s = rng.uniform(0.92, 1.08)
    m = cv2.getRotationMatrix2D((w / 2 + rng.normal(0, 0.02 * w), h / 2 + rng.normal(0, 0.02 * h)),
                                rng.normal(0, 2.0), s)
    out = cv2.warpAffine(crop, m, (w, h), borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    out = out * rng.uniform(0.85, 1.15) + rng.uniform(-12, 12)
    if rng.random() < 0.5:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.3, 1.0))
    return np.clip(out, 0, 255).astype(np.uint8)


def enroll(classifier: TileClassifier, examples: Mapping[str, Sequence[np.ndarray]], *, jitters: int = 3,
           seed: int = 0, name: str = "", progress: Callable[[Iterable], Iterable] | None = None) -> TileSet:
    """Build a tile set from upright BGR crops per label (``{"1m": [crop, ...], ...}``)."""
    bad = [lab for lab in examples if not is_label(lab)]
    if bad:
        raise ValueError(f"unknown tile labels: {', '.join(sorted(bad))}")
    rng = np.random.default_rng(seed)
    labels = [lab for lab in CLASS_LABELS if lab in examples and len(examples[lab])]
    protos, counts = [], []
    items: Iterable[str] = progress(labels) if progress else labels
    for lab in items:
        copies = []
        for crop in examples[lab]:
            copies += [crop] + [_jitter(crop, rng) for _ in range(jitters)]
        # one prototype per quarter turn: a turned tile is not the same picture to the network
        variants = [np.ascontiguousarray(np.rot90(c, k)) for k in range(4) for c in copies]
        emb = classifier.embed(variants).reshape(4, len(copies), -1).mean(axis=1)
        protos.append(emb / np.maximum(np.linalg.norm(emb, axis=1, keepdims=True), 1e-6))
        counts.append(len(examples[lab]))
    d = protos[0].shape[1] if protos else 0
    arr = np.array(protos, np.float32).reshape(len(protos), ROTATION_PROTOTYPES, d)
    return TileSet(tuple(labels), arr, np.array(counts, np.int32), classifier.model_id, name)


def label_of_file(path: Path, root: Path) -> str:
    """The label of a crop in an enrollment folder: its sub-folder name, else the file-name prefix before
    the first ``_``."""
    rel = path.relative_to(root)
    return rel.parts[0] if len(rel.parts) > 1 else path.stem.split("_", 1)[0]


def scan_folder(root: str | Path) -> dict[str, list[Path]]:
    """Labelled image files in an enrollment folder (``DIR/<label>/*.png`` or ``DIR/<label>_x.jpg``).

    Raises ValueError naming the files whose label is not a tile label."""
    root = Path(root)
    if not root.is_dir():
        raise ValueError(f"not a folder: {root}")
    found: dict[str, list[Path]] = {}
    bad: list[str] = []
    for p in sorted(root.rglob("*")):
        if not p.is_file() or p.suffix.lower() not in IMAGE_SUFFIXES or len(p.relative_to(root).parts) > 2:
            continue
        lab = label_of_file(p, root)
        if not is_label(lab):
            bad.append(f"{p.relative_to(root)} (label {lab!r})")
            continue
        found.setdefault(lab, []).append(p)
    if bad:
        shown = "; ".join(bad[:5]) + (f"; and {len(bad) - 5} more" if len(bad) > 5 else "")
        raise ValueError(f"unknown tile labels in {root}: {shown}")
    if not found:
        raise ValueError(f"no labelled .jpg/.png crops in {root}")
    return found


def read_image(path: str | Path) -> np.ndarray:
    """Read an image as BGR uint8; ValueError if it cannot be read."""
    data = np.fromfile(str(path), np.uint8) if Path(path).is_file() else None
    img = cv2.imdecode(data, cv2.IMREAD_COLOR) if data is not None and data.size else None
    if img is None:
        raise ValueError(f"cannot read image: {path}")
    return img
