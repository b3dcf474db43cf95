"""The durable, append-only event store (SQLite in WAL mode, ``synchronous=FULL``).

Every event of every hand is appended with its hand id and sequence number; ``(hand_id, seq)`` is
unique, so appending the same event twice (a retry after a crash between write and acknowledgement) is
a no-op and the store holds every acknowledged event exactly once. An append returns only after the
commit is on disk: what :meth:`EventStore.append` acknowledged survives a power cut.

A hand's result is written once (:meth:`finish_hand`); after a restart :meth:`unfinished_hands` names
the hand to replay and resume. One connection per store object; use it from one thread. The service
writes only through :class:`controller.store_writer.StoreWriter` — one writer thread with its own
connection, whose :meth:`EventStore.transaction` commit is the durability point — so the asyncio loop never
waits on a disk flush; the loop keeps a second connection for reads (WAL readers never wait on the writer).
"""
from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from rules.events import Event, JSONObject, JSONValue

SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    id      INTEGER PRIMARY KEY,
    hand_id TEXT    NOT NULL,
    seq     INTEGER NOT NULL,
    type    TEXT    NOT NULL,
    family  TEXT    NOT NULL,
    t_mono  REAL    NOT NULL,
    t_wall  REAL    NOT NULL,
    body    TEXT    NOT NULL,
    UNIQUE (hand_id, seq)
);
CREATE TABLE IF NOT EXISTS hands (
    hand_id  TEXT PRIMARY KEY,
    profile  TEXT NOT NULL,
    started  REAL NOT NULL,
    finished REAL,
    result   TEXT
);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""
STORE_VERSION = 1
log = logging.getLogger("mahjong_table.store")


class StoreError(RuntimeError):
    pass


@dataclass(frozen=True)
class StoredEvent:
    hand_id: str
    seq: int
    event: Event


