"""Hardware-in-the-loop fixtures.

``--hw=emulator`` (default; what CI runs): the MCU emulator on a pty with a time-scale factor, and
gpiozero mock pins for the Pi's panel. ``--hw=real``: the table attached to this Pi, on the header's UART
(``/dev/ttyAMA0`` on a Pi 5, ``/dev/serial0`` before; ``--port`` another);
faults are provoked by the technician when prompted (open the lid, hold a lift), and buttons are
pressed by a person, each with a timeout.
"""
from __future__ import annotations

import asyncio
import select
import sys
import time

import pytest

from controller import board, config


def pytest_addoption(parser):
    parser.addoption("--hw", default="emulator", choices=("emulator", "real"), help="hardware under test")
    uart = board.header_uart(board.model())
    parser.addoption("--port", default=uart, help=f"serial port of the real table (--hw=real; default {uart}, "
                     "the header's UART of this board)")
    parser.addoption("--pins", default="lgpio", help="gpiozero pin factory for --hw=real")
    parser.addoption("--camera", default="picamera", help="camera for --hw=real: picamera, cam:N or a URL")
    parser.addoption("--prompt-timeout", type=float, default=30.0, help="seconds a person has for each prompt")


class Rig:
    """What a hardware test talks to: the back-end, the panel, and (emulator only) the emulator itself."""

    def __init__(self, request):
        self.mode = request.config.getoption("--hw")
        self.timeout = request.config.getoption("--prompt-timeout")
        self.port = request.config.getoption("--port")
        self.pin_factory_name = "mock" if self.mode == "emulator" else request.config.getoption("--pins")
        self.loop = asyncio.new_event_loop()
        self.emulator = None
        self.backend = None
        self.panel = None

    @property
    def real(self) -> bool:
        return self.mode == "real"

    def run(self, coro, timeout: float = 30.0):
        return self.loop.run_until_complete(asyncio.wait_for(coro, timeout))

    def start_backend(self, time_scale: float = 200.0):
        from controller.backends.mcu import McuBackend

        self.backend = McuBackend("emulator" if not self.real else self.port, time_scale=time_scale)
        self.run(self.backend.start())
        self.emulator = self.backend.emulator
        return self.backend

    def start_panel(self):
        from controller.devices import Panel, make_pin_factory

        gpio = {k.split(".", 1)[1]: v for k, v in config.defaults().values.items() if k.startswith("gpio.")}
        self.panel = Panel(gpio, pin_factory=make_pin_factory(self.pin_factory_name))
        return self.panel

    def ask(self, text: str) -> bool:
        """Real hardware: ask the technician, wait for Enter (True) or the timeout (False)."""
        print(f"\n>>> {text} — press Enter when done ({self.timeout:.0f} s)", file=sys.stderr, flush=True)
        ready, _, _ = select.select([sys.stdin], [], [], self.timeout)
        if ready:
            sys.stdin.readline()
        return bool(ready)

    def press(self, pin, what: str) -> None:
        """Press a panel button: the mock pin on the emulator rig, a person on the real one."""
        if self.real:
            self.ask(f"press the {what} button")
            return
        f = self.panel.factory
        f.pin(pin).drive_low()
        f.pin(pin).drive_high()

    def close(self):
        if self.backend is not None:
            self.run(self.backend.close())
        if self.panel is not None:
            self.panel.close()
        self.loop.close()


@pytest.fixture
def rig(request):
    r = Rig(request)
    yield r
    r.close()


def wait_for(cond, timeout: float = 5.0) -> bool:
    end = time.monotonic() + timeout
    while not cond() and time.monotonic() < end:
        time.sleep(0.002)
    return cond()
