"""The judge's console picks a penalty from the profile's catalogue: the seed's amount, its escalation and its
payee are applied by the table (the judge types only what the seed leaves to him) and recorded."""
from __future__ import annotations

from controller.web.judge import judge_stream
from rules.events import PenaltyAwarded
from tests.web.helpers import client, run, served


def test_mcr_escalation_and_a_knocked_over_tile_paid_to_one_player(tmp_path):
    """003 line 2142: touching the wall — a warning, then 5, then 10; 003 line 2152: a knocked-over tile, 5 to 60
    to that one player, as the judge decides."""

    async def scenario():
        async with served(tmp_path, profile="mcr") as t, client() as http:
            csrf = await t.login(http)
            async with http.get(t.url + "/api/judge/actions", headers=t.headers(csrf)) as r:
                assert r.status == 200
            got = []
            for _ in range(3):  # typed points are ignored: the ladder decides
                async with http.post(t.url + "/api/judge/penalty", headers=t.headers(csrf),
                                     json={"seat": 1, "code": "wall_touch", "points": 99}) as r:
                    assert r.status == 200, await r.text()
                    got.append((await r.json())["awarded"]["points"])
            assert got == [0, 5, 10]
            bad = {"seat": 0, "code": "knocked_over_tile", "points": 70, "to_seat": 2}
            async with http.post(t.url + "/api/judge/penalty", headers=t.headers(csrf), json=bad) as r:
                assert r.status == 400 and "5 to 60" in (await r.json())["error"]
            ok = {"seat": 0, "code": "knocked_over_tile", "points": 30, "to_seat": 2, "reason": "tile knocked over"}
            async with http.post(t.url + "/api/judge/penalty", headers=t.headers(csrf), json=ok) as r:
                assert r.status == 200, await r.text()
            pens = [e for e in t.store.events(judge_stream(t.svc)) if isinstance(e, PenaltyAwarded)]
            assert [(p.code, p.points, p.occurrence) for p in pens[:3]] == [("wall_touch", 0, 1), ("wall_touch", 5, 2),
                                                                            ("wall_touch", 10, 3)]
            assert pens[0].rule.startswith("003") and pens[3].paid == (0, 0, 30, 0) and pens[3].judge == "A. Judge"
            async with http.get(t.url + "/api/view") as r:
                view = await r.json()
            assert view["totals"] == [-30, -15, 30, 0]  # the 30 went to seat 2, the deductions to nobody

    run(scenario())


def test_riichi_chombo_from_the_console(tmp_path):
    """004 line 278: chombo — 4000 to East (the dealer), 2000 to the others."""

    async def scenario():
        async with served(tmp_path, profile="riichi-ema2016") as t, client() as http:
            csrf = await t.login(http)
            async with http.post(t.url + "/api/judge/penalty", headers=t.headers(csrf),
                                 json={"seat": 2, "code": "chombo"}) as r:
                assert r.status == 200, await r.text()
                ev = (await r.json())["awarded"]
            assert ev["points"] == 8000 and ev["paid"] == [4000, 2000, 0, 2000]  # seat 0 deals the first hand

    run(scenario())


def test_a_sanction_at_the_console_is_recorded_with_who_and_why(tmp_path):
    """000 line 437 / 004 line 302 (a dead hand by the judge's decision), 004 line 546 (a cheat disqualified at
    once): the console records the sanction in the judge stream, which the table's outbox sends to the hall."""
    from rules.events import JudgeAction

    async def scenario():
        async with served(tmp_path, profile="riichi-ema2016") as t, client() as http:
            csrf = await t.login(http)
            async with http.post(t.url + "/api/judge/sanction", headers=t.headers(csrf),
                                 json={"seat": 3, "kind": "flogging", "reason": "x"}) as r:
                assert r.status == 400
            async with http.post(t.url + "/api/judge/sanction", headers=t.headers(csrf),
                                 json={"seat": 3, "kind": "dead_hand", "reason": "passed information"}) as r:
                assert r.status == 200, await r.text()
            acts = [e for e in t.store.events(judge_stream(t.svc)) if isinstance(e, JudgeAction)
                    and e.action == "sanction"]
            assert [(a.detail["kind"], a.detail["seat"], a.judge) for a in acts] == [("dead_hand", 3, "A. Judge")]

    run(scenario())


