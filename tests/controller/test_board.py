"""The board decides the table's serial port and which pin factories can run (controller/board.py, and the same
choice in systemd/install.sh): on a Pi 5 the header's GPIO14/15 UART is /dev/ttyAMA0 (/dev/serial0 is the debug
connector), and RPi.GPIO does not drive its RP1 chip. Fake /proc/device-tree/model files stand in for the boards."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from controller import board, config
from tests.web.test_deploy import mt_bin

ROOT = Path(__file__).resolve().parents[2]
MT = [sys.executable, "-m", "controller"]
BOARDS = {  # the device tree's model string (NUL-terminated, as the kernel gives it) -> the header's UART
    "Raspberry Pi 5 Model B Rev 1.0": "/dev/ttyAMA0",
    "Raspberry Pi 500 Rev 1.0": "/dev/ttyAMA0",
    "Raspberry Pi Compute Module 5 Rev 1.0": "/dev/ttyAMA0",
    "Raspberry Pi 4 Model B Rev 1.5": "/dev/serial0",
    "Raspberry Pi 3 Model B Plus Rev 1.3": "/dev/serial0",
    "": "/dev/serial0",  # no device tree (a PC): the Pi 4's default
}


def model_file(tmp: Path, name: str) -> Path:
    p = tmp / "model"
    if name:
        p.write_bytes(name.encode() + b"\0")
    return p


@pytest.mark.parametrize("name", BOARDS)
def test_the_serial_port_follows_the_board(tmp_path, name):
    f = model_file(tmp_path, name)
    assert board.model(f) == name
    assert board.header_uart(board.model(f)) == BOARDS[name]


@pytest.mark.parametrize("name", BOARDS)
def test_the_installer_writes_the_boards_serial_port(tmp_path, name):
    conf = tmp_path / "config.toml"
    env = {**os.environ, "MT_BIN": mt_bin(tmp_path), "MT_BOARD_MODEL_FILE": str(model_file(tmp_path, name))}
    p = subprocess.run(["bash", str(ROOT / "systemd" / "install.sh"), "--write-config", str(conf), "--pin-stdin"],
                       input="4711 0815\n", capture_output=True, text=True, timeout=120, cwd=ROOT, env=env)
    assert p.returncode == 0, p.stderr
    assert config.load(conf)["serial.port"] == BOARDS[name]


def test_the_installer_takes_a_serial_port_given(tmp_path):
    conf = tmp_path / "config.toml"
    env = {**os.environ, "MT_BIN": mt_bin(tmp_path), "MT_BOARD_MODEL_FILE": str(model_file(tmp_path, "Raspberry Pi 5"))}
    p = subprocess.run(["bash", str(ROOT / "systemd" / "install.sh"), "--write-config", str(conf), "--pin-stdin",
                        "--serial", "/dev/ttyUSB0"], input="4711 0815\n", capture_output=True, text=True, timeout=120,
                       cwd=ROOT, env=env)
    assert p.returncode == 0, p.stderr
    assert config.load(conf)["serial.port"] == "/dev/ttyUSB0"


def _config(tmp: Path, factory: str) -> Path:
    conf = tmp / "config.toml"
    conf.write_text(f'[gpio]\npin_factory = "{factory}"\n[store]\npath = "{tmp / "events.sqlite"}"\n')
    return conf


def test_rpigpio_is_refused_on_a_pi5_by_config_check_and_at_start(tmp_path, monkeypatch):
    monkeypatch.setenv("MT_BOARD_MODEL_FILE", str(model_file(tmp_path, "Raspberry Pi 5 Model B Rev 1.0")))
    conf = _config(tmp_path, "rpigpio")
    p = subprocess.run([*MT, "config", "check", "--no-hardware", str(conf)], capture_output=True, text=True, cwd=ROOT)
    assert p.returncode == 1 and "Traceback" not in p.stderr
    assert p.stdout.splitlines()[0] == (f"{conf}:2: gpio.pin_factory: 'rpigpio' does not work on this Raspberry Pi 5 "
                                        "Model B Rev 1.0 (RPi.GPIO cannot drive the Pi 5's RP1 chip): use "
                                        "pin_factory = \"lgpio\"")
    p = subprocess.run([*MT, "serve", "--config", str(conf)], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert p.returncode == 2 and "Traceback" not in p.stderr
    assert p.stderr.strip().splitlines() == [f"mahjong-table: error: configuration: {conf}:2: gpio.pin_factory: 'rpigpio' does "
                                             "not work on this Raspberry Pi 5 Model B Rev 1.0 (RPi.GPIO cannot drive "
                                             "the Pi 5's RP1 chip): use pin_factory = \"lgpio\""]
    from controller.devices import make_pin_factory

    with pytest.raises(board.BoardError, match="does not work on this Raspberry Pi 5"):
        make_pin_factory("rpigpio")


def test_rpigpio_is_allowed_on_a_pi4(tmp_path, monkeypatch):
    monkeypatch.setenv("MT_BOARD_MODEL_FILE", str(model_file(tmp_path, "Raspberry Pi 4 Model B Rev 1.5")))
    cfg, problems = config.check(_config(tmp_path, "rpigpio"))
    assert problems == [] and cfg is not None and cfg["gpio.pin_factory"] == "rpigpio"


def test_config_check_says_serial0_is_the_debug_connector_on_a_pi5(tmp_path):
    conf = tmp_path / "config.toml"
    conf.write_text(f'[serial]\nport = "/dev/serial0"\n[store]\npath = "{tmp_path / "e.sqlite"}"\n')
    env = {**os.environ, "MT_BOARD_MODEL_FILE": str(model_file(tmp_path, "Raspberry Pi 5 Model B Rev 1.0"))}
    p = subprocess.run([*MT, "config", "check", str(conf)], capture_output=True, text=True, cwd=ROOT, env=env)
    assert p.returncode == 1
    assert (f"{conf}:2: serial.port: '/dev/serial0' is the debug connector on this Raspberry Pi 5 Model B Rev 1.0: "
            "the header's GPIO14/15 is /dev/ttyAMA0 (port = \"/dev/ttyAMA0\")") in p.stdout.splitlines()
