"""The replay of a refereed hand (issue #32 part 5): built on the server from the record, the public view
only, for every rule set; its routes on the table's page and on the hall's dashboard."""
from __future__ import annotations

import json
from collections import Counter

import pytest

from controller.replay import merged, replay
from rules.events import (
    Dealt,
    Discarded,
    DoraRevealed,
    Drew,
    FlowerDeclared,
    HandRevealed,
    MeldMade,
    QuestionAnswered,
    Won,
)
from rules.game.machine import table_view
from rules.game.siamese import siamese_table_view
from tests.web.replay_data import PROFILES, full_hand, store_of, tiles_in


def _camera(profile):
    return siamese_table_view if profile == "mcr-siamese" else table_view  # as PublicHand chooses


def _public_tiles(events, view=table_view) -> Counter:
    """Every tile a camera above the table has seen face up after ``events`` (the camera's view of them)."""
    seen: Counter = Counter()
    for e in view(events):
        if isinstance(e, Discarded | FlowerDeclared):
            seen[e.tile] += 1
        elif isinstance(e, MeldMade | HandRevealed):
            seen.update(e.tiles)
        elif isinstance(e, DoraRevealed):
            seen[e.indicator] += 1
        elif isinstance(e, Won) and e.tile != "x":
            seen[e.tile] += 1
    seen.pop("x", None)
    return seen


@pytest.mark.parametrize("profile", PROFILES)
def test_no_concealed_tile_in_any_step(profile):
    hid, log = full_hand(profile)
    concealed = {t for e in log if isinstance(e, Dealt) for t in e.tiles} | {e.tile for e in log if isinstance(e, Drew)}
    assert concealed - {"x"}, "the log must carry the concealed faces for this test to mean anything"
    full = replay(store_of(hid, log), hid)
    # what the replay shows of the full-information log is what it shows of the camera's view of it: no
    # dealt or drawn face reaches any step
    assert full == replay(store_of(hid, _camera(profile)(log)), hid)
    steps = full["steps"]
    assert len(steps) >= 10 and steps[0]["what"]["type"] == "hand_started"
    # every step shows only tiles the camera had seen face up by then (as many of each as it had seen)
    for st in steps:
        fed = log[:st["at"]]
        public = _public_tiles(fed, _camera(profile))
        for tile in tiles_in(st["view"]["seats"]) + st["view"]["dora"]:
            assert public[tile] >= 1, f"step {st['i']}: {tile} shown before anyone saw it"
        for seat in st["view"]["seats"]:  # each pond: the seat's discards so far, in order (less those claimed)
            discards = iter([e.tile for e in fed if isinstance(e, Discarded) and e.seat == seat["seat"]])
            assert all(p["tile"] in discards for p in seat["pond"]), f"step {st['i']}: pond {seat['seat']}"
        if isinstance(fed[-1], Discarded):
            assert st["what"] == {"type": "discarded", "seat": fed[-1].seat, "tile": fed[-1].tile}
    # the last step: the settlement the rules engine computed
    last = steps[-1]["view"]
    deltas = [e for e in log if e.TYPE == "settled"]
    if deltas:
        assert last["settlement"]["deltas"] == list(deltas[-1].deltas)


def test_answers_go_where_they_came():
    hid, log = full_hand("riichi-ema2016")
    t = log[10].t_mono
    a = QuestionAnswered(t_mono=t + 0.0001 if log[11].t_mono > t else t, question_id=1, answer="5m", by="judge")
    out = merged(log, [a])
    assert out.index(a) >= 11 and out[:out.index(a)] == [e for e in log if e.t_mono <= a.t_mono][:out.index(a)]


def test_replay_json_names_no_hidden_field():
    hid, log = full_hand("mcr")
    text = json.dumps(replay(store_of(hid, log), hid))
    for word in ("subject", "message", "wall\": [", "counts"):
        assert word not in text


# --- the routes: a refereed hand with a question, its answer, a correction, the confirmation --------------

def _stored_streams(store, hand: str) -> list[tuple[str, int, dict]]:
    """Every event of the hand's streams in the table's store, as the hall link sends them (events = "all")."""
    return [(s.hand_id, s.seq, s.event.to_json()) for s in store.iter_events() if s.hand_id.startswith(hand + "/")]


