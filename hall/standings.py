"""Standings from the hall database, computed by the profile's own hooks (never re-implemented here).

For each session and table: the players' totals are the profile's start score plus the hands' deltas
(a director's correction replaces a hand's deltas), credited to the player who sat in each seat for that
hand (:func:`by_position`: a table of two plays at seats 0 and 2, ``rules.wall.SEATS``) and the console's
penalties (:mod:`hall.judge_stream`); then ``profile.session_standings`` (penalties, lateness, points left on the table) ranks the table,
and ``profile.tournament_standings`` ranks the players over the sessions. Substitutes play and are ranked
at their table, but do not appear in the tournament ranking.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from hall import regulations
from hall.db import HallDB, HallResult
from hall.judge_stream import JudgeMessage, judge_messages, penalty_paid, table_penalties
from hall.messages import JudgeBody
from hall.seating import TableRules
from rules.game.profile_api import Standing, TournamentStanding
from rules.wall import SEATS

if TYPE_CHECKING:
    from rules.game.protocols import RuleSet

__all__ = ["Standings", "TableSession", "TeamStanding", "by_position", "compute", "credited", "hand_chairs",
           "penalty_paid", "rank", "seating", "substituted", "team_standings"]


@dataclass
class TableSession:
    session: int
    table: str
    players: list[str]  # by seat, as seated
    hands: list[HallResult] = field(default_factory=list)  # results, in order
    totals: dict[int, int] = field(default_factory=dict)  # by seat index
    penalties: dict[int, int] = field(default_factory=dict)
    late: dict[int, float] = field(default_factory=dict)
    leftover: int = 0
    standings: list[Standing] = field(default_factory=list)
    table_penalties: list[JudgeBody] = field(default_factory=list)  # given at the table's console
    replaced: dict[str, int] = field(default_factory=dict)  # a player a substitute replaced -> the seat (5.8)

    def seat_of(self) -> dict[str, int]:
        """The seat of each player who sat at this table this session: the seated, and those they replaced."""
        return {**self.replaced, **{p: i for i, p in enumerate(self.players)}}


@dataclass
class Standings:
    tables: dict[tuple[int, str], TableSession]
    ranking: list[TournamentStanding]
    records: dict[str, list[Standing]]
    disqualified: list[str] = field(default_factory=list)  # out of the ranking (hall/regulations.py)
    teams: list[TeamStanding] = field(default_factory=list)  # team standings (000 line 188), when teams are set


@dataclass(frozen=True)
class TeamStanding:
    rank: int
    team: str
    members: tuple[str, ...]
    table_points: float
    total: int


def team_standings(ranking: list[TournamentStanding], teams: dict[str, str]) -> list[TeamStanding]:
    """000 line 188 (§2.4.3: «индивидуальный, командный или групповой» зачёт): a team's (or group's) line is the
    sum of its ranked members' table points, then of their points [Interp: the seed names team results without
    a rule; the individual ranking's own keys, summed]; equal teams share the rank."""
    members: dict[str, list[str]] = {}
    points: dict[str, float] = {}
    totals: dict[str, int] = {}
    for r in ranking:
        team = teams.get(r.player)
        if team:
            members.setdefault(team, []).append(r.player)
            points[team] = points.get(team, 0.0) + r.table_points
            totals[team] = totals.get(team, 0) + r.total
    order = sorted(members, key=lambda k: (-points[k], -totals[k], k))
    out: list[TeamStanding] = []
    for i, k in enumerate(order):
        tied = out and (out[-1].table_points, out[-1].total) == (points[k], totals[k])
        out.append(TeamStanding(out[-1].rank if tied else i + 1, k, tuple(members[k]), points[k], totals[k]))
    return out


def seating(db: HallDB, session: int | None = None) -> dict[int, dict[str, list[str]]]:
    """``{session: {table: players by seat}}``."""
    rows = db.q("SELECT session, table_id, seat, player FROM seating" + (" WHERE session=?" if session else "")
                + " ORDER BY session, table_id, seat", (session,) if session else ())
    out: dict[int, dict[str, list[str]]] = {}
    for s, t, _seat, p in rows:
        out.setdefault(s, {}).setdefault(t, []).append(p)
    return out


