"""What the hall has for Pantheon, written into the Pantheon outbox: one game per table and session
(``StartGame`` with the seated players' Pantheon ids, e-s-w-n), one ``AddRound`` per refereed hand in the
order played, ``EndGame`` when the session has ended, the director's penalties (``AddPenalty``), and a
judge called at a table (``CallReferee``, from the table's status).

A hand is summarized from its game record, which the hall holds when the table sends every event
(``hall.events = "all"`` in the table's config): the latest revision of ``<hand>/game`` (``.r<N>`` after a
judge's correction). A hand whose record the hall lacks stops its game there (a round cannot be skipped in
Pantheon): it is reported, and the game goes on once the record arrives. Writing is idempotent (each item has
its key), so the feed runs again and again — after every result, or from ``hall pantheon send``.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from hall.db import HallDB, HallResult
from hall.pantheon.outbox import PantheonOutbox
from hall.pantheon.rounds import RoundError, summarize
from rules.events import Event
from rules.game.protocols import RuleSet

STREAM_RE = re.compile(r"^(?P<hand>.+)/game(?:\.r(?P<rev>\d+))?$")


@dataclass
class FeedReport:
    games: int = 0
    rounds: int = 0
    penalties: int = 0
    calls: int = 0
    problems: list[str] = field(default_factory=list)


def hand_record(db: HallDB, table: str, hand: str) -> list[Event]:
    """The hand's game record as the hall received it (its latest revision), in order."""
    by_rev: dict[int, list[tuple[int, Event]]] = {}
    for (body,) in db.q("SELECT body FROM messages WHERE table_id=? AND hand=? AND kind='event' ORDER BY seq",
                        (table, hand)):
        d = json.loads(body)
        m = STREAM_RE.match(str(d.get("stream", "")))
        if m is None or m.group("hand") != hand:
            continue
        by_rev.setdefault(int(m.group("rev") or 0), []).append((int(d.get("seq", 0)), Event.from_json(d["event"])))
    if not by_rev:
        return []
    return [e for _s, e in sorted(by_rev[max(by_rev)], key=lambda x: x[0])]


def feed(db: HallDB, outbox: PantheonOutbox, profile: RuleSet) -> FeedReport:
    """Write every game, round and penalty the hall has into the outbox (again: only what is new)."""
    rep = FeedReport()
    ids = {p: pid for p, pid in db.q("SELECT id, pantheon_id FROM players")}
    ended = {n for (n,) in db.q("SELECT n FROM sessions WHERE status='ended'")}
    seats: dict[tuple[int, str], list[str]] = {}
    for s, t, _seat, p in db.q("SELECT session, table_id, seat, player FROM seating ORDER BY session, table_id, seat"):
        seats.setdefault((s, t), []).append(p)
    results: dict[tuple[int, str], list[HallResult]] = {}
    for r in db.results():
        session = r["session"]
        if r["status"] == "played" and session is not None and (session, r["table"]) in seats:
            results.setdefault((session, r["table"]), []).append(r)
    for (s, t), hands in sorted(results.items()):
        players = seats[(s, t)]
        missing = [p for p in players if not ids.get(p)]
        game = f"{t}/s{s}"
        if len(players) != 4 or missing:
            rep.problems.append(f"{game}: no Pantheon id for {', '.join(missing) or 'a fourth player'} "
                                "(hall players import with a pantheon_id column)")
            continue
        rep.games += outbox.start_game(game, [int(ids[p]) for p in players])
        complete = True
        for r in hands:
            events = hand_record(db, t, r["hand"])
            try:
                summary = summarize(events, profile) if events else None
            except RoundError as exc:
                rep.problems.append(f"{game} {r['hand']}: {exc}")
                complete = False
                break
            if summary is None:
                rep.problems.append(f"{game} {r['hand']}: the hall has no record of the hand (set hall.events = "
                                    "\"all\" at the table): its game waits")
                complete = False
                break
            rep.rounds += outbox.add_round(game, r["hand"], summary)
        if complete and s in ended:
            outbox.end_game(game)
    # a judge called at a table (its status: the referee paused the hand) → CallReferee, once per hand; the
    # table's Pantheon index is its place among the tables of the latest seated session (1-based)
    latest = max((s for s, _t in seats), default=None)
    order = sorted(t for s, t in seats if s == latest)
    for table, status in db.q("SELECT id, status FROM tables"):
        st = json.loads(status or "{}")
        if st.get("judge_called") and st.get("hand_id") and table in order:
            rep.calls += outbox.call_referee(f"{table}/{st['hand_id']}", order.index(table) + 1)
    for pid_, s, player, amount, reason in db.q("SELECT id, session, player, amount, reason FROM penalties ORDER BY id"):
        if ids.get(player):
            rep.penalties += outbox.add_penalty(f"hall-{pid_}", int(ids[player]), int(amount),
                                                f"session {s}: {reason}")
        else:
            rep.problems.append(f"penalty {pid_} of {player}: no Pantheon id")
    return rep
