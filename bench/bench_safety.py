"""Table service safety figures: the event loop's worst stall during a demo game on a slow card, and how long
after a cancel every output is off (GPIO twin, MCU emulator).

The loop stall is the ticker's worst lateness (controller.loop_monitor) over one demo hand whose every
durable commit takes 50 ms more (a slow SD card), with the store written by its writer thread — beside the
same hand with the writes committed on the loop (the old path). The cancel latencies are from random cancels
of every motor operation (tests/controller/test_motor_safety.py), against the 50 ms the issue requires.
"""
from __future__ import annotations

import asyncio
import random
import tempfile
import time
from pathlib import Path

from bench.common import Row, median, percentile
from controller import config
from controller.backends.gpio_direct import GpioBackend, GpioTableSim
from controller.backends.mcu import McuBackend
from controller.event_store import EventStore
from controller.play_sources import BotPlay
from controller.service import TableService
from controller.store_writer import InlineStoreWriter, StoreWriter


class SlowCard(EventStore):
    def commit(self) -> None:
        time.sleep(0.05)
        super().commit()


def loop_stalls_ms(writer_cls) -> tuple[float, float]:
    """(worst, 99th percentile) lateness of the loop's 10 ms ticker over one demo hand."""
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "events.sqlite"
        store = EventStore(path)
        svc = TableService(config.defaults().with_overrides(table__id="bench"), McuBackend("emulator", time_scale=200.0),
                           store, auto=True, play=BotPlay(event_delay=0.002),
                           store_writer=writer_cls(path, store_factory=SlowCard))
        asyncio.run(svc.run(asyncio.Event(), hands=1))
        store.close()
        return svc.loop_lag.worst_s * 1000, svc.loop_lag.percentile(99) * 1000


async def _cancels(be, motors, trials: int, scale: float, prepare=None) -> list[float]:
    ops = [lambda: be.collect(), lambda: be.shuffle(), lambda: be.raise_walls(), lambda: be.lower_walls()]
    lengths = [14.0, 40.0, 3.0, 3.0]
    rng = random.Random(7)
    out = []
    for _ in range(trials):
        if prepare is not None:
            await prepare()
        k = rng.randrange(len(ops))
        task = asyncio.create_task(ops[k]())
        await asyncio.sleep(rng.uniform(0, lengths[k] / scale))
        if not motors():
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
            continue
        t0 = time.monotonic()
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        while motors():
            await asyncio.sleep(0.0005)
        out.append((time.monotonic() - t0) * 1000)
    return out


def gpio_cancel_ms(trials: int) -> list[float]:
    f = __import__("gpiozero.pins.mock", fromlist=["MockFactory"]).MockFactory()
    sim = GpioTableSim(f, time_scale=100.0).start()
    be = GpioBackend(f, time_scale=100.0)
    try:
        return asyncio.run(_cancels(be, be.motors_running, trials, 100.0))
    finally:
        sim.stop()
        asyncio.run(be.close())


def mcu_cancel_ms(trials: int) -> list[float]:
    async def go():
        be = McuBackend("emulator", time_scale=100.0)
        await be.start()
        try:
            await be.configure(136, (17, 17, 17, 17))
            return await _cancels(be, be.motors_running, trials, 100.0, be.recover)
        finally:
            await be.close()

    return asyncio.run(go())


def run(quick: bool = False) -> list[Row]:
    rows = []
    threaded = loop_stalls_ms(StoreWriter)
    inline = loop_stalls_ms(InlineStoreWriter)
    for i, what in enumerate(("worst", "p99")):
        rows.append(Row(f"loop stall {what}, demo hand, 50 ms fsync, store writer thread", threaded[i], "ms",
                        inline[i], "writes committed on the loop"))
    n = 30 if quick else 200
    for name, lat in (("GPIO twin", gpio_cancel_ms(n)), ("MCU emulator", mcu_cancel_ms(n // 2))):
        if lat:
            rows.append(Row(f"cancel -> every output off, {name}, median", median(lat), "ms", 50.0, "required max"))
            rows.append(Row(f"cancel -> every output off, {name}, p99", percentile(lat, 99), "ms", 50.0,
                            "required max"))
    return rows
