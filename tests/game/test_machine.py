"""The hand machine on scripted hands: legal flow, typed violations, deferred checks, replay, both modes."""
from __future__ import annotations

import json

import pytest

from rules.events import Event, ExhaustiveDraw, HandEnded, Settled, Violation
from rules.game.machine import replay
from rules.game.profile_api import Capabilities
from rules.game.state import Phase
from rules.profiles.basic import Basic
from tests.game.helpers import HANDS, Script


def test_deal_opens_the_dealers_turn():
    s = Script(HANDS)
    assert s.state.phase == Phase.TURN and s.state.current == 0
    assert s.state.wall_remaining == 136 - 53
    assert s.state.seat_state[0].n_concealed == 14


def test_chow_only_from_the_left_player():
    s = Script(HANDS)
    s.discard(0, "3z")
    s.discard(0, "9p")  # not in turn anymore: the window is open
    assert s.codes() == ["out_of_phase"]
    s2 = Script(HANDS)
    s2.discard(0, "7s")
    v = s2.claim(3, "chow", 0, "7s", "8s9s")
    assert isinstance(v, Violation) and v.code == "chow_not_from_left" and v.rule
    assert v.action["type"] == "claimed"  # the rejected event is kept for the report and replay
    assert s2.state.window is not None and s2.state.window.claims == []  # rejected: nothing changed
    ok = s2.claim(1, "chow", 0, "7s", "8s9s")  # seat 1's left player is seat 0
    assert ok.TYPE == "claimed"


def test_claim_own_discard_and_draw_out_of_turn():
    s = Script(HANDS)
    s.discard(0, "3z")
    assert s.claim(0, "pung", 0, "3z", "3z3z").code == "claim_own_discard"
    v = s.draw(2, "5p")
    assert v.code == "draw_out_of_turn"
    assert s.draw(1, "5p").TYPE == "drew"
    assert s.state.phase == Phase.TURN and s.state.current == 1


def test_pung_passes_the_turn_and_forbids_a_kong_in_that_turn():
    s = Script(HANDS)
    s.discard(0, "9p")
    s.claim(2, "pung", 0, "9p", "9p9p")
    assert s.meld(2, "pung", "9p9p9p", from_seat=0, claimed="9p").TYPE == "meld_made"
    assert s.state.current == 2 and s.state.phase == Phase.TURN
    assert s.state.seat_state[0].pond_claimed == [True]
    assert s.meld(2, "kong_concealed", "5z5z5z5z").code in ("kong_after_claim", "tile_not_held")
    assert s.meld(2, "kong_concealed", "1m1m1m1m").code == "kong_after_claim"
    assert s.discard(2, "1m").TYPE == "discarded"
    assert s.state.current == 2 and s.state.phase == Phase.CLAIMS


def test_claim_priority_pung_over_chow():
    s = Script({**HANDS, 1: "9p9p45m123p456p789s"})
    s.discard(0, "9p")
    s.claim(1, "pung", 0, "9p", "9p9p")
    s.claim(2, "pung", 0, "9p", "9p9p")  # only two more 9p exist; the machine only arbitrates
    v = s.meld(2, "pung", "9p9p9p", from_seat=0, claimed="9p")
    assert v.code == "claim_priority"  # seat 1 is nearer to the discarder
    granted = s.m.arbitrate()
    assert [(e.TYPE, e.seat) for e in granted] == [("meld_made", 1)]


def _win_on_3m(mode: str) -> Script:
    s = Script(HANDS, mode=mode)
    s.discard(0, "3z")
    s.draw(1, "6s" if mode == "full" else "x")
    s.discard(1, "6s")
    s.draw(2, "3m" if mode == "full" else "x")
    s.discard(2, "3m")
    s.claim(1, "hu", 2, "3m")
    assert s.win(1, "3m", from_seat=2).TYPE == "won"
    s.reveal(1, "45m123p456p789s77z")
    return s


