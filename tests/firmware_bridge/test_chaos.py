"""Chaos through the emulator: byte corruption, frame drops and MCU resets.

Without resets: every command executed exactly once, in order, and no event lost or doubled.
With resets: no repeatable command lost, no at-most-once command executed twice, and the Pi's view of the
table equals the emulator's after each reconciliation.
"""
from __future__ import annotations

import asyncio
import random

from firmware_bridge.bridge import Bridge
from firmware_bridge.emulator import McuEmulator
from firmware_bridge.errors import CommandRejected, OutcomeUnknown
from firmware_bridge.messages import Button, Dice, Hello, Indicators, Lift, Message, StatusRequest
from tests.conftest import scaled
from tests.firmware_bridge.helpers import FAST, aeventually

BATCH = 20


def unique_indicators(i: int) -> Indicators:
    return Indicators(i % 4, (i // 4) % 4, (i // 16) % 4, (i // 64) % 256)


def commands_of(emu: McuEmulator) -> list[Message]:
    return [e.msg for e in emu.executed if not isinstance(e.msg, Hello | StatusRequest)]


def test_noise_every_command_once_in_order_no_event_lost():
    n = scaled(400, 10_000)
    with McuEmulator(time_scale=1000, seed=11, max_retries=300) as emu:
        emu.set_noise(corrupt=0.01, drop=0.01)

        async def main() -> tuple[list[Message], list[Message]]:
            received: list[Message] = []
            async with Bridge(emu.url, FAST) as b:
                b.add_raw_listener(received.append)
                sent: list[Message] = []
                for start in range(0, n, BATCH):
                    batch: list[Message] = [unique_indicators(i) for i in range(start, min(n, start + BATCH - 1))]
                    batch.append(Dice(1 + start % 5000))
                    sent += batch
                    # a STATUS read while the dice's events are in flight must not make the view count twice
                    await asyncio.gather(*(b.command(m) for m in batch[:-1]), b.dice(batch[-1].pulse_ms),
                                         b.status(), asyncio.to_thread(emu.press_button, Button.START, start % 4))
                await aeventually(lambda: emu.idle() and len(received) == len(emu.events_sent), what="quiet")
                assert b.view == emu.status()
                assert b.link.stats.retransmits > 0
                pi_rx = b.link.decoder_stats
                assert pi_rx is not None and pi_rx.crc_errors + pi_rx.cobs_errors > 0  # noise both ways
            return sent, received

        sent, received = asyncio.run(main())
        assert commands_of(emu) == sent  # exactly once, in order
        assert received == [e for _, e in emu.events_sent]  # no event lost, none doubled, in order
        assert len(received) >= 3 * (n // BATCH)  # a start PROGRESS and a DONE per dice, a button
        assert emu._decoder.stats.crc_errors + emu._decoder.stats.cobs_errors > 0  # the noise was real
        assert emu.events_dropped == 0


def test_resets_lose_no_repeatable_command_and_double_no_dice():
    rounds = scaled(8, 100)
    rng = random.Random(5)
    with McuEmulator(time_scale=1000, seed=12, max_retries=300) as emu:
        emu.set_noise(corrupt=0.01, drop=0.01)
        repeatable: list[Message] = []
        dice: list[int] = []
        outcomes = {"ok": 0, "unknown": 0, "rejected": 0}

        async def dice_cmd(b: Bridge, pulse: int) -> None:
            try:
                await b.dice(pulse)
                outcomes["ok"] += 1
            except OutcomeUnknown:
                outcomes["unknown"] += 1
            except CommandRejected:  # BUSY right after a reset's re-sent command: not executed
                outcomes["rejected"] += 1

        async def main() -> None:
            async with Bridge(emu.url, FAST) as b:
                await b.configure(136, (17, 17, 17, 17))
                k = 0
                for r in range(rounds):
                    coros = []
                    for j in range(BATCH):
                        k += 1
                        if j % 7 == 3:
                            dice.append(k)
                            coros.append(dice_cmd(b, k))
                        else:
                            msg = unique_indicators(k) if j % 5 else Lift(1 << (k % 4), k % 2)
                            repeatable.append(msg)
                            coros.append(b.command(msg))
                    reset_after = rng.uniform(0.0, 0.02)

                    async def reset_later(delay: float = reset_after) -> None:
                        await asyncio.sleep(delay)
                        await asyncio.to_thread(emu.reset)

                    await asyncio.gather(*coros, reset_later())
                    # reconciliation done and the table quiet: the Pi's view is the emulator's
                    await aeventually(lambda: b.link.idle and b.view.boot_counter == emu.boot_counter
                                      and emu.idle(), what="reconciliation")
                    assert b.view == emu.status(), f"round {r}"
                assert b.link.stats.resets_seen >= rounds - 1

        asyncio.run(main())
        executed = commands_of(emu)
        for msg in repeatable:  # repeatable: at least once
            assert msg in executed, msg
        pulses = [m.pulse_ms for m in executed if isinstance(m, Dice)]
        for p in dice:  # at-most-once: never twice
            assert pulses.count(p) <= 1
        assert outcomes["ok"] + outcomes["unknown"] + outcomes["rejected"] == len(dice)
        assert outcomes["ok"] > 0
