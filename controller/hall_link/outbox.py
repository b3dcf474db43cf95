"""The hall outbox: new tables in the table's own event store (SQLite), next to ``events`` and ``hands``.

:meth:`Outbox.feed` copies what the hall needs from the store into ``hall_outbox`` — each finished hand's
result, and the hand's events (``hall.events = "all"``) or only its ``hand_started`` (``"results"``), and the
judge's penalties (:data:`JUDGE_EVENTS`, with the session and the players by chair) — in
one transaction with its read position, so a crash between the two never loses or doubles a message. A
message stays in the outbox until the hall service acknowledges it (:meth:`ack`); :meth:`due` lists what to
(re)send — when a message was sent is kept in memory only, so sending costs no write.
``hall_commands`` records each hall command once (its id), before the table acknowledges it.

The outbox has its own connection to the store file (WAL: the service's writer is never blocked for long)
and a lock, because the MQTT network thread and the service's loop both call it.
"""
from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TypedDict

from hall.messages import CommandBody, EventBody, HandContext, HandResult, OutboxMessage, ResultBody
from rules.events import JSONObject

SCHEMA = """
CREATE TABLE IF NOT EXISTS hall_outbox (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    hand     TEXT    NOT NULL,
    seq      INTEGER NOT NULL,
    kind     TEXT    NOT NULL,
    body     TEXT    NOT NULL,
    t_wall   REAL    NOT NULL,
    acked    REAL,
    UNIQUE (hand, seq)
);
CREATE INDEX IF NOT EXISTS hall_outbox_pending ON hall_outbox (acked) WHERE acked IS NULL;
CREATE TABLE IF NOT EXISTS hall_cursor (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS hall_hands (hand TEXT PRIMARY KEY, context TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS hall_commands (
    id       TEXT PRIMARY KEY,
    kind     TEXT NOT NULL,
    body     TEXT NOT NULL,
    received REAL NOT NULL
);
"""
EVENT_MODES = ("results", "all")
# the judge's decisions the hall credits (whatever hall.events says): penalties given at the table's console
JUDGE_EVENTS = {"penalty_awarded": "", "judge_action": "sanction"}  # event type -> its action ("": any)


class RecordedCommand(TypedDict):
    """A hall command as the table recorded it (:meth:`Outbox.record_command`)."""

    id: str
    kind: str
    body: CommandBody
    received: float


def hand_of(stream: str) -> str:
    """The hand a store stream belongs to (``<hand_id>`` or ``<hand_id>/game``)."""
    return stream.split("/", 1)[0]


