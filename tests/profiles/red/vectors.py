"""``tests/vectors/red_vectors.json`` for the tests of this directory."""
from __future__ import annotations

from typing import Any

from tests import vectors as spec_vectors

# the context fields a score vector may carry (spec §13); anything else is metadata
SCORE_CONTEXT = ("self_drawn", "players", "dealer", "winner", "discarder", "river_bottom", "options")


def all_vectors() -> tuple[dict[str, Any], ...]:
    return spec_vectors.vectors("red")


def of_kind(*kinds: str) -> list[dict[str, Any]]:
    return [v for v in all_vectors() if v["kind"] in kinds]


def by_id(vid: str) -> dict[str, Any]:
    return next(v for v in all_vectors() if v["id"] == vid)


def score_context(v: dict[str, Any]) -> dict[str, Any]:
    return {k: v[k] for k in SCORE_CONTEXT if k in v and v[k] is not None}
