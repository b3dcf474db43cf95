"""``mahjong-table export --format mjai``: refereed riichi hands as mjai JSON lines, checked field by field
against the events Mortal's libriichi reads, the public view only (issue #32 part 5, the mjai export)."""
from __future__ import annotations

import json
import re
from types import SimpleNamespace

import pytest

from controller.cli import main
from controller.event_store import EventStore
from controller.referee.export_mjai import MjaiError, game, kyoku, tile
from rules.events import Dealt, Discarded, DoraRevealed, Drew, HandStarted, MeldMade, Settled, Won
from tests.conftest import scaled
from tests.controller.test_table_camera import Rig, run, until

TILE = re.compile(r"^(?:[1-9][mps]|5[mps]r|[ESWNPFC]|\?)$")
ACTOR = "actor"
# every event as libriichi's Event enum declares it: its fields and their kinds (libriichi/src/mjai/event.rs)
SCHEMA: dict[str, dict[str, str]] = {
    "start_game": {"names": "names"},
    "start_kyoku": {"bakaze": "tile", "dora_marker": "tile", "kyoku": "kyoku", "honba": "u8", "kyotaku": "u8",
                    "oya": ACTOR, "scores": "scores", "tehais": "tehais"},
    "tsumo": {"actor": ACTOR, "pai": "tile"},
    "dahai": {"actor": ACTOR, "pai": "tile", "tsumogiri": "bool"},
    "chi": {"actor": ACTOR, "target": ACTOR, "pai": "tile", "consumed": "tiles2"},
    "pon": {"actor": ACTOR, "target": ACTOR, "pai": "tile", "consumed": "tiles2"},
    "daiminkan": {"actor": ACTOR, "target": ACTOR, "pai": "tile", "consumed": "tiles3"},
    "kakan": {"actor": ACTOR, "pai": "tile", "consumed": "tiles3"},
    "ankan": {"actor": ACTOR, "consumed": "tiles4"},
    "dora": {"dora_marker": "tile"},
    "reach": {"actor": ACTOR},
    "reach_accepted": {"actor": ACTOR},
    "hora": {"actor": ACTOR, "target": ACTOR, "deltas": "scores", "ura_markers": "tiles"},
    "ryukyoku": {"deltas": "scores"},
    "end_kyoku": {},
    "end_game": {},
}


def _kind_ok(kind: str, v) -> bool:
    if kind == ACTOR:
        return type(v) is int and 0 <= v <= 3
    if kind == "kyoku":
        return type(v) is int and 1 <= v <= 4
    if kind == "u8":
        return type(v) is int and 0 <= v <= 255
    if kind == "bool":
        return type(v) is bool
    if kind == "tile":
        return isinstance(v, str) and bool(TILE.match(v))
    if kind == "names":
        return isinstance(v, list) and len(v) == 4 and all(isinstance(x, str) for x in v)
    if kind == "scores":
        return isinstance(v, list) and len(v) == 4 and all(type(x) is int for x in v)
    if kind == "tehais":
        return isinstance(v, list) and len(v) == 4 and all(len(h) == 13 and all(_kind_ok("tile", t) for t in h) for h in v)
    if kind.startswith("tiles"):
        n = int(kind[5:]) if kind[5:] else None
        return isinstance(v, list) and (n is None or len(v) == n) and all(_kind_ok("tile", t) for t in v)
    raise AssertionError(kind)


def check_mjai(lines: list[dict]) -> None:
    """Every line is one of libriichi's events with exactly its fields; kyokus nest in one game."""
    for i, e in enumerate(lines):
        spec = SCHEMA.get(e.get("type"))
        assert spec is not None, f"line {i}: unknown event {e}"
        assert set(e) - {"type"} == set(spec), f"line {i}: fields {sorted(e)} are not {sorted(spec)}"
        for k, kind in spec.items():
            assert _kind_ok(kind, e[k]), f"line {i}: {k}={e[k]!r} is not a {kind}"
    types = [e["type"] for e in lines]
    assert types[0] == "start_game" and types[-1] == "end_game"
    depth = 0
    for t in types[1:-1]:
        if t == "start_kyoku":
            assert depth == 0
            depth = 1
        elif t == "end_kyoku":
            assert depth == 1
            depth = 0
        else:
            assert depth == 1, f"{t} outside a kyoku"
    assert depth == 0


