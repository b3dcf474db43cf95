"""Fixtures: an emulated MCU on a pty or on TCP, fast (time scale 1000: a 40 s shuffle takes 40 ms)."""
from __future__ import annotations

from collections.abc import Iterator

import pytest

from firmware_bridge.emulator import McuEmulator, make_port


@pytest.fixture
def emu() -> Iterator[McuEmulator]:
    with McuEmulator(time_scale=1000, seed=7) as e:
        yield e


@pytest.fixture
def tcp_emu() -> Iterator[McuEmulator]:
    with McuEmulator(make_port("tcp"), time_scale=1000, seed=8) as e:
        yield e
