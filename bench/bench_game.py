"""The game machine and bots: complete hands simulated per second, events per second through the machine.

* greedy hands/s — ``basic`` hands played to settlement by four greedy bots, beside the same driver with
  random-discard bots (the peer: same machine, trivial decisions); then the simulator's throughput
  (target ≥ 200/s): the same greedy hands on one worker process per core (``rules.simulate_many``, wall
  time with start-up) beside one process;
* events/s through the machine — recorded logs replayed (full information, every event checked), beside
  the same logs in table mode (face-down tiles, checks at the reveal);
* shanten calls/s — the bots' cached group-summary shanten beside ``rules.shapes.shanten``.

Caches (shapes' per-group tables, the bots' group summaries) are warmed first, as in a running service.
Rates use CPU time of this process (``time.process_time``): the machines are shared and wall time is noisy.
The timed hands are not kept (a simulator streams its hands; thousands of kept logs would make the garbage
collector's full passes the measured cost); the replayed logs come from hands played apart.
"""
from __future__ import annotations

import os
import random
import time

from bench.common import Row
from rules.bots import fast_shanten
from rules.game.machine import replay, table_view
from rules.profiles.basic import Basic
from rules.shapes import STANDARD_SHAPES, shanten
from rules.simulate import play_hand
from rules.simulate_many import simulate


def _hands_per_s(profile, bot: str, n: int, seed: int) -> tuple[float, float]:
    """Hands per CPU second and the share of hands won."""
    rng = random.Random(seed)
    wins = 0
    t0 = time.process_time()
    for i in range(n):
        wins += bool(play_hand(profile, random.Random(rng.random()), dealer=i % 4, bot=bot).winners)
    return n / max(1e-9, time.process_time() - t0), wins / n


def run(quick: bool = False) -> list[Row]:
    p = Basic()
    warm = 100 if quick else 400
    n = 100 if quick else 300
    _hands_per_s(p, "greedy", warm, 1)  # warm the caches
    greedy, wins = _hands_per_s(p, "greedy", n, 2)
    rand, _ = _hands_per_s(p, "random", n, 3)
    rows = [Row("greedy bot hands (basic)", greedy, "hands/s", rand, "random-discard bots",
                note=f"one process, CPU time; {wins:.0%} of greedy hands end in a win")]

    # the simulator's throughput path: the same hands on one process per core (wall time, start-up and
    # cold caches included), beside one process in the same run
    n_par = 400 if quick else 1200
    per_s = {}
    for w in (1, os.cpu_count() or 1):
        t0 = time.perf_counter()
        for _ in simulate("basic", 5, n_par, workers=w):
            pass
        per_s[w] = n_par / max(1e-9, time.perf_counter() - t0)
    w = max(per_s)
    rows.append(Row(f"greedy bot hands (basic), {w} worker processes", per_s[w], "hands/s", per_s[1],
                    "one process (wall time)", note=f"target >= 200/s; rules.simulate_many, {n_par} hands"))

    rng = random.Random(2)
    hands = [play_hand(p, random.Random(rng.random()), dealer=i % 4) for i in range(150)]
    logs = [(h.events, h.wall) for h in hands]
    n_ev = sum(len(e) for e, _ in logs)
    t0 = time.process_time()
    for ev, wall in logs:
        replay(p, ev, "full", wall)
    full = n_ev / max(1e-9, time.process_time() - t0)
    views = [table_view(ev) for ev, _ in logs]
    n_tv = sum(len(v) for v in views)
    t0 = time.process_time()
    for v in views:
        replay(p, v, "table")
    table = n_tv / max(1e-9, time.process_time() - t0)
    rows.append(Row("events through the machine (full information)", full, "events/s", table, "table mode",
                    note=f"{n_ev / len(logs):.0f} events per hand"))

    rng = random.Random(4)
    wall = [k for k in range(34) for _ in range(4)]
    hs = []
    for _ in range(2000 if quick else 5000):
        rng.shuffle(wall)
        c = [0] * 34
        for k in wall[:13]:
            c[k] += 1
        hs.append(c)
    for c in hs:
        fast_shanten(c, 0, STANDARD_SHAPES)
        shanten(c)
    t0 = time.process_time()
    for c in hs:
        fast_shanten(c, 0, STANDARD_SHAPES)
    fast = len(hs) / max(1e-9, time.process_time() - t0)
    t0 = time.process_time()
    for c in hs:
        shanten(c)
    ref = len(hs) / max(1e-9, time.process_time() - t0)
    rows.append(Row("bot shanten (13 tiles)", fast, "calls/s", ref, "rules.shapes.shanten"))
    return rows
