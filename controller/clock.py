"""The table's shared clock: one monotonic time-line for camera frames, GPIO presses and the MCU link.

Claim windows and priorities are timed on ``t_mono``; ``t_wall`` is for people and the hall. Tests use
:class:`ManualClock` to drive time explicitly.
"""
from __future__ import annotations

import threading
import time
from typing import TypedDict


class Stamp(TypedDict):
    """An event's two times (``**clock.stamp()`` into its constructor)."""

    t_mono: float
    t_wall: float


class Clock:
    def mono(self) -> float:
        return time.monotonic()

    def wall(self) -> float:
        return time.time()

    def stamp(self) -> Stamp:
        """``{"t_mono": ..., "t_wall": ...}`` for an event constructor."""
        return {"t_mono": self.mono(), "t_wall": self.wall()}


class ManualClock(Clock):
    """A clock that moves only when told (tests, replays)."""

    def __init__(self, start: float = 1000.0, wall_offset: float = 1.7e9):
        self._t = start
        self._offset = wall_offset
        self._lock = threading.Lock()

    def mono(self) -> float:
        with self._lock:
            return self._t

    def wall(self) -> float:
        return self.mono() + self._offset

    def advance(self, dt: float) -> None:
        with self._lock:
            self._t += dt
