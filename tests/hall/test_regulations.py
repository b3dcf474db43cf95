"""The seeds' tournament regulations at real tables (issue #34): each test cites the seed line it checks
(seeds in Russian: 000 Sichuan, 003 MCR, 004 riichi)."""
from __future__ import annotations

import json
import time

import pytest

from controller.event_store import EventStore
from controller.hall_link.link import HallLink, LinkConfig
from hall.db import HallDB
from hall.messages import OutboxMessage
from hall.protocols import table_csv
from hall.service import HallService
from hall.tournament import Tournament, TournamentError
from tests.hall.conftest import wait_for

HALL = "h1"


def _link(broker, tmp_path, table: str) -> tuple[HallLink, EventStore]:
    store = EventStore(tmp_path / f"{table}.sqlite")
    link = HallLink(LinkConfig(broker.url, HALL, table, resend_s=1.0, poll_s=0.05), store.path).start()
    wait_for(lambda: link.connected, what="the table's link")
    return link, store


def _real_hand(store: EventStore, link: HallLink, hand_id: str, result: dict) -> None:
    """A hand as a real table records it: started, then its result (no ``seats``: the link's context names
    the players), fed to the outbox in between as the pump does."""
    store.start_hand(hand_id, "sichuan-mpl2025", time.time())
    store.append(f"{hand_id}/game", 0, _started(hand_id))
    link.pump()
    store.finish_hand(hand_id, {"hand_id": hand_id, "status": "played", **result}, time.time())
    link.pump()


def _started(hand_id: str):
    from rules.events import HandStarted

    return HandStarted(hand_id=hand_id, profile="sichuan-mpl2025", n_players=4, dealer=0)


def test_a_substitute_brought_in_mid_session_keeps_the_seats_points(broker, tmp_path):
    """004 line 564 (Rules 5.8): a substitute takes the player's place at the table; 000 line 456 (§2.8.4.5):
    the substitute plays instead of him. The seat's game points go on: −10 before and −5 after = −15."""
    db = HallDB(tmp_path / "hall.sqlite")
    service = HallService(db, broker.url, HALL).start()
    assert service.wait_connected()
    t = Tournament(db, service, profile="sichuan-mpl2025", seed=3)
    for p in ("P1", "P2", "P3", "P4"):
        t.register(p)
    t.register("S1", "Substitute", substitute=True)
    link, store = _link(broker, tmp_path, "T1")
    try:
        t.seat(1, {"T1": ["P1", "P2", "P3", "P4"]})
        t.start_session(1, minutes=60)
        wait_for(lambda: link.context().get("session") == 1, what="the session at the table")
        _real_hand(store, link, "T1-1", {"deltas": [20, 0, -10, -10]})
        t.substitute(1, "T1", 2, "S1")  # P3 falls ill after the first hand
        wait_for(lambda: link.context().get("players") == ["P1", "P2", "S1", "P4"], what="the substitute at the table")
        assert link.view()["next_seating"] == {}  # the seat changed now, not for the next session
        _real_hand(store, link, "T1-2", {"deltas": [10, 0, -5, -5]})
        wait_for(lambda: db.count("results") == 2, what="both results at the hall")
        rows = dict(db.q("SELECT hand, players FROM results"))
        assert '"S1"' in rows["T1-2"] and '"P3"' in rows["T1-1"]  # each hand names who played it
        line = {x.player: x.total for x in t.standings().tables[(1, "T1")].standings}
        assert line == {"P1": 30, "P2": 0, "S1": -15, "P4": -15}
        from hall.protocols import table_rows  # the score protocol shows P3's hand in the seat S1 took

        players, rows, _summary = table_rows(t.standings().tables[(1, "T1")], 0)
        assert players == ["P1", "P2", "S1", "P4"] and rows == [["T1-1", 20, 0, -10, -10], ["T1-2", 10, 0, -5, -5]]
    finally:
        link.stop()
        service.stop()


