"""``mahjong-table score --profile riichi-ema2016``: flags, --json and --jsonl with the vectors' fields."""

from __future__ import annotations

import io
import json

from controller.cli import main
from tests.profiles.riichi.vectors import context_of, of_kind


def _json_flag_args(v) -> list[str]:
    args = ["score", "--profile", "riichi-ema2016", "--json", v["hand"]]
    for k, val in context_of(v).items():
        flag = "--" + k.replace("_", "-")
        if isinstance(val, bool):
            args += [flag, "true" if val else "false"]
        elif isinstance(val, list):
            if val:
                args += [flag, ",".join(val)]
        else:
            args += [flag, str(val)]
    return args


def test_score_with_flags_json(capsys):
    v = next(x for x in of_kind("hand_score") if x["id"] == "limit-haneman-tsumo")
    assert main(_json_flag_args(v)) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["valid"] and out["profile"] == "riichi-ema2016"
    assert out["points"] == v["expected"]["points"]
    assert out["han"] == 7 and out["limit"] == "haneman"


def test_score_readable(capsys):
    rc = main(
        [
            "score",
            "--profile",
            "riichi-ema2016",
            "23456m67888p234s + 1m",
            "--self-drawn",
            "--dora-indicators",
            "1p",
            "--seat-wind",
            "2z",
        ]
    )
    assert rc == 0
    out = capsys.readouterr().out
    assert "Pinfu" in out and "Fully concealed hand" in out and "1500" in out


def test_score_rejects_red_five_and_unknown_field(capsys):
    main(["score", "--profile", "riichi-ema2016", "--json", "23406m67888p234s + 1m"])
    out = json.loads(capsys.readouterr().out)
    assert out["valid"] is False and "red five" in out["reason"]
    rc = main(["score", "--profile", "riichi-ema2016", "--json", "23456m67888p234s + 1m", "--flowers", "2"])
    assert rc != 0


def test_jsonl_every_hand_vector(capsys, monkeypatch):
    vs = of_kind("hand_score")
    lines = [json.dumps({"id": v["id"], "hand": v["hand"], **context_of(v)}) for v in vs]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(lines) + "\n"))
    assert main(["score", "--profile", "riichi-ema2016", "--jsonl"]) == 0
    outs = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(outs) == len(vs)
    for v, o in zip(vs, outs, strict=True):
        assert o["id"] == v["id"] and o["ok"] and o["valid"], o
        exp = v["expected"]
        assert sorted(map(tuple, o["yaku"])) == sorted(map(tuple, exp["yaku"]))
        assert (o["han"], o["fu"], o["limit"], o["points"]) == (
            exp["han"],
            exp["fu"],
            exp["limit"],
            exp["points"],
        )


def test_jsonl_reports_bad_context_per_line(capsys, monkeypatch):
    lines = [
        json.dumps({"hand": "23456m67888p234s + 1m", "riichi": True, "bogus": 1}),
        json.dumps({"hand": "234m567p2366s [678m] + 4s", "riichi": True}),
    ]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(lines) + "\n"))
    main(["score", "--profile", "riichi-ema2016", "--jsonl"])
    a, b = (json.loads(x) for x in capsys.readouterr().out.splitlines())
    assert a["ok"] is False and "bogus" in a["error"]
    assert b["ok"] is True and b["valid"] is False and "closed" in b["reason"]
