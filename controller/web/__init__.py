"""The table's web page: a small HTTP server on the service's own asyncio loop (no extra thread).

Routes: ``GET /`` the page (English/Russian), ``GET /api/state`` the service snapshot as JSON,
``GET /api/results`` the recorded results, ``POST /api/press/<start|judge|abort|accept|confirm>`` the
operator's buttons (the same as the GPIO buttons), ``POST /api/answer/<text>`` the answer to the referee's
question (the snapshot's ``referee`` is the refereed hand's public view). Player views never show hidden information: the snapshot holds
only what is public at the table.
"""
from __future__ import annotations

import asyncio
import json
from dataclasses import asdict
from importlib import resources
from typing import Any

BUTTONS = ("start", "judge", "abort", "accept", "confirm")  # accept: the judge overrides a re-read mismatch;
# confirm: the judge signs the refereed hand's result


class WebServer:
    def __init__(self, service, host: str = "127.0.0.1", port: int = 8080):
        self.svc = service
        self.host = host
        self.port = port
        self._server: asyncio.base_events.Server | None = None
        self.page = resources.files("controller.web").joinpath("index.html").read_text(encoding="utf-8")

    async def start(self) -> int:
        self._server = await asyncio.start_server(self._client, self.host, self.port)
        self.port = self._server.sockets[0].getsockname()[1]
        return self.port

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout=5)
            line = head.split(b"\r\n", 1)[0].decode("latin-1")
            parts = line.split()
            if len(parts) < 2:
                return await self._send(writer, 400, {"error": "bad request"})
            method, path = parts[0], parts[1].split("?", 1)[0]
            status, body, ctype = self.route(method, path)
            await self._send(writer, status, body, ctype)
        except (TimeoutError, asyncio.IncompleteReadError, ConnectionError, asyncio.LimitOverrunError):
            pass
        finally:
            writer.close()

    def route(self, method: str, path: str) -> tuple[int, Any, str]:
        if method == "GET" and path in ("/", "/index.html"):
            return 200, self.page, "text/html; charset=utf-8"
        if method == "GET" and path == "/api/state":
            return 200, asdict(self.svc.snapshot()), "application/json"
        if method == "GET" and path == "/api/results":
            return 200, [{"hand_id": h, **r} for h, r in self.svc.store.results()], "application/json"
        if path.startswith("/api/answer/"):  # the operator answers the referee's question
            if method != "POST":
                return 405, {"error": "use POST"}, "application/json"
            from urllib.parse import unquote

            text = unquote(path.split("/api/answer/", 1)[1])
            ok = getattr(self.svc.play_source, "answer", lambda *_: False)(text)
            return (200, {"answered": text}, "application/json") if ok else (404, {"error": "no question"},
                                                                               "application/json")
        if path.startswith("/api/press/"):
            if method != "POST":
                return 405, {"error": "use POST"}, "application/json"
            button = path.rsplit("/", 1)[1]
            if button not in BUTTONS:
                return 404, {"error": f"no button {button!r}"}, "application/json"
            self.svc.press(button)
            return 200, {"pressed": button}, "application/json"
        return 404, {"error": "not found"}, "application/json"

    async def _send(self, writer: asyncio.StreamWriter, status: int, body: Any, ctype: str = "application/json") -> None:
        data = body.encode() if isinstance(body, str) else json.dumps(body).encode()
        reason = {200: "OK", 400: "Bad Request", 404: "Not Found", 405: "Method Not Allowed"}.get(status, "")
        writer.write(
            f"HTTP/1.1 {status} {reason}\r\nContent-Type: {ctype}\r\nContent-Length: {len(data)}\r\n"
            "Cache-Control: no-store\r\nConnection: close\r\n\r\n".encode() + data
        )
        await writer.drain()
