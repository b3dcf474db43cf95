"""A refereed hand's record out of the store: the event log, or tenhou.net/6 for riichi.

The record is rebuilt from the hand's stored inputs (:func:`controller.referee.session.rebuild`): the
latest revision, every judge correction applied. ``events``: the hand machine's log, then the referee's own
events (its verdicts, questions, claim timings, corrections, the confirmation) and the judge's decisions it took
(the console's penalties and sanctions: a chombo that had the hand dealt again), as JSON objects.
``tenhou6``: :func:`rules.profiles.riichi.tenhou6.hand_log` over the record. A camera sees no concealed
tile until it is shown, so the haipai and the draws are reconstructed: every tile a player put out (a
discard, a set's own tiles, a kong, a flower) and the tiles he showed at the end came in first, in that
order — so each discard is in hand when the viewer plays it; a hand never shown is filled with tiles nobody
saw (the viewer needs faces: those are not the real ones).
"""
from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Protocol

from rules.events import (
    Dealt,
    Discarded,
    Drew,
    Event,
    FlowerDeclared,
    GameEvent,
    HandRevealed,
    HandStarted,
    JSONObject,
    MeldMade,
)
from rules.game.state import HandState
from rules.game.table_data import TENHOU6


class ExportError(ValueError):
    """The hand cannot be exported (no such hand, no record, a format the profile has not)."""


class RefereedHands(Protocol):
    """Where the refereed hands are read (:class:`controller.event_store.EventStore`)."""

    def count(self, stream: str, /) -> int: ...

    def events(self, stream: str, /) -> list[Event]: ...


class HandRecords(RefereedHands, Protocol):
    """... and which hands there are: those finished (with their results) and those not."""

    def results(self) -> Sequence[tuple[str, object]]: ...

    def unfinished_hands(self) -> list[str]: ...


def hand_ids(store: HandRecords) -> list[str]:
    """Every hand with a refereed record, in the order they were played."""
    ids = [h for h, _ in store.results()] + store.unfinished_hands()
    return [h for h in ids if store.count(f"{h}/referee")]


def lines(store: RefereedHands, hand_id: str, fmt: str = "events") -> Iterator[JSONObject]:
    from controller.referee.session import rebuild

    if not store.count(f"{hand_id}/referee"):
        raise ExportError(f"no refereed hand {hand_id!r} in the store")
    ref = rebuild(store, hand_id)
    if fmt == "events":  # the log, then the referee's own events and the judge's decisions, in time order
        log = ref.game_log
        yield from (e.to_json() for e in log)
        own = [e for e in ref.outputs if not any(e is x for x in log)]
        yield from (e.to_json() for e in merged(own, ref.judged()))
        return
    if TENHOU6 not in ref.profile.record_formats:
        raise ExportError(f"tenhou.net/6 is riichi's format; {hand_id} is {ref.name} (use --format events)")
    from rules.profiles.riichi.tenhou6 import game_log, hand_log

    events = with_faces(ref.export_log(), ref.machine.state)  # a chombo dealt again: a draw with its payments
    start = next(e for e in events if isinstance(e, HandStarted))
    given = start.options.get("scores")
    scores = [int(x) for x in given] if isinstance(given, list) else [ref.profile.start_score] * 4
    entry = hand_log([e for e in events if isinstance(e, GameEvent)], scores, ref.machine.state.wins)
    yield game_log([entry], title=("mahjong-table", f"{hand_id} (refereed)"))


def merged(own: list[Event], judged: list[Event]) -> list[Event]:
    """The referee's events in their order, each judge's decision put before the first of them that came later."""
    out: list[Event] = []
    rest = list(judged)
    for e in own:
        while rest and rest[0].t_mono < e.t_mono:
            out.append(rest.pop(0))
        out.append(e)
    return out + rest


def with_faces(log: list[Event], state: HandState) -> list[Event]:
    """The record with every face-down tile of the deal and the draws given a face (see the module)."""
    from rules.tiles import TILES
    from rules.wall import tile_set

    gone: dict[int, list[str]] = {}  # seat -> tiles that left its concealed hand, in order
    shown: dict[int, list[str]] = {}
    seen: Counter[str] = Counter()
    for e in log:
        s = getattr(e, "seat", None)
        if not isinstance(s, int):
            continue  # (a hand's start, the dice: no seat's tiles)
        if isinstance(e, Discarded):
            gone.setdefault(s, []).append(e.tile)
        elif isinstance(e, FlowerDeclared):
            gone.setdefault(s, []).append(e.tile)
        elif isinstance(e, MeldMade):
            own = list(e.tiles)
            if e.kind in ("chow", "pung", "kong_open") and e.claimed_tile in own:
                own.remove(e.claimed_tile)
            elif e.kind == "kong_added":
                own = [e.claimed_tile or own[-1]]
            gone.setdefault(s, []).extend(own)
        elif isinstance(e, HandRevealed):
            shown[s] = list(e.tiles)
    for tiles in (*gone.values(), *shown.values()):
        seen.update(t for t in tiles if t != "x")
    spec = state.spec
    unseen = Counter(str(t) for t in tile_set(spec.tile_set)) if spec is not None else Counter()
    unseen.subtract(seen)
    spare = [t for t, n in sorted(unseen.items()) for _ in range(max(0, n)) if t != "x"] or [str(TILES[0])]
    pools = {s: [t for t in gone.get(s, []) + shown.get(s, []) if t != "x"] for s in state.seats}
    out: list[Event] = []
    for e in log:
        if isinstance(e, Dealt):
            e = dataclasses.replace(e, tiles=tuple(_take(pools, e.seat, spare) for _ in e.tiles))
        elif isinstance(e, Drew) and e.tile == "x":
            e = dataclasses.replace(e, tile=_take(pools, e.seat, spare))
        out.append(e)
    return out


def _take(pools: dict[int, list[str]], seat: int, spare: list[str]) -> str:
    pool = pools.get(seat)
    if pool:
        return pool.pop(0)
    return spare.pop(0) if len(spare) > 1 else spare[0]
