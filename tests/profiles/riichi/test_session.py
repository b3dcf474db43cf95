"""A whole hanchan at the session level: settlements chained through the game state — renchan, counters
and riichi sticks carried over draws, a double ron, a chombo, the end after South 4, deposits left to the
winner, places and the 004 ranking; and a bot-played game through the hand machine."""

from __future__ import annotations

from rules.profiles import registry
from rules.profiles.riichi import session, settlement
from rules.profiles.riichi.limits import payments
from rules.simulate import play_game


def _apply(st: session.GameState, s: settlement.Settlement) -> session.GameState:
    nxt = session.after_hand(st, s.deltas(), s.dealer_stays, s.honba_after, s.deposits_after, s.redeal)
    assert sum(nxt.scores) + nxt.deposits == 120_000  # points and sticks are conserved
    return nxt


def test_full_hanchan():
    st = session.GameState()
    # East 1: the dealer tsumo 2 han 30 fu: 1000 all; renchan, 1 counter
    st = _apply(st, settlement.settle_tsumo(0, 0, payments(480, True, True, 0), 0))
    assert (st.label(), st.scores) == ("East 1, 1 honba", (33000, 29000, 29000, 29000))
    # East 1-1: seat 2 riichi, exhaustive draw, dealer and seat 2 tenpai: dealer stays, stick stays
    st = _apply(st, settlement.settle_exhaustive_draw([0, 2], 0, st.honba, st.deposits, [2]))
    assert (st.dealer, st.honba, st.deposits) == (0, 2, 1000)
    assert st.scores == (34500, 27500, 29500, 27500)
    # East 1-2: seat 1 rons seat 3 for 3900 (+600 counters) and takes the stick: counters cleared
    st = _apply(st, settlement.settle_ron(3, [settlement.RonWin(1, 3900)], 0, st.honba, st.deposits))
    assert (st.label(), st.deposits, st.scores) == ("East 2", 0, (34500, 27500 + 4500 + 1000, 29500, 23000))
    # East 2: a chombo by seat 3 (not a hand: same dealer, same counters)
    before = st
    st = _apply(st, settlement.settle_chombo(3, 1, st.honba, st.deposits))
    assert (st.dealer, st.honba, st.hands_played) == (1, 0, before.hands_played)
    # East 2: exhaustive draw, dealer noten: the deal passes, the counter stays with the new East
    st = _apply(st, settlement.settle_exhaustive_draw([3], 1, st.honba, st.deposits))
    assert (st.label(), st.deposits) == ("East 3, 1 honba", 0)
    # East 3-1: double ron on seat 0 by seats 2 (dealer) and 3, both riichi this hand
    s = settlement.settle_ron(
        0, [settlement.RonWin(2, 2900), settlement.RonWin(3, 5200)], 2, st.honba, st.deposits, [2, 3]
    )
    st = _apply(st, s)
    assert (st.label(), st.deposits) == ("East 3, 2 honba", 0)  # the dealer was among the winners
    # the rest: non-dealer wins move the deal round to the end of South 4
    while not st.over:
        winner = (st.dealer + 1) % 4
        st = _apply(
            st,
            settlement.settle_ron(
                st.dealer, [settlement.RonWin(winner, 1000)], st.dealer, st.honba, st.deposits
            ),
        )
    assert st.round == 1 and st.dealer == 3  # the game ended after South 4, no West round
    final = session.end_of_game_deposits(st.scores, st.deposits)
    assert sum(final) == 120_000
    places = session.places(final)
    assert sorted(places) == [1, 2, 3, 4]


def test_south4_dealer_win_keeps_dealing():
    st = session.GameState(round=1, dealer=3)
    st = _apply(st, settlement.settle_ron(0, [settlement.RonWin(3, 12000)], 3, 0))
    assert not st.over and st.dealer == 3 and st.honba == 1  # no agari yame (004 Rules 3.6)


def test_tournament_ranking_over_sessions():
    players = {"A": [], "B": [], "C": [], "D": []}
    sessions = [[52000, 31000, 22000, 15000], [25000, 25000, 40000, 30000], [30000, 30000, 30000, 30000]]
    standings = {p: session.Standing(p) for p in players}
    for finals in sessions:
        places = session.places(finals)
        for p, f, pl in zip(players, finals, places, strict=True):
            standings[p].places.append(pl)
            standings[p].points.append(session.session_points(f))
            standings[p].finals.append(f)
    order = [s.id for s in session.rank(list(standings.values()))]
    assert standings["A"].places == [1, 3.5, 2.5] and standings["C"].places == [3, 1, 2.5]
    assert order[0] in ("A", "C") and order[-1] == "D"
    ranks = session.ranks(list(standings.values()))
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
    """Bots play a whole East+South game hand by hand through the machine; the profile's next-hand options
    carry the counters; the machine's next dealer agrees with the session rotation."""
    import random

    from rules.simulate import play_hand

    prof = registry.get("riichi-ema2016")
    rng = random.Random(11)
    st = session.GameState()
    renchan = counters_paid = 0
    while not st.over and st.hands_played < 40:
        r = play_hand(
            prof,
            random.Random(rng.random()),
            dealer=st.dealer,
            round_wind=f"{st.round + 1}z",
            options={"honba": st.honba, "deposits": st.deposits},
            hand_id=f"h{st.hands_played}",
        )
        ms = r.machine.state
        opts = prof.next_hand_options(ms)
        stays = r.next_dealer == st.dealer
        renchan += stays
        counters_paid += any("counter" in p["reason"] for p in ms.settled.payments)
        if r.winners:
            assert opts["honba"] == (st.honba + 1 if st.dealer in r.winners else 0)
        st = session.after_hand(st, r.deltas, stays, opts["honba"], opts["deposits"])
        assert sum(st.scores) + st.deposits == 120_000
    assert st.over and st.round == 1
    assert renchan > 0 and counters_paid > 0
