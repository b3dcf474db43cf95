"""Many independent random hands at once, on several processes: the simulator's throughput path.

:func:`simulate` plays exactly the hands of :func:`rules.simulate.random_hands` (same seed → the same
hands, whatever the number of workers) and yields a compact :class:`HandSummary` per hand, in order. With
``workers > 1`` the hands are played in worker processes (the bots and the machine are pure Python and
CPU-bound, so processes, not threads); each worker keeps its warmed caches for all its chunks.
"""
from __future__ import annotations

import os
import random
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from multiprocessing import get_context
from typing import Unpack

from rules.simulate import BotOptions, play_hand

CHUNK = 50  # hands per task: large enough to amortise the pickling, small enough to balance the workers


@dataclass(frozen=True)
class HandSummary:
    """What a simulation keeps of a hand (the full log stays in the worker)."""

    index: int
    deltas: tuple[int, ...]
    winners: tuple[int, ...]
    exhaustive: bool
    violations: tuple[str, ...]
    events: int


def _play_chunk(profile_name: str, jobs: list[tuple[int, float, int]], kw: BotOptions) -> list[HandSummary]:
    from rules.profiles import registry

    profile = registry.get(profile_name)
    out = []
    for i, seed, dealer in jobs:
        r = play_hand(profile, random.Random(seed), dealer=dealer, hand_id=f"h{i}", **kw)
        out.append(HandSummary(i, tuple(r.deltas), tuple(r.winners), r.exhaustive, tuple(r.violations),
                               len(r.events)))
    return out


def simulate(profile_name: str, seed: int, n: int, *, workers: int = 1, **kw: Unpack[BotOptions]
             ) -> Iterator[HandSummary]:
    """``n`` hands of ``random_hands(profile, seed, n, **kw)`` as summaries, in order; ``workers``
    processes (0: one per CPU)."""
    from rules.profiles import registry

    profile = registry.get(profile_name)  # an unknown name fails here, not in a worker
    seats = profile.wall_spec(kw.get("n_players", 4)).seats
    rng = random.Random(seed)
    jobs = [(i, rng.random(), seats[i % len(seats)]) for i in range(n)]
    chunks = [jobs[k:k + CHUNK] for k in range(0, n, CHUNK)]
    workers = workers or os.cpu_count() or 1
    if workers <= 1 or len(chunks) <= 1:
        for c in chunks:
            yield from _play_chunk(profile_name, c, kw)
        return
    with ProcessPoolExecutor(max_workers=min(workers, len(chunks)), mp_context=get_context("spawn")) as pool:
        for res in pool.map(_play_chunk, [profile_name] * len(chunks), chunks, [kw] * len(chunks)):
            yield from res
