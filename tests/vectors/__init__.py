"""The spec vectors, the project's own test data (copied from the rule specifications; never skipped).

``<name>_vectors.json`` for ``name`` in :data:`NAMES`. Some files are an object with ``vectors`` (and
``meta``), one is a bare list; :func:`vectors` gives the list either way, :func:`document` the file.
"""
from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
NAMES = ("mcr", "red", "riichi", "sichuan")


def path(name: str) -> Path:
    return HERE / f"{name}_vectors.json"


@cache
def document(name: str) -> Any:
    """The whole JSON document of ``<name>_vectors.json``."""
    return json.loads(path(name).read_text(encoding="utf-8"))


def vectors(name: str) -> tuple[dict[str, Any], ...]:
    d = document(name)
    return tuple(d["vectors"] if isinstance(d, dict) else d)


def by_id(name: str, vid: str) -> dict[str, Any]:
    return next(v for v in vectors(name) if v.get("id") == vid)
