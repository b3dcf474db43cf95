"""Rack counts: a hand with the wrong number of tiles (the camera counts the backs), and the rack after
an added kong (where its fourth tile came from, 000 §2.5.3)."""
from __future__ import annotations

import dataclasses

from controller.referee import effects
from controller.referee.state import (
    RACK_SETTLE_S,
    RefereeState,
    replay_machine,
)
from controller.referee.verdicts import referee_rule
from rules.events import (
    HandDead,
    MeldMade,
    RackCounted,
)
from rules.game.state import Phase


def on_rack(r: RefereeState, ev: RackCounted) -> None:
    """The rack after an added kong tells where its fourth tile came from: the drawn tile kept apart went
    to the set (none left apart) or one from the hand did (the drawn tile still apart) — 000 §2.5.3:
    only a kong with the tile just drawn is paid at once (the log's kong event is completed, replayed)."""
    r.racks.count[ev.seat] = ev.standing
    won = r.reveals.rack_wins.pop(ev.seat, None)
    if won is not None:  # 003 §Сиамский 17: a drawn tile still apart was kept (the win did not use it)
        effects.submit(r, dataclasses.replace(won, drawn_tile=ev.apart == 0))
    check_rack(r, ev.seat, ev.t_mono)
    k = r.racks.kong.pop(ev.seat, None)
    if k is None:
        return
    log = list(r.machine.log)
    kong = log[k] if k < len(log) else None
    if isinstance(kong, MeldMade) and kong.drawn_tile is None:
        log[k] = dataclasses.replace(kong, drawn_tile=ev.apart == 0)
        r.machine = replay_machine(r.profile, log)


def rack_expected(r: RefereeState, seat: int) -> int | None:
    """The tiles ``seat``'s rack must hold now, or None while that is in motion (his own turn, a claim
    of his in the air, the hand shown or over)."""
    st = r.st
    ss = st.seat_state.get(seat)
    if ss is None or ss.revealed or ss.won or st.phase not in (Phase.CLAIMS, Phase.DRAW, Phase.TURN):
        return None
    if r.variant.two_hands:  # two racks of fourteen: the table's camera does not count them
        return None
    if st.current == seat or r.machine.next_drawer() == seat:
        return None
    w = r.claims.window
    if w is not None and (seat in w.presses or w.taken is not None):
        return None
    return ss.n_concealed


def check_rack(r: RefereeState, seat: int, t: float) -> None:
    want = rack_expected(r, seat)
    have = r.racks.count.get(seat)
    if want is None or have is None or have == want:
        r.racks.odd.pop(seat, None)
    else:
        r.racks.odd.setdefault(seat, t)


def odd_racks(r: RefereeState, t: float) -> None:
    """A rack that stays wrong: the hand has too many or too few tiles (the camera counts the backs)."""
    for seat, since in sorted(r.racks.odd.items()):
        check_rack(r, seat, t)
        if seat not in r.racks.odd or t - since < RACK_SETTLE_S:
            continue
        del r.racks.odd[seat]
        want, have = rack_expected(r, seat), r.racks.count[seat]
        r.racks.flagged.add(seat)
        effects.flag(r, "tile_count", seat, f"{have} tiles in the rack, {want} expected")
        if "tile_count" in r.profile.capabilities.dead_hand_codes and not r.st.seat_state[seat].dead:
            rule = referee_rule(r.profile.referee_notes, "tile_count", r.profile.violation_rules)
            effects.submit(r, HandDead(seat=seat, reason="tile_count", rule=rule))
