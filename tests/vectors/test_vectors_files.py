"""The vector files are part of the repository and well formed: every test that reads them runs."""
from __future__ import annotations

import pytest

from rules.profiles import registry
from tests.vectors import NAMES, document, path, vectors

COUNTS = {"mcr": 127, "red": 126, "riichi": 120, "sichuan": 105}


@pytest.mark.parametrize("name", NAMES)
def test_file_is_in_the_repository(name):
    assert path(name).is_file()
    assert len(vectors(name)) == COUNTS[name]


@pytest.mark.parametrize("name", NAMES)
def test_ids_are_unique_and_profiles_known(name):
    ids = [v["id"] for v in vectors(name)]
    assert len(ids) == len(set(ids))
    for v in vectors(name):
        registry.get(v.get("profile") or name)  # an unknown profile raises


def test_mcr_meta_counts_the_vectors():
    counts = document("mcr")["meta"]["counts"]
    vs = vectors("mcr")
    assert counts["vectors"] == len(vs)
    for key in ("hand", "hand_tiles", "fragment"):
        assert counts[key] == sum(1 for v in vs if key in v), key
    assert counts["payment"] == sum(1 for v in vs if v.get("kind") == "payment")
