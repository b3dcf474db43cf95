"""Two source trees' benchmark rows side by side, measured in the same run (the machines are shared and
noisy: only a ratio taken in one run means something).

Each named ``bench/bench_<name>.py`` of both trees runs in its own interpreter, the trees taking turns
(``--rounds`` times each, old then new); every row keeps its best value of the rounds (the least disturbed
one: higher is better for rates, lower for times). Usage (what the closing note of issue #21 ran)::

    git archive main | tar -x -C /tmp/old && git archive HEAD | tar -x -C /tmp/new
    python tools/bench_compare.py /tmp/old /tmp/new --only game --only mcr --only red --only riichi \\
        --only sichuan --only shapes
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

LOWER_IS_BETTER = ("s", "ms", "us", "µs", "MB", "KiB", "MiB", "bytes")

_CHILD = """
import json, sys
from bench.{name} import run
print(json.dumps([[r.name, r.value, r.unit] for r in run(quick={quick})]))
"""


def _rows(tree: Path, name: str, quick: bool) -> dict[str, tuple[float, str]]:
    out = subprocess.run([sys.executable, "-c", _CHILD.format(name=name, quick=quick)], cwd=tree,
                         env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"}, capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"{tree}: bench {name} failed:\n{out.stderr[-2000:]}")
    return {n: (v, u) for n, v, u in json.loads(out.stdout.strip().splitlines()[-1]) if v is not None}


def _better(unit: str, a: float, b: float) -> float:
    return min(a, b) if unit.split("/")[0] in LOWER_IS_BETTER else max(a, b)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("old", type=Path)
    ap.add_argument("new", type=Path)
    ap.add_argument("--only", action="append", default=[], help="bench module name part (game, mcr...)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args(argv)
    names = sorted({p.stem for p in (args.new / "bench").glob("bench_*.py")
                    if not args.only or any(o in p.stem for o in args.only)})
    print(f"{'bench':<16} {'figure':<58} {'old':>12} {'new':>12} {'new/old':>8}")
    for name in names:
        best: dict[str, dict[str, tuple[float, str]]] = {"old": {}, "new": {}}
        for _ in range(args.rounds):
            for side, tree in (("old", args.old), ("new", args.new)):
                for row, (v, u) in _rows(tree, name, args.quick).items():
                    prev = best[side].get(row)
                    best[side][row] = (v if prev is None else _better(u, prev[0], v), u)
        for row, (new, unit) in best["new"].items():
            old = best["old"].get(row)
            if old is None:
                continue
            ratio = new / old[0] if old[0] else float("nan")
            print(f"{name:<16} {row[:58]:<58} {old[0]:>12.4g} {new:>12.4g} {ratio:>8.3f}  {unit}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
