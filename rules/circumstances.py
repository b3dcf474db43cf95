"""Circumstances of a win that cannot happen together, as one declared table per profile.

A win comes with circumstances — ``self_drawn``, ``robbing_kong``, ``kong_replacement``, ``last_tile``,
``flower_replacement``, riichi's ``riichi``/``ippatsu``... — named as the context fields are
(docs/notation.md). Some combinations cannot happen under a rule set: robbing a kong is a win on another
player's tile, never self-drawn; a replacement tile is self-drawn; no kong is declared once the live wall
is empty, so the last tile is never a robbed kong's (riichi spec A20, 000 §2.5.7). Each profile declares
them once (``Profile.impossible``) and the same table is checked by its scorer (``mahjong-table score``:
``valid: false`` with the reason) and by the hand machine (a ``Won`` whose circumstances are impossible is
refused as ``impossible_context``).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Impossible:
    """The circumstances ``all_of`` together, without any of ``none_of``, cannot happen: ``reason``."""

    all_of: frozenset[str]
    reason: str
    none_of: frozenset[str] = frozenset()

    def meets(self, present: frozenset[str]) -> bool:
        """Whether it applies to the circumstances ``present`` (the names that hold)."""
        return self.all_of <= present and not (self.none_of & present)

    @property
    def names(self) -> frozenset[str]:
        return self.all_of | self.none_of


def rule(all_of: Iterable[str], reason: str, none_of: Iterable[str] = ()) -> Impossible:
    return Impossible(frozenset(all_of), reason, frozenset(none_of))


def impossible(table: Iterable[Impossible], circumstances: Mapping[str, object], partial: bool = False) -> str | None:
    """The reason of the first entry of ``table`` that ``circumstances`` meet, or None (possible).
    ``partial``: the circumstances name only some (the hand machine's: those a table sees); an entry
    that speaks of another is not judged."""
    present = _present(circumstances)  # (set operations: the scorer judges every hand by the table)
    for entry in table:
        if partial and not (entry.all_of.issubset(circumstances) and entry.none_of.issubset(circumstances)):
            continue
        if entry.meets(present):
            return entry.reason
    return None


class BitTable:
    """A table compiled for a scorer's hot path: each circumstance one bit of an ``int`` (in ``names``
    order), each entry two masks; the same answers as :func:`impossible` over the same table."""

    def __init__(self, table: Iterable[Impossible], names: Iterable[str]):
        self.bit = {name: 1 << i for i, name in enumerate(names)}
        self.rows = tuple((self.mask(e.all_of), self.mask(e.none_of), e.reason) for e in table)
        if len(self.bit) > 12:
            raise ValueError(f"{len(self.bit)} circumstances: a precomputed table holds up to 12")
        # every answer, indexed by the mask (4,096 entries at most)
        self.answers: tuple[str | None, ...] = tuple(self.first(m) for m in range(1 << len(self.bit)))

    def mask(self, present: Iterable[str]) -> int:
        m = 0
        for name in present:
            m |= self.bit[name]  # (a KeyError: a name the table uses that the scorer never sets)
        return m

    def first(self, present: int) -> str | None:
        """The reason of the first entry the circumstances ``present`` (a mask) meet, or None."""
        for all_of, none_of, reason in self.rows:
            if present & all_of == all_of and not present & none_of:
                return reason
        return None


def _present(circumstances: Mapping[str, object]) -> frozenset[str]:
    return frozenset(name for name, value in circumstances.items() if value)


def robbing_on_the_last_tile(ref: str) -> Impossible:
    """The rule every profile with kongs shares: nothing to rob once the live wall is empty."""
    return rule({"robbing_kong", "last_tile"},
                f"no kong is declared once the live wall is empty: a robbed kong is never the last tile ({ref})")
