"""Handlers of the play: draws, discards, claims, melds and kongs, wins, riichi, dora indicators, dead hands."""
from __future__ import annotations

from rules.circumstances import impossible
from rules.events import Claimed, Discarded, DoraRevealed, Drew, HandDead, MeldMade, RiichiDeclared, Won
from rules.game.flow import (
    TILE_BY_TEXT,
    Play,
    Refusal,
    build_meld,
    make_dead,
    seat_refusal,
    tile,
    tile_refusal,
    tiles_of,
    tiles_refusal,
)
from rules.game.state import (
    CLAIMS,
    DISCARD_WINDOW,
    PRE_PLAY,
    TURN,
    Claim,
    HandState,
    Phase,
    SeatState,
    WindowKind,
    WinRecord,
)
from rules.game.window import (
    CLAIM_FOR_MELD,
    after_wins,
    claim_refusal,
    close_window,
    higher_claim,
    hu_claim_refusal,
    open_window,
    void_robbed_kong,
)
from rules.notation import Meld, MeldKind
from rules.tiles import KIND_OF, N_CODES, TILES, UNKNOWN_CODE, Tile

_FLOWER_LO, _FLOWER_HI = 34, 42  # flower codes (rules.tiles)

# --- draws --------------------------------------------------------------------------------------------------


def _drawn_tile_refusal(p: Play, st: HandState, ev: Drew) -> Refusal | None:
    t = TILE_BY_TEXT.get(ev.tile)
    if t is None:
        return tile_refusal(ev.tile)
    if t == UNKNOWN_CODE and st.mode == "full":
        return Refusal("unknown_tile", ev.seat)
    assert st.wall is not None
    pos = st.wall.draw_position() if ev.source == "wall" else st.wall.replacement_position()
    if pos is None:
        return Refusal("wall_empty", ev.seat)
    if p.sequence is not None and t != UNKNOWN_CODE and p.sequence[pos] != t:
        return Refusal("wrong_wall_tile", ev.seat, f"the tile at wall position {pos} is {p.sequence[pos]}")
    return None


def check_wall_draw(p: Play, st: HandState, ev: Drew) -> Refusal | None:
    if ev.seat not in st.seat_state:  # seat_refusal, inlined on the most frequent checks
        return seat_refusal(st, ev.seat)
    if ev.source != "wall":
        return Refusal("out_of_phase", None, f"not allowed in phase {st.phase}")
    if ev.seat != st.current:
        return Refusal("draw_out_of_turn", ev.seat, f"seat {st.current} draws now")
    return _drawn_tile_refusal(p, st, ev)


def check_replacement_draw(p: Play, st: HandState, ev: Drew) -> Refusal | None:
    bad = seat_refusal(st, ev.seat)
    if bad:
        return bad
    if ev.source == "wall":
        return Refusal("out_of_phase", None, f"not allowed in phase {st.phase}")
    if ev.seat != st.current:
        return Refusal("draw_out_of_turn", ev.seat, f"seat {st.current} takes the replacement")
    return _drawn_tile_refusal(p, st, ev)


def check_flower_replacement(p: Play, st: HandState, ev: Drew) -> Refusal | None:
    bad = seat_refusal(st, ev.seat)
    if bad:
        return bad
    if ev.source == "wall":
        return Refusal("out_of_phase", ev.seat, "no wall draw before play starts")
    if not st.owed.get(ev.seat):
        return Refusal("out_of_phase", ev.seat, "no replacement is owed")
    return _drawn_tile_refusal(p, st, ev)


def check_draw_exhausted(p: Play, st: HandState, ev: Drew) -> Refusal | None:
    bad = seat_refusal(st, ev.seat)
    if bad:
        return bad
    if ev.source == "wall":
        return Refusal("wall_empty", ev.seat)
    return Refusal("out_of_phase", None, f"not allowed in phase {st.phase}")


