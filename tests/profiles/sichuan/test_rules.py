"""Wall and deal, claims, furiten, kong restrictions, session and penalties as pure functions."""
from __future__ import annotations

import random

import pytest

from rules.notation import parse_hand
from rules.profiles import registry
from rules.profiles.sichuan import penalties, session
from rules.profiles.sichuan.claims import Claim, Furiten, arbitrate, kong_problem
from rules.profiles.sichuan.params import MPL2025, WMSG
from tests.oracles import sichuan_wall as tables


# -- wall and deal ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("dealer", range(4))
def test_stack_order_is_a_ring_starting_after_the_break(dealer: int) -> None:
    for a in range(1, 7):
        for b in range(1, 7):
            order = tables.stack_order(dealer, (a, b))
            assert len(order) == len(set(order)) == 54
            w = tables.dice_wall_owner(dealer, (a, b))
            assert order[0] == (w, min(a, b) + 1)
            assert order[-1] == (w, min(a, b))
            # clockwise continues into the section of the owner's left player (seat - 1)
            size = tables.wall_sizes(dealer)[w]
            assert order[size - min(a, b)] == ((w - 1) % 4, 1)
    assert sorted(tables.wall_sizes(dealer).values()) == [13, 13, 14, 14]
    assert tables.wall_sizes(dealer)[dealer] == 14


def test_bad_dice() -> None:
    with pytest.raises(ValueError):
        tables.dice_wall_owner(0, (0, 7))
    with pytest.raises(ValueError):
        tables.dice_wall_offset(13)


def test_three_player_deal() -> None:
    pos, first = tables.deal_positions(1, (0, 1, 2))
    assert {s: len(p) for s, p in pos.items()} == {1: 14, 2: 13, 0: 13}
    assert first == 40  # 000 §3.1.3: 40 tiles dealt, the wall goes on from there
    idx = sorted(p.index for ps in pos.values() for p in ps)
    assert idx == list(range(40))


def test_deal_distributes_the_wall() -> None:
    wall = list(range(108))
    random.Random(3).shuffle(wall)
    d = tables.deal(wall, 2)
    assert len(d.hands[2]) == 14 and all(len(d.hands[s]) == 13 for s in (0, 1, 3))
    assert len(d.live) == 55
    assert sorted(d.live + [t for h in d.hands.values() for t in h]) == list(range(108))
    assert d.live[0] == wall[tables.Position(27, False).index]  # the open end after the dealer's jump
    with pytest.raises(ValueError):
        tables.deal(wall[:-1], 0)


# -- claims ----------------------------------------------------------------------------------------------
def test_hu_beats_pung_and_several_hu_win_in_turn_order() -> None:
    arb = arbitrate(MPL2025, 2, [Claim(0, "pung"), Claim(1, "hu"), Claim(3, "hu", 2.5)], (0, 1, 2, 3))
    assert arb.hu == (3, 1) and arb.meld is None and [c.seat for c in arb.ignored] == [0]


def test_rejected_claims() -> None:
    arb = arbitrate(MPL2025, 0, [Claim(1, "chow"), Claim(2, "pung", 3.5), Claim(3, "kong")], (0, 1, 2, 3),
                    wall_empty=True)
    assert [r.code for r in arb.rejected] == ["chow_claim", "late_call", "kong_on_last_tile"]
    assert arb.hu == () and arb.meld is None
    arb = arbitrate(WMSG, 0, [Claim(1, "hu"), Claim(2, "hu"), Claim(3, "pung")], (0, 2, 3), dead=(3,),
                    tile_suit="p", missing_suits={2: "p"})
    assert [r.code for r in arb.rejected] == ["not_in_play", "missing_suit_claim", "dead_hand_claim"]
    arb = arbitrate(MPL2025, 0, [Claim(2, "pung")], (0, 1, 2, 3), wall_empty=True)
    assert arb.meld == Claim(2, "pung")  # the last discard may still be punged (000 §2.5.5)


def test_kong_restrictions() -> None:
    assert kong_problem("concealed", 10, False, True) is None
    assert "empty" not in (kong_problem("open", 0, False, False) or "") and kong_problem("open", 0, False, False)
    assert "pung" in kong_problem("added", 10, True, False)
    assert "wall" in kong_problem("added", 10, False, False)
    assert kong_problem("open", 5, False, False) is None


