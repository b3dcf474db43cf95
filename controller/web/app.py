"""The page's routes on aiohttp: the public view, the judge's login and console, the live WebSocket.

    GET  /                      the page (static/index.html; app.js, tiles.js, app.css, i18n.json under /static/)
    GET  /tiles/<tile>.png      a tile face (the table's tile style)
    GET  /api/state             the service snapshot (cycle state, prompt, dice, log) — unchanged contract
    GET  /api/view              the public state (what the WebSocket pushes)
    GET  /api/results           the recorded results
    GET  /api/camera.jpg        the camera view's latest frame (its outlines come with the state)
    GET  /ws                    WebSocket: the state on connect and on every change; the page sends {"camera": bool}
                                (watch the camera) and, from the judge, {"layout": K | null} (the enrollment
                                grid of page K) and {"layout_check": true} (check the set the pages seen hold)
    GET  /api/session           {"judge": bool, "name", "csrf"}
    POST /api/login             {"pin", "name"} -> the judge's session cookie (rate-limited)
    POST /api/logout            {"everywhere": true} ends every judge session of the table
    POST /api/press/<start|judge|abort|accept>   the table's buttons: the judge's session, same origin
    POST /api/judge/<action>    the judge's actions (judge.ACTIONS); GET /api/judge/audit the audit log
    GET  /replay/<hand>         a hand's replay (controller.web.replay_routes: its data, the tenhou.net/6 link)

State-changing requests need the same origin (``Origin``/``Referer`` naming this host: 403 otherwise), the
judge's session cookie (401 without) and the session's CSRF token in ``X-CSRF-Token`` (403 without).

With HTTPS (``web.tls_certfile``) the judge's paths answer only over HTTPS: on the plain-HTTP port (the public
view, ``web.http_port``) a GET is redirected to HTTPS, anything else refused, and a session cookie that arrives
there ends its session (it crossed the network in clear). Without HTTPS only this machine may log in unless the
config says ``web.insecure_login = true`` (:func:`hall.tls.login_refusal`).
"""
from __future__ import annotations

import asyncio
import hmac
import json
import logging
import re
from collections.abc import Awaitable, Callable, Mapping
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from aiohttp import WSMsgType, web

from controller.web import judge as judge_mod
from controller.web import refereeing
from controller.web.camera_view import CameraView
from controller.web.live import Client, LiveTable
from controller.web.security import (
    COOKIE,
    CSRF_HEADER,
    PinWatch,
    RateLimit,
    Session,
    Sessions,
    same_origin,
    verify_pin,
)
from controller.web.served import ServedTable
from hall.tls import TABLE_LOGIN_PATHS, is_login_path, is_loopback, login_refusal
from rules.events import JSONObject

if TYPE_CHECKING:
    from controller.config import Config

log = logging.getLogger("mahjong_table.web")

