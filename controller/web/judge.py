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
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypedDict, cast

from controller.web.served import ServedTable
from rules.events import Event, JSONObject, JSONValue, JudgeAction, JudgeEvent, PenaltyAwarded
from rules.game.penalty_catalogue import ChargeError, PenaltyKind, charge, receipts, taken
from rules.game.protocols import RuleSet

if TYPE_CHECKING:
    from controller.clock import Clock
    from controller.hall_link.link import HallLink
    from controller.play_source import PlaySource

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


#: a judge's action: (service, judge, the request's JSON object) -> the answer (a JSON object)
Action = Callable[[ServedTable, Judge, JSONObject], JSONObject]


def _always(svc: ServedTable) -> bool:
    return True


@dataclass(frozen=True)
class ActionSpec:
    name: str
    run: Action  # (service, judge, params) -> answer
    help: str
    fields: dict[str, str] = field(default_factory=dict)  # parameter -> what it is (the page's form)
    available: Callable[[ServedTable], bool] = _always


class JudgeStamp(TypedDict):
    """What a judge's event is stamped with: who, from where, the hand, when."""

    judge: str
    client: str
    hand_id: str
    t_mono: float
    t_wall: float


ACTIONS: dict[str, ActionSpec] = {}
#: action name -> why it cannot be done now (None: it can); the page answers 409 with that line
_NOT_NOW: dict[str, Callable[[ServedTable], str | None]] = {}


def judge_action(name: str, help: str, fields: dict[str, str] | None = None,
                 available: Callable[[ServedTable], bool] | None = None) -> Callable[[Action], Action]:
    """Register ``fn(svc, judge, params) -> dict`` as the judge's action ``name``."""

    def deco(fn: Action) -> Action:
        ACTIONS[name] = ActionSpec(name, fn, help, dict(fields or {}), available or _always)
        return fn

    return deco


def not_now_check(name: str, why: Callable[[ServedTable], str | None]) -> None:
    """Register why action ``name`` is impossible at a moment (``why(svc)``: one line, or None)."""
    _NOT_NOW[name] = why


def not_now(svc: ServedTable, spec: ActionSpec) -> str | None:
    """Why ``spec`` cannot be done now (the registered check's line, else its ``available``), or None."""
    check = _NOT_NOW.get(spec.name)
    why = check(svc) if check is not None else None
    if why is None and not spec.available(svc):
        why = f"{spec.name}: not possible now"
    return why


def judge_stream(svc: ServedTable) -> str:
    return f"{svc.cfg['table.id']}/judge"


def record(svc: ServedTable, ev: JudgeEvent) -> None:
    """Queue a judge event on the table's judge stream through the store's one writer: it is committed before
    anything the action then orders (writes commit in submission order); the page's handler awaits
    ``svc.writer.flush()`` before it answers."""
    svc.append_next(judge_stream(svc), ev)


def _stamp(svc: ServedTable, judge: Judge) -> JudgeStamp:
    clock: Clock | None = getattr(svc, "clock", None)
    stamp = clock.stamp() if clock is not None else {"t_mono": time.monotonic(), "t_wall": time.time()}
    return {"judge": judge.name, "client": judge.client, "hand_id": svc.hand_id, **stamp}


def note(svc: ServedTable, judge: Judge, action: str, **detail: JSONValue) -> None:
    """Record an action that needs nothing else (login, logout) in the audit log."""
    record(svc, JudgeAction(action=action, detail=detail, **_stamp(svc, judge)))


def press(svc: ServedTable, judge: Judge, button: str) -> JSONObject:
    """A table button pressed from the page: recorded with who pressed it, then pressed."""
    if button not in BUTTONS:
        raise ActionError(f"no button {button!r}", 404)
    state = str(svc.machine.state)
    record(svc, JudgeAction(action=button, detail={"state": state}, **_stamp(svc, judge)))
    svc.press(button)
    return {"pressed": button, "state": state}


def _paused(svc: ServedTable) -> bool:
    from controller.table_machine import S

    return svc.machine.state is S.PAUSED and bool(svc.hand_id)


@judge_action("abort_hand", "abandon the paused hand: it is recorded as aborted, the table goes idle",
              {"reason": "why"}, available=_paused)
def _abort_hand(svc: ServedTable, judge: Judge, params: JSONObject) -> JSONObject:
    reason = _text(params, "reason", 200)
    if not _paused(svc):
        raise ActionError("only a paused hand can be abandoned: pause the table first", 409)
    record(svc, JudgeAction(action="abort_hand", detail={"reason": reason}, **_stamp(svc, judge)))
    svc.trigger("abort", f"aborted by the judge ({judge.name}): {reason}")
    return {"aborted": svc.hand_id}