def apply_drew(p: Play, st: HandState, ev: Drew) -> None:
    t = TILE_BY_TEXT[ev.tile]
    wall = st.wall
    assert wall is not None
    if ev.source == "wall":
        wall.head += 1  # WallCursor.take("wall") at the position the check found
    else:
        wall.take("replacement")
    ss = st.seat_state[ev.seat]
    ss.take_in(t)
    ss.drawn = t
    if st.phase is PRE_PLAY:
        st.owed[ev.seat] -= 1
        return
    if ev.source == "wall":
        st.after_kong = False
        st.after_flower = False
        st.turn_by_claim = False
    st.phase = TURN
    st.current = ev.seat


# --- discards -----------------------------------------------------------------------------------------------

def check_discard(p: Play, st: HandState, ev: Discarded) -> Refusal | None:
    if ev.seat not in st.seat_state:
        return seat_refusal(st, ev.seat)
    if ev.seat != st.current:
        return Refusal("out_of_turn", ev.seat, f"seat {st.current} discards now")
    t = TILE_BY_TEXT.get(ev.tile)
    if t is None:
        return tile_refusal(ev.tile)
    if t == UNKNOWN_CODE:
        return Refusal("unknown_tile", ev.seat, "a discard is seen face up")
    rules = p.rules
    if _FLOWER_LO <= t < _FLOWER_HI and not rules.capabilities.flower_discard:
        return Refusal("flower_discard", ev.seat)
    ss = st.seat_state[ev.seat]
    if not (ss.counts[t] > 0 or ss.unknown > 0):  # ss.holds([t])
        return Refusal("tile_not_held", ev.seat, f"{t} is not in the hand")
    full = st.mode == "full"
    if full and ev.tsumogiri is not None and ev.tsumogiri != (ss.drawn == t):
        return Refusal("bad_event", ev.seat, "tsumogiri does not match the tile just drawn")
    tsumogiri = ev.tsumogiri if ev.tsumogiri is not None or not full else ss.drawn == t
    objection = rules.check_discard(st, ev.seat, t, tsumogiri)
    if objection is None and ev.riichi:
        objection = rules.check_riichi(st, ev.seat, t)
    return Refusal(objection[0], ev.seat, objection[1]) if objection else None


def apply_discard(p: Play, st: HandState, ev: Discarded) -> None:
    ss = st.seat_state[ev.seat]
    t = TILE_BY_TEXT[ev.tile]
    if ev.riichi:
        ss.riichi = True
    n, want = p.variant.held_before_discard(st, ss), 14 * p.variant.hands_per_player
    if n != want:
        p.note(st, "tile_count", ev.seat, f"{n} tiles before the discard ({want} expected)")
    ss.give_out([t])
    ss.pond.append(t)
    ss.pond_claimed.append(False)
    ss.drawn = None
    st.turn_by_claim = False
    st.after_kong = False
    st.after_flower = False
    open_window(st, p.rules, DISCARD_WINDOW, ev.seat, t, ev.t_mono)
    k = KIND_OF[t]
    st.face_up[k] += 1
    note_copies(p, st, [k], ev.seat)


def note_copies(p: Play, st: HandState, kinds: list[int], seat: int) -> None:
    """More copies of a kind seen than the tile set has: a tile that was never held (table mode)."""
    if len(kinds) == 1:  # one tile turned face up (a discard): the quick look
        k = kinds[0]
        if st.face_up[k] <= st.copies[k]:
            for ss in st.seat_state.values():
                if ss.revealed:
                    break
            else:
                return  # nothing revealed: the tiles face up are all there is to count
    in_hands = [0] * N_CODES  # revealed concealed tiles by kind
    for ss in st.seat_state.values():
        if ss.revealed:
            for c, n in enumerate(ss.counts):
                if n:
                    in_hands[KIND_OF[c]] += n
    for k in sorted(set(kinds)):
        if st.face_up[k] + in_hands[k] > st.copies[k]:
            p.note(st, "tile_not_held", seat, f"more than {st.copies[k]} {TILES[k]} on the table",
                   deferred=st.mode == "table")
            return


# --- claims ---------------------------------------------------------------------------------------------------

