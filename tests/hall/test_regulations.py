"""The seeds' tournament regulations at real tables (issue #34): each test cites the seed line it checks
(seeds in Russian: 000 Sichuan, 003 MCR, 004 riichi)."""
from __future__ import annotations

import json
import time

from controller.event_store import EventStore
from controller.hall_link.link import HallLink, LinkConfig
from hall.db import HallDB
from hall.messages import OutboxMessage
from hall.protocols import table_csv
from hall.service import HallService
from hall.tournament import Tournament
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
    from rules.events import PenaltyAwarded
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
        link.pump()
        wait_for(lambda: len(db.q("SELECT 1 FROM messages WHERE hand='T1'")) == 2, what="the penalties at the hall")
        link.outbox.unsend()  # everything sent again (a reconnection): the hall keeps one copy
        link.pump()
        time.sleep(1.0)
        line = {x.player: (x.total, x.penalty) for x in t.standings().tables[(1, "T1")].standings}
        # hand 5 is the South round's first: chair 1 is A, chair 2 is D (SEAT_TABLE)
        assert line == {"A": (-30 - 5, 5), "B": (0, 0), "C": (0, 0), "D": (30, 0)}
        pens = t.standings().tables[(1, "T1")].table_penalties
        assert [p["event"]["code"] for p in pens] == ["knocked_over_tile", "wall_touch"]
        assert pens[0]["event"]["judge"] == "J. Judge" and pens[0]["seats"] == ["B", "A", "D", "C"]
        csv_text = table_csv(t.standings().tables[(1, "T1")], t.profile.start_score)
        assert "knocked_over_tile (003 «Отдельные нарушения» 7 (line 2152); J. Judge),-30,0,0,30" in csv_text
    finally:
        link.stop()
        service.stop()