STATIC = Path(str(resources.files("controller.web").joinpath("static")))
TILES = Path(__file__).resolve().parents[2] / "vision" / "assets" / "tiles"
TILE_NAME = re.compile(r"^(?:[0-9][mps]|[1-7]z|[1-8]f|j|back)$")
MAX_BODY = 16 * 1024
CSP = ("default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; "
       "frame-ancestors 'none'; base-uri 'none'; form-action 'self'")
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class Table:
    """What the handlers share: the service, the live state, the camera view, the judge's sessions."""

    def __init__(self, svc: ServedTable, pin_hash: str, camera_interval_s: float, camera_public: bool, *, tls: bool = False,
                 insecure_login: bool = False, pin_watch: PinWatch | None = None):
        self.svc = svc
        self._pin_hash = pin_hash
        self.pin_watch = pin_watch  # a PIN changed in the config file ends every session (set-pin)
        cfg = svc.cfg
        self.sessions = Sessions(idle_s=60 * float(cfg.web.session_idle_minutes),
                                 max_s=3600 * float(cfg.web.session_max_hours))
        self.limit = RateLimit()
        self.tls = tls  # the page has HTTPS: the judge's paths answer only there
        self.insecure_login = insecure_login
        self.https_port: int | None = None  # set when the server listens
        self.camera = CameraView(svc, camera_interval_s)
        self.camera_public = camera_public
        self.live = LiveTable(svc, extras=self.camera.status if camera_public else None)
        self.camera.on_frame = self.live.changed
        self.style = _tile_style(svc.cfg)

    @property
    def pin_hash(self) -> str:
        if self.pin_watch is not None:
            new = self.pin_watch.changed()
            if new is not None:
                self._pin_hash = new
                n = len(self.sessions)
                self.sessions.close_all()
                log.warning("the judge's PIN changed in %s: %d session(s) ended, the judge logs in again",
                            self.pin_watch.path, n)
                judge_mod.note(self.svc, judge_mod.Judge("-", "config"), "pin_changed", sessions_ended=n)
                self.live.changed()
        return self._pin_hash

    @pin_hash.setter
    def pin_hash(self, value: str) -> None:
        self._pin_hash = value

    def refusal(self, request: web.Request) -> str | None:
        """Why the judge's login and session do not work on this request (None: they do)."""
        return login_refusal(secure=request.secure, remote=request.remote, tls=self.tls,
                             insecure_login=self.insecure_login)

    def https_url(self, request: web.Request, path: str = "/") -> str | None:
        """This page over HTTPS, at the host name the request used (None: no HTTPS)."""
        if not self.tls or self.https_port is None:
            return None
        host = request.url.host or "localhost"
        host = f"[{host}]" if ":" in host else host
        return f"https://{host}{'' if self.https_port == 443 else f':{self.https_port}'}{path}"


K_TABLE = web.AppKey("table", Table)


def _tile_style(cfg: Config) -> str:
    styles = list(cfg.camera.styles or [])
    return styles[0] if styles else "classic"


def client_of(request: web.Request) -> str:
    return request.remote or "?"


# --- middleware -----------------------------------------------------------------------------------------------

@web.middleware
async def headers_mw(request: web.Request, handler: Handler) -> web.StreamResponse:
    resp: web.StreamResponse
    try:
        resp = await handler(request)
    except web.HTTPException as exc:
        resp = exc
        if exc.content_type != "application/json" and exc.status >= 400:
            resp = web.json_response({"error": exc.reason}, status=exc.status, headers=_keep(exc.headers))
    resp.headers.setdefault("Content-Security-Policy", CSP)
    resp.headers.setdefault("X-Content-Type-Options", "nosniff")
    resp.headers.setdefault("Referrer-Policy", "same-origin")
    resp.headers.setdefault("X-Frame-Options", "DENY")
    if request.path.startswith("/api/"):
        resp.headers.setdefault("Cache-Control", "no-store")
    return resp


def _keep(h: Mapping[str, str]) -> dict[str, str]:
    return {k: v for k, v in h.items() if k in ("Allow", "Retry-After")}


@web.middleware
async def plain_http_mw(request: web.Request, handler: Handler) -> web.StreamResponse:
    """On the plain-HTTP port of a page that has HTTPS: the judge's paths go to HTTPS (a GET redirected, the rest
    refused), and a session cookie seen here ends its session — it crossed the network in clear."""
    t: Table = request.app[K_TABLE]
    if not t.tls or request.secure:
        return await handler(request)
    token = request.cookies.get(COOKIE)  # a browser never sends the Secure cookie here: a copy is being replayed
    if token and t.sessions.get(token) is not None:
        t.sessions.close(token)
        log.warning("a judge's session cookie came over plain HTTP from %s: that session is ended", client_of(request))
        t.live.changed()
    if not is_login_path(request.path, TABLE_LOGIN_PATHS):
        return await handler(request)
    url = t.https_url(request, request.path_qs)
    if request.path == "/api/session":  # the page asks: it shows the way to HTTPS instead of a login form
        return web.json_response({"judge": False, "login": False, "https": t.https_url(request),
                                  "refused": t.refusal(request)})
    if request.method in ("GET", "HEAD") and url:
        return web.Response(status=308, headers={"Location": url})
    return web.json_response({"error": "the judge's login and console are over HTTPS only", "https": url},
                             status=403)


def judge_of(request: web.Request) -> Session | None:
    t: Table = request.app[K_TABLE]
    t.pin_hash  # noqa: B018 - a PIN changed in the config ends every session before this one is looked up
    if t.refusal(request) is not None:
        return None
    return t.sessions.get(request.cookies.get(COOKIE))


