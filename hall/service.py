"""The hall service's MQTT side: ingest every table's outbox once, acknowledge it, send the hall's commands.

One paho client (``clean_session=False``, ``manual_ack``): a message is PUBACKed to the broker only after
it is committed to the hall database, so a hall killed mid-batch gets it again from its persistent session;
the table also keeps it until the hall's own :class:`~hall.messages.Ack` arrives and sends it again after a
while — whichever comes first, :meth:`HallDB.ingest` keeps one copy. A single ingest thread drains the
client's queue in batches (one transaction each), so the database has one writer.
"""
from __future__ import annotations

import itertools
import json
import logging
import queue
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import paho.mqtt.client as mqtt
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode

from hall.db import HallDB
from hall.messages import Ack, Command, CommandAck, CommandBody, MessageError, OutboxMessage, decode_status
from hall.mqtt import Credentials, make_client
from hall.topics import Topics

Received = tuple[str, bytes, int, int]  # a message as paho delivered it: topic, payload, mid, qos

log = logging.getLogger("mahjong_table.hall")


@dataclass
class IngestStats:
    received: int = 0
    new: int = 0
    duplicates: int = 0  # redeliveries and resends absorbed (already in the database)
    results: int = 0
    bad: int = 0
    commands_acked: int = 0
    latencies: list[float] = field(default_factory=list)  # table result -> committed in the hall (seconds)
    last_batch: list[float] = field(default_factory=list)  # the table times of the results of the last batch


