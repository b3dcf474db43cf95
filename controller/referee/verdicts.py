"""What the referee judges by itself, as data: the claim window on the shared clock, the referee's own
violation codes with their default seed references, and every verdict's text in Russian and English. What
a rule set words differently (its seed's references for these codes, the texts of codes it adds) is the
profile's data: ``RuleSet.referee_notes`` (:class:`rules.game.table_data.RefereeNotes`).

The hand machine (``rules.game``) judges the rules of play; the referee adds what only the table sees: the
time a claim came (the camera and the call buttons are stamped on one monotonic clock), a discard put into
a pond out of turn, a rack with the wrong number of tiles.
"""
from __future__ import annotations

from collections.abc import Mapping

from rules.events import Violation
from rules.game.protocols import RuleSet
from rules.game.table_data import RefereeNotes
from rules.game.violations import CODES

#: How long the referee waits for further calls on a discard before it grants a win on it, where the
#: profile sets no claim time (riichi and Red close the window at the next player's draw, which the camera
#: cannot see; WMSG sets none). Where it does (MPL, MCR: 3 s), the hand machine's claim window decides:
#: its deadline on the shared clock (``rules.game.state.ClaimWindow``) and its ``claim_late`` verdict.
CALL_WAIT_S = 3.0

#: The referee's own codes: (default seed reference, English meaning); a rule set's seed words the
#: reference in its ``referee_notes.references``.
REFEREE_CODES: dict[str, tuple[str, str]] = {
    "out_of_turn": ("000 §2.5.3", "a discard out of turn"),
    "tile_count": ("003 §Отдельные нарушения 8", "a rack with the wrong number of tiles"),
    "dead_hand_claim": ("004 Rules 3.4.6", "a claim by a hand declared dead: a chombo, the hand is dealt again"),
}

#: Russian text of every verdict (the machine's codes and the referee's), for the people at the table.
RUSSIAN: dict[str, str] = {
    "out_of_phase": "действие, которое сейчас не разрешено",
    "bad_event": "неверное событие (место, кость или вид)",
    "wrong_break": "стена разбита не там, где указывают кости",
    "out_of_turn": "снос вне очереди",
    "dead_hand_claim": "попытка претендовать на тайл после объявления мёртвой руки: чомбо, раздача переигрывается",
    "draw_out_of_turn": "взятие кости вне очереди",
    "wall_empty": "взятие из пустой стены",
    "wrong_wall_tile": "взятая кость не та, что лежит в стене",
    "unknown_tile": "кость не видна",
    "tile_not_held": "снос или комбинация из кости, которой нет на руке",
    "flower_discard": "цветок нельзя сносить",
    "not_a_flower": "объявленная кость — не цветок",
    "claim_own_discard": "объявление на собственный снос",
    "claim_not_allowed": "такого объявления нет в этих правилах",
    "chow_not_from_left": "чоу можно взять только у игрока слева",
    "claim_inactive_player": "объявление игроком, который выиграл или чья рука мертва",
    "claim_last_tile": "такое объявление на последний снос не разрешено",
    "claim_priority": "комбинация взята в обход объявления с более высоким приоритетом",
    "claim_not_announced": "комбинация без объявления",
    "bad_meld": "кости не образуют объявленную комбинацию",
    "kong_not_allowed": "в этих правилах нет конгов",
    "kong_on_last_tile": "конг без костей в стене",
    "kong_after_claim": "закрытый или добавленный конг в ходе, начатом с объявления",
    "multiple_win_not_allowed": "снос выигрывает только один игрок",
    "impossible_context": "выигрыш при обстоятельствах, которые не могут совпасть",
    "win_out_of_turn": "победа на своей кости вне очереди",
    "false_win": "ложное «Ху»: рука не выигрышная",
    "furiten": "победа со сноса в состоянии фуритен",
    "false_tenpai": "объявлена готовая рука (темпай), которая не готова",
    "reveal_mismatch": "открытые кости противоречат записи",
    "tile_count": "неверное число костей на руке",
    "settlement_mismatch": "расчёт отличается от расчёта движка",
    "dealer_mismatch": "следующий раздающий отличается от движка",
    "missing_suit_twice": "запрещённая масть выбирается один раз",
    "bad_missing_suit": "запрещённая масть — m, p или s",
    "missing_suit_tiles": "комбинация или победа с костями запрещённой масти",
    "flower_pig": "кости запрещённой масти на руке при проверке",
    "kuikae": "снос, запрещённый последним объявлением (куикаэ)",
    "riichi_not_allowed": "риичи без выполненных условий",
    "riichi_open_hand": "риичи с открытой рукой",
    "riichi_too_late": "риичи, когда в живой стене меньше четырёх костей",
    "riichi_not_tenpai": "риичи с неготовой рукой",
    "riichi_hand_changed": "после риичи сносится только взятая кость",
    "riichi_illegal_kan": "закрытый кан после риичи, меняющий руку",
    "dora_mismatch": "индикатор доры не соответствует стене или канам",
    "claim_late": "объявление после окончания времени на объявление",
    "golden_rule": "вторая победа должна стоить не меньше первой",
    "siamese_no_draw": "победа на своей кости без взятия из стены в этот ход",
    "siamese_drawn_tile": "только первая победа может оставить взятую кость",
    "siamese_slot": "комбинация или победа указывает одну из двух рук",
    "siamese_slot_won": "эта рука уже выиграла",
    "siamese_slot_full": "в руке не больше четырёх комбинаций",
}


def referee_rule(notes: RefereeNotes, code: str, profile_rules: Mapping[str, str]) -> str:
    """The seed reference of one of the referee's own codes under a rule set: its ``notes``, its
    ``violation_rules`` (``profile_rules``), else the referee's default."""
    return notes.references.get(code) or profile_rules.get(code) or REFEREE_CODES[code][0]


def english(code: str, notes: RefereeNotes | None = None) -> str:
    """The English of a verdict's code (``notes``: the rule set's, whose own codes it words first)."""
    own = notes.texts.get(code) if notes is not None else None
    if own is not None:
        return own[0]
    meaning = REFEREE_CODES.get(code) or CODES.get(code)
    return meaning[1] if meaning else code.replace("_", " ")


def russian(code: str, notes: RefereeNotes | None = None) -> str:
    own = notes.texts.get(code) if notes is not None else None
    if own is not None:
        return own[1]
    return RUSSIAN.get(code, code.replace("_", " "))


SEATS_EN = ("East", "South", "West", "North")
SEATS_RU = ("Восток", "Юг", "Запад", "Север")


def verdict_lines(v: Violation, rules: RuleSet | None = None) -> tuple[str, str]:
    """The verdict for people: (English, Russian), each naming the seat, the rule and the seed reference;
    ``rules``: the rule set played (the texts of the codes it adds)."""
    notes = rules.referee_notes if rules is not None else None
    who_en = SEATS_EN[v.seat] if v.seat is not None and 0 <= v.seat < 4 else "table"
    who_ru = SEATS_RU[v.seat] if v.seat is not None and 0 <= v.seat < 4 else "стол"
    ref = f" [{v.rule}]" if v.rule else ""
    en = english(v.code, notes)
    detail = f" ({v.message})" if v.message and v.message != en else ""
    return (f"{who_en}: {en}{detail}{ref}", f"{who_ru}: {russian(v.code, notes)}{ref}")
