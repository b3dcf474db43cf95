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

from controller.hall_link.link import LinkConfig
from controller.hall_link.sim_table import SimTable
from hall.config import defaults
from hall.runtime import Hall
from hall.seating import TableRules
from hall.tournament import Tournament
from rules.events import as_int
from rules.game.profile_api import TournamentStanding


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
    ranking: list[TournamentStanding] = field(default_factory=list)
    names: dict[str, str] = field(default_factory=dict)
    latencies: list[float] = field(default_factory=list)
    regulations: list[str] = field(default_factory=list)  # what the regulations scenario did, one line each
    seat_checks: list[str] = field(default_factory=list)  # what each table's seat check found, one line each
    seat_problems: list[str] = field(default_factory=list)  # a mismatch the hall did not record, or recorded wrong

    @property
    def ok(self) -> bool:
        return self.lost == 0 and self.duplicated == 0 and not self.mismatched and not self.seat_problems

    def line(self) -> str:
        return (f"results: sent {self.sent}, ingested {self.ingested}, lost {self.lost}, "
                f"duplicated {self.duplicated}")


def run(tables: int, sessions: int, profile: str, seed: int, *, broker: str = "", broker_restart: bool = False,
        workdir: str | Path | None = None, event_delay: float = 0.0, events: str = "results",
        max_hands: int | None = None, progress: Callable[[str], None] | None = None,
        settle_s: float = 60.0, after_session: Callable[[int, Hall], None] | None = None,
        regulations: bool = False, seat_check: bool = False) -> SimReport:
    """``regulations``: the seeds' tournament regulations played out too (:func:`_scenario`) — a substitute
    brought in mid-session, a late player, a penalty and a sanction given at a table's console, an appeal,
    and where the rule set plays three at a table an incomplete table.

    ``seat_check``: each table reads the players' badges before each session's first hand (rendered into an
    overhead frame); in session 1 two players of the first table sit swapped and the judge overrides, two of
    the second table too and they move to their seats (read again). The hall must have recorded each."""
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
        n_players = players_for(t.table_rules, tables, regulations)
        for i in range(n_players):
            t.register(f"P{i + 1:03d}", f"Player {i + 1}")
        scenario = _Scenario(t, ids, sessions) if regulations else None
        rng = random.Random(seed)
        for tid in ids:
            sims.append(SimTable(tid, profile, work / "tables", LinkConfig(hall.broker_url, "sim", tid, events=events,
                                                                           resend_s=3.0),
                                 rng.randrange(2**31), event_delay=event_delay, seat_check=seat_check).start())
        if scenario is not None:
            scenario.sims = sims
        if seat_check:
            for sim, release in zip(sims, ("override", "reread"), strict=False):
                sim.misseat[1] = ((1, 2), release)
        restart_in = (sessions + 1) // 2 if broker_restart else 0
        for s in range(1, sessions + 1):
            t.seat(s)
            t.start_session(s, minutes=60)
            say(f"session {s}: {len(ids)} tables playing")
            if scenario is not None:
                scenario.session_started(s)
            hook = scenario.before_hand if scenario is not None else None
            threads = [threading.Thread(target=sim.play_session, args=(s, max_hands), kwargs={"before_hand": hook},
                                        daemon=True) for sim in sims]
            for th in threads:
                th.start()
            if s == restart_in:
                _restart_midway(hall, sims, threads, say)
                report.broker_restarts += 1
            for th in threads:
                th.join()
            t.end_session(s)
            if scenario is not None:
                scenario.session_ended(s)
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
        report.regulations = list(scenario.done) if scenario is not None else []
        if seat_check:
            _seat_checks(hall, sims, sessions, report)
    finally:
        for sim in sims:
            sim.stop()
        hall.stop()
        if tmp is not None:
            tmp.cleanup()
    report.seconds = time.monotonic() - t0
    return report


