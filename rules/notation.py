"""Parse and format hands in the mpsz notation of docs/notation.md.

    <concealed tiles and melds, in any order> [+ <winning tile>] [| <flowers>]

Syntax only: whether a hand is legal in a profile (a fifth copy, a joker outside Red, a red five in MCR)
is the profile's rule check. Syntax errors are :class:`ParseError` with a 1-based column and a reason::

    at column 7: "8z" is not a tile (honours are 1z-7z)
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum

from rules.tiles import JOKER, TILES, UNKNOWN, Tile, sort_tiles

_SUIT_LETTERS = "mpsz f"


class ParseError(ValueError):
    """A syntax error at ``column`` (1-based) of the input."""

    def __init__(self, column: int, reason: str):
        self.column = column
        self.reason = reason
        super().__init__(f"at column {column}: {reason}")


class MeldKind(StrEnum):
    CHOW = "chow"
    PUNG = "pung"
    KONG_OPEN = "kong_open"  # claimed kong [1111p]
    KONG_CONCEALED = "kong_concealed"  # [(1111p)]
    KONG_ADDED = "kong_added"  # promoted pung [1111p+]

    @property
    def is_kong(self) -> bool:
        return self in (MeldKind.KONG_OPEN, MeldKind.KONG_CONCEALED, MeldKind.KONG_ADDED)


_WILD = (JOKER, UNKNOWN)


@dataclass(frozen=True)
class Meld:
    """A declared set. ``tiles`` are in canonical order (natural tiles sorted, then jokers, then unknowns).

    ``base`` is the 34-way kind of the lowest tile the set stands for (a chow's first tile, a pung's
    tile); ``None`` for a set made only of jokers/unknown tiles.
    """

    kind: MeldKind
    tiles: tuple[Tile, ...]
    base: int | None = None

    @property
    def is_kong(self) -> bool:
        return self.kind.is_kong

    @property
    def is_concealed(self) -> bool:
        return self.kind is MeldKind.KONG_CONCEALED

    @property
    def kinds(self) -> tuple[int, ...]:
        """The 34-way kinds the set stands for (jokers resolved), or () if unknown."""
        if self.base is None:
            return ()
        if self.kind is MeldKind.CHOW:
            return (self.base, self.base + 1, self.base + 2)
        return (self.base,) * len(self.tiles)

    def __str__(self) -> str:
        body = format_tiles(self.tiles, group=True)
        if self.kind is MeldKind.KONG_CONCEALED:
            return f"[({body})]"
        if self.kind is MeldKind.KONG_ADDED:
            return f"[{body}+]"
        return f"[{body}]"

    @staticmethod
    def build(tiles: list[Tile] | tuple[Tile, ...], concealed: bool = False, added: bool = False) -> Meld:
        """Classify tiles as a meld; raises ``ValueError`` with the reason when they form none."""
        tiles = list(tiles)
        for t in tiles:
            if t.is_flower:
                raise ValueError(f'a flower ("{t}") cannot stand in a meld')
        natural = sort_tiles(t for t in tiles if t not in _WILD)
        wild = [t for t in tiles if t == JOKER] + [t for t in tiles if t == UNKNOWN]
        ordered = tuple(natural + wild)
        kinds = [t.kind for t in natural]
        n = len(tiles)
        if concealed or added:
            if n != 4:
                what = "a concealed kong" if concealed else "an added kong"
                raise ValueError(f"{what} must have four tiles")
        if n == 4:
            if len(set(kinds)) > 1:
                raise ValueError("a kong must be four identical tiles")
            kind = MeldKind.KONG_CONCEALED if concealed else MeldKind.KONG_ADDED if added else MeldKind.KONG_OPEN
            return Meld(kind, ordered, kinds[0] if kinds else None)
        if n != 3:
            raise ValueError(f"a meld has three or four tiles, not {n}")
        distinct = sorted(set(kinds))
        if len(distinct) <= 1:
            return Meld(MeldKind.PUNG, ordered, distinct[0] if distinct else None)
        # a chow: natural tiles of one suit, distinct, within a span of three
        suits = {t.suit for t in natural}
        if len(suits) != 1 or "z" in suits or len(distinct) != len(kinds) or distinct[-1] - distinct[0] > 2:
            raise ValueError("a chow must be three consecutive tiles of one suit")
        # wild tiles fill the gaps; where the natural tiles allow two chows the lower one is taken
        lo, hi = distinct[0], distinct[-1]
        return Meld(MeldKind.CHOW, ordered, max(lo - lo % 9, hi - 2))


@dataclass(frozen=True)
class Hand:
    """A hand: concealed tiles (canonical order), melds in declaration order, optional winning tile, flowers."""

    concealed: tuple[Tile, ...] = ()
    melds: tuple[Meld, ...] = ()
    winning: Tile | None = None
    flowers: tuple[Tile, ...] = field(default=())

    def __post_init__(self) -> None:
        object.__setattr__(self, "concealed", tuple(sort_tiles(self.concealed)))
        object.__setattr__(self, "flowers", tuple(sort_tiles(self.flowers)))

    @property
    def all_concealed(self) -> tuple[Tile, ...]:
        """Concealed tiles with the winning tile (if any)."""
        return self.concealed + ((self.winning,) if self.winning is not None else ())

    @property
    def tile_count(self) -> int:
        """Tiles in hand counting every set as three (the 13/14 rule)."""
        return len(self.all_concealed) + 3 * len(self.melds)

    @property
    def is_closed(self) -> bool:
        """No claimed meld (concealed kongs keep a hand closed)."""
        return all(m.kind is MeldKind.KONG_CONCEALED for m in self.melds)

    def __str__(self) -> str:
        return format_hand(self)


# ----------------------------------------------------------------------------------------------------------
# Formatting


def format_tiles(tiles: Iterable[Tile], group: bool = True) -> str:
    """Tiles in the given order; consecutive tiles of one suit share the suit letter when ``group``."""
    out: list[str] = []
    run: list[str] = []
    run_suit = ""
    for t in tiles:
        s = t.suit
        if s in ("j", "x"):
            if run:
                out.append("".join(run) + run_suit)
                run, run_suit = [], ""
            out.append(s)
            continue
        digit = "0" if t.is_red else str(t.number)
        if group and s == run_suit:
            run.append(digit)
        else:
            if run:
                out.append("".join(run) + run_suit)
            run, run_suit = [digit], s
    if run:
        out.append("".join(run) + run_suit)
    return "".join(out)


def format_hand(h: Hand) -> str:
    """The canonical form: ``23456m67888p234s [555z] + 1m | 2f``."""
    parts = []
    if h.concealed:
        parts.append(format_tiles(sort_tiles(h.concealed)))
    parts.extend(str(m) for m in h.melds)
    s = " ".join(parts)
    if h.winning is not None:
        s = f"{s} + {h.winning}" if s else f"+ {h.winning}"
    if h.flowers:
        s = f"{s} | " + " ".join(str(f) for f in sort_tiles(h.flowers))
    return s


def canonical(text: str) -> str:
    return format_hand(parse_hand(text))


# ----------------------------------------------------------------------------------------------------------
# Parsing


def _tile_error(digit: str, suit: str) -> str:
    if suit == "z":
        return f'"{digit}{suit}" is not a tile (honours are 1z-7z)'
    if suit == "f":
        return f'"{digit}{suit}" is not a tile (flowers and seasons are 1f-8f)'
    return f'"{digit}{suit}" is not a tile'


class _Scanner:
    def __init__(self, text: str):
        self.s = text
        self.i = 0

    def col(self, i: int | None = None) -> int:
        return (self.i if i is None else i) + 1

    def peek(self) -> str:
        return self.s[self.i] if self.i < len(self.s) else ""

    def skip_ws(self) -> None:
        while self.i < len(self.s) and self.s[self.i].isspace():
            self.i += 1

    def tiles(self, stop: str) -> list[tuple[Tile, int]]:
        """Read tiles until a character in ``stop`` (or the end); returns (tile, column) pairs."""
        out: list[tuple[Tile, int]] = []
        digits: list[tuple[str, int]] = []
        while self.i < len(self.s):
            ch = self.s[self.i]
            if ch.isdigit():
                digits.append((ch, self.i))
                self.i += 1
                continue
            if ch in "mpszf":
                if not digits:
                    raise ParseError(self.col(), f'suit letter "{ch}" has no digits before it')
                for d, at in digits:
                    out.append((_make_tile(d, ch, at), at + 1))
                digits = []
                self.i += 1
                continue
            if digits:
                if not (ch in "jx" or ch.isspace() or ch in stop or ch in "[]()+|"):
                    raise ParseError(self.col(), f'unexpected character "{ch}"')
                d0 = digits[0][1]
                run = "".join(d for d, _ in digits)
                raise ParseError(d0 + 1, f'"{run}" has no suit letter (m, p, s, z or f)')
            if ch in "jx":
                out.append((JOKER if ch == "j" else UNKNOWN, self.i + 1))
                self.i += 1
                continue
            if ch.isspace():
                self.i += 1
                continue
            if ch in stop:
                return out
            raise ParseError(self.col(), f'unexpected character "{ch}"')
        if digits:
            d0 = digits[0][1]
            run = "".join(d for d, _ in digits)
            raise ParseError(d0 + 1, f'"{run}" has no suit letter (m, p, s, z or f)')
        return out


def _make_tile(d: str, suit: str, at: int) -> Tile:
    n = int(d)
    if suit in "mps":
        if n == 0:
            return TILES[42 + "mps".index(suit)]
        return TILES["mps".index(suit) * 9 + n - 1]
    if suit == "z":
        if not 1 <= n <= 7:
            raise ParseError(at + 1, _tile_error(d, suit))
        return TILES[26 + n]
    if not 1 <= n <= 8:
        raise ParseError(at + 1, _tile_error(d, suit))
    return TILES[33 + n]


def parse_tiles(text: str) -> list[Tile]:
    """A plain run of tiles (no melds), e.g. ``"123m456p j 7z"``."""
    sc = _Scanner(text)
    got = sc.tiles(stop="")
    return [t for t, _ in got]


def parse_hand(text: str) -> Hand:
    """Parse a hand; raises :class:`ParseError` for any syntax error."""
    if not isinstance(text, str):
        raise ParseError(1, "a hand must be a string")
    sc = _Scanner(text)
    concealed: list[Tile] = []
    melds: list[Meld] = []
    winning: Tile | None = None
    flowers: list[Tile] = []
    stage = 0  # 0: tiles and melds, 1: after "+", 2: after "|"
    while True:
        got = sc.tiles(stop="[]()+|")
        ch = sc.peek()
        if stage == 0:
            concealed.extend(t for t, _ in got)
        elif stage == 1:
            if got:
                if winning is not None or len(got) > 1:
                    col = got[1][1] if winning is None else got[0][1]
                    raise ParseError(col, "only one winning tile may follow \"+\"")
                winning = got[0][0]
        else:
            for t, col in got:
                if not t.is_flower:
                    raise ParseError(col, f'"{t}" after "|" is not a flower (flowers and seasons are 1f-8f)')
                flowers.append(t)
        if ch == "":
            break
        start = sc.i
        if ch == "[":
            if stage != 0:
                raise ParseError(sc.col(), "melds must come before the winning tile and flowers")
            melds.append(_parse_meld(sc))
            continue
        if ch == "+":
            if stage != 0:
                raise ParseError(sc.col(), 'a second "+" (only one winning tile)' if stage == 1 else '"+" after "|"')
            stage = 1
            sc.i += 1
            continue
        if ch == "|":
            if stage == 1 and winning is None:
                raise ParseError(sc.col(), '"+" must be followed by the winning tile')
            if stage == 2:
                raise ParseError(sc.col(), 'a second "|"')
            stage = 2
            sc.i += 1
            continue
        if ch == "]":
            raise ParseError(sc.col(start), '"]" without "["')
        raise ParseError(sc.col(start), f'"{ch}" outside a meld')
    if stage == 1 and winning is None:
        raise ParseError(len(text) + 1, '"+" must be followed by the winning tile')
    return Hand(tuple(concealed), tuple(melds), winning, tuple(flowers))


def _parse_meld(sc: _Scanner) -> Meld:
    open_col = sc.col()
    sc.i += 1  # "["
    sc.skip_ws()
    concealed = False
    if sc.peek() == "(":
        concealed = True
        sc.i += 1
    got = sc.tiles(stop="()+]")
    sc.skip_ws()
    if concealed:
        if sc.peek() != ")":
            raise ParseError(sc.col(), '"(" in a meld must be closed by ")" before "]"')
        sc.i += 1
        sc.skip_ws()
    elif sc.peek() == ")":
        raise ParseError(sc.col(), '")" without "("')
    added = False
    if sc.peek() == "+":
        if concealed:
            raise ParseError(sc.col(), "a concealed kong cannot be an added kong")
        added = True
        sc.i += 1
        sc.skip_ws()
    if sc.peek() != "]":
        if sc.peek() == "":
            raise ParseError(open_col, '"[" is never closed by "]"')
        raise ParseError(sc.col(), f'unexpected "{sc.peek()}" in a meld')
    sc.i += 1
    try:
        return Meld.build([t for t, _ in got], concealed=concealed, added=added)
    except ValueError as exc:
        raise ParseError(open_col, str(exc)) from None
