"""Sichuan profiles: random hands simulated and settled per second, and hand scoring µs median.

* simulation: greedy bots play whole hands through the hand machine (``rules.simulate.play_hand``: every
  event checked, the blood battle to its end, the settlement from the Sichuan ledger), beside the
  ``basic`` profile played the same way in the same run (rates in CPU time of this process);
* scoring: ``score_checked`` of random complete two-suit hands (decompositions, fans, payments) beside
  the ``basic`` profile scoring the same hands.
"""
from __future__ import annotations

import random
import time

from bench.common import Row, median, per_call_us, percentile
from rules.notation import Hand, Meld
from rules.profiles import registry
from rules.profiles.sichuan.params import PARAMS
from rules.simulate import play_hand
from rules.tiles import KINDS


def complete_hand(rng: random.Random) -> Hand:
    """A random complete hand of one or two suits: four sets (some declared pungs/kongs) and a pair."""
    while True:
        suits = rng.sample(range(3), rng.choice((1, 2, 2, 2)))
        c = [0] * 27
        conc: list[int] = []
        melds: list[Meld] = []
        for _ in range(4):
            s = rng.choice(suits) * 9
            if rng.random() < 0.5:
                b = s + rng.randint(0, 6)
                tiles = [b, b + 1, b + 2]
            else:
                b = s + rng.randint(0, 8)
                tiles = [b] * rng.choice((3, 3, 4))
            for t in tiles:
                c[t] += 1
            if len(tiles) == 4 or (tiles[0] == tiles[1] and rng.random() < 0.4):
                melds.append(Meld.build([KINDS[t] for t in tiles], concealed=rng.random() < 0.3 and len(tiles) == 4))
            else:
                conc += tiles
        p = rng.choice(suits) * 9 + rng.randint(0, 8)
        c[p] += 2
        conc += [p, p]
        if max(c) <= 4:
            w = conc.pop(rng.randrange(len(conc)))
            return Hand(tuple(KINDS[k] for k in conc), tuple(melds), KINDS[w])


def _machine_rate(profile, seconds: float, seed: int) -> tuple[float, int, int]:
    """Hands per CPU second (``seconds`` of CPU time at least), hands played, hands the driver could not
    finish (a RuntimeError: a driver fault, counted and skipped)."""
    rng = random.Random(seed)
    n = failed = 0
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        players = 3 if n % 7 == 0 else 4
        try:
            play_hand(profile, random.Random(rng.random()), n_players=players, dealer=n % players)
        except RuntimeError:
            failed += 1
        n += 1
    return n / (time.process_time() - t0), n, failed


def run(quick: bool = False) -> list[Row]:
    rows: list[Row] = []
    seconds = 2.0 if quick else 6.0
    basic = registry.get("basic")
    _machine_rate(basic, seconds / 4, 0)  # warm the shape caches
    for name in PARAMS:
        prof = registry.get(name)
        _machine_rate(prof, seconds / 4, 0)
        rate, n, failed = _machine_rate(prof, seconds, 1)
        peer, _, _ = _machine_rate(basic, seconds / 2, 1)
        rows.append(Row(f"{name}: bot hands through the machine, settled", rate, "hands/s", peer,
                        "basic profile, same bots", f"{n} hands (1 in 7 at 3 players), ledger settlement"
                        + (f"; {failed} not finished by the driver" if failed else "")))

    rng = random.Random(2026)
    hands = [complete_hand(rng) for _ in range(300 if quick else 2000)]
    bctx = basic.context({"self_drawn": True})
    for name in PARAMS:
        prof = registry.get(name)
        ctx = prof.context({"self_drawn": True, "winner_seat": 0})
        for h in hands:  # warm caches
            prof.score_checked(h, ctx)
        us = per_call_us(lambda h, p=prof, c=ctx: p.score_checked(h, c), hands)
        base_us = per_call_us(lambda h: basic.score_checked(h, bctx), hands)
        rows.append(Row(f"{name}: score a hand, median", median(us), "us", median(base_us), "basic profile",
                        f"p95 {percentile(us, 95):.1f} us, {len(hands)} complete hands"))
        tp = [Hand(h.concealed, h.melds) for h in hands[:500]]
        us_t = per_call_us(lambda h, p=prof: p.tenpai(h, None), tp)
        rows.append(Row(f"{name}: tenpai + exhaustion maximum, median", median(us_t), "us", None, None,
                        "13-tile hands (the complete hands minus the winning tile)"))
    return rows
