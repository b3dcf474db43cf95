"""Play sources: who plays the hand while the table is in PLAY.

* :class:`controller.play_source.ManualPlay` — no referee: the operator presses START when the hand is over.
* :class:`controller.referee.session.RefereePlay` — the camera referee follows the hand (the default of
  ``serve``).
* :class:`BotPlay` — demo mode and the crash tests: seeded bots play the hand at the emulated table
  (:class:`controller.referee.actor.BotActor`) and the referee follows it through the same path as a real
  hand (observations, call buttons, questions, confirmation). The bots' hand is a pure function of the
  hand id and the stored dice, so a service restarted after a crash plays on to the same result; the
  refereed record goes to the store (``<hand_id>/game``), where re-appending an identical event is a no-op
  and a different one is an error — the store proves the replay identical.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from controller.play_source import HandResult
from controller.referee.actor import BotActor, hand_seed
from controller.referee.session import RefereePlay

if TYPE_CHECKING:
    from rules import driver

__all__ = ["BotPlay", "bot_hand", "hand_seed", "result_of"]


def bot_hand(profile_name: str, players: int, dealer: int, hand_id: str,
             dice: tuple[tuple[int, ...], ...]) -> driver.HandResult:
    """The bots' hand for this table hand (deterministic): the ground truth the referee follows in demo mode."""
    from controller.referee.sim.play import playable_truth
    from rules.profiles import registry

    profile = registry.get(profile_name)
    truth, _ = playable_truth(profile, hand_seed(hand_id, dice) % (1 << 62), hand_id=hand_id, dealer=dealer,
                              players=players, dice=tuple(tuple(d) for d in dice), faults=False)
    return truth.driver.result()


class BotPlay(RefereePlay):
    """Bots at the emulated table, refereed (``camera``: ``exact`` observations or rendered ``frames`` read
    by vision; ``event_delay``: seconds between the table's moments, so the web page shows it going on)."""

    def __init__(self, event_delay: float = 0.01, camera: str = "exact"):
        super().__init__(actor=BotActor(camera, event_delay), camera=False)
        self.event_delay = event_delay


def result_of(res: driver.HandResult) -> HandResult:
    st = res.machine.state
    payments = list(st.settled.payments) if st.settled is not None else []
    return {
        "source": "bots",
        "deltas": list(res.deltas),
        "winners": list(res.winners),
        "exhaustive": res.exhaustive,
        "next_dealer": res.next_dealer,
        "payments": [dict(p) for p in payments],
        "events": len(res.events),
    }
