"""The game state machine shared by every profile (Foundation II).

* :mod:`rules.game.profile_api` — ``GameRules``, the game-side hooks a profile overrides;
* :mod:`rules.game.state` — ``HandState``/``SeatState``/``WinRecord`` and the phases;
* :mod:`rules.game.machine` — ``HandMachine`` (submit events, get violations), ``replay``, ``table_view``;
* :mod:`rules.game.violations` — violation codes and their seed references.

A game of several hands (rotation, totals, standings through the profile's hooks) is
:func:`rules.simulate.play_game`.
"""
from rules.game.machine import HandMachine, replay, table_view
from rules.game.profile_api import GameRules, Standing
from rules.game.state import HandState, Phase, SeatState, WinRecord

__all__ = [
    "GameRules", "HandMachine", "HandState", "Phase", "SeatState", "Standing", "WinRecord", "replay", "table_view",
]
