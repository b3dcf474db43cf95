"""The table's web server: :class:`WebServer` starts the page's aiohttp app on the service's running loop
(HTTPS when a certificate is configured, plain HTTP beside it for the public view) and closes it."""
from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from aiohttp import web

if TYPE_CHECKING:
    from controller.service import TableService

__all__ = ["WebServer"]

log = logging.getLogger("mahjong_table.web")


class WebServer:
    """``await start()`` on the service's loop (returns the port), ``await close()`` when it stops.

    With ``web.tls_certfile``/``web.tls_keyfile`` the page listens with TLS on ``port`` (:func:`hall.tls.server_context`)
    and, when ``web.http_port`` is not -1, also on plain HTTP there for the public view (``http_port`` after
    ``start()``; the judge's paths go to HTTPS)."""

    #: a connection that has not sent a whole request (or sits idle) this long is closed: slow clients go
    keepalive_s = 15.0

    def __init__(self, service: TableService, host: str = "127.0.0.1", port: int = 8080, *, pin_hash: str | None = None,
                 http_port: int | None = None):
        from pathlib import Path

        from controller.web.app import Table, make_app
        from controller.web.security import PinWatch

        cfg = service.cfg
        self.svc = service
        self.host = host
        self.port = port
        self.certfile, self.keyfile = cfg.web.tls_certfile, cfg.web.tls_keyfile
        self.tls = bool(self.certfile)
        hp = int(cfg.web.http_port) if http_port is None else http_port
        self.http_port: int | None = hp if self.tls and hp >= 0 else None
        source = cfg.source
        watch = None  # a PIN given here (a demo's one-time PIN) is not the config file's
        if pin_hash is None and source and Path(source).is_file():
            watch = PinWatch(source, cfg.web.judge_pin_hash)
        self.table = Table(service, cfg.web.judge_pin_hash if pin_hash is None else pin_hash,
                           float(cfg.web.camera_interval_s), bool(cfg.web.camera_public), tls=self.tls,
                           insecure_login=bool(cfg.web.insecure_login), pin_watch=watch)
        self.app = make_app(self.table)
        self._runner: web.AppRunner | None = None

    def warnings(self) -> list[str]:
        """What the operator must hear on every start about the judge's login (empty: nothing)."""
        from hall.tls import is_loopback

        if self.tls or is_loopback(self.host):
            return []
        if self.table.insecure_login:
            return [f"web.insecure_login = true: the judge's PIN and session cross the network in clear on "
                    f"{self.host}:{self.port} — anyone on it can read them; configure HTTPS (hall provision --tls)"]
        return [f"no HTTPS on {self.host}: the judge's login is offered only on this machine's own screen "
                "(127.0.0.1); configure web.tls_certfile/web.tls_keyfile (hall provision --tls)"]

    async def start(self) -> int:
        # a request line or header over 8 KiB is answered 400; see keepalive_s for the slow ones
        self._runner = web.AppRunner(self.app, access_log=None, handle_signals=False, keepalive_timeout=self.keepalive_s,
                                     shutdown_timeout=1.0)
        await self._runner.setup()
        try:
            ssl_context = None
            if self.tls:
                from hall.tls import server_context

                ssl_context = server_context(self.certfile, self.keyfile)  # OSError/ssl.SSLError: the caller says why
            site = web.TCPSite(self._runner, self.host, self.port, backlog=64, ssl_context=ssl_context)
            await site.start()
            self.port = _port_of(site)  # the port chosen when 0 was asked
            if self.http_port is not None:
                plain = web.TCPSite(self._runner, self.host, self.http_port, backlog=64)
                await plain.start()
                self.http_port = _port_of(plain)
        except OSError:
            await self._runner.cleanup()
            raise
        self.table.https_port = self.port if self.tls else None
        for w in self.warnings():
            log.warning("%s", w)
        self.table.live.start()
        self.table.camera.start()
        return self.port

    async def close(self) -> None:
        await self.table.camera.close()
        await self.table.live.close()
        if self._runner is not None:
            await self._runner.cleanup()


def _port_of(site: web.TCPSite) -> int:
    # (aiohttp keeps the started site's server in ``_server``, None before ``start``)
    port: int = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]  # started above
    return port
