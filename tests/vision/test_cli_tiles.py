"""The ``mahjong-table tiles`` command-line contract."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
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


def test_a_table_enrolls_from_its_own_camera_frame_then_reads_with_the_set(tmp_path, capsys):
    """``tiles enroll --layout FRAME`` with a frame of the table's camera (markers in view), then
    ``vision read --tileset``: the held-out style read without its art."""
    import json
    from collections import Counter

    from vision.scene_model import PondTile, Scene, SeatView
    from vision.scene_render import render_enrollment_layout, render_scene

    photos = [_write(tmp_path / f"layout{k}.png", render_enrollment_layout("kai", seed=12 + k)[0]) for k in (0, 1)]
    out = tmp_path / "table.npz"
    assert main(["tiles", "enroll", "--out", str(out), "--layout", str(photos[0]), "--layout", str(photos[1])]) == 0
    counts = dict(line.split("\t") for line in capsys.readouterr().out.strip().splitlines())
    assert len(counts) == 47 and set(counts.values()) == {"2"}
    pond = ("1m", "9p", "3s", "4z", "5z", "1f", "0p", "2s", "j")
    scene = Scene("red", (SeatView(pond=tuple(PondTile(t) for t in pond)),) + (SeatView(),) * 3)
    _write(tmp_path / "table.png", render_scene(scene, seed=5, style="kai")[0])
    assert main(["vision", "read", "--profile", "red", "--tileset", str(out), str(tmp_path / "table.png")]) == 0
    got = json.loads(capsys.readouterr().out.splitlines()[0])
    seen = Counter(p["tile"] for p in got["scene"]["seats"][0]["pond"])  # red: a free pond, no order
    assert sum((seen & Counter(pond)).values()) >= len(pond) - 1, seen


def test_classify_best_adds_the_guess_to_unknown_lines_only(tmp_path, capsys):
    imgs = [_write(tmp_path / "tile.png", render_tile("classic", "4p", size=64, seed=3))]
    for a, b in [("3p", "4p"), ("1m", "2m"), ("2s", "3s")]:  # two faces at once: no set can be sure
        x, y = (render_tile("classic", t, size=64, seed=3).astype(np.float32) for t in (a, b))
        imgs.append(_write(tmp_path / f"{a}{b}.png", ((x + y) / 2).astype(np.uint8)))
    assert main(["tiles", "classify", "--best", "--tileset", "vision/tilesets/classic.npz", *map(str, imgs)]) == 0
    lines = [line.split("\t") for line in capsys.readouterr().out.strip().splitlines()]
    assert lines[0][1] == "4p" and len(lines[0]) == 3
    assert any(p[1] == UNKNOWN for p in lines), lines
    for p in lines:
        assert len(p) == (4 if p[1] == UNKNOWN else 3), p
        if p[1] == UNKNOWN:
            assert p[3] in CLASS_LABELS


@pytest.mark.parametrize("content", [b"", b"not a tile set", b"PK\x03\x04 broken zip"])
def test_a_corrupt_or_empty_tile_set_is_one_line(tmp_path, capsys, content):
    bad = tmp_path / "set.npz"
    bad.write_bytes(content)
    img = _write(tmp_path / "t.png", render_tile("classic", "1m", size=50, seed=1))
    for argv in (["tiles", "classify", "--tileset", str(bad), str(img)],
                 ["vision", "read", "--profile", "mcr", "--tileset", str(bad), str(img)]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "tile set" in err and "Traceback" not in err, err
    np.savez(tmp_path / "zero.npz", labels=np.array([], str), prototypes=np.zeros((0, 4, 64)), counts=np.zeros(0),
             model_id=np.array(""), name=np.array(""))
    assert main(["tiles", "classify", "--tileset", str(tmp_path / "zero.npz"), str(img)]) == 2
    assert "empty" in capsys.readouterr().err


def test_a_folder_without_labelled_photos_is_one_line(tmp_path, capsys):
    (tmp_path / "notes.txt").write_text("no photos here")
    assert main(["tiles", "enroll", "--out", str(tmp_path / "s.npz"), str(tmp_path)]) == 2
    assert main(["tiles", "enroll", "--out", str(tmp_path / "s.npz"), str(tmp_path / "missing")]) == 2
    _write(tmp_path / "photo.png", render_none(size=64, seed=1))
    assert main(["tiles", "enroll", "--out", str(tmp_path / "s.npz"), "--layout", str(tmp_path / "photo.png")]) == 2
    err = capsys.readouterr().err
    assert err.count("mahjong-table: error:") == 3 and "Traceback" not in err, err


# ---- whole-set enrollment: tiles enroll --whole-set, tiles guide ------------------------------------------------

@pytest.fixture(scope="module")
def pages(tmp_path_factory) -> dict[str, Path]:
    """kai's whole set laid as the guide says, a frame a page (page 3 four times), rendered by the CLI."""
    root = tmp_path_factory.mktemp("pages")
    out = {}
    for name, page, seed in [("p1", 1, 1), ("p2", 2, 2), ("p3a", 3, 3), ("p3b", 3, 4), ("p3c", 3, 5), ("p3d", 3, 6)]:
        out[name] = root / f"{name}.png"
        assert main(["vision", "render", "--layout", "--whole-set", "--page", str(page), "--style", "kai",
                     "--seed", str(seed), "--out", str(out[name])]) == 0
    return out


