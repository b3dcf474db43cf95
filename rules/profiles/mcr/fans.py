"""One small detector per fan, found by its number (names in ``fan_table``): each is a
:class:`rules.units.Unit` of :data:`HAND_UNITS` or :data:`GROUP_UNITS`.

Three families:

* whole-hand detectors ``fn(reading) -> count`` (:data:`HAND_UNITS`: tile properties, honour pungs, special shapes,
  win situation, waits);
* ``CHOWS_2/3/4`` and ``PUNGS_2/3/4`` — predicates on a group of chows (first kinds) or suited pungs
  (kinds), sorted, as one tuple; which groups may be counted together is decided once, by the combination
  principles in ``principles.py`` (003 §Подсчёт 1e(2), (3), (5));
* the kong-count and concealed-pung fans, also in ``principles.py`` (spec §6.2 step 6).

The scorer and the principles call the units through the tables at the end of this module, made from the
registries (``Unit.group``: the scope or family). Kinds are 0..33 (``rules.tiles``): suit = kind // 9,
rank index = kind % 9 (0 = a "1").
"""
from __future__ import annotations

from collections.abc import Callable, Iterable

from rules.profiles.mcr.fan_table import BY_NO
from rules.profiles.mcr.reading import Reading
from rules.shapes import Shape
from rules.tiles import CHOW, DRAGONS, GREEN, TERMINALS, WINDS
from rules.units import Registry, Unit

Group = tuple[int, ...]  # the sorted kinds of a group of sets (four chows: then the pair, -1 without one)
HandDetector = Callable[[Reading], int]
GroupDetector = Callable[[Group], bool]

# every fan as a :class:`rules.units.Unit`, found by its number (the id is the number's text): whole-hand
# fans over a Reading, group fans over the sorted kinds of a group of sets (and the pair, for four chows).
# ``Unit.group`` says where the scorer calls it. Whole-hand scopes, by what the fan depends on (the first two
# are computed once per hand, not per reading): "tiles" (only which kinds are present, ``_mask``), "hand"
# (the tiles, the melds and the context), "shape" (the special shapes), "sets" (the sets and pair of a
# standard reading). Group families: "chows2", "chows3", "chows4", "pungs2", "pungs3", "pungs4"; which
# groups may be counted together is decided by the combination principles (``principles.py``).
HAND_UNITS: Registry[Reading] = Registry()
GROUP_UNITS: Registry[Group] = Registry()
HAND_SCOPES = ("tiles", "hand", "shape", "sets")
GROUP_FAMILIES = ("chows2", "chows3", "chows4", "pungs2", "pungs3", "pungs4")


def _unit_of(no: int) -> tuple[str, str, str]:
    return str(no), BY_NO[no].name, f"003 #{no}"


def _register(family: str, no: int) -> Callable[[GroupDetector], GroupDetector]:
    """Register a group detector ``fn(group) -> bool`` of one family (see above)."""
    assert family in GROUP_FAMILIES, family

    def deco(fn: GroupDetector) -> GroupDetector:
        GROUP_UNITS.add(Unit(*_unit_of(no), fn, family))
        return fn

    return deco


def hand(no: int, scope: str = "sets") -> Callable[[HandDetector], HandDetector]:
    """Register a whole-hand detector; ``scope``: "tiles", "hand", "shape" or "sets" (see above)."""
    assert scope in HAND_SCOPES, scope

    def deco(fn: HandDetector) -> HandDetector:
        HAND_UNITS.add(Unit(*_unit_of(no), fn, scope))
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


@_register("chows2", 69)
def pure_double_chow(g: Group) -> bool:
    a, b = g
    return a == b


@_register("chows2", 70)
def mixed_double_chow(g: Group) -> bool:
    a, b = g
    return a // 9 != b // 9 and a % 9 == b % 9


@_register("chows2", 71)
def short_straight(g: Group) -> bool:
    a, b = g
    return _same_suit(a, b) and b - a == 3


@_register("chows2", 72)
def two_terminal_chows(g: Group) -> bool:
    a, b = g
    return _same_suit(a, b) and a % 9 == 0 and b % 9 == 6


@_register("chows3", 23)
def pure_triple_chow(g: Group) -> bool:
    a, b, c = g
    return a == b == c


@_register("chows3", 28)
def pure_straight(g: Group) -> bool:
    a, b, c = g
    return _same_suit(a, b, c) and a % 9 == 0 and b - a == 3 and c - b == 3


