"""One small detector per fan, found by its number (names in ``fan_table``).

Three families:

* ``HAND`` — whole-hand detectors ``fn(reading) -> count`` (tile properties, honour pungs, special shapes,
  win situation, waits);
* ``CHOWS_2/3/4`` and ``PUNGS_2/3/4`` — predicates on a group of chows (first kinds) or suited pungs
  (kinds), sorted; which groups may be counted together is decided once, by the combination principles
  in ``principles.py`` (003 §Подсчёт 1e(2), (3), (5));
* the kong-count and concealed-pung fans, also in ``principles.py`` (spec §6.2 step 6).

Kinds are 0..33 (``rules.tiles``): suit = kind // 9, rank index = kind % 9 (0 = a "1").
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

from rules.profiles.mcr.reading import Reading
from rules.shapes import Shape
from rules.tiles import CHOW, DRAGONS, GREEN, TERMINALS, WINDS

HAND: dict[int, Callable[[Reading], int]] = {}  # every whole-hand detector, by fan number
# by what they depend on (for speed: the first two are computed once per hand, not per reading)
TILE_SCOPE: dict[int, Callable[[Reading], int]] = {}  # only which kinds are present (``_mask``)
HAND_SCOPE: dict[int, Callable[[Reading], int]] = {}  # the tiles, the melds and the context only
SHAPE_SCOPE: dict[int, Callable[[Reading], int]] = {}  # the special shapes
SET_SCOPE: dict[int, Callable[[Reading], int]] = {}  # the sets and pair of a standard reading
CHOWS_2: dict[int, Callable[..., bool]] = {}
CHOWS_3: dict[int, Callable[..., bool]] = {}
CHOWS_4: dict[int, Callable[..., bool]] = {}  # (a, b, c, d, pair)
PUNGS_2: dict[int, Callable[..., bool]] = {}
PUNGS_3: dict[int, Callable[..., bool]] = {}
PUNGS_4: dict[int, Callable[..., bool]] = {}


Group = TypeVar("Group", bound=Callable[..., bool])
HandDetector = Callable[[Reading], int]


def _register(table: dict[int, Callable[..., bool]], no: int) -> Callable[[Group], Group]:
    def deco(fn: Group) -> Group:
        table[no] = fn
        return fn

    return deco


def hand(no: int, scope: str = "sets") -> Callable[[HandDetector], HandDetector]:
    """Register a whole-hand detector; ``scope``: "tiles", "hand", "shape" or "sets" (see above)."""
    table = {"tiles": TILE_SCOPE, "hand": HAND_SCOPE, "shape": SHAPE_SCOPE, "sets": SET_SCOPE}[scope]

    def deco(fn: HandDetector) -> HandDetector:
        HAND[no] = fn
        table[no] = fn
        return fn

    return deco


REVERSIBLE = frozenset({9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 31})  # 003 #40
GREEN_BITS = sum(1 << k for k in GREEN)
REVERSIBLE_BITS = sum(1 << k for k in REVERSIBLE)
TERMINAL_BITS = sum(1 << k for k in TERMINALS)
STANDARD = (Shape.REGULAR, Shape.KNITTED)


def _bits(kinds: Iterable[int]) -> int:
    m = 0
    for k in kinds:
        m |= 1 << k
    return m


HONOR_BITS = _bits(range(27, 34))
WIND_BITS = _bits(range(27, 31))
DRAGON_BITS = _bits(range(31, 34))
SUIT_BITS = (_bits(range(0, 9)), _bits(range(9, 18)), _bits(range(18, 27)))
_RANGE_BITS: dict[tuple[int, int], int] = {}


def _range_bits(lo: int, hi: int) -> int:
    got = _RANGE_BITS.get((lo, hi))
    if got is None:
        got = _RANGE_BITS[(lo, hi)] = _bits(k for k in range(27) if lo <= k % 9 <= hi)
    return got


def _kinds(r: Reading) -> list[int]:
    got = r.cache.get("kinds")
    if got is None:
        got = [k for k in range(34) if r.counts[k]]
        r.cache["kinds"] = got
    return got


def _mask(r: Reading) -> int:
    """The kinds present as a 34-bit mask (shared by the readings of a hand)."""
    got = r.cache.get("mask")
    if got is None:
        got = r.cache["mask"] = _bits(_kinds(r))
    return got


def mask_of(r: Reading) -> int:
    return _mask(r)


def _suits(r: Reading) -> set[int]:
    m = _mask(r)
    return {i for i in range(3) if m & SUIT_BITS[i]}


def _has_honor(r: Reading) -> bool:
    return bool(_mask(r) & HONOR_BITS)


def _only(r: Reading, allowed: int) -> bool:
    return not _mask(r) & ~allowed


def _suited_ranks_within(r: Reading, lo: int, hi: int) -> bool:
    """Every tile suited with rank index in lo..hi (no honors)."""
    return _only(r, _range_bits(lo, hi))


def _pung_kinds(r: Reading) -> list[int]:
    return r.pungs


def _wind_pungs(r: Reading) -> list[int]:
    return r.wind_pungs


def _dragon_pungs(r: Reading) -> list[int]:
    return r.dragon_pungs


# ---------------------------------------------------------------------------------------------------------
# Special hands (003 §Как собрать 2b/2c)


@hand(4)
def nine_gates(r: Reading) -> int:
    """1112345678999 of one suit concealed before the win; the winning tile any tile of that suit."""
    if r.shape is not Shape.REGULAR or r.sets and any(s.claimed or s.kong for s in r.sets) or r.n_concealed != 13:
        return 0
    suits = _suits(r)
    if len(suits) != 1 or _has_honor(r):
        return 0
    s = suits.pop() * 9
    before = list(r.counts[s:s + 9])
    before[r.win - s] -= 1
    return int(before == [3, 1, 1, 1, 1, 1, 1, 1, 3])


@hand(6, "shape")
def seven_shifted_pairs(r: Reading) -> int:
    if r.shape is not Shape.SEVEN_PAIRS:
        return 0
    ks = _kinds(r)
    return int(len(ks) == 7 and ks[-1] < 27 and ks[-1] - ks[0] == 6 and ks[0] // 9 == ks[-1] // 9)


@hand(7, "shape")
def thirteen_orphans(r: Reading) -> int:
    return int(r.shape is Shape.THIRTEEN_ORPHANS)


@hand(19, "shape")
def seven_pairs(r: Reading) -> int:
    return int(r.shape is Shape.SEVEN_PAIRS)


@hand(20, "shape")
def greater_honors_and_knitted(r: Reading) -> int:
    return int(r.shape is Shape.HONORS_KNITTED and all(r.counts[k] for k in range(27, 34)))


@hand(34, "shape")
def lesser_honors_and_knitted(r: Reading) -> int:
    return int(r.shape is Shape.HONORS_KNITTED and not all(r.counts[k] for k in range(27, 34)))


@hand(35, "shape")
def knitted_straight(r: Reading) -> int:
    """Structure 003 §Как собрать 2a (knitted + set + pair), or all nine knitted tiles in #34/#20."""
    if r.shape is Shape.KNITTED:
        return 1
    if r.shape is Shape.HONORS_KNITTED:
        perm = r.knitted
        return int(all(r.counts[perm[j] * 9 + j + 3 * i] for j in range(3) for i in range(3)))
    return 0


