"""The bridge against the emulated MCU: operations, typed faults, e-stop, heartbeat, reset, reconnect."""
from __future__ import annotations

import asyncio
import threading
import time

import pytest

from firmware_bridge import framing
from firmware_bridge.bridge import Bridge
from firmware_bridge.emulator import McuEmulator
from firmware_bridge.errors import CommandRejected, NotConnected, OutcomeUnknown, TableFault
from firmware_bridge.framing import Frame
from firmware_bridge.link import LinkConfig
from firmware_bridge.messages import Button, Collect, Dice, Indicators, Part, Result, Shuffle, TableStatus
from firmware_bridge.transport import SerialTransport
from rules.events import ButtonPressed, DeviceDone, DeviceFault, LinkState, SensorChanged, ShuffleProgress
from tests.firmware_bridge.helpers import FAST, aeventually, eventually


def run(coro):
    return asyncio.run(coro)


async def configured(b: Bridge) -> None:
    await b.configure(136, (17, 17, 17, 17))


def test_a_full_hand_cycle_over_a_pty(emu):
    async def main():
        async with Bridge(emu.url, FAST) as b:
            assert b.hello.tile_set_sizes == (108, 136, 144, 148) and b.hello.n_lifts == 4
            events = []
            b.add_listener(events.append)
            await configured(b)
            progress: list[ShuffleProgress] = []
            await b.collect()
            await b.shuffle(progress=progress.append)
            await b.raise_walls()
            await b.dice(600)
            await b.indicators(turn=1, dealer=0, wind=0, light=2)
            assert progress and progress[-1].stacks_built == (17, 17, 17, 17)
            built = [sum(p.stacks_built) for p in progress]
            assert built == sorted(built)  # monotonic
            s = await b.status()
            assert s == b.view == emu.status()
            assert (s.collects, s.shuffles, s.dice_rolls, s.lifts & 0x0F) == (1, 1, 1, 0x0F)
            await b.lower_walls()
            assert b.view.lifts & 0x0F == 0
            await asyncio.sleep(0)
            assert [e.operation for e in events if isinstance(e, DeviceDone)] == [
                "collect", "shuffle", "lift", "dice", "lift"]
            assert any(isinstance(e, SensorChanged) and e.sensor == "lift2_up" and e.value == 1 for e in events)
            assert all(e.t_mono > 0 and e.t_wall > 0 for e in events)

    run(main())


def test_socket_url(tcp_emu):
    async def main():
        async with Bridge(tcp_emu.url, FAST) as b:
            await configured(b)
            await b.shuffle()
            assert b.view == tcp_emu.status()

    run(main())


def test_transport_over_loop_url():
    got: list[Frame] = []
    t = SerialTransport("loop://", 115200, got.append, lambda transport, exc: None)
    try:
        frames = [Frame(0x15, i, bytes([i])) for i in range(1, 6)]
        for f in frames:
            t.write(b"\x13\x37\x00" + framing.encode(f))  # garbage (cut by a delimiter) before each frame
        eventually(lambda: len(got) == 5, what="frames through loop://")
        assert got == frames
    finally:
        t.close()


@pytest.mark.parametrize(("inject", "action", "code", "part"), [
    (lambda e: e.jam_lift(2), lambda b: b.raise_walls(), "lift_limit_timeout", "lift2"),
    (lambda e: e.lose_chain_zero(), lambda b: b.shuffle(), "chain_zero_lost", "chain"),
    (lambda e: e.miscount_stacks(1, -1), lambda b: b.shuffle(), "stack_count_wrong", "side1"),
    (lambda e: e.wrong_push_count(), lambda b: b.shuffle(), "push_count_wrong", "stacker"),
    (lambda e: e.stall_shuffle(), lambda b: b.shuffle(), "shuffle_timeout", "stacker"),
])
def test_injected_faults_raise_typed_errors(emu, inject, action, code, part):
    async def main():
        async with Bridge(emu.url, FAST) as b:
            faults = []
            b.add_listener(lambda e: faults.append(e) if isinstance(e, DeviceFault) else None)
            await configured(b)
            inject(emu)
            with pytest.raises(TableFault) as err:
                await action(b)
            assert (err.value.code_name, err.value.part_name) == (code, part)
            assert part in str(err.value)
            await asyncio.sleep(0)
            assert [(f.code, f.part) for f in faults] == [(code, part)]
            await aeventually(lambda: b.link.idle and emu.idle())
            assert b.view == emu.status()

    run(main())


