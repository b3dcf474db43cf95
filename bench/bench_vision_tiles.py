"""Tile classifier: throughput (batch vs single crop), model load time, accuracy per trained style and on
the held-out style at 0, 1, 3 and 5 enrolled examples per face -- single rendered crops, and the table's
own crops (cut by the pipeline, the set enrolled from rendered photos of the layout) -- with the
confusion pairs; vision IV's "never sure and wrong" rows (held-out styles, own / wrong / mixed set, wrong
faces per answer against the reader of 27 Nov 2026 and the combined confidence before vision IV). No real tile photographs are available to this
project (docs/vision-model.md)."""
from __future__ import annotations

import time
from dataclasses import replace

import numpy as np

from bench.common import Row


def run(quick: bool) -> list[Row]:
    from vision.tile_classifier import MODEL_PATH, TileClassifier
    from vision.tile_eval import (
        enroll_from_layouts,
        enroll_style,
        render_set,
        score,
        shots_table,
        table_crops,
    )

    rows: list[Row] = []
    t0 = time.perf_counter()
    clf = TileClassifier.load()
    load_ms = (time.perf_counter() - t0) * 1000
    rows.append(Row("model load", load_ms, "ms", note=f"{MODEL_PATH.stat().st_size / 1e6:.2f} MB onnx"))
    rows.append(Row("model size", MODEL_PATH.stat().st_size / 1e6, "MB"))

    crops = render_set("classic", 2, sizes=(48, 64)).crops[:64]
    batch_rate = _rate(lambda: clf.classify(crops), len(crops), 1.0 if quick else 3.0)
    single_rate = _rate(lambda: [clf.classify([c]) for c in crops[:16]], 16, 1.0 if quick else 3.0)
    rows.append(Row("crops/s, batch of 64", batch_rate, "crops/s", single_rate, "one crop per call",
                    note=f"{clf.turns} test-time quarter turns per crop"))
    one_turn = _rate(lambda: clf.classify(crops, turns=1), len(crops), 1.0 if quick else 3.0)
    rows.append(Row("crops/s, batch of 64, one turn", one_turn, "crops/s", batch_rate,
                    f"{clf.turns} turns (the default)"))
    prepared = clf.prepare(crops)
    net_rate = _rate(lambda: clf.run_prepared(prepared), len(crops), 1.0 if quick else 3.0)
    rows.append(Row("crops/s, batch of 64, network only", net_rate, "crops/s", batch_rate, "with preprocessing"))

    per_label = 4 if quick else 40  # 1 520-1 880 crops per trained style: 99.9 % is a handful of errors
    for style in clf.meta["train_styles"]:
        data = render_set(style, per_label, with_none=0)
        s, s1 = score(clf, data), score(clf, data, turns=1)
        rows.append(Row(f"accuracy {style} (trained)", s.accuracy * 100, "%", s1.accuracy * 100, "one turn",
                        note=f"n={s.n}, coverage {s.coverage:.3f}, orientation {s.orientation_accuracy:.3f}"))
    s = score(clf, render_set("classic", 0, with_none=per_label * 20))
    rows.append(Row("accuracy none crops", s.accuracy * 100, "%", note=f"n={s.n}"))

    held = clf.meta["held_out_styles"][0]
    per_label = 4 if quick else 20
    test = render_set(held, per_label)
    rows += _shots_rows(f"{held} (held out) single crops, {clf.turns} turns",
                        shots_table(clf, test, lambda k: enroll_style(clf, held, k)))
    # vision III: the table's own crops (cut by the pipeline from rendered frames), sets enrolled from
    # k rendered photos of the enrollment layout, read in one pass as the table pipeline reads them
    table = table_crops(held, 2 if quick else 8)
    rows += _shots_rows(f"{held} (held out) table crops, layout-enrolled, one turn",
                        shots_table(clf, table, lambda k: enroll_from_layouts(clf, held, k), turns=1))
    ts3 = enroll_style(clf, held, 3)
    s4, s1 = score(clf, test, ts3), score(clf, test, ts3, turns=1)
    rows.append(Row(f"accuracy {held} (held out), 3-shot, {clf.turns} turns vs one", s4.accuracy * 100, "%",
                    s1.accuracy * 100, "one turn", note=f"n={s4.n}; one turn: coverage {s1.coverage:.3f}, "
                                                      f"accepted accuracy {s1.accepted_accuracy:.4f}"))
    # the enrollment path against its predecessor: one prototype per class (the mean over the quarter turns)
    ts = enroll_style(clf, held, 3)
    single = np.stack([m / np.linalg.norm(m) for m in ts.prototypes.mean(axis=1)])[:, None, :]
    per_turn, one = score(clf, test, ts), score(clf, test, replace(ts, prototypes=single.astype(np.float32)))
    rows.append(Row(f"accuracy {held} (held out), 3-shot, a prototype per quarter turn", per_turn.accuracy * 100, "%",
                    one.accuracy * 100, "one prototype per class", note=f"n={per_turn.n}"))
    return rows + sure_rows(quick) + photoreal_rows(quick)


