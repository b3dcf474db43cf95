"""Read tile crops by normalised correlation with templates of the table's tile faces.

Templates come either from a set's enrollment (:meth:`TemplateReader.from_sets`: each class's mean
enrolled crop -- the table's own photos) or from the exact art of shipped rendered styles
(``TemplateReader(["classic"])``: an upper bound for rendered scenes, since it is given the very pictures
the scene was drawn from; never a reader for a real table). The rectified crops are upright or upside-down in
their owner's view and at a known scale, so a template bank reads a tile in a fraction of a millisecond.
Readers take a batch of upright crops and an optional set of allowed labels per crop (the zone prior: no
face-down tile in a pond, only flowers among the flowers) and return one :class:`Reading` per crop; the
table's default reader is the classifier with the enrolled sets (:mod:`vision.tile_reader`).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, TypeVar, cast

import cv2
import numpy as np
import numpy.typing as npt

from vision.arrays import CvDepth, Float32Array, Float64Array, Image, IntArray
from vision.tile_labels import BACK
from vision.tile_render import face_image, load_style

if TYPE_CHECKING:
    from vision.tileset import TileSet

TEMPLATE_W, TEMPLATE_H = 21, 28
SHIFTS = ((0, 0), (-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (1, 1), (-1, 1), (1, -1))  # ~1 mm of crop error
INNER = 0.1  # fraction cut from every side before matching (rounded corners, side band, shadow)
FLAT_STD = 7.0  # a crop with less spatial contrast than this is a plain face (back, blank dragon)
WEIGHT_POWER = 0.5  # pixels weighted by (their spread over the bank) ** power: numerals over shared glyphs
_S = TypeVar("_S", bound=CvDepth)


@dataclass(frozen=True)
class Reading:
    """One crop's reading: ``label``, its score (a probability for the classifier readers), whether the tile
    lies upside-down, and (classifier readers) the class probabilities over ``CLASS_LABELS``."""

    label: str
    score: float
    upside_down: bool = False
    probs: Float32Array | Float64Array | None = field(default=None, compare=False, repr=False)


class TileReader(Protocol):
    """What reads tile crops: :class:`TemplateReader`, :class:`vision.tile_reader.SetReader`."""

    def read(self, crops: Sequence[Image], allowed: Sequence[frozenset[str] | None] | None = None) -> list[Reading]:
        """One reading per upright crop, each among its allowed labels (``None``: any)."""
        ...


def _padded(img: Image | Float32Array) -> Float32Array:
    """The crop's inner window plus one template pixel all round, at template scale (float32 BGR)."""
    return _padded_u8(img).astype(np.float32)


def _padded_u8(img: npt.NDArray[_S]) -> npt.NDArray[_S]:
    """:func:`_padded` before the conversion to float."""
    h, w = img.shape[:2]
    my, mx = h * INNER, w * INNER
    py, px = (h - 2 * my) / TEMPLATE_H, (w - 2 * mx) / TEMPLATE_W  # source px per template px
    y0, y1 = int(round(my - py)), int(round(h - my + py))
    x0, x1 = int(round(mx - px)), int(round(w - mx + px))
    win = img[max(0, y0):y1, max(0, x0):x1, :3]
    return cast("npt.NDArray[_S]", cv2.resize(win, (TEMPLATE_W + 2, TEMPLATE_H + 2), interpolation=cv2.INTER_AREA))


def _unit_rows(x: Float32Array) -> Float32Array:
    x = x - x.mean(1, keepdims=True)
    n = np.linalg.norm(x, axis=1, keepdims=True)
    unit: Float32Array = x / np.maximum(n, 1e-6)
    return unit


def _batch_features(crops: Sequence[Image | Float32Array]) -> tuple[Float32Array, Float32Array, Float32Array]:
    """Zero-mean feature vectors (N, shifts, D), spatial contrast (N,) and mean colour (N, 3) of upright
    crops (the reader weights and normalises them)."""
    a = np.stack([_padded(c) for c in crops])  # (N, H+2, W+2, 3)
    n = len(a)
    tall = cast(Float32Array, cv2.GaussianBlur(a.reshape(n * (TEMPLATE_H + 2), TEMPLATE_W + 2, 3), (0, 0), 0.6))
    a = tall.reshape(a.shape)
    wins = np.stack([a[:, 1 + dy:1 + dy + TEMPLATE_H, 1 + dx:1 + dx + TEMPLATE_W] for dx, dy in SHIFTS], 1)
    centre = wins[:, 0].reshape(n, -1, 3)
    mean_c = centre.mean(1)
    contrast = (centre - mean_c[:, None, :]).reshape(n, -1).std(1)
    flat = wins.reshape(n * len(SHIFTS), -1)
    feats = (flat - flat.mean(1, keepdims=True)).reshape(n, len(SHIFTS), -1)  # zero-mean; unit after weighting
    return feats.astype(np.float32), contrast, mean_c


