"""The referee never guesses: what it cannot read or reconcile becomes a question; the hand waits for the
answer, which is an input like any other (and a question is not a violation)."""
from __future__ import annotations

from controller.referee.core import UNREAD_WAIT_S
from rules.events import PondTileRemoved, PondTileSeen, QuestionAnswered, QuestionAsked
from tests.referee.helpers import Table

RIICHI = "riichi-ema2016"


def test_an_unreadable_discard_is_asked_and_the_hand_waits_for_the_answer():
    t = Table(RIICHI)
    t.discard(0, "1z")
    assert t.feed(PondTileSeen(seat=1, index=0, tile="unknown"), dt=4.0) == []  # the next frames may read it
    assert t.wait(0.4) == []
    q = t.wait(0.2)[-1]  # unreadable for UNREAD_WAIT_S: asked
    assert isinstance(q, QuestionAsked) and (q.kind, q.seat, q.subject["zone"], q.subject["index"]) == ("tile", 1,
                                                                                                      "pond", 0)
    assert "cannot read" in q.message and q.message_ru
    assert t.discard(2, "3z") == []  # the hand waits: held until the answer
    out = t.answer("2z")
    kinds = [(e.TYPE, getattr(e, "seat", None), getattr(e, "tile", None)) for e in out]
    assert ("discarded", 1, "2z") in kinds and ("discarded", 2, "3z") in kinds
    assert t.verdicts() == []
    assert [str(x) for x in t.ref.machine.state.seat_state[1].pond] == ["2z"]


def test_a_discard_read_once_an_arm_moved_off_it_is_no_question():
    t = Table(RIICHI)
    t.discard(0, "1z")
    t.feed(PondTileSeen(seat=1, index=0, tile="unknown"), dt=4.0)  # read under the arm that laid it
    out = t.feed(PondTileSeen(seat=1, index=0, tile="2z"), dt=0.2)  # the arm moved on: read in its place
    assert [(e.TYPE, e.seat, e.tile) for e in out if e.TYPE == "discarded"] == [("discarded", 1, "2z")]
    assert t.ref.window.t_open == 8.0  # its claim window opened with the frame that first showed it
    assert t.wait(3.0) == [] and not t.ref.questions() and t.verdicts() == []


def test_a_set_called_and_taken_that_the_camera_does_not_see_is_asked_before_the_next_discard():
    t = Table(RIICHI)
    t.discard(0, "1z")
    t.call(2, "pung")
    t.feed(PondTileRemoved(seat=0, index=0, tile="1z"), dt=0.3)  # taken; the set lies where the camera fails
    out = t.feed(PondTileSeen(seat=2, index=0, tile="9m"), dt=2.0)  # the caller plays on
    q = out[-1]
    assert isinstance(q, QuestionAsked) and (q.kind, q.seat, q.subject["zone"]) == ("tile", 2, "meld")
    assert "called pung" in q.message and "does not see the set" in q.message and "не видит" in q.message_ru
    assert not any(e.TYPE == "discarded" for e in out)  # not a draw from the wall, not a discard out of turn
    out = t.answer("1z 1z 1z")
    made = [e for e in out if e.TYPE == "meld_made"]
    assert [(m.seat, m.kind, m.from_seat) for m in made] == [(2, "pung", 0)]
    assert [(e.TYPE, e.seat, e.tile) for e in out if e.TYPE == "discarded"] == [("discarded", 2, "9m")]
    assert t.verdicts() == []


def test_a_set_the_record_holds_seen_again_is_no_new_set():
    """The camera regroups a seat's sets (two touching sets read as one, then apart again): a set the record
    holds, seen again with no discard on offer it could take, is the same set — not a question."""
    t = Table(RIICHI)
    t.discard(0, "2m")
    t.call(1, "chow")
    t.feed(PondTileRemoved(seat=0, index=0, tile="2m"), dt=0.3)
    t.meld(1, "chow", "2m 1m 3m", source="left", claimed=0)
    t.discard(1, "9p", dt=2.0)
    t.discard(2, "9s")
    out = t.meld(1, "chow", "1m 2m 3m", source="left", claimed=0)  # the same set, read again
    assert out == [] and not t.ref.questions() and t.verdicts() == []
    assert len([m for m in t.ref.machine.state.seat_state[1].melds]) == 1


