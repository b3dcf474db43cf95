"""Byte pipes the emulated MCU listens on: a pty pair (the Pi opens the slave path) or a TCP port
(the Pi opens ``socket://host:port``). Both can be unplugged and plugged back in for tests."""
from __future__ import annotations

import contextlib
import os
import select
import socket
import tempfile
import termios
import threading
import tty


class EmulatorPort:
    """The MCU's end of the wire."""

    url: str = ""

    def read(self, timeout: float) -> bytes:
        """Bytes from the Pi, or b"" after ``timeout`` (also while unplugged)."""
        raise NotImplementedError

    def write(self, data: bytes) -> None:
        raise NotImplementedError

    def unplug(self) -> None:
        raise NotImplementedError

    def replug(self) -> None:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError


class PtyPort(EmulatorPort):
    """A pseudo-terminal. ``url`` is a stable symlink to the current slave, so the Pi can reopen the same
    path after :meth:`unplug`/:meth:`replug` (a new pty gets a new /dev/pts number)."""

    def __init__(self) -> None:
        self._dir = tempfile.mkdtemp(prefix="mahjong-emu-")
        self.url = os.path.join(self._dir, "tty")
        self._master = -1
        self._slave = -1
        self._lock = threading.Lock()
        self.replug()

    def replug(self) -> None:
        with self._lock:
            if self._master >= 0:
                return
            self._master, self._slave = os.openpty()
            tty.setraw(self._slave, termios.TCSANOW)
            tmp = self.url + ".new"
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
            os.symlink(os.ttyname(self._slave), tmp)
            os.replace(tmp, self.url)

    def unplug(self) -> None:
        with self._lock:
            for fd in (self._master, self._slave):
                if fd >= 0:
                    os.close(fd)
            self._master = self._slave = -1

    def read(self, timeout: float) -> bytes:
        fd = self._master
        if fd < 0:
            threading.Event().wait(min(timeout, 0.05))
            return b""
        try:
            ready, _, _ = select.select([fd], [], [], max(0.0, timeout))
            return os.read(fd, 4096) if ready else b""
        except OSError:  # unplugged meanwhile
            return b""

    def write(self, data: bytes) -> None:
        fd = self._master
        if fd < 0:
            return
        try:
            os.write(fd, data)
        except OSError:
            pass

    def close(self) -> None:
        self.unplug()
        for p in (self.url, self.url + ".new"):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(p)
        with contextlib.suppress(OSError):
            os.rmdir(self._dir)


class TcpPort(EmulatorPort):
    """A TCP listener taking one client at a time (``socket://127.0.0.1:PORT`` for pyserial)."""

    def __init__(self, host: str = "127.0.0.1", port: int = 0) -> None:
        self._server = socket.create_server((host, port))
        self._server.setblocking(False)
        h, p = self._server.getsockname()[:2]
        self.url = f"socket://{h}:{p}"
        self._client: socket.socket | None = None
        self._plugged = True

    def read(self, timeout: float) -> bytes:
        if not self._plugged:
            threading.Event().wait(min(timeout, 0.05))
            return b""
        sock = self._client or self._server
        ready, _, _ = select.select([sock], [], [], max(0.0, timeout))
        if not ready:
            return b""
        if sock is self._server:
            try:
                self._client, _ = self._server.accept()
                self._client.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            except OSError:
                pass
            return b""
        try:
            data = sock.recv(4096)
        except OSError:
            data = b""
        if not data:  # the Pi went away
            self._drop_client()
        return data

    def write(self, data: bytes) -> None:
        if self._client is not None:
            try:
                self._client.sendall(data)
            except OSError:
                self._drop_client()

    def _drop_client(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None

    def unplug(self) -> None:
        self._plugged = False
        self._drop_client()

    def replug(self) -> None:
        self._plugged = True

    def close(self) -> None:
        self._drop_client()
        self._server.close()
