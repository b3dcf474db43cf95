"""Every ``hand_score`` vector of riichi_vectors.json, scored through the profile."""

from __future__ import annotations

import pytest

from rules.notation import parse_hand
from rules.profiles import registry
from tests.profiles.riichi.vectors import context_of, of_kind

HAND_VECTORS = of_kind("hand_score")


def test_all_hand_vectors_are_collected():
    assert len(HAND_VECTORS) == 86


@pytest.mark.parametrize("v", HAND_VECTORS, ids=[v["id"] for v in HAND_VECTORS])
def test_hand_vector(v):
    prof = registry.get("riichi-ema2016")
    res = prof.score_checked(parse_hand(v["hand"]), prof.context(context_of(v)))
    exp = v["expected"]
    assert res.valid, res.reason
    got = res.to_json()
    # yaku order in the vectors is not canonical (compare as multisets)
    assert sorted(map(tuple, got["yaku"])) == sorted(map(tuple, exp["yaku"]))
    for key in ("dora", "ura_dora", "han", "fu", "limit"):
        assert got[key] == exp[key], key
    assert got["points"] == exp["points"]
    assert got["total_fan"] == exp["han"]
