"""The simulated operator (``controller.referee.sim.oracle``) answers the referee's questions from the truth."""
from __future__ import annotations

from types import SimpleNamespace

from controller.referee.core import Referee
from controller.referee.sim.oracle import answer
from rules.events import QuestionAsked
from vision.scene_model import Scene, SeatView


def test_a_flower_question_is_answered_with_the_flower_the_record_lacks():
    # red seed 11 hand 2: a flower set aside that the camera could not read (the oracle used to look for the
    # flowers on the Referee itself, which keeps them in its state since the referee's new shape: it crashed)
    ref = Referee("red")
    seats = (SeatView(), SeatView(flowers=("1f", "3f")), SeatView(), SeatView())
    scene = Scene("red", seats)
    truth = SimpleNamespace(driver=SimpleNamespace(machine=SimpleNamespace(log=[])))
    q = QuestionAsked(question_id=1, kind="tile", seat=1, subject={"zone": "flower", "index": None,
                                                                   "observation": {"tile": "unknown"}})
    assert answer(q, ref, scene, truth) == "3f"  # none recorded yet: the latest one set aside
    ref.state.claims.flowers[1] = ["3f"]
    assert answer(q, ref, scene, truth) == "1f"  # the one the record does not hold