def test_sticks_left_on_a_real_tables_last_hand_go_to_the_first_place(tmp_path):
    """004 line 344 (Rules 3.6): the riichi sticks left on the table at the game's end go to the winner. A
    real table's referee reports them as ``next_options`` (controller/referee/core.py: ``result()``)."""
    t = Tournament(HallDB(tmp_path / "hall.sqlite"), profile="riichi-ema2016", seed=3)
    for p in ("P1", "P2", "P3", "P4"):
        t.register(p)
    t.seat(1, {"T1": ["P1", "P2", "P3", "P4"]})
    players = ["P1", "P2", "P3", "P4"]
    hands = [([8000, -8000, 0, 0], {"honba": 0, "deposits": 0}),
             ([-1000, -1000, -1000, 1000], {"honba": 1, "deposits": 2000})]  # a draw: two sticks stay
    with t.db.tx() as db:
        for i, (deltas, after) in enumerate(hands):
            body = {"profile": "riichi-ema2016", "session": 1, "players": players,
                    "result": {"hand_id": f"h{i}", "status": "played", "source": "referee", "deltas": deltas,
                               "next_options": after}}
            assert t.db.ingest(db, "T1", OutboxMessage(f"h{i}", 1, "result", body, 1.0 + i), 2.0)
    line = {x.player: x.total for x in t.standings().tables[(1, "T1")].standings}
    assert line == {"P1": 37000 + 2000, "P2": 21000, "P3": 29000, "P4": 31000}


def test_real_mcr_results_carry_the_chairs_and_the_hall_credits_the_right_players(broker, tmp_path):
    """003 line 2168 «Способ распределения мест»: the players change chairs each round. The table's link records
    the chairs as each hand starts; the hall credits the hand's deltas by chair: in hand 5 (South round) chair 0
    is B (SEAT_TABLE), so the +24 of chair 0 is B's."""
    db = HallDB(tmp_path / "hall.sqlite")
    service = HallService(db, broker.url, HALL).start()
    assert service.wait_connected()
    t = Tournament(db, service, profile="mcr", seed=3)
    for p in ("A", "B", "C", "D"):
        t.register(p)
    store = EventStore(tmp_path / "T1.sqlite")
    link = HallLink(LinkConfig(broker.url, HALL, "T1", resend_s=1.0, poll_s=0.05), store.path, profile="mcr").start()
    try:
        wait_for(lambda: link.connected, what="the table's link")
        t.seat(1, {"T1": ["A", "B", "C", "D"]})
        t.start_session(1, minutes=120)
        wait_for(lambda: link.context().get("session") == 1, what="the session at the table")
        assert link.first_hand()  # a new game: East as seated deals, no sticks carried over
        for i in range(5):  # the East round's four hands (chair 0 wins 8 each), then the South round's first
            hand = f"T1-{i + 1}"
            link.hand_started(hand)
            deltas = [24, -8, -8, -8]
            _real_hand(store, link, hand, {"deltas": deltas, "dealer": i % 4, "next_dealer": (i + 1) % 4})
            link.hand_finished(hand, {"status": "played", "dealer": i % 4, "next_dealer": (i + 1) % 4})
        wait_for(lambda: db.count("results") == 5, what="the results at the hall")
        assert not link.first_hand()
        link.stop()  # a restarted table goes on counting the session's hands: the South round's chairs
        link = HallLink(LinkConfig(broker.url, HALL, "T1"), store.path, profile="mcr")
        assert not link.first_hand() and link.context_for("T1-6")["seats"] == ["B", "A", "D", "C"]
        seats = [json.loads(b)["seats"] for (b,) in db.q("SELECT body FROM results ORDER BY hand")]
        assert seats[:4] == [["A", "B", "C", "D"]] * 4 and seats[4] == ["B", "A", "D", "C"]
        line = {x.player: x.total for x in t.standings().tables[(1, "T1")].standings}
        assert line == {"A": 4 * 24 - 8, "B": -4 * 8 + 24, "C": -40, "D": -40}
    finally:
        link.stop()
        service.stop()


