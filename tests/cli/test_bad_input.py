"""Bad input never ends in a traceback or a hang: every sub-command, given malformed arguments (missing files,
folders, empty and corrupt files, huge and negative numbers, unicode), exits with code 2 and one line on
stderr. The README's exit-code rule: 0 answered, 1 a negative answer, 2 bad input."""
from __future__ import annotations

import io
import os
import random
import shutil
from pathlib import Path

import pytest

from controller.cli import build_parser, main

ROOT = Path(__file__).resolve().parents[2]
MODEL = ROOT / "vision" / "models" / "tiles.onnx"


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, str]:
    d = tmp_path_factory.mktemp("bad")
    rnd = random.Random(16)
    f: dict[str, str] = {"dir": str(d / "a-folder"), "missing": str(d / "no-such-file.png"),
                         "nodir": str(d / "no" / "such" / "dir" / "out.json")}
    os.mkdir(f["dir"])
    (d / "empty").write_bytes(b"")
    f["empty"] = str(d / "empty")
    (d / "garbage.bin").write_bytes(bytes(rnd.randrange(256) for _ in range(4000)))
    f["garbage"] = str(d / "garbage.bin")
    (d / "garbage.png").write_bytes(bytes(rnd.randrange(256) for _ in range(4000)))
    f["badpng"] = str(d / "garbage.png")
    (d / "empty.npz").write_bytes(b"")
    f["emptynpz"] = str(d / "empty.npz")
    (d / "garbage.npz").write_bytes(b"PK\x03\x04" + bytes(rnd.randrange(256) for _ in range(500)))
    f["badnpz"] = str(d / "garbage.npz")
    for name, body in (("empty.onnx", b""), ("random.onnx", bytes(rnd.randrange(256) for _ in range(3000))),
                       ("trunc.onnx", MODEL.read_bytes()[:20000])):
        (d / name).write_bytes(body)
        shutil.copy(MODEL.with_suffix(".json"), (d / name).with_suffix(".json"))
        f[name.replace(".", "")] = str(d / name)
    shutil.copy(MODEL, d / "noclasses.onnx")
    (d / "noclasses.json").write_text('{"input_size": 64, "temperature": 1.0, "threshold": 0.5}')
    f["noclassesonnx"] = str(d / "noclasses.onnx")
    shutil.copy(MODEL, d / "nosidecar.onnx")
    f["nosidecaronnx"] = str(d / "nosidecar.onnx")
    for name, body in (("list.json", "[]"), ("obj.json", "{}"), ("onebyone.json", '{"camera_matrix": [[1]], '
                       '"dist_coeffs": [0, 0, 0, 0, 0]}'), ("nan.json", '{"h": [[1,0,0],[0,1,0],[0,0,0]], '
                       '"frame_size": [1920, 1080], "geometry": {"size": 900}}'), ("bad.toml", "[table\nid=1")):
        (d / name).write_text(body)
        f[name.replace(".", "")] = str(d / name)
    import cv2
    import numpy as np

    cv2.imwrite(str(d / "grey.png"), np.full((120, 160, 3), 128, np.uint8))
    f["img"] = str(d / "grey.png")
    (d / "crops").mkdir()
    f["nocrops"] = str(d / "crops")
    return f


