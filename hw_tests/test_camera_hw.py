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


def test_physical_dice_read_by_the_camera(rig, request):
    """Pulse the dice motor, then read the dice from the overhead camera (``table.dice = "physical"``).

    Emulator: the MCU emulator decides the dice (seeded) and the synthetic camera renders them; the values
    read must be the emulator's. Real: the technician checks the values printed against the dice.
    """
    from controller.table_camera import SimulatedTable, TableCamera
    from vision.camera import SyntheticSource, open_source

    be = rig.start_backend()
    if rig.real:
        source = open_source(request.config.getoption("--camera"), profile="basic")
    else:
        world = SimulatedTable("basic", 4, be.physical_dice)
        source = SyntheticSource(world.frames("classic"))
    cam = TableCamera(source, "basic", ["classic"])
    try:
        for _ in range(3):
            rig.run(be.dice(600), timeout=30)
            values = cam.read_dice(2)
            assert values is not None, "dice not readable: check the dice are flat and inside the centre zone"
            assert all(1 <= v <= 6 for v in values)
            if rig.real:
                assert rig.ask(f"the camera read the dice {values}: press Enter if that is what lies there")
            else:
                assert sorted(values) == sorted(be.physical_dice())
    finally:
        cam.close()
