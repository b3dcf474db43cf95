"""The store's single writer: a write is acknowledged only once its transaction is on disk, writes queued
meanwhile share a commit, a refused write fails alone, a failed commit fails its whole batch — and the
service faults (motors stopped) rather than move without a record."""
from __future__ import annotations

import asyncio
import sqlite3
import threading

import pytest

from controller.event_store import EventStore, StoreError
from controller.store_writer import StoreWriter
from rules.events import Discarded


def ev(i: int, tile: str = "1m"):
    return Discarded(hand_id="h", seat=i % 4, tile=tile, t_mono=float(i), t_wall=1000.0 + i)


class GatedStore(EventStore):
    """Commits wait until the test opens the gate (a flush that takes as long as the test likes)."""

    gate = threading.Event()
    commits = 0

    def commit(self) -> None:
        GatedStore.gate.wait(10)
        GatedStore.commits += 1
        super().commit()


def test_a_write_is_acknowledged_only_after_its_commit_and_queued_writes_share_one(tmp_path):
    GatedStore.gate = threading.Event()
    GatedStore.commits = 0
    path = tmp_path / "e.sqlite"

    async def go():
        w = StoreWriter(path, store_factory=GatedStore).start()
        first = w.append("h", 0, ev(0))  # the writer takes it and waits at the gate
        await asyncio.sleep(0.05)
        rest = [w.append("h", i, ev(i)) for i in range(1, 50)]  # queued behind the gate
        await asyncio.sleep(0.05)
        assert not first.done() and not any(f.done() for f in rest)
        with EventStore(path) as reader:
            assert reader.count("h") == 0  # nothing acknowledged, nothing visible
        GatedStore.gate.set()
        assert await asyncio.gather(first, *rest) == [True] * 50
        with EventStore(path) as reader:
            assert [e.t_mono for e in reader.events("h")] == [float(i) for i in range(50)]  # in order
        await w.close()
        return w.stats

    stats = asyncio.run(go())
    assert stats.writes == 50 and stats.commits == GatedStore.commits <= 3  # 49 writes in (at most) two


def test_a_refused_write_fails_alone(tmp_path):
    async def go():
        w = StoreWriter(tmp_path / "e.sqlite").start()
        await w.append("h", 0, ev(0))
        futs = [w.append("h", 1, ev(1)), w.append("h", 0, ev(0, "9p")), w.append("h", 2, ev(2))]
        res = await asyncio.gather(*futs, return_exceptions=True)
        await w.close()
        return res

    ok1, refused, ok2 = asyncio.run(go())
    assert ok1 is True and ok2 is True
    assert isinstance(refused, StoreError) and "different content" in str(refused)


def test_a_failed_commit_fails_the_whole_batch(tmp_path):
    class FullDisk(EventStore):
        def commit(self) -> None:
            raise sqlite3.OperationalError("database or disk is full")

    async def go():
        w = StoreWriter(tmp_path / "e.sqlite", store_factory=FullDisk).start()
        res = await asyncio.gather(*(w.append("h", i, ev(i)) for i in range(3)), return_exceptions=True)
        await w.close()
        return res, w.stats

    res, stats = asyncio.run(go())
    assert all(isinstance(r, StoreError) and "disk is full" in str(r) for r in res)
    assert stats.errors and stats.commits == 0
    with EventStore(tmp_path / "e.sqlite") as st:
        assert st.count() == 0  # rolled back: nothing half-written


def test_a_store_that_cannot_be_opened_is_one_clear_error(tmp_path):
    (tmp_path / "e.sqlite").write_bytes(b"this is not a database, but a text file " * 100)

    async def go():
        with pytest.raises(StoreError, match="cannot open the event store"):
            StoreWriter(tmp_path / "e.sqlite").start()

    asyncio.run(go())
    with pytest.raises(StoreError, match="in-memory|memory"):
        StoreWriter(":memory:")


def test_the_service_faults_and_stops_when_the_store_fails(tmp_path):
    from gpiozero.pins.mock import MockFactory

    from controller import config
    from controller.backends.gpio_direct import GpioBackend, GpioTableSim
    from controller.service import TableService
    from controller.table_machine import S

    class DyingCard(EventStore):
        commits = 0

        def commit(self) -> None:
            DyingCard.commits += 1
            if DyingCard.commits > 6:  # the card dies in the middle of the cycle
                raise sqlite3.OperationalError("disk I/O error")
            super().commit()

    f = MockFactory()
    sim = GpioTableSim(f, time_scale=100.0).start()
    be = GpioBackend(f, time_scale=100.0)
    store = EventStore(tmp_path / "e.sqlite")
    svc = TableService(config.defaults().with_overrides(table__profile="basic"), be, store,  # (136 tiles)
                       store_writer=StoreWriter(tmp_path / "e.sqlite", store_factory=DyingCard))

    async def go():
        stop = asyncio.Event()
        task = asyncio.create_task(svc.run(stop))
        while svc._triggers is None:
            await asyncio.sleep(0.01)
        svc.press("start")
        for _ in range(1000):
            if svc.machine.state is S.FAULT:
                break
            await asyncio.sleep(0.01)
        state = svc.machine.state
        fault = svc.machine.fault
        await asyncio.sleep(0.2)
        motors = be.motors_running()
        stop.set()
        await task
        return state, fault, motors

    try:
        state, fault, motors = asyncio.run(go())
    finally:
        sim.stop()
        store.close()
    assert state is S.FAULT and "event store write failed" in fault and "disk I/O error" in fault
    assert motors == set() and svc.stopper.state == "confirmed"
