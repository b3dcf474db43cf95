"""``mahjong-table score`` with the Sichuan profiles: flags and --jsonl with the vectors' context fields."""
from __future__ import annotations

import io
import json

import pytest

from controller.cli import main
from tests.profiles.sichuan.test_vectors import CTX_FIELDS
from tests.profiles.sichuan.vectors import vectors

SCORED = [v for v in vectors() if isinstance(v.get("hand"), str) and "valid_win" in v["expected"]]


def test_flags_readable(capsys) -> None:
    rc = main(["score", "--profile", "sichuan-mpl2025", "9m [111m] [333m] [555m] [777m] + 9m",
               "--missing-suit", "p", "--winner-seat", "1", "--discarder-seat", "0"])
    out = capsys.readouterr().out
    assert rc == 0
    assert "Golden Wait" in out and "Pure Suit" in out and "points: 16" in out


def test_flags_json_players_in_play(capsys) -> None:
    rc = main(["score", "--profile", "sichuan-wmsg", "--json", "123m456m789m11p45p + 6p", "--missing-suit", "s",
               "--self-drawn", "--last-tile", "--winner-seat", "2", "--players-in-play", "0,2,3"])
    res = json.loads(capsys.readouterr().out)
    assert rc == 0 and res["valid"]
    assert res["payments"] == {"0": -3, "2": 6, "3": -3}
    assert res["points"] == {"total": 6, "each": 3, "payers": 2}


def test_bad_seat_list_is_an_error(capsys) -> None:
    rc = main(["score", "--profile", "sichuan-mpl2025", "--json", "123m456m789m11p45p + 6p",
               "--players-in-play", "0,7"])
    res = json.loads(capsys.readouterr().out)
    assert rc == 2 and not res["ok"] and "players_in_play" in res["error"]


@pytest.mark.parametrize("profile", ["sichuan-mpl2025", "sichuan-wmsg"])
def test_jsonl_runs_every_scored_vector(profile: str, capsys, monkeypatch) -> None:
    vs = [v for v in SCORED if v["profile"] == profile]
    lines = [json.dumps({"id": v["id"], "hand": v["hand"], **{k: v[k] for k in CTX_FIELDS if k in v}}) for v in vs]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(lines) + "\n"))
    assert main(["score", "--profile", profile, "--jsonl"]) == 0
    out = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [o["id"] for o in out] == [v["id"] for v in vs]
    for o, v in zip(out, vs, strict=True):
        exp = v["expected"]
        assert o["ok"] and o["valid"] is exp["valid_win"]
        if exp["valid_win"]:
            assert {f["id"]: f["value"] for f in o["fans"]} == dict(exp["fans"])
            assert o["base_points"] == exp["base_points"]
            assert o["payments"] == (exp["payments"] or exp.get("recommended_payments"))
