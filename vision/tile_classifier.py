"""The ONNX tile classifier: batched inference, calibrated confidence, orientation, tile-set fusion.

    clf = TileClassifier.load()                      # vision/models/tiles.onnx + tiles.json
    results = clf.classify(crops)                    # list[Result], one per BGR crop, any size/aspect
    results = clf.classify(crops, tileset=ts)        # combined with an enrolled tile set's prototypes

A :class:`TileClassifier` holds no mutable state after loading; ``classify`` may be called from several
threads at once (onnxruntime sessions are thread-safe).
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, TypedDict, cast

import numpy as np
import onnxruntime as ort

from vision.arrays import BoolArray, Float32Array, Image
from vision.tile_labels import BACK, CLASS_LABELS, NONE, ORIENTATIONS, UNKNOWN, WHITE_DRAGON
from vision.tile_preprocess import preprocess

if TYPE_CHECKING:
    from vision.tileset import TileSet

MODEL_PATH = Path(__file__).resolve().parent / "models" / "tiles.onnx"
MAX_BATCH = 128
TRUST_LEVEL = 0.95  # a set's match level where it has none (sets enrolled before vision III)
TRUST_SPAN = 0.1  # a face match this far below the match level earns no trust; at the level, full trust
TURNS = 4  # test-time augmentation: a crop is read in this many quarter turns, probabilities averaged
#: A face answer with a set is *sure* (taken, not asked) where the embedding says so: its nearest face
#: prototype is the answer, ahead of the next face by this much cosine (top1 - top2) ...
SURE_MARGIN = 0.15
#: ... or, for two faces the set's own prototypes hold this alike (:attr:`TileSet.closeness` c: kai's 1f and
#: 3f 0.84, so that a perfect crop of either is only 1 - c = 0.16 nearer its own face), this share of the
#: way from the runner-up's look to the answer's, :data:`SURE_MARGIN_FLOOR` at the least
SURE_SHARE = 0.8
SURE_MARGIN_FLOOR = 0.12
#: ... and the crop looks like the set's own crops: its nearest prototype at most this far below the set's
#: match level (a tile of another set matches its nearest prototype 0.67-0.89 where the set's own score
#: 0.93-0.96, medians on the held-out kai styles' table crops) -- or a margin this clear (a tile under glare
#: or shadow matches its own face less well, but still far better than any other face)
SURE_DROP = 0.15
SURE_CLEAR = 0.3
#: A photo read in its quarter turns (``tiles classify``) is framed unlike the table's crops the set was
#: enrolled from (rendered single crops of a set's own style: median 0.92, 5th percentile 0.82 against a match
#: level of 0.98); it is held to its calibrated probability threshold as well
SURE_DROP_PHOTO = 0.16


class FusionMeta(TypedDict, total=False):
    """The model JSON's ``fusion``: :class:`Fusion`'s fields (tuned by ``vision.train.tune_fusion``)."""

    base_weight: float
    proto_scale: float
    threshold: float


class ModelMeta(TypedDict, total=False):
    """The model's JSON (``tiles.json`` beside ``tiles.onnx``): the keys read here and by the tools that report on
    it (the file holds the training run's notes as well, not typed here)."""

    classes: list[str]
    input_size: int
    temperature: float
    threshold: float
    fusion: FusionMeta
    model_id: str
    turns: int
    train_styles: list[str]
    held_out_styles: list[str]


class _Session(Protocol):
    """What is used of an ``onnxruntime.InferenceSession`` (untyped library): one run, every output."""

    def run(self, output_names: None, input_feed: Mapping[str, Float32Array]) -> list[Float32Array]: ...


@dataclass(frozen=True)
class Result:
    """One crop's reading.

    ``label`` is a notation label, ``back``, ``none`` (not a tile) or ``unknown`` (confidence below the
    threshold; ``best`` then holds the most likely class). ``orientation`` k means the tile is turned k
    quarter turns counter-clockwise from upright (see :data:`vision.tile_labels.ORIENTATIONS`); for faces
    that look the same upside-down only ``orientation % 2`` is meaningful.
    """

    label: str
    confidence: float
    orientation: int
    best: str

    @property
    def orientation_name(self) -> str:
        return ORIENTATIONS[self.orientation]

    @property
    def sideways(self) -> bool:
        return self.orientation % 2 == 1


@dataclass(frozen=True)
class Fusion:
    """How a tile set's prototypes combine with the base model.

    ``none`` (and ``back`` when the set did not enroll it) keep the base model's probability; the rest of
    the probability mass goes to the set's enrolled classes by a softmax over
    ``proto_scale * cosine + base_weight * log p_base``. Classes the set does not hold are ruled out.
    """

    base_weight: float = 0.1
    proto_scale: float = 20.0
    threshold: float = 0.5


def _softmax(z: Float32Array) -> Float32Array:
    z = z - z.max(1, keepdims=True)
    e = np.exp(z)
    out: Float32Array = e / e.sum(1, keepdims=True)
    return out


class TileClassifier:
    """A loaded tile model. Use :meth:`load`."""

    def __init__(self, session: ort.InferenceSession, meta: ModelMeta) -> None:
        self._session: _Session = session
        self.meta = meta
        self.classes: tuple[str, ...] = tuple(meta["classes"])
        if self.classes != CLASS_LABELS:
            raise ValueError("model classes do not match vision.tile_labels.CLASS_LABELS")
        self.input_size = int(meta["input_size"])
        self.temperature = float(meta["temperature"])
        self.threshold = float(meta["threshold"])
        self.fusion = Fusion(**meta.get("fusion", {}))
        self.model_id = str(meta.get("model_id", ""))
        self.turns = int(meta.get("turns", TURNS))
        self._faces = np.array([lab not in (NONE, BACK) for lab in self.classes])  # face classes (not back/none)
        self._none_col = np.array([lab == NONE for lab in self.classes])
        self._back_col = np.array([lab == BACK for lab in self.classes])

    @classmethod
    def load(cls, path: str | Path | None = None, threads: int | None = None) -> TileClassifier:
        """Load the ONNX model and its JSON (same name, ``.json``); ``threads`` caps onnxruntime's threads."""
        p = Path(path) if path else MODEL_PATH
        if not p.is_file():
            raise FileNotFoundError(f"tile model not found: {p}")
        meta: ModelMeta = json.loads(p.with_suffix(".json").read_text())
        meta.setdefault("model_id", hashlib.sha256(p.read_bytes()).hexdigest()[:16])
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = threads or 0
        opts.inter_op_num_threads = 1
        opts.log_severity_level = 3
        session = ort.InferenceSession(str(p), sess_options=opts, providers=["CPUExecutionProvider"])
        return cls(session, meta)

    def with_fusion(self, fusion: Fusion) -> TileClassifier:
        """The same model with other tile-set fusion settings (shares the onnxruntime session)."""
        fused: FusionMeta = {"base_weight": fusion.base_weight, "proto_scale": fusion.proto_scale,
                             "threshold": fusion.threshold}  # (dataclasses.asdict, typed)
        return TileClassifier(self._session, {**self.meta, "fusion": fused})

    # ---- raw network outputs ----------------------------------------------------------------------------

    def prepare(self, crops: Sequence[Image]) -> Image:
        """Preprocess BGR crops into the network's uint8 RGB input (N, S, S, 3)."""
        out = np.empty((len(crops), self.input_size, self.input_size, 3), np.uint8)
        for i, c in enumerate(crops):
            out[i] = preprocess(c, self.input_size)
        return out

    def run_prepared(self, batch: Image) -> tuple[Float32Array, Float32Array, Float32Array]:
        """Logits, orientation logits and embeddings for preprocessed uint8 input (N, S, S, 3)."""
        logits: list[Float32Array] = []
        orient: list[Float32Array] = []
        emb: list[Float32Array] = []
        for i in range(0, len(batch), MAX_BATCH):
            x = batch[i:i + MAX_BATCH].transpose(0, 3, 1, 2).astype(np.float32) * (1.0 / 255.0)
            lg, o, e = self._session.run(None, {"input": np.ascontiguousarray(x)})
            logits.append(lg)
            orient.append(o)
            emb.append(e)
        if not logits:
            n = len(self.classes)
            return np.zeros((0, n), np.float32), np.zeros((0, 4), np.float32), np.zeros((0, 0), np.float32)
        return np.concatenate(logits), np.concatenate(orient), np.concatenate(emb)

    def embed(self, crops: Sequence[Image]) -> Float32Array:
        """L2-normalised embeddings (N, D) of BGR crops."""
        return self.run_prepared(self.prepare(crops))[2]

    # ---- classification ---------------------------------------------------------------------------------

    def probabilities(self, logits: Float32Array, emb: Float32Array, tileset: TileSet | None = None
                      ) -> Float32Array:
        """Calibrated class probabilities (N, classes), combined with ``tileset`` if given."""
        return self.fused(logits, emb, tileset)[0]

    def fused(self, logits: Float32Array, emb: Float32Array, tileset: TileSet | None = None
              ) -> tuple[Float32Array, Float32Array | None]:
        """:meth:`probabilities` and the cosine similarities (N, classes) to the set's prototypes they were
        fused with (None without a set): what :meth:`sure` judges an answer by."""
        p = _softmax(logits / self.temperature)
        if tileset is None or not len(tileset.labels):
            return p, None
        if tileset.model_id and self.model_id and tileset.model_id != self.model_id:
            raise ValueError(f"tile set {tileset.name!s} was enrolled with another model; enroll it again")
        f = self.fusion
        cos = tileset.similarities(emb)  # (N, classes), NaN where the set has no prototype
        enrolled = tileset.rows >= 0
        kept = self._none_col | (self._back_col & ~enrolled)
        z = np.full_like(p, -np.inf)
        z[:, enrolled] = f.proto_scale * cos[:, enrolled] + f.base_weight * np.log(p[:, enrolled] + 1e-9)
        # a crop that matches an enrolled face as closely as the set's own crops do is that face, whatever the
        # base model thinks of it (a flower it never saw is not "none"); empty felt and backs match no face
        faces = enrolled & self._faces
        best = cos[:, faces].max(1) if faces.any() and len(p) else np.full(len(p), -1.0)
        hi = tileset.match_level or TRUST_LEVEL
        trust = np.clip((best - (hi - TRUST_SPAN)) / TRUST_SPAN, 0.0, 1.0)[:, None]
        p_kept = p[:, kept] * (1.0 - trust)
        out = _softmax(z) * (1.0 - p_kept.sum(1, keepdims=True))
        out[:, kept] = p_kept
        return out, cos

    def sure(self, p: Float32Array, cos: Float32Array | None, tileset: TileSet | None, threshold: float,
             allowed: BoolArray | None = None, blank: BoolArray | None = None, turns: int = 1) -> BoolArray:
        """Which answers (rows of ``p``, the fused probabilities) may be taken rather than asked. Without a set,
        and for ``back`` and ``none``: the probability reaches ``threshold``. A face read with a set: the
        embedding's own top1 - top2 margin against the set's prototypes (among ``allowed``, a (N, classes)
        mask, where given) -- the nearest face prototype is the answer, :data:`SURE_MARGIN` ahead of the
        next, and the crop near the set's match level (:data:`SURE_DROP`) or the margin clear
        (:data:`SURE_CLEAR`). The fused probability is confident for most tiles of a set that is not the
        table's, the margin is not (docs/vision-model.md, "Never sure and wrong"). ``blank``: crops that are
        the set's blank white dragon (no ink: the embedding has nothing to go by, the colour rule decides).
        ``turns`` > 1: a photo read in its quarter turns, held to ``threshold`` too and to
        :data:`SURE_DROP_PHOTO`."""
        best = p.argmax(1)
        ok: BoolArray = p[np.arange(len(p)), best] >= threshold
        if cos is None or tileset is None or not len(p):
            return ok
        faces = self._faces
        ok_cols = faces[None, :] & ~np.isnan(cos)
        c = np.where(ok_cols if allowed is None else ok_cols & allowed, cos, -2.0)
        order = np.argpartition(c, -2, axis=1)
        first, second = order[:, -1], order[:, -2]
        rows = np.arange(len(c))
        top1, top2 = c[rows, first], c[rows, second]
        level = tileset.match_level or TRUST_LEVEL
        drop = SURE_DROP_PHOTO if turns > 1 else SURE_DROP
        margin = top1 - top2
        close = np.nan_to_num(tileset.closeness[first, second], nan=0.0)
        need = np.clip(SURE_SHARE * (1.0 - close), SURE_MARGIN_FLOOR, SURE_MARGIN)
        face_ok = (first == best) & (margin >= need) & ((top1 >= level - drop) | (margin >= SURE_CLEAR))
        if blank is not None:
            face_ok |= blank
        if turns > 1:
            face_ok &= ok
        taken: BoolArray = np.where(faces[best], face_ok, ok)
        return taken

    def trust_blank_faces(self, p: Float32Array, crops: Sequence[Image], tileset: TileSet | None) -> Float32Array:
        """Probabilities ``p`` (N, classes) of ``crops`` with the set's blank white dragon made sure where a crop
        is one (:meth:`TileSet.blank_faces`): the network has nothing to go by on an inkless face and calls
        some of them "not a tile", but no other face is inkless and nothing else is the face's colour. The
        whole row but ``back`` goes to the white dragon. Only crops read as ``none`` or below the threshold
        are looked at (a frame's others cost nothing)."""
        return self.apply_blank(p, self.blank_of(p, crops, tileset))

    def blank_of(self, p: Float32Array, crops: Sequence[Image], tileset: TileSet | None) -> BoolArray:
        """Which crops :meth:`trust_blank_faces` makes the set's blank white dragon (N,) bool."""
        blank = np.zeros(len(p), bool)
        if tileset is None or not len(crops) or not tileset.blank_white_dragon():
            return blank
        best = p.argmax(1)  # (a crop read as the white dragon is looked at too: its embedding is no help to sure())
        doubt = np.flatnonzero((best == self.classes.index(NONE)) | (best == self.classes.index(WHITE_DRAGON))
                               | (p.max(1) < self.fusion.threshold))
        if len(doubt):
            blank[doubt] = tileset.blank_faces([crops[int(i)] for i in doubt])
        return blank

    def apply_blank(self, p: Float32Array, blank: BoolArray) -> Float32Array:
        """``p`` with the rows ``blank`` given to the white dragon (all but ``back``'s probability)."""
        if not blank.any():
            return p
        p = p.copy()
        back, white = self.classes.index(BACK), self.classes.index(WHITE_DRAGON)
        keep = p[blank, back]
        p[blank] = 0.0
        p[blank, back] = keep
        p[blank, white] = 1.0 - keep
        return p

    def classify(self, crops: Sequence[Image], tileset: TileSet | None = None,
                 turns: int | None = None) -> list[Result]:
        """Read a batch of BGR crops (any size and aspect, any of the four orientations). Each crop is read
        in ``turns`` quarter turns (default :data:`TURNS`, or ``turns`` in the model's JSON) and the class
        probabilities averaged; the orientation comes from the crop as given."""
        x = self.prepare(crops)
        logits, orient, emb = self.run_prepared(x)
        p, cos = self.fused(logits, emb, tileset)
        n = self.turns if turns is None else max(1, min(4, turns))
        for k in range(1, n):
            lg, _, e = self.run_prepared(np.ascontiguousarray(np.rot90(x, k, axes=(1, 2))))
            pk, ck = self.fused(lg, e, tileset)
            p += pk
            if cos is not None and ck is not None:
                cos = cos + ck
        p /= n
        blank = self.blank_of(p, crops, tileset)
        # (float32 / int is float32, NEP 50: the stubs say float64)
        return self._results(self.apply_blank(p, blank), orient, tileset, n,
                             None if cos is None else cast(Float32Array, cos / n), blank)

    def results(self, logits: Float32Array, orient: Float32Array, emb: Float32Array,
                tileset: TileSet | None = None) -> list[Result]:
        """Results of one pass's raw outputs (no test-time turns)."""
        p, cos = self.fused(logits, emb, tileset)
        return self._results(p, orient, tileset, 1, cos)

    def _results(self, p: Float32Array, orient: Float32Array, tileset: TileSet | None, turns: int = 1,
                 cos: Float32Array | None = None, blank: BoolArray | None = None) -> list[Result]:
        thr = (tileset.threshold_for(turns) or self.fusion.threshold) if tileset is not None else self.threshold
        best = p.argmax(1)
        conf = p[np.arange(len(p)), best]
        taken = self.sure(p, cos, tileset, thr, blank=blank, turns=turns)
        o = orient.argmax(1)
        out: list[Result] = []
        for b, c, k, ok in zip(best, conf, o, taken):
            lab = self.classes[int(b)]
            shown = lab if ok else UNKNOWN
            k = int(k) if lab != NONE else 0
            if lab == BACK:
                k %= 2
            out.append(Result(shown, float(c), k, lab))
        return out
