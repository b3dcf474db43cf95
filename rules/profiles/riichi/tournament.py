"""The session and the tournament around the hands: deposits left at the end of a game, session places,
EMA uma (informational), the 004 ranking (Reg 6.3) and out-of-hand penalties.

The game itself — dealer rotation, counters, deposits carried from hand to hand, its end after South 4 —
is played by the hand machine through the profile's hooks (``rules.profiles.riichi.game``:
``next_dealer``, ``next_hand_options``, ``game_over``, ``end_of_game``) and ``rules.simulate.play_game``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from rules.game.penalty_catalogue import PenaltyKind
from rules.profiles.riichi.setup import START_POINTS

EMA_UMA = (15_000, 5_000, -5_000, -15_000)  # EMA 2016, not in the seed: informational only (spec §2.6)
RED_ZONE_MIN = 10  # 004 Reg 6.1.2 (spec A4)
SESSION_MIN = 105  # 004 Reg 6.1.1
LATE_PER_MINUTE = 1000  # 004 Rules 5.7
LATE_MAX_MINUTES = 10


def may_start_hand(minutes_left: float, red_zone_min: int = RED_ZONE_MIN) -> bool:
    """In the red zone (the last 10 minutes) no new hand starts (004 Reg 6.1.2)."""
    return minutes_left > red_zone_min


def places(final_scores: Sequence[int]) -> list[float]:
    """Places 1..4 by final score; equal scores share the average of their positions (spec A5)."""
    out = []
    for s in final_scores:
        higher = sum(1 for x in final_scores if x > s)
        equal = sum(1 for x in final_scores if x == s)
        out.append(higher + (equal + 1) / 2)
    return out


def end_of_game_deposits(final_scores: Sequence[int], deposits: int, first_dealer: int = 0) -> list[int]:
    """Deposits left on the table go to the first-placed player, split between tied leaders in shares of
    100, the remainder to the first tied player in seat order from the first dealer (004 Rules 3.6; A15)."""
    scores = list(final_scores)
    if deposits <= 0:
        return scores
    top = max(scores)
    n = len(scores)
    tied = sorted((i for i in range(n) if scores[i] == top), key=lambda i: (i - first_dealer) % n)
    share = (deposits // 100 // len(tied)) * 100
    rest = deposits - share * len(tied)
    for j, i in enumerate(tied):
        scores[i] += share + (rest if j == 0 else 0)
    return scores


def ema_scores(
    final_scores: Sequence[int], start: int = START_POINTS, uma: Sequence[int] = EMA_UMA
) -> list[int]:
    """EMA 2016 result: final − start + uma by place, tied players sharing the uma of their places
    (informational in this tournament, spec §2.6)."""
    out = []
    for s in final_scores:
        higher = sum(1 for x in final_scores if x > s)
        equal = sum(1 for x in final_scores if x == s)
        share = sum(uma[higher : higher + equal]) / equal
        out.append(round(s - start + share))
    return out


@dataclass
class Standing:
    """One player's tournament record: per session place and score (final score − 30 000 − deductions,
    spec A5) and the final score of each session (for the spread, Reg 6.3.4)."""

    id: str
    places: list[float] = field(default_factory=list)
    points: list[int] = field(default_factory=list)
    finals: list[int] = field(default_factory=list)

    @property
    def average_place(self) -> float:
        return sum(self.places) / len(self.places) if self.places else math.inf

    @property
    def total_points(self) -> int:
        return sum(self.points)

    @property
    def place_variance(self) -> float:
        """Population variance of the places (Reg 6.3.3: 2,3,2,3 beats 1,4,1,4)."""
        if not self.places:
            return 0.0
        m = self.average_place
        return sum((p - m) ** 2 for p in self.places) / len(self.places)

    @property
    def spread(self) -> int:
        """Best session score − worst session score (Reg 6.3.4)."""
        return max(self.finals) - min(self.finals) if self.finals else 0

    def key(self) -> tuple[float, int, float, int]:
        return (self.average_place, -self.total_points, self.place_variance, self.spread)


def rank(standings: Sequence[Standing]) -> list[Standing]:
    """The 004 ranking (Reg 6.3.1–6.3.4): average place, then sum of points, then the variance of places,
    then the spread of session scores; still tied players keep a shared rank (see :func:`ranks`)."""
    return sorted(standings, key=Standing.key)


def ranks(standings: Sequence[Standing]) -> dict[str, int]:
    """Rank numbers (1 = winner); players equal on all four criteria share the rank."""
    out: dict[str, int] = {}
    ordered = rank(standings)
    for i, s in enumerate(ordered):
        if i and s.key() == ordered[i - 1].key():
            out[s.id] = out[ordered[i - 1].id]
        else:
            out[s.id] = i + 1
    return out


def lateness_penalty(minutes_late: float) -> tuple[int | None, bool]:
    """(deduction, substitute plays): 1000 per started minute up to 10 minutes; beyond, a substitute plays
    (004 Rules 5.7; fractions: spec A16). Deducted at game end, not redistributed, places unchanged."""
    if minutes_late <= 0:
        return 0, False
    if minutes_late > LATE_MAX_MINUTES:
        return None, True
    return LATE_PER_MINUTE * math.ceil(minutes_late), False


def session_points(final_score: int, deductions: int = 0, start: int = START_POINTS) -> int:
    """Points a session adds to the player's sum (spec A5): final − 30 000 − deductions."""
    return final_score - start - deductions


# The console's catalogue (rules/game/penalty_catalogue.py), 004 Rules 3.4.6-3.4.7 and 5.x.
CATALOGUE: tuple[PenaltyKind, ...] = (
    PenaltyKind("chombo", "chombo: a mangan — 4000 to East, 2000 to the others (4000 each when East offends); the "
                "hand is dealt again", "Чомбо: выплата в размере манган, раздача пересдаётся", "004 Rules 3.4.6 (line 278)",
                payee="east_and_others", amount=2000, east=4000, replay=True),
    PenaltyKind("dead_hand", "dead hand declared by the judge (e.g. passing information)",
                "Мертвая рука по решению судьи", "004 Rules 3.4.7 (line 302)", amount=0, dead_hand=True),
    PenaltyKind("obstruction", "deliberate obstruction of the tournament: 8000 or 12000, at the end of the game",
                "Намеренное нарушение порядка турнира", "004 (line 548)", choices=(8000, 12000), when="game_end"),
    PenaltyKind("obstruction_serious", "serious or repeated obstruction: 12000 to 48000, at the end of the game",
                "Серьёзное или повторное нарушение порядка", "004 (line 548)", bounds=(12000, 48000),
                when="game_end"),
)
