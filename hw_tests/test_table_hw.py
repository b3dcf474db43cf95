"""The table's motors, sensors and link: the same tests on the emulator (CI) and on the real table."""
from __future__ import annotations

import time

import pytest

from controller.backends import BackendFault


def test_link_up_and_configure(rig):
    be = rig.start_backend()
    rig.run(be.configure(136, (17, 17, 17, 17)))
    with pytest.raises(BackendFault):  # 100 tiles do not fill 4 x 17 stacks: rejected, not executed
        rig.run(be.configure(100, (17, 17, 17, 17)))


def test_collect_shuffle_raise_dice_lower(rig):
    be = rig.start_backend()
    progress = []
    rig.run(be.configure(108, (14, 13, 14, 13)))
    rig.run(be.collect(), timeout=120)
    rig.run(be.shuffle(progress.append), timeout=120)
    assert progress and progress[-1].stacks_built == (14, 13, 14, 13)
    rig.run(be.raise_walls(), timeout=30)
    rig.run(be.dice(600), timeout=30)
    rig.run(be.lower_walls(), timeout=30)
    if rig.emulator is not None:
        assert rig.emulator.motors_running() == set()


def test_emergency_stop_reaches_the_motors(rig):
    be = rig.start_backend(time_scale=2.0)
    rig.run(be.configure(136, (17, 17, 17, 17)))

    async def shuffle_then_stop():
        import asyncio

        task = asyncio.create_task(be.shuffle())
        await asyncio.sleep(0.3)
        t0 = time.monotonic()
        await be.estop()
        t_ack = time.monotonic()
        try:
            await task
        except BackendFault as exc:
            return t0, t_ack, exc
        return t0, t_ack, None

    t0, t_ack, exc = rig.run(shuffle_then_stop())
    assert exc is not None and exc.code == "emergency_stop"
    if rig.emulator is not None:
        stops = rig.emulator.estop_stops
        assert stops and stops[-1] >= t0
        assert rig.emulator.motors_running() == set()
    else:
        assert rig.ask("confirm every motor stopped")


# (fault name, emulator injection, technician instruction, expected code, expected part)
FAULTS = [
    ("jammed lift", lambda e: e.jam_lift(2), "hold side lift 2 down", "raise", "lift_limit_timeout", "lift2"),
    ("lid open", lambda e: e.set_lid(True), "open the lid", "shuffle", "lid_open", "lid"),
    ("chain zero lost", lambda e: e.lose_chain_zero(True), "cover the chain zero sensor", "shuffle",
     "chain_zero_lost", "chain"),
    ("stack miscount", lambda e: e.miscount_stacks(3, -1), "take a stack from side 3 while it builds", "shuffle",
     "stack_count_wrong", "side3"),
    ("push count", lambda e: e.wrong_push_count(True), "remove one tile from the pusher", "shuffle",
     "push_count_wrong", "stacker"),
    ("shuffle timeout", lambda e: e.stall_shuffle(True), "block the stacker", "shuffle", "shuffle_timeout", "stacker"),
]


@pytest.mark.parametrize("name,inject,instruction,op,code,part", FAULTS, ids=[f[0] for f in FAULTS])
def test_every_fault_is_reported_with_code_and_part(rig, name, inject, instruction, op, code, part):
    be = rig.start_backend(time_scale=400.0)
    rig.run(be.configure(136, (17, 17, 17, 17)))
    if rig.emulator is not None:
        inject(rig.emulator)
    elif not rig.ask(instruction):
        pytest.fail(f"no one provoked the fault: {instruction}")
    coro = be.raise_walls() if op == "raise" else be.shuffle()
    with pytest.raises(BackendFault) as ei:
        rig.run(coro, timeout=60)
    assert (ei.value.code, ei.value.part) == (code, part)
    assert ei.value.message  # readable
    if rig.emulator is not None:
        assert rig.emulator.motors_running() == set()


def test_overcurrent_during_shuffle(rig):
    be = rig.start_backend(time_scale=2.0)
    rig.run(be.configure(136, (17, 17, 17, 17)))

    async def go():
        import asyncio

        task = asyncio.create_task(be.shuffle())
        await asyncio.sleep(0.2)
        if rig.emulator is not None:
            from firmware_bridge.messages import Part

            rig.emulator.overcurrent(Part.STACKER)
        else:
            rig.ask("block the stacking head until the motor trips")
        return await task

    with pytest.raises(BackendFault) as ei:
        rig.run(go())
    assert ei.value.code == "motor_overcurrent"
