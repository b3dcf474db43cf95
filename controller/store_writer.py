"""The event store's single writer: one thread, one connection, durable commits off the asyncio loop.

The loop submits writes (:meth:`StoreWriter.append`, :meth:`start_hand`, :meth:`finish_hand`) and gets an
``asyncio.Future`` back at once; the writer thread takes every write queued so far, runs them in one
transaction and commits it — **the durability point**: with ``synchronous=FULL`` the batch is on disk when
the commit returns — and only then resolves their futures. So the service acts on an event only after
awaiting its future (motion never starts before the state change that orders it is on disk), while a slow
SD card (an fsync of tens of milliseconds) stalls nobody: the loop keeps running, writes queued meanwhile
share the next commit. Writes are committed in the order they were submitted; after a crash the store holds
a prefix of them, each acknowledged one exactly once (tests/controller/test_crash.py).
"""
from __future__ import annotations

import asyncio
import logging
import queue
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Generic, Protocol, TypeVar

from controller.event_store import EventStore, StoreError
from rules.events import Event, JSONValue

log = logging.getLogger("mahjong_table.store")

T = TypeVar("T")
Op = Callable[[EventStore], T]  # one write: what it returns is what its future resolves with
SLOW_COMMIT_S = 0.1  # a commit slower than this is logged (WARNING): the card may be failing


class StoreFactory(Protocol):
    """How the writer opens its connection: :class:`EventStore` (tests: a subclass with a slow commit)."""

    def __call__(self, path: Path, *, durable: bool) -> EventStore: ...


class _Job(Protocol):
    """A queued write of any result type, as the writer thread handles it."""

    def run(self, store: EventStore) -> None: ...

    def fail(self, exc: BaseException) -> None: ...

    def settle(self) -> None: ...


class _Write(Generic[T]):
    """One submitted write and its future: run in the writer's transaction, settled on the loop."""

    def __init__(self, op: Op[T], fut: asyncio.Future[T]):
        self.op = op
        self.fut = fut
        self._value: tuple[T] | None = None  # (what op returned,) once it ran
        self._error: BaseException | None = None

    def run(self, store: EventStore) -> None:
        """Run the write; a :class:`StoreError` is this write refused (the others of the batch stand)."""
        try:
            self._value = (self.op(store),)
        except StoreError as exc:
            self._error = exc

    def fail(self, exc: BaseException) -> None:
        """The batch's commit failed: nothing of it is durable."""
        self._value, self._error = None, exc

    def settle(self) -> None:
        """On the loop: resolve the future with the write's result or its error."""
        if self.fut.done():  # its awaiter was cancelled: the write stands (it was committed)
            return
        if self._error is not None:
            self.fut.set_exception(self._error)
        elif self._value is not None:
            self.fut.set_result(self._value[0])


@dataclass
class WriterStats:
    commits: int = 0
    writes: int = 0
    max_commit_s: float = 0.0
    last_commit_s: float = 0.0
    slow_commits: int = 0
    max_queue: int = 0
    errors: list[str] = field(default_factory=list)

    def view(self) -> dict[str, int | float | list[str]]:
        return {"commits": self.commits, "writes": self.writes, "max_commit_ms": round(self.max_commit_s * 1000, 1),
                "last_commit_ms": round(self.last_commit_s * 1000, 1), "slow_commits": self.slow_commits,
                "max_queue": self.max_queue, "errors": self.errors[-3:]}


