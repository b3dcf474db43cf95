"""What a scorer reads and answers: the context fields of a win (:class:`ContextField`, values checked and
converted once) and the result of scoring a hand (:class:`ScoreResult`, the object of docs/score-json.md).

Shared by the profiles (``rules.profiles``), the hand machine (``rules.game``: a win's judgement is a
``ScoreResult``) and the CLI; it depends on nothing of either, so neither imports the other for it.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from rules.events import JSONObject, JSONValue, as_int
from rules.tiles import Tile

# what a context field holds once coerced (``ContextField.coerce``): a flag, a number or a seat, a string,
# a tile, tiles, seats, a JSON object of agreed options, or nothing
ContextValue = bool | int | str | Tile | tuple[Tile, ...] | tuple[int, ...] | JSONObject | None
Context = Mapping[str, ContextValue]


class ContextError(ValueError):
    """A context field with a bad value, or an unknown field."""


@dataclass(frozen=True)
class ContextField:
    """One context field: ``kind`` is bool, int, tile, tiles, suit, seat or str."""

    name: str
    kind: str
    default: ContextValue = None
    help: str = ""
    choices: tuple[ContextValue, ...] = ()

    def coerce(self, value: object) -> ContextValue:
        k = self.kind
        bad = ContextError(f"field {self.name!r}: {value!r} is not a valid {k}")
        if value is None:
            return None
        if k == "bool":
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.lower() in ("true", "false", "1", "0", "yes", "no"):
                return value.lower() in ("true", "1", "yes")
            raise bad
        if k in ("int", "seat"):
            if isinstance(value, bool) or not isinstance(value, int | str):
                raise bad
            try:
                v = int(value)
            except ValueError:
                raise bad from None
            if k == "seat" and not 0 <= v <= 3:
                raise ContextError(f"field {self.name!r}: seat must be 0..3, not {v}")
            return v
        if k == "tile":
            try:
                return Tile.parse(str(value))
            except ValueError:
                raise bad from None
        if k == "tiles":
            if isinstance(value, str):
                value = value.replace(",", " ").split()
            if not isinstance(value, list | tuple):
                raise bad
            try:
                return tuple(Tile.parse(str(v)) for v in value)
            except ValueError:
                raise bad from None
        if k == "suit":
            if value not in ("m", "p", "s"):
                raise ContextError(f"field {self.name!r}: suit must be m, p or s, not {value!r}")
            return value
        if self.choices and value not in self.choices:
            raise ContextError(f"field {self.name!r}: {value!r} is not one of {', '.join(map(str, self.choices))}")
        return value  # type: ignore[return-value]  # a str field (or a profile's own kind, coerced by it)


# Fields whose meaning is shared by every profile that uses them (docs/notation.md "Context fields").
SELF_DRAWN = ContextField("self_drawn", "bool", False, "the winning tile was self-drawn")
SEAT_WIND = ContextField("seat_wind", "tile", None, "the winner's seat wind (1z-4z)")
ROUND_WIND = ContextField("round_wind", "tile", None, "the prevalent (round) wind (1z-4z)")
LAST_TILE = ContextField("last_tile", "bool", False, "won on the last tile of the wall")
KONG_REPLACEMENT = ContextField("kong_replacement", "bool", False, "won on a kong replacement tile")
ROBBING_KONG = ContextField("robbing_kong", "bool", False, "won by robbing a kong")


@dataclass
class FanEntry:
    name: str
    value: int
    count: int = 1
    extra: Mapping[str, JSONValue] = field(default_factory=dict)  # profile keys, e.g. {"no": 3} or {"id": "kong"}

    def to_json(self) -> JSONObject:
        return {"name": self.name, "value": self.value, "count": self.count, **self.extra}


@dataclass
class ScoreResult:
    """The answer to ``score``; ``to_json`` gives the object documented in docs/score-json.md."""

    valid: bool
    reason: str | None = None
    fans: list[FanEntry] = field(default_factory=list)
    total_fan: int = 0
    points: Mapping[str, JSONValue] = field(default_factory=lambda: {"total": 0})
    extra: Mapping[str, JSONValue] = field(default_factory=dict)  # profile fields named as in its vectors

    def point(self, key: str, default: int = 0) -> int:
        """``points[key]`` as a number (``default`` when absent)."""
        return as_int(self.points.get(key, default))

    def int_points(self) -> dict[str, int]:
        """The numeric entries of ``points`` (what settlements read)."""
        return {k: v for k, v in self.points.items() if isinstance(v, int) and not isinstance(v, bool)}

    def to_json(self) -> JSONObject:
        d: JSONObject = {"ok": True, "valid": self.valid}
        if not self.valid:
            d["reason"] = self.reason or "not a winning hand"
        d["fans"] = [f.to_json() for f in self.fans]
        d["total_fan"] = self.total_fan
        d.update(self.extra)
        d["points"] = dict(self.points)
        return d


def invalid(reason: str, **extra: JSONValue) -> ScoreResult:
    return ScoreResult(valid=False, reason=reason, extra=dict(extra))



# --- typed reads of a coerced context (what ``ContextField.coerce`` guarantees per kind) ------------------

def ctx_flag(ctx: Mapping[str, ContextValue], name: str) -> bool:
    return bool(ctx.get(name))


def ctx_int(ctx: Mapping[str, ContextValue], name: str) -> int | None:
    """An ``int`` or ``seat`` field (None when absent)."""
    v = ctx.get(name)
    return None if v is None else as_int(v)


def ctx_tile(ctx: Mapping[str, ContextValue], name: str) -> Tile | None:
    v = ctx.get(name)
    if v is None or isinstance(v, Tile):
        return v
    raise TypeError(f"context field {name!r} is not a tile: {v!r}")


def ctx_tiles(ctx: Mapping[str, ContextValue], name: str) -> tuple[Tile, ...]:
    v = ctx.get(name) or ()
    if isinstance(v, tuple) and all(isinstance(t, Tile) for t in v):
        return tuple(Tile(t) for t in v)
    raise TypeError(f"context field {name!r} is not a list of tiles: {v!r}")


def ctx_seats(ctx: Mapping[str, ContextValue], name: str) -> tuple[int, ...] | None:
    v = ctx.get(name)
    if v is None:
        return None
    if isinstance(v, tuple):
        return tuple(as_int(x) for x in v)
    raise TypeError(f"context field {name!r} is not a list of seats: {v!r}")


def ctx_str(ctx: Mapping[str, ContextValue], name: str) -> str | None:
    v = ctx.get(name)
    return v if v is None or isinstance(v, str) else str(v)


__all__ = [
    "Context", "ContextError", "ContextField", "ContextValue", "FanEntry", "JSONObject", "JSONValue", "KONG_REPLACEMENT",
    "LAST_TILE", "ROBBING_KONG", "ROUND_WIND", "SEAT_WIND", "SELF_DRAWN", "ScoreResult", "as_int", "ctx_flag", "ctx_int",
    "ctx_seats", "ctx_str", "ctx_tile", "ctx_tiles", "invalid",
]
