"""Camera calibration: ArUco markers at the table corners → a homography to the top-down table frame (mm).

    cal = calibrate(frame)                    # finds markers 0..3, fits table-mm → pixel homography
    cal.save(path); cal = Calibration.load(path)
    top = Rectifier(cal, px_per_mm=1.2).rectify(frame)   # the table seen from straight above
    write_marker_sheet("markers.pdf")         # or .png: the four markers at print size, to cut and stick

Markers come from OpenCV's ``DICT_4X4_50``; ids 0, 1, 2, 3 go to the top-left, top-right, bottom-right and
bottom-left corners of the table as the camera sees it (East sits at the bottom edge). Optional lens
undistortion: a camera matrix and distortion coefficients (from a chessboard calibration) stored in the
same file are folded into the rectification map, so a frame is rectified with one ``cv2.remap``.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypedDict, cast

import cv2
import numpy as np
import numpy.typing as npt

from vision.arrays import Float64Array, Image
from vision.geometry import DEFAULT_GEOMETRY, TableGeometry, apply_homography

DICTIONARY = cv2.aruco.DICT_4X4_50
MARKER_IDS = (0, 1, 2, 3)


class CalibrationError(ValueError):
    """The markers were not found well enough to calibrate."""


def _dictionary() -> cv2.aruco.Dictionary:
    return cv2.aruco.getPredefinedDictionary(DICTIONARY)


def marker_image(marker_id: int, side_px: int) -> Image:
    """The marker ``marker_id`` as a grey image ``side_px`` square (black border included, no margin)."""
    return cast(Image, cv2.aruco.generateImageMarker(_dictionary(), marker_id, side_px, borderBits=1))


def detect_markers(frame: Image) -> dict[int, Float64Array]:
    """Marker id → its 4 corners (4, 2) in frame pixels (sub-pixel refined), for the ids found."""
    grey = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    det = cv2.aruco.ArucoDetector(_dictionary(), params)
    corners, ids_found, _ = det.detectMarkers(grey)
    ids = cast("npt.NDArray[np.int32] | None", ids_found)  # None where none is found (the stubs say an array)
    out: dict[int, Float64Array] = {}
    if ids is None:
        return out
    for c, i in zip(corners, ids.ravel()):
        if int(i) in MARKER_IDS:
            out[int(i)] = c.reshape(4, 2).astype(np.float64)
    return out


class GeometryJson(TypedDict):
    """:class:`TableGeometry` in a calibration file (mm)."""

    size: float
    tile_w: float
    tile_h: float
    tile_depth: float
    marker: float
    marker_inset: float


class CalibrationJson(TypedDict):
    """A calibration file (``calibration.json``) as :meth:`Calibration.to_json` writes it."""

    version: int
    h: list[list[float]]
    frame_size: list[int]
    geometry: GeometryJson
    camera_matrix: list[list[float]] | None
    dist_coeffs: list[float] | None
    reprojection_px: float
    markers_found: list[int]


#: ``cv2.convertMaps``' CV_16SC2 pair for ``cv2.remap``: integer (x, y) per pixel (H, W, 2) and the
#: interpolation table index of their fractions (H, W)
RemapMaps = tuple[npt.NDArray[np.int16], npt.NDArray[np.uint16]]


@dataclass
class Calibration:
    """The table-mm → frame-pixel homography, plus optional lens intrinsics."""

    h: Float64Array
    frame_size: tuple[int, int]
    geometry: TableGeometry = DEFAULT_GEOMETRY
    camera_matrix: Float64Array | None = None
    dist_coeffs: Float64Array | None = None
    reprojection_px: float = 0.0
    markers_found: tuple[int, ...] = field(default_factory=tuple)

    def table_to_frame(self, pts_mm: npt.ArrayLike) -> Float64Array:
        """Table mm → (undistorted) frame pixels."""
        return apply_homography(self.h, pts_mm)

    def frame_to_table(self, pts_px: npt.ArrayLike) -> Float64Array:
        return apply_homography(np.linalg.inv(self.h), pts_px)

    def to_json(self) -> CalibrationJson:
        g = self.geometry
        return {
            "version": 1, "h": self.h.tolist(), "frame_size": list(self.frame_size),
            "geometry": {"size": g.size, "tile_w": g.tile_w, "tile_h": g.tile_h, "tile_depth": g.tile_depth,
                         "marker": g.marker, "marker_inset": g.marker_inset},
            "camera_matrix": None if self.camera_matrix is None else self.camera_matrix.tolist(),
            "dist_coeffs": None if self.dist_coeffs is None else np.ravel(self.dist_coeffs).tolist(),
            "reprojection_px": self.reprojection_px, "markers_found": list(self.markers_found),
        }

    @staticmethod
    def from_json(d: dict[str, Any]) -> Calibration:
        """A calibration from a decoded calibration file (any JSON object: a wrong one raises KeyError,
        TypeError or ValueError)."""
        cm = d.get("camera_matrix")
        dc = d.get("dist_coeffs")
        return Calibration(np.array(d["h"], np.float64), tuple(d["frame_size"]), TableGeometry(**d["geometry"]),
                           None if cm is None else np.array(cm, np.float64),
                           None if dc is None else np.array(dc, np.float64),
                           float(d.get("reprojection_px", 0.0)), tuple(d.get("markers_found", ())))

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=1))

    @staticmethod
    def load(path: str | Path) -> Calibration:
        return Calibration.from_json(json.loads(Path(path).read_text()))


def calibrate(frame: Image, geo: TableGeometry = DEFAULT_GEOMETRY, camera_matrix: Float64Array | None = None,
              dist_coeffs: Float64Array | None = None, min_markers: int = 3) -> Calibration:
    """Fit the homography from the markers seen in ``frame``; raises :class:`CalibrationError`.

    With three markers the fit uses their 12 corners (still exact for a flat table); four are better."""
    found = detect_markers(frame)
    if len(found) < min_markers:
        missing = sorted(set(MARKER_IDS) - set(found))
        raise CalibrationError(f"found {len(found)} of 4 markers (missing ids {missing}); need {min_markers}")
    img_pts = np.concatenate([found[i] for i in sorted(found)])
    if camera_matrix is not None:
        img_pts = cv2.undistortPoints(img_pts.reshape(-1, 1, 2), camera_matrix, dist_coeffs,
                                      P=camera_matrix).reshape(-1, 2)
    table_pts = np.concatenate([geo.marker_corners()[i] for i in sorted(found)])
    fitted, _ = cv2.findHomography(table_pts, img_pts, 0)
    h = cast("Float64Array | None", fitted)  # None where the points fit none (the stubs say an array)
    if h is None:
        raise CalibrationError("the marker corners do not define a homography")
    err = float(np.sqrt(np.mean(np.sum((apply_homography(h, table_pts) - img_pts) ** 2, axis=1))))
    return Calibration(h, (frame.shape[1], frame.shape[0]), geo, camera_matrix, dist_coeffs, err,
                       tuple(sorted(found)))


class Rectifier:
    """Maps frames to the top-down table image at ``px_per_mm`` with one precomputed ``cv2.remap``."""

    def __init__(self, cal: Calibration, px_per_mm: float = 1.2):
        self.cal = cal
        self.px_per_mm = px_per_mm
        n = int(round(cal.geometry.size * px_per_mm))
        self.size = n
        self.map1, self.map2 = self.block_maps(slice(0, n), slice(0, n))

    def block_maps(self, ys: slice, xs: slice, quarter_turns: int = 0) -> RemapMaps:
        """The remap tables of the top-down pixels ``[ys, xs]`` (they may run past the table), turned
        clockwise ``quarter_turns`` times: ``cv2.remap`` with them gives that block already turned."""
        px_per_mm = self.px_per_mm
        ys_, xs_ = np.mgrid[ys.start:ys.stop, xs.start:xs.stop].astype(np.float64)
        mm = np.stack([(xs_ + 0.5) / px_per_mm, (ys_ + 0.5) / px_per_mm], axis=-1)
        cal = self.cal
        src = apply_homography(cal.h, mm).reshape(-1, 2)
        if cal.camera_matrix is not None:  # undistorted pixel -> distorted (raw) pixel
            k = cal.camera_matrix
            norm = (src - k[:2, 2]) / np.array([k[0, 0], k[1, 1]])
            pts3 = np.c_[norm, np.ones(len(norm))].reshape(-1, 1, 3)
            projected = cv2.projectPoints(pts3, np.zeros(3), np.zeros(3), k, cal.dist_coeffs)[0]
            src = cast(Float64Array, projected).reshape(-1, 2)  # float64 points in, float64 out
        m = np.ascontiguousarray(np.rot90(src.reshape(*ys_.shape, 2), -quarter_turns)).astype(np.float32) - 0.5
        return cast(RemapMaps, cv2.convertMaps(m[..., 0], m[..., 1], cv2.CV_16SC2))

    def rectify(self, frame: Image) -> Image:
        return cast(Image, cv2.remap(frame, self.map1, self.map2, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT))

    def mm_to_px(self, pts_mm: npt.ArrayLike) -> Float64Array:
        return np.asarray(pts_mm, np.float64) * self.px_per_mm

    def px_to_mm(self, pts_px: npt.ArrayLike) -> Float64Array:
        return np.asarray(pts_px, np.float64) / self.px_per_mm


def marker_sheet(geo: TableGeometry = DEFAULT_GEOMETRY, dpi: int = 300) -> Image:
    """An A4 page (grey image at ``dpi``) with the four markers at their true size, labelled."""
    px_mm = dpi / 25.4
    w, h = int(round(210 * px_mm)), int(round(297 * px_mm))
    page = np.full((h, w), 255, np.uint8)
    side = int(round(geo.marker * px_mm))
    pos = [(25, 25), (115, 25), (115, 150), (25, 150)]  # mm, top-left of each marker, two per row
    corner = ("top-left", "top-right", "bottom-right", "bottom-left")
    for mid, (x, y) in enumerate(pos):
        x0, y0 = int(round(x * px_mm)), int(round(y * px_mm))
        page[y0:y0 + side, x0:x0 + side] = marker_image(mid, side)
        cv2.putText(page, f"id {mid}: {corner[mid]} corner", (x0, y0 + side + int(8 * px_mm)),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.9 * dpi / 300, 0, max(1, dpi // 150), cv2.LINE_AA)
    cv2.putText(page, f"mahjong-table markers: {geo.marker:.0f} mm squares, {geo.marker_inset:.0f} mm from "
                "the table edges; East sits at the bottom edge", (int(15 * px_mm), int(275 * px_mm)),
                cv2.FONT_HERSHEY_SIMPLEX, 0.7 * dpi / 300, 0, max(1, dpi // 200), cv2.LINE_AA)
    cv2.line(page, (int(25 * px_mm), int(265 * px_mm)), (int(125 * px_mm), int(265 * px_mm)), 0, 2)
    cv2.putText(page, "100 mm (check the print scale)", (int(130 * px_mm), int(266 * px_mm)),
                cv2.FONT_HERSHEY_SIMPLEX, 0.7 * dpi / 300, 0, max(1, dpi // 200), cv2.LINE_AA)
    return page


def write_marker_sheet(path: str | Path, geo: TableGeometry = DEFAULT_GEOMETRY, dpi: int = 300) -> Path:
    """Write the marker sheet as PNG or PDF (chosen by the suffix; the PDF keeps the print size)."""
    p = Path(path)
    page = marker_sheet(geo, dpi)
    if p.suffix.lower() == ".pdf":
        from PIL import Image

        Image.fromarray(page).convert("L").save(p, "PDF", resolution=float(dpi))
    elif p.suffix.lower() == ".png":
        cv2.imwrite(str(p), page)
    else:
        raise ValueError(f"marker sheet must be .png or .pdf, not {p.suffix!r}")
    return p
