"""The table's cycle as a pure state machine (no I/O): which state follows which trigger.

    idle → collecting → shuffling → walls_up → dice → dealing → play → scoring → idle
              any working state --fault--> fault --retry--> the state that faulted
                                                 --abort--> idle
                                   dice --not_started--> idle (the session ended before the dice)
              any state except fault --pause--> paused --resume--> the state it left
                                                       --abort--> idle (the judge, web page only)

The transition table is data (:data:`TRANSITIONS`); :class:`TableMachine` applies triggers and keeps
the history. The service (:mod:`controller.service`) runs the hardware operation of each state and
feeds the outcome back as the next trigger.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


class S(StrEnum):
    IDLE = "idle"
    COLLECTING = "collecting"
    SHUFFLING = "shuffling"
    WALLS_UP = "walls_up"
    DICE = "dice"
    DEALING = "dealing"
    PLAY = "play"
    SCORING = "scoring"
    FAULT = "fault"
    PAUSED = "paused"


# (state, trigger) -> next state. "done" = the state's operation finished.
TRANSITIONS: dict[tuple[S, str], S] = {
    (S.IDLE, "start"): S.COLLECTING,
    (S.COLLECTING, "done"): S.SHUFFLING,
    (S.SHUFFLING, "done"): S.WALLS_UP,
    (S.WALLS_UP, "done"): S.DICE,
    (S.DICE, "done"): S.DEALING,
    # the session ended before the first dice throw: the hand never started (000 §2.4.4, 004 Rules 5.9)
    (S.DICE, "not_started"): S.IDLE,
    (S.DEALING, "done"): S.PLAY,
    (S.PLAY, "hand_over"): S.SCORING,
    (S.SCORING, "confirmed"): S.IDLE,
    (S.FAULT, "abort"): S.IDLE,
    (S.PAUSED, "abort"): S.IDLE,  # the judge abandons the hand (web page; the GPIO buttons cannot)
}
WORKING = (S.COLLECTING, S.SHUFFLING, S.WALLS_UP, S.DICE, S.DEALING, S.PLAY, S.SCORING)
MACHINE_STATES = (S.COLLECTING, S.SHUFFLING, S.WALLS_UP, S.DICE)  # states that move motors

# What the operator is told in each state (the web page and STATUS= for systemd).
PROMPTS: dict[S, str] = {
    S.IDLE: "Press START to collect and shuffle the tiles.",
    S.COLLECTING: "Collecting the tiles...",
    S.SHUFFLING: "Shuffling and building the walls...",
    S.WALLS_UP: "Raising the walls...",
    S.DICE: "Throwing the dice...",
    S.DEALING: "Take your starting tiles.",
    S.PLAY: "Hand in play.",
    S.SCORING: "Check the result and press START to confirm.",
    S.FAULT: "Fault: fix the problem, then press START to retry (hold JUDGE to abort).",
    S.PAUSED: "Paused: press JUDGE to resume.",
}


class IllegalTransition(ValueError):
    def __init__(self, state: S, trigger: str):
        self.state = state
        self.trigger = trigger
        super().__init__(f"{trigger!r} is not possible in state {state}")


@dataclass(frozen=True)
class Transition:
    before: S
    trigger: str
    after: S
    detail: str = ""


@dataclass
class TableMachine:
    state: S = S.IDLE
    resume_to: S | None = None  # where retry (from fault) or resume (from paused) returns
    fault: str = ""  # the operator message of the current fault
    history: list[Transition] = field(default_factory=list)
    keep_history: int = 1000

    def can(self, trigger: str) -> bool:
        try:
            self._next(trigger)
        except IllegalTransition:
            return False
        return True

    def _next(self, trigger: str) -> S:
        st = self.state
        if trigger == "fault" and st in WORKING:
            return S.FAULT
        if trigger == "retry" and st is S.FAULT and self.resume_to is not None:
            return self.resume_to
        if trigger == "pause" and st not in (S.FAULT, S.PAUSED):
            return S.PAUSED
        if trigger == "resume" and st is S.PAUSED and self.resume_to is not None:
            return self.resume_to
        nxt = TRANSITIONS.get((st, trigger))
        if nxt is None:
            raise IllegalTransition(st, trigger)
        return nxt

    def fire(self, trigger: str, detail: str = "") -> Transition:
        """Apply a trigger; raises :class:`IllegalTransition` if the state has no such edge."""
        nxt = self._next(trigger)
        before = self.state
        if nxt in (S.FAULT, S.PAUSED):
            self.resume_to = before
        elif before in (S.FAULT, S.PAUSED):
            self.resume_to = None
        self.fault = detail if nxt is S.FAULT else ""
        self.state = nxt
        t = Transition(before, trigger, nxt, detail)
        self.history.append(t)
        if len(self.history) > self.keep_history:
            del self.history[: -self.keep_history]
        return t

    @property
    def prompt(self) -> str:
        p = PROMPTS[self.state]
        return f"{p} ({self.fault})" if self.state is S.FAULT and self.fault else p
