"""Vision IV: checks anyone can run on a new set -- a style folder (style.json + a PNG per face) rendered as
the enrollment layout frame the table's camera would see, enrolled from it, and played by ``simulate``."""
from __future__ import annotations

import json
import shutil

import pytest

from controller.cli import main
from vision.tile_render import ASSET_DIR


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """A club's set as a style folder: kai's faces copied (no shipped style name)."""
    out = tmp_path_factory.mktemp("club") / "club-set"
    shutil.copytree(ASSET_DIR / "kai", out)
    return out


def test_the_layout_frame_of_a_style_folder_enrolls_every_face(folder, tmp_path, capsys):
    frame = tmp_path / "layout.png"
    assert main(["vision", "render", "--layout", "--style", str(folder), "--seed", "4", "--out", str(frame)]) == 0
    out = capsys.readouterr().out
    assert "enrollment layout" in out and f"{len(json.loads((folder / 'style.json').read_text())['labels']) + 1} tiles" in out
    assert main(["tiles", "enroll", "--out", str(tmp_path / "set.npz"), "--layout", str(frame)]) == 0
    err = capsys.readouterr().err
    assert "enrolled 47 classes" in err, err


@pytest.mark.parametrize("argv", [
    ["vision", "render", "--layout", "--style", "{bad}", "--out", "{out}"],
    ["simulate", "-p", "riichi-ema2016", "--hands", "1", "--style", "{bad}"],
    ["simulate", "-p", "riichi-ema2016", "--hands", "1", "--style", "{missing}"],
])
def test_a_bad_style_folder_is_one_line_and_exit_2(argv, tmp_path, capsys):
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "style.json").write_text('{"face": [1, 2, 3]}')
    args = [a.format(bad=bad, out=tmp_path / "x.png", missing=tmp_path / "nothing-here") for a in argv]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("mahjong-table: error:") and "Traceback" not in err, err


def test_a_set_whose_two_faces_look_alike_is_named_doubtful_before_it_is_accepted(folder, tmp_path, capsys):
    """A club's set whose 2s is drawn as its 3s (a style folder with one face copied over another): rendered as
    the whole-set pages the table's camera would see, `tiles enroll --whole-set` names 2s/3s doubtful, exit 1
    and no file; --accept-doubtful writes it."""
    twin = tmp_path / "twin-set"
    shutil.copytree(folder, twin)
    shutil.copy(twin / "3s.png", twin / "2s.png")
    frames = []
    for page in (1, 2):
        frames += ["--layout", str(tmp_path / f"p{page}.png")]
        assert main(["vision", "render", "--layout", "--whole-set", "--page", str(page), "--style", str(twin),
                     "--seed", str(page), "--out", frames[-1]]) == 0
    assert f"whole-set layout page 2 (bamboos, honours and backs), style {twin.resolve()}, 68 tiles" in \
        capsys.readouterr().out
    out = tmp_path / "twin.npz"
    assert main(["tiles", "enroll", "--whole-set", "--out", str(out), *frames]) == 1
    res = capsys.readouterr()
    lines = res.out.splitlines()
    assert len(lines) == 1 and lines[0].startswith("doubtful: 2s/3s (1.00 alike") and not out.exists(), res.out
    assert "the set is not written (doubtful faces)" in res.err
    assert main(["tiles", "enroll", "--whole-set", "--accept-doubtful", "--out", str(out), *frames]) == 0
    assert out.exists() and "enrolled 35 classes from 140 crops" in capsys.readouterr().err
