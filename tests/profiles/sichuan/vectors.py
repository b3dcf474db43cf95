"""``tests/vectors/sichuan_vectors.json`` for the tests of this directory."""
from __future__ import annotations

from typing import Any

from tests import vectors as spec_vectors


def load() -> dict[str, Any]:
    doc: dict[str, Any] = spec_vectors.document("sichuan")
    return doc


def vectors(profile: str | None = None) -> list[dict[str, Any]]:
    return [v for v in load()["vectors"] if profile is None or v["profile"] == profile]
