"""Pantheon for riichi (issue #32 part 1): refereed hands go into a Pantheon event through its Twirp JSON API
(a stand-in server on loopback that checks every field as the proto defines it); each round is previewed and
compared first; a durable outbox sends every round once across a restart; the error answers (an expired
token, an unknown event, a round Pantheon refuses) are told apart; ``hall pantheon check`` is one line."""
from __future__ import annotations

import asyncio
import json

import pytest

from controller.cli import main
from controller.event_store import EventStore
from hall.pantheon.client import PantheonConfig, check
from hall.pantheon.outbox import PantheonOutbox, Sender
from hall.pantheon.rounds import HandSummary, Win, summarize, to_round
from rules.profiles import registry
from tests.conftest import scaled
from tests.hall.pantheon_server import FakeMimir, check_message
from tests.referee.test_export_mjai import riichi_store

IDS = [101, 102, 103, 104]


@pytest.fixture(scope="module")
def table_store(tmp_path_factory) -> str:
    """A riichi table's own event store with its refereed hands."""
    return riichi_store(tmp_path_factory.mktemp("table"), scaled(5, 12))


@pytest.fixture(scope="module")
def hands(table_store):
    """Refereed riichi hands of a table (its own event store), as Pantheon summaries, in order."""
    st = EventStore(table_store)
    profile = registry.get("riichi-ema2016")
    try:
        return [(h, summarize(st.events(f"{h}/game"), profile), res) for h, res in st.results()]
    finally:
        st.close()


@pytest.fixture
def server():
    s = FakeMimir(players=tuple(IDS)).start()
    yield s
    s.stop()


def _cfg(server: FakeMimir, **kw) -> PantheonConfig:
    base = {"url": server.url, "token": "good-token", "person_id": 5, "event_id": server.event_id}
    base.update(kw)
    return PantheonConfig(**base)


def _fill(ob: PantheonOutbox, hands, game: str = "table-1/s1") -> None:
    ob.start_game(game, IDS)
    for h, summary, _res in hands:
        ob.add_round(game, h, summary)
    ob.end_game(game)


def test_every_hand_goes_to_pantheon_once_with_the_same_scores(tmp_path, server, hands):
    ob = PantheonOutbox(tmp_path / "p.sqlite")
    _fill(ob, hands)
    rep = asyncio.run(Sender(ob, _cfg(server)).drain())
    assert (rep.rounds, rep.refused, rep.disagreements, rep.error) == (len(hands), 0, 0, "")
    assert rep.line() == f"pantheon: sent {len(hands) + 2}, accepted {len(hands) + 2}, refused 0, disagreements 0, waiting 0"
    (s,) = server.sessions.values()
    assert s.players == IDS and s.finished and len(s.rounds) == len(hands)
    totals = {p: 30000 for p in IDS}
    for _h, _s, res in hands:
        for p, d in zip(IDS, res["deltas"], strict=True):
            totals[p] += d
    assert s.scores == totals  # Pantheon's own computation from han/fu/riichi/honba equals the table's
    assert server.rpc_names() == ["StartGame"] + ["PreviewRound", "AddRound"] * len(hands) + ["EndGame"]
    for _rpc, _body, headers in server.calls:
        assert headers == {"X-Auth-Token": "good-token", "X-Current-Person-Id": "5",
                           "X-Current-Event-Id": str(server.event_id)}
    # written twice, sent once
    _fill(ob, hands)
    assert asyncio.run(Sender(ob, _cfg(server)).drain()).sent == 0
    assert len(s.rounds) == len(hands) and ob.counts() == {"accepted": len(hands) + 2}


def test_a_restart_neither_loses_nor_doubles_a_round(tmp_path, server, hands):
    path = tmp_path / "p.sqlite"
    ob = PantheonOutbox(path)
    _fill(ob, hands)
    dropped = []

    def drop(rpc, body):  # the second round is recorded, but its answer is lost (the hall goes down)
        if rpc == "AddRound" and not dropped and len(next(iter(server.sessions.values())).rounds) == 2:
            dropped.append(body)
            return True
        return False

    server.drop_answer = drop
    rep = asyncio.run(Sender(ob, _cfg(server)).drain())
    assert rep.error.startswith("unreachable") and rep.rounds == 1 and dropped
    assert [i.state for i in ob.items() if i.rpc == "AddRound"][:2] == ["accepted", "inflight"]
    ob.close()
    ob = PantheonOutbox(path)  # the restart: a new outbox on the same file
    rep = asyncio.run(Sender(ob, _cfg(server)).drain())
    assert rep.reconciled == 1 and rep.refused == 0 and rep.error == ""
    (s,) = server.sessions.values()
    assert len(s.rounds) == len(hands) and s.finished  # every round once
    assert server.rpc_names().count("AddRound") == len(hands)
    assert ob.counts() == {"accepted": len(hands) + 2}


