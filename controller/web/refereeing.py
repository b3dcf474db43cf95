"""The referee at the judge's console: what the judge sees of the refereed hand, the actions the referee's
session does not register itself (``undo``, ``reject``), when each referee action is possible, and waiting
for the referee to act on what the judge sent before the page answers.

The referee's own actions (:mod:`controller.referee.web`: ``answer``, ``correct``, ``confirm_result``) and
the two here all reach the hand through the session's public API (``RefereeSession.answer`` /
``correct``, the ``confirm`` button): each input is durable in ``<hand>/referee`` before the referee acts
on it, and each press is in the judge's audit log (``<table>/judge``) with who made it.

* ``undo`` takes back the judge's latest correction that still stands, as a correction of its own (the
  inverse: a replaced input put back, an inserted one deleted, a deleted one inserted, a moved one moved
  back) — the store never rewrites, so an undo is a new revision like any correction;
* ``reject`` refuses the result as it stands: the seats that signed it have their signatures taken out of
  the record (their last call-button press, deleted as a correction), so the hand waits to be corrected
  and signed again — or the judge pauses the table and abandons it.
"""
from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, TypedDict

from controller.web.judge import ActionError, Judge, judge_action, not_now_check, note
from controller.web.served import ServedTable
from rules.events import ButtonPressed, Event, JSONObject, JSONValue, JudgeCorrection, QuestionAnswered

if TYPE_CHECKING:
    from controller.referee.core import Referee
    from controller.referee.session import RefereeSession

#: the referee's actions on the page (the referee session registers the first three)
REFEREE_ACTIONS = ("answer", "correct", "undo", "confirm_result", "reject")
PANELS = ("call", "call2")  # a seat's call panels (any press after the settlement signs the result)
SETTLE_S = 5.0  # how long the page waits for the referee to act on the judge's input
RECORD_ROWS = 400  # the newest inputs of the record listed for the judge
UNDO = "undo of revision "


def session_of(svc: ServedTable) -> RefereeSession | None:
    """The referee session of the service's current hand (None: no refereed hand)."""
    s: RefereeSession | None = getattr(getattr(svc, "play_source", None), "session", None)
    if s is None or not svc.hand_id or getattr(s, "hand_id", None) != svc.hand_id:
        return None
    return s


def why_not(svc: ServedTable, action: str) -> str | None:
    """Why the referee action ``action`` cannot be done now (None: it can): the page's 409 message."""
    from controller.table_machine import S

    s = session_of(svc)
    state = svc.machine.state
    if s is None:
        return "no refereed hand at this table now"
    ref = s.referee
    if ref.confirmed is not None:
        return f"the hand's result is already confirmed (by {ref.confirmed.by})"
    if state is not S.PLAY:
        return f"the refereed hand is not in play (the table is {state}): resume it first"
    if action == "answer" and ref.open_question is None:
        return "the referee asks nothing now"
    if action in ("confirm_result", "reject") and not ref.settled:
        return "the hand has no result yet"
    if action == "undo" and not standing_corrections(ref):
        return "no correction of this hand to undo"
    return None


from controller.referee import web as _referee_web  # noqa: E402,F401  (answer, correct, confirm_result)


def _why_not(action: str) -> Callable[[ServedTable], str | None]:
    return lambda svc: why_not(svc, action)


for _name in REFEREE_ACTIONS:
    not_now_check(_name, _why_not(_name))


# --- undo ---------------------------------------------------------------------------------------------------

class Inverse(TypedDict, total=False):
    """The correction that undoes one (``RefereeSession.correct``'s arguments)."""

    op: str
    index: int
    event: JSONObject
    to: int


