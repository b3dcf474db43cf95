"""The end of the hand: hands laid face up (held until their claim window closes and the ura indicators
are turned), the exhaustive draw, the settlement, the seats' or the judge's confirmation."""
from __future__ import annotations

import dataclasses
from collections import Counter

from controller.referee import effects, ponds, questions, turn
from controller.referee.state import (
    PANELS,
    TILE_TEXTS,
    FollowUp,
    RefereeState,
)
from rules.events import (
    ButtonPressed,
    ExhaustiveDraw,
    HandRevealed,
    ResultConfirmed,
    TilesRevealed,
)
from rules.game.state import Phase
from rules.notation import Hand, format_tiles
from rules.wall import tile_set


def on_revealed(r: RefereeState, ev: TilesRevealed) -> FollowUp | None:
    if any(t not in TILE_TEXTS for t in ev.tiles):
        if not reveal_expected(r, ev.seat):
            # nobody shows a hand now: the camera took something else for one (Siamese racks seen from
            # above); asked only if a hand becomes due and the camera shows no other
            r.reveals.unread[ev.seat] = ev
            return None
        questions.ask_tile(r, ev, "hand", None)
        return None
    r.reveals.unread.pop(ev.seat, None)
    r.reveals.due.pop(ev.seat, None)
    if r.reveals.shown.get(ev.seat) == tuple(ev.tiles) or ev.seat not in r.st.seat_state:
        return None
    if any(h.seat == ev.seat for h in r.reveals.held):
        r.reveals.held = [h for h in r.reveals.held if h.seat != ev.seat]
    r.reveals.held.append(ev)
    w = r.claims.window
    if r.reveals.exhausting_since is None and wall_done(r) and not (w is not None and w.presses and not w.taken
                                                                    and ev.t_mono <= w.deadline):
        r.reveals.exhausting_since = ev.t_mono  # the last discard passed: the ready hands are shown
    if r.reveals.exhausting_since is not None:
        r.reveals.exhausting_since = max(r.reveals.exhausting_since, ev.t_mono)
        if all_shown(r):
            finish_exhaustion(r)
        return None
    return FollowUp.REVEALS


def reveal_expected(r: RefereeState, seat: int) -> bool:
    """Whether ``seat`` may be showing its hand now: its win or claim, an exhaustive draw, play over."""
    st = r.st
    w = r.claims.window
    return (st.phase in (Phase.EXHAUSTED, Phase.ENDED, Phase.SETTLED, Phase.OVER)
            or any(x.seat == seat for x in st.wins) or seat in r.reveals.shown_wins or seat in r.reveals.rack_wins
            or (w is not None and seat in w.presses) or r.reveals.exhausting_since is not None or wall_done(r))


def stale_reveals(r: RefereeState, t: float) -> list[int]:
    """Seats whose hand is due, of which the camera showed only an unreadable one, for ``reveal_wait_s``."""
    out = []
    for seat in sorted(r.reveals.unread):
        if reveal_expected(r, seat) and t - r.reveals.due.setdefault(seat, t) >= r.reveal_wait_s:
            out.append(seat)
    return out


def wall_done(r: RefereeState) -> bool:
    """The wall is empty and the last discard's window holds no claim that ends the hand: an exhaustive
    draw (after any wins on that discard, where play would go on)."""
    st = r.st
    m = r.machine
    if st.wall_remaining != 0:
        return False
    if st.phase == Phase.EXHAUSTED:
        return True
    if st.phase != Phase.CLAIMS:
        return False
    if m.pending_winners:
        return not m.window_ends_hand()
    return not (st.window is not None and st.window.claims)


def all_shown(r: RefereeState) -> bool:
    st = r.st
    shown = {h.seat for h in r.reveals.held} | {s for s in st.seats if st.seat_state[s].revealed}
    return all(s in shown for s in st.seats)


def release_held(r: RefereeState) -> None:
    """Submit the reveals that may go now: after their claim window (all wins on a discard are granted
    first) and, for a riichi winner, after the ura indicators were turned."""
    if not r.reveals.held or r.reveals.exhausting_since is not None:
        return
    w = r.claims.window
    if w is not None and w.hu and r.at is not None and r.at.t_mono <= w.deadline:
        return  # other players may still claim the same discard
    turn.close_window(r)
    while r.reveals.held and r.asking.open is None:
        ev = r.reveals.held[0]
        if awaits_ura(r, ev.seat):
            return
        r.reveals.held.pop(0)
        reveal(r, ev)
    maybe_settle(r)


def awaits_ura(r: RefereeState, seat: int) -> bool:
    st = r.st
    if not r.variant.ura_after_riichi_win or not st.seat_state[seat].riichi:
        return False
    if not any(w.seat == seat and w.valid is None for w in st.wins):
        return False
    return len(r.dora.ura) < len(r.dora.indicators)


