"""Noticing a wrong set during play: a running similarity between the tiles in view and the enrolled set.

    watch = SetWatch(tileset.match_level)
    watch.see(top1)                  # per face crop read: its cosine similarity to the nearest face prototype
    watch.wrong                      # True once the tiles in view stop looking like the set

The pre-session self-test (``vision selftest``) compares the tiles in view with the set once; a set swapped
between sessions, two sets mixed, or a table whose enrollment was skipped shows only during play. The
network's own answers stay confident with another set's prototypes (fused with the wrong set, 94-96 % of a
table's tiles still cleared the threshold), so the watch looks at the embedding: the median similarity of the
last :data:`WINDOW` face crops to their nearest prototypes. A table's own tiles score about the set's match
level (table crops of the held-out kai styles: medians 0.93-0.96 against match levels 0.97); another set's
0.76-0.89. Below the match level less :data:`DROP` (as the self-test's check) the set is *wrong*: the reader
then asks about every face instead of reading it, until the median is back above it by :data:`HYSTERESIS`.
Thread-safe (the pipeline reads a frame's crops on two threads).
"""
from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TypedDict

import numpy as np

from vision.arrays import Float64Array

WINDOW = 60  # face crops the median is taken over (a frame of a full table holds about 100)
MIN_SEEN = 20  # no verdict on fewer face crops than this
DROP = 0.06  # wrong below the set's match level less this (the self-test's margin)
HYSTERESIS = 0.01  # right again only this far above the line (no flicker at the line)


class SetCheckState(TypedDict):
    """:meth:`SetCheck.as_dict`: what the page and the judge's console are told (``similarity`` None before any
    face crop)."""

    wrong: bool
    similarity: float | None
    line: float
    seen: int


@dataclass(frozen=True)
class SetCheck:
    """The watch's state: ``wrong`` (the tiles in view do not look like the enrolled set), the median
    similarity of the last face crops (NaN before any), the line it is held to, and the crops seen."""

    wrong: bool
    similarity: float
    line: float
    seen: int

    def as_dict(self) -> SetCheckState:
        return {"wrong": self.wrong, "similarity": None if np.isnan(self.similarity) else round(self.similarity, 3),
                "line": round(self.line, 3), "seen": self.seen}


def _median(x: Float64Array) -> float:
    """The median of a few values (np.median's checks cost more than the work on 60 values, every read)."""
    n = len(x)
    k = n // 2
    if n % 2:
        return float(np.partition(x, k)[k])
    part = np.partition(x, (k - 1, k))
    return 0.5 * float(part[k - 1] + part[k])


class SetWatch:
    """The running similarity of one table's tiles to its enrolled set (see the module docstring)."""

    def __init__(self, match_level: float, window: int = WINDOW, drop: float = DROP):
        self.line = float(match_level) - drop
        self._ring = np.zeros(window, np.float64)  # the last ``window`` similarities (a ring buffer)
        self._wrong = False
        self._seen = 0
        self._lock = threading.Lock()

    def _recent(self) -> Float64Array:
        return self._ring[:min(self._seen, len(self._ring))]

    def see(self, similarities: Iterable[float]) -> bool:
        """Add face crops' similarities to their nearest prototypes; whether the set now looks wrong."""
        s = np.asarray(similarities, np.float64).ravel()
        s = s[np.isfinite(s)]
        with self._lock:
            if not len(s):
                return self._wrong
            w = len(self._ring)
            s = s[-w:]
            idx = (self._seen + np.arange(len(s))) % w
            self._ring[idx] = s
            self._seen += len(s)
            if self._seen >= MIN_SEEN:
                med = _median(self._recent())
                self._wrong = med < self.line or (self._wrong and med < self.line + HYSTERESIS)
            return self._wrong

    @property
    def wrong(self) -> bool:
        return self._wrong

    def check(self) -> SetCheck:
        with self._lock:
            med = float(np.median(self._recent())) if self._seen else float("nan")
            return SetCheck(self._wrong, med, self.line, self._seen)

    def reset(self) -> None:
        """Forget what was seen (a new set enrolled, the judge confirmed the set)."""
        with self._lock:
            self._wrong = False
            self._seen = 0
