"""The page's HTTP contract: /api/state, the buttons behind the judge's login, the judge's actions, the
security headers, the static page and the tiles."""
from __future__ import annotations

import asyncio

from controller.table_machine import S
from controller.web.judge import judge_stream
from rules.events import JudgeAction, PenaltyAwarded
from tests.web.helpers import PIN, client, run, served


def test_state_contract_and_buttons_behind_the_login(tmp_path):
    async def scenario():
        async with served(tmp_path) as t, client() as http:
            async with http.get(t.url + "/api/state") as r:
                state = await r.json()
                assert r.status == 200 and state["state"] == "idle" and state["table"] == "t7"
                assert r.headers["Cache-Control"] == "no-store"
            # no session: 401; another origin: 403; the table does not move
            async with http.post(t.url + "/api/press/start", headers=t.headers()) as r:
                assert r.status == 401
            async with http.post(t.url + "/api/press/start", headers={"Origin": "http://evil.example"}) as r:
                assert r.status == 403
            assert t.svc.machine.state is S.IDLE
            csrf = await t.login(http)
            async with http.post(t.url + "/api/press/start", headers=t.headers()) as r:
                assert r.status == 403, "a session without its CSRF token is refused"
            async with http.post(t.url + "/api/press/start", headers=t.headers(csrf, origin="http://evil.example")) as r:
                assert r.status == 403, "the session from another origin is refused"
            assert t.svc.machine.state is S.IDLE
            async with http.post(t.url + "/api/press/start", headers=t.headers(csrf)) as r:
                assert r.status == 200 and (await r.json())["pressed"] == "start"
            while t.svc.machine.state is not S.DEALING:
                await asyncio.sleep(0.01)
            async with http.get(t.url + "/api/state") as r:
                state = await r.json()
            assert state["state"] == "dealing" and len(state["dice"]) == 1 and state["hand_id"] == "t7-00001"
            assert state["shuffle"]["built"] == state["shuffle"]["target"]
            async with http.get(t.url + "/api/press/start") as r:
                assert r.status == 405
            async with http.post(t.url + "/api/press/explode", headers=t.headers(csrf)) as r:
                assert r.status == 404
            async with http.get(t.url + "/nope") as r:
                assert r.status == 404 and (await r.json())["error"]
            audit = [e for e in t.store.events(judge_stream(t.svc)) if isinstance(e, JudgeAction)]
            assert [(e.action, e.judge) for e in audit] == [("login", "A. Judge"), ("start", "A. Judge")]
            assert audit[1].detail == {"state": "idle"} and audit[1].client == "127.0.0.1"

    run(scenario())


def test_login_cookie_wrong_pin_rate_limit_and_logout(tmp_path):
    async def scenario():
        async with served(tmp_path) as t, client() as http:
            async with http.get(t.url + "/api/session") as r:
                assert await r.json() == {"judge": False, "login": True}
            async with http.post(t.url + "/api/login", json={"pin": PIN}, headers={"Origin": "http://evil.example"}) as r:
                assert r.status == 403, "login from another origin"
            codes = []
            for _ in range(6):
                async with http.post(t.url + "/api/login", json={"pin": "000000"}, headers=t.headers()) as r:
                    codes.append(r.status)
                    retry = r.headers.get("Retry-After")
            assert codes == [401] * 5 + [429] and int(retry) > 0
            # rate-limited: even the right PIN waits
            async with http.post(t.url + "/api/login", json={"pin": PIN}, headers=t.headers()) as r:
                assert r.status == 429
            t.web.table.limit._fails.clear()
            async with http.post(t.url + "/api/login", json={"pin": PIN, "name": "  B.   Judge "},
                                 headers=t.headers()) as r:
                assert r.status == 200
                cookie = r.headers["Set-Cookie"]
                assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and PIN not in cookie
                csrf = (await r.json())["csrf"]
            async with http.get(t.url + "/api/session") as r:
                s = await r.json()
                assert s["judge"] and s["name"] == "B. Judge" and s["csrf"] == csrf
            async with http.post(t.url + "/api/logout", headers=t.headers(csrf)) as r:
                assert r.status == 200
            async with http.post(t.url + "/api/press/judge", headers=t.headers(csrf)) as r:
                assert r.status == 401

    run(scenario())


def test_no_pin_configured_means_no_judge(tmp_path):
    async def scenario():
        async with served(tmp_path, pin_hash="") as t, client() as http:
            async with http.post(t.url + "/api/login", json={"pin": ""}, headers=t.headers()) as r:
                assert r.status == 403
            async with http.get(t.url + "/api/session") as r:
                assert (await r.json())["login"] is False

    run(scenario())


