"""The score/waits/shanten command-line contract."""
from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from controller.cli import main


def run_cli(argv, stdin: str | None = None, capsys=None, monkeypatch=None):
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    rc = main(argv)
    out, err = capsys.readouterr()
    return rc, out, err


def test_score_readable(capsys):
    rc, out, _ = run_cli(["score", "123m456p789s1133z+1z", "--self-drawn"], capsys=capsys)
    assert rc == 0
    assert "123m456p789s1133z + 1z" in out and "Self Drawn" in out and "points: 9" in out


def test_score_json_object(capsys):
    rc, out, _ = run_cli(["score", "--json", "123m456p789s1133z + 1z"], capsys=capsys)
    obj = json.loads(out)
    assert rc == 0 and obj["ok"] and obj["valid"] and obj["total_fan"] == 2
    assert {"name": "Concealed Hand", "value": 1, "count": 1} in obj["fans"]
    assert obj["points"]["total"] == 2


def test_score_json_not_a_win(capsys):
    rc, out, _ = run_cli(["score", "--json", "123m456p789s1133z + 2z"], capsys=capsys)
    obj = json.loads(out)
    assert obj["ok"] is True and obj["valid"] is False and "winning shape" in obj["reason"]


def test_jsonl_answers_every_line_in_order(capsys, monkeypatch):
    lines = [
        '{"hand": "123m456p789s1133z+1z", "self_drawn": true, "id": "a"}',
        "not json",
        '{"hand": "123m8z", "id": "c"}',
        '{"hand": "123m456p789s1133z+1z", "colour": "red", "id": "d"}',
        '{"hand": "123m456p789s1133z+2z", "id": "e"}',
        '{"hand": "123m456p789s1133z+1z", "profile": "no-such", "id": "f"}',
        "[1, 2]",
        '{"self_drawn": true}',
        '{"hand": "123m456p789s1133z+1z", "self_drawn": "maybe"}',
    ]
    rc, out, _ = run_cli(["score", "--jsonl"], stdin="\n".join(lines) + "\n", capsys=capsys, monkeypatch=monkeypatch)
    res = [json.loads(x) for x in out.splitlines()]
    assert rc == 0 and len(res) == len(lines)
    assert res[0]["id"] == "a" and res[0]["valid"] and res[0]["total_fan"] == 3
    assert res[1] == {"ok": False, "error": res[1]["error"]} and "bad JSON" in res[1]["error"]
    assert res[2]["ok"] is False and '"8z" is not a tile' in res[2]["error"] and res[2]["id"] == "c"
    assert res[3]["ok"] is False and "unknown field 'colour'" in res[3]["error"]
    assert res[4]["ok"] is True and res[4]["valid"] is False
    assert res[5]["ok"] is False and "unknown profile" in res[5]["error"]
    assert res[6]["ok"] is False and "JSON object" in res[6]["error"]
    assert res[7]["ok"] is False and "hand" in res[7]["error"]
    assert res[8]["ok"] is False and "self_drawn" in res[8]["error"]


def test_unknown_profile_answers_every_line(capsys, monkeypatch):
    rc, out, _ = run_cli(
        ["score", "--jsonl", "--profile", "no-such-profile"],
        stdin='{"hand": "1m"}\n{"hand": "2m"}\n',
        capsys=capsys,
        monkeypatch=monkeypatch,
    )
    res = [json.loads(x) for x in out.splitlines()]
    assert rc == 0
    assert len(res) == 2 and all(r["ok"] is False and "unknown profile 'no-such-profile'" in r["error"] for r in res)


@pytest.mark.parametrize(
    "argv,needle",
    [
        (["score", "12jp"], '"12" has no suit letter'),
        (["score", "123m", "--no-such-flag"], "unknown option"),
        (["score", "--profile", "nope", "1m"], "unknown profile"),
        (["score"], "give a hand"),
        (["waits", "123m + 4m"], "without a winning tile"),
        (["waits", "123m"], "13 expected"),
        (["shanten", "1m"], "13 or 14 expected"),
        (["waits", "11111m234p567s789s"], "5 copies"),
    ],
)
def test_errors_are_one_line_never_a_traceback(capsys, argv, needle):
    rc = main(argv)
    out, err = capsys.readouterr()
    assert rc == 2
    assert needle in err and "Traceback" not in err
    assert err.count("\n") == 1


def test_waits_and_shanten(capsys):
    assert main(["waits", "1112345678999m"]) == 0
    assert capsys.readouterr().out.split() == [f"{i}m" for i in range(1, 10)]
    assert main(["waits", "--json", "123m456p789s1122z"]) == 0
    assert json.loads(capsys.readouterr().out)["waits"] == ["1z", "2z"]
    assert main(["shanten", "--json", "123m456p789s1122z"]) == 0
    assert json.loads(capsys.readouterr().out)["shanten"] == 0
    assert main(["waits", "1m4m7m2p5p8p3s6s9s1z2z3z4z"]) == 0
    assert "not tenpai" in capsys.readouterr().out


def test_console_script_runs_as_a_process():
    p = subprocess.run(
        [sys.executable, "-m", "controller", "score", "--json", "123m456p789s1133z+1z"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["valid"] is True


@pytest.mark.parametrize("indicator", ["x", "1f", "j"])
def test_a_dora_indicator_that_is_no_tile_of_the_set_is_answered_not_a_traceback(capsys, indicator):
    """004 plays 136 tiles: an unknown tile, a flower or a joker is never an indicator (it raised IndexError)."""
    rc, out, err = run_cli(["score", "-p", "riichi-ema2016", "23456m67888p234s+1m", "--self-drawn",
                            "--dora-indicators", f"1p,{indicator}"], capsys=capsys)
    assert rc == 1 and "Traceback" not in err
    assert f'"{indicator}" cannot be a dora indicator' in out
