"""One style for a scoring rule, in every profile: a named :class:`Unit` with a ``check`` over one reading
type, collected in a :class:`Registry` that finds it by its id.

A unit says whether — and how many times — its rule applies to one reading of a hand (riichi's yaku on a
``Reading``, MCR's fans on its ``Reading`` or on a group of sets, Red's fans on an ``Arrangement``,
Sichuan's fans on ``WinFacts``); ``ref`` is the seed reference of the rule. What a unit is *worth* stays
in the profile's table (riichi's han closed/open, MCR's and Sichuan's fan tables, Red's fan table): the
unit only recognises. A registry keeps the units in the order the seed lists them.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Generic, TypeVar

R = TypeVar("R")


@dataclass(frozen=True)
class Unit(Generic[R]):
    """One rule: ``id`` (what the registry finds it by), ``name`` (as the seed's table prints it), ``ref``
    (the seed section), ``check`` (how many times it applies to a reading; 0 or False: not at all), ``group``
    (the family its scorer calls it in, if the profile has several)."""

    id: str
    name: str
    ref: str
    check: Callable[[R], int]
    group: str = ""  # the profile's family of the unit, when its scorer calls the families apart (MCR's scopes)

    def __call__(self, reading: R) -> int:
        return int(self.check(reading))


class Registry(Generic[R]):
    """The units of one kind of rule in one profile, in order, found by id."""

    def __init__(self, units: Iterable[Unit[R]] = ()):
        self._by_id: dict[str, Unit[R]] = {}
        for u in units:
            self.add(u)

    def add(self, unit: Unit[R]) -> Unit[R]:
        if unit.id in self._by_id:
            raise ValueError(f"two units named {unit.id!r}")
        self._by_id[unit.id] = unit
        return unit

    def unit(self, id: str, name: str, ref: str) -> Callable[[Callable[[R], int]], Callable[[R], int]]:
        """A decorator: the function becomes the ``check`` of a new unit (and stays a plain function)."""

        def deco(fn: Callable[[R], int]) -> Callable[[R], int]:
            self.add(Unit(id, name, ref, fn))
            return fn

        return deco

    def __getitem__(self, id: str) -> Unit[R]:
        return self._by_id[id]

    def __contains__(self, id: object) -> bool:
        return id in self._by_id

    def __iter__(self) -> Iterator[Unit[R]]:
        return iter(self._by_id.values())

    def __len__(self) -> int:
        return len(self._by_id)

    def ids(self) -> list[str]:
        return list(self._by_id)

    def group(self, name: str) -> tuple[Unit[R], ...]:
        """The units of one family (``Unit.group``), in registry order."""
        return tuple(u for u in self._by_id.values() if u.group == name)
