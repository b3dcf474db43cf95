"""The hall's own database (SQLite, WAL, ``synchronous=FULL``): what the tables reported, the tournament, the
director's corrections — with schema migrations and ``hall backup`` / ``hall restore``.

Migrations are data (:data:`MIGRATIONS`, one SQL script per version, applied in order under
``PRAGMA user_version``); a database newer than this build is refused rather than misread.
Ingest is idempotent by ``(table, hand, seq)``: :meth:`HallDB.ingest` returns False for a message it
already holds, so a redelivery or a resend after a cut is acknowledged again and counted once.
"""
from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypedDict

from hall.messages import OutboxMessage, ResultBody, TableStatus
from rules.events import JSONValue

# A row as sqlite3 returns it: its columns' types are the schema's (the database edge, as decoded JSON is one)
Row = tuple[Any, ...]

MIGRATIONS: tuple[str, ...] = (
    # 1: the first schema
    """
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE tables (
        id TEXT PRIMARY KEY, profile TEXT, first_seen REAL NOT NULL, last_seen REAL NOT NULL,
        status TEXT NOT NULL DEFAULT '{}'
    );
    CREATE TABLE messages (
        table_id TEXT NOT NULL, hand TEXT NOT NULL, seq INTEGER NOT NULL, kind TEXT NOT NULL,
        body TEXT NOT NULL, t_table REAL NOT NULL, received REAL NOT NULL,
        PRIMARY KEY (table_id, hand, seq)
    );
    CREATE TABLE results (
        table_id TEXT NOT NULL, hand TEXT NOT NULL, session INTEGER, players TEXT NOT NULL,
        status TEXT NOT NULL, deltas TEXT NOT NULL, body TEXT NOT NULL, t_table REAL NOT NULL,
        received REAL NOT NULL, PRIMARY KEY (table_id, hand)
    );
    CREATE TABLE players (
        id TEXT PRIMARY KEY, name TEXT NOT NULL, substitute INTEGER NOT NULL DEFAULT 0,
        registered REAL NOT NULL, active INTEGER NOT NULL DEFAULT 1
    );
    CREATE TABLE sessions (
        n INTEGER PRIMARY KEY, status TEXT NOT NULL, started REAL, ends_at REAL, warning_at REAL,
        warned INTEGER NOT NULL DEFAULT 0, ended REAL
    );
    CREATE TABLE seating (
        session INTEGER NOT NULL, table_id TEXT NOT NULL, seat INTEGER NOT NULL, player TEXT NOT NULL,
        PRIMARY KEY (session, table_id, seat)
    );
    CREATE TABLE penalties (
        id INTEGER PRIMARY KEY AUTOINCREMENT, session INTEGER NOT NULL, player TEXT NOT NULL,
        amount INTEGER NOT NULL, reason TEXT NOT NULL, created REAL NOT NULL
    );
    CREATE TABLE late (session INTEGER NOT NULL, player TEXT NOT NULL, minutes REAL NOT NULL,
                       PRIMARY KEY (session, player));
    CREATE TABLE corrections (
        id INTEGER PRIMARY KEY AUTOINCREMENT, table_id TEXT NOT NULL, hand TEXT NOT NULL,
        deltas TEXT NOT NULL, reason TEXT NOT NULL, created REAL NOT NULL
    );
    CREATE TABLE commands (
        id TEXT PRIMARY KEY, table_id TEXT NOT NULL, kind TEXT NOT NULL, body TEXT NOT NULL,
        created REAL NOT NULL, sent REAL, acked REAL
    );
    CREATE TABLE directors (name TEXT PRIMARY KEY, salt TEXT NOT NULL, hash TEXT NOT NULL);
    """,
    # 2: who did what (director actions), and the session of each result indexed for standings
    """
    CREATE TABLE audit (id INTEGER PRIMARY KEY AUTOINCREMENT, at REAL NOT NULL, who TEXT NOT NULL,
                        action TEXT NOT NULL, detail TEXT NOT NULL);
    CREATE INDEX results_session ON results (session, table_id);
    """,
    # 3: registrations (issue #32): a player's EMA number, Pantheon id, first and last name, country —
    # NULL where unknown, so a database of schema 2 keeps its players as they were
    """
    ALTER TABLE players ADD COLUMN ema TEXT;
    ALTER TABLE players ADD COLUMN pantheon_id INTEGER;
    ALTER TABLE players ADD COLUMN first_name TEXT;
    ALTER TABLE players ADD COLUMN last_name TEXT;
    ALTER TABLE players ADD COLUMN country TEXT;
    CREATE UNIQUE INDEX players_ema ON players (ema) WHERE ema IS NOT NULL;
    CREATE UNIQUE INDEX players_pantheon ON players (pantheon_id) WHERE pantheon_id IS NOT NULL;
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)


class HallDBError(RuntimeError):
    pass


class HallResult(TypedDict):
    """A hand's result as the hall holds it (:meth:`HallDB.results`): the table's, a director's correction of its
    deltas applied (``corrected``)."""

    table: str
    hand: str
    session: int | None
    players: list[str]  # as seated when the hand started (the result's own ``seats``: by chair)
    status: str
    deltas: list[int]  # by seat position (a table of two: seats 0 and 2)
    corrected: bool
    body: ResultBody
    t_table: float
    received: float


def _version(db: sqlite3.Connection) -> int:
    return int(db.execute("PRAGMA user_version").fetchone()[0])


def migrate(db: sqlite3.Connection, upto: int = SCHEMA_VERSION) -> int:
    """Apply the missing migrations (each in its own transaction); returns the version reached."""
    v = _version(db)
    if v > SCHEMA_VERSION:
        raise HallDBError(f"the hall database has schema {v}; this build reads up to {SCHEMA_VERSION}")
    while v < upto:
        db.execute("BEGIN IMMEDIATE")
        try:
            for stmt in MIGRATIONS[v].split(";"):
                if stmt.strip():
                    db.execute(stmt)
            db.execute(f"PRAGMA user_version = {v + 1}")
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        v += 1
    return v


class HallDB:
    """One connection, guarded by a lock (the MQTT ingest thread and the dashboard both use it)."""

    def __init__(self, path: str | Path, durable: bool = True, upto: int = SCHEMA_VERSION):
        self.path = Path(path)
        if str(path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self.lock = threading.RLock()
        try:
            self.db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False, timeout=30)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute(f"PRAGMA synchronous={'FULL' if durable else 'OFF'}")
            self.version = migrate(self.db, upto)
        except sqlite3.DatabaseError as exc:
            raise HallDBError(f"cannot open the hall database {path}: {exc}") from None
        self.changes = 0  # bumped on every write that changes the standings (dashboard caches)

    def close(self) -> None:
        with self.lock:
            self.db.close()

    @contextmanager
    def tx(self) -> Iterator[sqlite3.Connection]:
        with self.lock:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                yield self.db
                self.db.execute("COMMIT")
            except BaseException:
                self.db.execute("ROLLBACK")
                raise
            self.changes += 1

    def q(self, sql: str, args: tuple[object, ...] = ()) -> list[Row]:
        with self.lock:
            return self.db.execute(sql, args).fetchall()

    # --- meta -------------------------------------------------------------------------------------------
    def get_meta(self, key: str, default: JSONValue = None) -> JSONValue:
        rows = self.q("SELECT value FROM meta WHERE key=?", (key,))
        value: JSONValue = json.loads(rows[0][0]) if rows else default
        return value

    def meta_text(self, key: str, default: str) -> str:
        """A text the hall keeps (the profile, the tournament's name); ``default`` when unset."""
        v = self.get_meta(key, default)
        return v if isinstance(v, str) else default

    def meta_int(self, key: str, default: int) -> int:
        v = self.get_meta(key, default)
        return int(v) if isinstance(v, int | float | str) else default

    def meta_list(self, key: str) -> list[str]:
        """A list of ids the hall keeps (its tables); empty when unset."""
        v = self.get_meta(key)
        return [str(x) for x in v] if isinstance(v, list | tuple) else []

    def meta_map(self, key: str) -> dict[str, str]:
        """A mapping of players to a text the hall keeps (regions, teams); empty when unset."""
        v = self.get_meta(key)
        return {str(k): str(x) for k, x in v.items()} if isinstance(v, Mapping) else {}

    def set_meta(self, key: str, value: object) -> None:
        with self.tx() as db:
            db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, json.dumps(value)))

    # --- ingest -----------------------------------------------------------------------------------------
    def ingest(self, db: sqlite3.Connection, table: str, m: OutboxMessage, now: float) -> bool:
        """Store one message inside the caller's transaction; False if ``(table, hand, seq)`` is known."""
        cur = db.execute("INSERT OR IGNORE INTO messages VALUES (?,?,?,?,?,?,?)",
                         (table, m.hand, m.seq, m.kind, json.dumps(m.body, sort_keys=True), m.t_wall, now))
        if cur.rowcount == 0:
            return False
        body = m.result_body()  # a result names the table's profile (another kind of message: no profile)
        self._seen(db, table, now, body.get("profile"))
        if m.kind == "result":
            r = body.get("result") or {}
            players = body.get("players") or []
            deltas = r.get("deltas") or []
            db.execute("INSERT OR IGNORE INTO results VALUES (?,?,?,?,?,?,?,?,?)",
                       (table, m.hand, body.get("session"), json.dumps(players), str(r.get("status", "played")),
                        json.dumps(deltas), json.dumps(m.body, sort_keys=True), m.t_wall, now))
        return True

    def _seen(self, db: sqlite3.Connection, table: str, now: float, profile: str | None = None) -> None:
        db.execute("INSERT INTO tables (id, profile, first_seen, last_seen) VALUES (?,?,?,?) ON CONFLICT(id) DO "
                   "UPDATE SET last_seen=excluded.last_seen, profile=COALESCE(excluded.profile, tables.profile)",
                   (table, profile, now, now))

    def table_status(self, table: str, status: TableStatus, now: float) -> None:
        with self.tx() as db:
            self._seen(db, table, now, status.get("profile"))
            db.execute("UPDATE tables SET status=? WHERE id=?", (json.dumps(status, sort_keys=True), table))

    # --- reading ----------------------------------------------------------------------------------------
    def results(self, session: int | None = None) -> list[HallResult]:
        sql = ("SELECT r.table_id, r.hand, r.session, r.players, r.status, r.deltas, r.body, r.t_table, r.received, "
               "(SELECT c.deltas FROM corrections c WHERE c.table_id=r.table_id AND c.hand=r.hand "
               "ORDER BY c.id DESC LIMIT 1) FROM results r")
        rows = self.q(sql + (" WHERE r.session=?" if session is not None else "") + " ORDER BY r.t_table, r.hand",
                      (session,) if session is not None else ())
        out: list[HallResult] = []
        for t, h, s, p, st, d, b, tt, rec, corr in rows:
            out.append({"table": t, "hand": h, "session": s, "players": json.loads(p), "status": st,
                        "deltas": json.loads(corr) if corr else json.loads(d), "corrected": corr is not None,
                        "body": json.loads(b), "t_table": tt, "received": rec})
        return out

    def count(self, table: str) -> int:
        return int(self.q(f"SELECT COUNT(*) FROM {table}")[0][0])  # noqa: S608 - internal table names only

    def audit(self, who: str, action: str, detail: Mapping[str, object]) -> None:
        with self.tx() as db:
            db.execute("INSERT INTO audit (at, who, action, detail) VALUES (?,?,?,?)",
                       (time.time(), who, action, json.dumps(detail, sort_keys=True)))

    # --- backup and restore -----------------------------------------------------------------------------
    def backup(self, dest: str | Path) -> Path:
        """A consistent copy of the live database (SQLite's online backup)."""
        dest = Path(dest)
        dest.parent.mkdir(parents=True, exist_ok=True)
        tmp = dest.with_suffix(dest.suffix + ".part")
        out = sqlite3.connect(str(tmp))
        try:
            with self.lock:
                self.db.backup(out)
        finally:
            out.close()
        tmp.replace(dest)
        return dest


