"""A whole hanchan at the session level, played through the hand machine and the profile's hooks: renchan,
counters and riichi sticks carried from hand to hand (``next_hand_options``), the end after South 4
(``game_over``), deposits left to the winner (``end_of_game``); places and the 004 ranking."""

from __future__ import annotations

from rules.profiles import registry
from rules.profiles.riichi import tournament
from rules.simulate import play_game
from tests.profiles.riichi import played

RIICHI = registry.get("riichi-ema2016")


def test_south4_dealer_win_keeps_dealing():
    """No agari yame (004 Rules 3.6): after South 4 (seven passes of the deal) a dealer who wins keeps
    dealing; the game ends when the deal passes the eighth time."""
    st = played.ron(1, [0])
    assert st.next_dealer == st.dealer  # the dealer won: no pass of the deal
    assert not RIICHI.game_over(30, 7 + (st.next_dealer != st.dealer), 4)
    st = played.tsumo(1)
    assert RIICHI.game_over(30, 7 + (st.next_dealer != st.dealer), 4)


def test_tournament_ranking_over_sessions():
    players = {"A": [], "B": [], "C": [], "D": []}
    sessions = [[52000, 31000, 22000, 15000], [25000, 25000, 40000, 30000], [30000, 30000, 30000, 30000]]
    standings = {p: tournament.Standing(p) for p in players}
    for finals in sessions:
        places = tournament.places(finals)
        for p, f, pl in zip(players, finals, places, strict=True):
            standings[p].places.append(pl)
            standings[p].points.append(tournament.session_points(f))
            standings[p].finals.append(f)
    order = [s.id for s in tournament.rank(list(standings.values()))]
    assert standings["A"].places == [1, 3.5, 2.5] and standings["C"].places == [3, 1, 2.5]
    assert order[0] in ("A", "C") and order[-1] == "D"
    ranks = tournament.ranks(list(standings.values()))
    assert sorted(ranks.values())[0] == 1


def test_bot_game_through_the_machine():
    prof = registry.get("riichi-ema2016")
    g = play_game(prof, seed=7)
    assert sum(g.totals.values()) == 4 * 30_000
    changes = sum(1 for h in g.hands if h.next_dealer != h.machine.state.dealer)
    assert changes == 8 and len(g.hands) >= 8  # East and South rounds, then the game is over
    for h in g.hands:
        assert sum(h.deltas) == 0  # the bots declare no riichi: no sticks
        for p in h.machine.state.settled.payments:
            assert p["reason"] and p["rule"].startswith("004")


def test_hanchan_through_the_machine_with_counters_carried():
    """Bots play whole East+South games through the machine; ``play_game`` carries the counters and the
    sticks with the profile's ``next_hand_options``, rotates the deal with its ``next_dealer``, ends the
    game with ``game_over`` and leaves the last sticks to the leader with ``end_of_game``."""
    renchan = counters_paid = deposits_carried = 0
    for seed in (11, 12, 13):
        g = play_game(RIICHI, seed=seed)
        opts = {"honba": 0, "deposits": 0}
        changes = 0
        for h in g.hands:
            ms = h.machine.state
            assert {k: int(ms.options.get(k, 0)) for k in opts} == opts  # what the last hand left
            stays = h.next_dealer == ms.dealer
            renchan += stays
            changes += not stays
            counters_paid += any("counter" in p["reason"] for p in ms.settled.payments)
            opts = RIICHI.next_hand_options(ms)
            deposits_carried += opts["deposits"] > 0
            if h.winners:
                assert opts["honba"] == (int(ms.options.get("honba", 0)) + 1 if ms.dealer in h.winners else 0)
        assert changes == 8  # East and South rounds, then the game is over (no West round)
        assert sum(g.totals.values()) == 4 * 30_000  # points and sticks conserved: the last sticks to the leader
        lead = max(g.totals.values())
        assert [s.total for s in g.standings][0] == lead
    assert renchan > 0 and counters_paid > 0
