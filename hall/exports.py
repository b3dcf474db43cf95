"""Results for the systems organisers already use (``mahjong-table hall export``), and the zero-sum proof.

- **EMA** (MERS): ``Position,EMA Number,Last Name,First Name,Nationality,Points,Score`` — one line per ranked
  player, in the order of the profile's own tournament ranking (``profile.tournament_standings``: each rule
  set ranks by its seed). Points are the ranking's table points (Sichuan/MCR: table points; riichi: the sum
  of EMA uma), Score its total (game points: Sichuan GP, riichi final − 30 000 − deductions, Reg 6.3).
- **mahjong-portal**: its upload CSV ``place,name,scores,games,ema`` (``scores`` the total as in the EMA table,
  ``games`` the sessions played), or with ``portal_names="first_last"`` (the portal's EMA mode)
  ``place,first_name,last_name,scores,games,ema``.
- **penalties**: per session, every penalty the hall recorded (the director's, kind ``penalty``), every penalty
  given at a table's console (kind: its catalogue code — a judge's chombo that had the hand dealt again, 004
  line 278, among them: the hand's own result pays nothing, the penalty is the payment), and every
  chombo/violation the referee recorded in a hand's result, then one line per table with the sum of its players' scores — which must be
  0 (the riichi sticks left on the table counted with the first place, 004 Rules 3.6; penalties are taken
  out of play, 000 §2.8.2, and are not part of a table's sum).

``session`` limits the EMA and portal tables to the standings after sessions 1..N, the penalties list to
session N. Substitutes play but are not ranked (as on the dashboard).
"""
from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from typing import TYPE_CHECKING

from hall.db import HallDB
from hall.judge_stream import penalty_taken
from hall.registrations import PlayerInfo, player_info
from hall.standings import Standings, TableSession, by_position, compute, hand_chairs, rank
from rules.game.profile_api import Standing, TournamentStanding

if TYPE_CHECKING:
    from rules.game.protocols import RuleSet

EMA_COLUMNS = ("Position", "EMA Number", "Last Name", "First Name", "Nationality", "Points", "Score")
PORTAL_COLUMNS = ("place", "name", "scores", "games", "ema")
PORTAL_EMA_COLUMNS = ("place", "first_name", "last_name", "scores", "games", "ema")
PENALTY_COLUMNS = ("session", "table", "kind", "player", "name", "amount", "reason", "hand")


def _num(x: float) -> str:
    return f"{x:g}" if isinstance(x, float) else str(x)


def ranking(db: HallDB, profile: RuleSet, session: int | None = None,
            standings: Standings | None = None) -> list[TournamentStanding]:
    """The tournament ranking by the profile's hook — over every session, or sessions 1..``session``."""
    st = standings or compute(db, profile)
    if session is None:
        return st.ranking
    records: dict[str, list[Standing]] = {}
    played_in: dict[str, list[int]] = {}
    for (s, _t), ts in sorted(st.tables.items()):
        if s <= session:
            for x in ts.standings:
                records.setdefault(x.player, []).append(x)
                played_in.setdefault(x.player, []).append(s)
    return rank(db, profile, records, played_in, upto=session)[0]  # the sanctions of those sessions too


def _split_name(p: PlayerInfo | None, pid: str) -> tuple[str, str]:
    """(last, first): the registered ones, else the name split at its last space."""
    if p is None:
        return pid, ""
    if p.last_name or p.first_name:
        return p.last_name or "", p.first_name or ""
    first, _, last = p.name.rpartition(" ")
    return (last, first) if first else (p.name, "")


def ema_table(db: HallDB, profile: RuleSet, session: int | None = None) -> str:
    info = player_info(db)
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(EMA_COLUMNS)
    for r in ranking(db, profile, session):
        p = info.get(r.player)
        last, first = _split_name(p, r.player)
        w.writerow([r.rank, (p.ema if p else None) or "", last, first, (p.country if p else None) or "",
                    _num(r.table_points), _num(r.total)])
    return out.getvalue()


def portal_csv(db: HallDB, profile: RuleSet, session: int | None = None, names: str = "full") -> str:
    """mahjong-portal's upload CSV; ``names="first_last"``: its EMA mode, first and last name apart."""
    info = player_info(db)
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(PORTAL_EMA_COLUMNS if names == "first_last" else PORTAL_COLUMNS)
    for r in ranking(db, profile, session):
        p = info.get(r.player)
        ema = (p.ema if p else None) or ""
        if names == "first_last":
            last, first = _split_name(p, r.player)
            w.writerow([r.rank, first, last, _num(r.total), r.sessions, ema])
        else:
            w.writerow([r.rank, p.name if p else r.player, _num(r.total), r.sessions, ema])
    return out.getvalue()


