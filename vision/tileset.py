"""Per-table tile sets: class prototypes in the classifier's embedding space.

A tile set is enrolled (:mod:`vision.enrollment`) from a few labelled, upright crops per face. Each crop
and a few jittered copies are embedded in their four quarter turns; a class gets one prototype per quarter turn (the normalised
mean of its crops turned that way) and a crop matches the nearest of them. At classification
time :meth:`vision.tile_classifier.TileClassifier.classify` combines the base logits with the cosine
similarity to the prototypes. A table that alternates two sets enrolls both and merges them
(:meth:`TileSet.merge`): each class then matches its closer prototype.

Files are ``.npz`` with ``labels`` (P,), ``prototypes`` (P, M, D), ``counts`` (P,), ``model_id`` and ``name``;
sets enrolled since vision III also hold ``faces`` (P, FACE_H, FACE_W, 3): each class's mean upright crop
(the template second opinion reads with it, so templates only ever come from the table's own photos),
``colours`` (2, 3): the set's face and back colours (BGR; -1 where unknown), and ``threshold``: the
confidence threshold calibrated on the enrolled crops themselves (leave-one-out; 0 = the model's); since
the fourth round ``turns_threshold``: the threshold of a photo read in its four quarter turns (``tiles
classify``), calibrated on camera-degraded copies of the enrolled crops (0 = ``threshold``).
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict, cast

import cv2
import numpy as np
import numpy.typing as npt

from vision.arrays import BoolArray, Float32Array, Float64Array, Image, IntArray
from vision.ink import InkSignature, ink_signatures
from vision.tile_labels import CLASS_LABELS, FLOWERS, RED_FIVES, WHITE_DRAGON, is_label

if TYPE_CHECKING:
    from numpy.lib.npyio import NpzFile

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png")
ROTATION_PROTOTYPES = 4  # prototypes per class and enrolled set: one per quarter turn
FACE_H, FACE_W = 40, 30  # the stored mean crop of each class (template second opinion)
NO_COLOUR = (-1, -1, -1)
BLANK_STD = 6.0  # grey standard deviation inside a crop (its inner 60 %) under which it holds no ink
BLANK_COLOUR = 60  # L1 distance (BGR) from the set's face colour within which an inkless crop is its face


_BGR = tuple[int, int, int]  # a colour as a set file holds it (its row of ``colours``)


class _Faces(TypedDict, total=False):
    """A set file's optional array (:meth:`TileSet.save`): the mean crops, where the set holds them."""

    faces: Image


class TileSetError(ValueError):
    """A tile-set file that cannot be used: missing, corrupt, empty or of another model."""


