"""``tests/vectors/riichi_vectors.json`` for the tests of this directory."""

from __future__ import annotations

from typing import Any

from tests import vectors as spec_vectors

NON_CONTEXT = ("id", "profile", "source", "kind", "hand", "expected", "note")


def all_vectors() -> tuple[dict[str, Any], ...]:
    return spec_vectors.vectors("riichi")


def of_kind(kind: str) -> list[dict[str, Any]]:
    return [v for v in all_vectors() if v["kind"] == kind]


def by_id(vid: str) -> dict[str, Any]:
    return next(v for v in all_vectors() if v["id"] == vid)


def context_of(v: dict[str, Any]) -> dict[str, Any]:
    return {k: val for k, val in v.items() if k not in NON_CONTEXT}