# ---------------------------------------------------------------------------------------------------------
# Honour pungs


@hand(1)
def big_four_winds(r: Reading) -> int:
    return int(len(_wind_pungs(r)) == 4)


@hand(2)
def big_three_dragons(r: Reading) -> int:
    return int(len(_dragon_pungs(r)) == 3)


@hand(9)
def little_four_winds(r: Reading) -> int:
    return int(len(_wind_pungs(r)) == 3 and r.pair in WINDS)


@hand(10)
def little_three_dragons(r: Reading) -> int:
    return int(len(_dragon_pungs(r)) == 2 and r.pair in DRAGONS)


@hand(38)
def big_three_winds(r: Reading) -> int:
    return int(len(_wind_pungs(r)) == 3)


@hand(54)
def two_dragon_pungs(r: Reading) -> int:
    return int(len(_dragon_pungs(r)) == 2)


@hand(59)
def dragon_pung(r: Reading) -> int:
    return len(_dragon_pungs(r))


@hand(60)
def prevalent_wind(r: Reading) -> int:
    return int(r.ctx.round_wind in _wind_pungs(r))


@hand(61)
def seat_wind(r: Reading) -> int:
    return int(r.ctx.seat_wind in _wind_pungs(r))


@hand(73)
def pung_of_terminals_or_honors(r: Reading) -> int:
    """Per pung of 1, 9 or a cold wind (003 #73); the three wind pungs of #38/#9 are used by that fan."""
    winds = _wind_pungs(r)
    cold = [k for k in winds if k not in (r.ctx.seat_wind, r.ctx.round_wind)]
    n = sum(1 for k in _pung_kinds(r) if k in TERMINALS)
    if len(winds) < 3:
        n += len(cold)
    return n


