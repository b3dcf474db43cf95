"""Fixtures for the hall tests: a real mosquitto per test, on a free port in the test's own folder."""
from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import pytest

from hall.broker import Mosquitto, find_mosquitto
from tests.needs import need


def _need_mosquitto() -> None:
    if find_mosquitto() is None:  # CI installs Debian's package (.ci/run): a missing broker is a failure
        need("mosquitto", "mosquitto is not installed (Debian's mosquitto package)")


@pytest.fixture
def broker(tmp_path) -> Iterator[Mosquitto]:
    _need_mosquitto()
    b = Mosquitto(tmp_path / "broker").start()
    yield b
    b.stop()


def wait_for(pred: Callable[[], bool], timeout: float = 20.0, what: str = "condition") -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if pred():
            return
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")
