"""``mahjong-table vision``: the overhead camera pipeline.

    mahjong-table vision selftest --image frame.png --tileset table.npz    # or --camera cam:0, --synthetic
    mahjong-table vision render --profile riichi-ema2016 --seed 3 --out frame.png [--truth truth.json]
    mahjong-table vision render --style my-set/ --out frame.png     # a style folder: style.json + one PNG a face
    mahjong-table vision render --layout --style my-set/ --seed 1 --out layout.png   # the enrollment layout frame
    mahjong-table vision render --layout --whole-set --page 2 --style my-set/ --seed 1 --out p2.png  # a whole-set page
    mahjong-table vision read --profile mcr --tileset table.npz [--calibration cal.json] frame.png...
    mahjong-table vision read --synthetic --profile riichi-ema2016 --seed 1     # a bot hand, events as JSON
    mahjong-table vision grab --camera picamera --out f1.png     # one frame of the table's camera, saved

``read`` reads with the classifier and the enrolled tile set(s) (``--tileset``, twice for a table that
alternates two sets; ``--style`` stands for a rendered style's enrolled set) and prints one JSON line per
image (the parsed table; a tile a legal set needs but the camera did not see is ``"unknown"``) or, for a frame
sequence, one JSON line per observation event (rules.events schema).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, cast

from controller.cli.common import add_profile, print_help
from controller.cli.inputs import float_in, int_in

if TYPE_CHECKING:
    from controller.cli.frames import Image
    from vision.scene_render import Truth
    from vision.tileset import TileSet

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")
SEED = int_in(0, 2**32 - 1)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    ap = subparsers.add_parser("vision", help="overhead camera: selftest, render scenes, read tables",
                               description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="vision_command", metavar="SUBCOMMAND")
    st = sub.add_parser("selftest", help="check markers, focus, exposure, zones, contrast and tile sets")
    _source_args(st)
    st.add_argument("--style", action="append", default=[], help="a shipped tile style the table uses")
    st.add_argument("--tileset", action="append", type=Path, default=[], help="an enrolled tile set (.npz)")
    st.set_defaults(func=selftest_handler)
    rd = sub.add_parser("render", help="render a synthetic table frame (and its ground truth)")
    add_profile(rd, default="riichi-ema2016", help="the rule set of the rendered hand (default riichi-ema2016)")
    rd.add_argument("--seed", type=SEED, default=0)
    rd.add_argument("--style", default=None, help="a shipped style or a style folder (style.json + a PNG per face)")
    rd.add_argument("--step", type=float_in(0.0, 1.0), default=0.7, help="how far into the hand (0..1)")
    rd.add_argument("--out", type=Path, required=True, help="image to write (.png/.jpg)")
    rd.add_argument("--truth", type=Path, help="ground truth JSON to write")
    rd.add_argument("--layout", action="store_true",
                    help="the enrollment layout frame instead of a hand (every face once, upright for East, in the "
                         "table's centre), as 'tiles enroll --layout' reads it")
    rd.add_argument("--whole-set", action="store_true",
                    help="with --layout: a page of the whole-set layout (every copy of every face over three pages), "
                         "as 'tiles enroll --whole-set' reads it")
    rd.add_argument("--page", type=int_in(1, 3), default=None,
                    help="with --layout --whole-set: the page (1: characters and dots; 2: bamboos, honours, backs; "
                         "3: red fives, jokers, flowers)")
    rd.set_defaults(func=render_handler)
    rr = sub.add_parser("read", help="read tables from frames, or play a synthetic hand through the pipeline")
    rr.add_argument("--calibration", type=Path, help="calibration JSON (default: calibrate on each image)")
    add_profile(rr, default="riichi-ema2016", help="the rule set whose table conventions the reader uses (default riichi-ema2016)")
    rr.add_argument("--tileset", action="append", type=Path, default=[], metavar="SET.npz",
                    help="the table's enrolled tile set (repeat for a table that alternates two sets)")
    rr.add_argument("--style", action="append", default=[],
                    help="a rendered style: its enrolled set (when no --tileset), and the synthetic camera's art")
    rr.add_argument("--synthetic", action="store_true", help="a bot-played hand rendered frame by frame")
    rr.add_argument("--seed", type=SEED, default=0)
    rr.add_argument("--frames", type=int_in(0, 1_000_000), default=0,
                    help="stop after this many frames (synthetic; 0 = all)")
    rr.add_argument("images", nargs="*", type=Path)
    rr.set_defaults(func=read_handler)
    gb = sub.add_parser("grab", help="save one frame of the table's camera (for tiles enroll --layout, calibrate "
                        "--image, selftest --image)")
    gb.add_argument("--camera", required=True, help="picamera, cam:N, an rtsp:// URL (stop the service first: "
                    "one process holds a camera)")
    gb.add_argument("--out", type=Path, required=True, help="image to write (.png keeps every pixel)")
    gb.set_defaults(func=grab_handler)
    ap.set_defaults(func=print_help(ap))


def _source_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--image", type=Path, help="a camera frame")
    p.add_argument("--camera", help="cam:N, an rtsp:// URL or picamera")
    p.add_argument("--synthetic", action="store_true", help="a rendered table")


def _styles_ok(styles: list[str]) -> list[str]:
    """The styles, a folder given as its path (style.json + one PNG per face); one line for a bad one."""
    from controller.cli import CliError
    from vision.tile_render import available_styles, load_style

    out = []
    for s in styles:
        name = str(Path(s).resolve()) if s not in available_styles() and Path(s).is_dir() else s
        try:
            load_style(name)
        except ValueError as exc:
            raise CliError(f"{exc}" if Path(s).is_dir() else
                           f"unknown style {s!r}; available: {', '.join(available_styles())} or a style folder") from None
        out.append(name)
    return out


def _tilesets_ok(paths: list[Path]) -> None:
    from controller.cli.inputs import read_with
    from vision.tileset import TileSet

    for p in paths:
        read_with(TileSet.load, p, "tile set")


def selftest_handler(args: argparse.Namespace) -> int:
    from controller.cli.frames import one_frame
    from vision.selftest import selftest

    styles = _styles_ok(args.style)
    _tilesets_ok(args.tileset)
    frame = one_frame(args.image, args.camera, args.synthetic, style=(styles or ["classic"])[0])
    checks = selftest(frame, styles=styles, tilesets=args.tileset)
    for c in checks:
        mark = "ok  " if c.ok else "FAIL"
        print(f"{mark} {c.name:<16} {c.detail}" + ("" if c.ok else f"\n     fix: {c.fix}"))
    return 0 if all(c.ok for c in checks) else 1


def grab_handler(args: argparse.Namespace) -> int:
    """One frame as the service reads it (the same source, size, fixed exposure and colour order)."""
    import cv2

    from controller.cli.frames import one_frame
    from controller.cli.inputs import output_file, write_with

    output_file(args.out, "image", IMAGE_SUFFIXES)
    frame = one_frame(camera=args.camera)
    write_with(lambda p: cv2.imwrite(str(p), frame), args.out, "image", IMAGE_SUFFIXES)
    print(f"{args.out}: {frame.shape[1]}x{frame.shape[0]} from camera {args.camera}")
    return 0


def render_handler(args: argparse.Namespace) -> int:
    import cv2

    from controller.cli import CliError
    from controller.cli.inputs import output_file, write_with
    from rules.profiles import registry
    from rules.simulate import random_hands
    from vision.scene_game import scenes_from_events
    from vision.scene_render import render_scene

    if args.style:
        args.style = _styles_ok([args.style])[0]
    output_file(args.out, "image", IMAGE_SUFFIXES)
    if args.truth:
        output_file(args.truth, "ground truth")
    profile = registry.get(args.profile)
    players = 4 if 4 in profile.players else profile.players[0]  # the rule set's usual table (Siamese: three)
    try:
        hr = next(random_hands(profile, args.seed, 1, n_players=players))
    except (LookupError, ValueError) as exc:
        raise CliError(str(exc)) from None
    if (args.whole_set or args.page is not None) and not args.layout:
        raise CliError("--whole-set and --page go with --layout")
    if args.layout and args.whole_set:  # a page of the whole-set layout
        return _render_page(args)
    if args.page is not None:
        raise CliError("--page goes with --whole-set")
    if args.layout:  # the enrollment layout of the style, as the table's camera sees it
        from vision.scene_render import render_enrollment_layout

        frame, truth = render_enrollment_layout(args.style or "classic", seed=args.seed)
        write_with(lambda p: cv2.imwrite(str(p), frame), args.out, "image", IMAGE_SUFFIXES)
        if args.truth:
            write_with(lambda p: p.write_text(json.dumps(_truth_json(truth), indent=1)), args.truth, "ground truth")
        print(f"{args.out}: enrollment layout, style {truth.style}, {len(truth.tiles())} tiles")
        return 0
    scenes = scenes_from_events(args.profile, hr.events)
    sc = scenes[min(len(scenes) - 1, max(0, int(args.step * (len(scenes) - 1))))]
    import random

    from vision.conventions import conventions
    from vision.tile_render import load_style

    style = args.style
    if style is None:  # a random shipped style that holds the rule set's faces (Red's flowers: not every style)
        from controller.referee.sim.harness import styles_for

        usable = styles_for(profile)
        style = usable[random.Random(args.seed).randrange(len(usable))]
    elif conventions(profile).flowers and "1f" not in load_style(style).glyphs:
        raise CliError(f"style {style!r} has no flowers, and {args.profile} plays with them")
    frame, truth = render_scene(sc, seed=args.seed, style=style)
    write_with(lambda p: cv2.imwrite(str(p), frame), args.out, "image", IMAGE_SUFFIXES)
    if args.truth:
        write_with(lambda p: p.write_text(json.dumps(_truth_json(truth), indent=1)), args.truth, "ground truth")
    print(f"{args.out}: {args.profile}, style {truth.style}, {len(truth.tiles())} tiles")
    return 0


def _render_page(args: argparse.Namespace) -> int:
    import cv2

    from controller.cli import CliError
    from controller.cli.inputs import write_with
    from vision.whole_set import page, render_page

    if args.page is None:
        raise CliError("--whole-set needs --page 1, 2 or 3")
    try:
        frame, truth = render_page(args.style or "classic", args.page, seed=args.seed)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    write_with(lambda p: cv2.imwrite(str(p), frame), args.out, "image", IMAGE_SUFFIXES)
    if args.truth:
        write_with(lambda p: p.write_text(json.dumps(_truth_json(truth), indent=1)), args.truth, "ground truth")
    print(f"{args.out}: whole-set layout page {args.page} ({page(args.page).title}), style {truth.style}, "
          f"{len(truth.tiles())} tiles")
    return 0


def _truth_json(truth: Truth) -> dict[str, object]:
    import dataclasses

    return {
        "style": truth.style, "camera_h": truth.pose.h.tolist(),
        "scene": dataclasses.asdict(truth.scene),
        "objects": [{"label": o.label, "seat": o.seat, "zone": o.zone, "index": o.index, "turns": o.turns,
                     "poly_mm": o.poly_mm.round(2).tolist(), "poly_px": o.poly_px.round(2).tolist()}
                    for o in truth.objects],
    }


def read_handler(args: argparse.Namespace) -> int:
    import dataclasses

    import cv2

    from controller.cli import CliError
    from controller.cli.tiles import load_tilesets
    from vision.calibration import CalibrationError, Rectifier, calibrate
    from vision.pipeline import make_reader
    from vision.scene_parse import SceneParser
    from vision.tileset import TileSetError

    args.style = _styles_ok(args.style)
    sets = load_tilesets(args.tileset)
    if args.synthetic:
        return _read_synthetic(args, sets)
    if not args.images:
        raise CliError("give images to read, or --synthetic")
    try:
        reader = make_reader(args.style or ([] if sets else ["classic"]), tilesets=sets)
    except (TileSetError, ValueError) as exc:
        raise CliError(str(exc)) from None
    parser = SceneParser(args.profile, reader, face=getattr(reader, "face", None))
    from controller.cli.inputs import input_file
    from controller.cli.pose import check_pose, load_calibration

    cal = load_calibration(args.calibration) if args.calibration else None
    for p in args.images:
        raw = cv2.imread(str(input_file(p, "image")), cv2.IMREAD_COLOR)
        if raw is None:
            raise CliError(f"cannot read image {p}")
        img = cast("Image", raw)
        if cal is not None:
            check_pose(cal, img, str(p))  # a frame from another pose is refused, never misread
        try:
            c = cal or calibrate(img)
        except CalibrationError as exc:
            raise CliError(f"{p}: {exc}") from None
        scene, info = parser.parse(Rectifier(c).rectify(img))
        print(json.dumps({"image": str(p), "scene": dataclasses.asdict(scene), "occluded": sorted(info.occluded)}))
    return 0


def _read_synthetic(args: argparse.Namespace, sets: list[TileSet]) -> int:
    from vision.calibration import calibrate
    from vision.camera import SyntheticSource
    from vision.pipeline import VisionPipeline

    style = (args.style or ["classic"])[0]
    src = SyntheticSource.game(args.profile, args.seed, style)
    pipe = None
    while (f := src.read()) is not None and (args.frames <= 0 or f.index < args.frames):
        if pipe is None:
            pipe = VisionPipeline(calibrate(f.image), args.profile, [style], tilesets=sets)
        for e in pipe.process(f.image, t_mono=f.t_mono, t_wall=f.t_wall).events:
            sys.stdout.write(json.dumps(e.to_json()) + "\n")
    return 0