def test_a_round_marked_in_flight_that_never_arrived_is_sent(tmp_path, server, hands):
    ob2 = PantheonOutbox(tmp_path / "q.sqlite")
    ob2.start_game("g", IDS)
    ob2.add_round("g", hands[0][0], hands[0][1])
    asyncio.run(Sender(ob2, _cfg(server)).drain())  # the game starts, its first round is recorded
    ob2.add_round("g", hands[1][0], hands[1][1])
    ob2.db.execute("UPDATE items SET state='inflight' WHERE key=?", (f"round:g/{hands[1][0]}",))  # crashed before sending
    rep = asyncio.run(Sender(ob2, _cfg(server)).drain())
    assert (rep.reconciled, rep.rounds) == (0, 1)
    assert len(server.sessions[ob2.session_hash("g")].rounds) == 2


def test_a_disagreement_is_shown_and_not_sent_until_the_judge_releases_it(tmp_path, server, hands):
    ob = PantheonOutbox(tmp_path / "p.sqlite")
    _fill(ob, hands)

    def bias(s, d):  # Pantheon's rules differ for the second round (say, another honba value)
        if len(s.rounds) == 1:
            d = dict(d)
            d[IDS[0]] += 100
            d[IDS[1]] -= 100
        return d

    server.preview_bias = bias
    shown = []
    rep = asyncio.run(Sender(ob, _cfg(server), on_problem=shown.append).drain())
    assert (rep.rounds, rep.disagreements) == (1, 1)
    assert server.rpc_names().count("AddRound") == 1  # not sent
    (p,) = shown
    assert p["kind"] == "disagree" and p["pantheon"][IDS[0]] == p["ours"][IDS[0]] + 100
    assert "differently" in p["text_en"] and "иначе" in p["text_ru"]
    assert asyncio.run(Sender(ob, _cfg(server)).drain()).rounds == 0  # the game stays held
    ob.release(p["key"], send=True)  # the judge checked: send as the table scored it
    rep = asyncio.run(Sender(ob, _cfg(server)).drain())
    assert rep.rounds == len(hands) - 1 and rep.disagreements == 0
    assert len(next(iter(server.sessions.values())).rounds) == len(hands)


def test_error_answers_expired_token_unknown_event_refused_round(tmp_path, server, hands):
    ob = PantheonOutbox(tmp_path / "p.sqlite")
    _fill(ob, hands[:3])
    server.expired.add("good-token")
    rep = asyncio.run(Sender(ob, _cfg(server)).drain())
    assert rep.error.startswith("auth: Authentication failed") and rep.sent == 0 and not server.sessions
    assert set(ob.counts()) == {"pending"}  # nothing lost: sent again once the token is renewed
    server.expired.clear()
    # a round Pantheon refuses: its honba does not match Pantheon's game (a doctored record)
    item = next(i for i in ob.items() if i.rpc == "AddRound" and i.key.endswith(hands[1][0]))
    body = item.body
    (_o, r), = body["round"].items()
    r["honba"] += 5
    ob.db.execute("UPDATE items SET body=? WHERE seq=?", (json.dumps(body), item.seq))
    ob.start_game("table-2/s1", IDS[::-1])
    ob.add_round("table-2/s1", hands[0][0], hands[0][1])
    shown = []
    rep = asyncio.run(Sender(ob, _cfg(server), on_problem=shown.append).drain())
    assert rep.refused == 1 and shown[0]["kind"] == "refused"
    assert "This round is already recorded (or other round index/honba mismatch)" in shown[0]["text_en"]
    states = {i.key: i.state for i in ob.items()}
    assert states[f"round:table-1/s1/{hands[2][0]}"] == "pending"  # held behind the refused one
    assert states["round:table-2/s1/" + hands[0][0]] == "accepted"  # the other game went on
    ok, line = asyncio.run(check(_cfg(server, event_id=999)))
    assert not ok and line.startswith("pantheon: ") and "event 999 unknown: Event not found" in line


