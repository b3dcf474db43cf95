"""The claim window: a tile on offer after a discard or an added kong (:class:`~rules.game.state.ClaimWindow`).

Opened by :func:`open_window`; closed only by :func:`close_window`, with the phase that follows — which
:func:`window_outcome` computes for whatever ends it without a meld (the next draw, the kong's
replacement, the end of the hand after wins on the tile). The events that end an open window by
themselves are listed in :data:`CLOSED_BY`. The checks of a claim (:func:`claim_refusal`) and the
machine's proposal of what the claims lead to (:func:`proposals`) live here too. Everything but
``open_window``, ``close_window`` and ``void_robbed_kong`` is pure.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rules.events import Drew, ExhaustiveDraw, GameEvent, HandRevealed, MeldMade, Settled, Won
from rules.game.flow import Refusal, Turn, build_meld
from rules.game.state import CLAIMS, DISCARD_WINDOW, DRAW, ROB, ClaimWindow, HandState, Phase, WindowKind
from rules.notation import Meld, MeldKind, format_tiles
from rules.tiles import KIND_OF, Tile

if TYPE_CHECKING:  # pragma: no cover
    from rules.game.protocols import RuleSet

CLAIM_KINDS = ("hu", "kong", "pung", "chow")
MELD_FOR_CLAIM = {"chow": MeldKind.CHOW, "pung": MeldKind.PUNG, "kong": MeldKind.KONG_OPEN}
CLAIM_FOR_MELD = {"chow": "chow", "pung": "pung", "kong_open": "kong"}


def open_window(st: HandState, rules: RuleSet, kind: WindowKind, seat: int, tile: Tile, at: float) -> None:
    """Offer ``tile`` (discarded or added to a kong by ``seat``) to the other players from ``at``."""
    limit = rules.capabilities.claim_window_s
    wall = st.wall
    assert wall is not None
    st.window = ClaimWindow(kind, seat, tile, at, at + limit if limit is not None else None,  # opened_at, deadline
                            kind is DISCARD_WINDOW and wall.remaining == 0)  # last_tile
    st.phase = CLAIMS if kind is DISCARD_WINDOW else Phase.ROB


def close_window(st: HandState, turn: Turn) -> None:
    """The one place a claim window closes: the tile is no longer on offer and ``turn`` begins."""
    st.window = None
    st.phase, st.current = turn


# --- what closing the window leads to ------------------------------------------------------------------

def hand_ends_after_wins(st: HandState, rules: RuleSet) -> bool:
    """Whether the wins so far end the hand (rather than play going on, Sichuan's blood battle)."""
    limit = rules.capabilities.max_winners or (len(st.seats) - 1)
    n = sum(1 for w in st.wins if w.valid is not False)
    return not rules.capabilities.continue_after_win or n >= limit or not st.active_seats()


def after_wins(st: HandState, rules: RuleSet, last_winner: int) -> Turn:
    """The turn after wins whose last winner (in turn order) is ``last_winner``: the end of the hand,
    an exhausted wall, or the next player still in the hand draws (000 §2.6.2.1)."""
    if hand_ends_after_wins(st, rules):
        return (Phase.ENDED, st.current)
    if st.wall_remaining == 0:
        return (Phase.EXHAUSTED, st.current)
    nxt = st.next_active(last_winner)
    return (Phase.ENDED, st.current) if nxt is None else (Phase.DRAW, nxt)


def window_outcome(st: HandState, rules: RuleSet) -> Turn:
    """What closing the open window without a meld leads to: after wins on the tile, the turn after the
    last winner; an added kong nobody robbed: its replacement tile; a discard nobody took: the next
    player's draw, or the exhaustive draw when the wall is empty."""
    w = st.window
    assert w is not None
    if w.winners:
        order = st.seat_order(w.seat)
        return after_wins(st, rules, max(w.winners, key=order.index))
    if w.kind is not DISCARD_WINDOW:  # w.robbing, inlined (asked on every draw)
        return (Phase.REPLACE, st.current)
    wall = st.wall
    assert wall is not None
    if wall.remaining == 0:
        return (Phase.EXHAUSTED, st.current)
    nxt = st.next_active(w.seat)
    return (DRAW, nxt if nxt is not None else st.current)


def _closed_by_exhaustive_draw(st: HandState) -> bool:
    w = st.window
    return w is not None and (bool(w.winners) or (not w.robbing and st.wall_remaining == 0))


def _closed_after_wins(st: HandState) -> bool:
    return st.window is not None and bool(st.window.winners)


# event types that end an open window by themselves (and when): the event is judged in the turn the
# close leads to (:func:`window_outcome`), and the window closes when it is accepted
CLOSED_BY: dict[type[GameEvent], Callable[[HandState], bool]] = {
    Drew: lambda st: st.window is not None,  # whoever draws, nobody took the tile (or the wins on it are over)
    ExhaustiveDraw: _closed_by_exhaustive_draw,
    HandRevealed: _closed_after_wins,
    Settled: _closed_after_wins,
}


def void_robbed_kong(st: HandState) -> None:
    """The robbed added kong is invalid: its meld goes back to a pung, and it was no kong."""
    w = st.window
    assert w is not None and st.wall is not None
    ks = st.seat_state[w.seat]
    for i, m in enumerate(ks.melds):
        if m.kind is MeldKind.KONG_ADDED and m.base == w.tile.kind:
            rest = list(m.tiles)
            rest.remove(w.tile)
            meld = build_meld(rest)
            assert isinstance(meld, Meld)
            ks.melds[i] = meld
    st.wall.kongs -= 1


# --- claims ---------------------------------------------------------------------------------------------

def claim_refusal(st: HandState, rules: RuleSet, phase: Phase, seat: int, kind: str, from_seat: int | None,
                  tile: Tile, at: float | None = None) -> Refusal | None:
    """Whether ``seat`` may claim ``tile`` from ``from_seat`` for ``kind`` now: the tile on offer, not
    one's own, a claim the profile has, a chow from the left, the last discard, in time (``at``: when
    the claim was made, checked against the window's deadline), an active player, the profile's own
    objections (``claim_check``)."""
    if seat not in st.seat_state:
        return Refusal("bad_event", seat, f"seat {seat} is not at the table")
    w = st.window
    if phase is ROB and w is not None:
        if kind != "hu":
            return Refusal("claim_not_allowed", seat, "an added kong can only be robbed for a win")
        if (from_seat, tile) != (w.seat, w.tile):
            return Refusal("out_of_phase", seat, "a claim on a tile that is not on offer")
        if seat == w.seat:
            return Refusal("claim_own_discard", seat)
    else:
        if phase is not CLAIMS or w is None:
            return Refusal("out_of_phase", None, f"not allowed in phase {phase}")
        bad = _discard_claim_refusal(st, rules, w, seat, kind, from_seat, tile)
        if bad is not None:
            return bad
    if at is not None and w.deadline is not None and at > w.deadline:
        return Refusal("claim_late", seat, f"claimed {at - w.opened_at:g} s after the tile was offered "
                                           f"(claim time {w.deadline - w.opened_at:g} s)")
    ss = st.seat_state[seat]
    if ss.won or (ss.dead and not (kind == "hu" and rules.capabilities.dead_hand_win_is_false)):
        return Refusal("claim_inactive_player", seat)
    if kind == "hu" and seat in w.winners:
        return Refusal("out_of_phase", seat, "this player has won on this tile already")
    objection = rules.claim_check(st, seat, kind, tile)
    return Refusal(objection[0], seat, objection[1]) if objection else None


def _discard_claim_refusal(st: HandState, rules: RuleSet, w: ClaimWindow, seat: int, kind: str,
                           from_seat: int | None, tile: Tile) -> Refusal | None:
    if from_seat != w.seat or KIND_OF[tile] != KIND_OF[w.tile]:
        return Refusal("out_of_phase", seat, f"the discard on offer is {w.tile} from seat {w.seat}")
    if seat == w.seat:
        return Refusal("claim_own_discard", seat)
    kongs = st.spec is not None and st.spec.kongs
    if kind not in CLAIM_KINDS or (kind == "chow" and not rules.capabilities.chow_allowed) or (kind == "kong" and not kongs):
        return Refusal("claim_not_allowed", seat, f"no {kind} claim in this profile")
    if kind == "chow" and not rules.may_chow_from(st, seat, w.seat):
        return Refusal("chow_not_from_left", seat)
    if w.last_tile and kind not in rules.capabilities.last_discard_claims:
        code = "kong_on_last_tile" if kind == "kong" else "claim_last_tile"
        return Refusal(code, seat, f"the last discard cannot be claimed for {kind}")
    return None


def higher_claim(st: HandState, rules: RuleSet, seat: int, kind: str) -> int | None:
    """Another claimant whose claim comes before ``seat``'s ``kind`` (priority, then turn order)."""
    w = st.window
    prio = rules.capabilities.claim_priority
    order = st.seat_order(w.seat) if w is not None and w.kind is DISCARD_WINDOW else list(st.seats)
    mine = (prio.get(kind, 0), -order.index(seat))
    for c in w.claims if w is not None else ():
        if c.seat != seat and (prio.get(c.kind, 0), -order.index(c.seat)) > mine:
            return c.seat
    return None


def hu_claim_refusal(st: HandState, rules: RuleSet, phase: Phase, seat: int, from_seat: int | None,
                     tile: Tile) -> Refusal | None:
    """A win on a discard (or a robbed kong): a legal claim, and the nearest claimant when the profile
    allows one winner only."""
    bad = claim_refusal(st, rules, phase, seat, "hu", from_seat, tile)
    if bad is None and phase is CLAIMS and not rules.capabilities.multiple_winners:
        other = higher_claim(st, rules, seat, "hu")
        if other is not None:
            return Refusal("claim_priority", seat, f"seat {other} is nearer to the discarder")
    return bad


def proposals(st: HandState, rules: RuleSet, win_shows_hand: bool = False) -> list[GameEvent]:
    """The events the claims announced so far lead to: every hu (or the nearest, with head bump), else
    the highest-priority meld (ties: turn order from the discarder), else ``[]``."""
    w = st.window
    if w is None or not w.claims:
        return []
    order = {s: i for i, s in enumerate(st.seat_order(w.seat))}
    claims = sorted(w.claims, key=lambda c: order[c.seat])
    hus = [c for c in claims if c.kind == "hu" and c.seat not in w.winners]
    hid = st.hand_id
    if hus:
        if not rules.capabilities.multiple_winners:
            hus = hus[:1] if not w.winners else []
        return [Won(seat=c.seat, tile=str(w.tile), from_seat=w.seat, robbing_kong=w.robbing,
                    last_tile=w.last_tile, hand_id=hid, slot=c.slot,
                    hand=format_tiles(c.tiles) if win_shows_hand else "") for c in hus]
    melds = [c for c in claims if c.kind != "hu"]
    if w.robbing or w.winners or not melds:
        return []
    prio = rules.capabilities.claim_priority
    best = max(melds, key=lambda c: (prio.get(c.kind, 0), -order[c.seat]))
    return [MeldMade(seat=best.seat, kind=MELD_FOR_CLAIM[best.kind].value, from_seat=w.seat,
                     tiles=tuple(str(t) for t in (*best.tiles, w.tile)), claimed_tile=str(w.tile), hand_id=hid,
                     slot=best.slot)]