def test_penalties_given_at_the_tables_console_reach_the_hall_once(broker, tmp_path):
    """The judge's penalties (the profile's catalogue) go through the table's outbox: the director types nothing,
    a resend doubles nothing. MCR: 003 line 2130 (5 taken, given to nobody) and 003 line 2152 (a knocked-over
    tile: 30 to that one player); the offender sat in chair 1 of the South round's first hand (003 line 2168)."""
    from rules.events import JudgeAction, PenaltyAwarded
    from rules.game.penalty_catalogue import charge

    db = HallDB(tmp_path / "hall.sqlite")
    service = HallService(db, broker.url, HALL).start()
    assert service.wait_connected()
    t = Tournament(db, service, profile="mcr", seed=3)
    for p in ("A", "B", "C", "D"):
        t.register(p)
    store = EventStore(tmp_path / "T1.sqlite")
    link = HallLink(LinkConfig(broker.url, HALL, "T1", resend_s=0.5, poll_s=0.05), store.path, profile="mcr").start()
    try:
        wait_for(lambda: link.connected, what="the table's link")
        t.seat(1, {"T1": ["A", "B", "C", "D"]})
        t.start_session(1, minutes=120)
        wait_for(lambda: link.context().get("session") == 1, what="the session at the table")
        for i in range(5):
            hand = f"T1-{i + 1}"
            link.hand_started(hand)
            _real_hand(store, link, hand, {"deltas": [0, 0, 0, 0], "dealer": i % 4, "next_dealer": (i + 1) % 4})
            link.hand_finished(hand, {"status": "played", "dealer": i % 4, "next_dealer": (i + 1) % 4})
        kinds = {k.code: k for k in t.profile.penalty_catalogue}
        knocked = charge(kinds["knocked_over_tile"], 1, (0, 1, 2, 3), chosen=30, to_seat=2)
        touch = charge(kinds["wall_touch"], 1, (0, 1, 2, 3), previous=1)
        for seq, (code, c) in enumerate((("knocked_over_tile", knocked), ("wall_touch", touch))):
            store.append("T1/judge", seq, PenaltyAwarded(seat=1, points=c.points, rule=kinds[code].rule, reason=code,
                                                         code=code, paid=c.paid if any(c.paid) else (),
                                                         occurrence=c.occurrence, hand_id="T1-5", judge="J. Judge"))
        store.append("T1/judge", 2, JudgeAction(action="login", detail={}, judge="J. Judge"))  # not for the hall
        store.append("T1/judge", 3, JudgeAction(action="sanction", hand_id="T1-5", judge="J. Judge", detail={
            "kind": "disqualification", "seat": 3, "reason": "a tile hidden in the sleeve (004 line 546)"}))
        link.pump()
        wait_for(lambda: len(db.q("SELECT 1 FROM messages WHERE hand='T1'")) == 3, what="the judge's decisions")
        link.outbox.unsend()  # everything sent again (a reconnection): the hall keeps one copy
        link.pump()
        time.sleep(1.0)
        line = {x.player: (x.total, x.penalty) for x in t.standings().tables[(1, "T1")].standings}
        # hand 5 is the South round's first: chair 1 is A, chair 2 is D (SEAT_TABLE)
        assert line == {"A": (-30 - 5, 5), "B": (0, 0), "C": (0, 0), "D": (30, 0)}
        pens = t.standings().tables[(1, "T1")].table_penalties
        assert [p["event"]["code"] for p in pens] == ["knocked_over_tile", "wall_touch"]
        assert pens[0]["event"]["judge"] == "J. Judge" and pens[0]["seats"] == ["B", "A", "D", "C"]
        assert t.standings().disqualified == ["C"] and "C" not in t.players()  # chair 3 of hand 5 is C
        csv_text = table_csv(t.standings().tables[(1, "T1")], t.profile.start_score)
        assert "knocked_over_tile (003 «Отдельные нарушения» 7 (line 2152); J. Judge),-30,0,0,30" in csv_text
    finally:
        link.stop()
        service.stop()


def _four(tmp_path, profile="sichuan-mpl2025", clock=None) -> Tournament:
    t = Tournament(HallDB(tmp_path / "hall.sqlite"), profile=profile, seed=3, **({"clock": clock} if clock else {}))
    for p in ("P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8"):
        t.register(p)
    return t


def _result(t: Tournament, session: int, table: str, hand: str, players: list[str], deltas: list[int],
            confirmed_by: str | None = None) -> None:
    body = {"profile": t.profile_name, "session": session, "players": players,
            "result": {"status": "played", "deltas": deltas, "confirmed_by": confirmed_by}}
    with t.db.tx() as db:
        assert t.db.ingest(db, table, OutboxMessage(hand, 1, "result", body, 1.0), 2.0)


