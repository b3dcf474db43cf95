"""Evaluation protocol for the tile classifier on rendered crops (used by tests, ``make bench`` and the docs).

* :func:`style_accuracy` -- crops of a style rendered in random orientations, read by the base model.
* :func:`shots_table` -- the honest held-out test: enroll ``shots`` examples per face of a style (seeds
  disjoint from the test's) -- upright renders (:func:`enroll_style`) or the table's own crops of
  rendered layout photos (:func:`enroll_from_layouts`) -- and read test crops (:func:`render_set`, or
  :func:`table_crops`, the pipeline's own crops) with and without the set, with the confusion pairs.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from vision.arrays import Image
from vision.enrollment import enroll
from vision.tile_classifier import Result, TileClassifier
from vision.tile_labels import BACK, CLASS_LABELS, NONE, UNKNOWN
from vision.tile_match import Reading
from vision.tile_render import load_style, render_none, render_tile
from vision.tileset import TileSet

if TYPE_CHECKING:
    from vision.tile_reader import SetReader

CLASS_LABELS_ARR = np.array(CLASS_LABELS)
TEST_SEED = 500_000_000
SHOT_SEED = 600_000_000


@dataclass
class RenderedSet:
    crops: list[Image]
    labels: list[str]
    orientations: list[int]


def render_set(style: str, per_label: int, seed: int = TEST_SEED, *, with_none: int = 0,
               sizes: tuple[int, int] = (36, 80), rotate: bool = True,
               labels: tuple[str, ...] | None = None) -> RenderedSet:
    """``per_label`` augmented crops of every face (and ``back``) of ``style`` -- or of ``labels`` only --
    plus ``with_none`` none crops."""
    rng = np.random.default_rng(seed)
    out = RenderedSet([], [], [])
    for li, lab in enumerate(labels or load_style(style).labels):
        for i in range(per_label):
            k = int(rng.integers(4)) if rotate else 0
            size = int(rng.integers(*sizes))
            out.crops.append(render_tile(style, lab, orientation=k, size=size, seed=seed + li * 10_000 + i))
            out.labels.append(lab)
            out.orientations.append(k)
    for i in range(with_none):
        out.crops.append(render_none(size=int(rng.integers(*sizes)), seed=seed + 9_000_000 + i))
        out.labels.append(NONE)
        out.orientations.append(0)
    return out


@dataclass
class Score:
    accuracy: float  # best class == truth (ignoring the threshold)
    accepted_accuracy: float  # accuracy among answers above the threshold
    coverage: float  # share of answers above the threshold (not ``unknown``)
    orientation_accuracy: float  # tiles only: upright vs sideways (k mod 2) right
    n: int


def score(clf: TileClassifier, data: RenderedSet, tileset: TileSet | None = None,
          turns: int | None = None) -> Score:
    return score_results(clf.classify(data.crops, tileset=tileset, turns=turns), data)


def style_accuracy(clf: TileClassifier, style: str, per_label: int, seed: int = TEST_SEED) -> Score:
    return score(clf, render_set(style, per_label, seed))


def enroll_style(clf: TileClassifier, style: str, shots: int, seed: int = SHOT_SEED) -> TileSet:
    """Enroll ``shots`` upright augmented renders of every face of ``style``."""
    shots_set = render_set(style, shots, seed, rotate=False, sizes=(48, 80))
    examples: dict[str, list[Image]] = {}
    for crop, lab in zip(shots_set.crops, shots_set.labels):
        examples.setdefault(lab, []).append(crop)
    return enroll(clf, examples, name=f"{style}-{shots}shot", seed=seed)


# ---- vision III: the table's own crops, enrolled from the table's own camera ---------------------------

TABLE_TEST_SEED = 540_000  # scene seeds of the table-crop test (never a layout seed of a set)
LAYOUT_SHOT_SEED = 560_000  # layout-frame seeds the benchmark enrolls its sets from


def table_crops(style: str, frames: int, seed: int = TABLE_TEST_SEED, labels: tuple[str, ...] | None = None
                ) -> RenderedSet:
    """Tiles as the table pipeline cuts them out of rendered camera frames (random pose, felt, lighting),
    with their labels: every face of ``style`` (or ``labels``) laid in the four ponds, in order, so each
    crop's truth is known. Crops are upright or upside-down in their owner's view (orientation 0)."""
    from vision.calibration import Rectifier, calibrate
    from vision.scene_model import PondTile, Scene, SeatView
    from vision.scene_parse import SceneParser
    from vision.scene_render import render_scene
    from vision.tile_labels import BACK

    faces = [lab for lab in (labels or load_style(style).labels) if lab != BACK]
    rng = np.random.default_rng(seed)
    out = RenderedSet([], [], [])

    class _Cut:  # the parser's crops, in reading order, without reading them
        thread_safe, crop_margin_px = False, 0

        def read(self, crops: Sequence[Image], allowed: Sequence[frozenset[str] | None] | None = None
                 ) -> list[Reading]:
            return [Reading("1m", 1.0) for _ in crops]

    for k in range(frames):
        order = [faces[i] for i in rng.permutation(len(faces))]
        ponds = [order[i::4][:18] for i in range(4)]
        scene = Scene("mcr", tuple(SeatView(pond=tuple(PondTile(t) for t in p)) for p in ponds))
        frame, _ = render_scene(scene, seed=seed + k, style=style)
        parser = SceneParser("mcr", _Cut())
        crops = parser.tile_crops(Rectifier(calibrate(frame)).rectify(frame))
        want = [t for p in ponds for t in p]
        if len(crops) != len(want):  # the finder split or merged tiles: not a reading test, skip the frame
            continue
        out.crops += crops
        out.labels += want
        out.orientations += [0] * len(want)
    return out


def enroll_from_layouts(clf: TileClassifier, style: str, shots: int, seed: int = LAYOUT_SHOT_SEED) -> TileSet:
    """A set enrolled as a table enrolls it: ``shots`` rendered camera frames of the enrollment layout."""
    from vision.style_sets import enroll_rendered

    return enroll_rendered(clf, style, shots=shots, seed=seed)


@dataclass
class ShotRow:
    shots: int
    score: Score
    confusions: list[tuple[str, str, int]]  # (truth, read as, count), most frequent first


def shots_table(clf: TileClassifier, test: RenderedSet, enroll_fn: Callable[[int], TileSet],
                shots: tuple[int, ...] = (0, 1, 3, 5),
                turns: int | None = None) -> list[ShotRow]:
    """Accuracy / coverage / accepted accuracy of ``test`` read with no set (0 shots) and with sets enrolled
    from ``enroll_fn(k)`` for each k, with the confusion pairs."""
    from collections import Counter

    rows: list[ShotRow] = []
    for k in shots:
        ts = enroll_fn(k) if k else None
        res = clf.classify(test.crops, tileset=ts, turns=turns)
        s = score_results(res, test)
        pairs = Counter((t, r.best) for t, r in zip(test.labels, res) if r.best != t)
        rows.append(ShotRow(k, s, [(a, b, n) for (a, b), n in pairs.most_common(6)]))
    return rows


def score_results(res: Sequence[Result], data: RenderedSet) -> Score:
    """:func:`score` of results already read."""
    best = np.array([r.best for r in res])
    truth = np.array(data.labels)
    ok = best == truth
    accepted = np.array([r.label != "unknown" for r in res])
    tiles = truth != NONE
    o_ok = np.array([r.orientation % 2 == k % 2 for r, k in zip(res, data.orientations)])
    return Score(float(ok.mean()), float(ok[accepted].mean()) if accepted.any() else float("nan"),
                 float(accepted.mean()), float(o_ok[tiles].mean()) if tiles.any() else float("nan"), len(res))


# ---- vision IV: never sure and wrong -------------------------------------------------------------------

FRAME_TILES = 46  # crops per rendered frame of table_crops: the reader sees them a frame at a time


@dataclass
class SureScore:
    """How a reader's *answers* (faces taken, not asked) fare: ``n`` crops, ``best`` share whose most probable
    class is right, ``answered`` share given a face or ``none``/``back`` (not ``unknown``), ``wrong`` answers
    that are a wrong face (a confident misread), ``missed`` answers of ``none`` (or ``back``) on a face."""

    n: int
    best: float
    answered: float
    wrong: int
    missed: int

    @property
    def wrong_share(self) -> float:
        """Wrong faces per answer."""
        return self.wrong / max(1, round(self.answered * self.n))


def sure_score(reader: SetReader, data: RenderedSet, batch: int = FRAME_TILES, threshold: float | None = None
               ) -> SureScore:
    """Read ``data`` (table crops) with a :class:`vision.tile_reader.SetReader` a frame's crops at a time
    (its set watch sees them as the table would) and score its answers. ``threshold``: count a face read
    below this probability as asked (the combined confidence before vision IV, for comparison)."""
    got: list[Reading] = []
    for i in range(0, len(data.crops), batch):
        got += reader.read(data.crops[i:i + batch])
    truth = np.array(data.labels)
    lab = np.array([r.label for r in got])
    if threshold is not None:
        lab = np.array([UNKNOWN if r.label not in (NONE, BACK) and r.score < threshold else r.label for r in got])
    best = np.array([_most_probable(r) for r in got])
    answered = lab != "unknown"
    wrong = answered & (lab != truth) & (lab != NONE) & (lab != BACK)
    missed = answered & ((lab == NONE) | (lab == BACK) & (truth != BACK))
    return SureScore(len(got), float(np.mean(best == truth)), float(answered.mean()), int(wrong.sum()),
                     int(missed.sum()))


def _most_probable(r: Reading) -> str:
    """The most probable class of a reading (before the reader's doubt made it ``unknown``)."""
    assert r.probs is not None  # a SetReader's reading holds its probability row
    return str(CLASS_LABELS_ARR[int(np.argmax(r.probs))])


def mixed(a: RenderedSet, b: RenderedSet, share: float, seed: int = 0, faces: tuple[str, ...] | None = None
          ) -> RenderedSet:
    """``a``'s crops with about ``share`` of them swapped for ``b``'s (two sets mixed on one table); ``faces``:
    only crops of these faces are swapped (``a`` and ``b`` rendered at the same seeds: the same tiles in the same
    places, so a swapped crop keeps its label -- some copies of a face drawn otherwise)."""
    rng = np.random.default_rng(seed)
    out = RenderedSet([], [], [])
    for i in range(min(len(a.crops), len(b.crops))):
        swap = rng.random() < share and (faces is None or (a.labels[i] in faces and b.labels[i] == a.labels[i]))
        src = b if swap else a
        out.crops.append(src.crops[i])
        out.labels.append(src.labels[i])
        out.orientations.append(src.orientations[i])
    return out


# ---- vision IV: the table learns its set while it plays ---------------------------------------------------

@dataclass
class HandCount:
    questions: int  # faces asked (read ``unknown``)
    misreads: int  # faces answered wrong
    tiles: int
    asked: dict[str, int] = field(default_factory=dict)  # questions by true face


def learning_curve(clf: TileClassifier, style: str, hands: int, per_hand: int = 100, learn: bool = True,
                   seed: int = 900_000, signed: float = 1.0, data: RenderedSet | None = None,
                   tileset: TileSet | None = None) -> list[HandCount]:
    """A table playing ``hands`` hands in ``style`` (its set ``tileset``, default enrolled from 3 layout frames of
    ``style``), reading ``per_hand`` fresh table crops a hand (never a crop twice; ``data``, default rendered
    here), a frame's crops at a time. Every face asked is answered by the judge, every misread corrected, and at
    the hand's signature the record confirms ``signed`` of the rest (the tiles of the final table whose zone the
    camera read as the record holds it: controller/set_learning.py). With ``learn`` each confirmed crop joins the
    set (:class:`vision.set_learner.SetLearner`, 12 a face, the oldest out) and the reader reads with it from the
    next hand on."""
    from vision.set_learner import SetLearner
    from vision.tile_reader import SetReader

    base = tileset or enroll_from_layouts(clf, style, 3)
    learner = SetLearner(base, clf)
    reader = SetReader([base], classifier=clf)
    if data is None:
        data = table_crops(style, -(-hands * per_hand // FRAME_TILES) + 1, seed=seed)
    rng = np.random.default_rng(seed)
    out: list[HandCount] = []
    for h in range(hands):
        idx = list(range(h * per_hand, min(len(data.crops), (h + 1) * per_hand)))
        if not idx:
            break
        got: list[Reading] = []
        for i in range(0, len(idx), FRAME_TILES):
            got += reader.read([data.crops[j] for j in idx[i:i + FRAME_TILES]])
        asked: dict[str, int] = {}
        w = 0
        confirmed: list[int] = []
        for i, r in zip(idx, got):
            truth = data.labels[i]
            if r.label == UNKNOWN:
                asked[truth] = asked.get(truth, 0) + 1
                confirmed.append(i)  # the judge's answer confirms it
            elif r.label not in (NONE, BACK) and r.label != truth:
                w += 1
                confirmed.append(i)  # the judge's correction confirms it
            elif r.label == truth and rng.random() < signed:
                confirmed.append(i)  # on the final table, the signed record confirms it
        if learn:
            for i in confirmed:
                learner.add(f"h{h}/{i}", data.labels[i], data.crops[i], hand=f"h{h}")
            reader.use(learner.tileset())
        out.append(HandCount(sum(asked.values()), w, len(idx), asked))
    return out
