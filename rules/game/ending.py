"""Handlers of the end of a hand: the exhaustive draw, the reveals (where every check that needs the hidden
tiles runs, in both information modes), the settlement and the next dealer."""
from __future__ import annotations

from rules.events import ExhaustiveDraw, HandEnded, HandRevealed, Payment, Settled
from rules.game.flow import Play, Refusal, build_meld, seat_refusal, tile, tile_refusal, tiles_of
from rules.game.play import note_copies
from rules.game.profile_api import GameRules
from rules.game.state import HandState, Phase, SeatState, WinRecord
from rules.game.violations import frozen_object
from rules.notation import Hand, Meld, MeldKind
from rules.tiles import KIND_OF, N_CODES, UNKNOWN_CODE, Tile

# --- the exhaustive draw ------------------------------------------------------------------------------------


def check_exhaustive(p: Play, st: HandState, ev: ExhaustiveDraw) -> Refusal | None:
    if st.phase is Phase.DRAW and st.wall_remaining != 0:
        return Refusal("out_of_phase", None, f"not allowed in phase {st.phase}")
    return None


def apply_exhaustive(p: Play, st: HandState, ev: ExhaustiveDraw) -> None:
    st.exhaustive = True
    st.tenpai_declared = tuple(ev.tenpai)
    st.phase = Phase.ENDED


# --- reveals ------------------------------------------------------------------------------------------------

def check_revealed(p: Play, st: HandState, ev: HandRevealed) -> Refusal | None:
    bad = seat_refusal(st, ev.seat)
    if bad:
        return bad
    for x in ev.tiles:
        bad = tile_refusal(x)
        if bad:
            return bad
    if any(tile(x) == UNKNOWN_CODE for x in ev.tiles):
        return Refusal("unknown_tile", ev.seat, "a reveal shows every tile")
    return tile_refusal(ev.winning) if ev.winning else None


def apply_revealed(p: Play, st: HandState, ev: HandRevealed) -> None:
    ss = st.seat_state[ev.seat]
    tiles = tiles_of(ev.tiles)
    _reconcile(p, st, ss, tiles)
    note_copies(p, st, [KIND_OF[t] for t in tiles], ev.seat)
    winning = tile(ev.winning) if ev.winning else None
    rules = p.rules
    for w in st.wins:
        if w.seat == ev.seat and w.valid is None:
            judge_win(p, st, w, ss, winning)
    if st.exhaustive and not ss.won:
        ready = rules.is_tenpai(st, ev.seat, ss.hand())
        st.tenpai[ev.seat] = ready
        if ev.seat in st.tenpai_declared and not ready:
            p.note(st, "false_tenpai", ev.seat, deferred=True)
    if type(rules).reveal_checks is not GameRules.reveal_checks:  # the default checks nothing: no hand to build
        for code, msg in rules.reveal_checks(st, ev.seat, ss.hand()):
            p.note(st, code, ev.seat, msg, deferred=True)


def _reconcile(p: Play, st: HandState, ss: SeatState, tiles: list[Tile]) -> None:
    """The revealed tiles replace the recorded ones; whatever does not fit the record is noted: a wrong
    number of tiles, or discards and melds the revealed tiles cannot have come from."""
    rc = [0] * N_CODES
    for t in tiles:
        rc[t] += 1
    consistent = len(tiles) == ss.n_concealed and all(rc[c] >= ss.counts[c] for c in range(N_CODES))
    if not consistent:
        p.note(st, "reveal_mismatch", ss.seat, f"revealed {len(tiles)} tiles, {ss.n_concealed} recorded",
               deferred=True)
    # the face-down draws, resolved: what came in unseen = what is held + what went out - what came in seen
    unseen = [rc[c] + ss.out[c] - ss.known_in[c] for c in range(N_CODES)]
    if consistent and (any(x < 0 for x in unseen) or sum(unseen) != ss.unknown_in):
        p.note(st, "tile_not_held", ss.seat, "the recorded discards and melds do not fit the revealed tiles",
               deferred=True)
    ss.known_in = [ss.known_in[c] + max(0, unseen[c]) for c in range(N_CODES)]
    ss.unknown_in = 0
    ss.counts = rc
    ss.size = len(tiles)
    ss.version += 1
    ss.unknown = 0
    ss.revealed = True


def judge_win(p: Play, st: HandState, w: WinRecord, ss: SeatState, winning: Tile | None) -> None:
    """Judge a declared win on the revealed hand: a dead hand's declaration, the profile's verdict
    (``judge_win``), furiten; a false one is handled by :func:`false_win`."""
    rules = p.rules
    if w.dead_hand:  # 000 §2.8.3: a hu declared under dead hand is a false hu
        w.valid = False
        p.note(st, "false_win", w.seat, "a win declared by a dead hand", deferred=True)
        false_win(p, st, w, ss)
        return
    if w.from_seat is None:
        judged = _judge_self_drawn(p, st, w, ss, winning)
        if judged is None:
            w.valid = False
            p.note(st, "false_win", w.seat, "the winning tile is not in the revealed hand", deferred=True)
            false_win(p, st, w, ss)
            return
        hand = ss.hand(winning=w.tile)
    else:
        hand = Hand(tuple(ss.tiles()), tuple(ss.melds), w.tile, tuple(ss.flowers))
        w.result = rules.judge_win(st, ss.seat, hand, w)
    result = w.result
    assert result is not None
    if not result.valid:
        w.valid = False
        p.note(st, "false_win", w.seat, result.reason or "", deferred=True)
        false_win(p, st, w, ss)
    elif w.from_seat is not None and rules.is_furiten(st, ss.seat, hand, w):
        w.valid = False
        p.note(st, "furiten", w.seat, deferred=True)
        false_win(p, st, w, ss)
    else:
        w.valid = True


