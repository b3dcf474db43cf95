"""Firmware bridge: command round-trip latency and throughput through the emulated MCU on a pty.

Rows: round-trip p50/p99 of one command (INDICATORS + its ACK, through the asyncio Bridge) with the
emulator pacing its UART at 115200 baud, and at full pty speed; each beside the wire time of the same
bytes at 115200 baud. Commands/s with a queue of commands (stop-and-wait), beside the wire-limited rate.
E-stop latency: call to the emulated motors stopping, beside the 50 ms requirement.
"""
from __future__ import annotations

import asyncio
import time

from bench.common import Row, percentile
from firmware_bridge import framing
from firmware_bridge.bridge import Bridge
from firmware_bridge.emulator import McuEmulator
from firmware_bridge.framing import Frame
from firmware_bridge.link import LinkConfig
from firmware_bridge.messages import Ack, Collect, Indicators, Result

BAUD = 115200


def _wire_bytes() -> int:
    cmd = framing.encode(Frame(int(Indicators.TYPE), 1, Indicators(1, 2, 3, 4).pack()))
    ack = framing.encode(Frame(int(Ack.TYPE), 1, Ack(Result.OK).pack()))
    return len(cmd) + len(ack)


async def _measure(url: str, n: int) -> tuple[list[float], float]:
    async with Bridge(url, LinkConfig(ack_timeout=0.2)) as b:
        rtts = []
        for i in range(n):
            t0 = time.perf_counter()
            await b.command(Indicators(i % 4, 0, 0, i % 5))
            rtts.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        await asyncio.gather(*(b.command(Indicators(i % 4, 1, 1, 1)) for i in range(n)))
        rate = n / (time.perf_counter() - t0)
    return rtts, rate


async def _estop(url: str, emu: McuEmulator, tries: int) -> list[float]:
    out = []
    async with Bridge(url) as b:
        for _ in range(tries):
            await b.command(Collect())
            while not emu.motors_running():
                await asyncio.sleep(0.001)
            t0 = time.monotonic()
            await b.estop()
            out.append(emu.estop_stops[-1] - t0)
            await b.reset()
    return out


def run(quick: bool) -> list[Row]:
    n = 150 if quick else 1500
    nbytes = _wire_bytes()
    wire_ms = nbytes * 10 / BAUD * 1000
    rows: list[Row] = []
    for label, baud in ((f"{BAUD} baud", BAUD), ("full speed", None)):
        with McuEmulator(time_scale=1000, baud=baud) as emu:
            rtts, rate = asyncio.run(_measure(emu.url, n))
        ms = [x * 1000 for x in rtts]
        note = f"pty, {nbytes} bytes per command+ACK, n={n}"
        rows.append(Row(f"round trip p50, {label}", percentile(ms, 50), "ms", wire_ms, f"wire time @{BAUD}", note))
        rows.append(Row(f"round trip p99, {label}", percentile(ms, 99), "ms", wire_ms, f"wire time @{BAUD}", note))
        rows.append(Row(f"commands/s, {label}", rate, "cmd/s", 1000 / wire_ms, f"wire limit @{BAUD}",
                        "queued commands, stop-and-wait"))
    with McuEmulator(time_scale=1) as emu:
        est = asyncio.run(_estop(emu.url, emu, 3 if quick else 10))
    rows.append(Row("e-stop call to motors stopped (p50)", percentile([x * 1000 for x in est], 50), "ms", 50.0,
                    "requirement", f"emulator time line, {len(est)} tries, max {max(est) * 1000:.2f} ms"))
    return rows