@_register("chows3", 30)
def pure_shifted_chows(g: Group) -> bool:
    """Starting ranks rising by the same step of 1 or 2 (003 #30 «строго на один или два»)."""
    a, b, c = g
    return _same_suit(a, b, c) and b - a == c - b and b - a in (1, 2)


@_register("chows3", 39)
def mixed_straight(g: Group) -> bool:
    a, b, c = g
    return _three_suits(a, b, c) and sorted(k % 9 for k in (a, b, c)) == [0, 3, 6]


@_register("chows3", 41)
def mixed_triple_chow(g: Group) -> bool:
    a, b, c = g
    return _three_suits(a, b, c) and a % 9 == b % 9 == c % 9


@_register("chows3", 51)
def mixed_shifted_chows(g: Group) -> bool:
    a, b, c = g
    if not _three_suits(a, b, c):
        return False
    r = sorted(k % 9 for k in (a, b, c))
    return r[1] - r[0] == 1 and r[2] - r[1] == 1


@_register("chows4", 14)
def quadruple_chow(g: Group) -> bool:
    a, b, c, d, _ = g
    return a == b == c == d


@_register("chows4", 16)
def four_pure_shifted_chows(g: Group) -> bool:
    a, b, c, d, _ = g
    return _same_suit(a, d) and b - a == c - b == d - c and b - a in (1, 2)


@_register("chows4", 13)
def pure_terminal_chows(g: Group) -> bool:
    a, b, c, d, pair = g
    return (pair >= 0 and _same_suit(a, d) and pair // 9 == a // 9 and pair % 9 == 4
            and a == b and c == d and a % 9 == 0 and c % 9 == 6 and pair < 27)


@_register("chows4", 29)
def three_suited_terminal_chows(g: Group) -> bool:
    a, b, c, d, pair = g
    if pair < 0 or pair >= 27 or pair % 9 != 4:
        return False
    suits = sorted({a // 9, b // 9, c // 9, d // 9})
    if len(suits) != 2 or pair // 9 in suits:
        return False
    return all(sorted(k % 9 for k in (a, b, c, d) if k // 9 == s) == [0, 6] for s in suits)


# ---------------------------------------------------------------------------------------------------------
# Pung groups (sorted suited kinds; honour pungs have their own fans)


@_register("pungs2", 65)
def double_pung(g: Group) -> bool:
    a, b = g
    return a // 9 != b // 9 and a % 9 == b % 9


@_register("pungs3", 24)
def pure_shifted_pungs(g: Group) -> bool:
    a, b, c = g
    return _same_suit(a, b, c) and b - a == 1 and c - b == 1


@_register("pungs3", 32)
def triple_pung(g: Group) -> bool:
    a, b, c = g
    return _three_suits(a, b, c) and a % 9 == b % 9 == c % 9


@_register("pungs3", 42)
def mixed_shifted_pungs(g: Group) -> bool:
    a, b, c = g
    if not _three_suits(a, b, c):
        return False
    r = sorted(k % 9 for k in (a, b, c))
    return r[1] - r[0] == 1 and r[2] - r[1] == 1


@_register("pungs4", 15)
def four_pure_shifted_pungs(g: Group) -> bool:
    a, b, c, d = g
    return _same_suit(a, d) and b - a == c - b == d - c == 1


# ---------------------------------------------------------------------------------------------------------
# What the scorer calls, per scope or family: (fan number, check) of the registry's units, in its order


def _hand_checks(scope: str) -> tuple[tuple[int, HandDetector], ...]:
    return tuple((int(u.id), u.check) for u in HAND_UNITS.group(scope))


def _group_checks(family: str) -> tuple[tuple[int, Callable[[Group], int]], ...]:
    return tuple((int(u.id), u.check) for u in GROUP_UNITS.group(family))


TILE_SCOPE = _hand_checks("tiles")
HAND_SCOPE = _hand_checks("hand")
SHAPE_SCOPE = _hand_checks("shape")
SET_SCOPE = _hand_checks("sets")
GroupTable = tuple[tuple[int, Callable[[Group], int]], ...]
CHOWS_2: GroupTable = _group_checks("chows2")
CHOWS_3: GroupTable = _group_checks("chows3")
CHOWS_4: GroupTable = _group_checks("chows4")  # (a, b, c, d, pair)
PUNGS_2: GroupTable = _group_checks("pungs2")
PUNGS_3: GroupTable = _group_checks("pungs3")
PUNGS_4: GroupTable = _group_checks("pungs4")
