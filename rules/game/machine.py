"""The hand machine: one deterministic, event-driven state machine for every profile and both modes.

Everything that happens in a hand is a game event (``rules.events``) submitted to :meth:`HandMachine.submit`.
The machine checks it against the phase, the rules common to all profiles and the profile's hooks
(``rules.game.profile_api.GameRules``), then either applies it or rejects it with a typed
:class:`~rules.events.Violation` (never an exception: the referee reports it and the hand goes on).
Both go to :attr:`HandMachine.log`; a hand replays from its log to the identical state (:func:`replay`).

The machine decides nothing by itself: a driver (the bot simulator, the camera referee) submits the events.
Where the rules decide (claim arbitration, settlement, next dealer) the machine *proposes* the events
(:meth:`arbitrate`, :meth:`settlement`, :meth:`hand_end`) and checks them when they are submitted, so the
log stays a plain list of inputs.

**Two information modes.** ``mode="full"``: every tile is known (simulation, tests); a draw must be the
tile at that wall position when the wall is given. ``mode="table"``: what the camera sees — concealed
tiles, the wall and self-drawn tiles are ``x``; counts are always known. Checks needing hidden tiles run
in *both* modes at the same point of the flow, when the player's tiles are revealed (``HandRevealed``):
whether a declared win is legal, furiten, a false tenpai, the profile's reveal checks (Sichuan's pig) and
tile conservation (every discard and meld tile was held). So the verdicts of the two modes are equal.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rules.events import (
    Claimed,
    Dealt,
    DiceRolled,
    Discarded,
    DoraRevealed,
    Drew,
    Event,
    ExhaustiveDraw,
    FlowerDeclared,
    GameEvent,
    HandDead,
    HandEnded,
    HandRevealed,
    HandStarted,
    MeldMade,
    MissingSuitDeclared,
    Payment,
    RiichiDeclared,
    Settled,
    Violation,
    WallBroken,
    Won,
)
from rules.game.profile_api import GameRules
from rules.game.state import HandState, Phase, SeatState, WinRecord
from rules.game.violations import frozen_json, violation
from rules.notation import Hand, Meld, MeldKind
from rules.tiles import KIND_OF, N_CODES, TILES, UNKNOWN_CODE, Tile
from rules.wall import WallCursor, break_wall, deal_steps, tile_set

CLAIM_KINDS = ("hu", "kong", "pung", "chow")
_MELD_FOR_CLAIM = {"chow": MeldKind.CHOW, "pung": MeldKind.PUNG, "kong": MeldKind.KONG_OPEN}
_CLAIM_FOR_MELD = {"chow": "chow", "pung": "pung", "kong_open": "kong"}


class _Reject(Exception):
    """Internal: the event is rejected with this violation (turned into a Violation event)."""

    def __init__(self, code: str, seat: int | None, message: str = ""):
        super().__init__(code)
        self.code = code
        self.seat = seat
        self.message = message


_BY_TEXT = {str(t): t for t in TILES}
_FLOWER_LO, _FLOWER_HI = 34, 42  # flower codes (rules.tiles)
_X = TILES[46]


def _tile(text: str) -> Tile:
    t = _BY_TEXT.get(text)
    if t is None:
        raise _Reject("bad_event", None, f"{text!r} is not a tile")
    return t


_COPIES: dict[str, tuple[int, ...]] = {}
_MELDS: dict[tuple[tuple[int, ...], bool, bool], Meld] = {}


def _build_meld(tiles: list[Tile], concealed: bool = False, added: bool = False) -> Meld:
    """``Meld.build`` remembered by its tiles (a Meld is immutable; an error is raised again each time)."""
    key = (tuple(tiles), concealed, added)
    meld = _MELDS.get(key)
    if meld is None:
        meld = Meld.build(tiles, concealed=concealed, added=added)
        if len(_MELDS) > 50_000:
            _MELDS.clear()
        _MELDS[key] = meld
    return meld


_BREAKS: dict[tuple[int, int, tuple], tuple[Any, Any]] = {}


def cached_break(spec: Any, dealer: int, dice: tuple[tuple[int, int], ...]) -> Any:
    """``rules.wall.break_wall`` remembered per wall spec (the profile's, made once), dealer and dice."""
    key = (id(spec), dealer, dice)
    hit = _BREAKS.get(key)
    if hit is not None and hit[0] is spec:
        return hit[1]
    brk = break_wall(spec, dealer, dice)
    if len(_BREAKS) > 10_000:
        _BREAKS.clear()
    _BREAKS[key] = (spec, brk)
    return brk


def _copies_of(name: str) -> tuple[int, ...]:
    """Copies of each kind (by code) in the tile set ``name`` (``rules.wall.tile_set``), made once."""
    copies = _COPIES.get(name)
    if copies is None:
        n = [0] * N_CODES
        for t in tile_set(name):
            n[t.kind] += 1
        copies = _COPIES[name] = tuple(n)
    return copies


def _tiles_shown(texts: Iterable[str]) -> list[Tile]:
    return [_tile(x) for x in texts]


class HandMachine:
    """One hand. ``profile``: a :class:`rules.profiles.base.Profile`; ``mode``: ``"full"`` or ``"table"``;
    ``wall``: the wall in draw order when known (full information), to check every draw."""

    def __init__(self, profile: Any, mode: str = "full", wall: tuple[Tile, ...] | None = None):
        if mode not in ("full", "table"):
            raise ValueError(f"mode must be 'full' or 'table', not {mode!r}")
        self.profile = profile
        self.sequence = wall
        self.state = HandState(profile=profile.name, mode=mode)
        self.log: list[Event] = []
        self._extra: list[Violation] = []
        self._dealt: set[int] = set()
        self._owed: dict[int, int] = {}
        self._discard_winners: list[int] = []
        self._spec = None
        self._break = None
        self._indicators: list[Tile] = []  # dora indicators turned (initial and kan)
        self._memo: dict[str, tuple[tuple, Any]] = {}  # see _unchanged

    # the handler of each game event, by method name (looked up per event: a table of bound methods kept
    # on the machine would make every machine a reference cycle, left to the garbage collector)
    _HANDLERS: dict[type, str] = {
        HandStarted: "_hand_started", DiceRolled: "_dice", WallBroken: "_wall_broken", Dealt: "_dealt_ev",
        Drew: "_drew", Discarded: "_discarded", Claimed: "_claimed", MeldMade: "_meld", Won: "_won",
        FlowerDeclared: "_flower", MissingSuitDeclared: "_missing_suit", HandRevealed: "_revealed",
        ExhaustiveDraw: "_exhaustive", Settled: "_settled", HandEnded: "_hand_ended",
        RiichiDeclared: "_riichi_declared", DoraRevealed: "_dora_revealed", HandDead: "_hand_dead",
    }

    # ------------------------------------------------------------------------------------------------
    # public API

    @property
    def phase(self) -> str:
        return self.state.phase

    @property
    def spec(self):
        return self._spec

    def submit(self, ev: Event) -> list[Event]:
        """Apply one event. Returns what was recorded: the event (plus violations it revealed), or a
        Violation instead of it when it is illegal. Observation and device events are ignored (``[]``)."""
        name = self._HANDLERS.get(type(ev))
        if name is None:
            if isinstance(ev, GameEvent):
                return self._record([self._viol("out_of_phase", None, f"{ev.TYPE} is not handled", ev, ev)])
            return []
        self._extra = []
        try:
            getattr(self, name)(ev)
        except _Reject as r:
            return self._record([self._viol(r.code, r.seat, r.message, ev, ev)])
        self.state.history.append(ev)
        if not self._extra:  # the usual case: the event alone (it is no violation: those have no handler)
            self.log.append(ev)
            return [ev]
        return self._record([ev, *self._extra])

    def to_json(self) -> dict[str, Any]:
        return self.state.to_json()

    # ------------------------------------------------------------------------------------------------
    # helpers for drivers

    def draw_tile(self, source: str = "wall") -> Tile | None:
        """Full information: the tile the next draw from ``source`` takes (None when unknown/empty)."""
        if self.sequence is None or self.state.wall is None:
            return None
        w = self.state.wall
        pos = w.draw_position() if source == "wall" else w.replacement_position()
        return self.sequence[pos] if pos is not None else None

    def arbitrate(self) -> list[GameEvent]:
        """The events the claims announced so far lead to: every hu (or the nearest, with head bump),
        else the highest-priority meld (ties: turn order from the discarder), else ``[]``."""
        st = self.state
        if not st.claims:
            return []
        if st.phase == Phase.ROB and st.pending_kong:
            disc, tile = st.pending_kong
        elif st.phase == Phase.CLAIMS and st.last_discard:
            disc, tile = st.last_discard
        else:
            return []
        order = {s: i for i, s in enumerate(st.seat_order(disc))}
        claims = sorted(st.claims, key=lambda c: order[c[0]])
        hus = [c for c in claims if c[1] == "hu" and c[0] not in self._discard_winners]
        hid = st.hand_id
        if hus:
            if not self.profile.multiple_winners:
                hus = hus[:1] if not self._discard_winners else []
            return [
                Won(seat=s, tile=str(tile), from_seat=disc, robbing_kong=st.phase == Phase.ROB,
                    last_tile=st.discard_on_empty_wall and st.phase == Phase.CLAIMS, hand_id=hid)
                for s, _, _ in hus
            ]
        if st.phase == Phase.ROB or self._discard_winners:
            return []
        prio = self.profile.claim_priority
        melds = [c for c in claims if c[1] != "hu"]
        if not melds:
            return []
        best = max(melds, key=lambda c: (prio.get(c[1], 0), -order[c[0]]))
        s, kind, tiles = best
        return [MeldMade(seat=s, kind=_MELD_FOR_CLAIM[kind].value, tiles=tuple(str(t) for t in (*tiles, tile)),
                         from_seat=disc, claimed_tile=str(tile), hand_id=hid)]

    @property
    def pending_winners(self) -> list[int]:
        """Seats that won on the discard (or robbed kong) whose claim window is still open."""
        return list(self._discard_winners)

    def window_ends_hand(self) -> bool:
        """Whether closing the open window after its wins ends the hand (rather than play going on)."""
        st = self.state
        prof = self.profile
        limit = prof.max_winners or (len(st.seats) - 1)
        n = sum(1 for w in st.wins if w.valid is not False)
        return not prof.continue_after_win or n >= limit or not st.active_seats()

    def next_drawer(self) -> int | None:
        """Who draws from the wall next once the open claim window closes without a meld (None: nobody —
        the hand ends or the wall is exhausted)."""
        st = self.state
        if st.phase == Phase.DRAW:
            return st.current if st.wall_remaining > 0 else None
        if st.phase not in (Phase.CLAIMS, Phase.ROB):
            return None
        if not self._discard_winners:
            if st.phase == Phase.ROB or st.wall_remaining == 0 or st.last_discard is None:
                return None
            return st.next_active(st.last_discard[0])
        disc = st.last_discard[0] if st.last_discard else st.pending_kong[0]  # type: ignore[index]
        order = st.seat_order(disc)
        last = max(self._discard_winners, key=order.index)
        if self.window_ends_hand() or st.wall_remaining == 0:
            return None
        return st.next_active(last)

    def _unchanged(self, name: str) -> tuple[bool, Any]:
        """A value computed by ``name`` since the last event (the driver asks for the settlement and the
        next dealer, then submits them, and the machine checks them against its own: computed once)."""
        st = self.state
        key = (len(self.log), len(st.history), st.phase, len(st.wins), len(st.violations))
        hit = self._memo.get(name)
        if hit is not None and hit[0] == key:
            return True, hit[1]
        return False, key

    def settlement(self) -> Settled:
        """The settlement the machine computes (submit it to close the hand)."""
        same, got = self._unchanged("settlement")
        if same:
            return got
        out = self._settlement()
        self._memo["settlement"] = (got, out)
        return out

    def _next_dealer(self) -> int:
        same, got = self._unchanged("next_dealer")
        if same:
            return got
        nd = self.profile.next_dealer(self.state)
        self._memo["next_dealer"] = (got, nd)
        return nd

    def _settlement(self) -> Settled:
        payments = self._payments()
        deltas = [0, 0, 0, 0]
        for p in payments:
            if p.payer is not None:
                deltas[p.payer] -= p.amount
            if p.payee is not None:
                deltas[p.payee] += p.amount
        return Settled(payments=tuple(frozen_json(p.to_json()) for p in payments), deltas=tuple(deltas),
                       hand_id=self.state.hand_id)

    def hand_end(self) -> HandEnded:
        st = self.state
        reason = "win" if st.valid_wins() else ("exhaustive_draw" if st.exhaustive else "no_win")
        return HandEnded(next_dealer=self._next_dealer(), reason=reason, hand_id=st.hand_id)

    # ------------------------------------------------------------------------------------------------
    # internals

    def _record(self, evs: list[Event]) -> list[Event]:
        for e in evs:
            if isinstance(e, Violation):
                self.state.violations.append(e)
        self.log.extend(evs)
        return evs

    def _viol(self, code: str, seat: int | None, msg: str, at: Event, action: Event | None = None,
              deferred: bool = False) -> Violation:
        return violation(code, seat, msg, rules_by_code=self.profile.violation_rules, at=at, deferred=deferred,
                         hand_id=self.state.hand_id, action=action)

    def _note(self, code: str, seat: int | None, msg: str, at: Event, deferred: bool = False) -> None:
        """A violation found while applying an accepted event (it does not undo the event)."""
        self._extra.append(self._viol(code, seat, msg, at, deferred=deferred))
        if seat is not None and code in self.profile.dead_hand_codes:
            self._make_dead(seat)

    def _make_dead(self, seat: int) -> None:
        """The seat's hand is dead from the event being applied on (it is the next history entry)."""
        ss = self.state.seat_state.get(seat)
        if ss is not None and not ss.dead and not ss.won:
            ss.dead = True
            ss.dead_since = len(self.state.history)

    def _seat(self, seat: int | None) -> SeatState:
        st = self.state
        if seat is None or seat not in st.seat_state:
            raise _Reject("bad_event", seat, f"seat {seat} is not at the table")
        return st.seat_state[seat]

    def _require(self, *phases: str) -> None:
        if self.state.phase not in phases:
            raise _Reject("out_of_phase", None, f"not allowed in phase {self.state.phase}")

    def _full(self) -> bool:
        return self.state.mode == "full"

    def _tiles(self, texts: Iterable[str], seat: int | None) -> list[Tile]:
        get = _BY_TEXT.get
        out = [get(t) for t in texts]
        if None in out:
            out = [_tile(t) for t in texts]  # (raises on the first text that is no tile)
        if self.state.mode == "full" and UNKNOWN_CODE in out:
            raise _Reject("unknown_tile", seat)
        return out  # type: ignore[return-value]

    def _can_remove(self, ss: SeatState, tiles: list[Tile]) -> bool:
        if len(tiles) == 1:
            t = tiles[0]
            return ss.counts[t] > 0 or ss.unknown > 0
        need: dict[int, int] = {}
        unknown_needed = 0
        for t in tiles:
            if t == UNKNOWN_CODE:
                unknown_needed += 1
            else:
                need[t] = need.get(t, 0) + 1
        counts = ss.counts
        for c, n in need.items():
            if n > counts[c]:
                unknown_needed += n - counts[c]
        return unknown_needed <= ss.unknown

    def _remove(self, ss: SeatState, tiles: list[Tile]) -> None:
        ss.version += 1
        ss.size -= len(tiles)
        counts = ss.counts
        for t in tiles:
            if t == UNKNOWN_CODE:
                ss.unknown -= 1
                continue
            if counts[t] > 0:
                counts[t] -= 1
            else:
                ss.unknown -= 1
            ss.out[t] += 1

    def _show(self, tiles: Iterable[Tile]) -> None:
        """Tiles turned face up on the table (ponds, melds, flowers, revealed hands) counted by kind."""
        for t in tiles:
            if t != _X:
                self._face_up[KIND_OF[t]] += 1

    def _check_copies(self, codes: list[int], seat: int, at: Event) -> None:
        """More copies of a kind seen than the tile set has: a tile that was never held (table mode)."""
        if len(codes) == 1:  # one tile turned face up (a discard): the quick look
            code = codes[0]
            if self._face_up[code] <= self._copies[code]:
                for ss in self.state.seat_state.values():
                    if ss.revealed:
                        break
                else:  # nothing revealed: the tiles face up are all there is to count
                    return
        in_hands = [0] * N_CODES  # revealed concealed tiles by kind
        for ss in self.state.seat_state.values():
            if ss.revealed:
                for c, n in enumerate(ss.counts):
                    if n:
                        in_hands[KIND_OF[c]] += n
        for code in sorted(set(codes)):
            seen = self._face_up[code] + in_hands[code]
            if seen > self._copies[code]:
                self._note("tile_not_held", seat, f"more than {self._copies[code]} {TILES[code]} on the table",
                           at, deferred=self.state.mode == "table")
                return

    def _add(self, ss: SeatState, t: Tile) -> None:
        ss.version += 1
        ss.size += 1
        if t == UNKNOWN_CODE:
            ss.unknown += 1
            ss.unknown_in += 1
        else:
            ss.counts[t] += 1
            ss.known_in[t] += 1

    # --- setup ----------------------------------------------------------------------------------------
    def _hand_started(self, ev: HandStarted) -> None:
        self._require(Phase.SETUP)
        if self.state.history:
            raise _Reject("out_of_phase", None, "the hand has already started")
        if ev.profile != self.profile.name:
            raise _Reject("bad_event", None, f"hand of {ev.profile!r} fed to a {self.profile.name!r} machine")
        try:
            spec = self.profile.wall_spec(ev.n_players, ev.options.get("tiles"))
        except ValueError as exc:
            raise _Reject("bad_event", None, str(exc)) from None
        st = self.state
        if ev.dealer not in spec.seats:
            raise _Reject("bad_event", ev.dealer, "the dealer is not seated")
        self._spec = spec
        self._copies = list(_copies_of(spec.tile_set))
        self._face_up = [0] * N_CODES
        st.hand_id = ev.hand_id
        st.n_players = ev.n_players
        st.seats = spec.seats
        st.dealer = ev.dealer
        st.current = ev.dealer
        st.round_wind = ev.round_wind
        st.hand_number = ev.hand_number
        st.players = tuple(ev.seats)
        st.options = dict(ev.options)
        st.seat_state = {s: SeatState(s) for s in spec.seats}

    def _dice(self, ev: DiceRolled) -> None:
        self._require(Phase.SETUP)
        if self._spec is None:
            raise _Reject("out_of_phase", ev.seat, "dice before the hand started")
        if len(ev.values) != 2 or any(not 1 <= v <= 6 for v in ev.values):
            raise _Reject("bad_event", ev.seat, "two dice 1..6 expected")
        self.state.dice.append(tuple(ev.values))

    def _wall_broken(self, ev: WallBroken) -> None:
        self._require(Phase.SETUP)
        spec = self._spec
        if spec is None or len(self.state.dice) != spec.throws:
            raise _Reject("out_of_phase", None, f"{spec.throws if spec else '?'} dice throw(s) come first")
        brk = cached_break(spec, self.state.dealer, tuple(tuple(d) for d in self.state.dice))  # type: ignore[arg-type]
        if (ev.wall_side, ev.stack) != (brk.side, brk.count):
            raise _Reject("wrong_break", None, f"the dice break side {brk.side} after stack {brk.count}",)
        self._break = brk

    def _dealt_ev(self, ev: Dealt) -> None:
        self._require(Phase.SETUP)
        st = self.state
        spec = self._spec
        if self._break is None or spec is None:
            raise _Reject("out_of_phase", ev.seat, "the wall is dealt after the break")
        ss = self._seat(ev.seat)
        if ev.seat in self._dealt:
            raise _Reject("out_of_phase", ev.seat, "this seat was dealt already")
        want = self._dealt_size(ev.seat)
        if len(ev.tiles) != want:
            raise _Reject("tile_count", ev.seat, f"{want} tiles are dealt to this seat, not {len(ev.tiles)}")
        for t in self._tiles(ev.tiles, ev.seat):
            self._add(ss, t)
        self._dealt.add(ev.seat)
        if len(self._dealt) == len(st.seats):
            dealt = sum(len(s.positions) for s in deal_steps(spec, st.dealer))
            st.wall = WallCursor(spec, head=dealt)
            needs_pre = spec.flowers or bool(self.profile.pre_play)
            st.phase = Phase.PRE_PLAY if needs_pre else Phase.TURN
            st.current = st.dealer

    # hooks for machines of other hand shapes (rules.game.siamese: two hands per player)
    def _dealt_size(self, seat: int) -> int:
        """Tiles dealt to ``seat``: the dealer 14, the others 13."""
        return 14 if seat == self.state.dealer else 13

    def _held_before_discard(self, ss: SeatState) -> tuple[int, int]:
        """(tiles held before a discard, counting a meld as three; how many that should be)."""
        return ss.n_concealed + 3 * len(ss.melds), 14

    def _pre_play_done(self, seat: int) -> None:
        """The dealer's first action ends the pre-play phase once its duties are done."""
        st = self.state
        if st.phase != Phase.PRE_PLAY or seat != st.dealer:
            return
        if any(self._owed.values()):
            raise _Reject("out_of_phase", None, "flower replacements are still owed")
        if "missing_suit" in self.profile.pre_play and any(
            st.seat_state[s].missing_suit is None for s in st.seats
        ):
            raise _Reject("out_of_phase", None, "every player declares the missing suit first")
        st.phase = Phase.TURN
        st.current = st.dealer

    def _missing_suit(self, ev: MissingSuitDeclared) -> None:
        self._require(Phase.PRE_PLAY)
        ss = self._seat(ev.seat)
        if "missing_suit" not in self.profile.pre_play:
            raise _Reject("out_of_phase", ev.seat, "this profile has no missing suit")
        if ev.suit not in ("m", "p", "s"):
            raise _Reject("bad_missing_suit", ev.seat)
        if ss.missing_suit is not None:
            raise _Reject("missing_suit_twice", ev.seat)
        ss.missing_suit = ev.suit

    def _flower(self, ev: FlowerDeclared) -> None:
        st = self.state
        ss = self._seat(ev.seat)
        t = _tile(ev.tile)
        if not t.is_flower:
            raise _Reject("not_a_flower", ev.seat, f"{t} is not a flower")
        if st.phase == Phase.PRE_PLAY:
            pass
        elif st.phase == Phase.TURN and st.current == ev.seat:
            st.phase = Phase.REPLACE
        else:
            raise _Reject("out_of_phase", ev.seat, "a flower is replaced in the player's own turn")
        if not self._can_remove(ss, [t]):
            raise _Reject("tile_not_held", ev.seat, f"{t} is not in the hand")
        self._remove(ss, [t])
        self._show([t])
        ss.flowers.append(t)
        self._owed[ev.seat] = self._owed.get(ev.seat, 0) + 1
        st.after_kong = False
        st.after_flower = st.phase == Phase.REPLACE  # a flower in the turn: its replacement follows

    def _hand_dead(self, ev: HandDead) -> None:
        st = self.state
        if st.phase in (Phase.SETUP, Phase.ENDED, Phase.SETTLED, Phase.OVER):
            raise _Reject("out_of_phase", ev.seat, "a hand is made dead during play")
        ss = self._seat(ev.seat)
        if ss.won:
            raise _Reject("claim_inactive_player", ev.seat, "this player has won already")
        if ss.dead:
            raise _Reject("out_of_phase", ev.seat, "this hand is dead already")
        self._make_dead(ev.seat)

    def _riichi_declared(self, ev: RiichiDeclared) -> None:
        """A riichi declaration on its own (the sideways discard is the usual record): checked by the
        profile's ``check_riichi``; a repeat for the same seat is only recorded."""
        self._record_only(ev)
        ss = self._seat(ev.seat)
        if ss.riichi:
            return
        objection = self.profile.check_riichi(self.state, ev.seat, None)
        if objection:
            raise _Reject(objection[0], ev.seat, objection[1])
        ss.riichi = True

    def _dora_revealed(self, ev: DoraRevealed) -> None:
        """Riichi's indicators: one initial, one per kan made so far (004 Rules 3.3.10), ura at the end;
        with the wall known, the tile at that dead-wall position."""
        self._record_only(ev)
        st = self.state
        if ev.kind not in ("initial", "kan", "ura"):
            raise _Reject("bad_event", None, f"unknown indicator kind {ev.kind!r}")
        t = _tile(ev.indicator)
        shown = self._indicators
        if ev.kind == "ura":
            if st.phase not in (Phase.ENDED, Phase.CLAIMS, Phase.ROB) and not st.wins:
                raise _Reject("dora_mismatch", None, "ura indicators are turned at the end of the hand")
            return
        if ev.kind == "initial" and shown:
            raise _Reject("dora_mismatch", None, "the initial indicator is turned once")
        if ev.kind == "kan" and (not shown or len(shown) > (st.wall.kongs if st.wall else 0)):
            raise _Reject("dora_mismatch", None, f"{len(shown)} indicators for {st.wall.kongs if st.wall else 0} kan")
        wall = st.wall
        if self.sequence is not None and wall is not None and not t.is_unknown:
            pos = wall.dora_indicator_positions(len(shown))
            if len(pos) > len(shown) and self.sequence[pos[len(shown)]] != t:
                raise _Reject("dora_mismatch", None, f"the indicator there is {self.sequence[pos[len(shown)]]}")
        shown.append(t)

    def _record_only(self, ev: Event) -> None:
        if self.state.phase in (Phase.SETUP, Phase.OVER):
            raise _Reject("out_of_phase", None)

    # --- play -----------------------------------------------------------------------------------------
    def _close_claims(self) -> None:
        """Leave the claim/rob window after wins on the discard (or the robbed kong)."""
        st = self.state
        if not self._discard_winners:
            return
        disc = st.last_discard[0] if st.last_discard else st.pending_kong[0]  # type: ignore[index]
        order = st.seat_order(disc)
        last = max(self._discard_winners, key=order.index)
        self._discard_winners = []
        st.last_discard = None
        st.pending_kong = None
        st.claims = []
        self._after_win(last)

    def _after_win(self, last_winner: int) -> None:
        st = self.state
        prof = self.profile
        winners = sum(1 for w in st.wins if w.valid is not False)
        limit = prof.max_winners or (len(st.seats) - 1)
        if not prof.continue_after_win or winners >= limit or not st.active_seats():
            st.phase = Phase.ENDED
            return
        if st.wall_remaining == 0:
            st.phase = Phase.EXHAUSTED
            return
        nxt = st.next_active(last_winner)
        if nxt is None:
            st.phase = Phase.ENDED
            return
        st.current = nxt
        st.phase = Phase.DRAW

    def _drew(self, ev: Drew) -> None:
        st = self.state
        if st.phase in (Phase.CLAIMS, Phase.ROB):
            if self._discard_winners:
                self._close_claims()
            elif st.phase == Phase.CLAIMS:
                disc = st.last_discard[0]  # type: ignore[index]
                st.last_discard = None
                st.claims = []
                if st.wall_remaining == 0:
                    st.phase = Phase.EXHAUSTED
                else:
                    st.current = st.next_active(disc)  # type: ignore[assignment]
                    st.phase = Phase.DRAW
            else:  # ROB: nobody robbed; the kong stands and its replacement follows
                st.pending_kong = None
                st.claims = []
                st.phase = Phase.REPLACE
        ss = self._seat(ev.seat)
        if ev.source == "wall":
            if st.phase == Phase.PRE_PLAY:
                raise _Reject("out_of_phase", ev.seat, "no wall draw before play starts")
            if st.phase == Phase.EXHAUSTED:
                raise _Reject("wall_empty", ev.seat)
            self._require(Phase.DRAW)
            if ev.seat != st.current:
                raise _Reject("draw_out_of_turn", ev.seat, f"seat {st.current} draws now")
        else:
            if st.phase == Phase.PRE_PLAY:
                if not self._owed.get(ev.seat):
                    raise _Reject("out_of_phase", ev.seat, "no replacement is owed")
            else:
                self._require(Phase.REPLACE)
                if ev.seat != st.current:
                    raise _Reject("draw_out_of_turn", ev.seat, f"seat {st.current} takes the replacement")
        t = _tile(ev.tile)
        unknown = t == UNKNOWN_CODE
        if unknown and st.mode == "full":
            raise _Reject("unknown_tile", ev.seat)
        wall = st.wall
        assert wall is not None
        from_wall = ev.source == "wall"
        pos = wall.draw_position() if from_wall else wall.replacement_position()
        if pos is None:
            raise _Reject("wall_empty", ev.seat)
        if self.sequence is not None and not unknown and self.sequence[pos] != t:
            raise _Reject("wrong_wall_tile", ev.seat, f"the tile at wall position {pos} is {self.sequence[pos]}")
        if from_wall:
            wall.head += 1  # WallCursor.take("wall") at the position just found
        else:
            wall.take("replacement")
        self._add(ss, t)
        ss.drawn = t
        if st.phase == Phase.PRE_PLAY:
            self._owed[ev.seat] -= 1
            return
        if ev.source == "wall":
            st.after_kong = False
            st.after_flower = False
            st.turn_by_claim = False
        st.phase = Phase.TURN
        st.current = ev.seat

    def _discarded(self, ev: Discarded) -> None:
        st = self.state
        self._pre_play_done(ev.seat)
        self._require(Phase.TURN)
        ss = self._seat(ev.seat)
        if ev.seat != st.current:
            raise _Reject("out_of_turn", ev.seat, f"seat {st.current} discards now")
        t = _tile(ev.tile)
        if t == UNKNOWN_CODE:
            raise _Reject("unknown_tile", ev.seat, "a discard is seen face up")
        if _FLOWER_LO <= t < _FLOWER_HI and not getattr(self.profile, "flower_discard", False):
            raise _Reject("flower_discard", ev.seat)
        if not (ss.counts[t] > 0 or ss.unknown > 0):  # _can_remove(ss, [t])
            raise _Reject("tile_not_held", ev.seat, f"{t} is not in the hand")
        full = st.mode == "full"
        if full and ev.tsumogiri is not None and ev.tsumogiri != (ss.drawn == t):
            raise _Reject("bad_event", ev.seat, "tsumogiri does not match the tile just drawn")
        prof = self.profile
        tsumogiri = ev.tsumogiri if ev.tsumogiri is not None or not full else ss.drawn == t
        objection = prof.check_discard(st, ev.seat, t, tsumogiri)
        if objection is None and ev.riichi:
            objection = prof.check_riichi(st, ev.seat, t)
        if objection:
            raise _Reject(objection[0], ev.seat, objection[1])
        if ev.riichi:
            ss.riichi = True
        n, want = self._held_before_discard(ss)
        if n != want:
            self._note("tile_count", ev.seat, f"{n} tiles before the discard ({want} expected)", ev)
        self._remove(ss, [t])
        ss.pond.append(t)
        ss.pond_claimed.append(False)
        ss.drawn = None
        st.last_discard = (ev.seat, t)
        st.discard_on_empty_wall = st.wall_remaining == 0
        st.claims = []
        st.turn_by_claim = False
        st.after_kong = False
        st.after_flower = False
        st.phase = Phase.CLAIMS
        k = KIND_OF[t]
        self._face_up[k] += 1
        self._check_copies([k], ev.seat, ev)

    def _void_robbed_kong(self) -> None:
        """The robbed added kong is invalid: its meld goes back to a pung, and it was no kong."""
        st = self.state
        k_seat, k_tile = st.pending_kong  # type: ignore[misc]
        ks = st.seat_state[k_seat]
        for i, m in enumerate(ks.melds):
            if m.kind is MeldKind.KONG_ADDED and m.base == k_tile.kind:
                rest = list(m.tiles)
                rest.remove(k_tile)
                ks.melds[i] = _build_meld(rest)
        st.wall.kongs -= 1  # type: ignore[union-attr]

    def _hu_claim(self, seat: int, from_seat: int | None, tile: Tile) -> None:
        """A win on a discard (or a robbed kong): a legal claim, and the nearest claimant when the profile
        allows one winner only."""
        self._claim_common(seat, "hu", from_seat, tile)
        if self.state.phase == Phase.CLAIMS and not self.profile.multiple_winners:
            other = self._higher_claim(seat, "hu")
            if other is not None:
                raise _Reject("claim_priority", seat, f"seat {other} is nearer to the discarder")

    def _claim_common(self, seat: int, kind: str, from_seat: int | None, tile: Tile) -> None:
        st = self.state
        prof = self.profile
        ss = self._seat(seat)
        if st.phase == Phase.ROB:
            k_seat, k_tile = st.pending_kong  # type: ignore[misc]
            if kind != "hu":
                raise _Reject("claim_not_allowed", seat, "an added kong can only be robbed for a win")
            if (from_seat, tile) != (k_seat, k_tile):
                raise _Reject("out_of_phase", seat, "a claim on a tile that is not on offer")
            if seat == k_seat:
                raise _Reject("claim_own_discard", seat)
        else:
            self._require(Phase.CLAIMS)
            d_seat, d_tile = st.last_discard  # type: ignore[misc]
            if (from_seat, tile.kind) != (d_seat, d_tile.kind):
                raise _Reject("out_of_phase", seat, f"the discard on offer is {d_tile} from seat {d_seat}")
            if seat == d_seat:
                raise _Reject("claim_own_discard", seat)
            if kind not in CLAIM_KINDS or (kind == "chow" and not prof.chow_allowed) or (
                kind == "kong" and not self._spec.kongs  # type: ignore[union-attr]
            ):
                raise _Reject("claim_not_allowed", seat, f"no {kind} claim in this profile")
            if kind == "chow" and not prof.may_chow_from(st, seat, d_seat):
                raise _Reject("chow_not_from_left", seat)
            if st.discard_on_empty_wall and kind not in prof.last_discard_claims:
                code = "kong_on_last_tile" if kind == "kong" else "claim_last_tile"
                raise _Reject(code, seat, f"the last discard cannot be claimed for {kind}")
        if ss.won or (ss.dead and not (kind == "hu" and prof.dead_hand_win_is_false)):
            raise _Reject("claim_inactive_player", seat)
        if kind == "hu" and seat in self._discard_winners:
            raise _Reject("out_of_phase", seat, "this player has won on this tile already")
        objection = prof.claim_check(st, seat, kind, tile)
        if objection:
            raise _Reject(objection[0], seat, objection[1])

    def _claimed(self, ev: Claimed) -> None:
        t = _tile(ev.tile)
        shown = self._tiles(ev.tiles, ev.seat)
        self._claim_common(ev.seat, ev.kind, ev.from_seat, t)
        self.state.claims.append((ev.seat, ev.kind, tuple(shown)))

    def _higher_claim(self, seat: int, kind: str) -> int | None:
        st = self.state
        prio = self.profile.claim_priority
        disc = st.last_discard[0] if st.last_discard else None
        order = st.seat_order(disc) if disc is not None else list(st.seats)
        mine = (prio.get(kind, 0), -order.index(seat))
        for s, k, _ in st.claims:
            if s != seat and (prio.get(k, 0), -order.index(s)) > mine:
                return s
        return None

    def _meld(self, ev: MeldMade) -> None:
        st = self.state
        kind = ev.kind
        if kind in ("chow", "pung", "kong_open"):
            if st.phase == Phase.CLAIMS and self._discard_winners:
                raise _Reject("claim_priority", ev.seat, "a win on this discard outranks a meld")
            t = _tile(ev.claimed_tile or "x")
            self._claim_common(ev.seat, _CLAIM_FOR_MELD[kind], ev.from_seat, t)
            other = self._higher_claim(ev.seat, _CLAIM_FOR_MELD[kind])
            if other is not None:
                raise _Reject("claim_priority", ev.seat, f"seat {other}'s claim comes first")
            if kind == "kong_open" and st.wall_remaining == 0:
                raise _Reject("kong_on_last_tile", ev.seat)
            tiles = self._tiles(ev.tiles, ev.seat)
            from_hand = list(tiles)
            if t in from_hand:
                from_hand.remove(t)
            elif t.kind in [x.kind for x in from_hand]:
                from_hand.remove(next(x for x in from_hand if x.kind == t.kind))
            else:
                raise _Reject("bad_meld", ev.seat, f"the claimed tile {t} is not in the meld")
            try:
                meld = _build_meld(tiles)
            except ValueError as exc:
                raise _Reject("bad_meld", ev.seat, str(exc)) from None
            if meld.kind.value != kind:
                raise _Reject("bad_meld", ev.seat, f"{meld} is a {meld.kind.value}, not a {kind}")
            ss = self._seat(ev.seat)
            if not self._can_remove(ss, from_hand):
                raise _Reject("tile_not_held", ev.seat, "the meld's tiles are not in the hand")
            self._remove(ss, from_hand)
            self._show(from_hand)
            ss.melds.append(meld)
            ss.meld_sources.append(ev.from_seat)
            disc = st.seat_state[ev.from_seat]  # type: ignore[index]
            disc.pond_claimed[-1] = True
            st.last_discard = None
            st.claims = []
            st.current = ev.seat
            if kind == "kong_open":
                st.phase = Phase.REPLACE
                st.after_kong = True
                st.wall.kongs += 1  # type: ignore[union-attr]
                st.turn_by_claim = False
            else:
                st.phase = Phase.TURN
                st.turn_by_claim = True
                st.after_kong = False
            return
        if kind not in ("kong_concealed", "kong_added"):
            raise _Reject("bad_event", ev.seat, f"unknown meld kind {kind!r}")
        self._pre_play_done(ev.seat)
        self._require(Phase.TURN)
        if ev.seat != st.current:
            raise _Reject("out_of_turn", ev.seat, f"seat {st.current} plays now")
        if not self._spec.kongs:  # type: ignore[union-attr]
            raise _Reject("kong_not_allowed", ev.seat)
        if st.turn_by_claim:
            raise _Reject("kong_after_claim", ev.seat)
        if st.wall_remaining == 0:
            raise _Reject("kong_on_last_tile", ev.seat)
        ss = self._seat(ev.seat)
        tiles = self._tiles(ev.tiles, ev.seat)
        if len(tiles) != 4:
            raise _Reject("bad_meld", ev.seat, "a kong has four tiles")
        shown_tile = next((t for t in tiles if not t.is_unknown), None)
        objection = self.profile.check_kong(st, ev.seat, kind, shown_tile)
        if objection:
            raise _Reject(objection[0], ev.seat, objection[1])
        known = {t.kind for t in tiles if not t.is_unknown}
        if len(known) > 1:
            raise _Reject("bad_meld", ev.seat, "a kong is four identical tiles")
        if kind == "kong_concealed":
            if known:  # face-down tiles of a kong are copies of its shown tile
                shown = next(t for t in tiles if not t.is_unknown)
                tiles = [shown if t.is_unknown else t for t in tiles]
            if not self._can_remove(ss, tiles):
                raise _Reject("tile_not_held", ev.seat, "the kong's tiles are not in the hand")
            self._remove(ss, tiles)
            self._show(_tiles_shown(ev.tiles))
            try:
                meld = _build_meld(tiles, concealed=True)
            except ValueError as exc:
                raise _Reject("bad_meld", ev.seat, str(exc)) from None
            ss.melds.append(meld)
            ss.meld_sources.append(None)
            st.phase = Phase.REPLACE
        else:
            added = _tile(ev.claimed_tile or "x")
            if added.is_unknown or not known:
                raise _Reject("bad_meld", ev.seat, "an added kong shows its tiles")
            k = next(iter(known))
            idx = next((i for i, m in enumerate(ss.melds) if m.kind is MeldKind.PUNG and m.base == k), None)
            if idx is None:
                raise _Reject("bad_meld", ev.seat, "an added kong needs an exposed pung of that tile")
            if not self._can_remove(ss, [added]):
                raise _Reject("tile_not_held", ev.seat, f"{added} is not in the hand")
            if self._full() and ev.drawn_tile is not None and ev.drawn_tile != (ss.drawn == added):
                raise _Reject("bad_event", ev.seat, "drawn_tile does not match the tile just drawn")
            self._remove(ss, [added])
            self._show([added])
            ss.melds[idx] = _build_meld(list(ss.melds[idx].tiles) + [added], added=True)
            if self.profile.robbing_kong:
                st.pending_kong = (ev.seat, added)
                st.claims = []
                st.phase = Phase.ROB
            else:
                st.phase = Phase.REPLACE
        st.after_kong = True
        st.after_flower = False
        st.wall.kongs += 1  # type: ignore[union-attr]

    def _won(self, ev: Won) -> None:
        st = self.state
        t = _tile(ev.tile)
        if ev.from_seat is None:  # self-drawn
            self._pre_play_done(ev.seat)
            self._require(Phase.TURN)
            if ev.seat != st.current:
                raise _Reject("win_out_of_turn", ev.seat, f"seat {st.current} plays now")
            ss = self._seat(ev.seat)
            if ss.won or (ss.dead and not self.profile.dead_hand_win_is_false):
                raise _Reject("claim_inactive_player", ev.seat)
            if self._full() and t.is_unknown:
                raise _Reject("unknown_tile", ev.seat)
            if not t.is_unknown and not self._can_remove(ss, [t]):
                raise _Reject("tile_not_held", ev.seat, f"{t} is not in the hand")
            rec = WinRecord(ev.seat, t, None, kong_replacement=st.after_kong, last_tile=st.wall_remaining == 0,
                            order=len(st.wins), dead_hand=ss.dead, flower_replacement=st.after_flower)
            st.wins.append(rec)
            ss.won = True
            st.left_order.append(ev.seat)
            self._after_win(ev.seat)
            return
        if st.phase == Phase.CLAIMS and self._discard_winners and not self.profile.multiple_winners:
            raise _Reject("multiple_win_not_allowed", ev.seat)
        self._hu_claim(ev.seat, ev.from_seat, t)
        robbing = st.phase == Phase.ROB
        ss = self._seat(ev.seat)
        if robbing and not self._discard_winners:
            self._void_robbed_kong()
        rec = WinRecord(ev.seat, t, ev.from_seat, robbing_kong=robbing,
                        last_tile=st.discard_on_empty_wall and not robbing, order=len(st.wins), dead_hand=ss.dead)
        st.wins.append(rec)
        ss.won = True
        st.left_order.append(ev.seat)
        self._discard_winners.append(ev.seat)  # a won discard stays in its pond (pond_claimed: taken into a meld)

    # --- the end of the hand --------------------------------------------------------------------------
    def _exhaustive(self, ev: ExhaustiveDraw) -> None:
        st = self.state
        if st.phase in (Phase.CLAIMS, Phase.ROB) and self._discard_winners:
            self._close_claims()
        if st.phase == Phase.CLAIMS and not self._discard_winners and st.wall_remaining == 0:
            st.phase = Phase.EXHAUSTED
        if st.phase == Phase.DRAW and st.wall_remaining == 0:
            st.phase = Phase.EXHAUSTED
        self._require(Phase.EXHAUSTED)
        st.exhaustive = True
        st.tenpai_declared = tuple(ev.tenpai)
        st.last_discard = None
        st.phase = Phase.ENDED

    def _revealed(self, ev: HandRevealed) -> None:
        st = self.state
        if st.phase in (Phase.SETUP, Phase.PRE_PLAY, Phase.OVER, Phase.SETTLED):
            raise _Reject("out_of_phase", ev.seat, "nothing to reveal now")
        if st.phase in (Phase.CLAIMS, Phase.ROB) and self._discard_winners:
            self._close_claims()
        ss = self._seat(ev.seat)
        tiles = [_tile(x) for x in ev.tiles]
        if any(t.is_unknown for t in tiles):
            raise _Reject("unknown_tile", ev.seat, "a reveal shows every tile")
        winning = _tile(ev.winning) if ev.winning else None
        rc = [0] * N_CODES
        for t in tiles:
            rc[t] += 1
        consistent = len(tiles) == ss.n_concealed and all(rc[c] >= ss.counts[c] for c in range(N_CODES))
        if not consistent:
            self._note("reveal_mismatch", ev.seat,
                       f"revealed {len(tiles)} tiles, {ss.n_concealed} recorded", ev, deferred=True)
        # the face-down draws, resolved: what came in unseen = what is held + what went out - what came in seen
        unseen = [rc[c] + ss.out[c] - ss.known_in[c] for c in range(N_CODES)]
        if consistent and (any(x < 0 for x in unseen) or sum(unseen) != ss.unknown_in):
            self._note("tile_not_held", ev.seat, "the recorded discards and melds do not fit the revealed tiles",
                       ev, deferred=True)
        ss.known_in = [ss.known_in[c] + max(0, unseen[c]) for c in range(N_CODES)]
        ss.unknown_in = 0
        ss.counts = rc
        ss.size = len(tiles)
        ss.version += 1
        ss.unknown = 0
        ss.revealed = True
        self._check_copies([KIND_OF[t] for t in tiles], ev.seat, ev)
        prof = self.profile
        for w in st.wins:
            if w.seat != ev.seat or w.valid is not None:
                continue
            self._judge_win(w, ss, winning, ev)
        if st.exhaustive and not ss.won:
            hand = ss.hand()
            ready = prof.is_tenpai(st, ev.seat, hand)
            st.tenpai[ev.seat] = ready
            if ev.seat in st.tenpai_declared and not ready:
                self._note("false_tenpai", ev.seat, "", ev, deferred=True)
        if getattr(prof.reveal_checks, "__func__", None) is not GameRules.reveal_checks:  # the default: none
            for code, msg in prof.reveal_checks(st, ev.seat, ss.hand()):
                self._note(code, ev.seat, msg, ev, deferred=True)

    def _judge_win(self, w: WinRecord, ss: SeatState, winning: Tile | None, ev: Event) -> None:
        st = self.state
        prof = self.profile
        if w.dead_hand:  # 000 §2.8.3: a hu declared under dead hand is a false hu
            w.valid = False
            self._note("false_win", w.seat, "a win declared by a dead hand", ev, deferred=True)
            self._false_win(w, ss)
            return
        if w.from_seat is None:
            candidates = [winning] if winning is not None else ([w.tile] if not w.tile.is_unknown else [])
            if not candidates:
                candidates = sorted(set(ss.tiles()))
            best = None
            for cand in candidates:
                if ss.counts[cand] <= 0:
                    continue
                hand = ss.hand(winning=cand)
                w.tile = cand  # hooks see the winning tile as revealed
                r = prof.judge_win(st, ss.seat, hand, w)
                if best is None or (r.valid and not best[1].valid):
                    best = (cand, r)
            if best is None:
                w.valid = False
                self._note("false_win", w.seat, "the winning tile is not in the revealed hand", ev, deferred=True)
                self._false_win(w, ss)
                return
            w.tile, result = best
            hand = ss.hand(winning=w.tile)
        else:
            tiles = ss.tiles()
            hand = Hand(tuple(tiles), tuple(ss.melds), w.tile, tuple(ss.flowers))
            result = prof.judge_win(st, ss.seat, hand, w)
        w.result = result
        if not result.valid:
            w.valid = False
            self._note("false_win", w.seat, result.reason or "", ev, deferred=True)
            self._false_win(w, ss)
            return
        if w.from_seat is not None and prof.is_furiten(st, ss.seat, hand, w):
            w.valid = False
            self._note("furiten", w.seat, "", ev, deferred=True)
            self._false_win(w, ss, code="furiten")
            return
        w.valid = True

    def _false_win(self, w: WinRecord, ss: SeatState, code: str = "false_win") -> None:
        """A declared win found false at the reveal. Where the profile plays on (``false_win_ends_hand``
        False) the offender's hand is dead; a hand that only this declaration ended resumes: after a false
        self-drawn win the offender discards, after a false win on a discard the next player draws."""
        if self.profile.false_win_ends_hand:
            return
        st = self.state
        ss.won = False
        ss.dead = True
        if (not self.profile.reveal_on_win or st.phase != Phase.ENDED or st.exhaustive
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
        nxt = st.next_active(w.from_seat) if not w.robbing_kong else w.from_seat
        if w.robbing_kong:  # the robbery was void: the kong stands and its replacement follows
            ks = st.seat_state[w.from_seat]
            for i, m in enumerate(ks.melds):
                if m.kind is MeldKind.PUNG and m.base == w.tile.kind:
                    ks.melds[i] = _build_meld(list(m.tiles) + [w.tile], added=True)
                    st.wall.kongs += 1  # type: ignore[union-attr]
                    break
            st.phase = Phase.REPLACE
            st.current = w.from_seat
            st.after_kong = True
        elif st.wall_remaining == 0 or nxt is None:
            st.phase = Phase.EXHAUSTED
        else:
            st.phase = Phase.DRAW
            st.current = nxt

    def _payments(self) -> list[Payment]:
        return list(self.profile.settle_hand(self.state))

    def _settled(self, ev: Settled) -> None:
        st = self.state
        if st.phase in (Phase.CLAIMS, Phase.ROB) and self._discard_winners:
            self._close_claims()
        self._require(Phase.ENDED)
        mine = self.settlement()
        if (tuple(ev.payments), tuple(ev.deltas)) != (mine.payments, mine.deltas):
            raise _Reject("settlement_mismatch", None, f"the engine settles {list(mine.deltas)}")
        st.settled = ev
        st.phase = Phase.SETTLED

    def _hand_ended(self, ev: HandEnded) -> None:
        st = self.state
        self._require(Phase.SETTLED)
        nd = self._next_dealer()
        if ev.next_dealer != nd:
            raise _Reject("dealer_mismatch", None, f"the engine's next dealer is seat {nd}")
        st.next_dealer = nd
        st.phase = Phase.OVER


def replay(profile: Any, events: Iterable[Event], mode: str = "full",
           wall: tuple[Tile, ...] | None = None, machine: type[HandMachine] | None = None) -> HandMachine:
    """Rebuild a hand from its log: accepted events are resubmitted, rejected ones (violations carrying
    the rejected event) are resubmitted to be rejected again, violations found while applying an event
    are found again. ``machine``: the machine class (default :class:`HandMachine`)."""
    m = (machine or HandMachine)(profile, mode, wall)
    for ev in events:
        if isinstance(ev, Violation):
            if ev.action:
                m.submit(Event.from_json(dict(ev.action)))
            continue
        m.submit(ev)
    return m


def table_view(events: Iterable[Event], wins_shown: bool = False) -> list[Event]:
    """What a camera above the table sees of a full-information log: dealt and drawn tiles face down
    (``x``), a self-drawn winning tile face down until the reveal (unless ``wins_shown``: a win shown at
    its declaration); rejected actions dropped (the referee sees only what happened)."""
    import dataclasses

    out: list[Event] = []
    for ev in events:
        if isinstance(ev, Violation):
            continue
        if isinstance(ev, Dealt):
            ev = dataclasses.replace(ev, tiles=tuple("x" for _ in ev.tiles))
        elif isinstance(ev, Drew):
            ev = dataclasses.replace(ev, tile="x")
        elif isinstance(ev, Won) and ev.from_seat is None and not wins_shown:
            ev = dataclasses.replace(ev, tile="x")
        out.append(ev)
    return out

