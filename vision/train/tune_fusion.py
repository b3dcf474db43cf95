"""Set the tile-set fusion entry of tiles.json: the confidence threshold for reads with a tile set.

The two fusion weights (``base_weight`` 0.1, ``proto_scale`` 20, see :class:`vision.tile_classifier.Fusion`)
are fixed by design; the threshold is chosen on the *trained* styles only (each enrolled with 3 shots,
read on fresh renders, plus none crops) as the lowest whose accepted answers are wrong at most 0.1 % of
the time. Runs on the exported ONNX model (no torch)::

    python -m vision.train.tune_fusion [--write]
"""
from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from dataclasses import asdict, replace
from pathlib import Path

import numpy as np

from vision.arrays import Float32Array, IntArray
from vision.tile_classifier import MODEL_PATH, Fusion, TileClassifier
from vision.tile_eval import enroll_style, render_set
from vision.tile_labels import CLASS_LABELS
from vision.tileset import TileSet

TUNE_SHOT_SEED = 700_000_000
TUNE_TEST_SEED = 710_000_000

#: One style's reads (:func:`collect`): logits, embeddings, the true class indices, its enrolled set.
Part = tuple[Float32Array, Float32Array, IntArray, TileSet]


def collect(clf: TileClassifier, styles: list[str], per_label: int, n_none: int, shots: int) -> list[Part]:
    """(logits, embeddings, truth, tile set) per style; each style's test also holds none crops."""
    out: list[Part] = []
    for i, style in enumerate(styles):
        ts = enroll_style(clf, style, shots, seed=TUNE_SHOT_SEED + i)
        data = render_set(style, per_label, TUNE_TEST_SEED + i * 1_000_000, with_none=n_none)
        lg, _, emb = clf.run_prepared(clf.prepare(data.crops))
        truth = np.array([CLASS_LABELS.index(lab) for lab in data.labels])
        out.append((lg, emb, truth, ts))
    return out


def choose_threshold(clf: TileClassifier, parts: Sequence[Part], fusion: Fusion, max_error: float = 1e-3) -> float:
    tuned = clf.with_fusion(fusion)
    conf, correct = [], []
    for lg, emb, truth, ts in parts:
        p = tuned.probabilities(lg, emb, ts)
        conf.append(p.max(1))
        correct.append(p.argmax(1) == truth)
    c, k = np.concatenate(conf), np.concatenate(correct)
    for thr in np.linspace(0.3, 0.99, 70):
        acc = c >= thr
        if acc.sum() == 0 or (~k[acc]).mean() <= max_error:
            return float(round(thr, 3))
    return 0.99


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--per-label", type=int, default=6)
    ap.add_argument("--none", type=int, default=200)
    ap.add_argument("--write", action="store_true", help="store the result in the model's .json")
    ap.add_argument("--model", type=Path, default=MODEL_PATH,
                    help="the model (default vision/models/tiles.onnx; a candidate before it is copied)")
    args = ap.parse_args(argv)
    if not args.model.is_file() or not args.model.with_suffix(".json").is_file():
        ap.error(f"{args.model}: no such model (needs {args.model.name} and its .json)")
    clf = TileClassifier.load(args.model)
    parts = collect(clf, list(clf.meta["train_styles"]), args.per_label, args.none, 3)
    best = Fusion()
    best = replace(best, threshold=choose_threshold(clf, parts, best))
    print(json.dumps({"fusion": asdict(best)}, indent=1))
    if args.write:
        path = args.model.with_suffix(".json")
        meta = json.loads(path.read_text())
        meta["fusion"] = asdict(best)
        path.write_text(json.dumps(meta, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
