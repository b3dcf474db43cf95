"""How long the asyncio loop was kept from running: a ticker that measures its own lateness.

A coroutine sleeps ``period`` seconds at a time; how much later than asked it wakes up is how long some
callback (or the process not being scheduled) held the loop. The worst lateness is shown on the web page
(``/api/state`` ``loop``) and reported by ``make bench``; a stall over ``warn_s`` is logged as a WARNING on
``mahjong_table.loop``. (The exact per-callback check is asyncio's debug mode: tests/controller/
test_loop_never_blocked.py.)
"""
from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TypeVar

T = TypeVar("T")

log = logging.getLogger("mahjong_table.loop")


@dataclass
class LoopLag:
    ticks: int = 0
    worst_s: float = 0.0
    total_s: float = 0.0
    over_20ms: int = 0
    recent: deque[float] = field(default_factory=lambda: deque(maxlen=10_000))  # the last lateness values

    def percentile(self, p: float) -> float:
        s = sorted(self.recent)
        return s[min(len(s) - 1, round(p / 100 * (len(s) - 1)))] if s else 0.0

    def view(self) -> dict[str, float | int]:
        return {"ticks": self.ticks, "worst_ms": round(self.worst_s * 1000, 1),
                "mean_ms": round(self.total_s / self.ticks * 1000, 2) if self.ticks else 0.0,
                "over_20ms": self.over_20ms}


async def watch_loop(lag: LoopLag, period: float = 0.01, warn_s: float = 0.1) -> None:
    """Run until cancelled, updating ``lag``."""
    loop = asyncio.get_running_loop()
    while True:
        t0 = loop.time()
        await asyncio.sleep(period)
        late = max(0.0, loop.time() - t0 - period)
        lag.ticks += 1
        lag.total_s += late
        lag.recent.append(late)
        if late > lag.worst_s:
            lag.worst_s = late
        if late > 0.02:
            lag.over_20ms += 1
        if late > warn_s:
            log.warning("the event loop was held for %.0f ms", late * 1000)


def measure(coro_factory: Callable[[], Awaitable[T]], period: float = 0.005) -> tuple[T, LoopLag]:
    """Run ``coro_factory()`` in a new loop with a ticker; returns (its result, the lag seen)."""
    lag = LoopLag()

    async def main() -> T:
        ticker = asyncio.create_task(watch_loop(lag, period, warn_s=float("inf")))
        try:
            return await coro_factory()
        finally:
            ticker.cancel()

    t0 = time.perf_counter()
    result = asyncio.run(main())
    log.debug("measured %.2f s", time.perf_counter() - t0)
    return result, lag
