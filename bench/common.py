"""Shared pieces of the benchmark runner: a result row and timing helpers.

Every ``bench/bench_*.py`` module exposes ``run(quick: bool) -> list[Row]``. Rows compare a figure with a
baseline measured in the same run (the machines are shared and noisy, so ratios mean more than values).
"""
from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass


@dataclass
class Row:
    name: str
    value: float
    unit: str
    baseline: float | None = None
    baseline_name: str | None = None
    note: str = ""

    @property
    def ratio(self) -> float | None:
        if self.baseline in (None, 0) or self.value == 0:
            return None
        return self.value / self.baseline

    def as_json(self) -> dict:
        d = asdict(self)
        d["ratio"] = self.ratio
        return d


def per_call_us(fn: Callable, items: Sequence, repeat: int = 5) -> list[float]:
    """Time ``fn(item)`` for every item, ``repeat`` rounds; return per-call microseconds (one per item)."""
    best = [float("inf")] * len(items)
    for _ in range(repeat):
        for i, it in enumerate(items):
            t0 = time.perf_counter_ns()
            fn(it)
            dt = (time.perf_counter_ns() - t0) / 1000.0
            if dt < best[i]:
                best[i] = dt
    return best


def median(xs: Sequence[float]) -> float:
    return statistics.median(xs)


def percentile(xs: Sequence[float], p: float) -> float:
    s = sorted(xs)
    if not s:
        return float("nan")
    k = min(len(s) - 1, max(0, round(p / 100.0 * (len(s) - 1))))
    return s[k]


def rate(fn: Callable, items: Sequence, min_seconds: float = 0.5) -> float:
    """Calls per second of ``fn`` over ``items`` (cycled until at least ``min_seconds`` passed)."""
    n = 0
    t0 = time.perf_counter()
    while True:
        for it in items:
            fn(it)
        n += len(items)
        dt = time.perf_counter() - t0
        if dt >= min_seconds:
            return n / dt
