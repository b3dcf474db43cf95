"""``mcr-siamese``: the seed's Siamese format (003 «Правила сиамского формата», spec §11).

Three players (East, South, West) each build two hands from shared concealed tiles; 136 tiles, no flowers
(§Сиамский 7); hands with North as dealer are skipped (§6). A hand is scored with the MCR fan rules; the
payments differ (§15-16), and two players settle ± the hand value (§23). A first win declared without
using the drawn tile as winning tile scores none of #4, #46, #58, #77, #78, #79 (§17).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.notation import Hand
from rules.profiles.base import ContextField, ScoreResult
from rules.profiles.mcr.fan_table import MIN_FAN
from rules.profiles.mcr.profile import MCR
from rules.profiles.mcr.scorer import Scored
from rules.profiles.mcr.settlement import BASE, Payment

NOT_WITH_OTHER_TILE = (4, 46, 58, 77, 78, 79)  # 003 §Сиамский 17

# The table as §Сиамский 1, 6-8 and 22 describe it (data for the wall/deal code of rules.wall, which has
# no Siamese parameters yet): 136 tiles, walls of 17 stacks, East throws for the empty North seat; the
# deal is six passes of four tiles to E, S, W, then three passes of one, then East takes a 28th.
SIAMESE_TABLE = {
    "tiles": 136,
    "flowers": False,
    "stacks_per_wall": 17,
    "seats": (0, 1, 2),  # North deals no hand: hands 4, 8, 12, 16 of 16 are skipped (§6)
    "deal": ((4, 6), (1, 3)),  # (tiles per take, passes) for E, S, W in turn (§8)
    "dealer_extra": 1,  # East's 28th tile
    "hand_sizes": {"dealer": 28, "other": 27},
    "dead_wall_two_players": 27,  # §1, §22: taken from the far end after the deal, never played
}

DRAWN_TILE_KEPT = ContextField(
    "drawn_tile_kept", "bool", False,
    "a first win declared without using the drawn tile as the winning tile (003 §Сиамский 17)",
)
PLAYERS = ContextField("players", "int", 3, "players at the table: 3, or 2 for the two-player game (§22-24)")


class MCRSiamese(MCR):
    name = "mcr-siamese"
    title = "MCR Siamese (two hands per player)"
    players = (3, 2)
    allows_flowers = False  # 003 §Сиамский 7: 136 tiles
    context_fields = MCR.context_fields + (DRAWN_TILE_KEPT, PLAYERS)

    def evaluate(self, hand: Hand, ctx: Mapping[str, Any]) -> Scored | str:
        got = super().evaluate(hand, ctx)
        if isinstance(got, str) or not ctx.get("drawn_tile_kept"):
            return got
        # re-score without the fans §17 forbids, keeping the best reading of what is left
        from rules.profiles.mcr.reading import readings
        from rules.profiles.mcr.scorer import fan_value, fans_of

        wc = self.scoring_context(ctx)
        assert not isinstance(wc, str) and hand.winning is not None
        best = None
        for r in readings(hand, wc, self.options.phantom_waits):
            fans = fans_of(r, self.options)
            for no in NOT_WITH_OTHER_TILE:
                fans.pop(no, None)
            if not fans:
                fans[43] = 1
            total = sum(fan_value(no, self.options) * n for no, n in fans.items())
            if best is None or total > best.hand_fan:
                best = Scored(fans, total, 0, r)
        return best if best is not None else got

    def score(self, hand: Hand, ctx: Mapping[str, Any]) -> ScoreResult:
        res = super().score(hand, ctx)
        if res.valid:
            n = int(ctx.get("players") or 3)
            res.points = siamese_points(res.total_fan, bool(ctx.get("self_drawn")), n)
        return res


def siamese_points(value: int, self_drawn: bool, players: int = 3) -> dict[str, int]:
    """The ``points`` object: §15-16 for three players, §23 for two."""
    if players == 2:
        return {"total": value, "other": value}
    if self_drawn:
        return {"total": 2 * (value + BASE), "each": value + BASE}
    return {"total": value + 2 * BASE, "discarder": value + BASE, "each_other": BASE}


def siamese_win_payments(winner: int, value: int, discarder: int | None, seats: tuple[int, ...] = (0, 1, 2)
                         ) -> list[Payment]:
    """Payments of one Siamese win (three players §15-16, two players §23)."""
    if len(seats) == 2:
        loser = next(s for s in seats if s != winner)
        return [Payment(loser, winner, value, "two-player game: the hand value", "003 §Сиамский 23")]
    out = []
    for s in seats:
        if s == winner:
            continue
        if discarder is None:
            out.append(Payment(s, winner, value + BASE, "self-drawn win: hand value + 8", "003 §Сиамский 15"))
        elif s == discarder:
            out.append(Payment(s, winner, value + BASE, "discarded the winning tile: hand value + 8",
                               "003 §Сиамский 16"))
        else:
            out.append(Payment(s, winner, BASE, "win by discard: 8 from the other player", "003 §Сиамский 16"))
    return out


def second_win_allowed(first_value: int, second_value: int, first_by_discard: bool, same_turn: bool,
                       turn_began_with_wall_draw: bool) -> tuple[bool, str]:
    """The golden rule (§Сиамский 4) and the two-wins-in-one-turn rule (§5)."""
    if second_value < first_value:
        return False, "the second win must be worth at least the first (003 §Сиамский 4)"
    if same_turn and (first_by_discard or not turn_began_with_wall_draw):
        return False, "two wins in one turn only when the turn began with a wall draw (003 §Сиамский 5)"
    if second_value < MIN_FAN:
        return False, "a win needs 8 fan (003 §Подсчёт 1a)"
    return True, ""


def hands_played(dealer_hand_numbers: range = range(1, 17)) -> list[int]:
    """Hand numbers of a 16-hand session the three players play: North's deals 4, 8, 12, 16 are skipped."""
    return [n for n in dealer_hand_numbers if n % 4 != 0]
