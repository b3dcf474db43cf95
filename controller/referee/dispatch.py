"""One input through the referee: it waits while the hand cannot take it (:func:`blocked`: a question
open, the discard it is about not read yet, the missing suits face down), else what time made due is acted
on first (:func:`controller.referee.timing.due`, as the hand machine's ``implied()``), then its row of
:data:`controller.referee.table.TABLE` handles it, then what the handler left to finish in another concern
is run (:data:`controller.referee.follow_ups.FOLLOW_UPS`: the kan indicators, the missing suits, the held
reveals, the settlement). The inputs that waited follow once they may (:func:`drain`); then a dead hand's
claim is judged (:func:`controller.referee.sanctions.dead_claims`)."""
from __future__ import annotations

from controller.referee import (
    answers,
    discards,
    effects,
    ending,
    follow_ups,
    questions,
    sanctions,
    table,
    timing,
    variants,
)
from controller.referee.state import RefereeState
from rules.events import (
    ButtonPressed,
    CorrectionApplied,
    Event,
    FlowerSeen,
    IndicatorSeen,
    JudgeCorrection,
    MeldSeen,
    PondTileRemoved,
    PondTileSeen,
    QuestionAnswered,
    RackCounted,
    RefereeTick,
    StickSeen,
    TilesRevealed,
)
from rules.game.violations import violation

#: inputs that follow a discard (a call on it, the set or the hand that takes it): they wait while a new pond tile
#: is not read yet (UNREAD_WAIT_S), else a call would be judged on the discard before it
AFTER_THE_DISCARD = (ButtonPressed, MeldSeen, TilesRevealed)
#: inputs of play, held while the hand waits for what the table has not shown yet (WMSG: the missing suits)
PLAY_INPUTS = (PondTileSeen, PondTileRemoved, MeldSeen, FlowerSeen, TilesRevealed, ButtonPressed, RefereeTick,
               IndicatorSeen, RackCounted, StickSeen)


def process(r: RefereeState, ev: Event) -> list[Event]:
    """``ev`` handled (or left waiting) and the waiting inputs it frees: what the referee concluded."""
    r.out = []
    if blocked(r, ev):
        r.asking.waiting.append(ev)  # the hand waits (for an answer, for what the table has not shown yet)
        variants.learn_wmsg(r, ev)
    else:
        handle(r, ev)
    drain(r)
    sanctions.dead_claims(r, r.out)  # a dead hand's claim: riichi's chombo (004 Rules 3.4.6)
    out = r.out
    r.outputs.extend(out)
    r.out = []
    return out


def unhandled(r: RefereeState, ev: Event) -> list[Event]:
    """The refusal of an input type the table has no row for (returned, not a verdict on the hand)."""
    if type(ev) in table.HANDLED or isinstance(ev, QuestionAnswered | CorrectionApplied | JudgeCorrection):
        return []
    return [violation("bad_event", None, f"the referee takes no {ev.TYPE} input", at=ev, hand_id=r.hand_id)]


def handle(r: RefereeState, ev: Event) -> None:
    """``ev`` acted on: what time made due first, then its row of the table (or the question it answers),
    then what that left to finish."""
    r.at = ev
    if r.replayed is not None:  # the hand is over, to be dealt again (a chombo): only its row counts
        handler = table.lookup(r, ev)
        return follow_ups.run(r, handler(r, ev)) if handler is not None else None
    if r.reveals.rack_wins and not isinstance(ev, RackCounted):  # play goes on: the rack was not seen
        for seat in sorted(r.reveals.rack_wins):
            effects.submit(r, r.reveals.rack_wins.pop(seat))
    timing.due(r, ev.t_mono)
    if isinstance(ev, RefereeTick):
        for seat in ending.stale_reveals(r, ev.t_mono):
            r.reveals.due.pop(seat, None)
            return questions.ask_tile(r, r.reveals.unread.pop(seat), "hand", None)
    if discards.unread_due(r, ev.t_mono):
        discards.ask_unread(r)
        if r.asking.open is not None:
            r.asking.waiting.insert(0, ev)
            return None
    if isinstance(ev, QuestionAnswered):
        return follow_ups.run(r, answers.on_answer(r, ev))
    handler = table.lookup(r, ev)
    if handler is not None:
        then = handler(r, ev)
        if then is not None:  # (the usual input leaves nothing: no call)
            follow_ups.run(r, then)
    return None


def drain(r: RefereeState) -> None:
    while r.asking.waiting and not blocked(r, r.asking.waiting[0]):
        handle(r, r.asking.waiting.pop(0))


def blocked(r: RefereeState, ev: Event) -> bool:
    if isinstance(ev, QuestionAnswered):
        return False
    if r.asking.open is not None:
        return True
    if r.pond.unread and isinstance(ev, AFTER_THE_DISCARD):
        return True  # a call or a set is about the discard not read yet: it waits for that tile
    return variants.suits_pending(r) and isinstance(ev, PLAY_INPUTS)
