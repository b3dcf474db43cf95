"""Logging a technician can read: one logger per part, journald priorities under systemd, ``--log-level``."""
from __future__ import annotations

import asyncio
import io
import logging
import os
import subprocess
import sys
import time
from pathlib import Path

from controller import logs
from controller.event_store import EventStore
from controller.store_writer import StoreWriter
from rules.events import Discarded

ROOT = Path(__file__).resolve().parents[2]


def test_journald_lines_carry_the_priority_and_no_time_stamp():
    buf = io.StringIO()
    level = logging.getLogger("mahjong_table").level
    h = logs.setup("debug", stream=buf, journal=True)
    try:
        logging.getLogger("mahjong_table.link").warning("MCU reset: boot 7")
        logging.getLogger("mahjong_table.store").info("open")
        logging.getLogger("mahjong_table.service").error("two\nlines")
        logging.getLogger("mahjong_table.loop").debug("tick")
    finally:
        logging.getLogger("mahjong_table").removeHandler(h)
        logging.getLogger("mahjong_table").setLevel(level)
    assert buf.getvalue().splitlines() == ["<4>link: MCU reset: boot 7", "<6>store: open", "<3>service: two",
                                           "<3>service: lines", "<7>loop: tick"]


def test_journald_is_recognised_by_the_stream_systemd_gave(tmp_path, monkeypatch):
    with open(tmp_path / "out", "w") as f:
        st = os.fstat(f.fileno())
        monkeypatch.setenv("JOURNAL_STREAM", f"{st.st_dev}:{st.st_ino}")
        assert logs.under_journald(f)
        monkeypatch.setenv("JOURNAL_STREAM", f"{st.st_dev}:{st.st_ino + 1}")
        assert not logs.under_journald(f)


def test_serve_log_level(tmp_path):
    cfg = tmp_path / "c.toml"
    cfg.write_text(f'[table]\nid = "lg"\n[serial]\ntime_scale = 400.0\n[store]\npath = "{tmp_path / "e.sqlite"}"\n'
                   '[web]\nport = 0\n[referee]\ndemo_camera = "exact"\n')
    base = [sys.executable, "-m", "controller", "serve", "--demo", "--hands", "1", "--config", str(cfg)]
    info = subprocess.run(base, cwd=ROOT, capture_output=True, text=True, timeout=180)
    assert info.returncode == 0, info.stderr
    assert " INFO    mahjong_table.service: idle --start--> collecting" in info.stderr
    assert "mahjong_table.link: link" in info.stderr and "mahjong_table.store: event store" in info.stderr
    quiet = subprocess.run([*base, "--log-level", "warning"], cwd=ROOT, capture_output=True, text=True, timeout=180)
    assert quiet.returncode == 0 and " INFO " not in quiet.stderr
    journal = subprocess.run(base, cwd=ROOT, capture_output=True, text=True, timeout=180,
                             env={**os.environ, "JOURNAL_STREAM": "0:0"})  # not our stream: terminal format
    assert "<6>" not in journal.stderr


def test_the_link_logs_resets_and_retransmits(caplog):
    from firmware_bridge.bridge import Bridge
    from firmware_bridge.emulator import McuEmulator

    async def go(emu):
        b = Bridge(emu.url)
        await b.start()
        try:
            emu.reset()
            deadline = time.monotonic() + 10
            while b.link.stats.resets_seen < 1 and time.monotonic() < deadline:
                await asyncio.sleep(0.01)
            emu.set_noise(0.0, 0.3)  # drop frames: retransmissions
            for _ in range(10):
                await b.status()
        finally:
            await b.close()

    caplog.set_level(logging.INFO, logger="mahjong_table.link")
    with McuEmulator(time_scale=100.0, seed=3) as emu:
        asyncio.run(go(emu))
    text = caplog.text
    assert "mcu_reset" in text and "retransmit StatusRequest" in text
    assert any(r.levelno == logging.WARNING and "mcu_reset" in r.getMessage() for r in caplog.records)


def test_the_store_logs_slow_commits(tmp_path, caplog):
    class Slow(EventStore):
        def commit(self):
            time.sleep(0.15)
            super().commit()

    async def go():
        w = StoreWriter(tmp_path / "e.sqlite", store_factory=Slow).start()
        await w.append("h", 0, Discarded(hand_id="h", seat=0, tile="1m"))
        await w.close()

    caplog.set_level(logging.INFO, logger="mahjong_table.store")
    asyncio.run(go())
    assert any(r.name == "mahjong_table.store" and r.levelno == logging.WARNING and "slow event store commit"
               in r.getMessage() for r in caplog.records)
