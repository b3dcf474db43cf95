"""Motors always stop: every operation of every back-end, cancelled at random moments, ends with every
output off within 50 ms of the cancel; the lid opened mid-operation stops everything; a stopped MCU is
recovered (reset, re-handshake, status re-read) before it moves again.

The 50 ms is the issue's safety budget for the software layer (the hardwired interlock is the safety
function, docs/protocol.md §7); the measured latencies are also reported by ``make bench``.
"""
from __future__ import annotations

import asyncio
import random
import time

import pytest
from gpiozero.pins.mock import MockFactory

from controller.backends import BackendFault
from controller.backends.gpio_direct import GpioBackend, GpioTableSim
from controller.backends.mcu import McuBackend
from tests.conftest import scaled

BUDGET_S = 0.050
OPS = {  # name -> (start the operation, its typical length in table seconds)
    "collect": (lambda be: be.collect(), 14.0),
    "shuffle": (lambda be: be.shuffle(), 40.0),
    "raise": (lambda be: be.raise_walls(), 3.0),
    "lower": (lambda be: be.lower_walls(), 3.0),
    "dice": (lambda be: be.dice(600), 0.6),
}


async def cancel_at_random(be, motors, rng: random.Random, scale: float, trials: int, prepare=None):
    """Start random operations, cancel each at a random moment; returns the cancel -> all-off latency of
    each trial that had a motor running at the cancel (seconds)."""
    latencies = []
    for _ in range(trials):
        if prepare is not None:
            await prepare()
        name = rng.choice(sorted(OPS))
        start, length = OPS[name]
        task = asyncio.create_task(start(be))
        await asyncio.sleep(rng.uniform(0.0, 1.2 * length / scale))
        running = motors()
        t_cancel = time.monotonic()
        task.cancel()
        try:
            await task
        except (asyncio.CancelledError, BackendFault):
            pass
        while motors():  # the MCU stops on the ESTOP frame the cancelled operation sent
            assert time.monotonic() - t_cancel < 1.0, f"{name}: {motors()} still running a second after the cancel"
            await asyncio.sleep(0.001)
        if running:
            latencies.append(time.monotonic() - t_cancel)
    return latencies


def test_gpio_every_operation_cancelled_at_random_moments_switches_every_output_off():
    scale = 200.0
    f = MockFactory()
    sim = GpioTableSim(f, time_scale=scale).start()
    be = GpioBackend(f, time_scale=scale)
    trials = scaled(60, 1000)
    try:
        lat = asyncio.run(cancel_at_random(be, be.motors_running, random.Random(16), scale, trials))
    finally:
        sim.stop()
        asyncio.run(be.close())
    assert len(lat) >= trials // 3  # the cancels did land while motors ran
    assert max(lat) < BUDGET_S  # switched off in the cancelled operation's finally, on this very thread


def test_mcu_every_operation_cancelled_at_random_moments_stops_the_emulated_motors():
    scale = 100.0
    trials = scaled(20, 1000)

    async def go():
        be = McuBackend("emulator", time_scale=scale)
        await be.start()
        sent = []
        try:
            await be.configure(136, (17, 17, 17, 17))

            async def prepare():  # a cancelled operation latched the e-stop: clear it as a resume would
                await be.recover()

            orig = be.halt

            def halt(reason=""):  # when the cancelled operation's finally wrote the ESTOP frame
                orig(reason)
                sent.append(be.bridge.link.stats.urgent_sent_at)

            be.halt = halt
            lat = await cancel_at_random(be, be.motors_running, random.Random(61), scale, trials, prepare)
            stops = list(be.emulator.estop_stops)
        finally:
            await be.close()
        return lat, stops, sent

    lat, stops, sent = asyncio.run(go())
    assert len(lat) >= trials // 4  # the cancels did land while motors ran
    assert len(stops) >= len(lat) and len(sent) >= len(lat)  # every such cancel sent the ESTOP
    # The Pi's part (cancel -> ESTOP frame written) is synchronous in the operation's finally; the emulated
    # MCU then runs on its own thread, which a loaded test machine may schedule late: the 50 ms budget must
    # hold for nearly every cancel, and none may take more than the 1 s bound above.
    within = sum(1 for x in lat if x < BUDGET_S)
    assert within >= 0.9 * len(lat), sorted(lat)


def test_gpio_lid_opened_mid_operation_cuts_every_output_at_once():
    scale = 50.0
    f = MockFactory()
    sim = GpioTableSim(f, time_scale=scale).start()
    be = GpioBackend(f, time_scale=scale)

    async def go(op):
        for _ in range(50):  # until the lid opens while the operation's motors run
            if op == "raise":
                await be.lower_walls()
            task = asyncio.create_task(OPS[op][0](be))
            while not be.motors_running() and not task.done():
                await asyncio.sleep(0.0005)
            if not task.done():
                break
            await task
        sim.set_lid(True)  # gpiozero's callback switches the outputs off on this very thread
        off_at_once = be.motors_running() == set()
        with pytest.raises(BackendFault) as ei:
            await task
        sim.set_lid(False)
        return off_at_once, ei.value

    try:
        for op in ("collect", "shuffle", "raise", "dice"):
            off, exc = asyncio.run(go(op))
            assert off, op
            assert (exc.code, exc.part) == ("lid_open", "lid"), op
            assert be.motors_running() == set()
    finally:
        sim.stop()
        asyncio.run(be.close())


