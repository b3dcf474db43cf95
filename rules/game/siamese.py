"""The hand machine for MCR's Siamese format (``mcr-siamese``, 003 «Правила сиамского формата», spec §11).

:class:`SiameseHandMachine` is a :class:`~rules.game.machine.HandMachine` whose players each build **two**
hands from one pool of concealed tiles (003 §Сиамский 10). It reuses the base machine's setup, draws,
discards, claims, kongs, exhaustion and settlement, and changes only what the seed changes:

* the deal: 28 tiles to East, 27 to the others (§8), and 28 tiles held before a discard;
* a chow, pung or kong names the hand (``slot`` 0/1) that receives it (§10; ``Claimed.slot``,
  ``MeldMade.slot``); an added kong goes to its pung's hand;
* a win (``Won``) names its ``slot`` and shows the hand's concealed tiles (``Won.hand``, mpsz notation:
  a self-drawn winning tile included, a winning discard not); it is judged at once (the hand is exposed,
  scored and recorded, §11) and its tiles leave the pool, face up, "played";
* after a first win the player keeps the turn (§9); the hand ends when a player has won both hands (§3)
  or the wall is exhausted;
* the golden rule (§4): a second win worth less than the first is refused (``golden_rule``);
* a self-drawn win needs a tile drawn this turn, so two wins in one turn only after a wall draw (§5,
  ``siamese_no_draw``); only a first win may leave the drawn tile out (§17, ``siamese_drawn_tile``); a
  first win that keeps it is scored without #4, #46, #58, #77, #78, #79 (``drawn_tile_kept``);
* a false win (no winning shape, under 8 fan) pays the MCR penalty and makes the player's hand dead
  (003 §Отдельные нарушения 6); the tiles stay in the pool.

Payments (§13-16, §23) are the profile's ``settle_hand`` (``rules.profiles.mcr.siamese``). Every rule is a
typed violation, never an exception; the log replays to the identical state (:func:`replay_siamese`).

The variant is declared, not overridden: :data:`SIAMESE` names the handlers that differ from the standard
dispatch table (wins, claims and melds with a slot), the seat's state (:class:`SiameseSeat`), the tiles
held before a discard and the violation codes it adds; :class:`SiameseHandMachine` is the hand machine
with that variant.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from rules.events import Claimed, Dealt, Event, JSONObject, MeldMade, Won
from rules.game.flow import Handler, Play, Refusal, Variant, make_dead, seat_refusal, tile, tile_refusal
from rules.game.machine import HandMachine, replay, table_view
from rules.game.play import apply_claimed, apply_meld, check_claimed, check_meld, impossible_win
from rules.game.protocols import RuleSet
from rules.game.state import HandState, Phase, SeatState, WinRecord
from rules.game.window import close_window, hu_claim_refusal, void_robbed_kong
from rules.notation import Hand, Meld, MeldKind, ParseError, parse_tiles
from rules.tiles import UNKNOWN_CODE, Tile

SLOTS = (0, 1)
HELD = 28  # tiles before a discard, a meld counted as three: 14 per hand (003 §Сиамский 8)

# violation code -> (seed reference, meaning); added to the machine's codes by the variant
SIAMESE_CODES: dict[str, tuple[str, str]] = {
    "golden_rule": ("003 §Сиамский 4", "the second win must be worth at least the first"),
    "siamese_no_draw": ("003 §Сиамский 5", "a self-drawn win needs a tile drawn from the wall this turn "
                        "(two wins in one turn only when the turn began with a wall draw)"),
    "siamese_drawn_tile": ("003 §Сиамский 17", "only a first win may leave the drawn tile out"),
    "siamese_slot": ("003 §Сиамский 10", "a set or a win names one of the player's two hands (slot 0 or 1)"),
    "siamese_slot_won": ("003 §Сиамский 11", "that hand has already won: it takes no more tiles"),
    "siamese_slot_full": ("003 §Сиамский 10", "a hand holds at most four sets"),
}


@dataclass
class SiameseWin(WinRecord):
    """A declared win of one of the player's hands: ``slot``, the hand's concealed tiles (``concealed``:
    winning tile included, a won discard too) and whether a first win kept the drawn tile (§17)."""

    slot: int = 0
    concealed: tuple[Tile, ...] = ()
    drawn_tile_kept: bool = False

    def to_json(self) -> JSONObject:
        d = super().to_json()
        d.update(slot=self.slot, concealed=[str(t) for t in self.concealed], drawn_tile_kept=self.drawn_tile_kept)
        return d


@dataclass
class SiameseSeat(SeatState):
    """A seat with two hands: ``meld_slots`` (the hand of each meld, parallel to ``melds``) and
    ``slot_wins`` (per hand, the index in ``HandState.wins`` of its valid win, None while open)."""

    meld_slots: list[int] = field(default_factory=list)
    slot_wins: list[int | None] = field(default_factory=lambda: [None, None])

    def slot_melds(self, slot: int) -> list[Meld]:
        return [m for m, s in zip(self.melds, self.meld_slots, strict=True) if s == slot]

    def open_slots(self) -> list[int]:
        return [s for s in SLOTS if self.slot_wins[s] is None]

    def to_json(self) -> JSONObject:
        d = super().to_json()
        d.update(meld_slots=list(self.meld_slots), slot_wins=list(self.slot_wins))
        return d


def siamese_seat(st: HandState, seat: int) -> SiameseSeat:
    ss = st.seat_state[seat]
    assert isinstance(ss, SiameseSeat)
    return ss


def siamese_wins(st: HandState, seat: int) -> list[SiameseWin]:
    """The seat's valid wins so far (one per won hand)."""
    out = []
    for i in siamese_seat(st, seat).slot_wins:
        if i is not None:
            w = st.wins[i]
            assert isinstance(w, SiameseWin)
            out.append(w)
    return out


