"""Enrollment from one photo of the calibration layout."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from controller.cli import main
from vision.tile_layout import LAYOUT, read_layout, render_layout
from vision.tile_render import load_style, render_tile


@pytest.mark.parametrize("style", ["fluffy", "classic"])
def test_grid_cells_get_their_labels(classifier, style):
    crops = read_layout(render_layout(style, seed=2))
    assert set(crops) == set(load_style(style).labels)
    labels = sorted(crops)
    res = classifier.classify([crops[lab] for lab in labels])
    right = np.mean([r.best == lab for r, lab in zip(res, labels)])
    assert right >= 0.95  # the trained model agrees with the grid position for (nearly) every cell


def test_layout_lists_every_enrollable_face_once():
    flat = [lab for row in LAYOUT for lab in row]
    assert len(flat) == len(set(flat)) == 47


def test_too_few_tiles_is_an_error():
    with pytest.raises(ValueError, match="found"):
        read_layout(np.full((300, 400, 3), 90, np.uint8))


def test_cli_enrolls_the_held_out_style_from_one_photo(tmp_path, capsys):
    photo = tmp_path / "layout.png"
    cv2.imwrite(str(photo), render_layout("kai", tile_height=90, seed=4))
    out = tmp_path / "kai.npz"
    assert main(["tiles", "enroll", "--out", str(out), "--layout", str(photo)]) == 0
    counts = capsys.readouterr().out.strip().splitlines()
    assert len(counts) == 47 and all(line.endswith("\t1") for line in counts)
    imgs = []
    for i, lab in enumerate(["1m", "5z", "8s", "6f"]):
        p = tmp_path / f"{i}.png"
        cv2.imwrite(str(p), render_tile("kai", lab, orientation=i, size=64, seed=300 + i))
        imgs.append(str(p))
    assert main(["tiles", "classify", "--tileset", str(out), *imgs]) == 0
    got = [line.split("\t")[1] for line in capsys.readouterr().out.strip().splitlines()]
    assert sum(g == t for g, t in zip(got, ["1m", "5z", "8s", "6f"])) >= 3


def test_enroll_needs_exactly_one_source(tmp_path, capsys):
    assert main(["tiles", "enroll", "--out", str(tmp_path / "s.npz")]) == 2
    assert "--layout" in capsys.readouterr().err
