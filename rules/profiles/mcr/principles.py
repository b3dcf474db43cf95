"""The combination principles of 003 §Подсчёт 1e, implemented once.

1. Non-repeat («не повторения»): a fan that a counted fan implies is not counted — :func:`apply_exclusions`
   walks the fans from the highest value down and drops every fan a kept fan excludes (fan table data).
2. Non-separation («не разделения»): sets used by a 4-set (or 3-set) combination fan are not re-split into
   smaller combination fans among themselves — :func:`group_fans`.
3. Non-identical («не идентичности»): a set used for a fan is not used again for the same fan with other
   sets — in :func:`_pairs_fans`, no set takes part in two 2-set fans of one name.
4. High versus low («большее против меньшего»): every reading is scored and the best kept
   (``scorer.score_readings``); within a reading every choice below takes the highest value.
5. Account-once («одноразового подсчёта»): a set not yet used combines with a used set only once —
   after a 3-set fan the fourth set adds at most one 2-set fan; 2-set fans form a forest over the sets
   (n sets in c connected groups give at most n − c fans).

The kong-count and concealed-pung fans follow spec §6.2 step 6 (one kong-count fan, one concealed-pung
fan; concealed kongs are concealed pungs), with the seed/GB options of ``options.py``.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations

from rules.profiles.mcr import fans as F
from rules.profiles.mcr.fan_table import BY_NO
from rules.profiles.mcr.options import MCROptions
from rules.profiles.mcr.reading import Reading

_VALUE = {no: f.value for no, f in BY_NO.items()}
_ORDER = {no: i for i, no in enumerate(sorted(BY_NO, key=lambda x: (-_VALUE[x], x)))}  # highest first


def _best_of(table: F.GroupTable, group: tuple[int, ...]) -> int | None:
    """The highest-valued fan of ``table`` (a family of group units) that this group forms (None if none)."""
    best = None
    for no, pred in table:
        if pred(group) and (best is None or (_VALUE[no], -no) > (_VALUE[best], -best)):
            best = no
    return best


def _pairs_fans(items: tuple[int, ...], table: F.GroupTable) -> tuple[int, ...]:
    """2-set fans among ``items``: the largest edge set that is a forest (account-once) in which no set
    takes part in two fans of the same name (non-identical)."""
    edges = []
    for i, j in combinations(range(len(items)), 2):
        no = _best_of(table, (items[i], items[j]))
        if no is not None:
            edges.append((i, j, no))
    if not edges:
        return ()
    best: tuple[int, ...] = ()
    best_val = -1
    n = len(items)
    for size in range(min(len(edges), n - 1), 0, -1):
        for chosen in combinations(edges, size):
            if not _forest(chosen, n):
                continue
            seen = set()
            ok = True
            for i, j, no in chosen:
                if (i, no) in seen or (j, no) in seen:
                    ok = False
                    break
                seen.add((i, no))
                seen.add((j, no))
            if not ok:
                continue
            val = sum(_VALUE[no] for _, _, no in chosen)
            nos = tuple(sorted(no for _, _, no in chosen))
            if val > best_val or (val == best_val and nos < best):  # ties: the lower-numbered fans
                best, best_val = nos, val
        if best_val >= 0:
            break
    return best


def _forest(edges: Sequence[tuple[int, int, int]], n: int) -> bool:
    parent = list(range(n))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for i, j, _ in edges:
        a, b = find(i), find(j)
        if a == b:
            return False
        parent[a] = b
    return True


def _group_fans(items: tuple[int, ...], t4: F.GroupTable, t3: F.GroupTable, t2: F.GroupTable,
                pair: int | None, with_pair: bool) -> tuple[int, ...]:
    n = len(items)
    if n == 4:
        no = _best_of(t4, items + (-1 if pair is None else pair,) if with_pair else items)
        if no is not None:  # non-separation: nothing else among the four
            return (no,)
    if n >= 3:
        best: tuple[int, ...] = ()
        best_val = 0
        for trio in combinations(range(n), 3):
            no = _best_of(t3, tuple(items[i] for i in trio))
            if no is None:
                continue
            got = [no]
            rest = [i for i in range(n) if i not in trio]
            if rest:  # the free set may combine with one used set, once (account-once)
                found = [_best_of(t2, tuple(sorted((items[rest[0]], items[i])))) for i in trio]
                extra = [e for e in found if e is not None]
                if extra:
                    got.append(max(extra, key=lambda x: (_VALUE[x], -x)))
            val = sum(_VALUE[x] for x in got)
            if val > best_val:
                best, best_val = tuple(got), val
        if best:
            return best
    return _pairs_fans(items, t2)


@lru_cache(maxsize=65536)
def chow_fans(chows: tuple[int, ...], pair: int | None) -> tuple[int, ...]:
    """Chow-combination fans of a reading's chows (003 §Алгоритм: chow-3 and chow-2 groups together)."""
    if len(chows) < 2:
        return ()
    return _group_fans(chows, F.CHOWS_4, F.CHOWS_3, F.CHOWS_2, pair, True)


