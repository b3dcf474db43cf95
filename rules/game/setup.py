"""Handlers of the hand's setup: the start, the dice, the break, the deal, and the pre-play duties (flower
replacements, the missing suit) that the dealer's first action ends."""
from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import TypeVar

from rules.events import Dealt, DiceRolled, FlowerDeclared, HandStarted, MissingSuitDeclared, WallBroken
from rules.game.flow import Play, Refusal, seat_refusal, tile, tile_refusal, tiles_of, tiles_refusal
from rules.game.state import HandState, Phase
from rules.tiles import N_CODES
from rules.wall import Break, WallCursor, WallSpec, break_wall, deal_steps, tile_set

# --- the start --------------------------------------------------------------------------------------------


def check_hand_started(p: Play, st: HandState, ev: HandStarted) -> Refusal | None:
    if st.history:
        return Refusal("out_of_phase", None, "the hand has already started")
    if ev.profile != p.rules.name:
        return Refusal("bad_event", None, f"hand of {ev.profile!r} fed to a {p.rules.name!r} machine")
    try:
        spec = p.rules.wall_spec(ev.n_players, tiles_option(ev))
    except ValueError as exc:
        return Refusal("bad_event", None, str(exc))
    if (spec.deal == "siamese") != (p.variant.hands_per_player == 2):  # 003 §Сиамский 8
        what = "deals" if spec.deal == "siamese" else "does not deal"
        return Refusal("bad_event", None, f"{ev.profile} {what} two hands per player")
    if ev.dealer not in spec.seats:
        return Refusal("bad_event", ev.dealer, "the dealer is not seated")
    return None


def apply_hand_started(p: Play, st: HandState, ev: HandStarted) -> None:
    spec = p.rules.wall_spec(ev.n_players, tiles_option(ev))
    st.spec = spec
    st.copies = copies_of(spec.tile_set)
    st.face_up = [0] * N_CODES
    st.hand_id = ev.hand_id
    st.n_players = ev.n_players
    st.seats = spec.seats
    st.dealer = ev.dealer
    st.current = ev.dealer
    st.round_wind = ev.round_wind
    st.hand_number = ev.hand_number
    st.players = tuple(ev.seats)
    st.options = dict(ev.options)
    st.seat_state = {s: p.variant.new_seat(s) for s in spec.seats}


def tiles_option(ev: HandStarted) -> str | None:
    """The hand's tile set (``options["tiles"]``; None: the profile's usual one)."""
    t = ev.options.get("tiles")
    return None if t is None else str(t)


@cache
def copies_of(name: str) -> tuple[int, ...]:
    """Copies of each kind (by code) in the tile set ``name`` (``rules.wall.tile_set``)."""
    n = [0] * N_CODES
    for t in tile_set(name):
        n[t.kind] += 1
    return tuple(n)


# --- dice, break, deal ------------------------------------------------------------------------------------

def check_dice(p: Play, st: HandState, ev: DiceRolled) -> Refusal | None:
    if st.spec is None:
        return Refusal("out_of_phase", ev.seat, "dice before the hand started")
    if len(ev.values) != 2 or any(not 1 <= v <= 6 for v in ev.values):
        return Refusal("bad_event", ev.seat, "two dice 1..6 expected")
    return None


def apply_dice(p: Play, st: HandState, ev: DiceRolled) -> None:
    st.dice.append(tuple(ev.values))


T = TypeVar("T")
_BY_SPEC: dict[tuple[str, int, object], tuple[WallSpec, object]] = {}


def _by_spec(name: str, spec: WallSpec, args: object, make: Callable[[], T]) -> T:
    """What ``make`` computes from a wall spec (the profile's, made once) and ``args``, remembered."""
    key = (name, id(spec), args)
    hit = _BY_SPEC.get(key)
    if hit is not None and hit[0] is spec:
        return hit[1]  # type: ignore[return-value]
    value = make()
    if len(_BY_SPEC) > 10_000:
        _BY_SPEC.clear()
    _BY_SPEC[key] = (spec, value)
    return value


def cached_break(spec: WallSpec, dealer: int, dice: tuple[tuple[int, ...], ...]) -> Break:
    """``rules.wall.break_wall`` remembered per wall spec, dealer and dice."""
    return _by_spec("break", spec, (dealer, dice), lambda: break_wall(spec, dealer, dice))  # type: ignore[arg-type]


def check_wall_broken(p: Play, st: HandState, ev: WallBroken) -> Refusal | None:
    spec = st.spec
    if spec is None or len(st.dice) != spec.throws:
        return Refusal("out_of_phase", None, f"{spec.throws if spec else '?'} dice throw(s) come first")
    brk = cached_break(spec, st.dealer, tuple(st.dice))
    if (ev.wall_side, ev.stack) != (brk.side, brk.count):
        return Refusal("wrong_break", None, f"the dice break side {brk.side} after stack {brk.count}")
    return None