def check_claimed(p: Play, st: HandState, ev: Claimed) -> Refusal | None:
    bad = tile_refusal(ev.tile) or tiles_refusal(ev.tiles, ev.seat, st.mode == "full")
    if bad:
        return bad
    return claim_refusal(st, p.rules, st.phase, ev.seat, ev.kind, ev.from_seat, tile(ev.tile), at=ev.t_mono)


def apply_claimed(p: Play, st: HandState, ev: Claimed) -> None:
    assert st.window is not None
    st.window.claims.append(Claim(ev.seat, ev.kind, tuple(tiles_of(ev.tiles)), ev.slot, ev.t_mono))


# --- melds ------------------------------------------------------------------------------------------------------

def check_meld(p: Play, st: HandState, ev: MeldMade) -> Refusal | None:
    if ev.kind in CLAIM_FOR_MELD:
        return _check_claimed_meld(p, st, ev)
    if ev.kind not in ("kong_concealed", "kong_added"):
        return Refusal("bad_event", ev.seat, f"unknown meld kind {ev.kind!r}")
    if st.phase is not TURN:
        return Refusal("out_of_phase", None, f"not allowed in phase {st.phase}")
    return _check_own_kong(p, st, ev)


def apply_meld(p: Play, st: HandState, ev: MeldMade) -> None:
    if ev.kind in CLAIM_FOR_MELD:
        _apply_claimed_meld(p, st, ev)
        return
    if ev.kind == "kong_concealed":
        _apply_concealed_kong(p, st, ev)
    else:
        _apply_added_kong(p, st, ev)
    st.after_kong = True
    st.after_flower = False
    assert st.wall is not None
    st.wall.kongs += 1


def _from_hand(tiles: list[Tile], t: Tile) -> list[Tile] | None:
    """The meld's tiles but the claimed one (that very tile, else one of its kind); None: it is not there."""
    rest = list(tiles)
    if t in rest:
        rest.remove(t)
    elif t.kind in [x.kind for x in rest]:
        rest.remove(next(x for x in rest if x.kind == t.kind))
    else:
        return None
    return rest


def _check_claimed_meld(p: Play, st: HandState, ev: MeldMade) -> Refusal | None:
    kind = ev.kind
    w = st.window
    if st.phase is CLAIMS and w is not None and w.winners:
        return Refusal("claim_priority", ev.seat, "a win on this discard outranks a meld")
    claimed = ev.claimed_tile or "x"
    bad = tile_refusal(claimed)
    if bad:
        return bad
    t = tile(claimed)
    bad = claim_refusal(st, p.rules, st.phase, ev.seat, CLAIM_FOR_MELD[kind], ev.from_seat, t)
    if bad:
        return bad
    other = higher_claim(st, p.rules, ev.seat, CLAIM_FOR_MELD[kind])
    if other is not None:
        return Refusal("claim_priority", ev.seat, f"seat {other}'s claim comes first")
    if kind == "kong_open" and st.wall_remaining == 0:
        return Refusal("kong_on_last_tile", ev.seat)
    bad = tiles_refusal(ev.tiles, ev.seat, st.mode == "full")
    if bad:
        return bad
    tiles = tiles_of(ev.tiles)
    from_hand = _from_hand(tiles, t)
    if from_hand is None:
        return Refusal("bad_meld", ev.seat, f"the claimed tile {t} is not in the meld")
    meld = build_meld(tiles)
    if isinstance(meld, str):
        return Refusal("bad_meld", ev.seat, meld)
    if meld.kind != kind:  # a StrEnum equals its value
        return Refusal("bad_meld", ev.seat, f"{meld} is a {meld.kind.value}, not a {kind}")
    if not st.seat_state[ev.seat].holds(from_hand):
        return Refusal("tile_not_held", ev.seat, "the meld's tiles are not in the hand")
    p.found["claimed_meld"] = (ev, from_hand, meld)  # for the apply step
    return None