@pytest.mark.parametrize("mode", ["full", "table"])
def test_win_on_discard_settles_and_rotates(mode):
    s = _win_on_3m(mode)
    assert s.state.phase == Phase.ENDED
    assert s.codes() == []
    st = s.m.settlement()
    assert st.deltas == (0, 2, -2, 0)  # Win 1 + Concealed Hand 1, paid by the discarder
    assert s.sub(st)[0].TYPE == "settled"
    end = s.m.hand_end()
    assert end.next_dealer == 1 and end.reason == "win"
    assert s.sub(end)[0].TYPE == "hand_ended"
    assert s.state.phase == Phase.OVER


def _furiten(mode: str) -> Script:
    x = (lambda t: t) if mode == "full" else (lambda t: "x")
    s = Script(HANDS, mode=mode)
    s.discard(0, "3z")
    s.draw(1, x("6m"))
    s.discard(1, "6m")  # seat 1 keeps 45m: its wait 6m is now in its own discards
    s.draw(2, x("3m"))
    s.discard(2, "3m")
    s.win(1, "3m", from_seat=2)
    s.reveal(1, "45m123p456p789s77z")
    return s


@pytest.mark.parametrize("mode", ["full", "table"])
def test_furiten_is_judged_at_the_reveal(mode):
    s = _furiten(mode)
    v = s.state.violations
    assert [x.code for x in v] == ["furiten"] and v[0].deferred and v[0].seat == 1
    assert s.state.wins[0].valid is False
    assert s.m.settlement().deltas == (8, -24, 8, 8)  # basic: a false win pays 8 to each other player


def _false_tsumo(mode: str) -> Script:
    s = Script(HANDS, mode=mode)
    s.discard(0, "3z")
    s.draw(1, "9m" if mode == "full" else "x")
    s.win(1, "9m" if mode == "full" else "x")
    s.reveal(1, "45m9m123p456p789s77z", winning="9m")
    return s


@pytest.mark.parametrize("mode", ["full", "table"])
def test_false_win_found_at_the_reveal(mode):
    s = _false_tsumo(mode)
    assert s.codes() == ["false_win"]
    assert s.state.violations[0].deferred and s.state.violations[0].rule
    assert s.m.settlement().deltas == (8, -24, 8, 8)


def test_table_mode_verdicts_equal_full_information():
    for make in (_win_on_3m, _furiten, _false_tsumo):
        full, table = make("full"), make("table")
        assert [(v.code, v.seat) for v in full.state.violations] == [(v.code, v.seat) for v in table.state.violations]
        assert full.m.settlement() == table.m.settlement()
        assert full.m.hand_end() == table.m.hand_end()


def test_table_mode_catches_a_fifth_copy():
    s = Script(HANDS, mode="table")
    s.discard(0, "3z")
    for seat in (1, 2, 3, 0):  # four more 3z from hands the camera cannot see: one too many
        s.draw(seat, "x")
        s.discard(seat, "3z")
    assert s.codes() == ["tile_not_held"]
    assert s.state.violations[0].seat == 0 and s.state.phase == Phase.CLAIMS  # reported, play goes on


def test_table_mode_catches_a_tile_shown_too_often_at_the_reveal():
    s = Script(HANDS, mode="table")
    s.discard(0, "3z")
    s.draw(1, "x")
    s.discard(1, "3z")
    s.draw(2, "x")
    s.discard(2, "3z")
    s.draw(3, "x")
    s.discard(3, "1z")
    s.draw(0, "x")
    s.win(0, "x")
    s.reveal(0, "123m456p78s1122z3z3z9p", winning="9p")  # two more 3z: five in all
    assert "tile_not_held" in s.codes()


def test_full_mode_rejects_a_tile_not_held_at_once():
    s = Script(HANDS)
    v = s.discard(0, "9m")
    assert v.code == "tile_not_held" and s.state.phase == Phase.TURN


def test_reveal_mismatch():
    s = Script(HANDS)
    s.discard(0, "3z")
    s.draw(1, "6s")
    s.win(1, "6s")
    out = s.reveal(1, "45m123p456p789s77z")  # 13 shown, 14 held
    assert any(isinstance(e, Violation) and e.code == "reveal_mismatch" for e in out)


