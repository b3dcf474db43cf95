"""A live camera read by a slower reader: the one-frame queue (``controller.table_camera.LatestFrame``) gives
the newest frame and drops the rest, so the reader never falls behind the camera (issue 29: a Pi 4 reads a
1080p frame in several frame intervals)."""
from __future__ import annotations

import statistics
import threading
import time

import numpy as np
import pytest

from controller.table_camera import CameraError, LatestFrame, TableCamera
from vision.camera import Frame


class FifoCamera:
    """A camera filming at ``fps`` whatever the reader does, its frames waiting in the driver's FIFO (V4L2,
    picamera2): ``read`` gives the oldest frame not yet given, waiting for it when none is due yet."""

    live = True

    def __init__(self, fps: float = 200.0, fail_after: int | None = None):
        self.fps = fps
        self.t0 = time.monotonic()
        self.given = 0
        self.fail_after = fail_after
        self.closed = threading.Event()
        self.img = np.zeros((4, 4, 3), np.uint8)

    def read(self) -> Frame | None:
        if self.closed.is_set():
            return None
        if self.fail_after is not None and self.given >= self.fail_after:
            raise OSError("VIDIOC_DQBUF: No such device")
        due = self.t0 + self.given / self.fps
        time.sleep(max(0.0, due - time.monotonic()))
        f = Frame(self.img, self.given, due, time.time())
        self.given += 1
        return f

    def close(self) -> None:
        self.closed.set()


def test_a_slow_reader_gets_the_newest_frame_and_the_others_are_dropped():
    src = FifoCamera(fps=200.0)
    cam = TableCamera(src, "mcr", ["classic"], spec="fifo")
    try:
        assert isinstance(cam.source, LatestFrame)
        ages, indices = [], []
        for _ in range(30):  # a reader taking 60 ms a frame against a camera's 5 ms
            f = cam.next_frame()
            ages.append(time.monotonic() - f.t_mono)
            indices.append(f.index)
            time.sleep(0.06)
        q = cam.source
        # without the queue the reader takes the FIFO's oldest frame: ~55 ms older at every read, 1.6 s behind
        # at the end; with it, the frame read is the one the camera just took
        assert statistics.median(ages[-10:]) < 0.3, ages
        assert all(b > a for a, b in zip(indices, indices[1:])) and indices[-1] - indices[0] > 100
        assert q.dropped > 100 and q.taken == 30 and q.captured >= q.taken + q.dropped
    finally:
        cam.close()
    assert src.closed.is_set() and not cam.source._thread.is_alive()


def test_a_driver_error_is_one_camera_error_after_the_frames_before_it():
    src = FifoCamera(fps=1000.0, fail_after=3)
    cam = TableCamera(src, "mcr", ["classic"], spec="cam:0")
    try:
        with pytest.raises(CameraError, match=r"^camera cam:0: VIDIOC_DQBUF: No such device$"):
            for _ in range(5):
                cam.next_frame()
    finally:
        cam.close()


def test_a_camera_that_stops_giving_frames_is_no_frame_not_a_hang():
    class Stalled(FifoCamera):
        def read(self):
            self.closed.wait()
            return None

    src = Stalled()
    cam = TableCamera(LatestFrame(src, timeout_s=0.2), "mcr", ["classic"], spec="cam:0")
    try:
        with pytest.raises(CameraError, match="gave no frame"):
            cam.next_frame()
    finally:
        cam.close()


def test_rendered_and_replayed_sources_are_read_on_demand():
    class Rendered(FifoCamera):
        live = False

    cam = TableCamera(Rendered(), "mcr", ["classic"])
    assert not isinstance(cam.source, LatestFrame)
    assert [cam.next_frame().index for _ in range(3)] == [0, 1, 2]  # every frame, in order
