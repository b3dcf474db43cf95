"""``make bench``: run every ``bench/bench_*.py``, print one table, write ``bench/out/results.json``.

``python -m bench.run [--quick] [--only NAME]``.
"""
from __future__ import annotations

import argparse
import importlib
import json
import pkgutil
import platform
import sys
import time
from pathlib import Path

import bench
from bench.common import Row

OUT = Path(__file__).resolve().parent / "out"


def _fmt(x: float | None) -> str:
    if x is None:
        return "-"
    if x == 0:
        return "0"
    if abs(x) >= 1000:
        return f"{x:,.0f}"
    if abs(x) >= 10:
        return f"{x:.1f}"
    return f"{x:.3g}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="smaller samples (for a smoke run)")
    ap.add_argument("--only", action="append", default=[], help="run only bench modules whose name contains this")
    args = ap.parse_args(argv)

    names = sorted(m.name for m in pkgutil.iter_modules(bench.__path__) if m.name.startswith("bench_"))
    if args.only:
        names = [n for n in names if any(o in n for o in args.only)]
    rows: list[tuple[str, Row]] = []
    for name in names:
        print(f"running {name} ...", file=sys.stderr, flush=True)
        t0 = time.perf_counter()
        try:
            mod = importlib.import_module(f"bench.{name}")
            got = mod.run(quick=args.quick)
        except Exception as exc:  # a broken bench must not hide the others
            print(f"  {name} failed: {exc!r}", file=sys.stderr)
            continue
        print(f"  done in {time.perf_counter() - t0:.1f}s", file=sys.stderr)
        rows.extend((name, r) for r in got)

    header = ("bench", "figure", "value", "unit", "baseline", "baseline value", "ratio")
    table = [header] + [
        (mod, r.name, _fmt(r.value), r.unit, r.baseline_name or "-", _fmt(r.baseline), _fmt(r.ratio)) for mod, r in rows
    ]
    widths = [max(len(str(row[i])) for row in table) for i in range(len(header))]
    for i, row in enumerate(table):
        print("  ".join(str(c).ljust(w) for c, w in zip(row, widths)))
        if i == 0:
            print("  ".join("-" * w for w in widths))
    OUT.mkdir(parents=True, exist_ok=True)
    payload = {
        "machine": {"python": platform.python_version(), "platform": platform.platform(), "cpu": platform.machine()},
        "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "results": [{"bench": mod, **r.as_json()} for mod, r in rows],
    }
    (OUT / "results.json").write_text(json.dumps(payload, indent=2))
    print(f"\nwritten {OUT / 'results.json'}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