def players_for(rules: TableRules, tables: int, regulations: bool) -> int:
    """The players registered: the rule set's usual table at every table (Siamese: three, 003 line 2229); with the
    regulations, the last tables smaller — one of each smaller size the rule set plays (Sichuan three, 000
    §3.1.3 lines 503-509; Siamese two, 003 lines 2229-2273; Red three, then two, 001 line 8)."""
    n = rules.preferred * tables
    if regulations:
        smaller = sorted((k for k in rules.sizes if k < rules.preferred), reverse=True)
        n -= sum(rules.preferred - k for k in smaller[:max(1, tables - 1)])
    return int(n)


# The sanctions the tables' judges give in the scenario, by the rule set's seed document (its profile's ``seed``):
# (session — the first or the last —, kind, table points, the reason with its seed line). A removal or a
# disqualification comes in the last session, so every later draw stays possible. WMSG (002) has no sanctions
# section of its own: its tables play Sichuan's (000).
_SICHUAN_SANCTIONS = (("first", "table_points", 1, "000 line 422 (§2.8.2): beyond the 48 GP of the scale, tournament points"),
                ("last", "annulment", 0, "000 line 420 (§2.8.1): «аннулированием достигнутых результатов»"))
SANCTIONS: dict[str, tuple[tuple[str, str, int, str], ...]] = {
    "000": _SICHUAN_SANCTIONS,
    "002": _SICHUAN_SANCTIONS,
    "003": (("first", "table_points", 1, "003 line 2126 names no table-point penalty: the head judge's [Interp]"),
            ("last", "removal", 0, "003 line 2159: persistent disobedience of the judge, removed from the tournament")),
    "004": (("first", "dead_hand", 0, "004 line 302 (Rules 3.4.7): information passed, a dead hand"),
               ("last", "disqualification", 0, "004 line 546 (Rules 5.5): caught cheating, disqualified at once")),
    "001": (("first", "table_points", 1, "001 names no sanction: the head judge's table-point penalty [Interp]"),),
}


