"""gpiozero edge callbacks bridged into asyncio: switch waits without polling the event loop.

gpiozero calls ``when_activated``/``when_deactivated`` on its own thread (lgpio's, or the thread that drives a
mock pin). :class:`EdgeBridge` turns each edge into a wake-up of the coroutines waiting on the loop
(``call_soon_threadsafe``); a waiter re-checks its condition, reading the pins directly, at every wake-up, so
an edge between a check and the wait is never lost.
"""
from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gpiozero import DigitalInputDevice


class EdgeBridge:
    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._waiters: set[asyncio.Event] = set()
        self.edges = 0  # edges seen (tests, diagnostics)

    def watch(self, devices: Iterable[DigitalInputDevice], then: Callable[[], None] | None = None) -> None:
        """Wake the waiters at every edge of ``devices`` (after calling ``then`` on gpiozero's thread)."""
        def cb() -> None:
            if then is not None:
                then()
            self.edge()

        for d in devices:
            d.when_activated = cb
            d.when_deactivated = cb

    def edge(self) -> None:
        """Called on gpiozero's thread (or the loop's)."""
        self.edges += 1
        loop = self._loop
        if loop is None:
            return
        try:
            loop.call_soon_threadsafe(self._wake)
        except RuntimeError:  # the loop is closed: nobody waits any more
            pass

    def _wake(self) -> None:
        for ev in self._waiters:
            ev.set()

    async def wait(self, cond: Callable[[], bool], timeout: float) -> bool:
        """Until ``cond()`` is true (re-checked at every edge) or ``timeout`` seconds; returns ``cond()``.
        ``cond`` may raise (a lid that opened): the exception ends the wait."""
        loop = asyncio.get_running_loop()
        self._loop = loop
        ev = asyncio.Event()
        self._waiters.add(ev)
        end = loop.time() + timeout
        try:
            while True:
                ev.clear()
                if cond():
                    return True
                left = end - loop.time()
                if left <= 0:
                    return False
                # not asyncio.wait_for: on Python 3.11 it may swallow a cancellation that coincides with an
                # edge, and a cancelled operation must end (its finally switches the outputs off)
                timer = loop.call_later(left, ev.set)
                try:
                    await ev.wait()
                finally:
                    timer.cancel()
        finally:
            self._waiters.discard(ev)
