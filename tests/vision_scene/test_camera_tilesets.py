"""The table service's camera reads with the sets the config names (``camera.tilesets``)."""
from __future__ import annotations

import pytest

from controller import config
from controller.table_camera import CameraError, open_table_camera
from vision.scene_model import PondTile, SeatView


def test_camera_tilesets_is_a_checked_config_key(tmp_path):
    assert config._validate({"camera.tilesets": ["vision/tilesets/kai.npz"]}) == []
    problems = config._validate({"camera.tilesets": [str(tmp_path / "nope.npz")]})
    assert len(problems) == 1 and problems[0].startswith("camera.tilesets") and "nope.npz" in problems[0]
    assert config.defaults()["camera.tilesets"] == []


def test_the_camera_reads_with_the_configured_set():
    cfg = config.defaults().with_overrides(table__profile="mcr", camera__styles=["kai"],
                                           camera__tilesets=["vision/tilesets/kai.npz"])
    cam = open_table_camera(cfg)
    tiles = ("3m", "7p", "1z", "9s", "6z")
    cam.world.moves.append(lambda sc: sc.with_seat(0, SeatView(pond=tuple(PondTile(t) for t in tiles))))
    read = cam.read_table()
    assert read.stable and tuple(p.tile for p in read.scene.seats[0].pond) == tiles
    reader = cam._pipe.parser.reader
    assert [ts.name for ts in reader.sets] == ["kai"]
    cam.close()


def test_a_broken_set_file_is_one_line_for_the_operator(tmp_path):
    bad = tmp_path / "set.npz"
    bad.write_text("no")
    cfg = config.defaults().with_overrides(camera__tilesets=[str(bad)])
    with pytest.raises(CameraError, match="camera.tilesets: tile set .* not a readable"):
        open_table_camera(cfg)
