"""How a session ends at a real table, per seed (controller/hall_link/session_rules.py); the hall's clock is the
outer bound. Pure: the hall's session, the hands played, the time."""
from __future__ import annotations

from controller.hall_link.session_rules import SessionRules
from rules.profiles import registry

PLAYERS = ["A", "B", "C", "D"]
NOW = 1_000_000.0


def _session(minutes_left: float | None = 60, ended: bool = False) -> dict:
    return {"session": 1, "players": PLAYERS, "ends_at": None if minutes_left is None else NOW + 60 * minutes_left,
            "ended": ended}


def _hands(n: int, passes: int | None = None) -> list[dict]:
    """``n`` hands; the deal passes in the first ``passes`` of them (all by default)."""
    passes = n if passes is None else passes
    return [{"dealer": i % 4, "next_dealer": (i + 1) % 4 if i < passes else i % 4} for i in range(n)]


def test_riichi_red_zone_only_started_hands_are_finished():
    """004 line 62 (Reg 6.1.2): «За 10 минут до окончания времени начинается „красная зона“. В красной зоне
    можно только доигрывать начатые раздачи»."""
    rules = SessionRules(registry.get("riichi-ema2016"))
    before = rules.decide(_session(10.5), _hands(3), NOW)
    assert before.may_start and not before.red_zone and before.seconds_left == 630.0
    inside = rules.decide(_session(9.5), _hands(3), NOW)
    assert not inside.may_start and inside.reason == "red_zone" and inside.red_zone
    assert inside.text_ru.startswith("Красная зона") and inside.text_en.startswith("Red zone")
    playing = rules.decide(_session(9.5), _hands(3), NOW, in_play=True)
    assert playing.last_hand and "Последняя раздача" in playing.text_ru  # the hand in play is finished, the last
    # the other rule sets have no red zone: hands start until the time is up (000 §2.4.4 «с доигрыванием»)
    sichuan = SessionRules(registry.get("sichuan-mpl2025")).decide(_session(9.5), _hands(3), NOW)
    assert sichuan.may_start and not sichuan.red_zone


def test_riichi_no_extra_rounds_after_south_4():
    """004 line 63 (Reg 6.1.3): «Если последняя сдача южного раунда завершена до окончания основного времени
    никакие дополнительные раунды не играются»; a South 4 dealer who keeps the deal plays on (Rules 3.6)."""
    rules = SessionRules(registry.get("riichi-ema2016"))
    assert rules.decide(_session(50), _hands(8), NOW).reason == "game_over"
    assert rules.decide(_session(50), _hands(9, passes=7), NOW).may_start  # the dealer kept the deal once
    nxt = rules.decide(_session(50), _hands(7), NOW)
    assert nxt.may_start and nxt.last_hand  # South 4 is next: the last unless its dealer keeps the deal


def test_mcr_four_rounds_or_their_time():
    """003 line 9: «Четыре раунда игры, или, в случае турнира, игра в течение времени, отведённого для четырёх
    раундов»: 16 hands, or the hall's clock, whichever comes first."""
    rules = SessionRules(registry.get("mcr"))
    assert rules.decide(_session(30), _hands(15), NOW).may_start
    assert rules.decide(_session(30), _hands(15), NOW).last_hand
    over = rules.decide(_session(30), _hands(16), NOW)
    assert not over.may_start and over.reason == "game_over" and over.text_ru == "Все раздачи сессии сыграны"
    assert rules.decide(_session(0), _hands(4), NOW).reason == "time"  # the hall's clock: the outer bound
    assert rules.decide(_session(30, ended=True), _hands(4), NOW).reason == "ended"  # the hall's gong


def test_sichuan_all_the_sessions_hands_or_the_gong():
    """000 line 190 (§2.4.4): «Если за столом были сыграны все отведённые в сессии сдачи в течение установленного
    времени, сессия завершается»; after the gong no new hand starts."""
    prof = registry.get("sichuan-mpl2025")
    rules = SessionRules(prof)
    assert rules.decide(_session(30), _hands(prof.session_hands - 1), NOW).may_start
    assert rules.decide(_session(30), _hands(prof.session_hands), NOW).reason == "game_over"
    assert rules.decide(_session(30, ended=True), _hands(1), NOW).reason == "ended"


def test_mcr_players_change_chairs_each_round():
    """003 line 2168 «Способ распределения мест»: in the South round B is East, A South, D West, C North."""
    rules = SessionRules(registry.get("mcr"))
    assert rules.chairs(PLAYERS, 0) == ["A", "B", "C", "D"]
    assert rules.chairs(PLAYERS, 4) == ["B", "A", "D", "C"]
    assert rules.chairs(PLAYERS, 8) == ["C", "D", "B", "A"]  # West round: C East, D South, B West, A North
    assert SessionRules(registry.get("riichi-ema2016")).chairs(PLAYERS, 4) == PLAYERS  # riichi: nobody moves


def test_no_hall_session_no_limit():
    rules = SessionRules(registry.get("mcr"))
    assert rules.decide({}, _hands(20), NOW).may_start


def test_riichi_a_hand_a_chombo_had_dealt_again_is_not_a_hand_played():
    """004 line 570 (Rules 5.9): «В случае чомбо происходит пересдача и не может считается, что раздача была
    сыграна. Раздача, завершившаяся исчерпывающей ничьей, считается за сыгранную раздачу.» — the chairs and the
    game's end count the hands played (MCR's chairs move every four, 003 line 2168); the red zone is 004 line 62's."""
    mcr = SessionRules(registry.get("mcr"))
    four = _hands(4)
    replayed = [*four[:3], {"dealer": 3, "next_dealer": 3, "replayed": {"code": "chombo"}}]
    assert mcr.decide(_session(), four, NOW).hands_played == 4
    assert mcr.decide(_session(), replayed, NOW).hands_played == 3
    assert mcr.chairs(PLAYERS, 3) == PLAYERS  # still the East round's chairs
    drawn = [*four[:3], {"dealer": 3, "next_dealer": 3, "exhaustive": True}]  # a draw is a hand played
    assert mcr.decide(_session(), drawn, NOW).hands_played == 4
    riichi = SessionRules(registry.get("riichi-ema2016"))
    assert riichi.decide(_session(10.5), replayed, NOW).may_start  # the red zone (004 l.62) starts at 10 minutes,
    assert not riichi.decide(_session(10.0), replayed, NOW).may_start  # not at Rules 5.9's 15 (l.570)
