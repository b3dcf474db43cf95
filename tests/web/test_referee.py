"""The judge's referee actions on the page (answer, correct, undo, confirm, reject) through the judge's
routes: each reaches the referee session, is in the audit log with who made it, and the page answers with
what the referee concluded; each pressed at the wrong moment is a 4xx with one line, never a 500. The
public view shows the questions, answers and corrections, never a question's subject."""
from __future__ import annotations

import json

import pytest

from controller.table_machine import S
from controller.web import refereeing
from controller.web.judge import ActionError, judge_stream
from controller.web.public import PublicHand
from rules.events import ButtonPressed, HandStarted, JudgeAction, QuestionAnswered, QuestionAsked
from tests.web.helpers import client, run, served
from tests.web.refereed import PROFILE, TRUE, misread_index, refereed_play, until


def _audit(t) -> list[tuple[str, str]]:
    return [(e.action, e.judge) for e in t.store.events(judge_stream(t.svc)) if isinstance(e, JudgeAction)]


async def _post(http, t, csrf, action, body=None):
    async with http.post(f"{t.url}/api/judge/{action}", json=body or {}, headers=t.headers(csrf)) as r:
        data = await r.json()
        assert r.status < 500, data
        return r.status, data


def test_a_corrected_tile_changes_the_settlement_and_undo_restores_it(tmp_path):
    async def scenario():
        async with served(tmp_path, auto=True, play=refereed_play(), profile=PROFILE, hands=1) as t, client() as http:
            csrf = await t.login(http, "Judge Ivanova")
            await until(lambda: t.svc.play_source.session is not None and t.svc.play_source.session.referee.settled)
            s = t.svc.play_source.session
            wrong = list(s.referee.machine.state.settled.deltas)
            winner = (s.referee.machine.state.dealer + 1) % 4
            assert wrong[winner] < 0, "a false win pays (chombo)"
            # the judge's console lists the record and what can be done now
            async with http.get(t.url + "/api/judge/actions") as r:
                names = {a["name"] for a in await r.json()}
            assert {"correct", "confirm_result", "reject"} <= names and "answer" not in names and "undo" not in names
            i = misread_index(s)
            status, out = await _post(http, t, csrf, "correct", {"op": "replace", "index": i, "tile": TRUE,
                                                                  "reason": "4m read as 7m"})
            assert status == 200, out
            ref = out["referee"]
            assert ref["revision"] == 1 and ref["correction"]["before"] == wrong
            right = ref["settlement"]
            assert right == ref["correction"]["after"] and right != wrong and right[winner] > 0
            # the public view follows the corrected record: the ron and its payment, the correction noticed
            await until(lambda: (t.web.table.live.public_state()["hand"] or {}).get("settlement") is not None
                        and t.web.table.live.public_state()["hand"]["settlement"]["deltas"] == right)
            pub = t.web.table.live.public_state()["hand"]
            assert any(n["kind"] == "correction" for n in pub["notices"])
            assert [w["seat"] for w in pub["wins"] if w["valid"]] == [winner]
            # undo: the misread comes back, and with it the false win
            status, out = await _post(http, t, csrf, "undo", {"reason": "wrong seat"})
            assert status == 200 and out["undone"] == 1 and out["referee"]["settlement"] == wrong
            assert out["referee"]["revision"] == 2
            status, out = await _post(http, t, csrf, "undo")
            assert status == 409 and out["error"] == "no correction of this hand to undo"
            # confirm once; the second press is refused with why
            status, out = await _post(http, t, csrf, "confirm_result")
            assert status == 200 and out["referee"]["confirmed"] == "judge"
            status, out = await _post(http, t, csrf, "confirm_result")
            assert status == 409 and "already confirmed" in out["error"]
            await until(lambda: t.store.results())
            assert t.store.results()[0][1]["deltas"] == wrong and t.store.results()[0][1]["revision"] == 2
            assert _audit(t) == [("login", "Judge Ivanova"), ("correct", "Judge Ivanova"), ("undo", "Judge Ivanova"),
                                 ("confirm_result", "Judge Ivanova")]

    run(scenario())


def test_the_judge_answers_the_referees_question(tmp_path):
    async def scenario():
        async with served(tmp_path, auto=True, play=refereed_play(unreadable=True), profile=PROFILE,
                          hands=1) as t, client() as http:
            csrf = await t.login(http)
            status, out = await _post(http, t, csrf, "answer", {"answer": "1z"})
            assert status == 409 and out["error"].startswith("no refereed hand"), out  # the table is not playing yet
            await until(lambda: t.svc.play_source.session is not None
                        and t.svc.play_source.session.referee.open_question is not None)
            q = t.svc.play_source.session.referee.open_question.event
            assert q.kind == "tile"
            for action in ("confirm_result", "reject"):
                status, out = await _post(http, t, csrf, action, {"reason": "x"})
                assert status == 409 and out["error"] == "the hand has no result yet"
            await until(lambda: any(n["kind"] == "question"
                                    for n in (t.web.table.live.public_state()["hand"] or {}).get("notices", [])))
            async with http.get(t.url + "/api/view") as r:
                text = await r.text()
            pub = json.loads(text)["hand"]
            assert any(n["kind"] == "question" for n in pub["notices"])
            assert "subject" not in text and "observation" not in text, "a question's subject is the judge's"
            status, out = await _post(http, t, csrf, "answer", {"answer": ""})
            assert status == 400 and out["error"]
            status, out = await _post(http, t, csrf, "answer", {"answer": "1z"})
            assert status == 200 and out["answered"] == "1z" and "question" not in out["referee"], out
            await until(lambda: t.svc.play_source.session.referee.settled)
            status, out = await _post(http, t, csrf, "answer", {"answer": "1z"})
            assert status == 409 and out["error"] == "the referee asks nothing now"
            answers = [e for e in t.store.events(t.svc.hand_id + "/referee") if isinstance(e, QuestionAnswered)]
            assert [(a.answer, a.by) for a in answers] == [("1z", "A. Judge")]
            await until(lambda: any(n["kind"] == "answer" for n in t.web.table.live.public_state()["hand"]["notices"]))
            notice = next(n for n in t.web.table.live.public_state()["hand"]["notices"] if n["kind"] == "answer")
            assert notice["text"].endswith(": 1z") and notice["text_ru"].endswith(": 1z")

    run(scenario())


