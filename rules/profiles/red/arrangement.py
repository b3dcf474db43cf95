"""How a Red Mahjong hand is read for scoring: an :class:`Arrangement` of four sets and a pair, or the
chaotic hand; and every arrangement a hand allows, jokers resolved (001 §Подсчёт очков на победной руке 6:
the winner picks the reading; spec §5.2, §5.3).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations

from rules import jokers as jk
from rules.notation import Hand, MeldKind
from rules.shapes import waits_by_trial
from rules.tiles import CHOW, PUNG, counts34


@dataclass(frozen=True)
class Arrangement:
    """One reading of a winning hand.

    ``sets``: four ``(kind, base)`` tuples (declared melds first, then the concealed sets); ``pair``: the
    pair's kind; ``chaotic``: the irregular hand (fan 11; ``sets`` empty, ``pair`` None);
    ``flowers``: exposed flowers and seasons; ``joker_kinds``: what the concealed jokers stand for.
    """

    sets: tuple[tuple[str, int], ...] = ()
    pair: int | None = None
    chaotic: bool = False
    flowers: int = 0
    joker_kinds: tuple[int, ...] = ()

    def units(self) -> list[tuple[str, int]]:
        """The sets and the pair as ``(kind, base)`` (the pair as ``("pair", kind)``)."""
        out = list(self.sets)
        if self.pair is not None:
            out.append(("pair", self.pair))
        return out

    def tile_kinds(self) -> list[int]:
        """The 14 kinds of the sets and the pair (T of spec §6.2)."""
        out: list[int] = []
        for kind, base in self.sets:
            out.extend((base, base + 1, base + 2) if kind == CHOW else (base,) * 3)
        if self.pair is not None:
            out.extend((self.pair, self.pair))
        return out


# ----------------------------------------------------------------------------------------------------------
# The chaotic hand (fan 11): 14 different single tiles; tiles of one suit at least 3 apart (spec A20)

CHAOTIC_GAP = 3


def _valid_numbers(nums: Sequence[int]) -> bool:
    s = sorted(nums)
    return all(b - a >= CHAOTIC_GAP for a, b in zip(s, s[1:], strict=False))


@cache
def _suit_capacity(present: tuple[int, ...]) -> int:
    """Most numbers (1..9) one suit can hold with ``present`` among them, all ``CHAOTIC_GAP`` apart; -1 if none."""
    if not _valid_numbers(present):
        return -1
    best = len(present)
    free = [n for n in range(1, 10) if n not in present]
    for r in range(1, 4):
        for extra in combinations(free, r):
            if _valid_numbers(present + extra):
                best = max(best, len(present) + r)
    return best


def is_chaotic(c: Sequence[int], jokers: int = 0) -> bool:
    """14 single tiles: every honour at most once, each suit's numbers ``CHAOTIC_GAP`` apart; jokers fill
    free places (spec A10: allowed in the chaotic hand)."""
    if sum(c) + jokers != 14 or any(x > 1 for x in c):
        return False
    room = sum(1 for k in range(27, 34) if not c[k])
    for s in range(3):
        present = tuple(n + 1 for n in range(9) if c[s * 9 + n])
        cap = _suit_capacity(present)
        if cap < 0:
            return False
        room += cap - len(present)
    return jokers <= room


# ----------------------------------------------------------------------------------------------------------
# Every arrangement of a hand


def concealed_counts(hand: Hand) -> tuple[list[int], int]:
    """Natural 34-way counts of the concealed tiles with the winning tile, and the number of jokers there."""
    tiles = hand.all_concealed
    return counts34(tiles), sum(1 for t in tiles if t.is_joker)


def meld_sets(hand: Hand) -> list[tuple[str, int]] | None:
    """The declared melds as ``(kind, base)``; None when one has no identity (all jokers) or is a kong."""
    out = []
    for m in hand.melds:
        if m.is_kong or m.base is None:
            return None
        out.append((CHOW if m.kind is MeldKind.CHOW else PUNG, m.base))
    return out


def arrangements(hand: Hand) -> list[Arrangement]:
    """Every distinct reading of ``hand`` (winning tile included) as four sets and a pair, plus the
    chaotic hand when it applies. Empty when the hand is not a winning shape."""
    fixed = meld_sets(hand)
    if fixed is None:
        return []
    c, j = concealed_counts(hand)
    nfl = len(hand.flowers)
    out = []
    for d in jk.regular_decompositions(c, j, len(fixed)):
        sets = tuple(fixed) + tuple((k, b) for k, b in d.sets if b is not None)
        out.append(Arrangement(sets, d.pair, flowers=nfl, joker_kinds=d.joker_kinds))
    if not fixed and is_chaotic(c, j):
        out.append(Arrangement(chaotic=True, flowers=nfl))
    return out


def is_winning_shape(c: Sequence[int], jokers: int, n_melds: int) -> bool:
    """Regular (jokers allowed, each group with a natural tile) or chaotic."""
    if jk.is_regular_win(c, jokers, n_melds):
        return True
    return n_melds == 0 and is_chaotic(c, jokers)


def waits(c: Sequence[int], jokers: int, n_melds: int) -> list[int]:
    """Natural kinds completing a waiting hand (four held naturals of a kind make it no wait)."""
    return waits_by_trial(c, lambda lst: is_winning_shape(lst, jokers, n_melds))
