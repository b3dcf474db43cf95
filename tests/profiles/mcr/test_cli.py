"""``mahjong-table score --profile mcr`` with the vectors' context fields (single hand, --json, --jsonl)."""
from __future__ import annotations

import io
import json

from controller.cli import main
from tests.profiles.mcr.vectors import scoring_vectors


def test_score_json(capsys):
    rc = main(["score", "--profile", "mcr", "--json", "7889m [222z] [(1111s)] [(1111z)] + 8m | 1f 2f",
               "--self-drawn", "--seat-wind", "3z", "--round-wind", "4z"])
    out = json.loads(capsys.readouterr().out)
    assert rc == 0 and out["valid"] and out["profile"] == "mcr"
    assert out["total_fan"] == 16 and out["hand_fan"] == 14 and out["flower_fan"] == 2
    assert out["points"] == {"total": 72, "each": 24}
    assert {"name": "Two Concealed Kongs", "value": 8, "count": 1, "no": 48} in out["fans"]


def test_score_readable(capsys):
    rc = main(["score", "-p", "mcr", "34p77z [123p] [444s] [789m] + 2p"])
    text = capsys.readouterr().out
    assert rc == 0 and "Chicken Hand" in text


def test_score_jsonl_with_vector_hands(capsys, monkeypatch):
    lines = []
    for v in scoring_vectors():
        if "hand" in v:
            req = {"id": v["id"], "hand": v["hand"]}
            req.update({k: v[k] for k in ("self_drawn", "seat_wind", "round_wind") if k in v})
            lines.append(json.dumps(req))
    lines.append(json.dumps({"id": "bad", "hand": "123m", "bogus": True}))
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(lines) + "\n"))
    main(["score", "--profile", "mcr", "--jsonl"])
    outs = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert len(outs) == len(lines)
    by_id = {o["id"]: o for o in outs}
    assert by_id["bad"]["ok"] is False and "bogus" in by_id["bad"]["error"]
    for v in scoring_vectors():
        if "hand" in v:
            o = by_id[v["id"]]
            assert o["ok"] and o["valid"], o
            if "total_fan" in v["expected"]:
                assert o["total_fan"] == v["expected"]["total_fan"]


def test_siamese_through_the_cli(capsys):
    main(["score", "--profile", "mcr-siamese", "--json", "1112345678999m + 9m", "--self-drawn"])
    out = json.loads(capsys.readouterr().out)
    assert out["valid"] and out["points"]["total"] == 2 * (out["total_fan"] + 8)
