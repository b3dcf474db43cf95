"""Hypothesis strategies for hands."""
from __future__ import annotations

from hypothesis import strategies as st

from rules.tiles import N_KINDS


@st.composite
def concealed_counts(draw, size: int = 13, kinds: int = N_KINDS, max_kinds_span: int | None = None):
    """A random 34-count vector of ``size`` tiles, at most four of a kind.

    Tiles are drawn from a random window of kinds so that sets and waits are common (uniform random hands
    are almost never tenpai and would test little).
    """
    span = draw(st.integers(min_value=6, max_value=kinds)) if max_kinds_span is None else max_kinds_span
    lo = draw(st.integers(min_value=0, max_value=kinds - span))
    c = [0] * N_KINDS
    n = 0
    while n < size:
        k = draw(st.integers(min_value=lo, max_value=lo + span - 1))
        if c[k] < 4:
            c[k] += 1
            n += 1
    return c


@st.composite
def complete_counts(draw, n_sets: int = 4):
    """A complete regular hand built from a pair and ``n_sets`` random sets (≤ 4 copies each)."""
    c = [0] * N_KINDS
    p = draw(st.integers(0, N_KINDS - 1))
    c[p] += 2
    made = 0
    while made < n_sets:
        if draw(st.booleans()):
            k = draw(st.integers(0, N_KINDS - 1))
            if c[k] + 3 <= 4:
                c[k] += 3
                made += 1
        else:
            s = draw(st.integers(0, 2))
            i = draw(st.integers(0, 6))
            b = s * 9 + i
            if all(c[b + j] < 4 for j in range(3)):
                for j in range(3):
                    c[b + j] += 1
                made += 1
    return c