def _style_faces(style: str) -> list[tuple[str, Float32Array]]:
    """The exact art of a shipped style: (label, upright BGR float32 face on the tile's colour) per class."""
    st = load_style(style)
    out = []
    for lab in st.labels:
        img = face_image(style, lab, 4 * TEMPLATE_H)
        bgr = img[..., :3].astype(np.float32)
        a = img[..., 3:4].astype(np.float32) / 255.0
        out.append((lab, bgr * a + np.array(st.face if lab != BACK else st.back, np.float32) * (1 - a)))
    return out


class TemplateReader:
    """Template bank over the given styles' exact art (labels of every style, plus ``back``) and/or the
    given ``faces`` ((label, upright BGR picture) pairs), each both upright and 180°. :meth:`read` may run
    on several threads at once."""

    thread_safe = True

    def __init__(self, styles: Sequence[str] = (), *, faces: Sequence[tuple[str, npt.ArrayLike]] = ()):
        self.styles = tuple(styles)
        entries = [e for s in self.styles for e in _style_faces(s)] + list(faces)
        if not entries:
            raise ValueError("a template reader needs faces: a shipped style or an enrolled set's faces")
        rows: list[Float32Array] = []
        labels: list[str] = []
        flips: list[bool] = []
        flat: dict[str, list[Float32Array]] = {}
        for lab, face in entries:
            bgr = np.asarray(face, np.float32)
            for rot in (0, 2):
                f, c_arr, m_arr = _batch_features([np.ascontiguousarray(np.rot90(bgr, rot))])
                v, contrast, mean_c = f[0, 0], float(c_arr[0]), m_arr[0]
                rows.append(v)
                labels.append(lab)
                flips.append(rot == 2)
                if contrast < FLAT_STD:
                    flat.setdefault(lab, []).append(mean_c)
        bank = np.stack(rows).astype(np.float32)
        spread = bank.std(0)
        self.weight = ((spread / (spread.mean() + 1e-9)) ** WEIGHT_POWER).astype(np.float32)
        self.bank = _unit_rows(bank * self.weight)
        self.labels = labels
        self.flips = flips
        self.flat = {k: np.stack(v) for k, v in flat.items()}
        v = self.bank * self.weight
        w = self.weight.astype(np.float32)
        # the kernels of :meth:`_scores` (C, H, W): the bank rows times the weights, then 1, w, w^2
        kernels = np.concatenate([v, np.ones_like(w)[None], w[None], (w * w)[None]])
        self._product = _Product(kernels.reshape(-1, TEMPLATE_H, TEMPLATE_W, 3).transpose(0, 3, 1, 2),
                                 (w * w).reshape(1, TEMPLATE_H, TEMPLATE_W, 3).transpose(0, 3, 1, 2))
        self._shift_yx = (np.array([dy + 1 for _, dy in SHIFTS]), np.array([dx + 1 for dx, _ in SHIFTS]))
        self._bank_sums = v.sum(1).astype(np.float32)
        self._w_sum, self._w2_sum = float(w.sum()), float((w * w).sum())
        self._banned_cache: dict[frozenset[str], IntArray] = {}

    @classmethod
    def from_sets(cls, tilesets: Sequence[TileSet]) -> TemplateReader:
        """Templates cut from the enrolled sets' own crops (each class's mean enrolled crop)."""
        faces = [(lab, f) for ts in tilesets if ts.faces is not None for lab, f in zip(ts.labels, ts.faces)]
        return cls(faces=faces)

    def read(self, crops: Sequence[Image], allowed: Sequence[frozenset[str] | None] | None = None) -> list[Reading]:
        """The best label of each upright crop among its allowed labels (``None``: any), batched."""
        if not crops:
            return []
        n = len(crops)
        a = _padded_batch(crops)
        centre = a[:, 1:1 + TEMPLATE_H, 1:1 + TEMPLATE_W].reshape(n, -1, 3)
        means = centre.mean(1)
        contrasts = (centre - means[:, None, :]).reshape(n, -1).std(1)
        scores = self._scores(a).max(1)  # every shift against the whole bank: the best alignment per face
        if allowed is not None:
            for ok in set(x for x in allowed if x is not None):
                rows = [i for i, x in enumerate(allowed) if x == ok]
                scores[np.ix_(np.asarray(rows), self._banned(ok))] = -np.inf
        best = np.argmax(scores, axis=1)
        out: list[Reading] = []
        for i in range(n):
            allow = allowed[i] if allowed is not None else None
            if contrasts[i] < FLAT_STD and self.flat:  # plain faces: compare chromaticity, not pattern
                flat = self._flat_label(means[i], allow)
                if flat is not None:
                    out.append(flat)
                    continue
            j = int(best[i])
            out.append(Reading(self.labels[j], float(scores[i, j]), self.flips[j]))
        return out

    def _banned(self, ok: frozenset[str]) -> IntArray:
        """Bank rows whose label is not in ``ok`` (cached per label set)."""
        cols = self._banned_cache.get(ok)
        if cols is None:
            cols = self._banned_cache[ok] = np.flatnonzero(~np.isin(np.array(self.labels), list(ok)))
        return cols

    def _flat_label(self, mean_c: Float32Array, ok: frozenset[str] | None) -> Reading | None:
        best, best_d = None, np.inf
        chroma = mean_c / max(1.0, float(mean_c.sum()))
        for lab, means in self.flat.items():
            if ok is not None and lab not in ok:
                continue
            d = float(np.min(np.abs(means / np.maximum(1.0, means.sum(1, keepdims=True)) - chroma).sum(1)))
            if d < best_d - 1e-3 or (abs(d - best_d) <= 1e-3 and lab == BACK):
                best, best_d = lab, d
        return None if best is None else Reading(best, 1.0 - best_d)

    def _scores(self, a: Float32Array) -> Float32Array:
        """Normalised weighted correlation (N, shifts, bank) of the padded crops ``a`` (N, H+2, W+2, 3).

        The same score as centring each shifted window, weighting it, centring and normalising it and
        taking its dot product with the (centred, unit) bank rows, but from one correlation of the padded
        crops with the bank times the weights plus three moment kernels (1, w, w^2: sum x, sum w x,
        sum w^2 x) and one of their squares with w^2 (sum w^2 x^2), all shifts at once: the windows are
        never normalised one by one."""
        n = len(a)
        a = a - a.reshape(n, -1).mean(1)[:, None, None, None]  # conditioning: moments of small numbers
        g, sq = self._product(np.ascontiguousarray(a.transpose(0, 3, 1, 2)))  # (N, nb + 3, 3, 3), (N, 1, 3, 3)
        iy, ix = self._shift_yx
        g = g[:, :, iy, ix].transpose(0, 2, 1).reshape(n * len(SHIFTS), -1)
        sq = sq[:, 0, iy, ix].reshape(-1)
        nb = len(self.labels)
        d = TEMPLATE_H * TEMPLATE_W * 3
        m = g[:, nb] / d  # each window's mean
        sw, sw2 = g[:, nb + 1], g[:, nb + 2]
        num = g[:, :nb] - m[:, None] * self._bank_sums[None, :]
        # || centre(w * (x - m)) ||^2
        den2 = sq - 2 * m * sw2 + m * m * self._w2_sum - (sw - m * self._w_sum) ** 2 / d
        inv = 1.0 / np.maximum(np.sqrt(np.maximum(den2, 0.0)), 1e-6)
        scores: Float32Array = (num * inv[:, None]).reshape(n, len(SHIFTS), nb)
        return scores