def test_furiten_mpl_same_kind_until_draw() -> None:
    f = Furiten(MPL2025)
    f.on_discard(4, (0, 1, 2, 3), values={1: 2})
    assert f.is_furiten(1, 4, 2) and not f.is_furiten(1, 4, 4)  # higher value allowed
    assert not f.is_furiten(1, 5, 2)  # another kind
    assert f.is_furiten(0, 4, 16)  # the value then is unknown: any value is furiten
    f.on_draw_or_claim(1)
    assert not f.is_furiten(1, 4, 2)


def test_furiten_wmsg_any_discard_until_wall_draw() -> None:
    f = Furiten(WMSG)
    f.on_discard(4, (0, 1, 2, 3), values={1: 2})  # seat 1 passed a win worth 2
    assert f.is_furiten(1, 20, 2) and not f.is_furiten(1, 20, 4)
    assert not f.is_furiten(2, 4, 1)
    f.on_draw_or_claim(1, wall_draw=False)  # a claimed set does not lift it
    assert f.is_furiten(1, 7, 1)
    f.on_draw_or_claim(1)
    assert not f.is_furiten(1, 7, 1)


# -- session ---------------------------------------------------------------------------------------------
def test_next_to_play_skips_players_out() -> None:
    assert session.next_to_play(0, [1, 3], {0, 2}) == 0
    assert session.next_to_play(2, [3], {0, 1, 2}) == 0
    assert session.next_to_play(1, [1], {0, 3}) == 3
    assert session.next_to_play(1, [], {0, 1, 3}) == 3


def test_tp_fixed_results_and_small_tables() -> None:
    tp = session.tournament_points({0: 10, 1: 5, 2: 5, 3: 40}, fixed={3: 0.0})
    assert tp == {0: 4.0, 1: 2.5, 2: 2.5, 3: 0.0}
    assert session.tournament_points({0: 1, 1: -1}) == {0: 3.0, 1: 3.0}
    tp = session.tournament_points({0: 5, 1: 5, 2: 5, 3: 5})
    assert sum(tp.values()) == 10


def test_session_clock() -> None:
    c = session.SessionClock(gong=100.0, max_hands=8)
    assert c.may_start_hand(3, 99.0) and not c.may_start_hand(3, 101.0) and not c.may_start_hand(8, 5.0)
    assert c.hand_counts(99.5) and not c.hand_counts(None)


def test_next_dealer_partial_multiple_hu() -> None:
    ev = session.HuEvent((1, 3), 2, valid=(False, True))
    assert session.next_dealer(0, [ev]) == 3


# -- penalties -------------------------------------------------------------------------------------------
def test_progressive_scale_cumulative() -> None:
    sc = penalties.ProgressiveScale()
    steps = [sc.record(1, "late_call") for _ in range(8)]
    assert [s.total for s in steps] == [0, 2, 4, 8, 16, 24, 48, 48]
    assert [s.amount for s in steps] == [0, 2, 2, 4, 8, 8, 24, 0]
    assert steps[0].warning and steps[-1].beyond_scale and not steps[5].beyond_scale
    assert sc.total(1) == 48 and sc.total(2) == 0
    with pytest.raises(KeyError):
        sc.record(1, "no_such_thing")


def test_progressive_scale_per_violation() -> None:
    sc = penalties.ProgressiveScale(cumulative=False)
    assert [sc.record(0, "empty_call").amount for _ in range(3)] == [0, 2, 4]
    assert sc.total(0) == 6


def test_lateness_bounds() -> None:
    assert penalties.lateness(0).gp_penalty == 0
    assert penalties.lateness(10).gp_penalty == -8
    assert penalties.lateness(10.01).gp_penalty == -16
    assert penalties.lateness(15).gp_penalty == -16
    assert penalties.lateness(15.5).fixed_tp == 0.0


# -- profile surface -------------------------------------------------------------------------------------
def test_check_hand_rejects_honours_and_claimed_chows() -> None:
    p = registry.get("sichuan-mpl2025")
    errs = p.check_hand(parse_hand("[123m] 456m 789m 11p 23p 1z"))
    assert any("chow" in e for e in errs) and any("1z" in e for e in errs)
    r = p.score_checked(parse_hand("[123m] 456m 789m 11p 23p + 4p"), p.context({}))
    assert not r.valid


def test_context_contradictions() -> None:
    p = registry.get("sichuan-wmsg")
    r = p.score_checked(parse_hand("123m456m789m11p45p + 6p"), p.context({"self_drawn": True, "robbing_kong": True}))
    assert not r.valid and "robbing_kong" in r.reason
    r = p.score_checked(parse_hand("123m456m789m11p45p + 6p"),
                        p.context({"winner_seat": 1, "discarder_seat": 1}))
    assert not r.valid