class EventStore:
    """Append-only store of events by hand. ``durable=False`` only for benchmarks' baseline and tests."""

    def __init__(self, path: str | Path, durable: bool = True):
        self.path = Path(path)
        self.durable = durable
        #: called with (hand_id, seq, event) after each new event is durably stored (the web page's live view)
        self.listeners: list[Callable[[str, int, Event], None]] = []
        if str(path) != ":memory:":
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError(f"cannot create the folder of the event store {path}: {exc.strerror or exc}") from None
            if self.path.is_dir():
                raise StoreError(f"the event store {path} is a directory, not a file")
        try:
            self.db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute(f"PRAGMA synchronous={'FULL' if durable else 'OFF'}")
            self.db.executescript(SCHEMA)
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"cannot open the event store {path}: {exc}") from None
        try:
            row = self.db.execute("SELECT value FROM meta WHERE key='version'").fetchone()
            if row is None:
                self.db.execute("INSERT OR IGNORE INTO meta VALUES ('version', ?)", (str(STORE_VERSION),))  # (two openers at once)
            elif not str(row[0]).isdigit() or int(row[0]) > STORE_VERSION:
                raise StoreError(f"the event store {path} has version {row[0]}; this build reads up to {STORE_VERSION}")
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"cannot open the event store {path}: {exc}") from None

    def close(self) -> None:
        self.db.close()

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """Several writes in one transaction; its :meth:`commit` is the durability point (``synchronous=FULL``:
        on disk when it returns)."""
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.commit()

    def commit(self) -> None:
        """End the transaction: on disk when this returns (tests override it to simulate a slow card)."""
        try:
            self.db.execute("COMMIT")
        except BaseException:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            raise

    def __enter__(self) -> EventStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- hands ------------------------------------------------------------------------------------------
    def start_hand(self, hand_id: str, profile: str, t_wall: float) -> bool:
        """Record a new hand; False if it was already recorded (idempotent)."""
        cur = self.db.execute(
            "INSERT OR IGNORE INTO hands (hand_id, profile, started) VALUES (?, ?, ?)", (hand_id, profile, t_wall)
        )
        return cur.rowcount == 1

    def finish_hand(self, hand_id: str, result: Mapping[str, JSONValue], t_wall: float) -> bool:
        """Write the hand's result once; False if it already had one (a result is never recorded twice)."""
        cur = self.db.execute(
            "UPDATE hands SET finished = ?, result = ? WHERE hand_id = ? AND finished IS NULL",
            (t_wall, json.dumps(result, sort_keys=True), hand_id),
        )
        if cur.rowcount == 0 and self.db.execute("SELECT 1 FROM hands WHERE hand_id=?", (hand_id,)).fetchone() is None:
            raise StoreError(f"no hand {hand_id!r} in the store")
        return cur.rowcount == 1

    def unfinished_hands(self) -> list[str]:
        rows = self.db.execute("SELECT hand_id FROM hands WHERE finished IS NULL ORDER BY started, hand_id")
        return [str(r[0]) for r in rows]

    def result(self, hand_id: str) -> JSONObject | None:
        row = self.db.execute("SELECT result FROM hands WHERE hand_id=?", (hand_id,)).fetchone()
        return _result(row[0]) if row and row[0] else None

    def hand_count(self) -> int:
        return self._int("SELECT COUNT(*) FROM hands")

    def results(self) -> list[tuple[str, JSONObject]]:
        rows = self.db.execute("SELECT hand_id, result FROM hands WHERE finished IS NOT NULL ORDER BY finished")
        return [(str(h), _result(r)) for h, r in rows]

    def _int(self, sql: str, params: tuple[str, ...] = ()) -> int:
        """The one whole number a query answers (a COUNT)."""
        return int(self.db.execute(sql, params).fetchone()[0])

    # --- events -----------------------------------------------------------------------------------------
    def append(self, hand_id: str, seq: int, event: Event) -> bool:
        """Append one event durably; False when (hand_id, seq) is already stored (a retried append)."""
        body = json.dumps(event.to_json(), sort_keys=True, separators=(",", ":"))
        cur = self.db.execute(
            "INSERT OR IGNORE INTO events (hand_id, seq, type, family, t_mono, t_wall, body) VALUES (?,?,?,?,?,?,?)",
            (hand_id, seq, event.TYPE, event.FAMILY, event.t_mono, event.t_wall, body),
        )
        if cur.rowcount == 0:
            row = self.db.execute("SELECT body FROM events WHERE hand_id=? AND seq=?", (hand_id, seq)).fetchone()
            if row is not None and row[0] != body:
                raise StoreError(f"event {hand_id}#{seq} is already stored with different content")
            return False
        if not self.db.in_transaction:
            self._tell(hand_id, seq, event)
        return True

    def _tell(self, hand_id: str, seq: int, event: Event) -> None:
        for fn in self.listeners:
            fn(hand_id, seq, event)

    def append_many(self, hand_id: str, first_seq: int, events: list[Event]) -> int:
        """Append several events in one durable transaction; returns how many were new."""
        new: list[tuple[int, Event]] = []
        with self.transaction():
            for i, ev in enumerate(events):
                if self.append(hand_id, first_seq + i, ev):
                    new.append((first_seq + i, ev))
        for seq, ev in new:
            self._tell(hand_id, seq, ev)
        return len(new)

    def next_seq(self, hand_id: str) -> int:
        row = self.db.execute("SELECT MAX(seq) FROM events WHERE hand_id=?", (hand_id,)).fetchone()
        return 0 if row[0] is None else int(row[0]) + 1

    def events(self, hand_id: str) -> list[Event]:
        return [s.event for s in self.iter_events(hand_id)]

    def iter_events(self, hand_id: str | None = None) -> Iterator[StoredEvent]:
        if hand_id is None:
            rows = self.db.execute("SELECT hand_id, seq, body FROM events ORDER BY id")
        else:
            rows = self.db.execute("SELECT hand_id, seq, body FROM events WHERE hand_id=? ORDER BY seq", (hand_id,))
        for h, seq, body in rows:
            yield StoredEvent(h, seq, Event.from_json(json.loads(body)))

    def count(self, hand_id: str | None = None) -> int:
        if hand_id is None:
            return self._int("SELECT COUNT(*) FROM events")
        return self._int("SELECT COUNT(*) FROM events WHERE hand_id=?", (hand_id,))

    def integrity_ok(self) -> bool:
        return bool(self.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok")


def _result(text: str) -> JSONObject:
    """A hand's result as :meth:`EventStore.finish_hand` wrote it (a JSON object)."""
    result: JSONObject = json.loads(text)
    return result
