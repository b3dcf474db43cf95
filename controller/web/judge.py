"""The judge's actions: each one checked, carried out, and kept in the store with who made it.

Actions are registered by name (:func:`judge_action`); the page lists what this table offers
(``GET /api/judge/actions``) and posts ``POST /api/judge/<name>`` with a JSON object. The built-in ones
press the table's buttons and award penalties; the referee registers its own (answer a question, correct
an observation, undo, confirm or reject a result) the same way, so the page and its tests need no change.

Every action is recorded in the table's judge stream (``<table id>/judge`` in the event store) as a
:class:`rules.events.JudgeAction` or :class:`rules.events.PenaltyAwarded` — the audit log.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rules.events import Event, JudgeAction, JudgeEvent, PenaltyAwarded

BUTTONS = ("start", "judge", "abort", "accept")  # the table's buttons (accept: the judge overrides a re-read)


class ActionError(ValueError):
    """A request the judge must change (HTTP 400/409 with this one line)."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


@dataclass
class Judge:
    """Who is acting: the name given at login and the address the request came from."""

    name: str
    client: str


@dataclass(frozen=True)
class ActionSpec:
    name: str
    run: Callable[[Any, Judge, dict[str, Any]], dict[str, Any]]  # (service, judge, params) -> answer
    help: str
    fields: dict[str, str] = field(default_factory=dict)  # parameter -> what it is (the page's form)
    available: Callable[[Any], bool] = lambda svc: True


ACTIONS: dict[str, ActionSpec] = {}
#: action name -> why it cannot be done now (None: it can); the page answers 409 with that line
_NOT_NOW: dict[str, Callable[[Any], str | None]] = {}


def judge_action(name: str, help: str, fields: dict[str, str] | None = None,
                 available: Callable[[Any], bool] | None = None) -> Callable[[Callable], Callable]:
    """Register ``fn(svc, judge, params) -> dict`` as the judge's action ``name``."""

    def deco(fn: Callable[[Any, Judge, dict[str, Any]], dict[str, Any]]) -> Callable:
        ACTIONS[name] = ActionSpec(name, fn, help, dict(fields or {}), available or (lambda svc: True))
        return fn

    return deco


def not_now_check(name: str, why: Callable[[Any], str | None]) -> None:
    """Register why action ``name`` is impossible at a moment (``why(svc)``: one line, or None)."""
    _NOT_NOW[name] = why


def not_now(svc: Any, spec: ActionSpec) -> str | None:
    """Why ``spec`` cannot be done now (the registered check's line, else its ``available``), or None."""
    check = _NOT_NOW.get(spec.name)
    why = check(svc) if check is not None else None
    if why is None and not spec.available(svc):
        why = f"{spec.name}: not possible now"
    return why


def judge_stream(svc: Any) -> str:
    return f"{svc.cfg['table.id']}/judge"


def record(svc: Any, ev: JudgeEvent) -> None:
    """Queue a judge event on the table's judge stream through the store's one writer: it is committed before
    anything the action then orders (writes commit in submission order); the page's handler awaits
    ``svc.writer.flush()`` before it answers."""
    svc.append_next(judge_stream(svc), ev)


def _stamp(svc: Any, judge: Judge) -> dict[str, Any]:
    clock = getattr(svc, "clock", None)
    stamp = clock.stamp() if clock is not None else {"t_mono": time.monotonic(), "t_wall": time.time()}
    return {"judge": judge.name, "client": judge.client, "hand_id": svc.hand_id, **stamp}


def note(svc: Any, judge: Judge, action: str, **detail: Any) -> None:
    """Record an action that needs nothing else (login, logout) in the audit log."""
    record(svc, JudgeAction(action=action, detail=detail, **_stamp(svc, judge)))


def press(svc: Any, judge: Judge, button: str) -> dict[str, Any]:
    """A table button pressed from the page: recorded with who pressed it, then pressed."""
    if button not in BUTTONS:
        raise ActionError(f"no button {button!r}", 404)
    state = str(svc.machine.state)
    record(svc, JudgeAction(action=button, detail={"state": state}, **_stamp(svc, judge)))
    svc.press(button)
    return {"pressed": button, "state": state}


def _paused(svc: Any) -> bool:
    from controller.table_machine import S

    return svc.machine.state is S.PAUSED and bool(svc.hand_id)