def test_robbing_the_kong():
    hands = {
        0: "9p123m456m789m1z2z3z4z",
        1: "13579m13579p135s",
        2: "99p123s567s3z4z5z6z7z",
        3: "78p123s456s789s11z",
    }
    s = Script(hands)
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
    assert s.claim(1, "pung", 2, "9p", "9p9p").code == "claim_not_allowed"
    s.claim(3, "hu", 2, "9p")
    [won] = s.m.arbitrate()
    assert won.robbing_kong and won.seat == 3 and won.from_seat == 2
    s.sub(won)
    assert str(s.state.seat_state[2].melds[0]) == "[999p]"  # the kong is invalid: back to a pung
    s.reveal(3, "78p123s456s789s11z")
    assert s.state.wins[0].valid and s.state.wins[0].robbing_kong
    assert s.m.settlement().deltas[2] < 0 and s.m.settlement().deltas[3] > 0


def test_kong_without_robbery_takes_a_replacement():
    hands = {0: "1111m23456789p1z2z", 1: "13579m13579p135s", 2: "2468m2468p2468s3z", 3: "2468s2468p123s5z6z"}
    s = Script(hands)
    assert s.meld(0, "kong_concealed", "1111m").TYPE == "meld_made"
    assert s.state.phase == Phase.REPLACE
    assert s.draw(1, "5z", "replacement").code == "draw_out_of_turn"
    assert s.draw(0, "5z", "wall").code == "out_of_phase"
    assert s.draw(0, "5z", "replacement").TYPE == "drew"
    assert s.state.wall.tail_used == 1 and s.state.after_kong


def test_no_kong_on_an_empty_wall():
    hands = {0: "1111m23456789p1z2z", 1: "13579m13579p135s", 2: "2468m2468p2468s3z", 3: "2468s2468p123s5z6z"}
    s = Script(hands)
    s.state.wall.head = s.state.wall.live_end  # the last tile has been drawn
    v = s.meld(0, "kong_concealed", "1111m")
    assert v.code == "kong_on_last_tile"
    s.discard(0, "1z")
    assert s.claim(1, "pung", 0, "1z", "1z1z").code == "claim_last_tile"  # basic: only hu on the last discard
    s.sub(ExhaustiveDraw(tenpai=()))
    assert s.state.exhaustive and s.state.phase == Phase.ENDED


class HeadBump(Basic):
    name = "basic"
    capabilities = Capabilities(multiple_winners=False)


def _double_ron(profile) -> Script:
    hands = {0: "3m123p456p789s122z3z", 1: "45m123p456p789s77z", 2: "12m456m123p789s66z", 3: "45s11m22m33p66p1z2z7z"}
    s = Script(hands, profile=profile)
    s.discard(0, "3m")
    s.claim(1, "hu", 0, "3m")
    s.claim(2, "hu", 0, "3m")
    return s


def test_multiple_winners_on_one_discard():
    s = _double_ron(Basic())
    wins = s.m.arbitrate()
    assert [w.seat for w in wins] == [1, 2]
    for w in wins:
        s.sub(w)
    s.reveal(1, "45m123p456p789s77z")
    s.reveal(2, "12m456m123p789s66z")
    assert s.codes() == [] and [w.valid for w in s.state.wins] == [True, True]
    assert s.m.settlement().deltas == (-4, 2, 2, 0)


def test_head_bump_awards_the_nearest():
    s = _double_ron(HeadBump())
    wins = s.m.arbitrate()
    assert [w.seat for w in wins] == [1]
    assert s.win(2, "3m", from_seat=0).code == "claim_priority"
    s.sub(wins[0])
    assert s.win(2, "3m", from_seat=0).code in ("multiple_win_not_allowed", "out_of_phase")


class BloodBattle(Basic):
    name = "basic"
    capabilities = Capabilities(continue_after_win=True, reveal_on_win=False)


def test_play_goes_on_after_a_win_and_skips_the_winner():
    s = _double_ron(BloodBattle())
    s.sub(s.m.arbitrate()[0])  # only seat 1 takes it
    s.draw(2, "9m") if False else None
    # the window closes with the next draw: the player after the last winner (seat 1) draws
    assert s.draw(3, "9m").code == "draw_out_of_turn"
    assert s.state.phase == Phase.DRAW and s.state.current == 2
    assert s.draw(2, "9m").TYPE == "drew"
    s.discard(2, "9m")
    s.draw(3, "8m")
    s.discard(3, "8m")
    assert s.draw(1, "7m").code == "draw_out_of_turn"  # seat 1 has left the hand
    assert s.draw(0, "7m").TYPE == "drew"


