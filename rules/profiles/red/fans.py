"""The Red Mahjong fan table as data (001 «Таблица фанов»; spec §6.2).

Every fan is additive: no fan excludes or implies away another (spec A16), so ``exclusions`` is empty
for all 18 — kept as a column so the table states it. ``multiplicity``: ``"per_flower"``,
``"per_group"`` (once per distinct group of sets, spec A15) or ``"once"``.
"""
from __future__ import annotations

from dataclasses import dataclass

from rules.profiles.red import detectors as d
from rules.units import Unit


@dataclass(frozen=True)
class Fan:
    no: int
    name: str  # English name used in the vectors
    name_ru: str  # the seed's name
    value: int  # points per count (the chaotic hand's value is an option, see RedOptions)
    definition: str  # the seed's definition, translated
    multiplicity: str
    unit: Unit[d.Reading]
    exclusions: tuple[int, ...] = ()


FANS: tuple[Fan, ...] = (
    Fan(1, "Flower/Season", "Цветок/сезон", 3,
        "3 points for each flower or season the player holds", "per_flower", d.UNITS["flower_season"]),
    Fan(2, "All Chows", "Все чоу", 3,
        "all sets are chows (the pair may be anything)", "once", d.UNITS["all_chows"]),
    Fan(3, "Mixed Double Chow", "Смешанное двойное чоу", 3,
        "two chows with the same numbers in two different suits", "per_group", d.UNITS["mixed_double_chow"]),
    Fan(4, "Double Pung", "Двойной панг", 3,
        "two pungs of the same number in two different suits", "per_group", d.UNITS["double_pung"]),
    Fan(5, "Two Terminal Chows", "Два терминальных чоу", 3,
        'two chows "123" and "789" in one suit', "per_group", d.UNITS["two_terminal_chows"]),
    Fan(6, "Honour Pung", "Панг благородных", 3,
        "a pung of dragons or of winds", "per_group", d.UNITS["honour_pung"]),
    Fan(7, "Special Pair", "Особая пара", 3,
        "the pair is 2, 5 or 8 of a suit", "once", d.UNITS["special_pair"]),
    Fan(8, "All Pungs", "Все панги", 12,
        "all sets are pungs (the pair may be anything)", "once", d.UNITS["all_pungs"]),
    Fan(9, "Pure Double Chow", "Чистое двойное чоу", 12,
        "two chows with the same numbers in one suit", "per_group", d.UNITS["pure_double_chow"]),
    Fan(10, "Pure Straight", "Чистый ряд", 12,
        'three chows forming 1 to 9: "123-456-789"', "per_group", d.UNITS["pure_straight"]),
    Fan(11, "Chaotic Hand", "Хаотичная рука", 12,
        "irregular hand: single honours and single suited tiles, tiles of one suit at least 3 apart",
        "once", d.UNITS["chaotic_hand"]),
    Fan(12, "Half Flush", "Полумасть", 12,
        "all sets are made of tiles of one suit or of honours", "once", d.UNITS["half_flush"]),
    Fan(13, "All Types", "Все типы", 16,
        "sets and pair of all three suits, winds and dragons", "once", d.UNITS["all_types"]),
    Fan(14, "Lower Five", "Пять нижних", 24,
        "all sets and the pair are suited tiles numbered 1 to 5", "once", d.UNITS["lower_five"]),
    Fan(15, "Upper Five", "Пять верхних", 24,
        "all sets and the pair are suited tiles numbered 5 to 9", "once", d.UNITS["upper_five"]),
    Fan(16, "Red Hand", "Красная рука", 32,
        "three pungs of characters and a pung of the Red dragon, the pair may be anything", "once", d.UNITS["red_hand"]),
    Fan(17, "Big Three Dragons", "Большие три дракона", 64,
        "three dragon pungs", "per_group", d.UNITS["big_three_dragons"]),
    Fan(18, "Full Flush", "Чистая масть", 64,
        "all sets and the pair in one suit", "once", d.UNITS["full_flush"]),
)

BY_NO: dict[int, Fan] = {f.no: f for f in FANS}
BY_NAME: dict[str, Fan] = {f.name: f for f in FANS}
FLOWER_FAN = BY_NO[1]
CHAOTIC_FAN = BY_NO[11]