def test_the_ladder_follows_the_player_not_the_chair(tmp_path):
    """003 line 2142 counts a player's offences; in MCR the players change chairs each round (003 line 2168), so
    A's wall touch at chair 0 in the East round counts when A, now at chair 1, touches the wall again."""
    from types import SimpleNamespace

    from controller.event_store import EventStore
    from controller.web.judge import catalogue, previous_offences
    from rules.events import PenaltyAwarded

    chairs = {"h1": ["A", "B", "C", "D"], "h5": ["B", "A", "D", "C"]}

    class Hall:  # the table's hall link, as the console sees it
        def context_for(self, hand):
            return {"session": 1, "players": chairs["h1"], "seats": chairs[hand]}

        def session_began(self):
            return 0.0

        def session_hands(self):
            return ["h1", "h2", "h3", "h4"]

    store = EventStore(tmp_path / "t.sqlite")
    store.append("T1/judge", 0, PenaltyAwarded(seat=0, points=0, rule="003", reason="touch", code="wall_touch",
                                               hand_id="h1", t_wall=1.0, judge="J"))
    svc = SimpleNamespace(profile="mcr", hall=Hall(), hand_id="h5", players=4, store=store, cfg={"table.id": "T1"})
    kind = catalogue("mcr")["wall_touch"]
    assert previous_offences(svc, kind, 1) == 1  # A, now at chair 1: his second offence (5 points)
    assert previous_offences(svc, kind, 0) == 0  # B, now at chair 0: his first (a warning)


def test_a_custom_penalty_to_the_others_balances_on_the_page_and_at_the_hall(tmp_path):
    """A penalty paid to the players is a transfer (000 §2.8.4: a false hu pays each other player; 004 line
    278): the offender pays what each other seat receives, on the table's page as at the hall — the totals
    sum to zero. (The page used to take one share from the offender while the hall took them all.)"""
    from hall.judge_stream import penalty_paid

    async def scenario():
        async with served(tmp_path) as t, client() as http:
            csrf = await t.login(http)
            body = {"seat": 1, "points": 10, "rule": "000 §2.8.4", "reason": "false hu", "to_others": True}
            async with http.post(t.url + "/api/judge/penalty", headers=t.headers(csrf), json=body) as r:
                assert r.status == 200, await r.text()
            ev = [e for e in t.store.events(judge_stream(t.svc)) if isinstance(e, PenaltyAwarded)][-1]
            assert (ev.points, ev.paid, ev.to_others) == (30, (10, 0, 10, 10), True)
            async with http.get(t.url + "/api/view") as r:
                view = await r.json()
            assert view["totals"] == [10, -30, 10, 10] and sum(view["totals"]) == 0
            hall = penalty_paid(ev.to_json(), 4)  # what the hall credits each seat; the offender pays their sum
            assert [a - (sum(hall) if s == 1 else 0) for s, a in enumerate(hall)] == view["totals"]
            # a record made before the console wrote ``paid``: points to each other seat, counted alike
            old = PenaltyAwarded(seat=3, points=5, rule="r", reason="old", to_others=True, judge="J", t_wall=2.0)
            t.store.append(judge_stream(t.svc), t.store.count(judge_stream(t.svc)), old)
            async with http.get(t.url + "/api/view") as r:
                view = await r.json()
            assert view["totals"] == [15, -25, 15, -5] and sum(view["totals"]) == 0
            assert penalty_paid(old.to_json(), 4) == [5, 5, 5, 0]

    run(scenario())


def test_a_table_of_two_counts_the_console_s_chairs_at_their_seats(tmp_path):
    """001 line 61: at a table of two the players sit facing each other, at seats 0 and 2 (docs/notation.md
    "Seats"); the console numbers them by chair, 0 and 1 (the hall credits chair 1 to seat 2: hall/standings.py).
    The page's totals and standings did the same: a penalty to the second player was lost (chair 1 is no seat
    here) and what he received from the first went nowhere."""

    async def scenario():
        async with served(tmp_path, profile="red", table__players=2) as t, client() as http:
            csrf = await t.login(http)
            for body in ({"seat": 1, "points": 10, "rule": "001", "reason": "to nobody"},
                         {"seat": 0, "points": 5, "rule": "001", "reason": "to the other", "to_others": True}):
                async with http.post(t.url + "/api/judge/penalty", headers=t.headers(csrf), json=body) as r:
                    assert r.status == 200, await r.text()
            pens = [e for e in t.store.events(judge_stream(t.svc)) if isinstance(e, PenaltyAwarded)]
            assert [(p.seat, p.points, p.paid) for p in pens] == [(1, 10, ()), (0, 5, (0, 5))]  # by chair
            async with http.get(t.url + "/api/view") as r:
                view = await r.json()
            assert view["totals"] == [-5, None, -5, None]  # seat 2: -10, then +5 from seat 0
            assert {s["seat"]: s["penalties"] for s in view["standings"]} == {0: 5, 2: 10}

    run(scenario())
