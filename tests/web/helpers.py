"""A served table for the web tests: the service on its emulated rig, the page on a free port."""
from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import aiohttp

from controller.web.security import hash_pin
from controller.web.server import WebServer
from tests.controller.test_service import make

PIN = "246810"
PIN_HASH = hash_pin(PIN, n=2**10)  # the cheapest allowed cost: tests log in often


@dataclass
class Served:
    svc: Any
    web: WebServer
    store: Any
    url: str
    origin: str

    def headers(self, csrf: str = "", origin: str | None = None) -> dict[str, str]:
        h = {"Origin": self.origin if origin is None else origin}
        if csrf:
            h["X-CSRF-Token"] = csrf
        return h

    async def login(self, http: aiohttp.ClientSession, name: str = "A. Judge", pin: str = PIN) -> str:
        async with http.post(self.url + "/api/login", json={"name": name, "pin": pin}, headers=self.headers()) as r:
            assert r.status == 200, await r.text()
            return (await r.json())["csrf"]


@contextlib.asynccontextmanager
async def served(tmp_path, *, auto: bool = False, play: Any = None, profile: str = "basic", pin_hash: str = PIN_HASH,
                 hands: int | None = None, host: str = "127.0.0.1", **cfg: Any) -> AsyncIterator[Served]:
    tiles = 136 if profile.startswith("riichi") else None  # (make() sets up 136 for basic, 108 otherwise)
    svc, sim, store = make(tmp_path, auto=auto, profile=profile,
                           sim_setup=(lambda sim: setattr(sim, "tile_count", tiles)) if tiles else None)
    if play is not None:
        svc.play_source = play
    if cfg:
        svc.cfg = svc.cfg.with_overrides(**cfg)
    if "table__players" in cfg:  # (mcr-siamese: three players)
        svc.players = int(cfg["table__players"])
    stop = asyncio.Event()
    task = asyncio.create_task(svc.run(stop, hands=hands))
    web = WebServer(svc, host, 0, pin_hash=pin_hash)
    port = await web.start()
    while svc._triggers is None:
        await asyncio.sleep(0.01)
    try:
        yield Served(svc, web, store, f"http://127.0.0.1:{port}", f"http://127.0.0.1:{port}")
    finally:
        await web.close()
        stop.set()
        await task
        sim.stop()
        store.close()


def run(coro, timeout: float = 180) -> Any:  # generous: the shared CI machine may be loaded
    return asyncio.run(asyncio.wait_for(coro, timeout))


def client() -> aiohttp.ClientSession:
    """An HTTP client that keeps cookies of an IP-address host (the judge's session)."""
    return aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
