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
"""
from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from rules.events import Claimed, Dealt, Event, MeldMade, Violation, Won
from rules.game.machine import HandMachine, _Reject, _tile, replay, table_view
from rules.game.state import Phase, SeatState, WinRecord
from rules.notation import Hand, Meld, MeldKind, ParseError, format_tiles, parse_tiles
from rules.tiles import Tile
from rules.wall import deal_steps

SLOTS = (0, 1)
HELD = 28  # tiles before a discard, a meld counted as three: 14 per hand (003 §Сиамский 8)

# violation code -> (seed reference, meaning); merged into the profile's references by the machine
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

    def to_json(self) -> dict[str, Any]:
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

    def to_json(self) -> dict[str, Any]:
        d = super().to_json()
        d.update(meld_slots=list(self.meld_slots), slot_wins=list(self.slot_wins))
        return d


class SiameseHandMachine(HandMachine):
    """One Siamese hand (3 players, or 2 with a 27-tile dead wall); see the module docstring."""

    def __init__(self, profile: Any, mode: str = "full", wall: tuple[Tile, ...] | None = None):
        super().__init__(profile, mode, wall)
        self._claim_slot: dict[tuple[int, str], int] = {}  # (seat, claim kind) -> the slot it named

    # --- hooks of the base machine --------------------------------------------------------------------
    def _dealt_size(self, seat: int) -> int:
        # 003 §Сиамский 8: East 28, South and West 27 (the deal's own steps)
        return sum(len(s.positions) for s in deal_steps(self._spec, self.state.dealer) if s.seat == seat)  # type: ignore[arg-type]

    def _held_before_discard(self, ss: SeatState) -> tuple[int, int]:
        won = sum(len(self.state.wins[i].concealed) for i in ss.slot_wins if i is not None)  # type: ignore[attr-defined]
        return ss.n_concealed + 3 * len(ss.melds) + won, HELD

    def _viol(self, code: str, seat: int | None, msg: str, at: Event, action: Event | None = None,
              deferred: bool = False) -> Violation:
        if code in SIAMESE_CODES and not msg:
            msg = SIAMESE_CODES[code][1]
        v = super()._viol(code, seat, msg, at, action, deferred)
        if code in SIAMESE_CODES and not v.rule:  # a profile without the references (they are data here)
            v = dataclasses.replace(v, rule=SIAMESE_CODES[code][0])
        return v

    def _hand_started(self, ev: Any) -> None:
        try:
            siamese = self.profile.wall_spec(ev.n_players, ev.options.get("tiles")).deal == "siamese"
        except ValueError:
            siamese = True  # the base machine reports the bad parameters
        if not siamese:
            raise _Reject("bad_event", None, f"{ev.profile} does not deal two hands per player")
        super()._hand_started(ev)
        st = self.state
        st.seat_state = {s: SiameseSeat(s) for s in st.seats}

    def _dealt_ev(self, ev: Dealt) -> None:
        super()._dealt_ev(ev)
        if ev.seat == self.state.dealer:  # East's 28th tile is taken from the wall (§8): his first turn
            ss = self.state.seat_state[ev.seat]  # begins with a draw (a win there is self-drawn, §5)
            ss.drawn = _tile(ev.tiles[-1])

    # --- melds ------------------------------------------------------------------------------------------
    def _check_slot(self, ss: SiameseSeat, slot: int, seat: int) -> None:
        if slot not in SLOTS:
            raise _Reject("siamese_slot", seat, f"slot {slot}: a player has hands 0 and 1")
        if ss.slot_wins[slot] is not None:
            raise _Reject("siamese_slot_won", seat, f"hand {slot} has already won")
        if len(ss.slot_melds(slot)) >= 4:
            raise _Reject("siamese_slot_full", seat, f"hand {slot} holds four sets already")

    def _claimed(self, ev: Claimed) -> None:
        ss = self._seat(ev.seat)
        if ev.kind != "hu":
            self._check_slot(ss, ev.slot, ev.seat)  # type: ignore[arg-type]
        elif ev.slot not in SLOTS or ss.slot_wins[ev.slot] is not None:  # type: ignore[attr-defined]
            raise _Reject("siamese_slot_won" if ev.slot in SLOTS else "siamese_slot", ev.seat)
        super()._claimed(ev)
        self._claim_slot[(ev.seat, ev.kind)] = ev.slot

    def _meld(self, ev: MeldMade) -> None:
        ss: SiameseSeat = self._seat(ev.seat)  # type: ignore[assignment]
        if ev.kind == "kong_added":
            known = {_tile(t).kind for t in ev.tiles if t != "x"}
            idx = next((i for i, m in enumerate(ss.melds) if m.kind is MeldKind.PUNG and m.base in known), None)
            if idx is not None and ss.slot_wins[ss.meld_slots[idx]] is not None:
                raise _Reject("siamese_slot_won", ev.seat, "that pung belongs to a hand that has won")
            super()._meld(ev)
            return
        if ev.kind in ("chow", "pung", "kong_open", "kong_concealed"):
            self._check_slot(ss, ev.slot, ev.seat)
        n = len(ss.melds)
        super()._meld(ev)
        if len(ss.melds) > n:
            ss.meld_slots.append(ev.slot)

    # --- wins -------------------------------------------------------------------------------------------
    def _won(self, ev: Won) -> None:
        st = self.state
        ss: SiameseSeat = self._seat(ev.seat)  # type: ignore[assignment]
        if ev.slot not in SLOTS:
            raise _Reject("siamese_slot", ev.seat, f"slot {ev.slot}: a player has hands 0 and 1")
        if ss.slot_wins[ev.slot] is not None:
            raise _Reject("siamese_slot_won", ev.seat, f"hand {ev.slot} has already won")
        t = _tile(ev.tile)
        if t.is_unknown:
            raise _Reject("unknown_tile", ev.seat, "the winning tile is shown at the declaration (§Сиамский 11)")
        try:
            shown = parse_tiles(ev.hand) if ev.hand.strip() else []
        except ParseError as exc:
            raise _Reject("bad_event", ev.seat, f"hand: {exc}") from None
        if any(x.is_unknown for x in shown):
            raise _Reject("unknown_tile", ev.seat, "a declared hand is shown face up (§Сиамский 11)")
        mine = [st.wins[i] for i in ss.slot_wins if i is not None]
        self_drawn = ev.from_seat is None
        kept = False
        robbing = False
        if self_drawn:
            self._pre_play_done(ev.seat)
            self._require(Phase.TURN)
            if ev.seat != st.current:
                raise _Reject("win_out_of_turn", ev.seat, f"seat {st.current} plays now")
            if ss.dead:
                raise _Reject("claim_inactive_player", ev.seat)
            if ss.drawn is None:
                raise _Reject("siamese_no_draw", ev.seat)
            if t not in shown:
                raise _Reject("bad_event", ev.seat, "a self-drawn winning tile is among the hand's tiles")
            if self._full():
                is_drawn = ss.drawn.kind == t.kind
                if ev.drawn_tile is not None and ev.drawn_tile != is_drawn:
                    raise _Reject("bad_event", ev.seat, "drawn_tile does not match the tile just drawn")
            else:
                is_drawn = ev.drawn_tile is not False
            if mine and not is_drawn:
                raise _Reject("siamese_drawn_tile", ev.seat)
            kept = not is_drawn
        else:
            self._hu_claim(ev.seat, ev.from_seat, t)
            robbing = st.phase == Phase.ROB
        if not self._can_remove(ss, shown):
            raise _Reject("tile_not_held", ev.seat, "the declared hand's tiles are not all in the pool")
        concealed = list(shown)
        if self_drawn:
            concealed.remove(t)
        hand = Hand(tuple(concealed), tuple(ss.slot_melds(ev.slot)), t, ())
        w = SiameseWin(ev.seat, t, ev.from_seat, robbing_kong=robbing,
                       kong_replacement=self_drawn and st.after_kong,
                       last_tile=st.wall_remaining == 0 if self_drawn else (st.discard_on_empty_wall and not robbing),
                       order=len(st.wins), slot=ev.slot, concealed=tuple(shown if self_drawn else (*shown, t)),
                       drawn_tile_kept=kept)
        result = self.profile.judge_win(st, ev.seat, hand, w)
        if result.valid and mine and result.total_fan < mine[0].result.total_fan:  # 003 §Сиамский 4
            raise _Reject("golden_rule", ev.seat, f"worth {result.total_fan}, the first win {mine[0].result.total_fan}")
        w.result = result
        w.valid = bool(result.valid)
        st.wins.append(w)
        if not w.valid:  # a false win: MCR's penalty, no more wins this hand (003 §Отдельные нарушения 6)
            self._note("false_win", ev.seat, result.reason or "", ev)
            self._make_dead(ev.seat)
            if not self_drawn:  # the window stays open for the other claims
                st.claims = [c for c in st.claims if c[0] != ev.seat]
            return
        self._remove(ss, shown)
        self._show(shown)
        ss.slot_wins[ev.slot] = len(st.wins) - 1
        if self_drawn:
            if not kept:
                ss.drawn = None  # the drawn tile is used: no second win this turn (§5, §17)
        else:
            self._take_winning_tile(ev.seat, t, robbing)
        if all(i is not None for i in ss.slot_wins):  # 003 §Сиамский 3: both hands won, the hand is over
            ss.won = True
            st.left_order.append(ev.seat)
            st.phase = Phase.ENDED
            return
        st.current = ev.seat  # 003 §Сиамский 9: the winner keeps the turn
        st.phase = Phase.TURN

    def _take_winning_tile(self, seat: int, t: Tile, robbing: bool) -> None:
        """A win on a discard (or a robbed kong): the tile joins the exposed hand; the winner plays on."""
        st = self.state
        if robbing:  # the added kong is void: its meld goes back to a pung
            self._void_robbed_kong()
        else:
            disc = st.seat_state[st.last_discard[0]]  # type: ignore[index]
            disc.pond_claimed[-1] = True  # taken into the exposed hand (not counted twice as visible)
        st.last_discard = None
        st.pending_kong = None
        st.claims = []
        st.after_kong = False
        st.turn_by_claim = True  # the turn began with a claimed tile (no kong before the discard)
        st.seat_state[seat].drawn = None

    # --- arbitration --------------------------------------------------------------------------------------
    def arbitrate(self) -> list[Any]:
        """The base proposal, with the slot each claim named (and a win's shown tiles from its claim)."""
        out = []
        for ev in super().arbitrate():
            if isinstance(ev, Won):
                claim = next(c for c in self.state.claims if c[0] == ev.seat and c[1] == "hu")
                ev = dataclasses.replace(ev, slot=self._claim_slot.get((ev.seat, "hu"), 0),
                                         hand=format_tiles(claim[2]))
            elif isinstance(ev, MeldMade):
                kind = {"kong_open": "kong"}.get(ev.kind, ev.kind)
                ev = dataclasses.replace(ev, slot=self._claim_slot.get((ev.seat, kind), 0))
            out.append(ev)
        return out


def replay_siamese(profile: Any, events: Iterable[Event], mode: str = "full",
                   wall: tuple[Tile, ...] | None = None) -> SiameseHandMachine:
    """Rebuild a Siamese hand from its log (:func:`rules.game.machine.replay`)."""
    return replay(profile, events, mode, wall, machine=SiameseHandMachine)  # type: ignore[return-value]


def siamese_table_view(events: Iterable[Event]) -> list[Event]:
    """What a camera sees of a full-information Siamese log: wins are shown at their declaration
    (§Сиамский 11), so ``Won`` keeps its tiles (:func:`rules.game.machine.table_view`)."""
    return table_view(events, wins_shown=True)
