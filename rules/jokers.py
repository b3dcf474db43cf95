"""Joker-aware hand shapes: win checks, decompositions and waits for hands holding wildcards (``j``).

Profile-agnostic and pure. A joker stands for any one of the 34 playing kinds, with no copy limit
(001 §Джокеры 1; spec red A10). The concealed part is given as a 34-way count vector of its *natural*
tiles plus the number of jokers; declared melds are fixed and passed as ``n_melds``, as in
:mod:`rules.shapes`.

``require_natural`` (default on, 001 §Джокеры 3) demands at least one natural tile in every set and in
the pair: no all-joker chow, pung or pair. Off, the jokers left over once every natural tile is placed
may form whole groups on their own ("free" groups, whose identity is any; reported with ``None``).

The search never enumerates joker assignments. It takes the lowest natural tile left, which must belong
to some group, and branches on that group: a pung or a pair of its kind (jokers filling missing copies)
or a chow in which it is the lowest natural member (jokers filling the positions below it, and any
position above it — a natural tile above may also be kept for another group). Every joker therefore
receives its identity from the group it fills. Sub-problems are memoised on (counts, jokers, sets
left, pair left), and a joker-free remainder goes to the table-driven :func:`rules.shapes.is_regular_win`.
Cost grows with the number of groups and the handful of branches per natural tile, not with ``34**k``.

The win check is table-driven on top of that search: a group (one suit or the honours) can only be
completed in a few ways — so many sets, a pair or not, so many jokers — and that list is cached per
group's counts; a hand-level check combines the four lists.
"""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

from rules.shapes import NOPAIR, group_state, waits_by_trial
from rules.shapes import is_regular_win as _natural_regular_win
from rules.tiles import CHOW, N_KINDS, PUNG

PAIR = "pair"

@dataclass(frozen=True)
class JokerDecomposition:
    """One reading of a complete concealed part with jokers.

    ``sets``: ``("chow", first_kind)`` / ``("pung", kind)`` of the concealed part, sorted (``None`` as the
    kind of a free all-joker set); ``pair``: the pair's kind (``None`` for a free all-joker pair);
    ``joker_kinds``: the kinds the jokers stand for in this reading, sorted (free groups' jokers omitted).
    """

    sets: tuple[tuple[str, int | None], ...]
    pair: int | None
    joker_kinds: tuple[int, ...] = ()


def _suit_bounds(k: int) -> tuple[int, int] | None:
    """(first, last) kind of k's suit, or None for an honour (no chows)."""
    if k >= 27:
        return None
    lo = k - k % 9
    return lo, lo + 8


def _group_options(c: list[int], k: int, jokers: int, sets_left: int, pair_left: int) -> Iterator[
    tuple[str, int, tuple[int, ...], tuple[int, ...]]
]:
    """Groups holding the lowest natural tile ``k``: (group kind, base, natural kinds used, joker kinds).

    Each option is yielded once; the caller removes the naturals and ``len(joker kinds)`` jokers.
    """
    have = c[k]
    if sets_left:
        for nat in range(min(3, have), 0, -1):  # pung: 1..3 naturals of k, jokers for the rest
            need = 3 - nat
            if need <= jokers:
                yield PUNG, k, (k,) * nat, (k,) * need
    if pair_left:
        for nat in range(min(2, have), 0, -1):
            need = 2 - nat
            if need <= jokers:
                yield PAIR, k, (k,) * nat, (k,) * need
    if not sets_left:
        return
    bounds = _suit_bounds(k)
    if bounds is None:
        return
    lo, hi = bounds
    for b in (k - 2, k - 1, k):
        if b < lo or b + 2 > hi:
            continue
        below = tuple(range(b, k))  # no natural below k is left: these are jokers
        if len(below) > jokers:
            continue
        above = [p for p in range(k + 1, b + 3)]
        # each position above k: a natural (if any) or a joker
        for mask in range(1 << len(above)):
            naturals = [k]
            wild = list(below)
            ok = True
            for i, p in enumerate(above):
                if mask >> i & 1:
                    wild.append(p)
                elif c[p] > 0:
                    naturals.append(p)
                else:
                    ok = False
                    break
            if ok and len(wild) <= jokers:
                yield CHOW, b, tuple(naturals), tuple(wild)


_GROUP_SLICES = ((0, 9), (9, 18), (18, 27), (27, 34))


def _first(c: Sequence[int]) -> int:
    for k in range(N_KINDS):
        if c[k]:
            return k
    return -1


@lru_cache(maxsize=1 << 16)
def _win(key: tuple[int, ...], jokers: int, sets_left: int, pair_left: int, require_natural: bool) -> bool:
    if jokers == 0:  # no wildcard left: the table-driven natural check
        if sum(key) != 3 * sets_left + 2 * pair_left:
            return False
        if pair_left:
            return _natural_regular_win(key)
        return all(group_state(key[a:b]) == NOPAIR for a, b in _GROUP_SLICES)
    c = list(key)
    k = _first(c)
    if k < 0:
        return not require_natural and jokers == 3 * sets_left + 2 * pair_left
    for kind, _base, nat, jk in _group_options(c, k, jokers, sets_left, pair_left):
        for t in nat:
            c[t] -= 1
        ok = _win(
            tuple(c),
            jokers - len(jk),
            sets_left - (kind != PAIR),
            pair_left - (kind == PAIR),
            require_natural,
        )
        for t in nat:
            c[t] += 1
        if ok:
            return True
    return False


