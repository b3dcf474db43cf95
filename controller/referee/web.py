"""The referee on the table's web page (controller/web): the judge's actions — answer the referee's
question, correct an observation, confirm the result — and how the referee's own events appear to the
public. Registered through the page's plug-in points (``judge_action``, ``public_renderer``): no route and
no page changes."""
from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from controller.web.judge import ActionError, Judge, judge_action, note
from controller.web.public import public_renderer
from controller.web.served import ServedTable
from rules.events import (
    ClaimTimed,
    CorrectionApplied,
    Event,
    JSONObject,
    JSONValue,
    QuestionAsked,
    ResultConfirmed,
)

if TYPE_CHECKING:
    from controller.referee.core import Referee


class RefereedHand(Protocol):
    """The refereed hand the judge acts on (:class:`controller.referee.session.RefereeSession`)."""

    @property
    def referee(self) -> Referee: ...

    def answer(self, text: str, by: str = "operator") -> bool: ...

    def correct(self, by: str, op: str, index: int, event: JSONObject | None = None, to: int = -1,
                reason: str = "") -> None: ...


def _session(svc: ServedTable) -> RefereedHand | None:
    session: RefereedHand | None = getattr(svc.play_source, "session", None)
    return session


def _live(svc: ServedTable) -> RefereedHand:
    """The refereed hand an action acts on (the page checks that there is one before it runs the action)."""
    s = _session(svc)
    if s is None:
        raise ActionError("no refereed hand at this table now", 409)
    return s


def _refereeing(svc: ServedTable) -> bool:
    s = _session(svc)
    return s is not None and s.referee.confirmed is None


def _asked(svc: ServedTable) -> bool:
    s = _session(svc)
    return _refereeing(svc) and s is not None and s.referee.open_question is not None


def _to_sign(svc: ServedTable) -> bool:
    s = _session(svc)
    return s is not None and s.referee.settled and s.referee.confirmed is None


def _number(v: JSONValue) -> int:
    """A number the page sent (a number or its text); TypeError or ValueError for anything else."""
    if isinstance(v, str | int | float):
        return int(v)
    raise TypeError(f"{v!r} is not a number")


@judge_action("answer", "answer the referee's question (a tile such as 5m, several separated by spaces, a suit "
              "m/p/s, yes/no, or ignore to let the record stand)", {"answer": "the answer"},
              available=_asked)
def _answer(svc: ServedTable, judge: Judge, params: JSONObject) -> JSONObject:
    text = str(params.get("answer", "")).strip()
    if not text or len(text) > 80:
        raise ActionError("answer: a tile, a suit, yes/no or ignore")
    note(svc, judge, "answer", answer=text)
    if not _live(svc).answer(text, by=judge.name):
        raise ActionError("the referee asks nothing now", 409)
    return {"answered": text}


@judge_action("correct", "correct the referee's record: replace input N's tile (a misread), delete input N (a "
              "phantom), or move it to another place (events in the wrong order); the hand is replayed",
              {"op": "replace, delete or move", "index": "the input's number (the record's order)",
               "tile": "replace: the right tile", "to": "move: its new place", "reason": "why"},
              available=_refereeing)
def _correct(svc: ServedTable, judge: Judge, params: JSONObject) -> JSONObject:
    s = _live(svc)
    op = str(params.get("op", "replace"))
    try:
        index = _number(params.get("index", -1))
        to = _number(params.get("to", -1))
    except (TypeError, ValueError):
        raise ActionError("index and to are numbers") from None
    record = s.referee.record
    if op not in ("replace", "delete", "move") or not 0 <= index < len(record):
        raise ActionError(f"op replace/delete/move and an index 0..{len(record) - 1}")
    event: JSONObject = {}
    if op == "replace":
        event = record[index].to_json()
        tile = str(params.get("tile", ""))
        if "tile" not in event or not tile:
            raise ActionError(f"input {index} ({event.get('type')}) has no tile to replace")
        event["tile"] = tile
    reason = str(params.get("reason", ""))[:200]
    note(svc, judge, "correct", op=op, index=index, to=to, reason=reason)
    s.correct(judge.name, op, index, event, to, reason)
    return {"corrected": index}


@judge_action("confirm_result", "sign the hand's result as the judge (the seats sign with their call buttons)",
              available=_to_sign)
def _confirm(svc: ServedTable, judge: Judge, params: JSONObject) -> JSONObject:
    note(svc, judge, "confirm_result")
    svc.press("confirm")
    return {"confirmed": True}


@public_renderer(QuestionAsked.TYPE)
def _question(ev: Event) -> JSONObject | None:
    assert isinstance(ev, QuestionAsked)
    return {"kind": "question", "seat": ev.seat, "text": ev.message, "text_ru": ev.message_ru}


@public_renderer(ResultConfirmed.TYPE)
def _confirmed(ev: Event) -> JSONObject | None:
    assert isinstance(ev, ResultConfirmed)
    return {"kind": "confirmed", "text": f"result confirmed by {ev.by}", "text_ru": "итог подтверждён"}


@public_renderer(CorrectionApplied.TYPE)
def _corrected(ev: Event) -> JSONObject | None:
    assert isinstance(ev, CorrectionApplied)
    return {"kind": "correction", "text": f"judge correction (revision {ev.revision})",
            "text_ru": f"исправление судьи (редакция {ev.revision})"}


@public_renderer(ClaimTimed.TYPE)
def _timed(ev: Event) -> JSONObject | None:
    return None  # the claim's timing is for the judge (its verdict, when late, is public)