def _scores_chain(lines: list[dict]) -> list[list[int]]:
    """Play the mjai log as a reader does: each kyoku's start scores from the last one's sticks and deltas;
    the scores after every kyoku."""
    after, cur = [], None
    for e in lines:
        if e["type"] == "start_kyoku":
            if after:
                assert e["scores"] == after[-1], "start_kyoku.scores do not follow from the last kyoku"
            cur = list(e["scores"])
        elif e["type"] == "reach_accepted":
            cur[e["actor"]] -= 1000
        elif e["type"] in ("hora", "ryukyoku"):
            cur = [a + b for a, b in zip(cur, e["deltas"], strict=True)]
        elif e["type"] == "end_kyoku":
            after.append(cur)
    return after


def riichi_store(tmp_path, hands: int) -> str:
    from controller.play_sources import BotPlay

    rig = Rig(tmp_path, play=BotPlay(event_delay=0))
    rig.cfg = rig.svc.cfg = rig.cfg.with_overrides(table__profile="riichi-ema2016")
    rig.svc.profile = "riichi-ema2016"

    async def scenario(svc):
        await until(lambda: svc.hands_played() >= hands, timeout=240)

    try:
        run(rig, scenario, timeout=300)
    finally:
        rig.close()
    return str(tmp_path / "events.sqlite")


