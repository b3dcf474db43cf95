"""``mahjong-table hall simulate``: a whole tournament of simulated tables against a real broker and the
hall service, then the proof that every result arrived once.

Each simulated table (:class:`~controller.hall_link.sim_table.SimTable`) has its own event store and outbox
and talks to the hall only through the broker, like a real table. The hall draws the seating, starts each
session (the tables receive their players as commands), ends it, and ranks the players with the profile's
hooks. ``broker_restart`` stops the broker in the middle of a session and starts it again while the tables
go on recording. At the end the tables' own records are compared with the hall's database.
"""
from __future__ import annotations

import random
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from controller.hall_link.link import LinkConfig
from controller.hall_link.sim_table import SimTable
from hall.config import defaults
from hall.runtime import Hall


@dataclass
class SimReport:
    sent: int = 0
    ingested: int = 0
    lost: int = 0
    duplicated: int = 0
    mismatched: list[str] = field(default_factory=list)  # players whose hall totals differ from the tables'
    broker_restarts: int = 0
    redeliveries: int = 0  # copies the hall received again and absorbed (not counted twice)
    seconds: float = 0.0
    ranking: list[Any] = field(default_factory=list)
    names: dict[str, str] = field(default_factory=dict)
    latencies: list[float] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.lost == 0 and self.duplicated == 0 and not self.mismatched

    def line(self) -> str:
        return (f"results: sent {self.sent}, ingested {self.ingested}, lost {self.lost}, "
                f"duplicated {self.duplicated}")


def run(tables: int, sessions: int, profile: str, seed: int, *, broker: str = "", broker_restart: bool = False,
        workdir: str | Path | None = None, event_delay: float = 0.0, events: str = "results",
        max_hands: int | None = None, progress: Callable[[str], None] | None = None,
        settle_s: float = 60.0, after_session: Callable[[int, Hall], None] | None = None) -> SimReport:
    say = progress or (lambda _m: None)
    t0 = time.monotonic()
    tmp = None
    if workdir is None:
        tmp = tempfile.TemporaryDirectory(prefix="mahjong-hall-sim-")
        workdir = tmp.name
    work = Path(workdir)
    ids = [f"table-{i + 1:02d}" for i in range(tables)]
    cfg = defaults().with_overrides(hall__id="sim", hall__db=str(work / "hall.sqlite"), hall__profile=profile,
                                    hall__tables=ids, hall__seed=seed or 1, hall__name=f"Simulated {profile}",
                                    broker__url=broker, broker__dir=str(work / "broker"), broker__port=0)
    hall = Hall(cfg).start()
    report = SimReport()
    sims: list[SimTable] = []
    try:
        assert hall.service is not None and hall.tournament is not None
        if not hall.service.wait_connected(15):
            raise RuntimeError(f"the hall could not connect to the broker {hall.broker_url}: {hall.service.error}")
        t = hall.tournament
        t.db.set_meta("sessions", sessions)  # the seating draws look ahead over all the sessions
        n_players = 4 * tables
        for i in range(n_players):
            t.register(f"P{i + 1:03d}", f"Player {i + 1}")
        rng = random.Random(seed)
        for tid in ids:
            sims.append(SimTable(tid, profile, work / "tables", LinkConfig(hall.broker_url, "sim", tid, events=events,
                                                                           resend_s=3.0),
                                 rng.randrange(2**31), event_delay=event_delay).start())
        restart_in = (sessions + 1) // 2 if broker_restart else 0
        for s in range(1, sessions + 1):
            t.seat(s)
            t.start_session(s, minutes=60)
            say(f"session {s}: {len(ids)} tables playing")
            threads = [threading.Thread(target=sim.play_session, args=(s, max_hands), daemon=True) for sim in sims]
            for th in threads:
                th.start()
            if s == restart_in:
                _restart_midway(hall, sims, threads, say)
                report.broker_restarts += 1
            for th in threads:
                th.join()
            t.end_session(s)
            if after_session is not None:  # e.g. the Pantheon outbox's sending (controller.hall_link.simulate_pantheon)
                _settle(sims, settle_s)
                after_session(s, hall)
        _settle(sims, settle_s)
        report.redeliveries = hall.service.stats.duplicates
        report.latencies = list(hall.service.stats.latencies)
        _count(hall, sims, report)
        st = t.standings()
        report.ranking = st.ranking
        report.names = t.player_names()
    finally:
        for sim in sims:
            sim.stop()
        hall.stop()
        if tmp is not None:
            tmp.cleanup()
    report.seconds = time.monotonic() - t0
    return report


