"""The tables' judge streams as the hall received them: the penalties and sanctions given at each table's
console (``controller/web/judge.py``), sent through the table's outbox (``controller/hall_link/outbox.py``,
``JUDGE_EVENTS``) with the session and the players by chair of that moment, and kept once by the hall
(``messages``, keyed by table, hand and number).

Read by :mod:`hall.standings` (the points) and :mod:`hall.regulations` (the sanctions); it imports neither.
"""
from __future__ import annotations

import json

from hall.db import HallDB
from hall.messages import JudgeBody, JudgeEvent
from rules.game.penalty_catalogue import receipts, taken

JudgeMessage = tuple[str, str]  # (table, the message's JSON body)


def judge_messages(db: HallDB) -> list[JudgeMessage]:
    """``(table, body)`` of every message of the tables' judge streams (their key is the table's own id), in the
    order given — read table by table through the messages' primary key (never a scan of every event)."""
    out: list[tuple[float, int, str, str]] = []
    for (table,) in db.q("SELECT id FROM tables"):
        out += [(tt, seq, table, body) for tt, seq, body in db.q(
            "SELECT t_table, seq, body FROM messages WHERE table_id=? AND hand=? AND kind='event'", (table, table))]
    return [(table, body) for _tt, _seq, table, body in sorted(out)]


def table_penalties(db: HallDB, judged: list[JudgeMessage] | None = None) -> list[tuple[str, JudgeBody]]:
    """The penalties given at the tables' consoles, as their outboxes sent them (each once: the hall keeps one
    copy of each message), in the order given: ``(table, {"event": ..., "session", "players", "seats"})``."""
    out = []
    for table, body in judge_messages(db) if judged is None else judged:
        b: JudgeBody = json.loads(body)
        if (b.get("event") or {}).get("type") == "penalty_awarded":
            out.append((table, b))
    return out


def penalty_paid(ev: JudgeEvent, seats: int) -> list[int]:
    """What each seat (by chair) receives from a console penalty (``paid``; a custom ``to_others``: its points to
    each other seat); all zeros when it is taken and given to nobody."""
    return list(receipts(int(ev.get("seat", -1)), int(ev.get("points", 0)), [int(x) for x in ev.get("paid") or ()],
                         bool(ev.get("to_others")), seats))


def penalty_taken(ev: JudgeEvent, seats: int) -> int:
    """What the offender loses: what the others receive, else (given to nobody) the penalty's points."""
    return taken(int(ev.get("points", 0)), penalty_paid(ev, seats))
