"""The tournament: players and registration, seating per session, the session clock, substitutes, late
arrivals, penalties and the director's corrections — all kept in the hall database, all sent to the tables
as acknowledged commands through :class:`hall.service.HallService`.

The rules come from the profile: who may sit at a table of three (its wall for 3 players, 000 §3.1), the
warning before a session's end (000 §2.4.4: 15 minutes; 004 Reg 6.1.2: the 10-minute red zone), the
session's and the tournament's standings (:mod:`hall.standings`).
"""
from __future__ import annotations

import json
import random
import secrets
import time
from collections.abc import Callable
from functools import cached_property
from typing import TYPE_CHECKING, NotRequired, Protocol, TypedDict

from hall import regulations
from hall import seating as seating_mod
from hall.db import HallDB
from hall.messages import CommandBody
from hall.standings import Standings, compute
from hall.topics import check_id

if TYPE_CHECKING:
    from rules.game.protocols import RuleSet

BYE_TABLE = "bye"  # the incomplete table of one or two players that plays no game (000 §3.1.4)


class CommandSender(Protocol):
    """What the tournament needs of the hall's MQTT service (:class:`hall.service.HallService`)."""

    def send_command(self, table: str, kind: str, body: CommandBody | None = None) -> str: ...


class SessionClock(TypedDict):
    """The session being played or last played (:meth:`Tournament.current_session`); the dashboard adds what
    is left of it."""

    session: int
    status: str  # "running" or "ended"
    started: float
    ends_at: float
    warning_at: float
    warned: bool
    ended: float | None
    seconds_left: NotRequired[float]
    warning_minutes: NotRequired[int]


class TournamentError(ValueError):
    """A director's request that cannot be done (unknown player, session not running, ...): one line."""


