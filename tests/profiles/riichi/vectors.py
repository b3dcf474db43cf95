"""Loading ``riichi_vectors.json`` (shared, read-only) for the tests of this directory."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

_CANDIDATES = (
    Path(__file__).resolve().parents[3].parent / "shared" / "spec" / "riichi_vectors.json",
    Path("/work/shared/spec/riichi_vectors.json"),
)
NON_CONTEXT = ("id", "profile", "source", "kind", "hand", "expected", "note")


@cache
def all_vectors() -> tuple[dict[str, Any], ...]:
    for p in _CANDIDATES:
        if p.exists():
            return tuple(json.loads(p.read_text())["vectors"])
    raise FileNotFoundError("riichi_vectors.json not found next to the repository (../shared/spec)")


def of_kind(kind: str) -> list[dict[str, Any]]:
    return [v for v in all_vectors() if v["kind"] == kind]


def by_id(vid: str) -> dict[str, Any]:
    return next(v for v in all_vectors() if v["id"] == vid)


def context_of(v: dict[str, Any]) -> dict[str, Any]:
    return {k: val for k, val in v.items() if k not in NON_CONTEXT}
