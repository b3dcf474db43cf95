"""Security with a real mosquitto on the provisioned files: one identity per table, the password file, the ACL
(a table writes only its own ``up/#`` and reads only its own ``down/#``), TLS with client certificates."""
from __future__ import annotations

import threading

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from controller import config as table_config
from controller.cli import main
from controller.hall_link.link import HallLink, LinkConfig
from hall.broker import BrokerTLS, Mosquitto
from hall.db import HallDB
from hall.messages import OutboxMessage
from hall.mqtt import Credentials
from hall.provision import mosquitto_hash, provision
from hall.service import HallService
from tests.hall.conftest import _need_mosquitto, wait_for


@pytest.fixture
def secured(tmp_path):
    _need_mosquitto()
    prov = provision(tmp_path / "prov", 2, hall_id="h9")
    b = Mosquitto(tmp_path / "broker", password_file=str(prov.out / "broker" / "passwords"),
                  acl_file=str(prov.out / "broker" / "acl")).start()
    db = HallDB(tmp_path / "hall.sqlite")
    hall = HallService(db, b.url, "h9", Credentials("hall", prov.passwords["hall"])).start()
    assert hall.wait_connected(), hall.error
    yield prov, b, hall, db
    hall.stop()
    b.stop()


def _link(prov, broker, table, tmp_path, password=None) -> HallLink:
    cfg = table_config.load(prov.table_config(table)).with_overrides(hall__address=broker.url)
    lc = LinkConfig.from_config(cfg)
    if password is not None:
        lc = LinkConfig(lc.broker, lc.hall, lc.table, Credentials(lc.creds.username, password), poll_s=0.05)
    return HallLink(lc, tmp_path / f"{table}-{password}.sqlite").start()


def _raw(broker, user, password):
    c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"raw-{user}")
    c.username_pw_set(user, password)
    got: list[str] = []
    ready = threading.Event()
    c.on_message = lambda cl, ud, msg: got.append(msg.topic)
    c.on_connect = lambda cl, ud, fl, rc, pr: ready.set()
    c.connect("127.0.0.1", broker.port)
    c.loop_start()
    assert ready.wait(5)
    return c, got


def test_provisioned_table_config_is_valid_and_hashes_are_mosquittos(secured, tmp_path):
    prov, *_ = secured
    for t in prov.tables:
        cfg = table_config.load(prov.table_config(t))
        assert cfg["table.id"] == t and cfg["hall.username"] == t and cfg["hall.password"] == prov.passwords[t]
        assert (prov.table_config(t).stat().st_mode & 0o077) == 0  # secrets: owner only
    # mosquitto_passwd's own format, checked against a known vector (PBKDF2-SHA512, 101 rounds, 12-byte salt)
    assert mosquitto_hash("secret", bytes.fromhex("78b128b30c09719ffa96e996")) == (
        "$7$101$eLEoswwJcZ/6lumW$cqoFztwpc5h7j52HCtO/C2DiHhXd1IRW9Fq2MYXw2FvVDn7QcxdzSUP7IWFFomgNXo9cHjyL4K3zHXvC0f4OeQ==")


def test_right_credentials_connect_and_wrong_ones_are_refused(secured, tmp_path):
    prov, broker, hall, db = secured
    good = _link(prov, broker, "table-01", tmp_path)
    wait_for(lambda: good.connected, what="table-01 connected")
    bad = _link(prov, broker, "table-02", tmp_path, password="wrong-password")
    wait_for(lambda: bad.error != "", what="a refusal")
    assert not bad.connected and "refused" in bad.error
    assert ("not authorized" in bad.error.lower()) or ("bad user name or password" in bad.error.lower())
    anon = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="anon")
    codes = []
    anon.on_connect = lambda cl, ud, fl, rc, pr: codes.append(rc)
    anon.connect("127.0.0.1", broker.port)
    anon.loop_start()
    wait_for(lambda: codes, what="the anonymous answer")
    assert codes[0].is_failure
    anon.loop_stop()
    for link in (good, bad):
        link.stop()


