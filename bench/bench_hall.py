"""The tournament hall: 100 simulated tables, each recording and publishing every event at 10x a real table's
pace for a whole session (sichuan-mpl2025, 8 hands), through a local mosquitto to the hall service.

Rows: results and events lost / duplicated (must be 0: the tables' records compared with the hall's
database), end-to-end latency p50/p95 from a table's result (committed in its store) to the hall's standings
recomputed with it — against one event interval at that pace (0.2 s), and the hall's ingest rate against
the rate the tables offered. The simulated tables' stores run with synchronous=OFF: a hundred real tables
have a hundred SD cards, not this machine's one disk; the hall's database is durable as in production.
"""
from __future__ import annotations

import tempfile
import threading
import time
from pathlib import Path

from bench.common import Row, percentile
from controller.hall_link.link import LinkConfig
from controller.hall_link.sim_table import REAL_EVENT_S, SimTable
from hall.config import defaults
from hall.runtime import Hall

PROFILE = "sichuan-mpl2025"


WORKERS = 4  # the simulated tables run in this many processes (a hundred tables' threads in one would
#             starve each other of the interpreter lock; real tables each have their own Pi)


def run(quick: bool = False) -> list[Row]:
    tables = 20 if quick else 100
    max_hands = 1 if quick else None  # None: the whole session (the profile's game_over: 8 hands)
    pace = REAL_EVENT_S / 10
    with tempfile.TemporaryDirectory(prefix="bench-hall-") as d:
        return _run(Path(d), tables, max_hands, pace)


def _tables(args: tuple) -> dict:
    """One worker process: its share of the tables plays session 1 when the hall starts it, then waits until
    the hall acknowledged everything; returns what was sent."""
    broker, ids, seeds, folder, pace, max_hands = args
    sims = [SimTable(tid, PROFILE, folder, LinkConfig(broker, "bench", tid, events="all", poll_s=pace, resend_s=10.0),
                     seed=seed, event_delay=pace, durable=False).start() for tid, seed in zip(ids, seeds, strict=True)]
    t0 = time.monotonic()
    threads = [threading.Thread(target=s.play_session, args=(1, max_hands), kwargs={"timeout": 120.0}, daemon=True)
               for s in sims]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    played = time.monotonic() - t0
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline and not all(
            (c := s.link.outbox.counts())["pending"] == 0 and c["results"] == len(s.played) for s in sims):
        time.sleep(0.1)
    out = {"sent": [(s.id, h, q) for s in sims for h, q, _, _ in s.link.outbox.messages()],
           "results": sum(len(s.store.results()) for s in sims), "played_s": played}
    for s in sims:
        s.stop()
    return out


def _run(work: Path, n: int, max_hands: int | None, pace: float) -> list[Row]:
    import multiprocessing

    ids = [f"table-{i + 1:03d}" for i in range(n)]
    cfg = defaults().with_overrides(hall__id="bench", hall__db=str(work / "hall.sqlite"), hall__profile=PROFILE,
                                    hall__tables=ids, hall__seed=1, broker__dir=str(work / "broker"), broker__port=0)
    hall = Hall(cfg).start()
    assert hall.service is not None and hall.tournament is not None
    hall.service.wait_connected(15)
    t = hall.tournament
    lat: list[float] = []

    def standings_updated() -> None:  # what the dashboard does after a batch with results
        batch = hall.service.stats.last_batch
        if batch:
            t.standings()
            now = time.time()
            lat.extend(now - x for x in batch)

    hall.service.listeners.append(standings_updated)
    for i in range(4 * n):
        t.register(f"P{i + 1:04d}")
    t.seat(1)
    groups = [ids[k::WORKERS] for k in range(WORKERS)]
    jobs = [(hall.broker_url, g, [ids.index(x) + 1 for x in g], str(work / "tables"), pace, max_hands) for g in groups]
    t0 = time.monotonic()
    with multiprocessing.get_context("spawn").Pool(WORKERS) as pool:
        pending = pool.map_async(_tables, jobs)
        time.sleep(3.0)  # the workers start their tables and connect; they wait for the session's start
        t.start_session(1, minutes=120)
        parts = pending.get(timeout=3600)
    drained = time.monotonic() - t0
    sent = {tuple(x) for p in parts for x in p["sent"]}
    held = {(a, b, c) for a, b, c in hall.db.q("SELECT table_id, hand, seq FROM messages")}
    results_sent = sum(p["results"] for p in parts)
    results_held = hall.db.count("results")
    played = max(p["played_s"] for p in parts)
    stats = hall.service.stats
    hall.stop()
    lost = len(sent - held)
    duplicated = len(held - sent) + max(0, results_held - results_sent)
    note = f"{n} tables, {results_sent} results, {len(sent)} messages, {played:.0f} s of play"
    return [
        Row(f"hall: {n} tables at 10x pace, messages lost", float(lost), "messages", note=note),
        Row(f"hall: {n} tables at 10x pace, messages duplicated", float(duplicated), "messages",
            note=f"{stats.duplicates} redeliveries absorbed"),
        Row("hall: table result -> standings, p50", percentile(lat, 50) * 1000, "ms", pace * 1000, "one event interval"),
        Row("hall: table result -> standings, p95", percentile(lat, 95) * 1000, "ms", pace * 1000, "one event interval"),
        Row("hall: ingest rate", stats.new / (drained or 1), "messages/s", len(sent) / (played or 1),
            "offered by the tables"),
    ]