class HallService:
    def __init__(self, db: HallDB, broker: str, hall_id: str = "hall", creds: Credentials | None = None, *,
                 client_id: str | None = None, resend_commands_s: float = 5.0, batch: int = 500):
        self.db = db
        self.topics = Topics(hall_id)
        self.client, self.addr = make_client(client_id or f"hall-{hall_id}", broker,
                                             creds or Credentials(), manual_ack=True)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message
        self.connected = False
        self.error = ""
        self.stats = IngestStats()
        self.batch = batch
        self.resend_commands_s = resend_commands_s
        self.listeners: list[Callable[[], None]] = []  # called after each committed batch (dashboard)
        self._q: queue.Queue[Received] = queue.Queue()
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._ids = itertools.count()
        self.tickers: list[Callable[[], None]] = []  # run about once a second (the session clock)

    # --- life ---------------------------------------------------------------------------------------------
    def start(self) -> HallService:
        self.client.connect_async(self.addr.host, self.addr.port, keepalive=15)
        self.client.loop_start()
        for fn in (self._ingest_loop, self._command_loop):
            t = threading.Thread(target=fn, name=f"hall-{fn.__name__}", daemon=True)
            t.start()
            self._threads.append(t)
        return self

    def stop(self) -> None:
        self._stop.set()
        for t in self._threads:
            t.join(timeout=5)
        self.client.disconnect()
        self.client.loop_stop()

    def wait_connected(self, timeout: float = 10.0) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.connected:
                return True
            time.sleep(0.02)
        return False

    # --- MQTT (paho's thread) -----------------------------------------------------------------------------
    def _on_connect(self, client: mqtt.Client, userdata: object, flags: mqtt.ConnectFlags, reason: ReasonCode,
                    properties: Properties | None) -> None:
        if reason.is_failure:
            self.error = f"the broker refused the hall: {reason}"
            log.warning("%s", self.error)
            return
        self.connected, self.error = True, ""
        client.subscribe(self.topics.all_up, qos=1)
        self._resend_commands(0.0)

    def _on_disconnect(self, client: mqtt.Client, userdata: object, flags: mqtt.DisconnectFlags,
                       reason: ReasonCode, properties: Properties | None) -> None:
        self.connected = False

    def _on_message(self, client: mqtt.Client, userdata: object, msg: mqtt.MQTTMessage) -> None:
        self._q.put((msg.topic, bytes(msg.payload), msg.mid, msg.qos))

    # --- ingest (one thread, the database's only MQTT writer) ---------------------------------------------
    def _ingest_loop(self) -> None:
        while not self._stop.is_set():
            try:
                first = self._q.get(timeout=0.2)
            except queue.Empty:
                continue
            batch = [first]
            while len(batch) < self.batch:
                try:
                    batch.append(self._q.get_nowait())
                except queue.Empty:
                    break
            try:
                self.ingest_batch(batch)
            except Exception:  # not acknowledged: the broker and the tables will send it again
                log.exception("hall ingest failed; the batch is not acknowledged")
                time.sleep(0.5)

    def ingest_batch(self, batch: list[Received]) -> None:
        acks: dict[str, list[tuple[str, int]]] = {}
        results: list[float] = []
        now = time.time()
        with self.db.tx() as db:
            for topic, payload, _mid, _qos in batch:
                self.stats.received += 1
                parsed = self.topics.parse(topic)
                if parsed is None or parsed[1] != "up":
                    continue
                table, _, leaf = parsed
                try:
                    if leaf == "outbox":
                        m = OutboxMessage.decode(payload)
                        if self.db.ingest(db, table, m, now):
                            self.stats.new += 1
                            if m.kind == "result":
                                self.stats.results += 1
                                results.append(m.t_wall)
                        else:
                            self.stats.duplicates += 1
                        acks.setdefault(table, []).append((m.hand, m.seq))
                    elif leaf == "status":
                        status = decode_status(payload)
                        self.db._seen(db, table, now, status.get("profile"))
                        db.execute("UPDATE tables SET status=? WHERE id=?", (json.dumps(status, sort_keys=True), table))
                    elif leaf == "cmd_ack":
                        a = CommandAck.decode(payload)
                        cur = db.execute("UPDATE commands SET acked=? WHERE id=? AND table_id=? AND acked IS NULL",
                                         (a.t_wall, a.id, table))
                        self.stats.commands_acked += cur.rowcount
                except MessageError as exc:
                    self.stats.bad += 1
                    log.warning("ignored a bad message from %s on %s: %s", table, leaf, exc)
        done = time.time()
        self.stats.latencies.extend(done - t for t in results)
        self.stats.last_batch = results
        for _topic, _payload, mid, qos in batch:  # committed: now the broker may forget them
            if qos:
                self.client.ack(mid, qos)
        for table, keys in acks.items():
            self.client.publish(self.topics.down(table, "ack"), Ack(tuple(keys)).encode(), qos=1)
        for fn in self.listeners:
            fn()

    # --- commands to the tables ---------------------------------------------------------------------------
    def send_command(self, table: str, kind: str, body: CommandBody | None = None) -> str:
        """Record a command for ``table`` and publish it; it is sent again until the table acknowledges."""
        cmd = Command(f"{int(time.time() * 1000):x}-{next(self._ids)}-{secrets.token_hex(3)}", kind, body or {})
        with self.db.tx() as db:
            db.execute("INSERT INTO commands (id, table_id, kind, body, created, sent) VALUES (?,?,?,?,?,?)",
                       (cmd.id, table, kind, json.dumps(cmd.body, sort_keys=True), time.time(), time.time()))
        self.client.publish(self.topics.down(table, "cmd"), cmd.encode(), qos=1)
        return cmd.id

    def _resend_commands(self, older_than: float) -> int:
        now = time.time()
        rows = self.db.q("SELECT id, table_id, kind, body FROM commands WHERE acked IS NULL AND "
                         "(sent IS NULL OR sent <= ?) ORDER BY created", (now - older_than,))
        for cid, table, kind, body in rows:
            self.client.publish(self.topics.down(table, "cmd"), Command(cid, kind, json.loads(body)).encode(), qos=1)
        if rows:
            with self.db.tx() as db:
                db.executemany("UPDATE commands SET sent=? WHERE id=?", [(now, r[0]) for r in rows])
        return len(rows)

    def _command_loop(self) -> None:
        while not self._stop.wait(1.0):
            if self.connected:
                try:
                    self._resend_commands(self.resend_commands_s)
                except Exception:
                    log.exception("resending hall commands")
            for fn in list(self.tickers):
                try:
                    fn()
                except Exception:
                    log.exception("hall ticker")

    def pending_commands(self) -> int:
        return int(self.db.q("SELECT COUNT(*) FROM commands WHERE acked IS NULL")[0][0])