# ---------------------------------------------------------------------------------------------------------
# Tile properties (apply to Seven Pairs too, spec §6.2 step 9)


@hand(3, "tiles")
def all_green(r: Reading) -> int:
    return int(_only(r, GREEN_BITS))


@hand(8, "tiles")
def all_terminals(r: Reading) -> int:
    return int(_only(r, TERMINAL_BITS))


@hand(11, "tiles")
def all_honors(r: Reading) -> int:
    return int(_only(r, HONOR_BITS))


@hand(18, "tiles")
def all_terminals_and_honors(r: Reading) -> int:
    m = _mask(r)
    return int(_only(r, TERMINAL_BITS | HONOR_BITS) and bool(m & TERMINAL_BITS) and bool(m & HONOR_BITS))


@hand(22, "tiles")
def full_flush(r: Reading) -> int:
    return int(len(_suits(r)) == 1 and not _has_honor(r))


@hand(50, "tiles")
def half_flush(r: Reading) -> int:
    return int(len(_suits(r)) == 1 and _has_honor(r))


@hand(25, "tiles")
def upper_tiles(r: Reading) -> int:
    return int(_suited_ranks_within(r, 6, 8))


@hand(26, "tiles")
def middle_tiles(r: Reading) -> int:
    return int(_suited_ranks_within(r, 3, 5))


@hand(27, "tiles")
def lower_tiles(r: Reading) -> int:
    return int(_suited_ranks_within(r, 0, 2))


@hand(36, "tiles")
def upper_four(r: Reading) -> int:
    return int(_suited_ranks_within(r, 5, 8))


@hand(37, "tiles")
def lower_four(r: Reading) -> int:
    return int(_suited_ranks_within(r, 0, 3))


@hand(40, "tiles")
def reversible_tiles(r: Reading) -> int:
    return int(_only(r, REVERSIBLE_BITS))


@hand(52, "tiles")
def all_types(r: Reading) -> int:
    m = _mask(r)
    return int(len(_suits(r)) == 3 and bool(m & WIND_BITS) and bool(m & DRAGON_BITS))


@hand(64, "hand")
def tile_hog(r: Reading) -> int:
    kongs = {s.base for s in r.sets if s.kong}
    return sum(1 for k in _kinds(r) if r.counts[k] == 4 and k not in kongs)


@hand(68, "tiles")
def all_simples(r: Reading) -> int:
    return int(_suited_ranks_within(r, 1, 7))


@hand(75, "tiles")
def one_voided_suit(r: Reading) -> int:
    return int(len(_suits(r)) == 2)


@hand(76, "tiles")
def no_honors(r: Reading) -> int:
    return int(not _has_honor(r))


# ---------------------------------------------------------------------------------------------------------
# Set properties (standard structures only)


def _groups(r: Reading) -> list[tuple[str, int]]:
    return [(s.kind, s.base) for s in r.sets]


@hand(21)
def all_even_pungs(r: Reading) -> int:
    if r.shape is not Shape.REGULAR or len(_pung_kinds(r)) != 4 or r.pair is None:
        return 0
    return int(all(k < 27 and k % 9 in (1, 3, 5, 7) for k in _pung_kinds(r) + [r.pair]))


