"""Pond observations become discards. Each pond as the camera shows it is reconciled with the tiles the
record says lie there: one tile more at the end is a discard; the last one gone is a claim or a win taking
it (or a tile put down out of turn taken back); anything else is left to settle — a re-read that shuffles
and restores a row changes nothing — and asked about if it stays (:func:`odd_ponds`)."""
from __future__ import annotations

import dataclasses
from collections import Counter

from controller.referee import effects, ponds, questions, turn
from controller.referee.state import (
    NO_TILE,
    POND_SETTLE_S,
    SET_OF_CALL,
    TILE_TEXTS,
    UNREAD_WAIT_S,
    PondEntry,
    RefereeState,
)
from rules.events import (
    Discarded,
    MeldSeen,
    PondTileRemoved,
    PondTileSeen,
)
from rules.game.state import Phase


def on_pond_seen(r: RefereeState, ev: PondTileSeen) -> None:
    seen = r.pond.seen.get(ev.seat)
    if seen is None:
        return None
    if ev.index < len(seen):
        # an unreadable tile the operator named keeps the name (a stain read later is no evidence against it)
        named = ev.index in r.pond.named.get(ev.seat, ()) and ev.tile in TILE_TEXTS
        seen[ev.index] = seen[ev.index] if named else ev.tile
    else:
        seen.extend(["?"] * (ev.index - len(seen)))
        seen.append(ev.tile)
    reconcile_pond(r, ev.seat, ev)
    return None


def on_pond_removed(r: RefereeState, ev: PondTileRemoved) -> None:
    seen = r.pond.seen.get(ev.seat)
    if not seen:
        return
    # an unreadable tile gone: the one at that place (it may have been answered meanwhile: the record
    # knows its face, the camera still does not)
    answered = ev.tile not in TILE_TEXTS and ev.index < len(seen)
    i = ev.index if ev.index < len(seen) and (seen[ev.index] == ev.tile or answered) else (
        max((k for k, t in enumerate(seen) if t == ev.tile), default=min(ev.index, len(seen) - 1)))
    seen.pop(i)
    r.pond.named[ev.seat] = {k for k in r.pond.named.get(ev.seat, ()) if k < i} | {
        k - 1 for k in r.pond.named.get(ev.seat, ()) if k > i}
    if ev.tile not in TILE_TEXTS and r.pond.phantoms.get(ev.seat) and not any(t not in TILE_TEXTS for t in seen):
        r.pond.phantoms[ev.seat] -= 1  # the tile that was none is gone from the camera's view too
    reconcile_pond(r, ev.seat, ev)


def reconcile_pond(r: RefereeState, seat: int, ev: PondTileSeen | PondTileRemoved) -> None:
    new = ev if isinstance(ev, PondTileSeen) and ev.tile != NO_TILE and ev.index == len(r.pond.seen[seat]) - 1 else None
    seen = ponds.real_seen(r, seat, keep=new.index if new is not None else None)
    rec = r.pond.record[seat]
    tiles = [e.tile for e in rec]
    if ponds.same_pond(r, seen, tiles):
        r.pond.odd.pop(seat, None)
        return
    if r.conv.pond_layout != "rows6" and isinstance(ev, PondTileSeen) and len(seen) == len(tiles) + 1:
        # a free pond has no order: one readable tile more than the record, wherever the camera sorts it
        # (a tile nudged out of line reads in another place), is the discard
        read = Counter(t for t in seen if t in TILE_TEXTS)
        extra, missing = read - Counter(tiles), Counter(tiles) - read
        if sum(extra.values()) == 1 and sum(missing.values()) == sum(1 for t in seen if t not in TILE_TEXTS):
            t = next(iter(extra))
            r.pond.odd.pop(seat, None)
            at = max(i for i, x in enumerate(r.pond.seen[seat]) if x == t)
            return discard(r, dataclasses.replace(ev, tile=t, index=at))
    if new is not None and len(seen) == len(tiles) + 1 and ponds.same_pond(r, seen[:-1], tiles):
        r.pond.odd.pop(seat, None)
        if new.tile not in TILE_TEXTS:
            # asked once it stayed unreadable a while (UNREAD_WAIT_S; a free pond: a tile read there
            # meanwhile may be the discard, this one no tile at all)
            r.pond.unread[seat] = new
            return None
        u = r.pond.unread.get(seat)
        if u is not None and u.index == new.index:  # read at last (the arm moved on): laid when first seen
            del r.pond.unread[seat]
            new = dataclasses.replace(new, t_mono=u.t_mono, t_wall=u.t_wall, frame=u.frame)
        return discard(r, new)
    n = len(tiles)
    if (r.conv.pond_layout == "rows6" and isinstance(ev, PondTileSeen) and ev.index == n and len(seen) > n + 1
            and ponds.same_pond(r, seen[:n], tiles) and seen[n] in TILE_TEXTS
            and all(t not in TILE_TEXTS for t in seen[n + 1:])):
        r.pond.odd[seat] = ev.t_mono  # (an answer: the rest is asked in turn)
        return discard(r, ev)
    if len(seen) == len(tiles) - 1 and ponds.same_pond(r, seen, tiles[:-1]):
        if pond_lost_last(r, seat, ev.t_mono):
            r.pond.odd.pop(seat, None)
            return None
    r.pond.odd.setdefault(seat, ev.t_mono)  # left to settle: asked about if it stays
    return None


