"""The page under abuse: malformed requests, a 1 MB header, garbage, oversized bodies and WebSocket
messages, slow clients holding connections — each answered or dropped, the server still serving and the
table's loop never stalled (a ticker on the same loop measures its longest gap, against its gap at rest
measured in the same run: the machine is shared)."""
from __future__ import annotations

import asyncio
import os
import re
import time

import aiohttp
import pytest

from tests.web.helpers import client, run, served


async def raw(port: int, data: bytes, read_timeout: float = 5.0) -> bytes:
    """Send raw bytes; what comes back before the server closes (b"" when it just drops the connection)."""
    r, w = await asyncio.open_connection("127.0.0.1", port)
    try:
        w.write(data)
        await w.drain()
        return await asyncio.wait_for(r.read(), read_timeout)
    except (ConnectionError, TimeoutError):
        return b""
    finally:
        w.close()


async def calm_gap(seconds: float = 1.0) -> float:
    """The loop's longest tick gap with nothing going on (the machine's own scheduling noise, the baseline)."""
    t = Ticker()
    await asyncio.sleep(seconds)
    return t.stop()


def no_stall(abused: float, calm: float) -> bool:
    """The loop never waited much longer under abuse than it does at rest (a stall is a handler blocking
    the loop: seconds, where scheduling noise on a shared machine is a fraction of one)."""
    return abused < max(1.0, 4 * calm + 0.5)


class Ticker:
    """Runs on the table's loop: the longest time between two of its 20 ms ticks."""

    def __init__(self):
        self.worst = 0.0
        self._task = asyncio.create_task(self._run())

    async def _run(self):
        last = time.monotonic()
        while True:
            await asyncio.sleep(0.02)
            now = time.monotonic()
            self.worst = max(self.worst, now - last)
            last = now

    def stop(self) -> float:
        self._task.cancel()
        return self.worst


def refused(got: bytes) -> bool:
    """Dropped, or answered with a 4xx status."""
    return got == b"" or re.match(rb"HTTP/1\.[01] 4\d\d ", got) is not None


def port_of(t) -> int:
    return int(t.url.rsplit(":", 1)[1])


async def still_serving(t) -> None:
    async with client() as http, http.get(t.url + "/api/state") as r:
        assert r.status == 200 and (await r.json())["table"] == "t7"


@pytest.mark.parametrize("data", [
    b"GARBAGE\r\n\r\n",
    b"GET\r\n\r\n",
    b"GET /api/state HTTP/9.9\r\n\r\n",
    b"POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n",
    b"POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
    b"GET /%00%ff/../../etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n",
    b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + bytes(range(256)),  # a TLS hello on the plain port
], ids=["garbage", "no-path", "bad-version", "negative-length", "length-and-chunked", "nul-path", "tls"])
def test_malformed_requests_are_answered_or_dropped(tmp_path, data):
    async def scenario():
        async with served(tmp_path) as t:
            got = await raw(port_of(t), data)
            assert refused(got), got[:80]
            await still_serving(t)

    run(scenario())


def test_one_megabyte_header_and_random_bytes(tmp_path):
    async def scenario():
        async with served(tmp_path) as t:
            calm = await calm_gap()
            tick = Ticker()
            big = b"GET /api/state HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * (1 << 20) + b"\r\n\r\n"
            got = await raw(port_of(t), big)
            assert refused(got), got[:80]
            many = b"GET /api/state HTTP/1.1\r\nHost: x\r\n" + b"".join(b"X-%d: y\r\n" % i for i in range(5000)) + b"\r\n"
            got = await raw(port_of(t), many)
            assert refused(got), got[:80]
            got = await raw(port_of(t), os.urandom(256 * 1024))
            assert refused(got), got[:80]
            await still_serving(t)
            assert no_stall(tick.stop(), calm)

    run(scenario())


def test_oversized_and_malformed_bodies(tmp_path):
    async def scenario():
        async with served(tmp_path) as t, client() as http:
            csrf = await t.login(http)
            async with http.post(t.url + "/api/judge/penalty", data=b"{" + b" " * (1 << 20) + b"}",
                                 headers=t.headers(csrf)) as r:
                assert r.status == 413
            for body in (b"\xff\xfe", b"null", b"[]", b'"x"', b"{" * 1000):
                async with http.post(t.url + "/api/judge/penalty", data=body, headers=t.headers(csrf)) as r:
                    assert r.status == 400, body
            async with http.post(t.url + "/api/login", data=b"pin=1", headers=t.headers()) as r:
                assert r.status == 400
            await still_serving(t)

    run(scenario())


def test_slow_clients_are_dropped_and_never_stall_the_loop(tmp_path):
    async def scenario():
        async with served(tmp_path) as t:
            await t.web.close()  # a server of its own with a short limit for whole requests
            from controller.web.server import WebServer

            web = WebServer(t.svc, "127.0.0.1", 0, pin_hash="")
            web.keepalive_s = 1.5
            port = await web.start()
            t.url = f"http://127.0.0.1:{port}"
            calm = await calm_gap()
            tick = Ticker()
            slow = []
            for _ in range(50):  # headers that never end, one byte at a time
                r, w = await asyncio.open_connection("127.0.0.1", port)
                w.write(b"GET /api/state HTTP/1.1\r\nHost: x\r\n")
                slow.append((r, w))
            idle = [await asyncio.open_connection("127.0.0.1", port) for _ in range(50)]  # connect, say nothing
            t0 = time.monotonic()
            answered = 0
            while time.monotonic() - t0 < 4.0:
                for _, w in slow:
                    if not w.is_closing():
                        w.write(b"X")  # a closed socket's writes are dropped (asyncio logs them)
                await still_serving(t)
                answered += 1
                await asyncio.sleep(0.1)
            assert answered >= 3, "other clients were answered all along"
            dropped = 0
            for r, _ in slow + idle:
                try:
                    data = await asyncio.wait_for(r.read(), 2.0)
                except ConnectionError:  # reset by the server
                    data = b""
                except TimeoutError:  # still open
                    data = None
                dropped += data is not None and not data.startswith(b"HTTP/1.1 2")
            assert dropped == 100, "every slow or silent connection is closed by the server"
            for _, w in slow + idle:
                w.close()
            assert no_stall(tick.stop(), calm)
            await web.close()

    run(scenario(), timeout=180)


def test_websocket_abuse(tmp_path):
    async def scenario():
        async with served(tmp_path) as t, client() as http:
            async with http.ws_connect(t.url.replace("http", "ws") + "/ws", origin=t.origin) as ws:
                first = await ws.receive_json(timeout=5)
                assert first["type"] == "state" and "judge" not in first
                await ws.send_str("not json")
                await ws.send_str('{"camera": "maybe", "x": [1,2,3]}')
                await ws.send_bytes(b"\x00\x01")
                await ws.send_str("x" * 10000)  # over the 4 KiB limit: the server closes this socket
                msg = await ws.receive(timeout=5)
                while msg.type.name == "TEXT":
                    msg = await ws.receive(timeout=5)
                assert msg.type.name in ("CLOSE", "CLOSING", "CLOSED", "ERROR")
            with pytest.raises(aiohttp.WSServerHandshakeError):  # another origin may not open the live socket
                async with http.ws_connect(t.url.replace("http", "ws") + "/ws", origin="http://evil.example"):
                    pass
            await still_serving(t)
            assert not t.web.table.live.clients

    run(scenario())
