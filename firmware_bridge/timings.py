"""The table's mechanical timings, one definition for every twin of the table: the MCU emulator
(:mod:`firmware_bridge.emulator.mcu`) and the direct-GPIO back-end with its emulator twin
(:mod:`controller.backends.gpio_direct`), which keep the same limits as the MCU firmware (docs/protocol.md).
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Timings:
    """Table seconds (divided by the time scale); the same limits as the MCU firmware."""

    collect_s: float = 8.0
    shuffle_s: float = 40.0  # the emulated shuffle's length (the GPIO twin builds stacks as the chain turns)
    shuffle_timeout_s: float = 80.0
    lift_s: float = 3.0
    lift_timeout_s: float = 5.0
    chain_period_s: float = 2.0  # direct GPIO: the chain zero sensor passes once per revolution
    stall_s: float = 6.0  # direct GPIO: no new stack for this long while a side is short: stack count wrong