def _apply_claimed_meld(p: Play, st: HandState, ev: MeldMade) -> None:
    checked, from_hand, meld = p.found.pop("claimed_meld")  # what its check found (submit checks first)
    assert checked is ev and ev.from_seat is not None
    ss = st.seat_state[ev.seat]
    ss.give_out(from_hand)
    st.show(from_hand)
    ss.melds.append(meld)
    ss.meld_sources.append(ev.from_seat)
    st.seat_state[ev.from_seat].pond_claimed[-1] = True
    kong = ev.kind == "kong_open"
    close_window(st, (Phase.REPLACE if kong else TURN, ev.seat))
    st.turn_by_claim = not kong
    st.after_kong = kong
    if kong:
        assert st.wall is not None
        st.wall.kongs += 1


def _kong_tiles(st: HandState, ev: MeldMade) -> list[Tile]:
    """A kong's tiles; the face-down tiles of a concealed kong are copies of its shown tile. Laid wholly face
    down by a hand the record knows (shown at a false win), they are the one face it holds four of."""
    tiles = tiles_of(ev.tiles)
    shown = next((t for t in tiles if t != UNKNOWN_CODE), None)
    if ev.kind == "kong_concealed" and shown is None:
        faces = _quad_faces(st.seat_state[ev.seat])
        shown = faces.pop() if len(faces) == 1 else None
    if ev.kind == "kong_concealed" and shown is not None:
        tiles = [shown if t == UNKNOWN_CODE else t for t in tiles]
    return tiles


def _quad_faces(ss: SeatState) -> set[Tile]:
    """The faces whose known copies, with the hand's unseen tiles standing in, make four (none where the
    unseen tiles alone could be the kong: a hand the camera never saw)."""
    if ss.unknown >= 4:
        return set()
    return {t for t in ss.tiles() if ss.counts[t] + ss.unknown >= 4}


def _check_own_kong(p: Play, st: HandState, ev: MeldMade) -> Refusal | None:
    if ev.seat != st.current:
        return Refusal("out_of_turn", ev.seat, f"seat {st.current} plays now")
    if st.spec is None or not st.spec.kongs:
        return Refusal("kong_not_allowed", ev.seat)
    if st.turn_by_claim:
        return Refusal("kong_after_claim", ev.seat)
    if st.wall_remaining == 0:
        return Refusal("kong_on_last_tile", ev.seat)
    bad = tiles_refusal(ev.tiles, ev.seat, st.mode == "full")
    if bad:
        return bad
    tiles = tiles_of(ev.tiles)
    if len(tiles) != 4:
        return Refusal("bad_meld", ev.seat, "a kong has four tiles")
    shown = next((t for t in tiles if t != UNKNOWN_CODE), None)
    objection = p.rules.check_kong(st, ev.seat, ev.kind, shown)
    if objection:
        return Refusal(objection[0], ev.seat, objection[1])
    if len({t.kind for t in tiles if t != UNKNOWN_CODE}) > 1:
        return Refusal("bad_meld", ev.seat, "a kong is four identical tiles")
    ss = st.seat_state[ev.seat]
    if ev.kind == "kong_concealed":
        tiles = _kong_tiles(st, ev)
        if not ss.holds(tiles) and not _quad_faces(ss):  # (several faces could be it: see the apply step)
            return Refusal("tile_not_held", ev.seat, "the kong's tiles are not in the hand")
        meld = build_meld(tiles, concealed=True)
        return Refusal("bad_meld", ev.seat, meld) if isinstance(meld, str) else None
    return _added_kong_refusal(p, st, ev, ss, shown)


def _added_kong_refusal(p: Play, st: HandState, ev: MeldMade, ss: SeatState, shown: Tile | None) -> Refusal | None:
    claimed = ev.claimed_tile or "x"
    bad = tile_refusal(claimed)
    if bad:
        return bad
    added = tile(claimed)
    if added == UNKNOWN_CODE or shown is None:
        return Refusal("bad_meld", ev.seat, "an added kong shows its tiles")
    if _pung_of(ss, shown.kind) is None:
        return Refusal("bad_meld", ev.seat, "an added kong needs an exposed pung of that tile")
    if not ss.holds([added]):
        return Refusal("tile_not_held", ev.seat, f"{added} is not in the hand")
    if st.mode == "full" and ev.drawn_tile is not None and ev.drawn_tile != (ss.drawn == added):
        return Refusal("bad_event", ev.seat, "drawn_tile does not match the tile just drawn")
    return None


