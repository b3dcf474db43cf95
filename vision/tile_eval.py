"""Evaluation protocol for the tile classifier on rendered crops (used by tests, ``make bench`` and the docs).

* :func:`style_accuracy` -- crops of a style rendered in random orientations, read by the base model.
* :func:`enrollment_accuracy` -- the honest held-out test: enroll ``shots`` upright renders per face of a
  style (seeds disjoint from the test's), then read test renders of that style in random orientations
  with and without the tile set.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.tile_classifier import TileClassifier
from vision.tile_labels import NONE
from vision.tile_render import load_style, render_none, render_tile
from vision.tileset import TileSet, enroll

TEST_SEED = 500_000_000
SHOT_SEED = 600_000_000


@dataclass
class RenderedSet:
    crops: list[np.ndarray]
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
    res = clf.classify(data.crops, tileset=tileset, turns=turns)
    best = np.array([r.best for r in res])
    truth = np.array(data.labels)
    ok = best == truth
    accepted = np.array([r.label != "unknown" for r in res])
    tiles = truth != NONE
    o_ok = np.array([r.orientation % 2 == k % 2 for r, k in zip(res, data.orientations)])
    return Score(float(ok.mean()), float(ok[accepted].mean()) if accepted.any() else float("nan"),
                 float(accepted.mean()), float(o_ok[tiles].mean()) if tiles.any() else float("nan"), len(res))


def style_accuracy(clf: TileClassifier, style: str, per_label: int, seed: int = TEST_SEED) -> Score:
    return score(clf, render_set(style, per_label, seed))


def enroll_style(clf: TileClassifier, style: str, shots: int, seed: int = SHOT_SEED) -> TileSet:
    """Enroll ``shots`` upright augmented renders of every face of ``style``."""
    shots_set = render_set(style, shots, seed, rotate=False, sizes=(48, 80))
    examples: dict[str, list[np.ndarray]] = {}
    for crop, lab in zip(shots_set.crops, shots_set.labels):
        examples.setdefault(lab, []).append(crop)
    return enroll(clf, examples, name=f"{style}-{shots}shot", seed=seed)


def enrollment_accuracy(clf: TileClassifier, style: str, shots: int, per_label: int,
                        seed: int = TEST_SEED, test: RenderedSet | None = None) -> tuple[Score, Score]:
    """(without the set, with the set) scores on ``style`` after enrolling ``shots`` crops per face."""
    test = test or render_set(style, per_label, seed)
    ts = enroll_style(clf, style, shots)
    return score(clf, test), score(clf, test, ts)
