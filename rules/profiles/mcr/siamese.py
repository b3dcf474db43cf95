"""``mcr-siamese``: the seed's Siamese format (003 «Правила сиамского формата», spec §11).

Three players (East, South, West) each build two hands from shared concealed tiles; 136 tiles, no flowers
(§Сиамский 7); hands with North as dealer are skipped (§6). A hand is scored with the MCR fan rules; the
payments differ (§15-16), and two players settle ± the hand value (§23). A first win declared without
using the drawn tile as winning tile scores none of #4, #46, #58, #77, #78, #79 (§17).
"""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from rules.events import Payment as PaymentEvent
from rules.game.state import HandState, WinRecord
from rules.game.table_data import Example
from rules.notation import Hand
from rules.profiles.mcr.fan_table import MIN_FAN
from rules.profiles.mcr.game import visible_copies
from rules.profiles.mcr.profile import MCR
from rules.profiles.mcr.scorer import Scored
from rules.profiles.mcr.settlement import BASE, Payment
from rules.profiles.mcr.table import SIAMESE_CONVENTIONS
from rules.scoring import ContextField, ContextValue, ScoreResult, ctx_int
from rules.tiles import KINDS
from rules.wall import next_seat

NOT_WITH_OTHER_TILE = (4, 46, 58, 77, 78, 79)  # 003 §Сиамский 17
_NOT_WITH_OTHER_TILE = frozenset(NOT_WITH_OTHER_TILE)
THREE_PLAYER_HANDS = 12  # 003 §Сиамский 6: 16 hands less North's 4 (4, 8, 12, 16); = len(hands_played())

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
    table_conventions = SIAMESE_CONVENTIONS
    examples: tuple[Example, ...] = ()  # (the demo scores none)

    def evaluate(self, hand: Hand, ctx: Mapping[str, ContextValue]) -> Scored | str:
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
            fans = fans_of(r, self.options, _NOT_WITH_OTHER_TILE)
            total = sum(fan_value(no, self.options) * n for no, n in fans.items())
            if best is None or total > best.hand_fan:
                best = Scored(fans, total, 0, r)
        return best if best is not None else got

    def score(self, hand: Hand, ctx: Mapping[str, ContextValue]) -> ScoreResult:
        res = super().score(hand, ctx)
        if res.valid:
            n = ctx_int(ctx, "players") or 3
            res.points = siamese_points(res.total_fan, bool(ctx.get("self_drawn")), n)
        return res

    # --- the game side (rules.game.siamese.SiameseHandMachine) ---------------------------------------------
    capabilities = dataclasses.replace(MCR.capabilities, two_hands=True)  # the Siamese machine (003 §Сиамский)
    violation_rules = {
        **MCR.violation_rules,
        "golden_rule": "003 §Сиамский 4",
        "siamese_no_draw": "003 §Сиамский 5",
        "siamese_drawn_tile": "003 §Сиамский 17",
        "siamese_slot": "003 §Сиамский 10",
        "siamese_slot_won": "003 §Сиамский 11",
        "siamese_slot_full": "003 §Сиамский 10",
        "tile_count": "003 §Сиамский 8; §Отдельные нарушения 8",
    }
    two_player_hands = 12  # §24: an even number agreed before the game (this default: as many as 3 players)

    def win_context(self, state: HandState, seat: int, win: WinRecord) -> dict[str, ContextValue]:
        """MCR's context, plus §17 (a first win that kept the drawn tile), the number of players, the
        exposed hands of earlier wins counted as played tiles for #58 (§11), and the seat winds: East,
        South, West in turn order; two players sit opposite, East and West (interp., docs/rules/mcr.md)."""
        ctx = super().win_context(state, seat, win)
        ctx["drawn_tile_kept"] = bool(getattr(win, "drawn_tile_kept", False))
        ctx["players"] = len(state.seats)
        if len(state.seats) == 2:
            ctx["seat_wind"] = KINDS[27 + (seat - state.dealer) % 4]
        if not win.tile.is_unknown:
            played = sum(1 for w in state.wins if w.valid for t in getattr(w, "concealed", ())
                         if t.kind == win.tile.kind)
            if visible_copies(state, seat, win) + played >= 3:
                ctx["last_of_kind"] = True
        return ctx

    def is_tenpai(self, state: HandState, seat: int, hand: Hand) -> bool:
        """No ready hands in Siamese: an exhausted wall pays nothing but the declared wins (§14)."""
        return False

    def settle_hand(self, state: HandState) -> list[PaymentEvent]:
        """§13-14: when a player has won both hands, only his wins are paid; when the wall ran out, every
        declared win is paid (§15-16, §23 for two players); then the penalties (false wins)."""
        wins = [w for w in state.wins if w.valid]
        doubles = {w.seat for w in wins if sum(1 for x in wins if x.seat == w.seat) >= 2}
        out: list[PaymentEvent] = []
        for w in wins:
            if doubles and w.seat not in doubles:
                continue  # §13: scoring by maximum
            assert w.result is not None
            for p in siamese_win_payments(w.seat, w.result.total_fan, w.from_seat, tuple(state.seats)):
                out.append(PaymentEvent(payer=p.payer, payee=p.payee, amount=p.amount, reason=p.reason, rule=p.ref))
        for v in state.violations:
            if v.seat is not None:
                out.extend(self.penalty_payments(state, v.seat, v.code))
        return out

    def next_dealer(self, state: HandState) -> int:
        """The deal passes after every hand among the seated players: E, S, W (North's hands are not
        played, §6); two players alternate (§24)."""
        return next_seat(tuple(state.seats), state.dealer)

    def game_over(self, hands_played: int, dealer_changes: int, players: int) -> bool:
        """12 hands for three players (16 less North's 4, §6); ``two_player_hands`` for two (§24)."""
        return hands_played >= (THREE_PLAYER_HANDS if players == 3 else self.two_player_hands)


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
