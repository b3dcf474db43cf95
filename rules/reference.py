"""Slow, obviously-correct reference implementations of the shape questions.

They share no code with ``rules.shapes``: a winning hand is *generated* (a pair plus sets chosen from the
list of every possible set) instead of parsed, and shanten comes from its definition — the distance to
the nearest complete hand. Property tests compare the fast tables with them on random hands, and the
benchmarks use them as the baseline. Not for production use.
"""
from __future__ import annotations

from collections.abc import Sequence

from rules.tiles import N_KINDS, TERMINALS_AND_HONORS

# every possible set as a tuple of kinds
ALL_SETS: tuple[tuple[int, ...], ...] = tuple(
    [(k, k, k) for k in range(N_KINDS)] + [(s * 9 + i, s * 9 + i + 1, s * 9 + i + 2) for s in range(3) for i in range(7)]
)


def _fits(counts: list[int], tiles: tuple[int, ...]) -> bool:
    need: dict[int, int] = {}
    for t in tiles:
        need[t] = need.get(t, 0) + 1
    return all(counts[t] >= n for t, n in need.items())


def _take(counts: list[int], tiles: tuple[int, ...], sign: int) -> None:
    for t in tiles:
        counts[t] -= sign


def ref_regular_win(c: Sequence[int]) -> bool:
    """Can ``c`` be written as one pair plus sets from ALL_SETS (generated, not parsed)?"""
    total = sum(c)
    if total % 3 != 2:
        return False
    k = (total - 2) // 3
    counts = list(c)

    def choose(start: int, left: int) -> bool:
        if left == 0:
            return not any(counts)
        for i in range(start, len(ALL_SETS)):
            s = ALL_SETS[i]
            if _fits(counts, s):
                _take(counts, s, 1)
                ok = choose(i, left - 1)
                _take(counts, s, -1)
                if ok:
                    return True
        return False

    for p in range(N_KINDS):
        if counts[p] >= 2:
            counts[p] -= 2
            ok = choose(0, k)
            counts[p] += 2
            if ok:
                return True
    return False


def ref_seven_pairs(c: Sequence[int], quads_as_two_pairs: bool = False) -> bool:
    pairs = [k for k in range(N_KINDS) for _ in range(c[k] // 2)] if quads_as_two_pairs else [
        k for k in range(N_KINDS) if c[k] == 2
    ]
    return sum(c) == 14 and len(pairs) == 7 and sum(2 for _ in pairs) == 14


def ref_thirteen_orphans(c: Sequence[int]) -> bool:
    th = set(TERMINALS_AND_HONORS)
    return (
        sum(c) == 14
        and all(c[k] >= 1 for k in th)
        and all(c[k] == 0 for k in range(N_KINDS) if k not in th)
        and sum(c[k] for k in th) == 14
    )


def ref_win(c: Sequence[int], n_melds: int = 0, quads_as_two_pairs: bool = False) -> bool:
    if ref_regular_win(c):
        return True
    return n_melds == 0 and (ref_seven_pairs(c, quads_as_two_pairs) or ref_thirteen_orphans(c))


def ref_waits(c: Sequence[int], n_melds: int = 0, quads_as_two_pairs: bool = False) -> list[int]:
    """Try every kind (at most four copies in the concealed part)."""
    out = []
    lst = list(c)
    for k in range(N_KINDS):
        if lst[k] >= 4:
            continue
        lst[k] += 1
        if ref_win(lst, n_melds, quads_as_two_pairs):
            out.append(k)
        lst[k] -= 1
    return out


def _max_overlap_regular(c: Sequence[int], n_sets: int) -> int:
    """Max over (pair + n_sets sets) of the tiles it shares with ``c`` (tile availability ignored)."""
    counts = list(c)
    best = 0
    useful = [s for s in ALL_SETS if any(c[t] for t in s)]

    def gain(s: tuple[int, ...]) -> int:
        g = 0
        seen: dict[int, int] = {}
        for t in s:
            seen[t] = seen.get(t, 0) + 1
        for t, n in seen.items():
            g += min(n, max(counts[t], 0))
        return g

    def choose(start: int, left: int, got: int) -> None:
        nonlocal best
        if got + 3 * left <= best:
            return
        if got > best:
            best = got
        if left == 0:
            return
        for i in range(start, len(useful)):
            s = useful[i]
            g = gain(s)
            if g == 0:
                continue
            _take(counts, s, 1)
            choose(i, left - 1, got + g)
            _take(counts, s, -1)

    for p in range(N_KINDS):
        g = min(counts[p], 2)
        counts[p] -= 2
        choose(0, n_sets, g)
        counts[p] += 2
    return best


def ref_shanten(c: Sequence[int], n_melds: int = 0, quads_as_two_pairs: bool = False) -> int:
    """Shanten by definition: (tiles of a complete hand) - 1 - (most tiles ``c`` shares with one)."""
    target = 14 - 3 * n_melds
    best = target - 1 - _max_overlap_regular(c, 4 - n_melds)
    if n_melds == 0:
        if quads_as_two_pairs:  # seven pair slots, a kind may fill two
            full = min(7, sum(x // 2 for x in c))
            overlap = 2 * full + min(7 - full, sum(1 for x in c if x % 2))
        else:  # seven distinct kinds
            overlap = sum(sorted((min(x, 2) for x in c), reverse=True)[:7])
        best = min(best, 13 - overlap)
        th = TERMINALS_AND_HONORS
        overlap13 = sum(1 for k in th if c[k]) + (1 if any(c[k] >= 2 for k in th) else 0)
        best = min(best, 13 - overlap13)
    return best


def ref_regular_decompositions(c: Sequence[int]) -> set[tuple[int, tuple[tuple[str, int], ...]]]:
    """Every (pair, sorted sets) that generates exactly ``c``; sets as ("chow"|"pung", first kind)."""
    total = sum(c)
    out: set[tuple[int, tuple[tuple[str, int], ...]]] = set()
    if total % 3 != 2:
        return out
    k = (total - 2) // 3
    counts = list(c)
    chosen: list[tuple[int, ...]] = []

    def choose(start: int, left: int, pair: int) -> None:
        if left == 0:
            if not any(counts):
                sets = tuple(sorted(("pung" if s[0] == s[1] else "chow", s[0]) for s in chosen))
                out.add((pair, sets))
            return
        for i in range(start, len(ALL_SETS)):
            s = ALL_SETS[i]
            if _fits(counts, s):
                _take(counts, s, 1)
                chosen.append(s)
                choose(i, left - 1, pair)
                chosen.pop()
                _take(counts, s, -1)

    for p in range(N_KINDS):
        if counts[p] >= 2:
            counts[p] -= 2
            choose(0, k, p)
            counts[p] += 2
    return out
