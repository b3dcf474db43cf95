"""The random-game driver: bots play hands through the hand machine (tests, benchmarks, the simulator).

:func:`play_hand` plays one hand with bots (``rules.driver.HandDriver``, or ``rules.siamese_play`` for
two hands per player); the result carries the hand's complete event log.
:func:`play_game` chains hands with the profile's dealer rotation and end-of-game rule and ranks the
players with the profile's standings. A simulated clock stamps the events (``t_mono``), so runs are
reproducible bit for bit.
"""
from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Unpack

from rules.driver import WALL_EPOCH, BotOptions, HandDriver, HandOptions, HandResult, SimClock, make_event
from rules.events import JSONObject
from rules.game.profile_api import Standing
from rules.siamese_play import play_siamese_hand

if TYPE_CHECKING:  # pragma: no cover
    from rules.game.protocols import RuleSet

__all__ = [
    "WALL_EPOCH", "BotOptions", "GameResult", "HandDriver", "HandOptions", "HandResult", "SimClock", "make_event", "play_game", "play_hand",
    "random_hands",
]


def play_hand(profile: RuleSet, rng: random.Random, **kw: Unpack[HandOptions]) -> HandResult:
    """Play one hand with bots (see :class:`HandDriver` for the options)."""
    if profile.capabilities.two_hands:  # mcr-siamese: two hands per player, its own driver and bots
        return play_siamese_hand(profile, rng, **kw)
    return HandDriver(profile, rng, **kw).run()


def random_hands(profile: RuleSet, seed: int, n: int, **kw: Unpack[BotOptions]) -> Iterator[HandResult]:
    """``n`` independent hands from one seed (dealer rotating over the seats)."""
    rng = random.Random(seed)
    seats = profile.wall_spec(kw.get("n_players", 4)).seats
    for i in range(n):
        yield play_hand(profile, random.Random(rng.random()), dealer=seats[i % len(seats)], hand_id=f"h{i}", **kw)


@dataclass
class GameResult:
    hands: list[HandResult] = field(default_factory=list)
    totals: dict[int, int] = field(default_factory=dict)
    standings: list[Standing] = field(default_factory=list)


def play_game(profile: RuleSet, seed: int, *, n_players: int = 4, max_hands: int | None = None, bot: str = "greedy",
              error_rate: float = 0.0, options: JSONObject | None = None) -> GameResult:
    """A game: hands until the profile's ``game_over`` (or ``max_hands``), dealer rotation by the profile,
    totals and standings at the end. ``options`` start every hand's ``HandStarted.options``; the profile's
    ``next_hand_options`` carries state from one hand to the next (riichi's counters and sticks)."""
    rng = random.Random(seed)
    seats = profile.wall_spec(n_players).seats
    totals = {p: profile.start_score for p in range(len(seats))}  # by player (seated in seat order at first)
    dealer = seats[0]
    clock = SimClock()
    res = GameResult()
    changes = 0
    winds = "1234"
    carried: JSONObject = dict(options or {})
    while True:
        i = len(res.hands)
        sitting = profile.seating(i, n_players) or tuple(range(len(seats)))  # player by seat index
        player_at = dict(zip(seats, sitting, strict=True))
        r = play_hand(profile, random.Random(rng.random()), n_players=n_players, dealer=dealer, bot=bot,
                      error_rate=error_rate, hand_id=f"g{seed}-h{i}", hand_number=i, clock=clock,
                      round_wind=f"{winds[(changes // n_players) % 4]}z", options=dict(carried),
                      players=tuple(f"P{player_at[s]}" for s in seats))
        carried.update(profile.next_hand_options(r.machine.state))  # riichi: counters and sticks
        res.hands.append(r)
        for s in seats:
            totals[player_at[s]] += r.deltas[s]
        if r.next_dealer != dealer:
            changes += 1
        dealer = r.next_dealer
        if profile.game_over(len(res.hands), changes, n_players) or (max_hands and len(res.hands) >= max_hands):
            break
    res.totals = profile.end_of_game(totals, res.hands[-1].machine.state)
    res.standings = profile.standings(totals, {p: f"P{p}" for p in totals})
    return res
