"""Rule-set variants the referee follows as the table shows them, as data (:class:`~controller.referee.state.Variant`,
chosen by :func:`variant_for` from the profile's capabilities and table conventions), and Sichuan WMSG's flow:
the missing suit shows with each player's first discard (002 §5.2-5.3)."""
from __future__ import annotations

from controller.referee import effects, questions
from controller.referee.state import (
    CLAIM_OF_MELD,
    TILE_TEXTS,
    RefereeState,
    Variant,
)
from rules.events import (
    ButtonPressed,
    Event,
    MeldSeen,
    MissingSuitDeclared,
    PondTileSeen,
    TilesRevealed,
)
from rules.game.protocols import RuleSet
from rules.game.state import Phase
from rules.game.table_data import TableConventions


def variant_for(profile: RuleSet, conv: TableConventions) -> Variant:
    """The referee's variant of ``profile`` at a table with conventions ``conv`` (its own, as a rule)."""
    caps = profile.capabilities
    return Variant(missing_suit_from_first_discard=missing_suit_from_first_discard(profile, conv),
                   two_hands=caps.two_hands, ura_after_riichi_win=caps.has_riichi,
                   kong_drawn_tile_paid=profile.referee_notes.kong_drawn_tile_paid)


def missing_suit_from_first_discard(profile: RuleSet, conv: TableConventions | None = None) -> bool:
    """A rule set with a missing suit whose table has no cards for it: each player's first discard, his
    set-aside tile, shows it (Sichuan WMSG, 002 §5.2-5.3)."""
    table = conv if conv is not None else profile.table_conventions
    return "missing_suit" in profile.capabilities.pre_play and not table.missing_suit_cards


def suits_pending(r: RefereeState) -> bool:
    st = r.st
    return (st.phase == Phase.PRE_PLAY and r.variant.missing_suit_from_first_discard and any(st.seat_state[s].missing_suit is None for s in st.seats))


def learn_wmsg(r: RefereeState, ev: Event) -> None:
    """While the suits are face down, each seat's first discard (its set-aside tile) names its suit;
    once all are known they are declared and the held play goes through."""
    st = r.st
    if not suits_pending(r):
        return
    if r.wmsg.next is None:
        r.wmsg.next = st.dealer
    seat = getattr(ev, "seat", None)
    if isinstance(ev, MeldSeen) and ev.kind in CLAIM_OF_MELD:
        r.wmsg.next = seat  # a claim: the claimant discards next
    if seat is None or seat not in st.seat_state:
        return
    if isinstance(ev, ButtonPressed) and ev.call == "hu" and ev.button == "call":
        r.wmsg.out.add(seat)  # a hu: the player leaves (blood battle), the next one plays on
        r.wmsg.next = wmsg_after(r, seat)
    if isinstance(ev, PondTileSeen):
        if seat != r.wmsg.next:
            return  # out of turn: not the set-aside tile
        r.wmsg.next = wmsg_after(r, seat)
        if seat in r.wmsg.suits or ev.index != 0 or seat in r.wmsg.card:
            return
        if ev.tile not in TILE_TEXTS:
            r.at = ev
            r.wmsg.next = seat
            questions.ask_tile(r, ev, "pond", ev.index)
            return
        if ev.tile[-1] not in "mps":
            questions.ask_suit(r, seat)
            return
        r.wmsg.suits[seat] = ev.tile[-1]
        declare_suits(r)
    elif seat not in r.wmsg.suits and ((isinstance(ev, ButtonPressed) and ev.call == "hu")
                                          or isinstance(ev, TilesRevealed)):
        questions.ask_suit(r, seat)  # a win before the first discard: the set-aside tile is not shown


def wmsg_after(r: RefereeState, seat: int) -> int:
    order = r.st.seat_order(seat)
    return next((s for s in order[1:] if s not in r.wmsg.out), seat)


def declare_suits(r: RefereeState) -> None:
    st = r.st
    if st.phase != Phase.PRE_PLAY or not all(s in r.wmsg.suits or st.seat_state[s].missing_suit
                                             for s in st.seats):
        return
    for s in st.seats:
        if st.seat_state[s].missing_suit is None:
            effects.submit(r, MissingSuitDeclared(seat=s, suit=r.wmsg.suits[s]))
