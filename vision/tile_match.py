"""Read tile crops by normalised correlation with the enrolled sets' clean faces (vision I's ``face_image``).

The table's tile sets are known (they are enrolled before a session), the rectified crops are upright or
upside-down in their owner's view and at a known scale, so a template bank is enough to read rendered and
well-lit real tables in a fraction of a millisecond per tile; :class:`OnnxReader` uses vision I's classifier
instead when its model is installed (``vision/models/tiles.onnx``). Both take a batch of upright crops
and an optional set of allowed labels per crop (the zone prior: no face-down tile in a pond, only flowers
among the flowers) and return one :class:`Reading` per crop.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.tile_labels import BACK
from vision.tile_render import face_image, load_style

TEMPLATE_W, TEMPLATE_H = 21, 28
SHIFTS = ((0, 0), (-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (1, 1), (-1, 1), (1, -1))  # ~1 mm of crop error
TOP_K = 16  # candidates per crop that are tried at every shift
INNER = 0.1  # fraction cut from every side before matching (rounded corners, side band, shadow)
FLAT_STD = 7.0  # a crop with less spatial contrast than this is a plain face (back, blank dragon)
WEIGHT_POWER = 0.5  # pixels weighted by (their spread over the bank) ** power: numerals over shared glyphs


@dataclass(frozen=True)
class Reading:
    label: str
    score: float
    upside_down: bool = False


def _padded(img: np.ndarray) -> np.ndarray:
    """The crop's inner window plus one template pixel all round, at template scale (float32 BGR)."""
    h, w = img.shape[:2]
    my, mx = h * INNER, w * INNER
    py, px = (h - 2 * my) / TEMPLATE_H, (w - 2 * mx) / TEMPLATE_W  # source px per template px
    y0, y1 = int(round(my - py)), int(round(h - my + py))
    x0, x1 = int(round(mx - px)), int(round(w - mx + px))
    win = img[max(0, y0):y1, max(0, x0):x1, :3]
    return cv2.resize(win, (TEMPLATE_W + 2, TEMPLATE_H + 2), interpolation=cv2.INTER_AREA).astype(np.float32)


def _unit_rows(x: np.ndarray) -> np.ndarray:
    x = x - x.mean(1, keepdims=True)
    n = np.linalg.norm(x, axis=1, keepdims=True)
    return x / np.maximum(n, 1e-6)


