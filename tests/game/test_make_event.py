"""``rules.simulate.make_event`` (the simulator's event constructor) makes the same events as the classes."""
from __future__ import annotations

import dataclasses
import random

import pytest

from rules.events import Claimed, Dealt, Discarded, Drew, Event, HandStarted, MeldMade, Won
from rules.profiles.basic import Basic
from rules.simulate import make_event, play_hand


@pytest.mark.parametrize("cls, kw", [
    (Drew, dict(seat=1, tile="5m", source="wall", hand_id="h", t_mono=1.5, t_wall=2.0)),
    (Discarded, dict(seat=2, tile="0p", tsumogiri=True, hand_id="h", t_mono=3.0, t_wall=4.0)),
    (Claimed, dict(seat=0, kind="pung", from_seat=3, tile="7z", tiles=("7z", "7z"))),
    (MeldMade, dict(seat=0, kind="kong_added", tiles=("1s",) * 4, claimed_tile="1s", drawn_tile=False)),
    (Won, dict(seat=3, tile="9p", from_seat=None, last_tile=True)),
    (Dealt, dict(seat=0, tiles=("1m",) * 13)),
    (HandStarted, dict(profile="basic", options={"tiles": "std136"})),  # a default factory: the constructor
])
def test_same_event_as_the_constructor(cls, kw):
    a, b = make_event(cls, dict(kw)), cls(**kw)
    assert a == b and type(a) is cls
    assert a.to_json() == b.to_json() and Event.from_json(a.to_json()) == b
    assert [getattr(a, f.name) for f in dataclasses.fields(cls)] == [getattr(b, f.name) for f in dataclasses.fields(cls)]
    assert dataclasses.replace(a, t_mono=9.0) == dataclasses.replace(b, t_mono=9.0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.seat = 5  # type: ignore[misc]


def test_bad_fields_raise_as_the_constructor():
    with pytest.raises(TypeError, match="unexpected keyword"):
        make_event(Drew, dict(seat=1, tile="5m", bogus=1))
    with pytest.raises(TypeError, match="seat"):
        make_event(Drew, dict(tile="5m"))


def test_simulated_log_round_trips():
    r = play_hand(Basic(), random.Random(7))
    assert [Event.from_json(e.to_json()) for e in r.events] == r.events
