"""Tile models side by side on the held-out photoreal sets and on the held-out ``kai`` figures of the docs.

    python -m vision.train.photo_eval [--per-label 10] [--json out.json] MODEL.onnx [MODEL.onnx ...]

For each model (none given: the shipped one), on crops rendered once and read by every model:

* **held-out photoreal single crops** (:data:`vision.heldout_styles.PHOTOREAL`: ``kai``, ``kai-green`` and
  two reserved rich random styles, each as a physical set with a look never trained on), random quarter
  turns, 36-80 px, read as ``tiles classify`` reads a photo (four turns): no set, and a set enrolled from
  3 upright photo-like crops per face (other seeds) -- best guess, answered, wrong faces among the answers,
  confusion pairs;
* **held-out photoreal table-like crops**: cut as the pipeline cuts (``tight``), upright, read once a
  frame's worth at a time by the pipeline's reader (:class:`vision.tile_reader.SetReader`: the sure rule and
  the set watch) with the same 3-shot set;
* ``kai`` **single crops** (the docs' test renders, :func:`vision.tile_eval.render_set`) 0- and 3-shot, and
  ``kai`` **table crops** (:func:`vision.tile_eval.table_crops`, the set enrolled from 3 layout frames),
  one turn, and through the ``SetReader``;
* the **trained styles** on the tuning renders of :mod:`vision.train.compare` (four turns).

Seeds: test crops 800 000 000 onward, enrollment crops 810 000 000 onward -- disjoint from the training
caches (1e9+, photoreal 4e9+) and from the bench's seeds.
"""
from __future__ import annotations

import argparse
import json
import pickle
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Literal, TypedDict

import numpy as np

if TYPE_CHECKING:
    from vision.arrays import Image
    from vision.tile_classifier import Result, TileClassifier
    from vision.tile_eval import RenderedSet
    from vision.tile_reader import SetReader
    from vision.tileset import TileSet

PHOTO_TEST_SEED = 800_000_000
PHOTO_SHOT_SEED = 810_000_000

Kind = Literal["no set", "3-shot"]
KINDS: tuple[Kind, ...] = ("no set", "3-shot")


class Answers(TypedDict):
    """The classifier's answers on a set of crops (:func:`_answers`)."""

    n: int
    best: float  # best guess right
    answered: float  # share not ``unknown``
    wrong: int  # wrong faces among the answers
    confusions: list[str]  # "truth->read xN", most frequent first


class Sure(TypedDict):
    """The pipeline's reader on table-like crops (:func:`vision.tile_eval.sure_score`)."""

    n: int
    best: float
    answered: float
    wrong: int
    missed: int
    watch_wrong_set: bool


#: A set read with no tile set and with a 3-shot set.
BySet = TypedDict("BySet", {"no set": Answers, "3-shot": Answers})
#: kai's table crops: as :data:`BySet`, and by the pipeline's reader.
ByReader = TypedDict("ByReader", {"no set": Answers, "3-shot": Answers, "reader": Sure})


class Rendered(TypedDict, total=False):
    """The crops every model reads (:func:`render_all`), per held-out photoreal set where named so."""

    photo: dict[str, RenderedSet]
    photo_tight: dict[str, RenderedSet]
    photo_shots: dict[str, RenderedSet]
    photo_shots_tight: dict[str, RenderedSet]
    kai: RenderedSet
    kai_table: RenderedSet
    trained: dict[str, RenderedSet]


#: One model's figures (:func:`evaluate`; the ``--json`` file holds them per model).
Figures = TypedDict("Figures", {
    "photo": "dict[str, BySet]", "photo_table": "dict[str, Sure]", "kai single": BySet, "kai table": ByReader,
    "trained": "dict[str, Answers]", "val_accuracy": float, "photo_val_accuracy": float}, total=False)


def _answers(res: Sequence[Result], truth: list[str]) -> Answers:
    """Best guess, answered, wrong faces among the answers and the confusion pairs of classify results."""
    t = np.array(truth)
    best = np.array([r.best for r in res])
    lab = np.array([r.label for r in res])
    answered = lab != "unknown"
    wrong = answered & (lab != t) & ~np.isin(lab, ["none", "back"])
    pairs = Counter((a, b) for a, b in zip(t, best) if a != b)
    return {"n": len(res), "best": float(np.mean(best == t)), "answered": float(answered.mean()),
            "wrong": int(wrong.sum()), "confusions": [f"{a}->{b} x{n}" for (a, b), n in pairs.most_common(8)]}


