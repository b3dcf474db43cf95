"""Random whole hands and games with the bots (rules.simulate) under the Red profile, 2 to 4 players."""
from __future__ import annotations

import random

import pytest

from rules.profiles.registry import get
from rules.simulate import HandDriver, play_game
from rules.wall import wall_spec
from tests.conftest import scaled
from tests.oracles.red_table import next_dealer

RED = get("red")


def _tiles_on_table(st) -> int:
    """Every tile accounted for: concealed, melds, flowers, discards and the wall; a claimed discard lies
    in a meld as well as in its pond, so each claimed meld gives one back."""
    n = st.wall.remaining
    for ss in st.seat_state.values():
        n += sum(ss.counts) + ss.unknown + sum(len(m.tiles) for m in ss.melds) + len(ss.flowers) + len(ss.pond)
        n -= sum(1 for src in ss.meld_sources if src is not None)
    return n


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_hands(players):
    rng = random.Random(100 + players)
    spec = wall_spec("red", players, "T148")
    wins = 0
    n = scaled(12, 300)
    for i in range(n):
        dealer = spec.seats[i % players]
        tiles = "T148" if i % 2 == 0 else "T144"  # with and without the four jokers
        driver = HandDriver(RED, random.Random(rng.random()), n_players=players, dealer=dealer,
                            options={"tiles": tiles}, error_rate=0.05 if i % 3 == 0 else 0.0)
        r = driver.run()  # every hand finishes (a hand of four melds + jokers discards a joker)
        st = r.machine.state
        assert sum(r.deltas) == 0  # zero-sum settlement, penalties included
        assert _tiles_on_table(st) == int(tiles[1:])  # tile conservation
        assert st.settled is not None and st.next_dealer is not None
        for p in st.settled.payments:
            assert p["rule"].startswith("001 ") and p["reason"]
        valid = st.valid_wins()
        assert len(valid) <= 1  # head bump: one winner
        assert r.next_dealer == next_dealer(dealer, players, valid[0].seat if valid else None)
        for w in valid:
            wins += 1
            value = w.result.extra["value"]
            mult = players - 1 if w.from_seat is None else 1
            false_wins = [v for v in st.violations if v.code == "false_win"]
            if not false_wins:
                assert r.deltas[w.seat] == value * mult
            assert not (w.tile.is_joker and w.from_seat is not None)  # a discarded joker is never won on
    assert wins > 0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_short_game_is_zero_sum(players):
    g = play_game(RED, seed=players, n_players=players, max_hands=scaled(4, 40))
    assert sum(g.totals.values()) == 0
    assert len(g.standings) == players


def test_a_hand_of_only_jokers_discards_a_joker():
    """Four melds + "jj": the greedy bot has no natural tile to discard and plays a joker (the seed that
    crashed GreedyBot.choose_discard); the hand runs to its settlement."""
    driver = HandDriver(RED, random.Random(0.6174976336144677), n_players=2, dealer=0, options={"tiles": "T148"},
                        error_rate=0.05)
    r = driver.run()
    st = r.machine.state
    assert st.settled is not None and sum(r.deltas) == 0
    joker_discards = [e for e in r.events if e.TYPE == "discarded" and e.tile == "j"]
    assert any(len(st.seat_state[e.seat].melds) == 4 for e in joker_discards)
