"""A client "on another machine" that never leaves this one (the login tests of issue 33).

The workplace allows no traffic to a destination other than loopback. The kernel lets a socket bind its source
to this machine's own non-loopback address and connect to 127.0.0.1: the packets stay on ``lo``, and the server
sees the non-loopback address as the request's remote — exactly what a phone on the hall's network looks like to
the table. aiohttp and http.client take such a source (``connector``, ``source_address``); chromium cannot, so
``Forwarder`` listens on loopback for it and connects on to the server from the non-loopback source.
"""
from __future__ import annotations

import contextlib
import fcntl
import socket
import struct
import threading
from collections.abc import Iterator

import aiohttp
import pytest

from hall.tls import is_loopback


def local_address() -> str | None:
    """This machine's first non-loopback IPv4 address (a client bound to it is not loopback to the server)."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        for _, name in socket.if_nameindex():
            try:
                raw = fcntl.ioctl(s.fileno(), 0x8915, struct.pack("256s", name.encode()[:15]))  # SIOCGIFADDR
            except OSError:
                continue
            ip = socket.inet_ntoa(raw[20:24])
            if not is_loopback(ip):
                return ip
    finally:
        s.close()
    return None


def other_machine() -> str:
    """The source address of the client "on another machine"; without one the test fails (never skips)."""
    ip = local_address()
    if ip is None:
        pytest.fail("this machine has no non-loopback IPv4 address to test from", pytrace=False)
    return ip


def connector(source: str, **kw) -> aiohttp.TCPConnector:
    """aiohttp's connections from ``source`` (to a loopback URL: the server sees ``source`` as the remote)."""
    return aiohttp.TCPConnector(local_addr=(source, 0), **kw)


def _pump(src: socket.socket, dst: socket.socket) -> None:
    try:
        while data := src.recv(65536):
            dst.sendall(data)
        dst.shutdown(socket.SHUT_WR)
    except OSError:
        pass


class Forwarder:
    """Listens on ``listen`` (a loopback address); each connection accepted there goes on to 127.0.0.1:``port``
    from a socket bound to ``source``. A browser that talks only to loopback, seen by the server at ``source``."""

    def __init__(self, source: str, port: int, listen: tuple[str, int] = ("127.0.0.1", 0)):
        assert is_loopback(listen[0]), listen
        self.source, self.port = source, port
        self.sock = socket.create_server(listen)
        self.address: tuple[str, int] = self.sock.getsockname()[:2]
        self._open: list[socket.socket] = []
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    def _accept(self) -> None:
        while True:
            try:
                a, _ = self.sock.accept()
            except OSError:
                return  # closed
            try:
                b = socket.create_connection(("127.0.0.1", self.port), timeout=10, source_address=(self.source, 0))
            except OSError:
                a.close()
                continue
            b.settimeout(None)
            with self._lock:
                self._open += [a, b]
            for x, y in ((a, b), (b, a)):
                threading.Thread(target=_pump, args=(x, y), daemon=True).start()

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)  # wakes the accept() (close() alone does not on Linux)
        self.sock.close()
        self._thread.join(5)
        with self._lock:
            for s in self._open:
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)
                s.close()
            self._open.clear()


@contextlib.contextmanager
def forwarded(source: str, ports: list[int], host: str = "127.0.0.2") -> Iterator[str]:
    """Forwarders on ``host`` at the same port numbers as the server's on 127.0.0.1, so that a page at
    ``http://host:P`` and the server's redirect to ``https://host:Q`` both go through them; yields ``host``."""
    fw: list[Forwarder] = []
    try:
        for p in ports:
            fw.append(Forwarder(source, p, (host, p)))
        yield host
    finally:
        for f in fw:
            f.close()
