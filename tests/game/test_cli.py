"""``mahjong-table deal`` and ``mahjong-table play``."""
from __future__ import annotations

import json

from controller.cli import main


def test_deal_sichuan_vector_example(capsys):
    rc = main(["deal", "--profile", "sichuan-wmsg", "--dice", "4,2"])
    out = capsys.readouterr().out
    assert rc == 0
    assert "wall of S(seat 1), after 2 stack(s)" in out  # 002 §1.3 example
    assert "tiles left to draw: 55" in out


def test_deal_json_with_seed_is_reproducible(capsys):
    main(["deal", "--profile", "riichi-ema2016", "--dice", "3,3", "--seed", "7", "--json"])
    a = json.loads(capsys.readouterr().out)
    main(["deal", "--profile", "riichi-ema2016", "--dice", "3,3", "--seed", "7", "--json"])
    b = json.loads(capsys.readouterr().out)
    assert a == b and len(a["wall"]) == 136 and a["remaining"] == 69
    assert len(a["hands"]["0"]) == 14 and a["break"]["side"] == 1 and a["break"]["count"] == 6


def test_deal_two_throws_and_errors(capsys):
    assert main(["deal", "--profile", "mcr", "--dice", "4,4,2,3"]) == 0
    out = capsys.readouterr().out
    assert "throw 2: N(seat 3) throws 2+3 = 5" in out
    assert main(["deal", "--profile", "mcr", "--dice", "4,4"]) == 2
    assert "2 time(s)" in capsys.readouterr().err
    assert main(["deal", "--profile", "nope", "--dice", "4,4"]) == 2


def test_play_prints_log_and_settlement(capsys):
    rc = main(["play", "--profile", "basic", "--seed", "3", "--hands", "2"])
    out = capsys.readouterr().out
    assert rc == 0
    assert "hand 0 starts" in out and "settlement:" in out and "totals:" in out
    rc = main(["play", "--seed", "3", "--json"])
    lines = capsys.readouterr().out.strip().splitlines()
    evs = [json.loads(x) for x in lines]
    assert evs[0]["type"] == "hand_started" and evs[-1]["type"] == "hand_ended"
