"""Render and cache the training/validation crops (``vision/train/cache/``, git-ignored).

Every sample is a rendered crop passed through :func:`vision.tile_preprocess.preprocess`, stored as
uint8 RGB with its class index, orientation, style and a flag for faces that look the same upside-down
(their orientation is only known up to a half turn). Training samples are rendered upright and turned
by random quarter turns at training time; validation samples are rendered in all four orientations.

    python -m vision.train.dataset [--per-label 600] [--workers 2] [--random-styles 24 --random-per-label 60]

``--random-styles N`` first draws N randomised procedural styles (``make_assets.random_faces``, never the
held-out style's font) into ``cache/styles/`` and adds them to the training set only.

``--photoreal N`` also renders N photo-like crops per face of every *photoreal set*
(:mod:`vision.train.photoreal`: a face style rendered as a physical set with one :class:`SetLook`): the
three training styles in two looks each, the randomised styles in one look each and ``--rich-styles K``
rich random styles (``random_faces(seed, rich=True)``, seeds 5000 onward, drawn into ``cache/styles/``) --
into ``cache/photo_train.npz`` with ``--photo-none M`` crops of each set that hold no whole tile, and a
photoreal validation set of the training styles' ``cache/photo_val.npz``. ``--photoreal-only`` renders only those (beside a cache made before). The
held-out photoreal sets (:data:`vision.heldout_styles.PHOTOREAL`) are never among them.
"""
from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import TypedDict, TypeVar

import numpy as np
import numpy.typing as npt
from tqdm import tqdm

from vision.arrays import BoolArray, Image
from vision.tile_labels import BACK, CLASS_LABELS, NONE
from vision.tile_preprocess import INPUT_SIZE, preprocess
from vision.tile_render import available_styles, load_style, render_none, render_tile

CACHE = Path(__file__).resolve().parent / "cache"
TRAIN_STYLES = ("fluffy", "fluffy_black", "classic")
HELD_OUT_STYLES = ("kai",)
STYLE_IDS = {name: i for i, name in enumerate(sorted(set(TRAIN_STYLES + HELD_OUT_STYLES)))}
NONE_STYLE = -1
RANDOM_DIR = CACHE / "styles"  # randomised training styles (vision.train.make_assets.random_faces)
RANDOM_STYLE_ID0 = 10  # style ids of the randomised styles: 10, 11, ...
RANDOM_SEED = 4_000
RICH_SEED = 5_000  # rich random styles of the photoreal sets: 5000, 5001, ... (held-out ones: 9900 onward)
PHOTO_STYLE_ID0 = 40  # style ids of the photoreal sets: 40, 41, ... (int8)
PHOTO_LOOK_SEED = 70_000  # set looks of the training photoreal sets (held-out looks: 90 000 onward)

#: A flat render job (:func:`_render_job`): style (for ``none`` crops: groups of styles), label, first seed,
#: count, whether turned, crop size, the share cut tight.
RenderJob = tuple[str | tuple[tuple[str, ...], ...], str, int, int, bool, int, float]
#: A photoreal render job (:func:`_photo_job`): style, label, look seed, first seed, count, whether turned, size.
PhotoJob = tuple[str, str, int, int, int, bool, int]
#: What a job renders: the crops (N, S, S, 3) and their quarter turns.
JobCrops = tuple[Image, npt.NDArray[np.int8]]
#: Each job's class index, style id and whether the face looks the same upside-down.
JobMeta = tuple[int, int, bool]
_J = TypeVar("_J")


class Crops(TypedDict):
    """A cached set of crops (one ``.npz`` of the cache): RGB crops, class index, quarter turns, style id,
    and whether the face looks the same upside-down."""

    x: Image
    y: npt.NDArray[np.int16]
    orient: npt.NDArray[np.int8]
    style: npt.NDArray[np.int8]
    sym: BoolArray


