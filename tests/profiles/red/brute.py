"""Brute-force reference for joker hands (tests and the benchmark baseline only).

Every multiset of joker identities is tried (``combinations_with_replacement`` over the 34 kinds: 34, 595,
7 140, 66 045 assignments for 1..4 jokers); for each, the labelled tiles (natural or joker, each with a
fixed kind) are split into groups by plain recursion, each group holding at least one natural tile when
``require_natural``. It shares no code with ``rules.jokers``; as a speed-up only, an assignment whose
combined counts are not even a plain regular win (``rules.shapes``, exact for counts up to 4) is skipped.
"""
from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations_with_replacement

from rules.shapes import is_regular_win

N = 34


def _chow_ok(k: int) -> bool:
    return k < 27 and k % 9 <= 6


def _readings(nat: list[int], jok: list[int], sets_left: int, pair_left: int, need_nat: bool,
              acc: list[tuple[str, int]], out: set) -> None:
    k = next((i for i in range(N) if nat[i] or jok[i]), -1)
    if k < 0:
        if sets_left == 0 and pair_left == 0:
            sets = tuple(sorted(g for g in acc if g[0] != "pair"))
            pair = next(b for g, b in acc if g == "pair")
            out.add((sets, pair))
        return
    shapes: list[tuple[str, tuple[int, ...]]] = []
    if sets_left:
        shapes.append(("pung", (k, k, k)))
        if _chow_ok(k):
            shapes.append(("chow", (k, k + 1, k + 2)))
    if pair_left:
        shapes.append(("pair", (k, k)))
    for name, kinds in shapes:
        # every way to take each member from the naturals or the jokers
        for mask in range(1 << len(kinds)):
            use_n = [0] * N
            use_j = [0] * N
            for i, t in enumerate(kinds):
                if mask >> i & 1:
                    use_j[t] += 1
                else:
                    use_n[t] += 1
            if any(use_n[t] > nat[t] or use_j[t] > jok[t] for t in set(kinds)):
                continue
            if need_nat and sum(use_n) == 0:
                continue
            for t in set(kinds):
                nat[t] -= use_n[t]
                jok[t] -= use_j[t]
            acc.append((name, k))
            _readings(nat, jok, sets_left - (name != "pair"), pair_left - (name == "pair"), need_nat, acc, out)
            acc.pop()
            for t in set(kinds):
                nat[t] += use_n[t]
                jok[t] += use_j[t]


def readings(c: Sequence[int], jokers: int, n_melds: int = 0, require_natural: bool = True,
             first_only: bool = False) -> set[tuple[tuple[tuple[str, int], ...], int]]:
    """Every (sorted sets, pair) reading over every assignment of the jokers."""
    out: set = set()
    sets_left = 4 - n_melds
    if sum(c) + jokers != 3 * sets_left + 2:
        return out
    for assign in combinations_with_replacement(range(N), jokers):
        jok = [0] * N
        for a in assign:
            jok[a] += 1
        both = [x + y for x, y in zip(c, jok, strict=True)]
        if max(both[27:]) <= 4 and not is_regular_win(both):
            continue
        _readings(list(c), jok, sets_left, 1, require_natural, [], out)
        if first_only and out:
            break
    return out


def is_win(c: Sequence[int], jokers: int, n_melds: int = 0, require_natural: bool = True) -> bool:
    return bool(readings(c, jokers, n_melds, require_natural, first_only=True))
