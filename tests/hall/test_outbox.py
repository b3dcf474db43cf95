"""The table's outbox in its event store: fed once, kept until the hall acknowledges, resent when due."""
from __future__ import annotations

import random

from controller.event_store import EventStore
from controller.hall_link.outbox import Outbox
from rules.profiles import registry
from rules.simulate import play_hand


def _hand(store: EventStore, hand_id: str, seed: int = 1) -> list:
    hr = play_hand(registry.get("sichuan-mpl2025"), random.Random(seed), hand_id=hand_id)
    store.start_hand(hand_id, "sichuan-mpl2025", 100.0)
    store.append_many(f"{hand_id}/game", 0, hr.events)
    return hr.events


def test_results_and_hand_starts_are_fed_once(tmp_path):
    store = EventStore(tmp_path / "t.sqlite")
    ob = Outbox(tmp_path / "t.sqlite")
    _hand(store, "h1")
    assert ob.feed({"session": 1, "players": ["a", "b", "c", "d"]}) == 1  # the hand_started
    store.finish_hand("h1", {"deltas": [1, -1, 0, 0]}, 101.0)
    assert ob.feed({"session": 2, "players": ["w", "x", "y", "z"]}) == 1  # the result
    assert ob.feed() == 0 and ob.feed() == 0
    ob.close()
    ob = Outbox(tmp_path / "t.sqlite")  # a restarted table feeds nothing again
    assert ob.feed() == 0
    msgs = ob.messages()
    assert [(h, s, k) for h, s, k, _ in msgs] == [("h1", 0, "event"), ("h1", 1, "result")]
    result = [m for m in ob.due(5.0) if m.kind == "result"][0]
    # the context is the one the hand started with, not the one when it finished
    assert result.body["session"] == 1 and result.body["players"] == ["a", "b", "c", "d"]
    assert result.body["result"]["deltas"] == [1, -1, 0, 0]


def test_all_mode_copies_every_event(tmp_path):
    store = EventStore(tmp_path / "t.sqlite")
    ob = Outbox(tmp_path / "t.sqlite", events="all")
    events = _hand(store, "h1")
    store.finish_hand("h1", {"deltas": [0, 0, 0, 0]}, 1.0)
    assert ob.feed(limit=50) == 50  # in slices: the cursor moves with each committed slice; the result last
    while ob.feed(limit=50):
        pass
    msgs = ob.messages()
    assert len(msgs) == len(events) + 1 and msgs[-1][2] == "result"
    assert [s for _, s, _, _ in msgs] == list(range(len(msgs)))


def test_due_resend_and_ack(tmp_path):
    store = EventStore(tmp_path / "t.sqlite")
    ob = Outbox(tmp_path / "t.sqlite")
    for i in range(3):
        _hand(store, f"h{i}", i)
        store.finish_hand(f"h{i}", {"deltas": [i, -i, 0, 0]}, float(i))
    ob.feed()
    first = ob.due(10.0, now=1000.0)
    assert len(first) == 6
    assert ob.due(10.0, now=1005.0) == []  # sent 5 s ago: not yet due again
    assert ob.ack([("h0", 0), ("h0", 1), ("nope", 9)]) == 2
    assert ob.ack([("h0", 0)]) == 0  # acknowledged once
    again = ob.due(10.0, now=1011.0)  # unacknowledged ones come back after resend_after
    assert {(m.hand, m.seq) for m in again} == {(m.hand, m.seq) for m in first} - {("h0", 0), ("h0", 1)}
    ob.unsend()  # a reconnection: all unacknowledged at once
    assert len(ob.due(10.0, now=1012.0)) == 4
    assert ob.counts() == {"total": 6, "pending": 4, "acked": 2, "results": 3}


def test_commands_recorded_once(tmp_path):
    EventStore(tmp_path / "t.sqlite")
    ob = Outbox(tmp_path / "t.sqlite")
    assert ob.record_command("c1", "session_start", {"session": 1})
    assert not ob.record_command("c1", "session_start", {"session": 1})
    assert [c["id"] for c in ob.commands()] == ["c1"]


def test_outbox_without_a_store_yet(tmp_path):
    ob = Outbox(tmp_path / "fresh.sqlite")  # the link may start before the service created its tables
    assert ob.feed() == 0
