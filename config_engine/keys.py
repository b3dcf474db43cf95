"""One key of a configuration: how a schema declares it (:func:`key`, a dataclass field) and what the engine
knows of it (:class:`Key`: its TOML types, default, help, allowed values, check)."""
from __future__ import annotations

import types
import typing
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TypeVar

T = TypeVar("T")

#: a key's own check: the value (as decoded from TOML, of the key's type) -> what is wrong with it, or None
Check = Callable[[object], str | None]
#: the allowed values, or where to ask for them when a value is checked (a registry that may grow)
Choices = tuple[object, ...] | Callable[[], Iterable[object]]

#: the dataclass field metadata entry that holds a key's declaration
META = "config_engine.key"


@dataclass(frozen=True)
class KeyInfo:
    """What :func:`key` records on a field, besides its type (the annotation) and its default."""

    help: str
    choices: Choices = ()
    check: Check | None = None
    unused: str = ""  # why this build does not use the key yet: a file that sets it is refused, with this


def key(default: T, help: str, *, choices: Choices = (), check: Check | None = None, unused: str = "") -> T:
    """A key of a section dataclass: ``baud: int = key(115200, "serial speed", choices=(9600, 115200))``.

    The field's annotation is the key's type (``str``, ``int``, ``float`` (an integer is accepted too),
    ``bool``, a union such as ``int | str``, ``tuple[X, ...]`` for a TOML array, ``Mapping[str, X]`` for a
    TOML table); ``default`` is the value in the section (a tuple for an array, a mapping for a table)."""
    meta = {META: KeyInfo(help, choices, check, unused)}
    if type(default).__hash__ is None:  # a mapping: dataclasses refuses it as a plain default
        return field(default_factory=lambda: default, metadata=meta)
    return field(default=default, metadata=meta)


@dataclass(frozen=True)
class Key:
    """A key as the engine checks it: ``types`` are the TOML value types it takes (``list`` for an array,
    ``dict`` for a table), ``items`` the types of an array's items or a table's values (empty: not checked
    by the engine), ``default`` the value as TOML gives it (lists and dicts)."""

    types: tuple[type, ...]
    default: object
    help: str
    choices_from: Choices = ()
    check: Check | None = None
    unused: str = ""
    items: tuple[type, ...] = ()

    @property
    def choices(self) -> tuple[object, ...]:
        """The allowed values (empty: any value of the type)."""
        c = self.choices_from
        return tuple(c()) if callable(c) else c


def toml_types(hint: object) -> tuple[tuple[type, ...], tuple[type, ...]]:
    """(the TOML types a field of this annotation takes, the types of its items) — ``float`` takes an
    integer too, ``tuple[X, ...]`` is an array, ``Mapping[str, X]`` a table."""
    origin = typing.get_origin(hint)
    if origin is types.UnionType or origin is typing.Union:
        return tuple(t for arg in typing.get_args(hint) for t in toml_types(arg)[0]), ()
    if hint is float:
        return (int, float), ()
    if hint in (str, int, bool):
        assert isinstance(hint, type)
        return (hint,), ()
    args = typing.get_args(hint)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return (list,), toml_types(args[0])[0]
    if origin is Mapping and len(args) == 2:
        return (dict,), toml_types(args[1])[0]
    raise TypeError(f"a configuration key cannot be of type {hint!r}")


TYPE_NAMES: dict[type, str] = {int: "integer", float: "number", str: "string", bool: "true/false", list: "list",
                               dict: "table"}


def type_name(ts: tuple[type, ...]) -> str:
    """``(int, float)`` -> "integer or number" (the words the problems use)."""
    return " or ".join(TYPE_NAMES.get(t, t.__name__) for t in ts)


def is_of(v: object, ts: tuple[type, ...]) -> bool:
    """``v`` is one of the types ``ts`` (true/false is not a number unless ``bool`` is one of them)."""
    return isinstance(v, ts) and not (isinstance(v, bool) and bool not in ts)


def thaw(v: object) -> object:
    """A section's value as TOML gives it: tuples as lists, mappings as dicts."""
    if isinstance(v, tuple | list):
        return [thaw(x) for x in v]
    if isinstance(v, Mapping):
        return {str(k): thaw(x) for k, x in v.items()}
    return v


def freeze(v: object) -> object:
    """A TOML value as a section holds it: lists as tuples, tables as read-only mappings."""
    if isinstance(v, list | tuple):
        return tuple(freeze(x) for x in v)
    if isinstance(v, Mapping):
        return types.MappingProxyType({k: freeze(x) for k, x in v.items()})
    return v
