"""Tiles: a compact ``int`` subclass covering every face of docs/notation.md.

Codes (``int(tile)``):

====== ============================================
0..8   1m..9m (characters)
9..17  1p..9p (dots)
18..26 1s..9s (bamboo)
27..33 1z..7z (East South West North, White Green Red)
34..41 1f..8f (flowers 1-4, seasons 5-8)
42..44 0m 0p 0s (red fives)
45     j (joker)
46     x (face-down tile of unknown identity)
====== ============================================

``tile.kind`` is the 34-way identity used by every shape algorithm (a red five is a five).
"""
from __future__ import annotations

from collections.abc import Iterable

SUITS = "mpsz"
N_KINDS = 34  # distinct playing faces (no flowers, jokers, red distinction)
_FLOWER0 = 34
_RED0 = 42
JOKER_CODE = 45
UNKNOWN_CODE = 46
N_CODES = 47

_SUIT_ORDER = {"m": 0, "p": 1, "s": 2, "z": 3, "f": 4, "j": 5, "x": 6}


class Tile(int):
    """One tile face. Immutable, hashable, cheap; construct with :func:`tile` or ``Tile.parse``."""

    __slots__ = ()

    # --- identity -----------------------------------------------------------------------------------
    @property
    def kind(self) -> int:
        """The 34-way kind (red five → its five). Flowers, joker and unknown keep their own code."""
        c = int(self)
        if _RED0 <= c < _RED0 + 3:
            return (c - _RED0) * 9 + 4
        return c

    @property
    def suit(self) -> str:
        """'m', 'p', 's', 'z', 'f' (flower/season), 'j' (joker) or 'x' (unknown)."""
        c = int(self)
        if c < 27:
            return SUITS[c // 9]
        if c < 34:
            return "z"
        if c < _RED0:
            return "f"
        if c < JOKER_CODE:
            return SUITS[c - _RED0]
        return "j" if c == JOKER_CODE else "x"

    @property
    def number(self) -> int:
        """1..9 for suited tiles (a red five is 5), 1..7 honours, 1..8 flowers, 0 for joker/unknown."""
        c = int(self)
        if c < 27:
            return c % 9 + 1
        if c < 34:
            return c - 26
        if c < _RED0:
            return c - 33
        if c < JOKER_CODE:
            return 5
        return 0

    @property
    def is_red(self) -> bool:
        return _RED0 <= int(self) < JOKER_CODE

    @property
    def is_suited(self) -> bool:
        return int(self) < 27 or self.is_red

    @property
    def is_honor(self) -> bool:
        return 27 <= int(self) < 34

    @property
    def is_wind(self) -> bool:
        return 27 <= int(self) < 31

    @property
    def is_dragon(self) -> bool:
        return 31 <= int(self) < 34

    @property
    def is_terminal(self) -> bool:
        return int(self) < 27 and int(self) % 9 in (0, 8)

    @property
    def is_terminal_or_honor(self) -> bool:
        return self.is_terminal or self.is_honor

    @property
    def is_flower(self) -> bool:
        return _FLOWER0 <= int(self) < _RED0

    @property
    def is_joker(self) -> bool:
        return int(self) == JOKER_CODE

    @property
    def is_unknown(self) -> bool:
        return int(self) == UNKNOWN_CODE

    @property
    def is_playing(self) -> bool:
        """A face that can stand in a set (suits and honours, red fives included)."""
        return int(self) < 34 or self.is_red

    # --- text ---------------------------------------------------------------------------------------
    def __str__(self) -> str:
        c = int(self)
        if c == JOKER_CODE:
            return "j"
        if c == UNKNOWN_CODE:
            return "x"
        if self.is_red:
            return "0" + self.suit
        return f"{self.number}{self.suit}"

    def __repr__(self) -> str:
        return f"Tile({str(self)!r})"

    def sort_key(self) -> tuple[int, int, int]:
        """Canonical order: m, p, s, z, f, j, x; by number; a red five right after the plain fives."""
        return (_SUIT_ORDER[self.suit], self.number, 1 if self.is_red else 0)

    @staticmethod
    def parse(text: str) -> Tile:
        """``Tile.parse("5m")``. Raises ``ValueError`` for anything but one tile."""
        t = _BY_TEXT.get(text.strip())
        if t is None:
            raise ValueError(f'"{text}" is not a tile')
        return t


TILES: tuple[Tile, ...] = tuple(Tile(i) for i in range(N_CODES))
_BY_TEXT: dict[str, Tile] = {str(t): t for t in TILES}
KINDS: tuple[Tile, ...] = TILES[:N_KINDS]
FLOWERS: tuple[Tile, ...] = TILES[_FLOWER0:_RED0]
RED_FIVES: tuple[Tile, ...] = TILES[_RED0:JOKER_CODE]
JOKER: Tile = TILES[JOKER_CODE]
UNKNOWN: Tile = TILES[UNKNOWN_CODE]

# --- the vocabulary of kinds (34-way indices), defined here once for every profile -----------------------
TERMINALS: tuple[int, ...] = (0, 8, 9, 17, 18, 26)  # the ones and nines of the three suits
WINDS: tuple[int, ...] = (27, 28, 29, 30)  # East South West North
DRAGONS: tuple[int, ...] = (31, 32, 33)  # White Green Red
HONORS: tuple[int, ...] = WINDS + DRAGONS
TERMINALS_AND_HONORS: tuple[int, ...] = TERMINALS + HONORS
GREEN: frozenset[int] = frozenset((19, 20, 21, 23, 25, 32))  # 2s 3s 4s 6s 8s 6z: the all-green tiles
RED_DRAGON = 33
RED_OF: dict[int, int] = {4: 42, 13: 43, 22: 44}  # the kind of a five -> the code of its red five
KIND_OF: tuple[int, ...] = tuple(t.kind for t in TILES)  # tile code -> kind (flowers, joker and x keep theirs)

# the two kinds of set a decomposition or a reading names (a kong counts as a pung there)
CHOW = "chow"
PUNG = "pung"


def tile(text: str) -> Tile:
    """The tile with this notation text (``"5m"``, ``"0p"``, ``"7z"``, ``"3f"``, ``"j"``, ``"x"``)."""
    return Tile.parse(text)


def red_five(suit: str) -> Tile:
    return TILES[_RED0 + SUITS.index(suit)]


def sort_tiles(tiles: Iterable[Tile]) -> list[Tile]:
    return sorted(tiles, key=Tile.sort_key)


def counts34(tiles: Iterable[Tile]) -> list[int]:
    """Counts per kind (length 34). Flowers, jokers and unknown tiles are not counted."""
    c = [0] * N_KINDS
    for t in tiles:
        k = t.kind
        if k < N_KINDS:
            c[k] += 1
    return c


def kind_text(kind: int) -> str:
    """Notation of a 34-way kind index."""
    return str(TILES[kind])
