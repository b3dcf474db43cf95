"""Payments, penalties, the 16-hand session, claims, Siamese MCR and the game hooks (pure functions)."""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction

import pytest

from rules.game.state import WinRecord
from rules.notation import parse_hand
from rules.profiles.mcr import claims as C
from rules.profiles.mcr import penalties as PEN
from rules.profiles.mcr import session as S
from rules.profiles.mcr.profile import MCR
from rules.profiles.mcr.settlement import draw_payments, net, win_payments
from rules.profiles.mcr.siamese import MCRSiamese, hands_played, second_win_allowed, siamese_win_payments
from rules.tiles import Tile

# --- settlement ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("value", [8, 12, 30, 88])
def test_win_payments_are_zero_sum_and_as_the_seed_says(value):
    for winner in range(4):
        pays = win_payments(winner, value, None)
        n = net(pays)
        assert sum(n.values()) == 0 and n[winner] == 3 * (8 + value)
        assert all(p.ref.startswith("003") and p.reason for p in pays)
        for disc in range(4):
            if disc == winner:
                continue
            n = net(win_payments(winner, value, disc))
            assert sum(n.values()) == 0 and n[winner] == 24 + value and n[disc] == -(8 + value)
    with pytest.raises(ValueError):
        win_payments(0, 8, 0)
    assert draw_payments() == []


# --- penalties ----------------------------------------------------------------------------------------------


def test_false_hu_and_escalation():
    s = PEN.false_hu(1, insufficient_fan=True)
    assert s.paid_total == 30 and not s.may_win_this_hand and {p.payee for p in s.payments} == {0, 2, 3}
    assert PEN.false_hu(1, insufficient_fan=False).paid_total == 60
    assert [PEN.escalation(i) for i in range(1, 8)] == [0, 5, 10, 20, 40, 60, 60]
    w = PEN.escalating(0, PEN.Foul.WALL_TOUCH, 1, tile_seen=True)
    assert w.warning and not w.may_win_this_hand and w.deduction == 0
    assert PEN.escalating(0, PEN.Foul.LATE_PUNG, 3).deduction == 10
    with pytest.raises(ValueError):
        PEN.escalating(0, PEN.Foul.FALSE_HU_WRONG_CLAIM, 1)
    e = PEN.exposed_after_hu(3, hu_valid=False)
    assert e.paid_total == 30 and not e.may_win_this_hand
    assert PEN.exposed_after_hu(3, hu_valid=True).warning
    assert not PEN.dead_hand(2, PEN.Foul.WRONG_TILE_COUNT).may_win_this_hand
    assert PEN.deduction(1, PEN.Foul.EMPTY_CLAIM, 40, "003 §Нарушения 1").deduction == 40
    with pytest.raises(ValueError):
        PEN.deduction(1, PEN.Foul.EMPTY_CLAIM, 7, "")


# --- session --------------------------------------------------------------------------------------------------


def test_sixteen_hand_schedule():
    sched = S.schedule()
    assert len(sched) == 16 and [h.number for h in sched] == list(range(1, 17))
    assert Counter(h.dealer_player for h in sched) == {0: 4, 1: 4, 2: 4, 3: 4}  # everyone deals once a round
    assert [h.prevalent_wind for h in sched[::4]] == ["1z", "2z", "3z", "4z"]
    for h in sched:
        assert sorted(h.seat_wind_of) == [0, 1, 2, 3]
        assert h.seat_wind_of[h.dealer_player] == 0
    # the seat table of 003 «Места»: round 2 starts with B East, A South, D West, C North
    r2 = sched[4]
    assert r2.seat_wind_of == (1, 0, 3, 2) and r2.dealer_player == 1
    # within a round the deal passes to the right: the seat winds move back by one each hand
    for rnd in range(4):
        hands = sched[rnd * 4:(rnd + 1) * 4]
        for a, b in zip(hands, hands[1:], strict=False):
            assert all((b.seat_wind_of[p] - a.seat_wind_of[p]) % 4 == 3 for p in range(4))
    assert S.next_dealer_seat(3) == 0 and S.session_over(16) and not S.session_over(15)


def test_every_player_sits_upper_to_every_other():
    # 003 «Места»: each player is somebody's left neighbour ("upper") once over the session's seatings
    uppers = set()
    for rnd in range(4):
        seats = S.SEAT_TABLE[rnd]
        for p in range(4):
            left = next(q for q in range(4) if seats[q] == (seats[p] - 1) % 4)
            uppers.add((left, p))
    assert len(uppers) == 12


def test_table_points_and_ties():
    assert S.table_points([100, -20, 50, -130]) == {0: 4, 2: 2, 1: 1, 3: 0}
    tied = S.table_points([10, 10, -5, -15])
    assert tied[0] == tied[1] == Fraction(3) and tied[2] == 1 and tied[3] == 0
    assert sum(S.table_points([0, 0, 0, 0]).values()) == 7
    assert S.add_hand({0: 0, 1: 0}, {0: 30, 1: -30}, {1: 10}) == {0: 30, 1: -40}


def test_a_random_sixteen_hand_session_is_zero_sum():
    rng = random.Random(5)
    totals = {p: 0 for p in range(4)}
    for _slot in S.schedule():
        winner = rng.randrange(4)
        disc = rng.choice([None] + [p for p in range(4) if p != winner])
        totals = S.add_hand(totals, net(win_payments(winner, rng.randint(8, 40), disc)))
        assert sum(totals.values()) == 0
    assert sum(S.table_points(totals).values()) == 7