class _Scenario:
    """The regulations played out: in session 1 the director seats a substitute at the first table before its
    third hand (004 Rules 5.8), a player of the second table is late 5 minutes, the first table's judge gives a
    penalty from the catalogue (before its second hand), the last table's judge a sanction (:data:`SANCTIONS`)
    and — where the catalogue has a penalty that has the hand dealt again, riichi's chombo (004 line 278) — a
    chombo in a hand before its third; after session 1 one appeal is not upheld and one is, and the director
    corrects the hand it was about (the result every seat confirmed: 000 lines 269, 485); in the last session the
    last table's judge gives the rule set's second sanction."""

    SUBSTITUTE = "S001"

    def __init__(self, t: Tournament, ids: list[str], sessions: int = 1):
        self.t, self.ids, self.sessions = t, ids, sessions
        self.done: list[str] = []
        self.sims: list[SimTable] = []  # the tables (set once they are started)
        from rules.profiles import registry

        self.sanctions = SANCTIONS.get(registry.get(t.profile_name).seed, ())  # (a rule set of no seed: none)
        t.register(self.SUBSTITUTE, "Substitute", substitute=True)

    def session_started(self, s: int) -> None:
        if s != 1:
            return
        table = self.ids[1 % len(self.ids)]
        late = self.t.seating()[1][table][0]
        self.t.late(1, late, 5)
        self.done.append(f"late: {late} 5 minutes at {table}")

    def sanctions_of(self, s: int) -> list[tuple[int, str, int, str]]:
        """(seat, kind, points, reason) of the sanctions the last table's judge gives in session ``s``."""
        out = []
        for when, kind, points, reason in self.sanctions:
            if (when == "first" and s == 1) or (when == "last" and s == self.sessions):
                out.append((0 if when == "first" else 1, kind, points, reason))
        return out

    def before_hand(self, sim: SimTable, s: int, i: int) -> None:
        if i == 0 and s == 1 and sim.id == self.ids[-1] and any(k.replay for k in sim.profile.penalty_catalogue):
            sim.chombo[(1, 2)] = 2  # a chombo by seat 2 in a hand before the third: dealt again (004 line 278)
            self.done.append(f"chombo at {sim.id}: seat 2 before hand 3, the hand dealt again")
        if sim.id == self.ids[-1] and i == 1:
            for seat, kind, points, reason in self.sanctions_of(s):
                sim.sanction(seat, kind, reason, points=points)
                self.done.append(f"sanction at {sim.id}: session {s} seat {seat} {kind} {points}")
        if s != 1:
            return
        if sim.id == self.ids[0] and i == 1:
            code = self._penalty_code(sim)
            pk = {k.code: k for k in sim.profile.penalty_catalogue}[code]
            chosen = None if pk.amount is not None or pk.ladder else (
                pk.choices[0] if pk.choices else pk.bounds[0] or 1)
            for n in range(2 if pk.ladder else 1):  # on a ladder: a warning first, then points (000 line 422)
                ev = sim.award_penalty(0, code, chosen, previous=n)
                self.done.append(f"penalty at {sim.id}: seat 0 {code} {ev.points}")
        if sim.id == self.ids[0] and i == 2:
            self.t.substitute(1, sim.id, 1, self.SUBSTITUTE)
            deadline = time.monotonic() + 20
            while self.SUBSTITUTE not in (sim.link.context().get("players") or []):
                if time.monotonic() > deadline:
                    raise RuntimeError(f"{sim.id}: the substitute did not reach the table")
                time.sleep(0.02)
            self.done.append(f"substitute at {sim.id}: seat 1 from hand 3")

    @staticmethod
    def _penalty_code(sim: SimTable) -> str:
        """The first catalogue penalty taken and given to nobody that costs points at once."""
        for k in sim.profile.penalty_catalogue:
            if k.payee == "nobody" and not k.dead_hand and (k.ladder or k.choices or k.bounds[1]):
                return k.code
        for k in sim.profile.penalty_catalogue:
            if k.payee == "nobody":
                return k.code
        raise RuntimeError(f"{sim.profile_name} has no penalty given to nobody")

    def session_ended(self, s: int) -> None:
        if s != 1:
            return
        table = self.ids[0]
        seated = self.t.seating()[1][table]
        a = self.t.appeal(1, seated[2], "the judge's ruling on a late claim", table=table)
        self.t.decide_appeal(a, False, "the ruling stands (000 §2.9.3)")
        self.done.append(f"appeal {a} by {seated[2]}: not upheld")
        found = self._first_contested(table)
        if found is None:
            self.done.append(f"appeal: no hand of {table} in session 1 where seats 0 and 1 scored differently")
            return
        hand, deltas = found
        a = self.t.appeal(1, seated[0], f"the win of {hand} was seat 1's, not seat 0's", table=table, hand=hand)
        self.t.decide_appeal(a, True, "upheld: seat 1 won, the result is reversed between seats 0 and 1")
        self.t.correct(table, hand, [deltas[1], deltas[0], *deltas[2:]], "appeal upheld", appeal=a)
        self.done.append(f"appeal {a} by {seated[0]}: upheld, {table} {hand} corrected")

    def _first_contested(self, table: str, timeout: float = 30.0) -> tuple[str, list[int]] | None:
        """The table's first hand of session 1 whose seats 0 and 1 scored differently, once the hall has every
        hand the table played in it."""
        import json

        sim = next(x for x in self.sims if x.id == table)
        played = sum(1 for ph in sim.played if ph.session == 1)
        deadline = time.monotonic() + timeout
        while True:
            rows = self.t.db.q("SELECT hand, deltas FROM results WHERE table_id=? AND session=1 ORDER BY t_table, hand",
                               (table,))
            if len(rows) >= played:
                break
            if time.monotonic() > deadline:
                raise RuntimeError(f"{table}: the hall has {len(rows)} of its {played} results of session 1")
            sim.link.notify()
            time.sleep(0.05)
        for hand, deltas in rows:
            d = [int(x) for x in json.loads(deltas)]
            if len(d) > 1 and d[0] != d[1]:
                return str(hand), d
        return None

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


