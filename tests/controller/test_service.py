"""The table service end to end on the direct-GPIO back-end's emulator twin (fast, mock pins)."""
from __future__ import annotations

import asyncio

from gpiozero.pins.mock import MockFactory

from controller import config
from controller.backends.gpio_direct import GpioBackend, GpioTableSim
from controller.event_store import EventStore
from controller.service import TableService
from controller.table_machine import S
from rules.events import DiceRolled, TableStateChanged

SCALE = 400.0


def make(tmp_path, auto=True, dice=None, sim_setup=None, profile="basic"):
    cfg = config.defaults().with_overrides(table__profile=profile, table__id="t7")
    f = MockFactory()
    sim = GpioTableSim(f, time_scale=SCALE, tile_count=136 if profile == "basic" else 108)
    if sim_setup:
        sim_setup(sim)
    sim.start()
    be = GpioBackend(f, time_scale=SCALE)
    store = EventStore(tmp_path / "events.sqlite")
    svc = TableService(cfg, be, store, auto=auto, dice_source=dice)
    return svc, sim, store


async def run_until(svc, cond, timeout=20.0, hands=None):
    stop = asyncio.Event()
    task = asyncio.create_task(svc.run(stop, hands=hands))
    end = asyncio.get_running_loop().time() + timeout
    while not cond() and asyncio.get_running_loop().time() < end and not task.done():
        await asyncio.sleep(0.01)
    stop.set()
    await task
    return cond()


def test_two_hands_cycle_and_are_recorded_once(tmp_path):
    svc, sim, store = make(tmp_path)
    try:
        asyncio.run(run_until(svc, lambda: False, hands=2))
    finally:
        sim.stop()
    res = store.results()
    assert [h for h, _ in res] == ["t7-00001", "t7-00002"]
    states = [e.state for e in store.events("t7-00001") if isinstance(e, TableStateChanged)]
    assert states == ["collecting", "shuffling", "walls_up", "dice", "dealing", "play", "scoring", "idle"]
    dice = [e for e in store.events("t7-00001") if isinstance(e, DiceRolled)]
    assert len(dice) == 1 and all(1 <= v <= 6 for v in dice[0].values)


def test_jammed_lift_faults_and_retry_continues(tmp_path):
    svc, sim, store = make(tmp_path, auto=False, sim_setup=lambda s: s.jammed.add(3))

    async def scenario():
        stop = asyncio.Event()
        task = asyncio.create_task(svc.run(stop))
        while svc._triggers is None:
            await asyncio.sleep(0.01)
        svc.press("start")
        while svc.machine.state is not S.FAULT:
            await asyncio.sleep(0.01)
        assert "lift3" in svc.machine.prompt and "jammed tile" in svc.machine.prompt
        assert svc.machine.resume_to is S.WALLS_UP
        sim.jammed.clear()  # the operator frees the tile
        svc.press("start")  # retry
        while svc.machine.state is not S.DEALING:
            await asyncio.sleep(0.01)
        stop.set()
        await task

    try:
        asyncio.run(asyncio.wait_for(scenario(), 30))
    finally:
        sim.stop()
    faults = [e for e in store.events("t7-00001") if e.TYPE == "device_fault"]
    assert [(f.code, f.part) for f in faults] == [("lift_limit_timeout", "lift3")]


def test_restart_resumes_paused_with_the_same_dice(tmp_path):
    throws = iter([((3, 4),), ((6, 6),)])
    svc, sim, store = make(tmp_path, auto=False, dice=lambda n: next(throws))

    async def first():
        stop = asyncio.Event()
        task = asyncio.create_task(svc.run(stop))
        while svc._triggers is None:
            await asyncio.sleep(0.01)
        svc.press("start")
        while svc.machine.state is not S.DEALING:
            await asyncio.sleep(0.01)
        stop.set()  # the service goes down in the middle of the hand
        await task

    asyncio.run(asyncio.wait_for(first(), 30))
    sim.stop()
    store.close()
    svc2, sim2, store2 = make(tmp_path, auto=False, dice=lambda n: next(throws))

    async def second():
        stop = asyncio.Event()
        task = asyncio.create_task(svc2.run(stop))
        while svc2._triggers is None:
            await asyncio.sleep(0.01)
        assert svc2.machine.state is S.PAUSED and svc2.machine.resume_to is S.DEALING
        assert svc2.dice == ((3, 4),)
        svc2.press("judge")  # resume
        while svc2.machine.state is not S.DEALING:
            await asyncio.sleep(0.01)
        svc2.press("start")  # tiles taken
        while svc2.machine.state is not S.PLAY:
            await asyncio.sleep(0.01)
        stop.set()
        await task

    try:
        asyncio.run(asyncio.wait_for(second(), 30))
    finally:
        sim2.stop()
    dice = [e.values for e in store2.events("t7-00001") if isinstance(e, DiceRolled)]
    assert dice == [(3, 4)]  # never redrawn
    assert store2.unfinished_hands() == ["t7-00001"]
