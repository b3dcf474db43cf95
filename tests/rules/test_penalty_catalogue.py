"""One penalty catalogue per rule set, as profile data (rules/game/penalty_catalogue.py): amounts, who receives
them, escalation — each checked against its seed line and against the profile's own penalty functions."""
from __future__ import annotations

import pytest

from rules.game.penalty_catalogue import ChargeError, charge
from rules.profiles import registry
from rules.profiles.mcr import penalties as mcr_pen
from rules.profiles.riichi.settlement import settle_chombo

SEATS = (0, 1, 2, 3)


def kind(profile: str, code: str):
    return {k.code: k for k in registry.get(profile).penalty_catalogue}[code]


def test_sichuan_minor_violations_add_up_on_one_scale_per_session():
    """000 line 422 (§2.8.2): «по совокупности ... 0 (предупреждение) –2, –4, –8, –16, –24, –48 игровых очков,
    и эти очки не добавляются другим игрокам»; beyond 48 a TP penalty or disqualification may follow."""
    touch, late = kind("sichuan-mpl2025", "touching_wall"), kind("sichuan-mpl2025", "late_call")
    assert touch.counter == late.counter == "minor"  # different offences count together
    steps = [charge(touch if i % 2 else late, 2, SEATS, previous=i) for i in range(8)]
    assert [c.points for c in steps] == [0, 2, 2, 4, 8, 8, 24, 0]  # the rise of the total each time
    assert [sum(c.points for c in steps[: i + 1]) for i in range(7)] == [0, 2, 4, 8, 16, 24, 48]
    assert steps[0].warning and not steps[6].beyond_ladder and steps[7].beyond_ladder
    assert all(c.paid == (0, 0, 0, 0) for c in steps)  # given to nobody
    assert kind("sichuan-mpl2025", "wrong_tile_count").dead_hand  # 000 line 437: a dead hand, no points


def test_mcr_escalation_and_the_judges_scale():
    """003 lines 2130 (5, 10, 20, 40, 50 or 60, to nobody), 2140-2144 (a warning, then 5, 10, 20 … ; late pung
    counted in each round), 2147-2148 (false hu: 10 / 20 to each other player)."""
    touch = kind("mcr", "wall_touch")
    got = [charge(touch, 0, SEATS, previous=i).points for i in range(7)]
    assert got == [mcr_pen.escalation(i + 1) for i in range(7)] == [0, 5, 10, 20, 40, 60, 60]
    assert kind("mcr", "late_pung").per_hands == 4  # «В каждом из раундов»
    assert charge(kind("mcr", "deduction"), 1, SEATS, chosen=20).points == 20
    with pytest.raises(ChargeError, match="5, 10, 20, 40, 50, 60"):
        charge(kind("mcr", "deduction"), 1, SEATS, chosen=15)
    fan = charge(kind("mcr", "false_hu_insufficient_fan"), 3, SEATS)
    assert fan.paid == (10, 10, 10, 0) and fan.points == mcr_pen.false_hu(3, True).paid_total == 30


def test_mcr_knocked_over_tile_is_paid_to_that_one_player():
    """003 line 2152: «лишается от 5 до 60 очков в пользу этого игрока в соответствии с решением судьи»."""
    k = kind("mcr", "knocked_over_tile")
    c = charge(k, 0, SEATS, chosen=30, to_seat=2)
    assert c.points == 30 and c.paid == (0, 0, 30, 0)
    with pytest.raises(ChargeError, match="5 to 60"):
        charge(k, 0, SEATS, chosen=70, to_seat=2)
    with pytest.raises(ChargeError, match="name the player"):
        charge(k, 0, SEATS, chosen=30)


def test_riichi_chombo_4000_to_east_2000_to_the_others():
    """004 line 278 (Rules 3.4.6): «Чомбо – выплата в размере манган: 4000 востоку, 2000 другими игроками»;
    the same as the referee's own chombo settlement."""
    k = kind("riichi-ema2016", "chombo")
    for offender, dealer in ((1, 0), (0, 0), (3, 2)):
        c = charge(k, offender, SEATS, dealer=dealer)
        expected = [0] * 4
        for p in settle_chombo(offender, dealer).payments:
            expected[p.payee] += p.amount
        assert c.paid == tuple(expected) and c.points == sum(expected)
    assert charge(k, 1, SEATS, dealer=0).paid == (4000, 0, 2000, 2000)
    obstruction = kind("riichi-ema2016", "obstruction")
    assert obstruction.when == "game_end" and obstruction.choices == (8000, 12000)  # 004 line 548


def test_every_catalogue_speaks_russian_and_english_and_cites_its_seed():
    for name in ("sichuan-mpl2025", "mcr", "riichi-ema2016", "red"):
        cat = registry.get(name).penalty_catalogue
        assert cat and len({k.code for k in cat}) == len(cat)
        for k in cat:
            assert k.text and k.text_ru and k.rule[:3] in ("000", "001", "003", "004")
            assert any("а" <= ch <= "я" for ch in k.text_ru.lower())
