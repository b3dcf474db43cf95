"""Tile class labels of the classifier, in the notation of ``spec/NOTATION.md``, and tile orientations.

The classifier knows every face of the supported sets (34 tiles, the red fives ``0m 0p 0s``, the eight
flowers/seasons ``1f``..``8f``, the joker ``j``), the tile ``back`` and ``none`` ("not a tile").
``unknown`` is never a class: it is what a caller gets when the confidence is below the threshold.
"""
from __future__ import annotations

SUITED = [f"{n}{s}" for s in "mps" for n in range(1, 10)]
HONOURS = [f"{n}z" for n in range(1, 8)]
RED_FIVES = ["0m", "0p", "0s"]
FLOWERS = [f"{n}f" for n in range(1, 9)]
JOKER = "j"
BACK = "back"
NONE = "none"
UNKNOWN = "unknown"
WHITE_DRAGON = "5z"  # blank in many sets: the one face with no ink

#: Tile faces (what an enrolled set may hold, besides ``back``).
FACE_LABELS: tuple[str, ...] = tuple(SUITED + HONOURS + RED_FIVES + FLOWERS + [JOKER])
#: Class order of the model output.
CLASS_LABELS: tuple[str, ...] = FACE_LABELS + (BACK, NONE)
#: Labels a tile set may enroll.
ENROLLABLE: frozenset[str] = frozenset(FACE_LABELS + (BACK,))

#: Orientation k: the upright tile turned k quarter turns counter-clockwise (``np.rot90(img, k)``).
ORIENTATIONS: tuple[str, ...] = ("upright", "left", "upside_down", "right")


def is_label(text: str) -> bool:
    """True for a label a tile set may enroll (a face label or ``back``)."""
    return text in ENROLLABLE


def class_index(label: str) -> int:
    """Index of ``label`` in :data:`CLASS_LABELS`; ValueError for anything else."""
    try:
        return CLASS_LABELS.index(label)
    except ValueError:
        raise ValueError(f"unknown tile label {label!r}") from None