# --- claims ---------------------------------------------------------------------------------------------------


def test_claims():
    assert C.may_claim(C.Claim(1, "chow"), 0)[0]
    assert not C.may_claim(C.Claim(2, "chow"), 0)[0]
    assert not C.may_claim(C.Claim(0, "pung"), 0)[0]
    assert C.resolve([C.Claim(1, "chow"), C.Claim(3, "pung")], 0) == C.Claim(3, "pung")
    assert C.resolve([C.Claim(3, "hu"), C.Claim(2, "hu"), C.Claim(1, "pung")], 0) == C.Claim(2, "hu")
    assert C.resolve([C.Claim(0, "hu"), C.Claim(3, "hu")], 2) == C.Claim(3, "hu")
    assert C.resolve([C.Claim(2, "chow")], 0) is None
    assert C.can_rob("added") and not C.can_rob("concealed") and not C.can_rob("open")


# --- Siamese ------------------------------------------------------------------------------------------------


def test_siamese_payments_and_rules():
    n = net(siamese_win_payments(0, 20, None, (0, 1, 2)), (0, 1, 2))
    assert n == {0: 56, 1: -28, 2: -28}  # §15: 2 × (V + 8)
    n = net(siamese_win_payments(0, 20, 2, (0, 1, 2)), (0, 1, 2))
    assert n == {0: 36, 1: -8, 2: -28}  # §16: V + 16
    assert net(siamese_win_payments(2, 20, None, (0, 2)), (0, 2)) == {0: -20, 2: 20}  # §23
    assert second_win_allowed(12, 12, False, True, True)[0]
    assert not second_win_allowed(12, 10, False, False, True)[0]
    assert not second_win_allowed(12, 14, True, True, True)[0]  # §5: first by discard, second same turn
    assert hands_played() == [1, 2, 3, 5, 6, 7, 9, 10, 11, 13, 14, 15]


def test_siamese_profile_scoring():
    p = MCRSiamese()
    h = parse_hand("1112345678999m + 9m")
    r = p.score_checked(h, p.context({"self_drawn": True}))
    assert r.valid and r.points == {"total": 2 * (r.total_fan + 8), "each": r.total_fan + 8}
    kept = p.score_checked(h, p.context({"self_drawn": True, "drawn_tile_kept": True}))
    assert "Nine Gates" not in {f.name for f in kept.fans}  # §17
    assert p.score_checked(h, p.context({"players": 2})).points["total"] == r.total_fan - 4  # discard: no FCH
    assert p.check_hand(parse_hand("1112345678999m + 9m | 1f"))  # no flowers in 136 tiles


# --- the game hooks, on a minimal state -----------------------------------------------------------------------


@dataclass
class _Seat:
    pond: list = field(default_factory=list)
    pond_claimed: list = field(default_factory=list)
    melds: list = field(default_factory=list)


_Win = WinRecord  # the hooks take the machine's own records


@dataclass
class _State:
    seats: tuple = (0, 1, 2, 3)
    dealer: int = 1
    round_wind: str = "2z"
    seat_state: dict = field(default_factory=dict)
    wins: list = field(default_factory=list)

    def seat_order(self, start):
        return [(start + i) % 4 for i in range(4)]


def test_game_hooks():
    p = MCR()
    st = _State(seat_state={s: _Seat() for s in range(4)})
    st.seat_state[3].melds = list(parse_hand("[555m]").melds)
    st.seat_state[2].pond = [Tile.parse("5m")]
    st.seat_state[2].pond_claimed = [False]
    w = _Win(seat=0, tile=Tile.parse("5m"), from_seat=2)
    ctx = p.win_context(st, 0, w)
    assert ctx["seat_wind"] == Tile.parse("4z") and ctx["round_wind"] == Tile.parse("2z")
    assert ctx["last_of_kind"] is True  # three 5m in an exposed pung + the winning discard
    assert p.next_dealer(st) == 2 and p.next_dealer(_State(dealer=3)) == 0
    res = p.score_checked(parse_hand("34m456s567p99s [111z] + 5m"), p.context(ctx))
    assert res.valid and {f.name for f in res.fans} >= {"Last Tile", "Mixed Shifted Chows"}
    pays = p.settle_win(st, w, res)
    assert sum(x.amount for x in pays) == 24 + res.total_fan and all(x.rule for x in pays)
    assert p.settle_exhaustive(st, []) == []
    st.wins = [_Win(seat=1, tile=Tile.parse("1m"), from_seat=None, valid=False, result=res)]
    assert sum(x.amount for x in p.penalty_payments(st, 1, "false_win")) == 30
    st.wins = [_Win(seat=1, tile=Tile.parse("1m"), from_seat=None, valid=False,
                    result=p.score_checked(parse_hand("123m456p789s1234z + 5z"), p.context({})))]
    assert sum(x.amount for x in p.penalty_payments(st, 1, "false_win")) == 60
    assert p.game_over(16, 16, 4) and not p.game_over(15, 15, 4)
    assert not p.capabilities.multiple_winners and p.capabilities.flower_discard and not p.capabilities.false_win_ends_hand


def test_siamese_table_data_adds_up():
    from rules.profiles.mcr.siamese import SIAMESE_TABLE as T

    per_seat = sum(n * k for n, k in T["deal"])
    assert per_seat == T["hand_sizes"]["other"] and per_seat + T["dealer_extra"] == T["hand_sizes"]["dealer"]
    assert T["tiles"] - 28 - 2 * 27 > T["dead_wall_two_players"]
