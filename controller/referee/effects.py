"""What handling an input does besides reading the state: game events submitted to the hand machine
(stamped with the input that led to them), the referee's own verdicts, the outputs collected."""
from __future__ import annotations

import dataclasses
from typing import TypedDict

from controller.referee.state import (
    RefereeState,
)
from controller.referee.verdicts import referee_rule
from rules.events import (
    Event,
    GameEvent,
    Violation,
)
from rules.game.violations import violation


def emit(r: RefereeState, ev: Event) -> None:
    r.out.append(ev)


class Stamp(TypedDict, total=False):
    """What an event the referee makes is stamped with: the input that led to it, the hand."""

    t_mono: float
    t_wall: float
    hand_id: str


def stamp(r: RefereeState) -> Stamp:
    at = r.at
    return {"t_mono": at.t_mono, "t_wall": at.t_wall, "hand_id": r.hand_id} if at else {"hand_id": r.hand_id}


def submit(r: RefereeState, ev: GameEvent, at: float | None = None) -> list[Event]:
    """Submit a game event to the hand machine, stamped with the input that led to it (``at``: the moment
    it happened, when earlier: a claim is timed by its button)."""
    fields = stamp(r)
    if at is not None:
        fields["t_mono"] = at
    ev = dataclasses.replace(ev, **fields)
    out = r.machine.submit(ev)
    r.out.extend(out)
    return out


def refused(out: list[Event]) -> bool:
    return bool(out) and isinstance(out[0], Violation)


def refusal(out: list[Event]) -> Violation | None:
    """The verdict that refused a submitted event (None: it was taken)."""
    return out[0] if out and isinstance(out[0], Violation) else None


def flag(r: RefereeState, code: str, seat: int | None, message: str = "") -> Violation:
    """A verdict of the referee's own (not the machine's): timing, out-of-turn discards, rack counts."""
    rule = referee_rule(r.profile.referee_notes, code, r.profile.violation_rules)
    v = violation(code, seat, message, rule=rule, at=r.at, hand_id=r.hand_id)
    emit(r, v)
    return v
