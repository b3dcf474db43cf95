"""The hand machine: one deterministic, event-driven state machine for every profile and both modes.

Everything that happens in a hand is a game event (``rules.events``) submitted to :meth:`HandMachine.submit`.
The machine looks the event up in its dispatch table (``rules.game.dispatch``: (phase, event type) →
handler), runs the handler's pure check against the phase, the rules common to all profiles and the
profile's hooks (``rules.game.profile_api.RuleSet``), then either applies it to the hand's state
(:class:`~rules.game.state.HandState`, the whole hand in one structure) or refuses it with a typed
:class:`~rules.events.Violation` (never an exception: the referee reports it and the hand goes on; a
refused event changes nothing). Both go to :attr:`HandMachine.log`; a hand replays from its log to the
identical state (:func:`replay`).

The machine decides nothing by itself: a driver (the bot simulator, the camera referee) submits the events.
Where the rules decide (claim arbitration, settlement, next dealer) the machine *proposes* the events
(:meth:`arbitrate`, :meth:`settlement`, :meth:`hand_end`) and checks them when they are submitted, so the
log stays a plain list of inputs.

**Two information modes.** ``mode="full"``: every tile is known (simulation, tests); a draw must be the
tile at that wall position when the wall is given. ``mode="table"``: what the camera sees — concealed
tiles, the wall and self-drawn tiles are ``x``; counts are always known. Checks needing hidden tiles run
in *both* modes at the same point of the flow, when the player's tiles are revealed (``HandRevealed``):
whether a declared win is legal, furiten, a false tenpai, the profile's reveal checks (Sichuan's pig) and
tile conservation (every discard and meld tile was held). So the verdicts of the two modes are equal.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from functools import cache
from typing import Any, ClassVar

from rules.events import Dealt, Drew, Event, GameEvent, HandEnded, JSONObject, Settled, Violation, Won
from rules.game.dispatch import DISPATCH, HANDLED, implied, out_of_phase
from rules.game.ending import next_dealer_of, settlement_of
from rules.game.flow import Handler, Play, Variant
from rules.game.protocols import RuleSet
from rules.game.state import PRE_PLAY, HandState, Phase
from rules.game.window import CLOSED_BY, hand_ends_after_wins, proposals, window_outcome
from rules.tiles import Tile
from rules.wall import WallSpec

STANDARD = Variant("standard")


@cache
def _handlers(variant: Variant) -> dict[tuple[Phase, type[GameEvent]], Handler[Any]]:
    return {**DISPATCH, **variant.handlers}


class HandMachine:
    """One hand. ``profile``: a :class:`rules.profiles.base.Profile`; ``mode``: ``"full"`` or ``"table"``;
    ``wall``: the wall in draw order when known (full information), to check every draw. The hand's
    shape is the class's :attr:`variant` (``rules.game.siamese.SiameseHandMachine``: two hands each)."""

    variant: ClassVar[Variant] = STANDARD

    def __init__(self, profile: RuleSet, mode: str = "full", wall: tuple[Tile, ...] | None = None):
        if mode not in ("full", "table"):
            raise ValueError(f"mode must be 'full' or 'table', not {mode!r}")
        self.profile = profile
        self.sequence = wall
        self.state = HandState(profile=profile.name, mode=mode)
        self.log: list[Event] = []
        self._play = Play(profile, self.variant, wall)
        self._table = _handlers(self.variant)

    # ------------------------------------------------------------------------------------------------
    # public API

    @property
    def phase(self) -> Phase:
        return self.state.phase

    @property
    def spec(self) -> WallSpec | None:
        return self.state.spec

    def submit(self, ev: Event) -> list[Event]:
        """Apply one event. Returns what was recorded: the event (plus violations it revealed), or a
        Violation instead of it when it is illegal. Observation and device events are ignored (``[]``)."""
        if not isinstance(ev, GameEvent):
            return []
        typ = type(ev)
        st = self.state
        p = self._play
        if typ not in HANDLED:
            return self._record([p.violation("out_of_phase", None, f"{ev.TYPE} is not handled", ev, ev,
                                             hand_id=st.hand_id)])
        if typ in CLOSED_BY or st.phase is PRE_PLAY:  # nothing is implied otherwise (dispatch.implied)
            implied(p, st, ev)
        handler = self._table.get((st.phase, typ))
        refusal = out_of_phase(p, st, ev) if handler is None else handler.check(p, st, ev)
        if refusal is not None:
            return self._record([p.violation(refusal.code, refusal.seat, refusal.message, ev, ev,
                                             hand_id=st.hand_id)])
        assert handler is not None
        p.at = ev
        if p.notes:  # left by a check (checks are pure: none should be); an event's own are taken below
            p.notes = []
        handler.apply(p, st, ev)
        st.history.append(ev)
        notes = p.notes
        if not notes:  # the usual case: the event alone
            self.log.append(ev)
            return [ev]
        p.notes = []
        return self._record([ev, *notes])

    def to_json(self) -> JSONObject:
        return self.state.to_json()

    # ------------------------------------------------------------------------------------------------
    # helpers for drivers: what the machine proposes (submit it to have it checked and applied)

    def draw_tile(self, source: str = "wall") -> Tile | None:
        """Full information: the tile the next draw from ``source`` takes (None when unknown/empty)."""
        if self.sequence is None or self.state.wall is None:
            return None
        w = self.state.wall
        pos = w.draw_position() if source == "wall" else w.replacement_position()
        return self.sequence[pos] if pos is not None else None

    def arbitrate(self) -> list[GameEvent]:
        """The events the claims announced so far lead to: every hu (or the nearest, with head bump),
        else the highest-priority meld (ties: turn order from the discarder), else ``[]``."""
        return proposals(self.state, self.profile, self.variant.win_shows_hand)

    @property
    def pending_winners(self) -> list[int]:
        """Seats that won on the discard (or robbed kong) whose claim window is still open."""
        w = self.state.window
        return list(w.winners) if w is not None else []

    def window_ends_hand(self) -> bool:
        """Whether closing the open window after its wins ends the hand (rather than play going on)."""
        return hand_ends_after_wins(self.state, self.profile)

    def next_drawer(self) -> int | None:
        """Who draws from the wall next once the open claim window closes without a meld (None: nobody —
        the hand ends, the wall is exhausted, or an added kong's replacement follows)."""
        st = self.state
        if st.phase is Phase.DRAW:
            return st.current if st.wall_remaining > 0 else None
        if st.window is None:
            return None
        phase, current = window_outcome(st, self.profile)
        return current if phase is Phase.DRAW else None

    def settlement(self) -> Settled:
        """The settlement the machine computes (submit it to close the hand)."""
        return settlement_of(self._play, self.state)

    def hand_end(self) -> HandEnded:
        st = self.state
        reason = "win" if st.valid_wins() else ("exhaustive_draw" if st.exhaustive else "no_win")
        return HandEnded(next_dealer=next_dealer_of(self._play, st), reason=reason, hand_id=st.hand_id)

    # ------------------------------------------------------------------------------------------------
    def _record(self, evs: list[Event]) -> list[Event]:
        for e in evs:
            if isinstance(e, Violation):
                self.state.violations.append(e)
        self.log.extend(evs)
        return evs


