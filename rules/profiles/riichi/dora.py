"""Dora: the tile an indicator points to, and how many a hand holds (004 Rules 2.7, 3.3.5–3.3.7, 3.3.14)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rules.tiles import KIND_OF, KINDS, Tile


def dora_of(indicator: int) -> int:
    """Kind of the dora for an indicator kind: suits n -> n+1 and 9 -> 1; winds E->S->W->N->E;
    dragons red (7z) -> white (5z) -> green (6z) -> red (004 Rules 2.7)."""
    if indicator < 27:
        return indicator - 8 if indicator % 9 == 8 else indicator + 1
    if indicator < 31:
        return 27 + (indicator - 27 + 1) % 4
    return 31 + (indicator - 31 + 1) % 3


def dora_tile(indicator: Tile) -> Tile:
    return KINDS[dora_of(indicator.kind)]


def count_dora(counts: Sequence[int], indicators: Iterable[int]) -> int:
    """Han from dora: each copy of a dora tile counts once per indicator (a tile code) pointing to it."""
    n = 0
    for t in indicators:
        n += counts[_DORA[KIND_OF[t]]]
    return n


_DORA: tuple[int, ...] = tuple(dora_of(k) for k in range(34))


class IndicatorState:
    """How many dora indicators are face up during a hand (004 Rules 2.7, 3.3.5–3.3.7; spec A21).

    One at the start; every kan reveals one more immediately, before its replacement tile — except an
    added kan, whose indicator waits until nobody robs it (a robbed kan reveals none, 004 Rules 4.2.1).
    """

    def __init__(self) -> None:
        self.revealed = 1
        self.pending = False  # an added kan open to robbing

    def kan(self, kind: str) -> None:
        """``kind``: ``kong_open``, ``kong_concealed`` or ``kong_added``."""
        if self.pending:
            self.not_robbed()
        if kind == "kong_added":
            self.pending = True
        else:
            self.revealed = min(5, self.revealed + 1)

    def not_robbed(self) -> None:
        """The chankan window of an added kan closed: its indicator is turned now."""
        if self.pending:
            self.pending = False
            self.revealed = min(5, self.revealed + 1)

    def robbed(self) -> None:
        self.pending = False

    @property
    def ura_for_riichi(self) -> int:
        """Ura indicators a riichi winner turns: one under each face-up indicator (3.3.14)."""
        return self.revealed
