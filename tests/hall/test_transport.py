"""Tables → broker (a real mosquitto) → hall: every result arrives once, whatever stops in between."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from controller.hall_link.link import LinkConfig
from controller.hall_link.sim_table import SimTable
from hall.db import HallDB
from hall.service import HallService
from tests.conftest import scaled
from tests.hall.conftest import wait_for

HALL = "h1"


def _tables(broker, tmp_path, n, events="results", delay=0.0, resend_s=1.0):
    return [SimTable(f"t{i}", "sichuan-mpl2025", tmp_path / "tables", LinkConfig(broker.url, HALL, f"t{i}",
                     events=events, resend_s=resend_s, poll_s=0.05), seed=i + 1, event_delay=delay).start()
            for i in range(n)]


def _start_session(hall, tables, session=1):
    for i, t in enumerate(tables):
        hall.send_command(t.id, "session_start", {"session": session, "players": [f"p{4 * i + k}" for k in range(4)]})


def _play(tables, session=1, max_hands=None):
    threads = [threading.Thread(target=t.play_session, args=(session, max_hands)) for t in tables]
    for th in threads:
        th.start()
    return threads


def _all_acked(tables):
    """Every played hand's result is in the outbox (so are its events: they go first) and all is acknowledged."""
    for t in tables:
        t.link.notify()
    return all((c := t.link.outbox.counts())["pending"] == 0 and c["results"] == len(t.store.results())
               for t in tables)


def _check_once(db: HallDB, tables) -> None:
    """The hall holds exactly the tables' outbox messages, and each table's results with its deltas."""
    held = {(t, h, s) for t, h, s in db.q("SELECT table_id, hand, seq FROM messages")}
    sent = {(t.id, h, s) for t in tables for h, s, _, _ in t.link.outbox.messages()}
    assert held == sent
    for t in tables:
        mine = {h: r["deltas"] for h, r in t.store.results()}
        theirs = {h: json.loads(d) for h, d in db.q("SELECT hand, deltas FROM results WHERE table_id=?", (t.id,))}
        assert theirs == mine and mine


def _stop(tables, *others):
    for t in tables:
        t.stop()
    for o in others:
        o.stop()


def test_results_flow_and_are_acknowledged_by_the_hall(broker, tmp_path):
    db = HallDB(tmp_path / "hall.sqlite")
    hall = HallService(db, broker.url, HALL).start()
    assert hall.wait_connected()
    tables = _tables(broker, tmp_path, 2)
    _start_session(hall, tables)
    for th in _play(tables):
        th.join()
    wait_for(lambda: _all_acked(tables), what="every outbox message acknowledged")
    _check_once(db, tables)
    assert hall.stats.results == sum(len(t.played) for t in tables)
    wait_for(lambda: hall.pending_commands() == 0, what="the tables' command acks")
    _stop(tables, hall)


@pytest.mark.parametrize("kill", [False, True], ids=["stopped", "killed"])
def test_broker_stopped_or_killed_mid_session_loses_and_doubles_nothing(broker, tmp_path, kill):
    """SIGTERM (mosquitto saves its persistence) or kill -9 (whatever it held in memory is gone: the outboxes
    send it again); the tables go on recording while it is down."""
    db = HallDB(tmp_path / "hall.sqlite")
    hall = HallService(db, broker.url, HALL).start()
    assert hall.wait_connected()
    tables = _tables(broker, tmp_path, 3, events="all", delay=0.001)
    _start_session(hall, tables)
    wait_for(lambda: all(t.link.context() for t in tables), what="session start at every table")
    threads = _play(tables)
    wait_for(lambda: sum(len(t.played) for t in tables) >= 3, what="some hands")
    broker.stop(kill=kill)
    time.sleep(0.5)
    broker.start()
    for th in threads:
        th.join()
    wait_for(lambda: _all_acked(tables), timeout=60, what="every outbox message acknowledged")
    _check_once(db, tables)
    _stop(tables, hall)


def _hall_process(db_path, url):
    p = subprocess.Popen([sys.executable, "-m", "tests.hall.hall_proc", str(db_path), url, HALL],
                         stdout=subprocess.PIPE, text=True, cwd=os.getcwd())
    assert p.stdout is not None and p.stdout.readline().strip() == "ready"
    return p


def test_hall_killed_and_restarted_loses_and_doubles_nothing(broker, tmp_path):
    db_path = tmp_path / "hall.sqlite"
    proc = _hall_process(db_path, broker.url)
    tables = _tables(broker, tmp_path, 2, events="all", delay=0.001)
    # the session start comes from a short-lived hall client: the tables only need their players
    starter = HallService(HallDB(tmp_path / "starter.sqlite"), broker.url, HALL, client_id="starter").start()
    assert starter.wait_connected()
    _start_session(starter, tables)
    wait_for(lambda: all(t.link.context() for t in tables), what="session start at every table")
    starter.stop()
    threads = _play(tables)
    for _ in range(scaled(1, 3)):
        wait_for(lambda: sum(t.link.outbox.counts()["acked"] for t in tables) > 50, what="the hall ingesting")
        proc.send_signal(signal.SIGKILL)  # mid-batch: no clean shutdown, no last ack
        proc.wait()
        time.sleep(0.3)
        proc = _hall_process(db_path, broker.url)
    for th in threads:
        th.join()
    wait_for(lambda: _all_acked(tables), timeout=60, what="every outbox message acknowledged")
    proc.send_signal(signal.SIGTERM)
    proc.wait()
    db = HallDB(db_path)
    _check_once(db, tables)
    _stop(tables)


def test_table_restarted_mid_session_resends_only_what_was_not_acknowledged(broker, tmp_path):
    db = HallDB(tmp_path / "hall.sqlite")
    hall = HallService(db, broker.url, HALL).start()
    assert hall.wait_connected()
    [t] = _tables(broker, tmp_path, 1)
    _start_session(hall, [t])
    t.play_session(1, max_hands=3)
    t.stop()  # the table's service stops (power cut after the store's commit)
    link = LinkConfig(broker.url, HALL, "t0", resend_s=1.0, poll_s=0.05)
    t2 = SimTable("t0", "sichuan-mpl2025", tmp_path / "tables", link, seed=1).start()
    assert t2.link.context()["session"] == 1  # it knows its session from the recorded command
    wait_for(lambda: _all_acked([t2]), what="the restarted table's outbox acknowledged")
    _check_once(db, [t2])
    assert len(t2.store.results()) == 3
    _stop([t2], hall)


def test_garbage_on_a_table_topic_is_refused_not_ingested(broker, tmp_path):
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    db = HallDB(tmp_path / "hall.sqlite")
    hall = HallService(db, broker.url, HALL).start()
    assert hall.wait_connected()
    c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="noise")
    c.connect("127.0.0.1", broker.port)
    c.loop_start()
    for payload in (b"not json", b"[1,2]", b'{"hand": "h", "seq": -1, "kind": "result", "body": {}, "t_wall": 1}',
                    b'{"hand": "h", "seq": 0, "kind": "weird", "body": {}, "t_wall": 1}', b"\xff\xfe"):
        c.publish(f"hall/{HALL}/table/x/up/outbox", payload, qos=1).wait_for_publish(5)
    wait_for(lambda: hall.stats.bad == 5, what="five refusals")
    assert db.count("messages") == 0 and hall.stats.new == 0
    c.loop_stop()
    c.disconnect()
    hall.stop()
