"""How an answer resumes the hand: :data:`RESUME`, one row per question of
:data:`controller.referee.questions.QUESTIONS` (keyed by what the question is about: its
:class:`~controller.referee.state.Resume`). An answer that does not answer the question asks it again;
an observation answered is handled as if the camera had read it (:func:`redo`)."""
from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import TypeVar, cast

from controller.referee import claims, ending, follow_ups, ponds, questions, racks, table, variants
from controller.referee.questions import (
    CopiesAsked,
    ImpossibleAsked,
    KongTileAsked,
    LateClaimAsked,
    PondAsked,
    SuitAsked,
    TileAsked,
)
from controller.referee.state import TILE_TEXTS, FollowUp, RefereeState, Resume
from rules.events import Event, IndicatorSeen, MeldSeen, QuestionAnswered, RackCounted, TilesRevealed

#: how an answer resumes the hand: ``(state, answer, what the question was about)`` → what it leaves to finish
Resumer = Callable[[RefereeState, str, Resume], FollowUp | None]
A = TypeVar("A", bound=Resume)


def on_answer(r: RefereeState, ev: QuestionAnswered) -> FollowUp | None:
    """The open question answered: resumed by its row of :data:`RESUME` (what that leaves to finish, returned)."""
    q = r.asking.open
    if q is None or q.event.question_id != ev.question_id:
        return None  # a stale answer (the question went away with a correction)
    r.asking.open = None
    return RESUME[type(q.resume)](r, ev.answer.strip(), q.resume)


def redo(r: RefereeState, asked: Event, ev: Event) -> None:
    """The observation ``asked`` about, as answered: in its place in the queue if it waits there, else
    handled now."""
    for i, w in enumerate(r.asking.waiting):
        if w is asked:
            r.asking.waiting[i] = ev
            variants.learn_wmsg(r, ev)
            return
    handler = table.lookup(r, ev)
    if handler is not None:  # what it shows happened when the camera saw it, not when the answer came
        at, r.at = r.at, ev
        try:
            follow_ups.run(r, handler(r, ev))  # (finished under its own time too)
        finally:
            r.at = at


def tile(r: RefereeState, answer: str, about: TileAsked) -> None:
    ev, zone, index, why = about.ev, about.zone, about.index, about.why
    seat = None if isinstance(ev, IndicatorSeen) else ev.seat
    if answer == "none" and zone == "pond" and seat is not None:  # no tile there: the camera saw one
        r.pond.phantoms[seat] = r.pond.phantoms.get(seat, 0) + 1
        if ponds.same_pond(r, ponds.real_seen(r, seat), [e.tile for e in r.pond.record[seat]]):
            r.pond.odd.pop(seat, None)
        return None
    if answer == "none" and zone in ("hand", "indicator"):  # no hand shown / no indicator turned there
        return None  # (racks seen from above, an empty slot of the dead wall): dropped
    given = answer.split()
    if len(given) != questions.unknown_count(ev) or any(t not in TILE_TEXTS for t in given):
        return questions.ask_tile(r, ev, zone, index, why)  # not an answer to this question: asked again
    it = iter(given)
    if isinstance(ev, MeldSeen | TilesRevealed):
        fixed = tuple(next(it) if t not in TILE_TEXTS and t != "x" else t for t in ev.tiles)
        return redo(r, ev, dataclasses.replace(ev, tiles=fixed))
    redo(r, ev, dataclasses.replace(ev, tile=given[0]))
    if zone == "pond" and seat is not None and index is not None:
        r.pond.named.setdefault(seat, set()).add(index)  # (a later read of it does not overrule the answer)
    return None


def kong_tile(r: RefereeState, answer: str, about: KongTileAsked) -> FollowUp | None:
    seat = about.seat
    if answer not in ("yes", "no"):
        questions.ask_kong_tile(r, seat)
        return None
    apart = 0 if answer == "yes" else 1
    racks.on_rack(r, RackCounted(seat=seat, standing=r.racks.count.get(seat, 0), apart=apart))
    return FollowUp.SETTLE


def copies(r: RefereeState, answer: str, about: CopiesAsked) -> FollowUp | None:
    ev = about.ev
    if answer != "ignore":
        questions.ask_copies(r, ev, about.over)
        return None
    r.reveals.copies_ok = True  # the judge lets the record stand as it is
    ending.reveal(r, ev)
    r.reveals.copies_ok = False
    return FollowUp.SETTLE


def impossible(r: RefereeState, answer: str, about: ImpossibleAsked) -> None:
    if answer not in ("ignore", "taken_back"):
        questions.ask_impossible(r, about.ev, about.en, about.ru)


def late_claim(r: RefereeState, answer: str, about: LateClaimAsked) -> FollowUp | None:
    ev = about.ev
    if answer != "stands":
        return None
    w = r.claims.window  # the judge lets the set stand: it is made as it lies
    if w is not None:
        w.stands.add(ev.seat)
    return claims.on_meld(r, ev)


def missing_suit(r: RefereeState, answer: str, about: SuitAsked) -> FollowUp | None:
    seat = about.seat
    if answer not in ("m", "p", "s"):
        questions.ask_suit(r, seat)
        return None
    r.wmsg.suits[seat] = answer
    return FollowUp.SUITS


def pond(r: RefereeState, answer: str, about: PondAsked) -> None:
    seat = about.seat
    if answer == "ignore":  # the record stands: the camera misread (the judge may correct the record)
        r.pond.seen[seat] = [e.tile for e in r.pond.record[seat]]
        r.pond.phantoms.pop(seat, None)


def row(about: type[A], resume: Callable[[RefereeState, str, A], FollowUp | None]) -> tuple[type[Resume], Resumer]:
    """A row of :data:`RESUME`: ``resume`` takes what its question is about, of type ``about``."""
    # (the one cast: :func:`on_answer` looks a row up by the type of what the question was about)
    return about, cast(Resumer, resume)


#: what a question is about → how its answer resumes the hand
RESUME: dict[type[Resume], Resumer] = dict([
    row(TileAsked, tile), row(KongTileAsked, kong_tile), row(CopiesAsked, copies), row(ImpossibleAsked, impossible),
    row(LateClaimAsked, late_claim), row(SuitAsked, missing_suit), row(PondAsked, pond),
])
