"""Whole hands and games through the hand machine (rules.game) with the MCR hooks."""
from __future__ import annotations

from collections import Counter

from rules.events import FlowerDeclared
from rules.game.state import Phase
from rules.profiles.mcr.profile import MCR
from rules.profiles.mcr.settlement import net
from rules.simulate import play_game
from tests.conftest import scaled
from tests.game.helpers import Script

DICE = ((3, 4), (2, 5))


def test_sixteen_hand_game_rotates_the_deal_and_is_zero_sum():
    p = MCR()
    g = play_game(p, 7)
    assert len(g.hands) == 16  # 003 §Словарь 4: four rounds of four hands
    dealers = [h.machine.state.dealer for h in g.hands]
    assert dealers == [i % 4 for i in range(16)]  # the deal passes after every hand, won or drawn
    assert [h.machine.state.round_wind for h in g.hands[::4]] == ["1z", "2z", "3z", "4z"]
    assert sum(g.totals.values()) == 0
    assert sum(s.table_points for s in g.standings) == 7  # 4 + 2 + 1 + 0, ties sharing (A41)
    for h in g.hands:
        st = h.machine.state
        assert sum(h.deltas) == 0
        for w in st.valid_wins():
            assert w.result.valid and w.result.to_json()["hand_fan"] >= 8
            pays = p.settle_win(st, w, w.result)
            got = net([_p(x) for x in pays])
            value = w.result.total_fan
            assert got[w.seat] == (3 * (8 + value) if w.from_seat is None else 24 + value)


def _p(x):
    from rules.profiles.mcr.settlement import Payment

    return Payment(x.payer, x.payee, x.amount, x.reason, x.rule)


def test_many_games_only_valid_wins_are_paid():
    p = MCR()
    seen = Counter()
    for seed in range(3):
        for h in play_game(p, 100 + seed, max_hands=8).hands:
            st = h.machine.state
            seen["hands"] += 1
            seen["wins"] += len(st.valid_wins())
            for w in st.wins:
                if w.valid is False:
                    seen["false"] += 1
                    assert st.seat_state[w.seat].dead  # a false Hu may not win this hand (§Отд. нарушения 6)
    assert seen["hands"] == 24 and seen["wins"] > 0


def _script():
    hands = {
        0: "1f123m456m789m1z2z3z4z",
        1: "13579m13579p135s",
        2: "99p123s567s3z4z5z6z7z",
        3: "5f78p123s456s789s1z",
    }
    return Script(hands, profile=MCR(), dice=DICE)


def test_flower_replacement_chain_and_robbing_the_kong():
    s = _script()
    # initial replacement: a flower drawn as a replacement is declared and replaced again (spec §3.5)
    s.sub(FlowerDeclared(seat=0, tile="1f"))
    assert s.draw(0, "2f", "replacement").TYPE == "drew"
    s.sub(FlowerDeclared(seat=0, tile="2f"))
    assert s.draw(0, "9p", "replacement").TYPE == "drew"
    s.sub(FlowerDeclared(seat=3, tile="5f"))
    assert s.draw(3, "1z", "replacement").TYPE == "drew"
    assert [str(t) for t in s.state.seat_state[0].flowers] == ["1f", "2f"]
    assert s.state.wall.tail_used == 3
    s.discard(0, "9p")
    s.claim(2, "pung", 0, "9p", "9p9p")
    s.meld(2, "pung", "9p9p9p", from_seat=0, claimed="9p")
    s.discard(2, "7z")
    s.draw(3, "2m")
    s.discard(3, "2m")
    s.draw(0, "3z")
    s.discard(0, "3z")
    s.draw(1, "2z")
    s.discard(1, "2z")
    s.draw(2, "9p")
    assert s.meld(2, "kong_added", "9p9p9p9p", claimed="9p").TYPE == "meld_made"
    assert s.state.phase == Phase.ROB
    s.claim(3, "hu", 2, "9p")
    [won] = s.m.arbitrate()
    assert won.robbing_kong and won.seat == 3 and won.from_seat == 2
    s.sub(won)
    s.reveal(3, "78p123s456s789s11z")
    w = s.state.wins[0]
    assert w.valid and w.robbing_kong
    names = {f.name for f in w.result.fans}
    assert {"Robbing the Kong", "Pure Straight", "Flower Tiles"} <= names and "Last Tile" not in names
    d = s.m.settlement().deltas
    value = w.result.total_fan
    assert d[3] == 24 + value and d[2] == -(8 + value) and d[0] == d[1] == -8  # the robbed player pays