@dataclass(frozen=True)
class TileSet:
    """Enrolled prototypes: ``prototypes[i]`` holds one or more unit vectors for class ``labels[i]``."""

    labels: tuple[str, ...]
    prototypes: Float32Array  # (P, M, D) float32, unit rows (M per class: one per quarter turn and set)
    counts: npt.NDArray[np.int32]  # (P,) number of enrolled crops per class
    model_id: str = ""
    name: str = ""
    faces: Image | None = None  # (P, FACE_H, FACE_W, 3) uint8 mean upright crops, or None (old files)
    face_colour: tuple[int, int, int] = NO_COLOUR  # BGR, measured on the enrolled faces
    back_colour: tuple[int, int, int] = NO_COLOUR  # BGR, from the enrolled backs (if any)
    threshold: float = 0.0  # calibrated on the enrolled crops (leave-one-out); 0: the model's tile-set threshold
    match_level: float = 0.0  # median similarity of an enrolled crop to its nearest prototype (leave-one-out)
    loo_accuracy: float = float("nan")  # leave-one-out accuracy of the enrolled crops (four turns)
    turns_threshold: float = 0.0  # for reads averaged over the quarter turns (single photos); 0: ``threshold``

    def threshold_for(self, turns: int) -> float:
        """The set's threshold for a read averaged over ``turns`` quarter turns (0: the model's)."""
        return self.turns_threshold if turns > 1 and self.turns_threshold else self.threshold

    def colour(self, which: str) -> tuple[int, int, int] | None:
        """``face`` or ``back`` colour (BGR), None where the set does not know it."""
        c = self.face_colour if which == "face" else self.back_colour
        return None if c[0] < 0 else c

    @cached_property
    def _blank_white(self) -> bool:  # looked at once per set, and only where asked (not on every replace())
        return (self.faces is not None and WHITE_DRAGON in self.labels and self.colour("face") is not None
                and inner_look(self.faces[self.labels.index(WHITE_DRAGON)])[0] < BLANK_STD)

    @cached_property
    def closeness(self) -> Float32Array:
        """(classes, classes) the highest cosine between a prototype of one class and one of another, as the set
        holds them (NaN for a class it does not hold): how alike two of its faces look to the embedding (kai's
        1f and 3f 0.84; most pairs of faces 0.3-0.6)."""
        out = np.full((len(CLASS_LABELS), len(CLASS_LABELS)), np.nan, np.float32)
        if self.labels:
            cols = [CLASS_LABELS.index(lab) for lab in self.labels]
            sims = np.einsum("pmd,qkd->pqmk", self.prototypes, self.prototypes).max(axis=(2, 3))
            out[np.ix_(cols, cols)] = sims
        return out

    @cached_property
    def ink(self) -> InkSignature | None:
        """The ink signature of each class's mean enrolled crop (:mod:`vision.ink`; rows as :attr:`labels`), None
        where the set holds no mean crops (files before vision III, merged sets)."""
        return ink_signatures(list(self.faces)) if self.faces is not None else None

    @cached_property
    def ink_twins(self) -> BoolArray:
        """(classes,) bool: the faces this set draws as another of its faces in other inks -- a five whose red
        five it holds too (and that red five), and its flowers where it holds more than one -- whose answers
        :mod:`vision.ink` checks (the embedding barely tells such faces apart)."""
        held = np.isin(np.array(CLASS_LABELS), self.labels)
        twins: BoolArray = _twins_among(held[None, :])[0]
        return twins

    def ink_twins_within(self, keep: BoolArray | None) -> BoolArray:
        """(N, classes) bool: :attr:`ink_twins` among the faces each crop's zone allows (``keep``: (N, classes),
        None: every face, one row) -- a five is no twin where its red five cannot lie on the table (a profile
        without red fives: Sichuan, MCR), nor a flower where no other flower can."""
        if keep is None:
            return self.ink_twins[None, :]
        return _twins_among(keep & np.isin(np.array(CLASS_LABELS), self.labels)[None, :])

    @cached_property
    def rows(self) -> IntArray:
        """(classes,) the row of each of ``CLASS_LABELS`` in :attr:`labels` (-1 where the set does not hold it)."""
        out = np.full(len(CLASS_LABELS), -1, np.int64)
        for i, lab in enumerate(self.labels):
            out[CLASS_LABELS.index(lab)] = i
        return out

    def blank_white_dragon(self) -> bool:
        """Whether the set's white dragon is a blank face (its enrolled mean crop holds no ink)."""
        return self._blank_white

    def blank_faces(self, crops: Sequence[Image]) -> BoolArray:
        """Which crops are the set's blank white dragon: no ink inside and the set's face colour (bare felt,
        a back, an arm are other colours; every other face has ink). All False where the set's white
        dragon is not blank."""
        out = np.zeros(len(crops), bool)
        face, back = self.colour("face"), self.colour("back")
        if face is None or not self.blank_white_dragon():
            return out
        for i, c in enumerate(crops):
            std, colour = inner_look(c)
            to_face = float(np.abs(colour - np.array(face)).sum())
            # a back of about the face's colour (a dark set's) is inkless too: then nearer the face by a margin
            to_back = float(np.abs(colour - np.array(back)).sum()) if back is not None else np.inf
            out[i] = std < BLANK_STD and to_face < BLANK_COLOUR and to_back > to_face + BLANK_COLOUR
        return out

    def similarities(self, emb: Float32Array) -> Float32Array:
        """Cosine similarity (N, classes) of embeddings to each class's closest prototype; NaN for classes
        the set does not hold."""
        out = np.full((len(emb), len(CLASS_LABELS)), np.nan, np.float32)
        if not self.labels or not len(emb):
            return out
        # (einsum's own loop: a BLAS product spins its threads on a loaded 2-core machine, 90 ms for 129 crops)
        out[:, self._cols] = np.einsum("nd,pmd->npm", emb, self.prototypes).max(axis=2)
        return out

    @cached_property
    def _cols(self) -> IntArray:
        return np.array([CLASS_LABELS.index(lab) for lab in self.labels], np.int64)


    def save(self, path: str | Path) -> None:
        extra: _Faces = {} if self.faces is None else {"faces": self.faces.astype(np.uint8)}
        with open(path, "wb") as fh:  # np.savez would append ".npz" to other names
            np.savez_compressed(fh, labels=np.array(self.labels), prototypes=self.prototypes.astype(np.float32),
                                counts=self.counts.astype(np.int32), model_id=np.array(self.model_id),
                                name=np.array(self.name), colours=np.array([self.face_colour, self.back_colour], np.int16),
                                threshold=np.array(self.threshold, np.float32),
                                turns_threshold=np.array(self.turns_threshold, np.float32),
                                calibration=np.array([self.match_level, self.loo_accuracy], np.float32), **extra)

    @classmethod
    def load(cls, path: str | Path) -> TileSet:
        """Read a tile-set file; :class:`TileSetError` (one line) for anything that is not a usable set."""
        import zipfile

        try:
            with np.load(path, allow_pickle=False) as z:
                return cls._from_npz(z, path)
        except FileNotFoundError:
            raise TileSetError(f"tile set {path} not found") from None
        except IsADirectoryError:
            raise TileSetError(f"tile set {path} is a folder, not a tile-set file") from None
        except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as exc:
            if isinstance(exc, TileSetError):
                raise
            raise TileSetError(f"tile set {path} is not a readable tile-set file ({exc})") from None

    @classmethod
    def _from_npz(cls, z: NpzFile[np.generic], path: str | Path) -> TileSet:
        if not hasattr(z, "files") or "labels" not in z.files or "prototypes" not in z.files:
            raise TileSetError(f"tile set {path} is not a tile-set file (no labels/prototypes)")
        labels = tuple(str(s) for s in z["labels"])
        if not labels:
            raise TileSetError(f"tile set {path} is empty: no face enrolled")
        bad = [lab for lab in labels if not is_label(lab)]
        if bad:
            raise TileSetError(f"tile set {path}: unknown labels {bad}")
        protos = z["prototypes"].astype(np.float32)
        if protos.ndim != 3 or protos.shape[0] != len(labels) or not np.isfinite(protos).all():
            raise TileSetError(f"tile set {path}: malformed prototypes {protos.shape}")
        # (the arrays as saved, read without a copy: uint8 mean crops, int32 counts, int16 colours)
        faces = cast(Image, z["faces"]) if "faces" in z.files else None
        if faces is not None and faces.shape != (len(labels), FACE_H, FACE_W, 3):
            faces = None
        cols = z["colours"] if "colours" in z.files else np.array([NO_COLOUR, NO_COLOUR])
        thr = float(z["threshold"]) if "threshold" in z.files else 0.0
        level, loo = (float(v) for v in z["calibration"]) if "calibration" in z.files else (0.0, float("nan"))
        turns_thr = float(z["turns_threshold"]) if "turns_threshold" in z.files else 0.0
        if not (0.0 <= thr <= 1.0 and 0.0 <= turns_thr <= 1.0):
            raise TileSetError(f"tile set {path}: thresholds out of range ({thr}, {turns_thr})")
        return cls(labels, protos, cast("npt.NDArray[np.int32]", z["counts"]), str(z["model_id"]), str(z["name"]),
                   faces, cast(_BGR, tuple(int(v) for v in cols[0])), cast(_BGR, tuple(int(v) for v in cols[1])),
                   thr, level, loo, turns_thr)

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
        faces = {s.face_colour for s in sets}
        levels = [s.match_level for s in sets if s.match_level > 0]
        return cls(tuple(labels), protos, counts, sets[0].model_id, "+".join(s.name for s in sets), None,
                   faces.pop() if len(faces) == 1 else NO_COLOUR, NO_COLOUR, _strictest(s.threshold for s in sets),
                   min(levels) if levels else 0.0, turns_threshold=_strictest(s.threshold_for(2) for s in sets))