def style_id(style: str) -> int:
    """Numeric id of a shipped style or of a randomised one (a path ``.../randNN``)."""
    if style in STYLE_IDS:
        return STYLE_IDS[style]
    return RANDOM_STYLE_ID0 + int(Path(style).name.removeprefix("rand"))


def photo_sets(random_styles: tuple[str, ...], rich_styles: tuple[str, ...]) -> list[tuple[str, int, int]]:
    """The training photoreal sets: (face style, look seed, style id)."""
    faces = [s for s in TRAIN_STYLES for _ in range(2)] + list(random_styles) + list(rich_styles)
    return [(st, PHOTO_LOOK_SEED + i, PHOTO_STYLE_ID0 + i) for i, st in enumerate(faces)]


def half_turn_symmetric(style: str, label: str) -> bool:
    """True if the face looks (nearly) the same turned upside-down, so orientation is only known mod 2."""
    if label == BACK:
        return True
    g = load_style(style).glyphs[label].astype(np.float32)
    a = g[..., 3:4] / 255.0
    img = g[..., :3] * a + 255.0 * (1 - a)
    return float(np.abs(img - img[::-1, ::-1]).mean()) < 10.0


def _render_job(job: RenderJob) -> JobCrops:
    """Render ``count`` crops of one (style, label) starting at ``seed0``; returns images and orientations.
    For ``none`` crops ``style`` is groups of styles whose tiles may show at the edges (named styles,
    randomised styles), each group drawn equally often. A share ``tight`` of the tile crops is cut as the
    table pipeline cuts them (:func:`render_tile`'s ``tight``)."""
    style, label, seed0, count, rotate, size_px, tight = job
    imgs = np.empty((count, size_px, size_px, 3), np.uint8)
    orients = np.zeros(count, np.int8)
    for i in range(count):
        seed = seed0 + i
        rng = np.random.default_rng(seed + 7_777_777)
        size = int(rng.integers(36, 80))
        k = int(rng.integers(4)) if rotate else 0
        if isinstance(style, str):
            crop = render_tile(style, label, orientation=k, size=size, seed=seed, tight=bool(rng.random() < tight))
        else:  # none crops (label none): groups of styles
            groups = [g for g in style if g]
            styles = groups[int(rng.integers(len(groups)))]
            crop = render_none(size=size, seed=seed, style=styles[int(rng.integers(len(styles)))])
        imgs[i] = preprocess(crop, size_px)
        orients[i] = k
    return imgs, orients


def _photo_job(job: PhotoJob) -> JobCrops:
    """Render ``count`` photo-like crops of one (style, look, label) from ``seed0``."""
    from vision.train.photoreal import random_look, render_photo

    style, label, look_seed, seed0, count, rotate, size_px = job
    look = random_look(look_seed)
    imgs = np.empty((count, size_px, size_px, 3), np.uint8)
    orients = np.zeros(count, np.int8)
    for i in range(count):
        rng = np.random.default_rng(seed0 + i + 5_555_555)
        size = int(rng.integers(36, 80))
        k = int(rng.integers(4)) if rotate else 0
        imgs[i] = preprocess(render_photo(style, label, look=look, orientation=k, size=size, seed=seed0 + i), size_px)
        orients[i] = k
    return imgs, orients


