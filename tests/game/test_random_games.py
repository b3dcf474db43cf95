"""Invariants over many random bot hands: conservation, hand sizes, zero-sum, replay, table = full verdicts."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from rules.bots import fast_shanten
from rules.game.machine import replay, table_view
from rules.game.state import Phase
from rules.profiles.basic import Basic
from rules.shapes import STANDARD_SHAPES, shanten
from rules.simulate import play_game, random_hands
from tests.conftest import scaled

PROFILE = Basic()


def check_conservation(r) -> None:
    st = r.machine.state
    spec = r.machine.spec
    held: Counter = Counter()
    for ss in st.seat_state.values():
        assert ss.unknown == 0
        held.update(ss.tiles())
        held.update(t for m in ss.melds for t in m.tiles)
        held.update(ss.flowers)
        held.update(t for t, c in zip(ss.pond, ss.pond_claimed) if not c)
    # a won discard stays in its pond; a robbed kong tile lies in no hand (several winners share it)
    last = None
    for w in st.wins:
        key = (w.from_seat, w.tile)
        if w.robbing_kong and key != last:
            held[w.tile] += 1
        last = key if w.robbing_kong else None
    taken = spec.n_tiles - spec.dead_wall - st.wall.remaining
    assert sum(held.values()) == taken, (sum(held.values()), taken)
    assert not held - Counter(r.wall)  # every tile on the table came from the wall


def check_hand_sizes(r) -> None:
    st = r.machine.state
    for s, ss in st.seat_state.items():
        n = ss.n_concealed + 3 * len(ss.melds)
        self_drawn_winner = any(w.seat == s and w.from_seat is None for w in st.wins)
        assert n == (14 if self_drawn_winner else 13), (s, n)


def verdict(m) -> tuple:
    st = m.state
    return (
        tuple((v.code, v.seat) for v in st.violations),
        tuple((w.seat, w.from_seat, w.valid) for w in st.wins),
        st.settled.deltas if st.settled else None,
        st.next_dealer,
        st.exhaustive,
        tuple(sorted((k, v) for k, v in st.tenpai.items())),
    )


@pytest.fixture(scope="module")
def hands():
    n = scaled(120, 3000)
    return list(random_hands(PROFILE, seed=11, n=n)) + list(random_hands(PROFILE, seed=12, n=n // 4, error_rate=0.3))


def test_hands_end_and_win_often(hands):
    assert all(r.machine.phase == Phase.OVER for r in hands)
    wins = sum(1 for r in hands if r.winners)
    assert wins / len(hands) > 0.5
    assert any(r.exhaustive for r in hands) or len(hands) < 200


def test_conservation_and_hand_sizes(hands):
    for r in hands:
        check_conservation(r)
        check_hand_sizes(r)


def test_zero_sum_settlements(hands):
    for r in hands:
        assert sum(r.deltas) == 0


def test_false_wins_are_caught(hands):
    codes = Counter(c for r in hands for c in r.violations)
    assert codes["false_win"] > 0  # the noisy bots declared some
    assert set(codes) <= {"false_win", "furiten"}


def test_replay_identity(hands):
    for r in hands[: scaled(60, 3000)]:
        again = replay(PROFILE, r.events, "full", r.wall)
        assert again.log == r.events
        assert again.to_json() == r.machine.to_json()


def test_table_mode_verdicts_equal_full_information(hands):
    for r in hands:
        view = table_view(r.events)
        t = replay(PROFILE, view, "table")
        assert t.phase == Phase.OVER, [e for e in t.log if e.TYPE == "violation"]
        assert verdict(t) == verdict(r.machine)


def test_games_rotate_and_rank():
    g = play_game(PROFILE, seed=5, max_hands=scaled(12, 64))
    assert sum(g.totals.values()) == 0
    assert [s.rank for s in g.standings] == sorted(s.rank for s in g.standings)
    assert sum(s.table_points for s in g.standings) == pytest.approx(7.0)
    dealers = [h.machine.state.dealer for h in g.hands]
    for prev, nxt in zip(g.hands, dealers[1:]):
        assert prev.next_dealer == nxt


def test_same_seed_same_hand():
    a = next(random_hands(PROFILE, seed=3, n=1))
    b = next(random_hands(PROFILE, seed=3, n=1))
    assert a.events == b.events


def test_random_bot_plays_legal_hands():
    for r in random_hands(PROFILE, seed=4, n=scaled(10, 200), bot="random"):
        assert r.machine.phase == Phase.OVER and not r.violations
        check_conservation(r)


def test_fast_shanten_matches_shapes():
    rng = random.Random(2)
    wall = [k for k in range(34) for _ in range(4)]
    for _ in range(scaled(3000, 50000)):
        rng.shuffle(wall)
        n_melds = rng.randint(0, 4)
        c = [0] * 34
        for k in wall[: 14 - 3 * n_melds - rng.randint(0, 1)]:
            c[k] += 1
        assert fast_shanten(c, n_melds, STANDARD_SHAPES) == shanten(c, n_melds, STANDARD_SHAPES), (c, n_melds)


def test_discard_shanten_matches_shapes():
    from rules.bots import discard_shanten

    rng = random.Random(9)
    wall = [k for k in range(34) for _ in range(4)]
    for _ in range(scaled(1500, 20000)):
        rng.shuffle(wall)
        n_melds = rng.choice((0, 0, 0, 1, 2))
        c = [0] * 34
        for k in wall[: 14 - 3 * n_melds]:
            c[k] += 1
        got = discard_shanten(list(c), n_melds, STANDARD_SHAPES)
        for k, v in got.items():
            c[k] -= 1
            assert v == shanten(c, n_melds, STANDARD_SHAPES), (c, k)
            c[k] += 1
        assert set(got) == {k for k in range(34) if c[k]}


def test_three_players():
    for r in random_hands(PROFILE, seed=8, n=scaled(12, 300), n_players=3):
        assert r.machine.phase == Phase.OVER
        assert set(r.machine.state.seats) == {0, 1, 2} and r.deltas[3] == 0
        check_conservation(r)
        check_hand_sizes(r)
        assert sum(r.deltas) == 0
        t = replay(PROFILE, table_view(r.events), "table")
        assert verdict(t) == verdict(r.machine)