def require_judge(request: web.Request) -> Session:
    """The judge's session for a state-changing request, or the HTTP error: 403 another origin, 401 no
    session, 403 no CSRF token."""
    if not same_origin(request.headers, request.host):
        raise web.HTTPForbidden(reason="request from another origin")
    s = judge_of(request)
    if s is None:
        raise web.HTTPUnauthorized(reason="the judge's login is required")
    if not hmac.compare_digest(request.headers.get(CSRF_HEADER, ""), s.csrf):
        raise web.HTTPForbidden(reason="missing or wrong CSRF token")
    return s


async def json_body(request: web.Request) -> JSONObject:
    if request.content_length is not None and request.content_length > MAX_BODY:
        raise web.HTTPRequestEntityTooLarge(max_size=MAX_BODY, actual_size=request.content_length)
    try:
        raw = await request.content.read(MAX_BODY + 1)
        if len(raw) > MAX_BODY:
            raise web.HTTPRequestEntityTooLarge(max_size=MAX_BODY, actual_size=len(raw))
        data = json.loads(raw or b"{}")  # (decoded JSON: a JSON object, checked below)
    except (ValueError, UnicodeDecodeError):
        raise web.HTTPBadRequest(reason="the body must be a JSON object") from None
    if not isinstance(data, dict):
        raise web.HTTPBadRequest(reason="the body must be a JSON object")
    return data


# --- public -----------------------------------------------------------------------------------------------------

async def index(request: web.Request) -> web.StreamResponse:
    return web.FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})


async def tile(request: web.Request) -> web.StreamResponse:
    t: Table = request.app[K_TABLE]
    name = request.match_info["name"]
    if not TILE_NAME.match(name):
        raise web.HTTPNotFound()
    for style in (t.style, "classic"):
        p = TILES / style / f"{name}.png"
        if p.is_file():
            return web.FileResponse(p, headers={"Cache-Control": "max-age=86400"})
    raise web.HTTPNotFound()


async def api_state(request: web.Request) -> web.Response:
    t: Table = request.app[K_TABLE]
    return web.json_response(t.live.snapshot_json(), dumps=_dumps)


async def api_view(request: web.Request) -> web.Response:
    t: Table = request.app[K_TABLE]
    return web.json_response(t.live.public_state(), dumps=_dumps)


async def api_results(request: web.Request) -> web.Response:
    t: Table = request.app[K_TABLE]
    return web.json_response([{"hand_id": h, **r} for h, r in t.svc.store.results()], dumps=_dumps)


async def camera_jpg(request: web.Request) -> web.Response:
    t: Table = request.app[K_TABLE]
    if not t.camera_public and judge_of(request) is None:
        raise web.HTTPUnauthorized(reason="the camera view is for the judge at this table")
    f = t.camera.frame
    if f is None:
        raise web.HTTPNotFound(reason=t.camera.error or "no frame yet")
    return web.Response(body=f.jpeg, content_type="image/jpeg", headers={"Cache-Control": "no-store"})


async def ws(request: web.Request) -> web.StreamResponse:
    t: Table = request.app[K_TABLE]
    if not same_origin(request.headers, request.host):
        raise web.HTTPForbidden(reason="request from another origin")
    sock = web.WebSocketResponse(heartbeat=20, max_msg_size=4096)
    await sock.prepare(request)
    token = request.cookies.get(COOKIE)
    is_judge = judge_of(request) is not None  # (never over the plain-HTTP port of a page that has HTTPS)
    # the judge's part stops with the session (logout, expiry), checked at every message
    client = Client(sock.send_str, judge=(lambda: t.sessions.get(token) is not None) if is_judge else None)
    sender = asyncio.create_task(t.live.serve(client))
    watching = False
    try:
        async for msg in sock:
            if msg.type != WSMsgType.TEXT:
                continue
            try:
                data = json.loads(msg.data)
            except ValueError:
                continue
            if isinstance(data, dict) and "camera" in data and (t.camera_public or is_judge):
                on = bool(data["camera"])
                if on != watching:
                    watching = on
                    t.camera.watch(on)
                    t.live.changed()
            if isinstance(data, dict) and "layout" in data and client.judge:  # the judge's, while the session lasts
                _choose_layout(t, data["layout"], sock)
            if isinstance(data, dict) and data.get("layout_check") is True and client.judge:  # seconds of CPU
                t.camera.check_layout(t.svc.cfg.table.profile)
    finally:
        t.camera.release_layout(sock)
        if watching:
            t.camera.watch(False)
        client.closed = True
        client.ready.set()
        sender.cancel()
        await asyncio.gather(sender, return_exceptions=True)
    return sock


