"""The table's web page, served by aiohttp on the service's own asyncio loop (no extra thread).

* :mod:`controller.web.app` — the routes (the page, ``/api/state``, ``/api/press/<button>``, the judge's
  login and actions, the live WebSocket ``/ws``) and the security middleware;
* :mod:`controller.web.public` — the public projection of a hand (never hidden information);
* :mod:`controller.web.live` — the live state pushed to every page when it changes;
* :mod:`controller.web.judge` — the judge's actions and the audit log (events in the store);
* :mod:`controller.web.security` — the PIN hash, sessions, the login rate limit, the same-origin check;
* :mod:`controller.web.camera_view` — the camera frame with the recognised tiles outlined;
* ``static/`` — the page itself (HTML, JS, CSS, the ru/en texts), shipped in the package, no CDN.

Why aiohttp: one well-kept package that is an HTTP server, a WebSocket server and a test client together,
started with ``AppRunner``/``TCPSite`` on an already running loop — the service's — so the page needs no
thread, no ASGI server and no second event loop (docs/web.md).
"""
from __future__ import annotations

from typing import Any

from aiohttp import web

from controller.web.judge import BUTTONS

__all__ = ["BUTTONS", "WebServer"]


class WebServer:
    """``await start()`` on the service's loop (returns the port), ``await close()`` when it stops."""

    #: a connection that has not sent a whole request (or sits idle) this long is closed: slow clients go
    keepalive_s = 15.0

    def __init__(self, service: Any, host: str = "127.0.0.1", port: int = 8080, *, pin_hash: str | None = None):
        from controller.web.app import Table, make_app

        cfg = service.cfg
        self.svc = service
        self.host = host
        self.port = port
        self.table = Table(service, cfg["web.judge_pin_hash"] if pin_hash is None else pin_hash,
                           float(cfg["web.camera_interval_s"]), bool(cfg["web.camera_public"]))
        self.app = make_app(self.table)
        self._runner: web.AppRunner | None = None

    async def start(self) -> int:
        # a request line or header over 8 KiB is answered 400; see keepalive_s for the slow ones
        self._runner = web.AppRunner(self.app, access_log=None, handle_signals=False, keepalive_timeout=self.keepalive_s,
                                     shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port, backlog=64)
        try:
            await site.start()
        except OSError:
            await self._runner.cleanup()
            raise
        self.port = self._runner.addresses[-1][1]  # the port chosen when 0 was asked
        self.table.live.start()
        self.table.camera.start()
        return self.port

    async def close(self) -> None:
        await self.table.camera.close()
        await self.table.live.close()
        if self._runner is not None:
            await self._runner.cleanup()
