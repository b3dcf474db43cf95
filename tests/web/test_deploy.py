"""Deployment: the install script's config for a real table (camera, LAN, language, the judge's PIN hashed)
and ``mahjong-table web set-pin|hash-pin``."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from controller import config
from controller.cli.web import set_key
from controller.web.security import verify_pin

ROOT = Path(__file__).resolve().parents[2]
MT = [sys.executable, "-m", "controller"]


def mt_bin(tmp: Path) -> str:
    """A ``mahjong-table`` for the install script: this checkout's, run by this Python."""
    exe = tmp / "mahjong-table"
    exe.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m controller "$@"\n')
    exe.chmod(0o755)
    return str(exe)


def test_install_writes_a_real_tables_config_with_the_pin_hashed(tmp_path):
    conf = tmp_path / "config.toml"
    p = subprocess.run(["bash", str(ROOT / "systemd" / "install.sh"), "--write-config", str(conf), "--camera", "cam:0",
                        "--language", "ru", "--table-id", "hall-7", "--profile", "riichi-ema2016", "--pin-stdin"],
                       input="4711 0815\n", capture_output=True, text=True, timeout=120, cwd=ROOT,
                       env={**os.environ, "MT_BIN": mt_bin(tmp_path)})
    assert p.returncode == 0, p.stderr
    cfg = config.load(conf)
    assert cfg["camera.source"] == "cam:0" and cfg["web.host"] == "0.0.0.0" and cfg["web.language"] == "ru"
    assert cfg["table.id"] == "hall-7" and cfg["table.profile"] == "riichi-ema2016"
    assert cfg["serial.port"] == "/dev/serial0" and cfg["gpio.pin_factory"] == "lgpio"
    assert verify_pin("4711 0815", cfg["web.judge_pin_hash"])
    text = conf.read_text()
    assert "4711" not in text and "4711" not in p.stdout + p.stderr
    assert conf.stat().st_mode & 0o777 == 0o640


def test_install_refuses_bad_options():
    for args in (["--language", "de"], ["--bogus"]):
        p = subprocess.run(["bash", str(ROOT / "systemd" / "install.sh"), *args], capture_output=True, text=True,
                           timeout=30)
        assert p.returncode == 2 and "install.sh" in p.stderr + p.stdout
    p = subprocess.run(["bash", str(ROOT / "systemd" / "install.sh"), "--help"], capture_output=True, text=True)
    assert p.returncode == 0 and "--camera" in p.stdout


def test_set_pin_keeps_the_rest_of_the_file(tmp_path):
    conf = tmp_path / "c.toml"
    conf.write_text('# my table\n[table]\nid = "t9"\n\n[web]\nport = 9000  # the hall\'s port\n'
                    'judge_pin_hash = ""\n\n[store]\npath = "x.sqlite"\n')
    p = subprocess.run([*MT, "web", "set-pin", "--config", str(conf), "--stdin"], input="123456\n",
                       capture_output=True, text=True, cwd=ROOT)
    assert p.returncode == 0, p.stderr
    text = conf.read_text()
    assert text.startswith("# my table\n") and "port = 9000  # the hall's port" in text and text.count("judge_pin_hash") == 1
    cfg = config.load(conf)
    assert cfg["table.id"] == "t9" and verify_pin("123456", cfg["web.judge_pin_hash"])
    for pin, err in (("12345\n", "at least 6"), ("", "no PIN")):
        p = subprocess.run([*MT, "web", "set-pin", "--config", str(conf), "--stdin"], input=pin, capture_output=True,
                           text=True, cwd=ROOT)
        assert p.returncode == 2 and err in p.stderr and "Traceback" not in p.stderr
    assert config.load(conf)["web.judge_pin_hash"] == cfg["web.judge_pin_hash"], "a refused PIN changes nothing"
    bad = tmp_path / "bad.toml"
    bad.write_text("[table\n")
    p = subprocess.run([*MT, "web", "set-pin", "--config", str(bad), "--stdin"], input="123456\n", capture_output=True,
                       text=True, cwd=ROOT)
    assert p.returncode == 2 and "not be a valid config" in p.stderr and bad.read_text() == "[table\n"
    p = subprocess.run([*MT, "web", "hash-pin", "--stdin"], input="654321\n", capture_output=True, text=True, cwd=ROOT)
    assert p.returncode == 0 and p.stdout.startswith("[web]\njudge_pin_hash = \"scrypt$") and "654321" not in p.stdout


def test_set_key_adds_the_section_or_the_line():
    assert set_key("", "k") == "[web]\nk\n"
    assert set_key("[table]\nid = 1\n", "judge_pin_hash = 1") == "[table]\nid = 1\n\n[web]\njudge_pin_hash = 1\n"
    assert set_key("[web]\nport = 1\n[store]\n", "judge_pin_hash = 2") == "[web]\njudge_pin_hash = 2\nport = 1\n[store]\n"
    assert set_key("[web] # page\njudge_pin_hash = 1\n", "judge_pin_hash = 3") == "[web] # page\njudge_pin_hash = 3\n"
