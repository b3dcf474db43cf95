"""``mahjong-table score --profile red`` through the CLI entry point: flags, --json, --jsonl."""
from __future__ import annotations

import io
import json

from controller.cli import main


def run(capsys, argv, stdin: str | None = None, monkeypatch=None):
    if stdin is not None:
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    rc = main(argv)
    return rc, capsys.readouterr()


def test_readable_with_context_flags(capsys):
    rc, out = run(capsys, ["score", "--profile", "red", "234s j [123m] [555p] [777z] + j", "--self-drawn",
                           "--players", "3", "--winner", "1"])
    assert rc == 0
    assert "Mixed Double Chow" in out.out and "Honour Pung" in out.out
    assert "12" in out.out  # two losers pay 6 each


def test_json_with_options(capsys):
    rc, out = run(capsys, ["score", "--profile", "red", "--json", "147m69p258s23467z + 3p",
                           "--options", '{"chaotic_value": 3}'])
    assert rc == 0
    res = json.loads(out.out)
    assert res["valid"] and res["value"] == 3 and res["fans"][0]["no"] == 11
    assert res["points"] == {"total": 3, "discarder": 3}


def test_json_discarded_joker_is_not_a_win(capsys):
    rc, out = run(capsys, ["score", "--profile", "red", "--json", "234s j [123m] [555p] [777z] + j"])
    res = json.loads(out.out)
    assert rc == 1 and res["ok"] and not res["valid"]  # a negative answer: exit code 1 (README, exit codes)
    assert "§Джокеры 2" in res["reason"]


def test_jsonl_batch(capsys, monkeypatch):
    lines = [
        {"id": "fn10", "hand": "123s123s456s789s8s + 8s", "players": 2, "winner": 2, "discarder": 0},
        {"id": "kong", "hand": "123m456p789s [1111z] 9p + 9p"},
        {"id": "min", "hand": "234m456p789s222s9m + 9m | 1f 6f", "options": {"min_points": 3}},
        {"id": "bad", "hand": "123m456p789s11z22z + 2z", "players": 5},
    ]
    rc, out = run(capsys, ["score", "--profile", "red", "--jsonl"],
                  stdin="\n".join(json.dumps(x) for x in lines) + "\n", monkeypatch=monkeypatch)
    assert rc == 0
    got = {r["id"]: r for r in map(json.loads, out.out.splitlines())}
    assert got["fn10"]["value"] == 124 and got["fn10"]["points"]["payments"] == {"0": -124, "2": 124}
    assert not got["kong"]["valid"] and "kong" in got["kong"]["reason"]
    assert not got["min"]["valid"] and got["min"]["basic_points"] == 0
    assert got["bad"]["ok"] is False and "2 to 4 players" in got["bad"]["error"]


def test_fields_lists_the_vector_context(capsys):
    rc, out = run(capsys, ["score", "--profile", "red", "--fields"])
    assert rc == 0
    for f in ("--self-drawn", "--players", "--dealer", "--winner", "--discarder", "--river-bottom", "--options"):
        assert f in out.out
