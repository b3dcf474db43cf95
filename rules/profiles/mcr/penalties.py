"""Fouls and penalties (003 «Нарушения и штрафы», «Отдельные нарушения»; spec §9).

Two kinds of sanction: points paid to the other players (false Hu, 003 §Отдельные нарушения 6; tiles
exposed after an invalid Hu, §7), and deductions that are *not* added to anyone (003 §Нарушения 1:
«эти очки не прибавляются к текущей сумме очков других игроков»). Each sanction says whether the player
keeps the right to win the current hand.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from rules.game.penalty_catalogue import PenaltyKind
from rules.profiles.mcr.settlement import Payment

DEDUCTIONS = (5, 10, 20, 40, 50, 60)  # 003 §Нарушения 1: the referee's scale


class Foul(StrEnum):
    FALSE_HU_INSUFFICIENT_FAN = "false_hu_insufficient_fan"  # §Отдельные нарушения 6 «Недобор очков»
    FALSE_HU_WRONG_CLAIM = "false_hu_wrong_claim"  # §6 «Ошибочное требование Ху»
    WRONG_MELD_OR_FLOWER = "wrong_meld_or_flower"  # §2: dead hand
    EMPTY_CLAIM = "empty_claim"  # §3: escalation
    WALL_TOUCH = "wall_touch"  # §4: escalation; a seen tile also makes a dead hand
    LATE_PUNG = "late_pung"  # §5: escalation, counted per round
    EXPOSED_AFTER_INVALID_HU = "exposed_after_invalid_hu"  # §7: 30 to the others, no win
    WRONG_TILE_COUNT = "wrong_tile_count"  # §8: cannot win this hand
    GIVING_INFORMATION = "giving_information"  # §9: cannot win this hand
    CLAIMED_TILE_NOT_TAKEN = "claimed_tile_not_taken"  # §11: dead hand
    EXPOSED_BEFORE_HU = "exposed_before_hu"  # §11: dead hand


@dataclass
class Sanction:
    seat: int
    foul: Foul
    ref: str
    payments: list[Payment] = field(default_factory=list)
    deduction: int = 0  # points removed, not given to anyone
    warning: bool = False
    may_win_this_hand: bool = True

    @property
    def paid_total(self) -> int:
        return sum(p.amount for p in self.payments)


def _to_each_other(seat: int, amount: int, seats: tuple[int, ...], reason: str, ref: str) -> list[Payment]:
    return [Payment(seat, s, amount, reason, ref) for s in seats if s != seat]


def false_hu(seat: int, insufficient_fan: bool, seats: tuple[int, ...] = (0, 1, 2, 3)) -> Sanction:
    """A false Hu: under 8 fan → 10 to each other player; a mistaken claim → 20 to each; no win this hand.

    003 §Отдельные нарушения 6 (and «Внимание!» after §Способы объявления победы: «штрафом в 30 очков
    (по 10 очков каждому игроку)»). The sentence «…не подлежит штрафу» of §7 is read as in spec §12 A40.
    """
    if insufficient_fan:
        return Sanction(seat, Foul.FALSE_HU_INSUFFICIENT_FAN, "003 §Отдельные нарушения 6",
                        _to_each_other(seat, 10, seats, "false hu: under 8 fan", "003 §Отдельные нарушения 6"),
                        may_win_this_hand=False)
    return Sanction(seat, Foul.FALSE_HU_WRONG_CLAIM, "003 §Отдельные нарушения 6",
                    _to_each_other(seat, 20, seats, "false hu: mistaken claim", "003 §Отдельные нарушения 6"),
                    may_win_this_hand=False)


def escalation(occurrence: int, after: tuple[int, ...] = (40, 60)) -> int:
    """Deduction for the n-th occurrence (1-based): warning (0), 5, 10, 20, then «и так далее»:
    ``after`` (spec §12 A37: 40, then 60 for every further one; configurable)."""
    if occurrence < 1:
        raise ValueError("occurrence counts from 1")
    steps = (0, 5, 10, 20) + after
    return steps[min(occurrence, len(steps)) - 1]


def escalating(seat: int, foul: Foul, occurrence: int, tile_seen: bool = False) -> Sanction:
    """Empty claim (§3), wall touch (§4) or late pung (§5): warning, −5, −10, −20, … not given to others."""
    refs = {Foul.EMPTY_CLAIM: "003 §Отдельные нарушения 3", Foul.WALL_TOUCH: "003 §Отдельные нарушения 4",
            Foul.LATE_PUNG: "003 §Отдельные нарушения 5"}
    if foul not in refs:
        raise ValueError(f"{foul} is not an escalating foul")
    d = escalation(occurrence)
    may_win = not (foul is Foul.WALL_TOUCH and tile_seen)
    return Sanction(seat, foul, refs[foul], deduction=d, warning=d == 0, may_win_this_hand=may_win)


def exposed_after_hu(seat: int, hu_valid: bool, seats: tuple[int, ...] = (0, 1, 2, 3)) -> Sanction:
    """Exposing all tiles after another's Hu (003 §Отдельные нарушения 7): a warning if the Hu stands;
    otherwise no win this hand and 30 points, 10 to each other player (spec §12 A39)."""
    ref = "003 §Отдельные нарушения 7"
    if hu_valid:
        return Sanction(seat, Foul.EXPOSED_AFTER_INVALID_HU, ref, warning=True)
    return Sanction(seat, Foul.EXPOSED_AFTER_INVALID_HU, ref,
                    _to_each_other(seat, 10, seats, "tiles exposed after an invalid hu", ref),
                    may_win_this_hand=False)


def dead_hand(seat: int, foul: Foul) -> Sanction:
    """Fouls whose only sanction is losing the right to win this hand (the player keeps playing)."""
    refs = {Foul.WRONG_MELD_OR_FLOWER: "003 §Отдельные нарушения 2", Foul.WRONG_TILE_COUNT:
            "003 §Отдельные нарушения 8", Foul.GIVING_INFORMATION: "003 §Отдельные нарушения 9",
            Foul.CLAIMED_TILE_NOT_TAKEN: "003 §Отдельные нарушения 11", Foul.EXPOSED_BEFORE_HU:
            "003 §Отдельные нарушения 11"}
    if foul not in refs:
        raise ValueError(f"{foul} is not a dead-hand foul")
    return Sanction(seat, foul, refs[foul], may_win_this_hand=False)


def deduction(seat: int, foul: Foul, points: int, ref: str) -> Sanction:
    """A referee's deduction from the scale 5..60 (003 §Нарушения 1), not given to the others."""
    if points not in DEDUCTIONS:
        raise ValueError(f"a deduction is one of {DEDUCTIONS}")
    return Sanction(seat, foul, ref, deduction=points)