def test_mjai_of_refereed_riichi_hands(tmp_path, capsys):
    n = scaled(4, 12)
    store = riichi_store(tmp_path, n)
    assert main(["export", "--all", "--store", store, "--format", "mjai"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    check_mjai(lines)
    st = EventStore(store)
    try:
        results = st.results()
        record = [e for h, _ in results for e in st.events(f"{h}/game")]
    finally:
        st.close()
    assert sum(e["type"] == "start_kyoku" for e in lines) == len(results) >= n
    # the public view: no concealed tile — the deal and every draw are unseen
    assert all(t == "?" for e in lines if e["type"] == "start_kyoku" for h in e["tehais"] for t in h)
    assert {e["pai"] for e in lines if e["type"] == "tsumo"} == {"?"}
    # every discard and call of the record, in order, with the tiles the camera saw
    assert [(e["actor"], e["pai"]) for e in lines if e["type"] == "dahai"] == [
        (e.seat, tile(e.tile)) for e in record if isinstance(e, Discarded)]
    calls = [e for e in lines if e["type"] in ("chi", "pon", "daiminkan", "kakan", "ankan")]
    assert len(calls) == sum(isinstance(e, MeldMade) for e in record)
    # each kyoku's scores: the last one's plus its sticks and deltas, equal to the table's own results
    chain = _scores_chain(lines)
    start = lines[1]["scores"]
    totals = list(start)
    for i, (_h, res) in enumerate(results):
        totals = [a + b for a, b in zip(totals, res["deltas"], strict=True)]
        assert chain[i] == totals
    # one hand alone is a game of its own
    assert main(["export", results[0][0], "--store", store, "--format", "mjai"]) == 0
    one = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    check_mjai(one)
    assert one == [lines[0], *lines[1:lines.index({"type": "end_kyoku"}) + 1], {"type": "end_game"}]


def test_mjai_of_another_rule_set_is_one_line_exit_2(tmp_path, capsys):
    from controller.play_sources import BotPlay

    rig = Rig(tmp_path, play=BotPlay(event_delay=0))  # basic: not riichi

    async def scenario(svc):
        await until(lambda: svc.hands_played() >= 1, timeout=120)

    try:
        run(rig, scenario, timeout=150)
    finally:
        rig.close()
    assert main(["export", "--all", "--store", str(tmp_path / "events.sqlite"), "--format", "mjai"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("mahjong-table: error: mjai is riichi's format") and err.count("\n") == 1


# --- hands written out event by event: the cases a short bot game may not reach ---------------------------
def _win(seat, from_seat, valid=True):
    return SimpleNamespace(seat=seat, from_seat=from_seat, valid=valid, result=SimpleNamespace(valid=valid))


def _pay(payer, payee, amount):
    return {"payer": payer, "payee": payee, "amount": amount}


def _deal(dealer=0):
    yield HandStarted(profile="riichi-ema2016", dealer=dealer, options={"honba": 1, "deposits": 1000})
    for s in range(4):
        yield Dealt(seat=s, tiles=("x",) * (14 if s == dealer else 13))
    yield DoraRevealed(indicator="0p", kind="initial")


def test_riichi_ronned_on_its_discard_is_not_accepted_and_a_double_ron_splits():
    events = [*_deal(), Discarded(seat=0, tile="1z"), Drew(seat=1), Discarded(seat=1, tile="5z", riichi=True),
              Won(seat=2, tile="5z", from_seat=1), Won(seat=3, tile="5z", from_seat=1),
              DoraRevealed(indicator="9m", kind="ura"),
              Settled(payments=(_pay(1, 2, 2000), _pay(None, 2, 1000), _pay(1, 3, 3900)), deltas=(0, -5900, 3000, 3900))]
    out, after = kyoku(events, [_win(2, 1), _win(3, 1)], [30000] * 4)
    check_mjai([{"type": "start_game", "names": ["a", "b", "c", "d"]}, *out, {"type": "end_game"}])
    assert out[0]["dora_marker"] == "5pr" and out[0]["honba"] == 1 and out[0]["kyotaku"] == 1
    assert [e["type"] for e in out] == ["start_kyoku", "tsumo", "dahai", "tsumo", "reach", "dahai", "hora", "hora",
                                        "end_kyoku"]
    assert out[-3] == {"type": "hora", "actor": 2, "target": 1, "deltas": [0, -2000, 3000, 0], "ura_markers": ["9m"]}
    assert out[-2]["deltas"] == [0, -3900, 0, 3900]  # the stick on the table went with the first winner
    assert after == [30000, 24100, 33000, 33900]


def test_kongs_dora_and_a_draw_with_a_standing_riichi():
    events = [*_deal(dealer=1), Discarded(seat=1, tile="2m", tsumogiri=True),
              Drew(seat=2), MeldMade(seat=2, kind="kong_concealed", tiles=("x", "7z", "7z", "x")),
              Drew(seat=2, source="replacement"), DoraRevealed(indicator="3s"), Discarded(seat=2, tile="4m"),
              MeldMade(seat=0, kind="pung", tiles=("4m", "4m", "4m"), from_seat=2, claimed_tile="4m"),
              Discarded(seat=0, tile="8p"), Drew(seat=1), Discarded(seat=1, tile="1s", riichi=True),
              Drew(seat=2), Discarded(seat=2, tile="9s"), Drew(seat=0),
              MeldMade(seat=0, kind="kong_added", tiles=("4m", "4m", "4m", "4m"), claimed_tile="4m"),
              Drew(seat=0, source="replacement"), Discarded(seat=0, tile="6p"),
              Settled(payments=(_pay(1, None, 1000), _pay(0, 1, 1500), _pay(2, 1, 1500)), deltas=(-1500, 2000, -1500, 0))]
    out, after = kyoku(events, [], [25000] * 4)
    check_mjai([{"type": "start_game", "names": ["a", "b", "c", "d"]}, *out, {"type": "end_game"}])
    by = {e["type"]: e for e in out}
    assert by["ankan"] == {"type": "ankan", "actor": 2, "consumed": ["C", "C", "C", "C"]}
    assert by["dora"] == {"type": "dora", "dora_marker": "3s"}
    assert by["pon"] == {"type": "pon", "actor": 0, "target": 2, "pai": "4m", "consumed": ["4m", "4m"]}
    assert by["kakan"] == {"type": "kakan", "actor": 0, "pai": "4m", "consumed": ["4m", "4m", "4m"]}
    assert out[2] == {"type": "dahai", "actor": 1, "pai": "2m", "tsumogiri": True}
    assert by["reach_accepted"]["actor"] == 1
    assert by["ryukyoku"] == {"type": "ryukyoku", "deltas": [-1500, 3000, -1500, 0]}  # the stake is not in it
    assert after == [23500, 27000, 23500, 25000]
    assert _scores_chain(out) == [after]


def test_not_riichi_and_three_players_are_refused():
    with pytest.raises(MjaiError, match="riichi's format"):
        list(game([("mcr", [], [])]))
    with pytest.raises(MjaiError, match="four-player"):
        kyoku([HandStarted(profile="riichi-ema2016", n_players=3)], [], [25000] * 4)