def test_rounds_of_every_outcome_are_what_the_proto_defines(server):
    w1 = Win(1, 3, 40, (23, 13), 1, 0, True)
    w2 = Win(2, -1, 0, (32,), 0, 0, False, pao=0)
    cases = [
        HandSummary("ron", 0, 1, (-4000, 4000, 0, 0), (w1,), 0, (2,)),
        HandSummary("tsumo", 0, 0, (0,) * 4, (w1,)),
        HandSummary("multiron", 0, 2, (0,) * 4, (w1, w2), 3, (0, 3)),
        HandSummary("draw", 0, 0, (0,) * 4, riichi=(1,), tenpai=(1, 2)),
        HandSummary("chombo", 0, 0, (0,) * 4, loser=2),
        HandSummary("abort", 0, 0, (0,) * 4),
        HandSummary("nagashi", 0, 0, (0,) * 4, tenpai=(0,), nagashi=(3,)),
    ]
    for s in cases:
        rd = to_round(s, IDS, 3)
        assert check_message("Round", rd) == rd  # every field one the proto has, with its type
    multi = to_round(cases[2], IDS, 3)["multiron"]
    assert multi["loserId"] == 104 and multi["multiRon"] == 2 and multi["riichiBets"] == [101, 104]
    assert multi["wins"][1] == {"winnerId": 103, "paoPlayerId": 101, "han": -1, "fu": 0, "yaku": [32], "dora": 0,
                                "uradora": 0, "kandora": 0, "kanuradora": 0, "openHand": False}
    assert to_round(cases[3], IDS, 3) == {"draw": {"roundIndex": 3, "honba": 0, "riichiBets": [102],
                                                   "tempai": [102, 103]}}


def test_summaries_of_refereed_hands(hands):
    for _h, s, res in hands:
        assert list(s.deltas) == res["deltas"]
        assert s.outcome in ("ron", "tsumo", "multiron", "draw", "chombo", "abort")
        if s.outcome in ("ron", "tsumo"):
            w = s.wins[0]
            # (a yakuman is han -1 with no fu, as Pantheon takes it: see the multi-ron case above)
            assert w.seat in res["winners"] and (w.fu >= 20 or w.han < 0) and w.han != 0 and w.yaku
            assert all(0 < y <= 47 for y in w.yaku)


def _toml(tmp_path, server: FakeMimir, **kw) -> str:
    vals = {"url": server.url, "token": "good-token", "person_id": 5, "event_id": server.event_id,
            "outbox": str(tmp_path / "out.sqlite"), **kw}
    body = (f'[hall]\nprofile = "riichi-ema2016"\ndb = {json.dumps(str(tmp_path / "hall.sqlite"))}\n[pantheon]\n'
            + "".join(f"{k} = {json.dumps(v)}\n" for k, v in vals.items()))
    (tmp_path / "hall.toml").write_text(body, encoding="utf-8")
    return str(tmp_path / "hall.toml")


