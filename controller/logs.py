"""Logging for a technician: one logger per part, readable in a terminal and in journald.

Loggers (``logging.getLogger(NAME)``): ``mahjong_table.service`` (the cycle), ``.estop`` (the supervised
e-stop), ``.link`` (the serial link: sessions, resets, retransmits, reconnections), ``.mcu`` (the MCU
back-end), ``.gpio`` (the direct-GPIO back-end), ``.store`` (durable commits and their latency), ``.camera``
(the table camera: opens, re-reads, dice), ``.loop`` (event-loop stalls), ``.config``.

Under systemd (``$JOURNAL_STREAM`` names our stdout/stderr) every line starts with its syslog priority
(``<3>`` error, ``<4>`` warning, ``<6>`` info, ``<7>`` debug), which journald turns into the entry's priority
(``journalctl -u mahjong-table -p warning``), and carries no time stamp (journald adds its own). In a
terminal lines carry the time and the level.
"""
from __future__ import annotations

import logging
import os
import sys
from typing import TextIO

LEVELS = ("debug", "info", "warning", "error")
_PRIORITY = {logging.DEBUG: 7, logging.INFO: 6, logging.WARNING: 4, logging.ERROR: 3, logging.CRITICAL: 2}


class JournalFormatter(logging.Formatter):
    """``<priority>logger: message`` — journald's SyslogLevelPrefix format."""

    def format(self, record: logging.LogRecord) -> str:
        prio = _PRIORITY.get(record.levelno, 6)
        name = record.name.removeprefix("mahjong_table.")
        text = super().format(record)
        return "\n".join(f"<{prio}>{name}: {line}" for line in text.splitlines() or [""])


def under_journald(stream: TextIO) -> bool:
    """True when ``stream`` is the journal stream systemd gave us (``$JOURNAL_STREAM`` = device:inode)."""
    js = os.environ.get("JOURNAL_STREAM", "")
    if not js or ":" not in js:
        return False
    try:
        st = os.fstat(stream.fileno())
    except (OSError, ValueError, AttributeError):
        return False
    dev, _, ino = js.partition(":")
    return f"{st.st_dev}:{st.st_ino}" == f"{dev}:{ino}"


def setup(level: str = "info", stream: TextIO | None = None, journal: bool | None = None) -> logging.Handler:
    """Send the ``mahjong_table`` loggers to ``stream`` (stderr) at ``level``; returns the handler."""
    stream = stream or sys.stderr
    if journal is None:
        journal = under_journald(stream)
    handler = logging.StreamHandler(stream)
    if journal:
        handler.setFormatter(JournalFormatter("%(message)s"))
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)-7s %(name)s: %(message)s", "%H:%M:%S"))
    root = logging.getLogger("mahjong_table")
    for h in list(root.handlers):
        root.removeHandler(h)
    root.addHandler(handler)
    root.setLevel(getattr(logging, level.upper()))
    return handler