def _choose_layout(t: Table, value: object, owner: object) -> None:
    """The camera view's enrollment grid: ``{"layout": K}`` draws page K's cells (0: the calibration layout),
    ``{"layout": null}`` the tiles read again; anything else is ignored (a page sends only what its selector has)."""
    if value is None or (isinstance(value, int) and not isinstance(value, bool)):
        try:
            t.camera.set_layout(value, owner)
        except ValueError:
            return
        t.live.changed()


# --- the judge --------------------------------------------------------------------------------------------------

async def session(request: web.Request) -> web.Response:
    t: Table = request.app[K_TABLE]
    s = judge_of(request)
    # web.insecure_login in use on this request: the page warns the judge (the field only then)
    extra: dict[str, object] = {"insecure": True} if not request.secure and not is_loopback(request.remote) else {}
    if s is None:
        why = t.refusal(request)
        if why is not None:
            extra = {"refused": why}
        return web.json_response({"judge": False, "login": bool(t.pin_hash) and why is None, **extra})
    return web.json_response({"judge": True, "name": s.name, "csrf": s.csrf, "login": True, **extra})


async def login(request: web.Request) -> web.Response:
    t: Table = request.app[K_TABLE]
    if not same_origin(request.headers, request.host):
        raise web.HTTPForbidden(reason="request from another origin")
    why = t.refusal(request)
    if why is not None:
        log.warning("judge's login refused from %s: %s", client_of(request), why)
        raise web.HTTPForbidden(reason=why)
    who = client_of(request)
    # the table-wide lock-out (guessing from many addresses) never locks out the table's own screen or a judge
    # holding the table's judge button: a real judge can always get in (each still has the per-client limit)
    wait = t.limit.retry_after(who, overall=not (is_loopback(request.remote) or _judge_button_held(t.svc)))
    if wait > 0:
        raise web.HTTPTooManyRequests(reason="too many wrong PINs: wait", headers={"Retry-After": str(int(wait) + 1)})
    data = await json_body(request)
    pin, name = data.get("pin"), data.get("name") or "judge"
    if not isinstance(pin, str) or not isinstance(name, str) or len(pin) > 128:
        raise web.HTTPBadRequest(reason="pin and name are text")
    name = " ".join(name.split())[:40] or "judge"
    if not t.pin_hash:
        raise web.HTTPForbidden(reason="no judge PIN is set for this table (mahjong-table web set-pin)")
    ok = await asyncio.to_thread(verify_pin, pin, t.pin_hash)  # scrypt: off the table's loop
    if not ok:
        t.limit.failed(who)
        log.warning("wrong judge PIN from %s", who)
        raise web.HTTPUnauthorized(reason="wrong PIN")
    t.limit.succeeded(who)
    token, s = t.sessions.open(name, who)
    judge_mod.note(t.svc, judge_mod.Judge(name, who), "login")
    await t.svc.writer.flush()  # the judge's record is durable before the answer
    log.info("judge %r logged in from %s", name, who)
    resp = web.json_response({"judge": True, "name": name, "csrf": s.csrf})
    # Secure whenever served over HTTPS (always, where the page has it): the browser never sends it in clear
    resp.set_cookie(COOKIE, token, httponly=True, samesite="Strict", path="/", secure=request.secure)
    return resp


def _judge_button_held(svc: ServedTable) -> bool:
    button = getattr(getattr(svc, "panel", None), "judge", None)
    try:
        return bool(button is not None and button.is_pressed)
    except Exception:  # a closed pin: not held  # noqa: BLE001
        return False


