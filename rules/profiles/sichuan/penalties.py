"""Penalties (000 §2.8): the progressive scale, dead-hand violations, lateness, pig and false hu.

Penalty points are **not** given to the other players (000 §2.8.2), except the false-hu payment, which
000 §2.8.4.2 and 002 §11.5 pay to the players still in play. ``sichuan-wmsg`` inherits §2.8 [Interp §9].
"""
from __future__ import annotations

from dataclasses import dataclass, field

from rules.game.penalty_catalogue import PenaltyKind
from rules.profiles.sichuan.params import SichuanParams

# 000 §2.8.2 minor violations: code -> (description, seed reference)
MINOR_VIOLATIONS: dict[str, tuple[str, str]] = {
    "wrong_draw": ("tile drawn from the wrong place or out of turn (returned to the wall)", "000 §2.8.2.1"),
    "empty_call": ("pung/kong called and the tile not taken", "000 §2.8.2.2"),
    "wrong_exposure_corrected": ("wrong pung/kong exposure corrected within the turn", "000 §2.8.2.3"),
    "touching_wall": ("wall touched before the previous player discarded (two hands rule)", "000 §2.8.2.4"),
    "late_call": ("call on a discard later than 3 s", "000 §2.8.2.5"),
    "accidental_exposure": ("own concealed tiles accidentally exposed and quickly returned", "000 §2.8.2.6"),
    "discard_before_draw": ("discarded before drawing", "000 §2.8.2.7"),
    "incorrect_call": ("incorrect call words, several calls at once or a corrected call", "000 §2.8.2.8"),
    "set_corrected": ("wrongly laid set corrected before the turn passed", "000 §2.8.2.9"),
    "action_order": ("wrong order of actions declaring a pung or kong", "000 §2.8.2.10"),
    "tiles_not_in_line": ("concealed tiles not kept in one line", "000 §2.8.2.11"),
}

# 000 §2.8.3: violations giving a dead hand
DEAD_HAND_VIOLATIONS: dict[str, tuple[str, str]] = {
    "wrong_tile_count": ("too many or too few tiles", "000 §2.8.3.1"),
    "wrong_exposure": ("wrong pung/kong exposure noticed after the turn ended", "000 §2.8.3.2"),
    "wrong_draw_merged": ("wrong wall draw merged into the hand", "000 §2.8.3.3"),
    "claimed_tile_not_taken": ("claimed discard not taken into the set before the next move", "000 §2.8.3.4"),
    "hu_withdrawn": ("hu declared and withdrawn", "000 §2.8.3.5"),
    "illegal_information": ("information passed to other players", "000 §2.8.3.6"),
}


@dataclass(frozen=True)
class PenaltyStep:
    """The outcome of one more minor violation: what it costs now and the player's running total."""

    seat: int
    code: str
    number: int  # 1 for the first violation of the session
    amount: int  # GP taken now (0 for the warning)
    total: int  # the player's cumulative scale value after it
    warning: bool
    beyond_scale: bool  # past 48: the judge may add a TP penalty or disqualify (000 §2.8.2)
    rule: str = "000 §2.8.2"


@dataclass
class ProgressiveScale:
    """000 §2.8.2: 0 (warning), −2, −4, −8, −16, −24, −48 GP per session, not paid to anybody.

    The scale values are the player's cumulative total after the n-th violation [Interp AMB-23]; with
    ``cumulative=False`` they are per-violation amounts instead (param ``progressive_scale``).
    """

    scale: tuple[int, ...] = (0, 2, 4, 8, 16, 24, 48)
    cumulative: bool = True
    counts: dict[int, int] = field(default_factory=dict)

    def record(self, seat: int, code: str) -> PenaltyStep:
        if code not in MINOR_VIOLATIONS:
            raise KeyError(f"unknown minor violation {code!r}")
        n = self.counts.get(seat, 0) + 1
        self.counts[seat] = n
        top = len(self.scale) - 1
        value = self.scale[min(n - 1, top)]
        if self.cumulative:
            prev = self.scale[min(n - 2, top)] if n > 1 else 0
            amount, total = value - prev, value
        else:
            amount = value
            total = sum(self.scale[min(i, top)] for i in range(n))
        return PenaltyStep(
            seat, code, n, amount, total, warning=(n == 1 and self.scale[0] == 0), beyond_scale=n > top + 1,
            rule=MINOR_VIOLATIONS[code][1],
        )

    def total(self, seat: int) -> int:
        n = self.counts.get(seat, 0)
        if n == 0:
            return 0
        top = len(self.scale) - 1
        if self.cumulative:
            return self.scale[min(n - 1, top)]
        return sum(self.scale[min(i, top)] for i in range(n))


