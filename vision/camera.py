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

import logging
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, TypeVar, cast

import cv2

from vision.arrays import Image

if TYPE_CHECKING:
    from vision.scene_game import SeqFrame
    from vision.scene_render import Truth

log = logging.getLogger("mahjong_table.camera")
_R = TypeVar("_R")


@dataclass(frozen=True)
class Frame:
    image: Image  # BGR uint8
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

    def _stamp(self, img: Image) -> Frame:
        f = Frame(img, self._n, self._clock(), time.time())
        self._n += 1
        return f

    def close(self) -> None:
        pass


class CameraOpenError(OSError):
    """A live camera that cannot be opened: its library cannot be imported, or the device refuses (one line)."""


#: What picamera2 is asked for: its "RGB888" is laid out B,G,R in memory (the picamera2 manual, "RGB888 ...
#: each pixel laid out as [B, G, R]"), which is OpenCV's BGR; its "BGR888" would be R,G,B.
PICAMERA_FORMAT = "RGB888"


class Picamera2Camera(Protocol):
    """What the table uses of a ``picamera2.Picamera2`` (picamera2 ships no type information)."""

    def create_video_configuration(self, main: dict[str, object]) -> object: ...

    def configure(self, camera_config: object) -> None: ...

    def set_controls(self, controls: dict[str, object]) -> None: ...

    def start(self) -> None: ...

    def stop(self) -> None: ...

    def capture_array(self, name: str) -> Image: ...


class Picamera2Class(Protocol):
    """The ``Picamera2`` class itself: it opens a camera, and lists the cameras libcamera sees."""

    def __call__(self) -> Picamera2Camera: ...

    def global_camera_info(self) -> list[dict[str, object]]: ...


def _import_picamera2() -> Picamera2Class:
    """picamera2's ``Picamera2`` class; any failure (not installed, or apt's simplejpeg built for numpy 1.x
    under the venv's numpy 2: ``ValueError: numpy.dtype size changed``) becomes one :class:`CameraOpenError`."""
    try:
        from picamera2 import Picamera2  # only on the Pi
    except Exception as exc:  # ImportError, ValueError (a numpy ABI mismatch), RuntimeError (libcamera)
        raise CameraOpenError(f"picamera2 cannot be imported ({type(exc).__name__}: {exc}); "
                              "run 'sudo systemd/install.sh' again (systemd/README.md, 'The camera')") from None
    picamera2_class: Picamera2Class = Picamera2
    return picamera2_class


class PiCamera(_Clocked):
    """picamera2 with fixed exposure (µs), analogue gain and colour gains (no auto adjustments mid-game)."""

    def __init__(self, size: tuple[int, int] = (1920, 1080), exposure_us: int = 8000, gain: float = 1.5,
                 colour_gains: tuple[float, float] = (1.6, 1.8), clock: Callable[[], float] | None = None):
        super().__init__(clock)
        Picamera2 = _import_picamera2()
        try:
            self.cam = Picamera2()
            cfg = self.cam.create_video_configuration(main={"size": size, "format": PICAMERA_FORMAT})
            self.cam.configure(cfg)
            self.cam.set_controls({"AeEnable": False, "AwbEnable": False, "ExposureTime": exposure_us,
                                   "AnalogueGain": gain, "ColourGains": colour_gains})
            self.cam.start()
        except Exception as exc:  # no camera on the ribbon (IndexError), busy (RuntimeError), ...
            raise CameraOpenError(f"the Pi camera cannot be opened ({type(exc).__name__}: {exc})") from None

    def read(self) -> Frame | None:
        return self._stamp(self.cam.capture_array("main"))

    def close(self) -> None:
        self.cam.stop()
        close = getattr(self.cam, "close", None)
        if close is not None:
            close()


MJPG = cv2.VideoWriter.fourcc(*"MJPG")


def _quietly(fn: Callable[[], _R]) -> _R:
    """``fn()`` with OpenCV's log at errors only."""
    lg = getattr(getattr(cv2, "utils", None), "logging", None)
    if lg is None:
        return fn()
    before = lg.getLogLevel()
    lg.setLogLevel(lg.LOG_LEVEL_ERROR)
    try:
        return fn()
    finally:
        lg.setLogLevel(before)


