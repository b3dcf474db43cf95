"""One detector per fan of the Red Mahjong fan table (001 «Таблица фанов»; spec §6.2).

Each detector takes an :class:`Arrangement` and the game's :class:`RedOptions` and returns how many times
the fan applies (0 = not at all). Multiplicity follows spec §6.1 / A15: fans defined by a group of sets
count once per distinct group of sets (by position), fan 1 once per flower, the rest at most once. The
``once`` option caps every fan but fan 1 at one.
"""
from __future__ import annotations

from collections.abc import Callable
from itertools import combinations

from rules.profiles.red.arrangement import Arrangement
from rules.profiles.red.options import RedOptions
from rules.tiles import CHOW, DRAGONS, PUNG, RED_DRAGON

Detector = Callable[[Arrangement, RedOptions], int]


def _suit(k: int) -> int:
    """0 m, 1 p, 2 s, 3 winds, 4 dragons."""
    if k < 27:
        return k // 9
    return 3 if k < 31 else 4


def _num(k: int) -> int:
    return k % 9 + 1


def _chows(a: Arrangement) -> list[int]:
    return [b for kind, b in a.sets if kind == CHOW]


def _pungs(a: Arrangement) -> list[int]:
    return [b for kind, b in a.sets if kind == PUNG]


def _regular(a: Arrangement) -> bool:
    return not a.chaotic and len(a.sets) == 4 and a.pair is not None


# -- fan 1 -------------------------------------------------------------------------------------------------
def flower_season(a: Arrangement, o: RedOptions) -> int:
    """#1 3 points for each flower or season the player holds (exposed); also with the chaotic hand."""
    return a.flowers


# -- 3-point fans --------------------------------------------------------------------------------------------
def all_chows(a: Arrangement, o: RedOptions) -> int:
    """#2 all four sets are chows (the pair may be anything)."""
    return int(_regular(a) and len(_chows(a)) == 4)


def mixed_double_chow(a: Arrangement, o: RedOptions) -> int:
    """#3 per two chows with the same numbers in two different suits."""
    return sum(1 for x, y in combinations(_chows(a), 2) if _num(x) == _num(y) and _suit(x) != _suit(y))


def double_pung(a: Arrangement, o: RedOptions) -> int:
    """#4 per two suited pungs of the same number in two different suits."""
    ps = [p for p in _pungs(a) if p < 27]
    return sum(1 for x, y in combinations(ps, 2) if _num(x) == _num(y) and _suit(x) != _suit(y))


def two_terminal_chows(a: Arrangement, o: RedOptions) -> int:
    """#5 per two chows 123 and 789 of one suit."""
    return sum(1 for x, y in combinations(_chows(a), 2) if _suit(x) == _suit(y) and {_num(x), _num(y)} == {1, 7})


def honour_pung(a: Arrangement, o: RedOptions) -> int:
    """#6 per pung of a dragon or of any wind (no seat or round wind in Red Mahjong)."""
    return sum(1 for p in _pungs(a) if p >= 27)


def special_pair(a: Arrangement, o: RedOptions) -> int:
    """#7 the pair is a 2, 5 or 8 of a suit."""
    return int(_regular(a) and a.pair is not None and a.pair < 27 and _num(a.pair) in (2, 5, 8))


# -- 12-point fans -------------------------------------------------------------------------------------------
def all_pungs(a: Arrangement, o: RedOptions) -> int:
    """#8 all four sets are pungs (the pair may be anything)."""
    return int(_regular(a) and len(_pungs(a)) == 4)


def pure_double_chow(a: Arrangement, o: RedOptions) -> int:
    """#9 per two identical chows (same numbers, same suit)."""
    return sum(1 for x, y in combinations(_chows(a), 2) if x == y)


def pure_straight(a: Arrangement, o: RedOptions) -> int:
    """#10 per three chows 123-456-789 of one suit (spec A18; any suits with pure_straight_same_suit off)."""
    cs = _chows(a)
    n = 0
    for x, y, z in combinations(cs, 3):
        if sorted((_num(x), _num(y), _num(z))) != [1, 4, 7]:
            continue
        if o.pure_straight_same_suit and not _suit(x) == _suit(y) == _suit(z):
            continue
        n += 1
    return n


def chaotic_hand(a: Arrangement, o: RedOptions) -> int:
    """#11 the irregular hand: 14 different singles, one suit's tiles at least 3 apart (spec A20)."""
    return int(a.chaotic)


def half_flush(a: Arrangement, o: RedOptions) -> int:
    """#12 every tile is an honour or of one single suit (spec A17: pair included, honours not required)."""
    if not _regular(a):
        return 0
    kinds = a.tile_kinds() if o.half_flush_pair_included else a.tile_kinds()[:12]
    suits = {_suit(k) for k in kinds if k < 27}
    if len(suits) > 1:
        return 0
    if o.half_flush_requires_honour and not any(k >= 27 for k in kinds):
        return 0
    return 1


# -- 16 and more -----------------------------------------------------------------------------------------------
def all_types(a: Arrangement, o: RedOptions) -> int:
    """#13 the sets and the pair cover characters, dots, bamboo, winds and dragons."""
    if not _regular(a):
        return 0
    return int({_suit(b) for _, b in a.units()} == {0, 1, 2, 3, 4})


def lower_five(a: Arrangement, o: RedOptions) -> int:
    """#14 every tile of the sets and the pair is suited, numbered 1 to 5."""
    return int(_regular(a) and all(k < 27 and _num(k) <= 5 for k in a.tile_kinds()))


def upper_five(a: Arrangement, o: RedOptions) -> int:
    """#15 every tile of the sets and the pair is suited, numbered 5 to 9."""
    return int(_regular(a) and all(k < 27 and _num(k) >= 5 for k in a.tile_kinds()))




def red_hand(a: Arrangement, o: RedOptions) -> int:
    """#16 three pungs of characters and a pung of the Red dragon; the pair may be anything."""
    if not _regular(a):
        return 0
    ps = _pungs(a)
    return int(len(ps) == 4 and sum(1 for p in ps if p < 9) == 3 and RED_DRAGON in ps)


def big_three_dragons(a: Arrangement, o: RedOptions) -> int:
    """#17 per group of pungs of White, Green and Red (spec A19: three different dragons)."""
    ps = _pungs(a)
    n = 1
    for d in DRAGONS:
        n *= ps.count(d)
    return n


def full_flush(a: Arrangement, o: RedOptions) -> int:
    """#18 every tile of the sets and the pair is of one suit."""
    if not _regular(a):
        return 0
    suits = {_suit(k) for k in a.tile_kinds()}
    return int(len(suits) == 1 and next(iter(suits)) < 3)