class Tournament:
    def __init__(self, db: HallDB, service: CommandSender | None = None, *, profile: str | None = None,
                 name: str | None = None, tables: list[str] | None = None, seed: int = 0,
                 sessions: int | None = None, clock: Callable[[], float] = time.time):
        self.db = db
        self.service = service  # hall.service.HallService (None: no tables connected, e.g. reports offline)
        self.clock = clock
        if profile is not None and db.get_meta("profile") is None:
            db.set_meta("profile", profile)
        if name is not None:
            db.set_meta("name", name)
        if tables:
            db.set_meta("tables", list(tables))
        if sessions:
            db.set_meta("sessions", sessions)  # the seating draws look ahead over the sessions planned
        if db.get_meta("seed") is None:
            db.set_meta("seed", seed or secrets.randbits(48))
        self._cache: tuple[int, Standings] | None = None
        self.unmet: dict[int, list[str]] = {}  # what each session's draw could not honour (hall/seating.py)

    @cached_property
    def profile(self) -> RuleSet:
        from rules.profiles import registry

        return registry.get(self.profile_name)

    @property
    def profile_name(self) -> str:
        return self.db.meta_text("profile", "sichuan-mpl2025")

    @property
    def name(self) -> str:
        return self.db.meta_text("name", "Tournament")

    # --- players ----------------------------------------------------------------------------------------
    def register(self, player: str, name: str = "", substitute: bool = False, *, region: str = "",
                 team: str = "") -> None:
        """A player (or a substitute), with his region (the draw keeps one region apart, 000 line 184) and
        team (team standings, 000 line 188)."""
        check_id("player", player)
        with self.db.tx() as db:
            db.execute("INSERT INTO players (id, name, substitute, registered) VALUES (?,?,?,?) ON CONFLICT(id) "
                       "DO UPDATE SET name=excluded.name, substitute=excluded.substitute, active=1",
                       (player, name or player, int(substitute), self.clock()))
        for key, value in (("regions", region), ("teams", team)):
            if value or player in self.db.meta_map(key):
                self.db.set_meta(key, {**self.db.meta_map(key), player: value})

    def regions(self) -> dict[str, str]:
        return {p: r for p, r in self.db.meta_map("regions").items() if r}

    def teams(self) -> dict[str, str]:
        return {p: r for p, r in self.db.meta_map("teams").items() if r}

    def withdraw(self, player: str) -> None:
        self._player(player)
        with self.db.tx() as db:
            db.execute("UPDATE players SET active=0 WHERE id=?", (player,))

    def players(self, substitutes: bool = False) -> list[str]:
        """The players still in the tournament (a removal or a disqualification, the director's or a table judge's,
        bars a player from the next draws: 000 line 463, 004 line 546)."""
        barred = {s.player for s in regulations.sanctions(self.db) if s.kind in ("removal", "disqualification")}
        return [r[0] for r in self.db.q("SELECT id FROM players WHERE active=1 AND substitute=? ORDER BY registered, id",
                                        (int(substitutes),)) if r[0] not in barred]

    def player_names(self) -> dict[str, str]:
        return dict(self.db.q("SELECT id, name FROM players"))

    def _player(self, player: str) -> None:
        if not self.db.q("SELECT 1 FROM players WHERE id=?", (player,)):
            raise TournamentError(f"no player {player!r} is registered")

    # --- seating ----------------------------------------------------------------------------------------
    def allows_three(self) -> bool:
        try:
            self.profile.wall_spec(3)
        except ValueError:
            return False
        return True

    @property
    def table_rules(self) -> seating_mod.TableRules:
        """The tables this rule set plays (Siamese 3 or 2, Red 2-4, Sichuan's incomplete tables)."""
        return seating_mod.TableRules.of(self.profile)

    def is_bye(self, players: list[str]) -> bool:
        """A table of one or two that plays no game (000 §3.1.4)."""
        return len(players) not in self.table_rules.sizes

    def tables_available(self, n: int) -> list[str]:
        ids = self.db.meta_list("tables")
        if not ids:
            return [f"table-{i + 1}" for i in range(n)]
        if len(ids) < n:
            raise TournamentError(f"{n} tables needed, the hall has {len(ids)}")
        return ids[:n]

    def seat(self, session: int, tables: dict[str, list[str]] | None = None) -> dict[str, list[str]]:
        """The seating of ``session``: ``tables`` given (fixed seating), else drawn — avoiding repeated
        opponents, seat winds drawn at each table."""
        if self.session_status(session) in ("running", "ended"):
            raise TournamentError(f"session {session} has started: seat a substitute instead")
        rules = self.table_rules
        if tables is None:
            history = [list(t.values()) for s, t in self.seating().items() if s < session]
            rng = random.Random(f"{self.db.get_meta('seed')}/{session}")
            ahead = max(1, self.db.meta_int("sessions", 1) - session + 1)  # the sessions still to draw
            regions = self.regions()
            try:
                sizes = seating_mod.plan_sizes(len(self.players()), rules)
                if not regions and all(n == 4 for n in sizes):  # tables of four only: the look-ahead draw
                    drawn = seating_mod.draw(self.players(), history, rng=rng, allow_three=False, sessions=ahead)
                    unmet = seating_mod.unmet_of(drawn, history, rules)
                    bye: list[str] = []
                else:  # regions, incomplete tables, other table sizes: the full draw (hall/seating.py)
                    ranking = [x.player for x in self.standings().ranking]
                    d = seating_mod.draw_report(self.players(), history, rng=rng, rules=rules, regions=regions,
                                                ranking=ranking)
                    drawn, unmet, bye = d.tables, d.unmet, d.bye
            except seating_mod.SeatingError as exc:
                raise TournamentError(str(exc)) from None
            real = [t for t in drawn if t is not bye]
            tables = dict(zip(self.tables_available(len(real)), real, strict=True))
            if bye:
                tables[BYE_TABLE] = bye
            self.unmet[session] = unmet
            if unmet:
                self.db.audit("draw", "seating_unmet", {"session": session, "unmet": unmet})
        else:
            for t, ps in tables.items():
                check_id("table", t)
                for p in ps:
                    self._player(p)
                if not (len(ps) in rules.sizes or rules.bye and 1 <= len(ps) <= 2):
                    raise TournamentError(f"table {t}: {len(ps)} players is not a table for {self.profile_name}")
        with self.db.tx() as db:
            db.execute("DELETE FROM seating WHERE session=?", (session,))
            for t, ps in tables.items():
                db.executemany("INSERT INTO seating VALUES (?,?,?,?)", [(session, t, i, p) for i, p in enumerate(ps)])
            db.execute("INSERT OR IGNORE INTO sessions (n, status) VALUES (?, 'planned')", (session,))
        if self.service is not None:  # the tables show where their next players sit
            for t, ps in tables.items():
                if not self.is_bye(ps):
                    self.service.send_command(t, "seating", {"session": session, "players": ps})
        return tables

    def seating(self) -> dict[int, dict[str, list[str]]]:
        from hall.standings import seating

        return seating(self.db)

    def substitute(self, session: int, table: str, seat: int, player: str, who: str = "director") -> None:
        """A substitute (or another player) takes ``seat`` at ``table`` from now on in ``session``."""
        self._player(player)
        rows = self.db.q("SELECT player FROM seating WHERE session=? AND table_id=? AND seat=?", (session, table, seat))
        if not rows:
            raise TournamentError(f"session {session} has no seat {seat} at {table}")
        with self.db.tx() as db:
            db.execute("UPDATE seating SET player=? WHERE session=? AND table_id=? AND seat=?",
                       (player, session, table, seat))
        self.db.audit(who, "substitute", {"session": session, "table": table, "seat": seat, "out": rows[0][0],
                                          "in": player})
        if self.service is not None and self.session_status(session) == "running":
            ps = self.seating()[session][table]
            self.service.send_command(table, "seating", {"session": session, "players": ps, "now": True})

    # --- the session clock ------------------------------------------------------------------------------
    def session_status(self, session: int) -> str | None:
        rows = self.db.q("SELECT status FROM sessions WHERE n=?", (session,))
        return str(rows[0][0]) if rows else None

    def current_session(self) -> SessionClock | None:
        rows = self.db.q("SELECT n, status, started, ends_at, warning_at, warned, ended FROM sessions "
                         "WHERE status IN ('running', 'ended') ORDER BY n DESC LIMIT 1")
        if not rows:
            return None
        n, status, started, ends_at, warning_at, warned, ended = rows[0]
        return {"session": n, "status": status, "started": started, "ends_at": ends_at, "warning_at": warning_at,
                "warned": bool(warned), "ended": ended}

    def start_session(self, session: int, minutes: float | None = None, warning_minutes: float | None = None,
                      who: str = "director") -> dict[str, list[str]]:
        """Start ``session`` at every seated table: the clock runs, each table gets its players."""
        tables = self.seating().get(session)
        if not tables:
            raise TournamentError(f"session {session} has no seating: draw it first")
        if self.session_status(session) == "running":
            raise TournamentError(f"session {session} is already running")
        running = self.db.q("SELECT n FROM sessions WHERE status='running'")
        if running:
            raise TournamentError(f"session {running[0][0]} is still running: end it first")
        now = self.clock()
        minutes = minutes or self.profile.session_minutes
        warning = warning_minutes if warning_minutes is not None else self.profile.session_warning_min
        ends_at = now + minutes * 60
        with self.db.tx() as db:
            db.execute("UPDATE sessions SET status='running', started=?, ends_at=?, warning_at=?, warned=0, "
                       "ended=NULL WHERE n=?", (now, ends_at, ends_at - warning * 60, session))
        self.db.audit(who, "session_start", {"session": session, "minutes": minutes})
        if self.service is not None:
            for t, ps in tables.items():
                if self.is_bye(ps):
                    continue  # a table of one or two plays no game (000 §3.1.4)
                self.service.send_command(t, "session_start", {
                    "session": session, "players": ps, "starts_at": now, "ends_at": ends_at,
                    "warning_at": ends_at - warning * 60,
                    "text_en": f"Session {session} started", "text_ru": f"Сессия {session} началась"})
        return tables

    def warn(self, session: int) -> None:
        cur = self.current_session()
        if cur is None or cur["session"] != session or cur["status"] != "running":
            raise TournamentError(f"session {session} is not running")
        with self.db.tx() as db:
            db.execute("UPDATE sessions SET warned=1 WHERE n=?", (session,))
        minutes = max(0, round((cur["ends_at"] - self.clock()) / 60))
        self._to_tables(session, "warning", {"minutes_left": minutes,
                                              "text_en": f"{minutes} minutes left in the session",
                                              "text_ru": f"До конца сессии {minutes} мин."})

    def end_session(self, session: int, who: str = "director") -> None:
        """The gong: every table finishes the hand in play and starts no new one."""
        if self.session_status(session) != "running":
            raise TournamentError(f"session {session} is not running")
        with self.db.tx() as db:
            db.execute("UPDATE sessions SET status='ended', ended=? WHERE n=?", (self.clock(), session))
        self.db.audit(who, "session_end", {"session": session})
        self._to_tables(session, "session_end", {"text_en": "The session is over: finish the hand in play",
                                                 "text_ru": "Сессия окончена: доиграйте текущую сдачу"})

    def _to_tables(self, session: int, kind: str, body: CommandBody) -> None:
        if self.service is None:
            return
        for t, ps in self.seating().get(session, {}).items():
            if not self.is_bye(ps):
                self.service.send_command(t, kind, {"session": session, **body})

    def tick(self) -> None:
        """The clock (about once a second): the warning and the end when their time has come."""
        cur = self.current_session()
        if cur is None or cur["status"] != "running":
            return
        now = self.clock()
        if not cur["warned"] and cur["warning_at"] is not None and now >= cur["warning_at"]:
            self.warn(cur["session"])
        if now >= cur["ends_at"]:
            self.end_session(cur["session"], who="clock")

    # --- penalties, lateness, corrections ---------------------------------------------------------------
    def penalty(self, session: int, player: str, amount: int, reason: str, who: str = "director") -> None:
        """Points taken from ``player`` in ``session`` (000 §2.8.2: given to nobody)."""
        self._player(player)
        if not isinstance(amount, int) or amount == 0:
            raise TournamentError("a penalty is a non-zero whole number of points")
        with self.db.tx() as db:
            db.execute("INSERT INTO penalties (session, player, amount, reason, created) VALUES (?,?,?,?,?)",
                       (session, player, amount, reason, self.clock()))
        self.db.audit(who, "penalty", {"session": session, "player": player, "amount": amount, "reason": reason})

    def late(self, session: int, player: str, minutes: float, who: str = "director") -> None:
        """A late arrival: the profile's lateness rule applies (000 §2.8.4.5, 004 Rules 5.7)."""
        self._player(player)
        if minutes < 0:
            raise TournamentError("minutes late must be ≥ 0")
        with self.db.tx() as db:
            db.execute("INSERT OR REPLACE INTO late VALUES (?,?,?)", (session, player, float(minutes)))
        self.db.audit(who, "late", {"session": session, "player": player, "minutes": minutes})

    def correct(self, table: str, hand: str, deltas: list[int], reason: str, who: str = "director", *,
                appeal: int | None = None, override: bool = False) -> None:
        """The director corrects a hand's result (the table's record is kept; the correction wins). A result
        every seat confirmed is final (000 line 269): only an upheld ``appeal`` about it or the head judge's
        ``override`` changes it."""
        rows = self.db.q("SELECT deltas FROM results WHERE table_id=? AND hand=?", (table, hand))
        if not rows:
            raise TournamentError(f"no result {hand!r} from {table}")
        if regulations.result_locked(self.db, table, hand):
            if appeal is not None and not regulations.upheld_appeal(self.db, appeal, table, hand):
                raise TournamentError(f"appeal {appeal} was not upheld for {table} {hand}")
            if appeal is None and not override:
                raise TournamentError(f"{table} {hand}: every seat confirmed this result (000 §2.4.9.4): it changes "
                                      "only by an upheld appeal or the head judge's override")
        if len(deltas) != len(json.loads(rows[0][0])) or not all(isinstance(d, int) for d in deltas):
            raise TournamentError(f"the correction needs {len(json.loads(rows[0][0]))} whole numbers, one per seat")
        with self.db.tx() as db:
            db.execute("INSERT INTO corrections (table_id, hand, deltas, reason, created) VALUES (?,?,?,?,?)",
                       (table, hand, json.dumps(deltas), reason, self.clock()))
        self.db.audit(who, "correct", {"table": table, "hand": hand, "deltas": deltas, "reason": reason,
                                       "appeal": appeal, "override": override})

    # --- sanctions and appeals (hall/regulations.py) ------------------------------------------------------
    def sanction(self, player: str, kind: str, reason: str, who: str = "director", *, session: int | None = None,
                 points: float = 0) -> None:
        """A sanction beyond points, audited with who, when and why: ``table_points`` (``points`` TP taken in
        ``session``), ``removal``, ``disqualification``, ``annulment`` (of ``session``, or all), ``dead_hand``."""
        self._player(player)
        if kind not in regulations.SANCTIONS:
            raise TournamentError(f"no sanction {kind!r}: one of {', '.join(regulations.SANCTIONS)}")
        if not reason.strip():
            raise TournamentError("a sanction needs its reason")
        if kind == "table_points" and (session is None or not points or points < 0):
            raise TournamentError("a table-point penalty needs the session and the points (> 0)")
        self.db.audit(who, "sanction", {"kind": kind, "player": player, "session": session, "points": points,
                                        "reason": reason, "at": self.clock()})
        if kind in ("removal", "disqualification"):  # seated no more (000 line 463, 004 line 546)
            with self.db.tx() as db:
                db.execute("UPDATE players SET active=0 WHERE id=?", (player,))

    def appeal(self, session: int, player: str, text: str, who: str = "director", *, table: str | None = None,
               hand: str | None = None) -> int:
        """Record a player's written appeal (000 §2.9.2, line 485): refused once the seed's time after the
        session's end has passed. Returns its number."""
        self._player(player)
        if not text.strip():
            raise TournamentError("an appeal is made in writing: its text is needed")
        rows = self.db.q("SELECT status, ended FROM sessions WHERE n=?", (session,))
        if not rows or rows[0][0] not in ("running", "ended"):
            raise TournamentError(f"session {session} has not been played")
        limit = self.profile.appeal_minutes  # the rule set's (000 line 485; the others: 000's, by the head judge)
        now = self.clock()
        if rows[0][1] is not None and now > rows[0][1] + limit * 60:
            late = (now - rows[0][1]) / 60
            raise TournamentError(f"the appeal comes {late:.0f} minutes after session {session} ended: "
                                  f"appeals are received within {limit} minutes (000 §2.9.2)")
        self.db.audit(who, "appeal", {"session": session, "player": player, "text": text, "table": table,
                                      "hand": hand, "at": now})
        return int(self.db.q("SELECT MAX(id) FROM audit WHERE action='appeal'")[0][0])

    def decide_appeal(self, appeal: int, upheld: bool, decision: str, who: str = "head judge") -> None:
        """The head judge's (or the arbitration committee's) decision on an appeal (000 §2.9.3-2.9.5)."""
        found = [a for a in regulations.appeals(self.db) if a["id"] == appeal]
        if not found:
            raise TournamentError(f"no appeal {appeal}")
        if found[0]["decision"] is not None:
            raise TournamentError(f"appeal {appeal} is already decided")
        if not decision.strip():
            raise TournamentError("the decision needs its text")
        self.db.audit(who, "appeal_decision", {"appeal": appeal, "upheld": bool(upheld), "decision": decision,
                                               "at": self.clock()})

    # --- standings ----------------------------------------------------------------------------------------
    def standings(self) -> Standings:
        if self._cache is None or self._cache[0] != self.db.changes:
            changes = self.db.changes
            self._cache = (changes, compute(self.db, self.profile))
        return self._cache[1]
