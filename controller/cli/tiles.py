"""``mahjong-table tiles``: enroll a tile set, classify tile photos.

    mahjong-table tiles enroll --out SET.npz DIR
    mahjong-table tiles enroll --out SET.npz --layout PHOTO [--layout PHOTO2 ...]
    mahjong-table tiles classify [--tileset SET.npz] [--best] IMAGE...

``enroll`` reads labelled crops from DIR (sub-folders named by label, ``DIR/1m/a.png``, or files named
``<label>_<anything>.png``) -- or one photo of the calibration layout: a frame of the table's own camera
with the layout in the table's centre (the markers in view), or any overhead photo of the layout -- and
writes the set (prototypes, the faces as templates, colours and the confidence thresholds calibrated on
the crops themselves: one for the table pipeline's single reads, one for a photo read in four turns). Name the set in the table's config (``camera.tilesets``) and the table reads
with it. ``classify`` prints one line per image:
``<path>\\t<label>\\t<confidence>`` where label is a notation label, ``back``, ``unknown`` or ``none``;
with ``--best`` an ``unknown`` line has the best guess as a fourth column.

``--model M.onnx`` takes a model trained by vision/train with its sidecar ``M.json`` beside it (the class
labels ``classes``, ``input_size``, ``temperature``, ``threshold``; docs/vision-model.md); a model, sidecar,
tile set or image that cannot be read is one line on stderr and exit code 2.
"""
from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from controller.cli.common import print_help

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
    en.set_defaults(func=enroll_handler)
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
    from tqdm import tqdm

    from controller.cli import CliError
    from controller.cli.inputs import output_file
    from vision.enrollment import enroll
    from vision.tileset import read_image, scan_folder

    if (args.dir is None) == (not args.layout):
        raise CliError("give either a folder of labelled crops (DIR) or --layout PHOTO")
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
    name = args.name or source.resolve().stem
    output_file(args.out, "tile set")

    def bar(items: Iterable[str]) -> Iterable[str]:
        return tqdm(items, desc="enrolling", unit="class", file=sys.stderr)

    try:
        tileset = enroll(clf, examples, name=name, progress=bar)
    except Exception as exc:  # a model whose outputs do not fit (another network): one line, not a traceback
        raise CliError(f"cannot enroll with this model: {exc}") from None
    try:
        tileset.save(args.out)
    except OSError as exc:
        raise CliError(f"cannot write {args.out}: {exc.strerror or exc}") from None
    for lab, n in zip(tileset.labels, tileset.counts):
        print(f"{lab}\t{int(n)}")
    total = int(sum(tileset.counts))
    thr = clf.fusion.threshold
    print(f"enrolled {len(tileset.labels)} classes from {total} crops into {args.out} (answers from confidence "
          f"{tileset.threshold_for(1) or thr:.2f} in the table pipeline, {tileset.threshold_for(4) or thr:.2f} for a "
          f"photo; calibrated on the crops themselves)", file=sys.stderr)
    return 0


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