def test_hall_pantheon_check_is_one_line(tmp_path, server, capsys):
    assert main(["hall", "pantheon", "check", "--config", _toml(tmp_path, server)]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and "reachable" in out and "token valid (person 5)" in out
    server.expired.add("good-token")
    assert main(["hall", "pantheon", "check", "--config", _toml(tmp_path, server)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "token refused: No player logged in" in err
    assert main(["hall", "pantheon", "check", "--config", _toml(tmp_path, server, event_id=999)]) == 1
    assert "event 999 unknown" in capsys.readouterr().err
    assert main(["hall", "pantheon", "check", "--config", _toml(tmp_path, server, url="http://127.0.0.1:9")]) == 1
    assert "unreachable" in capsys.readouterr().err
    (tmp_path / "empty.toml").write_text("", encoding="utf-8")
    assert main(["hall", "pantheon", "check", "--config", str(tmp_path / "empty.toml")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Pantheon is not configured" in err


def test_hall_pantheon_send_drains_the_configured_outbox(tmp_path, server, hands, capsys):
    cfg = _toml(tmp_path, server)
    ob = PantheonOutbox(tmp_path / "out.sqlite")
    _fill(ob, hands[:2])
    ob.add_penalty("table-1/s1/late", IDS[2], 2000, "late")
    ob.call_referee("table-1/s1/judge-1", 1)
    ob.close()
    assert main(["hall", "pantheon", "send", "--config", cfg]) == 0
    assert capsys.readouterr().out == "pantheon: sent 6, accepted 6, refused 0, disagreements 0, waiting 0\n"
    assert server.penalties == [{"eventId": server.event_id, "playerId": IDS[2], "amount": 2000, "reason": "late"}]
    assert server.referee_calls == [{"tableIndex": 1, "eventId": server.event_id}]


def _hall_with_hands(tmp_path, hands, table_store):
    """A riichi hall whose table T1 sent every event of its refereed hands (session 1, players Q0..Q3 with
    Pantheon ids, Q9 without)."""
    from hall.db import HallDB
    from hall.messages import OutboxMessage
    from hall.registrations import import_players
    from hall.tournament import Tournament

    (tmp_path / "portal.csv").write_text("id,name,pantheon_id\n" + "".join(
        f"Q{i},Player {i},{pid}\n" for i, pid in enumerate(IDS)) + "Q9,Player 9,\n", encoding="utf-8")
    db = HallDB(tmp_path / "hall.sqlite")
    t = Tournament(db, profile="riichi-ema2016", seed=1)
    import_players(db, tmp_path / "portal.csv")
    t.seat(1, {"T1": ["Q0", "Q1", "Q2", "Q3"]})
    t.start_session(1, minutes=60)
    table = EventStore(table_store)
    try:
        with db.tx() as c:
            for h, _s, res in hands:
                seq = 0
                for i, e in enumerate(table.events(f"{h}/game")):
                    body = {"stream": f"{h}/game", "seq": i, "event": e.to_json()}
                    db.ingest(c, "T1", OutboxMessage(h, seq, "event", body, 1.0), 2.0)
                    seq += 1
                body = {"profile": "riichi-ema2016", "session": 1, "players": ["Q0", "Q1", "Q2", "Q3"],
                        "result": {**res, "seats": ["Q0", "Q1", "Q2", "Q3"]}}
                db.ingest(c, "T1", OutboxMessage(h, seq, "result", body, 1.0), 2.0)
    finally:
        table.close()
    return t


def test_the_halls_refereed_hands_go_to_pantheon(tmp_path, server, hands, table_store, capsys):
    """The hall's own records (a table sending every event) → StartGame, every round once, EndGame when the
    session has ended; the director's penalty with AddPenalty; a player without a Pantheon id is reported."""
    t = _hall_with_hands(tmp_path, hands, table_store)
    t.penalty(1, "Q2", 2000, "late")
    t.penalty(1, "Q9", 1000, "phone")
    cfg = _toml(tmp_path, server)
    assert main(["hall", "pantheon", "send", "--config", cfg]) == 1  # Q9 has no Pantheon id: reported
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"pantheon: sent {len(hands) + 2}, accepted {len(hands) + 2}, refused 0, disagreements 0, waiting 0"
    assert out[1:] == ["  penalty 2 of Q9: no Pantheon id"]
    (s,) = server.sessions.values()
    assert len(s.rounds) == len(hands) and not s.finished
    assert server.penalties == [{"eventId": server.event_id, "playerId": IDS[2], "amount": 2000,
                                 "reason": "session 1: late"}]
    t.end_session(1)
    main(["hall", "pantheon", "send", "--config", cfg])
    assert capsys.readouterr().out.startswith("pantheon: sent 1, accepted 1,")  # EndGame only: nothing doubled
    assert s.finished and len(s.rounds) == len(hands) and len(server.penalties) == 1


def test_whole_bot_games_agree_with_pantheons_own_computation(tmp_path, server):
    """Whole riichi games of the bots (draws, counters, sticks left on the table, a double ron now and then):
    every round previews to the table's score changes and is recorded with Pantheon's round index and honba."""
    from rules.simulate import play_game

    profile = registry.get("riichi-ema2016")
    ob = PantheonOutbox(tmp_path / "p.sqlite")
    n = 0
    outcomes = set()
    for seed in range(scaled(3, 30)):
        game = play_game(profile, 100 + seed)
        ob.start_game(f"g{seed}", IDS)
        for hr in game.hands:
            s = summarize(hr.events, profile)
            outcomes.add(s.outcome)
            ob.add_round(f"g{seed}", hr.events[0].hand_id, s)
            n += 1
        ob.end_game(f"g{seed}")
    rep = asyncio.run(Sender(ob, _cfg(server)).drain())
    assert (rep.rounds, rep.disagreements, rep.refused, rep.error) == (n, 0, 0, "")
    assert {"ron", "tsumo"} <= outcomes
    assert sum(len(s.rounds) for s in server.sessions.values()) == n


def test_hall_simulate_sends_every_hand_once_with_the_hall_down_in_the_middle():
    """The acceptance run: ``hall simulate --tables 4 --sessions 2 --profile riichi-ema2016 --pantheon URL``
    against the stand-in; the hall goes down once after Pantheon recorded a round and before its answer was
    kept; every hand is in Pantheon once."""
    import re
    import subprocess
    import sys

    from tests.hall.conftest import _need_mosquitto

    _need_mosquitto()
    srv = FakeMimir(players=tuple(range(1, 17))).start()
    try:
        p = subprocess.run([sys.executable, "-m", "controller", "hall", "simulate", "--tables", "4", "--sessions", "2",
                            "--profile", "riichi-ema2016", "--seed", "5", "--max-hands", str(scaled(4, 12)),
                            "--pantheon", srv.url, "--pantheon-token", "good-token", "--pantheon-event",
                            str(srv.event_id), "--pantheon-person", "5"], capture_output=True, text=True, timeout=300)
        assert p.returncode == 0, p.stdout + p.stderr
        out = p.stdout.strip().splitlines()
        m = re.fullmatch(r"pantheon: sent (\d+), accepted (\d+), refused 0, doubled 0", out[-1])
        assert m and m.group(1) == m.group(2) and out[-2].startswith("results: sent ")
        n = int(m.group(1))
        assert n == int(re.match(r"results: sent (\d+)", out[-2]).group(1))  # every hand of the tournament
        assert "the hall went down after Pantheon recorded a round" in p.stderr
        assert len(srv.sessions) == 8 and all(s.finished for s in srv.sessions.values())
        assert sum(len(s.rounds) for s in srv.sessions.values()) == n
        assert srv.rpc_names().count("AddRound") == n  # the round recorded before the crash was not sent again
    finally:
        srv.stop()


def test_the_hall_service_sends_while_it_runs_and_says_each_problem_once(tmp_path, server, hands, table_store):
    from hall.pantheon.service import run

    t = _hall_with_hands(tmp_path, hands, table_store)
    t.penalty(1, "Q9", 1000, "phone")
    said: list[str] = []

    async def main():
        stop = asyncio.Event()
        task = asyncio.create_task(run(t.db, t.profile, _cfg(server), tmp_path / "out.sqlite", stop, interval=0.02,
                                       say=said.append))
        for _ in range(500):
            await asyncio.sleep(0.02)
            if server.sessions and len(next(iter(server.sessions.values())).rounds) == len(hands) \
                    and server.rpc_names().count("GetAllRounds") == 0 and len(said) == 1:
                await asyncio.sleep(0.1)  # a few passes more: nothing is sent or said again
                break
        stop.set()
        await task

    asyncio.run(main())
    (s,) = server.sessions.values()
    assert len(s.rounds) == len(hands) and server.rpc_names().count("AddRound") == len(hands)
    assert said == ["penalty 1 of Q9: no Pantheon id"]


def test_a_judge_called_at_a_table_calls_pantheons_referee_once_per_hand(tmp_path, server, hands, table_store):
    from hall.pantheon.feed import feed

    t = _hall_with_hands(tmp_path, hands, table_store)
    ob = PantheonOutbox(tmp_path / "out.sqlite")
    t.db.table_status("T1", {"judge_called": True, "hand_id": "t9-00009"}, 5.0)
    assert feed(t.db, ob, t.profile).calls == 1
    assert feed(t.db, ob, t.profile).calls == 0  # the same call again: not doubled
    t.db.table_status("T1", {"judge_called": False, "hand_id": "t9-00010"}, 6.0)
    assert feed(t.db, ob, t.profile).calls == 0
    asyncio.run(Sender(ob, _cfg(server)).drain())
    assert server.referee_calls == [{"tableIndex": 1, "eventId": server.event_id}]


def test_hall_pantheon_held_and_release(tmp_path, server, hands, capsys):
    cfg = _toml(tmp_path, server)
    ob = PantheonOutbox(tmp_path / "out.sqlite")
    _fill(ob, hands[:2])
    server.preview_bias = lambda s, d: {**d, IDS[0]: d[IDS[0]] + 1000, IDS[1]: d[IDS[1]] - 1000}
    asyncio.run(Sender(ob, _cfg(server)).drain())
    ob.close()
    assert main(["hall", "pantheon", "held", "--config", cfg]) == 0
    line = capsys.readouterr().out.strip()
    key = f"round:table-1/s1/{hands[0][0]}"
    assert line.startswith(f"{key}: disagree: ours {{") and line.count("\n") == 0
    assert main(["hall", "pantheon", "release", "nope", "--send", "--config", cfg]) == 2
    assert capsys.readouterr().err.count("\n") == 1
    assert main(["hall", "pantheon", "release", key, "--skip", "--config", cfg]) == 0
    capsys.readouterr()
    assert main(["hall", "pantheon", "held", "--config", cfg]) == 0
    assert capsys.readouterr().out == "pantheon: nothing held\n"