# (argv with {placeholders} for the files above)
CASES: list[list[str]] = [
    # demo, score, waits, shanten
    ["demo", "--seed", "x"],
    ["score"],
    ["score", "🀄🀅"],
    ["score", "11111m234p567s789s + 2m"],  # five copies of a tile
    ["score", "123m456p789s11122z + 1z"],  # fifteen tiles
    ["score", "--profile", "nope", "123m456p789s1122z + 2z"],
    ["score", "123m456p789s1122z + 2z", "--bogus"],
    ["score", "--jsonl", "123m"],
    ["waits", "ё"],
    ["waits", "11111m2345678999p"],
    ["waits", "--profile", "nope", "1112345678999m"],
    ["shanten", ""],
    ["shanten", "1m"],
    # deal, play
    ["deal"],
    ["deal", "--dice", "0,7"],
    ["deal", "--dice", "99999999999999999999,1"],
    ["deal", "--dice", "4,2", "--players", "9"],
    ["deal", "--dice", "4,2", "--dealer", "-1"],
    ["deal", "--dice", "4,2", "--tiles", "ё"],
    ["play", "--hands", "0"],
    ["play", "--hands", str(10**12)],
    ["play", "--players", "-1"],
    ["play", "--profile", "nope"],
    ["play", "--seed", "1.5"],
    # table, emulator
    ["table", "status", "--port", "{missing}"],
    ["table", "status", "--port", "{dir}"],
    ["table", "status", "--port", "{empty}"],
    ["table", "status", "--port", "nonsense://x"],
    ["table", "dice", "--emulator", "--pulse-ms", "-1"],
    ["table", "dice", "--emulator", "--pulse-ms", str(10**9)],
    ["table", "status", "--emulator", "--timeout", "-1"],
    ["table", "status", "--emulator", "--time-scale", "nan"],
    ["table", "shuffle", "--emulator", "--stacks", "a,b,c,d"],
    ["table", "status", "--emulator", "--inject", "ё"],
    ["table", "status", "--port", "x", "--inject", "jam 1"],
    ["emulator", "--tcp", "99999"],
    ["emulator", "--tcp", "-1"],
    ["emulator", "--time-scale", "0"],
    ["emulator", "--corrupt", "2"],
    # tiles
    ["tiles", "classify", "--tileset", "{emptynpz}", "{img}"],
    ["tiles", "classify", "--tileset", "{dir}", "{img}"],
    ["tiles", "classify", "--tileset", "{badnpz}", "{img}"],
    ["tiles", "classify", "--tileset", "{garbage}", "{img}"],
    ["tiles", "classify", "--model", "{emptyonnx}", "{img}"],
    ["tiles", "classify", "--model", "{randomonnx}", "{img}"],
    ["tiles", "classify", "--model", "{trunconnx}", "{img}"],
    ["tiles", "classify", "--model", "{noclassesonnx}", "{img}"],
    ["tiles", "classify", "--model", "{nosidecaronnx}", "{img}"],
    ["tiles", "classify", "--model", "{dir}", "{img}"],
    ["tiles", "classify", "{missing}"],
    ["tiles", "classify", "{badpng}"],
    ["tiles", "classify", "{dir}"],
    ["tiles", "enroll", "--out", "{dir}", "{nocrops}"],
    ["tiles", "enroll", "--out", "{nodir}", "{nocrops}"],
    ["tiles", "enroll", "--out", "x.npz"],
    ["tiles", "enroll", "--out", "x.npz", "{nocrops}"],
    ["tiles", "enroll", "--out", "x.npz", "{missing}"],
    ["tiles", "enroll", "--out", "x.npz", "--layout", "{badpng}"],
    ["tiles", "enroll", "--out", "x.npz", "--model", "{randomonnx}", "--layout", "{img}"],
    ["tiles", "enroll", "--whole-set", "--out", "x.npz", "--layout", "{badpng}"],
    ["tiles", "enroll", "--whole-set", "--out", "x.npz", "--layout", "{missing}"],
    ["tiles", "enroll", "--whole-set", "--out", "x.npz", "--layout", "{img}"],  # no markers
    ["tiles", "enroll", "--whole-set", "--out", "x.npz", "--pages", "1,2", "--layout", "{img}"],
    ["tiles", "enroll", "--whole-set", "--out", "x.npz", "--pages", "0", "--layout", "{img}"],
    ["tiles", "enroll", "--whole-set", "--out", "x.npz", "--profile", "no-such", "--layout", "{img}"],
    ["tiles", "enroll", "--whole-set", "--out", "{nodir}", "--layout", "{img}"],
    ["tiles", "enroll", "--out", "x.npz", "--profile", "mcr", "--layout", "{img}"],
    ["tiles", "guide", "--out", "{dir}"],
    ["tiles", "guide", "--out", "{dir}/g.txt"],
    ["tiles", "guide", "--out", "{nodir}/g.pdf"],
    ["tiles", "guide"],
    # calibrate
    ["calibrate"],
    ["calibrate", "--sheet", "{dir}/m.png", "--dpi", "0"],
    ["calibrate", "--sheet", "{dir}/m.png", "--dpi", "100000"],
    ["calibrate", "--sheet", "{nodir}.png"],
    ["calibrate", "--sheet", "{dir}/m.txt"],
    ["calibrate", "--sheet", "{dir}"],
    ["calibrate", "--synthetic", "--out", "{dir}"],
    ["calibrate", "--synthetic", "--out", "{nodir}"],
    ["calibrate", "--synthetic", "--intrinsics", "{listjson}"],
    ["calibrate", "--synthetic", "--intrinsics", "{onebyonejson}"],
    ["calibrate", "--synthetic", "--intrinsics", "{empty}"],
    ["calibrate", "--image", "{missing}"],
    ["calibrate", "--image", "{badpng}"],
    ["calibrate", "--image", "{dir}"],
    ["calibrate", "--image", "{img}"],  # no markers in the picture
    ["calibrate", "--camera", "garbage"],
    # vision
    ["vision", "render", "--out", "{dir}/x.txt"],
    ["vision", "render", "--out", "{dir}"],
    ["vision", "render", "--seed", "-1", "--out", "{dir}/a.png"],
    ["vision", "render", "--seed", str(2**70), "--out", "{dir}/a.png"],
    ["vision", "render", "--step", "2", "--out", "{dir}/a.png"],
    ["vision", "render", "--profile", "nope", "--out", "{dir}/a.png"],
    ["vision", "render", "--style", "nope", "--out", "{dir}/a.png"],
    ["vision", "render", "--out", "{dir}/a.png", "--truth", "{dir}"],
    ["vision", "render", "--layout", "--whole-set", "--out", "{dir}/a.png"],  # no --page
    ["vision", "render", "--layout", "--whole-set", "--page", "4", "--out", "{dir}/a.png"],
    ["vision", "render", "--layout", "--page", "1", "--out", "{dir}/a.png"],  # no --whole-set
    ["vision", "render", "--whole-set", "--page", "1", "--out", "{dir}/a.png"],  # no --layout
    ["vision", "read"],
    ["vision", "read", "--calibration", "{empty}", "{img}"],
    ["vision", "read", "--calibration", "{objjson}", "{img}"],
    ["vision", "read", "--calibration", "{nanjson}", "{img}"],
    ["vision", "read", "--calibration", "{garbage}", "{img}"],
    ["vision", "read", "{missing}"],
    ["vision", "read", "{badpng}"],
    ["vision", "read", "--synthetic", "--frames", "-5"],
    ["vision", "read", "--synthetic", "--seed", "-1"],
    ["vision", "selftest"],
    ["vision", "selftest", "--image", "{badpng}"],
    ["vision", "selftest", "--image", "{img}", "--tileset", "{emptynpz}"],
    ["vision", "selftest", "--image", "{img}", "--style", "nope"],
    # config, serve
    ["config", "check", "{dir}"],
    ["config", "show", "{dir}"],
    ["config", "check", "{missing}"],
    ["config", "frobnicate"],
    ["serve", "--config", "{dir}"],
    ["serve", "--config", "{missing}"],
    ["serve", "--config", "{badtoml}"],
    ["serve", "--hands", "0"],
    ["serve", "--port", "70000"],
    ["serve", "--store", "{dir}"],
    # web, hall, simulate, export
    ["web", "hash-pin", "--stdin"],  # (stdin: an empty line — too short a PIN)
    ["web", "set-pin", "--config", "{dir}", "--stdin"],
    ["web", "frobnicate"],
    ["hall", "serve", "--config", "{dir}"],
    ["hall", "serve", "--config", "{badtoml}"],
    ["hall", "backup", "--config", "{dir}", "--out", "{dir}/b.sqlite"],
    ["hall", "restore", "--config", "{missing}", "--from", "{empty}"],
    ["hall", "simulate", "--tables", "-1", "--sessions", "1", "--profile", "mcr", "--seed", "1"],
    ["hall", "provision", "--tables", "0", "--out", "{dir}"],
    ["hall", "director-password", ""],
    ["simulate", "--profile", "nope"],
    ["simulate", "--profile", "mcr", "--hands", "-1"],
    ["simulate", "--profile", "mcr@9"],
    ["export", "--store", "{dir}", "x"],
    ["export", "--store", "{missing}", "x"],
    ["export", "--format", "nope", "x"],
]


def run_cli(argv: list[str], capsys, monkeypatch, stdin: str = "") -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    try:
        rc = main(argv)
    except SystemExit as exc:  # argparse's usage errors
        rc = exc.code
    out = capsys.readouterr()
    return rc, out.out, out.err


@pytest.mark.parametrize("argv", CASES, ids=[" ".join(a)[:60] for a in CASES])
def test_bad_input_is_one_line_and_exit_code_2(argv, files, capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    argv = [a.format(**files) for a in argv]
    rc, out, err = run_cli(argv, capsys, monkeypatch, stdin="\n")
    lines = err.strip().splitlines()
    assert rc == 2, (rc, out[-500:], err[-2000:])
    assert len(lines) == 1 and "Traceback" not in err, err
    assert lines[0].startswith("mahjong-table")


def test_every_sub_command_is_in_the_sweep():
    sub = next(a for a in build_parser()._actions if a.dest == "command")
    assert set(sub.choices) == {c[0] for c in CASES}