def _strictest(thresholds: Iterable[float]) -> float:
    """The highest of some sets' thresholds, 0 (the model's own) where any set has none of its own."""
    ts = list(thresholds)
    return 0.0 if not ts or min(ts) == 0.0 else max(ts)


def mean_face(crops: Sequence[Image]) -> Image:
    """The mean of upright crops resized to ``FACE_H`` x ``FACE_W`` (uint8 BGR): the class's template."""
    from vision.tile_preprocess import to_bgr

    acc = np.zeros((FACE_H, FACE_W, 3), np.float32)
    for c in crops:
        acc += cv2.resize(to_bgr(np.asarray(c)), (FACE_W, FACE_H), interpolation=cv2.INTER_AREA)
    return np.clip(acc / max(1, len(crops)) + 0.5, 0, 255).astype(np.uint8)


_FIVE_PAIRS = [(CLASS_LABELS.index(r), CLASS_LABELS.index("5" + r[1])) for r in RED_FIVES]
_FLOWER_COLS = np.isin(np.array(CLASS_LABELS), FLOWERS)


def _twins_among(faces: BoolArray) -> BoolArray:
    """(N, classes) bool: the ink twins among each row's ``faces`` -- a red five and its five where both are
    there, the flowers where more than one is."""
    out = np.zeros(faces.shape, bool)
    for i, j in _FIVE_PAIRS:
        out[:, i] = out[:, j] = faces[:, i] & faces[:, j]
    out[:, _FLOWER_COLS] = faces[:, _FLOWER_COLS] & (faces[:, _FLOWER_COLS].sum(1) > 1)[:, None]
    return out