def test_a_table_cannot_publish_or_read_under_another_tables_topic(secured):
    prov, broker, hall, db = secured
    c, got = _raw(broker, "table-01", prov.passwords["table-01"])
    c.subscribe("hall/h9/table/table-02/down/#", qos=1)
    c.subscribe("hall/h9/table/table-01/down/#", qos=1)
    forged = OutboxMessage("forged", 0, "result", {"result": {"deltas": [32000, 0, 0, -32000]}}, 1.0)
    c.publish("hall/h9/table/table-02/up/outbox", forged.encode(), qos=1).wait_for_publish(5)
    own = OutboxMessage("own", 0, "event", {"event": {}}, 1.0)
    c.publish("hall/h9/table/table-01/up/outbox", own.encode(), qos=1).wait_for_publish(5)
    # messages from one client arrive in order: once its own is ingested, the forged one was dropped
    wait_for(lambda: db.count("messages") >= 1, what="table-01's own message at the hall")
    assert db.q("SELECT table_id, hand FROM messages") == [("table-01", "own")]
    hall.send_command("table-02", "message", {"text": "for table-02 only"})
    hall.send_command("table-01", "message", {"text": "for table-01"})
    wait_for(lambda: "hall/h9/table/table-01/down/cmd" in got, what="table-01's own command")
    assert all("table-02" not in t for t in got)
    c.loop_stop()
    c.disconnect()


def test_tls_with_client_certificates(tmp_path):
    _need_mosquitto()
    prov = provision(tmp_path / "prov", 1, hall_id="h9", hall_host="127.0.0.1", tls=True)
    bdir = prov.out / "broker"
    b = Mosquitto(tmp_path / "broker", password_file=str(bdir / "passwords"), acl_file=str(bdir / "acl"),
                  tls=BrokerTLS(str(bdir / "ca.crt"), str(bdir / "server.crt"), str(bdir / "server.key"))).start()
    assert b.url.startswith("mqtts://")
    try:
        h = prov.out / "hall"
        db = HallDB(tmp_path / "hall.sqlite")
        hall = HallService(db, b.url, "h9", Credentials("hall", prov.passwords["hall"], str(h / "ca.crt"),
                                                         str(h / "hall.crt"), str(h / "hall.key"))).start()
        assert hall.wait_connected(), hall.error
        t = prov.out / "tables" / "table-01"
        installed = tmp_path / "table-01.toml"  # the files as the table installs them (/etc/mahjong-table/hall/)
        installed.write_text(prov.table_config("table-01").read_text().replace("/etc/mahjong-table/hall/", f"{t}/"))
        cfg = table_config.load(installed).with_overrides(
            hall__address=b.url, hall__cafile=str(t / "ca.crt"), hall__certfile=str(t / "client.crt"),
            hall__keyfile=str(t / "client.key"))
        link = HallLink(LinkConfig.from_config(cfg), tmp_path / "t.sqlite").start()
        wait_for(lambda: link.connected, what="the table over TLS")
        hall.send_command("table-01", "message", {"text": "over TLS"})
        wait_for(lambda: link.view()["messages"], what="a command over TLS")
        # a password alone is not enough: no client certificate, no TLS session
        nocert = LinkConfig(b.url, "h9", "table-01", Credentials("table-01", prov.passwords["table-01"],
                                                                  str(t / "ca.crt")))
        stranger = HallLink(nocert, tmp_path / "s.sqlite").start()
        import time

        time.sleep(1.5)
        assert not stranger.connected
        for x in (stranger, link, hall):
            x.stop()
    finally:
        b.stop()


def test_provision_cli(tmp_path, capsys):
    assert main(["hall", "provision", "--tables", "3", "--out", str(tmp_path / "p"), "--hall-id", "kazan"]) == 0
    assert sorted(p.name for p in (tmp_path / "p" / "tables").iterdir()) == ["table-01", "table-02", "table-03"]
    assert "pattern write hall/kazan/table/%u/up/#" in (tmp_path / "p" / "broker" / "acl").read_text()
    capsys.readouterr()
    assert main(["hall", "provision", "--tables", "3", "--out", str(tmp_path / "p")]) == 2  # never overwritten
    assert main(["hall", "provision", "--tables", "2", "--out", str(tmp_path / "q"), "--hall-id", "a/b"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and all(e.startswith("mahjong-table: error:") for e in err)