def check_backup(path: str | Path) -> int:
    """The schema version of a backup file, after an integrity check; HallDBError if it is unusable."""
    p = Path(path)
    if not p.is_file():
        raise HallDBError(f"{p}: no such file")
    try:
        db = sqlite3.connect(f"file:{p}?mode=ro", uri=True)
        try:
            if db.execute("PRAGMA integrity_check").fetchone()[0] != "ok":
                raise HallDBError(f"{p}: the backup is damaged (integrity check failed)")
            v = _version(db)
            names = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        finally:
            db.close()
    except sqlite3.DatabaseError as exc:
        raise HallDBError(f"{p}: not a hall database backup ({exc})") from None
    if v == 0 or "results" not in names:
        raise HallDBError(f"{p}: not a hall database backup")
    if v > SCHEMA_VERSION:
        raise HallDBError(f"{p}: schema {v} is newer than this build ({SCHEMA_VERSION})")
    return v


def restore(backup: str | Path, dest: str | Path) -> int:
    """Replace the hall database ``dest`` by ``backup`` (the hall service must be stopped), migrating it to
    this build's schema; returns the schema version."""
    check_backup(backup)
    src = sqlite3.connect(f"file:{Path(backup)}?mode=ro", uri=True)
    dest = Path(dest)
    dest.parent.mkdir(parents=True, exist_ok=True)
    out = sqlite3.connect(str(dest), isolation_level=None)
    try:
        src.backup(out)
        return migrate(out)
    finally:
        src.close()
        out.close()