_LADDER = (0, 5, 10, 20, 40, 60)  # warning, 5, 10, 20, «и так далее» (spec §12 A37: 40, then 60): escalation()
# The console's catalogue (rules/game/penalty_catalogue.py), 003 «Нарушения и штрафы» (lines 2128-2160).
CATALOGUE: tuple[PenaltyKind, ...] = (
    PenaltyKind("deduction", "deduction for a breach of the rules (not given to the others)",
                "Снятие очков за нарушение правил", "003 «Нарушения и штрафы» 1 (line 2130)", choices=DEDUCTIONS),
    PenaltyKind(Foul.EMPTY_CLAIM, "empty claim of chow, pung or kong", "Пустое требование чоу, панга или конга",
                "003 «Отдельные нарушения» 3 (line 2140)", ladder=_LADDER),
    PenaltyKind(Foul.WALL_TOUCH, "touching a wall tile before the previous discard", "Касание плитки на стене",
                "003 «Отдельные нарушения» 4 (line 2142)", ladder=_LADDER),
    PenaltyKind(Foul.LATE_PUNG, "pung claimed later than 3 s (counted in each round)", "Позднее требование панга",
                "003 «Отдельные нарушения» 5 (line 2144)", ladder=_LADDER, per_hands=4),
    PenaltyKind(Foul.FALSE_HU_INSUFFICIENT_FAN, "false hu: under 8 fan (10 to each other player)",
                "Ложное ху: недобор очков", "003 «Отдельные нарушения» 6 (line 2147)", payee="each_other", amount=10,
                dead_hand=True),
    PenaltyKind(Foul.FALSE_HU_WRONG_CLAIM, "false hu: mistaken claim (20 to each other player)",
                "Ложное ху: ошибочное требование", "003 «Отдельные нарушения» 6 (line 2148)", payee="each_other",
                amount=20, dead_hand=True),
    PenaltyKind("knocked_over_tile", "knocked over another player's tile (5 to 60 to that player)",
                "Опрокинул плитку другого игрока", "003 «Отдельные нарушения» 7 (line 2152)", payee="one_player",
                bounds=(5, 60)),
    *(PenaltyKind(foul, what + " (dead hand)", "Мёртвая рука: " + ru, f"003 «Отдельные нарушения» {ref}", amount=0,
                  dead_hand=True)
      for foul, what, ru, ref in (
          (Foul.WRONG_MELD_OR_FLOWER, "wrong chow, pung, kong or flower", "ошибочные чоу, панг, конг или цветок",
           "2 (line 2137)"),
          (Foul.WRONG_TILE_COUNT, "wrong number of tiles", "неверное количество плиток", "8 (line 2154)"),
          (Foul.GIVING_INFORMATION, "giving information", "разглашение информации", "9 (line 2156)"),
          (Foul.CLAIMED_TILE_NOT_TAKEN, "claimed tile not taken", "истребованная плитка не взята", "11 (line 2160)"),
          (Foul.EXPOSED_BEFORE_HU, "tiles exposed before hu", "раскрытие плиток до объявления ху", "11 (line 2160)"),
      )),
)
