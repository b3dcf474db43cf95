"""``mahjong-table tiles``: enroll a tile set, classify tile photos.

    mahjong-table tiles enroll --out SET.npz DIR
    mahjong-table tiles enroll --out SET.npz --layout PHOTO [--layout PHOTO2 ...]
    mahjong-table tiles enroll --whole-set --out SET.npz --layout P1.png --layout P2.png --layout P3.png ...
    mahjong-table tiles guide --out guide.pdf [--whole-set]
    mahjong-table tiles classify [--tileset SET.npz] [--best] IMAGE...

``enroll`` reads labelled crops from DIR (sub-folders named by label, ``DIR/1m/a.png``, or files named
``<label>_<anything>.png``) -- or one photo of the calibration layout: a frame of the table's own camera
with the layout in the table's centre (the markers in view), or any overhead photo of the layout -- and
writes the set (prototypes, the faces as templates, colours and the confidence thresholds calibrated on
the crops themselves: one for the table pipeline's single reads, one for a photo read in four turns). Name the set in the table's config (``camera.tilesets``) and the table reads
with it. ``--whole-set``: the frames are pages of the whole-set layout (all four copies of every face, over
three frames: ``tiles guide --whole-set`` prints where each tile goes); each frame's page is told from the
frame, and the set is written only when no expected face is missing and no two faces are too alike for the
network (one line each and exit 1 otherwise; ``--accept-missing`` / ``--accept-doubtful``). The other sources
print the same check as a warning. ``classify`` prints one line per image:
``<path>\\t<label>\\t<confidence>`` where label is a notation label, ``back``, ``unknown`` or ``none``;
with ``--best`` an ``unknown`` line has the best guess as a fourth column.

``--model M.onnx`` takes a model trained by vision/train with its sidecar ``M.json`` beside it (the class
labels ``classes``, ``input_size``, ``temperature``, ``threshold``; docs/vision-model.md); a model, sidecar,
tile set or image that cannot be read is one line on stderr and exit code 2.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from controller.cli.common import add_profile, print_help

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from vision.tile_classifier import TileClassifier
    from vision.tileset import TileSet

    Image = npt.NDArray[np.uint8]  # a BGR photo or crop


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    ap = subparsers.add_parser("tiles", help="tile classifier: enroll a tile set, classify tile photos",
                               description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="tiles_command", metavar="SUBCOMMAND")
    en = sub.add_parser("enroll", help="learn a tile set from labelled crops")
    en.add_argument("--out", required=True, type=Path, help="tile-set file to write (.npz)")
    en.add_argument("--name", default="", help="a name for the set (default: the folder's name)")
    en.add_argument("--model", type=Path, default=None, help="ONNX model (default: the shipped one)")
    en.add_argument("--layout", type=Path, action="append", default=[], metavar="PHOTO",
                    help="instead of DIR: a photo of the calibration layout -- a frame of the table's own camera "
                         "(markers in view) or any overhead photo; repeat for more crops per face "
                         "(docs/vision-model.md)")
    en.add_argument("dir", type=Path, nargs="?", metavar="DIR",
                    help="folder of labelled crops: DIR/<label>/*.png or DIR/<label>_<anything>.jpg")
    from controller.cli.tiles_whole_set import page_list

    en.add_argument("--whole-set", action="store_true",
                    help="the --layout frames are pages of the whole-set layout (every copy of every face; "
                         "'tiles guide --whole-set'); each frame's page is told from the frame")
    en.add_argument("--pages", type=page_list, default=None, metavar="1,2,3",
                    help="with --whole-set: the page of each --layout frame, in order (instead of telling it)")
    add_profile(en, help="with --whole-set: the faces the set must hold are this rule set's (default: every suit, "
                "honour and the back; red fives, jokers and flowers where laid)")
    en.add_argument("--accept-missing", action="store_true",
                    help="with --whole-set: write the set although expected faces have no crop")
    en.add_argument("--accept-doubtful", action="store_true",
                    help="with --whole-set: write the set although two of its faces are too alike for the network")
    en.set_defaults(func=enroll_handler)
    gd = sub.add_parser("guide", help="a printable guide (A4 PDF) of where each tile of the enrollment layout goes")
    gd.add_argument("--out", required=True, type=Path, help="guide to write (.pdf, or .png: one file a page)")
    gd.add_argument("--whole-set", action="store_true", help="the whole-set layout's three pages (default: the "
                    "calibration layout, one copy of each face)")
    from controller.cli.tiles_whole_set import guide_handler

    gd.set_defaults(func=guide_handler)
    cl = sub.add_parser("classify", help="classify photos of single tiles")
    cl.add_argument("--tileset", action="append", type=Path, default=[], metavar="SET.npz",
                    help="an enrolled tile set (repeat for a table that alternates two sets)")
    cl.add_argument("--model", type=Path, default=None, help="ONNX model (default: the shipped one)")
    cl.add_argument("--best", action="store_true", help="add the best guess as a fourth column to 'unknown' lines")
    cl.add_argument("images", nargs="+", type=Path, metavar="IMAGE")
    cl.set_defaults(func=classify_handler)
    ap.set_defaults(func=print_help(ap))


def _load_classifier(model: Path | None) -> TileClassifier:
    from controller.cli.inputs import read_with
    from vision.tile_classifier import TileClassifier

    if model is None:
        return TileClassifier.load(None)
    # an empty, random or truncated .onnx, a sidecar that is missing or lacks "classes": one line each
    return read_with(TileClassifier.load, model, "tile model")


def enroll_handler(args: argparse.Namespace) -> int:

    from controller.cli import CliError
    from controller.cli.inputs import output_file
    from vision.tileset import read_image, scan_folder

    if (args.dir is None) == (not args.layout):
        raise CliError("give either a folder of labelled crops (DIR) or --layout PHOTO")
    whole = (args.pages, args.profile, args.accept_missing, args.accept_doubtful)
    if not args.whole_set and any(whole):
        raise CliError("--pages, --profile, --accept-missing and --accept-doubtful go with --whole-set")
    if args.whole_set:
        if args.dir is not None:
            raise CliError("--whole-set reads --layout frames of the table's camera, not a folder")
        from controller.cli.tiles_whole_set import enroll_whole_set

        return enroll_whole_set(args, _load_classifier(args.model))
    examples: dict[str, list[Image]] = {}
    try:
        if args.layout:
            for photo in args.layout:
                for lab, crop in _layout_crops(read_image(photo)).items():
                    examples.setdefault(lab, []).append(crop)
            source = args.layout[0]
        else:
            for lab, paths in scan_folder(args.dir).items():
                examples[lab] = [read_image(p) for p in paths]
            source = args.dir
    except ValueError as exc:
        raise CliError(str(exc)) from None
    clf = _load_classifier(args.model)
    output_file(args.out, "tile set")
    from controller.cli.tiles_whole_set import enroll_with_progress, save_and_report

    tileset = enroll_with_progress(clf, examples, args.name or source.resolve().stem)
    from vision.set_check import check_set, expected_faces

    for line in check_set(tileset, expected_faces()).lines():  # a warning here: the set is written as before
        print(f"mahjong-table: warning: {line}", file=sys.stderr)
    return save_and_report(tileset, args.out, clf)


def _layout_crops(photo: Image) -> dict[str, Image]:
    """Crops per label from a layout photo: a frame of the table's camera (markers in view) is rectified and
    cut as the table pipeline cuts tiles; any other photo is read as a plain overhead photo."""
    from vision.calibration import CalibrationError, calibrate
    from vision.tile_layout import read_layout, read_table_layout

    try:
        cal = calibrate(photo)
    except CalibrationError:
        return read_layout(photo)
    return read_table_layout(photo, cal)


def load_tilesets(paths: list[Path]) -> list[TileSet]:
    """The tile sets named on a command line; one clear line (exit 2) for a missing, corrupt or empty file."""
    from controller.cli.inputs import read_with
    from vision.tileset import TileSet

    return [read_with(TileSet.load, p, "tile set") for p in paths]


def classify_handler(args: argparse.Namespace) -> int:
    from controller.cli import CliError
    from controller.cli.inputs import read_with
    from vision.tileset import TileSet, read_image

    sets = load_tilesets(args.tileset)
    images = [read_with(read_image, p, "image") for p in args.images]
    clf = _load_classifier(args.model)
    try:
        tileset = TileSet.merge(sets) if sets else None
        results = clf.classify(images, tileset=tileset)
    except Exception as exc:  # a set or model that does not fit the other (another network's prototypes)
        raise CliError(f"cannot classify with this model and tile set: {exc}") from None
    for path, res in zip(args.images, results):
        extra = f"\t{res.best}" if args.best and res.label == "unknown" else ""
        print(f"{path}\t{res.label}\t{res.confidence:.4f}{extra}")
    return 0
