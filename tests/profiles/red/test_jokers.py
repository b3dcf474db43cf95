"""rules.jokers against the brute-force assignment reference (tests/profiles/red/brute.py)."""
from __future__ import annotations

import random

import pytest

from rules import jokers as jk
from rules.notation import parse_tiles
from rules.tiles import N_KINDS, counts34
from tests.conftest import scaled
from tests.profiles.red import brute


def c_of(text: str) -> list[int]:
    return counts34(parse_tiles(text))


def random_complete(rng: random.Random, n_sets: int = 4) -> list[int]:
    """A random regular hand (sets + pair), natural copies ≤ 4."""
    while True:
        c = [0] * N_KINDS
        for _ in range(n_sets):
            if rng.random() < 0.5:
                s, n = rng.randrange(3), rng.randrange(7)
                for i in range(3):
                    c[s * 9 + n + i] += 1
            else:
                c[rng.randrange(N_KINDS)] += 3
        c[rng.randrange(N_KINDS)] += 2
        if max(c) <= 4:
            return c


def take_random(rng: random.Random, c: list[int], n: int) -> list[int]:
    c = list(c)
    for _ in range(n):
        ks = [k for k in range(N_KINDS) if c[k]]
        c[rng.choice(ks)] -= 1
    return c


def add_random(rng: random.Random, c: list[int], n: int) -> list[int]:
    c = list(c)
    for _ in range(n):
        ks = [k for k in range(N_KINDS) if c[k] < 4]
        c[rng.choice(ks)] += 1
    return c


def sample(rng: random.Random, jokers: int, n_melds: int = 0) -> list[int]:
    """Mostly near-winning hands (a complete hand with tiles turned into jokers, some swapped), some random."""
    size = 14 - 3 * n_melds - jokers
    if size <= 0:
        return [0] * N_KINDS
    r = rng.random()
    if r < 0.15:  # plain random tiles
        return add_random(rng, [0] * N_KINDS, size)
    c = take_random(rng, random_complete(rng, 4 - n_melds), jokers)
    if r < 0.55:  # one natural swapped: often not a win
        c = add_random(rng, take_random(rng, c, 1), 1)
    return c


# ----------------------------------------------------------------------------------------------------------
# The seed's examples


def test_fn9_second_joker_rearranged():
    # 234s + j, one set and a pair to make, a second joker drawn: j34s + 2sj (001 fn9)
    assert jk.is_regular_win(c_of("234s"), 2, n_melds=3)
    assert jk.joker_completes(c_of("234s"), 1, n_melds=3)


def test_fn9_lone_joker_cannot_pair_a_joker():
    assert not jk.is_regular_win([0] * N_KINDS, 2, n_melds=4)
    assert not jk.joker_completes([0] * N_KINDS, 1, n_melds=4)
    assert jk.is_regular_win([0] * N_KINDS, 2, n_melds=4, require_natural=False)
    # any natural tile pairs the joker (001 §Джокеры 5)
    assert jk.waits([0] * N_KINDS, 1, n_melds=4) == list(range(N_KINDS))


def test_joker_only_set_needs_the_option():
    c = c_of("1z")  # with three declared sets: 1z + 4 jokers leaves an all-joker set or pair
    assert not jk.is_regular_win(c, 4, n_melds=3)
    assert jk.is_regular_win(c, 4, n_melds=3, require_natural=False)
    d = jk.regular_decompositions(c, 4, n_melds=3, require_natural=False)
    assert {(x.sets, x.pair) for x in d} == {((("pung", None),), 27), ((("pung", 27),), None)}
    # jokers attach to naturals wherever they can: 123m456p789s11z + jjj is a win (11z j, 12m j, 3m j)
    assert jk.is_regular_win(c_of("123m456p789s11z"), 3)


def test_four_jokers():
    assert not jk.is_regular_win(c_of("159m159p11z"), 4)  # 8 naturals, 4 jokers: 1-5-9 cannot share sets
    c = c_of("12m5p9s333z")  # 12mj chow, 5pjj pung, 9sj pair, 333z: all four jokers placed
    assert jk.is_regular_win(c, 4, n_melds=1) and brute.is_win(c, 4, n_melds=1)
    assert not jk.is_regular_win(c_of("1m5p9s333z4z"), 4, n_melds=1)