def over_copies(r: RefereeState, seat: int, shown: tuple[str, ...]) -> list[str]:
    """Tiles of which more copies would lie face up than the set holds with ``shown`` revealed: some
    observation was misread (a tile that cannot be there)."""
    spec = r.machine.spec
    if spec is None:
        return []
    copies = Counter(ponds.tile_kind(str(t)) for t in tile_set(spec.tile_set))
    up: Counter[str] = Counter(ponds.tile_kind(t) for t in shown)
    for s, ss in r.st.seat_state.items():
        up.update(ponds.tile_kind(str(t)) for t, taken in zip(ss.pond, ss.pond_claimed) if not taken)
        up.update(ponds.tile_kind(str(t)) for m in ss.melds for t in m.tiles if not t.is_unknown)
        up.update(ponds.tile_kind(str(t)) for t in ss.flowers)
        if ss.revealed and s != seat:
            up.update(ponds.tile_kind(str(t)) for t in ss.tiles())
    up.update(ponds.tile_kind(t) for t in r.dora.indicators)
    return sorted(k for k, n in up.items() if n > copies.get(k, 0))


def reveal(r: RefereeState, ev: TilesRevealed) -> None:
    st = r.st
    tiles = tuple(ev.tiles)
    won = r.reveals.shown_wins.pop(ev.seat, None)
    if won is not None:  # Siamese: the winning hand laid face up names the win (003 §Сиамский 11)
        won = dataclasses.replace(won, hand=format_tiles(ponds.tiles_of(tiles)), drawn_tile=None)
        if won.from_seat is None:  # the self-drawn tile shown apart; the rack tells whether it was drawn
            r.reveals.rack_wins[ev.seat] = dataclasses.replace(won, tile=tiles[-1])
        else:
            effects.submit(r, won)
            turn.won_discard(r, won.from_seat)
        return None
    over = over_copies(r, ev.seat, tiles)
    if over and not r.reveals.copies_ok:
        return questions.ask_copies(r, ev, over)
    win = next((w for w in st.wins if w.seat == ev.seat and w.valid is None), None)
    winning = tiles[-1] if win is not None and win.from_seat is None and tiles else ""
    if not effects.refused(effects.submit(r, HandRevealed(seat=ev.seat, tiles=tiles, winning=winning))):
        r.reveals.shown[ev.seat] = tiles


def finish_exhaustion(r: RefereeState) -> None:
    st = r.st
    if r.reveals.exhausting_since is None:
        return
    r.reveals.exhausting_since = None
    r.claims.window = None
    shown = {h.seat: h for h in r.reveals.held}
    tenpai = []
    for s in st.seats if not r.variant.two_hands else ():  # (Siamese: no ready hands, §14)
        ss = st.seat_state[s]
        h = shown.get(s)
        if h is None or not ss.active:
            continue
        hand = Hand(tuple(ponds.tiles_of(h.tiles)), tuple(ss.melds), None, tuple(ss.flowers))
        if r.profile.waits(hand):
            tenpai.append(s)
    if st.phase in (Phase.CLAIMS, Phase.EXHAUSTED, Phase.DRAW):
        effects.submit(r, ExhaustiveDraw(tenpai=tuple(tenpai)))
    while r.reveals.held and r.asking.open is None:
        reveal(r, r.reveals.held.pop(0))
    maybe_settle(r)


def pending_reveals(r: RefereeState) -> list[int]:
    """Seats whose hand must still be shown before the settlement (as the bot driver shows them)."""
    st = r.st
    if r.variant.two_hands:  # Siamese: every pool is shown at the end (an empty one needs no look)
        for s in st.seats:
            ss = st.seat_state[s]
            if not ss.revealed and ss.n_concealed == 0:
                effects.submit(r, HandRevealed(seat=s, tiles=()))
        return [s for s in st.seats if not st.seat_state[s].revealed]
    seats: list[int] = []
    for w in st.wins:
        if w.seat not in seats:
            seats.append(w.seat)
    if st.exhaustive:
        seats += [s for s in st.seats if s not in seats and (r.profile.capabilities.reveal_all_at_draw
                                                              or s in st.tenpai_declared)]
    judged = {w.seat for w in st.wins if w.valid is not None}
    return [s for s in seats if not st.seat_state[s].revealed and not (s in judged and not st.exhaustive)]


def maybe_settle(r: RefereeState) -> None:
    m = r.machine
    if m.phase != Phase.ENDED or pending_reveals(r) or r.asking.open is not None:
        return
    if r.racks.kong:  # no rack was seen after an added kong: where did its tile come from?
        return questions.ask_kong_tile(r, min(r.racks.kong))
    effects.submit(r, m.settlement())
    if r.st.phase == Phase.SETTLED:  # (the settlement moved the phase on)
        effects.submit(r, m.hand_end())


def confirm(r: RefereeState, ev: ButtonPressed) -> None:
    if r.reveals.exhausting_since is not None and ev.button in PANELS:
        finish_exhaustion(r)
    st = r.st
    if not r.settled or r.signing.confirmed is not None or any(ev is w for w in r.log.withdrawn):
        return
    if ev.seat is None:  # the judge
        by, seats = "judge", tuple(sorted(r.signing.seats))
    else:
        r.signing.seats.add(ev.seat)
        if not all(s in r.signing.seats for s in st.seats):
            return
        by, seats = "seats", tuple(sorted(r.signing.seats))
    r.signing.confirmed = ResultConfirmed(by=by, seats=seats, deltas=r.deltas(), revision=r.log.revision,
                                      **effects.stamp(r))
    effects.emit(r, r.signing.confirmed)