def unread_due(r: RefereeState, t: float) -> bool:
    return any(t - u.t_mono >= UNREAD_WAIT_S for u in r.pond.unread.values())


def ask_unread(r: RefereeState) -> None:
    """The unreadable new tiles of the frame just read: still one more than the record, each is asked."""
    for seat, ev in sorted(r.pond.unread.items()):
        del r.pond.unread[seat]
        seen, tiles = ponds.real_seen(r, seat), [e.tile for e in r.pond.record[seat]]
        if len(seen) == len(tiles) + 1 and any(t not in TILE_TEXTS for t in seen):
            i = max(k for k, t in enumerate(seen) if t not in TILE_TEXTS)
            if ponds.same_pond(r, seen[:i] + seen[i + 1:], tiles):
                return questions.ask_tile(r, ev, "pond", ev.index)
        if not ponds.same_pond(r, seen, tiles):
            r.pond.odd.setdefault(seat, ev.t_mono)


def pond_lost_last(r: RefereeState, seat: int, t: float) -> bool:
    """The last tile of the pond is gone: True when the record explains it."""
    rec = r.pond.record[seat]
    last = rec[-1]
    if not last.accepted:  # a tile put down out of turn (or refused), taken back
        rec.pop()
        return True
    if last.tile in r.pond.taken[seat]:  # its set was seen first
        r.pond.taken[seat].remove(last.tile)
        rec.pop()
        return True
    if ponds.won_on(r, seat, last.tile):  # the won discard, taken by the winner
        rec.pop()
        return True
    w = r.claims.window
    if w is not None and w.discarder == seat and not w.rob:
        if w.taken is None:
            w.taken = t  # a claim or a win takes it: the set or the hand follows
        return True
    return False


def odd_ponds(r: RefereeState, t: float) -> None:
    """A pond that stayed unlike the record: the operator or the judge says what happened."""
    for seat, since in sorted(r.pond.odd.items()):
        if t - since >= POND_SETTLE_S and r.asking.open is None:
            del r.pond.odd[seat]
            questions.ask_pond(r, seat, since)


def discard(r: RefereeState, ev: PondTileSeen) -> None:
    seat = ev.seat
    pond = r.pond.record[seat]
    st = r.st
    if set_unseen(r, ev):
        return
    if not turn.bring_turn(r, seat):
        effects.flag(r, "out_of_turn", seat, f"seat {st.current} plays now")
        pond.append(PondEntry(ev.tile, False))
        return
    ss = st.seat_state[seat]
    riichi = bool(ev.sideways and r.conv.riichi_sideways_discard and not ss.riichi)
    out = effects.submit(r, Discarded(seat=seat, tile=ev.tile, tsumogiri=None, riichi=riichi))
    if effects.refused(out):
        pond.append(PondEntry(ev.tile, False))
        return
    pond.append(PondEntry(ev.tile, True))
    turn.open_window(r, seat, ev.tile, ev.t_mono)


def set_unseen(r: RefereeState, ev: PondTileSeen) -> bool:
    """``ev``'s seat called a set by its button, the discard it called left the pond, and it plays on — but
    the camera has not seen the set (an arm over it, tiles it took for felt): its tiles are asked, never
    guessed (neither the set nor its absence); the discard waits for the answer."""
    w = r.claims.window
    seat = ev.seat
    press = w.presses.get(seat) if w is not None and r.st.phase == Phase.CLAIMS else None
    if w is None or press is None or press[0] not in SET_OF_CALL or seat in w.late:
        return False
    rec = r.pond.record.get(w.discarder)
    if not rec or len(ponds.real_seen(r, w.discarder)) >= len(rec):
        return False  # the discard still lies in its pond: the call was not acted on
    kind = SET_OF_CALL[press[0]]
    probe = MeldSeen(seat=seat, kind=kind, tiles=("unknown",) * (4 if kind == "kong_open" else 3),
                     t_mono=ev.t_mono, t_wall=ev.t_wall, frame=ev.frame)
    r.asking.waiting.insert(0, ev)  # the discard, again once the set is known
    n = len(probe.tiles)
    questions.ask_tile(r, probe, "meld", None, (
        f"seat {seat} called {press[0]} on seat {w.discarder}'s {w.tile} and took it, but the camera does not "
        f"see the set: its {n} tiles?",
        f"место {seat} объявило {press[0]} на {w.tile} и взяло её, но камера не видит комбинацию: какие "
        f"{n} кости?"))
    return True


def leaves_pond(r: RefereeState, seat: int) -> None:
    """The record's last discard of ``seat`` was taken (a set, a win): gone from the pond when the camera
    saw it go, else expected to go."""
    rec = r.pond.record[seat]
    if not rec:
        return
    if len(ponds.real_seen(r, seat)) < len(rec):
        rec.pop()
        r.pond.odd.pop(seat, None)
    else:
        r.pond.taken[seat].append(rec[-1].tile)
