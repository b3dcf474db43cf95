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

from collections.abc import Callable
from typing import TypeVar, cast

from controller.referee import claims, discards, ending, racks, sanctions, setup
from controller.referee.state import FollowUp, Handler, RefereeState
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
E = TypeVar("E", bound=Event)
Row = tuple[tuple[type[Event], str], Handler]


def ignore(r: RefereeState, ev: Event) -> None:
    """An input the record keeps and the hand needs nothing of (see its row)."""


def row(t: type[E], mode: str, handler: Callable[[RefereeState, E], FollowUp | None]) -> Row:
    """A row of :data:`TABLE`: inputs of type ``t`` in ``mode`` go to ``handler`` (which takes that type)."""
    # (the one cast: :func:`lookup` finds a row by the input's own type, so the handler gets its type)
    return (t, mode), cast(Handler, handler)


TABLE: dict[tuple[type[Event], str], Handler] = dict([
    row(HandStarted, ANY, setup.on_start),
    row(DiceRolled, ANY, setup.on_dice),
    row(DiceRead, ANY, ignore),  # the service records the throw (dice_rolled) it read
    row(IndicatorSeen, ANY, setup.on_indicator),
    row(CardSeen, ANY, setup.on_card),
    row(PondTileSeen, ANY, discards.on_pond_seen),
    row(PondTileRemoved, ANY, discards.on_pond_removed),
    row(MeldSeen, ANY, claims.on_meld),
    row(FlowerSeen, ANY, claims.on_flower),
    row(TilesRevealed, ANY, ending.on_revealed),
    row(StickSeen, ANY, ignore),  # the sideways discard is riichi's record; the stick only confirms it
    row(RackCounted, ANY, racks.on_rack),
    row(ButtonPressed, PLAY, claims.on_button),
    row(ButtonPressed, EXHAUSTING, claims.on_button_exhausting),  # a seat signs: the hands shown are all
    row(ButtonPressed, SETTLED, claims.on_button_settled),  # the seats sign the result
    row(RefereeTick, ANY, ignore),  # time passed: what was due was acted on before the lookup
    # the judge's decisions at the console (controller/referee/sanctions.py: a dead hand, a chombo replayed)
    row(PenaltyAwarded, PLAY, sanctions.on_penalty),
    row(PenaltyAwarded, EXHAUSTING, sanctions.on_penalty),
    row(PenaltyAwarded, SETTLED, ignore),  # the result stands: the penalty is paid by itself (the hall's)
    row(JudgeAction, PLAY, sanctions.on_sanction),
    row(JudgeAction, EXHAUSTING, sanctions.on_sanction),
    row(JudgeAction, SETTLED, ignore),
    # a hand ended to be dealt again (004 Rules 3.4.6): the seats sign; what the camera sees is not followed
    row(ButtonPressed, REPLAYED, claims.on_button_settled),
    row(PenaltyAwarded, REPLAYED, ignore),
    row(JudgeAction, REPLAYED, ignore),
    *(row(t, REPLAYED, ignore) for t in (HandStarted, DiceRolled, IndicatorSeen, CardSeen, PondTileSeen,
                                         PondTileRemoved, MeldSeen, FlowerSeen, TilesRevealed, RackCounted)),
])
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

