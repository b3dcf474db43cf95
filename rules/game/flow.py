"""What the hand machine's handlers share: the :class:`Handler` of one (phase, event type), the
:class:`Refusal` a check returns, the :class:`Turn` an event is judged in and the :class:`Play` context
a handler works with.

Every game event is handled in two steps. ``check`` is pure: it reads the state and returns the refusal
(the event is illegal: a violation is recorded instead of it and the event changes nothing) or None.
``apply`` then changes the state; what it finds along the way that does not undo the event (a wrong tile count, a
false win found at the reveal) it notes on the :class:`Play` (``Play.note``), and those violations are
recorded after the event.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from rules.events import Dealt, Event, GameEvent, Violation
from rules.game.state import HandState, Phase, SeatState
from rules.game.violations import violation
from rules.notation import Meld
from rules.tiles import TILES, UNKNOWN_CODE, Tile

if TYPE_CHECKING:  # pragma: no cover
    from rules.game.protocols import RuleSet

E = TypeVar("E", bound=GameEvent)
_BY_TEXT = {str(t): t for t in TILES}
TILE_BY_TEXT: Mapping[str, Tile] = _BY_TEXT  # the hot checks look a text up once: None = no tile


@dataclass(frozen=True)
class Refusal:
    """Why an event is refused: a violation ``code`` (``rules.game.violations.CODES``), the offending
    seat and a message (empty: the code's meaning)."""

    code: str
    seat: int | None
    message: str = ""


# A phase and whose turn it is in it: what closing a claim window or a win leads to. A plain pair, not a
# NamedTuple: one is built on every draw, and a NamedTuple costs ~0.6 us to build on Python 3.11.
Turn = tuple[Phase, int]  # (phase, current)


@dataclass(frozen=True)
class Handler(Generic[E]):
    """The handling of one event type in one phase: a pure ``check`` and the ``apply`` step."""

    check: Callable[[Play, HandState, E], Refusal | None]
    apply: Callable[[Play, HandState, E], None]


@dataclass(frozen=True, eq=False)
class Variant:
    """A shape of hand the machine plays (declared hooks, no subclass overrides): the handlers that
    differ from the standard table (:data:`rules.game.dispatch.DISPATCH`), the violation codes it adds,
    the tiles a player holds before a discard, and how a seat's state is made.

    ``win_shows_hand``: a win on a discard proposed by arbitration shows the claimant's tiles
    (``Won.hand``: the Siamese declaration, 003 §Сиамский 11)."""

    name: str
    handlers: Mapping[tuple[Phase, type[GameEvent]], Handler[Any]] = field(default_factory=dict)
    codes: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    hands_per_player: int = 1
    win_shows_hand: bool = False
    new_seat: Callable[[int], SeatState] = SeatState
    held_before_discard: Callable[[HandState, SeatState], int] = lambda st, ss: ss.size + 3 * len(ss.melds)
    on_dealt: Callable[[HandState, Dealt], None] = lambda st, ev: None


@dataclass
class Play:
    """The context of one machine's handlers: the profile's rules, the hand's variant, the wall in draw
    order when known (full information), and the violations noted while the current event is applied."""

    rules: RuleSet
    variant: Variant
    sequence: tuple[Tile, ...] | None = None
    at: Event | None = None
    notes: list[Violation] = field(default_factory=list)
    memo: dict[str, tuple[tuple[object, ...], object]] = field(default_factory=dict)  # settlement, next dealer
    found: dict[str, Any] = field(default_factory=dict)  # what a check computed for its apply step

    def violation(self, code: str, seat: int | None, message: str, at: Event, action: Event | None = None,
                  deferred: bool = False, hand_id: str = "") -> Violation:
        return violation(code, seat, message, rules_by_code=self.rules.violation_rules, at=at,
                         deferred=deferred, hand_id=hand_id, action=action, codes=self.variant.codes)

    def note(self, st: HandState, code: str, seat: int | None, message: str = "", deferred: bool = False) -> None:
        """A violation found while applying an accepted event (it does not undo the event); the codes of
        ``dead_hand_codes`` make the offender's hand dead."""
        assert self.at is not None
        self.notes.append(self.violation(code, seat, message, self.at, deferred=deferred, hand_id=st.hand_id))
        if seat is not None and code in self.rules.capabilities.dead_hand_codes:
            make_dead(st, seat)


# --- small shared steps -----------------------------------------------------------------------------------

def make_dead(st: HandState, seat: int) -> None:
    """The seat's hand is dead from the event being applied on (it is the next history entry)."""
    ss = st.seat_state.get(seat)
    if ss is not None and not ss.dead and not ss.won:
        ss.dead = True
        ss.dead_since = len(st.history)


def tile_refusal(text: str) -> Refusal | None:
    """A text that is no tile."""
    if text in _BY_TEXT:
        return None
    return Refusal("bad_event", None, f"{text!r} is not a tile")


def tiles_refusal(texts: tuple[str, ...], seat: int | None, full: bool) -> Refusal | None:
    """The first text of ``texts`` that is no tile; in full information, a face-down tile among them."""
    got = [_BY_TEXT.get(x) for x in texts]
    if None in got:
        return tile_refusal(texts[got.index(None)])
    if full and UNKNOWN_CODE in got:
        return Refusal("unknown_tile", seat)
    return None


def tile(text: str) -> Tile:
    """The tile of a text already checked (:func:`tile_refusal`)."""
    return _BY_TEXT[text]


def tiles_of(texts: tuple[str, ...]) -> list[Tile]:
    """The tiles of texts already checked (:func:`tiles_refusal`)."""
    return [_BY_TEXT[x] for x in texts]


def seat_refusal(st: HandState, seat: int | None) -> Refusal | None:
    if seat is None or seat not in st.seat_state:
        return Refusal("bad_event", seat, f"seat {seat} is not at the table")
    return None


def phase_refusal(phase: Phase, *allowed: Phase) -> Refusal | None:
    if phase not in allowed:
        return Refusal("out_of_phase", None, f"not allowed in phase {phase}")
    return None


_MELDS: dict[tuple[tuple[int, ...], bool, bool], Meld | str] = {}


def build_meld(tiles: list[Tile], concealed: bool = False, added: bool = False) -> Meld | str:
    """``Meld.build`` remembered by its tiles; the reason as a string when they form no meld."""
    key = (tuple(tiles), concealed, added)
    meld = _MELDS.get(key)
    if meld is None:
        try:
            meld = Meld.build(tiles, concealed=concealed, added=added)
        except ValueError as exc:
            meld = str(exc)
        if len(_MELDS) > 50_000:
            _MELDS.clear()
        _MELDS[key] = meld
    return meld


def always(st: HandState) -> bool:
    return True


