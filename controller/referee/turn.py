"""The turn and the claim window as the table times them: whose turn the record implies (the draws it
implies), the window opened by a discard and closed by its deadline, a call pressed on it."""
from __future__ import annotations

import dataclasses

from controller.referee import effects, ponds
from controller.referee.state import (
    CLAIM_CALLS,
    EARLY_PRESS_S,
    PANELS,
    RefereeState,
    Window,
)
from rules.events import (
    ButtonPressed,
    Claimed,
    ClaimTimed,
    Drew,
    Won,
)
from rules.game.state import Phase


def bring_turn(r: RefereeState, seat: int) -> bool:
    """Make it ``seat``'s turn by the draw the record implies (unseen: face down); False when it is not
    that seat's turn."""
    m = r.machine
    st = m.state
    if st.phase == Phase.PRE_PLAY:
        return seat == st.dealer
    if st.phase in (Phase.CLAIMS, Phase.ROB):
        close_window(r)
        if st.phase == Phase.ROB and not m.pending_winners:  # nobody robbed: the kong's replacement
            if st.window is None or seat != st.window.seat:
                return False
            r.claims.window = None
            return not effects.refused(effects.submit(r, Drew(seat=seat, tile="x", source="replacement")))
        if st.phase in (Phase.CLAIMS, Phase.ROB):  # a discard passed, or wins on it: the next draws
            if m.next_drawer() != seat:
                return False
            r.claims.window = None
            return not effects.refused(effects.submit(r, Drew(seat=seat, tile="x", source="wall")))
    if st.phase == Phase.DRAW and st.current == seat:
        return not effects.refused(effects.submit(r, Drew(seat=seat, tile="x", source="wall")))
    if st.phase == Phase.REPLACE and st.current == seat:
        return not effects.refused(effects.submit(r, Drew(seat=seat, tile="x", source="replacement")))
    return st.phase == Phase.TURN and st.current == seat


def open_window(r: RefereeState, seat: int, tile: str, t: float, rob: bool = False) -> None:
    mw = r.st.window
    deadline = mw.deadline if mw is not None and mw.deadline is not None else t + r.wait_s
    w = Window(seat, tile, t, deadline, rob=rob)
    r.claims.window = w
    early, r.claims.early = r.claims.early, []
    for press in early:  # calls pressed while the discard was being laid
        if press.t_mono >= t - EARLY_PRESS_S and press.seat != seat:
            claim_press(r, press)


def close_window(r: RefereeState) -> None:
    """The claim window closes: its accepted hu claims become wins (the profile's arbitration)."""
    w = r.claims.window
    if w is None or not w.hu:
        return
    w.hu = []
    for won in r.machine.arbitrate():
        if isinstance(won, Won) and r.variant.two_hands:  # judged with the hand it shows (Siamese)
            r.reveals.shown_wins[won.seat] = dataclasses.replace(won, slot=w.slots.get(won.seat, 0))
        elif isinstance(won, Won):
            effects.submit(r, won)
    if not w.rob:
        won_discard(r, w.discarder)


def won_discard(r: RefereeState, seat: int) -> None:
    """A win on ``seat``'s last discard: the winner took it (gone from the pond once the camera saw it go)."""
    rec = r.pond.record.get(seat)
    seen = ponds.real_seen(r, seat) if seat in r.pond.seen else None
    if rec and seen is not None and len(seen) < len(rec) and ponds.won_on(r, seat, rec[-1].tile):
        rec.pop()
        r.pond.odd.pop(seat, None)


def own_turn(r: RefereeState, seat: int) -> bool:
    """Whether ``seat`` is the player who acts now (its draw included): a hu then is self-drawn."""
    m = r.machine
    st = m.state
    if st.phase in (Phase.TURN, Phase.DRAW, Phase.REPLACE):
        return st.current == seat
    if st.phase == Phase.PRE_PLAY:
        return seat == st.dealer
    w = r.claims.window
    closed = r.at is not None and (w is None or r.at.t_mono > w.deadline)
    if st.phase == Phase.CLAIMS and closed:
        return m.next_drawer() == seat  # the window closed: the next player drew, and may win on it
    if st.phase == Phase.ROB and closed and m.pending_winners:
        return m.next_drawer() == seat  # the kong was robbed: the next player drew
    if st.phase == Phase.ROB and closed:
        return st.window is not None and st.window.seat == seat  # nobody robbed: his replacement
    return False


def claim_press(r: RefereeState, ev: ButtonPressed) -> None:
    """A call on the tile on offer, at the moment of the button: the hand machine judges it (its claim
    window times it on the shared clock: ``claim_late``)."""
    w = r.claims.window
    assert w is not None and ev.seat is not None
    seat, call = ev.seat, ev.call or "call"
    if seat == w.discarder or (seat, call) in w.calls:
        return
    w.calls.add((seat, call))
    timed(r, seat, call, ev.t_mono, "button")
    if seat not in w.presses or w.presses[seat][0] not in CLAIM_CALLS:
        w.presses[seat] = (call, ev.t_mono)
    if call not in CLAIM_CALLS:
        return  # a single call button: the set or the hand shown tells which claim
    w.slots[seat] = PANELS[ev.button]
    out = effects.submit(r, Claimed(seat=seat, kind=call, from_seat=w.discarder, tile=w.tile,
                               slot=PANELS[ev.button]), at=ev.t_mono)
    refusal = effects.refusal(out)
    if refusal is not None:
        if refusal.code == "claim_late":
            w.late.add(seat)
    elif call == "hu":
        w.hu.append(seat)


def timed(r: RefereeState, seat: int, kind: str, t: float, source: str) -> None:
    """The claim's timing for the judge's console: from the frame the tile settled, against the window."""
    w = r.claims.window
    mw = r.st.window
    assert w is not None
    limit = mw.deadline - mw.opened_at if mw is not None and mw.deadline is not None else 0.0
    delay = round(t - w.t_open, 3)
    effects.emit(r, ClaimTimed(seat=seat, kind=kind, from_seat=w.discarder, tile=w.tile, delay=delay,
                          window=round(limit, 3), late=bool(limit) and delay > limit, source=source,
                          **effects.stamp(r)))
