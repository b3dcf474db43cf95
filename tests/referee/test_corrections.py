"""A judge corrects the record (a misread tile, a missed event, events in the wrong order): the referee
replays the hand from the corrected record, recomputes it and keeps the correction as an audit record."""
from __future__ import annotations

from controller.referee.core import Referee
from rules.events import ButtonPressed, CorrectionApplied, JudgeCorrection, PondTileSeen, TilesRevealed
from tests.referee.helpers import Table

RIICHI = "riichi-ema2016"
HAND = "2m 3m 4p 5p 6p 6p 7p 8p 2s 3s 4s 5s 5s"  # tanyao, waiting on 1m/4m


def _ron_with_a_misread_hand() -> Table:
    t = Table(RIICHI)
    t.turn_round(0, ["1z", "9m", "2z", "3z", "5z", "6z", "7z"])
    t.discard(3, "4m")
    t.call(1, "hu")
    t.take(3, dt=0.3)
    t.reveal(1, HAND.replace("5s 5s", "5s 6z"))  # the camera read a 6z where a 5s lies
    t.wait(3.0)
    return t


def test_a_correction_that_changes_the_settlement_is_audited():
    t = _ron_with_a_misread_hand()
    assert t.verdicts() == [("false_win", 1)]
    before = t.ref.machine.state.settled
    assert before is not None and before.deltas[1] < 0  # a false win pays
    i = next(k for k, e in enumerate(t.ref.record) if isinstance(e, TilesRevealed))
    fixed = TilesRevealed(seat=1, tiles=tuple(HAND.split()), t_mono=t.ref.record[i].t_mono)
    out = t.feed(JudgeCorrection(by="judge Ivanova", op="replace", index=i, event=fixed.to_json(),
                                 reason="5s read as 6z"), dt=10.0)
    audit = out[0]
    assert isinstance(audit, CorrectionApplied) and audit.by == "judge Ivanova" and audit.revision == 1
    assert "replaced input" in audit.change and "5s read as 6z" in audit.change
    assert audit.before == tuple(before.deltas)
    after = t.ref.machine.state.settled
    assert after is not None and audit.after == tuple(after.deltas) and after.deltas[1] > 0 and after.deltas[3] < 0
    assert audit.violations_before == ("1:false_win",) and audit.violations_after == ()
    assert [e for e in t.ref.game_log if e.TYPE == "violation"] == []
    assert t.ref.revision == 1 and t.ref.corrections == [audit]


def test_a_missed_discard_inserted_and_events_put_in_order():
    t = Table(RIICHI)
    t.discard(0, "1z")
    t.ponds[1].append("2z")  # the camera missed seat 1's discard
    t.discard(2, "3z")
    assert t.verdicts() == [("out_of_turn", 2)]
    i = next(k for k, e in enumerate(t.ref.record) if isinstance(e, PondTileSeen) and e.seat == 2)
    missed = PondTileSeen(seat=1, index=0, tile="2z", t_mono=t.ref.record[i].t_mono - 2.0)
    audit = t.feed(JudgeCorrection(by="judge", op="insert", index=i, event=missed.to_json()))[0]
    assert audit.violations_before == ("2:out_of_turn",) and audit.violations_after == ()
    assert [[str(x) for x in t.ref.machine.state.seat_state[s].pond] for s in range(3)] == [["1z"], ["2z"], ["3z"]]
    # the same two discards recorded in the wrong order, put right by a move
    t2 = Table(RIICHI)
    t2.discard(0, "1z")
    t2.feed(PondTileSeen(seat=2, index=0, tile="3z"), dt=4.0)
    t2.feed(PondTileSeen(seat=1, index=0, tile="2z"), dt=0.1)
    k = len(t2.ref.record) - 1
    audit2 = t2.feed(JudgeCorrection(by="judge", op="move", index=k, to=k - 1))[0]
    assert audit2.violations_after == () and "moved input" in audit2.change


def test_a_bad_correction_is_refused_not_raised():
    t = Table(RIICHI)
    out = t.feed(JudgeCorrection(by="judge", op="delete", index=999))
    assert out and out[0].TYPE == "violation" and "correction refused" in out[0].message
    assert t.ref.revision == 0


def test_the_record_replays_to_the_same_hand():
    t = _ron_with_a_misread_hand()
    again = Referee(RIICHI)
    for ev in t.ref.record:
        again.feed(ev)
    assert [e.to_json() for e in again.game_log] == [e.to_json() for e in t.ref.game_log]
    assert again.machine.to_json() == t.ref.machine.to_json()
    assert [e.to_json() for e in again.outputs] == [e.to_json() for e in t.ref.outputs]


def _fix_the_hand(t: Table) -> list:
    i = next(k for k, e in enumerate(t.ref.record) if isinstance(e, TilesRevealed))
    fixed = TilesRevealed(seat=1, tiles=tuple(HAND.split()), t_mono=t.ref.record[i].t_mono)
    return t.feed(JudgeCorrection(by="judge", op="replace", index=i, event=fixed.to_json(), reason="5s read as 6z"))


def test_signatures_of_a_result_the_judge_changed_are_withdrawn():
    t = _ron_with_a_misread_hand()
    t.confirm(seats=(0, 1, 2))  # three seats sign the false win's result
    assert t.ref.confirm_seats == {0, 1, 2} and t.ref.confirmed is None
    audit = _fix_the_hand(t)[0]
    assert "signatures (0, 1, 2) are withdrawn" in audit.change
    assert t.ref.confirm_seats == set()
    t.confirm(seats=(3,))  # the last seat alone does not complete the changed result
    assert t.ref.confirmed is None
    t.confirm(seats=(0, 1, 2))  # everyone signs the result as it now stands
    c = t.ref.confirmed
    assert c is not None and c.by == "seats" and c.revision == 1
    assert c.deltas == tuple(t.ref.machine.state.settled.deltas) and c.deltas[1] > 0


def test_a_confirmed_result_the_judge_changed_is_confirmed_again():
    t = _ron_with_a_misread_hand()
    t.confirm()
    assert t.ref.confirmed is not None and t.ref.confirmed.deltas[1] < 0
    _fix_the_hand(t)
    assert t.ref.confirmed is None  # the old result's confirmation does not sign the new one
    t.feed(ButtonPressed(button="confirm", seat=None), dt=1.0)  # the judge signs it
    assert t.ref.confirmed is not None and t.ref.confirmed.by == "judge" and t.ref.confirmed.deltas[1] > 0
    again = Referee(RIICHI)  # rebuilt from its inputs (a restart): the same
    for ev in t.ref.inputs:
        again.feed(ev)
    assert again.confirmed is not None and again.confirmed.to_json() == t.ref.confirmed.to_json()


def test_signatures_stand_when_a_correction_leaves_the_result_as_it_was():
    t = _ron_with_a_misread_hand()
    t.confirm(seats=(0, 1))
    i = next(k for k, e in enumerate(t.ref.record) if isinstance(e, PondTileSeen) and e.seat == 0)
    same = t.ref.record[i].to_json()  # the judge "corrects" a discard to what it was
    audit = t.feed(JudgeCorrection(by="judge", op="replace", index=i, event=same))[0]
    assert "withdrawn" not in audit.change and t.ref.confirm_seats == {0, 1}
    t.confirm(seats=(2, 3))
    assert t.ref.confirmed is not None and t.ref.confirmed.seats == (0, 1, 2, 3)
