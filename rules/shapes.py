"""Hand shapes: win checks and every decomposition, waits, shanten.

Everything works on 34-way count vectors (``rules.tiles.counts34``) of the *concealed* tiles; declared
melds are fixed and passed as a count (``n_melds``). The engine is table-driven: each of the four tile
groups (m, p, s, honours) is looked up by its count tuple in per-group caches filled on first use —

* the group's decompositions into sets and at most one pair,
* its completion state (complete without a pair / with one pair / incomplete),
* the tiles that complete it when added (``waits``),
* its Pareto-best (sets, partial sets) counts for shanten.

A hand-level question then costs four dictionary look-ups instead of a search.

Shapes: ``REGULAR`` (four sets and a pair, minus declared melds), ``SEVEN_PAIRS``, ``THIRTEEN_ORPHANS``
and the MCR special shapes ``KNITTED`` (knitted straight + one set + pair, 003 fan 35) and
``HONORS_KNITTED`` (lesser/greater honours and knitted tiles, 003 fans 34/20). A profile says which
shapes it allows and whether four identical tiles count as two pairs in seven pairs (000 §2.6.1).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from itertools import permutations

from rules.tiles import CHOW, N_KINDS, PUNG, TERMINALS_AND_HONORS

_GROUP_OFFSETS = (0, 9, 18, 27)


class Shape(StrEnum):
    REGULAR = "regular"
    SEVEN_PAIRS = "seven_pairs"
    THIRTEEN_ORPHANS = "thirteen_orphans"
    KNITTED = "knitted_straight"  # 147/258/369 in three suits + one set + a pair (MCR)
    HONORS_KNITTED = "honors_and_knitted"  # 14 singles of knitted tiles and honours (MCR)


STANDARD_SHAPES = frozenset({Shape.REGULAR, Shape.SEVEN_PAIRS, Shape.THIRTEEN_ORPHANS})
ALL_SHAPES = frozenset(Shape)


@dataclass(frozen=True)
class Decomposition:
    """One way to read a complete concealed part.

    ``sets``: ``("chow", first_kind)`` / ``("pung", kind)`` tuples of the concealed part (declared melds
    are not repeated here), sorted; ``pair``: the pair's kind (None for thirteen orphans' doubled tile
    that is given as ``pair`` too, and for honours-and-knitted); ``pairs``: the seven pairs' kinds
    (a quad counted as two pairs appears twice); ``knitted``: the knitted straight's suit order as
    three suit indexes (knitted shapes).
    """

    shape: Shape
    sets: tuple[tuple[str, int], ...] = ()
    pair: int | None = None
    pairs: tuple[int, ...] = ()
    knitted: tuple[int, ...] = ()


# ----------------------------------------------------------------------------------------------------------
# Per-group tables


@cache
def group_decompositions(key: tuple[int, ...]) -> tuple[tuple[int, tuple[tuple[str, int], ...]], ...]:
    """All splits of one group's counts into sets and at most one pair: ``(pair_pos or -1, sets)``.

    A 7-long key is the honour group (no chows); positions are relative to the group.
    """
    honors = len(key) == 7
    n = len(key)
    c = list(key)
    out: set[tuple[int, tuple[tuple[str, int], ...]]] = set()
    sets: list[tuple[str, int]] = []

    def rec(i: int, pair: int) -> None:
        while i < n and c[i] == 0:
            i += 1
        if i == n:
            out.add((pair, tuple(sorted(sets))))
            return
        if c[i] >= 3:
            c[i] -= 3
            sets.append((PUNG, i))
            rec(i, pair)
            sets.pop()
            c[i] += 3
        if not honors and i <= n - 3 and c[i + 1] and c[i + 2]:
            c[i] -= 1
            c[i + 1] -= 1
            c[i + 2] -= 1
            sets.append((CHOW, i))
            rec(i, pair)
            sets.pop()
            c[i] += 1
            c[i + 1] += 1
            c[i + 2] += 1
        if pair < 0 and c[i] >= 2:
            c[i] -= 2
            rec(i, i)
            c[i] += 2

    if sum(key) % 3 != 1:
        rec(0, -1)
    return tuple(sorted(out))


NOPAIR, WITHPAIR, BROKEN = 0, 1, 2


@cache
def group_state(key: tuple[int, ...]) -> int:
    """NOPAIR (sets only), WITHPAIR (sets and one pair) or BROKEN."""
    total = sum(key)
    if total == 0:
        return NOPAIR
    r = total % 3
    if r == 1:
        return BROKEN
    if len(key) == 7:  # honours: pungs only, so every count is 0 or 3 except at most one pair
        if any(x == 1 or x == 4 for x in key):
            return BROKEN
        pairs = key.count(2)
        if pairs == 0:
            return NOPAIR
        return WITHPAIR if pairs == 1 else BROKEN
    want = -1 if r == 0 else 0
    for pair, _ in group_decompositions(key):
        if (pair < 0) == (want < 0):
            return NOPAIR if r == 0 else WITHPAIR
    return BROKEN


@cache
def group_wait_masks(key: tuple[int, ...]) -> tuple[int, int]:
    """Bit masks of positions whose addition makes the group NOPAIR-complete / WITHPAIR-complete."""
    m0 = m1 = 0
    lst = list(key)
    for p in range(len(key)):
        if lst[p] >= 4:
            continue
        lst[p] += 1
        st = group_state(tuple(lst))
        lst[p] -= 1
        if st == NOPAIR:
            m0 |= 1 << p
        elif st == WITHPAIR:
            m1 |= 1 << p
    return m0, m1


def _groups(c: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    return (tuple(c[0:9]), tuple(c[9:18]), tuple(c[18:27]), tuple(c[27:34]))


# ----------------------------------------------------------------------------------------------------------
# Win checks


def is_regular_win(c: Sequence[int]) -> bool:
    """Sets and exactly one pair (the declared melds are not in ``c``)."""
    pairs = 0
    for g in _groups(c):
        st = group_state(g)
        if st == BROKEN:
            return False
        pairs += st
    return pairs == 1


def is_seven_pairs(c: Sequence[int], quads_as_two_pairs: bool = False) -> bool:
    if sum(c) != 14:
        return False
    if quads_as_two_pairs:
        return all(x % 2 == 0 for x in c)
    return all(x in (0, 2) for x in c)


def is_thirteen_orphans(c: Sequence[int]) -> bool:
    if sum(c) != 14:
        return False
    doubled = 0
    for k in range(N_KINDS):
        x = c[k]
        if k in _TH_SET:
            if x == 0 or x > 2:
                return False
            doubled += x == 2
        elif x:
            return False
    return doubled == 1


_TH_SET = frozenset(TERMINALS_AND_HONORS)
def _knitted_tiles(perm: tuple[int, ...]) -> tuple[int, ...]:
    """The nine tiles of a knitted straight: suit perm[0] has 1-4-7, perm[1] 2-5-8, perm[2] 3-6-9."""
    return tuple(s * 9 + j + 3 * i for j, s in enumerate(perm) for i in range(3))


KNITTED_STRAIGHTS: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...] = tuple(
    (perm, _knitted_tiles(perm)) for perm in permutations(range(3))
)


def knitted_decompositions(c: Sequence[int], n_melds: int = 0) -> list[Decomposition]:
    """Knitted straight (9 tiles) + one set + a pair (003 fan 35 as a winning shape); with the set
    declared (``n_melds`` = 1) the concealed part is the knitted tiles and the pair."""
    if n_melds > 1 or sum(c) != 14 - 3 * n_melds:
        return []
    out = []
    for perm, tiles in KNITTED_STRAIGHTS:
        if all(c[t] for t in tiles):
            rest = list(c)
            for t in tiles:
                rest[t] -= 1
            for d in regular_decompositions(rest):
                out.append(Decomposition(Shape.KNITTED, d.sets, d.pair, knitted=perm))
    return out


def honors_knitted_decomposition(c: Sequence[int]) -> Decomposition | None:
    """Fourteen single tiles: honours and tiles of one knitted pattern (lesser/greater honours and knitted)."""
    if sum(c) != 14 or any(x > 1 for x in c):
        return None
    for perm, tiles in KNITTED_STRAIGHTS:
        allowed = set(tiles) | set(range(27, 34))
        if all(k in allowed for k in range(N_KINDS) if c[k]):
            return Decomposition(Shape.HONORS_KNITTED, knitted=perm)
    return None


def regular_decompositions(c: Sequence[int]) -> list[Decomposition]:
    """Every split of the concealed counts into sets plus exactly one pair."""
    per_group = []
    pairs = 0
    for gi, g in enumerate(_groups(c)):
        st = group_state(g)
        if st == BROKEN:
            return []
        pairs += st
        off = _GROUP_OFFSETS[gi]
        want_pair = st == WITHPAIR
        opts = [
            (p + off if p >= 0 else -1, tuple((kind, b + off) for kind, b in sets))
            for p, sets in group_decompositions(g)
            if (p >= 0) == want_pair
        ]
        per_group.append(opts)
    if pairs != 1:
        return []
    out: list[tuple[tuple[tuple[str, int], ...], int]] = [((), -1)]
    for opts in per_group:
        out = [(sets + s2, p2 if p2 >= 0 else p) for sets, p in out for p2, s2 in opts]
    return [Decomposition(Shape.REGULAR, tuple(sorted(s)), p) for s, p in out]


def decompositions(
    c: Sequence[int],
    n_melds: int = 0,
    shapes: Iterable[Shape] = STANDARD_SHAPES,
    quads_as_two_pairs: bool = False,
) -> list[Decomposition]:
    """Every way the concealed counts ``c`` (with ``n_melds`` declared sets) complete a winning hand."""
    shapes = frozenset(shapes)
    out: list[Decomposition] = []
    if Shape.REGULAR in shapes:
        out.extend(regular_decompositions(c))
    if n_melds == 0:
        if Shape.SEVEN_PAIRS in shapes and is_seven_pairs(c, quads_as_two_pairs):
            pairs = tuple(k for k in range(N_KINDS) for _ in range(c[k] // 2))
            out.append(Decomposition(Shape.SEVEN_PAIRS, pairs=pairs))
        if Shape.THIRTEEN_ORPHANS in shapes and is_thirteen_orphans(c):
            doubled = next(k for k in TERMINALS_AND_HONORS if c[k] == 2)
            out.append(Decomposition(Shape.THIRTEEN_ORPHANS, pair=doubled))
        if Shape.HONORS_KNITTED in shapes:
            d = honors_knitted_decomposition(c)
            if d:
                out.append(d)
    if Shape.KNITTED in shapes and n_melds <= 1:
        out.extend(knitted_decompositions(c, n_melds))
    return out


def is_win(
    c: Sequence[int],
    n_melds: int = 0,
    shapes: Iterable[Shape] = STANDARD_SHAPES,
    quads_as_two_pairs: bool = False,
) -> bool:
    shapes = shapes if isinstance(shapes, frozenset) else frozenset(shapes)
    if Shape.REGULAR in shapes and is_regular_win(c):
        return True
    if n_melds == 0:
        if Shape.SEVEN_PAIRS in shapes and is_seven_pairs(c, quads_as_two_pairs):
            return True
        if Shape.THIRTEEN_ORPHANS in shapes and is_thirteen_orphans(c):
            return True
        if Shape.HONORS_KNITTED in shapes and honors_knitted_decomposition(c) is not None:
            return True
    if Shape.KNITTED in shapes and n_melds <= 1:
        return bool(knitted_decompositions(c, n_melds))
    return False


# ----------------------------------------------------------------------------------------------------------
# Waits


def regular_waits_mask(c: Sequence[int]) -> int:
    """Bit mask over the 34 kinds: adding that tile makes a regular win (concealed count stays ≤ 4)."""
    gs = _groups(c)
    states = [group_state(g) for g in gs]
    broken = states.count(BROKEN)
    if broken > 1:
        return 0
    mask = 0
    total_pairs = sum(s for s in states if s != BROKEN)
    for gi in range(4):
        st = states[gi]
        if broken and st != BROKEN:
            continue
        other_pairs = total_pairs - (st if st != BROKEN else 0)
        if other_pairs > 1:
            continue
        m0, m1 = group_wait_masks(gs[gi])
        m = m1 if other_pairs == 0 else m0
        if m:
            mask |= m << _GROUP_OFFSETS[gi]
    return mask


def waits(
    c: Sequence[int],
    n_melds: int = 0,
    shapes: Iterable[Shape] = STANDARD_SHAPES,
    quads_as_two_pairs: bool = False,
) -> list[int]:
    """Kinds that complete the concealed counts ``c``.

    A kind of which ``c`` already holds four is never a wait (it cannot be drawn into the concealed
    part); a profile that also excludes kinds whose copies are all visible elsewhere filters further.
    """
    shapes = shapes if isinstance(shapes, frozenset) else frozenset(shapes)
    mask = regular_waits_mask(c) if Shape.REGULAR in shapes else 0
    if n_melds == 0 and sum(c) == 13:
        if Shape.SEVEN_PAIRS in shapes:
            mask |= _seven_pairs_waits_mask(c, quads_as_two_pairs)
        if Shape.THIRTEEN_ORPHANS in shapes:
            mask |= _thirteen_orphans_waits_mask(c)
    special = shapes & {Shape.KNITTED, Shape.HONORS_KNITTED}
    if special:
        for k in waits_by_trial(c, lambda lst: is_win(lst, n_melds, special)):
            mask |= 1 << k
    return [k for k in range(N_KINDS) if mask >> k & 1]


def waits_by_trial(c: Sequence[int], complete: Callable[[list[int]], bool]) -> list[int]:
    """Kinds whose addition to ``c`` makes ``complete`` true, trying each kind once (a kind ``c`` holds
    four of is skipped: no fifth copy can be drawn). For shapes without a table (jokers, special hands)."""
    out = []
    lst = list(c)
    for k in range(N_KINDS):
        if lst[k] >= 4:
            continue
        lst[k] += 1
        if complete(lst):
            out.append(k)
        lst[k] -= 1
    return out


def _seven_pairs_waits_mask(c: Sequence[int], quads_as_two_pairs: bool) -> int:
    odd = [k for k in range(N_KINDS) if c[k] % 2]
    if len(odd) != 1:
        return 0
    k = odd[0]
    if quads_as_two_pairs:
        return 1 << k if c[k] < 4 else 0
    if c[k] != 1 or any(x not in (0, 2) for i, x in enumerate(c) if i != k):
        return 0
    return 1 << k


def _thirteen_orphans_waits_mask(c: Sequence[int]) -> int:
    if any(c[k] for k in range(N_KINDS) if k not in _TH_SET):
        return 0
    missing = [k for k in TERMINALS_AND_HONORS if c[k] == 0]
    doubled = [k for k in TERMINALS_AND_HONORS if c[k] >= 2]
    if any(c[k] > 2 for k in TERMINALS_AND_HONORS):
        return 0
    if not missing and not doubled:
        m = 0
        for k in TERMINALS_AND_HONORS:
            m |= 1 << k
        return m
    if len(missing) == 1 and len(doubled) == 1:
        return 1 << missing[0]
    return 0


# ----------------------------------------------------------------------------------------------------------
# Shanten


def _pareto_triples(items: set[tuple[int, int, int]]) -> frozenset[tuple[int, int, int]]:
    return frozenset(
        p for p in items if not any(q != p and q[0] >= p[0] and q[1] >= p[1] and q[2] >= p[2] for q in items)
    )


@cache
def _suffix_blocks(s: tuple[int, ...], honors: bool) -> frozenset[tuple[int, int, int]]:
    """Pareto (sets, partial sets, head) triples of a group's counts from its first non-zero position.

    The first tile is a pung, the first tile of a chow, a pair (partial set or the head), the first tile
    of a partial chow (adjacent or gapped), or isolated; the rest is the same question on a shorter
    suffix, so suffixes shared by many groups are solved once. Dropping a dominated triple is safe: a
    head pair can always be counted as a partial set instead.
    """
    i = 0
    n = len(s)
    while i < n and s[i] == 0:
        i += 1
    if i == n:
        return frozenset({(0, 0, 0)})
    if i:
        return _suffix_blocks(s[i:], honors)
    out: set[tuple[int, int, int]] = set()
    c = list(s)

    def take(dm: int, dt: int, dh: int, *dec: tuple[int, int]) -> None:
        for j, k in dec:
            c[j] -= k
        for m, t, h in _suffix_blocks(tuple(c), honors):
            if h + dh <= 1:
                out.add((m + dm, t + dt, h + dh))
        for j, k in dec:
            c[j] += k

    if c[0] >= 3:
        take(1, 0, 0, (0, 3))
    if not honors and n >= 3 and c[1] and c[2]:
        take(1, 0, 0, (0, 1), (1, 1), (2, 1))
    if c[0] >= 2:
        take(0, 1, 0, (0, 2))  # a pair as a partial set
        take(0, 0, 1, (0, 2))  # a pair as the head
    if not honors:
        if n >= 2 and c[1]:
            take(0, 1, 0, (0, 1), (1, 1))
        if n >= 3 and c[2]:
            take(0, 1, 0, (0, 1), (2, 1))
    take(0, 0, 0, (0, 1))  # isolated
    return _pareto_triples(out)


@cache
def group_blocks(key: tuple[int, ...]) -> tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]:
    """Pareto-best (sets, partial sets) counts for one group: (without a head pair, with a head pair)."""
    triples = _suffix_blocks(tuple(key), len(key) == 7)

    def pareto(s: set[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
        return tuple(sorted(p for p in s if not any(q != p and q[0] >= p[0] and q[1] >= p[1] for q in s)))

    return pareto({(m, t) for m, t, h in triples if h == 0}), pareto({(m, t) for m, t, h in triples if h == 1})


# Group summaries for shanten, interned as small ints: a summary id indexes _TRIPLES (its Pareto
# (sets, partial sets capped at 4 - sets, head) triples) and SUMMARY_VALUES (its shanten for 0..4 declared
# melds). A hand's regular shanten is then three cached combinations of its four groups' summaries.
_IDS: dict[tuple[tuple[int, int, int], ...], int] = {}
_TRIPLES: list[tuple[tuple[int, int, int], ...]] = []
SUMMARY_VALUES: list[tuple[int, ...]] = []
_SUMMARY: dict[tuple[int, ...], int] = {}
_COMBINED: dict[int, int] = {}
_REMOVALS: dict[tuple[int, ...], tuple[int, ...]] = {}


def _pareto3(items: set[tuple[int, int, int]]) -> tuple[tuple[int, int, int], ...]:
    return tuple(sorted(p for p in items if not any(
        q != p and q[0] >= p[0] and q[1] >= p[1] and q[2] >= p[2] for q in items)))


def _intern(triples: tuple[tuple[int, int, int], ...]) -> int:
    i = _IDS.get(triples)
    if i is None:
        i = _IDS[triples] = len(_TRIPLES)
        _TRIPLES.append(triples)
        vals = []
        for n_melds in range(5):
            best = 8
            for m, t, h in triples:
                m += n_melds
                best = min(best, 8 - 2 * m - min(t, max(0, 4 - m)) - h)
            vals.append(best)
        SUMMARY_VALUES.append(tuple(vals))
    return i


def group_summary(key: tuple[int, ...]) -> int:
    """The interned shanten summary of one group's counts (built from :func:`group_blocks`)."""
    s = _SUMMARY.get(key)
    if s is None:
        no_head, with_head = group_blocks(key)
        items = {(m, min(t, max(0, 4 - m)), 0) for m, t in no_head} | {
            (m, min(t, max(0, 4 - m)), 1) for m, t in with_head
        }
        s = _SUMMARY[key] = _intern(_pareto3(items))
    return s