def test_a_result_every_seat_confirmed_is_final(tmp_path):
    """000 line 269: «После того, как счётчик записал результаты и все игроки их подтвердили, результаты сдачи
    считаются действительными и, в принципе, не могут быть пересчитаны задним числом» — changed only by an upheld
    appeal or the head judge's override, both audited."""
    now = [1000.0]
    t = _four(tmp_path, clock=lambda: now[0])
    players = ["P1", "P2", "P3", "P4"]
    t.seat(1, {"T1": players})
    t.start_session(1, minutes=60)
    _result(t, 1, "T1", "h1", players, [6, -2, -2, -2], confirmed_by="seats")
    _result(t, 1, "T1", "h2", players, [4, -4, 0, 0], confirmed_by="judge")
    t.correct("T1", "h2", [0, 0, 4, -4], "the judge's own confirmation may be corrected")
    with pytest.raises(TournamentError, match="every seat confirmed"):
        t.correct("T1", "h1", [-2, 6, -2, -2], "recount")
    a = t.appeal(1, "P2", "the win was mine, not P1's", table="T1", hand="h1")
    with pytest.raises(TournamentError, match="not upheld"):
        t.correct("T1", "h1", [-2, 6, -2, -2], "recount", appeal=a)  # pending
    t.decide_appeal(a, True, "the video shows P2's hu first", who="head judge")
    t.correct("T1", "h1", [-2, 6, -2, -2], "appeal upheld", appeal=a)
    assert {x.player: x.total for x in t.standings().tables[(1, "T1")].standings} == {
        "P1": -2, "P2": 6, "P3": 2, "P4": -6}
    _result(t, 1, "T1", "h3", players, [3, -1, -1, -1], confirmed_by="seats")
    t.correct("T1", "h3", [0, 0, 0, 0], "the scorer's slip", who="head judge", override=True)
    audit = t.db.q("SELECT who, action, detail FROM audit WHERE action IN ('appeal', 'appeal_decision', 'correct') "
                   "ORDER BY id")
    assert [(w, a_) for w, a_, _ in audit] == [("director", "correct"), ("director", "appeal"),
                                               ("head judge", "appeal_decision"), ("director", "correct"),
                                               ("head judge", "correct")]
    assert json.loads(audit[-1][2])["override"] is True


def test_an_appeal_after_30_minutes_is_refused(tmp_path):
    """000 lines 485-486 (§2.9.2): «не позже, чем через 30 минут после окончания соответствующей сессии», in
    writing; the decision is recorded (§2.9.3-2.9.5, lines 488-497)."""
    now = [1000.0]
    t = _four(tmp_path, clock=lambda: now[0])
    t.seat(1, {"T1": ["P1", "P2", "P3", "P4"]})
    t.start_session(1, minutes=60)
    now[0] += 3600
    t.end_session(1)
    now[0] += 29 * 60
    first = t.appeal(1, "P3", "the judge's ruling on the dead wall")
    now[0] += 2 * 60
    with pytest.raises(TournamentError, match="31 minutes after session 1 ended: appeals are received within 30"):
        t.appeal(1, "P4", "too late")
    with pytest.raises(TournamentError, match="in writing"):
        t.appeal(1, "P4", " ")
    t.decide_appeal(first, False, "the ruling stands")
    with pytest.raises(TournamentError, match="already decided"):
        t.decide_appeal(first, True, "again")
    from hall.regulations import appeals

    [a] = appeals(t.db)
    assert a["player"] == "P3" and a["at"] == 1000.0 + 3600 + 29 * 60 and a["decision"]["upheld"] is False


