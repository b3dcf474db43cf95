"""The hall's live dashboard (aiohttp): standings, every table's state and health, the session clock — public and
read-only — and, behind a director's login, corrections, penalties, late arrivals, substitutes and the session.

Routes: ``GET /`` the page (English/Russian, ``?lang=ru``), ``GET /api/state`` everything it shows as JSON,
``GET /ranking.csv|.html``, ``GET /protocol/<session>/<table>.csv|.html``, ``GET|POST /login``,
``POST /logout``, ``POST /api/director/<action>`` (login cookie and its CSRF token required), ``GET /ca`` the hall
CA's page for the judges' phones (download, QR code, fingerprint, Android/iOS steps), ``GET /ca.crt`` the CA.

With HTTPS (``web.tls_certfile``) the director's paths answer only over HTTPS; the plain-HTTP port
(``web.http_port``) keeps the public view and the CA download, redirects a GET of a login path and refuses the
rest, and a director's cookie seen there ends its session. Without HTTPS only this machine may log in unless
``web.insecure_login = true`` (:func:`hall.tls.login_refusal`).
"""
from __future__ import annotations

import asyncio
import json
import secrets
import time
from dataclasses import asdict
from importlib import resources
from typing import TYPE_CHECKING, Any, TypedDict

from aiohttp import web
from aiohttp.typedefs import Handler

from hall import protocols
from hall.auth import check_password
from hall.db import HallDB
from hall.messages import SeatCheckBody, TableStatus
from hall.standings import Standings
from hall.tls import HALL_LOGIN_PATHS, fingerprint, is_login_path, is_loopback, login_refusal
from hall.tournament import Tournament, TournamentError

if TYPE_CHECKING:
    from hall.runtime import Hall

COOKIE = "hall_director"
SESSION_S = 8 * 3600
LOGIN_FAILS_PER_MINUTE = 5  # wrong director passwords from one address before it waits a minute
ONLINE_S = 30.0  # a table not heard from for this long is shown as offline


class DirectorSession(TypedDict):
    """A director logged in (by the login cookie's token)."""

    name: str
    csrf: str
    expires: float
    seen: float


def _page(name: str) -> str:
    return resources.files("hall.web").joinpath(name).read_text(encoding="utf-8")


def _bound_port(site: web.TCPSite) -> int:
    """The port a started site listens on (asked for port 0: the one the system chose)."""
    server = site._server
    if not isinstance(server, asyncio.Server):
        raise RuntimeError("the dashboard's site is not listening")
    return int(server.sockets[0].getsockname()[1])


