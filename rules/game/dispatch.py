"""The hand machine's dispatch table: (phase, event type) → :class:`~rules.game.flow.Handler`.

Before an event is looked up, the transitions it implies happen (:func:`implied`): an event that ends
the open claim window closes it (``rules.game.window.CLOSED_BY``: a draw, the exhaustive draw, a reveal
or the settlement after wins on the tile), and the dealer's first action ends the pre-play phase once
its duties are done — whether or not the event itself is then accepted, as at the table. An event type
with no handler in the phase is refused as out of phase (:func:`out_of_phase` says with which message).
Like ``controller/table_machine.py`` for the table's cycle, the table is data: reading it tells what may
happen when.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from rules.events import (
    Claimed,
    Dealt,
    DiceRolled,
    Discarded,
    DoraRevealed,
    Drew,
    ExhaustiveDraw,
    FlowerDeclared,
    GameEvent,
    HandDead,
    HandEnded,
    HandRevealed,
    HandStarted,
    MeldMade,
    MissingSuitDeclared,
    RiichiDeclared,
    Settled,
    WallBroken,
    Won,
)
from rules.game import ending, play, setup
from rules.game.flow import Handler, Play, Refusal
from rules.game.setup import end_pre_play, pre_play_refusal
from rules.game.state import PRE_PLAY, HandState, Phase
from rules.game.window import CLOSED_BY, close_window, window_outcome

P = Phase
ALL = tuple(Phase)


def _in(phases: Iterable[Phase], event: type[GameEvent], handler: Handler[Any]) -> dict[tuple[Phase, type[GameEvent]], Handler[Any]]:
    return {(ph, event): handler for ph in phases}


def _but(*phases: Phase) -> tuple[Phase, ...]:
    return tuple(p for p in ALL if p not in phases)


CLAIMED = Handler(play.check_claimed, play.apply_claimed)
MELD = Handler(play.check_meld, play.apply_meld)
WON = Handler(play.check_won, play.apply_won)

DISPATCH: dict[tuple[Phase, type[GameEvent]], Handler[Any]] = {
    # setup
    (P.SETUP, HandStarted): Handler(setup.check_hand_started, setup.apply_hand_started),
    (P.SETUP, DiceRolled): Handler(setup.check_dice, setup.apply_dice),
    (P.SETUP, WallBroken): Handler(setup.check_wall_broken, setup.apply_wall_broken),
    (P.SETUP, Dealt): Handler(setup.check_dealt, setup.apply_dealt),
    (P.PRE_PLAY, MissingSuitDeclared): Handler(setup.check_missing_suit, setup.apply_missing_suit),
    (P.PRE_PLAY, FlowerDeclared): Handler(setup.check_flower, setup.apply_flower),
    (P.TURN, FlowerDeclared): Handler(setup.check_flower, setup.apply_flower),
    # draws: from the wall, replacements (kongs, flowers), none once the wall is empty
    (P.DRAW, Drew): Handler(play.check_wall_draw, play.apply_drew),
    (P.REPLACE, Drew): Handler(play.check_replacement_draw, play.apply_drew),
    (P.PRE_PLAY, Drew): Handler(play.check_flower_replacement, play.apply_drew),
    (P.EXHAUSTED, Drew): Handler(play.check_draw_exhausted, play.apply_drew),
    # the turn
    (P.TURN, Discarded): Handler(play.check_discard, play.apply_discard),
    **_in((P.TURN, P.CLAIMS, P.ROB), MeldMade, MELD),
    **_in((P.TURN, P.CLAIMS, P.ROB), Won, WON),
    # the claim window
    (P.CLAIMS, Claimed): CLAIMED,
    (P.ROB, Claimed): CLAIMED,
    # any time in play
    **_in(_but(P.SETUP, P.OVER), RiichiDeclared, Handler(play.check_riichi_declared, play.apply_riichi_declared)),
    **_in(_but(P.SETUP, P.OVER), DoraRevealed, Handler(play.check_dora, play.apply_dora)),
    **_in(_but(P.SETUP, P.ENDED, P.SETTLED, P.OVER), HandDead, Handler(play.check_hand_dead, play.apply_hand_dead)),
    # the end
    (P.EXHAUSTED, ExhaustiveDraw): Handler(ending.check_exhaustive, ending.apply_exhaustive),
    (P.DRAW, ExhaustiveDraw): Handler(ending.check_exhaustive, ending.apply_exhaustive),
    **_in(_but(P.SETUP, P.PRE_PLAY, P.OVER, P.SETTLED), HandRevealed,
          Handler(ending.check_revealed, ending.apply_revealed)),
    (P.ENDED, Settled): Handler(ending.check_settled, ending.apply_settled),
    (P.SETTLED, HandEnded): Handler(ending.check_hand_ended, ending.apply_hand_ended),
}

HANDLED: frozenset[type[GameEvent]] = frozenset(t for _, t in DISPATCH)


def _seat_of(ev: GameEvent) -> int | None:
    seat = getattr(ev, "seat", None)
    return seat if isinstance(seat, int) else None


# the refusal of an event in a phase with no handler for it (default: out of phase, no seat)
OUT_OF_PHASE: dict[type[GameEvent], Callable[[GameEvent, Phase], Refusal]] = {
    FlowerDeclared: lambda ev, ph: Refusal("out_of_phase", _seat_of(ev), "a flower is replaced in the player's own turn"),
    MissingSuitDeclared: lambda ev, ph: Refusal("out_of_phase", None, f"not allowed in phase {ph}"),
    HandRevealed: lambda ev, ph: Refusal("out_of_phase", _seat_of(ev), "nothing to reveal now"),
    HandDead: lambda ev, ph: Refusal("out_of_phase", _seat_of(ev), "a hand is made dead during play"),
    RiichiDeclared: lambda ev, ph: Refusal("out_of_phase", None),
    DoraRevealed: lambda ev, ph: Refusal("out_of_phase", None),
}


def _dealers_first_action(ev: GameEvent) -> bool:
    """A discard, a self-drawn win or a kong of one's own: what only the dealer may do first."""
    return isinstance(ev, Discarded) or (isinstance(ev, Won) and ev.from_seat is None) or (
        isinstance(ev, MeldMade) and ev.kind in ("kong_concealed", "kong_added"))


def out_of_phase(p: Play, st: HandState, ev: GameEvent) -> Refusal:
    """Why ``ev`` has no place in the current phase (before the dealer's first action: the duty left)."""
    if st.phase is P.PRE_PLAY and _dealers_first_action(ev):
        refusal = pre_play_refusal(p, st, _seat_of(ev))
        if refusal is not None:
            return refusal
    refuse = OUT_OF_PHASE.get(type(ev))
    return refuse(ev, st.phase) if refuse is not None else Refusal("out_of_phase", None, f"not allowed in phase {st.phase}")


def implied(p: Play, st: HandState, ev: GameEvent) -> None:
    """The transitions ``ev`` implies before it is judged: the end of the open claim window, the end of
    the pre-play phase (the dealer's first action with every duty done)."""
    closes = CLOSED_BY.get(type(ev))
    if closes is not None and closes(st):
        close_window(st, window_outcome(st, p.rules))
    elif st.phase is PRE_PLAY and _dealers_first_action(ev) and pre_play_refusal(p, st, _seat_of(ev)) is None:
        end_pre_play(st)
