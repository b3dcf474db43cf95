"""A config file as text: reading it (every way it can fail, as one line), its TOML syntax errors with their
line, and where each key is set (``FILE:LINE`` for the problems)."""
from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from pathlib import Path

_HEADER = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")
_KEYLINE = re.compile(r"""^\s*((?:"[^"]*"|'[^']*'|[A-Za-z0-9_-]+)(?:\s*\.\s*(?:"[^"]*"|'[^']*'|[A-Za-z0-9_-]+))*)\s*=""")


def read_text(path: Path) -> tuple[str, str | None]:
    """(the file's text, None) or ("", what stops it being read: one line naming the file)."""
    try:
        return path.read_text(encoding="utf-8"), None
    except FileNotFoundError:
        return "", f"{path}: no such file"
    except IsADirectoryError:
        return "", f"{path}: is a directory, not a config file"
    except PermissionError:
        return "", f"{path}: permission denied"
    except UnicodeDecodeError:
        return "", f"{path}: not a UTF-8 text file"
    except OSError as exc:
        return "", f"{path}: cannot read it: {exc.strerror or exc}"


def toml_error(path: Path, exc: tomllib.TOMLDecodeError) -> str:
    """``FILE:LINE: not valid TOML: what (column N)``."""
    m = re.search(r"\(at line (\d+), column (\d+)\)", str(exc))
    msg = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(exc)) if m else str(exc)
    where = f"{path}:{m.group(1)}" if m else str(path)
    return f"{where}: not valid TOML: {msg}" + (f" (column {m.group(2)})" if m else "")


def _dotted(text: str) -> str:
    parts = re.findall(r""""([^"]*)"|'([^']*)'|([A-Za-z0-9_-]+)""", text)
    return ".".join(a or b or c for a, b, c in parts)


def key_lines(text: str) -> dict[str, int]:
    """Where each key is set (1-based line), from the TOML text: ``[section]`` headers and ``key =`` lines
    (a key of a sub-table counts for the schema key above it: ``gpio.call_panels.0.hu`` -> its own line)."""
    lines: dict[str, int] = {}
    table = ""
    depth = 0  # inside a multi-line array or inline table: no key lines there
    for n, line in enumerate(text.splitlines(), 1):
        if depth == 0:
            m = _HEADER.match(line)
            if m:
                table = _dotted(m.group(1))
                lines.setdefault(table, n)
                continue
            m = _KEYLINE.match(line)
            if m:
                key = (table + "." if table else "") + _dotted(m.group(1))
                lines.setdefault(key, n)
        code = re.sub(r"""("[^"]*"|'[^']*')""", "", line.split("#", 1)[0])
        depth = max(0, depth + code.count("[") + code.count("{") - code.count("]") - code.count("}"))
    return lines


def line_of(key: str, lines: Mapping[str, int]) -> int | None:
    """The key's line; for a table key its first sub-key's; else its section's header."""
    if key in lines:
        return lines[key]
    inner = [n for k, n in lines.items() if k.startswith(key + ".")]
    if inner:
        return min(inner)
    k = key.rpartition(".")[0]
    while k:
        if k in lines:
            return lines[k]
        k = k.rpartition(".")[0]
    return None


def where(path: Path, key: str, lines: Mapping[str, int]) -> str:
    """``FILE:LINE`` of the key (``FILE`` when the file does not name it: a default)."""
    n = line_of(key, lines)
    return f"{path}:{n}" if n else f"{path}"