def test_overcurrent_and_busy_on_a_slow_table():
    with McuEmulator(time_scale=2, seed=3) as emu:
        async def main():
            async with Bridge(emu.url, FAST) as b:
                collect = asyncio.ensure_future(b.collect())
                await aeventually(lambda: "turntable" in emu.motors_running())
                with pytest.raises(CommandRejected) as busy:
                    await b.command(Shuffle())
                assert busy.value.result == Result.BUSY
                emu.overcurrent(Part.TURNTABLE)
                with pytest.raises(TableFault) as err:
                    await collect
                assert err.value.code_name == "motor_overcurrent" and err.value.part_name == "turntable"
                assert emu.motors_running() == set()

        run(main())


def test_lid_open_stops_and_refuses_motion(emu):
    async def main():
        async with Bridge(emu.url, FAST) as b:
            emu.set_lid(True)
            with pytest.raises(CommandRejected) as err:
                await b.dice()
            assert err.value.result == Result.FAULTED
            await aeventually(lambda: b.view.flags & TableStatus.LID_OPEN != 0)
            emu.set_lid(False)
            await b.dice()

    run(main())


def test_buttons_arrive_on_the_event_stream(emu):
    async def main():
        async with Bridge(emu.url, FAST) as b:
            stream = b.events()
            first = asyncio.ensure_future(anext(stream))
            await asyncio.sleep(0)
            emu.press_button(Button.START, 2)
            ev = await asyncio.wait_for(first, 10)
            assert isinstance(ev, ButtonPressed) and (ev.button, ev.seat) == ("start", 2)
            await stream.aclose()

    run(main())


def test_estop_reaches_the_motors_within_50ms_and_latches():
    """Measured on the emulator's time line: arrival of the stop at the motors minus the call; the best of
    a few tries, so a busy machine does not make it flaky."""
    with McuEmulator(time_scale=1, seed=4) as emu:
        async def main():
            async with Bridge(emu.url, FAST) as b:
                latencies = []
                for _ in range(3):
                    await b.command(Collect())
                    await aeventually(lambda: bool(emu.motors_running()))
                    t_call = time.monotonic()
                    await b.estop()
                    latencies.append(emu.estop_stops[-1] - t_call)
                    assert emu.motors_running() == set()
                    with pytest.raises(CommandRejected) as err:
                        await b.command(Dice(100))
                    assert err.value.result == Result.ESTOPPED
                    await aeventually(lambda: b.view.flags & TableStatus.ESTOPPED != 0)
                    boot = emu.boot_counter
                    await b.reset()  # returns once the new session is reconciled
                    assert b.view.boot_counter == boot + 1
                    assert not b.view.flags & TableStatus.ESTOPPED
                return latencies

        latencies = run(main())
        assert 0 <= min(latencies) < 0.050, latencies


def test_estop_jumps_the_queue(emu):
    async def main():
        async with Bridge(emu.url, FAST) as b:
            queued = [asyncio.ensure_future(b.indicators(light=i % 5)) for i in range(50)]
            await asyncio.sleep(0)  # all 50 are queued in the link now
            await b.estop()
            await asyncio.gather(*queued)  # and still delivered afterwards (indicators are allowed)
            stopped = emu.estop_stops[-1]
            before = [e for e in emu.executed if isinstance(e.msg, Indicators) and e.t_mono < stopped]
            after = [e for e in emu.executed if isinstance(e.msg, Indicators) and e.t_mono > stopped]
            assert len(before) + len(after) == 50
            assert len(after) > 0  # the stop overtook queued commands

    run(main())


def test_heartbeat_loss_stops_the_motors():
    with McuEmulator(time_scale=1, seed=5) as emu:
        cfg = LinkConfig(ack_timeout=0.03, max_retries=30, heartbeat_interval=0.05, mcu_watchdog_ms=300)

        async def main():
            async with Bridge(emu.url, cfg) as b:
                await configured(b)
                shuffle = asyncio.ensure_future(b.shuffle())
                await aeventually(lambda: "stacker" in emu.motors_running())
                b.link.pause_heartbeats()
                await aeventually(lambda: not emu.motors_running(), what="motors stopped by the watchdog")
                assert emu.heartbeat_stops == 1
                with pytest.raises(TableFault) as err:
                    await shuffle
                assert err.value.code_name == "heartbeat_lost"
                b.link.pause_heartbeats(False)
                await b.dice(100)  # the session survived

        run(main())


