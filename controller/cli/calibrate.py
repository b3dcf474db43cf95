"""``mahjong-table calibrate``: fit the overhead camera to the table, or print the marker sheet.

    mahjong-table calibrate --sheet markers.pdf          # the four ArUco markers at print size (or .png)
    mahjong-table calibrate --image frame.png --out cal.json
    mahjong-table calibrate --camera cam:0 --out cal.json   # grab one frame from a camera
    mahjong-table calibrate --synthetic --out cal.json   # a rendered table (demo, tests)

Stick markers 0..3 at the top-left, top-right, bottom-right and bottom-left corners of the table as the
camera sees it (East at the bottom edge).
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING

from controller.cli.inputs import input_file, int_in, output_file, read_with

if TYPE_CHECKING:
    import numpy.typing as npt


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    ap = subparsers.add_parser("calibrate", help="camera calibration (ArUco markers) and the marker sheet",
                               description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sheet", type=Path, help="write the marker sheet to print (.pdf or .png)")
    ap.add_argument("--image", type=Path, help="a camera frame showing the markers")
    ap.add_argument("--camera", help="grab a frame: cam:N, an rtsp:// URL or picamera")
    ap.add_argument("--synthetic", action="store_true", help="calibrate on a rendered table")
    ap.add_argument("--intrinsics", type=Path, help="JSON with camera_matrix and dist_coeffs (lens undistortion)")
    ap.add_argument("--out", type=Path, help="calibration file to write (JSON)")
    ap.add_argument("--dpi", type=int_in(72, 1200), default=300, help="marker sheet resolution, 72..1200 (default 300)")
    ap.set_defaults(func=handler)


def handler(args: argparse.Namespace) -> int:
    from controller.cli import CliError

    if not (args.sheet or args.image or args.camera or args.synthetic):
        raise CliError("give --sheet FILE, or a frame to calibrate on (--image, --camera or --synthetic)")
    out = output_file(args.out, "calibration file") if args.out else None
    if args.image:
        input_file(args.image, "image")
    cm = dc = None
    if args.intrinsics:
        from controller.cli.pose import intrinsics

        cm, dc = read_with(lambda p: intrinsics(*_intrinsics_json(p)), args.intrinsics, "intrinsics")
    if args.sheet:
        from vision.calibration import write_marker_sheet

        sheet = output_file(args.sheet, "marker sheet", (".png", ".pdf"))
        try:
            write_marker_sheet(sheet, dpi=args.dpi)
        except (ValueError, OSError) as exc:
            raise CliError(f"cannot write the marker sheet {sheet}: {exc}") from None
        if not sheet.is_file() or sheet.stat().st_size == 0:  # (cv2.imwrite fails without a word)
            raise CliError(f"cannot write the marker sheet {sheet}")
        print(f"marker sheet written to {sheet}")
    if not (args.image or args.camera or args.synthetic):
        return 0
    from controller.cli.frames import one_frame
    from vision.calibration import CalibrationError, calibrate

    frame = one_frame(args.image, args.camera, args.synthetic)
    try:
        cal = calibrate(frame, camera_matrix=cm, dist_coeffs=dc)
    except CalibrationError as exc:
        raise CliError(f"{exc}; check the markers with 'mahjong-table vision selftest'") from None
    print(f"markers {list(cal.markers_found)}, fit error {cal.reprojection_px:.2f} px")
    if out is not None:
        try:
            cal.save(out)
        except OSError as exc:
            raise CliError(f"cannot write the calibration {out}: {exc.strerror or exc}") from None
        print(f"calibration written to {out}")
    return 0


def _intrinsics_json(p: Path) -> tuple[npt.ArrayLike, npt.ArrayLike]:
    d = json.loads(p.read_text())
    if not isinstance(d, dict):
        raise ValueError("expected a JSON object with camera_matrix and dist_coeffs")
    return d["camera_matrix"], d["dist_coeffs"]