# --- the declared hooks ------------------------------------------------------------------------------------

def _held(st: HandState, ss: SeatState) -> int:
    """Tiles held before a discard, a meld counted as three and a won hand's tiles too (§8: 28)."""
    return ss.n_concealed + 3 * len(ss.melds) + sum(len(w.concealed) for w in siamese_wins(st, ss.seat))


def _on_dealt(st: HandState, ev: Dealt) -> None:
    if ev.seat == st.dealer:  # East's 28th tile is taken from the wall (§8): his first turn begins with a
        st.seat_state[ev.seat].drawn = tile(ev.tiles[-1])  # draw (a win there is self-drawn, §5)


def _slot_refusal(ss: SiameseSeat, slot: int, seat: int) -> Refusal | None:
    if slot not in SLOTS:
        return Refusal("siamese_slot", seat, f"slot {slot}: a player has hands 0 and 1")
    if ss.slot_wins[slot] is not None:
        return Refusal("siamese_slot_won", seat, f"hand {slot} has already won")
    if len(ss.slot_melds(slot)) >= 4:
        return Refusal("siamese_slot_full", seat, f"hand {slot} holds four sets already")
    return None


def _check_claimed(p: Play, st: HandState, ev: Claimed) -> Refusal | None:
    bad = seat_refusal(st, ev.seat)
    if bad:
        return bad
    ss = siamese_seat(st, ev.seat)
    if ev.kind != "hu":
        bad = _slot_refusal(ss, ev.slot, ev.seat)
    elif ev.slot not in SLOTS or ss.slot_wins[ev.slot] is not None:
        bad = Refusal("siamese_slot_won" if ev.slot in SLOTS else "siamese_slot", ev.seat)
    return bad or check_claimed(p, st, ev)


def _check_meld(p: Play, st: HandState, ev: MeldMade) -> Refusal | None:
    bad = seat_refusal(st, ev.seat)
    if bad:
        return bad
    ss = siamese_seat(st, ev.seat)
    if ev.kind == "kong_added":
        for x in ev.tiles:
            if x != "x" and (bad := tile_refusal(x)):
                return bad
        known = {tile(x).kind for x in ev.tiles if x != "x"}
        idx = next((i for i, m in enumerate(ss.melds) if m.kind is MeldKind.PUNG and m.base in known), None)
        if idx is not None and ss.slot_wins[ss.meld_slots[idx]] is not None:
            return Refusal("siamese_slot_won", ev.seat, "that pung belongs to a hand that has won")
    elif ev.kind in ("chow", "pung", "kong_open", "kong_concealed"):
        bad = _slot_refusal(ss, ev.slot, ev.seat)
    return bad or check_meld(p, st, ev)


def _apply_meld(p: Play, st: HandState, ev: MeldMade) -> None:
    ss = siamese_seat(st, ev.seat)
    n = len(ss.melds)
    apply_meld(p, st, ev)
    if len(ss.melds) > n:
        ss.meld_slots.append(ev.slot)


# --- wins: judged at once, on the hand shown (§11) -------------------------------------------------------------

