"""A pause never bricks the table, a FAULT stops the motors, a failed e-stop is seen and retried, a fault that
repeats stops the demo instead of looping — on the MCU emulator (the default back-end)."""
from __future__ import annotations

import asyncio
import random

from gpiozero.pins.mock import MockFactory

from controller import config
from controller.backends.mcu import McuBackend
from controller.devices import Panel
from controller.event_store import EventStore
from controller.play_sources import BotPlay
from controller.service import REPEATED_FAULT_LIMIT, TableService
from controller.table_machine import S
from rules.events import DeviceFault, TableStateChanged
from tests.conftest import scaled


def make(tmp_path, *, auto=False, scale=200.0, play=None, panel=False):
    cfg = config.defaults().with_overrides(table__id="p1", table__profile="basic")
    be = McuBackend("emulator", time_scale=scale)
    store = EventStore(tmp_path / "events.sqlite")
    pnl = None
    if panel:
        gpio = {k.split(".", 1)[1]: v for k, v in cfg.values.items() if k.startswith("gpio.")}
        pnl = Panel(gpio, pin_factory=MockFactory())
    svc = TableService(cfg, be, store, auto=auto, play=play, panel=pnl)
    return svc, store


async def until(cond, timeout=30.0, what=""):
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not cond():
        assert loop.time() < end, f"timed out waiting for {what or cond}"
        await asyncio.sleep(0.005)


def run(svc, scenario, timeout=90.0, hands=None):
    async def main():
        stop = asyncio.Event()
        task = asyncio.create_task(svc.run(stop, hands=hands))
        await until(lambda: svc._triggers is not None and svc.backend.bridge is not None)
        try:
            await scenario(svc)
        finally:
            stop.set()
            await task

    asyncio.run(asyncio.wait_for(main(), timeout))


def states(store, hand):
    return [(e.state, e.trigger) for e in store.events(hand) if isinstance(e, TableStateChanged)]


def test_pause_mid_shuffle_then_resume_resets_the_mcu_and_goes_on(tmp_path):
    svc, store = make(tmp_path, scale=50.0)

    async def scenario(svc):
        emu = svc.backend.emulator
        svc.press("start")
        await until(lambda: svc.machine.state is S.SHUFFLING and svc.backend.motors_running(), what="shuffling")
        boot = emu.boot_counter
        svc.press("judge")  # pause: the e-stop
        await until(lambda: svc.stopper.state == "confirmed", what="stop confirmed")
        assert svc.backend.motors_running() == set() and emu.status().flags & 0x02  # latched
        svc.press("judge")  # resume: reset, re-handshake, re-read, continue the shuffle
        await until(lambda: svc.machine.state is S.DEALING, what="dealing")
        assert emu.boot_counter == boot + 1
        assert svc.machine.fault == "" and svc.resume_error == ""

    run(svc, scenario)
    st = states(store, "p1-00001")
    assert ("paused", "pause") in st and ("shuffling", "resume") in st
    assert not [s for s in st if s[0] == "fault"]
    # the MCU's own report: the shuffle was stopped by the e-stop (history, not a fault of the cycle)
    assert [e.code for e in store.events("p1-00001") if isinstance(e, DeviceFault)] == ["emergency_stop"]
    store.close()


def test_a_fault_stops_the_motors_and_retry_recovers(tmp_path):
    svc, store = make(tmp_path)

    async def scenario(svc):
        emu = svc.backend.emulator
        emu.jam_lift(2)
        svc.press("start")
        await until(lambda: svc.machine.state is S.FAULT, what="fault")
        await until(lambda: svc.stopper.state == "confirmed", what="stop confirmed")
        assert emu.estop_stops  # the FAULT sent the e-stop, as a pause does
        assert "lift2" in svc.machine.fault
        emu.jam_lift(2, jammed=False)
        svc.press("start")  # retry: the latch is cleared by a reset, the walls go up
        await until(lambda: svc.machine.state is S.DEALING, what="dealing")

    run(svc, scenario)
    faults = [(e.code, e.part) for e in store.events("p1-00001") if isinstance(e, DeviceFault)]
    assert faults == [("lift_limit_timeout", "lift2")]
    store.close()