def apply_wall_broken(p: Play, st: HandState, ev: WallBroken) -> None:
    assert st.spec is not None
    st.wall_break = cached_break(st.spec, st.dealer, tuple(st.dice))


def deal_sizes(spec: WallSpec, dealer: int) -> dict[int, int]:
    """Tiles the deal gives each seat, by its own steps (the dealer 14, the others 13; Siamese 28 and 27),
    remembered per wall spec and dealer."""
    def count() -> dict[int, int]:
        sizes: dict[int, int] = {}
        for step in deal_steps(spec, dealer):
            sizes[step.seat] = sizes.get(step.seat, 0) + len(step.positions)
        return sizes
    return _by_spec("deal", spec, dealer, count)


def dealt_size(st: HandState, seat: int) -> int:
    """Tiles dealt to ``seat`` (:func:`deal_sizes`)."""
    assert st.spec is not None
    return deal_sizes(st.spec, st.dealer).get(seat, 0)


def check_dealt(p: Play, st: HandState, ev: Dealt) -> Refusal | None:
    if st.wall_break is None or st.spec is None:
        return Refusal("out_of_phase", ev.seat, "the wall is dealt after the break")
    bad = seat_refusal(st, ev.seat)
    if bad:
        return bad
    if ev.seat in st.dealt:
        return Refusal("out_of_phase", ev.seat, "this seat was dealt already")
    want = dealt_size(st, ev.seat)
    if len(ev.tiles) != want:
        return Refusal("tile_count", ev.seat, f"{want} tiles are dealt to this seat, not {len(ev.tiles)}")
    return tiles_refusal(ev.tiles, ev.seat, st.mode == "full")


def apply_dealt(p: Play, st: HandState, ev: Dealt) -> None:
    ss = st.seat_state[ev.seat]
    for t in tiles_of(ev.tiles):
        ss.take_in(t)
    st.dealt.append(ev.seat)
    p.variant.on_dealt(st, ev)
    if len(st.dealt) == len(st.seats):
        assert st.spec is not None
        dealt = sum(deal_sizes(st.spec, st.dealer).values())
        st.wall = WallCursor(st.spec, head=dealt)
        needs_pre = st.spec.flowers or bool(p.rules.capabilities.pre_play)
        st.phase = Phase.PRE_PLAY if needs_pre else Phase.TURN
        st.current = st.dealer


# --- pre-play -----------------------------------------------------------------------------------------------

def pre_play_refusal(p: Play, st: HandState, seat: int | None) -> Refusal | None:
    """The dealer's first action ends the pre-play phase once its duties are done; anyone else waits."""
    if seat != st.dealer:
        return Refusal("out_of_phase", None, f"not allowed in phase {Phase.PRE_PLAY}")
    if any(st.owed.values()):
        return Refusal("out_of_phase", None, "flower replacements are still owed")
    if "missing_suit" in p.rules.capabilities.pre_play and any(st.seat_state[s].missing_suit is None for s in st.seats):
        return Refusal("out_of_phase", None, "every player declares the missing suit first")
    return None


def end_pre_play(st: HandState) -> None:
    st.phase = Phase.TURN
    st.current = st.dealer


def check_missing_suit(p: Play, st: HandState, ev: MissingSuitDeclared) -> Refusal | None:
    bad = seat_refusal(st, ev.seat)
    if bad:
        return bad
    if "missing_suit" not in p.rules.capabilities.pre_play:
        return Refusal("out_of_phase", ev.seat, "this profile has no missing suit")
    if ev.suit not in ("m", "p", "s"):
        return Refusal("bad_missing_suit", ev.seat)
    if st.seat_state[ev.seat].missing_suit is not None:
        return Refusal("missing_suit_twice", ev.seat)
    return None


def apply_missing_suit(p: Play, st: HandState, ev: MissingSuitDeclared) -> None:
    st.seat_state[ev.seat].missing_suit = ev.suit


def check_flower(p: Play, st: HandState, ev: FlowerDeclared) -> Refusal | None:
    bad = seat_refusal(st, ev.seat) or tile_refusal(ev.tile)
    if bad:
        return bad
    t = tile(ev.tile)
    if not t.is_flower:
        return Refusal("not_a_flower", ev.seat, f"{t} is not a flower")
    if st.phase is Phase.TURN and st.current != ev.seat:
        return Refusal("out_of_phase", ev.seat, "a flower is replaced in the player's own turn")
    if not st.seat_state[ev.seat].holds([t]):
        return Refusal("tile_not_held", ev.seat, f"{t} is not in the hand")
    return None


def apply_flower(p: Play, st: HandState, ev: FlowerDeclared) -> None:
    ss = st.seat_state[ev.seat]
    t = tile(ev.tile)
    if st.phase is Phase.TURN:
        st.phase = Phase.REPLACE
    ss.give_out([t])
    st.show([t])
    ss.flowers.append(t)
    st.owed[ev.seat] = st.owed.get(ev.seat, 0) + 1
    st.after_kong = False
    st.after_flower = st.phase is Phase.REPLACE  # a flower in the turn: its replacement follows