@dataclass(frozen=True)
class Lateness:
    gp_penalty: int = 0  # negative GP subtracted before TP are computed
    fixed_tp: float | None = None  # a fixed result replaces the session (TP and GP)
    fixed_gp: int | None = None
    rule: str = "000 §2.8.4.5"


def lateness(minutes_late: float) -> Lateness:
    """000 §2.8.4.5: ≤ 10 min → −8 GP; ≤ 15 min → −16 GP; over 15 → fixed 0 TP / 0 GP [AMB-24 bounds]."""
    if minutes_late <= 0:
        return Lateness()
    if minutes_late <= 10:
        return Lateness(gp_penalty=-8)
    if minutes_late <= 15:
        return Lateness(gp_penalty=-16)
    return Lateness(fixed_tp=0.0, fixed_gp=0)


def false_hu_penalty(params: SichuanParams, tenpai: bool) -> int:
    """000 §2.8.4.2: 8 (tenpai) / 16 (not tenpai) to each player in play; 002 §11.5: 8 each."""
    return params.false_hu_penalty(tenpai)


def pig_kind(params: SichuanParams, holds_missing_suit: bool, discards_suits: list[str] | None,
             missing_suit: str) -> str | None:
    """None (no pig), "passive" or "active" (000 §2.7.4.3; WMSG knows one kind, "pig").

    Passive: every discard of the player was of the missing suit (000 §2.8.4.1 exception). With no
    discard at all the exception does not apply [Interp AMB-22].
    """
    if not holds_missing_suit:
        return None
    if not params.pig_exception_all_discards_missing:
        return "pig"
    if discards_suits and all(s == missing_suit for s in discards_suits):
        return "passive"
    return "active"


def pig_penalty(params: SichuanParams, kind: str | None) -> int:
    """48 for an active pig (MPL) or any pig (WMSG); 0 for a passive pig (000 §2.8.4.1)."""
    if kind is None or kind == "passive":
        return 0
    return params.pig_penalty


_MINOR_RU = {  # the seed's names (000 §2.8.2, lines 424-434)
    "wrong_draw": "Ошибочное взятие кости со стены", "empty_call": "Пустое объявление панга, конга",
    "wrong_exposure_corrected": "Неправильное открытие панга, конга (исправлено)", "touching_wall": "Касание кости",
    "late_call": "Позднее объявление на кости со сноса",
    "accidental_exposure": "Непреднамеренное раскрытие костей своей руки",
    "discard_before_draw": "Снос кости раньше взятия со стены", "incorrect_call": "Некорректные объявления",
    "set_corrected": "Исправленный некорректно выставленный сет", "action_order": "Нарушения порядка действий",
    "tiles_not_in_line": "Неспособность содержать «стоящие кости» в одну линию",
}
_DEAD_RU = {  # 000 §2.8.3 (line 437)
    "wrong_tile_count": "Неправильное количество костей", "wrong_exposure": "Неправильное открытие панга, конга",
    "wrong_draw_merged": "Ошибочно взятая кость смешана с рукой",
    "claimed_tile_not_taken": "Взятая по объявлению кость не взята в сет", "hu_withdrawn": "Объявление «ху» отозвано",
    "illegal_information": "Передача информации",
}
# The console's catalogue (rules/game/penalty_catalogue.py). 000 line 422 (§2.8.2): the minor violations of one
# session add up on one scale «по совокупности» — 0 (a warning), −2, −4, −8, −16, −24, −48 GP in total, given
# to nobody [Interp AMB-23: the values are totals]; 000 line 437 (§2.8.3): a dead hand, no points.
CATALOGUE: tuple[PenaltyKind, ...] = (
    *(PenaltyKind(code, text, _MINOR_RU[code], f"{rule} (000 line 422)", ladder=(0, 2, 4, 8, 16, 24, 48),
                  cumulative=True, group="minor") for code, (text, rule) in MINOR_VIOLATIONS.items()),
    *(PenaltyKind(code, text + " (dead hand)", "Мёртвая рука: " + _DEAD_RU[code], f"{rule} (000 line 437)", amount=0,
                  dead_hand=True) for code, (text, rule) in DEAD_HAND_VIOLATIONS.items()),
    PenaltyKind("lateness_10", "late up to 10 minutes", "Опоздание до 10 минут", "000 §2.8.4.5 (line 455)", amount=8),
    PenaltyKind("lateness_15", "late 10 to 15 minutes", "Опоздание от 10 до 15 минут", "000 §2.8.4.5 (line 455)",
                amount=16),
)