@hand(31)
def all_fives(r: Reading) -> int:
    if r.shape is not Shape.REGULAR or r.pair is None:
        return 0
    ok = r.pair < 27 and r.pair % 9 == 4
    for kind, b in _groups(r):
        if b >= 27:
            return 0
        if kind == CHOW:
            ok = ok and 2 <= b % 9 <= 4
        else:
            ok = ok and b % 9 == 4
    return int(ok)


@hand(49)
def all_pungs(r: Reading) -> int:
    return int(r.shape is Shape.REGULAR and len(_pung_kinds(r)) == 4)


@hand(55)
def outside_hand(r: Reading) -> int:
    if r.shape is not Shape.REGULAR or r.pair is None:
        return 0
    if not (r.pair >= 27 or r.pair in TERMINALS):
        return 0
    for kind, b in _groups(r):
        if kind == CHOW:
            if b % 9 not in (0, 6):
                return 0
        elif not (b >= 27 or b in TERMINALS):
            return 0
    return 1


@hand(63)
def all_chows(r: Reading) -> int:
    """Four chows and a suited pair; the knitted triples count as chows (003 #35 example 2)."""
    if r.shape not in STANDARD or r.pair is None or r.pair >= 27:
        return 0
    n_needed = 4 if r.shape is Shape.REGULAR else 1
    return int(len(r.chows) == n_needed and len(r.sets) == n_needed)


# ---------------------------------------------------------------------------------------------------------
# How the hand was won (003 §Как собрать 2d, fans 44-47, 53, 56, 58, 62, 80)


@hand(44, "hand")
def last_tile_draw(r: Reading) -> int:
    return int(r.ctx.last_tile and r.ctx.self_drawn)


@hand(45, "hand")
def last_tile_claim(r: Reading) -> int:
    return int(r.ctx.last_tile and not r.ctx.self_drawn)


@hand(46, "hand")
def out_with_replacement_tile(r: Reading) -> int:
    """Not when the winning tile replaced a flower (003 #81)."""
    return int(r.ctx.kong_replacement and r.ctx.self_drawn and not r.ctx.flower_replacement)


@hand(47, "hand")
def robbing_the_kong(r: Reading) -> int:
    return int(r.ctx.robbing_kong)


@hand(53, "hand")
def melded_hand(r: Reading) -> int:
    """Four sets claimed from discards (a concealed kong is not), won on a discard (003 #53)."""
    claimed = sum(1 for s in r.sets if s.claimed)
    return int(claimed == 4 and r.n_concealed == 1 and not r.ctx.self_drawn)


@hand(56, "hand")
def fully_concealed_hand(r: Reading) -> int:
    return int(r.closed and r.ctx.self_drawn)


@hand(58, "hand")
def last_tile(r: Reading) -> int:
    return int(r.last_of_kind)


@hand(62, "hand")
def concealed_hand(r: Reading) -> int:
    return int(r.closed and not r.ctx.self_drawn)


@hand(80, "hand")
def self_drawn(r: Reading) -> int:
    return int(r.ctx.self_drawn)


# Wait fans: only when the 13-tile hand waited on one kind; at most one of the three (spec §12 A2).
@hand(77)
def edge_wait(r: Reading) -> int:
    return int(bool(r.wait_position & 1))


@hand(78)
def closed_wait(r: Reading) -> int:
    return int(bool(r.wait_position & 2) and not r.wait_position & 1)


@hand(79)
def single_wait(r: Reading) -> int:
    return int(bool(r.wait_position & 4) and not r.wait_position & 3)


# ---------------------------------------------------------------------------------------------------------
# Chow groups (sorted first kinds)


