"""The hand machine shared by every profile.

* :mod:`rules.game.state` — ``HandState`` (the whole hand), ``SeatState``, ``ClaimWindow``, ``WinRecord``,
  ``Phase``;
* :mod:`rules.game.dispatch` — the dispatch table: (phase, event type) → handler (a pure check and an
  apply step, in :mod:`~rules.game.setup`, :mod:`~rules.game.play`, :mod:`~rules.game.ending`);
* :mod:`rules.game.window` — the claim window: opened, closed in one place, claims checked, arbitrated;
* :mod:`rules.game.machine` — ``HandMachine`` (submit events, get violations), ``replay``, ``table_view``;
* :mod:`rules.game.siamese` — the Siamese variant (two hands per player) through declared hooks;
* :mod:`rules.game.profile_api` — ``GameRules``, the game-side hooks a profile overrides;
* :mod:`rules.game.violations` — violation codes and their seed references.

A game of several hands (rotation, totals, standings through the profile's hooks) is
:func:`rules.simulate.play_game`.
"""
from rules.game.machine import HandMachine, replay, table_view
from rules.game.profile_api import GameRules, Standing
from rules.game.siamese import SiameseHandMachine
from rules.game.state import ClaimWindow, HandState, Phase, SeatState, WinRecord


def machine_for(profile: GameRules) -> type[HandMachine]:
    """The hand machine that plays ``profile``'s hands (two hands per player: the Siamese one)."""
    return SiameseHandMachine if profile.two_hands else HandMachine


__all__ = [
    "ClaimWindow", "GameRules", "HandMachine", "HandState", "Phase", "SeatState", "SiameseHandMachine", "Standing",
    "WinRecord", "machine_for", "replay", "table_view",
]