def test_reject_withdraws_the_seats_signatures(tmp_path):
    async def scenario():
        async with served(tmp_path, auto=True, play=refereed_play(), profile=PROFILE, hands=1) as t, client() as http:
            csrf = await t.login(http)
            status, out = await _post(http, t, csrf, "reject", {"reason": "no"})
            assert status == 409 and out["error"].startswith("no refereed hand")
            await until(lambda: t.svc.play_source.session is not None and t.svc.machine.state is S.PLAY)
            s = t.svc.play_source.session
            await until(lambda: s.referee.settled)
            for seat in (0, 2):  # two seats sign the (wrong) result with their call buttons
                t.svc.press("call", ButtonPressed(button="call", seat=seat, **t.svc.clock.stamp()))
            await until(lambda: s.referee.confirm_seats == {0, 2})
            status, out = await _post(http, t, csrf, "reject", {})
            assert status == 400 and out["error"].startswith("reason")
            status, out = await _post(http, t, csrf, "reject", {"reason": "the 4m was read as 7m"})
            assert status == 200 and out["withdrawn"] == 2 and out["referee"]["signed"] == [], out
            assert s.referee.confirmed is None and s.referee.settled
            assert ("reject", "A. Judge") in _audit(t)
            assert out["referee"]["revision"] == 2 and out["referee"]["settlement"] is not None
            # corrections the page cannot read: 400 with why, nothing sent to the referee
            status, out = await _post(http, t, csrf, "correct", {"op": "move", "index": 2, "to": "x"})
            assert status == 400 and out["error"]
            status, out = await _post(http, t, csrf, "correct", {"op": "replace", "index": 99999, "tile": "1m"})
            assert status == 400 and "index" in out["error"]
            assert s.referee.revision == 2
            # a correction the referee refuses (here: a place the record has not) is a 422 with its words
            mark = refereeing.Mark(t.svc)
            s.correct("A. Judge", "insert", 99999, {"type": "pond_tile_seen", "seat": 0, "index": 0, "tile": "1m"})
            mark.ran()
            with pytest.raises(ActionError) as err:
                await refereeing.settle(mark)
            assert err.value.status == 422 and "correction refused" in str(err.value)
            assert s.referee.revision == 2

    run(scenario())


def test_referee_actions_need_the_judge_and_the_csrf_token(tmp_path):
    async def scenario():
        async with served(tmp_path, auto=True, play=refereed_play(), profile=PROFILE, hands=1) as t, client() as http:
            await until(lambda: t.svc.play_source.session is not None and t.svc.play_source.session.referee.settled)
            for action in ("answer", "correct", "undo", "confirm_result", "reject"):
                async with http.post(f"{t.url}/api/judge/{action}", json={}, headers=t.headers()) as r:
                    assert r.status == 401 and (await r.json())["error"]
            csrf = await t.login(http)
            for action in ("answer", "correct", "undo", "confirm_result", "reject"):
                async with http.post(f"{t.url}/api/judge/{action}", json={}, headers=t.headers()) as r:
                    assert r.status == 403 and "CSRF" in (await r.json())["error"]
                async with http.post(f"{t.url}/api/judge/{action}", json={}, headers=t.headers(csrf, "http://evil.example")) as r:
                    assert r.status == 403
                async with http.post(f"{t.url}/api/judge/{action}", data=b"[1,", headers=t.headers(csrf)) as r:
                    assert r.status in (400, 409) and (await r.json())["error"]
            assert t.svc.play_source.session.referee.confirmed is None and t.svc.play_source.session.referee.revision == 0

    run(scenario())


def test_public_notices_never_carry_a_questions_subject_or_a_missing_suit():
    hand = PublicHand("sichuan-mpl2025", "h1")
    hand.feed(HandStarted(profile="sichuan-mpl2025", n_players=4, dealer=0, hand_id="h1"))
    asked = QuestionAsked(question_id=0, kind="missing_suit", seat=2, subject={"seat": 2, "hand": ["3m", "4m"]},
                          choices=("m", "p", "s"), message="seat 2's missing suit is not on the table: which is it?",
                          message_ru="запрещённая масть игрока не видна: какая?", t_mono=1.0)
    hand.feed(asked)
    hand.feed(QuestionAnswered(question_id=0, answer="p", by="Judge", t_mono=2.0))
    view = json.dumps(hand.view())
    assert "3m" not in view and "subject" not in view and "choices" not in view
    notices = hand.view()["notices"]
    assert [n["kind"] for n in notices] == ["question", "answer"]
    assert all(not n["text"].endswith("p") and not n["text_ru"].endswith("p") for n in notices)
    assert set().union(*notices) <= {"kind", "seat", "text", "text_ru", "t"}
