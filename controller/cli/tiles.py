"""``mahjong-table tiles``: enroll a tile set, classify tile photos.

    mahjong-table tiles enroll --out SET.npz DIR
    mahjong-table tiles enroll --out SET.npz --layout PHOTO
    mahjong-table tiles classify [--tileset SET.npz] IMAGE...

``enroll`` reads labelled crops from DIR (sub-folders named by label, ``DIR/1m/a.png``, or files named
``<label>_<anything>.png``) -- or one photo of the calibration layout -- and writes the set's
prototypes. ``classify`` prints one line per image:
``<path>\\t<label>\\t<confidence>`` where label is a notation label, ``back``, ``unknown`` or ``none``.

``--model M.onnx`` takes a model trained by vision/train with its sidecar ``M.json`` beside it (the class
labels ``classes``, ``input_size``, ``temperature``, ``threshold``; docs/vision-model.md); a model, sidecar,
tile set or image that cannot be read is one line on stderr and exit code 2.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path


def register(subparsers: argparse._SubParsersAction) -> None:
    ap = subparsers.add_parser("tiles", help="tile classifier: enroll a tile set, classify tile photos",
                               description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="tiles_command", metavar="SUBCOMMAND")
    en = sub.add_parser("enroll", help="learn a tile set from labelled crops")
    en.add_argument("--out", required=True, type=Path, help="tile-set file to write (.npz)")
    en.add_argument("--name", default="", help="a name for the set (default: the folder's name)")
    en.add_argument("--model", type=Path, default=None, help="ONNX model (default: the shipped one)")
    en.add_argument("--layout", type=Path, metavar="PHOTO",
                    help="instead of DIR: one photo of the calibration layout (docs/vision-model.md)")
    en.add_argument("dir", type=Path, nargs="?", metavar="DIR",
                    help="folder of labelled crops: DIR/<label>/*.png or DIR/<label>_<anything>.jpg")
    en.set_defaults(func=enroll_handler)
    cl = sub.add_parser("classify", help="classify photos of single tiles")
    cl.add_argument("--tileset", action="append", type=Path, default=[], metavar="SET.npz",
                    help="an enrolled tile set (repeat for a table that alternates two sets)")
    cl.add_argument("--model", type=Path, default=None, help="ONNX model (default: the shipped one)")
    cl.add_argument("images", nargs="+", type=Path, metavar="IMAGE")
    cl.set_defaults(func=classify_handler)
    ap.set_defaults(func=lambda args: (ap.print_help(), 0)[1])


def _load_classifier(model: Path | None):
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
    from vision.tileset import enroll, read_image, scan_folder

    if (args.dir is None) == (args.layout is None):
        raise CliError("give either a folder of labelled crops (DIR) or --layout PHOTO")
    examples = {}
    try:
        if args.layout is not None:
            from vision.tile_layout import read_layout

            examples = {lab: [crop] for lab, crop in read_layout(read_image(args.layout)).items()}
            source = args.layout
        else:
            for lab, paths in scan_folder(args.dir).items():
                examples[lab] = [read_image(p) for p in paths]
            source = args.dir
    except ValueError as exc:
        raise CliError(str(exc)) from None
    clf = _load_classifier(args.model)
    name = args.name or source.resolve().stem
    output_file(args.out, "tile set")

    def bar(items):
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
    print(f"enrolled {len(tileset.labels)} classes from {total} crops into {args.out}", file=sys.stderr)
    return 0


def classify_handler(args: argparse.Namespace) -> int:
    from controller.cli import CliError
    from controller.cli.inputs import read_with
    from vision.tileset import TileSet, read_image

    sets = [read_with(TileSet.load, p, "tile set") for p in args.tileset]  # (an empty file: one line)
    images = [read_with(read_image, p, "image") for p in args.images]
    clf = _load_classifier(args.model)
    try:
        tileset = TileSet.merge(sets) if sets else None
        results = clf.classify(images, tileset=tileset)
    except Exception as exc:  # a set or model that does not fit the other (another network's prototypes)
        raise CliError(f"cannot classify with this model and tile set: {exc}") from None
    for path, res in zip(args.images, results):
        print(f"{path}\t{res.label}\t{res.confidence:.4f}")
    return 0