@lru_cache(maxsize=65536)
def pung_fans(pungs: tuple[int, ...]) -> tuple[int, ...]:
    """Pung-combination fans of a reading's suited pungs (spec §6.2 step 4)."""
    if len(pungs) < 2:
        return ()
    return _group_fans(pungs, F.PUNGS_4, F.PUNGS_3, F.PUNGS_2, None, False)


def kong_fans(r: Reading, opts: MCROptions) -> list[int]:
    """One kong-count fan and one concealed-pung fan (spec §6.2 step 6; 003 #5 #17 #48 #57 #67 #74)."""
    km = sum(1 for s in r.sets if s.kong in ("open", "added"))
    kc = sum(1 for s in r.sets if s.kong == "concealed")
    cp = sum(1 for s in r.sets if s.kind == "pung" and s.concealed)
    out: list[int] = []
    n = km + kc
    if n == 1:
        out.append(74 if km else 67)
    elif n == 2:
        if kc == 0:
            out.append(57)
        elif kc == 1:
            # 003 #57: «Один открытый конг и один закрытый конг дают 6 очков»; GB: 1 + 2
            out.extend((57, 67) if opts.kong_pairs == "seed" else (157,))
        else:
            out.append(48)
    elif n == 3:
        out.append(17)
    elif n == 4:
        out.append(5)
    if cp >= 2:
        out.append({2: 66, 3: 33, 4: 12}[cp])
    return out


def exclusion_table(opts: MCROptions) -> dict[int, frozenset[int]]:
    """Fan number -> the fans it excludes: the fan table's, adjusted by the options (spec §12)."""
    table = {no: set(f.all_excludes) for no, f in BY_NO.items()}
    if not opts.all_green_half_flush:  # A9
        table[3].add(50)
    if not opts.special_fully_concealed:  # A10
        for no in (4, 6, 7, 12, 19, 20, 34):
            table[no].add(56)
    if opts.robbing_kong_single_wait:  # A14
        table[47].discard(79)
    if opts.knitted_straight_concealed_hand:  # A11
        table[35].discard(62)
    if not opts.all_terminals_double_pung:  # A22
        table[8].add(65)
    if opts.nine_gates_terminal_pungs:  # A15: GB drops only the 111/999 pung (scorer.fans_of)
        table[4].discard(73)
    return {no: frozenset(v) for no, v in table.items()}


def apply_exclusions(raw: Counter[int], excl: dict[int, frozenset[int]]) -> Counter[int]:
    """Principle 1: from the highest fan down, keep a fan unless a kept fan excludes it."""
    kept: Counter[int] = Counter()
    banned: set[int] = set()
    for no in sorted(raw, key=_ORDER.__getitem__):
        if raw[no] <= 0 or no in banned:
            continue
        kept[no] = raw[no]
        banned |= excl[no]
    return kept
