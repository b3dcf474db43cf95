"""Loading ``sichuan_vectors.json``: the shared spec copy (../shared/spec), else the copy in data/."""
from __future__ import annotations

import json
from functools import cache
from pathlib import Path

COPY = Path(__file__).resolve().parent / "data" / "sichuan_vectors.json"
SHARED = (
    Path(__file__).resolve().parents[3].parent / "shared" / "spec" / "sichuan_vectors.json",
    Path("/work/shared/spec/sichuan_vectors.json"),
)


def shared_path() -> Path | None:
    for p in SHARED:
        if p.exists():
            return p
    return None


@cache
def load() -> dict:
    p = shared_path() or COPY
    return json.loads(p.read_text(encoding="utf-8"))


def vectors(profile: str | None = None) -> list[dict]:
    return [v for v in load()["vectors"] if profile is None or v["profile"] == profile]
