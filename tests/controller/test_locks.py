"""One service per store and per serial port: the second process exits with one line naming the holder."""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from controller.locks import ExclusiveLock, LockHeld, port_lock, store_lock

ROOT = Path(__file__).resolve().parents[2]


def test_a_held_lock_names_its_holder_and_is_free_again_after_release(tmp_path):
    first = store_lock(tmp_path / "events.sqlite").acquire("serve")
    with pytest.raises(LockHeld) as ei:
        store_lock(tmp_path / "events.sqlite").acquire("serve")
    assert f"PID {os.getpid()}" in str(ei.value) and "events.sqlite" in str(ei.value)
    first.release()
    store_lock(tmp_path / "events.sqlite").acquire().release()


def test_port_locks_follow_the_device_not_its_name(tmp_path, monkeypatch):
    monkeypatch.setenv("MAHJONG_TABLE_LOCK_DIR", str(tmp_path))
    dev = tmp_path / "ttyAMA0"
    dev.write_text("")
    (tmp_path / "serial0").symlink_to(dev)
    assert port_lock("emulator") is None and port_lock("loop://") is None
    with port_lock(str(tmp_path / "serial0")):
        with pytest.raises(LockHeld):
            ExclusiveLock(port_lock(str(dev)).path, "x").acquire()


def _config(tmp: Path) -> Path:
    cfg = tmp / "config.toml"
    cfg.write_text(f'[table]\nid = "lk"\n[serial]\ntime_scale = 400.0\n[store]\npath = "{tmp / "events.sqlite"}"\n'
                   '[web]\nport = 0\n[referee]\ndemo_camera = "exact"\n')  # (the bots' moves, not rendered frames)
    return cfg


def test_a_second_service_on_the_same_store_exits_with_one_line_naming_the_first(tmp_path):
    cfg = _config(tmp_path)
    cmd = [sys.executable, "-m", "controller", "serve", "--demo", "--config", str(cfg)]
    first = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert "web page on" in first.stdout.readline()  # up, locks held
        second = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=60)
        assert second.returncode == 2
        lines = second.stderr.strip().splitlines()
        assert len(lines) == 1 and f"PID {first.pid}" in lines[0] and "event store" in lines[0], second.stderr
        assert first.poll() is None  # the first one goes on, undisturbed
    finally:
        first.terminate()
        first.wait(90)  # (systemd waits 90 s for a stop; a loaded machine is slow)
    assert first.returncode == 0
    time.sleep(0.1)
    again = subprocess.run([*cmd[:-2], "--hands", "1", "--config", str(cfg)], cwd=ROOT, capture_output=True,
                           text=True, timeout=120)
    assert again.returncode == 0, again.stderr  # the lock went with the first process