class Outbox:
    def __init__(self, path: str | Path, events: str = "results", durable: bool = True):
        if events not in EVENT_MODES:
            raise ValueError(f"hall.events {events!r}: one of {', '.join(EVENT_MODES)}")
        self.events = events
        self.lock = threading.Lock()
        self.db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False, timeout=30)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute(f"PRAGMA synchronous={'FULL' if durable else 'OFF'}")
        self.db.executescript(SCHEMA)
        self._sent: dict[tuple[str, int], float] = {}  # (hand, seq) -> when last sent by this outbox

    def close(self) -> None:
        with self.lock:
            self.db.close()

    # --- from the store into the outbox ------------------------------------------------------------------
    def _cursor(self, name: str) -> int:
        row = self.db.execute("SELECT value FROM hall_cursor WHERE name=?", (name,)).fetchone()
        return int(row[0]) if row else 0

    def feed(self, context: HandContext | Callable[[str], HandContext] | None = None, limit: int = 2000) -> int:
        """Copy new events and finished hands from the store; returns how many messages were added.
        ``context`` (the hall session and the players by seat, as the hall's commands set them) is
        recorded when a hand starts and attached to that hand's result; a function of the hand gives each
        hand its own (the chairs it was played in).

        Everything is read first (WAL: reading never blocks the table's writer); the write transaction
        that follows is a few quick statements, so the table's own appends never wait long for it."""
        with self.lock:
            if not self._has_store():
                return 0
            def ctx_of(hand: str) -> str:
                return json.dumps((context(hand) if callable(context) else context) or {}, sort_keys=True)
            # finished hands first: all their events were appended before they finished, so the events read
            # next include them, and a result always follows its hand's events
            done = self.db.execute(
                "SELECT h.hand_id, h.profile, h.finished, h.result FROM hands h WHERE h.finished IS NOT NULL "
                "AND NOT EXISTS (SELECT 1 FROM hall_outbox o WHERE o.hand = h.hand_id AND o.kind = 'result') "
                "ORDER BY h.finished LIMIT ?", (limit,)).fetchall()
            last = self._cursor("events")
            rows = self.db.execute("SELECT id, hand_id, seq, type, t_wall, body FROM events WHERE id > ? "
                                   "ORDER BY id LIMIT ?", (last, limit)).fetchall()
            msgs: list[tuple[str, str, str, float]] = []  # hand, kind, body, t_wall
            starts: list[tuple[str, str]] = []
            for _rid, stream, seq, typ, t_wall, body in rows:
                if typ == "hand_started":
                    starts.append((hand_of(stream), ctx_of(hand_of(stream))))
                ev: JSONObject | None = json.loads(body) if typ in JUDGE_EVENTS else None
                judged = ev is not None and JUDGE_EVENTS[typ] in ("", ev.get("action"))
                if self.events == "all" or typ == "hand_started" or judged:
                    ev = ev if ev is not None else json.loads(body)
                    msg: EventBody = {"stream": stream, "seq": seq, "event": ev}
                    if judged and ev is not None:  # the judge's decision with the session and who sat where then
                        said: HandContext = json.loads(ctx_of(str(ev.get("hand_id") or "")))
                        msg = {**msg, **said}
                    msgs.append((hand_of(stream), "event", json.dumps(msg, sort_keys=True), t_wall))
            if len(rows) < limit:  # else events are still to copy: results come after their hand's events
                known = dict(starts)
                for hand, profile, finished, result in done:
                    c = known.get(hand)
                    if c is None:
                        row = self.db.execute("SELECT context FROM hall_hands WHERE hand=?", (hand,)).fetchone()
                        c = row[0] if row else ctx_of(hand)
                    ctx: HandContext = json.loads(c)
                    done_body: ResultBody = {"profile": profile, "result": json.loads(result), **ctx}
                    msgs.append((hand, "result", json.dumps(done_body, sort_keys=True), finished))
            if not rows and not msgs:
                return 0
            self.db.execute("BEGIN IMMEDIATE")
            try:
                self.db.executemany("INSERT OR IGNORE INTO hall_hands VALUES (?, ?)", starts)
                nxt: dict[str, int] = {}
                for hand, kind, body, t_wall in msgs:
                    if hand not in nxt:
                        row = self.db.execute("SELECT MAX(seq) FROM hall_outbox WHERE hand=?", (hand,)).fetchone()
                        nxt[hand] = 0 if row[0] is None else row[0] + 1
                    self.db.execute("INSERT INTO hall_outbox (hand, seq, kind, body, t_wall) VALUES (?,?,?,?,?)",
                                    (hand, nxt[hand], kind, body, t_wall))
                    nxt[hand] += 1
                if rows:
                    self.db.execute("INSERT OR REPLACE INTO hall_cursor VALUES ('events', ?)", (rows[-1][0],))
                self.db.execute("COMMIT")
            except BaseException:
                self.db.execute("ROLLBACK")
                raise
            return len(msgs)

    def session_results(self, session: int) -> list[tuple[str, HandResult]]:
        """The hands played in hall session ``session`` (by the context they started with), in order."""
        with self.lock:
            if not self._has_store():
                return []
            rows = self.db.execute("SELECT h.hand_id, h.result, c.context FROM hands h JOIN hall_hands c ON "
                                   "c.hand = h.hand_id WHERE h.finished IS NOT NULL ORDER BY h.started, h.hand_id")
            out: list[tuple[str, HandResult]] = []
            for hand, result, context in rows.fetchall():
                r: HandResult = json.loads(result)
                if json.loads(context).get("session") == session and r.get("status", "played") == "played":
                    out.append((hand, r))
            return out

    def _has_store(self) -> bool:
        n = self.db.execute("SELECT COUNT(*) FROM sqlite_master WHERE name IN ('events', 'hands')").fetchone()[0]
        return bool(n == 2)

    # --- sending and acknowledgement ---------------------------------------------------------------------
    def due(self, resend_after: float, now: float | None = None, limit: int = 500) -> list[OutboxMessage]:
        """Unacknowledged messages not sent since this outbox was opened (or since :meth:`unsend`), or sent
        more than ``resend_after`` seconds ago — oldest first, at most ``limit``; they count as sent now.
        When they were sent is kept in memory only: after a restart everything unacknowledged is due."""
        now = time.time() if now is None else now
        out: list[OutboxMessage] = []
        with self.lock:
            after = 0
            while len(out) < limit:
                rows = self.db.execute("SELECT id, hand, seq, kind, body, t_wall FROM hall_outbox WHERE acked IS NULL "
                                       "AND id > ? ORDER BY id LIMIT 1000", (after,)).fetchall()
                for _rid, h, sq, k, b, t in rows:
                    sent = self._sent.get((h, sq))
                    if sent is None or sent <= now - resend_after:
                        self._sent[(h, sq)] = now
                        out.append(OutboxMessage(h, sq, k, json.loads(b), t))
                        if len(out) == limit:
                            break
                if len(rows) < 1000:
                    break
                after = rows[-1][0]
        return out

    def unsend(self) -> None:
        """After a (re)connection: everything unacknowledged is due again at once."""
        with self.lock:
            self._sent.clear()

    def ack(self, keys: list[tuple[str, int]] | tuple[tuple[str, int], ...]) -> int:
        """The hall committed these ``(hand, seq)``; returns how many were newly acknowledged."""
        now = time.time()
        with self.lock:
            for k in keys:
                self._sent.pop(k, None)
            return self._write_many("UPDATE hall_outbox SET acked=? WHERE hand=? AND seq=? AND acked IS NULL",
                                    [(now, h, s) for h, s in keys])

    def _write_many(self, sql: str, args: list[tuple[object, ...]]) -> int:
        """One short write transaction (one commit, not one per row)."""
        self.db.execute("BEGIN IMMEDIATE")
        try:
            n = self.db.executemany(sql, args).rowcount
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        return n

    def counts(self) -> dict[str, int]:
        with self.lock:
            total, pending = self.db.execute(
                "SELECT COUNT(*), COALESCE(SUM(acked IS NULL), 0) FROM hall_outbox").fetchone()
            results = self.db.execute("SELECT COUNT(*) FROM hall_outbox WHERE kind='result'").fetchone()[0]
        return {"total": int(total), "pending": int(pending), "acked": int(total - pending),
                "results": int(results)}

    def messages(self, kind: str | None = None) -> list[tuple[str, int, str, bool]]:
        """Every message as ``(hand, seq, kind, acked)`` (tests, ``hall simulate``'s count)."""
        with self.lock:
            q = "SELECT hand, seq, kind, acked IS NOT NULL FROM hall_outbox"
            rows = self.db.execute(q + (" WHERE kind=?" if kind else "") + " ORDER BY id",
                                   (kind,) if kind else ()).fetchall()
        return [(h, s, k, bool(a)) for h, s, k, a in rows]

    # --- the table's own messages (not from the store: the seat check) ---------------------------------------
    def put(self, hand: str, kind: str, body: Mapping[str, object], t_wall: float | None = None) -> int:
        """Queue one message under ``hand`` (its next seq) durably; returns its seq."""
        with self.lock:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                row = self.db.execute("SELECT MAX(seq) FROM hall_outbox WHERE hand=?", (hand,)).fetchone()
                seq = 0 if row[0] is None else int(row[0]) + 1
                self.db.execute("INSERT INTO hall_outbox (hand, seq, kind, body, t_wall) VALUES (?,?,?,?,?)",
                                (hand, seq, kind, json.dumps(body, sort_keys=True),
                                 time.time() if t_wall is None else t_wall))
                self.db.execute("COMMIT")
            except BaseException:
                self.db.execute("ROLLBACK")
                raise
            return seq

    def last(self, hand: str) -> JSONObject | None:
        """The body of the last message queued under ``hand`` (None: none)."""
        with self.lock:
            row = self.db.execute("SELECT body FROM hall_outbox WHERE hand=? ORDER BY seq DESC LIMIT 1",
                                  (hand,)).fetchone()
        body: JSONObject | None = json.loads(row[0]) if row else None
        return body

    # --- hall commands -----------------------------------------------------------------------------------
    def record_command(self, cmd_id: str, kind: str, body: CommandBody) -> bool:
        """Record a hall command once; False when it was already recorded (a redelivery)."""
        with self.lock:
            cur = self.db.execute("INSERT OR IGNORE INTO hall_commands VALUES (?,?,?,?)",
                                  (cmd_id, kind, json.dumps(body, sort_keys=True), time.time()))
            return cur.rowcount == 1

    def commands(self) -> list[RecordedCommand]:
        with self.lock:
            rows = self.db.execute("SELECT id, kind, body, received FROM hall_commands ORDER BY received, rowid")
            return [{"id": i, "kind": k, "body": json.loads(b), "received": r} for i, k, b, r in rows]
