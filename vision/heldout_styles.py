"""Held-out tile styles for the confidence and wrong-set checks: recoloured copies of ``kai`` (the style the
network never trained on), written once into a cache folder and named by their folder path.

    path = heldout_style("kai-green")          # a style folder (style.json + a PNG per face)

Real sets differ from one another in their inks and bodies as much as in their drawings: a copy of ``kai``
with its inks turned in hue on another body is another set to the table (its enrolled prototypes do not
read ``kai``'s tiles, and ``kai``'s do not read it) while staying as far from the training styles as ``kai``
is. Never trained or tuned on; the checks (``make bench``, ``docs/vision-model.md``) report on them beside
``kai``.
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.tile_render import ASSET_DIR

if TYPE_CHECKING:
    from vision.tile_eval import RenderedSet

#: name -> (hue turn of the inks in OpenCV's 0-180 hue units, face RGB, back RGB)
VARIANTS: dict[str, tuple[int, tuple[int, int, int], tuple[int, int, int]]] = {
    "kai-green": (60, (238, 232, 208), (40, 150, 70)),  # inks turned 120 degrees, an ivory body, a green back
    "kai-violet": (120, (246, 244, 240), (200, 60, 40)),  # inks turned 240 degrees, a white body, a red back
}


#: name -> {face: the style whose drawing of it the copy takes}: ``kai`` with some faces drawn otherwise -- a set
#: whose copies of a face are not all printed alike (the learning table's proxy, docs/vision-model.md: the layout
#: enrolled shows kai's own drawing, most copies on the table the other; the embedding doubts them, never misreads)
REDRAWN: dict[str, dict[str, str]] = {
    "kai-redrawn": {"1s": "fluffy", "3m": "classic"},  # the bamboo one as a peacock, the 3-character in another hand
}


def _publish(tmp: Path, meta: dict[str, object], out: Path) -> str:
    """Write a drawn style folder's ``style.json`` and move the folder into its place at once (another
    process drawing the same style may have put it there first: theirs is the same)."""
    (tmp / "style.json").write_text(json.dumps(meta, indent=1))
    try:
        tmp.replace(out)
    except OSError:  # another process wrote it first
        pass
    return str(out)


def _cache() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "mahjong-table" / "styles"


def heldout_style(name: str, root: Path | None = None) -> str:
    """The folder of held-out style ``name`` (:data:`VARIANTS`, :data:`REDRAWN`), written on first use; returned as
    a path string that :func:`vision.tile_render.load_style` accepts."""
    if name in REDRAWN:
        return _redrawn(name, root)
    turn, face, back = VARIANTS[name]
    out = (root or _cache()) / name
    if (out / "style.json").is_file():
        return str(out)
    src = ASSET_DIR / "kai"
    meta = json.loads((src / "style.json").read_text())
    tmp = out.with_name(f".{name}.{os.getpid()}")
    tmp.mkdir(parents=True, exist_ok=True)
    for lab in meta["labels"]:
        bgra = cv2.imread(str(src / f"{lab}.png"), cv2.IMREAD_UNCHANGED)
        if bgra is None:
            raise FileNotFoundError(f"kai's face {lab} is missing or unreadable: {src / f'{lab}.png'}")
        hsv = cv2.cvtColor(np.ascontiguousarray(bgra[..., :3]), cv2.COLOR_BGR2HSV)
        hsv[..., 0] = (hsv[..., 0].astype(np.int32) + turn) % 180
        bgra = np.dstack([cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR), bgra[..., 3]])
        cv2.imwrite(str(tmp / f"{lab}.png"), bgra)
    meta.update(face=list(face), back=list(back), source=f"kai recoloured (inks +{2 * turn} degrees); held out")
    return _publish(tmp, meta, out)


# ---- held-out photoreal sets (vision IV item 5) ---------------------------------------------------------

#: name -> (face style: a shipped style, a :data:`VARIANTS` name or ``rich:SEED`` -- a rich random style
#: of a reserved seed -- and the set look's seed). Never trained or tuned on: the training sets' looks
#: are seeds 70 000-70 099 and their rich styles seeds 5 000 onward (``vision.train.dataset``); these use
#: looks 90 000 onward and styles 9 900 onward.
PHOTOREAL: dict[str, tuple[str, int]] = {
    "photo-kai": ("kai", 90_001),
    "photo-kai-green": ("kai-green", 90_002),
    "photo-r9900": ("rich:9900", 90_003),
    "photo-r9901": ("rich:9901", 90_004),
}


def photoreal_style(name: str, root: Path | None = None) -> str:
    """The face style of held-out photoreal set ``name`` (:data:`PHOTOREAL`) as :func:`load_style` takes it;
    a rich random style is drawn into the cache folder on first use (needs the training fonts:
    ``vision/train/README.md``)."""
    src, _ = PHOTOREAL[name]
    if src in VARIANTS:
        return heldout_style(src, root)
    if not src.startswith("rich:"):
        return src
    seed = int(src.removeprefix("rich:"))
    out = (root or _cache()) / f"rich{seed}"
    if (out / "style.json").is_file():
        return str(out)
    from vision.train.make_assets import random_faces

    faces, meta = random_faces(seed, rich=True)
    tmp = out.with_name(f".rich{seed}.{os.getpid()}")
    tmp.mkdir(parents=True, exist_ok=True)
    for lab, im in faces.items():
        im.save(tmp / f"{lab}.png")
    meta = dict(meta, labels=sorted(faces), source=f"rich random style, seed {seed}; held out")
    return _publish(tmp, meta, out)


def photoreal_crops(name: str, per_label: int, seed: int, *, rotate: bool = True, tight: bool | None = None,
                    sizes: tuple[int, int] = (36, 80)) -> RenderedSet:
    """``per_label`` photo-like crops (:func:`vision.train.photoreal.render_photo`) of every face and the back
    of held-out photoreal set ``name``, in random quarter turns (``rotate``) and sizes, with their labels."""
    from vision.tile_eval import RenderedSet as _Set
    from vision.tile_render import load_style
    from vision.train.photoreal import random_look, render_photo

    style = photoreal_style(name)
    look = random_look(PHOTOREAL[name][1])
    rng = np.random.default_rng([seed, 31])
    out = _Set([], [], [])
    for li, lab in enumerate(load_style(style).labels):
        for i in range(per_label):
            k = int(rng.integers(4)) if rotate else 0
            size = int(rng.integers(*sizes))
            out.crops.append(render_photo(style, lab, look=look, orientation=k, size=size,
                                          seed=seed + li * 10_000 + i, tight=tight))
            out.labels.append(lab)
            out.orientations.append(k)
    return out


def _redrawn(name: str, root: Path | None) -> str:
    import shutil

    out = (root or _cache()) / name
    if (out / "style.json").is_file():
        return str(out)
    src = ASSET_DIR / "kai"
    tmp = out.with_name(f".{name}.{os.getpid()}")
    shutil.rmtree(tmp, ignore_errors=True)
    shutil.copytree(src, tmp)
    for face, other in REDRAWN[name].items():
        shutil.copy(ASSET_DIR / other / f"{face}.png", tmp / f"{face}.png")
    meta = json.loads((src / "style.json").read_text())
    meta.update(source=f"kai with {', '.join(f'{f} drawn as in {o}' for f, o in REDRAWN[name].items())}; held out")
    (tmp / "style.json").write_text(json.dumps(meta, indent=1))
    try:
        tmp.replace(out)
    except OSError:  # another process wrote it first
        shutil.rmtree(tmp, ignore_errors=True)
    return str(out)
