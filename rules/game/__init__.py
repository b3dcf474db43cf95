"""The hand machine shared by every profile.

* :mod:`rules.game.state` — ``HandState`` (the whole hand), ``SeatState``, ``ClaimWindow``, ``WinRecord``,
  ``Phase``;
* :mod:`rules.game.dispatch` — the dispatch table: (phase, event type) → handler (a pure check and an
  apply step, in :mod:`~rules.game.setup`, :mod:`~rules.game.play`, :mod:`~rules.game.ending`; the types
  they share in :mod:`~rules.game.flow`);
* :mod:`rules.game.window` — the claim window: opened, closed in one place, claims checked, arbitrated;
* :mod:`rules.game.machine` — ``HandMachine`` (submit events, get violations), ``replay``, ``table_view``;
* :mod:`rules.game.siamese` — the Siamese variant (two hands per player) through declared hooks;
  :func:`rules.game.machines.machine_for` picks the machine of a profile;
* :mod:`rules.game.protocols` — what a rule set is to the code that plays it (``RuleSet`` and its parts);
* :mod:`rules.game.profile_api` — ``Capabilities`` and ``GameRules``, the game-side hooks' defaults;
* :mod:`rules.game.violations` — violation codes and their seed references.

A game of several hands (rotation, totals, standings through the profile's hooks) is
:func:`rules.simulate.play_game`. The package imports nothing itself (no import cycle through it).
"""
