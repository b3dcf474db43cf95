"""The referee's dispatch table: (input type, mode) → handler.

Like the hand machine's (``rules/game/dispatch.py``), the table is data: reading it tells what each input
does when. The mode is what the hand is waiting for (:func:`mode`): ``play``, ``exhausting`` (the wall is
empty, the ready hands are being shown), ``settled`` (the result waits for its signatures), ``replayed``
(a judge's chombo ended the hand to be dealt again: it waits for its signatures, nothing else is followed);
a row for the mode comes before a row for ``ANY``, which serves every other mode. Before an input is looked up, what time made due is acted on
(:mod:`controller.referee.timing`); an input the hand cannot take yet waits (:func:`controller.referee.dispatch.blocked`);
an input type with no row is refused (:func:`controller.referee.dispatch.handle`: a ``bad_event`` verdict
to the caller), never dropped. An answer to a question is not an observation: it resumes the hand
(:mod:`controller.referee.answers`).
"""
from __future__ import annotations

from typing import Any

from controller.referee import claims, discards, ending, racks, sanctions, setup
from controller.referee.state import Handler, RefereeState
from rules.events import (
    ButtonPressed,
    CardSeen,
    DiceRead,
    DiceRolled,
    Event,
    FlowerSeen,
    HandStarted,
    IndicatorSeen,
    JudgeAction,
    MeldSeen,
    PenaltyAwarded,
    PondTileRemoved,
    PondTileSeen,
    RackCounted,
    RefereeTick,
    StickSeen,
    TilesRevealed,
)

ANY = "any"
PLAY, EXHAUSTING, SETTLED, REPLAYED = "play", "exhausting", "settled", "replayed"


def ignore(r: RefereeState, ev: Any) -> None:
    """An input the record keeps and the hand needs nothing of (see its row)."""


TABLE: dict[tuple[type[Event], str], Handler] = {
    (HandStarted, ANY): setup.on_start,
    (DiceRolled, ANY): setup.on_dice,
    (DiceRead, ANY): ignore,  # the service records the throw (dice_rolled) it read
    (IndicatorSeen, ANY): setup.on_indicator,
    (CardSeen, ANY): setup.on_card,
    (PondTileSeen, ANY): discards.on_pond_seen,
    (PondTileRemoved, ANY): discards.on_pond_removed,
    (MeldSeen, ANY): claims.on_meld,
    (FlowerSeen, ANY): claims.on_flower,
    (TilesRevealed, ANY): ending.on_revealed,
    (StickSeen, ANY): ignore,  # the sideways discard is riichi's record; the stick only confirms it
    (RackCounted, ANY): racks.on_rack,
    (ButtonPressed, PLAY): claims.on_button,
    (ButtonPressed, EXHAUSTING): claims.on_button_exhausting,  # a seat signs: the hands shown are all
    (ButtonPressed, SETTLED): claims.on_button_settled,  # the seats sign the result
    (RefereeTick, ANY): ignore,  # time passed: what was due was acted on before the lookup
    # the judge's decisions at the console (controller/referee/sanctions.py: a dead hand, a chombo replayed)
    (PenaltyAwarded, PLAY): sanctions.on_penalty,
    (PenaltyAwarded, EXHAUSTING): sanctions.on_penalty,
    (PenaltyAwarded, SETTLED): ignore,  # the result stands: the penalty is paid by itself (the hall's)
    (JudgeAction, PLAY): sanctions.on_sanction,
    (JudgeAction, EXHAUSTING): sanctions.on_sanction,
    (JudgeAction, SETTLED): ignore,
    # a hand ended to be dealt again (004 Rules 3.4.6): the seats sign; what the camera sees is not followed
    (ButtonPressed, REPLAYED): claims.on_button_settled,
    (PenaltyAwarded, REPLAYED): ignore,
    (JudgeAction, REPLAYED): ignore,
    **{(t, REPLAYED): ignore for t in (HandStarted, DiceRolled, IndicatorSeen, CardSeen, PondTileSeen, PondTileRemoved,
                                       MeldSeen, FlowerSeen, TilesRevealed, RackCounted)},
}
HANDLED: frozenset[type[Event]] = frozenset(t for t, _ in TABLE)  # the input types with a row


def mode(r: RefereeState) -> str:
    if r.replayed is not None:
        return REPLAYED
    if r.settled:
        return SETTLED
    return EXHAUSTING if r.reveals.exhausting_since is not None else PLAY


def lookup(r: RefereeState, ev: Event) -> Handler | None:
    """The row for ``ev`` in the hand's mode (None: the table has no row for its type)."""
    t = type(ev)
    return TABLE.get((t, mode(r))) or TABLE.get((t, ANY))

