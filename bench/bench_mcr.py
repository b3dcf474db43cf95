"""MCR hand scoring (``mcr``) beside PyMahjongGB (its C++ fan calculator behind a Python binding), on the
same random complete hands, as a time ratio. Stretch goal: within 5x of PyMahjongGB in pure Python
(median over >= 5,000 hands); a measurement, not a gate.

Both sides get pre-parsed input (our ``Hand`` + validated context with the Green Book options, the
reading PyMahjongGB implements; PyMahjongGB's argument tuple) and answer the same question: the fans
of the best reading. Rows: the whole ``score_checked`` (rule checks, readings, fans, points) and the
scorer alone (``evaluate``), median / p95 / mean microseconds per hand.
"""
from __future__ import annotations

import random

from bench.common import Row, median, per_call_us, percentile


def _cases(n: int, seed: int = 2006):
    from rules.profiles.mcr.options import GREEN_BOOK
    from rules.profiles.mcr.profile import MCR
    from tests.profiles.mcr.randhands import random_case, to_gb

    prof = MCR(GREEN_BOOK)
    rng = random.Random(seed)
    ours, theirs = [], []
    for _ in range(n):
        hand, ctx = random_case(rng)
        ours.append((hand, prof.context(ctx)))
        theirs.append(to_gb(hand, ctx))
    return prof, ours, theirs


def run(quick: bool) -> list[Row]:
    from MahjongGB import MahjongFanCalculator

    n = 500 if quick else 5000
    prof, ours, theirs = _cases(n)

    def score_ours(item):
        return prof.score_checked(*item)

    def eval_ours(item):
        return prof.evaluate(*item)

    def score_theirs(kw):
        return MahjongFanCalculator(**kw)

    repeat = 2 if quick else 3
    for fn, items in ((score_ours, ours), (eval_ours, ours), (score_theirs, theirs)):
        fn(items[0])
    t_ours = [float("inf")] * n
    t_eval = [float("inf")] * n
    t_theirs = [float("inf")] * n
    for _ in range(repeat):  # interleaved rounds, best time per hand: the machine is shared and noisy
        t_ours = [min(a, b) for a, b in zip(t_ours, per_call_us(score_ours, ours, 1), strict=True)]
        t_eval = [min(a, b) for a, b in zip(t_eval, per_call_us(eval_ours, ours, 1), strict=True)]
        t_theirs = [min(a, b) for a, b in zip(t_theirs, per_call_us(score_theirs, theirs, 1), strict=True)]
    valid = sum(1 for it in ours if score_ours(it).valid)
    note = f"{n} random complete hands ({valid} reach 8 fan), special shapes over-represented"
    gb = "PyMahjongGB 1.4.0 (C++)"
    return [
        Row("mcr hand score, median", median(t_ours), "us", median(t_theirs), gb, note),
        Row("mcr hand score, p95", percentile(t_ours, 95), "us", percentile(t_theirs, 95), gb),
        Row("mcr hand score, mean", sum(t_ours) / n, "us", sum(t_theirs) / n, gb),
        Row("mcr fans only (evaluate), median", median(t_eval), "us", median(t_theirs), gb,
            "readings + fans + principles, no rule checks or points"),
    ]