def inner_look(crop: Image) -> tuple[float, Float64Array]:
    """The grey standard deviation and the mean colour (BGR) of a crop's inner 60 % (past its edges and the
    table): how much ink it holds, and its body colour."""
    from vision.tile_preprocess import to_bgr

    c = to_bgr(np.asarray(crop))
    h, w = c.shape[:2]
    inner = np.ascontiguousarray(c[int(0.2 * h):h - int(0.2 * h) or h, int(0.2 * w):w - int(0.2 * w) or w])
    _, sd = cv2.meanStdDev(cv2.cvtColor(inner, cv2.COLOR_BGR2GRAY))
    return float(sd[0, 0]), np.array(cv2.mean(inner)[:3])


def inner_colour(crop: Image) -> Float64Array:
    """The median colour (BGR) of the ring 6-16 % in from a crop's edges: inside the tile (past its side and
    the table), outside the glyphs -- the tile's body colour."""
    h, w = crop.shape[:2]
    ring = np.zeros((h, w), bool)
    ring[int(0.06 * h):h - int(0.06 * h), int(0.06 * w):w - int(0.06 * w)] = True
    ring[int(0.16 * h):h - int(0.16 * h), int(0.16 * w):w - int(0.16 * w)] = False
    px = crop[..., :3][ring] if ring.any() else crop[..., :3].reshape(-1, 3)
    colour: Float64Array = np.median(px, axis=0)
    return colour


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


def read_image(path: str | Path) -> Image:
    """Read an image as BGR uint8; ValueError if it cannot be read."""
    data = np.fromfile(str(path), np.uint8) if Path(path).is_file() else None
    # (None for bytes that are no image: OpenCV's stubs say never None)
    img = cast("Image | None", cv2.imdecode(data, cv2.IMREAD_COLOR)) if data is not None and data.size else None
    if img is None:
        raise ValueError(f"cannot read image: {path}")
    return img
