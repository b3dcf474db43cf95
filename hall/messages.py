"""The JSON messages between a table and the hall, validated when parsed (garbage is refused, never half-used).

Table → hall (``up/outbox``): :class:`OutboxMessage` — one result or event, identified by
``(table, hand, seq)``: the hall ingests each identity once, however often it arrives.
Hall → table (``down/ack``): :class:`Ack` — the identities the hall has committed to its database.
Hall → table (``down/cmd``): :class:`Command` — session start, warning, session end, seating; the table
answers each with :class:`CommandAck` (``up/cmd_ack``) once it has recorded it.
Table → hall (``up/status``): fleet health (:class:`TableStatus`, :data:`STATUS_FIELDS`), retained.

The bodies are typed here as the readers see them (TypedDicts: the keys each side writes and reads): an
outbox message's body by its kind (:class:`ResultBody`, :class:`EventBody` — :class:`JudgeBody` for a judge's
decision —, :class:`SeatCheckBody`), a command's (:class:`CommandBody`). A message is checked where it is
parsed (its envelope's fields and types); a body is typed as the kind it is, where its kind is known.
"""
from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import TypedDict, TypeVar, cast

from rules.events import JSONObject

KINDS = ("event", "result", "seat_check")  # seat_check: controller/hall_link/seat_check.py
COMMANDS = ("session_start", "warning", "session_end", "seating", "message")
_T = TypeVar("_T")


# --- the bodies -----------------------------------------------------------------------------------------------
class HandContext(TypedDict, total=False):
    """The hall's session a table's message belongs to (``controller/hall_link/link.py``, ``context_for``): its
    number, its players as seated, and ``seats`` — the players by chair for this hand (MCR changes chairs each
    round, 003 line 2168)."""

    session: int | None
    players: list[str]
    seats: list[str]


class ViolationLine(TypedDict, total=False):
    """A verdict in a hand's result (``controller/referee/core.py``, ``result``)."""

    seat: int | None
    code: str
    rule: str


class Replayed(TypedDict, total=False):
    """A hand a chombo had dealt again (004 line 278): who, the penalty's code and rule, the judge."""

    seat: int
    code: str
    rule: str
    judge: str


class HandResult(TypedDict, total=False):
    """A finished hand's result as the table records it (its event store's ``hands.result``: the service's
    record of the referee's ``result()``, or the bots' at a simulated table) — deltas and winners by seat
    position (a table of two plays at seats 0 and 2, ``rules.wall.SEATS``)."""

    hand_id: str
    status: str  # "played"; else it was not ("aborted", "not_started")
    reason: str
    source: str  # "referee", "bots"
    profile: str
    dealer: int
    next_dealer: int
    dice: list[list[int]]
    deltas: list[int]
    payments: list[JSONObject]
    winners: list[int]
    exhaustive: bool
    seats: list[str]  # the players by chair (the simulated tables' own)
    events: int
    violations: list[ViolationLine]
    verdicts: list[str]
    questions: int
    revision: int
    confirmed_by: str | None  # "seats": every seat signed (000 line 269)
    next_options: dict[str, int]  # what the next hand carries (004 Rules 3.6: the sticks left)
    options_after: dict[str, int]  # the same, as the simulated tables write it
    replayed: Replayed


class ResultBody(HandContext, total=False):
    """A ``result`` message's body: the hand's result with the hall's context the hand started with."""

    profile: str
    result: HandResult


class EventBody(HandContext, total=False):
    """An ``event`` message's body: one event of a table's store stream (``<hand>/game``, the judge's stream)
    as its JSON; a judge's decision carries the hall's context of its hand too."""

    stream: str
    seq: int
    event: JSONObject


class SanctionDetail(TypedDict, total=False):
    """A sanction given at a table's console (``judge_action`` ``sanction``: its ``detail``)."""

    kind: str
    seat: int
    reason: str
    points: float


class JudgeEvent(TypedDict, total=False):
    """A judge's decision as its event's JSON (``rules.events.PenaltyAwarded`` or ``JudgeAction``); its seat
    is a chair of that moment (the console numbers the players 0..n-1)."""

    type: str
    t_wall: float
    hand_id: str
    judge: str
    seat: int
    points: int
    paid: list[int]  # what each chair receives (empty: nobody, or ``to_others``)
    to_others: bool
    code: str
    rule: str
    reason: str
    action: str
    detail: SanctionDetail


class JudgeBody(HandContext, total=False):
    """An ``event`` message of a table's judge stream (the outbox's ``JUDGE_EVENTS``), as the hall reads it."""

    stream: str
    seq: int
    event: JudgeEvent


class SeatCheckBody(TypedDict, total=False):
    """A ``seat_check`` message's body (``controller/hall_link/seat_check.py``, ``SeatState``)."""

    session: int | None
    status: str  # "", "ok", "mismatch", "unreadable", "overridden"
    expected: list[str]
    found: list[str | None]
    problems_en: list[str]
    problems_ru: list[str]
    calibrated: bool
    judge: str
    reason: str
    t_wall: float


