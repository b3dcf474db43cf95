"""The table service with a [hall] section: its results reach the hall, the hall's commands reach the table
(shown in its state), the session's end stops new hands; without the section the table works alone."""
from __future__ import annotations

import asyncio
import json

from gpiozero.pins.mock import MockFactory

from controller import config
from controller.backends.gpio_direct import GpioBackend, GpioTableSim
from controller.event_store import EventStore
from controller.play_sources import BotPlay
from controller.service import TableService
from controller.web.live import LiveTable
from hall.db import HallDB
from hall.service import HallService
from tests.hall.conftest import wait_for


def make(tmp_path, **hall):
    cfg = config.defaults().with_overrides(table__profile="basic", table__id="t7", **hall)
    f = MockFactory()
    sim = GpioTableSim(f, time_scale=400.0, tile_count=136).start()
    store = EventStore(tmp_path / "events.sqlite")
    svc = TableService(cfg, GpioBackend(f, time_scale=400.0), store, auto=True, play=BotPlay(event_delay=0))
    return svc, sim, store


def test_table_service_reports_to_the_hall_and_obeys_the_session_end(broker, tmp_path):
    db = HallDB(tmp_path / "hall.sqlite")
    hall = HallService(db, broker.url, "h1").start()
    assert hall.wait_connected()
    svc, sim, store = make(tmp_path, hall__address=broker.url, hall__id="h1", hall__resend_s=1.0)
    snaps = []

    async def scenario():
        stop = asyncio.Event()
        task = asyncio.create_task(svc.run(stop))
        await asyncio.sleep(0)
        while svc.hall is None or not svc.hall.connected:
            await asyncio.sleep(0.02)
        hall.send_command("t7", "session_start", {"session": 1, "players": ["a", "b", "c", "d"], "ends_at": 4e9,
                                                   "text_en": "Session 1 started", "text_ru": "Сессия 1 началась"})
        while db.count("results") < 2:
            await asyncio.sleep(0.05)
        hall.send_command("t7", "session_end", {"session": 1, "text_en": "over", "text_ru": "конец"})
        while not svc.snapshot().hall["clock"]["ended"]:
            await asyncio.sleep(0.02)
        snaps.append(svc.snapshot())
        while svc.snapshot().state != "idle":  # the hand in play is finished ...
            await asyncio.sleep(0.05)
        await asyncio.sleep(1.0)  # ... and no new one starts
        snaps.append(svc.snapshot())
        stop.set()
        await task

    try:
        asyncio.run(asyncio.wait_for(scenario(), 60))
    finally:
        sim.stop()
    ended, later = snaps
    assert ended.hall["session"] == 1 and ended.hall["players"] == ["a", "b", "c", "d"]
    assert [m["en"] for m in ended.hall["messages"]] == ["Session 1 started", "over"]
    played = [r for _, r in store.results() if r.get("status") == "played"]
    # a hand whose dice had not been thrown when the gong sounded is closed as not started (000 line 190)
    assert {r.get("status") for _, r in store.results()} <= {"played", "not_started"}
    assert later.state == "idle" and later.hands_done == len(played)
    assert later.hands_done <= ended.hands_done + 1  # at most the hand that was in play when the gong sounded
    wait_for(lambda: db.count("results") == len(store.results()), what="the last results at the hall")
    rows = db.q("SELECT hand, session, players, deltas FROM results ORDER BY hand")
    assert [(h, json.loads(d)) for h, _, _, d in rows] == [(h, r.get("deltas", [])) for h, r in store.results()]
    # a hand started after the session's start carries it (demo mode may start one before the command arrives)
    assert rows[-1][1] == 1 and json.loads(rows[-1][2]) == ["a", "b", "c", "d"]
    wait_for(lambda: hall.pending_commands() == 0, what="the table's command acks")
    hall.stop()


def test_without_a_hall_the_table_works_alone(tmp_path):
    svc, sim, store = make(tmp_path)

    async def scenario():
        stop = asyncio.Event()
        await svc.run(stop, hands=1)

    try:
        asyncio.run(asyncio.wait_for(scenario(), 60))
    finally:
        sim.stop()
    assert svc.hall is None and svc.snapshot().hall is None and len(store.results()) == 1
    names = {r[0] for r in store.db.execute("SELECT name FROM sqlite_master")}
    assert "hall_outbox" not in names


class _GatedBackend(GpioBackend):
    """The walls go up only when the test says so (the gong can sound between START and the dice)."""

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.gate = asyncio.Event()

    async def raise_walls(self) -> None:
        await self.gate.wait()
        await super().raise_walls()


def test_a_hand_starts_at_the_dice_the_gong_before_them_means_no_hand(broker, tmp_path):
    """000 line 190 (§2.4.4): «Началом очередной сдачи считается первый бросок кубиков при полностью построенной
    стене: если гонг ... звучит уже после этого момента, сдача считается начатой» — and so, before it, not started
    (004 line 570, Rules 5.9, alike): START was pressed, the walls were being built when the session ended, no dice are
    thrown, the hand is closed as not started and nothing more starts."""
    db = HallDB(tmp_path / "hall.sqlite")
    hall = HallService(db, broker.url, "h1").start()
    assert hall.wait_connected()
    cfg = config.defaults().with_overrides(table__profile="basic", table__id="t7", hall__address=broker.url,
                                           hall__id="h1", hall__resend_s=1.0)
    f = MockFactory()
    sim = GpioTableSim(f, time_scale=400.0, tile_count=136).start()
    store = EventStore(tmp_path / "events.sqlite")
    backend = _GatedBackend(f, time_scale=400.0)
    svc = TableService(cfg, backend, store, auto=False, play=BotPlay(event_delay=0))
    states = []

    async def scenario():
        stop = asyncio.Event()
        task = asyncio.create_task(svc.run(stop))
        while svc.hall is None or not svc.hall.connected:
            await asyncio.sleep(0.02)
        hall.send_command("t7", "session_start", {"session": 1, "players": ["a", "b", "c", "d"], "ends_at": 4e9})
        while svc.hall.context().get("session") != 1:
            await asyncio.sleep(0.02)
        svc.trigger("start")
        while str(svc.machine.state) != "walls_up":
            await asyncio.sleep(0.02)
        hall.send_command("t7", "session_end", {"session": 1})  # the gong, while the walls are going up
        while svc.hall.may_start_hand():
            await asyncio.sleep(0.02)
        backend.gate.set()
        while str(svc.machine.state) != "idle":
            await asyncio.sleep(0.02)
        svc.trigger("start")  # and no new hand starts either
        await asyncio.sleep(0.5)
        states.append(str(svc.machine.state))
        states.append(svc.snapshot().hall["rules"])
        states.append(LiveTable(svc).public_state()["session"])  # what the table's page shows
        stop.set()
        await task

    try:
        asyncio.run(asyncio.wait_for(scenario(), 60))
    finally:
        sim.stop()
    assert states[0] == "idle"
    assert states[1]["reason"] == "ended" and not states[1]["may_start"]
    assert states[2]["text_en"] == "The session is over: no new hand starts"
    assert states[2]["text_ru"] == "Сессия окончена: новая раздача не начинается" and states[2]["session"] == 1
    results = store.results()
    assert [r["status"] for _, r in results] == ["not_started"]
    assert not [e for e in store.events(results[0][0]) if e.TYPE == "dice_rolled"]  # no dice were thrown
    wait_for(lambda: db.count("results") == 1, what="the closed hand at the hall")
    assert db.q("SELECT status FROM results") == [("not_started",)]  # the hall counts no hand for it
    hall.stop()