def test_sanctions_beyond_points(tmp_path):
    """000 line 420 (§2.8.1: «аннулированием достигнутых результатов»), line 422 (beyond −48 «штраф в турнирных
    очках или дисквалификация»), line 463 (§2.8.5: removal from the tournament), 004 line 546 (a cheat is
    disqualified at once): each audited with who, when, why."""
    t = _four(tmp_path)
    s1 = {"T1": ["P1", "P2", "P3", "P4"], "T2": ["P5", "P6", "P7", "P8"]}
    s2 = {"T1": ["P1", "P5", "P3", "P7"], "T2": ["P2", "P6", "P4", "P8"]}
    t.seat(1, s1)
    t.seat(2, s2)
    for s, tables in ((1, s1), (2, s2)):
        for table, players in tables.items():
            _result(t, s, table, f"{table}-{s}", players, [30, 10, -15, -25])
    before = {x.player: x.table_points for x in t.standings().ranking}
    assert before["P1"] == 8 and before["P3"] == 4 and before["P2"] == 7 and before["P5"] == 7
    t.sanction("P1", "table_points", "beyond −48 GP in session 2 (000 §2.8.2)", who="head judge", session=2, points=2)
    t.sanction("P3", "annulment", "results annulled for session 1 (000 §2.8.1)", session=1)
    t.sanction("P5", "disqualification", "caught cheating (004 line 546)")
    t.sanction("P2", "removal", "persistent disorder (000 §2.8.5.1)")
    st = t.standings()
    after = {x.player: x.table_points for x in st.ranking}
    assert after["P1"] == 6 and after["P3"] == 2 and "P5" not in after and st.disqualified == ["P5"]
    assert after["P2"] == 7  # removed: what he played stands
    from hall.protocols import ranking_csv

    assert ranking_csv(st, t.player_names()).strip().splitlines()[-1] == "DQ,P5,P5,2,,"  # listed, unranked
    assert "P5" not in t.players() and "P2" not in t.players() and "P1" in t.players()  # seated no more
    rows = t.db.q("SELECT who, detail FROM audit WHERE action='sanction' ORDER BY id")
    assert rows[0][0] == "head judge" and json.loads(rows[0][1])["reason"].startswith("beyond −48")
    from hall.web import regulations_view  # what the director's dashboard serves (/api/state)

    view = regulations_view(t, st, None)
    assert [(x["kind"], x["player"], x["who"]) for x in view["sanctions"]][:1] == [("table_points", "P1", "head judge")]
    assert view["disqualified"] == ["P5"] and view["appeals"] == []
    with pytest.raises(TournamentError, match="no sanction"):
        t.sanction("P1", "flogging", "x")
    with pytest.raises(TournamentError, match="needs its reason"):
        t.sanction("P1", "removal", " ")


def test_a_late_riichi_player_over_the_limit_who_still_plays_is_deducted(tmp_path):
    """004 lines 558-560 (Rules 5.7): 1000 a minute up to 10 minutes; beyond, a substitute plays. When none is
    available and the late player plays himself, he is deducted the full 10 000 (never nothing)."""
    t = _four(tmp_path, profile="riichi-ema2016")
    players = ["P1", "P2", "P3", "P4"]
    t.seat(1, {"T1": players})
    _result(t, 1, "T1", "h1", players, [10000, 0, -5000, -5000])
    t.late(1, "P2", 4.5)
    t.late(1, "P3", 12)
    line = {x.player: x.penalty for x in t.standings().tables[(1, "T1")].standings}
    assert line == {"P1": 0, "P2": 5000, "P3": 10000, "P4": 0}


def test_the_directors_actions_for_sanctions_appeals_and_locked_results(tmp_path):
    """The director's API (POST /api/director/<action>, behind his login: tests/hall/test_dashboard.py) reaches
    the same audited records: an appeal, its decision, the correction it allows (000 line 269, 485), a sanction."""
    from types import SimpleNamespace

    from hall.web import Dashboard

    now = [1000.0]
    t = _four(tmp_path, clock=lambda: now[0])
    players = ["P1", "P2", "P3", "P4"]
    t.seat(1, {"T1": players})
    t.start_session(1, minutes=60)
    _result(t, 1, "T1", "h1", players, [6, -2, -2, -2], confirmed_by="seats")
    d = Dashboard.__new__(Dashboard)
    d.hall = SimpleNamespace(tournament=t)
    with pytest.raises(TournamentError, match="every seat confirmed"):
        d._act("correct", {"table": "T1", "hand": "h1", "deltas": [0, 0, 0, 0]}, "judge")
    a = d._act("appeal", {"session": 1, "player": "P2", "text": "miscount", "table": "T1", "hand": "h1"}, "judge")
    d._act("decide_appeal", {"appeal": a["appeal"], "upheld": True, "decision": "recount"}, "head")
    d._act("correct", {"table": "T1", "hand": "h1", "deltas": [0, 0, 0, 0], "appeal": a["appeal"]}, "judge")
    d._act("sanction", {"player": "P4", "kind": "disqualification", "reason": "cheating (004 line 546)"}, "head")
    assert t.standings().disqualified == ["P4"]
    assert [r[0] for r in t.db.q("SELECT who FROM audit WHERE action IN ('appeal_decision', 'sanction')")] == [
        "head", "head"]