def test_two_unreadable_tiles_after_the_record_are_asked_in_turn():
    """A discard the finder cut in two (a stain): the pond shows two unreadable tiles after the record's. Each
    is asked in turn: the first one's face is the discard, the other is no tile."""
    t = Table(RIICHI)
    t.discard(0, "1z")
    t.feed(PondTileSeen(seat=1, index=0, tile="unknown"), dt=4.0)
    t.feed(PondTileSeen(seat=1, index=1, tile="unknown"))
    out = t.wait(3.0) + t.wait(0.2)  # (the table service ticks every 0.2 s)
    q = [e for e in out if isinstance(e, QuestionAsked)]
    assert [(e.kind, e.subject["zone"], e.subject["index"]) for e in q] == [("tile", "pond", 0)]
    out = t.answer("2z")
    assert [(e.TYPE, e.seat, e.tile) for e in out if e.TYPE == "discarded"] == [("discarded", 1, "2z")]
    out = t.wait(3.0)
    q = [e for e in out if isinstance(e, QuestionAsked)]
    assert [(e.kind, e.subject["zone"], e.subject["index"]) for e in q] == [("tile", "pond", 1)]
    t.answer("none")
    t.discard(2, "3z")
    assert t.verdicts() == [] and t.ref.open_question is None
    assert [str(x) for x in t.ref.machine.state.seat_state[1].pond] == ["2z"]


def test_an_answer_that_does_not_fit_is_asked_again():
    t = Table(RIICHI)
    t.feed(PondTileSeen(seat=0, index=0, tile="unknown"), dt=1.0)
    t.wait(UNREAD_WAIT_S)
    out = t.answer("banana")
    assert isinstance(out[-1], QuestionAsked) and t.ref.open_question is not None
    t.answer("1z")
    assert t.ref.open_question is None and [str(x) for x in t.ref.machine.state.seat_state[0].pond] == ["1z"]


def test_a_stale_answer_is_ignored():
    t = Table(RIICHI)
    t.feed(PondTileSeen(seat=0, index=0, tile="unknown"), dt=1.0)
    t.wait(UNREAD_WAIT_S)
    assert t.feed(QuestionAnswered(question_id=99, answer="1z")) == []
    assert t.ref.open_question is not None


def test_a_tile_changing_in_a_pond_and_staying_so_is_asked():
    t = Table(RIICHI)
    t.discard(0, "1z")
    t.discard(1, "2z")
    t.feed(PondTileSeen(seat=0, index=0, tile="7z"), dt=0.5)  # the camera now reads another tile there
    assert t.wait(1.0) == []  # it may be a passing misread
    out = t.wait(2.0)
    assert any(isinstance(e, QuestionAsked) and e.kind == "impossible" for e in out)
    t.answer("ignore")  # the record stands: play goes on
    t.discard(2, "3z")
    assert t.verdicts() == [] and t.ref.open_question is None


def test_a_row_shuffled_and_restored_by_a_re_read_changes_nothing():
    t = Table(RIICHI)
    t.turn_round(0, ["1z", "9m", "9p", "9s", "2z"])
    t.feed(PondTileRemoved(seat=0, index=1, tile="2z"), dt=0.5)
    t.feed(PondTileRemoved(seat=0, index=0, tile="1z"))
    t.feed(PondTileSeen(seat=0, index=0, tile="1z"))
    t.feed(PondTileSeen(seat=0, index=1, tile="2z"))
    t.wait(5.0)
    assert t.verdicts() == [] and not t.ref.questions()


# --- what the camera finds that is no tile (red's free pond: tiles lie where they fall) --------------------
RED, RED_DICE = "red", ((3, 4), (2, 5))


def _red_pond(t: Table, seat: int) -> list[str]:
    return [str(x) for x in t.ref.machine.state.seat_state[seat].pond]