def _same_suit(*ks: int) -> bool:
    return len({k // 9 for k in ks}) == 1


def _three_suits(*ks: int) -> bool:
    return len({k // 9 for k in ks}) == 3


@_register(CHOWS_2, 69)
def pure_double_chow(a: int, b: int) -> bool:
    return a == b


@_register(CHOWS_2, 70)
def mixed_double_chow(a: int, b: int) -> bool:
    return a // 9 != b // 9 and a % 9 == b % 9


@_register(CHOWS_2, 71)
def short_straight(a: int, b: int) -> bool:
    return _same_suit(a, b) and b - a == 3


@_register(CHOWS_2, 72)
def two_terminal_chows(a: int, b: int) -> bool:
    return _same_suit(a, b) and a % 9 == 0 and b % 9 == 6


@_register(CHOWS_3, 23)
def pure_triple_chow(a: int, b: int, c: int) -> bool:
    return a == b == c


@_register(CHOWS_3, 28)
def pure_straight(a: int, b: int, c: int) -> bool:
    return _same_suit(a, b, c) and a % 9 == 0 and b - a == 3 and c - b == 3


@_register(CHOWS_3, 30)
def pure_shifted_chows(a: int, b: int, c: int) -> bool:
    """Starting ranks rising by the same step of 1 or 2 (003 #30 «строго на один или два»)."""
    return _same_suit(a, b, c) and b - a == c - b and b - a in (1, 2)


@_register(CHOWS_3, 39)
def mixed_straight(a: int, b: int, c: int) -> bool:
    return _three_suits(a, b, c) and sorted(k % 9 for k in (a, b, c)) == [0, 3, 6]


@_register(CHOWS_3, 41)
def mixed_triple_chow(a: int, b: int, c: int) -> bool:
    return _three_suits(a, b, c) and a % 9 == b % 9 == c % 9


@_register(CHOWS_3, 51)
def mixed_shifted_chows(a: int, b: int, c: int) -> bool:
    if not _three_suits(a, b, c):
        return False
    r = sorted(k % 9 for k in (a, b, c))
    return r[1] - r[0] == 1 and r[2] - r[1] == 1


@_register(CHOWS_4, 14)
def quadruple_chow(a: int, b: int, c: int, d: int, pair: int | None) -> bool:
    return a == b == c == d


@_register(CHOWS_4, 16)
def four_pure_shifted_chows(a: int, b: int, c: int, d: int, pair: int | None) -> bool:
    return _same_suit(a, d) and b - a == c - b == d - c and b - a in (1, 2)


@_register(CHOWS_4, 13)
def pure_terminal_chows(a: int, b: int, c: int, d: int, pair: int | None) -> bool:
    return (pair is not None and _same_suit(a, d) and pair // 9 == a // 9 and pair % 9 == 4
            and a == b and c == d and a % 9 == 0 and c % 9 == 6 and pair < 27)


@_register(CHOWS_4, 29)
def three_suited_terminal_chows(a: int, b: int, c: int, d: int, pair: int | None) -> bool:
    if pair is None or pair >= 27 or pair % 9 != 4:
        return False
    suits = sorted({a // 9, b // 9, c // 9, d // 9})
    if len(suits) != 2 or pair // 9 in suits:
        return False
    return all(sorted(k % 9 for k in (a, b, c, d) if k // 9 == s) == [0, 6] for s in suits)


# ---------------------------------------------------------------------------------------------------------
# Pung groups (sorted suited kinds; honour pungs have their own fans)


@_register(PUNGS_2, 65)
def double_pung(a: int, b: int) -> bool:
    return a // 9 != b // 9 and a % 9 == b % 9


@_register(PUNGS_3, 24)
def pure_shifted_pungs(a: int, b: int, c: int) -> bool:
    return _same_suit(a, b, c) and b - a == 1 and c - b == 1


@_register(PUNGS_3, 32)
def triple_pung(a: int, b: int, c: int) -> bool:
    return _three_suits(a, b, c) and a % 9 == b % 9 == c % 9


@_register(PUNGS_3, 42)
def mixed_shifted_pungs(a: int, b: int, c: int) -> bool:
    if not _three_suits(a, b, c):
        return False
    r = sorted(k % 9 for k in (a, b, c))
    return r[1] - r[0] == 1 and r[2] - r[1] == 1


@_register(PUNGS_4, 15)
def four_pure_shifted_pungs(a: int, b: int, c: int, d: int) -> bool:
    return _same_suit(a, d) and b - a == c - b == d - c == 1