@judge_action("abort_hand", "abandon the paused hand: it is recorded as aborted, the table goes idle",
              {"reason": "why"}, available=_paused)
def _abort_hand(svc: Any, judge: Judge, params: dict[str, Any]) -> dict[str, Any]:
    reason = _text(params, "reason", 200)
    if not _paused(svc):
        raise ActionError("only a paused hand can be abandoned: pause the table first", 409)
    record(svc, JudgeAction(action="abort_hand", detail={"reason": reason}, **_stamp(svc, judge)))
    svc.trigger("abort", f"aborted by the judge ({judge.name}): {reason}")
    return {"aborted": svc.hand_id}


def _int(params: dict[str, Any], key: str, lo: int, hi: int) -> int:
    v = params.get(key)
    if isinstance(v, str) and v.strip().lstrip("-").isdigit():
        v = int(v)
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise ActionError(f"{key}: a whole number {lo}..{hi} is required")
    return v


def _text(params: dict[str, Any], key: str, limit: int, required: bool = True) -> str:
    v = params.get(key, "")
    if not isinstance(v, str):
        raise ActionError(f"{key}: text is required")
    v = " ".join(v.split())
    if required and not v:
        raise ActionError(f"{key}: required")
    if len(v) > limit:
        raise ActionError(f"{key}: at most {limit} characters")
    return v


@judge_action("penalty", "award a penalty: the seat loses the points (paid to nobody, or to each other seat)",
              {"seat": "seat 0..3", "points": "points taken", "rule": "seed reference", "reason": "why",
               "code": "the profile's penalty code (optional)", "to_others": "paid to each other seat"})
def _penalty(svc: Any, judge: Judge, params: dict[str, Any]) -> dict[str, Any]:
    seat = _int(params, "seat", 0, svc.players - 1)
    points = _int(params, "points", 0, 100000)
    rule = _text(params, "rule", 80)
    reason = _text(params, "reason", 300)
    code = _text(params, "code", 40, required=False)
    to_others = params.get("to_others", False)
    if not isinstance(to_others, bool):
        raise ActionError("to_others: true or false")
    ev = PenaltyAwarded(seat=seat, points=points, rule=rule, reason=reason, code=code, to_others=to_others,
                        **_stamp(svc, judge))
    record(svc, ev)
    return {"awarded": ev.to_json()}


def penalty_catalog(profile: str) -> list[dict[str, Any]]:
    """The penalties the profile's seed names, for the judge's form: code, description, rule, points
    (None when the judge decides the amount)."""
    out: list[dict[str, Any]] = []
    if profile.startswith("sichuan"):
        from rules.profiles.sichuan.penalties import DEAD_HAND_VIOLATIONS, MINOR_VIOLATIONS

        out += [{"code": c, "text": d, "rule": r, "points": None} for c, (d, r) in MINOR_VIOLATIONS.items()]
        out += [{"code": c, "text": d + " (dead hand)", "rule": r, "points": None}
                for c, (d, r) in DEAD_HAND_VIOLATIONS.items()]
        out += [{"code": "lateness_10", "text": "late up to 10 minutes", "rule": "000 §2.8.4.5", "points": 8},
                {"code": "lateness_15", "text": "late up to 15 minutes", "rule": "000 §2.8.4.5", "points": 16}]
    elif profile == "red":
        from rules.profiles.red.penalties import FALSE_WIN_POINTS, RULE_FALSE_WIN, UNPRICED

        out.append({"code": "false_win", "text": "false win (to each other player)", "rule": RULE_FALSE_WIN,
                    "points": FALSE_WIN_POINTS, "to_others": True})
        out += [{"code": c, "text": d, "rule": r, "points": None} for c, (d, r) in UNPRICED.items()]
    return out


def audit(svc: Any, limit: int = 200) -> list[dict[str, Any]]:
    """The judge stream, newest first: every action with who made it and when."""
    evs: list[Event] = svc.store.events(judge_stream(svc))
    return [e.to_json() for e in reversed(evs[-limit:])]


def penalties(svc: Any) -> list[PenaltyAwarded]:
    return [e for e in svc.store.events(judge_stream(svc)) if isinstance(e, PenaltyAwarded)]
