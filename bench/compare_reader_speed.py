"""CPU time of the tile reader and of the table pipeline against another revision's, interleaved in one process.

    python -m bench.compare_reader_speed --against 1f08bbd [--rounds 40] [--style classic]

The other revision's ``vision`` package is taken from git (``git archive REV vision``) into a temporary folder as
the package ``vision_then`` and loaded beside this tree's, so both read the same crops and frames, round by
round in turn (the order rotating), under the same load: only the ratios mean anything on a shared machine.
Rows: ``SetReader.read`` of a pond's 6 crops and of a table's 129 crops (the style's table crops), and the
pipeline's full and incremental read of the speed table of ``bench_vision_scene`` (riichi, one thread).
"""
from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable
from io import BytesIO
from pathlib import Path
from typing import Any


def _then(rev: str, root: Path) -> Path:
    """The ``vision`` package of ``rev`` as ``root/vision_then`` (its imports of ``vision`` renamed)."""
    data = subprocess.run(["git", "archive", rev, "vision"], check=True, capture_output=True).stdout
    with tarfile.open(fileobj=BytesIO(data)) as tar:
        tar.extractall(root, filter="data")
    pkg = root / "vision_then"
    (root / "vision").rename(pkg)
    for f in pkg.rglob("*.py"):
        f.write_text(re.sub(r"\bvision\.", "vision_then.", f.read_text()))
    return pkg


def _rounds(fns: dict[str, Callable[[int], Any]], rounds: int) -> dict[str, float]:
    """Median process CPU ms of each function, called in turn round by round (the order rotating)."""
    keys = list(fns)
    times: dict[str, list[float]] = {k: [] for k in keys}
    for fn in fns.values():
        fn(0)
    for i in range(rounds):
        for k in keys[i % len(keys):] + keys[:i % len(keys)]:
            t = time.process_time()
            fns[k](i)
            times[k].append((time.process_time() - t) * 1e3)
    return {k: statistics.median(v) for k, v in times.items()}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.compare_reader_speed")
    ap.add_argument("--against", required=True, help="the git revision to compare with")
    ap.add_argument("--rounds", type=int, default=40)
    ap.add_argument("--style", default="classic", help="the style of the crops and of the speed table")
    a = ap.parse_args(argv)
    import cv2

    cv2.setNumThreads(1)
    tmp = tempfile.TemporaryDirectory()
    _then(a.against, Path(tmp.name))
    sys.path.insert(0, tmp.name)
    import vision_then.pipeline as then_pipeline  # type: ignore[import-not-found]
    import vision_then.tile_reader as then_reader  # type: ignore[import-not-found]
    import vision_then.tileset as then_tileset  # type: ignore[import-not-found]

    from bench.bench_vision_scene import speed_frames
    from vision.calibration import calibrate
    from vision.pipeline import VisionPipeline
    from vision.style_sets import style_tileset
    from vision.tile_eval import table_crops
    from vision.tile_labels import FACE_LABELS
    from vision.tile_reader import SetReader

    ts = style_tileset(a.style)
    ts.save(Path(tmp.name) / "set.npz")
    ts_then = then_tileset.TileSet.load(Path(tmp.name) / "set.npz")
    now, then = SetReader([ts]), then_reader.SetReader([ts_then])
    crops = table_crops(a.style, 4).crops
    pond = [frozenset(FACE_LABELS)] * 6

    def cut(n: int, i: int) -> list[Any]:
        j = (i * n) % max(1, len(crops) - n)
        return (crops * 2)[j:j + n]

    def reads(rd: Any, n: int, allowed: list[frozenset[str]] | None) -> Callable[[int], Any]:
        return lambda i: rd.read(cut(n, i), allowed)

    rows = []
    for n, allowed in ((6, pond), (129, None)):
        m = _rounds({"now": reads(now, n, allowed), "then": reads(then, n, allowed)}, a.rounds)
        rows.append((f"SetReader.read, {n} crops", m))
    f1, f2, _ = speed_frames(a.style)
    cal = calibrate(f1)
    p_now = VisionPipeline(cal, "riichi-ema2016", threads=1, reader=SetReader([ts]))
    p_then = then_pipeline.VisionPipeline(cal, "riichi-ema2016", threads=1, reader=then_reader.SetReader([ts_then]))
    m = _rounds({"now": lambda i: p_now.process(f1 if i % 2 else f2, full=True),
                 "then": lambda i: p_then.process(f1 if i % 2 else f2, full=True)}, a.rounds)
    rows.append(("pipeline, full frame", m))
    m = _rounds({"now": lambda i: p_now.process(f2 if i % 2 == 0 else f1),
                 "then": lambda i: p_then.process(f2 if i % 2 == 0 else f1)}, a.rounds)
    rows.append(("pipeline, incremental (one pond)", m))
    print(f"style {a.style}, {a.rounds} rounds, load average {os.getloadavg()[0]:.1f}; CPU ms, median")
    for name, m in rows:
        print(f"{name:36s} now {m['now']:8.2f}  {a.against} {m['then']:8.2f}  ratio {m['now'] / m['then']:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