async def logout(request: web.Request) -> web.Response:
    t: Table = request.app[K_TABLE]
    s = require_judge(request)
    everywhere = (await json_body(request)).get("everywhere") is True
    n = len(t.sessions) if everywhere else 1
    judge_mod.note(t.svc, judge_mod.Judge(s.name, client_of(request)), "logout", **({"everywhere": n} if everywhere else {}))
    await t.svc.writer.flush()  # the judge's record is durable before the answer
    if everywhere:  # a phone lost or left logged in: every device's session ends
        t.sessions.close_all()
    else:
        t.sessions.close(request.cookies.get(COOKIE))
    t.live.changed()  # the judge's live part stops with the next message
    resp = web.json_response({"judge": False})
    resp.del_cookie(COOKIE, path="/", secure=request.secure, httponly=True, samesite="Strict")
    return resp


async def press(request: web.Request) -> web.Response:
    t: Table = request.app[K_TABLE]
    button = request.match_info["button"]
    if button not in judge_mod.BUTTONS:
        raise web.HTTPNotFound(reason=f"no button {button!r}")
    s = require_judge(request)
    out = judge_mod.press(t.svc, judge_mod.Judge(s.name, client_of(request)), button)
    await t.svc.writer.flush()  # the judge's record is durable before the answer
    t.live.changed()
    return web.json_response(out)


async def action(request: web.Request) -> web.Response:
    t: Table = request.app[K_TABLE]
    spec = judge_mod.ACTIONS.get(request.match_info["action"])
    if spec is None:
        raise web.HTTPNotFound(reason=f"no judge action {request.match_info['action']!r}")
    s = require_judge(request)
    params = await json_body(request)
    why = judge_mod.not_now(t.svc, spec)  # a press at the wrong moment: 409 and why, nothing recorded
    if why is not None:
        return web.json_response({"error": why}, status=409)
    mark = refereeing.Mark(t.svc) if spec.name in refereeing.REFEREE_ACTIONS else None
    try:
        out = spec.run(t.svc, judge_mod.Judge(s.name, client_of(request)), params)
        if mark is not None:
            mark.ran()
        await t.svc.writer.flush()  # the judge's record is durable before the answer
        if mark is not None:  # the referee acted on it (or said why not) before the page answers
            out = {**out, "referee": await refereeing.settle(mark)}
    except judge_mod.ActionError as exc:
        t.live.changed()
        return web.json_response({"error": str(exc)}, status=exc.status)
    t.live.changed()
    return web.json_response(out, dumps=_dumps)


async def actions(request: web.Request) -> web.Response:
    t: Table = request.app[K_TABLE]
    if judge_of(request) is None:
        raise web.HTTPUnauthorized(reason="the judge's login is required")
    return web.json_response(t.live.judge_state()["actions"])


async def audit(request: web.Request) -> web.Response:
    t: Table = request.app[K_TABLE]
    if judge_of(request) is None:
        raise web.HTTPUnauthorized(reason="the judge's login is required")
    return web.json_response(judge_mod.audit(t.svc), dumps=_dumps)


def _dumps(v: object) -> str:
    return json.dumps(v, default=str)


def make_app(table: Table) -> web.Application:
    app = web.Application(middlewares=[headers_mw, plain_http_mw], client_max_size=MAX_BODY)
    app[K_TABLE] = table
    r = app.router
    r.add_get("/", index)
    r.add_get("/index.html", index)
    r.add_static("/static/", STATIC, show_index=False, follow_symlinks=False)
    r.add_get("/tiles/{name}.png", tile)
    r.add_get("/api/state", api_state)
    r.add_get("/api/view", api_view)
    r.add_get("/api/results", api_results)
    r.add_get("/api/camera.jpg", camera_jpg)
    r.add_get("/ws", ws)
    r.add_get("/api/session", session)
    r.add_post("/api/login", login)
    r.add_post("/api/logout", logout)
    r.add_post("/api/press/{button}", press)
    r.add_get("/api/judge/actions", actions)
    r.add_get("/api/judge/audit", audit)
    r.add_post("/api/judge/{action}", action)
    from controller.web import replay_routes  # the replay of each hand (issue #32): /replay/<hand>

    replay_routes.add_table_routes(app, lambda request: request.app[K_TABLE].svc)
    return app