def _int(params: JSONObject, key: str, lo: int, hi: int) -> int:
    v = params.get(key)
    if isinstance(v, str) and v.strip().lstrip("-").isdigit():
        v = int(v)
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise ActionError(f"{key}: a whole number {lo}..{hi} is required")
    return v


def _text(params: JSONObject, key: str, limit: int, required: bool = True) -> str:
    v = params.get(key, "")
    if not isinstance(v, str):
        raise ActionError(f"{key}: text is required")
    v = " ".join(v.split())
    if required and not v:
        raise ActionError(f"{key}: required")
    if len(v) > limit:
        raise ActionError(f"{key}: at most {limit} characters")
    return v


@judge_action("penalty", "award a penalty: from the profile's catalogue (its amount, escalation and payee as the "
              "seed says) or the judge's own (points taken, paid to nobody or to each other seat)",
              {"seat": "seat 0..3", "code": "the profile's penalty code (the catalogue)",
               "points": "points (a custom penalty, or the judge's choice where the seed leaves it)",
               "to_seat": "the seat that receives it (a penalty paid to one player)", "rule": "seed reference",
               "reason": "why", "to_others": "paid to each other seat (a custom penalty)"})
def _penalty(svc: ServedTable, judge: Judge, params: JSONObject) -> JSONObject:
    seat = _int(params, "seat", 0, svc.players - 1)
    code = _text(params, "code", 40, required=False)
    kind = catalogue(svc.profile).get(code) if code else None
    if kind is not None:  # the seed decides the amount and the payee; the judge only what it leaves to him
        ev = _from_catalogue(svc, judge, kind, seat, params)
    else:
        points = _int(params, "points", 0, 100000)
        rule = _text(params, "rule", 80)
        reason = _text(params, "reason", 300)
        to_others = params.get("to_others", False)
        if not isinstance(to_others, bool):
            raise ActionError("to_others: true or false")
        # recorded as the catalogue's "each other" penalties are: what each seat receives, the offender's whole
        # loss in ``points`` (the page and the hall then agree and the transfer sums to zero)
        paid = receipts(seat, points, (), True, svc.players) if to_others and points else ()
        ev = PenaltyAwarded(seat=seat, points=taken(points, paid), rule=rule, reason=reason, code=code,
                            to_others=to_others, paid=paid, **_stamp(svc, judge))
    record(svc, ev)
    _to_referee(svc, ev)
    return {"awarded": ev.to_json()}


def _to_referee(svc: ServedTable, ev: JudgeEvent) -> None:
    """The decision, recorded, goes to the play source: the referee acts on a dead hand or a chombo."""
    source: PlaySource | None = getattr(svc, "play_source", None)
    if source is not None:
        source.judged(ev)


TABLE_SANCTIONS = ("dead_hand", "removal", "disqualification", "annulment", "table_points")


@judge_action("sanction", "a sanction beyond points (dead hand, removal, disqualification, annulment of the "
              "session's results, a table-point penalty): recorded with who and why, sent to the hall",
              {"seat": "seat 0..3", "kind": ", ".join(TABLE_SANCTIONS), "reason": "why",
               "points": "table points (a table-point penalty)"})
def _sanction(svc: ServedTable, judge: Judge, params: JSONObject) -> JSONObject:
    seat = _int(params, "seat", 0, svc.players - 1)
    kind = _text(params, "kind", 40)
    if kind not in TABLE_SANCTIONS:
        raise ActionError(f"kind: one of {', '.join(TABLE_SANCTIONS)}")
    reason = _text(params, "reason", 300)
    points = _int(params, "points", 1, 100) if kind == "table_points" else 0
    detail: JSONObject = {"kind": kind, "seat": seat, "reason": reason, "points": points}
    ev = JudgeAction(action="sanction", detail=detail, **_stamp(svc, judge))
    record(svc, ev)
    _to_referee(svc, ev)
    return {"sanction": detail}


def _seat_check_holds(svc: ServedTable) -> bool:
    hall: HallLink | None = getattr(svc, "hall", None)
    return hall is not None and hall.seat_check_on and hall.session_state().reason == "seat_check"


@judge_action("override_seat_check", "let the session's first hand start although the seat check found players "
              "not sitting as the hall seated them (or could not read the badges): recorded with who and why, "
              "sent to the hall's dashboard (controller/hall_link/seat_check.py)",
              {"reason": "why"}, available=_seat_check_holds)