def fourcc_text(code: float) -> str:
    n = int(code)
    return "".join(chr((n >> (8 * i)) & 0xFF) for i in range(4)) if n > 0 else "?"


class CvCamera(_Clocked):
    """OpenCV VideoCapture: ``0`` (USB) or a URL; asks for 1920×1080 and manual exposure where supported.

    A USB (V4L2) camera is asked for MJPG first: most UVC webcams give ~5 fps at 1080p in their default
    uncompressed YUYV and 30 fps in MJPG. One that refuses keeps its own format (logged once)."""

    def __init__(self, spec: int | str = 0, size: tuple[int, int] = (1920, 1080),
                 clock: Callable[[], float] | None = None):
        super().__init__(clock)
        self.cap = _quietly(lambda: cv2.VideoCapture(spec))  # (OpenCV's own warnings of a missing device: our one line says it)
        if not self.cap.isOpened():
            raise CameraOpenError(f"cannot open camera {spec!r}")
        self.fourcc = ""
        if isinstance(spec, int):  # the pixel format is asked before the size (V4L2 picks sizes per format)
            before = self.cap.get(cv2.CAP_PROP_FOURCC)
            asked = self.cap.set(cv2.CAP_PROP_FOURCC, MJPG)
            now = self.cap.get(cv2.CAP_PROP_FOURCC)
            if not asked or int(now) != MJPG:
                log.info("camera cam:%d refused MJPG: keeps %s", spec, fourcc_text(before))
                if int(now) != int(before) and before > 0:
                    self.cap.set(cv2.CAP_PROP_FOURCC, before)
                now = before
            self.fourcc = fourcc_text(now)
        self.cap.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
        self.cap.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])
        self.cap.set(cv2.CAP_PROP_AUTO_EXPOSURE, 0.25)  # manual on V4L2
        self.cap.set(cv2.CAP_PROP_AUTO_WB, 0)

    def read(self) -> Frame | None:
        ok, img = self.cap.read()
        return self._stamp(cast(Image, img)) if ok else None

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
        self._cap: cv2.VideoCapture | None = None
        if p.is_dir():
            self._files = sorted(f for f in p.iterdir() if f.suffix.lower() in IMAGE_SUFFIXES)
        elif p.is_file():
            self._cap = cv2.VideoCapture(str(p))
            if not self._cap.isOpened():
                raise CameraOpenError(f"cannot read video {p}")
        else:
            raise FileNotFoundError(f"no such replay: {p}")

    def read(self) -> Frame | None:
        if self._files is not None:
            if self._n >= len(self._files):
                return None
            # (a file OpenCV cannot decode gives None, and a frame of None, as it always has)
            img = cast(Image, cv2.imread(str(self._files[self._n]), cv2.IMREAD_COLOR))
        else:
            cap = self._cap
            assert cap is not None  # a replay is a folder (files) or a video (cap)
            ok, read = cap.read()
            if not ok:
                return None
            img = cast(Image, read)
        f = Frame(img, self._n, self._n / self.fps, time.time())
        self._n += 1
        return f

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()


class SyntheticSource(_Clocked):
    """Rendered frames of a scene sequence (see :func:`vision.scene_game.render_sequence`)."""

    def __init__(self, frames: Iterator[SeqFrame], fps: float = 10.0):
        super().__init__(None)
        self._it = frames
        self.fps = fps
        self.last_truth: Truth | None = None

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
    return picamera_problem(list_cameras=False) is None


def picamera_problem(list_cameras: bool = True) -> str | None:
    """Why the Pi camera cannot be used here (None: picamera2 imports and, with ``list_cameras``, libcamera
    lists a camera); ``mahjong-table config check`` prints it."""
    try:
        Picamera2 = _import_picamera2()
    except CameraOpenError as exc:
        return str(exc)
    if list_cameras:
        try:
            found = Picamera2.global_camera_info()
        except Exception as exc:  # libcamera itself failed
            return f"libcamera cannot list the cameras ({type(exc).__name__}: {exc})"
        if not found:
            return ("no camera on the camera connector (check the ribbon cable, both ends, contacts the right way "
                    "round; 'rpicam-hello --list-cameras' must list it)")
    return None