class StoreWriter:
    """``StoreWriter(path)``, then :meth:`start` on the loop that will await its futures."""

    def __init__(self, path: str | Path, *, durable: bool = True,
                 store_factory: StoreFactory = EventStore, batch_max: int = 512):
        if str(path) == ":memory:":
            raise StoreError("the table service needs an event store file (':memory:' cannot be shared with the "
                             "writer thread)")
        self.path = Path(path)
        self.durable = durable
        self.store_factory = store_factory
        self.batch_max = batch_max
        self.stats = WriterStats()
        self._q: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._opened = threading.Event()
        self._open_error: BaseException | None = None
        self._pending = 0
        #: called on the loop with (hand_id, seq, event) once a new event is durable (the web page's live view);
        #: the service shares its read store's list here
        self.listeners: list[Callable[[str, int, Event], None]] = []

    @classmethod
    def for_store(cls, store: EventStore, *, store_factory: StoreFactory = EventStore,
                  batch_max: int = 512) -> StoreWriter:
        """A writer on the same file as ``store`` (the service reads through ``store``)."""
        return cls(store.path, durable=getattr(store, "durable", True), store_factory=store_factory,
                   batch_max=batch_max)

    # --- lifecycle ---------------------------------------------------------------------------------------
    def start(self) -> StoreWriter:
        """Open the writer's connection on its thread (errors are raised here, as :class:`StoreError`)."""
        self._loop = asyncio.get_running_loop()
        self._thread = threading.Thread(target=self._main, name="store-writer", daemon=True)
        self._thread.start()
        self._opened.wait()
        if self._open_error is not None:
            raise self._open_error
        return self

    async def close(self) -> None:
        """Commit everything queued, then stop the thread."""
        if self._thread is None:
            return
        self._q.put(None)
        await asyncio.to_thread(self._thread.join)
        self._thread = None

    # --- writes (on the loop) -----------------------------------------------------------------------------
    def submit(self, op: Op[T]) -> asyncio.Future[T]:
        """Queue ``op(store)``; the future resolves with its result once the transaction holding it is on
        disk (or with its exception; a failed commit fails every write of the batch)."""
        assert self._loop is not None, "StoreWriter.start() first"
        fut: asyncio.Future[T] = self._loop.create_future()
        if self._thread is None:
            fut.set_exception(StoreError("the event store writer is closed"))
            return fut
        self._pending += 1
        self.stats.max_queue = max(self.stats.max_queue, self._pending)
        self._q.put(_Write(op, fut))
        return fut

    def append(self, hand_id: str, seq: int, event: Event) -> asyncio.Future[bool]:
        fut = self.submit(lambda st: st.append(hand_id, seq, event))
        if self.listeners:
            def tell(f: asyncio.Future[bool]) -> None:
                if not f.cancelled() and f.exception() is None and f.result():
                    for fn in list(self.listeners):
                        fn(hand_id, seq, event)

            fut.add_done_callback(tell)
        return fut

    async def flush(self) -> None:
        """Return once every write submitted so far is on disk (writes commit in submission order)."""
        await self.submit(lambda st: None)

    def start_hand(self, hand_id: str, profile: str, t_wall: float) -> asyncio.Future[bool]:
        return self.submit(lambda st: st.start_hand(hand_id, profile, t_wall))

    def finish_hand(self, hand_id: str, result: Mapping[str, JSONValue], t_wall: float) -> asyncio.Future[bool]:
        return self.submit(lambda st: st.finish_hand(hand_id, result, t_wall))

    # --- the thread -----------------------------------------------------------------------------------------
    def _main(self) -> None:
        try:
            store = self.store_factory(self.path, durable=self.durable)
        except BaseException as exc:
            self._open_error = exc if isinstance(exc, StoreError) else StoreError(f"cannot open the event store "
                                                                                   f"{self.path}: {exc}")
            self._opened.set()
            return
        self._opened.set()
        log.info("event store %s open for writing (%s)", self.path,
                 "durable commits" if self.durable else "no flush: not durable")
        try:
            while True:
                job = self._q.get()
                if job is None:
                    return
                batch = [job]
                stop = False
                while len(batch) < self.batch_max:
                    try:
                        nxt = self._q.get_nowait()
                    except queue.Empty:
                        break
                    if nxt is None:
                        stop = True
                        break
                    batch.append(nxt)
                self._run_batch(store, batch)
                if stop:
                    return
        finally:
            store.close()

    def _run_batch(self, store: EventStore, batch: list[_Job]) -> None:
        t0 = time.perf_counter()
        try:
            with store.transaction():
                for job in batch:
                    job.run(store)  # a write refused (StoreError) fails alone; the others of the batch stand
        except BaseException as exc:  # the commit failed: nothing of the batch is durable
            log.error("event store commit failed (%d writes lost): %s", len(batch), exc)
            self.stats.errors.append(str(exc))
            err = StoreError(f"event store write failed: {exc}")
            for job in batch:
                job.fail(err)
        else:
            dt = time.perf_counter() - t0
            self.stats.commits += 1
            self.stats.writes += len(batch)
            self.stats.last_commit_s = dt
            self.stats.max_commit_s = max(self.stats.max_commit_s, dt)
            if dt > SLOW_COMMIT_S:
                self.stats.slow_commits += 1
                log.warning("slow event store commit: %.0f ms for %d write(s)", dt * 1000, len(batch))
        loop = self._loop
        assert loop is not None
        try:
            loop.call_soon_threadsafe(self._resolve, batch)
        except RuntimeError:  # the loop is gone (shutdown): the writes are durable all the same
            pass

    def _resolve(self, batch: list[_Job]) -> None:
        self._pending -= len(batch)
        for job in batch:
            job.settle()


class InlineStoreWriter(StoreWriter):
    """The baseline the service must not use: every write committed on the calling thread — the event loop
    — before ``submit`` returns (how the service wrote before the writer thread). Benchmarks and tests
    compare against it."""

    def start(self) -> InlineStoreWriter:
        self._loop = asyncio.get_running_loop()
        self._store = self.store_factory(self.path, durable=self.durable)
        self._thread = threading.current_thread()
        return self

    def submit(self, op: Op[T]) -> asyncio.Future[T]:
        assert self._loop is not None
        fut: asyncio.Future[T] = self._loop.create_future()
        try:
            with self._store.transaction():
                value = op(self._store)
        except StoreError as exc:
            fut.set_exception(exc)
        else:
            fut.set_result(value)
        return fut

    async def close(self) -> None:
        if self._thread is not None:
            self._store.close()
            self._thread = None