def replay(profile: RuleSet, events: Iterable[Event], mode: str = "full",
           wall: tuple[Tile, ...] | None = None, machine: type[HandMachine] | None = None) -> HandMachine:
    """Rebuild a hand from its log: accepted events are resubmitted, rejected ones (violations carrying
    the rejected event) are resubmitted to be rejected again, violations found while applying an event
    are found again. ``machine``: the machine class (default :class:`HandMachine`)."""
    m = (machine or HandMachine)(profile, mode, wall)
    for ev in events:
        if isinstance(ev, Violation):
            if ev.action:
                m.submit(Event.from_json(dict(ev.action)))
            continue
        m.submit(ev)
    return m


def table_view(events: Iterable[Event], wins_shown: bool = False) -> list[Event]:
    """What a camera above the table sees of a full-information log: dealt and drawn tiles face down
    (``x``), a self-drawn winning tile face down until the reveal (unless ``wins_shown``: a win shown at
    its declaration); rejected actions dropped (the referee sees only what happened)."""
    out: list[Event] = []
    for ev in events:
        if isinstance(ev, Violation):
            continue
        if isinstance(ev, Dealt):
            ev = dataclasses.replace(ev, tiles=tuple("x" for _ in ev.tiles))
        elif isinstance(ev, Drew):
            ev = dataclasses.replace(ev, tile="x")
        elif isinstance(ev, Won) and ev.from_seat is None and not wins_shown:
            ev = dataclasses.replace(ev, tile="x")
        out.append(ev)
    return out
