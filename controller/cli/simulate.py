"""``mahjong-table simulate``: the camera referee proved end to end, hand after hand.

Each hand goes through the whole stack: the MCU emulator shuffles and throws the dice; bots play the
ground truth at the table; every moment is rendered as camera frames (a random tile style and camera pose
per hand) with a real table's nuisances — arms over the table, tiles pushed out of line, a lighting change,
noise and blur, dropped frames — and one tile made unreadable; vision reads the frames; the call buttons
are pressed as the bots call; the referee follows and its questions are answered from the truth. Each
refereed hand is compared with the truth payment by payment. With --faults the bots also commit, at random
moments, a claim after the window, a chow from the wrong seat, a pung of the missing suit, a furiten ron, a
false hu and a discard out of turn: each must be flagged with its code at its moment, nothing else.

With --cpu-slowdown K the table service runs as on a CPU K times slower (a Raspberry Pi 5 is about 2-3
times slower per core than an x86 test machine, a Pi 4 about 5): every vision read takes K times the CPU
time it takes here, in camera time (nothing sleeps), and so does the referee's work; the camera films at
its own 10 frames a second meanwhile and the one-frame queue between camera and reader keeps only the newest frame, so frames are dropped, never
queued up; the reader's observations reach the referee when its read ends, between the buttons pressed
meanwhile. Each table then also reports the frames read and dropped, the longest read, and the verdict
latency (the change's camera time to the referee's verdict: p50, p95, max).

Exit status: 0 when every settlement matches and no violation is missed or false, 1 otherwise, 2 for bad
input. TABLE is a profile (sichuan-mpl2025, sichuan-wmsg, mcr, mcr-siamese, riichi-ema2016, red), PROFILE@N
for N players (red@2, sichuan-mpl2025@3), or all.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, NoReturn

from controller.cli import CliError
from controller.cli.inputs import float_in

if TYPE_CHECKING:
    from tqdm import tqdm

    from controller.referee.sim.harness import TableSummary

COLUMNS = ("table", "hands", "events", "frames", "questions", "injected", "flagged", "missed", "false",
           "mismatches", "seconds")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    ap = sub.add_parser("simulate", help="play hands through the whole stack and check the referee against the "
                        "bots' truth", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--profile", "-p", action="append", required=True, metavar="TABLE",
                    help="a profile, PROFILE@PLAYERS, or all (repeat for several tables)")
    ap.add_argument("--hands", type=int, default=5, help="hands per table (default 5)")
    ap.add_argument("--seed", type=int, default=1, help="random seed (default 1): the same seed plays the same hands")
    ap.add_argument("--faults", action="store_true", help="bots commit the faults the referee must catch")
    ap.add_argument("--style", default=None, metavar="STYLE",
                    help="the tile style of every hand (default: a random one per hand): a shipped style or a style "
                         "folder (style.json + a PNG per face, e.g. photographs of a club's tiles); the table enrolls "
                         "it from its own rendered layout frames, as for a shipped style")
    ap.add_argument("--exact", action="store_true",
                    help="skip the camera: the referee is told the table exactly (its logic alone, fast)")
    ap.add_argument("--workers", type=int, default=None,
                    help="worker processes (default: the number of cores, at most 2)")
    ap.add_argument("--cpu-slowdown", type=float_in(1.0, 20.0), default=None, metavar="K",
                    help="run as on a CPU K times slower (1-20; 3 ~ a Raspberry Pi 5, 6 ~ a Pi 4): each vision read "
                    "takes K times its CPU time here, in camera time; frames the busy reader cannot take are dropped")
    ap.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    ap.add_argument("--verbose", "-v", action="store_true",
                    help="also list every question the referee asked (hand, time, kind, seat, zone, message)")
    ap.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from controller.referee.sim.harness import simulate, summarize, tables

    try:
        specs = tables(args.profile)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    if not 1 <= args.hands <= 100_000:
        raise CliError(f"--hands {args.hands}: 1..100000")
    if args.workers is not None and not 1 <= args.workers <= 64:
        raise CliError(f"--workers {args.workers}: 1..64")
    if args.cpu_slowdown is not None:
        if args.exact:
            raise CliError("--cpu-slowdown slows the camera's reads: not with --exact")
    if args.style is not None:
        from pathlib import Path

        from vision.tile_render import available_styles, load_style

        if args.style not in available_styles():
            if not Path(args.style).is_dir():
                raise CliError(f"--style {args.style!r}: one of {', '.join(available_styles())}, or a style folder")
            args.style = str(Path(args.style).resolve())
            try:
                load_style(args.style)
            except ValueError as exc:
                raise CliError(f"--style: {exc}") from None
    workers = args.workers or min(2, os.cpu_count() or 1)
    total = len(specs) * args.hands
    t0 = time.perf_counter()
    bar = _progress(total, quiet=args.json)
    results = simulate(specs, args.hands, args.seed, faults=args.faults, style=args.style, camera=not args.exact,
                       workers=min(workers, total), slowdown=args.cpu_slowdown)
    summary = summarize(specs, results, tick=bar.update, slowdown=args.cpu_slowdown)
    bar.close()
    seconds = time.perf_counter() - t0
    ok = all(s.ok for s in summary.values())
    if args.json:
        print(json.dumps({"ok": ok, "seed": args.seed, "hands": args.hands, "faults": args.faults,
                          "camera": not args.exact, "cpu_slowdown": args.cpu_slowdown, "seconds": round(seconds, 2),
                          "tables": {k: v.to_json() for k, v in summary.items()}}, indent=2))
    else:
        _table(summary, seconds, verbose=args.verbose)
    return 0 if ok else 1


class _Bar:
    def __init__(self, total: int, quiet: bool):
        self.bar: tqdm[NoReturn] | None = None
        if not quiet:
            from tqdm import tqdm

            self.bar = tqdm(total=total, unit="hand", file=sys.stderr, desc="simulate")

    def update(self) -> None:
        if self.bar is not None:
            self.bar.update(1)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def _progress(total: int, quiet: bool) -> _Bar:
    return _Bar(total, quiet)


def _table(summary: Mapping[str, TableSummary], seconds: float, verbose: bool = False) -> None:
    rows = []
    for s in summary.values():
        rows.append((s.table, s.hands, s.events, s.frames, f"{s.questions} ({s.questions_planned} unreadable)",
                     s.injected, s.flagged, s.missed, s.false, s.mismatches, f"{s.seconds:.1f}"))
    widths = [max(len(str(c)) for c in col) for col in zip(COLUMNS, *rows)]
    print("  ".join(h.ljust(w) for h, w in zip(COLUMNS, widths)))
    for r in rows:
        print("  ".join(str(c).ljust(w) for c, w in zip(r, widths)))
    for s in summary.values():
        if s.faults:
            print(f"{s.table}: faults injected {dict(sorted(s.faults.items()))}"
                  + (f"; {s.redealt} hand(s) dealt again (a pond over 30 tiles)" if s.redealt else ""))
        if s.cpu_slowdown is not None:
            lat = s.latency_ms()
            print(f"{s.table}: cpu slowdown {s.cpu_slowdown:g}x: {s.frames_read} frames read, {s.frames_dropped} dropped "
                  f"(the reader busy), longest read {s.read_max * 1e3:.0f} ms; verdict latency p50 {lat['p50']:.0f} ms, "
                  f"p95 {lat['p95']:.0f} ms, max {lat['max']:.0f} ms")
        for p in s.problems:
            print(f"  {p}")
        if verbose:
            for q in s.asked:
                print(f"  {'unreadable' if q['planned'] else 'question'} {q['hand']} at {q['t']:.1f}s: {q['kind']} seat {q['seat']} zone {q['zone']}: "
                      f"{q['message']}")
    ok = all(s.ok for s in summary.values())
    print(f"{'OK' if ok else 'FAILED'}: {sum(s.hands for s in summary.values())} hands in {seconds:.1f} s")
