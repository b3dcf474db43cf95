"""Penalties and irregularities (001 «Штрафы», «Перебор и недобор костей», «Неправильные объявления» 5–7;
spec §8).

* A false win — a win declared with the whole hand exposed that is not a winning hand — costs 9 points
  to every other player; the offender plays on with a dead hand (spec A25: any number of players).
* A win withdrawn before any tile is exposed costs nothing (§Неправильные объявления 6).
* A wrong tile count (short/long hand) makes the hand dead for the rest of the hand: no win, no claim.
* Offences the seed names without an amount are logged for the referee; no points move (spec A24).
"""
from __future__ import annotations

from dataclasses import dataclass

from rules.events import Payment
from rules.game.penalty_catalogue import PenaltyKind
from rules.profiles.red.payments import Settlement
from rules.profiles.red.seating import seats

FALSE_WIN_POINTS = 9  # 001 §Штрафы 1
RULE_FALSE_WIN = "001 §Штрафы 1; §Неправильные объявления 5"
RULE_WITHDRAWN = "001 §Неправильные объявления 6"
RULE_COUNT = "001 §Перебор и недобор костей 1-5"

# offences with no amount in the seed (spec §8.4, A24): code -> (description, rule)
UNPRICED: dict[str, tuple[str, str]] = {
    "looked_during_deal": ("looked at or felt tiles before the deal was complete", "001 §Раздача 6"),
    "play_tempo": ("drew too fast or played too slowly", "001 §Правила взятия и сноса 6"),
    "misnamed_discard": ("named a discard wrongly and misled a claim", "001 §Правила взятия и сноса 8"),
}


@dataclass(frozen=True)
class PenaltyVerdict:
    settlement: Settlement
    offender_hand: str  # "dead" or "live"
    hand_continues: bool = True
    logged_for_referee: str | None = None


def false_win(players: int, offender: int) -> PenaltyVerdict:
    """9 points to each other player; the hand goes on and the offender's hand is dead."""
    ss = seats(players)
    if offender not in ss:
        raise ValueError(f"seat {offender} is not at a {players}-player table")
    lines = tuple(
        Payment(payer=offender, payee=s, amount=FALSE_WIN_POINTS,
                reason=f"false win: {FALSE_WIN_POINTS} points to every other player", rule=RULE_FALSE_WIN)
        for s in ss if s != offender
    )
    note = "the offender plays on with a dead hand (001 §Неправильные объявления 5, 7)"
    return PenaltyVerdict(Settlement(players, lines, 0, (note,)), "dead", True)


def withdrawn_win(players: int, offender: int) -> PenaltyVerdict:
    """A win declared and withdrawn before exposing any tile: allowed, no penalty."""
    seats(players)
    return PenaltyVerdict(Settlement(players, (), 0, (f"withdrawn before exposing: no penalty ({RULE_WITHDRAWN})",)),
                          "live", True)


def unpriced(players: int, offender: int, code: str) -> PenaltyVerdict:
    """An offence with no amount in the seed: logged for a human referee, no points move (spec A24)."""
    what, rule = UNPRICED[code]
    seats(players)
    return PenaltyVerdict(Settlement(players, (), 0, (f"seat {offender}: {what} ({rule}); no amount in the seed",)),
                          "live", True, logged_for_referee=code)


PENALTIES = {"false_win": false_win, "win_declared_then_withdrawn_before_exposing": withdrawn_win}


# ----------------------------------------------------------------------------------------------------------
# Tile count — 001 §Перебор и недобор костей (spec §8.2, A23)


def count_status(playing_tiles: int, discarding: bool) -> str:
    """'short', 'long' or 'correct': 14 playing tiles when about to discard, 13 otherwise (exposed sets at 3
    each, flowers never counted)."""
    want = 14 if discarding else 13
    if playing_tiles < want:
        return "short"
    if playing_tiles > want:
        return "long"
    return "correct"


@dataclass
class HandStatus:
    """A player's hand during one hand: once dead, dead until the hand ends (item 5)."""

    dead: bool = False
    reason: str | None = None

    def check_count(self, playing_tiles: int, discarding: bool) -> str:
        st = count_status(playing_tiles, discarding)
        if st != "correct" and not self.dead:
            self.dead = True
            self.reason = f"{st} hand ({RULE_COUNT})"
        return st

    def kill(self, reason: str) -> None:
        if not self.dead:
            self.dead, self.reason = True, reason

    @property
    def may_win(self) -> bool:
        return not self.dead

    @property
    def may_claim(self) -> bool:
        return not self.dead


_UNPRICED_RU = {"looked_during_deal": "Смотрел или ощупывал кости до конца раздачи",
                "play_tempo": "Слишком быстрое взятие или слишком медленная игра",
                "misnamed_discard": "Неверно назвал сброшенную кость и ввёл в заблуждение"}
# The console's catalogue (rules/game/penalty_catalogue.py): the false win's price (001 §Штрафы 1); the seed
# names the other offences without an amount: the judge decides.
CATALOGUE: tuple[PenaltyKind, ...] = (
    PenaltyKind("false_win", "false win (to each other player)", "Ложный выигрыш", RULE_FALSE_WIN,
                payee="each_other", amount=FALSE_WIN_POINTS, dead_hand=True),
    *(PenaltyKind(code, text, _UNPRICED_RU[code], rule) for code, (text, rule) in UNPRICED.items()),
)
