"""The replay's routes (issue #32 part 5), on the table's page and on the hall's dashboard — the same page
(``static/replay.html``, ``replay.js``; the tiles and seats drawn by ``tiles.js``, as on the live page) and the
same data (:mod:`controller.replay`, the public view only).

Table (``controller.web.app``)::

    GET /replay/<hand>                   the replay page (a link that can be shared: ``#<step>`` picks a step)
    GET /api/replay/<hand>               the steps (JSON)
    GET /api/replay/<hand>/tenhou6       riichi: the hand as tenhou.net/6 JSON (the viewer's link)

Hall (``mahjong-table hall serve`` adds them to the dashboard: the hall package does not import the table's)::

    GET /api/hands                       the refereed hands the hall holds (table, hand, session, status)
    GET /replay/<table>/<hand>, GET /api/replay/<table>/<hand>[/tenhou6]

The page's assets come from ``/replay-assets/`` on both (the dashboard has no ``/static/``).
"""
from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from aiohttp import web

from controller.replay import ReplayError, Streams, hall_streams, latest_record, replay, tenhou6
from rules.events import Event, QuestionAnswered

if TYPE_CHECKING:
    from controller.referee.export import RefereedHands
    from controller.web.served import ServedTable

STATIC = Path(__file__).resolve().parent / "static"
TILES = Path(__file__).resolve().parents[2] / "vision" / "assets" / "tiles"
ASSETS = {"tiles.js": "application/javascript", "replay.js": "application/javascript", "app.css": "text/css", "i18n.json": "application/json"}
NAME = re.compile(r"^[A-Za-z0-9_.:-]{1,100}$")
TILE_NAME = re.compile(r"^(?:[0-9][mps]|[1-7]z|[1-8]f|j|back)$")
CACHE = 32  # replays kept (a hand's replay is rebuilt when its record grows)


def _name(request: web.Request, key: str) -> str:
    v = request.match_info[key]
    if not NAME.match(v):
        raise web.HTTPNotFound(reason=f"no hand {v!r}")
    return v


def _page(api: str, back: str) -> web.Response:
    html = (STATIC / "replay.html").read_text(encoding="utf-8")
    html = html.replace("__API__", api).replace("__BACK__", back)
    return web.Response(text=html, content_type="text/html", headers={"Cache-Control": "no-cache"})


async def asset(request: web.Request) -> web.StreamResponse:
    name = request.match_info["name"]
    if name in ASSETS:
        return web.FileResponse(STATIC / name, headers={"Content-Type": ASSETS[name], "Cache-Control": "no-cache"})
    m = re.match(r"^tiles/(.+)\.png$", name)
    if m and TILE_NAME.match(m.group(1)):
        p = TILES / "classic" / f"{m.group(1)}.png"
        if p.is_file():
            return web.FileResponse(p, headers={"Cache-Control": "max-age=86400"})
    raise web.HTTPNotFound()


async def _tenhou6(streams: Streams, hand: str) -> web.Response:
    """The hand's tenhou.net/6 log, built off the loop; a hand it cannot be built for is not found."""
    try:
        return _json(await asyncio.to_thread(tenhou6, streams, hand))
    except ReplayError as exc:
        raise web.HTTPNotFound(reason=str(exc)) from None


Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def _add_routes(app: web.Application, key: str, page: Handler, data: Handler, tenhou: Handler) -> None:
    """The page, its data and its tenhou.net/6 log under ``key`` (``{hand}`` or ``{table}/{hand}``), and the assets."""
    r = app.router
    r.add_get(f"/replay/{key}", page)
    r.add_get(f"/api/replay/{key}", data)
    r.add_get(f"/api/replay/{key}/tenhou6", tenhou)
    r.add_get("/replay-assets/{name:.+}", asset)


class HallRows(Protocol):
    """What the replay reads of the hall's database (:class:`hall.db.HallDB`): its rows, its results."""

    def q(self, sql: str, args: tuple[str, ...]) -> Sequence[tuple[object, ...]]: ...

    def results(self) -> Sequence[Mapping[str, object]]: ...