def test_penalty_is_validated_recorded_with_its_judge_and_counted(tmp_path):
    async def scenario():
        async with served(tmp_path) as t, client() as http:
            async with http.post(t.url + "/api/judge/penalty", json={"seat": 1}, headers=t.headers()) as r:
                assert r.status == 401
            csrf = await t.login(http)
            bad = [{"seat": 9, "points": 2, "rule": "000 §2.8.2", "reason": "x"},
                   {"seat": 1, "points": -2, "rule": "000 §2.8.2", "reason": "x"},
                   {"seat": 1, "points": 2, "rule": "", "reason": "x"},
                   {"seat": 1, "points": 2, "rule": "r", "reason": "x" * 400},
                   {"seat": True, "points": 2, "rule": "r", "reason": "x"}]
            for body in bad:
                async with http.post(t.url + "/api/judge/penalty", json=body, headers=t.headers(csrf)) as r:
                    assert r.status == 400 and (await r.json())["error"], body
            async with http.post(t.url + "/api/judge/penalty", data=b"[1,2", headers=t.headers(csrf)) as r:
                assert r.status == 400
            body = {"seat": 2, "points": 4, "rule": "000 §2.8.2.5", "reason": "late call", "code": "late_call"}
            async with http.post(t.url + "/api/judge/penalty", json=body, headers=t.headers(csrf)) as r:
                assert r.status == 200
            async with http.post(t.url + "/api/judge/penalty", headers=t.headers(csrf),
                                 json={"seat": 0, "points": 9, "rule": "001 §Штрафы 1", "reason": "false win",
                                       "to_others": True}) as r:
                assert r.status == 200
            pens = [e for e in t.store.events(judge_stream(t.svc)) if isinstance(e, PenaltyAwarded)]
            assert [(p.seat, p.points, p.judge, p.code) for p in pens] == [(2, 4, "A. Judge", "late_call"),
                                                                           (0, 27, "A. Judge", "")]
            async with http.get(t.url + "/api/view") as r:
                view = await r.json()
            assert view["totals"] == [-27, 9, 5, 9]  # 9 to each other seat: the offender pays 27
            assert [s["seat"] for s in view["standings"]][:3] == [1, 3, 2]
            async with http.get(t.url + "/api/judge/audit") as r:
                assert r.status == 200
                assert [a["type"] for a in await r.json()][:2] == ["penalty_awarded", "penalty_awarded"]
            async with http.post(t.url + "/api/judge/nothing", json={}, headers=t.headers(csrf)) as r:
                assert r.status == 404

    run(scenario())


def test_audit_and_actions_are_for_the_judge_only(tmp_path):
    async def scenario():
        async with served(tmp_path) as t, client() as http:
            for path in ("/api/judge/audit", "/api/judge/actions"):
                async with http.get(t.url + path) as r:
                    assert r.status == 401

    run(scenario())


def test_page_assets_headers_and_tiles(tmp_path):
    async def scenario():
        async with served(tmp_path) as t, client() as http:
            async with http.get(t.url + "/") as r:
                page = await r.text()
                assert r.status == 200 and "<html" in page and "/static/app.js" in page
                csp = r.headers["Content-Security-Policy"]
                assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp
                assert r.headers["X-Content-Type-Options"] == "nosniff" and r.headers["X-Frame-Options"] == "DENY"
            for asset, kind in (("app.js", "javascript"), ("app.css", "css"), ("i18n.json", "json")):
                async with http.get(t.url + "/static/" + asset) as r:
                    assert r.status == 200 and kind in r.headers["Content-Type"], asset
            async with http.get(t.url + "/tiles/5m.png") as r:
                assert r.status == 200 and (await r.read())[:4] == b"\x89PNG"
            for bad in ("/tiles/..%2F..%2Fconfig.png", "/tiles/9z.png", "/static/../__init__.py", "/static/"):
                async with http.get(t.url + bad) as r:
                    assert r.status in (403, 404), bad

    run(scenario())


def test_the_judge_abandons_a_paused_hand(tmp_path):
    async def scenario():
        async with served(tmp_path) as t, client() as http:
            csrf = await t.login(http)
            body = {"reason": "a tile fell off the table"}
            async with http.post(t.url + "/api/judge/abort_hand", json=body, headers=t.headers(csrf)) as r:
                assert r.status == 409, "nothing paused to abandon"
            async with http.post(t.url + "/api/press/start", headers=t.headers(csrf)) as r:
                assert r.status == 200
            while t.svc.machine.state is not S.DEALING:
                await asyncio.sleep(0.01)
            async with http.get(t.url + "/api/judge/actions") as r:
                assert "abort_hand" not in [a["name"] for a in await r.json()]
            async with http.post(t.url + "/api/press/judge", headers=t.headers(csrf)) as r:
                assert r.status == 200
            while t.svc.machine.state is not S.PAUSED:
                await asyncio.sleep(0.01)
            async with http.get(t.url + "/api/judge/actions") as r:
                assert "abort_hand" in [a["name"] for a in await r.json()]
            hand = t.svc.hand_id
            async with http.post(t.url + "/api/judge/abort_hand", json=body, headers=t.headers(csrf)) as r:
                assert r.status == 200
            while t.svc.machine.state is not S.IDLE:
                await asyncio.sleep(0.01)
            await t.svc.writer.flush()  # the result goes through the store's writer
            result = t.store.result(hand)
            assert result["status"] == "aborted" and "a tile fell off the table" in result["reason"]
            assert "A. Judge" in result["reason"]
            acts = [e.action for e in t.store.events(judge_stream(t.svc)) if isinstance(e, JudgeAction)]
            assert acts == ["login", "start", "judge", "abort_hand"]

    run(scenario())


def test_the_judges_live_part_ends_with_the_session(tmp_path):
    async def scenario():
        async with served(tmp_path) as t, client() as http:
            csrf = await t.login(http)
            async with http.ws_connect(t.url.replace("http", "ws") + "/ws", origin=t.origin) as ws:
                first = await ws.receive_json(timeout=5)
                assert first["judge"]["audit"][0]["action"] == "login"
                async with http.post(t.url + "/api/logout", headers=t.headers(csrf)) as r:
                    assert r.status == 200
                t.web.table.live.changed()
                while True:
                    msg = await ws.receive_json(timeout=5)
                    if "judge" not in msg:
                        break
                assert set(msg) == {"type", "public"}

    run(scenario())
