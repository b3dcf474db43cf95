"""What the passing of time makes due, acted on before an input is looked up (as the hand machine's
``implied()``): a claim window's deadline, the reveals after an exhaustive draw, a pond or a rack that
stayed unlike the record."""
from __future__ import annotations

from controller.referee import (
    discards,
    ending,
    racks,
    turn,
)
from controller.referee.state import (
    POND_SETTLE_S,
    RACK_SETTLE_S,
    RefereeState,
)


def due_before(r: RefereeState, t: float) -> bool:
    if r.replayed is not None:
        return False  # the hand ended to be dealt again: nothing comes due
    w = r.claims.window
    if w is not None and t > w.deadline and (w.hu or r.reveals.held or (r.st.wall_remaining == 0 and not w.rob)):
        return True
    if r.reveals.exhausting_since is not None and t > r.reveals.exhausting_since + r.reveal_wait_s:
        return True
    if discards.unread_due(r, t):  # an unreadable new tile: still so
        return True
    if ending.stale_reveals(r, t):
        return True
    return any(t - since >= POND_SETTLE_S for since in r.pond.odd.values()) or any(
        t - since >= RACK_SETTLE_S for since in r.racks.odd.values())


def due(r: RefereeState, t: float) -> None:
    """Act on what the passing of time decided before ``t``: a claim window whose deadline passed
    (its wins are granted), the reveals after an exhaustive draw."""
    w = r.claims.window
    if w is not None and t > w.deadline:
        if w.hu:
            turn.close_window(r)
        if r.reveals.exhausting_since is None and ending.wall_done(r):
            r.reveals.exhausting_since = w.deadline  # the last discard passed: the wall is exhausted
    if r.reveals.exhausting_since is not None and t > r.reveals.exhausting_since + r.reveal_wait_s:
        ending.finish_exhaustion(r)
    ending.release_held(r)
    discards.odd_ponds(r, t)
    racks.odd_racks(r, t)