def build_photo(sets: list[tuple[str, int, int]], per_label: int, seed_base: int, rotate: bool, workers: int,
                size_px: int = INPUT_SIZE, desc: str = "photoreal", n_none: int = 0) -> Crops:
    """``per_label`` photo-like crops per face of every photoreal set (style, look seed, style id), then
    ``n_none`` crops of each set that hold no whole tile (felt, slivers, gaps under the set's lamps: they
    hold the ``none`` boundary where the faces look like photographs; no style of their own, as the flat
    ``none`` crops)."""
    jobs: list[PhotoJob] = []
    meta: list[JobMeta] = []
    for style, look_seed, sid in sets:
        for label in load_style(style).labels:
            seed0 = seed_base + sid * 10_000_000 + CLASS_LABELS.index(label) * 100_000
            jobs.append((style, label, look_seed, seed0, per_label, rotate, size_px))
            meta.append((CLASS_LABELS.index(label), sid, half_turn_symmetric(style, label)))
    for style, look_seed, sid in sets:
        if n_none:
            seed0 = seed_base + sid * 10_000_000 + CLASS_LABELS.index(NONE) * 100_000
            jobs.append((style, NONE, look_seed, seed0, n_none, rotate, size_px))
            meta.append((CLASS_LABELS.index(NONE), NONE_STYLE, True))
    return _collect(_photo_job, jobs, meta, workers, desc)


def _collect(fn: Callable[[_J], JobCrops], jobs: list[_J], meta: list[JobMeta], workers: int, desc: str) -> Crops:
    """Run render jobs on ``workers`` processes (a progress bar on stderr) and stack them with their labels."""
    with ProcessPoolExecutor(workers) as ex:
        results = list(tqdm(ex.map(fn, jobs, chunksize=1), total=len(jobs), desc=desc, unit="job",
                            mininterval=5.0))
    x = np.concatenate([r[0] for r in results])
    o = np.concatenate([r[1] for r in results])
    n = [len(r[0]) for r in results]
    y = np.concatenate([np.full(k, m[0], np.int16) for k, m in zip(n, meta)])
    s = np.concatenate([np.full(k, m[1], np.int8) for k, m in zip(n, meta)])
    sym = np.concatenate([np.full(k, m[2], bool) for k, m in zip(n, meta)])
    return {"x": x, "y": y, "orient": o, "style": s, "sym": sym}