def substituted(db: HallDB) -> dict[tuple[int, str], dict[str, int]]:
    """``{(session, table): {player: seat}}`` for the players a substitute replaced (the director's
    ``substitute``, recorded in the audit log): the hands they played before count for their seat."""
    out: dict[tuple[int, str], dict[str, int]] = {}
    for (detail,) in db.q("SELECT detail FROM audit WHERE action='substitute' ORDER BY id"):
        d = json.loads(detail)
        out.setdefault((int(d["session"]), str(d["table"])), {})[str(d["out"])] = int(d["seat"])
    return out


def by_position(chairs: list[str], positions: int) -> dict[int, str]:
    """Who sat at each position of a result's ``deltas`` (``positions`` long): the players by chair sit at the
    seats the rule set's wall gives that many players (``rules.wall.SEATS``: three leave North empty, two sit
    East and West — a two-player table's deltas are at seats 0 and 2, docs/notation.md "Seats"); results with
    one delta per player (no empty seat in them) are by chair."""
    seats = SEATS.get(len(chairs), tuple(range(len(chairs))))
    if positions <= max(seats, default=-1):
        seats = tuple(range(len(chairs)))
    return {seat: chairs[i] for i, seat in enumerate(seats) if i < len(chairs)}


def hand_chairs(r: HallResult, players: list[str]) -> list[str]:
    """Who sat in which chair in a hall result ``r``: the result's own (simulated tables), the chairs the table's
    link recorded as the hand started (MCR: they change each round, 003 line 2168), else as seated."""
    chairs = (r["body"].get("result") or {}).get("seats") or r["body"].get("seats") or r["players"] or players
    return [str(p) for p in chairs]


def credited(r: HallResult, players: list[str]) -> list[tuple[str, int]]:
    """``(player, delta)`` of every position of result ``r`` that a player held (see :func:`by_position`)."""
    at = by_position(hand_chairs(r, players), len(r["deltas"]))
    return [(at[seat], int(d)) for seat, d in enumerate(r["deltas"]) if seat in at]


def compute(db: HallDB, profile: RuleSet) -> Standings:
    tables = _table_sessions(db, profile)
    held = substituted(db)
    for r in db.results():
        session = r["session"]
        ts = tables.get((session, r["table"])) if session is not None else None
        if ts is None or r["status"] != "played":
            continue  # a hand outside any seated session (a test hand before the start) does not count
        # the seat's points stay the seat's: a substitute brought in mid-session goes on with them, and the
        # hands its first holder played before the substitution count for it (004 Rules 5.8)
        ts.replaced = held.get((ts.session, ts.table), {})
        index = ts.seat_of()
        for player, delta in credited(r, ts.players):
            if player in index:
                ts.totals[index[player]] += delta
        ts.hands.append(r)
        # the sticks left on the table after the game's last hand (004 Rules 3.6): a real table's referee
        # sends them as ``next_options`` (controller/referee/core.py), the simulated tables as ``options_after``
        result = r["body"].get("result") or {}
        after = result.get("next_options") or result.get("options_after") or {}
        ts.leftover = int(after.get("deposits", 0))
    judged = judge_messages(db)  # the tables' judge streams, read once
    for table, pen in table_penalties(db, judged):
        found = tables.get((int(pen.get("session") or 0), table))
        if found is not None:  # (a penalty given outside any seated session counts nowhere)
            found.replaced = held.get((found.session, table), {})
            _credit_penalty(found, pen)
    started = {r[0] for r in db.q("SELECT n FROM sessions WHERE status IN ('running', 'ended')")}
    sizes = TableRules.of(profile).sizes
    records: dict[str, list[Standing]] = {}
    played_in: dict[str, list[int]] = {}  # the session of each record
    for key in sorted(tables):
        ts = tables[key]
        bye = len(ts.players) not in sizes and key[0] in started  # no game: a fixed result (000 §3.1.4)
        if not ts.hands and not bye:
            continue  # nothing played yet at this table this session
        names = dict(enumerate(ts.players))
        ts.standings = profile.session_standings(ts.totals, names, penalties=ts.penalties, late=ts.late,
                                                 leftover=ts.leftover)
        for st in ts.standings:
            records.setdefault(st.player, []).append(st)
            played_in.setdefault(st.player, []).append(ts.session)
    ranking, disqualified = rank(db, profile, records, played_in, judged=judged)
    teams = {p: t for p, t in db.meta_map("teams").items() if t}
    return Standings(tables, ranking, records, disqualified, team_standings(ranking, teams) if teams else [])


