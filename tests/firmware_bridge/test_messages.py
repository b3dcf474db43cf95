"""Payload layouts round-trip and reject wrong lengths; the status mirror follows the documented rules."""
from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge.messages import (
    Ack,
    Done,
    Fault,
    FaultCode,
    Indicators,
    Op,
    Part,
    Progress,
    Result,
    Sensor,
    SensorEvent,
    TableStatus,
    all_message_classes,
    parse,
)
from firmware_bridge.state import TableView

FIXED = [c for c in all_message_classes() if c is not Ack]


@pytest.mark.parametrize("cls", FIXED, ids=lambda c: c.__name__)
def test_round_trip_of_every_message(cls):
    @given(st.binary(min_size=cls.FORMAT.size, max_size=cls.FORMAT.size))
    def check(payload):
        msg = parse(int(cls.TYPE), payload)
        assert isinstance(msg, cls)
        assert msg.pack() == payload

    check()


@pytest.mark.parametrize("cls", FIXED, ids=lambda c: c.__name__)
def test_wrong_length_is_refused(cls):
    with pytest.raises(ValueError):
        parse(int(cls.TYPE), bytes(cls.FORMAT.size + 1))


def test_unknown_type_is_refused():
    with pytest.raises(ValueError):
        parse(0x7F, b"")


def test_status_round_trip():
    s = TableStatus(boot_counter=9, flags=3, busy=2, tile_count=136, stacks=(17, 17, 17, 17), lifts=0x1F,
                    built=(1, 2, 3, 4), indicators=(1, 2, 3, 4), fault_code=2, fault_part=3, shuffles=65535)
    assert TableStatus.unpack(s.pack()) == s
    assert len(s.pack()) == 32


def test_view_transitions():
    v = TableView()
    v.apply_event(Progress(Op.SHUFFLE, 5, (0, 0, 0, 0), (17,) * 4))
    assert v.status.busy == 0b10
    v.apply_event(Progress(Op.SHUFFLE, 5, (3, 2, 2, 2), (17,) * 4))
    assert v.status.built == (3, 2, 2, 2)
    v.apply_event(Done(Op.SHUFFLE, 5))
    assert v.status.busy == 0 and v.status.shuffles == 1
    v.apply_event(Progress(Op.LIFT, 6, (9, 9, 9, 9), (0,) * 4))
    assert v.status.built == (3, 2, 2, 2)  # only the shuffle's progress carries stacks
    v.apply_event(Fault(FaultCode.LIFT_LIMIT_TIMEOUT, Part.LIFT2, Op.LIFT, 6))
    assert (v.status.busy, v.status.fault_code, v.status.fault_part) == (0, 2, 3)
    v.apply_event(SensorEvent(Sensor.LIFT1_UP, 1))
    v.apply_event(SensorEvent(Sensor.LID, 1))
    assert v.status.lifts == 0b10 and v.status.flags & TableStatus.LID_OPEN
    before = v.status
    v.apply_command(Indicators(1, 2, 3, 4), Result.BUSY)
    assert v.status == before
    v.apply_command(Indicators(1, 2, 3, 4), Result.OK)
    assert dataclasses.replace(before, indicators=(1, 2, 3, 4)) == v.status


def test_an_event_included_in_a_status_is_not_applied_twice():
    v = TableView(TableStatus(dice_rolls=3, event_seq=41))
    assert not v.apply_event(Done(Op.DICE, 1), seq=41)  # the status already counted it
    assert not v.apply_event(Done(Op.DICE, 1), seq=40)
    assert v.status.dice_rolls == 3
    assert v.apply_event(Done(Op.DICE, 2), seq=42)
    assert (v.status.dice_rolls, v.status.event_seq) == (4, 42)
    w = TableView(TableStatus(event_seq=0xFFFF))
    assert w.apply_event(Done(Op.DICE, 3), seq=1)  # wrap-around


def test_a_stale_status_answer_does_not_roll_the_view_back():
    v = TableView(TableStatus(dice_rolls=3, event_seq=41))
    assert v.apply_event(Done(Op.DICE, 1), seq=42)  # the dice's DONE after the STATUS was read
    assert not v.replace_if_current(TableStatus(dice_rolls=3, busy=0b1000, event_seq=41))  # late answer
    assert (v.status.dice_rolls, v.status.event_seq) == (4, 42)
    assert v.replace_if_current(TableStatus(dice_rolls=4, event_seq=42))  # as new as the view: the truth
    assert v.replace_if_current(TableStatus(dice_rolls=5, event_seq=43))
    assert v.replace_if_current(TableStatus(dice_rolls=0, event_seq=0xFFFF)) is False  # older across the wrap
    v = TableView(TableStatus(event_seq=0xFFFE))
    assert v.replace_if_current(TableStatus(event_seq=2))  # newer across the wrap
