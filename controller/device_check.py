"""What ``mahjong-table config check`` asks of this machine beyond the file: can the configured camera be
imported and found, is the serial port there (and the header's UART of this board), can the pin factory run.
Each problem is (key, what is wrong and what to do), printed like the file's own problems; ``config check
--no-hardware`` checks the file only (a config written for another machine)."""
from __future__ import annotations

import importlib
import re
from pathlib import Path
from typing import TYPE_CHECKING

from controller import board

if TYPE_CHECKING:
    from controller.config import Config

SERIAL_HELP = ("enable the serial port: sudo raspi-config → Interface Options → Serial Port → login shell No, "
               "hardware Yes, then reboot")


def problems(cfg: Config) -> list[tuple[str, str]]:
    """Every problem of this machine with the configuration ``cfg`` (an empty list: all present)."""
    out: list[tuple[str, str]] = []
    model = board.model()
    src = cfg.camera.source
    if src == "picamera":
        from vision.camera import picamera_problem

        why = picamera_problem()
        if why:
            out.append(("camera.source", f"'picamera': {why}"))
    elif m := re.fullmatch(r"cam:(\d+)", src):
        dev = Path(f"/dev/video{m.group(1)}")
        if not dev.exists():
            out.append(("camera.source", f"{src!r}: no {dev} (is the USB camera plugged in? 'ls /dev/video*' "
                                         "lists the cameras; a Pi camera is 'picamera')"))
    port = cfg.serial.port
    if cfg.table.backend == "mcu" and port.startswith("/dev/"):
        uart = board.header_uart(model)
        if board.is_pi5(model) and port == "/dev/serial0":
            out.append(("serial.port", f"'/dev/serial0' is the debug connector on this {model}: the header's "
                                       f"GPIO14/15 is {uart} (port = \"{uart}\")"))
        elif not Path(port).exists():
            out.append(("serial.port", f"{port!r}: no such device ({SERIAL_HELP}"
                                       + (f"; on this {model} the header's UART is {uart})" if model else ")")))
    factory = cfg.gpio.pin_factory
    if factory == "lgpio":
        try:
            importlib.import_module("lgpio")  # (Debian's python3-lgpio, on the Pi only)
        except Exception as exc:  # not installed, or built for another Python
            out.append(("gpio.pin_factory", f"'lgpio': the lgpio module cannot be imported ({type(exc).__name__}: "
                                            f"{exc}): sudo apt-get install python3-lgpio, then sudo systemd/install.sh"))
    return out
