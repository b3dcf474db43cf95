"""Loading ``red_vectors.json`` (shared, read-only) for the tests of this directory."""
from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

_CANDIDATES = (
    Path(__file__).resolve().parents[3].parent / "shared" / "spec" / "red_vectors.json",
    Path("/work/shared/spec/red_vectors.json"),
)
# the context fields a score vector may carry (spec §13); anything else is metadata
SCORE_CONTEXT = ("self_drawn", "players", "dealer", "winner", "discarder", "river_bottom", "options")


@cache
def all_vectors() -> tuple[dict[str, Any], ...]:
    for p in _CANDIDATES:
        if p.exists():
            data = json.loads(p.read_text())
            return tuple(data["vectors"] if isinstance(data, dict) else data)
    raise FileNotFoundError("red_vectors.json not found next to the repository (../shared/spec)")


def of_kind(*kinds: str) -> list[dict[str, Any]]:
    return [v for v in all_vectors() if v["kind"] in kinds]


def by_id(vid: str) -> dict[str, Any]:
    return next(v for v in all_vectors() if v["id"] == vid)


def score_context(v: dict[str, Any]) -> dict[str, Any]:
    return {k: v[k] for k in SCORE_CONTEXT if k in v and v[k] is not None}