def _check_won(p: Play, st: HandState, ev: Won) -> Refusal | None:
    bad = seat_refusal(st, ev.seat)
    if bad:
        return bad
    ss = siamese_seat(st, ev.seat)
    if ev.slot not in SLOTS:
        return Refusal("siamese_slot", ev.seat, f"slot {ev.slot}: a player has hands 0 and 1")
    if ss.slot_wins[ev.slot] is not None:
        return Refusal("siamese_slot_won", ev.seat, f"hand {ev.slot} has already won")
    bad = tile_refusal(ev.tile)
    if bad:
        return bad
    t = tile(ev.tile)
    if t == UNKNOWN_CODE:
        return Refusal("unknown_tile", ev.seat, "the winning tile is shown at the declaration (§Сиамский 11)")
    try:
        shown = parse_tiles(ev.hand) if ev.hand.strip() else []
    except ParseError as exc:
        return Refusal("bad_event", ev.seat, f"hand: {exc}")
    if any(x.is_unknown for x in shown):
        return Refusal("unknown_tile", ev.seat, "a declared hand is shown face up (§Сиамский 11)")
    if ev.from_seat is None:
        bad = _self_drawn_refusal(p, st, ev, ss, t, shown)
    else:
        bad = hu_claim_refusal(st, p.rules, st.phase, ev.seat, ev.from_seat, t)
    bad = bad or impossible_win(p, st, ev)
    if bad:
        return bad
    if not ss.holds(shown):
        return Refusal("tile_not_held", ev.seat, "the declared hand's tiles are not all in the pool")
    return _golden_rule(p, st, ev, ss, t, shown)


def _self_drawn_refusal(p: Play, st: HandState, ev: Won, ss: SiameseSeat, t: Tile,
                        shown: list[Tile]) -> Refusal | None:
    if st.phase is not Phase.TURN:
        return Refusal("out_of_phase", None, f"not allowed in phase {st.phase}")
    if ev.seat != st.current:
        return Refusal("win_out_of_turn", ev.seat, f"seat {st.current} plays now")
    if ss.dead:
        return Refusal("claim_inactive_player", ev.seat)
    if ss.drawn is None:
        return Refusal("siamese_no_draw", ev.seat)
    if t not in shown:
        return Refusal("bad_event", ev.seat, "a self-drawn winning tile is among the hand's tiles")
    if st.mode == "full" and ev.drawn_tile is not None and ev.drawn_tile != (ss.drawn.kind == t.kind):
        return Refusal("bad_event", ev.seat, "drawn_tile does not match the tile just drawn")
    if siamese_wins(st, ev.seat) and not _uses_drawn_tile(st, ev, ss, t):
        return Refusal("siamese_drawn_tile", ev.seat)
    return None


def _uses_drawn_tile(st: HandState, ev: Won, ss: SiameseSeat, t: Tile) -> bool:
    """Whether a self-drawn win's winning tile is the tile just drawn (table mode: as declared)."""
    if st.mode == "full":
        assert ss.drawn is not None
        return ss.drawn.kind == t.kind
    return ev.drawn_tile is not False


def _declared_win(p: Play, st: HandState, ev: Won, ss: SiameseSeat, t: Tile,
                  shown: list[Tile]) -> SiameseWin:
    """The win as declared, judged by the profile (the 8-fan minimum, §17's fans for a kept drawn tile)."""
    self_drawn = ev.from_seat is None
    robbing = not self_drawn and st.phase is Phase.ROB
    concealed = list(shown)
    if self_drawn:
        concealed.remove(t)
    w = st.window
    w_last = w is not None and w.last_tile
    win = SiameseWin(ev.seat, t, ev.from_seat, robbing_kong=robbing,
                     kong_replacement=self_drawn and st.after_kong,
                     last_tile=st.wall_remaining == 0 if self_drawn else (w_last and not robbing),
                     order=len(st.wins), slot=ev.slot, concealed=tuple(shown if self_drawn else (*shown, t)),
                     drawn_tile_kept=self_drawn and not _uses_drawn_tile(st, ev, ss, t))
    hand = Hand(tuple(concealed), tuple(ss.slot_melds(ev.slot)), t, ())
    win.result = p.rules.judge_win(st, ev.seat, hand, win)
    win.valid = bool(win.result.valid)
    return win


