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
0.76-0.89. Below the match level less :data:`DROP` (as the self-test's check) -- and with the best quarter of
the tiles unlike the set too (the upper quartile under the match level less :data:`TOP_DROP`: a hard pose or a
seat far from the camera drags the own set's median down, never its best tiles) -- the set is *wrong*: the
reader then asks about every face instead of reading it, until the tiles look like the set again by
:data:`HYSTERESIS`. Each tile counts once: the pipeline reads a zone again whenever it changes (a pond's first
tile at each later discard of its seat, an arm's frames, a second look), so a crop whose embedding is the same
as one in the window (:data:`SAME_TILE`) takes that one's place instead of adding another vote.
Thread-safe (the pipeline reads a frame's crops on two threads).
"""
from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TypedDict

import numpy as np

from vision.arrays import Float32Array, Float64Array

WINDOW = 60  # face crops the median is taken over (a frame of a full table holds about 100)
MIN_SEEN = 20  # no verdict on fewer face crops than this
DROP = 0.06  # wrong below the set's match level less this (the self-test's margin)
#: ... and only where the best quarter of the tiles is unlike the set too: its lowest (the window's upper
#: quartile) under the match level less this. A table's own tiles under a hard pose or at a seat far from the
#: camera drag the median down with them (sichuan-mpl2025 seed 11 hand 161: 0.905, under kai's line of 0.916),
#: never the best of them (0.965 there; the shipped styles' own table crops 0.971-0.986); another set's tiles
#: are unlike all through (the shipped styles read with one another's sets: upper quartiles 0.82-0.92)
TOP_DROP = 0.03
HYSTERESIS = 0.01  # right again only this far above the line (no flicker at the line)
#: a crop whose embedding is at least this similar to one in the window is that tile read again (a tile's
#: re-reads in later frames: 0.995-1.0; two copies of a face in other places mostly under it)
SAME_TILE = 0.995


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


def _upper_quartile(x: Float64Array) -> float:
    """The value a quarter of ``x`` lies above (the lower of the two around it)."""
    k = min(len(x) - 1, (3 * len(x)) // 4)
    return float(np.partition(x, k)[k])


class SetWatch:
    """The running similarity of one table's tiles to its enrolled set (see the module docstring)."""

    def __init__(self, match_level: float, window: int = WINDOW, drop: float = DROP):
        self.line = float(match_level) - drop
        self.top_line = float(match_level) - TOP_DROP
        self._ring = np.zeros(window, np.float64)  # the last ``window`` similarities (a ring buffer)
        self._emb: Float32Array | None = None  # their crops' unit embeddings (rows of the ring), where given
        self._wrong = False
        self._seen = 0
        self._lock = threading.Lock()

    def _recent(self) -> Float64Array:
        return self._ring[:min(self._seen, len(self._ring))]

    def see(self, similarities: Iterable[float], embeddings: Float32Array | None = None) -> bool:
        """Add face crops' similarities to their nearest prototypes; whether the set now looks wrong.
        ``embeddings`` (N, D): the crops' embeddings -- a crop that is a tile the window holds (its embedding
        :data:`SAME_TILE` alike) replaces that tile's similarity instead of adding one (each tile counts once)."""
        s = np.asarray(similarities, np.float64).ravel()
        keep = np.isfinite(s)
        s = s[keep]
        with self._lock:
            if not len(s):
                return self._wrong
            if embeddings is None:
                self._add(s)
            else:
                e = np.asarray(embeddings, np.float32)[keep]
                e = e / np.maximum(np.linalg.norm(e, axis=1, keepdims=True), 1e-12)
                for x, v in zip(s, e):
                    self._add_one(float(x), v)
            if self._seen >= MIN_SEEN:
                recent = self._recent()
                med, top = _median(recent), _upper_quartile(recent)

                def unlike(by: float) -> bool:
                    return med < self.line + by and top < self.top_line + by

                self._wrong = unlike(0.0) or (self._wrong and unlike(HYSTERESIS))
            return self._wrong

    def _add(self, s: Float64Array) -> None:
        w = len(self._ring)
        s = s[-w:]
        idx = (self._seen + np.arange(len(s))) % w
        self._ring[idx] = s
        if self._emb is not None:
            self._emb[idx] = 0.0  # (no embedding: like no other tile)
        self._seen += len(s)

    def _add_one(self, x: float, e: Float32Array) -> None:
        w = len(self._ring)
        if self._emb is None or self._emb.shape[1] != len(e):
            self._emb = np.zeros((w, len(e)), np.float32)
        n = min(self._seen, w)
        if n:
            cos = self._emb[:n] @ e
            j = int(cos.argmax())
            if cos[j] >= SAME_TILE:  # the same tile read again: its latest reading stands for it
                self._ring[j] = x
                self._emb[j] = e
                return
        j = self._seen % w
        self._ring[j] = x
        self._emb[j] = e
        self._seen += 1

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
            self._emb = None
