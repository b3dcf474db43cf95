import numpy as np
import pytest

from tests.conftest import scaled
from vision.calibration import (
    Calibration,
    CalibrationError,
    Rectifier,
    calibrate,
    detect_markers,
    marker_sheet,
    write_marker_sheet,
)
from vision.geometry import DEFAULT_GEOMETRY, apply_homography
from vision.scene_model import Scene
from vision.scene_render import CameraPose, render_scene


@pytest.mark.parametrize("seed", range(scaled(3, 20)))
def test_round_trip_below_one_millimetre(seed):
    frame, truth = render_scene(Scene("riichi-ema2016"), seed=1000 + seed)
    cal = calibrate(frame)
    grid = np.mgrid[0:901:50, 0:901:50].reshape(2, -1).T.astype(float)
    back = cal.frame_to_table(apply_homography(truth.pose.h, grid))
    err = np.linalg.norm(back - grid, axis=1)
    assert err.max() < 1.0, err.max()
    assert cal.markers_found == (0, 1, 2, 3)


def test_calibration_save_load(tmp_path):
    frame, _ = render_scene(Scene("mcr"), seed=5)
    cal = calibrate(frame)
    cal.save(tmp_path / "cal.json")
    back = Calibration.load(tmp_path / "cal.json")
    assert np.allclose(back.h, cal.h) and back.frame_size == cal.frame_size


def test_missing_markers_raise():
    frame, _ = render_scene(Scene("mcr"), seed=6)
    h = frame.shape[0]
    frame[: h // 3] = 0  # the top two markers gone
    with pytest.raises(CalibrationError, match="missing ids"):
        calibrate(frame)


def test_undistortion_folds_into_the_rectifier():
    frame, truth = render_scene(Scene("riichi-ema2016"), seed=7, pose=CameraPose.nominal())
    k = np.array([[1500.0, 0, 960], [0, 1500.0, 540], [0, 0, 1]])
    cal = calibrate(frame, camera_matrix=k, dist_coeffs=np.zeros(5))
    top = Rectifier(cal).rectify(frame)
    plain = Rectifier(calibrate(frame)).rectify(frame)
    assert np.abs(top.astype(int) - plain.astype(int)).mean() < 2.0


def test_marker_sheet_prints_detectable_markers_at_size(tmp_path):
    dpi = 150
    page = marker_sheet(dpi=dpi)
    found = detect_markers(page)
    assert sorted(found) == [0, 1, 2, 3]
    side_px = np.linalg.norm(found[0][1] - found[0][0])
    assert abs(side_px - DEFAULT_GEOMETRY.marker * dpi / 25.4) < 3
    for suffix in (".png", ".pdf"):
        p = write_marker_sheet(tmp_path / f"m{suffix}", dpi=dpi)
        assert p.stat().st_size > 1000
    with pytest.raises(ValueError):
        write_marker_sheet(tmp_path / "m.txt")