def _batch_features(crops: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Zero-mean feature vectors (N, shifts, D), spatial contrast (N,) and mean colour (N, 3) of upright
    crops (the reader weights and normalises them)."""
    a = np.stack([_padded(c) for c in crops])  # (N, H+2, W+2, 3)
    n = len(a)
    tall = cv2.GaussianBlur(a.reshape(n * (TEMPLATE_H + 2), TEMPLATE_W + 2, 3), (0, 0), 0.6)
    a = tall.reshape(a.shape)
    wins = np.stack([a[:, 1 + dy:1 + dy + TEMPLATE_H, 1 + dx:1 + dx + TEMPLATE_W] for dx, dy in SHIFTS], 1)
    centre = wins[:, 0].reshape(n, -1, 3)
    mean_c = centre.mean(1)
    contrast = (centre - mean_c[:, None, :]).reshape(n, -1).std(1)
    flat = wins.reshape(n * len(SHIFTS), -1)
    feats = (flat - flat.mean(1, keepdims=True)).reshape(n, len(SHIFTS), -1)  # zero-mean; unit after weighting
    return feats.astype(np.float32), contrast, mean_c


def _matmul_t(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a @ b.T`` with OpenCV's GEMM (a multi-threaded BLAS spinning on a busy 2-core machine costs
    seconds for this tiny product)."""
    return cv2.gemm(a, b, 1.0, None, 0.0, flags=cv2.GEMM_2_T)


class TemplateReader:
    """Template bank over the given styles (labels of every style, plus ``back``), both upright and 180°."""

    def __init__(self, styles: Sequence[str]):
        self.styles = tuple(styles)
        rows, labels, flips, flat = [], [], [], {}
        for s in self.styles:
            st = load_style(s)
            for lab in st.labels:
                img = face_image(s, lab, 4 * TEMPLATE_H)
                bgr = img[..., :3].astype(np.float32)
                a = img[..., 3:4].astype(np.float32) / 255.0
                bgr = bgr * a + np.array(st.face if lab != BACK else st.back, np.float32) * (1 - a)
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

    def read(self, crops: Sequence[np.ndarray], allowed: Sequence[frozenset[str] | None] | None = None) -> list[Reading]:
        if not crops:
            return []
        fx, contrasts, means = _batch_features(crops)
        n = len(crops)
        fx = _unit_rows(fx.reshape(n * len(SHIFTS), -1) * self.weight).reshape(fx.shape).astype(np.float32)
        # the unshifted window against the whole bank, then every shift against each crop's best few
        scores = _matmul_t(np.ascontiguousarray(fx[:, 0]), self.bank)
        top = np.argsort(-scores, axis=1)[:, :TOP_K]
        shifted = np.einsum("nsd,nkd->nsk", fx, self.bank[top]).max(1)
        np.put_along_axis(scores, top, np.maximum(np.take_along_axis(scores, top, 1), shifted), 1)
        feats = list(zip(range(n), contrasts, means))
        out = []
        lab_arr = np.array(self.labels)
        masks: dict[frozenset[str], np.ndarray] = {}
        if allowed is not None:
            for ok in set(a for a in allowed if a is not None):
                masks[ok] = ~np.isin(lab_arr, list(ok))
        for i, (_, contrast, mean_c) in enumerate(feats):
            s = scores[i]
            ok = allowed[i] if allowed is not None else None
            if ok is not None:
                s[masks[ok]] = -np.inf
            if contrast < FLAT_STD and self.flat:  # plain faces: compare chromaticity, not pattern
                best, best_d = None, np.inf
                chroma = mean_c / max(1.0, float(mean_c.sum()))
                for lab, means in self.flat.items():
                    if ok is not None and lab not in ok:
                        continue
                    d = float(np.min(np.abs(means / np.maximum(1.0, means.sum(1, keepdims=True)) - chroma).sum(1)))
                    if d < best_d - 1e-3 or (abs(d - best_d) <= 1e-3 and lab == BACK):
                        best, best_d = lab, d
                if best is not None:
                    out.append(Reading(best, 1.0 - best_d))
                    continue
            j = int(np.argmax(s))
            out.append(Reading(self.labels[j], float(s[j]), self.flips[j]))
        return out


class OnnxReader:
    """vision I's ONNX classifier behind the same interface (crops are classified as they are)."""

    def __init__(self, model: str | Path | None = None, tileset: object | None = None, crop_margin_px: int = 0):
        from vision.tile_classifier import TileClassifier

        self.clf = TileClassifier.load(model)
        self.tileset = tileset
        self.crop_margin_px = crop_margin_px  # the classifier was trained on crops with some table around

    def read(self, crops: Sequence[np.ndarray], allowed: Sequence[frozenset[str] | None] | None = None) -> list[Reading]:
        """The most probable class among the allowed labels of each crop (batched)."""
        if not crops:
            return []
        logits, orient, emb = self.clf.run_prepared(self.clf.prepare(list(crops)))
        p = self.clf.probabilities(logits, emb, self.tileset)  # type: ignore[arg-type]
        classes = np.array(self.clf.classes)
        out = []
        for i in range(len(crops)):
            ok = allowed[i] if allowed is not None else None
            q = p[i] if ok is None else np.where(np.isin(classes, list(ok)), p[i], -1.0)
            j = int(np.argmax(q))
            out.append(Reading(str(classes[j]), float(p[i, j]), int(np.argmax(orient[i])) == 2))
        return out


def model_available() -> bool:
    from vision.tile_classifier import MODEL_PATH

    return MODEL_PATH.is_file()
