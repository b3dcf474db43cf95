"""Pre-session self-test of the overhead camera: each check passes or says how to fix it.

    report = selftest(frame, styles=["classic"], tilesets=[Path("table.npz")])
    for c in report: print(c.ok, c.name, c.detail, c.fix)

Checks: the four calibration markers are found and fit well; focus (sharpness of the marker edges);
exposure (felt brightness, clipped pixels); every zone lies inside the frame; the felt contrasts with each
tile set's faces and backs; every tile set the table uses is enrolled (a readable ``.npz``) or is one of
the shipped styles.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.calibration import MARKER_IDS, Calibration, CalibrationError, Rectifier, calibrate, detect_markers
from vision.geometry import DEFAULT_GEOMETRY, TableGeometry, apply_homography
from vision.zones import table_zones

FOCUS_MIN = 400.0  # variance of the Laplacian over the rectified markers (a 1.3 px blur fails)
CORNERS = ("top-left", "top-right", "bottom-right", "bottom-left")


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    detail: str
    fix: str = ""


def selftest(frame: np.ndarray, *, styles: Sequence[str] = (), tilesets: Sequence[Path] = (),
             geo: TableGeometry = DEFAULT_GEOMETRY, n_seats: int = 4) -> list[Check]:
    out: list[Check] = []
    found = detect_markers(frame)
    missing = [i for i in MARKER_IDS if i not in found]
    out.append(Check("markers", not missing, f"{len(found)}/4 markers found",
                     "" if not missing else "make marker(s) " + ", ".join(f"{i} ({CORNERS[i]} corner)" for i in missing)
                     + " visible: inside the picture, flat, clean and lit; reprint with 'mahjong-table calibrate "
                     "--sheet markers.pdf'"))
    cal: Calibration | None = None
    try:
        cal = calibrate(frame, geo)
    except CalibrationError as exc:
        out.append(Check("calibration", False, str(exc), "fix the markers first"))
    if cal is not None:
        out.append(Check("calibration", cal.reprojection_px < 1.5, f"marker fit error {cal.reprojection_px:.2f} px",
                         "" if cal.reprojection_px < 1.5 else "a marker is bent or moved: flatten it and recalibrate"))
        rect = Rectifier(cal, 1.2)
        top = rect.rectify(frame)
        grey = cv2.cvtColor(top, cv2.COLOR_BGR2GRAY)
        sharp = []
        for c in geo.marker_centres():
            x, y = (c * 1.2).astype(int)
            r = int(geo.marker * 0.6)
            sharp.append(float(cv2.Laplacian(grey[y - r:y + r, x - r:x + r], cv2.CV_64F).var()))
        focus = min(sharp)
        out.append(Check("focus", focus >= FOCUS_MIN, f"marker sharpness {focus:.0f} (need {FOCUS_MIN:.0f})",
                         "" if focus >= FOCUS_MIN else "turn the lens focus ring until the marker edges are crisp"))
        inner = grey[int(0.2 * grey.shape[0]):int(0.8 * grey.shape[0]), int(0.2 * grey.shape[1]):int(0.8 * grey.shape[1])]
        med = float(np.median(inner))
        clipped = float(np.mean(inner >= 250))
        ok = 40 <= med <= 210 and clipped < 0.01
        fix = "" if ok else ("raise the exposure or the light" if med < 40 else "lower the exposure or the light")
        out.append(Check("exposure", ok, f"felt median {med:.0f}, {100 * clipped:.1f} % clipped", fix))
        h, w = frame.shape[:2]
        bad = []
        for z in table_zones(n_seats):
            x0, y0, x1, y1 = z.table_rect(geo)
            pts = apply_homography(cal.h, np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]))
            if (pts < 0).any() or (pts[:, 0] >= w).any() or (pts[:, 1] >= h).any():
                bad.append(z.name)
        out.append(Check("zones", not bad, "all zones in view" if not bad else f"out of view: {', '.join(bad)}",
                         "" if not bad else "move or zoom the camera out until the whole table is in the picture"))
        felt = np.median(top[int(0.3 * top.shape[0]):int(0.7 * top.shape[0]):4,
                             int(0.3 * top.shape[1]):int(0.7 * top.shape[1]):4].reshape(-1, 3), axis=0)
        for s in styles:
            from vision.tile_render import load_style

            st = load_style(s)
            contrast = min(float(np.abs(felt - np.array(st.face)).max()), float(np.abs(felt - np.array(st.back)).max()))
            out.append(Check(f"contrast:{s}", contrast >= 50, f"felt vs {s} faces/backs: {contrast:.0f} levels",
                             "" if contrast >= 50 else "use a felt colour far from the tiles' face and back colours"))
    for p in tilesets:
        ok, detail = _tileset_ok(p)
        out.append(Check(f"tileset:{p.name}", ok, detail,
                         "" if ok else f"enroll it: mahjong-table tiles enroll --out {p} DIR"))
    if not styles and not tilesets:
        out.append(Check("tilesets", False, "no tile set given for this table",
                         "name the table's sets (--style NAME or --tileset SET.npz)"))
    return out


def _tileset_ok(p: Path) -> tuple[bool, str]:
    if not p.is_file():
        return False, f"{p} not found"
    try:
        from vision.tileset import TileSet

        ts = TileSet.load(p)
    except Exception as exc:  # noqa: BLE001 - any unreadable file is a failed check
        return False, f"{p} unreadable: {exc}"
    return len(ts.labels) >= 34, f"{len(ts.labels)} faces enrolled"