def _sure(reader: SetReader, data: RenderedSet) -> Sure:
    from vision.tile_eval import sure_score

    s = sure_score(reader, data)
    return {"n": s.n, "best": s.best, "answered": s.answered, "wrong": s.wrong, "missed": s.missed,
            "watch_wrong_set": bool(reader.watch and reader.watch.wrong)}


def render_all(per_label: int, kai_frames: int, names: list[str] | None = None, kai: bool = True) -> Rendered:
    """The crops every model reads (rendered once): the held-out photoreal sets ``names`` (default: all),
    and with ``kai`` the kai and trained-style figures."""
    from vision.heldout_styles import PHOTOREAL, photoreal_crops
    from vision.tile_eval import render_set, table_crops
    from vision.train.compare import TUNE_TRAINED_SEED
    from vision.train.dataset import TRAIN_STYLES

    data: Rendered = {"photo": {}, "photo_tight": {}, "photo_shots": {}, "photo_shots_tight": {}}
    for i, name in enumerate(PHOTOREAL):
        if names is not None and name not in names:
            continue
        data["photo"][name] = photoreal_crops(name, per_label, PHOTO_TEST_SEED + i * 1_000_000)
        data["photo_tight"][name] = photoreal_crops(name, per_label, PHOTO_TEST_SEED + 500_000 + i * 1_000_000,
                                                    rotate=False, tight=True, sizes=(40, 52))
        data["photo_shots"][name] = photoreal_crops(name, 3, PHOTO_SHOT_SEED + i * 1_000_000, rotate=False,
                                                    sizes=(48, 80))
        data["photo_shots_tight"][name] = photoreal_crops(name, 3, PHOTO_SHOT_SEED + 500_000 + i * 1_000_000,
                                                          rotate=False, tight=True, sizes=(40, 52))
        print(f"rendered {name}", file=sys.stderr, flush=True)
    if not kai:
        return data
    data["kai"] = render_set("kai", 20)
    data["kai_table"] = table_crops("kai", kai_frames)
    data["trained"] = {s: render_set(s, 20, TUNE_TRAINED_SEED) for s in TRAIN_STYLES}
    return data


def _enroll(clf: TileClassifier, shots: RenderedSet) -> TileSet:
    from vision.enrollment import enroll

    ex: dict[str, list[Image]] = {}
    for crop, lab in zip(shots.crops, shots.labels):
        ex.setdefault(lab, []).append(crop)
    return enroll(clf, ex, name="photo-3shot", seed=PHOTO_SHOT_SEED)


def evaluate(path: Path | None, data: Rendered, kai: bool = True) -> Figures:
    from vision.tile_classifier import TileClassifier
    from vision.tile_eval import enroll_from_layouts, enroll_style
    from vision.tile_reader import SetReader

    clf = TileClassifier.load(path)
    out: Figures = {"photo": {}, "photo_table": {}}
    for name, test in data["photo"].items():
        ts = _enroll(clf, data["photo_shots"][name])
        out["photo"][name] = {"no set": _answers(clf.classify(test.crops), test.labels),
                              "3-shot": _answers(clf.classify(test.crops, tileset=ts), test.labels)}
        ts_t = _enroll(clf, data["photo_shots_tight"][name])
        out["photo_table"][name] = _sure(SetReader([ts_t], classifier=clf), data["photo_tight"][name])
    if not kai:
        return out
    kai_set = data["kai"]
    ts = enroll_style(clf, "kai", 3)
    out["kai single"] = {"no set": _answers(clf.classify(kai_set.crops), kai_set.labels),
                         "3-shot": _answers(clf.classify(kai_set.crops, tileset=ts), kai_set.labels)}
    table = data["kai_table"]
    ts = enroll_from_layouts(clf, "kai", 3)
    out["kai table"] = {"no set": _answers(clf.classify(table.crops, turns=1), table.labels),
                        "3-shot": _answers(clf.classify(table.crops, tileset=ts, turns=1), table.labels),
                        "reader": _sure(SetReader([ts], classifier=clf), table)}
    out["trained"] = {s: _answers(clf.classify(d.crops), d.labels) for s, d in data["trained"].items()}
    acc = cache_accuracy(clf)
    if "val_accuracy" in acc:
        out["val_accuracy"] = acc["val_accuracy"]
    if "photo_val_accuracy" in acc:
        out["photo_val_accuracy"] = acc["photo_val_accuracy"]
    return out