def test_replay_routes_on_the_table_and_the_hall(tmp_path):
    import asyncio

    from aiohttp import web

    from controller.web.replay_routes import add_hall_routes
    from hall.db import HallDB
    from hall.messages import OutboxMessage
    from tests.web.helpers import client, run, served
    from tests.web.refereed import PROFILE, TRUE, misread_index, refereed_play, until

    async def post(http, t, csrf, action, body=None):
        async with http.post(f"{t.url}/api/judge/{action}", json=body or {}, headers=t.headers(csrf)) as r:
            assert r.status == 200, await r.text()
            return await r.json()

    async def scenario():
        async with served(tmp_path, auto=True, play=refereed_play(unreadable=True), profile=PROFILE,
                          hands=1) as t, client() as http:
            csrf = await t.login(http, "Judge Ivanova")
            await until(lambda: t.svc.play_source.session is not None
                        and t.svc.play_source.session.referee.open_question is not None)
            await post(http, t, csrf, "answer", {"answer": "1z"})
            await until(lambda: t.svc.play_source.session.referee.settled)
            s = t.svc.play_source.session
            out = await post(http, t, csrf, "correct", {"op": "replace", "index": misread_index(s), "tile": TRUE,
                                                        "reason": "4m read as 7m"})
            right = out["referee"]["settlement"]
            await post(http, t, csrf, "confirm_result")
            await until(lambda: t.store.results())
            hand = t.store.results()[0][0]
            async with http.get(f"{t.url}/api/replay/{hand}") as r:
                assert r.status == 200 and r.headers["Cache-Control"] == "no-store"
                text = await r.text()
            data = json.loads(text)
            async with http.get(f"{t.url}/replay/{hand}") as r:
                page = await r.text()
                assert r.status == 200 and r.content_type == "text/html" and f'data-api="/api/replay/{hand}"' in page
            async with http.get(f"{t.url}/api/replay/{hand}/tenhou6") as r:
                assert r.status == 200
                t6 = await r.json()
            for bad in ("t7-99999", "x%2F..%2Fy"):
                async with http.get(f"{t.url}/api/replay/{bad}") as r:
                    assert r.status == 404, bad
            async with http.get(f"{t.url}/replay-assets/replay.js") as r:
                assert r.status == 200 and "javascript" in r.content_type
            async with http.get(f"{t.url}/replay-assets/tiles/4m.png") as r:
                assert r.status == 200
            async with http.get(f"{t.url}/replay-assets/..%2Fapp.py") as r:
                assert r.status == 404
            rows = _stored_streams(t.store, hand)
            result = t.store.results()[0][1]
        return hand, data, text, t6, right, rows, result

    hand, data, text, t6, right, rows, result = run(scenario())
    kinds = [st["what"].get("kind") for st in data["steps"] if st["what"]["type"] == "notice"]
    # the question, its answer (about a tile that lies face up: shown), the correction, the confirmation
    assert kinds.index("question") < kinds.index("answer") < kinds.index("correction") < kinds.index("confirmed")
    answer = next(st["what"] for st in data["steps"] if st["what"].get("kind") == "answer")
    assert answer["text"].endswith(": 1z") and answer["text_ru"].endswith(": 1z")
    assert data["steps"][-1]["view"]["settlement"]["deltas"] == right == result["deltas"]
    # the corrected record: the 4m (not the misread 7m) is the winning tile, claimed from its thrower
    win = data["steps"][-1]["view"]["wins"][0]
    assert win["tile"] == TRUE and win["valid"] and win["from_seat"] is not None
    steps_with_win = [st for st in data["steps"] if st["view"]["wins"]]
    assert steps_with_win and all(st["i"] > 7 for st in steps_with_win)  # not before the discards
    assert "subject" not in text and "observation" not in text  # a question's subject is the judge's
    assert data["tenhou6"] and t6["log"] and t6["title"]
    assert sum(st["what"]["type"] == "discarded" for st in data["steps"]) == 8  # seven round the table, the 4m

    # the hall: the same hand from the events the table sent, the same replay
    db = HallDB(tmp_path / "hall.sqlite")
    with db.tx() as c:
        for i, (stream, seq, ev) in enumerate(rows):
            db.ingest(c, "t7", OutboxMessage(hand, i, "event", {"stream": stream, "seq": seq, "event": ev}, 0.0), 1.0)
        db.ingest(c, "t7", OutboxMessage(hand, len(rows), "result", {"profile": PROFILE, "result": result,
                                                                     "session": 1, "players": []}, 0.0), 1.0)
        # a hand the hall has only the result of (its table sends results only): no replay to open
        db.ingest(c, "t8", OutboxMessage("t8-00001", 0, "result", {"profile": PROFILE, "result": result,
                                                                   "session": 1, "players": []}, 0.0), 2.0)

    async def hall():
        app = web.Application()
        add_hall_routes(app, db)
        runner = web.AppRunner(app)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        url = f"http://127.0.0.1:{runner.addresses[0][1]}"
        try:
            async with client() as http:
                async with http.get(url + "/api/hands") as r:
                    hands = await r.json()
                async with http.get(f"{url}/api/replay/t7/{hand}") as r:
                    got = await r.json()
                async with http.get(f"{url}/replay/t7/{hand}") as r:
                    page = await r.text()
                async with http.get(f"{url}/api/replay/t7/{hand}/tenhou6") as r:
                    t6h = await r.json()
                async with http.get(f"{url}/api/replay/t8/{hand}") as r:
                    missing = r.status
            return hands, got, page, t6h, missing
        finally:
            await runner.cleanup()

    hands, got, page, t6h, missing = asyncio.run(hall())
    db.close()
    assert sorted(hands, key=lambda h: h["table"]) == [
        {"table": "t7", "hand": hand, "session": 1, "status": "played", "deltas": right, "replay": True},
        {"table": "t8", "hand": "t8-00001", "session": 1, "status": "played", "deltas": right, "replay": False}]
    assert got == data and t6h == t6 and missing == 404
    assert f'data-api="/api/replay/t7/{hand}"' in page
