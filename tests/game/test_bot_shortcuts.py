"""The greedy bot's shortcuts agree with the plain computations they replace.

The bot works on a hand cut into suit groups (``rules.bots.Groups``: one group summary and two cached
combinations per changed group) instead of calling ``fast_shanten`` per candidate discard, and reads
a regular, seven-pairs or thirteen-orphans win off the same numbers. These tests compare every shortcut
with ``fast_shanten`` / ``rules.shapes`` on random hands of every profile's shapes, and the bot's discard
with a plain reference implementation of its rule on random game states.
"""
from __future__ import annotations

import random

import pytest

from rules.bots import GreedyBot, Groups, fast_shanten, segment_summary
from rules.profiles import registry
from rules.shapes import group_summary, is_win
from rules.simulate import HandDriver
from rules.tiles import KINDS, N_KINDS, TILES
from tests.conftest import scaled

PROFILES = ["basic", "mcr", "sichuan-mpl2025", "riichi-ema2016", "red"]


def _random_hand(rng: random.Random, n_tiles: int) -> list[int]:
    wall = [k for k in range(N_KINDS) for _ in range(4)]
    rng.shuffle(wall)
    c = [0] * N_KINDS
    if rng.random() < 0.3:  # a few near-complete hands: pairs and runs in one or two suits
        suits = rng.sample(range(3), 2)
        while sum(c) < n_tiles:
            k = rng.choice(suits) * 9 + rng.randrange(9)
            if c[k] < 4:
                c[k] += 1
        return c
    for k in wall[:n_tiles]:
        c[k] += 1
    return c


def test_group_summary_from_segments():
    rng = random.Random(5)
    for _ in range(scaled(3000, 30000)):
        n = rng.choice((7, 9))
        key = [0] * n
        for _ in range(rng.randint(0, 14)):
            i = rng.randrange(n)
            key[i] = min(4, key[i] + 1)
        assert segment_summary(tuple(key)) == group_summary(tuple(key)), key


@pytest.mark.parametrize("name", PROFILES)
def test_group_values_equal_fast_shanten(name):
    prof = registry.get(name)
    bot = GreedyBot(0, prof, random.Random(0))
    rng = random.Random(name)
    for _ in range(scaled(400, 4000)):
        n_melds = rng.choice((0, 0, 0, 1, 2, 3))
        c = _random_hand(rng, 14 - 3 * n_melds)
        g = Groups(c)
        sp = bot._special(c, n_melds)
        assert bot._value(g.whole(), n_melds, c, sp) == fast_shanten(c, n_melds, bot.shapes, bot.q2)
        assert bot._is_win(g, n_melds, sp) == is_win(c, n_melds, bot.shapes, bot.q2)
        for k in range(N_KINDS):
            if not c[k]:
                continue
            c2 = list(c)
            c2[k] -= 1
            want = fast_shanten(c2, n_melds, bot.shapes, bot.q2)
            assert bot._value(g.without(k), n_melds, c, sp, k) == want, (c, k)
            g2 = g.changed(k, -1)
            assert (g2.c, g2.keys, g2.all) == (c2, Groups(c2).keys, Groups(c2).all)
            # a claim's tiles (a pung or a chow from the 13-tile hand) leave a hand with one more meld
            if n_melds < 4:
                shown = [k, k] if c2[k] >= 2 else []
                if not shown and k < 27 and k % 9 <= 6 and c2[k + 1] and c2[k + 2]:
                    shown = [k + 1, k + 2]
                if shown:
                    c3 = list(c2)
                    for j in shown:
                        c3[j] -= 1
                    got = bot._after_showing(g2, tuple(KINDS[j] for j in shown), n_melds + 1)
                    assert got == fast_shanten(c3, n_melds + 1, bot.shapes, bot.q2)


def _reference_discard(bot: GreedyBot, state, c: list[int], n_melds: int) -> int:
    """The greedy discard rule written plainly (as the bot did before its shortcuts): the kind whose
    discard keeps the hand's shanten, trying isolated singles first (honours, terminals, ...), then every
    kind held by connectivity, ties broken by the bot's RNG in the same order of draws."""
    rnd = bot.rng.random
    target = fast_shanten(c, n_melds, bot.shapes, bot.q2)
    banned = bot.profile.forbidden_discards(state, bot.seat)
    held = [k for k in range(N_KINDS) if c[k] and k not in banned] or [k for k in range(N_KINDS) if c[k]]

    def isolated(k: int) -> bool:
        return k >= 27 or not any(c[j] for j in range(k - 2, k + 3)
                                  if j != k and k - k % 9 <= j < k - k % 9 + 9)

    def middle(k: int) -> int:
        return 0 if k >= 27 else 1 + min(k % 9, 8 - k % 9)

    def connectivity(k: int) -> int:
        score = 3 * (c[k] - 1)
        if k < 27:
            for d in (-2, -1, 1, 2):
                j = k + d
                if k - k % 9 <= j < k - k % 9 + 9 and c[j]:
                    score += 3 - abs(d)
            score += 1 if 2 <= k % 9 <= 6 else 0
        return score

    def keeps(k: int) -> bool:
        c[k] -= 1
        v = fast_shanten(c, n_melds, bot.shapes, bot.q2)
        c[k] += 1
        return v <= target

    for _, _, k in sorted((middle(k), rnd(), k) for k in held if c[k] == 1 and isolated(k)):
        if keeps(k):
            return k
    order = sorted((connectivity(k), rnd(), k) for k in held)
    for _, _, k in order:
        if keeps(k):
            return k

    def after(k: int) -> int:  # none keeps it (riichi's kuikae bans some kinds): the lowest, first in order
        c[k] -= 1
        v = fast_shanten(c, n_melds, bot.shapes, bot.q2)
        c[k] += 1
        return v

    best = min(after(k) for _, _, k in order)
    return next(k for _, _, k in order if after(k) == best)


@pytest.mark.parametrize("name", ["basic", "riichi-ema2016", "red"])
def test_discard_equals_reference_rule(name):
    """Mid-hand states of bot hands: the bot's discard is the plain rule's, with the same RNG draws."""
    prof = registry.get(name)
    rng = random.Random(name)
    checked = 0
    for i in range(scaled(4, 40)):
        d = HandDriver(prof, random.Random(rng.random()), dealer=i % 4)
        d.setup()
        while True:
            st = d.machine.state
            ss = st.seat_state[st.current]
            if st.phase == "turn" and not ss.missing_suit and not any(ss.counts[34:42]) and rng.random() < 0.4:
                bot = d.bots[st.current]
                c = ss.counts34()
                seed = rng.random()
                bot.rng.seed(seed)
                got = bot.choose_discard(st)
                bot.rng.seed(seed)
                want = _reference_discard(bot, st, c, len(ss.melds))
                assert got.kind == want, (name, i, c)
                assert got in (TILES[want], TILES[{4: 42, 13: 43, 22: 44}.get(want, want)])
                checked += 1
            if not d.step():
                break
    assert checked > scaled(4, 40) * 5
