"""The event schema: every registered event type survives a JSON round trip; versions and unknown types."""
from __future__ import annotations

import dataclasses
import json

import pytest

from rules.events import SCHEMA_VERSION, Event, event_types, relative_source

SAMPLES = {
    "int": 2, "float": 1.25, "str": "5m", "bool": True,
    "int | None": 3, "str | None": "left", "bool | None": False,
    "tuple[str, ...]": ("1m", "x", "0p"), "tuple[int, ...]": (3, 4),
    "dict[str, Any]": {"tiles": "T148", "nested": {"a": (1, 2)}},
    "tuple[dict[str, Any], ...]": ({"payer": 1, "payee": 2, "amount": 8, "reason": "win"},),
    "JSONObject": {"tiles": "T148", "nested": {"a": (1, 2)}},
    "tuple[JSONObject, ...]": ({"payer": 1, "payee": 2, "amount": 8, "reason": "win"},),
}


def sample(cls: type[Event], variant: int = 0) -> Event:
    kw = {}
    for f in dataclasses.fields(cls):
        if f.name in ("t_mono", "t_wall"):
            kw[f.name] = 12.5 + variant if f.name == "t_mono" else 1.7e9 + variant
            continue
        ann = f.type if isinstance(f.type, str) else getattr(f.type, "__name__", str(f.type))
        if ann not in SAMPLES:
            raise AssertionError(f"{cls.__name__}.{f.name}: no sample for type {ann!r}")
        kw[f.name] = SAMPLES[ann]
    return cls(**kw)


@pytest.mark.parametrize("wire", sorted(event_types()))
def test_round_trip_every_event_type(wire):
    cls = event_types()[wire]
    ev = sample(cls)
    d = ev.to_json()
    assert d["type"] == wire and d["v"] == SCHEMA_VERSION
    text = json.dumps(d)  # serialisable
    back = Event.from_json(json.loads(text))
    assert back == ev
    assert type(back) is cls
    assert back.to_json() == d


def test_events_are_immutable():
    ev = sample(event_types()["discarded"])
    with pytest.raises(dataclasses.FrozenInstanceError):
        ev.tile = "1m"  # type: ignore[misc]


def test_every_family_is_present():
    fams = {cls.FAMILY for cls in event_types().values()}
    assert {"game", "observation", "device"} <= fams


def test_unknown_type_and_newer_version_are_errors():
    with pytest.raises(ValueError):
        Event.from_json({"type": "no_such_event", "v": 1})
    d = sample(event_types()["drew"]).to_json()
    d["v"] = SCHEMA_VERSION + 1
    with pytest.raises(ValueError):
        Event.from_json(d)
    d = sample(event_types()["drew"]).to_json()
    d["bogus"] = 1
    with pytest.raises(ValueError):
        Event.from_json(d)


@pytest.mark.parametrize("seat,src,n,want", [
    (1, 0, 4, "left"), (1, 2, 4, "right"), (1, 3, 4, "opposite"), (0, 3, 4, "left"),
    (0, 2, 3, "left"), (0, 1, 3, "right"),
])
def test_relative_source(seat, src, n, want):
    assert relative_source(seat, src, n) == want


def test_architecture_doc_lists_every_game_and_observation_event():
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "ARCHITECTURE.md").read_text()
    for wire, cls in event_types().items():
        if cls.FAMILY not in ("game", "observation", "settlement"):
            continue
        assert f"`{wire}`" in doc, wire
        for f in dataclasses.fields(cls):
            if f.name not in ("t_mono", "t_wall"):
                assert f"`{f.name}`" in doc, (wire, f.name)