def _conv_model(k: Float32Array, k2: Float32Array) -> bytes:
    """ONNX model bytes computing the valid correlations ``g = Conv(x, k)`` and ``sq = Conv(x * x, k2)`` of
    float32 images ``x`` (N, C, H, W) with the kernels ``k`` (M, C, kh, kw) and ``k2`` (1, C, kh, kw)."""
    from onnx import TensorProto, helper, numpy_helper

    c, h, w = k.shape[1], TEMPLATE_H + 2, TEMPLATE_W + 2
    oh, ow = h - k.shape[2] + 1, w - k.shape[3] + 1
    graph = helper.make_graph(
        [helper.make_node("Conv", ["x", "k"], ["g"]), helper.make_node("Mul", ["x", "x"], ["xx"]),
         helper.make_node("Conv", ["xx", "k2"], ["sq"])],
        "template_scores",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", c, h, w])],
        [helper.make_tensor_value_info("g", TensorProto.FLOAT, ["n", k.shape[0], oh, ow]),
         helper.make_tensor_value_info("sq", TensorProto.FLOAT, ["n", 1, oh, ow])],
        initializer=[numpy_helper.from_array(np.ascontiguousarray(k, np.float32), "k"),
                     numpy_helper.from_array(np.ascontiguousarray(k2, np.float32), "k2")],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=8)
    serialized: bytes = model.SerializeToString()
    return serialized


class _Product:
    """The two correlations of :func:`_conv_model` on one onnxruntime thread. numpy's OpenBLAS goes
    multi-threaded for a GEMM of this size and, on a busy 2-core machine, spins a scheduler slice
    (~8 ms) per call waiting for its second thread (measured); OpenCV's ``gemm`` is single-threaded but
    ~20x slower here."""

    def __init__(self, k: Float32Array, k2: Float32Array):
        import onnxruntime as ort

        opts = ort.SessionOptions()
        opts.intra_op_num_threads = 1
        opts.inter_op_num_threads = 1
        opts.log_severity_level = 3
        self.session = ort.InferenceSession(_conv_model(k, k2), sess_options=opts,
                                            providers=["CPUExecutionProvider"])

    def __call__(self, x: Float32Array) -> tuple[Float32Array, Float32Array]:
        outputs: list[Float32Array] = self.session.run(None, {"x": np.ascontiguousarray(x, np.float32)})
        g, sq = outputs
        return g, sq


def _padded_batch(crops: Sequence[Image]) -> Float32Array:
    """:func:`_padded` of every crop, lightly blurred, as one float32 array (N, H+2, W+2, 3)."""
    a = np.stack([_padded_u8(c) for c in crops]).astype(np.float32)
    n = len(a)
    tall = cast(Float32Array, cv2.GaussianBlur(a.reshape(n * (TEMPLATE_H + 2), TEMPLATE_W + 2, 3), (0, 0), 0.6))
    return tall.reshape(a.shape)
