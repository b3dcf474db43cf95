"""systemd's notification protocol (sd_notify): READY, WATCHDOG pings, STATUS text.

The protocol is one datagram of ``KEY=VALUE`` lines to the unix socket named by ``$NOTIFY_SOCKET``
(``@name`` = Linux abstract namespace). Outside systemd (no variable) every call is a no-op.
"""
from __future__ import annotations

import os
import socket


class Notifier:
    def __init__(self, address: str | None = None):
        self.address = address if address is not None else os.environ.get("NOTIFY_SOCKET", "")
        self._sock: socket.socket | None = None
        if self.address:
            self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)

    @property
    def enabled(self) -> bool:
        return self._sock is not None

    def watchdog_interval(self) -> float | None:
        """Seconds between pings (half of WatchdogSec), or None when systemd asked for no watchdog."""
        usec = os.environ.get("WATCHDOG_USEC")
        pid = os.environ.get("WATCHDOG_PID")
        if not usec or (pid and int(pid) != os.getpid()):
            return None
        return int(usec) / 2e6

    def send(self, **fields: str) -> bool:
        if self._sock is None:
            return False
        msg = "\n".join(f"{k.upper()}={v}" for k, v in fields.items()).encode()
        addr = self.address
        if addr.startswith("@"):
            addr = "\0" + addr[1:]
        try:
            # never wait on a full notify socket (a unix datagram queue holds ~10): a blocked send hung the
            # service's shutdown on the loop; a dropped ping is what systemd's own sd_notify does too
            self._sock.sendto(msg, socket.MSG_DONTWAIT, addr)
        except OSError:  # (BlockingIOError included)
            return False
        return True

    def ready(self, status: str = "") -> bool:
        return self.send(ready="1", **({"status": status} if status else {}))

    def watchdog(self) -> bool:
        return self.send(watchdog="1")

    def status(self, text: str) -> bool:
        return self.send(status=text)

    def stopping(self) -> bool:
        return self.send(stopping="1")

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None
