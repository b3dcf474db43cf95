"""The overhead camera: present, sharp, exposed, calibrated (markers), every zone in view.

``--hw=emulator`` reads the synthetic camera (a rendered bot hand); ``--hw=real`` the camera named by
``--camera`` (``picamera``, ``cam:N``, a URL).
"""
from __future__ import annotations


def test_camera_present_and_calibrated(rig, request):
    from vision.camera import open_source
    from vision.selftest import selftest

    spec = request.config.getoption("--camera") if rig.real else "synthetic"
    src = open_source(spec, profile="basic")
    try:
        frame = src.read()
    finally:
        src.close()
    assert frame is not None, f"no frame from the camera {spec!r}"
    checks = selftest(frame.image, styles=["classic"])
    bad = [c for c in checks if not c.ok]
    assert not bad, "; ".join(f"{c.name}: {c.detail} (fix: {c.fix})" for c in bad)
    assert {c.name for c in checks} >= {"markers", "calibration", "focus", "exposure", "zones"}
