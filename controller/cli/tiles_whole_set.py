"""``mahjong-table tiles enroll --whole-set`` and ``mahjong-table tiles guide``: the whole set laid over a few
camera frames (``vision.whole_set``), the check before the set is written (``vision.set_check``) and the
printable guide (``vision.layout_guide``).

    mahjong-table tiles guide --out guide.pdf --whole-set
    mahjong-table tiles enroll --whole-set --out table.npz --layout p1.png --layout p2.png --layout p3a.png ...

Each frame's page is told from the frame (the network's reading of its tiles, :func:`vision.whole_set.detect_page`),
in any order and as often as laid; ``--pages 1,2,3`` names them instead. A page that no frame shows, a frame
without the markers or showing no page, an unreadable file: one line, exit 2. Missing faces or doubtful pairs:
one line each, the set is not written, exit 1 (``--accept-missing`` / ``--accept-doubtful`` write it anyway).
"""
from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from controller.cli import CliError

if TYPE_CHECKING:
    from vision.arrays import Image
    from vision.tile_classifier import TileClassifier
    from vision.tileset import TileSet
    from vision.whole_set import Page, PageRead


def page_list(text: str) -> list[int]:
    """``1,2,3,3`` -> [1, 2, 3, 3] (argparse type)."""
    try:
        out = [int(t) for t in text.split(",") if t.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a list of page numbers like 1,2,3") from None
    from vision.whole_set import PAGES

    bad = [n for n in out if n not in {p.number for p in PAGES}]
    if bad or not out:
        raise argparse.ArgumentTypeError(f"{text!r}: pages are {', '.join(str(p.number) for p in PAGES)}")
    return out


def _read_frames(args: argparse.Namespace, clf: TileClassifier) -> list[PageRead]:
    """Each --layout frame read as its page (detected, or named by --pages); one line for any frame that is not."""
    from vision.calibration import CalibrationError, calibrate
    from vision.tileset import read_image
    from vision.whole_set import PageError, detect_page, read_page

    if args.pages and len(args.pages) != len(args.layout):
        raise CliError(f"--pages names {len(args.pages)} pages for {len(args.layout)} --layout frames")
    frames = []
    for photo in args.layout:
        try:
            frames.append(read_image(photo))
        except ValueError as exc:
            raise CliError(str(exc)) from None
    reads = []
    for i, (photo, frame) in enumerate(zip(args.layout, frames)):
        try:
            cal = calibrate(frame)
        except CalibrationError as exc:
            raise CliError(f"{photo}: not a frame of the table's camera with the four markers in view ({exc})") from None
        try:
            rd = read_page(frame, args.pages[i], cal, classifier=clf) if args.pages else detect_page(frame, clf, cal)
        except PageError as exc:
            raise CliError(f"{photo}: {exc}") from None
        doubt = "; ".join(f"{c.label} ({c.why})" for c in rd.doubtful_cells())
        print(f"{photo}: page {rd.page.number} ({rd.page.title}): {rd.count('filled')} of {len(rd.cells)} cells "
              f"filled" + (f"; doubtful cells, not used: {doubt}" if doubt else "")
              + (f"; {len(rd.strays)} tiles outside the page's cells" if rd.strays else ""), file=sys.stderr)
        reads.append(rd)
    return reads


def _required_pages(expected: tuple[str, ...]) -> list[Page]:
    from vision.whole_set import pages_for

    return pages_for(expected)


def enroll_whole_set(args: argparse.Namespace, clf: TileClassifier) -> int:

    from controller.cli.inputs import output_file
    from vision.set_check import check_set, expected_faces
    from vision.whole_set import gather

    try:
        expected = expected_faces(args.profile)
    except LookupError as exc:
        raise CliError(str(exc)) from None
    output_file(args.out, "tile set")
    reads = _read_frames(args, clf)
    shown = {rd.page.number for rd in reads}
    lacking = [p for p in _required_pages(expected) if p.number not in shown]
    if lacking:
        raise CliError("no frame of " + "; ".join(f"page {p.number} ({p.title})" for p in lacking)
                       + ": lay it by the guide (mahjong-table tiles guide --whole-set) and take a frame")
    examples = gather(reads)
    if not examples:
        raise CliError("no tile lies on its place in any frame: nothing to enroll")
    tileset = enroll_with_progress(clf, examples, args.name or args.out.resolve().stem)
    check = check_set(tileset, expected, clf, examples)
    for line in check.lines():
        print(line)
    refused = [what for what, bad, ok in (("missing faces", check.missing, args.accept_missing),
                                           ("doubtful faces", check.doubtful, args.accept_doubtful)) if bad and not ok]
    if refused:
        flags = " / ".join(f"--accept-{w.split()[0]}" for w in refused)
        print(f"mahjong-table: the set is not written ({' and '.join(refused)}); lay the pages again, or {flags} to "
              "write it as it is", file=sys.stderr)
        return 1
    return save_and_report(tileset, args.out, clf)


def enroll_with_progress(clf: TileClassifier, examples: Mapping[str, Sequence[Image]], name: str) -> TileSet:
    """The set enrolled from ``examples``, a progress bar on stderr; a model whose outputs do not fit (another
    network): one line, not a traceback."""
    from tqdm import tqdm

    from vision.enrollment import enroll

    def bar(items: Iterable[str]) -> Iterable[str]:
        return tqdm(items, desc="enrolling", unit="class", file=sys.stderr)

    try:
        return enroll(clf, examples, name=name, progress=bar)
    except Exception as exc:
        raise CliError(f"cannot enroll with this model: {exc}") from None


def save_and_report(tileset: TileSet, out: Path, clf: TileClassifier) -> int:
    """Write the set; its classes and crop counts on stdout, the thresholds on stderr."""
    try:
        tileset.save(out)
    except OSError as exc:
        raise CliError(f"cannot write {out}: {exc.strerror or exc}") from None
    for lab, n in zip(tileset.labels, tileset.counts):
        print(f"{lab}\t{int(n)}")
    total = int(sum(tileset.counts))
    thr = clf.fusion.threshold
    print(f"enrolled {len(tileset.labels)} classes from {total} crops into {out} (answers from confidence "
          f"{tileset.threshold_for(1) or thr:.2f} in the table pipeline, {tileset.threshold_for(4) or thr:.2f} for a "
          f"photo; calibrated on the crops themselves)", file=sys.stderr)
    return 0


def guide_handler(args: argparse.Namespace) -> int:
    from controller.cli.inputs import output_file
    from vision.layout_guide import write_guide

    output_file(args.out, "guide", (".pdf", ".png"))
    try:
        written = write_guide(args.out, whole_set=args.whole_set)
    except OSError as exc:
        raise CliError(f"cannot write guide {args.out}: {exc.strerror or exc}") from None
    print(f"{', '.join(str(p) for p in written)}: the {'whole-set' if args.whole_set else 'calibration'} layout guide, "
          f"{'3 pages' if args.whole_set else '1 page'} (A4)")
    return 0