def _restart_midway(hall: Hall, sims: list[SimTable], threads: list[threading.Thread],
                    say: Callable[[str], None]) -> None:
    """Stop the broker once the tables have recorded some hands of this session, start it again later."""
    if hall.broker is None:
        say("--broker-restart needs the embedded broker (no --broker URL): not restarted")
        return
    base = sum(len(s.played) for s in sims)
    deadline = time.monotonic() + 30
    while sum(len(s.played) for s in sims) < base + max(2, len(sims)) and time.monotonic() < deadline:
        if not any(th.is_alive() for th in threads):
            break
        time.sleep(0.01)
    say("broker: stopped in the middle of the session")
    hall.broker.stop()
    time.sleep(1.0)
    hall.broker.start()
    say("broker: started again")


def _settle(sims: list[SimTable], timeout: float) -> None:
    """Wait until every table's outbox is acknowledged by the hall (or the timeout)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for s in sims:
            s.link.notify()
        if all((c := s.link.outbox.counts())["pending"] == 0 and c["results"] == len(s.played) for s in sims):
            return
        time.sleep(0.05)


def _count(hall: Hall, sims: list[SimTable], report: SimReport) -> None:
    """Compare the tables' own records with the hall's database, result by result and player by player."""
    assert hall.tournament is not None
    table_results: dict[tuple[str, str], tuple[int, ...]] = {}
    expected: dict[str, int] = {}
    for s in sims:
        for hand_id, res in s.store.results():
            table_results[(s.id, hand_id)] = tuple(res["deltas"])
            for p, d in zip(res["seats"], res["deltas"], strict=False):
                expected[p] = expected.get(p, 0) + int(d)
    hall_rows = hall.db.q("SELECT table_id, hand, deltas FROM results")
    seen: dict[tuple[str, str], int] = {}
    import json

    for table, hand, deltas in hall_rows:
        key = (table, hand)
        if table_results.get(key) == tuple(json.loads(deltas)):
            seen[key] = seen.get(key, 0) + 1
        else:
            report.duplicated += 1  # a result the tables never produced (or produced differently)
    report.sent = len(table_results)
    report.ingested = len(seen)
    report.lost = report.sent - report.ingested
    report.duplicated += sum(n - 1 for n in seen.values())
    st = hall.tournament.standings()
    got: dict[str, int] = {}
    start = hall.tournament.profile.start_score
    for ts in st.tables.values():
        index = {p: i for i, p in enumerate(ts.players)}
        for p, i in index.items():
            got[p] = got.get(p, 0) + ts.totals[i] - start
    report.mismatched = sorted(p for p in set(expected) | set(got) if expected.get(p, 0) != got.get(p, 0))


def format_ranking(report: SimReport) -> list[str]:
    lines = [f"{'rank':>4}  {'player':<8} {'name':<12} {'sessions':>8} {'points':>8} {'total':>9}  detail"]
    for r in report.ranking:
        detail = ", ".join(f"{k} {v:g}" for k, v in r.detail.items())
        lines.append(f"{r.rank:>4}  {r.player:<8} {report.names.get(r.player, ''):<12} {r.sessions:>8} "
                     f"{r.table_points:>8g} {r.total:>9}  {detail}")
    return lines