def test_decomposition_resolves_jokers():
    (d,) = [x for x in jk.regular_decompositions(c_of("12p456p789p111p22p"), 1) if x.pair == 10]
    assert d.joker_kinds == (11,)  # the joker is the 3p
    assert ("chow", 9) in d.sets


def test_bad_input():
    assert not jk.is_regular_win(c_of("123m"), 0)
    assert jk.regular_decompositions(c_of("123m"), 1) == []
    assert not jk.is_regular_win(c_of("11m"), 0, n_melds=5)


# ----------------------------------------------------------------------------------------------------------
# Properties against the brute force


def _readings(c, j, n_melds):
    return {(d.sets, d.pair) for d in jk.regular_decompositions(c, j, n_melds)}


@pytest.mark.parametrize("jokers", [0, 1, 2])
def test_readings_match_brute_force(jokers):
    rng = random.Random(1000 + jokers)
    wins = 0
    for _ in range(scaled(200, 3000)):
        n_melds = rng.choice((0, 0, 1, 2, 3, 4))
        if 14 - 3 * n_melds - jokers < 0:
            continue
        c = sample(rng, jokers, n_melds)
        ref = brute.readings(c, jokers, n_melds)
        got = _readings(c, jokers, n_melds)
        assert got == ref, (c, jokers, n_melds)
        assert jk.is_regular_win(c, jokers, n_melds) is bool(ref)
        wins += bool(ref)
    assert wins > 10  # the sample holds wins and non-wins


def test_win_check_matches_brute_force_three_jokers():
    rng = random.Random(7)
    for _ in range(scaled(30, 600)):
        n_melds = rng.choice((0, 1, 2, 3))
        c = sample(rng, 3, n_melds)
        assert jk.is_regular_win(c, 3, n_melds) is brute.is_win(c, 3, n_melds), c


def test_win_check_matches_brute_force_four_jokers():
    rng = random.Random(8)
    for _ in range(scaled(4, 50)):
        n_melds = rng.choice((1, 2, 3))  # fewer naturals keeps the 66 045 assignments affordable
        c = sample(rng, 4, n_melds)
        assert jk.is_regular_win(c, 4, n_melds) is brute.is_win(c, 4, n_melds), c


@pytest.mark.parametrize("jokers", [1, 2])
def test_without_natural_requirement_matches_brute_force(jokers):
    rng = random.Random(20 + jokers)
    for _ in range(scaled(80, 1500)):
        n_melds = rng.choice((0, 2, 3, 4))
        if 14 - 3 * n_melds - jokers < 0:
            continue
        c = sample(rng, jokers, n_melds)
        want = brute.is_win(c, jokers, n_melds, require_natural=False)
        assert jk.is_regular_win(c, jokers, n_melds, require_natural=False) is want, c


def test_waits_match_brute_force():
    rng = random.Random(99)
    for _ in range(scaled(30, 400)):
        j = rng.choice((0, 1, 1, 2, 2))
        n_melds = rng.choice((0, 1, 2, 3))
        c = take_random(rng, sample(rng, j, n_melds), 1) if sum(sample(rng, j, n_melds)) else None
        if c is None:
            continue
        want = []
        for k in range(N_KINDS):
            if c[k] >= 4:
                continue
            c[k] += 1
            if brute.is_win(c, j, n_melds):
                want.append(k)
            c[k] -= 1
        assert jk.waits(c, j, n_melds) == want, (c, j, n_melds)
        if j + 1 <= 3:  # the brute force with four jokers is too slow to run per wait
            assert jk.joker_completes(c, j, n_melds) is brute.is_win(c, j + 1, n_melds)


def test_jokers_are_conserved_in_every_reading():
    rng = random.Random(5)
    for _ in range(scaled(200, 3000)):
        j = rng.randrange(5)
        n_melds = rng.choice((0, 1, 2))
        c = sample(rng, j, n_melds)
        for d in jk.regular_decompositions(c, j, n_melds):
            assert len(d.joker_kinds) == j
            kinds = [0] * N_KINDS
            for kind, b in d.sets:
                for t in ((b, b + 1, b + 2) if kind == "chow" else (b, b, b)):
                    kinds[t] += 1
            kinds[d.pair] += 2
            res = list(c)
            for t in d.joker_kinds:
                res[t] += 1
            assert kinds == res  # naturals + what the jokers stand for = the tiles of the reading
