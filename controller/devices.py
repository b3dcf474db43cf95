"""The table's human interface on the Pi's GPIO, through gpiozero: buttons, call panels, LEDs, buzzer.

Every part is a small gpiozero device behind a pin factory, so the same code runs on a Pi 5 (lgpio) and
on :class:`gpiozero.pins.mock.MockFactory` in tests and ``make run``. Every press becomes a
:class:`rules.events.ButtonPressed` stamped on the shared clock the moment gpiozero reports it (claim
windows and priorities are judged on those stamps).

Pin map (configuration ``[gpio]``): start, dice and judge buttons; one "call" button per seat, or a full
call panel per seat (chow/pung/kong/hu/riichi/flower) where the profile uses them; seat-turn and dealer
LEDs per seat; a status LED; a buzzer.
"""
from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, TypeVar

from gpiozero import LED, Button, Buzzer, Device, DigitalOutputDevice
from gpiozero.exc import PinInvalidPin

from controller.clock import Clock
from rules.events import ButtonPressed

if TYPE_CHECKING:
    from gpiozero.pins import Factory

Listener = Callable[[ButtonPressed], None]
Pin = int | str  # as the [gpio] section gives a pin: 17, "GPIO17", "BOARD11"
Out = TypeVar("Out", bound=DigitalOutputDevice)


def _pin(v: object) -> Pin | None:
    """A pin of the ``[gpio]`` values; anything else is gpiozero's own error for a bad pin."""
    if v is None or isinstance(v, int | str):
        return v
    raise PinInvalidPin(f"{v} is not a valid pin name")


def _pins(v: object) -> list[Pin | None]:
    """A list of pins of the ``[gpio]`` values (one per seat)."""
    if not isinstance(v, list | tuple):
        raise PinInvalidPin(f"{v} is not a list of pins")
    return [_pin(p) for p in v]


def make_pin_factory(name: str) -> Factory:
    """The gpiozero pin factory for a config name (``mock`` needs no hardware); one this board cannot run
    (``rpigpio`` on a Pi 5) raises :class:`controller.board.BoardError` with one line."""
    from controller import board

    bad = board.pin_factory_problem(name, board.model())
    if bad:
        raise board.BoardError(bad)
    if name == "mock":
        from gpiozero.pins.mock import MockFactory

        return MockFactory()
    if name == "lgpio":
        from gpiozero.pins.lgpio import LGPIOFactory

        return LGPIOFactory()
    if name == "rpigpio":
        from gpiozero.pins.rpigpio import RPiGPIOFactory

        return RPiGPIOFactory()
    if name == "pigpio":
        from gpiozero.pins.pigpio import PiGPIOFactory

        return PiGPIOFactory()
    if name == "native":
        from gpiozero.pins.native import NativeFactory

        return NativeFactory()
    raise ValueError(f"unknown pin factory {name!r}")


def _panels(v: object) -> Mapping[str | int, Mapping[str, object]]:
    """``gpio.call_panels``: seat ("0".."3") -> {call: pin}; none given: {}."""
    if not v:
        return {}
    if not isinstance(v, Mapping) or not all(isinstance(k, str | int) and isinstance(c, Mapping)
                                             and all(isinstance(n, str) for n in c) for k, c in v.items()):
        raise TypeError(f"gpio.call_panels: {v!r} is not seat -> {{call = pin}}")
    return v


class Panel:
    """All the GPIO devices of one table, built from the ``[gpio]`` configuration values."""

    def __init__(self, gpio: Mapping[str, object], pin_factory: Factory | None = None, clock: Clock | None = None):
        self.clock = clock or Clock()
        if pin_factory is None:
            name = gpio.get("pin_factory", "mock")
            if not isinstance(name, str):
                raise ValueError(f"unknown pin factory {name!r}")
            pin_factory = make_pin_factory(name)
        self.factory = pin_factory
        bounce_ms = gpio.get("bounce_ms", 20)
        if not isinstance(bounce_ms, int | float):
            raise TypeError(f"gpio.bounce_ms: {bounce_ms!r} is not a number of milliseconds")
        bounce = bounce_ms / 1000.0
        self._listeners: list[Listener] = []
        self._lock = threading.Lock()
        self._devices: list[Device] = []
        self.presses: list[ButtonPressed] = []  # the last presses, for the web page and tests

        def button(pin: object, name: str, seat: int | None = None, call: str | None = None) -> Button:
            b = Button(_pin(pin), pin_factory=self.factory, bounce_time=bounce)
            b.when_pressed = lambda: self._pressed(name, seat, call)
            self._devices.append(b)
            return b

        self.start = button(gpio["start_button"], "start")
        self.dice = button(gpio["dice_button"], "dice")
        self.judge = button(gpio["judge_button"], "judge")
        self.calls: dict[tuple[int, str], Button] = {}
        panels = _panels(gpio.get("call_panels"))
        for seat, pin in enumerate(_pins(gpio["call_buttons"])):
            if str(seat) not in panels and pin is not None:
                self.calls[(seat, "call")] = button(pin, "call", seat, None)
        for seat_s, calls in panels.items():
            for call, p in calls.items():
                self.calls[(int(seat_s), call)] = button(p, "call", int(seat_s), call)
        self.turn_leds = [self._out(LED, p) for p in _pins(gpio["turn_leds"])]
        self.dealer_leds = [self._out(LED, p) for p in _pins(gpio["dealer_leds"])]
        self.status_led = self._out(LED, _pin(gpio["status_led"]))
        self.buzzer = self._out(Buzzer, _pin(gpio["buzzer"]))

    def _out(self, cls: type[Out], pin: Pin | None) -> Out:
        d = cls(pin, pin_factory=self.factory)
        self._devices.append(d)
        return d

    # --- inputs -------------------------------------------------------------------------------------------
    def add_listener(self, fn: Listener) -> None:
        with self._lock:
            self._listeners.append(fn)

    def _pressed(self, name: str, seat: int | None, call: str | None) -> None:
        ev = ButtonPressed(button=name, seat=seat, call=call, **self.clock.stamp())
        with self._lock:
            self.presses = (self.presses + [ev])[-50:]
            listeners = list(self._listeners)
        for fn in listeners:
            fn(ev)

    # --- outputs ------------------------------------------------------------------------------------------
    def show_turn(self, seat: int | None) -> None:
        for i, led in enumerate(self.turn_leds):
            led.value = i == seat

    def show_dealer(self, seat: int | None) -> None:
        for i, led in enumerate(self.dealer_leds):
            led.value = i == seat

    def status(self, mode: str) -> None:
        """``ok`` (steady), ``busy`` (slow blink), ``fault`` (fast blink), ``off``."""
        if mode == "ok":
            self.status_led.on()
        elif mode == "busy":
            self.status_led.blink(on_time=0.5, off_time=0.5)
        elif mode == "fault":
            self.status_led.blink(on_time=0.1, off_time=0.1)
        else:
            self.status_led.off()

    def beep(self, kind: str = "warning") -> None:
        """``warning``: three short beeps; ``gong``: one long tone (end of session)."""
        if kind == "gong":
            self.buzzer.blink(on_time=2.0, off_time=0.1, n=1)
        else:
            self.buzzer.blink(on_time=0.15, off_time=0.15, n=3)

    def close(self) -> None:
        for d in self._devices:
            d.close()