def test_mcu_reset_is_detected_and_state_reapplied(emu):
    async def main():
        async with Bridge(emu.url, FAST) as b:
            states = []
            b.add_listener(lambda e: states.append(e.state) if isinstance(e, LinkState) else None)
            await configured(b)
            await b.indicators(turn=3, dealer=1, wind=0, light=2)
            emu.reset()
            await aeventually(lambda: "mcu_reset" in states and b.link.idle)
            s = emu.status()
            assert s.boot_counter == 2 and s.flags & TableStatus.CONFIGURED and s.indicators == (3, 1, 0, 2)
            assert b.view == s
            await b.shuffle()

    run(main())


def test_a_refused_single_copy_of_an_at_most_once_command_is_sent_again():
    """NOT_SYNCED to the only copy sent proves the dice did not roll: it is rolled in the new session."""
    with McuEmulator(time_scale=1000, heartbeat_interval=5.0) as emu:
        async def main():
            async with Bridge(emu.url, FAST) as b:
                emu.reset(announce=False)
                await b.dice(123)  # no OutcomeUnknown
                assert b.link.stats.resets_seen == 1
                rolls = [e for e in emu.executed if isinstance(e.msg, Dice)]
                assert [(e.boot, e.msg.pulse_ms) for e in rolls] == [(2, 123)]

        run(main())


def test_reset_during_an_operation_gives_outcome_unknown():
    with McuEmulator(time_scale=1, seed=6) as emu:
        async def main():
            async with Bridge(emu.url, FAST) as b:
                collect = asyncio.ensure_future(b.collect())
                await aeventually(lambda: bool(emu.motors_running()))
                emu.reset()
                with pytest.raises(OutcomeUnknown):
                    await collect
                await aeventually(lambda: b.link.idle)
                assert b.view == emu.status()

        run(main())


def test_unplug_and_replug(emu):
    async def main():
        async with Bridge(emu.url, FAST) as b:
            states = []
            b.add_listener(lambda e: states.append(e.state) if isinstance(e, LinkState) else None)
            emu.unplug()
            await aeventually(lambda: "down" in states, what="link down")
            pending = asyncio.ensure_future(b.dice(100))  # queued while unplugged
            emu.replug()
            await asyncio.wait_for(pending, 10)
            assert states[-1] == "up" and b.link.stats.reconnects >= 2

    run(main())


def test_the_pi_side_port_vanishing_and_returning(emu):
    """A USB adapter that disappears: the link reopens the port and starts a new session."""
    async def main():
        async with Bridge(emu.url, FAST) as b:
            await b.indicators(turn=1)
            sessions = b.link.stats.sessions
            b.link.drop_connection()
            await aeventually(lambda: b.link.stats.sessions > sessions and b.link.idle, what="new session")
            await b.dice(100)
            assert b.view == emu.status() and b.view.indicators[0] == 1

    run(main())


def test_no_table_gives_a_clear_error():
    async def main():
        b = Bridge("/dev/does-not-exist-mahjong", FAST)
        t0 = time.monotonic()
        with pytest.raises(NotConnected, match="no serial port /dev/does-not-exist-mahjong: no such device"):
            await b.start(timeout=5)
        assert time.monotonic() - t0 < 1  # at once, not after the 5 s answer time-out
        b = Bridge("nonsense://x", FAST)  # a URL pyserial cannot open: no waiting either
        with pytest.raises(NotConnected, match="cannot open nonsense://x"):
            await b.start(timeout=5)
        b = Bridge("socket://127.0.0.1:1", FAST)  # a port that exists but nothing answers: the time-out
        with pytest.raises(NotConnected, match="no answer from a table"):
            await b.start(timeout=0.3)

    run(main())
    assert not [t for t in threading.enumerate() if t.name.startswith("link /dev/does-not-exist")]
