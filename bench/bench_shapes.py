"""Hand-shape core: win checks, waits and shanten per second, beside the brute-force reference.

Hands are random but tenpai-rich: tiles are drawn from a random window of kinds, seeded, so every run
measures the same hands. The brute-force reference (``rules.reference``) runs on the same hands in the
same process, so the ratio is meaningful on a noisy shared machine.
"""
from __future__ import annotations

import random

from bench.common import Row, median, per_call_us, percentile, rate
from rules import reference, shapes
from rules.tiles import N_KINDS


def random_counts(rng: random.Random, size: int) -> list[int]:
    span = rng.randint(6, N_KINDS)
    lo = rng.randint(0, N_KINDS - span)
    c = [0] * N_KINDS
    n = 0
    while n < size:
        k = rng.randint(lo, lo + span - 1)
        if c[k] < 4:
            c[k] += 1
            n += 1
    return c


def run(quick: bool = False) -> list[Row]:
    rng = random.Random(2026)
    n = 300 if quick else 2000
    h13 = [random_counts(rng, 13) for _ in range(n)]
    h14 = [random_counts(rng, 14) for _ in range(n)]
    ref_n = n // 10
    rows: list[Row] = []

    # warm the per-group caches the way a running service has them warm
    for c in h13:
        shapes.waits(c)
        shapes.shanten(c)
    for c in h14:
        shapes.is_win(c)

    win_fast = rate(shapes.is_win, h14)
    win_ref = rate(reference.ref_win, h14[:ref_n])
    rows.append(Row("win checks (14 tiles)", win_fast, "hands/s", win_ref, "brute force"))

    waits_fast = rate(shapes.waits, h13)
    waits_ref = rate(reference.ref_waits, h13[: ref_n // 2])
    rows.append(Row("waits (13 tiles)", waits_fast, "hands/s", waits_ref, "brute force"))

    us = per_call_us(shapes.waits, h13)
    rows.append(Row("waits median (target < 20)", median(us), "us", None, None, "13-tile hands"))
    rows.append(Row("waits p95", percentile(us, 95), "us"))
    tenpai = [c for c in h13 if shapes.waits(c)]
    if tenpai:
        rows.append(Row("waits median, tenpai hands only", median(per_call_us(shapes.waits, tenpai)), "us"))

    sh_fast = rate(shapes.shanten, h13)
    sh_ref = rate(reference.ref_shanten, h13[: max(10, ref_n // 5)], min_seconds=1.0)
    rows.append(Row("shanten (13 tiles)", sh_fast, "hands/s", sh_ref, "brute force"))
    rows.append(Row("shanten median", median(per_call_us(shapes.shanten, h13)), "us"))

    decs = rate(lambda c: shapes.decompositions(c), h14)
    rows.append(Row("all decompositions (14 tiles)", decs, "hands/s"))
    return rows