class CommandBody(TypedDict, total=False):
    """A hall command's body (``hall/tournament.py`` writes them, ``controller/hall_link/link.py`` obeys)."""

    session: int
    players: list[str]  # by seat
    starts_at: float
    ends_at: float
    warning_at: float
    minutes_left: int
    now: bool  # seating: a substitute takes his seat in the running session
    text: str
    text_en: str
    text_ru: str


class TableStatus(TypedDict, total=False):
    """A table's fleet health (``up/status``)."""

    online: bool
    version: str
    profile: str
    state: str
    hand_id: str
    hands_done: int
    fault: str
    judge_called: bool
    camera_fps: float | None
    cpu_temp_c: float | None
    throttled: bool | None
    disk_free_mb: int | None
    outbox_pending: int
    session: int | None
    t_wall: float


STATUS_FIELDS = tuple(TableStatus.__annotations__)


class MessageError(ValueError):
    pass


Payload = bytes | bytearray | str  # a message as received (JSON)


def _load(payload: Payload) -> dict[str, object]:
    try:
        d = json.loads(payload)
    except (ValueError, UnicodeDecodeError) as exc:
        raise MessageError(f"not JSON: {exc}") from None
    if not isinstance(d, dict):
        raise MessageError("not a JSON object")
    return d


def _need(d: Mapping[str, object], key: str, typ: type[_T]) -> _T:
    v = d.get(key)
    if not isinstance(v, typ) or isinstance(v, bool) and typ is not bool:
        raise MessageError(f"field {key!r} missing or not {typ}")
    return v


def _number(d: Mapping[str, object], key: str) -> float:
    v = d.get(key)
    if not isinstance(v, int | float) or isinstance(v, bool):
        raise MessageError(f"field {key!r} missing or not {(int, float)}")
    return float(v)


def dumps(obj: object) -> bytes:
    return json.dumps(obj, sort_keys=True, separators=(",", ":")).encode()


@dataclass(frozen=True)
class OutboxMessage:
    hand: str
    seq: int
    kind: str  # "event" | "result" | "seat_check"
    body: JSONObject  # by its kind: ResultBody, EventBody (JudgeBody), SeatCheckBody
    t_wall: float  # when the table recorded it (latency from the table's result to the hall's standings)

    def encode(self) -> bytes:
        return dumps(asdict(self))

    @classmethod
    def decode(cls, payload: Payload) -> OutboxMessage:
        d = _load(payload)
        kind = _need(d, "kind", str)
        if kind not in KINDS:
            raise MessageError(f"unknown kind {kind!r}")
        seq = _need(d, "seq", int)
        if seq < 0:
            raise MessageError("negative seq")
        body = cast(JSONObject, _need(d, "body", dict))  # a JSON object, as parsed
        return cls(_need(d, "hand", str), seq, kind, body, _number(d, "t_wall"))

    def result_body(self) -> ResultBody:
        """The body of a ``result`` message."""
        return cast(ResultBody, self.body)


@dataclass(frozen=True)
class Ack:
    keys: tuple[tuple[str, int], ...]

    def encode(self) -> bytes:
        return dumps({"acks": [list(k) for k in self.keys]})

    @classmethod
    def decode(cls, payload: Payload) -> Ack:
        d = _load(payload)
        keys = _need(d, "acks", list)
        out = []
        for k in keys:
            if not (isinstance(k, list) and len(k) == 2 and isinstance(k[0], str) and isinstance(k[1], int)):
                raise MessageError(f"bad ack key {k!r}")
            out.append((k[0], k[1]))
        return cls(tuple(out))


@dataclass(frozen=True)
class Command:
    id: str
    kind: str
    body: CommandBody = field(default_factory=lambda: CommandBody())

    def encode(self) -> bytes:
        return dumps(asdict(self))

    @classmethod
    def decode(cls, payload: Payload) -> Command:
        d = _load(payload)
        kind = _need(d, "kind", str)
        if kind not in COMMANDS:
            raise MessageError(f"unknown command {kind!r}")
        body = d.get("body")
        return cls(_need(d, "id", str), kind, cast(CommandBody, body) if isinstance(body, dict) else {})


@dataclass(frozen=True)
class CommandAck:
    id: str
    kind: str
    t_wall: float

    def encode(self) -> bytes:
        return dumps(asdict(self))

    @classmethod
    def decode(cls, payload: Payload) -> CommandAck:
        d = _load(payload)
        return cls(_need(d, "id", str), _need(d, "kind", str), _number(d, "t_wall"))


def decode_status(payload: Payload) -> TableStatus:
    """A table's status, restricted to the known fields (anything else is dropped)."""
    d = _load(payload)
    return cast(TableStatus, {k: d[k] for k in STATUS_FIELDS if k in d})
