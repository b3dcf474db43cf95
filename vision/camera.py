"""Camera sources behind one interface: ``read() -> Frame | None`` (None at the end of a replay).

* :class:`PiCamera` — picamera2 on the Pi, fixed exposure and white balance (importable only there);
* :class:`CvCamera` — OpenCV ``VideoCapture`` (USB index or RTSP/HTTP URL);
* :class:`ReplaySource` — a folder of images (sorted by name) or a video file;
* :class:`SyntheticSource` — the scene renderer playing a sequence of scenes (the default for
  ``make run`` and tests).

Every frame is stamped on the shared monotonic clock when it is captured (``t_mono``), plus wall time.
Sources never block longer than one frame interval; :func:`open_source` picks one from a spec string.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import cv2
import numpy as np


@dataclass(frozen=True)
class Frame:
    image: np.ndarray  # BGR uint8
    index: int
    t_mono: float
    t_wall: float


class FrameSource(Protocol):
    def read(self) -> Frame | None: ...

    def close(self) -> None: ...


class _Clocked:
    def __init__(self, clock: Callable[[], float] | None = None):
        self._clock = clock or time.monotonic
        self._n = 0

    def _stamp(self, img: np.ndarray) -> Frame:
        f = Frame(img, self._n, self._clock(), time.time())
        self._n += 1
        return f

    def close(self) -> None:
        pass


class PiCamera(_Clocked):
    """picamera2 with fixed exposure (µs), analogue gain and colour gains (no auto adjustments mid-game)."""

    def __init__(self, size: tuple[int, int] = (1920, 1080), exposure_us: int = 8000, gain: float = 1.5,
                 colour_gains: tuple[float, float] = (1.6, 1.8), clock: Callable[[], float] | None = None):
        super().__init__(clock)
        from picamera2 import Picamera2  # only on the Pi

        self.cam = Picamera2()
        cfg = self.cam.create_video_configuration(main={"size": size, "format": "BGR888"})
        self.cam.configure(cfg)
        self.cam.set_controls({"AeEnable": False, "AwbEnable": False, "ExposureTime": exposure_us,
                               "AnalogueGain": gain, "ColourGains": colour_gains})
        self.cam.start()

    def read(self) -> Frame | None:
        return self._stamp(self.cam.capture_array("main"))

    def close(self) -> None:
        self.cam.stop()


class CvCamera(_Clocked):
    """OpenCV VideoCapture: ``0`` (USB) or a URL; asks for 1920×1080 and manual exposure where supported."""

    def __init__(self, spec: int | str = 0, size: tuple[int, int] = (1920, 1080),
                 clock: Callable[[], float] | None = None):
        super().__init__(clock)
        self.cap = cv2.VideoCapture(spec)
        if not self.cap.isOpened():
            raise OSError(f"cannot open camera {spec!r}")
        self.cap.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
        self.cap.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])
        self.cap.set(cv2.CAP_PROP_AUTO_EXPOSURE, 0.25)  # manual on V4L2
        self.cap.set(cv2.CAP_PROP_AUTO_WB, 0)

    def read(self) -> Frame | None:
        ok, img = self.cap.read()
        return self._stamp(img) if ok else None

    def close(self) -> None:
        self.cap.release()


IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".bmp"}


class ReplaySource(_Clocked):
    """A folder of images or a video file, at ``fps`` on a simulated clock (``t_mono = index / fps``)."""

    def __init__(self, path: str | Path, fps: float = 10.0):
        super().__init__(None)
        self.fps = fps
        p = Path(path)
        self._files: list[Path] | None = None
        self._cap = None
        if p.is_dir():
            self._files = sorted(f for f in p.iterdir() if f.suffix.lower() in IMAGE_SUFFIXES)
        elif p.is_file():
            self._cap = cv2.VideoCapture(str(p))
            if not self._cap.isOpened():
                raise OSError(f"cannot read video {p}")
        else:
            raise FileNotFoundError(f"no such replay: {p}")

    def read(self) -> Frame | None:
        if self._files is not None:
            if self._n >= len(self._files):
                return None
            img = cv2.imread(str(self._files[self._n]), cv2.IMREAD_COLOR)
        else:
            ok, img = self._cap.read()  # type: ignore[union-attr]
            if not ok:
                return None
        f = Frame(img, self._n, self._n / self.fps, time.time())
        self._n += 1
        return f

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()


class SyntheticSource(_Clocked):
    """Rendered frames of a scene sequence (see :func:`vision.scene_game.render_sequence`)."""

    def __init__(self, frames: Iterator, fps: float = 10.0):
        super().__init__(None)
        self._it = frames
        self.fps = fps
        self.last_truth = None

    def read(self) -> Frame | None:
        try:
            sf = next(self._it)
        except StopIteration:
            return None
        self.last_truth = sf.truth
        return Frame(sf.frame, sf.index, sf.t_mono, time.time())

    @staticmethod
    def game(profile: str, seed: int = 0, style: str | None = None) -> SyntheticSource:
        """One bot-played hand of ``profile`` (rules.simulate) rendered frame by frame."""
        from rules.profiles import registry
        from rules.simulate import random_hands
        from vision.scene_game import render_sequence, scenes_from_events

        hr = next(random_hands(registry.get(profile), seed, 1))
        return SyntheticSource(render_sequence(scenes_from_events(profile, hr.events), seed=seed, style=style))


def open_source(spec: str, profile: str = "riichi-ema2016", seed: int = 0,
                size: tuple[int, int] = (1920, 1080)) -> FrameSource:
    """``synthetic`` | ``picamera`` | ``cam:N`` | ``rtsp://...``/``http://...`` | a folder or video path;
    ``size`` (width, height) is asked of live cameras."""
    if spec == "synthetic":
        return SyntheticSource.game(profile, seed)
    if spec == "picamera":
        return PiCamera(size=size)
    if spec.startswith("cam:"):
        return CvCamera(int(spec[4:]), size=size)
    if "://" in spec:
        return CvCamera(spec, size=size)
    return ReplaySource(spec)


def picamera_available() -> bool:
    try:
        import picamera2  # noqa: F401
    except ImportError:
        return False
    return True
