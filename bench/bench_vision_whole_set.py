"""Whole-set enrollment against the calibration layout (docs/vision-model.md, "Whole-set enrollment"): the three
held-out styles (``kai`` and :mod:`vision.heldout_styles`' ``kai-green`` and ``kai-violet``; never trained or
tuned on), each enrolled three ways as a table enrolls its set from its own camera -- 3 frames of the
calibration layout (3 crops per face), the whole-set pages once (4 crops per face: pages 1 and 2, page 3 four
times) and three times (12) -- and read two ways: the table's own crops (cut by the pipeline from rendered
frames, read a frame at a time by the table's reader, ``SetReader``) and single photos (renders with margins,
sizes and turns, read in four turns as ``tiles classify`` reads them). Each row: best-guess accuracy, against
the 3-shot set's in the same run; the note holds the share answered (not asked), the wrong faces among the
answers, the best guesses' confusion pairs and the set check's doubtful pairs.

Every rendered frame has its own camera pose, cloth and light -- the 3-shot set sees three cloths, a
whole-set page one, which no real table does. The *one table* rows hold each style's camera pose and cloth
fixed for its enrollment frames and its test frames alike (the light still changes from frame to frame), as at
a real table; table crops only (single photos are not the table's).

``python -m bench.run --only vision_whole_set [--quick]``.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np

from bench.common import Row

HELD_OUT = ("kai", "kai-green", "kai-violet")
WHOLE_SET_BENCH_SEED = 570_000  # page frames of the bench's whole-set sets (never a test's, a table-crop's or a layout's)
SETS = (("3 shots (calibration layout)", 0), ("whole set x1 (4 crops)", 1), ("whole set x3 (12 crops)", 3))


def _score(truth: list[str], label: list[str], best: list[str]) -> dict[str, Any]:
    t, lab, b = np.array(truth), np.array(label), np.array(best)
    answered = lab != "unknown"
    faces = ~np.isin(lab, ["none", "back"])
    wrong = answered & faces & (lab != t)
    pairs = Counter((x, y) for x, y in zip(t, b) if x != y)
    return {"n": len(t), "best": float(np.mean(b == t)), "answered": float(answered.mean()), "wrong": int(wrong.sum()),
            "pairs": pairs}


def _table(reader: Any, data: Any, batch: int) -> dict[str, Any]:
    from vision.tile_labels import CLASS_LABELS

    got: list[Any] = []
    for i in range(0, len(data.crops), batch):
        got += reader.read(data.crops[i:i + batch])
    return _score(data.labels, [r.label for r in got], [CLASS_LABELS[int(np.argmax(r.probs))] for r in got])


def _single(clf: Any, ts: Any, data: Any) -> dict[str, Any]:
    res = clf.classify(data.crops, tileset=ts)
    return _score(data.labels, [r.label for r in res], [r.best for r in res])


def _one_table_crops(style: str, frames: int, seed: int, pose: Any, felt: tuple[int, int, int]) -> Any:
    """:func:`vision.tile_eval.table_crops` at one table: every frame from ``pose`` on ``felt``."""
    from vision.calibration import Rectifier, calibrate
    from vision.scene_model import PondTile, Scene, SeatView
    from vision.scene_parse import SceneParser
    from vision.scene_render import render_scene
    from vision.tile_eval import RenderedSet
    from vision.tile_match import Reading
    from vision.tile_render import load_style

    class _Cut:  # the parser's crops, in reading order, without reading them
        thread_safe, crop_margin_px = False, 0

        def read(self, crops: Any, allowed: Any = None) -> list[Any]:
            return [Reading("1m", 1.0) for _ in crops]

    faces = [lab for lab in load_style(style).labels if lab != "back"]
    rng = np.random.default_rng(seed)
    out = RenderedSet([], [], [])
    for k in range(frames):
        order = [faces[i] for i in rng.permutation(len(faces))]
        ponds = [order[i::4][:18] for i in range(4)]
        scene = Scene("mcr", tuple(SeatView(pond=tuple(PondTile(t) for t in p)) for p in ponds))
        frame, _ = render_scene(scene, seed=seed + k, style=style, pose=pose, felt=felt)
        crops = SceneParser("mcr", _Cut()).tile_crops(Rectifier(calibrate(frame)).rectify(frame))
        want = [t for p in ponds for t in p]
        if len(crops) == len(want):
            out.crops += crops
            out.labels += want
            out.orientations += [0] * len(want)
    return out


def _add(total: dict[str, Any], s: dict[str, Any]) -> None:
    n = total.get("n", 0) + s["n"]
    for k in ("best", "answered"):
        total[k] = (total.get(k, 0.0) * total.get("n", 0) + s[k] * s["n"]) / n
    total["wrong"] = total.get("wrong", 0) + s["wrong"]
    total["pairs"] = total.get("pairs", Counter()) + s["pairs"]
    total["n"] = n


def _row(name: str, s: dict[str, Any], base: dict[str, Any] | None, extra: str = "") -> Row:
    pairs = ", ".join(f"{a}->{b} x{n}" for (a, b), n in s["pairs"].most_common(5)) or "none"
    return Row(name, 100.0 * s["best"], "%", None if base is None else 100.0 * base["best"],
               None if base is None else "3 shots (calibration layout)",
               note=f"n={s['n']}, answered {s['answered']:.3f}, wrong faces {s['wrong']}; confusions: {pairs}{extra}")


def _enroll(clf: Any, style: str, repeats: int, pose: Any = None, felt: Any = None) -> tuple[Any, list[Any]]:
    """The set (3 calibration-layout frames where ``repeats`` is 0, else the whole-set pages ``repeats`` times)
    and its doubtful pairs."""
    from vision.enrollment import enroll
    from vision.scene_render import render_enrollment_layout
    from vision.set_check import check_set, expected_faces
    from vision.tile_eval import LAYOUT_SHOT_SEED
    from vision.tile_layout import read_table_layout
    from vision.tile_render import load_style
    from vision.whole_set import gather, pages_for, read_page, render_page

    have = set(load_style(style).labels)
    if not repeats:
        ex: dict[str, list[Any]] = {}
        for k in range(3):  # as vision.style_sets.enroll_rendered, the table's pose and cloth where given
            frame, _ = render_enrollment_layout(style, seed=LAYOUT_SHOT_SEED + k, pose=pose, felt=felt)
            for lab, crop in read_table_layout(frame).items():
                ex.setdefault(lab, []).append(crop)
        ts = enroll(clf, ex, name=style, seed=LAYOUT_SHOT_SEED)
        return ts, list(check_set(ts, (), clf, ex).doubtful)
    reads, k = [], 0
    for _ in range(repeats):
        for pg in pages_for(have):
            for _ in range(pg.frames):
                frame, _ = render_page(style, pg.number, seed=WHOLE_SET_BENCH_SEED + k, labels=have, pose=pose, felt=felt)
                reads.append(read_page(frame, pg.number, classifier=clf))
                k += 1
    ex = gather(reads)
    ts = enroll(clf, ex, name=style, seed=WHOLE_SET_BENCH_SEED)
    return ts, list(check_set(ts, expected_faces(), clf, ex).doubtful)


def run(quick: bool) -> list[Row]:
    from vision.heldout_styles import heldout_style
    from vision.scene_render import CameraPose, felt_for
    from vision.tile_eval import FRAME_TILES, TABLE_TEST_SEED, render_set, table_crops
    from vision.tile_reader import SetReader, pipeline_classifier

    clf = pipeline_classifier()
    rows: list[Row] = []
    totals: dict[tuple[str, str], dict[str, Any]] = {}
    frames = 2 if quick else 20
    for name in HELD_OUT:
        style = name if name == "kai" else heldout_style(name)
        rng = np.random.default_rng([WHOLE_SET_BENCH_SEED, HELD_OUT.index(name)])
        pose, felt = CameraPose.random(rng), felt_for(style, rng)  # the style's one table
        data = {"table crops": table_crops(style, frames), "single crops": render_set(style, 2 if quick else 12),
                "one table, table crops": _one_table_crops(style, frames, TABLE_TEST_SEED, pose, felt)}
        scores: dict[tuple[str, str], dict[str, Any]] = {}
        for set_name, repeats in SETS:
            random_set, doubt = _enroll(clf, style, repeats)
            table_set, table_doubt = _enroll(clf, style, repeats, pose, felt)
            for source, test in data.items():
                ts = table_set if source.startswith("one table") else random_set
                s = _single(clf, ts, test) if source == "single crops" else \
                    _table(SetReader([ts], classifier=clf), test, FRAME_TILES)
                scores[(source, set_name)] = s
                _add(totals.setdefault((source, set_name), {}), s)
                base = None if not repeats else scores[(source, SETS[0][0])]
                pairs = table_doubt if source.startswith("one table") else doubt
                extra = f"; set check doubtful: {', '.join(f'{d.a}/{d.b}' for d in pairs) or 'none'}"
                rows.append(_row(f"whole-set enrollment, {name} {source}, {set_name}", s, base, extra))
    for (source, set_name), s in totals.items():
        base = None if set_name == SETS[0][0] else totals[(source, SETS[0][0])]
        rows.append(_row(f"whole-set enrollment, all held-out {source}, {set_name}", s, base))
    return rows
