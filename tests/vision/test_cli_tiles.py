"""The ``mahjong-table tiles`` command-line contract."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import cv2
import pytest

from controller.cli import main
from vision.tile_labels import CLASS_LABELS, UNKNOWN
from vision.tile_render import render_none, render_tile

ALLOWED = (set(CLASS_LABELS) | {UNKNOWN})


def _write(path: Path, img) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    assert cv2.imwrite(str(path), img)
    return path


@pytest.fixture(scope="module")
def kai_dir(tmp_path_factory) -> Path:
    """Three crops per face of the held-out style, half in sub-folders, half as <label>_x files."""
    root = tmp_path_factory.mktemp("kai")
    from vision.tile_render import load_style
    for i, lab in enumerate(load_style("kai").labels):
        for j in range(3):
            img = render_tile("kai", lab, size=64, seed=10_000 + 10 * i + j)
            _write(root / lab / f"{j}.png" if i % 2 else root / f"{lab}_{j}.jpg", img)
    return root


def test_enroll_then_classify(kai_dir, tmp_path, capsys):
    out = tmp_path / "kai.npz"
    assert main(["tiles", "enroll", "--out", str(out), str(kai_dir)]) == 0
    counts = dict(line.split("\t") for line in capsys.readouterr().out.strip().splitlines())
    assert counts["1m"] == "3" and counts["0s"] == "3" and counts["j"] == "3" and len(counts) == 47
    assert out.is_file()
    images = [_write(tmp_path / f"t{k}.png", render_tile("kai", lab, orientation=k, size=s, seed=55 + k))
              for k, (lab, s) in enumerate([("3m", 60), ("8p", 120), ("7s", 44), ("4f", 70)])]
    images.append(_write(tmp_path / "table.png", render_none(size=64, seed=3)))
    assert main(["tiles", "classify", "--tileset", str(out), *map(str, images)]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == len(images)
    got = []
    for line, img in zip(lines, images):
        path, label, conf = line.split("\t")
        assert path == str(img) and label in ALLOWED
        assert 0.0 <= float(conf) <= 1.0 and len(conf.split(".")[1]) == 4
        got.append(label)
    truth = ["3m", "8p", "7s", "4f"]
    # a never-trained style read from 3 examples per face: wrong answers must not pass the threshold
    assert all(g in (t, UNKNOWN) for g, t in zip(got, truth)), got
    assert sum(g == t for g, t in zip(got, truth)) >= 2, got
    assert got[4] in ("none", UNKNOWN)


def test_classify_without_a_tileset_prints_one_line_per_image(tmp_path, capsys):
    img = _write(tmp_path / "a b.png", render_tile("fluffy", "back", orientation=1, size=70, seed=1))
    assert main(["tiles", "classify", str(img)]) == 0
    out = capsys.readouterr().out
    assert re.fullmatch(re.escape(str(img)) + r"\tback\t[01]\.\d{4}\n", out), out


def test_unknown_label_is_a_clear_error(tmp_path, capsys):
    _write(tmp_path / "11z_a.png", render_tile("classic", "1z", size=40, seed=1))
    assert main(["tiles", "enroll", "--out", str(tmp_path / "s.npz"), str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "11z" in err and "Traceback" not in err


def test_unreadable_image_is_a_clear_error(tmp_path, capsys):
    bad = tmp_path / "5m_broken.png"
    bad.write_bytes(b"not an image")
    assert main(["tiles", "enroll", "--out", str(tmp_path / "s.npz"), str(tmp_path)]) == 2
    assert "cannot read image" in capsys.readouterr().err
    assert main(["tiles", "classify", str(bad)]) == 2
    assert "cannot read image" in capsys.readouterr().err
    assert main(["tiles", "classify", "--tileset", str(tmp_path / "missing.npz"), str(bad)]) == 2


def test_console_script_runs_without_traceback(tmp_path):
    img = _write(tmp_path / "x.png", render_tile("classic", "6z", size=64, seed=9))
    code = "import sys; from controller.cli import main; sys.exit(main())"
    proc = subprocess.run([sys.executable, "-c", code, "tiles", "classify", str(img)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    path, label, conf = proc.stdout.strip().split("\t")
    assert path == str(img) and label == "6z" and float(conf) > 0.5
