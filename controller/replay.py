"""A refereed hand replayed step by step, the public view only (issue #32 part 5): the table's page
(``/replay/<hand>``) and the hall's dashboard (``/replay/<table>/<hand>``) both serve it.

The replay is built on the server from the hand's record as the referee wrote it — the latest revision of
``<hand>/game`` (``.r<N>`` after the N-th judge correction: the hand machine's log with the referee's own
events, its verdicts, questions, corrections, the confirmation, where they came), the answers to its
questions (``question_answered`` from ``<hand>/referee``), and the referee's events of the revisions
before the latest (``<hand>/verdicts``: a question asked before a correction, a verdict it took back) —
fed event by event to the page's public projection (:class:`controller.web.public.PublicHand`: dealt and drawn tiles face down, a self-drawn
winning tile hidden until the reveal, violations as code and seed reference only, a question's answer only
where it was about what lies face up). Each event that changes what is shown is one step, with the whole
public view after it: the page steps forward and back without asking the server again.

For riichi the tenhou.net/6 export (:mod:`controller.referee.export`) opens in the public viewer; it is served
apart (``/api/replay/<hand>/tenhou6``), because its deal is reconstructed from what was shown later.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol

from rules.events import Event, HandStarted, QuestionAnswered
from rules.game.table_data import TENHOU6

#: a step's view without what only a live page needs (the claim window's countdown, the event counter)
LIVE_ONLY = ("claim", "events")


class ReplayError(ValueError):
    """No refereed record of that hand."""


class Record(Protocol):
    """Where a hand's streams are read from: an :class:`~controller.event_store.EventStore`, or
    :class:`Streams` (the hall's messages)."""

    def events(self, stream: str, /) -> list[Event]: ...
    def count(self, stream: str, /) -> int: ...


class Streams:
    """The streams of one hand read from anywhere (the hall's messages): the two calls the exports make of
    an event store, ``events(stream)`` and ``count(stream)``."""

    def __init__(self, streams: dict[str, list[Event]]):
        self.streams = streams

    def events(self, stream: str) -> list[Event]:
        return list(self.streams.get(stream, []))

    def count(self, stream: str) -> int:
        return len(self.streams.get(stream, []))


def latest_record(store: Record, hand_id: str) -> list[Event]:
    """The hand's record at its latest revision (empty: none)."""
    from controller.referee.session import record_stream

    rev = 0
    while store.count(record_stream(hand_id, rev + 1)):
        rev += 1
    return list(store.events(record_stream(hand_id, rev)))


def merged(record: Sequence[Event], answers: Iterable[Event]) -> list[Event]:
    """The record with each answer put after the last record event that is not later than it (the
    answers come from the referee's inputs, another stream)."""
    out = list(record)
    for a in sorted(answers, key=lambda e: e.t_mono):
        at = len(out)
        while at > 0 and out[at - 1].t_mono > a.t_mono:
            at -= 1
        out.insert(at, a)
    return out


def replay_events(store: Record, hand_id: str) -> tuple[str, list[Event]]:
    """(the profile, the events the replay plays in order): the latest record, the referee's events of the
    revisions before it, the answers to its questions."""
    from controller.web.public import PLAYED

    record = latest_record(store, hand_id)
    start = next((e for e in record if isinstance(e, HandStarted)), None)
    if start is None:
        raise ReplayError(f"no refereed record of hand {hand_id!r}")
    answers = [e for e in store.events(f"{hand_id}/referee") if isinstance(e, QuestionAnswered)]
    # the referee's own events of the revisions before the latest (its questions, the verdicts a correction
    # took back): the record of each revision holds only those it made itself, ``<hand>/verdicts`` all of them
    mine = {_key(e) for e in record}
    earlier = [e for e in store.events(f"{hand_id}/verdicts") if not isinstance(e, PLAYED) and _key(e) not in mine]
    return start.profile, merged(record, [*earlier, *answers])


def replay(store: Record, hand_id: str) -> dict[str, object]:
    """The replay of ``hand_id`` from ``store`` (an :class:`~controller.event_store.EventStore` or
    :class:`Streams`): ``{"hand_id", "profile", "steps": [{"i", "at", "what", "view"}], "tenhou6": bool}`` —
    ``at``: how many of :func:`replay_events` the step has played."""
    from controller.web.public import PublicHand

    profile, events = replay_events(store, hand_id)
    hand = PublicHand(profile, hand_id)
    steps: list[dict[str, object]] = []
    seen = (0, 0, 0)
    for at, ev in enumerate(events, 1):
        hand.feed(ev, 0.0)
        now = (len(hand.events), len(hand.notices), len(hand.violations))
        if now == seen:
            continue  # nothing shown changed (a claim's timing, an event the public does not see)
        what: dict[str, object]
        if now[2] > seen[2]:
            what = {"type": "violation", **hand.violations[-1]}
        elif now[1] > seen[1]:
            n = max(hand.notices, key=lambda x: float(t) if isinstance(t := x["t"], int | float) else 0.0) \
                if hand.notices else {}
            what = {"type": "notice", **{k: v for k, v in n.items() if k != "t"}}
        else:
            what = dict(hand.last or {"type": ev.TYPE})
        seen = now
        view = {k: v for k, v in hand.view(0.0).items() if k not in LIVE_ONLY}
        steps.append({"i": len(steps), "at": at, "what": what, "view": view})
    return {"hand_id": hand_id, "profile": profile, "steps": steps, "tenhou6": TENHOU6 in hand.rules.record_formats}


def _key(e: Event) -> str:
    import json

    return json.dumps(e.to_json(), sort_keys=True, default=str)


def tenhou6(store: Record, hand_id: str) -> dict[str, object]:
    """The hand as tenhou.net/6 JSON (riichi only: :class:`ReplayError` otherwise)."""
    from controller.referee.export import ExportError, lines

    try:
        out: dict[str, object] = dict(next(iter(lines(store, hand_id, "tenhou6"))))
        return out
    except (ExportError, ValueError) as exc:
        raise ReplayError(str(exc)) from None


def hall_streams(rows: Iterable[tuple[str]], hand_id: str) -> Streams:
    """A hand's streams out of the hall's stored event messages (their JSON bodies: stream, seq, event)."""
    import json

    by: dict[str, list[tuple[int, Event]]] = {}
    for (body,) in rows:
        d = json.loads(body)
        stream = str(d.get("stream", ""))
        if not stream.startswith(hand_id + "/"):
            continue
        by.setdefault(stream, []).append((int(d.get("seq", 0)), Event.from_json(d["event"])))
    return Streams({s: [e for _, e in sorted(v, key=lambda x: x[0])] for s, v in by.items()})