def _pung_of(ss: SeatState, kind: int) -> int | None:
    return next((i for i, m in enumerate(ss.melds) if m.kind is MeldKind.PUNG and m.base == kind), None)


def _apply_concealed_kong(p: Play, st: HandState, ev: MeldMade) -> None:
    ss = st.seat_state[ev.seat]
    tiles = _kong_tiles(st, ev)
    if not ss.holds(tiles):  # laid face down, and the known hand holds several faces it could be: the
        ss.blur(_quad_faces(ss))  # record no longer knows those faces' copies (never a guess)
    ss.give_out(tiles)
    st.show(tiles_of(ev.tiles))
    meld = build_meld(tiles, concealed=True)
    assert isinstance(meld, Meld)
    ss.melds.append(meld)
    ss.meld_sources.append(None)
    st.phase = Phase.REPLACE


def _apply_added_kong(p: Play, st: HandState, ev: MeldMade) -> None:
    ss = st.seat_state[ev.seat]
    added = tile(ev.claimed_tile or "x")
    idx = _pung_of(ss, added.kind)
    assert idx is not None
    ss.give_out([added])
    st.show([added])
    meld = build_meld([*ss.melds[idx].tiles, added], added=True)
    assert isinstance(meld, Meld)
    ss.melds[idx] = meld
    if p.rules.capabilities.robbing_kong:
        open_window(st, p.rules, WindowKind.ADDED_KONG, ev.seat, added, ev.t_mono)
    else:
        st.phase = Phase.REPLACE


# --- wins -----------------------------------------------------------------------------------------------------------

def check_won(p: Play, st: HandState, ev: Won) -> Refusal | None:
    bad = tile_refusal(ev.tile)
    if bad:
        return bad
    t = tile(ev.tile)
    if ev.from_seat is not None:
        w = st.window
        if st.phase is CLAIMS and w is not None and w.winners and not p.rules.capabilities.multiple_winners:
            return Refusal("multiple_win_not_allowed", ev.seat)
        return hu_claim_refusal(st, p.rules, st.phase, ev.seat, ev.from_seat, t) or impossible_win(p, st, ev)
    if st.phase is not TURN:
        return Refusal("out_of_phase", None, f"not allowed in phase {st.phase}")
    if ev.seat != st.current:
        return Refusal("win_out_of_turn", ev.seat, f"seat {st.current} plays now")
    ss = st.seat_state[ev.seat]
    if ss.won or (ss.dead and not p.rules.capabilities.dead_hand_win_is_false):
        return Refusal("claim_inactive_player", ev.seat)
    if st.mode == "full" and t == UNKNOWN_CODE:
        return Refusal("unknown_tile", ev.seat)
    if t != UNKNOWN_CODE and not ss.holds([t]):
        return Refusal("tile_not_held", ev.seat, f"{t} is not in the hand")
    return impossible_win(p, st, ev)


def win_circumstances(st: HandState, ev: Won) -> dict[str, bool]:
    """The circumstances of a declared win as the table sees them: the machine's own (the open window,
    the turn's replacement tiles, the wall) and what the declaration claims."""
    w = st.window
    if ev.from_seat is None:
        return {"self_drawn": True, "robbing_kong": ev.robbing_kong, "kong_replacement": st.after_kong or ev.kong_replacement,
                "flower_replacement": st.after_flower, "last_tile": st.wall_remaining == 0 or ev.last_tile}
    robbing = w is not None and w.robbing
    return {"self_drawn": False, "robbing_kong": robbing or ev.robbing_kong, "kong_replacement": ev.kong_replacement,
            "flower_replacement": False, "last_tile": (w is not None and w.last_tile) or ev.last_tile}


