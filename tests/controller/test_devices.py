import time

from gpiozero.pins.mock import MockFactory

from controller import config
from controller.clock import ManualClock
from controller.devices import Panel


def make(**over):
    gpio = {k.split(".", 1)[1]: v for k, v in config.defaults().values.items() if k.startswith("gpio.")}
    gpio.update(over)
    f = MockFactory()
    clock = ManualClock()
    return Panel(gpio, pin_factory=f, clock=clock), f, clock


def press(f, pin):
    f.pin(pin).drive_low()
    f.pin(pin).drive_high()


def wait_for(cond, timeout=2.0):
    end = time.monotonic() + timeout
    while not cond() and time.monotonic() < end:
        time.sleep(0.001)
    return cond()


def test_presses_become_stamped_events():
    panel, f, clock = make()
    got = []
    panel.add_listener(got.append)
    press(f, 5)  # start
    assert wait_for(lambda: len(got) == 1)
    clock.advance(0.25)
    press(f, 16)  # seat 1's call button
    assert wait_for(lambda: len(got) == 2)
    assert (got[0].button, got[0].seat) == ("start", None)
    assert (got[1].button, got[1].seat, got[1].call) == ("call", 1, None)
    assert got[1].t_mono - got[0].t_mono == 0.25
    panel.close()


def test_full_call_panel_reports_the_call():
    panel, f, clock = make(call_panels={"2": {"hu": 7, "pung": 8}})
    got = []
    panel.add_listener(got.append)
    press(f, 7)
    press(f, 8)
    assert wait_for(lambda: len(got) == 2)
    assert [(e.seat, e.call) for e in got] == [(2, "hu"), (2, "pung")]
    assert (2, "call") not in panel.calls  # the panel replaces seat 2's single call button
    panel.close()


def test_leds_show_turn_and_dealer():
    panel, f, _ = make()
    panel.show_turn(2)
    panel.show_dealer(0)
    assert [f.pin(p).state for p in (17, 27, 22, 23)] == [False, False, True, False]
    assert [f.pin(p).state for p in (4, 18, 24, 25)] == [True, False, False, False]
    panel.status("ok")
    assert f.pin(19).state
    panel.close()
