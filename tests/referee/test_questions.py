"""The referee never guesses: what it cannot read or reconcile becomes a question; the hand waits for the
answer, which is an input like any other (and a question is not a violation)."""
from __future__ import annotations

from rules.events import PondTileRemoved, PondTileSeen, QuestionAnswered, QuestionAsked
from tests.referee.helpers import Table

RIICHI = "riichi-ema2016"


def test_an_unreadable_discard_is_asked_and_the_hand_waits_for_the_answer():
    t = Table(RIICHI)
    t.discard(0, "1z")
    out = t.feed(PondTileSeen(seat=1, index=0, tile="unknown"), dt=4.0)
    q = out[-1]
    assert isinstance(q, QuestionAsked) and (q.kind, q.seat, q.subject["zone"], q.subject["index"]) == ("tile", 1,
                                                                                                      "pond", 0)
    assert "cannot read" in q.message and q.message_ru
    assert t.discard(2, "3z") == []  # the hand waits: held until the answer
    out = t.answer("2z")
    kinds = [(e.TYPE, getattr(e, "seat", None), getattr(e, "tile", None)) for e in out]
    assert ("discarded", 1, "2z") in kinds and ("discarded", 2, "3z") in kinds
    assert t.verdicts() == []
    assert [str(x) for x in t.ref.machine.state.seat_state[1].pond] == ["2z"]


def test_an_answer_that_does_not_fit_is_asked_again():
    t = Table(RIICHI)
    t.feed(PondTileSeen(seat=0, index=0, tile="unknown"), dt=1.0)
    out = t.answer("banana")
    assert isinstance(out[-1], QuestionAsked) and t.ref.open_question is not None
    t.answer("1z")
    assert t.ref.open_question is None and [str(x) for x in t.ref.machine.state.seat_state[0].pond] == ["1z"]


def test_a_stale_answer_is_ignored():
    t = Table(RIICHI)
    t.feed(PondTileSeen(seat=0, index=0, tile="unknown"), dt=1.0)
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