def test_gpio_recover_refuses_an_open_lid():
    f = MockFactory()
    sim = GpioTableSim(f, time_scale=200.0).start()
    be = GpioBackend(f, time_scale=200.0)
    try:
        sim.set_lid(True)
        with pytest.raises(BackendFault) as ei:
            asyncio.run(be.recover())
        assert ei.value.code == "lid_open" and "close it" in ei.value.message
        sim.set_lid(False)
        assert asyncio.run(be.recover())["lid"] == "closed"
    finally:
        sim.stop()
        asyncio.run(be.close())


def test_gpio_waits_are_edge_callbacks_not_polls():
    """A lift wait wakes on the limit switch's edge: a few wake-ups, not one every 2 ms."""
    from firmware_bridge.timings import Timings

    f = MockFactory()
    sim = GpioTableSim(f, time_scale=20.0).start()  # a 150 ms lift travel
    be = GpioBackend(f, time_scale=20.0, timings=Timings(lift_timeout_s=200.0))  # (a loaded machine: no fault)
    wakeups = []
    orig = be.edges._wake

    def counting():
        wakeups.append(time.monotonic())
        orig()

    be.edges._wake = counting
    try:
        t0 = time.monotonic()
        asyncio.run(be.raise_walls())
        took = time.monotonic() - t0
    finally:
        sim.stop()
        asyncio.run(be.close())
    assert took > 0.1
    assert 1 <= len(wakeups) <= 12  # the four upper switches and the lower one leaving (polling: ~75)


def test_mcu_lid_opened_mid_operation_stops_everything_and_blocks_recovery():
    async def go():
        be = McuBackend("emulator", time_scale=20.0)
        await be.start()
        try:
            await be.configure(136, (17, 17, 17, 17))
            task = asyncio.create_task(be.shuffle())
            while not be.motors_running():
                await asyncio.sleep(0.001)
            be.emulator.set_lid(True)
            assert be.motors_running() == set()
            with pytest.raises(BackendFault) as ei:
                await task
            assert ei.value.code == "lid_open"
            with pytest.raises(BackendFault) as ei:
                await be.recover()
            assert ei.value.code == "lid_open"
            be.emulator.set_lid(False)
            await be.recover()
            await be.raise_walls()  # moves again
        finally:
            await be.close()

    asyncio.run(go())


def test_mcu_recover_clears_the_estop_latch_and_keeps_the_configuration():
    async def go():
        be = McuBackend("emulator", time_scale=400.0)
        await be.start()
        try:
            await be.configure(108, (14, 13, 14, 13))
            await be.estop()
            with pytest.raises(BackendFault) as ei:
                await be.shuffle()
            assert ei.value.code == "emergency_stop"
            boot = be.emulator.boot_counter
            await be.recover()
            assert be.emulator.boot_counter == boot + 1  # reset, re-handshaken
            await be.shuffle()  # the configuration was re-applied by the bridge after the reset
            assert tuple(be.emulator.status().built) == (14, 13, 14, 13)
        finally:
            await be.close()

    asyncio.run(go())


def test_mcu_halt_that_cannot_be_delivered_is_reported_as_a_device_fault():
    async def go():
        be = McuBackend("emulator", time_scale=400.0)
        got = []
        be.add_listener(got.append)
        await be.start()
        try:
            await be.bridge.close()  # the link is gone
            be.halt("test")
            with pytest.raises(BackendFault) as ei:
                await be.estop()
            assert ei.value.code == "estop_failed"
        finally:
            await be.close()
        return got

    got = asyncio.run(go())
    faults = [e for e in got if e.TYPE == "device_fault"]
    assert faults and faults[0].code == "estop_failed" and "not confirmed" in faults[0].message


def test_gpio_a_stop_that_does_not_take_is_reported_and_retried_until_it_does():
    """A welded relay: the output does not switch off. The supervised e-stop reports it every try and keeps
    trying; once the output obeys, the stop is confirmed."""
    from controller.estop import EStopSupervisor

    f = MockFactory()
    be = GpioBackend(f, time_scale=200.0)
    failed = []
    welded = be.out["shuffle_motor"]
    real_off = welded.off
    welded.on()
    welded.off = lambda: None

    async def go():
        sup = EStopSupervisor(be, on_failed=lambda exc, n: failed.append(exc.message), retry_s=(0.01,))
        task = sup.request("pause")
        while len(failed) < 3:
            await asyncio.sleep(0.005)
        assert sup.state == "failed" and not sup.ok
        welded.off = real_off  # the relay is freed
        await task
        return sup

    try:
        sup = asyncio.run(go())
        assert sup.state == "confirmed" and be.motors_running() == set()
    finally:
        welded.off = real_off
        asyncio.run(be.close())
    assert all("shuffle_motor" in m and "cut the table's power" in m for m in failed)
