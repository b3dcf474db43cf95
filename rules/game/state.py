"""The state of a hand in play, as the machine tracks it from its events.

Concealed tiles are counted per tile code (``rules.tiles``: red fives and flowers keep their own code)
plus a count of face-down tiles ``unknown`` (table mode: what a camera cannot see). Counts are always
known. ``to_json`` gives a deterministic JSON object (replay identity compares it).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rules.notation import Hand, Meld
from rules.tiles import N_CODES, N_KINDS, TILES, Tile
from rules.wall import WallCursor, next_seat, prev_seat


class Phase:
    SETUP = "setup"  # before the deal
    PRE_PLAY = "pre_play"  # flowers, missing suit
    TURN = "turn"  # ``current`` holds a full hand and acts (discard, kong, win, flower)
    DRAW = "draw"  # ``current`` must draw from the wall
    REPLACE = "replace"  # ``current`` must take a replacement tile (kong, flower)
    CLAIMS = "claims"  # a discard may be claimed
    ROB = "rob"  # an added kong's tile may be robbed
    EXHAUSTED = "exhausted"  # the wall is empty and the last discard passed: an exhaustive draw
    ENDED = "ended"  # the hand is over: reveals, settlement
    SETTLED = "settled"
    OVER = "over"  # HandEnded


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
    result: Any = None  # the profile's ScoreResult when judged

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat, "tile": str(self.tile), "from_seat": self.from_seat,
            "robbing_kong": self.robbing_kong, "kong_replacement": self.kong_replacement,
            "flower_replacement": self.flower_replacement,
            "last_tile": self.last_tile, "valid": self.valid,
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

    @property
    def n_concealed(self) -> int:
        return self.size

    size: int = 0  # concealed tiles held (known and unknown), kept by the machine

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

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "concealed": [str(t) for t in self.tiles()] + ["x"] * self.unknown,
            "melds": [str(m) for m in self.melds],
            "meld_sources": list(self.meld_sources),
            "flowers": [str(f) for f in self.flowers],
            "pond": [str(t) for t in self.pond],
            "pond_claimed": list(self.pond_claimed),
            "drawn": str(self.drawn) if self.drawn is not None else None,
            "won": self.won, "riichi": self.riichi, "dead": self.dead, "dead_since": self.dead_since, "revealed": self.revealed,
            "missing_suit": self.missing_suit,
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
    options: dict[str, Any] = field(default_factory=dict)
    phase: str = Phase.SETUP
    current: int = 0
    seat_state: dict[int, SeatState] = field(default_factory=dict)
    wall: WallCursor | None = None
    dice: list[tuple[int, ...]] = field(default_factory=list)
    last_discard: tuple[int, Tile] | None = None  # (seat, tile) open to claims
    discard_on_empty_wall: bool = False
    claims: list[tuple[int, str, tuple[Tile, ...]]] = field(default_factory=list)  # (seat, kind, tiles)
    pending_kong: tuple[int, Tile] | None = None  # (seat, added tile) open to robbing
    turn_by_claim: bool = False  # the current turn began with a chow/pung claim
    after_kong: bool = False  # the current tile is a kong replacement
    after_flower: bool = False  # the current tile replaced a flower declared in the turn
    wins: list[WinRecord] = field(default_factory=list)
    left_order: list[int] = field(default_factory=list)  # seats in the order they left (won)
    exhaustive: bool = False
    tenpai_declared: tuple[int, ...] = ()
    tenpai: dict[int, bool] = field(default_factory=dict)
    violations: list[Any] = field(default_factory=list)  # Violation events
    history: list[Any] = field(default_factory=list)  # accepted game events
    settled: Any = None
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
        s = seat
        for _ in self.seats:
            s = next_seat(self.seats, s)
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

    def to_json(self) -> dict[str, Any]:
        return {
            "profile": self.profile, "mode": self.mode, "hand_id": self.hand_id,
            "n_players": self.n_players, "seats": list(self.seats), "dealer": self.dealer,
            "round_wind": self.round_wind, "hand_number": self.hand_number, "players": list(self.players),
            "phase": self.phase, "current": self.current,
            "wall": self.wall.to_json() if self.wall is not None else None,
            "dice": [list(d) for d in self.dice],
            "last_discard": [self.last_discard[0], str(self.last_discard[1])] if self.last_discard else None,
            "claims": [[s, k, [str(t) for t in ts]] for s, k, ts in self.claims],
            "pending_kong": [self.pending_kong[0], str(self.pending_kong[1])] if self.pending_kong else None,
            "turn_by_claim": self.turn_by_claim, "after_kong": self.after_kong,
            "after_flower": self.after_flower,
            "seat_state": {str(s): st.to_json() for s, st in self.seat_state.items()},
            "wins": [w.to_json() for w in self.wins],
            "exhaustive": self.exhaustive, "tenpai": {str(k): v for k, v in self.tenpai.items()},
            "violations": [v.to_json() for v in self.violations],
            "settled": self.settled.to_json() if self.settled is not None else None,
            "next_dealer": self.next_dealer,
        }
