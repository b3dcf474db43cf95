"""The JSON messages between a table and the hall, validated when parsed (garbage is refused, never half-used).

Table → hall (``up/outbox``): :class:`OutboxMessage` — one result or event, identified by
``(table, hand, seq)``: the hall ingests each identity once, however often it arrives.
Hall → table (``down/ack``): :class:`Ack` — the identities the hall has committed to its database.
Hall → table (``down/cmd``): :class:`Command` — session start, warning, session end, seating; the table
answers each with :class:`CommandAck` (``up/cmd_ack``) once it has recorded it.
Table → hall (``up/status``): fleet health (:data:`STATUS_FIELDS`), retained.
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any

KINDS = ("event", "result", "seat_check")  # seat_check: controller/hall_link/seat_check.py
COMMANDS = ("session_start", "warning", "session_end", "seating", "message")
STATUS_FIELDS = ("online", "version", "profile", "state", "hand_id", "hands_done", "fault", "judge_called",
                 "camera_fps", "cpu_temp_c", "throttled", "disk_free_mb", "outbox_pending", "session", "t_wall")


class MessageError(ValueError):
    pass


def _load(payload: bytes | str) -> dict[str, Any]:
    try:
        d = json.loads(payload)
    except (ValueError, UnicodeDecodeError) as exc:
        raise MessageError(f"not JSON: {exc}") from None
    if not isinstance(d, dict):
        raise MessageError("not a JSON object")
    return d


def _need(d: dict[str, Any], key: str, typ: type | tuple[type, ...]) -> Any:
    v = d.get(key)
    if not isinstance(v, typ) or isinstance(v, bool) and bool not in (typ if isinstance(typ, tuple) else (typ,)):
        raise MessageError(f"field {key!r} missing or not {typ}")
    return v


def dumps(obj: Any) -> bytes:
    return json.dumps(obj, sort_keys=True, separators=(",", ":")).encode()


class _Encoded:
    def encode(self) -> bytes:
        return dumps(asdict(self))  # type: ignore[call-overload]


@dataclass(frozen=True)
class OutboxMessage(_Encoded):
    hand: str
    seq: int
    kind: str  # "event" | "result"
    body: dict[str, Any]
    t_wall: float  # when the table recorded it (latency from the table's result to the hall's standings)

    @classmethod
    def decode(cls, payload: bytes | str) -> OutboxMessage:
        d = _load(payload)
        kind = _need(d, "kind", str)
        if kind not in KINDS:
            raise MessageError(f"unknown kind {kind!r}")
        seq = _need(d, "seq", int)
        if seq < 0:
            raise MessageError("negative seq")
        return cls(_need(d, "hand", str), seq, kind, _need(d, "body", dict), float(_need(d, "t_wall", (int, float))))


@dataclass(frozen=True)
class Ack:
    keys: tuple[tuple[str, int], ...]

    def encode(self) -> bytes:
        return dumps({"acks": [list(k) for k in self.keys]})

    @classmethod
    def decode(cls, payload: bytes | str) -> Ack:
        d = _load(payload)
        keys = _need(d, "acks", list)
        out = []
        for k in keys:
            if not (isinstance(k, list) and len(k) == 2 and isinstance(k[0], str) and isinstance(k[1], int)):
                raise MessageError(f"bad ack key {k!r}")
            out.append((k[0], k[1]))
        return cls(tuple(out))


@dataclass(frozen=True)
class Command(_Encoded):
    id: str
    kind: str
    body: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def decode(cls, payload: bytes | str) -> Command:
        d = _load(payload)
        kind = _need(d, "kind", str)
        if kind not in COMMANDS:
            raise MessageError(f"unknown command {kind!r}")
        return cls(_need(d, "id", str), kind, d.get("body") if isinstance(d.get("body"), dict) else {})


@dataclass(frozen=True)
class CommandAck(_Encoded):
    id: str
    kind: str
    t_wall: float

    @classmethod
    def decode(cls, payload: bytes | str) -> CommandAck:
        d = _load(payload)
        return cls(_need(d, "id", str), _need(d, "kind", str), float(_need(d, "t_wall", (int, float))))


def decode_status(payload: bytes | str) -> dict[str, Any]:
    """A table's status, restricted to the known fields (anything else is dropped)."""
    d = _load(payload)
    return {k: d[k] for k in STATUS_FIELDS if k in d}