def _seat_checks(hall: Hall, sims: list[SimTable], sessions: int, report: SimReport) -> None:
    """What the tables' seat checks found, and that the hall recorded each: every session's check at every
    table, the swapped seats as a mismatch, its release (the judge's override or a re-read as seated)."""
    import json

    from hall.web import seat_checks

    for sim in sims:
        report.seat_checks += sim.seat_log
    for s in range(1, sessions + 1):
        at_hall = seat_checks(hall.db, s)
        for sim in sims:
            want = "overridden" if sim.misseat.get(s, ((0, 0), ""))[1] == "override" else "ok"
            got = at_hall.get(sim.id, {}).get("status")
            if got != want:
                report.seat_problems.append(f"{sim.id} session {s}: the hall shows seat check {got!r}, not {want!r}")
            if sim.misseat.get(s):
                rows = hall.db.q("SELECT body FROM messages WHERE table_id=? AND kind='seat_check' AND hand=?",
                                 (sim.id, f"seatcheck-s{s}"))
                if not any(json.loads(b).get("status") == "mismatch" for (b,) in rows):
                    report.seat_problems.append(f"{sim.id} session {s}: the hall never saw the mismatch")


def _count(hall: Hall, sims: list[SimTable], report: SimReport) -> None:
    """Compare the tables' own records with the hall's database, result by result and player by player (the
    hands' points: the director's corrections applied, a replaced player's hands his seat's — 004 Rules 5.8)."""
    import json

    from hall.standings import by_position, credited, substituted

    assert hall.tournament is not None
    table_results: dict[tuple[str, str], tuple[int, ...]] = {}
    expected: dict[str, int] = {}
    held = substituted(hall.db)  # the hall credits a replaced player's hands to the seat his substitute took
    seating = hall.tournament.seating()
    corrected = {(t, h): [int(x) for x in json.loads(d)]
                 for t, h, d in hall.db.q("SELECT table_id, hand, deltas FROM corrections ORDER BY id")}
    for s in sims:
        for hand_id, res in s.store.results():
            deltas = res["deltas"]
            assert isinstance(deltas, list)  # (the store keeps a result as the table wrote it: deltas a list)
            table_results[(s.id, hand_id)] = tuple(as_int(d) for d in deltas)
        for ph in s.played:
            subs = held.get((ph.session, s.id), {})
            deltas = corrected.get((s.id, ph.hand_id), list(ph.deltas))
            for seat, p in by_position(list(ph.seats), len(deltas)).items():
                if p in subs:
                    p = seating[ph.session][s.id][subs[p]]
                expected[p] = expected.get(p, 0) + int(deltas[seat])
    hall_rows = hall.db.q("SELECT table_id, hand, deltas FROM results")
    seen: dict[tuple[str, str], int] = {}
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
    got: dict[str, int] = {}
    for ts in hall.tournament.standings().tables.values():
        index = ts.seat_of()
        for r in ts.hands:
            for p, d in credited(r, ts.players):
                if p in index:
                    holder = ts.players[index[p]]
                    got[holder] = got.get(holder, 0) + d
    report.mismatched = sorted(p for p in set(expected) | set(got) if expected.get(p, 0) != got.get(p, 0))


def format_ranking(report: SimReport) -> list[str]:
    lines = [f"{'rank':>4}  {'player':<8} {'name':<12} {'sessions':>8} {'points':>8} {'total':>9}  detail"]
    for r in report.ranking:
        detail = ", ".join(f"{k} {v:g}" for k, v in r.detail.items())
        lines.append(f"{r.rank:>4}  {r.player:<8} {report.names.get(r.player, ''):<12} {r.sessions:>8} "
                     f"{r.table_points:>8g} {r.total:>9}  {detail}")
    return lines