def standing_corrections(ref: Referee) -> list[tuple[int, Inverse]]:
    """The judge's corrections of this hand still in effect, oldest first: (revision, the correction that
    undoes it as ``RefereeSession.correct`` arguments). Replays the record as the referee built it (the
    corrections it refused left out); an undo takes its revision off the list."""
    from controller.referee.core import (
        apply_correction,  # the referee's own edit of its record: the same result
    )

    rec: list[Event] = []
    standing: list[tuple[int, Inverse]] = []
    revision = 0
    for ev in ref.inputs:
        if not isinstance(ev, JudgeCorrection):
            rec.append(ev)
            continue
        before = list(rec)
        try:
            apply_correction(rec, ev)
        except (ValueError, IndexError, KeyError, TypeError):
            continue  # refused by the referee: no revision
        revision += 1
        if ev.reason.startswith(UNDO):
            undone = ev.reason[len(UNDO):].split(" ", 1)[0]
            standing = [x for x in standing if str(x[0]) != undone]
            continue
        standing.append((revision, _inverse(before, rec, ev)))
    return standing


def _inverse(before: list[Event], after: list[Event], c: JudgeCorrection) -> Inverse:
    if c.op == "replace":
        return {"op": "replace", "index": c.index, "event": before[c.index].to_json()}
    if c.op == "insert":
        return {"op": "delete", "index": c.index}
    if c.op == "delete":
        return {"op": "insert", "index": c.index, "event": before[c.index].to_json()}
    moved = before[c.index]  # "move": it went to wherever it is now; it goes back
    now = next(i for i, e in enumerate(after) if e is moved)
    return {"op": "move", "index": now, "to": c.index}


@judge_action("undo", "take back the latest correction of this hand that still stands (a new revision)",
              {"reason": "why"}, available=lambda svc: why_not(svc, "undo") is None)
def _undo(svc: ServedTable, judge: Judge, params: JSONObject) -> JSONObject:
    s = _refereed(svc)
    standing = standing_corrections(s.referee)
    if not standing:
        raise ActionError("no correction of this hand to undo", 409)
    revision, inv = standing[-1]
    reason = _text(params.get("reason"), 200)
    note(svc, judge, "undo", revision=revision, reason=reason)
    s.correct(judge.name, inv["op"], inv["index"], inv.get("event"), inv.get("to", -1),
              f"{UNDO}{revision}" + (f" ({reason})" if reason else ""))
    return {"undone": revision}


# --- reject -------------------------------------------------------------------------------------------------

def signatures(ref: Referee) -> list[int]:
    """Record indices of the presses that signed the result: each signed seat's last call-button press."""
    out = []
    for seat in sorted(ref.confirm_seats):
        last = max((i for i, e in enumerate(ref.record) if isinstance(e, ButtonPressed) and e.seat == seat
                    and e.button in PANELS), default=None)
        if last is not None:
            out.append(last)
    return out


@judge_action("reject", "refuse the result as it stands: the seats' signatures are withdrawn, the hand waits "
              "to be corrected and signed again", {"reason": "why"},
              available=lambda svc: why_not(svc, "reject") is None)
def _reject(svc: ServedTable, judge: Judge, params: JSONObject) -> JSONObject:
    s = _refereed(svc)
    reason = _text(params.get("reason"), 200)
    if not reason:
        raise ActionError("reason: say why the result does not stand")
    signed = signatures(s.referee)
    settled = s.referee.machine.state.settled
    note(svc, judge, "reject", reason=reason, seats=sorted(s.referee.confirm_seats),
         deltas=list(settled.deltas) if settled is not None else None)
    for index in sorted(signed, reverse=True):  # from the end: the other indices stay right
        s.correct(judge.name, "delete", index, None, -1, f"result rejected: {reason}")
    return {"rejected": True, "withdrawn": len(signed)}


def _refereed(svc: ServedTable) -> RefereeSession:
    """The refereed hand an action acts on (the page checks that there is one before it runs the action)."""
    s = session_of(svc)
    if s is None:
        raise ActionError("no refereed hand at this table now", 409)
    return s


def _text(v: JSONValue, limit: int) -> str:
    if v is None:
        return ""
    if not isinstance(v, str):
        raise ActionError("reason: text is required")
    v = " ".join(v.split())
    if len(v) > limit:
        raise ActionError(f"reason: at most {limit} characters")
    return v


# --- waiting for the referee ------------------------------------------------------------------------------