def cache_accuracy(clf: TileClassifier) -> dict[str, float]:
    """One-turn accuracy on the training cache's validation sets where they exist: ``val`` (flat renders of
    the trained styles) and ``photo_val`` (photo-like crops of the trained styles in looks never trained)."""
    from vision.train.dataset import CACHE

    out: dict[str, float] = {}
    for name in ("val", "photo_val"):
        path = CACHE / f"{name}.npz"
        if path.is_file():
            with np.load(path) as z:
                x, y = z["x"], z["y"]
            logits = clf.run_prepared(x)[0]
            out[f"{name}_accuracy"] = float(np.mean(logits.argmax(1) == y))
    return out


def _totals(parts: Sequence[Answers | Sure]) -> tuple[int, float, float, int]:
    """Crops, right best guesses, answered crops and wrong faces over ``parts``."""
    n, b, a, w = 0, 0.0, 0.0, 0
    for x in parts:
        n += x["n"]
        b += x["best"] * x["n"]
        a += x["answered"] * x["n"]
        w += x["wrong"]
    return n, b, a, w


def summary(res: Figures) -> dict[str, str]:
    """One line per figure (for the printed table)."""
    rows: dict[str, str] = {}
    for kind in KINDS:
        for name, r in res["photo"].items():
            x = r[kind]
            rows[f"photo {name} {kind}"] = f"{x['best'] * 100:.1f}% ans {x['answered'] * 100:.1f}% wrong {x['wrong']}"
        n, b, a, w = _totals([r[kind] for r in res["photo"].values()])
        rows[f"photo ALL {kind}"] = f"{b / n * 100:.2f}% ans {a / n * 100:.1f}% wrong {w} (n={n})"
    for name, t in res["photo_table"].items():
        rows[f"photo table {name} reader"] = (f"{t['best'] * 100:.1f}% ans {t['answered'] * 100:.1f}% "
                                              f"wrong {t['wrong']} missed {t['missed']}")
    n, b, a, w = _totals(list(res["photo_table"].values()))
    rows["photo table ALL reader"] = f"{b / n * 100:.2f}% ans {a / n * 100:.1f}% wrong {w} (n={n})"
    single, table = res["kai single"], res["kai table"]
    kai: list[tuple[str, Answers | Sure]] = [(f"kai single {k}", single[k]) for k in KINDS]
    kai += [(f"kai table {k}", table[k]) for k in KINDS] + [("kai table reader", table["reader"])]
    for key, y in kai:
        rows[key] = f"{y['best'] * 100:.2f}% ans {y['answered'] * 100:.1f}% wrong {y['wrong']}"
    for s, x in res["trained"].items():
        rows[f"trained {s}"] = f"{x['best'] * 100:.2f}% ans {x['answered'] * 100:.1f}% wrong {x['wrong']}"
    if "val_accuracy" in res:
        rows["cache val, one turn"] = f"{res['val_accuracy'] * 100:.2f}%"
    if "photo_val_accuracy" in res:
        rows["cache photo_val, one turn"] = f"{res['photo_val_accuracy'] * 100:.2f}%"
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("models", nargs="*", type=Path, help="ONNX models (with their .json beside); none: the shipped one")
    ap.add_argument("--per-label", type=int, default=10, help="test crops per face of each held-out photoreal set")
    ap.add_argument("--kai-frames", type=int, default=8, help="rendered table frames of kai's table crops")
    ap.add_argument("--json", type=Path, help="also write every figure here")
    ap.add_argument("--crops", type=Path, help="keep the rendered crops in this file (pickle) and reuse them")
    args = ap.parse_args(argv)
    for m in args.models:
        if not m.is_file() or not m.with_suffix(".json").is_file():
            ap.error(f"{m}: no such model (needs {m.name} and {m.with_suffix('.json').name})")
    if args.per_label < 1 or args.kai_frames < 1:
        ap.error("--per-label and --kai-frames must be at least 1")
    if args.crops and args.crops.is_file():
        data: Rendered = pickle.loads(args.crops.read_bytes())  # (the crops this script kept)
    else:
        data = render_all(args.per_label, args.kai_frames)
        if args.crops:
            args.crops.write_bytes(pickle.dumps(data))
    results = {str(m): evaluate(m, data) for m in (args.models or [None])}
    lines = {m: summary(r) for m, r in results.items()}
    keys = list(next(iter(lines.values())))
    width = max(len(k) for k in keys)
    for k in keys:
        print(f"{k:{width}}  " + "  |  ".join(f"{v[k]:>36}" for v in lines.values()))
    if args.json:
        args.json.write_text(json.dumps(results, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