def test_a_failed_estop_is_recorded_shown_and_retried_until_confirmed(tmp_path):
    svc, store = make(tmp_path, panel=True)

    async def scenario(svc):
        emu = svc.backend.emulator
        svc.press("start")
        await until(lambda: svc.machine.state is S.SHUFFLING, what="shuffling")
        emu.unplug()  # the cable is pulled: the stop cannot reach the table
        svc.press("judge")
        await until(lambda: svc.stopper.failures >= 2, what="two failed stops")
        snap = svc.snapshot()
        assert snap.estop["state"] == "failed" and "EMERGENCY STOP NOT CONFIRMED" in snap.fault
        assert svc.panel.status_led.is_lit or svc.panel.status_led._blink_thread is not None
        svc.press("judge")  # no resume while the stop is unconfirmed
        await asyncio.sleep(0.1)
        assert svc.machine.state is S.PAUSED and "not confirmed" in svc.resume_error
        emu.replug()
        await until(lambda: svc.stopper.state == "confirmed", what="stop confirmed after the replug")
        assert svc.backend.motors_running() == set()
        svc.press("judge")
        await until(lambda: svc.machine.state is S.DEALING, timeout=30, what="dealing")

    run(svc, scenario)
    failed = [e for e in store.events("p1-00001") if isinstance(e, DeviceFault) and e.code == "estop_failed"]
    assert len(failed) >= 2 and all("not confirmed" in e.message for e in failed)
    store.close()


def test_random_judge_presses_in_a_demo_game_never_brick_it(tmp_path):
    presses = scaled(40, 200)
    hands = 2
    svc, store = make(tmp_path, auto=True, play=BotPlay(event_delay=0.002))
    rng = random.Random(1616)
    paused_in = []

    async def scenario(svc):
        for i in range(presses):  # pause and resume at random moments, now quickly, now after a while
            await asyncio.sleep(rng.uniform(0.0, 0.05) if i % 2 else rng.expovariate(1 / 0.15))
            if svc.machine.state is not S.PAUSED:
                paused_in.append(str(svc.machine.state))
            svc.press("judge")
        loop = asyncio.get_running_loop()
        end = loop.time() + 120
        while svc.hands_played() < hands:  # the last press may have paused it: resume
            assert loop.time() < end, "the demo did not go on"
            await asyncio.sleep(0.2)
            if svc.machine.state is S.PAUSED:
                svc.press("judge")

    run(svc, scenario, timeout=300)
    results = store.results()
    assert len(results) >= hands and all(r["status"] == "played" for _, r in results)  # nothing aborted
    assert len({h for h, _ in results}) == len(results)  # one result per hand
    assert not [s for h, _ in results for s in states(store, h) if s[0] == "fault"]  # never faulted
    pauses = sum(1 for h, _ in results for s in states(store, h) if s == ("paused", "pause"))
    assert pauses >= presses // 4
    assert len(set(paused_in)) >= 2, paused_in  # the presses landed in more than one state of the cycle
    store.close()


def test_a_fault_that_repeats_stops_the_demo_in_fault_instead_of_looping(tmp_path):
    svc, store = make(tmp_path, auto=True, play=BotPlay(event_delay=0))

    async def scenario(svc):
        svc.backend.emulator.set_lid(True)  # nobody closes it
        await until(lambda: svc.machine.state is S.FAULT and svc.cycle.fault_streak[1] >= REPEATED_FAULT_LIMIT,
                    what="the repeated fault")
        n = len(store.results())
        await asyncio.sleep(1.0)  # no abort -> start -> fault loop
        assert svc.machine.state is S.FAULT and len(store.results()) == n
        assert "lid" in svc.machine.fault

    run(svc, scenario)
    results = store.results()
    assert len(results) == REPEATED_FAULT_LIMIT - 1 and all(r["status"] == "aborted" for _, r in results)
    store.close()