class Dashboard:
    def __init__(self, hall: Hall, host: str = "127.0.0.1", port: int = 8090, directors: dict[str, str] | None = None,
                 *, certfile: str = "", keyfile: str = "", cafile: str = "", http_port: int = -1,
                 insecure_login: bool = False, names: list[str] | None = None, idle_s: float = 3600.0,
                 max_s: float = SESSION_S):
        self.hall = hall  # hall.runtime.Hall (db, service, tournament)
        self.host, self.port = host, port
        self.directors = dict(directors or {})
        self.sessions: dict[str, DirectorSession] = {}  # by the login cookie's token
        self.certfile, self.keyfile, self.cafile = certfile, keyfile, cafile
        self.tls = bool(certfile)
        self.http_port: int | None = http_port if self.tls and http_port >= 0 else None
        self.insecure_login = insecure_login
        self.names = list(names or [])
        self.idle_s, self.max_s = idle_s, max_s
        self._fails: dict[str, list[float]] = {}  # address -> wrong passwords in the last minute
        self.app = web.Application(middlewares=[self._plain_http])
        r = self.app.router
        r.add_get("/", self.index)
        r.add_get("/api/state", self.state)
        r.add_get("/ranking.{fmt:csv|html}", self.ranking)
        r.add_get("/protocol/{session:\\d+}/{table}.{fmt:csv|html}", self.protocol)
        r.add_get("/login", self.login_page)
        r.add_post("/login", self.login)
        r.add_post("/logout", self.logout)
        r.add_post("/api/director/{action}", self.director)
        r.add_get("/ca", self.ca_page)
        r.add_get("/ca.crt", self.ca_cert)
        self._runner: web.AppRunner | None = None

    def warnings(self) -> list[str]:
        """What the operator must hear on every start about the director's login (empty: nothing)."""
        if self.tls or is_loopback(self.host):
            return []
        if self.insecure_login:
            return [f"web.insecure_login = true: the director's password crosses the network in clear on {self.host}"]
        return [f"no HTTPS on {self.host}: the director's login is offered only on this machine (127.0.0.1); "
                "configure web.tls_certfile/web.tls_keyfile (hall provision --tls)"]

    async def start(self) -> int:
        self._runner = web.AppRunner(self.app, access_log=None)
        await self._runner.setup()
        try:
            ctx = None
            if self.tls:
                from hall.tls import server_context

                ctx = server_context(self.certfile, self.keyfile)
            site = web.TCPSite(self._runner, self.host, self.port, ssl_context=ctx)
            await site.start()
            self.port = _bound_port(site)
            if self.http_port is not None:
                plain = web.TCPSite(self._runner, self.host, self.http_port)
                await plain.start()
                self.http_port = _bound_port(plain)
        except OSError:
            await self._runner.cleanup()
            raise
        return self.port

    def https_url(self, request: web.Request, path: str = "/") -> str | None:
        if not self.tls:
            return None
        host = request.url.host or (self.names[0] if self.names else "localhost")
        host = f"[{host}]" if ":" in host else host
        return f"https://{host}{'' if self.port == 443 else f':{self.port}'}{path}"

    @property
    def tournament(self) -> Tournament:
        t = self.hall.tournament
        if t is None:
            raise RuntimeError("the hall is not started")
        return t

    @web.middleware
    async def _plain_http(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        if not self.tls or request.secure:
            return await handler(request)
        token = request.cookies.get(COOKIE)  # never sent here by a browser (Secure): a copy being replayed
        if token and self.sessions.pop(token, None) is not None:
            import logging

            logging.getLogger("hall.web").warning("a director's cookie came over plain HTTP from %s: session ended",
                                                  request.remote)
        if not is_login_path(request.path, HALL_LOGIN_PATHS):
            return await handler(request)
        url = self.https_url(request, request.path_qs)
        if request.method in ("GET", "HEAD") and url:
            raise web.HTTPPermanentRedirect(url)
        return web.json_response({"error": "the director's login is over HTTPS only", "https": url}, status=403)

    async def close(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    # --- public -------------------------------------------------------------------------------------------
    async def index(self, request: web.Request) -> web.Response:
        return web.Response(text=_page("index.html"), content_type="text/html")

    def _who(self, request: web.Request) -> DirectorSession | None:
        if login_refusal(secure=request.secure, remote=request.remote, tls=self.tls,
                         insecure_login=self.insecure_login) is not None:
            return None
        token = request.cookies.get(COOKIE, "")
        s = self.sessions.get(token)
        if s is None:
            return None
        now = time.time()
        if s["expires"] < now or now - s.get("seen", now) > self.idle_s:
            self.sessions.pop(token, None)
            return None
        s["seen"] = now
        return s

    def snapshot(self) -> dict[str, object]:
        t = self.tournament
        st = t.standings()
        names = t.player_names()
        now = time.time()
        cur = t.current_session()
        if cur is not None:
            cur["seconds_left"] = max(0.0, cur["ends_at"] - now) if cur["status"] == "running" else 0.0
            cur["warning_minutes"] = round((cur["ends_at"] - cur["warning_at"]) / 60)
        last: dict[str, dict[str, object]] = {}
        hands: dict[str, int] = {}
        for r in self.hall.db.results(cur["session"] if cur else None):
            last[r["table"]] = {"hand": r["hand"], "deltas": r["deltas"], "players": r["body"].get("result", {}).get(
                "seats") or r["players"], "corrected": r["corrected"]}
            hands[r["table"]] = hands.get(r["table"], 0) + 1
        seating = t.seating().get(cur["session"], {}) if cur else {}
        seats = seat_checks(self.hall.db, cur["session"] if cur else None)
        tables: list[dict[str, object]] = []
        ids = sorted(set(t.db.meta_list("tables")) | {r[0] for r in self.hall.db.q("SELECT id FROM tables")}
                     | set(seating))
        rows = {r[0]: r for r in self.hall.db.q("SELECT id, profile, last_seen, status FROM tables")}
        for tid in ids:
            row = rows.get(tid)
            status: TableStatus = json.loads(row[3]) if row else {}
            seen = row[2] if row else None
            online = bool(status.get("online")) and seen is not None and now - seen < ONLINE_S
            tables.append({"id": tid, "online": online, "last_contact_s": None if seen is None else round(now - seen, 1),
                           "state": status.get("state", ""), "hand_id": status.get("hand_id", ""),
                           "fault": status.get("fault", ""), "judge_called": bool(status.get("judge_called")),
                           "version": status.get("version", ""), "camera_fps": status.get("camera_fps"),
                           "cpu_temp_c": status.get("cpu_temp_c"), "throttled": status.get("throttled"),
                           "disk_free_mb": status.get("disk_free_mb"), "outbox_pending": status.get("outbox_pending"),
                           "players": seating.get(tid, []), "hands": hands.get(tid, 0), "last_result": last.get(tid),
                           "seat_check": seats.get(tid)})
        return {
            "tournament": {"name": t.name, "profile": t.profile_name, "hall": self.hall.cfg.hall.id},
            "session": cur,
            "standings": [{**asdict(x), "name": names.get(x.player, x.player)} for x in st.ranking],
            "tables": tables,
            "protocols": sorted([s, tb] for (s, tb), ts in st.tables.items() if ts.hands),
            "players": [{"id": p, "name": names.get(p, p)} for p in t.players() + t.players(substitutes=True)],
            "broker": {"connected": bool(self.hall.service and self.hall.service.connected)},
            # the judges' decisions (hall/regulations.py, hall/standings.py): audited, with who, when and why
            "regulations": regulations_view(t, st, cur["session"] if cur else None),
            "t": now,
        }

    async def state(self, request: web.Request) -> web.Response:
        data = self.snapshot()
        who = self._who(request)
        data["director"] = {"name": who["name"], "csrf": who["csrf"]} if who else None
        return web.json_response(data)

    async def ranking(self, request: web.Request) -> web.Response:
        t = self.tournament
        st, names = t.standings(), t.player_names()
        if request.match_info["fmt"] == "csv":
            return web.Response(text=protocols.ranking_csv(st, names), content_type="text/csv",
                                headers={"Content-Disposition": 'attachment; filename="ranking.csv"'})
        lang = "ru" if request.query.get("lang") == "ru" else "en"
        return web.Response(text=protocols.ranking_html(st, names, t.name, lang), content_type="text/html")

    async def protocol(self, request: web.Request) -> web.Response:
        t = self.tournament
        st = t.standings()
        key = (int(request.match_info["session"]), request.match_info["table"])
        ts = st.tables.get(key)
        if ts is None:
            raise web.HTTPNotFound(text=f"no protocol for session {key[0]} at {key[1]}")
        lang = "ru" if request.query.get("lang") == "ru" else "en"
        start = t.profile.start_score
        if request.match_info["fmt"] == "csv":
            return web.Response(text=protocols.table_csv(ts, start, lang), content_type="text/csv")
        return web.Response(text=protocols.table_html(ts, start, t.name, t.player_names(), lang), content_type="text/html")

    # --- the director -------------------------------------------------------------------------------------
    async def login_page(self, request: web.Request) -> web.Response:
        return web.Response(text=_page("login.html"), content_type="text/html")

    async def login(self, request: web.Request) -> web.Response:
        if not _same_origin(request):
            return web.json_response({"error": "request from another origin"}, status=403)
        why = login_refusal(secure=request.secure, remote=request.remote, tls=self.tls,
                            insecure_login=self.insecure_login)
        if why is not None:  # (the password is not even read) the form says why
            lang = "ru" if request.query.get("lang") == "ru" else "en"
            return web.Response(status=303, headers={"Location": f"/login?error=https&lang={lang}"})
        who = request.remote or "?"
        now = time.time()
        fails = [t for t in self._fails.get(who, []) if now - t < 60]
        if len(fails) >= LOGIN_FAILS_PER_MINUTE:  # a password guessed from one address: a minute's wait
            return web.json_response({"error": "too many wrong passwords: wait a minute"}, status=429,
                                     headers={"Retry-After": str(int(60 - (now - fails[0])) + 1)})
        form = await request.post()
        name, password = str(form.get("name", "")), str(form.get("password", ""))
        stored = self.directors.get(name)
        lang = "ru" if str(form.get("lang", "")) == "ru" else "en"
        if stored is None or not check_password(password, stored):
            if len(self._fails) > 1024 and who not in self._fails:  # bounded memory under a flood
                self._fails.pop(next(iter(self._fails)))
            self._fails[who] = [*fails, now]
            raise web.HTTPFound(f"/login?error=1&lang={lang}")
        self._fails.pop(who, None)
        token = secrets.token_urlsafe(32)
        now = time.time()
        self.sessions[token] = {"name": name, "csrf": secrets.token_urlsafe(16), "expires": now + self.max_s, "seen": now}
        resp = web.HTTPFound(f"/?lang={lang}")
        resp.set_cookie(COOKIE, token, httponly=True, samesite="Strict", max_age=int(self.max_s), secure=request.secure)
        raise resp

    async def logout(self, request: web.Request) -> web.Response:
        if not _same_origin(request):
            return web.json_response({"error": "request from another origin"}, status=403)
        self.sessions.pop(request.cookies.get(COOKIE, ""), None)
        resp = web.HTTPFound("/")
        resp.del_cookie(COOKIE, secure=request.secure, httponly=True, samesite="Strict")
        raise resp

    # --- the hall CA for the judges' phones -------------------------------------------------------------------
    def _ca_pem(self) -> bytes | None:
        if not self.cafile:
            return None
        try:
            return open(self.cafile, "rb").read()  # noqa: SIM115 - small file, read at each request (renewable)
        except OSError:
            return None

    async def ca_cert(self, request: web.Request) -> web.Response:
        pem = self._ca_pem()
        if pem is None:
            raise web.HTTPNotFound(reason="no hall CA configured (web.cafile)")
        return web.Response(body=pem, content_type="application/x-x509-ca-cert",
                            headers={"Content-Disposition": 'attachment; filename="mahjong-hall-ca.crt"'})

    def ca_url(self, request: web.Request) -> str:
        """Where a phone downloads the CA: the plain-HTTP port where there is one (it does not trust HTTPS yet)."""
        host = request.url.host or "localhost"
        host = f"[{host}]" if ":" in host else host
        if self.http_port is not None:
            return f"http://{host}:{self.http_port}/ca.crt"
        return f"{'https' if request.secure else 'http'}://{host}:{request.url.port or self.port}/ca.crt"

    async def ca_page(self, request: web.Request) -> web.Response:
        pem = self._ca_pem()
        if pem is None:
            raise web.HTTPNotFound(reason="no hall CA configured (web.cafile)")
        import html

        import segno

        fp = fingerprint(pem)
        url = self.ca_url(request)
        # the QR code holds the address and the fingerprint (as the fragment: the phone opens the address and the
        # judge compares the fingerprint with the one the phone shows for the certificate)
        qr = segno.make(f"{url}#sha256={fp.replace(':', '')}", error="m").svg_inline(scale=5)
        lang = "ru" if request.query.get("lang") == "ru" else "en"
        return web.Response(text=_page("ca.html").replace("{{QR}}", qr).replace("{{URL}}", html.escape(url))
                            .replace("{{FP}}", html.escape(fp)).replace("{{LANG}}", lang), content_type="text/html")

    async def director(self, request: web.Request) -> web.Response:
        who = self._who(request)
        if who is None:
            return web.json_response({"error": "director login required"}, status=401)
        if request.headers.get("X-CSRF-Token") != who["csrf"]:
            return web.json_response({"error": "missing or wrong CSRF token"}, status=403)
        try:
            body = await request.json()
            if not isinstance(body, dict):
                raise ValueError("a JSON object is expected")
            done = self._act(request.match_info["action"], body, who["name"])
        except (TournamentError, ValueError, KeyError, TypeError) as exc:
            msg = str(exc) if not isinstance(exc, KeyError) else f"missing field {exc}"
            return web.json_response({"error": msg}, status=400)
        return web.json_response({"ok": True, **done})

    def _act(self, action: str, b: dict[str, Any], who: str) -> dict[str, object]:
        """One director's action; ``b``: the request's JSON object as parsed, read field by field."""
        t = self.tournament
        if action == "penalty":
            t.penalty(int(b["session"]), str(b["player"]), _int(b["amount"]), str(b.get("reason", "")), who=who)
        elif action == "late":
            t.late(int(b["session"]), str(b["player"]), float(b["minutes"]), who=who)
        elif action == "correct":  # a locked result (000 line 269): with an upheld appeal or the head judge's override
            appeal = _int(b["appeal"]) if b.get("appeal") not in (None, "") else None
            t.correct(str(b["table"]), str(b["hand"]), [_int(x) for x in b["deltas"]], str(b.get("reason", "")), who=who,
                      appeal=appeal, override=b.get("override") is True)
        elif action == "sanction":  # hall/regulations.py
            session = int(b["session"]) if b.get("session") not in (None, "") else None
            t.sanction(str(b["player"]), str(b["kind"]), str(b.get("reason", "")), who=who, session=session,
                       points=float(b.get("points") or 0))
        elif action == "appeal":
            return {"appeal": t.appeal(int(b["session"]), str(b["player"]), str(b.get("text", "")), who=who,
                                       table=b.get("table") or None, hand=b.get("hand") or None)}
        elif action == "decide_appeal":
            if not isinstance(b.get("upheld"), bool):
                raise ValueError("upheld: true or false")
            t.decide_appeal(_int(b["appeal"]), b["upheld"], str(b.get("decision", "")), who=who)
        elif action == "substitute":
            t.substitute(int(b["session"]), str(b["table"]), int(b["seat"]), str(b["player"]), who=who)
        elif action == "register":
            t.register(str(b["player"]), str(b.get("name", "")), bool(b.get("substitute", False)))
        elif action == "seat":
            return {"seating": t.seat(int(b["session"]))}
        elif action == "start":
            minutes = float(b["minutes"]) if b.get("minutes") else None
            t.start_session(int(b["session"]), minutes, who=who)
        elif action == "warn":
            t.warn(int(b["session"]))
        elif action == "end":
            t.end_session(int(b["session"]), who=who)
        else:
            raise ValueError(f"unknown action {action!r}")
        return {}


def _same_origin(request: web.Request) -> bool:
    """A form or request from this page: its Origin (or Referer) names this host; without either, Sec-Fetch-Site is
    not cross-site (a client that sends none of them: allowed, as a command-line client)."""
    from urllib.parse import urlsplit

    for name in ("Origin", "Referer"):
        v = request.headers.get(name)
        if v is not None:
            u = urlsplit(v)
            return v != "null" and u.scheme in ("http", "https") and u.netloc.lower() == request.host.lower()
    return request.headers.get("Sec-Fetch-Site", "same-origin") in ("same-origin", "none")


def _int(v: object) -> int:
    if isinstance(v, bool) or not isinstance(v, int | str):
        raise ValueError(f"{v!r} is not a whole number")
    return int(v)


def seat_checks(db: HallDB, session: int | None) -> dict[str, SeatCheckBody]:
    """The last seat check each table sent for ``session`` (controller/hall_link/seat_check.py): status
    ``ok`` / ``mismatch`` / ``unreadable`` / ``overridden`` (by whom, why), the problems in both languages."""
    if session is None:
        return {}
    out: dict[str, SeatCheckBody] = {}
    for table, body in db.q("SELECT table_id, body FROM messages WHERE kind='seat_check' AND hand=? "
                            "ORDER BY t_table, seq", (f"seatcheck-s{session}",)):
        out[table] = json.loads(body)
    return out


def regulations_view(t: Tournament, st: Standings, session: int | None) -> dict[str, object]:
    """Sanctions, appeals, the disqualified and the penalties given at the tables' consoles (this session)."""
    from dataclasses import asdict as _asdict

    from hall import regulations

    pens = [{"table": ts.table, "session": ts.session, **p["event"]} for ts in st.tables.values()
            if session is None or ts.session == session for p in ts.table_penalties]
    return {"sanctions": [_asdict(x) for x in regulations.sanctions(t.db)], "appeals": regulations.appeals(t.db),
            "disqualified": list(st.disqualified), "table_penalties": pens}
