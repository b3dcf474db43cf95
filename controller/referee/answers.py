"""How an answer resumes the hand: :data:`RESUME`, one row per question of
:data:`controller.referee.questions.QUESTIONS`. An answer that does not answer the question asks it again;
an observation answered is handled as if the camera had read it (:func:`redo`)."""
from __future__ import annotations

import dataclasses
from collections.abc import Callable

from controller.referee import claims, ending, follow_ups, ponds, questions, racks, table, variants
from controller.referee.state import TILE_TEXTS, FollowUp, RefereeState
from rules.events import Event, MeldSeen, QuestionAnswered, RackCounted, TilesRevealed


def on_answer(r: RefereeState, ev: QuestionAnswered) -> FollowUp | None:
    """The open question answered: resumed by its row of :data:`RESUME` (what that leaves to finish, returned)."""
    q = r.asking.open
    if q is None or q.event.question_id != ev.question_id:
        return None  # a stale answer (the question went away with a correction)
    r.asking.open = None
    return RESUME[q.resume.how](r, ev.answer.strip(), *q.resume.args)


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


def tile(r: RefereeState, answer: str, ev: Event, zone: str, index: int | None, why: tuple[str, str] | None) -> None:
    seat = getattr(ev, "seat", None)
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
    if hasattr(ev, "tiles"):
        fixed = tuple(next(it) if t not in TILE_TEXTS and t != "x" else t for t in ev.tiles)
        return redo(r, ev, dataclasses.replace(ev, tiles=fixed))  # type: ignore[type-var]
    redo(r, ev, dataclasses.replace(ev, tile=given[0]))  # type: ignore[type-var]
    if zone == "pond" and seat is not None and index is not None:
        r.pond.named.setdefault(seat, set()).add(index)  # (a later read of it does not overrule the answer)
    return None


def kong_tile(r: RefereeState, answer: str, seat: int) -> FollowUp | None:
    if answer not in ("yes", "no"):
        return questions.ask_kong_tile(r, seat)
    apart = 0 if answer == "yes" else 1
    racks.on_rack(r, RackCounted(seat=seat, standing=r.racks.count.get(seat, 0), apart=apart))
    return FollowUp.SETTLE


def copies(r: RefereeState, answer: str, ev: TilesRevealed, over: list[str]) -> FollowUp | None:
    if answer != "ignore":
        return questions.ask_copies(r, ev, over)
    r.reveals.copies_ok = True  # the judge lets the record stand as it is
    ending.reveal(r, ev)
    r.reveals.copies_ok = False
    return FollowUp.SETTLE


def impossible(r: RefereeState, answer: str, ev: Event, en: str, ru: str) -> None:
    if answer not in ("ignore", "taken_back"):
        questions.ask_impossible(r, ev, en, ru)


def late_claim(r: RefereeState, answer: str, ev: MeldSeen) -> FollowUp | None:
    if answer != "stands":
        return None
    w = r.claims.window  # the judge lets the set stand: it is made as it lies
    if w is not None:
        w.stands.add(ev.seat)
    return claims.on_meld(r, ev)


def missing_suit(r: RefereeState, answer: str, seat: int) -> FollowUp | None:
    if answer not in ("m", "p", "s"):
        return questions.ask_suit(r, seat)
    r.wmsg.suits[seat] = answer
    return FollowUp.SUITS


def pond(r: RefereeState, answer: str, seat: int) -> None:
    if answer == "ignore":  # the record stands: the camera misread (the judge may correct the record)
        r.pond.seen[seat] = [e.tile for e in r.pond.record[seat]]
        r.pond.phantoms.pop(seat, None)


#: a question's name → how its answer resumes the hand: ``(state, answer, *subject)`` → what it leaves to finish
RESUME: dict[str, Callable[..., FollowUp | None]] = {
    "tile": tile, "kong_tile": kong_tile, "copies": copies, "impossible": impossible, "late_claim": late_claim,
    "missing_suit": missing_suit, "pond": pond,
}
