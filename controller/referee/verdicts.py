"""What the referee judges by itself, per profile, as data: the claim window on the shared clock, the
referee's own violation codes with their seed references, and every verdict's text in Russian and English.

The hand machine (``rules.game``) judges the rules of play; the referee adds what only the table sees: the
time a claim came (the camera and the call buttons are stamped on one monotonic clock), a discard put into
a pond out of turn, a rack with the wrong number of tiles.
"""
from __future__ import annotations

from rules.events import Violation
from rules.game.violations import CODES

#: How long the referee waits for further calls on a discard before it grants a win on it, where the
#: profile sets no claim time (riichi and Red close the window at the next player's draw, which the camera
#: cannot see; WMSG sets none). Where it does (MPL, MCR: 3 s), the hand machine's claim window decides:
#: its deadline on the shared clock (``rules.game.state.ClaimWindow``) and its ``claim_late`` verdict.
CALL_WAIT_S = 3.0

#: Profiles whose settlement pays an added kong at once only when made with the tile just drawn (kept apart),
#: else it is a "delayed" kong (000 §2.5.3, §2.7.2.3): the referee reads where the fourth tile came from.
DRAWN_TILE_PAID = frozenset({"sichuan-mpl2025", "sichuan-wmsg"})

#: The referee's own codes: (default seed reference, English meaning).
REFEREE_CODES: dict[str, tuple[str, str]] = {
    "out_of_turn": ("000 §2.5.3", "a discard out of turn"),
    "tile_count": ("003 §Отдельные нарушения 8", "a rack with the wrong number of tiles"),
    "dead_hand_claim": ("004 Rules 3.4.6", "a claim by a hand declared dead: a chombo, the hand is dealt again"),
}

#: Per profile, the references of the referee's own codes where the profile's seed says it differently.
REFEREE_RULES: dict[str, dict[str, str]] = {
    "sichuan-mpl2025": {"out_of_turn": "000 §2.5.3", "tile_count": "000 §2.8.3.1"},
    "sichuan-wmsg": {"out_of_turn": "000 §2.5.3", "tile_count": "000 §2.8.3.1"},
    "mcr": {"out_of_turn": "003 §Порядок игры", "tile_count": "003 §Отдельные нарушения 8"},
    "mcr-siamese": {"out_of_turn": "003 §Порядок игры", "tile_count": "003 §Отдельные нарушения 8"},
    "riichi-ema2016": {"out_of_turn": "004 Rules 3.3", "tile_count": "004 Rules 3.4.7"},
    "red": {"out_of_turn": "001 §Правила взятия и сноса 1", "tile_count": "001 §Перебор и недобор костей 1-5"},
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


def referee_rule(profile: str, code: str, profile_rules: dict[str, str]) -> str:
    """The seed reference of one of the referee's own codes for ``profile``."""
    return REFEREE_RULES.get(profile, {}).get(code) or profile_rules.get(code) or REFEREE_CODES[code][0]


def english(code: str) -> str:
    meaning = REFEREE_CODES.get(code) or CODES.get(code)
    return meaning[1] if meaning else code.replace("_", " ")


def russian(code: str) -> str:
    return RUSSIAN.get(code, code.replace("_", " "))


SEATS_EN = ("East", "South", "West", "North")
SEATS_RU = ("Восток", "Юг", "Запад", "Север")


def verdict_lines(v: Violation) -> tuple[str, str]:
    """The verdict for people: (English, Russian), each naming the seat, the rule and the seed reference."""
    who_en = SEATS_EN[v.seat] if v.seat is not None and 0 <= v.seat < 4 else "table"
    who_ru = SEATS_RU[v.seat] if v.seat is not None and 0 <= v.seat < 4 else "стол"
    ref = f" [{v.rule}]" if v.rule else ""
    detail = f" ({v.message})" if v.message and v.message != english(v.code) else ""
    return (f"{who_en}: {english(v.code)}{detail}{ref}", f"{who_ru}: {russian(v.code)}{ref}")