def build(styles: tuple[str, ...], per_label: int, n_none: int, seed_base: int, rotate: bool,
          workers: int, extra: tuple[tuple[str, ...], int] = ((), 0), size_px: int = INPUT_SIZE,
          tight: float = 0.0) -> Crops:
    """Render ``per_label`` crops per (style, label) of ``styles``, ``extra[1]`` per label of the styles
    ``extra[0]`` and ``n_none`` none crops, at ``size_px`` square (the network's input)."""
    jobs: list[RenderJob] = []
    meta: list[JobMeta] = []
    for group, count in ((styles, per_label), extra):
        for style in group:
            for label in load_style(style).labels:
                sid = style_id(style)
                seed0 = seed_base + sid * 10_000_000 + CLASS_LABELS.index(label) * 100_000
                jobs.append((style, label, seed0, count, rotate, size_px, tight))
                meta.append((CLASS_LABELS.index(label), sid, half_turn_symmetric(style, label)))
    if n_none:  # slivers of the set's own styles only: never a held-out style's tiles, not even as none
        jobs.append(((styles, extra[0]), NONE, seed_base + 99_000_000, n_none, rotate, size_px, tight))
        meta.append((CLASS_LABELS.index(NONE), NONE_STYLE, True))
    return _collect(_render_job, jobs, meta, workers, "flat")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--per-label", type=int, default=600, help="training crops per (style, label)")
    ap.add_argument("--val-per-label", type=int, default=60)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--random-styles", type=int, default=0,
                    help="also train on this many randomised procedural styles (drawn into cache/styles/)")
    ap.add_argument("--random-per-label", type=int, default=80, help="training crops per (random style, label)")
    ap.add_argument("--size", type=int, default=INPUT_SIZE, help="crop size in the cache: the network's input")
    ap.add_argument("--tight", type=float, default=0.0,
                    help="share of tile crops cut as the table pipeline cuts them, with camera effects")
    ap.add_argument("--photoreal", type=int, default=0,
                    help="photo-like crops per face of every photoreal set (vision.train.photoreal)")
    ap.add_argument("--rich-styles", type=int, default=16, help="rich random styles among the photoreal sets")
    ap.add_argument("--photo-none", type=int, default=48,
                    help="photo-like crops holding no whole tile per photoreal set (with --photoreal)")
    ap.add_argument("--photoreal-only", action="store_true",
                    help="render only the photoreal sets (beside a cache made before; implies --keep-styles)")
    ap.add_argument("--keep-styles", action="store_true",
                    help="use the randomised styles already in cache/styles/ instead of drawing them (no fonts needed)")
    args = ap.parse_args(argv)
    CACHE.mkdir(parents=True, exist_ok=True)
    assert set(TRAIN_STYLES + HELD_OUT_STYLES) <= set(available_styles())
    t0 = time.time()
    if args.photoreal_only:
        if not args.photoreal:
            ap.error("--photoreal-only needs --photoreal N")
        args.keep_styles = True
    if args.photoreal < 0 or args.rich_styles < 0 or args.photo_none < 0:
        ap.error("--photoreal, --rich-styles and --photo-none must not be negative")
    random_styles: tuple[str, ...] = ()
    if args.random_styles and args.keep_styles:
        random_styles = tuple(str(RANDOM_DIR / f"rand{i:02d}") for i in range(args.random_styles))
        missing = [s for s in random_styles if not (Path(s) / "style.json").is_file()]
        if missing:
            ap.error(f"--keep-styles: {len(missing)} styles are not drawn yet, e.g. {missing[0]}")
    elif args.random_styles:
        from vision.train.make_assets import write_random_styles

        random_styles = tuple(str(p) for p in write_random_styles(RANDOM_DIR, args.random_styles, RANDOM_SEED))
        print(f"{len(random_styles)} randomised styles in {RANDOM_DIR}, {time.time() - t0:.0f}s", flush=True)
    sets = {
        "train": (TRAIN_STYLES, args.per_label, args.per_label * 16, 1_000_000_000, False),
        "val": (TRAIN_STYLES, args.val_per_label, args.val_per_label * 8, 2_000_000_000, True),
        "heldout": (HELD_OUT_STYLES, args.val_per_label, 0, 3_000_000_000, True),
    }
    if args.photoreal_only:
        sets = {}
    for name, (styles, per, n_none, seed_base, rotate) in sets.items():
        extra = (random_styles, args.random_per_label) if name == "train" else ((), 0)
        data = build(styles, per, n_none, seed_base, rotate, args.workers, extra, args.size, args.tight)
        np.savez(CACHE / f"{name}.npz", **data)
        print(f"{name}: {len(data['y'])} crops, {time.time() - t0:.0f}s", flush=True)
    if args.photoreal:
        from vision.train.make_assets import write_random_styles

        rich_dirs = [RANDOM_DIR / f"rich{i:02d}" for i in range(args.rich_styles)]
        if all((d / "style.json").is_file() for d in rich_dirs) and args.keep_styles:
            rich = tuple(str(d) for d in rich_dirs)
        else:
            rich = tuple(str(p) for p in write_random_styles(RANDOM_DIR, args.rich_styles, RICH_SEED, rich=True,
                                                             prefix="rich"))
        psets = photo_sets(random_styles, rich)
        data = build_photo(psets, args.photoreal, 4_000_000_000, False, args.workers, args.size, "photoreal train",
                           args.photo_none)
        np.savez(CACHE / "photo_train.npz", **data)
        print(f"photo_train: {len(data['y'])} crops of {len(psets)} sets, {time.time() - t0:.0f}s", flush=True)
        val_sets = [(st, PHOTO_LOOK_SEED + 500 + i, STYLE_IDS[st]) for i, st in enumerate(TRAIN_STYLES)]
        data = build_photo(val_sets, max(1, args.val_per_label // 6), 4_500_000_000, True, args.workers, args.size,
                           "photoreal val", args.photo_none // 2)
        np.savez(CACHE / "photo_val.npz", **data)
        print(f"photo_val: {len(data['y'])} crops, {time.time() - t0:.0f}s", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