def test_a_flower_may_be_discarded():
    s = _script()
    s.sub(FlowerDeclared(seat=3, tile="5f"))  # seat 3 replaces; the dealer keeps his flower
    s.draw(3, "1z", "replacement")
    out = s.discard(0, "1f")
    assert out.TYPE == "discarded"  # #81 «Цветок и сезон можно снести без замещения» (A29)


def test_a_session_with_seat_rotation_between_rounds():
    """16 hands with the players changing chairs at each round start (003 «Места»): the deal passes
    every hand, everyone deals four times, the totals per player are zero-sum and ranked 4/2/1/0."""
    import random

    from rules.profiles.mcr import session as S
    from rules.simulate import play_hand

    p = MCR()
    rng = random.Random(11)
    totals = {player: 0 for player in range(4)}
    dealt = Counter()
    for slot in S.schedule():
        k = (slot.number - 1) % 4  # the dealer's chair moves one seat on each hand of the round
        r = play_hand(p, random.Random(rng.random()), dealer=k, round_wind=slot.prevalent_wind,
                      hand_number=slot.number - 1, hand_id=f"s-{slot.number}")
        st = r.machine.state
        assert st.dealer == k and st.round_wind == slot.prevalent_wind and r.next_dealer == (k + 1) % 4
        for player in range(4):
            chair = S.chair_of(player, slot.round)
            assert (chair - k) % 4 == slot.seat_wind_of[player]  # the machine's seat wind of that chair
            totals[player] += r.deltas[chair]
        dealt[slot.dealer_player] += 1
    assert dealt == {0: 4, 1: 4, 2: 4, 3: 4}
    assert sum(totals.values()) == 0
    assert sum(S.table_points(totals).values()) == 7


def test_play_game_changes_chairs_by_the_session_schedule():
    """rules.simulate.play_game seats the players by ``MCR.seating`` (003 «Места»): in every hand of the
    16 the player in each chair and the dealer are the schedule's, totals are kept per player."""
    from rules.events import HandStarted
    from rules.profiles.mcr import session as S
    from rules.simulate import play_game

    g = play_game(MCR(), 5)
    assert len(g.hands) == 16
    per_player = Counter()
    for slot, r in zip(S.schedule(), g.hands, strict=True):
        start = next(e for e in r.events if isinstance(e, HandStarted))
        for player in range(4):
            assert start.seats[S.chair_of(player, slot.round)] == f"P{player}"
            per_player[player] += r.deltas[S.chair_of(player, slot.round)]
        assert start.dealer == (slot.number - 1) % 4 and start.round_wind == slot.prevalent_wind
        dealer_player = int(start.seats[start.dealer][1:])
        assert slot.seat_wind_of[dealer_player] == 0  # the schedule's East deals
    assert all(per_player[p] == g.totals[p] for p in range(4))
    assert sum(g.totals.values()) == 0 and {s.player for s in g.standings} == {"P0", "P1", "P2", "P3"}


def test_a_win_on_a_flower_replacement_is_recorded_and_not_out_with_replacement():
    from rules.profiles.mcr.fan_table import BY_NO

    """003 #81: a win on the tile that replaced a flower is self-drawn, flagged ``flower_replacement``
    on the WinRecord and in the scoring context, and never scores #46 Out with Replacement Tile."""
    from rules.simulate import random_hands

    found = 0
    for r in random_hands(MCR(), 3, scaled(150, 600)):
        for w in r.machine.state.wins:
            ctx = MCR().win_context(r.machine.state, w.seat, w)
            assert ctx.get("flower_replacement", False) == w.flower_replacement
            if w.flower_replacement:
                found += 1
                assert w.from_seat is None and not w.kong_replacement
                if w.valid:
                    assert 46 not in {f.extra.get("no") for f in w.result.fans}
                    # scored as self-drawn: #80 Self-Drawn, or a fan that absorbs it (#62 Fully Concealed...)
                    nos = {f.extra.get("no") for f in w.result.fans}
                    assert 80 in nos or any(80 in BY_NO[n].all_excludes for n in nos if n in BY_NO)
    assert found > 0
