"""Pre-session self-test of the overhead camera: each check passes or says how to fix it.

    report = selftest(frame, tilesets=[Path("table.npz")])       # or styles=["classic"] (synthetic camera)
    for c in report: print(c.ok, c.name, c.detail, c.fix)

Checks: the four calibration markers are found and fit well; focus (sharpness of the marker edges);
exposure (felt brightness, clipped pixels); every zone lies inside the frame; the felt contrasts with each
tile set's faces and backs; a tile set is enrolled (a readable ``.npz`` of the installed model -- a rendered
style of the synthetic camera stands for its enrolled set); and the tiles in view look like the enrolled
set(s): read with them, most tiles on the table must be answered with confidence (a set enrolled for
another table's tiles is not).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.arrays import Float64Array, Image
from vision.calibration import MARKER_IDS, Calibration, CalibrationError, Rectifier, calibrate, detect_markers
from vision.geometry import DEFAULT_GEOMETRY, TableGeometry, apply_homography
from vision.zones import table_zones

if TYPE_CHECKING:
    from vision.tileset import TileSet

FOCUS_MIN = 400.0  # variance of the Laplacian over the rectified markers (a 1.3 px blur fails)
CORNERS = ("top-left", "top-right", "bottom-right", "bottom-left")


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    detail: str
    fix: str = ""


def selftest(frame: Image, *, styles: Sequence[str] = (), tilesets: Sequence[Path] = (),
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
            out.append(_contrast(s, felt, st.face, st.back))
    sets, set_checks = _load_sets(tilesets, styles)
    out += set_checks
    if cal is not None and sets:
        for p, ts in zip(tilesets, sets):
            face, back = ts.colour("face"), ts.colour("back")
            if face is not None:
                out.append(_contrast(p.name, felt, face, back if back is not None else face))
        out.append(_match(frame, cal, sets, n_seats))
    if not styles and not tilesets:
        out.append(Check("tilesets", False, "no tile set enrolled for this table",
                         "enroll the table's set: mahjong-table tiles enroll --out SET.npz --layout FRAME, "
                         "then name it (--tileset SET.npz, or camera.tilesets in the config)"))
    return out


def _contrast(name: str, felt: Float64Array, face: Sequence[int], back: Sequence[int]) -> Check:
    contrast = min(float(np.abs(felt - np.array(face)).max()), float(np.abs(felt - np.array(back)).max()))
    return Check(f"contrast:{name}", contrast >= 50, f"felt vs {name} faces/backs: {contrast:.0f} levels",
                 "" if contrast >= 50 else "use a felt colour far from the tiles' face and back colours")


def _load_sets(paths: Sequence[Path], styles: Sequence[str]) -> tuple[list[TileSet], list[Check]]:
    """The enrolled sets to read with (files, else the rendered styles' sets) and a check per file."""
    from vision.tile_reader import pipeline_classifier
    from vision.tileset import TileSet, TileSetError

    model_id = pipeline_classifier().model_id
    sets: list[TileSet] = []
    checks: list[Check] = []
    for p in paths:
        fix = f"enroll it: mahjong-table tiles enroll --out {p} --layout FRAME (or a folder of labelled crops)"
        try:
            ts = TileSet.load(p)
        except TileSetError as exc:
            checks.append(Check(f"tileset:{p.name}", False, str(exc), fix))
            continue
        if ts.model_id and ts.model_id != model_id:
            checks.append(Check(f"tileset:{p.name}", False, f"{p} was enrolled with another tile model", fix))
            continue
        ok = len(ts.labels) >= 34
        checks.append(Check(f"tileset:{p.name}", ok, f"{len(ts.labels)} faces enrolled",
                            "" if ok else fix + " with every face of the set"))
        if ok:
            sets.append(ts)
    if not paths and styles:
        from vision.style_sets import style_tileset

        sets = [style_tileset(s) for s in styles]
    return sets, checks


MATCH_COS = 0.92  # median cosine of the tiles in view to the set's nearest prototypes: the set's own tiles
#                    score 0.97-0.98 (rendered styles), another set's 0.78-0.87 (docs/vision-model.md)
MATCH_MARGIN = 0.06  # below the set's own (leave-one-out) match level


def _match(frame: Image, cal: Calibration, sets: list[TileSet], n_seats: int) -> Check:
    """Do the tiles on the table look like the enrolled set(s)? The network's own answer is confident for
    any set's tiles, so the check compares each tile's embedding with the set's prototypes instead: the
    median similarity must reach what the set's own enrolled crops reach (its leave-one-out level)."""
    from vision.scene_parse import SceneParser
    from vision.tile_reader import SetReader

    reader = SetReader(sets)
    parser = SceneParser("basic", reader, cal.geometry, 1.2, n_seats, face=reader.face)
    sim = reader.similarity(parser.tile_crops(Rectifier(cal, 1.2).rectify(frame)))
    if not len(sim):
        return Check("tiles match set", True, "no tiles in view to compare (lay a few tiles on the table to check)")
    level = min([ts.match_level - MATCH_MARGIN for ts in sets if ts.match_level > 0] or [MATCH_COS])
    med = float(np.median(sim))
    ok = med >= level
    return Check("tiles match set", ok, f"the {len(sim)} tiles in view match the set at {med:.2f} (need {level:.2f})",
                 "" if ok else "the tiles on the table do not look like the enrolled set: enroll this table's "
                 "own set (mahjong-table tiles enroll --layout FRAME) or name the right one")