def _override_seat_check(svc: ServedTable, judge: Judge, params: JSONObject) -> JSONObject:
    reason = _text(params, "reason", 200)
    hall: HallLink | None = getattr(svc, "hall", None)
    if hall is None or not _seat_check_holds(svc):
        raise ActionError("no seat check holds the first hand", 409)
    seats = hall.seats
    record(svc, JudgeAction(action="override_seat_check",
                            detail={"reason": reason, "session": seats.session, "status": seats.status,
                                    "expected": list(seats.expected), "found": list(seats.found)},
                            **_stamp(svc, judge)))
    done = hall.override_seats(judge.name, reason)
    if getattr(svc, "auto", False):  # demo mode: the hand the check held starts now
        svc.trigger("start")
    return {"seat_check": cast("JSONObject", done.to_dict())}  # (a SeatCheckBody is JSON: a TypedDict to mypy)


def catalogue(profile: RuleSet | str) -> dict[str, PenaltyKind]:
    """The penalties the rule set's seed names, by code (its data: ``RuleSet.penalty_catalogue``);
    ``profile`` may be its registry name (an unknown one has none)."""
    if isinstance(profile, str):
        from rules.profiles import registry

        try:
            profile = registry.get(profile)
        except KeyError:
            return {}
    return {k.code: k for k in profile.penalty_catalogue}


def _from_catalogue(svc: ServedTable, judge: Judge, kind: PenaltyKind, seat: int, params: JSONObject) -> PenaltyAwarded:
    seats = list(range(svc.players))
    chosen = _int(params, "points", 0, 100000) if kind.amount is None and not kind.ladder else None
    to_seat = _int(params, "to_seat", 0, svc.players - 1) if kind.payee == "one_player" else None
    reason = _text(params, "reason", 300, required=False) or kind.text
    try:
        c = charge(kind, seat, seats, previous=previous_offences(svc, kind, seat), dealer=svc.dealer, chosen=chosen,
                   to_seat=to_seat)
    except ChargeError as exc:
        raise ActionError(str(exc)) from None
    paid = c.paid if any(c.paid) else ()
    return PenaltyAwarded(seat=seat, points=c.points, rule=kind.rule, reason=reason, code=kind.code,
                          to_others=kind.payee == "each_other", paid=paid, occurrence=c.occurrence, when=kind.when,
                          dead_hand=kind.dead_hand, replay=kind.replay, **_stamp(svc, judge))


def previous_offences(svc: ServedTable, kind: PenaltyKind, seat: int) -> int:
    """The seat's earlier offences on ``kind``'s ladder: in this hall session (since its start; the whole record
    without a hall), and within the current block of ``per_hands`` hands (MCR: in each round, 003 line 2144)."""
    if not kind.ladder:
        return 0
    group = {k.code for k in catalogue(svc.profile).values() if k.counter == kind.counter}
    since, hands = _session_scope(svc)
    block: set[str] | None = None
    if kind.per_hands and hands is not None:
        current = svc.hand_id if svc.hand_id and svc.hand_id not in hands else None
        order = hands + ([current] if current else [])
        if order:
            start = (len(order) - 1) // kind.per_hands * kind.per_hands
            block = set(order[start:])
    who = _player_at(svc, svc.hand_id, seat)  # the same player, whichever chair he sat in (MCR, 003 line 2168)
    n = 0
    for p in penalties(svc):
        if p.code in group and p.t_wall >= since and (block is None or p.hand_id in block) \
                and _player_at(svc, p.hand_id, p.seat) == who:
            n += 1
    return n


def _player_at(svc: ServedTable, hand_id: str, seat: int) -> object:
    """Who sat in ``seat`` during ``hand_id`` (the hall's players by chair); the seat itself without a hall."""
    hall: HallLink | None = getattr(svc, "hall", None)
    if hall is None:
        return seat
    ctx = hall.context_for(hand_id or "")
    by_seat = ctx.get("seats") or ctx.get("players") or []
    return by_seat[seat] if isinstance(by_seat, Sequence) and 0 <= seat < len(by_seat) else seat


def _session_scope(svc: ServedTable) -> tuple[float, list[str] | None]:
    """When the hall's current session began at this table (0: no hall) and its hands played, in order."""
    hall: HallLink | None = getattr(svc, "hall", None)
    if hall is None:
        return 0.0, None
    return hall.session_began(), hall.session_hands()


def penalty_catalog(profile: RuleSet | str) -> list[dict[str, object]]:
    """The penalties the profile's seed names, for the judge's form (rules/game/penalty_catalogue.py): code,
    names in English and Russian, rule, points (None when the ladder or the judge decides), the payee."""
    return [k.to_json() for k in catalogue(profile).values()]


def audit(svc: ServedTable, limit: int = 200) -> list[JSONObject]:
    """The judge stream, newest first: every action with who made it and when."""
    evs: list[Event] = svc.store.events(judge_stream(svc))
    return [e.to_json() for e in reversed(evs[-limit:])]


def penalties(svc: ServedTable) -> list[PenaltyAwarded]:
    return [e for e in svc.store.events(judge_stream(svc)) if isinstance(e, PenaltyAwarded)]
