"""The referee's camera reads with the table's own enrolled sets (``camera.tilesets``), as the table's pipeline
does, else with the enrolled sets of ``camera.styles``; each camera reader keeps its own wrong-set watch and
learned set (controller/referee/feed.py, controller/referee/camera.py; issue 30)."""
from __future__ import annotations

import asyncio
import dataclasses
from functools import lru_cache
from types import SimpleNamespace

import numpy as np
import pytest

from controller.referee import feed as feed_mod
from controller.set_learning import learned_path
from vision.style_sets import style_tileset


@lru_cache(maxsize=1)
def _kai():
    from controller.referee.sim.render import TableFilm
    from vision.calibration import calibrate
    from vision.tile_eval import table_crops

    data = table_crops("kai", 1, seed=85_000)  # tiles of the kai set, as the pipeline cuts them
    return calibrate(TableFilm("mcr", 4, style="kai", seed=11).frame()), data.crops[:12], data.labels[:12]


class _Store:
    def __init__(self, path):
        self.path = path
        self.listeners: list = []


def _feed(tmp_path, tilesets: list[str]) -> tuple[feed_mod.CameraFeed, SimpleNamespace]:
    """The referee's feed of a table whose config names ``tilesets`` (its styles: classic), run until its
    reader has read one frame (or, for a set it cannot use, until it said so twice)."""
    cal, _, _ = _kai()
    notes: list[str] = []
    done = asyncio.Event()

    class Cam:
        calibration = cal

        def sync(self):
            pass

        def next_frame(self):
            return SimpleNamespace(image=np.zeros((cal.frame_size[1], cal.frame_size[0], 3), np.uint8),
                                   t_mono=1.0, t_wall=1.0)

    async def open_camera():
        return Cam()

    def note(text):
        notes.append(text)
        if len([n for n in notes if "camera.tilesets" in n]) >= 2:
            done.set()

    svc = SimpleNamespace(open_camera=open_camera, profile="mcr", players=4, note=note, notes=notes,
                          store=_Store(tmp_path / "events.db"),
                          cfg={"camera.styles": ["classic"], "camera.tilesets": tilesets, "referee.min_score": 0.5})

    class Session:
        referee = SimpleNamespace(game_log=[])

        def __init__(self):
            self.svc = svc

        def put(self, ev):
            pass

        def caught_up(self, t, settled=True):
            if t is not None:
                done.set()

    feed = feed_mod.CameraFeed(fps=100.0)

    async def main():
        task = asyncio.create_task(feed.run(Session()))
        await asyncio.wait_for(done.wait(), 60)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    real_sleep = asyncio.sleep
    feed_mod.asyncio.sleep = lambda d: real_sleep(0)  # (a camera fault waits a second before the next try)
    try:
        asyncio.run(main())
    finally:
        feed_mod.asyncio.sleep = real_sleep
    return feed, svc


def _save(ts, path) -> str:
    ts.save(path)
    return str(path)


def test_the_referee_reads_with_the_table_s_enrolled_set_not_the_styles_sets(tmp_path):
    """A table playing kai tiles with its kai set enrolled (``camera.tilesets``) and ``camera.styles`` left at
    classic: the referee's reader is the kai set's — its prototypes, its faces for the matcher — and reads
    kai tiles (with classic's set 6 of these 12 are asked); the learned crops live beside the set file."""
    kai = style_tileset("kai")
    path = _save(kai, tmp_path / "table.npz")
    feed, svc = _feed(tmp_path, [path])
    rd = feed.reader.set_reader()
    assert np.array_equal(rd.tileset.prototypes, kai.prototypes) and rd.tileset.labels == kai.labels
    assert not np.array_equal(rd.tileset.prototypes[:1], style_tileset("classic").prototypes[:1])
    _, crops, labels = _kai()
    assert [r.label for r in feed.reader.reader.read(crops)].count("unknown") <= 1
    assert feed.learning.path == learned_path(path) and feed.learning.learner.base.labels == kai.labels
    assert not any("camera" in n for n in svc.notes)


def test_a_set_whose_faces_are_permuted_reads_them_permuted(tmp_path):
    """The set decides the faces: the kai set with every label moved one face on reads 6m as 7m, 2p as 3p."""
    kai = style_tileset("kai")
    moved = dict(zip(kai.labels, kai.labels[1:] + kai.labels[:1]))
    path = _save(dataclasses.replace(kai, labels=tuple(moved[lab] for lab in kai.labels)), tmp_path / "perm.npz")
    feed, _ = _feed(tmp_path, [path])
    _, crops, labels = _kai()
    out = [r.label for r in feed.reader.reader.read(crops)]
    hits = [o == moved[t] for o, t in zip(out, labels)]
    assert sum(hits) >= 10 and not any(o == t for o, t in zip(out, labels)), (out, labels)


@pytest.mark.parametrize("bad", ["model", "corrupt"])
def test_a_tile_set_the_referee_cannot_use_is_a_camera_fault_of_one_line(tmp_path, bad):
    kai = style_tileset("kai")
    path = tmp_path / "table.npz"
    if bad == "model":
        _save(dataclasses.replace(kai, model_id="0123456789abcdef"), path)
    else:
        path.write_bytes(b"not a tile set")
    feed, svc = _feed(tmp_path, [str(path)])
    assert feed.reader is None
    faults = [n for n in svc.notes if "camera.tilesets" in n]
    assert faults and all(n.startswith("referee: camera: camera.tilesets: ") and "\n" not in n for n in faults)


def test_two_camera_readers_of_one_process_keep_their_own_set_watch_and_learned_set():
    """Two tables in one process with the same styles: each reader has its own set watch and learned set
    (a set learned at one table, or a wrong set seen there, is not the other table's); the model and the
    template bank are loaded once and shared."""
    from controller.referee.camera import CameraReader

    cal, crops, _ = _kai()
    a, b = (CameraReader(cal, "mcr", ["classic"]) for _ in range(2))
    ra, rb = a.set_reader(), b.set_reader()
    assert ra is not rb and ra.watch is not rb.watch
    assert ra.clf is rb.clf and a.reader.reader.second is b.reader.reader.second
    ra.use(style_tileset("kai"))  # table a learned (here: another set altogether)
    assert rb.tileset.labels == style_tileset("classic").labels and rb.tileset is not ra.tileset
    for _ in range(8):  # kai tiles in view of table a: its set watch sees them, b's does not
        ra.read(crops)
    assert a.set_check()["seen"] > 0 and b.set_check()["seen"] == 0
