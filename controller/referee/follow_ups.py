"""What an input leaves to be finished, run by the core after its handler: :data:`FOLLOW_UPS`, one row per
:class:`~controller.referee.state.FollowUp`.

A handler does its own concern's work and returns what that may have freed in another's (a kan made frees
the kan indicator held for it; a hand shown, the reveals held for their window; a self-drawn win, the
settlement); :func:`controller.referee.dispatch.handle` (and :func:`controller.referee.answers.redo`, for an
observation answered) runs the row right after the handler, under the same input — the hand machine's
``implied()`` does the same for what time makes due, before its handler (:mod:`controller.referee.timing`).
"""
from __future__ import annotations

from collections.abc import Callable

from controller.referee import ending, setup, variants
from controller.referee.state import FollowUp, RefereeState

FOLLOW_UPS: dict[FollowUp, Callable[[RefereeState], None]] = {
    FollowUp.INDICATORS: setup.release_indicators,  # kan indicators are turned after their kan
    FollowUp.SUITS: variants.declare_suits,  # WMSG: the missing suits, once all are known (002 §5.2-5.3)
    FollowUp.REVEALS: ending.release_held,  # after their claim window (all wins on it first) and the ura
    FollowUp.SETTLE: ending.maybe_settle,  # once every hand that must be shown is shown
}


def run(r: RefereeState, then: FollowUp | None) -> None:
    """Finish what a handler left (``then``, its return value)."""
    if then is not None:
        FOLLOW_UPS[then](r)