def _golden_rule(p: Play, st: HandState, ev: Won, ss: SiameseSeat, t: Tile,
                 shown: list[Tile]) -> Refusal | None:
    """003 §Сиамский 4: a second win worth less than the first is refused. The judged win is kept for
    the apply step (the profile's judgement is the expensive part)."""
    win = _declared_win(p, st, ev, ss, t, shown)
    p.found["siamese_win"] = (ev, win)
    mine = siamese_wins(st, ev.seat)
    first = mine[0].result if mine else None
    assert win.result is not None
    if win.valid and first is not None and win.result.total_fan < first.total_fan:
        return Refusal("golden_rule", ev.seat, f"worth {win.result.total_fan}, the first win {first.total_fan}")
    return None


def _apply_won(p: Play, st: HandState, ev: Won) -> None:
    got_ev, w = p.found.pop("siamese_win")
    assert got_ev is ev and isinstance(w, SiameseWin)
    ss = siamese_seat(st, ev.seat)
    st.wins.append(w)
    if not w.valid:  # a false win: MCR's penalty, no more wins this hand (003 §Отдельные нарушения 6)
        p.note(st, "false_win", ev.seat, w.result.reason or "" if w.result else "")
        make_dead(st, ev.seat)
        if st.window is not None:  # the window stays open for the other claims
            st.window.claims = [c for c in st.window.claims if c.seat != ev.seat]
        return
    shown = list(w.concealed) if ev.from_seat is None else list(w.concealed[:-1])
    ss.give_out(shown)
    st.show(shown)
    ss.slot_wins[ev.slot] = len(st.wins) - 1
    if ev.from_seat is None:
        if not w.drawn_tile_kept:
            ss.drawn = None  # the drawn tile is used: no second win this turn (§5, §17)
    else:
        _take_winning_tile(st, ev.seat)
    both = all(i is not None for i in ss.slot_wins)
    if both:  # 003 §Сиамский 3: both hands won, the hand is over
        ss.won = True
        st.left_order.append(ev.seat)
    turn = (Phase.ENDED, st.current) if both else (Phase.TURN, ev.seat)  # §9: the winner keeps the turn
    if st.window is not None:
        close_window(st, turn)
    else:
        st.phase, st.current = turn


def _take_winning_tile(st: HandState, seat: int) -> None:
    """A win on a discard (or a robbed kong): the tile joins the exposed hand; the winner plays on."""
    w = st.window
    assert w is not None
    if w.robbing:  # the added kong is void: its meld goes back to a pung
        void_robbed_kong(st)
    else:
        st.seat_state[w.seat].pond_claimed[-1] = True  # taken into the exposed hand (not counted twice)
    st.after_kong = False
    st.turn_by_claim = True  # the turn began with a claimed tile (no kong before the discard)
    st.seat_state[seat].drawn = None


_WON = Handler(_check_won, _apply_won)
_CLAIMED = Handler(_check_claimed, apply_claimed)
_MELD = Handler(_check_meld, _apply_meld)

SIAMESE = Variant(
    "siamese",
    handlers={
        **{(ph, Won): _WON for ph in (Phase.TURN, Phase.CLAIMS, Phase.ROB)},
        **{(ph, MeldMade): _MELD for ph in (Phase.TURN, Phase.CLAIMS, Phase.ROB)},
        **{(ph, Claimed): _CLAIMED for ph in (Phase.CLAIMS, Phase.ROB)},
    },
    codes=SIAMESE_CODES,
    hands_per_player=2,
    win_shows_hand=True,
    new_seat=SiameseSeat,
    held_before_discard=_held,
    on_dealt=_on_dealt,
)


class SiameseHandMachine(HandMachine):
    """One Siamese hand (3 players, or 2 with a 27-tile dead wall): the hand machine with the
    :data:`SIAMESE` variant."""

    variant = SIAMESE


def replay_siamese(profile: RuleSet, events: Iterable[Event], mode: str = "full",
                   wall: tuple[Tile, ...] | None = None) -> SiameseHandMachine:
    """Rebuild a Siamese hand from its log (:func:`rules.game.machine.replay`)."""
    m = replay(profile, events, mode, wall, machine=SiameseHandMachine)
    assert isinstance(m, SiameseHandMachine)
    return m


def siamese_table_view(events: Iterable[Event]) -> list[Event]:
    """What a camera sees of a full-information Siamese log: wins are shown at their declaration
    (§Сиамский 11), so ``Won`` keeps its tiles (:func:`rules.game.machine.table_view`)."""
    return table_view(events, wins_shown=True)