def group_removals(key: tuple[int, ...]) -> tuple[int, ...]:
    """The group's summary after removing one tile at each position (-1 where there is none)."""
    r = _REMOVALS.get(key)
    if r is None:
        subs = []
        for i, n in enumerate(key):
            if n:
                k2 = list(key)
                k2[i] -= 1
                subs.append(group_summary(tuple(k2)))
            else:
                subs.append(-1)
        r = _REMOVALS[key] = tuple(subs)
    return r


def combine_summaries(a: int, b: int) -> int:
    """The summary of two groups together (cached)."""
    k = a * 1_000_003 + b
    r = _COMBINED.get(k)
    if r is None:
        items = set()
        for m1, t1, h1 in _TRIPLES[a]:
            for m2, t2, h2 in _TRIPLES[b]:
                if h1 + h2 > 1:
                    continue
                m = m1 + m2
                items.add((m, min(t1 + t2, max(0, 4 - m)), h1 + h2))
        r = _COMBINED[k] = _intern(_pareto3(items))
    return r


def summary_shanten(summary: int, n_melds: int = 0) -> int:
    return SUMMARY_VALUES[summary][n_melds] if n_melds <= 4 else 8


def regular_shanten(c: Sequence[int], n_melds: int = 0) -> int:
    """Regular-shape shanten (-1 = complete) of concealed counts with ``n_melds`` declared sets."""
    a = combine_summaries(group_summary(tuple(c[0:9])), group_summary(tuple(c[9:18])))
    b = combine_summaries(group_summary(tuple(c[18:27])), group_summary(tuple(c[27:34])))
    return summary_shanten(combine_summaries(a, b), n_melds)


