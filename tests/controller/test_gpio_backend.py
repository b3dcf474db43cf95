"""The direct-GPIO back-end on mock pins, driven by its emulator twin."""
import asyncio

import pytest
from gpiozero.pins.mock import MockFactory

from controller.backends import BackendFault
from controller.backends.gpio_direct import GpioBackend, GpioTableSim

SCALE = 200.0


@pytest.fixture
def table():
    f = MockFactory()
    sim = GpioTableSim(f, time_scale=SCALE, tile_count=136)
    be = GpioBackend(f, time_scale=SCALE)
    sim.start()
    yield be, sim
    sim.stop()
    asyncio.run(be.close())


def run(coro):
    return asyncio.run(coro)


def test_full_cycle(table):
    be, sim = table
    progress = []

    async def cycle():
        await be.start()
        await be.configure(136, (17, 17, 17, 17))
        await be.collect()
        await be.shuffle(progress.append)
        await be.raise_walls()
        await be.dice(600)
        await be.lower_walls()

    run(cycle())
    assert progress[-1].stacks_built == (17, 17, 17, 17)
    assert sim.lift_pos == 0.0
    assert be.motors_running() == set()


def test_jammed_lift_is_a_fault_naming_the_lift_and_motors_stop(table):
    be, sim = table
    sim.jammed.add(2)
    with pytest.raises(BackendFault) as ei:
        run(be.raise_walls())
    assert (ei.value.code, ei.value.part) == ("lift_limit_timeout", "lift2")
    assert "jammed tile" in ei.value.message
    assert be.motors_running() == set()


def test_chain_zero_lost():
    # a slower clock: the sensor check needs a few chain revolutions within the 40 s build
    f = MockFactory()
    sim = GpioTableSim(f, time_scale=20.0).start()
    be = GpioBackend(f, time_scale=20.0)
    sim.chain_zero_ok = False
    try:
        with pytest.raises(BackendFault) as ei:
            run(be.shuffle())
        assert (ei.value.code, ei.value.part) == ("chain_zero_lost", "chain")
        assert be.motors_running() == set()
    finally:
        sim.stop()
        run(be.close())


@pytest.mark.parametrize("delta", [-1, 1])
def test_miscounted_stacks(table, delta):
    be, sim = table
    sim.miscount[1] = delta
    with pytest.raises(BackendFault) as ei:
        run(be.shuffle())
    assert ei.value.code == "stack_count_wrong" and ei.value.part == "side1"


def test_lid_open_stops_everything(table):
    be, sim = table
    sim.set_lid(True)
    with pytest.raises(BackendFault) as ei:
        run(be.collect())
    assert ei.value.code == "lid_open"


def test_estop_cuts_every_output(table):
    be, sim = table

    async def go():
        task = asyncio.create_task(be.shuffle())
        await asyncio.sleep(0.01)
        assert be.motors_running()
        await be.estop()
        assert be.motors_running() == set()
        task.cancel()

    run(go())
