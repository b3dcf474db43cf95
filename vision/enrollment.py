"""Enrolling a tile set: prototypes from a table's own labelled crops, and the set's own thresholds.

:func:`enroll` embeds each crop and a few jittered copies in their four quarter turns with a
:class:`~vision.tile_classifier.TileClassifier` and builds a :class:`~vision.tileset.TileSet`;
:func:`calibrate_set` sets its match level and confidence thresholds by leave-one-out on the same crops.
Kept apart from :mod:`vision.tileset` (what a set is, and how it is read) so that the tile set does not
import the classifier that reads with it (issue #31: the ``tile_classifier`` ↔ ``tileset`` import circle).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, cast

import cv2
import numpy as np

from vision.arrays import BoolArray, Float32Array, Float64Array, Image
from vision.tile_labels import BACK, CLASS_LABELS, is_label
from vision.tileset import NO_COLOUR, ROTATION_PROTOTYPES, TileSet, inner_colour, mean_face

if TYPE_CHECKING:
    from vision.tile_classifier import TileClassifier

CALIBRATION_COPIES = 10  # camera-degraded copies of each enrolled crop read (leave-one-out) to set turns_threshold
TURNS_MAX_ERROR = 0.002  # turns_threshold: accepted answers of those reads wrong at most this often (bound below)
MIN_THRESHOLD = 0.5  # a calibrated threshold never accepts an answer the model holds less likely than not


def _jitter(crop: Image, rng: np.random.Generator) -> Image:
    """A slightly rescaled, shifted, re-lit and blurred copy of a crop (enrollment augmentation)."""
    h, w = crop.shape[:2]
    s = rng.uniform(0.92, 1.08)
    m = cv2.getRotationMatrix2D((w / 2 + rng.normal(0, 0.02 * w), h / 2 + rng.normal(0, 0.02 * h)),
                                rng.normal(0, 2.0), s)
    out: Float32Array = cv2.warpAffine(crop, m, (w, h), borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    out = out * rng.uniform(0.85, 1.15) + rng.uniform(-12, 12)
    if rng.random() < 0.5:
        out = cast(Float32Array, cv2.GaussianBlur(out, (0, 0), rng.uniform(0.3, 1.0)))
    return np.clip(out, 0, 255).astype(np.uint8)


def _camera_copy(crop: Image, rng: np.random.Generator) -> Image:
    """A copy of an enrolled crop as another photo of the tile may show it: framed a little wider or
    tighter, smaller (36-64 px long side), another white balance and exposure, blur, sensor noise, JPEG --
    and turned a random number of quarter turns. The calibration reads these, not the clean crop: a set
    read only on its own clean crops is surer of itself than of a new photo."""
    h, w = crop.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2 + rng.normal(0, 0.03 * w), h / 2 + rng.normal(0, 0.03 * h)),
                                rng.normal(0, 2.0), rng.uniform(0.9, 1.1))
    out = cast(Image, cv2.warpAffine(crop, m, (w, h), borderMode=cv2.BORDER_REPLICATE))
    f = min(1.0, rng.uniform(36, 64) / max(h, w))
    if f < 1.0:
        out = cast(Image, cv2.resize(out, (max(8, round(w * f)), max(8, round(h * f))), interpolation=cv2.INTER_AREA))
    img: Float64Array = out.astype(np.float32) * rng.uniform(0.85, 1.15, 3) + rng.uniform(-12, 12)
    if rng.random() < 0.5:
        img = cast(Float64Array, cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 1.0)))
    img += rng.normal(0, rng.uniform(1, 4), img.shape)
    out = np.clip(img, 0, 255).astype(np.uint8)
    if rng.random() < 0.3:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(50, 90))])
        out = cast(Image, cv2.imdecode(buf, cv2.IMREAD_COLOR)) if ok else out
    return np.ascontiguousarray(np.rot90(out, int(rng.integers(4))))


def enroll(classifier: TileClassifier, examples: Mapping[str, Sequence[Image]], *, jitters: int = 3,
           seed: int = 0, name: str = "", progress: Callable[[Iterable[str]], Iterable[str]] | None = None
           ) -> TileSet:
    """Build a tile set from upright BGR crops per label (``{"1m": [crop, ...], ...}``): prototypes per
    quarter turn, each class's mean face, the face and back colours, and the set's own confidence
    threshold and match level by leave-one-out on the crops (:func:`calibrate_set`)."""
    bad = [lab for lab in examples if not is_label(lab)]
    if bad:
        raise ValueError(f"unknown tile labels: {', '.join(sorted(bad))}")
    rng = np.random.default_rng(seed)
    cam_rng = np.random.default_rng([seed, 1])  # its own stream: the prototypes do not depend on it
    labels = [lab for lab in CLASS_LABELS if lab in examples and len(examples[lab])]
    protos, counts, held = [], [], []
    items: Iterable[str] = progress(labels) if progress else labels
    for lab in items:
        copies = []
        for crop in examples[lab]:
            copies += [crop] + [_jitter(crop, rng) for _ in range(jitters)]
        # one prototype per quarter turn: a turned tile is not the same picture to the network
        variants = [np.ascontiguousarray(np.rot90(c, k)) for k in range(4) for c in copies]
        logits, _, emb = classifier.run_prepared(classifier.prepare(variants))
        n, c = len(examples[lab]), 1 + jitters
        emb = emb.reshape(4, n, c, -1)
        sums = emb.sum(axis=2)  # (4 turns, examples, D): what each example adds to its class's prototypes
        mean = sums.sum(axis=1)
        protos.append(mean / np.maximum(np.linalg.norm(mean, axis=1, keepdims=True), 1e-6))
        counts.append(n)
        # each example as read (no jitter), in its four turns, and its camera copies each in four turns:
        # for the leave-one-out calibration
        cams = [_camera_copy(crop, cam_rng) for crop in examples[lab] for _ in range(CALIBRATION_COPIES)]
        cam_logits, _, cam_emb = classifier.run_prepared(classifier.prepare(
            [np.ascontiguousarray(np.rot90(cc, k)) for k in range(4) for cc in cams]))
        held.append((sums, emb[:, :, 0], logits.reshape(4, n, c, -1)[:, :, 0],
                     cam_emb.reshape(4, n, CALIBRATION_COPIES, -1), cam_logits.reshape(4, n, CALIBRATION_COPIES, -1),
                     cams))
    d = protos[0].shape[1] if protos else 0
    arr = np.array(protos, np.float32).reshape(len(protos), ROTATION_PROTOTYPES, d)
    faces = np.stack([mean_face(examples[lab]) for lab in labels]) if labels else None
    face_px = [inner_colour(c) for lab in labels if lab != BACK for c in examples[lab]]
    back_px = [inner_colour(c) for c in examples.get(BACK, ())]
    ts = TileSet(tuple(labels), arr, np.array(counts, np.int32), classifier.model_id, name, faces,
                 _median_colour(face_px), _median_colour(back_px))
    return calibrate_set(classifier, ts, held)


def _unit(x: Float32Array) -> Float32Array:
    return cast(Float32Array, x / np.maximum(np.linalg.norm(x, axis=-1, keepdims=True), 1e-6))


Held = tuple[Float32Array, Float32Array, Float32Array, Float32Array, Float32Array, list[Image]]
"""One class's enrolled crops as :func:`enroll` read them: per quarter turn what each crop adds to the
prototypes, each crop's embedding and logits, its camera copies' embeddings and logits (turn, crop, copy,
...), and the copies themselves (crop by crop)."""


def calibrate_set(classifier: TileClassifier, ts: TileSet, held: Sequence[Held]) -> TileSet:
    """The set's own match level and confidence thresholds, from its enrolled crops by leave-one-out: each
    crop is read against prototypes built without it. The match level is the median similarity of a crop
    (in its four quarter turns) to its nearest prototype (what a tile of this set scores). ``threshold``
    (one read, as the table pipeline reads) is the model's tile-set threshold, lowered to the 5th
    percentile of the crops' right answers' confidences where this set's answers are less confident (an
    unusual-looking set is not answered ``unknown`` wholesale) -- but never to or below a wrong answer's
    confidence. ``turns_threshold`` (a photo read in its four turns, averaged) comes from the crops'
    camera copies (:func:`_camera_copy`): the lowest confidence above which those reads were right but for
    at most :data:`TURNS_MAX_ERROR` of them, counting one more error than seen (so a few hundred reads with
    none wrong are needed), never under :data:`MIN_THRESHOLD` nor over the model's threshold. Classes with
    one crop cannot be left out; a set without any two-crop class keeps the model's settings."""
    sims, rows = [], []
    for ci, (sums, emb, *_) in enumerate(held):
        n = sums.shape[1]
        if n < 2:
            continue
        for i in range(n):
            loo = ts.prototypes.copy()
            loo[ci] = _unit(sums.sum(axis=1) - sums[:, i])
            sims.append(float(np.max(np.einsum("kd,pmd->kpm", emb[:, i], loo), axis=(1, 2)).mean()))
            rows.append((ci, i, loo))
    if not rows:
        return ts
    level = float(np.median(sims))
    ts = replace(ts, match_level=level)
    confs, right, cam_confs, cam_right = [], [], [], []
    for ci, i, loo in rows:
        _, emb, logits, cam_emb, cam_logits, cams = held[ci]
        truth = CLASS_LABELS.index(ts.labels[ci])
        p = classifier.probabilities(logits[:, i], emb[:, i], replace(ts, prototypes=loo))
        confs += p.max(1).tolist()
        right += (p.argmax(1) == truth).tolist()
        turns, copies = cam_logits.shape[0], cam_logits.shape[2]
        pc = classifier.probabilities(cam_logits[:, i].reshape(turns * copies, -1),
                                      cam_emb[:, i].reshape(turns * copies, -1), replace(ts, prototypes=loo))
        pc = pc.reshape(turns, copies, -1).mean(axis=0)  # as classify() reads a photo: the turns averaged
        pc = classifier.trust_blank_faces(pc, cams[i * copies:(i + 1) * copies], ts)
        cam_confs += pc.max(1).tolist()
        cam_right += (pc.argmax(1) == truth).tolist()
    conf, ok = np.array(confs), np.array(right)
    model_thr = classifier.fusion.threshold
    thr = float(np.percentile(conf[ok], 5)) if ok.any() else model_thr
    if (~ok).any():
        thr = max(thr, float(conf[~ok].max()) + 0.01)
    return replace(ts, threshold=round(min(model_thr, thr), 4), loo_accuracy=float(ok.mean()),
                   turns_threshold=round(_lowest_safe(np.array(cam_confs), np.array(cam_right), model_thr), 4))


def _lowest_safe(conf: Float64Array, ok: BoolArray, cap: float) -> float:
    """The lowest threshold whose accepted reads (``conf`` >= it) are wrong at most :data:`TURNS_MAX_ERROR` of
    the time counting one error more than seen; ``cap`` where none is (too few reads, or wrong at the top)."""
    order = np.argsort(-conf)
    wrong = np.cumsum(~ok[order])
    fine = np.nonzero(wrong + 1 <= TURNS_MAX_ERROR * np.arange(1, len(order) + 1))[0]
    if not len(fine):
        return cap
    return float(min(cap, max(MIN_THRESHOLD, conf[order][fine[-1]])))


def _median_colour(px: Sequence[Float64Array]) -> tuple[int, int, int]:
    if not len(px):
        return NO_COLOUR
    m = np.median(np.stack(px), axis=0)
    return (int(round(m[0])), int(round(m[1])), int(round(m[2])))