def test_best_decomposition_is_chosen() -> None:
    p = registry.get("sichuan-mpl2025")
    # 112233m 445566p 77p: three chows twice + pair, or seven pairs (2 fans): seven pairs wins
    r = p.score_checked(parse_hand("112233m445566p7p + 7p"), p.context({"missing_suit": "s"}))
    assert r.total_fan == 2 and r.extra["shape"] == "seven_pairs"
    # 111222333m: three pungs or three chows; with 444m 55m all pungs beats chows
    r = p.score_checked(parse_hand("111222333444m5m + 5m"), p.context({"missing_suit": "s"}))
    assert {f.extra["id"] for f in r.fans} == {"all_pungs", "pure_suit"}


def test_waits_and_shanten_use_sichuan_shapes() -> None:
    p = registry.get("sichuan-mpl2025")
    assert [str(t) for t in p.waits(parse_hand("1111m33m55m77m99m2p"))] == ["2p"]  # quad = two pairs
    assert p.shanten(parse_hand("19m19p19s1234567z")) > 0  # no thirteen orphans in Sichuan


# -- missing suit and timing -----------------------------------------------------------------------------
def test_missing_suit_procedures() -> None:
    from rules.notation import parse_tiles
    from rules.profiles.sichuan import missing_suit as ms
    from rules.profiles.sichuan.claims import discard_timing_problem, draw_timing_problem
    from rules.tiles import tile

    assert ms.check_cards(MPL2025, {0: 3.0, 1: 4.0, 2: 5.0, 3: 6.0}, 7.0, 0.0, range(4)) == []
    codes = [p.code for p in ms.check_cards(MPL2025, {0: 3.0, 1: 16.5, 2: None}, 17.0, 0.0, range(4))]
    assert codes == ["cards_turned_early", "slow_declaration"]
    assert ms.card_may_be_removed(tile("3p"), "p") and not ms.card_may_be_removed(tile("3m"), "p")
    hand = parse_tiles("123m456p789s1122m")
    assert ms.check_set_aside(hand, tile("7s"), "s", None, 1) == []
    assert [p.code for p in ms.check_set_aside(hand, tile("1m"), "s", None, 1)] == ["set_aside_wrong_suit"]
    assert [p.code for p in ms.check_set_aside(hand, None, None, "s", 1)] == ["judge_card_not_needed"]
    assert ms.check_set_aside(parse_tiles("123m456p789p1122m"), None, None, "s", 1) == []
    assert ms.first_discard_problem(tile("7s"), tile("1m")).code == "first_discard_not_set_aside"
    assert draw_timing_problem(MPL2025, 0.5) and draw_timing_problem(MPL2025, 3.5)
    assert draw_timing_problem(MPL2025, 1.5) is None
    assert discard_timing_problem(MPL2025, 11) and discard_timing_problem(MPL2025, 9.9) is None


@pytest.mark.parametrize("n", [4, 3])
def test_tables_agree_with_the_shared_wall_module(n: int) -> None:
    """rules.wall (what the machine plays) and the oracle break and deal a Sichuan wall identically."""
    from rules import wall

    spec = registry.get("sichuan-mpl2025").wall_spec(n)
    for dealer in spec.seats:
        for a in range(1, 7):
            for b in range(1, 7):
                brk = wall.break_wall(spec, dealer, ((a, b),))
                assert wall.stack_order(spec, dealer, brk) == tables.stack_order(dealer, (a, b))
        theirs: dict[int, list[int]] = {}
        for step in wall.deal_steps(spec, dealer):
            theirs.setdefault(step.seat, []).extend(step.positions)
        pos, _first = tables.deal_positions(dealer, spec.seats)
        assert {s: sorted(v) for s, v in theirs.items()} == {s: sorted(p.index for p in v) for s, v in pos.items()}


def test_session_score() -> None:
    sc = session.SessionScore()
    sc.add_hand({0: 6, 1: -2, 2: -2, 3: -2})
    sc.add_hand({0: -4, 1: 4})
    sc.add_penalty(2, 4)  # progressive scale step
    sc.late(3, 7)  # -8
    assert sc.gp() == {0: 2, 1: 2, 2: -6, 3: -10}
    assert sc.tp() == {0: 3.5, 1: 3.5, 2: 2.0, 3: 1.0}
    sc.late(1, 20)  # fixed 0 TP / 0 GP; the others ranked 4, 3, 2
    assert sc.tp() == {0: 4.0, 1: 0.0, 2: 3.0, 3: 2.0}
