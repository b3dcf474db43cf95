import multiprocessing
import os
import signal
import time

import pytest

from controller.event_store import EventStore, StoreError
from rules.events import Discarded, Drew, HandStarted
from tests.conftest import scaled


def ev(i: int):
    return Discarded(hand_id="h1", seat=i % 4, tile="1m", t_mono=float(i), t_wall=1000.0 + i)


def test_append_is_idempotent_and_ordered(tmp_path):
    with EventStore(tmp_path / "s.sqlite") as st:
        assert st.start_hand("h1", "basic", 1.0)
        assert not st.start_hand("h1", "basic", 1.0)
        for i in range(10):
            assert st.append("h1", i, ev(i))
        assert not st.append("h1", 3, ev(3))  # a retried append is a no-op
        with pytest.raises(StoreError):
            st.append("h1", 3, ev(4))  # same slot, different content: never silently overwritten
        assert st.events("h1") == [ev(i) for i in range(10)]
        assert st.next_seq("h1") == 10
        assert st.unfinished_hands() == ["h1"]
        assert st.finish_hand("h1", {"deltas": [1, -1, 0, 0]}, 2.0)
        assert not st.finish_hand("h1", {"deltas": [9, -9, 0, 0]}, 3.0)  # never recorded twice
        assert st.result("h1") == {"deltas": [1, -1, 0, 0]}
        assert st.unfinished_hands() == []


def test_reopen_keeps_everything(tmp_path):
    p = tmp_path / "s.sqlite"
    with EventStore(p) as st:
        st.start_hand("h", "mcr", 1.0)
        st.append_many("h", 0, [HandStarted(hand_id="h", profile="mcr"), Drew(hand_id="h", seat=0)])
    with EventStore(p) as st:
        assert [e.TYPE for e in st.events("h")] == ["hand_started", "drew"]
        assert st.integrity_ok()


def test_not_a_database_is_a_clear_error(tmp_path):
    p = tmp_path / "junk.sqlite"
    p.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(StoreError, match="cannot open the event store"):
        EventStore(p)




def test_kill_9_loses_no_acknowledged_event(tmp_path):
    """Kill the writer at random moments; every acknowledged event is there exactly once, no gaps."""
    path = str(tmp_path / "k.sqlite")
    ctx = multiprocessing.get_context("fork")
    rounds = scaled(3, 30)
    for r in range(rounds):
        acked = ctx.Value("i", 0)
        with EventStore(path) as st0:
            start = st0.next_seq("h1")
        p = ctx.Process(target=_resume_writer, args=(path, start, 10_000, acked))
        p.start()
        while acked.value < start + 5 + r and p.is_alive():
            time.sleep(0.001)
        os.kill(p.pid, signal.SIGKILL)
        p.join()
        with EventStore(path) as st:
            n = st.count("h1")
            assert n >= acked.value
            assert [s.seq for s in st.iter_events("h1")] == list(range(n))
            assert st.integrity_ok()


def _resume_writer(path: str, start: int, n: int, acked) -> None:
    st = EventStore(path)
    st.start_hand("h1", "basic", 0.0)
    for i in range(start, start + n):
        st.append("h1", i, ev(i))
        acked.value = i + 1
