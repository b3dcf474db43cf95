"""A service's schema read from its config class, and what the engine does with it: the defaults, TOML
flattened into dotted keys, every problem at once (type, allowed values, the key's own check, unknown keys
with the closest known one, retired keys with what replaced them, checks across keys) and a file read into
values with the line of each key."""
from __future__ import annotations

import dataclasses
import difflib
import tomllib
import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from config_engine.keys import META, Key, KeyInfo, freeze, is_of, thaw, toml_types, type_name
from config_engine.source import key_lines, read_text, toml_error, where

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

#: a check across keys: (the values, the keys the file or the overrides set) -> [(key, what is wrong)]
CrossCheck = Callable[[Mapping[str, object], set[str]], list[tuple[str, str]]]


class ConfigError(ValueError):
    """Every problem of a configuration, one line each (``problems``)."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("; ".join(problems))


@dataclass(frozen=True)
class Reading:
    """A file read against a schema: its values (the defaults merged) and lines, or its problems."""

    values: dict[str, object]
    lines: dict[str, int]
    problems: list[str]


class Schema:
    """The keys of a config class: its fields declared with ``init=False`` are the sections (``[table]`` ->
    ``table: TableSection``), each a frozen dataclass whose fields are :func:`config_engine.key` keys."""

    def __init__(self, root: type[DataclassInstance], *, retired: Mapping[str, str] | None = None,
                 cross_checks: Sequence[CrossCheck] = (), error: type[ConfigError] = ConfigError):
        self.retired: Mapping[str, str] = {} if retired is None else retired  # a gone key -> what replaced it
        self.cross_checks = tuple(cross_checks)
        self.error = error
        self.sections: dict[str, type[DataclassInstance]] = {}
        self.keys: dict[str, Key] = {}
        hints = typing.get_type_hints(root)
        for f in dataclasses.fields(root):
            if not f.init:
                self.sections[f.name] = hints[f.name]
                self.keys.update(_keys_of(f.name, hints[f.name]))

    def default_values(self) -> dict[str, object]:
        return {k: spec.default for k, spec in self.keys.items()}

    def sections_of(self, values: Mapping[str, object]) -> dict[str, object]:
        """One section object per section (``"serial"`` -> ``SerialSection(port=..., baud=...)``)."""
        by_section: dict[str, dict[str, object]] = {sec: {} for sec in self.sections}
        for k, v in values.items():
            sec, name = k.split(".", 1)
            by_section[sec][name] = freeze(v)
        return {sec: cls(**by_section[sec]) for sec, cls in self.sections.items()}

    def flatten(self, data: Mapping[str, Any], prefix: str = "") -> dict[str, object]:
        """Decoded TOML as dotted keys (``{"gpio": {"bounce_ms": 20}}`` -> ``{"gpio.bounce_ms": 20}``); a
        table that is a key's value (``gpio.call_panels``) stays whole."""
        out: dict[str, object] = {}
        for k, v in data.items():
            key = f"{prefix}{k}"
            if isinstance(v, dict) and key not in self.keys and key not in self.retired:
                out.update(self.flatten(v, key + "."))
            else:
                out[key] = v
        return out

    def problems(self, values: Mapping[str, object], given: set[str]) -> list[tuple[str, str]]:
        """Every problem as (key, what is wrong); ``given``: the keys a file or an override set (a key's own
        check runs on those and on any value that is not the default)."""
        problems: list[tuple[str, str]] = []
        for key, v in values.items():
            why = self._problem(key, v, key in given)
            if why:
                problems.append((key, why))
        bad = {k for k, _ in problems}  # checks across keys see the keys that passed (the rest as defaults)
        sound = {k: (self.keys[k].default if k in bad else v) for k, v in values.items() if k in self.keys}
        for cross in self.cross_checks:
            problems += cross(sound, given - bad)
        return problems

    def _problem(self, key: str, v: object, given: bool) -> str | None:
        spec = self.keys.get(key)
        if spec is None:
            if key in self.retired:
                return self.retired[key]
            close = difflib.get_close_matches(key, self.keys, n=1)
            return "unknown key" + (f" (did you mean {close[0]}?)" if close else "")
        if not is_of(v, spec.types):
            return f"{v!r} is not a {type_name(spec.types)} — {spec.help}"
        if spec.unused and given and v != spec.default:
            return f"not used: {spec.unused}; remove it"
        choices = spec.choices
        if choices and v not in choices:
            return f"{v!r} is not one of {', '.join(map(str, choices))} — {spec.help}"
        if spec.check is not None:
            return spec.check(v) if given or v != spec.default else None
        if spec.items and not _items_are(v, spec.items):
            what = "item" if isinstance(v, list) else "value"
            return f"{v!r}: every {what} must be a {type_name(spec.items)} — {spec.help}"
        return None

    def validate(self, values: Mapping[str, object], given: set[str] | None = None) -> list[str]:
        """Every problem as ``key: what is wrong`` (``given``: the keys a file or an override set; default all)."""
        return [f"{k}: {why}" for k, why in self.problems(values, set(values) if given is None else given)]

    def read(self, path: Path) -> Reading:
        """The file's values over the defaults, or every problem — one line each, naming the file, the line
        and the key."""
        text, unreadable = read_text(path)
        if unreadable:
            return Reading({}, {}, [unreadable])
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            return Reading({}, {}, [toml_error(path, exc)])
        lines = key_lines(text)
        flat = self.flatten(data)
        values = self.default_values() | flat
        problems = [f"{where(path, key, lines)}: {key}: {why}" for key, why in self.problems(values, set(flat))]
        return Reading(values, lines, problems)


def _keys_of(section: str, cls: type[DataclassInstance]) -> dict[str, Key]:
    hints = typing.get_type_hints(cls)
    out: dict[str, Key] = {}
    for f in dataclasses.fields(cls):
        info = f.metadata.get(META)
        if not isinstance(info, KeyInfo):
            raise TypeError(f"{cls.__name__}.{f.name}: declare it with config_engine.key(...)")
        default = f.default if f.default_factory is dataclasses.MISSING else f.default_factory()
        types, items = toml_types(hints[f.name])
        out[f"{section}.{f.name}"] = Key(types, thaw(default), info.help, info.choices, info.check, info.unused, items)
    return out


def _items_are(v: object, types: tuple[type, ...]) -> bool:
    xs = v.values() if isinstance(v, dict) else v if isinstance(v, list) else ()
    return all(is_of(x, types) for x in xs)