def seven_pairs_shanten(c: Sequence[int], quads_as_two_pairs: bool = False) -> int:
    if quads_as_two_pairs:
        pairs = sum(x // 2 for x in c)
        return 6 - min(7, pairs)
    pairs = sum(1 for x in c if x >= 2)
    kinds = sum(1 for x in c if x)
    return 6 - pairs + max(0, 7 - kinds)


def thirteen_orphans_shanten(c: Sequence[int]) -> int:
    kinds = sum(1 for k in TERMINALS_AND_HONORS if c[k])
    pair = any(c[k] >= 2 for k in TERMINALS_AND_HONORS)
    return 13 - kinds - (1 if pair else 0)


def shanten(
    c: Sequence[int],
    n_melds: int = 0,
    shapes: Iterable[Shape] = STANDARD_SHAPES,
    quads_as_two_pairs: bool = False,
) -> int:
    """Tiles away from tenpai (0 = tenpai, -1 = complete), minimum over the allowed shapes.

    The MCR knitted shapes are not counted here (their shanten is the profile's concern).
    """
    shapes = shapes if isinstance(shapes, frozenset) else frozenset(shapes)
    best = regular_shanten(c, n_melds) if Shape.REGULAR in shapes else 8
    if n_melds == 0:
        if Shape.SEVEN_PAIRS in shapes:
            best = min(best, seven_pairs_shanten(c, quads_as_two_pairs))
        if Shape.THIRTEEN_ORPHANS in shapes:
            best = min(best, thirteen_orphans_shanten(c))
    return best
