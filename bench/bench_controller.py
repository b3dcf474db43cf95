"""Table service: durable event-store appends and cycle-machine transitions per second.

Appends with durable commits (WAL, synchronous=FULL: each append is on disk when it returns) beside the
same appends with synchronous=OFF (no flush) in the same run; the ratio is what durability costs.
"""
from __future__ import annotations

import tempfile
import time
from pathlib import Path

from bench.common import Row
from controller.event_store import EventStore
from controller.table_machine import TableMachine
from rules.events import Discarded

CYCLE = ["start", "done", "done", "done", "done", "done", "hand_over", "confirmed"]


def _appends(path: Path, durable: bool, n: int) -> float:
    st = EventStore(path, durable=durable)
    st.start_hand("h", "basic", 0.0)
    ev = [Discarded(hand_id="h", seat=i % 4, tile="5m", t_mono=float(i), t_wall=float(i)) for i in range(n)]
    t0 = time.perf_counter()
    for i, e in enumerate(ev):
        st.append("h", i, e)
    dt = time.perf_counter() - t0
    st.close()
    return n / dt


def run(quick: bool = False) -> list[Row]:
    n = 300 if quick else 2000
    with tempfile.TemporaryDirectory() as d:
        durable = _appends(Path(d) / "a.sqlite", True, n)
        fast = _appends(Path(d) / "b.sqlite", False, n)
    rows = [Row("event-store appends, durable commits", durable, "events/s", fast, "synchronous=OFF")]
    m = TableMachine(keep_history=100)
    k = 20_000 if quick else 200_000
    t0 = time.perf_counter()
    for i in range(k):
        m.fire(CYCLE[i % len(CYCLE)])
    rows.append(Row("cycle-machine transitions", k / (time.perf_counter() - t0), "transitions/s"))
    lat = sorted(x for x in estop_latency_ms(3 if quick else 7) if x == x)
    if lat:
        rows.append(Row("e-stop: call -> emulated motors stopped, median", lat[len(lat) // 2], "ms", 50.0,
                        "required max"))
    return rows


def estop_latency_ms(tries: int = 5) -> list[float]:
    """Software e-stop through the controller's MCU back-end: call -> the emulated motors stopped."""
    import asyncio

    from controller.backends.mcu import McuBackend

    async def go() -> list[float]:
        be = McuBackend("emulator", time_scale=1.0)
        await be.start()
        out = []
        try:
            await be.configure(136, (17, 17, 17, 17))
            for _ in range(tries):
                task = asyncio.create_task(be.shuffle())
                await asyncio.sleep(0.2)
                t0 = time.monotonic()
                await be.estop()
                stops = be.emulator.estop_stops
                out.append((stops[-1] - t0) * 1000.0 if stops and stops[-1] >= t0 else float("nan"))
                try:
                    await task
                except Exception:
                    pass
                await be.bridge.reset()  # clear the e-stop latch for the next try
                await asyncio.sleep(0.3)
        finally:
            await be.close()
        return out

    return asyncio.run(go())
