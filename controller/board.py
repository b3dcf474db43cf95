"""Which Raspberry Pi this is, from the device tree's model string, and what that means for the table's wiring.

On a Pi 5 (and the Compute Module 5 and the Pi 500: the RP1 I/O chip) the header's GPIO14/15 UART is
``/dev/ttyAMA0`` and ``/dev/serial0`` is the 3-pin debug connector (``ttyAMA10``); on a Pi 4 and earlier
``/dev/serial0`` is the header's UART. RPi.GPIO (``gpio.pin_factory = "rpigpio"``) drives the BCM283x/2711 GPIO
block directly and does not work on the RP1: a Pi 5 uses ``lgpio``. The model is read from
``/proc/device-tree/model`` (``MT_BOARD_MODEL_FILE`` points elsewhere: tests, and systemd/install.sh, which
makes the same choice of serial port).
"""
from __future__ import annotations

import os
import re
from pathlib import Path

MODEL_FILE = "/proc/device-tree/model"
class BoardError(OSError):
    """What is asked of the board cannot work on it (one line)."""


_RP1 = re.compile(r"Raspberry Pi (5|500|Compute Module 5)\b")


def model(path: str | Path | None = None) -> str:
    """The board's model (``Raspberry Pi 5 Model B Rev 1.0``), "" where there is no device tree (a PC)."""
    p = Path(path or os.environ.get("MT_BOARD_MODEL_FILE", MODEL_FILE))
    try:
        return p.read_bytes().split(b"\0", 1)[0].decode("utf-8", "replace").strip()
    except OSError:
        return ""


def is_pi5(name: str) -> bool:
    """A board with the RP1 I/O chip: Pi 5, Pi 500, Compute Module 5."""
    return bool(_RP1.match(name))


def header_uart(name: str) -> str:
    """The serial device on the header's GPIO14 (TX) / GPIO15 (RX), where the table's controller board is wired."""
    return "/dev/ttyAMA0" if is_pi5(name) else "/dev/serial0"


def pin_factory_problem(factory: str, name: str) -> str | None:
    """Why ``factory`` cannot drive this board's GPIO (None: it can, as far as the model tells)."""
    if factory == "rpigpio" and is_pi5(name):
        return (f"'rpigpio' does not work on this {name} (RPi.GPIO cannot drive the Pi 5's RP1 chip): "
                "use pin_factory = \"lgpio\"")
    return None