# --- penalties and the zero-sum proof ------------------------------------------------------------------
@dataclass(frozen=True)
class PenaltyLine:
    session: int
    table: str
    kind: str  # "penalty" (the director's, hall table ``penalties``) or the referee's violation code
    player: str
    amount: int
    reason: str
    hand: str = ""


@dataclass(frozen=True)
class TableSum:
    session: int
    table: str
    hands: int
    total: int  # the players' scores at the end minus the start scores; 0 when the table is consistent

    @property
    def ok(self) -> bool:
        return self.total == 0

    def line(self) -> str:
        return (f"session {self.session} {self.table}: the scores sum to {self.total:+d}, not 0 "
                f"({self.hands} hand(s))")


def recorded_penalties(db: HallDB, session: int | None = None) -> list[tuple[int, str, int, str]]:
    """The penalties the hall records: ``(session, player, amount, reason)`` in the order given."""
    return db.q("SELECT session, player, amount, reason FROM penalties" + (" WHERE session=?" if session else "")
                + " ORDER BY session, id", (session,) if session else ())


def penalties(db: HallDB, profile: RuleSet, session: int | None = None,
              standings: Standings | None = None) -> tuple[list[PenaltyLine], list[TableSum]]:
    st = standings or compute(db, profile)
    where: dict[tuple[int, str], str] = {}
    for (s, t), ts in st.tables.items():
        for p in ts.players:
            where[(s, p)] = t
    lines = [PenaltyLine(s, where.get((s, p), ""), "penalty", p, amount, reason)
             for s, p, amount, reason in recorded_penalties(db, session)]
    sums = []
    for (s, t), ts in sorted(st.tables.items()):
        if session is not None and s != session:
            continue
        lines += _console_lines(ts)
        if not ts.hands:
            continue
        for h in ts.hands:
            result = h["body"].get("result", {})
            at = by_position(hand_chairs(h, ts.players), max(len(h["deltas"]), 1))
            for v in result.get("violations") or []:
                found = v.get("seat", -1)
                seat = -1 if found is None else int(found)  # None: a verdict about nobody (a refused correction)
                if seat in at:
                    delta = h["deltas"][seat] if seat < len(h["deltas"]) else 0
                    lines.append(PenaltyLine(s, t, str(v.get("code", "violation")), at[seat], -int(delta),
                                             str(v.get("rule", "")), h["hand"]))
        # the hands' own deltas (corrections applied), whoever sat in each seat, and the sticks left; a console
        # penalty paid to players moves points between them (its payer pays what they receive: no change to
        # the sum), one taken and given to nobody is out of play (000 §2.8.2) — neither is part of the sum
        sums.append(TableSum(s, t, len(ts.hands), sum(int(d) for h in ts.hands for d in h["deltas"]) + ts.leftover))
    lines.sort(key=lambda x: (x.session, x.table, x.hand, x.player))
    return lines, sums


def _console_lines(ts: TableSession) -> list[PenaltyLine]:
    """The penalties given at the table's console (its judge stream, through the outbox): the kind's code (a
    replayed hand's chombo, 004 line 278, is one), the player by chair of that moment, what it cost him (the
    points taken, or what the others received), the seed's rule and the judge, the hand it was given in."""
    out = []
    for pen in ts.table_penalties:
        ev = pen["event"]
        chairs = [str(p) for p in pen.get("seats") or pen.get("players") or ts.players]
        seat = int(ev.get("seat", -1))
        if 0 <= seat < len(chairs):
            why = "; ".join(x for x in (str(ev.get("rule") or ""), str(ev.get("judge") or "")) if x)
            out.append(PenaltyLine(ts.session, ts.table, str(ev.get("code") or "penalty"), chairs[seat],
                                   penalty_taken(ev, len(chairs)), why or str(ev.get("reason", "")),
                                   str(ev.get("hand_id") or "")))
    return out


def penalties_csv(db: HallDB, profile: RuleSet, session: int | None = None) -> tuple[str, list[TableSum]]:
    """The penalties list with one ``table`` line per table (its sum, ``amount``, must be 0)."""
    lines, sums = penalties(db, profile, session)
    names = {p: i.name for p, i in player_info(db).items()}
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(PENALTY_COLUMNS)
    for x in lines:
        w.writerow([x.session, x.table, x.kind, x.player, names.get(x.player, x.player), x.amount, x.reason, x.hand])
    for t in sums:
        w.writerow([t.session, t.table, "table", "", "", t.total,
                    f"the scores sum to 0 over {t.hands} hand(s)" if t.ok else t.line(), ""])
    return out.getvalue(), sums


def read_csv(text: str) -> list[dict[str, str]]:
    """An export read back (the round-trip tests, and a director checking a file)."""
    return list(csv.DictReader(io.StringIO(text)))