class MissingSuit(Basic):
    name = "basic"
    capabilities = Capabilities(pre_play=("missing_suit",))


def test_pre_play_missing_suit():
    s = Script(HANDS, profile=MissingSuit())
    assert s.state.phase == Phase.PRE_PLAY
    assert s.discard(0, "3z").code == "out_of_phase"
    from rules.events import MissingSuitDeclared

    for seat, suit in ((0, "s"), (1, "m"), (2, "p"), (3, "p")):
        assert s.one(MissingSuitDeclared(seat=seat, suit=suit)).TYPE == "missing_suit_declared"
    assert s.one(MissingSuitDeclared(seat=0, suit="m")).code == "missing_suit_twice"
    assert s.one(MissingSuitDeclared(seat=0, suit="z")).code in ("bad_missing_suit", "missing_suit_twice")
    assert s.discard(0, "3z").TYPE == "discarded"


def test_settlement_and_dealer_are_checked():
    s = _win_on_3m("full")
    bad = Settled(payments=(), deltas=(0, 0, 0, 0))
    assert s.one(bad).code == "settlement_mismatch"
    s.sub(s.m.settlement())
    assert s.one(HandEnded(next_dealer=3)).code == "dealer_mismatch"


def test_replay_reproduces_state_and_log_including_violations():
    for make in (_win_on_3m, _furiten, _false_tsumo):
        for mode in ("full", "table"):
            s = make(mode)
            s.discard(3, "1z")  # a rejected action lands in the log
            log = s.m.log
            r = replay(s.profile, log, mode)
            assert r.log == log
            assert r.to_json() == s.m.to_json()
            # through JSON text too
            text = json.dumps([e.to_json() for e in log])
            back = [Event.from_json(d) for d in json.loads(text)]
            assert back == log
            assert replay(s.profile, back, mode).to_json() == s.m.to_json()
            json.dumps(s.m.to_json())  # state serialises


def test_table_mode_a_known_hand_lays_its_kong_face_down():
    """After a false win MCR's hand is shown and play goes on (003 §Отдельные нарушения 6): the record knows it.
    A concealed kong it then lays wholly face down is the one face it holds four of — not four unseen tiles
    (a false tile_not_held before; simulate mcr seed 12); a hand that holds no four is still refused."""
    from rules.profiles.registry import get

    def play(hand: str) -> tuple[str, Script]:
        hands = {**HANDS, 1: hand}
        s = Script(hands, profile=get("mcr"), mode="table", dice=((3, 4), (2, 5)))
        s.discard(0, "3z")
        s.win(1, "3z", from_seat=0)
        s.reveal(1, hand)  # no winning shape: a false win, the hand is known now
        assert s.codes() == ["false_win"]
        s.draw(1, "x")
        return s.meld(1, "kong_concealed", "xxxx").TYPE, s

    kind, s = play("1111m23p456p789s7z")
    assert kind == "meld_made" and [str(m) for m in s.state.seat_state[1].melds] == ["[(1111m)]"]
    assert s.state.seat_state[1].to_json()["concealed"] == ["2p", "3p", "4p", "5p", "6p", "7s", "8s", "9s", "7z", "x"]
    kind, s = play("111m23p456p789s7z9m")  # three 1m and the unseen drawn tile: still the one face
    assert kind == "meld_made" and [str(m) for m in s.state.seat_state[1].melds] == ["[(1111m)]"]
    kind, s = play("111m222m456p789s7z")  # three 1m, three 2m and an unseen tile: either could be the kong
    assert kind == "meld_made" and s.codes() == ["false_win"]
    assert s.state.seat_state[1].to_json()["concealed"] == ["4p", "5p", "6p", "7s", "8s", "9s", "7z", "x", "x", "x"]
    kind, s = play("12m23p456p789s7z9m9s")  # no face of which it could hold four
    assert kind == "violation" and s.codes()[-1] == "tile_not_held"
