"""A judge's corrections of the record: the edit (:func:`apply_correction`), what a result is for its
signatures (:func:`payments`), the audit record (:func:`audit`). The core replays the corrected record
(:meth:`controller.referee.core.Referee.feed`)."""
from __future__ import annotations

from rules.events import ButtonPressed, CorrectionApplied, Event, JSONValue, JudgeCorrection, Settled

#: a result as its signatures sign it: the deltas, and each payment as its sorted (key, value) pairs
Signed = tuple[tuple[int, ...], tuple[tuple[tuple[str, JSONValue], ...], ...]]


def payments(settled: Settled | None) -> Signed | None:
    """What a result is, for its signatures: the deltas and every payment (None: no result)."""
    if settled is None:
        return None
    return tuple(settled.deltas), tuple(tuple(sorted(dict(p).items())) for p in settled.payments)


def apply_correction(rec: list[Event], c: JudgeCorrection) -> str:
    """Apply one correction to the record in place; returns what changed, for the audit record."""
    def show(e: Event) -> str:
        d = {k: v for k, v in e.to_json().items() if k not in ("v", "t_wall", "frame", "hand_id")}
        return ", ".join(f"{k}={v}" for k, v in d.items())

    if c.op == "delete":
        gone = rec.pop(c.index)
        return f"deleted input {c.index} ({show(gone)})"
    if c.op == "move":
        ev = rec.pop(c.index)
        rec.insert(c.to, ev)
        return f"moved input {c.index} ({show(ev)}) to {c.to}"
    new = Event.from_json(dict(c.event))
    if c.op == "replace":
        old = rec[c.index]
        rec[c.index] = new
        return f"replaced input {c.index} ({show(old)}) with ({show(new)})"
    if c.op == "insert":
        if not 0 <= c.index <= len(rec):
            raise IndexError(f"no position {c.index} in a record of {len(rec)} inputs")
        rec.insert(c.index, new)
        return f"inserted ({show(new)}) at {c.index}"
    raise ValueError(f"unknown correction {c.op!r} (replace, insert, delete, move)")


def unsigned(record: list[Event], withdrawn: list[Event]) -> list[Event]:
    """The presses of ``record`` that signed a result a correction changed: withdrawn (added to ``withdrawn``)."""
    return [e for e in record if isinstance(e, ButtonPressed) and not any(e is w for w in withdrawn)]


def audit(c: JudgeCorrection, change: str, revision: int, before: Settled | None, after: Settled | None,
          viol_before: tuple[str, ...], viol_after: tuple[str, ...], hand_id: str) -> CorrectionApplied:
    """The audit record of one correction: what changed, the result and the verdicts before and after."""
    return CorrectionApplied(
        by=c.by, change=change + (f" — {c.reason}" if c.reason else ""), revision=revision,
        before=tuple(before.deltas) if before else (), after=tuple(after.deltas) if after else (),
        payments_before=tuple(before.payments) if before else (),
        payments_after=tuple(after.payments) if after else (),
        violations_before=viol_before, violations_after=viol_after,
        t_mono=c.t_mono, t_wall=c.t_wall, hand_id=hand_id)
