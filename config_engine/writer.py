"""A schema written back out as a commented TOML file: every key under its ``[section]`` with its help (and its
allowed values) above it."""
from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence

from config_engine.schema import Schema

_BARE = re.compile(r"[A-Za-z0-9_-]+")
_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}


def toml_string(s: str) -> str:
    """A TOML basic string (control characters escaped; the rest as it is)."""
    return '"' + "".join(_ESCAPES.get(c) or (f"\\u{ord(c):04x}" if ord(c) < 0x20 or ord(c) == 0x7F else c)
                         for c in s) + '"'


def toml_value(v: object) -> str:
    """A value as TOML writes it: true/false, numbers, strings, arrays, inline tables."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return ("nan" if math.isnan(v) else ("inf" if v > 0 else "-inf")) if not math.isfinite(v) else json.dumps(v)
    if isinstance(v, str):
        return toml_string(v)
    if isinstance(v, Mapping):
        if not v:
            return "{}"
        return "{ " + ", ".join(f"{toml_key(str(k))} = {toml_value(x)}" for k, x in v.items()) + " }"
    if isinstance(v, list | tuple):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    raise TypeError(f"{v!r} has no TOML form")


def toml_key(k: str) -> str:
    return k if _BARE.fullmatch(k) else toml_string(k)


def to_toml(schema: Schema, header: Sequence[str], values: Mapping[str, object] | None = None) -> str:
    """The file: ``header`` lines, then each section. ``values`` None: every key this build uses, set to its
    default (an example); else the keys given set to their values, the others commented out at their
    defaults (a written config that shows what else there is)."""
    lines = list(header)
    section = None
    for key, spec in schema.keys.items():
        if spec.unused:
            continue
        sec, name = key.split(".", 1)
        if sec != section:
            lines += ["", f"[{sec}]"]
            section = sec
        choices = spec.choices
        lines.append(f"# {spec.help}" + (f" ({' | '.join(map(str, choices))})" if choices else ""))
        given = values is None or key in values
        v = values[key] if values is not None and key in values else spec.default
        lines.append(("" if given else "# ") + f"{name} = {toml_value(v)}")
    return "\n".join(lines) + "\n"
