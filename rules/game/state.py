"""The state of a hand in play: everything the machine knows, in one structure that only the machine writes.

:class:`HandState` holds the whole hand — the seats (:class:`SeatState`), the wall and its break, the
open claim window (:class:`ClaimWindow`), the wins (:class:`WinRecord`), the tiles seen face up, the
dora indicators, the flower replacements owed, the violations and the accepted events — so that a hand
rebuilt from its log (``rules.game.machine.replay``) is equal to the original in every field
(``to_json`` covers them all) and a profile hook that receives the state sees all of it.

Concealed tiles are counted per tile code (``rules.tiles``: red fives and flowers keep their own code)
plus a count of face-down tiles ``unknown`` (table mode: what a camera cannot see). Counts are always
known.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, NamedTuple

from rules.events import Event, JSONObject, Settled, Violation
from rules.notation import Hand, Meld
from rules.tiles import KIND_OF, N_CODES, N_KINDS, TILES, UNKNOWN_CODE, Tile
from rules.wall import Break, WallCursor, WallSpec, prev_seat

if TYPE_CHECKING:  # pragma: no cover
    from rules.scoring import ScoreResult


class Phase(StrEnum):
    SETUP = "setup"  # before the deal
    PRE_PLAY = "pre_play"  # flowers, missing suit
    TURN = "turn"  # ``current`` holds a full hand and acts (discard, kong, win, flower)
    DRAW = "draw"  # ``current`` must draw from the wall
    REPLACE = "replace"  # ``current`` must take a replacement tile (kong, flower)
    CLAIMS = "claims"  # a discard may be claimed (``HandState.window``)
    ROB = "rob"  # an added kong's tile may be robbed (``HandState.window``)
    EXHAUSTED = "exhausted"  # the wall is empty and the last discard passed: an exhaustive draw
    ENDED = "ended"  # the hand is over: reveals, settlement
    SETTLED = "settled"
    OVER = "over"  # HandEnded


class WindowKind(StrEnum):
    DISCARD = "discard"  # a discard on offer: chow, pung, kong, win (phase CLAIMS)
    ADDED_KONG = "added_kong"  # an added kong's tile on offer: a win only, robbing the kong (phase ROB)


# Python 3.11 (the Pi's) reads an enum member through ``EnumType.__getattr__``: ~0.2 us for ``Phase.TURN``,
# against ~0.02 us for a module global. The machine's per-event paths import these constants instead.
PRE_PLAY, TURN, DRAW, CLAIMS, ROB = Phase.PRE_PLAY, Phase.TURN, Phase.DRAW, Phase.CLAIMS, Phase.ROB
DISCARD_WINDOW, ADDED_KONG_WINDOW = WindowKind.DISCARD, WindowKind.ADDED_KONG


class Claim(NamedTuple):
    """A claim announced in a window: ``kind`` hu/kong/pung/chow, ``tiles`` shown from the hand, ``slot``
    the hand that receives it (mcr-siamese, 003 §Сиамский 10; 0 elsewhere), ``t_mono`` when it was made.
    Immutable; a NamedTuple rather than a frozen dataclass, which costs ~1 us more to build on Python 3.11."""

    seat: int
    kind: str
    tiles: tuple[Tile, ...] = ()
    slot: int = 0
    t_mono: float = 0.0

    def to_json(self) -> JSONObject:
        return {"seat": self.seat, "kind": self.kind, "tiles": [str(t) for t in self.tiles], "slot": self.slot,
                "t_mono": self.t_mono}


@dataclass(slots=True)  # one per discard: slots make it quicker to build and read
class ClaimWindow:
    """A tile on offer to the other players: opened by a discard or an added kong, closed in one place
    (``rules.game.window.close_window``) by whatever ends it — a meld, the draw that follows, the end of
    the hand after wins on it.

    ``deadline``: the last moment on the shared clock (``t_mono``) a claim is in time, ``opened_at`` plus
    the profile's claim time (None where the seed sets none). ``last_tile``: the discard was made with the
    wall empty (sea/river bottom: only the claims of ``last_discard_claims``). ``claims``: those announced,
    in order; ``winners``: the seats whose win on the tile was accepted (the window stays open for more
    wins until it is closed)."""

    kind: WindowKind
    seat: int
    tile: Tile
    opened_at: float = 0.0
    deadline: float | None = None
    last_tile: bool = False
    claims: list[Claim] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)

    @property
    def robbing(self) -> bool:
        return self.kind is ADDED_KONG_WINDOW

    def claim_of(self, seat: int, kind: str) -> Claim | None:
        return next((c for c in self.claims if c.seat == seat and c.kind == kind), None)

    def to_json(self) -> JSONObject:
        return {
            "kind": self.kind.value, "seat": self.seat, "tile": str(self.tile), "opened_at": self.opened_at,
            "deadline": self.deadline, "last_tile": self.last_tile, "claims": [c.to_json() for c in self.claims],
            "winners": list(self.winners),
        }


@dataclass
class WinRecord:
    seat: int
    tile: Tile
    from_seat: int | None
    robbing_kong: bool = False
    kong_replacement: bool = False
    flower_replacement: bool = False  # self-drawn on a flower's replacement tile (MCR #81: not #46)
    last_tile: bool = False
    order: int = 0  # position among the hand's wins
    dead_hand: bool = False  # declared by a dead hand: a false win (``dead_hand_win_is_false``)
    valid: bool | None = None  # None until judged at the reveal
    result: ScoreResult | None = None  # the profile's judgement when judged

    def to_json(self) -> JSONObject:
        return {
            "seat": self.seat, "tile": str(self.tile), "from_seat": self.from_seat,
            "robbing_kong": self.robbing_kong, "kong_replacement": self.kong_replacement,
            "flower_replacement": self.flower_replacement, "last_tile": self.last_tile, "order": self.order,
            "dead_hand": self.dead_hand, "valid": self.valid,
            "result": self.result.to_json() if self.result is not None else None,
        }


@dataclass
class SeatState:
    seat: int
    counts: list[int] = field(default_factory=lambda: [0] * N_CODES)
    unknown: int = 0
    melds: list[Meld] = field(default_factory=list)
    meld_sources: list[int | None] = field(default_factory=list)  # from_seat per meld
    flowers: list[Tile] = field(default_factory=list)
    pond: list[Tile] = field(default_factory=list)  # every discard in order
    pond_claimed: list[bool] = field(default_factory=list)  # taken into a meld (a won discard stays False)
    drawn: Tile | None = None  # the tile drawn this turn (x when unseen)
    won: bool = False
    riichi: bool = False  # declared riichi (Discarded riichi=True or RiichiDeclared)
    dead: bool = False
    dead_since: int | None = None  # ``history`` index from which the hand is dead by a HandDead event or a
    # dead-hand violation (None otherwise; a false win's dead hand is recorded by its WinRecord)
    revealed: bool = False
    missing_suit: str | None = None
    version: int = 0  # bumped on every change of the concealed tiles (bots cache by it)
    # flows for the conservation check at the reveal
    known_in: list[int] = field(default_factory=lambda: [0] * N_CODES)
    unknown_in: int = 0
    out: list[int] = field(default_factory=lambda: [0] * N_CODES)
    size: int = 0  # concealed tiles held (known and unknown)

    @property
    def n_concealed(self) -> int:
        return self.size

    @property
    def active(self) -> bool:
        return not self.won and not self.dead

    def tiles(self) -> list[Tile]:
        """Known concealed tiles (sorted by code), without the unknown ones."""
        return [TILES[c] for c, n in enumerate(self.counts) if n for _ in range(n)]

    def counts34(self) -> list[int]:
        c = self.counts[:N_KINDS]
        c[4] += self.counts[42]
        c[13] += self.counts[43]
        c[22] += self.counts[44]
        return c

    def hand(self, winning: Tile | None = None) -> Hand:
        """The known concealed tiles and melds as a :class:`Hand` (``winning`` taken out of the tiles)."""
        tiles = self.tiles()
        if winning is not None and winning in tiles:
            tiles.remove(winning)
        return Hand(tuple(tiles), tuple(self.melds), winning, tuple(self.flowers))

    # --- the concealed tiles, as the machine moves them -----------------------------------------------
    def holds(self, tiles: list[Tile]) -> bool:
        """Whether the tiles can leave the hand (known copies, else face-down tiles standing for them)."""
        if len(tiles) == 1:
            t = tiles[0]
            return self.counts[t] > 0 or self.unknown > 0
        need: dict[int, int] = {}
        unknown_needed = 0
        for t in tiles:
            if t == UNKNOWN_CODE:
                unknown_needed += 1
            else:
                need[t] = need.get(t, 0) + 1
        counts = self.counts
        for c, n in need.items():
            if n > counts[c]:
                unknown_needed += n - counts[c]
        return unknown_needed <= self.unknown

    def blur(self, faces: Iterable[Tile]) -> None:
        """The known copies of ``faces`` become unseen tiles (a face-down set took some of them, which the
        record cannot tell)."""
        self.version += 1
        for t in faces:
            self.unknown += self.counts[t]
            self.counts[t] = 0

    def take_in(self, t: Tile) -> None:
        """A tile enters the concealed hand (dealt, drawn, revealed)."""
        self.version += 1
        self.size += 1
        if t == UNKNOWN_CODE:
            self.unknown += 1
            self.unknown_in += 1
        else:
            self.counts[t] += 1
            self.known_in[t] += 1

    def give_out(self, tiles: Iterable[Tile]) -> None:
        """Tiles leave the concealed hand (discarded, melded, declared, won); a face-down tile stands in for
        a known one the record does not show (table mode)."""
        self.version += 1
        counts = self.counts
        for t in tiles:
            self.size -= 1
            if t == UNKNOWN_CODE:
                self.unknown -= 1
                continue
            if counts[t] > 0:
                counts[t] -= 1
            else:
                self.unknown -= 1
            self.out[t] += 1

    def to_json(self) -> JSONObject:
        return {
            "seat": self.seat,
            "concealed": [str(t) for t in self.tiles()] + ["x"] * self.unknown,
            "size": self.size,
            "melds": [str(m) for m in self.melds],
            "meld_sources": list(self.meld_sources),
            "flowers": [str(f) for f in self.flowers],
            "pond": [str(t) for t in self.pond],
            "pond_claimed": list(self.pond_claimed),
            "drawn": str(self.drawn) if self.drawn is not None else None,
            "won": self.won, "riichi": self.riichi, "dead": self.dead, "dead_since": self.dead_since,
            "revealed": self.revealed, "missing_suit": self.missing_suit, "version": self.version,
            "known_in": list(self.known_in), "unknown_in": self.unknown_in, "out": list(self.out),
        }


@dataclass
class HandState:
    """Everything the machine knows about the hand. Hooks read it; only the machine writes it."""

    profile: str = ""
    mode: str = "full"
    hand_id: str = ""
    n_players: int = 4
    seats: tuple[int, ...] = (0, 1, 2, 3)
    dealer: int = 0
    round_wind: str = "1z"
    hand_number: int = 0
    players: tuple[str, ...] = ()
    options: JSONObject = field(default_factory=dict)
    phase: Phase = Phase.SETUP
    current: int = 0
    seat_state: dict[int, SeatState] = field(default_factory=dict)
    # the wall: its geometry, the break the dice made, the seats dealt so far, then the cursor in play
    spec: WallSpec | None = None
    wall_break: Break | None = None
    dice: list[tuple[int, ...]] = field(default_factory=list)
    dealt: list[int] = field(default_factory=list)
    wall: WallCursor | None = None
    copies: tuple[int, ...] = ()  # copies of each kind (by code) in the tile set
    face_up: list[int] = field(default_factory=lambda: [0] * N_CODES)  # tiles turned face up, by kind
    owed: dict[int, int] = field(default_factory=dict)  # flower replacements owed per seat (pre-play)
    dora_indicators: list[Tile] = field(default_factory=list)  # initial and kan indicators turned
    window: ClaimWindow | None = None  # the tile on offer (phases CLAIMS and ROB)
    turn_by_claim: bool = False  # the current turn began with a chow/pung claim
    after_kong: bool = False  # the current tile is a kong replacement
    after_flower: bool = False  # the current tile replaced a flower declared in the turn
    wins: list[WinRecord] = field(default_factory=list)
    left_order: list[int] = field(default_factory=list)  # seats in the order they left (won)
    exhaustive: bool = False
    tenpai_declared: tuple[int, ...] = ()
    tenpai: dict[int, bool] = field(default_factory=dict)
    violations: list[Violation] = field(default_factory=list)
    history: list[Event] = field(default_factory=list)  # accepted game events
    settled: Settled | None = None
    next_dealer: int | None = None

    # --- seats ----------------------------------------------------------------------------------------
    def seat_order(self, start: int) -> list[int]:
        """The seated players in turn order from ``start``."""
        i = self.seats.index(start)
        return list(self.seats[i:] + self.seats[:i])

    def prev_active_or_seated(self, seat: int) -> int:
        """The left player: the previous seat in turn order among the seated players."""
        return prev_seat(self.seats, seat)

    def next_active(self, seat: int) -> int | None:
        """The next seat after ``seat`` in turn order that is still playing (skips winners, 000 §2.6.2.1)."""
        seats = self.seats  # next_seat, unrolled: asked on every draw
        n = len(seats)
        i = seats.index(seat)
        for step in range(1, n + 1):
            s = seats[(i + step) % n]
            if not self.seat_state[s].won:  # a dead hand still draws and discards
                return s
        return None

    def active_seats(self) -> list[int]:
        return [s for s in self.seats if self.seat_state[s].active]

    def valid_wins(self) -> list[WinRecord]:
        return [w for w in self.wins if w.valid]

    def left_before(self, win: WinRecord) -> set[int]:
        """Seats that had left the hand (won) before ``win`` (they pay nothing for later wins)."""
        return {w.seat for w in self.wins if w.order < win.order and w.valid is not False}

    @property
    def wall_remaining(self) -> int:
        return self.wall.remaining if self.wall is not None else 0

    def show(self, tiles: Iterable[Tile]) -> None:
        """Tiles turned face up on the table (ponds, melds, flowers, declared hands), counted by kind."""
        for t in tiles:
            if t != UNKNOWN_CODE:
                self.face_up[KIND_OF[t]] += 1

    def to_json(self) -> JSONObject:
        return {
            "profile": self.profile, "mode": self.mode, "hand_id": self.hand_id,
            "n_players": self.n_players, "seats": list(self.seats), "dealer": self.dealer,
            "round_wind": self.round_wind, "hand_number": self.hand_number, "players": list(self.players),
            "options": self.options, "phase": self.phase.value, "current": self.current,
            "spec": [self.spec.family, self.spec.tile_set, self.spec.players] if self.spec else None,
            "wall_break": [self.wall_break.side, self.wall_break.count] if self.wall_break else None,
            "dice": [list(d) for d in self.dice], "dealt": list(self.dealt),
            "wall": self.wall.to_json() if self.wall is not None else None,
            "copies": list(self.copies), "face_up": list(self.face_up),
            "owed": {str(k): v for k, v in self.owed.items()},
            "dora_indicators": [str(t) for t in self.dora_indicators],
            "window": self.window.to_json() if self.window is not None else None,
            "turn_by_claim": self.turn_by_claim, "after_kong": self.after_kong, "after_flower": self.after_flower,
            "seat_state": {str(s): st.to_json() for s, st in self.seat_state.items()},
            "wins": [w.to_json() for w in self.wins], "left_order": list(self.left_order),
            "exhaustive": self.exhaustive, "tenpai_declared": list(self.tenpai_declared),
            "tenpai": {str(k): v for k, v in self.tenpai.items()},
            "violations": [v.to_json() for v in self.violations],
            "history": [e.to_json() for e in self.history],
            "settled": self.settled.to_json() if self.settled is not None else None,
            "next_dealer": self.next_dealer,
        }
