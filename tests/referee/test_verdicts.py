"""One hand per rule, as the camera and the call buttons report it: each verdict given when the action
happens, with its code, its seat and its seed reference — and nothing else flagged."""
from __future__ import annotations

from controller.referee.verdicts import verdict_lines
from rules.events import HandDead
from tests.referee.helpers import Table

RIICHI, MCR, MPL, RED = "riichi-ema2016", "mcr", "sichuan-mpl2025", "red"
MCR_DICE = ((3, 4), (2, 5))


def test_a_claim_in_time_is_a_claim_and_a_late_one_is_flagged():
    t = Table(MCR, dice=MCR_DICE)
    t.discard(0, "1z")
    t.call(2, "pung", dt=1.2)  # in time: a claim (nobody takes the tile: an empty call, no verdict here)
    assert t.verdicts() == []
    t.discard(1, "2z", dt=3.0)
    t.call(3, "pung", dt=3.4)  # 3.4 s after the discard settled: the window (3 s) has closed
    v = t.verdict("claim_late")
    assert (v.seat, v.rule) == (3, "003 §Порядок игры 7")
    assert t.verdicts() == [("claim_late", 3)]
    timed = [e for e in t.out if e.TYPE == "claim_timed"]
    assert [(c.seat, c.late) for c in timed] == [(2, False), (3, True)] and timed[-1].window == 3.0
    en, ru = verdict_lines(v)
    assert "North" in en and "003 §Порядок игры 7" in en and "Север" in ru


def test_no_claim_time_where_the_seed_sets_none():
    t = Table(RIICHI)  # riichi closes the window at the next player's draw: no clock time (004 Rules 3.3.1)
    t.discard(0, "1z")
    t.call(2, "pung", dt=3.4)
    assert t.verdicts() == []


def test_the_window_is_timed_from_the_frame_the_discard_settled_to_the_button():
    t = Table(MPL)
    for s, suit in enumerate("mpsm"):
        t.card(s, suit)
    t.discard(0, "9p")
    t.call(2, "pung", dt=2.9)
    timed = [e for e in t.out if e.TYPE == "claim_timed"]
    assert timed and abs(timed[-1].delay - 2.9) < 1e-6 and not timed[-1].late
    assert t.verdicts() == []


def test_a_chow_from_the_wrong_seat():
    t = Table(MCR, dice=MCR_DICE)
    t.discard(0, "5p")
    t.call(2, "chow")  # seat 2 is opposite seat 0: only seat 1 may chow this tile
    v = t.verdict("chow_not_from_left")
    assert (v.seat, v.rule) == (2, "003 §Словарь 20")
    assert t.verdicts() == [("chow_not_from_left", 2)]


def test_priority_pung_over_chow():
    t = Table(MCR, dice=MCR_DICE)
    t.discard(0, "5p")
    t.call(2, "pung", dt=0.4)
    t.call(1, "chow", dt=0.2)
    t.take(0, dt=0.3)
    t.meld(1, "chow", "5p 4p 6p", source="left", claimed=0)  # the chow taken although seat 2 called pung
    assert t.verdicts() == [("claim_priority", 1)]


def test_a_pung_of_the_missing_suit():
    t = Table(MPL)
    for s, suit in enumerate("mpsm"):
        t.card(s, suit)
    t.discard(0, "5p")
    t.call(1, "pung")  # seat 1 left out pins
    v = t.verdict("missing_suit_tiles")
    assert (v.seat, v.rule) == (1, "000 §2.4.10.3")
    assert t.verdicts() == [("missing_suit_tiles", 1)]


def test_a_furiten_ron_at_the_reveal():
    t = Table(RIICHI)
    t.turn_round(0, ["1z", "4m", "2z", "3z", "5z", "6z", "7z"])  # seat 1 threw 4m away
    t.discard(3, "4m")
    t.call(1, "hu")
    t.take(3, dt=0.3)
    t.reveal(1, "2m 3m 4p 5p 6p 6p 7p 8p 2s 3s 4s 5s 5s")
    t.wait(3.0)  # the claim window closes: the win is granted and judged on the hand shown
    v = t.verdict("furiten")
    assert (v.seat, v.deferred) == (1, True)
    assert t.verdicts() == [("furiten", 1)]
    assert t.ref.settled  # a false win ends the hand with the penalty (chombo)


def test_kuikae_after_a_chow():
    t = Table(RIICHI)
    t.discard(0, "3m")
    t.call(1, "chow")
    t.take(0)
    t.meld(1, "chow", "3m 4m 5m", source="left", claimed=0)
    t.discard(1, "6m", dt=1.5)  # swap-calling: the other end of the chow
    v = t.verdict("kuikae")
    assert v.seat == 1 and "004 Rules 3.3.2" in v.rule
    assert t.verdicts() == [("kuikae", 1)]


def test_no_pon_or_kan_after_riichi():
    t = Table(RIICHI)
    t.discard(0, "1z")
    t.discard(1, "2z", sideways=True)  # riichi
    t.discard(2, "9m")
    t.call(1, "kong")
    v = t.verdict("claim_not_allowed")
    assert v.seat == 1 and "3.3.14" in v.message
    assert t.verdicts() == [("claim_not_allowed", 1)]


def test_a_rack_with_the_wrong_count_is_a_dead_hand_in_sichuan():
    t = Table(MPL)
    for s, suit in enumerate("mpsm"):
        t.card(s, suit)
    t.discard(0, "1s")
    t.rack(2, 13)
    t.rack(2, 12, dt=0.5)  # a tile missing from West's rack
    t.wait(1.0)
    assert t.verdicts() == []  # not yet: it may be a hand passing over the rack
    t.wait(3.0)
    v = t.verdict("tile_count")
    assert (v.seat, v.rule) == (2, "000 §2.8.3.1")
    assert any(isinstance(e, HandDead) and e.seat == 2 for e in t.out)
    assert t.ref.machine.state.seat_state[2].dead


def test_a_rack_put_right_in_time_is_not_flagged():
    t = Table(MPL)
    for s, suit in enumerate("mpsm"):
        t.card(s, suit)
    t.discard(0, "1s")
    t.rack(2, 12)
    t.rack(2, 13, dt=1.0)
    t.wait(5.0)
    assert t.verdicts() == []


def test_a_discard_out_of_turn():
    t = Table(RIICHI)
    t.discard(0, "1z")
    t.discard(2, "2z", dt=1.0)  # seat 1 plays next
    v = t.verdict("out_of_turn")
    assert (v.seat, v.rule) == (2, "004 Rules 3.3")
    t.take(2, dt=1.0)  # taken back: play goes on
    t.discard(1, "3z")
    assert t.verdicts() == [("out_of_turn", 2)]
    assert [str(x) for x in t.ref.machine.state.seat_state[1].pond] == ["3z"]


def test_a_flower_discarded():
    t = Table(RED, dice=MCR_DICE)
    t.discard(0, "1f")
    v = t.verdict("flower_discard")
    assert (v.seat, v.rule) == (0, "001 §Замена цветов 6")


def test_a_false_win_at_the_reveal():
    t = Table(MCR, dice=MCR_DICE)
    t.call(0, "hu", dt=1.0)  # the dealer declares a self-drawn win with his first fourteen tiles
    t.reveal(0, "1m 2m 3m 5m 6m 9m 2p 4p 8p 9p 1s 5s 7s 1z")
    v = t.verdict("false_win")
    assert (v.seat, v.deferred, v.rule) == (0, True, "003 §Отдельные нарушения 6")
    assert t.verdicts() == [("false_win", 0)]