def test_an_unreadable_tile_that_is_no_tile_is_answered_none_and_play_goes_on():
    t = Table(RED, dice=RED_DICE)
    t.discard(0, "1m")
    t.feed(PondTileSeen(seat=0, index=1, tile="unknown"), dt=2.0)  # the finder cut a "tile" out of bare cloth
    assert t.wait(0.2) == []  # the next frames may read it
    q = t.wait(UNREAD_WAIT_S)[-1]  # unreadable so long: asked
    assert isinstance(q, QuestionAsked) and q.kind == "tile" and "'none'" in q.message and "нет" in q.message_ru
    assert t.answer("none") == [] and t.ref.open_question is None
    t.discard(1, "2m")  # play goes on: seat 1 is next, the "tile" is not a discard of seat 0's
    assert t.verdicts() == [] and _red_pond(t, 0) == ["1m"] and _red_pond(t, 1) == ["2m"]
    t.feed(PondTileRemoved(seat=0, index=1, tile="unknown"), dt=1.0)  # the camera stops seeing it
    t.discard(2, "3m")
    t.wait(5.0)
    assert t.verdicts() == [] and t.ref.open_question is None and _red_pond(t, 0) == ["1m"]


def test_an_unreadable_tile_read_with_the_discard_in_one_frame_is_asked_after_the_frame():
    """The finder's extra "tile" comes first in reading order, the real discard after it in the same frame:
    the discard is taken as read and the unreadable one asked only then (answered as a discard it would
    be a second discard: a false verdict)."""
    t = Table(RED, dice=RED_DICE)
    t.discard(0, "1m")
    t.t += 4.0
    t.frame += 1
    stamp = {"t_mono": t.t, "t_wall": 1e9 + t.t, "frame": t.frame}
    assert t.ref.feed(PondTileSeen(seat=1, index=0, tile="unknown", **stamp)) == []
    out = t.ref.feed(PondTileSeen(seat=1, index=1, tile="2m", **stamp))
    assert [(e.TYPE, e.tile) for e in out if e.TYPE == "discarded"] == [("discarded", "2m")]
    q = t.wait(UNREAD_WAIT_S)[-1]
    assert isinstance(q, QuestionAsked) and q.kind == "tile" and q.seat == 1
    t.answer("none")
    t.discard(2, "3m")
    assert t.verdicts() == [] and _red_pond(t, 1) == ["2m"] and _red_pond(t, 2) == ["3m"]


def test_bare_cloth_read_as_none_is_no_tile():
    t = Table(RED, dice=RED_DICE)
    t.discard(0, "1m")
    assert t.feed(PondTileSeen(seat=0, index=1, tile="none"), dt=1.0) == []
    t.discard(1, "2m")
    t.wait(5.0)
    assert t.verdicts() == [] and not t.ref.questions() and _red_pond(t, 0) == ["1m"]


def test_a_set_seen_only_after_play_ended_is_a_question_not_a_verdict():
    t = Table("mcr", dice=((3, 4), (2, 5)))
    t.call(0, "hu", dt=1.0)  # the dealer wins with his first fourteen tiles: the hand is over
    t.reveal(0, "1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 1p 1p 2p 2p")
    assert t.ref.settled and t.verdicts() == []
    out = t.meld(1, "pung", "5p 5p 5p", source="left", claimed=0, dt=0.5)  # the camera saw it late
    q = out[-1]
    assert isinstance(q, QuestionAsked) and q.kind == "impossible" and "late" in q.message and t.verdicts() == []
    t.answer("ignore")
    assert t.ref.open_question is None and t.verdicts() == []


def test_an_unreadable_hand_shown_when_none_is_due_is_not_asked_until_one_is():
    t = Table("mcr", dice=((3, 4), (2, 5)))
    assert t.reveal(1, "unknown unknown unknown x unknown") == []  # racks seen from above: nobody shows a hand
    t.discard(0, "1z")
    assert not t.ref.questions() and t.verdicts() == []


def test_an_unreadable_hand_where_none_is_shown_is_answered_none():
    t = Table("mcr", dice=((3, 4), (2, 5)))
    t.call(0, "hu", dt=1.0)
    out = t.reveal(1, "unknown unknown unknown")  # a hand is due now (a win): asked
    q = out[-1]
    assert isinstance(q, QuestionAsked) and q.subject["zone"] == "hand" and "'none'" in q.message
    assert t.answer("none") == [] and t.ref.open_question is None  # no hand there: the observation is dropped
    t.reveal(0, "1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 1p 1p 2p 2p")
    assert t.ref.settled and t.verdicts() == []