def _table_sessions(db: HallDB, profile: RuleSet) -> dict[tuple[int, str], TableSession]:
    """Every seated table of every session, its players' start scores, the director's penalties and lateness."""
    pen: dict[tuple[int, str], int] = {}
    for s, p, amount in db.q("SELECT session, player, SUM(amount) FROM penalties GROUP BY session, player"):
        pen[(s, p)] = amount
    late = {(s, p): m for s, p, m in db.q("SELECT session, player, minutes FROM late")}
    tables: dict[tuple[int, str], TableSession] = {}
    for s, by_table in seating(db).items():
        for t, players in by_table.items():
            ts = TableSession(s, t, players, totals={i: profile.start_score for i in range(len(players))})
            for i, p in enumerate(players):
                if pen.get((s, p)):
                    ts.penalties[i] = pen[(s, p)]
                if late.get((s, p)):
                    ts.late[i] = late[(s, p)]
            tables[(s, t)] = ts
    return tables


def _credit_penalty(ts: TableSession, pen: JudgeBody) -> None:
    """A penalty given at the table's console: paid to players, a transfer of game points like a hand's (003 line
    2152, 004 line 278); taken and given to nobody, a penalty of the session (000 line 422, 003 line 2130). Its
    seat is a chair of that moment (the judge's console numbers the players by chair)."""
    index = ts.seat_of()
    chairs = [str(p) for p in pen.get("seats") or pen.get("players") or ts.players]
    ev = pen["event"]
    seat = int(ev.get("seat", -1))
    if not 0 <= seat < len(chairs) or chairs[seat] not in index:
        return
    who = index[chairs[seat]]
    paid = penalty_paid(ev, len(chairs))
    if any(paid):
        ts.totals[who] -= sum(paid)
        for s, amount in enumerate(paid):
            if amount and s < len(chairs) and chairs[s] in index:
                ts.totals[index[chairs[s]]] += amount
    elif int(ev.get("points", 0)):
        ts.penalties[who] = ts.penalties.get(who, 0) + int(ev["points"])
    ts.table_penalties.append(pen)


def rank(db: HallDB, profile: RuleSet, records: dict[str, list[Standing]], sessions: dict[str, list[int]], *,
         judged: list[JudgeMessage] | None = None, upto: int | None = None,
         ) -> tuple[list[TournamentStanding], list[str]]:
    """The tournament ranking of these session ``records`` (each player's, with the session of each) by the
    profile's hook, after the sanctions — those of sessions 1..``upto`` when given (the ranking after session N:
    ``hall export --session N``); substitutes play and are not ranked. Also: who is disqualified."""
    subs = {r[0] for r in db.q("SELECT id FROM players WHERE substitute=1")}
    ranked, disqualified = _sanctioned(db, records, sessions, judged, upto)
    ranking: list[TournamentStanding] = profile.tournament_standings(
        {p: rs for p, rs in ranked.items() if p not in subs})
    return ranking, disqualified


def _sanctioned(db: HallDB, records: dict[str, list[Standing]], sessions: dict[str, list[int]],
                judged: list[JudgeMessage] | None = None, upto: int | None = None,
                ) -> tuple[dict[str, list[Standing]], list[str]]:
    """The records the tournament ranking uses after the sanctions (hall/regulations.py): a table-point penalty
    lowers that session's table points, an annulment drops the player's session (or all of them), a
    disqualification takes him out of the ranking; a removal changes nothing already played."""
    from dataclasses import replace

    out = {p: list(rs) for p, rs in records.items()}
    sessions = {p: list(ns) for p, ns in sessions.items()}
    disqualified: list[str] = []
    for s in regulations.sanctions(db, judged):
        rs = out.get(s.player)
        if rs is None or upto is not None and s.session is not None and s.session > upto:
            continue
        ns = sessions[s.player]
        if s.kind == "table_points":
            out[s.player] = [replace(r, table_points=r.table_points - s.points) if n == s.session else r
                             for r, n in zip(rs, ns, strict=False)]
        elif s.kind == "annulment":
            keep = [(r, n) for r, n in zip(rs, ns, strict=False) if s.session is not None and n != s.session]
            out[s.player], sessions[s.player] = [r for r, _ in keep], [n for _, n in keep]
        elif s.kind == "disqualification" and s.player not in disqualified:
            disqualified.append(s.player)
    return {p: rs for p, rs in out.items() if rs and p not in disqualified}, disqualified
