"""``mahjong-table hall serve``: the service with its embedded mosquitto and dashboard, as a process."""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request

from controller.hall_link.link import LinkConfig
from controller.hall_link.sim_table import SimTable
from hall.broker import free_port
from tests.hall.conftest import _need_mosquitto, wait_for

LINE = re.compile(r"broker (mqtt://\S+), dashboard (http://\S+/),")


def _serve(conf):
    p = subprocess.Popen([sys.executable, "-m", "controller", "hall", "serve", "--config", str(conf)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    for _ in range(5):
        line = p.stdout.readline()
        m = LINE.search(line)
        if m:
            return p, m.group(1), m.group(2)
    p.kill()
    raise AssertionError(f"no start line: {line!r} {p.stderr.read()}")


def _state(url):
    return json.loads(urllib.request.urlopen(url + "api/state").read())


def test_serve_ingests_survives_kill_9_and_stops_cleanly(tmp_path):
    _need_mosquitto()
    conf = tmp_path / "hall.toml"
    conf.write_text(f'[hall]\nid = "h5"\ndb = "{tmp_path}/hall.sqlite"\nprofile = "riichi-ema2016"\n'
                    f'[broker]\ndir = "{tmp_path}/broker"\nport = {free_port()}\n[web]\nport = 0\n')
    p, broker, url = _serve(conf)
    t = SimTable("t1", "riichi-ema2016", tmp_path, LinkConfig(broker, "h5", "t1", poll_s=0.05, resend_s=1.0), 1).start()
    try:
        wait_for(lambda: any(x["id"] == "t1" and x["online"] for x in _state(url)["tables"]), what="t1 online")
        t.link.context = lambda: {"session": 1, "players": ["a", "b", "c", "d"]}  # no seating: a standalone table
        t._session_started.set()
        t.store.start_hand("t1-x", "riichi-ema2016", time.time())
        t.store.finish_hand("t1-x", {"status": "played", "deltas": [1000, -1000, 0, 0]}, time.time())
        t.link.notify()
        wait_for(lambda: t.link.outbox.counts()["pending"] == 0, what="the result acknowledged")
        os.kill(p.pid, signal.SIGKILL)  # the hall dies; its broker is left behind in its own session
        p.wait()
        t.store.start_hand("t1-y", "riichi-ema2016", time.time())
        t.store.finish_hand("t1-y", {"status": "played", "deltas": [0, 0, 2000, -2000]}, time.time())
        t.link.notify()
        p, broker2, url = _serve(conf)  # the orphaned broker is stopped and started again on the same port
        assert broker2 == broker
        wait_for(lambda: t.link.outbox.counts()["pending"] == 0 and t.link.outbox.counts()["results"] == 2,
                 timeout=30, what="the second result acknowledged after the restart")
        from hall.db import HallDB

        pid = int((tmp_path / "broker" / "mosquitto.pid").read_text())
        p.send_signal(signal.SIGTERM)
        assert p.wait(timeout=20) == 0
        rows = HallDB(tmp_path / "hall.sqlite").q("SELECT hand, deltas FROM results ORDER BY hand")
        assert rows == [("t1-x", "[1000, -1000, 0, 0]"), ("t1-y", "[0, 0, 2000, -2000]")]
        wait_for(lambda: not os.path.exists(f"/proc/{pid}"), what="the embedded broker stopped with the hall")
    finally:
        t.stop()
        if p.poll() is None:
            p.kill()


def test_serve_bad_config_is_one_line_exit_2(tmp_path):
    conf = tmp_path / "hall.toml"
    conf.write_text('[hall]\nprofile = "chess"\nnope = 1\n')
    p = subprocess.run([sys.executable, "-m", "controller", "hall", "serve", "--config", str(conf)],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and "Traceback" not in p.stderr
    err = p.stderr.strip().splitlines()
    assert len(err) == 1 and "hall.profile" in err[0] and "hall.nope: unknown key" in err[0]


def test_a_killed_owner_never_leaves_its_broker_running(tmp_path):
    _need_mosquitto()
    code = (f"from hall.broker import Mosquitto; m = Mosquitto({str(tmp_path / 'b')!r}).start(); "
            "print(m.proc.pid, flush=True); import time; time.sleep(120)")
    p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    pid = int(p.stdout.readline())
    assert os.path.exists(f"/proc/{pid}")
    os.kill(p.pid, signal.SIGKILL)
    p.wait()
    wait_for(lambda: not os.path.exists(f"/proc/{pid}") or "Z" in open(f"/proc/{pid}/stat").read().split()[2],
             what="the broker gone with its owner")
