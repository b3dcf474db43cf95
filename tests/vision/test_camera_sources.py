"""The live camera sources as the Pi and USB cameras deliver them (vision/camera.py), with fakes that behave as
the libraries document: picamera2's formats (its manual, "Image formats": "RGB888 - 24 bits per pixel, ordered
[B, G, R]"; "BGR888 - ... ordered [R, G, B]"; XRGB8888 [B, G, R, 255], XBGR8888 [R, G, B, 255]), a picamera2
that cannot be imported (apt's simplejpeg under the venv's numpy 2), and a V4L2 capture that takes or refuses
MJPG. A camera that cannot be opened is one line and a camera_fault, never a traceback."""
from __future__ import annotations

import logging
import subprocess
import sys
import types
from pathlib import Path

import cv2
import numpy as np
import pytest

import vision.camera as camera
from controller import config

ROOT = Path(__file__).resolve().parents[2]
W, H = 64, 48
NUMPY_ABI = ("numpy.dtype size changed, may indicate binary incompatibility. Expected 96 from C header, got 88 "
             "from PyObject")


def scene_rgb() -> np.ndarray:
    """What the lens sees, in R,G,B: a red patch on the left, a blue one on the right, green between."""
    img = np.zeros((H, W, 3), np.uint8)
    img[:, : W // 3] = (255, 0, 0)
    img[:, W // 3: 2 * W // 3] = (0, 255, 0)
    img[:, 2 * W // 3:] = (0, 0, 255)
    return img


def as_picamera2_delivers(rgb: np.ndarray, fmt: str) -> np.ndarray:
    """The array picamera2's capture_array gives for ``fmt`` (the byte order of its manual)."""
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    a = np.full_like(r, 255)
    return {"RGB888": np.dstack([b, g, r]), "BGR888": np.dstack([r, g, b]),
            "XRGB8888": np.dstack([b, g, r, a]), "XBGR8888": np.dstack([r, g, b, a])}[fmt]


class FakePicamera2:
    cameras: list[dict] = [{"Model": "imx708", "Num": 0}]
    opened: list[FakePicamera2] = []

    def __init__(self):
        if not self.cameras:
            raise IndexError("list index out of range")  # what Picamera2() raises with no camera attached
        self.format = ""
        self.controls: dict = {}
        FakePicamera2.opened.append(self)

    @classmethod
    def global_camera_info(cls):
        return list(cls.cameras)

    def create_video_configuration(self, main):
        return {"main": dict(main)}

    def configure(self, cfg):
        self.format = cfg["main"]["format"]
        assert self.format in ("RGB888", "BGR888", "XRGB8888", "XBGR8888")

    def set_controls(self, c):
        self.controls.update(c)

    def start(self):
        pass

    def capture_array(self, stream="main"):
        return as_picamera2_delivers(scene_rgb(), self.format)

    def stop(self):
        pass

    def close(self):
        pass


@pytest.fixture
def picamera2(monkeypatch):
    mod = types.ModuleType("picamera2")
    mod.Picamera2 = FakePicamera2  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "picamera2", mod)
    monkeypatch.setattr(FakePicamera2, "cameras", [{"Model": "imx708", "Num": 0}])
    return FakePicamera2


def broken_picamera2(tmp: Path, error: str) -> Path:
    """A picamera2 package that raises on import as apt's does under numpy 2 (its simplejpeg)."""
    pkg = tmp / "fakepkgs" / "picamera2"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text(f"raise {error}\n")
    return pkg.parent


def test_a_red_patch_arrives_red_in_bgr(picamera2):
    cam = camera.PiCamera(size=(W, H))
    img = cam.read().image
    cam.close()
    assert picamera2.opened[-1].format == "RGB888"
    assert tuple(img[H // 2, 2]) == (0, 0, 255), "red, in OpenCV's B,G,R"
    assert tuple(img[H // 2, W - 2]) == (255, 0, 0), "blue"
    hue = cv2.cvtColor(img, cv2.COLOR_BGR2HSV)[H // 2, 2, 0]
    assert hue in (0, 179), "the pipeline's hue of a red tile face is red"


@pytest.mark.parametrize("fmt, bgr", [("RGB888", True), ("BGR888", False), ("XRGB8888", True), ("XBGR8888", False)])
def test_the_fake_delivers_what_the_manual_says(fmt, bgr):
    got = as_picamera2_delivers(scene_rgb(), fmt)[H // 2, 2, :3]
    assert (tuple(got) == (0, 0, 255)) is bgr


def test_a_picamera2_that_does_not_import_is_one_line(tmp_path, monkeypatch):
    monkeypatch.delitem(sys.modules, "picamera2", raising=False)
    monkeypatch.syspath_prepend(str(broken_picamera2(tmp_path, f"ValueError({NUMPY_ABI!r})")))
    with pytest.raises(camera.CameraOpenError) as e:
        camera.PiCamera(size=(W, H))
    assert "\n" not in str(e.value)
    assert str(e.value).startswith("picamera2 cannot be imported (ValueError: numpy.dtype size changed")
    assert camera.picamera_problem() == str(e.value)


def test_no_camera_on_the_ribbon_is_one_line(picamera2, monkeypatch):
    monkeypatch.setattr(FakePicamera2, "cameras", [])
    with pytest.raises(camera.CameraOpenError, match=r"^the Pi camera cannot be opened \(IndexError: list index"):
        camera.PiCamera(size=(W, H))
    assert camera.picamera_problem().startswith("no camera on the camera connector")


def test_open_table_camera_turns_any_failure_into_a_camera_error(tmp_path, monkeypatch):
    from controller.table_camera import CameraError, open_table_camera

    monkeypatch.delitem(sys.modules, "picamera2", raising=False)
    monkeypatch.syspath_prepend(str(broken_picamera2(tmp_path, "RuntimeError('libcamera: no cameras available')")))
    cfg = config.defaults().with_overrides(camera__source="picamera")
    with pytest.raises(CameraError, match=r"^camera 'picamera': cannot open it: picamera2 cannot be imported "
                                          r"\(RuntimeError: libcamera: no cameras available\)"):
        open_table_camera(cfg)

    def bug(*a, **k):
        raise KeyError("format")

    monkeypatch.setattr(camera, "open_source", bug)
    with pytest.raises(CameraError, match=r"^camera 'picamera': cannot open it: KeyError: 'format'$"):
        open_table_camera(cfg)


def test_the_service_records_one_camera_fault_and_logs_one_line(tmp_path, monkeypatch, caplog):
    from controller.service import _config_camera
    from controller.table_camera import CameraError
    from rules.events import DeviceFault
    from tests.controller.test_table_camera import Rig, run, until

    monkeypatch.delitem(sys.modules, "picamera2", raising=False)
    monkeypatch.syspath_prepend(str(broken_picamera2(tmp_path, f"ValueError({NUMPY_ABI!r})")))
    rig = Rig(tmp_path, auto=False)
    rig.svc.cfg = rig.svc.cfg.with_overrides(camera__source="picamera")
    rig.svc.camera_factory = _config_camera
    faults: list = []

    async def scenario(svc):
        for _ in range(3):  # the camera view and the referee ask again and again: one fault, one line
            with pytest.raises(CameraError):
                await svc.open_camera()
        await until(lambda: faults.extend(e for e in rig.store.events(f"{svc.cfg.table.id}/table")
                                          if isinstance(e, DeviceFault)) or faults)

    caplog.set_level(logging.INFO)
    try:
        run(rig, scenario)
    finally:
        rig.close()
    assert [(f.code, f.part) for f in faults] == [("camera_fault", "camera")]
    assert faults[0].message.startswith("camera 'picamera': cannot open it: picamera2 cannot be imported "
                                        "(ValueError: numpy.dtype size changed")
    lines = [r for r in caplog.records if "camera_fault" in r.getMessage()]
    assert len(lines) == 1 and lines[0].levelno == logging.ERROR and lines[0].name == "mahjong_table.camera"
    assert not any(r.exc_info for r in caplog.records), "no traceback"


def test_config_check_reports_a_camera_that_cannot_be_imported_or_found(tmp_path):
    conf = tmp_path / "config.toml"
    conf.write_text(f'[camera]\nsource = "picamera"\n[store]\npath = "{tmp_path / "e.sqlite"}"\n')
    fake = broken_picamera2(tmp_path, f"ValueError({NUMPY_ABI!r})")
    env = {"PYTHONPATH": f"{fake}:{ROOT}", "PATH": "/usr/bin:/bin"}
    p = subprocess.run([sys.executable, "-m", "controller", "config", "check", str(conf)], capture_output=True,
                       text=True, cwd=ROOT, env=env, timeout=60)
    assert p.returncode == 1 and "Traceback" not in p.stderr
    assert p.stdout.splitlines()[0].startswith(f"{conf}:2: camera.source: 'picamera': picamera2 cannot be imported "
                                               "(ValueError: numpy.dtype size changed")
    (fake / "picamera2" / "__init__.py").write_text("class Picamera2:\n    @staticmethod\n"
                                                    "    def global_camera_info():\n        return []\n")
    p = subprocess.run([sys.executable, "-m", "controller", "config", "check", str(conf)], capture_output=True,
                       text=True, cwd=ROOT, env=env, timeout=60)
    assert p.returncode == 1
    assert p.stdout.splitlines()[0].startswith(f"{conf}:2: camera.source: 'picamera': no camera on the camera connector")
    conf.write_text(f'[camera]\nsource = "cam:42"\n[store]\npath = "{tmp_path / "e.sqlite"}"\n')
    p = subprocess.run([sys.executable, "-m", "controller", "config", "check", str(conf)], capture_output=True,
                       text=True, cwd=ROOT, env=env, timeout=60)
    assert p.returncode == 1 and f"{conf}:2: camera.source: 'cam:42': no /dev/video42" in p.stdout


# --- USB cameras: MJPG ----------------------------------------------------------------------------------------

YUYV = cv2.VideoWriter_fourcc(*"YUYV")


class FakeCapture:
    """cv2.VideoCapture of a UVC webcam: YUYV until asked; ``takes_mjpg`` False: it refuses MJPG."""

    takes_mjpg = True

    def __init__(self, spec):
        self.spec = spec
        self.props = {cv2.CAP_PROP_FOURCC: float(YUYV)}
        self.asked: list[tuple[int, float]] = []
        FakeCapture.last = self

    def isOpened(self):
        return True

    def set(self, prop, value):
        self.asked.append((prop, value))
        if prop == cv2.CAP_PROP_FOURCC and int(value) == camera.MJPG and not self.takes_mjpg:
            return False
        self.props[prop] = float(value)
        return True

    def get(self, prop):
        return self.props.get(prop, 0.0)

    def read(self):
        return True, np.zeros((H, W, 3), np.uint8)

    def release(self):
        pass


def test_a_usb_camera_is_asked_for_mjpg_before_the_size(monkeypatch):
    monkeypatch.setattr(camera.cv2, "VideoCapture", FakeCapture)
    monkeypatch.setattr(FakeCapture, "takes_mjpg", True)
    cam = camera.CvCamera(0, size=(1920, 1080))
    asked = [p for p, _ in FakeCapture.last.asked]
    assert asked.index(cv2.CAP_PROP_FOURCC) < asked.index(cv2.CAP_PROP_FRAME_WIDTH)
    assert int(FakeCapture.last.get(cv2.CAP_PROP_FOURCC)) == cv2.VideoWriter_fourcc(*"MJPG")
    assert cam.fourcc == "MJPG" and cam.read() is not None


def test_a_usb_camera_that_refuses_mjpg_keeps_its_own_format(monkeypatch, caplog):
    monkeypatch.setattr(camera.cv2, "VideoCapture", FakeCapture)
    monkeypatch.setattr(FakeCapture, "takes_mjpg", False)
    caplog.set_level(logging.INFO, logger="mahjong_table.camera")
    cam = camera.CvCamera(0, size=(1920, 1080))
    assert cam.fourcc == "YUYV" and cam.read() is not None
    assert [r.getMessage() for r in caplog.records] == ["camera cam:0 refused MJPG: keeps YUYV"]
    assert (cv2.CAP_PROP_FRAME_WIDTH, 1920) in FakeCapture.last.asked


def test_a_stream_is_not_asked_for_a_pixel_format(monkeypatch):
    monkeypatch.setattr(camera.cv2, "VideoCapture", FakeCapture)
    camera.CvCamera("rtsp://192.168.1.9/stream")
    assert cv2.CAP_PROP_FOURCC not in [p for p, _ in FakeCapture.last.asked]


def test_vision_grab_saves_the_frame_the_service_would_read(tmp_path):
    frames = tmp_path / "frames"
    frames.mkdir()
    img = cv2.cvtColor(scene_rgb(), cv2.COLOR_RGB2BGR)
    cv2.imwrite(str(frames / "0001.png"), img)
    out = tmp_path / "f1.png"
    mt = [sys.executable, "-m", "controller", "vision", "grab"]
    p = subprocess.run([*mt, "--camera", str(frames), "--out", str(out)], capture_output=True, text=True, cwd=ROOT)
    assert p.returncode == 0, p.stderr
    assert p.stdout == f"{out}: {W}x{H} from camera {frames}\n"
    assert np.array_equal(cv2.imread(str(out)), img)
    fake = broken_picamera2(tmp_path, f"ValueError({NUMPY_ABI!r})")
    p = subprocess.run([*mt, "--camera", "picamera", "--out", str(tmp_path / "f2.png")], capture_output=True,
                       text=True, cwd=ROOT, env={"PYTHONPATH": f"{fake}:{ROOT}", "PATH": "/usr/bin:/bin"})
    assert p.returncode == 2 and p.stderr.count("\n") == 1 and not (tmp_path / "f2.png").exists()
    assert p.stderr.startswith("mahjong-table: error: camera picamera: picamera2 cannot be imported (ValueError: ")
