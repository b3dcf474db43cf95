"""Sanctions, appeals and locked results: the judges' decisions beyond points, each an audited event (who,
when, why) in the hall database's ``audit`` table, read back by :mod:`hall.standings` (which imports this
module; this one reads the tables' judge streams through :mod:`hall.judge_stream`, never the standings).

* **Sanctions** (000 §2.8.1 line 420, §2.8.5 line 460-463; 003 line 2159; 004 line 546): ``table_points``
  (a penalty in tournament points, 000 line 422 «штраф в турнирных очках»), ``removal`` (barred from the rest
  of the tournament: seated no more, his results stand), ``disqualification`` (barred and out of the ranking;
  004 line 546: cheating, at once), ``annulment`` (his results of a session, or of all, annulled: «аннулированием
  достигнутых результатов»), ``dead_hand`` (declared by the judge at the table: recorded here for the record).
* **Appeals** (000 §2.9.2 lines 485-497): in writing, within 30 minutes of the session's end — later ones are
  refused; the decision (the head judge's or the arbitration committee's) is recorded.
* **Locked results** (000 §2.4.9.4 line 269): a hand whose result every seat confirmed at the table
  (``confirmed_by == "seats"``) cannot be recomputed afterwards: the director's correction needs an upheld
  appeal about it or the head judge's override, both audited.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TypedDict

from hall.db import HallDB
from hall.judge_stream import JudgeMessage, judge_messages
from hall.messages import JudgeBody

SANCTIONS = ("table_points", "removal", "disqualification", "annulment", "dead_hand")


class RegulationError(ValueError):
    """A request the regulations refuse (one line)."""


@dataclass(frozen=True)
class Sanction:
    id: int
    at: float
    who: str
    kind: str
    player: str
    session: int | None
    points: float
    reason: str


class SanctionRecord(TypedDict, total=False):
    """A director's sanction as the audit log holds it (``hall/tournament.py``, ``sanction``)."""

    kind: str
    player: str
    session: int | None
    points: float
    reason: str
    at: float


class AppealRecord(TypedDict, total=False):
    """An appeal as the audit log holds it (``hall/tournament.py``, ``appeal``)."""

    session: int
    player: str
    text: str
    table: str | None
    hand: str | None
    at: float


class DecisionRecord(TypedDict, total=False):
    """The decision on an appeal as the audit log holds it (``decide_appeal``), with who recorded it."""

    appeal: int
    upheld: bool
    decision: str
    at: float
    who: str


class Appeal(AppealRecord, total=False):
    """An appeal with its number, who recorded it and its decision (None while pending)."""

    id: int
    who: str
    decision: DecisionRecord | None


def sanctions(db: HallDB, judged: list[JudgeMessage] | None = None) -> list[Sanction]:
    """The director's sanctions (the audit log) and the judges' at the tables' consoles (their outboxes: the
    seat named by the players by chair of that moment); ids of the tables' are negative."""
    out = []
    for rid, at, who, detail in db.q("SELECT id, at, who, detail FROM audit WHERE action='sanction' ORDER BY id"):
        d: SanctionRecord = json.loads(detail)
        out.append(Sanction(rid, at, who, d["kind"], d["player"], d.get("session"), float(d.get("points") or 0),
                            d.get("reason", "")))
    for rid, (table, body) in enumerate(judge_messages(db) if judged is None else judged, start=1):
        b: JudgeBody = json.loads(body)
        ev = b.get("event") or {}
        if ev.get("type") != "judge_action" or ev.get("action") != "sanction":
            continue
        sd = ev.get("detail") or {}
        by_seat = b.get("seats") or b.get("players") or []
        seat = int(sd.get("seat", -1))
        if sd.get("kind") not in SANCTIONS or not 0 <= seat < len(by_seat):
            continue
        out.append(Sanction(-rid, float(ev.get("t_wall") or 0), f"{ev.get('judge', '')} at {table}", sd["kind"],
                            by_seat[seat], b.get("session"), float(sd.get("points") or 0), str(sd.get("reason", ""))))
    return out


def appeals(db: HallDB) -> list[Appeal]:
    """Every appeal with its decision (None while pending), oldest first."""
    decided: dict[int, DecisionRecord] = {}
    for at, who, detail in db.q("SELECT at, who, detail FROM audit WHERE action='appeal_decision' ORDER BY id"):
        d: DecisionRecord = json.loads(detail)
        decided[int(d["appeal"])] = {"at": at, "who": who, **d}
    out: list[Appeal] = []
    for rid, at, who, detail in db.q("SELECT id, at, who, detail FROM audit WHERE action='appeal' ORDER BY id"):
        a: AppealRecord = json.loads(detail)
        out.append({"id": rid, "at": at, "who": who, **a, "decision": decided.get(rid)})
    return out


def result_locked(db: HallDB, table: str, hand: str) -> bool:
    """Every seat confirmed the hand's result at the table (000 line 269)."""
    rows = db.q("SELECT body FROM results WHERE table_id=? AND hand=?", (table, hand))
    return bool(rows) and (json.loads(rows[0][0]).get("result") or {}).get("confirmed_by") == "seats"


def upheld_appeal(db: HallDB, appeal: int, table: str, hand: str) -> bool:
    """Appeal ``appeal`` is about this hand and was upheld."""
    for a in appeals(db):
        if a["id"] == appeal:
            d = a["decision"]
            return a.get("table") == table and a.get("hand") == hand and bool(d and d.get("upheld"))
    return False
