"""The tenhou.net/6 export of refereed hands."""

from __future__ import annotations

import json

from rules.profiles.riichi.tenhou6 import game_log, hand_log, tile_code
from tests.profiles.riichi.script import RiichiScript
from tests.profiles.riichi.test_machine_hands import HANDS, riichi_ron_setup


def test_tile_codes():
    assert [tile_code(t) for t in ("1m", "9m", "1p", "5s", "1z", "4z", "5z", "7z", "0m")] == [
        11,
        19,
        21,
        35,
        41,
        44,
        45,
        47,
        51,
    ]


def test_riichi_ron_hand_log():
    s = riichi_ron_setup(options={"honba": 1, "deposits": 2000})
    s.draw(2, "7z")
    s.discard(2, "4m")
    s.claim(1, "hu", 2, "4m")
    s.arbitrate()
    s.reveal_dora("1s", kind="ura")
    s.reveal(1, "23456m67888p234s")
    deltas, _ = s.finish()
    entry = hand_log(s.m.log, [30000] * 4, s.state.wins)
    assert entry[0] == [0, 1, 2]  # East 1, 1 counter, 2 sticks
    assert entry[2] == [15] and entry[3] == [31]  # indicators 5m, ura 1s
    assert all(len(entry[4 + 3 * p]) == 13 for p in range(4))  # haipai: 13 each
    assert entry[5][0] == 45  # the dealer's 14th tile is his first draw
    assert entry[4 + 3 * 1 + 2] == ["r41"]  # seat 1's riichi discard
    result = entry[-1]
    assert result[0] == "和了" and result[1] == deltas
    who, frm, pao, value, *yaku = result[2]
    assert (who, frm, pao, value) == (1, 2, 1, "跳満12000点")
    assert "両立直(2飜)" in yaku and "裏ドラ(1飜)" in yaku and "立直(1飜)" not in yaku
    doc = game_log([entry])
    assert json.loads(json.dumps(doc, ensure_ascii=False)) == doc  # plain JSON


def test_calls_and_draw_hand_log():
    s = RiichiScript(HANDS)
    s.discard(0, "9m")
    s.draw(1, "5z")
    s.discard(1, "5z")
    s.claim(0, "pung", 1, "5z", "55z")  # from the right player
    s.arbitrate()
    s.discard(0, "1m")
    s.draw(1, "6z")
    s.discard(1, "6z")
    s.claim(2, "pung", 1, "6z", "66z")  # from the left player
    s.arbitrate()
    s.discard(2, "1z")
    entry = hand_log(s.m.log, [30000] * 4)
    draws0, draws2 = entry[5], entry[11]
    assert draws0[-1] == "4545p45"  # claimed from the right: last position
    assert draws2[-1] == "p464646"  # claimed from the left: first position
    assert entry[-1][0] == "流局"


def test_a_bot_game_exports_hand_by_hand():
    from rules.profiles import registry
    from rules.simulate import play_game

    prof = registry.get("riichi-ema2016")
    g = play_game(prof, seed=5)
    scores = [30000] * 4
    entries = []
    for h in g.hands:
        e = hand_log(h.events, scores, h.machine.state.wins)
        entries.append(e)
        assert len(e) == 4 + 12 + 1
        for p in range(4):
            haipai, draws, discards = e[4 + 3 * p], e[5 + 3 * p], e[6 + 3 * p]
            assert len(haipai) == 13
            # every take is followed by a discard, except the winner's last tsumo
            assert len(discards) in (len(draws), len(draws) - 1)
        result = e[-1]
        assert result[0] in ("和了", "流局")
        if result[0] == "和了":
            assert sum(result[1]) == 0  # the bots declare no riichi: no sticks
        scores = [a + b for a, b in zip(scores, h.deltas, strict=True)]
    doc = game_log(entries)
    assert len(doc["log"]) == len(g.hands) and doc["rule"]["aka"] == 0