@lru_cache(maxsize=1 << 14)
def _group_table(key: tuple[int, ...], offset: int, max_jokers: int) -> tuple[tuple[int, int, int], ...]:
    """What one tile group (a suit's 9 counts or the 7 honours) can become: every ``(sets, pair, jokers)``
    such that its natural tiles plus ``jokers`` wildcards (≤ ``max_jokers``) split into ``sets`` sets and
    ``pair`` (0/1) pairs, each group holding a natural tile. Filled on first use, like ``rules.shapes``'
    per-group tables."""
    n = sum(key)
    if n == 0:
        return ((0, 0, 0),)
    vec = [0] * N_KINDS
    vec[offset:offset + len(key)] = key
    full = tuple(vec)
    out = []
    for pair in (0, 1):
        for sets in range(0, n - pair + 1):  # every group needs a natural: sets + pair <= n
            j = 3 * sets + 2 * pair - n
            if 0 <= j <= max_jokers and _win(full, j, sets, pair, True):
                out.append((sets, pair, j))
    return tuple(out)


def is_regular_win(c: Sequence[int], jokers: int, n_melds: int = 0, require_natural: bool = True) -> bool:
    """Do the natural counts ``c`` plus ``jokers`` wildcards make (4 − n_melds) sets and one pair?

    Table-driven: each group's options come from :func:`_group_table` (cached per group), then a tiny
    combination over the four groups; without ``require_natural`` the jokers left over may form whole
    groups on their own.
    """
    sets_left = 4 - n_melds
    if sets_left < 0 or jokers < 0:
        return False
    if sum(c) + jokers != 3 * sets_left + 2:
        return False
    if jokers == 0:
        return _natural_regular_win(c)
    reach = {(0, 0, 0)}
    for a, b in _GROUP_SLICES:
        opts = _group_table(tuple(c[a:b]), a, jokers)
        if not opts:
            return False
        reach = {
            (s + s2, p + p2, j + j2)
            for s, p, j in reach
            for s2, p2, j2 in opts
            if s + s2 <= sets_left and p + p2 <= 1 and j + j2 <= jokers
        }
        if not reach:
            return False
    for s, p, j in reach:
        free_sets, free_pair, free_j = sets_left - s, 1 - p, jokers - j
        if free_sets == 0 and free_pair == 0:
            return True  # (free_j is 0: the tile count matches)
        if not require_natural and free_j == 3 * free_sets + 2 * free_pair:
            return True
    return False


def regular_decompositions(
    c: Sequence[int], jokers: int, n_melds: int = 0, require_natural: bool = True
) -> list[JokerDecomposition]:
    """Every distinct reading of the concealed part as sets and one pair, jokers resolved by their groups."""
    sets_left = 4 - n_melds
    if sets_left < 0 or jokers < 0 or sum(c) + jokers != 3 * sets_left + 2:
        return []
    if not is_regular_win(c, jokers, n_melds, require_natural):
        return []
    out: set[JokerDecomposition] = set()
    groups: list[tuple[str, int | None]] = []
    jkinds: list[int] = []
    cc = list(c)

    def rec(j: int, s_left: int, p_left: int) -> None:
        k = _first(cc)
        if k < 0:
            if j == 3 * s_left + 2 * p_left and (j == 0 or not require_natural):
                sets = [g for g in groups if g[0] != PAIR] + [(PUNG, None)] * s_left
                pair = next((b for g, b in groups if g == PAIR), None)
                key = tuple(sorted(sets, key=lambda s: (s[0], -1 if s[1] is None else s[1])))
                out.add(JokerDecomposition(key, pair, tuple(sorted(jkinds))))
            return
        if not _win(tuple(cc), j, s_left, p_left, require_natural):
            return
        for kind, base, nat, jk in _group_options(cc, k, j, s_left, p_left):
            for t in nat:
                cc[t] -= 1
            groups.append((kind, base))
            jkinds.extend(jk)
            rec(j - len(jk), s_left - (kind != PAIR), p_left - (kind == PAIR))
            del jkinds[len(jkinds) - len(jk):]
            groups.pop()
            for t in nat:
                cc[t] += 1

    rec(jokers, sets_left, 1)
    return sorted(out, key=lambda d: (str(d.sets), -1 if d.pair is None else d.pair, d.joker_kinds))


def waits(
    c: Sequence[int], jokers: int, n_melds: int = 0, require_natural: bool = True
) -> list[int]:
    """Natural kinds that complete the waiting concealed part ``c`` + ``jokers`` (a regular hand).

    A kind of which ``c`` already holds four naturals is not a wait (it cannot be drawn).
    """
    return waits_by_trial(c, lambda lst: is_regular_win(lst, jokers, n_melds, require_natural))


def joker_completes(c: Sequence[int], jokers: int, n_melds: int = 0, require_natural: bool = True) -> bool:
    """Does one more joker complete the waiting concealed part (001 §Джокеры 5, fn9)?"""
    return is_regular_win(c, jokers + 1, n_melds, require_natural)


def cache_clear() -> None:
    """Drop the memo and the per-group tables (benchmarks use it to time cold look-ups)."""
    _win.cache_clear()
    _group_table.cache_clear()
