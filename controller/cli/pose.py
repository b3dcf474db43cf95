"""Checked calibration files and camera poses for the vision commands.

:func:`load_calibration` reads a calibration file and refuses anything that is not one (any parse error, a
homography that is not a finite invertible 3×3, a frame size that is not two positive numbers).
:func:`check_pose` is the self-test's first question asked before a reading: are the table's markers where the
calibration says? A frame from another camera pose would otherwise be read against the wrong table outline —
every zone "occluded" and sticks invented — so it is refused with the distance the markers moved.
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from controller.cli import CliError
from controller.cli.inputs import read_with

if TYPE_CHECKING:
    from controller.cli.frames import Image
    from vision.calibration import Calibration

Matrix = npt.NDArray[np.float64]

POSE_TOLERANCE = 0.0075  # of the frame diagonal (14 px at 1080p, half a tile): how far a marker may sit from where the calibration says


def _calibration(path: Path) -> Calibration:
    from vision.calibration import Calibration

    cal = Calibration.load(path)
    h = np.asarray(cal.h, np.float64)
    if h.shape != (3, 3) or not np.isfinite(h).all() or abs(np.linalg.det(h)) < 1e-12:
        raise ValueError("its homography 'h' is not a finite, invertible 3x3 matrix")
    fs = cal.frame_size
    if len(fs) != 2 or not all(isinstance(v, int | float) and 16 <= v <= 20000 for v in fs):
        raise ValueError(f"its frame_size {list(fs)} is not a width and a height in pixels")
    g = cal.geometry
    if not all(np.isfinite(v) and v > 0 for v in (g.size, g.tile_w, g.tile_h, g.marker)):
        raise ValueError("its table geometry has sizes that are not positive")
    if cal.camera_matrix is not None:
        intrinsics(cal.camera_matrix, cal.dist_coeffs)
    return cal


def load_calibration(path: str | Path) -> Calibration:
    return read_with(_calibration, path, "calibration")


def intrinsics(cm: npt.ArrayLike, dc: npt.ArrayLike | None) -> tuple[Matrix, Matrix]:
    """A lens model: a finite 3×3 camera matrix and 4, 5, 8, 12 or 14 distortion coefficients."""
    m = np.asarray(cm, np.float64)
    if m.shape != (3, 3) or not np.isfinite(m).all() or m[0, 0] <= 0 or m[1, 1] <= 0:
        raise ValueError("camera_matrix must be a 3x3 matrix with positive focal lengths")
    d = np.asarray(dc if dc is not None else np.zeros(5), np.float64).ravel()
    if d.size not in (4, 5, 8, 12, 14) or not np.isfinite(d).all():
        raise ValueError("dist_coeffs must be 4, 5, 8, 12 or 14 numbers")
    return m, d


def check_pose(cal: Calibration, frame: Image, where: str) -> None:
    """Refuse a frame whose markers are not where ``cal`` says (CliError, one line)."""
    import cv2

    from vision.calibration import detect_markers

    h_px, w_px = frame.shape[:2]
    if tuple(int(v) for v in cal.frame_size) != (w_px, h_px):
        raise CliError(f"{where}: the frame is {w_px}x{h_px} but the calibration was made for "
                       f"{int(cal.frame_size[0])}x{int(cal.frame_size[1])}: calibrate this camera "
                       "('mahjong-table calibrate --image F --out cal.json')")
    found = detect_markers(frame)
    if len(found) < 3:
        raise CliError(f"{where}: {len(found)} of the 4 table markers seen: the camera does not see the table "
                       "as calibrated (check it with 'mahjong-table vision selftest')")
    expected = cal.table_to_frame(cal.geometry.marker_centres())
    worst, which = 0.0, -1
    for mid, corners in found.items():
        centre = corners.mean(axis=0)
        if cal.camera_matrix is not None:  # the calibration works on undistorted pixels
            centre = cv2.undistortPoints(centre.reshape(1, 1, 2), cal.camera_matrix, cal.dist_coeffs,
                                         P=cal.camera_matrix).reshape(2)
        off = float(np.hypot(*(centre - expected[mid])))
        if off > worst:
            worst, which = off, mid
    limit = POSE_TOLERANCE * float(np.hypot(w_px, h_px))
    if worst > limit:
        raise CliError(f"{where}: marker {which} is {worst:.0f} px from where the calibration puts it (at most "
                       f"{limit:.0f}): the camera moved or the calibration is another camera's; recalibrate "
                       "('mahjong-table calibrate') and check with 'mahjong-table vision selftest'")
