"""Riichi hand scoring (``riichi-ema2016``) beside the ``mahjong`` package (PyPI v2.1.0, the fastest pure
Python riichi scorer we found), on the same random complete hands, as a time ratio (goal: ≤ 0.5).

Both sides get pre-parsed input (our ``Hand`` + validated context; the package's 136-tile ids, melds
and ``HandConfig``) and answer the same question: is this a win, its han, fu and payments.
"""

from __future__ import annotations

import random

from bench.common import Row, median, per_call_us, percentile


def _cases(n: int, seed: int = 2016):
    from rules.profiles import registry
    from tests.profiles.riichi.gen import mahjong_request, random_complete_hand, random_context

    prof = registry.get("riichi-ema2016")
    rng = random.Random(seed)
    ours, theirs = [], []
    for _ in range(n):
        hand, pool = random_complete_hand(rng)
        ctx = random_context(rng, hand, pool)
        ours.append((hand, prof.context(ctx)))
        theirs.append(mahjong_request(hand, ctx))
    return prof, ours, theirs


def run(quick: bool) -> list[Row]:
    from mahjong.hand_calculating.hand import HandCalculator

    n = 300 if quick else 2000
    prof, ours, theirs = _cases(n)

    def score_ours(item):
        return prof.score_checked(*item)

    def score_theirs(item):
        tiles, win, melds, dora, cfg, ura = item
        return HandCalculator.estimate_hand_value(
            tiles, win, melds=melds, dora_indicators=dora, config=cfg, ura_dora_indicators=ura or None
        )

    repeat = 3 if quick else 7
    score_ours(ours[0])
    score_theirs(theirs[0])  # warm the caches of both
    # interleaved rounds, best time per hand: the machine is shared, noise comes in bursts
    t_ours = [float("inf")] * n
    t_theirs = [float("inf")] * n
    for _ in range(repeat):
        t_ours = [min(a, b) for a, b in zip(t_ours, per_call_us(score_ours, ours, 1), strict=True)]
        t_theirs = [min(a, b) for a, b in zip(t_theirs, per_call_us(score_theirs, theirs, 1), strict=True)]
    valid = sum(1 for it in ours if score_ours(it).valid)
    note = f"{n} random complete hands ({valid} wins with a yaku), same hands both sides"
    return [
        Row("riichi hand score, median", median(t_ours), "us", median(t_theirs), "mahjong 2.1.0", note),
        Row(
            "riichi hand score, p95", percentile(t_ours, 95), "us", percentile(t_theirs, 95), "mahjong 2.1.0"
        ),
        Row("riichi hand score, mean", sum(t_ours) / n, "us", sum(t_theirs) / n, "mahjong 2.1.0"),
    ]