class Mark:
    """What the referee had taken before an action: the page waits for what the action sent."""

    def __init__(self, svc: ServedTable):
        self.session = session_of(svc)
        ref = self.session.referee if self.session is not None else None
        self.inputs = len(ref.inputs) if ref is not None else 0
        self.revision = ref.revision if ref is not None else 0
        self.queued = self.session.queue.qsize() if self.session is not None else 0
        self.sent = 0

    def ran(self) -> None:
        """Right after the action ran (on the loop's thread, nothing else ran meanwhile): what it queued."""
        if self.session is not None:
            self.sent = self.session.queue.qsize() - self.queued


def _judge_input(ev: Event) -> bool:
    return isinstance(ev, QuestionAnswered | JudgeCorrection) or (isinstance(ev, ButtonPressed)
                                                                  and ev.button == "confirm")


async def settle(mark: Mark, timeout: float = SETTLE_S) -> JSONObject:
    """Wait until the referee has acted on the inputs the action queued (the input durable first, then
    fed), at most ``timeout`` s; what it concluded: the question now open, the correction applied (or
    refused: :class:`ActionError` 422 with the referee's words), the result and who has signed it."""
    s = mark.session
    if s is None:
        return {}
    sent = mark.sent
    end = time.monotonic() + timeout
    ref = s.referee
    while sent > 0 and time.monotonic() < end:
        # (a correction replays the hand: the referee's lists are rebuilt, so count what is fed since)
        if sum(1 for e in ref.inputs[mark.inputs:] if _judge_input(e)) >= sent:
            break
        await asyncio.sleep(0.01)
    else:
        if sent > 0:
            return {"pending": True}
    out: JSONObject = {"revision": ref.revision}
    corrections = sum(1 for e in ref.inputs[mark.inputs:] if isinstance(e, JudgeCorrection))
    if corrections > ref.revision - mark.revision:  # the referee refused one: it says why in a verdict
        why = next((v.message for v in reversed(s.verdicts) if "correction refused" in v.message), "")
        raise ActionError(why or "the referee refused the correction", 422)
    if ref.revision > mark.revision and ref.corrections:
        c = ref.corrections[-1]
        out["correction"] = {"revision": c.revision, "before": list(c.before), "after": list(c.after)}
    q = ref.open_question
    if q is not None:
        out["question"] = {"id": q.event.question_id, "en": q.event.message, "ru": q.event.message_ru}
    st = ref.machine.state
    out["settlement"] = list(st.settled.deltas) if st.settled is not None else None
    out["signed"] = sorted(ref.confirm_seats)
    out["confirmed"] = ref.confirmed.by if ref.confirmed is not None else None
    return out


# --- what the judge sees ------------------------------------------------------------------------------------

def judge_view(svc: ServedTable) -> JSONObject | None:
    """The refereed hand for the judge's console (judge only: the question's subject, the whole record)."""
    s = session_of(svc)
    if s is None:
        return None
    ref = s.referee
    q = ref.open_question
    record = ref.record
    first = max(0, len(record) - RECORD_ROWS)
    t0 = min((e.t_mono for e in record), default=0.0)  # seconds since the hand's first input
    rows: list[JSONObject] = []
    for i in range(first, len(record)):
        e = record[i].to_json()
        row: JSONObject = {"i": i, "type": e.get("type"), "t": round(float(record[i].t_mono) - t0, 1)}
        for k in ("seat", "tile", "tiles", "call", "button", "kind", "index"):
            if e.get(k) is not None:
                row[k] = e[k]
        rows.append(row)
    st = ref.machine.state
    standing = standing_corrections(ref)
    return {
        "hand_id": s.hand_id,
        "revision": ref.revision,
        "question": None if q is None else {
            "id": q.event.question_id, "kind": q.event.kind, "seat": q.event.seat, "en": q.event.message,
            "ru": q.event.message_ru, "choices": list(q.event.choices), "subject": q.event.subject},
        "record": rows,
        "corrections": [{"revision": c.revision, "by": c.by, "change": c.change, "before": list(c.before),
                         "after": list(c.after)} for c in ref.corrections],
        "undo": standing[-1][0] if standing else None,
        "settlement": list(st.settled.deltas) if st.settled is not None else None,
        "signed": sorted(ref.confirm_seats),
        "confirmed": ref.confirmed.by if ref.confirmed is not None else None,
        "can": {a: why_not(svc, a) is None for a in REFEREE_ACTIONS},
    }
