"""The defects reproduced in issue #16, one test each (the argument sweep covers the tracebacks:
tests/cli/test_bad_input.py)."""
from __future__ import annotations

import io
import json
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from controller.cli import main

ROOT = Path(__file__).resolve().parents[2]


def cli(argv, capsys, monkeypatch=None, stdin=""):
    if monkeypatch is not None:
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    try:
        rc = main(argv)
    except SystemExit as exc:
        rc = exc.code
    out = capsys.readouterr()
    return rc, out.out, out.err


# --- exit codes: one rule (0 answered, 1 a negative answer, 2 bad input) ------------------------------------

def test_score_exit_codes_follow_the_rule(capsys):
    assert cli(["score", "123m456p789s1122z + 2z"], capsys)[0] == 0  # a win
    rc, out, _ = cli(["score", "123m456p789s1122z + 3z"], capsys)  # well formed, not a win
    assert rc == 1 and "not a win" in out
    rc, out, _ = cli(["score", "--json", "123m456p789s1122z + 3z"], capsys)
    assert rc == 1 and json.loads(out)["valid"] is False
    for hand in ("11111m234p567s789s + 2m", "123m456p789s11122z + 1z", "123m456p789s1122z2z"):
        rc, _, err = cli(["score", hand], capsys)  # five copies, fifteen tiles, no winning tile
        assert rc == 2 and len(err.strip().splitlines()) == 1, hand
        rc, out, _ = cli(["score", "--json", hand], capsys)
        assert rc == 2 and json.loads(out)["ok"] is False
    # waits and shanten say the same about the same impossible tiles
    assert cli(["waits", "11111m2345678999p"], capsys)[0] == 2
    assert cli(["shanten", "11111m234p567s789s"], capsys)[0] == 2


def test_the_example_in_score_help_is_a_win(capsys):
    rc, out, _ = cli(["score", "--help"], capsys)
    first = re.search(r'mahjong-table score --profile (\S+) "([^"]+)"(.*)', out)
    profile, hand, flags = first.group(1), first.group(2), first.group(3).split()
    rc, out, _ = cli(["score", "--profile", profile, "--json", hand, *flags], capsys)
    assert rc == 0 and json.loads(out)["valid"] is True


def test_readme_documents_the_exit_code_rule():
    text = (ROOT / "README.md").read_text()
    assert "## Exit codes" in text and "`0`" in text and "`1`" in text and "`2`" in text


def test_score_jsonl_answers_every_line_and_checks_json_types(capsys, monkeypatch):
    lines = ['{"id": 1, "hand": "123m456p789s1133z + 1z", "self_drawn": true}',
             "",
             '{"id": 2, "hand": "123m456p789s1133z + 1z", "profile": ["mcr"]}',
             '{"id": 3, "hand": "123m456p789s1133z + 1z", "self_drawn": "yes"}',
             "not json at all",
             '{"id": 4, "hand": "123m456p789s1133z + 1z"}']
    rc, out, err = cli(["score", "--jsonl"], capsys, monkeypatch, "\n".join(lines) + "\n")
    answers = [json.loads(x) for x in out.splitlines()]
    assert rc == 0 and err == "" and len(answers) == len(lines)  # one answer per line, the stream goes on
    assert answers[0]["ok"] and answers[0]["valid"]
    assert not answers[1]["ok"] and "empty line" in answers[1]["error"]
    assert not answers[2]["ok"] and "profile" in answers[2]["error"] and "internal" not in answers[2]["error"]
    assert not answers[3]["ok"] and "self_drawn" in answers[3]["error"] and "true or false" in answers[3]["error"]
    assert not answers[4]["ok"] and "bad JSON" in answers[4]["error"]
    assert answers[5]["ok"] and answers[5]["id"] == 4


# --- silent wrong results --------------------------------------------------------------------------------------

def test_a_marker_sheet_that_cannot_be_written_is_an_error(tmp_path, capsys):
    rc, out, err = cli(["calibrate", "--sheet", str(tmp_path / "no" / "such" / "m.png")], capsys)
    assert rc == 2 and "written" not in out and "no such folder" in err
    rc, out, _ = cli(["calibrate", "--sheet", str(tmp_path / "m.png"), "--dpi", "72"], capsys)
    assert rc == 0 and (tmp_path / "m.png").stat().st_size > 0


def test_vision_read_refuses_a_frame_from_another_camera_pose(tmp_path, capsys):
    a, b, cal = tmp_path / "a.png", tmp_path / "b.png", tmp_path / "cal.json"
    assert cli(["vision", "render", "--seed", "3", "--out", str(a)], capsys)[0] == 0
    assert cli(["vision", "render", "--seed", "5", "--out", str(b)], capsys)[0] == 0  # another pose
    assert cli(["calibrate", "--image", str(a), "--out", str(cal)], capsys)[0] == 0
    rc, out, err = cli(["vision", "read", "--calibration", str(cal), str(b)], capsys)
    assert rc == 2 and out == "" and "from where the calibration puts it" in err  # nothing invented
    rc, out, _ = cli(["vision", "read", "--calibration", str(cal), str(a)], capsys)  # its own pose: read
    assert rc == 0 and json.loads(out)["image"] == str(a)


@pytest.mark.parametrize("seed", [3, 4, 7, 11, 13])
def test_rendered_frames_pass_the_self_test(tmp_path, capsys, seed):
    img = tmp_path / "f.png"
    rc, out, _ = cli(["vision", "render", "--seed", str(seed), "--out", str(img)], capsys)
    style = re.search(r"style (\S+),", out).group(1)
    rc, out, _ = cli(["vision", "selftest", "--image", str(img), "--style", style], capsys)
    assert rc == 0, out  # exposure and contrast agree with the renderer


@pytest.mark.parametrize("profile", ["mcr-siamese", "red"])
def test_vision_render_plays_each_rule_set_at_its_own_table(tmp_path, capsys, profile):
    """``vision render --profile mcr-siamese`` raised ValueError (a table of four: Siamese is 3 or 2, 003 l.2229)
    and ``--profile red`` a style without flowers (001 plays with them): a traceback each."""
    img = tmp_path / "f.png"
    rc, out, err = cli(["vision", "render", "--profile", profile, "--seed", "4", "--out", str(img)], capsys)
    assert rc == 0 and img.is_file() and f"{profile}, style " in out, err


def test_vision_render_refuses_a_style_without_the_rule_set_s_flowers(tmp_path, capsys):
    rc, out, err = cli(["vision", "render", "--profile", "red", "--style", "fluffy", "--seed", "4",
                        "--out", str(tmp_path / "f.png")], capsys)
    assert rc == 2 and "has no flowers" in err and len(err.strip().splitlines()) == 1


def test_the_emulator_removes_its_pty_folder_on_sigterm():
    proc = subprocess.Popen([sys.executable, "-m", "controller", "emulator"], cwd=ROOT, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    first = proc.stdout.readline()
    url = Path(first.split()[-1])
    assert url.name == "tty" and url.parent.name.startswith("mahjong-emu-") and url.parent.is_dir()
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=20) == 0
    assert not url.parent.exists()
    proc.stdin.close()
    proc.stdout.close()
    proc.stderr.close()


def test_a_port_that_does_not_exist_is_said_at_once(capsys):
    t0 = time.monotonic()
    rc, _, err = cli(["table", "status", "--port", "/dev/nonexistent-mahjong", "--timeout", "30"], capsys)
    assert rc == 2 and "no serial port /dev/nonexistent-mahjong" in err
    assert time.monotonic() - t0 < 10  # not after the 30 s answer time-out