def test_a_free_pond_discard_read_in_another_place_is_the_discard():
    """Red's tiles lie where they fall: the camera may sort a new discard before older ones."""
    t = Table(RED, dice=RED_DICE)
    t.turn_round(0, ["1m", "2m", "3m", "4m"])
    t.t += 4.0
    t.frame += 1
    stamp = {"t_mono": t.t, "t_wall": 1e9 + t.t, "frame": t.frame}
    t.ref.feed(PondTileSeen(seat=0, index=0, tile="5m", **stamp))  # the new tile, read first
    out = t.ref.feed(PondTileSeen(seat=0, index=1, tile="1m", **stamp))
    assert [(e.seat, e.tile) for e in out if e.TYPE == "discarded"] == [(0, "5m")]
    t.discard(1, "6m")
    t.wait(5.0)
    assert t.verdicts() == [] and not t.ref.questions() and _red_pond(t, 0) == ["1m", "5m"]


def test_the_simulated_operator_answers_an_unreadable_dead_wall_indicator():
    """A dora indicator the camera could not read was answered 'ignore' (the simulated operator knew no
    answer for the indicator strip): asked again and again until the hand failed (riichi 12-6)."""
    from types import SimpleNamespace

    from controller.referee.sim.oracle import answer
    from rules.events import DoraRevealed, IndicatorSeen, QuestionAsked
    from vision.scene_model import Scene, SeatView

    log = [DoraRevealed(indicator="5p", kind="initial"), DoraRevealed(indicator="2s", kind="ura"),
           DoraRevealed(indicator="7z", kind="kan")]
    truth = SimpleNamespace(driver=SimpleNamespace(machine=SimpleNamespace(log=log)))
    scene = Scene("riichi-ema2016", tuple(SeatView() for _ in range(4)))

    def asked(index, kind):
        seen = IndicatorSeen(index=index, tile="unknown", kind=kind)
        return QuestionAsked(question_id=1, kind="tile", subject={"observation": seen.to_json(), "zone": "indicator",
                                                                  "index": index, "unknown": 1})

    assert [answer(asked(i, k), None, scene, truth) for i, k in ((0, "dora"), (1, "dora"), (0, "ura"), (2, "dora"))] \
        == ["5p", "7z", "2s", "none"]  # (no third indicator turned: the camera took an empty slot for one)


def test_an_unreadable_indicator_where_none_lies_is_answered_none_and_dropped():
    from rules.events import DoraRevealed, IndicatorSeen

    t = Table("riichi-ema2016")
    t.feed(IndicatorSeen(index=1, tile="unknown", kind="dora"))
    q = t.ref.open_question
    assert q is not None and q.event.subject["zone"] == "indicator" and "'none'" in q.event.message
    t.answer("none")
    assert t.ref.open_question is None and not any(isinstance(e, DoraRevealed) for e in t.ref.game_log)
    t.discard(0, "1z")  # play goes on
    assert t.ref.open_question is None and t.verdicts() == []


def test_a_kong_before_the_first_discard_waits_for_that_discard_to_name_the_missing_suit():
    """Sichuan WMSG: each player's first discard (the tile set aside) names his missing suit (002 §5.2-5.3). A
    concealed kong before it is no reason to ask: the first discard follows its replacement draw (seed 11,
    hands 29, 32, 194 asked). The play held until all four suits are known then goes through in order."""
    from rules.events import MeldSeen

    t = Table("sichuan-wmsg")
    assert t.discard(0, "3m") == []
    assert t.feed(MeldSeen(seat=1, kind="kong_concealed", tiles=("6p",) * 4), dt=2.0) == []
    t.discard(1, "2s")
    t.discard(2, "4m")
    out = t.discard(3, "7p")
    assert [(e.seat, e.suit) for e in out if e.TYPE == "missing_suit_declared"] == [(0, "m"), (1, "s"), (2, "m"),
                                                                                   (3, "p")]
    kinds = [(e.TYPE, e.seat) for e in out if e.TYPE in ("discarded", "meld_made")]
    assert kinds == [("discarded", 0), ("meld_made", 1), ("discarded", 1), ("discarded", 2), ("discarded", 3)]
    assert not t.ref.questions() and t.verdicts() == []