def test_a_riichi_session_is_105_minutes_its_red_zone_the_last_10(tmp_path):
    """004 line 61 (Reg 6.1.1): «Игровая сессия длится ровно 105 минут»; line 62: the red zone is its last 10 minutes
    (the tables' warning comes then) — when the director sets no other length."""
    now = [1000.0]
    t = _four(tmp_path, profile="riichi-ema2016", clock=lambda: now[0])
    t.seat(1, {"T1": ["P1", "P2", "P3", "P4"]})
    t.start_session(1)
    [(ends, warn)] = t.db.q("SELECT ends_at, warning_at FROM sessions WHERE n=1")
    assert (ends - 1000.0, ends - warn) == (105 * 60, 10 * 60)


def test_a_judge_removes_a_player_at_the_console_his_results_stand(tmp_path):
    """003 line 2159 («10. Серьёзное нарушение порядка»: «игрок, который упорно продолжает не подчиняться требованиям
    судьи, подлежит отстранению от соревнования»): the MCR judge's removal at the table's console reaches the hall —
    the player is seated no more, what he played stands (unlike a disqualification, 004 line 546)."""
    from rules.events import JudgeAction

    t = _four(tmp_path, profile="mcr")
    players = ["P1", "P2", "P3", "P4"]
    t.seat(1, {"T1": players})
    _result(t, 1, "T1", "h1", players, [24, -8, -8, -8])
    ev = JudgeAction(action="sanction", hand_id="h1", judge="J. Judge",
                     detail={"kind": "removal", "seat": 1, "reason": "persistent disobedience (003 line 2159)"})
    with t.db.tx() as db:
        t.db.ingest(db, "T1", OutboxMessage("T1", 1, "event", {"event": ev.to_json(), "session": 1,
                                                               "players": players, "seats": players}, 5.0), 6.0)
    st = t.standings()
    assert "P2" not in t.players() and st.disqualified == []
    assert {x.player: (x.table_points, x.total) for x in st.ranking}["P2"] == (1.0, -8)  # 4/2/1/0: tied 2nd-4th
    from hall.regulations import sanctions

    [s] = sanctions(t.db)
    assert (s.kind, s.player, s.who, s.reason) == ("removal", "P2", "J. Judge at T1",
                                                  "persistent disobedience (003 line 2159)")


def test_a_table_of_two_plays_east_and_west(tmp_path):
    """001 line 61 («Два игрока могут играть за прямоугольным столом»): two players sit facing each other, at seats
    0 and 2 (docs/notation.md "Seats"; rules.wall.SEATS) — a result's deltas are there, and the hall credits both
    (it credited seat 1, nobody's, and lost the second player's points). Siamese two-player tables alike (003 line
    2229)."""
    t = _four(tmp_path, profile="red")
    t.seat(1, {"T1": ["P1", "P2"], "T2": ["P3", "P4", "P5", "P6"]})
    _result(t, 1, "T1", "h1", ["P1", "P2"], [-18, 0, 18, 0])
    _result(t, 1, "T1", "h2", ["P1", "P2"], [6, 0, -6, 0])
    line = {x.player: (x.total, x.table_points) for x in t.standings().tables[(1, "T1")].standings}
    assert line == {"P1": (-12, 2.0), "P2": (12, 4.0)}
    from hall.protocols import table_rows

    assert table_rows(t.standings().tables[(1, "T1")], 0)[1] == [["h1", -18, 18], ["h2", 6, -6]]
