"""Bots' hands of every profile told to the referee by a perfect camera (no rendering): the referee's own
logic, hand after hand — every payment as the truth's, every fault flagged with its code at its moment,
nothing else flagged, a question only for the tile made unreadable on purpose."""
from __future__ import annotations

import pytest

from controller.referee.sim.play import exact_hand
from rules.profiles import registry
from tests.conftest import scaled

TABLES = [("sichuan-mpl2025", 4), ("sichuan-mpl2025", 3), ("sichuan-wmsg", 4), ("sichuan-wmsg", 3), ("mcr", 4),
          ("mcr-siamese", 3), ("mcr-siamese", 2), ("riichi-ema2016", 4), ("red", 4), ("red", 3), ("red", 2)]


@pytest.mark.parametrize(("profile", "players"), TABLES)
def test_refereed_hands_equal_the_truth(profile, players):
    p = registry.get(profile)
    injected = 0
    for i in range(scaled(4, 40)):
        ref, rep, truth = exact_hand(p, 9100 + i, hand_index=i, players=players, faults=True, unreadable=1)
        assert rep.mismatches == [], (i, rep.mismatches)
        assert rep.missed == [] and rep.false == [], (i, rep.missed, rep.false)
        # besides the tile made unreadable, only what the table cannot show: the missing suit of a player who
        # won before his first discard showed it (Sichuan WMSG, 002 §5.2-5.3)
        asked = [q for q in ref.questions() if not (q.kind == "missing_suit" and not any(
            e.TYPE == "discarded" and e.seat == q.seat and e.t_mono <= q.t_mono for e in ref.game_log))]
        assert len(asked) == rep.questions_planned == 1, (i, [q.message for q in ref.questions()])
        assert ref.confirmed is not None and ref.confirmed.by == "seats"
        injected += rep.injected
    # with two players each seat is the discarder or the next to draw: no late or wrong-seat claim and no
    # tile out of turn can be committed (and Siamese bots declare no false hu)
    assert injected > 0 or (players == 2 and p.capabilities.two_hands)


def test_a_question_the_operator_cannot_settle_fails_the_hand_instead_of_looping(monkeypatch):
    """The simulated operator answers what the truth says; where that settles nothing the referee asks again:
    after a few rounds the hand is reported (a question left open), never an endless loop."""
    from controller.referee.sim import play
    from rules.events import QuestionAnswered

    monkeypatch.setattr(play, "respond", lambda q, ref, truth, scene, at: [
        QuestionAnswered(question_id=q.question_id, answer="banana", by="operator", t_mono=at.t_mono,
                              t_wall=at.t_wall, hand_id=ref.hand_id)])
    _, rep, _ = exact_hand(registry.get("riichi-ema2016"), 9100, faults=False, unreadable=1)
    assert any("question left open" in m for m in rep.mismatches) and not rep.ok


def test_an_exhaustive_draw_with_a_noten_seat_is_settled_and_signed():
    """Riichi: the wall runs out, the ready hands are shown, the others are not (noten); the seats then sign
    with their call buttons. Their first press ends the wait for more hands (it was ignored: the hand never
    settled, and in the service the hand stalled, the bots' clock having stopped exactly at the wait's end)."""
    p = registry.get("riichi-ema2016")
    for seed in range(300):
        ref, rep, truth = exact_hand(p, seed)
        draw = [e for e in truth.driver.machine.log if e.TYPE == "exhaustive_draw"]
        if draw and len(draw[0].tenpai) < len(truth.driver.machine.state.seats):
            break
    else:
        pytest.fail("no riichi exhaustive draw with a noten seat in 300 seeds")
    assert rep.mismatches == [], (seed, rep.mismatches)
    assert ref.settled and ref.confirmed is not None and ref.confirmed.by == "seats"
    assert ref.machine.state.settled.deltas == truth.driver.machine.state.settled.deltas
