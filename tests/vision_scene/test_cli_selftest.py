import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from controller.cli import main
from vision.camera import ReplaySource, SyntheticSource
from vision.scene_game import render_sequence
from vision.scene_model import Scene
from vision.scene_render import render_scene
from vision.selftest import selftest


@pytest.fixture(scope="module")
def table_frame():
    return render_scene(Scene("riichi-ema2016"), seed=3, style="classic")[0]


def by_name(checks):
    return {c.name: c for c in checks}


def test_selftest_passes_on_a_good_frame(table_frame):
    checks = by_name(selftest(table_frame, styles=["classic"]))
    assert all(c.ok for c in checks.values()), [c for c in checks.values() if not c.ok]


def test_selftest_names_the_missing_marker(table_frame):
    f = table_frame.copy()
    f[:, f.shape[1] // 2:][: f.shape[0] // 4] = 40  # the top-right corner in shadow
    c = by_name(selftest(f, styles=["classic"]))
    assert not c["markers"].ok and "1 (top-right corner)" in c["markers"].fix


def test_selftest_blur_and_exposure(table_frame):
    blurred = cv2.GaussianBlur(table_frame, (0, 0), 2.2)
    c = by_name(selftest(blurred, styles=["classic"]))
    assert not c["focus"].ok and "focus" in c["focus"].fix
    dark = (table_frame * 0.15).astype(np.uint8)
    c = by_name(selftest(dark, styles=["classic"]))
    assert not c["markers"].ok or not c["exposure"].ok


def test_selftest_requires_tile_sets(table_frame, tmp_path):
    c = by_name(selftest(table_frame, tilesets=[tmp_path / "missing.npz"]))
    assert not c["tileset:missing.npz"].ok and "enroll" in c["tileset:missing.npz"].fix


def test_replay_and_synthetic_sources(tmp_path, table_frame):
    for i in range(3):
        cv2.imwrite(str(tmp_path / f"f{i:02d}.png"), table_frame)
    src = ReplaySource(tmp_path, fps=5.0)
    frames = []
    while (f := src.read()) is not None:
        frames.append(f)
    assert [f.index for f in frames] == [0, 1, 2] and frames[2].t_mono == pytest.approx(0.4)
    syn = SyntheticSource(render_sequence([Scene("mcr"), Scene("mcr", dice=(3, 4))], seed=1, still_frames=1))
    a, b = syn.read(), syn.read()
    assert b.index == 1
    assert a.image.shape == (1080, 1920, 3) and syn.last_truth.scene.dice == (3, 4) and syn.read() is None
    with pytest.raises(FileNotFoundError):
        ReplaySource(tmp_path / "nope")


def test_cli_calibrate_render_read(tmp_path, capsys):
    assert main(["calibrate", "--sheet", str(tmp_path / "m.png"), "--dpi", "100"]) == 0
    assert (tmp_path / "m.png").stat().st_size > 1000
    assert main(["calibrate", "--synthetic", "--out", str(tmp_path / "cal.json")]) == 0
    assert json.loads((tmp_path / "cal.json").read_text())["markers_found"] == [0, 1, 2, 3]
    assert main(["vision", "render", "--profile", "mcr", "--seed", "2", "--style", "kai",
                 "--out", str(tmp_path / "f.png"), "--truth", str(tmp_path / "t.json")]) == 0
    truth = json.loads((tmp_path / "t.json").read_text())
    capsys.readouterr()
    assert main(["vision", "read", "--profile", "mcr", "--style", "kai", str(tmp_path / "f.png")]) == 0
    got = json.loads(capsys.readouterr().out.splitlines()[0])
    want_ponds = [[p["tile"] for p in s["pond"]] for s in truth["scene"]["seats"]]
    got_ponds = [[p["tile"] for p in s["pond"]] for s in got["scene"]["seats"]]
    assert sum(len(p) for p in want_ponds) > 10
    assert sum(a != b for pa, pb in zip(got_ponds, want_ponds) for a, b in zip(pa, pb)) <= 1
    assert [len(p) for p in got_ponds] == [len(p) for p in want_ponds]


def test_cli_errors_are_one_line(tmp_path, capsys):
    assert main(["vision", "read", "--profile", "nope", "x.png"]) == 2
    assert main(["vision", "read", "--profile", "mcr", str(tmp_path / "missing.png")]) == 2
    assert main(["calibrate"]) == 2
    assert main(["calibrate", "--image", str(tmp_path / "missing.png")]) == 2
    assert main(["vision", "selftest"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.count("mahjong-table: error:") == 5


def test_selftest_fails_without_a_set_or_with_another_tables_set(tmp_path):
    from tests.vision_scene.helpers import feature_scene

    frame = render_scene(feature_scene("mcr"), seed=3, style="classic")[0]
    c = by_name(selftest(frame))
    assert not c["tilesets"].ok and "tiles enroll" in c["tilesets"].fix
    c = by_name(selftest(frame, tilesets=[Path("vision/tilesets/classic.npz")]))
    assert c["tiles match set"].ok, c["tiles match set"]
    for other in ("kai", "fluffy"):  # a set enrolled for other tiles than those on the table
        c = by_name(selftest(frame, tilesets=[Path(f"vision/tilesets/{other}.npz")]))
        assert not c["tiles match set"].ok and "enroll" in c["tiles match set"].fix, c["tiles match set"]
    (tmp_path / "broken.npz").write_text("x")
    c = by_name(selftest(frame, tilesets=[tmp_path / "broken.npz"]))
    assert not c["tileset:broken.npz"].ok and "not a readable" in c["tileset:broken.npz"].detail


def test_render_accepts_a_style_folder(tmp_path, capsys):
    """A new set's look (style.json + one PNG per face, the shipped styles' format) renders for tests."""
    import shutil

    from vision.tile_render import ASSET_DIR

    folder = tmp_path / "my-set"
    shutil.copytree(ASSET_DIR / "classic", folder)
    meta = json.loads((folder / "style.json").read_text())
    meta["face"] = [250, 230, 200]
    (folder / "style.json").write_text(json.dumps(meta))
    out = tmp_path / "f.png"
    assert main(["vision", "render", "--profile", "mcr", "--style", str(folder), "--out", str(out)]) == 0
    assert cv2.imread(str(out)).shape == (1080, 1920, 3) and "my-set" in capsys.readouterr().out
    broken = tmp_path / "broken-set"
    shutil.copytree(folder, broken)
    (broken / "5m.png").unlink()
    assert main(["vision", "render", "--style", str(broken), "--out", str(out)]) == 2
    (tmp_path / "junk").mkdir()
    (tmp_path / "junk" / "style.json").write_text("{")
    assert main(["vision", "render", "--style", str(tmp_path / "junk"), "--out", str(out)]) == 2
    assert main(["vision", "render", "--style", "no-such-style", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("mahjong-table: error:") == 3 and "Traceback" not in err and "5m.png" in err, err