class Replays:
    """Replays built off the loop (a long hand takes a moment), kept while their record is unchanged."""

    def __init__(self) -> None:
        self.cache: dict[tuple[str, tuple[tuple[str, int], ...]], Mapping[str, object]] = {}

    async def get(self, key: str, streams: Streams, hand: str) -> Mapping[str, object]:
        version = tuple(sorted((s, len(v)) for s, v in streams.streams.items()))
        hit = self.cache.get((key, version))
        if hit is not None:
            return hit
        try:
            out = await asyncio.to_thread(replay, streams, hand)
        except ReplayError as exc:
            raise web.HTTPNotFound(reason=str(exc)) from None
        if len(self.cache) >= CACHE:
            self.cache.pop(next(iter(self.cache)))
        self.cache[(key, version)] = out
        return out


def _json(data: object) -> web.Response:
    return web.json_response(data, dumps=lambda v: json.dumps(v, default=str),
                             headers={"Cache-Control": "no-store"})


# --- the table ------------------------------------------------------------------------------------------------

def table_streams(store: RefereedHands, hand: str) -> Streams:
    """What the replay reads of a hand in the table's store: its latest record, the answers, the referee's
    outputs."""
    from controller.referee.session import record_stream

    record = latest_record(store, hand)
    rev = 0
    while store.count(record_stream(hand, rev + 1)):
        rev += 1
    answers: list[Event] = [e for e in store.events(f"{hand}/referee") if isinstance(e, QuestionAnswered)]
    return Streams({record_stream(hand, rev): record, f"{hand}/referee": answers,
                    f"{hand}/verdicts": store.events(f"{hand}/verdicts")})


def add_table_routes(app: web.Application, svc_of: Callable[[web.Request], ServedTable]) -> None:
    """``svc_of(request)``: the table service (its ``store``)."""
    replays = Replays()

    async def page(request: web.Request) -> web.Response:
        hand = _name(request, "hand")
        return _page(f"/api/replay/{hand}", "/")

    async def data(request: web.Request) -> web.Response:
        hand = _name(request, "hand")
        store = svc_of(request).store
        return _json(await replays.get(hand, table_streams(store, hand), hand))

    async def tenhou(request: web.Request) -> web.Response:
        hand = _name(request, "hand")
        store = svc_of(request).store
        if not store.count(f"{hand}/referee"):
            raise web.HTTPNotFound(reason=f"no refereed record of hand {hand!r}")
        return await _tenhou6(Streams({f"{hand}/referee": store.events(f"{hand}/referee")}), hand)

    _add_routes(app, "{hand}", page, data, tenhou)


# --- the hall -------------------------------------------------------------------------------------------------

def add_hall_routes(app: web.Application, db: HallRows) -> None:
    """The replay on the hall's dashboard, from the events the tables sent (``hall.events = "all"``)."""
    replays = Replays()

    def streams(table: str, hand: str) -> Streams:
        rows = db.q("SELECT body FROM messages WHERE table_id=? AND hand=? AND kind='event' ORDER BY seq",
                    (table, hand))
        return hall_streams([(body,) for body, *_ in rows if isinstance(body, str)], hand)

    async def hands(request: web.Request) -> web.Response:
        # a hand whose record (``<hand>/game``) the hall holds; the messages' key begins with table and hand,
        # so each look-up reads that hand's messages only
        have = {(t, h) for t, h in db.q(
            "SELECT r.table_id, r.hand FROM results r WHERE EXISTS (SELECT 1 FROM messages m WHERE "
            "m.table_id=r.table_id AND m.hand=r.hand AND m.kind='event' AND m.body LIKE ?)", ('%"stream": "%/game%',))}
        out = [{"table": r["table"], "hand": r["hand"], "session": r["session"], "status": r["status"],
                "deltas": r["deltas"], "replay": (r["table"], r["hand"]) in have} for r in db.results()]
        return _json(out)

    async def page(request: web.Request) -> web.Response:
        table, hand = _name(request, "table"), _name(request, "hand")
        return _page(f"/api/replay/{table}/{hand}", "/")

    async def data(request: web.Request) -> web.Response:
        table, hand = _name(request, "table"), _name(request, "hand")
        return _json(await replays.get(f"{table}/{hand}", streams(table, hand), hand))

    async def tenhou(request: web.Request) -> web.Response:
        table, hand = _name(request, "table"), _name(request, "hand")
        return await _tenhou6(streams(table, hand), hand)

    app.router.add_get("/api/hands", hands)
    _add_routes(app, "{table}/{hand}", page, data, tenhou)