def photoreal_rows(quick: bool) -> list[Row]:
    """The held-out photoreal sets (:data:`vision.heldout_styles.PHOTOREAL`: kai and other faces rendered as
    physical sets by :mod:`vision.train.photoreal`, never trained on): single crops read as a photo (four
    turns) with no set and a 3-shot set of photo-like crops, and table-like (tight) crops read by the
    pipeline's reader. The rich random styles need the training fonts; without them only the kai sets."""
    from vision.heldout_styles import PHOTOREAL, photoreal_style
    from vision.train import photo_eval

    names = []
    for name in PHOTOREAL:
        try:
            photoreal_style(name)
            names.append(name)
        except OSError:  # a rich random style without its fonts
            continue
    data = photo_eval.render_all(1 if quick else 6, 1, names=names, kai=False)
    res = photo_eval.evaluate(None, data, kai=False)
    rows = []
    for kind in ("no set", "3-shot"):
        parts = [res["photo"][n][kind] for n in names]
        n = sum(x["n"] for x in parts)
        best = sum(x["best"] * x["n"] for x in parts) / n
        ans = sum(x["answered"] * x["n"] for x in parts) / n
        wrong = sum(x["wrong"] for x in parts)
        conf = "; ".join(f"{k}: {', '.join(res['photo'][k][kind]['confusions'][:3]) or 'none'}" for k in names)
        rows.append(Row(f"accuracy held-out photoreal single crops, {kind}, four turns", best * 100, "%",
                        note=f"n={n}, sets {', '.join(names)}; answered {ans:.3f}, wrong faces {wrong}; {conf}"))
    parts = [res["photo_table"][n] for n in names]
    n = sum(x["n"] for x in parts)
    rows.append(Row("held-out photoreal table-like crops, 3-shot set, the pipeline's reader: best guess",
                    sum(x["best"] * x["n"] for x in parts) / n * 100, "%",
                    note=f"n={n}; answered {sum(x['answered'] * x['n'] for x in parts) / n:.3f}, wrong faces "
                         f"{sum(x['wrong'] for x in parts)}, missed {sum(x['missed'] for x in parts)}"))
    return rows


