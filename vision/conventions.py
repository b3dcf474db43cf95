"""The physical conventions of each rule set, as the overhead camera has to read them: data each profile
provides (:class:`rules.game.table_data.TableConventions`, in ``rules/profiles/<rule set>/table.py``;
``rule`` there cites the seed section behind a value). This module reads them and knows the geometry every
table shares: where the sideways tile of a claimed set lies.
"""
from __future__ import annotations

from rules.game.protocols import RuleSet
from rules.game.table_data import TableConventions

#: the conventions of one rule set's table (the type lives with the rules: ``rules.game.table_data``)
Conventions = TableConventions

#: Where the sideways (claimed) tile lies in a claimed set, by the discarder's place relative to the
#: claimant: left player → leftmost, opposite → middle, right player → rightmost (sichuan §14.10,
#: mcr §13.8, riichi §15 "chi/pon").
SIDEWAYS_INDEX = {"left": 0, "opposite": 1, "right": -1}


def conventions(profile: RuleSet | str) -> TableConventions:
    """The table conventions of ``profile`` (a rule set, or its registry name); ValueError for an unknown
    name."""
    if isinstance(profile, str):
        from rules.profiles import registry

        try:
            return registry.get(profile).table_conventions
        except registry.UnknownProfile:
            raise ValueError(f"no camera conventions for profile {profile!r}; known: {', '.join(registry.names())}") from None
    return profile.table_conventions


def sideways_index(source: str, n_tiles: int) -> int:
    """Index (left to right, from the claimant's view) of the sideways tile of a set claimed from ``source``."""
    i = SIDEWAYS_INDEX[source]
    return n_tiles - 1 if i < 0 else min(i, n_tiles - 1)


def source_of_index(index: int, n_tiles: int) -> str:
    """The inverse of :func:`sideways_index`: which neighbour a sideways tile at ``index`` points at."""
    if index == 0:
        return "left"
    if index == n_tiles - 1:
        return "right"
    return "opposite"
