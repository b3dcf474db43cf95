"""Compare tile models on the *tuning* renders (never the reported test of ``make bench``).

    python -m vision.train.compare [--per-label 10] MODEL.onnx [MODEL.onnx ...]

For each model: accuracy on the trained styles, on the white dragon / back pair (the two faces only a
colour tells apart), and on the held-out style ``kai`` with no tile set and with 1 and 3 enrolled
examples per face, each with one and with four test-time turns. The seeds (720 000 000 onward) are
disjoint from training (1e9+), validation (2e9+), the held-out cache (3e9+) and the bench's test and
enrollment seeds (500 000 000 / 600 000 000): design decisions are taken on these renders only.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path

from vision.tile_classifier import TileClassifier
from vision.tile_eval import RenderedSet, enroll_style, render_set, score
from vision.tile_labels import BACK
from vision.train.dataset import HELD_OUT_STYLES, TRAIN_STYLES

TUNE_TEST_SEED = 720_000_000
TUNE_TRAINED_SEED = 720_000_001
TUNE_SHOT_SEED = 730_000_000
TUNE_PAIR_SEED = 740_000_000


def pair_set(style: str, per_label: int) -> RenderedSet:
    """White dragon and back crops of ``style`` in random orientations."""
    return render_set(style, per_label, TUNE_PAIR_SEED, labels=("5z", BACK))


def evaluate(path: Path | None, per_label: int, progress: Callable[[str], object] = print) -> dict[str, float]:
    clf = TileClassifier.load(path)
    out: dict[str, float] = {}
    for style in TRAIN_STYLES:
        data = render_set(style, per_label * 2, TUNE_TRAINED_SEED)
        for turns in (1, 4):
            out[f"{style} t{turns}"] = score(clf, data, turns=turns).accuracy
        pairs = pair_set(style, per_label * 5)
        out[f"{style} 5z/back t4"] = score(clf, pairs, turns=4).accuracy
    for style in HELD_OUT_STYLES:
        test = render_set(style, per_label, TUNE_TEST_SEED)
        for turns in (1, 4):
            out[f"{style} 0-shot t{turns}"] = score(clf, test, turns=turns).accuracy
        for shots in (1, 3):
            ts = enroll_style(clf, style, shots, seed=TUNE_SHOT_SEED)
            for turns in (1, 4):
                out[f"{style} {shots}-shot t{turns}"] = score(clf, test, ts, turns=turns).accuracy
    progress(f"{path}: " + json.dumps({k: round(v * 100, 2) for k, v in out.items()}))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("models", nargs="*", type=Path, help="ONNX models (with their .json beside); none: the shipped one")
    ap.add_argument("--per-label", type=int, default=10, help="test renders per face of the held-out style")
    ap.add_argument("--json", type=Path, help="also write the figures here")
    args = ap.parse_args(argv)
    for m in args.models:
        if not m.is_file() or not m.with_suffix(".json").is_file():
            ap.error(f"{m}: no such model (needs {m.name} and {m.with_suffix('.json').name})")
    results = {str(m): evaluate(m, args.per_label) for m in (args.models or [None])}
    keys = list(next(iter(results.values())))
    width = max(len(k) for k in keys)
    print(f"{'':{width}}  " + "  ".join(f"{Path(m).stem[:14]:>14}" for m in results))
    for k in keys:
        print(f"{k:{width}}  " + "  ".join(f"{r[k] * 100:13.2f}%" for r in results.values()))
    if args.json:
        args.json.write_text(json.dumps(results, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
