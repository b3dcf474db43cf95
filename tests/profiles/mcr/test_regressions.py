"""Hands that once disagreed with PyMahjongGB (regressions.jsonl), kept with both answers.

Each line stores PyMahjongGB's answer and the seed-default answer, and a note saying why they differ (or
what was fixed). The Green Book options must reproduce PyMahjongGB's answer (or tie with it); the seed
defaults must keep the stored seed answer.
"""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from rules.notation import parse_hand
from rules.profiles.mcr.options import GREEN_BOOK
from rules.profiles.mcr.profile import MCR
from tests.needs import need
from tests.profiles.mcr.gbref import MahjongFanCalculator, equally_best, gb_fans, our_fans

CASES = [json.loads(line) for line in (Path(__file__).parent / "regressions.jsonl").read_text().splitlines()
         if line.strip()]
IDS = [c["hand"] for c in CASES]


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_green_book_options_give_pymahjonggb_answer(case):
    h = parse_hand(case["hand"])
    p = MCR(GREEN_BOOK)
    fans, flowers, total = our_fans(p, h, case["context"])
    want = Counter(case["pymahjonggb"]["fans"])
    assert total == case["pymahjonggb"]["total_fan"]
    assert fans == want or want in equally_best(p, h, case["context"])


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_seed_defaults_keep_their_answer(case):
    h = parse_hand(case["hand"])
    fans, flowers, total = our_fans(MCR(), h, case["context"])
    assert dict(fans) == case["seed"]["fans"]
    assert total == case["seed"]["total_fan"]


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_stored_reference_is_pymahjonggb(case):
    if MahjongFanCalculator is None:
        need("pymahjonggb", "PyMahjongGB (a dev dependency: pip install -e '.[dev]') is not installed")
    g, _, total = gb_fans(parse_hand(case["hand"]), case["context"])
    assert dict(g) == case["pymahjonggb"]["fans"] and total == case["pymahjonggb"]["total_fan"]
