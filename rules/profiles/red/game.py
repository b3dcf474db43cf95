"""The game side of the ``red`` profile: the ``rules.game.profile_api.GameRules`` hooks for Red Mahjong.

A mixin placed before :class:`rules.profiles.base.Profile` in :class:`Red`'s bases, so it overrides the
defaults whether or not ``Profile`` already inherits ``GameRules``. Every hook delegates to the pure
functions of this package (payments, penalties, claims); the wall, dice, break and deal are
``rules.wall``'s (``WALLS["red"]``).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields
from typing import TYPE_CHECKING

from rules.events import Payment, as_int
from rules.game.profile_api import Capabilities, GameRules
from rules.notation import Hand
from rules.profiles.red import payments as pay
from rules.profiles.red import penalties as pen
from rules.profiles.red.options import RedOptions
from rules.scoring import ContextValue
from rules.tiles import Tile

if TYPE_CHECKING:  # pragma: no cover
    from rules.game.state import HandState, WinRecord
    from rules.scoring import ScoreResult

_OPTION_NAMES = frozenset(f.name for f in fields(RedOptions))
ROUNDS_PER_GAME = 4  # 001 §Дилер 3: East, South, West, North, then the cycle ends (spec A4)


def _next(seats: Sequence[int], k: int) -> int:
    i = list(seats).index(k)
    return seats[(i + 1) % len(seats)]


CAPABILITIES = Capabilities(
    # claims: chow, pung, win; no kongs; one winner (head bump)
    chow_allowed=True,  # 001 §Чоу 1, from the previous player in turn (spec A6: the default may_chow_from)
    claim_priority={"hu": 3, "pung": 2, "chow": 1},  # 001 §Иерархия объявлений 2
    multiple_winners=False,  # 001 §Победа в сдаче 5: the win nearest the discarder in turn order
    last_discard_claims=frozenset({"hu"}),  # 001 §Морское дно и речное дно 3
    robbing_kong=False,  # 001 §Панг 5: no kongs, so nothing to rob
    # winning
    reveal_on_win=True,  # 001 §Победа в сдаче 4
    continue_after_win=False,
    false_win_ends_hand=False,  # 001 §Неправильные объявления 5, 7: play continues, the hand is dead
    dead_hand_codes=frozenset({"tile_count"}),  # 001 §Перебор и недобор костей 1–4: short/long hand is dead
    dead_hand_win_is_false=False,  # §Перебор и недобор костей 3: a dead hand cannot win (refused)
)


class RedGameRules(GameRules):
    """Red Mahjong's answers to the game machine."""

    penalty_catalogue = pen.CATALOGUE  # the judge's console (rules/game/penalty_catalogue.py)

    capabilities = CAPABILITIES
    violation_rules = {  # noqa: RUF012
        "chow_not_from_left": "001 §Чоу 1",
        "claim_inactive_player": "001 §Перебор и недобор костей 3-4",
        "claim_last_tile": "001 §Морское дно и речное дно 3",
        "claim_priority": "001 §Иерархия объявлений 2",
        "multiple_win_not_allowed": "001 §Победа в сдаче 5",
        "kong_not_allowed": "001 §Панг 5",
        "kong_on_last_tile": "001 §Панг 5",
        "kong_after_claim": "001 §Панг 5",
        "false_win": "001 §Штрафы 1; §Неправильные объявления 5",
        "tile_count": "001 §Перебор и недобор костей 1-5",
        "flower_discard": "001 §Замена цветов 6",
        "claim_not_allowed": "001 §Объявление со сноса 4; §Джокеры 2",
        "out_of_turn": "001 §Правила взятия и сноса 1",
        "draw_out_of_turn": "001 §Правила взятия и сноса 1",
    }

    def claim_check(self, state: HandState, seat: int, kind: str, tile: Tile) -> tuple[str, str] | None:
        """No kong in any form (001 §Панг 5); a discarded joker can never be claimed (001 §Джокеры 2)."""
        if kind.startswith("kong"):
            return "kong_not_allowed", "there are no kongs in Red Mahjong (001 §Панг 5)"
        if getattr(tile, "is_joker", False) or str(tile) == "j":
            return "claim_not_allowed", "a discarded joker cannot be claimed, not even for a win (001 §Джокеры 2)"
        return None

    # --- winning --------------------------------------------------------------------------------------
    false_win_penalty = pen.FALSE_WIN_POINTS

    def win_context(self, state: HandState, seat: int, win: WinRecord) -> dict[str, ContextValue]:
        """The scoring context of a win: the vectors' fields (spec §13)."""
        opts = {k: v for k, v in (state.options or {}).items() if k in _OPTION_NAMES}
        return {
            "self_drawn": win.from_seat is None,  # a flower-replacement or sea-bottom win is a self-draw
            "players": state.n_players,
            "dealer": state.dealer,
            "winner": seat,
            "discarder": win.from_seat,
            "river_bottom": win.from_seat is not None and win.last_tile,
            "options": opts or None,
        }

    def is_tenpai(self, state: HandState, seat: int, hand: Hand) -> bool:
        return bool(self.waits(hand)) or self.joker_completes(hand)

    def joker_completes(self, hand: Hand) -> bool:  # the profile's (``Red.joker_completes``)
        raise NotImplementedError

    # --- settlement -----------------------------------------------------------------------------------
    def settle_win(self, state: HandState, win: WinRecord, result: ScoreResult) -> list[Payment]:
        """001 «Схема выплат»: the discarder pays the value, or every loser on a self-draw."""
        value = as_int(result.extra.get("value", result.points.get("discarder", result.points.get("each", 0))))
        st = pay.settle_win(state.n_players, win.seat, value, self_drawn=win.from_seat is None,
                            discarder=win.from_seat)
        return list(st.payments)

    def settle_exhaustive(self, state: HandState, tenpai: Sequence[int]) -> list[Payment]:
        return []  # 001 §Морское дно и речное дно 4: every player scores 0

    def penalty_payments(self, state: HandState, seat: int, code: str) -> list[Payment]:
        """A false win: 9 to each other player (001 §Штрафы 1, spec A25). Nothing else has an amount."""
        if code != "false_win":
            return []
        return list(pen.false_win(state.n_players, seat).settlement.payments)

    def next_dealer(self, state: HandState) -> int:
        """001 §Дилер 4–5: East keeps the deal after his win or a draw; otherwise it passes to the next
        player in turn order (2 players: the other one; spec A5 for the 2-player draw)."""
        wins = [w for w in state.wins if w.valid]
        if not wins or any(w.seat == state.dealer for w in wins):
            return state.dealer
        return _next(state.seats, state.dealer)

    # --- session ----------------------------------------------------------------------------------------
    start_score = 0
    tournament_keys = ("total", "table_points")  # 001: a player's result is his final number of points

    def game_over(self, hands_played: int, dealer_changes: int, players: int) -> bool:
        """The default game is one cycle of four rounds; a round ends when the deal has passed ``players``
        times (001 §Дилер 3, fn3; spec A4)."""
        return dealer_changes >= ROUNDS_PER_GAME * players