def _judge_self_drawn(p: Play, st: HandState, w: WinRecord, ss: SeatState, winning: Tile | None) -> bool | None:
    """A self-drawn win: the winning tile shown apart, else the declared one, else the best tile of the
    hand (table mode: the declaration was face down). Sets ``w.tile`` and ``w.result``; None: no tile."""
    candidates = [winning] if winning is not None else ([w.tile] if w.tile != UNKNOWN_CODE else [])
    if not candidates:
        candidates = sorted(set(ss.tiles()))
    best = None
    for cand in candidates:
        if ss.counts[cand] <= 0:
            continue
        w.tile = cand  # hooks see the winning tile as revealed
        r = p.rules.judge_win(st, ss.seat, ss.hand(winning=cand), w)
        if best is None or (r.valid and not best[1].valid):
            best = (cand, r)
    if best is None:
        return None
    w.tile, w.result = best
    return True


def false_win(p: Play, st: HandState, w: WinRecord, ss: SeatState) -> None:
    """A declared win found false at the reveal. Where the profile plays on (``false_win_ends_hand``
    False) the offender's hand is dead; a hand that only this declaration ended resumes: after a false
    self-drawn win the offender discards, after a false win on a discard the next player draws."""
    rules = p.rules
    if rules.capabilities.false_win_ends_hand:
        return
    ss.won = False
    ss.dead = True
    if (not rules.capabilities.reveal_on_win or st.phase is not Phase.ENDED or st.exhaustive
            or any(x.valid is not False for x in st.wins)):
        return
    ss.revealed = False  # play resumes: the shown hand goes back behind its rack (its tiles stay known)
    if w.from_seat is None:
        st.phase = Phase.TURN
        st.current = w.seat
        return
    pond = st.seat_state[w.from_seat]
    if pond.pond_claimed:
        pond.pond_claimed[-1] = False
    if w.robbing_kong:
        _restore_robbed_kong(st, w)
        return
    nxt = st.next_active(w.from_seat)
    if st.wall_remaining == 0 or nxt is None:
        st.phase = Phase.EXHAUSTED
    else:
        st.phase = Phase.DRAW
        st.current = nxt


def _restore_robbed_kong(st: HandState, w: WinRecord) -> None:
    """The robbery was void: the kong stands and its replacement follows."""
    assert w.from_seat is not None and st.wall is not None
    ks = st.seat_state[w.from_seat]
    for i, m in enumerate(ks.melds):
        if m.kind is MeldKind.PUNG and m.base == w.tile.kind:
            meld = build_meld([*m.tiles, w.tile], added=True)
            assert isinstance(meld, Meld)
            ks.melds[i] = meld
            st.wall.kongs += 1
            break
    st.phase = Phase.REPLACE
    st.current = w.from_seat
    st.after_kong = True


# --- settlement and the next dealer ---------------------------------------------------------------------------

def _memo_key(st: HandState) -> tuple[int, Phase, int, int]:
    return (len(st.history), st.phase, len(st.wins), len(st.violations))


def settlement_of(p: Play, st: HandState) -> Settled:
    """The settlement the profile computes (``settle_hand``), remembered until the state changes (the
    driver asks for it, then submits it, and the machine checks it against its own)."""
    key = _memo_key(st)
    hit = p.memo.get("settlement")
    if hit is not None and hit[0] == key:
        return hit[1]  # type: ignore[return-value]
    payments: list[Payment] = list(p.rules.settle_hand(st))
    deltas = [0, 0, 0, 0]
    for pay in payments:
        if pay.payer is not None:
            deltas[pay.payer] -= pay.amount
        if pay.payee is not None:
            deltas[pay.payee] += pay.amount
    out = Settled(payments=tuple(frozen_object(pay.to_json()) for pay in payments), deltas=tuple(deltas),
                  hand_id=st.hand_id)
    p.memo["settlement"] = (key, out)
    return out


def next_dealer_of(p: Play, st: HandState) -> int:
    """The next dealer by the profile's ``next_dealer``, remembered like :func:`settlement_of`."""
    key = _memo_key(st)
    hit = p.memo.get("next_dealer")
    if hit is not None and hit[0] == key:
        return hit[1]  # type: ignore[return-value]
    nd = p.rules.next_dealer(st)
    p.memo["next_dealer"] = (key, nd)
    return nd


def check_settled(p: Play, st: HandState, ev: Settled) -> Refusal | None:
    mine = settlement_of(p, st)
    if (tuple(ev.payments), tuple(ev.deltas)) != (mine.payments, mine.deltas):
        return Refusal("settlement_mismatch", None, f"the engine settles {list(mine.deltas)}")
    return None


def apply_settled(p: Play, st: HandState, ev: Settled) -> None:
    st.settled = ev
    st.phase = Phase.SETTLED


def check_hand_ended(p: Play, st: HandState, ev: HandEnded) -> Refusal | None:
    nd = next_dealer_of(p, st)
    if ev.next_dealer != nd:
        return Refusal("dealer_mismatch", None, f"the engine's next dealer is seat {nd}")
    return None


def apply_hand_ended(p: Play, st: HandState, ev: HandEnded) -> None:
    st.next_dealer = next_dealer_of(p, st)
    st.phase = Phase.OVER
