"""000's worked examples (§2.7.3 Examples 1-9, §2.7.4 Examples 10-17) on hands constructed here.

The seed lost its tile images (AMB-01): only the fans and verdicts survive. Each example gets one hand
built to match what the text says (declared sets or not, the fans named); the scorer must find exactly
the stated fans, verdict or maximum. The constructions are ours, not the seed's.
"""
from __future__ import annotations

import pytest

from rules.notation import parse_hand
from rules.profiles import registry
from tests.profiles.sichuan.vectors import vectors

MPL = registry.get("sichuan-mpl2025")
WMSG = registry.get("sichuan-wmsg")

# example number -> (hand, missing suit)
WINS = {
    1: ("[2222m] [(9999p)] 345m 11p 78p + 6p", "s"),  # two kongs declared
    2: ("[555p] 34p 111m 123m 99m + 5p", "s"),  # quads of 5p (declared pung + 1) and 1m (concealed)
    3: ("2222p3355p77m88m9m + 9m", "s"),  # concealed seven pairs with four 2p
    4: ("[222m] [444m] 666p 777p 8p + 8p", "s"),
    5: ("[1111m] [333m] [555p] [777p] 9p + 9p", "s"),
    6: ("[(5555s)] 123s 678s 99s 34s + 2s", "m"),
    7: ("[222s] [444s] 666s 777s 8s + 8s", "m"),
    8: ("11m33m55m77m99m22m4m + 4m", "p"),
    9: ("11m33m55m22p44p66p8p + 8p", "s"),
}
TENPAI = {
    10: ("[222m] [444p] 567m 12m 99p", "s"),
    11: ("[222m] [444p] 567m 13m 79p", "s"),
    12: ("[111m] 5555p 234m 678m", "s"),  # the only completing kind is held four times concealed
    13: ("[555p] 5p 123m 456m 789m", "s"),
    14: ("[222m] [444m] 666p 88p 99p", "s"),
    15: ("[333p] 123p 456p 55p 78p", "m"),
    16: ("[555p] 5p 123m 456m 789m", "s"),  # waits on the "fifth" 5p; Quad once
    17: ("[111m] [555p] 123m 567p 9p", "s"),
}


def example(n: int) -> dict:
    for v in vectors("sichuan-mpl2025"):
        if v["id"].endswith(f"example-{n}"):
            return v
    raise KeyError(n)


@pytest.mark.parametrize("n", sorted(WINS))
def test_win_examples(n: int) -> None:
    hand, miss = WINS[n]
    exp = example(n)["expected"]
    r = MPL.score_checked(parse_hand(hand), MPL.context({"missing_suit": miss})).to_json()
    assert r["valid"], r
    assert {f["id"]: f["value"] for f in r["fans"]} == dict(exp["fans"])
    assert r["total_fan"] == exp["total_fan"] and r["base_points"] == exp["base_points"]
    # WMSG reads the same tiles with its own table: kongs are quads, and the limit is 3 fans
    w = WMSG.score_checked(parse_hand(hand), WMSG.context({"missing_suit": miss})).to_json()
    mpl_fans = dict(exp["fans"])
    quads = mpl_fans.pop("kong", 0) + mpl_fans.pop("quad", 0)
    if quads:
        mpl_fans["quad"] = quads
    assert {f["id"]: f["value"] for f in w["fans"]} == mpl_fans
    assert w["base_points"] == 1 << min(exp["total_fan"], 3)


@pytest.mark.parametrize("n", sorted(TENPAI))
def test_tenpai_examples(n: int) -> None:
    hand, miss = TENPAI[n]
    exp = example(n)["expected"]
    info = MPL.tenpai(parse_hand(hand), miss)
    assert info.tenpai is exp["tenpai"]
    if "max_fans" in exp:
        assert {f: v for f, v, _ in info.max_fans} == dict(exp["max_fans"])
        assert info.max_total_fan == exp["max_total_fan"]
        assert info.base_points == exp["payment_from_each_non_tenpai_player"]
