"""Enrolled tile sets for rendered styles: how the synthetic camera, ``mahjong-table simulate`` and the
tests get a reader for a style without ever giving it the style's art.

    ts = style_tileset("classic")          # shipped vision/tilesets/classic.npz, else enrolled once and cached
    ts = enroll_rendered(clf, "kai", shots=3, seed=5)   # 3 rendered photos of the layout -> a set

A rendered style is enrolled exactly as a real table enrolls its set: the enrollment layout
(:data:`vision.tile_layout.LAYOUT`) is rendered into ``shots`` camera frames (different camera poses, felts
and lighting) and read with :func:`vision.tile_layout.read_table_layout` -- the same path as
``mahjong-table tiles enroll --layout FRAME`` -- so the set holds ``shots`` crops per face cut by the
table's own pipeline. The shipped sets (:data:`SHIPPED`) are built by ``python -m vision.style_sets``;
a style without one (or one enrolled with another model) is enrolled on first use (~2 s) and cached in
``$XDG_CACHE_HOME/mahjong-table/tilesets/``.
"""
from __future__ import annotations

import argparse
import hashlib
import os
import threading
from pathlib import Path

import numpy as np

from vision.enrollment import enroll
from vision.tile_classifier import TileClassifier
from vision.tileset import TileSet, TileSetError

SHIPPED = Path(__file__).resolve().parent / "tilesets"
SHOTS = 3  # rendered layout photos per style: three crops per face
SEED = 31_000  # layout frames of the shipped/cached sets: never a test's or a bench's seeds
_lock = threading.Lock()
_memo: dict[tuple[str, str], TileSet] = {}


def enroll_rendered(clf: TileClassifier, style: str, shots: int = SHOTS, seed: int = SEED,
                    labels: set[str] | None = None) -> TileSet:
    """A set enrolled from ``shots`` rendered camera frames of ``style``'s enrollment layout."""
    from vision.scene_render import render_enrollment_layout
    from vision.tile_layout import read_table_layout

    examples: dict[str, list[np.ndarray]] = {}
    for k in range(shots):
        frame, _ = render_enrollment_layout(style, seed=seed + k, labels=labels)
        for lab, crop in read_table_layout(frame).items():
            examples.setdefault(lab, []).append(crop)
    return enroll(clf, examples, name=Path(style).name, seed=seed)


def _cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "mahjong-table" / "tilesets"


def _key(style: str) -> str:
    """A cache name for a style: its name, or a digest of a style folder's path."""
    if "/" not in style:
        return style
    return f"{Path(style).name}-{hashlib.sha256(str(Path(style).resolve()).encode()).hexdigest()[:10]}"


def style_tileset(style: str, clf: TileClassifier | None = None) -> TileSet:
    """The enrolled set of a rendered style for ``clf``'s model (default: the pipeline's model): shipped,
    cached, or enrolled now and cached (thread-safe; memoised per process)."""
    from vision.tile_reader import pipeline_classifier

    clf = clf or pipeline_classifier()
    memo = (style, clf.model_id)
    with _lock:
        if memo in _memo:
            return _memo[memo]
        for path in (SHIPPED / f"{style}.npz", _cache_dir() / f"{_key(style)}-{clf.model_id}.npz"):
            if path.is_file():
                try:
                    ts = TileSet.load(path)
                except TileSetError:
                    continue
                if ts.model_id == clf.model_id:
                    _memo[memo] = ts
                    return ts
        ts = enroll_rendered(clf, style)
        path = _cache_dir() / f"{_key(style)}-{clf.model_id}.npz"
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(f".{os.getpid()}.tmp")
            ts.save(tmp)
            tmp.replace(path)
        except OSError:
            pass  # a read-only home: enrolled again next time
        _memo[memo] = ts
        return ts


def main(argv: list[str] | None = None) -> int:
    """Write the shipped sets of the shipped styles (after a new model: their model id must match)."""
    from vision.tile_reader import pipeline_classifier
    from vision.tile_render import available_styles

    ap = argparse.ArgumentParser(description=main.__doc__)
    ap.add_argument("--out", type=Path, default=SHIPPED)
    ap.add_argument("styles", nargs="*", help="styles (default: every shipped style)")
    args = ap.parse_args(argv)
    clf = pipeline_classifier()
    args.out.mkdir(parents=True, exist_ok=True)
    for style in args.styles or available_styles():
        ts = enroll_rendered(clf, style)
        ts.save(args.out / f"{style}.npz")
        print(f"{style}: {len(ts.labels)} classes, {int(ts.counts.sum())} crops -> {args.out / (style + '.npz')}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
