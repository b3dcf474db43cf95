"""The hand machine that plays a profile's hands: :func:`machine_for`."""
from __future__ import annotations

from rules.game.machine import HandMachine
from rules.game.protocols import TableRules
from rules.game.siamese import SiameseHandMachine


def machine_for(profile: TableRules) -> type[HandMachine]:
    """The hand machine that plays ``profile``'s hands (two hands per player: the Siamese one)."""
    return SiameseHandMachine if profile.capabilities.two_hands else HandMachine
