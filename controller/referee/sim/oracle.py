"""The operator and the judge of a simulated table: they answer the referee's questions from the ground
truth, and correct its record where the camera misread a tile (a judge's correction, replayed and audited
by the referee like any other)."""
from __future__ import annotations

from collections import Counter
from typing import Protocol, TypedDict

from controller.referee.core import TILE_TEXTS, Referee
from controller.referee.effects import Stamp
from rules.driver import HandDriver
from rules.events import (
    Discarded,
    DoraRevealed,
    Event,
    HandRevealed,
    JSONObject,
    JudgeCorrection,
    MeldMade,
    MeldSeen,
    PondTileSeen,
    QuestionAnswered,
    QuestionAsked,
    TilesRevealed,
)
from rules.game.machine import table_view
from vision.scene_model import Scene


class Truth(Protocol):
    """The ground truth of a simulated hand, as the operator and the judge know it
    (:class:`controller.referee.sim.play.TruthHand`): the bots' driver, its machine in full information."""

    @property
    def driver(self) -> HandDriver: ...


class Fix(TypedDict, total=False):
    """A judge's correction of the record, as :class:`~rules.events.JudgeCorrection`'s fields."""

    op: str
    index: int
    event: JSONObject


def respond(q: QuestionAsked, ref: Referee, truth: Truth, scene: Scene | None, at: Event) -> list[Event]:
    """What the operator (or the judge) does about question ``q``: a correction of the record, an answer."""
    stamp: Stamp = {"t_mono": at.t_mono, "t_wall": at.t_wall, "hand_id": ref.hand_id}
    if q.kind == "impossible":
        fixes = corrections(ref, truth, stamp)
        if fixes:
            return list(fixes)
    return [QuestionAnswered(question_id=q.question_id, answer=answer(q, ref, scene, truth), by="operator", **stamp)]


def answer(q: QuestionAsked, ref: Referee, scene: Scene | None, truth: Truth) -> str:
    """The answer from the ground truth."""
    log = truth.driver.machine.log
    if q.kind == "kong_tile" and q.seat is not None:
        kongs = [e for e in log if isinstance(e, MeldMade) and e.kind == "kong_added" and e.seat == q.seat]
        return "yes" if kongs and kongs[-1].drawn_tile else "no"
    if q.kind == "missing_suit" and q.seat is not None:
        return str(truth.driver.machine.state.seat_state[q.seat].missing_suit or "m")
    if q.kind == "tile" and scene is not None:
        obs = dict(q.subject.get("observation", {}))
        zone = q.subject.get("zone")
        seat = q.seat if q.seat is not None else 0
        if zone == "pond":  # the tile on the table the camera's readable ones do not account for
            idx = int(q.subject.get("index") or 0)
            pond = [p.tile for p in scene.seats[seat].pond]
            left = Counter(pond) - Counter(t for t in ref.seen.get(seat, ()) if t in TILE_TEXTS)
            if not left:
                return "none"  # every tile there is read already: the camera saw one that is not
            if idx < len(pond) and left[pond[idx]]:
                return pond[idx]
            return next(t for t in reversed(pond) if left[t])  # (a free pond: the latest such tile)
        if zone == "flower":  # the flower set aside that the record does not hold yet
            shown = list(scene.seats[seat].flowers)
            left = Counter(shown) - Counter(ref.state.claims.flowers.get(seat, ()))
            return next((t for t in reversed(shown) if left[t]), shown[-1] if shown else "?")
        if zone == "indicator":  # a dead-wall indicator (riichi): the truth's dora (or ura) indicators in order
            ura = obs.get("kind") == "ura"
            shown = [e.indicator for e in log if isinstance(e, DoraRevealed) and (e.kind == "ura") == ura]
            idx = int(q.subject.get("index") or 0)
            return shown[idx] if idx < len(shown) else "none"  # not turned: the camera took the empty slot for one
        if zone == "hand":
            if not scene.seats[seat].revealed:
                return "none"  # no hand laid face up there
            return " ".join(t for t, o in zip(scene.seats[seat].revealed, obs.get("tiles", ())) if o == "unknown")
        if zone == "meld":
            tiles = tuple(obs.get("tiles", ()))
            for m in reversed(scene.seats[seat].melds):  # the latest set of that size
                if len(m.tiles) == len(tiles):
                    return " ".join(t for t, o in zip(m.tiles, tiles) if o == "unknown")
    return "ignore"