def impossible_win(p: Play, st: HandState, ev: Won) -> Refusal | None:
    """A declared win whose circumstances the profile's table says cannot happen together."""
    reason = impossible(p.rules.impossible, win_circumstances(st, ev), partial=True)
    return Refusal("impossible_context", ev.seat, reason) if reason else None


def apply_won(p: Play, st: HandState, ev: Won) -> None:
    t = tile(ev.tile)
    ss = st.seat_state[ev.seat]
    if ev.from_seat is None:
        st.wins.append(WinRecord(ev.seat, t, None, kong_replacement=st.after_kong, last_tile=st.wall_remaining == 0,
                                 order=len(st.wins), dead_hand=ss.dead, flower_replacement=st.after_flower))
        ss.won = True
        st.left_order.append(ev.seat)
        st.phase, st.current = after_wins(st, p.rules, ev.seat)
        return
    w = st.window
    assert w is not None
    if w.robbing and not w.winners:
        void_robbed_kong(st)
    st.wins.append(WinRecord(ev.seat, t, ev.from_seat, robbing_kong=w.robbing,
                             last_tile=w.last_tile, order=len(st.wins), dead_hand=ss.dead))
    ss.won = True
    st.left_order.append(ev.seat)
    w.winners.append(ev.seat)  # a won discard stays in its pond (pond_claimed: taken into a meld)


# --- riichi, indicators, dead hands ------------------------------------------------------------------------------

def check_riichi_declared(p: Play, st: HandState, ev: RiichiDeclared) -> Refusal | None:
    bad = seat_refusal(st, ev.seat)
    if bad or st.seat_state[ev.seat].riichi:
        return bad  # a repeat for the same seat is only recorded
    objection = p.rules.check_riichi(st, ev.seat, None)
    return Refusal(objection[0], ev.seat, objection[1]) if objection else None


def apply_riichi_declared(p: Play, st: HandState, ev: RiichiDeclared) -> None:
    st.seat_state[ev.seat].riichi = True


def check_dora(p: Play, st: HandState, ev: DoraRevealed) -> Refusal | None:
    """Riichi's indicators: one initial, one per kan made so far (004 Rules 3.3.10), ura at the end;
    with the wall known, the tile at that dead-wall position."""
    if ev.kind not in ("initial", "kan", "ura"):
        return Refusal("bad_event", None, f"unknown indicator kind {ev.kind!r}")
    bad = tile_refusal(ev.indicator)
    if bad:
        return bad
    t = tile(ev.indicator)
    shown = st.dora_indicators
    kongs = st.wall.kongs if st.wall else 0
    if ev.kind == "ura":
        if st.phase not in (Phase.ENDED, CLAIMS, Phase.ROB) and not st.wins:
            return Refusal("dora_mismatch", None, "ura indicators are turned at the end of the hand")
        return None
    if ev.kind == "initial" and shown:
        return Refusal("dora_mismatch", None, "the initial indicator is turned once")
    if ev.kind == "kan" and (not shown or len(shown) > kongs):
        return Refusal("dora_mismatch", None, f"{len(shown)} indicators for {kongs} kan")
    wall = st.wall
    if p.sequence is not None and wall is not None and t != UNKNOWN_CODE:
        pos = wall.dora_indicator_positions(len(shown))
        if len(pos) > len(shown) and p.sequence[pos[len(shown)]] != t:
            return Refusal("dora_mismatch", None, f"the indicator there is {p.sequence[pos[len(shown)]]}")
    return None


def apply_dora(p: Play, st: HandState, ev: DoraRevealed) -> None:
    if ev.kind != "ura":
        st.dora_indicators.append(tile(ev.indicator))


def check_hand_dead(p: Play, st: HandState, ev: HandDead) -> Refusal | None:
    bad = seat_refusal(st, ev.seat)
    if bad:
        return bad
    ss = st.seat_state[ev.seat]
    if ss.won:
        return Refusal("claim_inactive_player", ev.seat, "this player has won already")
    if ss.dead:
        return Refusal("out_of_phase", ev.seat, "this hand is dead already")
    return None


def apply_hand_dead(p: Play, st: HandState, ev: HandDead) -> None:
    make_dead(st, ev.seat)

