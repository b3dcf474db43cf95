"""Red Mahjong: joker-aware win checks with 0–4 jokers, beside the brute-force assignment baseline.

* ``win check, k jokers``: :func:`rules.jokers.is_regular_win` on 14-tile concealed hands (half complete
  hands with k tiles turned into jokers, half the same with one natural swapped), median µs per call with
  the per-group tables filled (as in play, where they fill across hands), and ``cold`` with every table
  and memo cleared before each call; baseline: every multiset of joker identities
  (``combinations_with_replacement`` over 34 kinds) tried with a labelled split
  (tests/profiles/red/brute.py), on a smaller sample of the same hands.
* ``score, 4 jokers``: the whole profile score (rule checks, every reading, 18 detectors) against the same
  hands without jokers.
"""
from __future__ import annotations

import random

from bench.common import Row, median, per_call_us
from rules import jokers as jk
from rules.notation import Hand
from rules.profiles.registry import get
from rules.tiles import JOKER, KINDS, N_KINDS
from tests.profiles.red import brute


def _complete(rng: random.Random) -> list[int]:
    while True:
        c = [0] * N_KINDS
        for _ in range(4):
            if rng.random() < 0.55:
                s, n = rng.randrange(3), rng.randrange(7)
                for i in range(3):
                    c[s * 9 + n + i] += 1
            else:
                c[rng.randrange(N_KINDS)] += 3
        c[rng.randrange(N_KINDS)] += 2
        if max(c) <= 4:
            return c


def _hands(rng: random.Random, jokers: int, n: int) -> list[list[int]]:
    out = []
    for i in range(n):
        c = _complete(rng)
        for _ in range(jokers):
            c[rng.choice([k for k in range(N_KINDS) if c[k]])] -= 1
        if i % 2:  # a near miss: one natural swapped
            c[rng.choice([k for k in range(N_KINDS) if c[k]])] -= 1
            c[rng.choice([k for k in range(N_KINDS) if c[k] < 4])] += 1
        out.append(c)
    return out


def _as_hand(c: list[int], jokers: int) -> Hand:
    tiles = [KINDS[k] for k in range(N_KINDS) for _ in range(c[k])] + [JOKER] * jokers
    return Hand(tuple(tiles[:-1]), (), tiles[-1])


def run(quick: bool) -> list[Row]:
    rng = random.Random(2026)
    rows: list[Row] = []
    n_fast = 60 if quick else 300
    n_slow = {0: 40, 1: 40, 2: 20, 3: 6, 4: 2} if quick else {0: 200, 1: 100, 2: 60, 3: 16, 4: 6}
    for k in range(5):
        hands = _hands(rng, k, n_fast)

        def cold(c: list[int], k: int = k) -> bool:
            jk.cache_clear()
            return jk.is_regular_win(c, k)

        t_cold = median(per_call_us(cold, hands, repeat=3))
        jk.cache_clear()
        t_warm = median(per_call_us(lambda c, k=k: jk.is_regular_win(c, k), hands, repeat=3))
        slow_sample = hands[: n_slow[k]]
        b = median(per_call_us(lambda c, k=k: brute.is_win(c, k), slow_sample, repeat=1))
        wins = sum(jk.is_regular_win(c, k) for c in hands)
        agree = all(jk.is_regular_win(c, k) is brute.is_win(c, k) for c in slow_sample)
        label = f"{k} joker{'s' if k != 1 else ''}"
        rows.append(Row(
            f"win check, {label}", t_warm, "µs/call", b, "brute-force assignments",
            f"median of {len(hands)} hands ({wins} wins), per-group tables filled; baseline on {len(slow_sample)}"
            f" hands, agrees: {agree}",
        ))
        rows.append(Row(f"win check, {label}, cold", t_cold, "µs/call", b, "brute-force assignments",
                        "every table and memo cleared before each call"))
    red = get("red")
    ctx = red.context({"self_drawn": True})
    base = _hands(rng, 0, 100 if quick else 300)
    plain = [_as_hand(c, 0) for c in base]
    with_j = []
    for c in base:
        c2 = list(c)
        for _ in range(4):
            c2[rng.choice([k for k in range(N_KINDS) if c2[k]])] -= 1
        with_j.append(_as_hand(c2, 4))
    t4 = median(per_call_us(lambda h: red.score_checked(h, ctx), with_j, repeat=3))
    t0 = median(per_call_us(lambda h: red.score_checked(h, ctx), plain, repeat=3))
    rows.append(Row("score, 4 jokers", t4, "µs/call", t0, "score, 0 jokers",
                    f"whole profile score (rule checks, every reading, 18 fan detectors), {len(plain)} hands"))
    return rows
