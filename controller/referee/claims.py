"""Claims and sets: the call buttons (a claim on the tile on offer, a self-drawn win, a signature), the
sets the camera sees appear (claimed, concealed and added kongs), flowers set aside."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from controller.referee import discards, effects, ending, ponds, questions, turn
from controller.referee.state import (
    CLAIM_CALLS,
    CLAIM_OF_MELD,
    EARLY_PRESS_S,
    PANELS,
    TILE_TEXTS,
    FollowUp,
    RefereeState,
    Window,
    replay_machine,
    seat_from_source,
)
from rules.events import (
    ButtonPressed,
    Claimed,
    Drew,
    FlowerDeclared,
    FlowerSeen,
    MeldMade,
    MeldSeen,
    Won,
)
from rules.game.state import Phase


def on_button_settled(r: RefereeState, ev: ButtonPressed) -> None:
    """The result waits for its signatures: a call button (or the judge's confirm) signs it."""
    if ev.button == "confirm" or ev.button in PANELS:
        ending.confirm(r, ev)


def on_button_exhausting(r: RefereeState, ev: ButtonPressed) -> None:
    """The wall is exhausted and no claim is open: a seat signs, so the hands shown are all that will be
    (the noten ones are not waited for)."""
    if ev.button == "confirm" or (ev.button in PANELS and ev.seat is not None):
        ending.confirm(r, ev)


def on_button(r: RefereeState, ev: ButtonPressed) -> FollowUp | None:
    """A call button in play: a claim on the tile on offer (or pressed early, for the discard being laid),
    a self-drawn win in one's own turn."""
    if ev.button == "confirm":
        ending.confirm(r, ev)
        return None
    if ev.button not in PANELS or ev.seat is None:
        return None
    call = ev.call or "call"
    if call == "hu" and turn.own_turn(r, ev.seat):
        return self_drawn(r, ev)
    if call in ("riichi", "flower"):
        return None  # the sideways discard and the flower set aside are the record
    w = r.claims.window
    if w is None or r.st.phase not in (Phase.CLAIMS, Phase.ROB):
        r.claims.early = [p for p in r.claims.early if p.t_mono >= ev.t_mono - EARLY_PRESS_S] + [ev]
        return None
    turn.claim_press(r, ev)
    return None


def self_drawn(r: RefereeState, ev: ButtonPressed) -> FollowUp | None:
    seat = ev.seat
    assert seat is not None
    if not turn.bring_turn(r, seat):
        return None
    st = r.st
    won = Won(seat=seat, tile="x", from_seat=None, kong_replacement=st.after_kong, last_tile=st.wall_remaining == 0,
              slot=PANELS.get(ev.button, 0))
    if r.variant.two_hands:  # Siamese: judged at once, with the hand it shows
        r.reveals.shown_wins[seat] = won
        return None
    effects.submit(r, won)
    return FollowUp.SETTLE


def on_meld(r: RefereeState, ev: MeldSeen) -> FollowUp | None:
    if any(t not in TILE_TEXTS and t != "x" for t in ev.tiles):
        questions.ask_tile(r, ev, "meld", None)
        return None
    seen = r.claims.melds.get(ev.seat)
    if seen is None:
        return None
    if ev.kind == "kong_concealed" and shows_kong(r, ev):
        return None
    if r.st.phase in (Phase.EXHAUSTED, Phase.ENDED, Phase.SETTLED, Phase.OVER):
        # a set seen only once play is over: the camera saw it late (the judge puts it in its place)
        questions.ask_impossible(r, ev, f"seat {ev.seat}'s {ev.kind} {' '.join(ev.tiles)} was seen after play "
                                 "ended: the camera saw it late", "комбинация замечена после конца игры")
        return None
    if ev.kind in CLAIM_OF_MELD and seen_before(r, ev):
        return None  # a set the record holds, read again (the camera regrouped the seat's sets)
    if ev.kind in CLAIM_OF_MELD:
        return claim_meld(r, ev)
    if ev.kind == "kong_concealed":
        if not turn.bring_turn(r, ev.seat):
            effects.submit(r, MeldMade(seat=ev.seat, kind="kong_concealed", tiles=ev.tiles))  # refused: out of turn
        elif not effects.refused(effects.submit(r, MeldMade(seat=ev.seat, kind="kong_concealed", tiles=ev.tiles))):
            seen.append(("kong_concealed", tuple(ev.tiles)))
            return FollowUp.INDICATORS
    elif ev.kind == "kong_added":
        return added_kong(r, ev)
    return None


def seen_before(r: RefereeState, ev: MeldSeen) -> bool:
    """A claimed set the seat already made, seen again: the same set in the record, and no discard on
    offer it could take (a new set alike, chow for chow, comes only with such a discard)."""
    shown = (ev.kind, sorted(ponds.tile_kind(t) for t in ev.tiles))
    if not any((k, sorted(ponds.tile_kind(t) for t in tiles)) == shown for k, tiles in r.claims.melds.get(ev.seat, ())):
        return False
    w = r.claims.window
    return w is None or r.st.phase != Phase.CLAIMS or ponds.tile_kind(w.tile) not in shown[1]


def shows_kong(r: RefereeState, ev: MeldSeen) -> bool:
    """A concealed kong laid face down (MCR: all four) turned face up at the reveal: the record learns its
    tiles — the kong's event is completed and the hand replayed from its log (as the machine resolves a
    face-down draw at the reveal)."""
    seen = r.claims.melds[ev.seat]
    for i, (kind, tiles) in enumerate(seen):
        if kind != "kong_concealed" or "x" not in tiles or len(tiles) != len(ev.tiles) or "x" in ev.tiles:
            continue
        if any(a != "x" and ponds.tile_kind(a) != ponds.tile_kind(b) for a, b in zip(tiles, ev.tiles)):
            continue
        log = list(r.machine.log)
        found = next(((j, e) for j, e in enumerate(log) if isinstance(e, MeldMade) and e.seat == ev.seat
                      and e.kind == "kong_concealed" and tuple(e.tiles) == tiles), None)
        if found is None:
            return False
        k, kong = found
        log[k] = dataclasses.replace(kong, tiles=tuple(ev.tiles))
        r.machine = replay_machine(r.profile, log)
        seen[i] = ("kong_concealed", tuple(ev.tiles))
        return True
    return False


@dataclass(frozen=True)
class Odd:
    """Why a set the camera sees cannot be the claim it looks like (the question's English and Russian)."""

    en: str
    ru: str


def claim_meld(r: RefereeState, ev: MeldSeen) -> FollowUp | None:
    w = r.claims.window
    seat = ev.seat
    if w is None or r.st.phase != Phase.CLAIMS:
        questions.ask_impossible(r, ev, f"a {ev.kind} appeared for seat {seat} with no discard on offer",
                                 "комбинация появилась без сноса, который можно взять")
        return None
    took = set_takes(r, ev, w)
    if isinstance(took, Odd):
        questions.ask_impossible(r, ev, took.en, took.ru)
        return None
    tiles, tile = took
    kind = CLAIM_OF_MELD[ev.kind]
    press = w.presses.get(seat)
    if seat in w.late and seat not in w.stands:
        questions.ask_judge_late(r, ev)  # the tile taken on a call the window had closed on
        return None
    if (press is None or press[0] not in CLAIM_CALLS) and seat not in w.stands:
        # no call button told the claim: it is the set the camera sees, timed by its first sign
        t_claim = min(x for x in (ev.t_mono, press[1] if press else None, w.taken) if x is not None)
        turn.timed(r, seat, kind, t_claim, "button" if press else "camera")
        out = effects.submit(r, Claimed(seat=seat, kind=kind, from_seat=w.discarder, tile=w.tile, tiles=tuple(tiles)),
                             at=t_claim)
        refusal = effects.refusal(out)
        if refusal is not None and refusal.code == "claim_late":
            w.late.add(seat)
            questions.ask_judge_late(r, ev)
        if refusal is not None:
            return None
    out = effects.submit(r, MeldMade(seat=seat, kind=ev.kind, tiles=(*tiles, tile), from_seat=w.discarder,
                                     claimed_tile=tile, slot=w.slots.get(seat, 0)))
    if effects.refused(out):
        return None
    r.claims.melds[seat].append((ev.kind, tuple(ev.tiles)))
    discards.leaves_pond(r, w.discarder)
    r.claims.window = None
    return FollowUp.INDICATORS


def set_takes(r: RefereeState, ev: MeldSeen, w: Window) -> tuple[list[str], str] | Odd:
    """The tiles of the claimed set ``ev`` from the hand and the one it took (the discard on offer in
    ``w``), or why it cannot have taken that discard."""
    seat = ev.seat
    tiles = list(ev.tiles)
    if ev.claimed_index is not None and 0 <= ev.claimed_index < len(tiles):
        tile = tiles.pop(ev.claimed_index)
    else:
        same = [t for t in tiles if ponds.tile_kind(t) == ponds.tile_kind(w.tile)]
        if not same:
            return Odd(f"seat {seat}'s {ev.kind} does not hold the discard {w.tile}", "в комбинации нет снесённой кости")
        tile = same[0]
        tiles.remove(tile)
    if ponds.tile_kind(tile) != ponds.tile_kind(w.tile):
        return Odd(f"seat {seat}'s {ev.kind} took {tile}, the discard on offer is {w.tile}",
                   "взятая кость не совпадает со сносом")
    if r.conv.claimed_sideways and ev.source is not None:
        src = seat_from_source(seat, ev.source, r.seats(), r.st.n_players)
        if src != w.discarder:
            return Odd(f"seat {seat}'s {ev.kind} points {ev.source}, the discard came from seat {w.discarder}",
                       "боковая кость указывает не на снёсшего")
    return tiles, tile


def added_kong(r: RefereeState, ev: MeldSeen) -> FollowUp | None:
    seat = ev.seat
    added = ev.tiles[-1]
    if not turn.bring_turn(r, seat):
        effects.submit(r, MeldMade(seat=seat, kind="kong_added", tiles=ev.tiles, claimed_tile=added))
        return None
    n = len(r.machine.log)
    out = effects.submit(r, MeldMade(seat=seat, kind="kong_added", tiles=ev.tiles, claimed_tile=added, drawn_tile=None))
    if effects.refused(out):
        return None
    if r.variant.kong_drawn_tile_paid:
        r.racks.kong[seat] = n
    r.claims.melds[seat] = [m for m in r.claims.melds[seat] if not (m[0] == "pung" and ponds.tile_kind(m[1][0]) == ponds.tile_kind(added))]
    r.claims.melds[seat].append(("kong_added", tuple(ev.tiles)))
    if r.st.phase == Phase.ROB:
        turn.open_window(r, seat, added, ev.t_mono, rob=True)
        return None
    return FollowUp.INDICATORS


def on_flower(r: RefereeState, ev: FlowerSeen) -> None:
    if ev.tile not in TILE_TEXTS:
        questions.ask_tile(r, ev, "flower", None)
        return None
    have = r.claims.flowers.get(ev.seat)
    if have is None or ev.tile in have:
        return None
    st = r.st
    if st.phase != Phase.PRE_PLAY and not turn.bring_turn(r, ev.seat):
        effects.submit(r, FlowerDeclared(seat=ev.seat, tile=ev.tile))  # refused: not the player's turn
        return None
    if effects.refused(effects.submit(r, FlowerDeclared(seat=ev.seat, tile=ev.tile))):
        return None
    have.append(ev.tile)
    effects.submit(r, Drew(seat=ev.seat, tile="x", source="replacement"))
    return None