def sure_rows(quick: bool) -> list[Row]:
    """Vision IV, never sure and wrong: the table's own crops of the held-out styles (``kai`` and its two
    recoloured copies, :mod:`vision.heldout_styles`; never trained or tuned on), read as the pipeline reads
    them a frame at a time, with the style's own set (3 layout frames), with another set (a trained style's
    shipped set, or another held-out copy), and with a quarter of the tiles from another set (mixed).
    Each row: wrong faces per answer now (the embedding's margin, the second look at a doubted face, the inks of
    red fives, fives and flowers, the set watch); baseline: the same crops read by the reader of 27 Nov 2026
    (``second_look=False``); the note also gives the combined confidence before vision IV (probability >= the
    set's threshold)."""
    from vision.heldout_styles import heldout_style
    from vision.style_sets import style_tileset
    from vision.tile_eval import enroll_from_layouts, mixed, sure_score, table_crops
    from vision.tile_reader import SetReader, pipeline_classifier

    clf = pipeline_classifier()
    held = {"kai": "kai", "kai-green": heldout_style("kai-green"), "kai-violet": heldout_style("kai-violet")}
    frames = 2 if quick else 20
    crops = {k: table_crops(s, frames) for k, s in held.items()}
    own = {k: enroll_from_layouts(clf, s, 3) for k, s in held.items()}
    trained = {k: style_tileset(k) for k in ("classic", "fluffy", "fluffy_black")}
    cases: dict[str, list] = {"own set": [], "wrong set": [], "mixed set (a quarter of another set's tiles)": []}
    for k in held:
        cases["own set"].append((own[k], crops[k]))
        for other in [o for o in held if o != k] + list(trained):
            cases["wrong set"].append((own.get(other) or trained[other], crops[k]))
        nxt = list(held)[(list(held).index(k) + 1) % len(held)]
        cases["mixed set (a quarter of another set's tiles)"].append((own[k], mixed(crops[k], crops[nxt], 0.25)))
    rows = []
    for name, pairs in cases.items():
        # crops, answered, wrong faces: now, the reader of 27 Nov 2026 (no second look, no inks), before vision IV
        tot = {k: [0, 0, 0] for k in ("new", "nov27", "old")}
        best = flagged = 0
        for ts, data in pairs:
            r_new = SetReader([ts], classifier=clf)
            r_old = SetReader([ts], classifier=clf, guard=False)
            scores = {"new": sure_score(r_new, data), "nov27": sure_score(SetReader([ts], classifier=clf,
                                                                                    second_look=False), data),
                      "old": sure_score(r_old, data, threshold=r_old.threshold)}
            flagged += bool(r_new.watch and r_new.watch.wrong)
            best += round(scores["old"].best * scores["old"].n)
            for key, sc in scores.items():
                tot[key][0] += sc.n
                tot[key][1] += round(sc.answered * sc.n)
                tot[key][2] += sc.wrong
        n, a, w = tot["new"]
        _, na, nw = tot["nov27"]
        _, oa, ow = tot["old"]
        rows.append(Row(f"never sure and wrong, held-out table crops, {name}: wrong faces per answer",
                        100.0 * w / max(1, a), "%", 100.0 * nw / max(1, na),
                        "the reader of 27 Nov 2026 (no second look, no ink check)",
                        note=f"n={n}, best guess {best / n:.4f}; answered {a / n:.4f} (27 Nov {na / n:.4f}, before "
                             f"vision IV {oa / n:.4f}); wrong faces {w} (27 Nov {nw}, before vision IV {ow}); set watch "
                             f"said 'wrong set' in {flagged} of {len(pairs)} sessions; targets: own <= 0.05 %, wrong "
                             f"or mixed <= 0.33 %"))
    # single photos (tiles classify: four turns): kai's own upright renders enrolled, and another set
    from vision.tile_eval import enroll_style, render_set

    test = render_set("kai", 4 if quick else 12)
    for name, ts in (("own set (3 shots)", enroll_style(clf, "kai", 3)), ("wrong set (classic's)", trained["classic"]),
                     ("wrong set (kai-green, 3 shots)", enroll_style(clf, held["kai-green"], 3))):
        res = clf.classify(test.crops, tileset=ts)
        thr = ts.threshold_for(clf.turns) or clf.fusion.threshold
        truth = np.array(test.labels)
        best = np.array([r.best for r in res])
        new_ok = np.array([r.label != "unknown" for r in res])
        old_ok = np.array([r.confidence >= thr for r in res])
        faces = ~np.isin(best, ["none", "back"])
        w, ow = int((new_ok & faces & (best != truth)).sum()), int((old_ok & faces & (best != truth)).sum())
        rows.append(Row(f"never sure and wrong, kai single photos, {name}: wrong faces per answer",
                        100.0 * w / max(1, new_ok.sum()), "%", 100.0 * ow / max(1, old_ok.sum()),
                        "before vision IV (probability >= threshold)",
                        note=f"n={len(res)}, best guess {np.mean(best == truth):.4f}; answered {new_ok.mean():.3f} "
                             f"(before {old_ok.mean():.3f}); wrong faces {w} (before {ow}); four turns"))
    return rows


def _shots_rows(source: str, table: list) -> list[Row]:
    """One row per number of enrolled shots: accuracy (best guess), coverage, accepted accuracy, confusions."""
    out = []
    base = table[0].score.accuracy * 100
    for r in table:
        pairs = ", ".join(f"{a}->{b} x{n}" for a, b, n in r.confusions) or "none"
        out.append(Row(f"accuracy {source}, {r.shots}-shot" if r.shots else f"accuracy {source}, no set",
                       r.score.accuracy * 100, "%", base if r.shots else None, "no set" if r.shots else None,
                       note=f"n={r.score.n}, coverage {r.score.coverage:.3f}, accepted accuracy "
                            f"{r.score.accepted_accuracy:.4f}; confusions: {pairs}"))
    return out


def _rate(fn, n_per_call: int, seconds: float) -> float:
    fn()
    calls, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        fn()
        calls += 1
    return calls * n_per_call / (time.perf_counter() - t0)
