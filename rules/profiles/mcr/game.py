"""The game-side hooks of ``rules.game.profile_api.GameRules`` as MCR plays them (seed 003, spec §2-§10).

:class:`MCRGame` is mixed into the profile class before ``Profile`` so these override the defaults once
``Profile`` inherits ``GameRules``. The hooks read the machine's state duck-typed (``seats``, ``dealer``,
``seat_state``, ``wins``) and build payments with ``rules.events.Payment`` (payer, payee, amount, reason,
rule = seed reference).
"""
from __future__ import annotations

from collections.abc import Sequence

from rules.events import Payment as PaymentEvent
from rules.game.profile_api import Capabilities, GameRules
from rules.game.state import HandState, WinRecord
from rules.profiles.mcr import penalties, session
from rules.profiles.mcr.settlement import win_payments
from rules.scoring import ContextValue, ScoreResult
from rules.tiles import KINDS

CAPABILITIES = Capabilities(
    # claims (003 §Словарь 20-22, §Как собрать 2e)
    chow_allowed=True,
    claim_priority={"hu": 3, "kong": 2, "pung": 2, "chow": 1},
    multiple_winners=False,  # «Выигрывает только один игрок»: nearest to the discarder (003 §Как собрать 2e)
    last_discard_claims=frozenset({"hu"}),  # #45 Last Tile Claim
    claim_window_s=3.0,  # 003 §Порядок игры 7-8: a pung or kong is called within 3 seconds of the discard
    robbing_kong=True,  # #47
    flower_discard=True,  # #81 «Цветок и сезон можно снести без замещения» (spec §12 A29)
    # winning
    reveal_on_win=True,  # 003 §Как собрать 1: the whole hand is exposed at the declaration
    continue_after_win=False,
    false_win_ends_hand=False,  # a false Hu: pay, no win this hand, play goes on (§Отдельные нарушения 6)
)


class MCRGame(GameRules):

    penalty_catalogue = penalties.CATALOGUE  # the judge's console (rules/game/penalty_catalogue.py)
    capabilities = CAPABILITIES
    violation_rules = {
        "false_win": "003 §Отдельные нарушения 6",
        "tile_count": "003 §Отдельные нарушения 8",
        "chow_not_from_left": "003 §Словарь 20",
        "multiple_win_not_allowed": "003 §Как собрать 2e",
        "kong_after_claim": "003 §Порядок игры 8",
        "claim_late": "003 §Порядок игры 7",
    }

    # --- winning ------------------------------------------------------------------------------------------
    def win_context(self, state: HandState, seat: int, win: WinRecord) -> dict[str, ContextValue]:
        order = state.seat_order(state.dealer)
        ctx: dict[str, ContextValue] = {
            "self_drawn": win.from_seat is None,
            "last_tile": bool(win.last_tile),
            "kong_replacement": bool(win.kong_replacement),
            "robbing_kong": bool(win.robbing_kong),
            "seat_wind": KINDS[27 + order.index(seat)] if seat in order else None,
            "round_wind": KINDS[27 + "1234".index(state.round_wind[0])] if state.round_wind else None,
        }
        if win.flower_replacement:
            ctx["flower_replacement"] = True
        if not win.tile.is_unknown and visible_copies(state, seat, win) >= 3:
            ctx["last_of_kind"] = True  # #58: the other three face up on the table (spec §12 A33)
        return ctx

    # --- settlement ---------------------------------------------------------------------------------------
    def settle_win(self, state: HandState, win: WinRecord, result: ScoreResult) -> list[PaymentEvent]:
        """003 §Подсчёт 1c: self-drawn 8 + P from each; discard: 8 + P from the discarder, 8 from the others."""
        pays = win_payments(win.seat, int(result.total_fan), win.from_seat, tuple(state.seats))
        return [PaymentEvent(payer=p.payer, payee=p.payee, amount=p.amount, reason=p.reason, rule=p.ref)
                for p in pays]

    def settle_exhaustive(self, state: HandState, tenpai: Sequence[int]) -> list[PaymentEvent]:
        """A drawn hand pays nothing (003 §Словарь 33; spec §12 A30)."""
        return []

    def penalty_payments(self, state: HandState, seat: int, code: str) -> list[PaymentEvent]:
        """A false Hu pays 10 to each other player under 8 fan, 20 each for a mistaken claim (§6)."""
        if code != "false_win":
            return []
        under_eight = any(
            w.seat == seat and w.valid is False and w.result is not None and w.result.fans
            for w in state.wins
        )
        s = penalties.false_hu(seat, insufficient_fan=under_eight, seats=tuple(state.seats))
        return [PaymentEvent(payer=p.payer, payee=p.payee, amount=p.amount, reason=p.reason, rule=p.ref)
                for p in s.payments]

    def next_dealer(self, state: HandState) -> int:
        """The deal passes after every hand, won or drawn (003 §Порядок игры 2; spec §12 A30)."""
        return session.next_dealer_seat(state.dealer, len(state.seats))

    # --- session ------------------------------------------------------------------------------------------
    placement_points = tuple(float(x) for x in session.TABLE_POINTS)

    def seating(self, hands_played: int, players: int) -> tuple[int, ...] | None:
        """Players change chairs at each round start (003 «Способ распределения мест»): the player in
        each seat (chair) for the next hand, from ``session.SEAT_TABLE``."""
        if players != 4:
            return None
        chairs = session.SEAT_TABLE[min(hands_played // session.HANDS_PER_ROUND, session.ROUNDS - 1)]
        by_seat = [0] * 4
        for player, chair in enumerate(chairs):
            by_seat[chair] = player
        return tuple(by_seat)

    def game_over(self, hands_played: int, dealer_changes: int, players: int) -> bool:
        """Four rounds of four hands (003 §Словарь 4)."""
        return session.session_over(hands_played)


def visible_copies(state: HandState, seat: int, win: WinRecord) -> int:
    """Copies of the winning kind face up on the table besides the winning tile itself: every pond
    (claimed discards are counted in the melds instead) and every exposed set (not concealed kongs)."""
    k = win.tile.kind
    n = 0
    for ss in state.seat_state.values():
        for t, claimed in zip(ss.pond, ss.pond_claimed, strict=False):
            if not claimed and t.kind == k:
                n += 1
        for m in ss.melds:
            if not m.is_concealed:
                n += sum(1 for x in m.kinds if x == k)
    if win.from_seat is not None and not win.robbing_kong:
        n -= 1  # the winning discard lies in the discarder's pond
    return n
