"""Shared helpers of the firmware bridge tests."""
from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from firmware_bridge.link import LinkConfig

# Quick retransmissions, but patient enough (3 s of retries, a 5 s MCU watchdog) that a machine stalled by
# other work does not turn into a delivery failure.
FAST = LinkConfig(ack_timeout=0.03, max_retries=100, mcu_watchdog_ms=5000)


def eventually(cond: Callable[[], bool], timeout: float = 10.0, what: str = "condition") -> None:
    """Poll ``cond`` until true (a hang guard, not a timing assertion)."""
    deadline = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.005)


async def aeventually(cond: Callable[[], bool], timeout: float = 10.0, what: str = "condition") -> None:
    await asyncio.to_thread(eventually, cond, timeout, what)