def corrections(ref: Referee, truth: Truth, stamp: Stamp) -> list[JudgeCorrection]:
    """The judge finds the observation the camera misread — the first discard, set or shown hand of the
    referee's record unlike the truth — and corrects the input it came from; a set the camera saw only
    after play ended is put in its place (before the discard that followed it)."""
    mine = [e for e in ref.game_log if isinstance(e, Discarded | MeldMade | HandRevealed)]
    real = [e for e in table_view(truth.driver.machine.log) if isinstance(e, Discarded | MeldMade | HandRevealed)]
    for seat in sorted({e.seat for e in real}):
        for a, b in zip([e for e in mine if e.seat == seat], [e for e in real if e.seat == seat]):
            if type(a) is not type(b):
                if isinstance(b, MeldMade) and isinstance(a, Discarded):
                    return [JudgeCorrection(by="judge (simulated)", **f, reason="the camera saw a set late", **stamp)
                            for f in _late_meld(ref, a, b)]
                break
            fix = _fix(ref, a, b)
            if fix is not None:
                return [JudgeCorrection(by="judge (simulated)", **fix, reason="the camera misread a tile", **stamp)]
    return []


def _late_meld(ref: Referee, discard: Discarded, real: MeldMade) -> list[Fix]:
    """The set ``real`` seen after play ended: its late observation dropped, the set put in before the
    observation of the discard that followed it."""
    at = next((i for i, ev in enumerate(ref.record) if isinstance(ev, PondTileSeen) and ev.seat == discard.seat
               and ev.t_mono == discard.t_mono), None)
    late = [(i, ev) for i, ev in enumerate(ref.record) if isinstance(ev, MeldSeen) and ev.seat == real.seat
            and ev.kind == real.kind and at is not None and i > at]
    if at is None or not late:
        return []
    k, old = late[-1]
    new = old.to_json()
    new.update(tiles=list(_as_shown(old.tiles, real.tiles)), t_mono=ref.record[at].t_mono - 0.05,
               t_wall=ref.record[at].t_wall - 0.05, frame=getattr(ref.record[at], "frame", 0))
    return [{"op": "delete", "index": k}, {"op": "insert", "index": at, "event": new}]


def _fix(ref: Referee, mine: Event, real: Event) -> Fix | None:
    if isinstance(mine, Discarded) and isinstance(real, Discarded) and mine.tile != real.tile:
        return _replace(ref, PondTileSeen, mine, tile=real.tile)
    if isinstance(mine, HandRevealed) and isinstance(real, HandRevealed) and sorted(mine.tiles) != sorted(real.tiles):
        return _replace(ref, TilesRevealed, mine, tiles=_as_shown(mine.tiles, real.tiles))
    if isinstance(mine, MeldMade) and isinstance(real, MeldMade) and sorted(mine.tiles) != sorted(real.tiles):
        return _replace(ref, MeldSeen, mine, tiles=_as_shown(mine.tiles, real.tiles))
    return None


def _as_shown(seen: tuple[str, ...], real: tuple[str, ...]) -> tuple[str, ...]:
    """The true tiles in the order the camera saw them (each misread tile replaced by a missing one)."""
    left = list(real)
    out = []
    for t in seen:
        if t in left:
            left.remove(t)
            out.append(t)
        else:
            out.append("")
    return tuple(left.pop(0) if t == "" else t for t in out)


def _replace(ref: Referee, kind: type[Event], derived: Event, **change: str | tuple[str, ...]) -> Fix | None:
    """The record's input of type ``kind`` that the derived event came from (same seat, same moment)."""
    for i, ev in enumerate(ref.record):
        if isinstance(ev, kind) and getattr(ev, "seat", None) == getattr(derived, "seat", None) \
                and ev.t_mono == derived.t_mono:
            new = ev.to_json()
            for k, v in change.items():
                new[k] = list(v) if isinstance(v, tuple) else v
            return {"op": "replace", "index": i, "event": new}
    return None
