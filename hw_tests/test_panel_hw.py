"""The Pi's panel: buttons (stamped presses), call buttons, LEDs, buzzer."""
from __future__ import annotations

from hw_tests.conftest import wait_for


def test_buttons_report_stamped_presses(rig):
    panel = rig.start_panel()
    got = []
    panel.add_listener(got.append)
    rig.press(5, "START")
    rig.press(6, "DICE")
    rig.press(13, "JUDGE")
    assert wait_for(lambda: len(got) >= 3, timeout=rig.timeout if rig.real else 2)
    assert [e.button for e in got[:3]] == ["start", "dice", "judge"]
    assert got[0].t_mono <= got[1].t_mono <= got[2].t_mono


def test_each_seat_call_button(rig):
    panel = rig.start_panel()
    got = []
    panel.add_listener(got.append)
    for seat, pin in enumerate((12, 16, 20, 21)):
        rig.press(pin, f"CALL button of seat {seat}")
    assert wait_for(lambda: len(got) >= 4, timeout=rig.timeout if rig.real else 2)
    assert [e.seat for e in got[:4]] == [0, 1, 2, 3]


def test_leds_and_buzzer(rig):
    panel = rig.start_panel()
    for seat in range(4):
        panel.show_turn(seat)
        panel.show_dealer(seat)
        if not rig.real:
            f = panel.factory
            assert [f.pin(p).state for p in (17, 27, 22, 23)] == [i == seat for i in range(4)]
            assert [f.pin(p).state for p in (4, 18, 24, 25)] == [i == seat for i in range(4)]
    panel.show_turn(None)
    panel.beep("warning")
    if rig.real:
        assert rig.ask("confirm the seat LEDs lit in turn and the buzzer beeped three times")