def _one_line_error(capsys, *words: str) -> str:
    err = capsys.readouterr().err
    lines = [ln for ln in err.splitlines() if ln.startswith("mahjong-table:")]
    assert len(lines) == 1 and lines[0].startswith("mahjong-table: error:") and "Traceback" not in err, err
    assert all(w in lines[0] for w in words), lines[0]
    return lines[0]


def test_enroll_the_whole_set_from_its_pages_in_any_order(pages, tmp_path, capsys):
    out = tmp_path / "whole.npz"
    order = ["p3b", "p2", "p3a", "p1", "p3d", "p3c"]
    assert main(["tiles", "enroll", "--whole-set", "--out", str(out), "--profile", "red",
                 *[a for n in order for a in ("--layout", str(pages[n]))]]) == 0
    res = capsys.readouterr()
    counts = dict(line.split("\t") for line in res.out.strip().splitlines())
    assert len(counts) == 47 and all(n == "4" for lab, n in counts.items() if lab != "j") and counts["j"] == "16"
    assert f"{pages['p2']}: page 2 (bamboos, honours and backs): 68 of 68 cells filled" in res.err
    assert "enrolled 47 classes from 200 crops" in res.err
    from vision.tileset import TileSet

    assert TileSet.load(out).counts.sum() == 200


def test_a_missing_page_or_a_frame_that_is_no_page_is_one_line_and_exit_2(pages, tmp_path, capsys):
    out = tmp_path / "s.npz"
    assert main(["tiles", "enroll", "--whole-set", "--out", str(out), "--layout", str(pages["p1"])]) == 2
    _one_line_error(capsys, "no frame of page 2 (bamboos, honours and backs)")
    # MCR plays with flowers: page 3 is needed too
    assert main(["tiles", "enroll", "--whole-set", "--profile", "mcr", "--out", str(out), "--layout", str(pages["p1"]),
                 "--layout", str(pages["p2"])]) == 2
    _one_line_error(capsys, "no frame of page 3")
    bare = _write(tmp_path / "bare.png", np.full((1080, 1920, 3), 90, np.uint8))
    assert main(["tiles", "enroll", "--whole-set", "--out", str(out), "--layout", str(bare)]) == 2
    _one_line_error(capsys, str(bare), "markers")
    calib = tmp_path / "calib.png"
    assert main(["vision", "render", "--layout", "--style", "kai", "--out", str(calib)]) == 0
    capsys.readouterr()
    assert main(["tiles", "enroll", "--whole-set", "--out", str(out), "--layout", str(calib)]) == 2
    _one_line_error(capsys, "calibration layout", "without --whole-set")
    text = tmp_path / "notes.png"
    text.write_text("not an image")
    assert main(["tiles", "enroll", "--whole-set", "--out", str(out), "--layout", str(text)]) == 2
    _one_line_error(capsys, "cannot read image")
    for argv in (["--pages", "1,2", "--layout", str(pages["p1"])], ["--pages", "1,4", "--layout", str(pages["p1"])],
                 ["--pages", "x", "--layout", str(pages["p1"])], [str(tmp_path)]):
        assert main(["tiles", "enroll", "--whole-set", "--out", str(out), *argv]) == 2
        _one_line_error(capsys)
    assert main(["tiles", "enroll", "--out", str(out), "--accept-doubtful", "--layout", str(pages["p1"])]) == 2
    _one_line_error(capsys, "go with --whole-set")
    assert not out.exists()


def test_missing_faces_are_named_and_the_set_is_not_written_unless_accepted(pages, tmp_path, capsys):
    """Page 1 with every 7p taken away: 7p has no crop -- one line, exit 1, no file; --accept-missing writes it."""
    from vision.scene_render import render_laid_out
    from vision.whole_set import Grid, page

    g = Grid.centred(page(1))
    tiles = [(lab, *g.centre(r, c), 0.0) for r, c, lab in page(1).cells() if lab != "7p"]
    p1 = _write(tmp_path / "p1-no-7p.png", render_laid_out("kai", tiles, seed=40)[0])
    out = tmp_path / "s.npz"
    argv = ["tiles", "enroll", "--whole-set", "--out", str(out), "--layout", str(p1), "--layout", str(pages["p2"])]
    assert main(argv) == 1
    res = capsys.readouterr()
    assert res.out.splitlines()[0].startswith("missing: 7p (no crop") and len(res.out.splitlines()) == 1, res.out
    assert "the set is not written (missing faces)" in res.err and "--accept-missing" in res.err and not out.exists()
    assert main([*argv, "--pages", "1,2", "--accept-missing"]) == 0
    assert "7p" not in dict(line.split("\t") for line in capsys.readouterr().out.splitlines()[1:]) and out.exists()


def test_the_guide_is_an_a4_pdf_of_the_pages(tmp_path, capsys):
    pdf = tmp_path / "guide.pdf"
    assert main(["tiles", "guide", "--out", str(pdf), "--whole-set"]) == 0
    assert "3 pages" in capsys.readouterr().out
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF") and len(re.findall(rb"/Type\s*/Page\b", data)) == 3
    assert re.search(rb"/MediaBox\s*\[\s*0 0 595\.\d* 841\.\d*", data) or b"/MediaBox [0 0 595" in data  # A4 in points
    png = tmp_path / "calib.png"
    assert main(["tiles", "guide", "--out", str(png)]) == 0
    assert cv2.imread(str(png)).shape[:2] == (1754, 1240)
    for bad in (tmp_path / "guide.txt", tmp_path / "no-such-folder" / "g.pdf"):
        assert main(["tiles", "guide", "--out", str(bad)]) == 2
        _one_line_error(capsys, "guide")
