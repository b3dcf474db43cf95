"""HTTPS for the judge's login (issue 33): the table's page and the hall's dashboard with certificates from the
hall's CA (``hall provision --tls``); plain HTTP keeps the public view, never the judge's login or session; a
non-loopback client without HTTPS is refused; sessions end on idle/absolute limits, a PIN change and a logout on
every device; the table-wide lock-out never keeps the table's own screen out; ``config check`` names what is wrong
with a certificate."""
from __future__ import annotations

import asyncio
import datetime as dt
import re
import ssl
import warnings
from pathlib import Path

import aiohttp
import pytest

from controller.cli import main
from controller.web.security import PinWatch, RateLimit, Sessions, hash_pin
from hall.provision import _CA, provision
from hall.tls import cert_problems, fingerprint, is_loopback, login_refusal
from tests.web.helpers import PIN, run, served
from tests.web.other_machine import connector, other_machine


@pytest.fixture(scope="module")
def hall_ca(tmp_path_factory):
    """A provisioned hall (one table) with TLS: the table's page certificate covers 127.0.0.1."""
    return provision(tmp_path_factory.mktemp("prov") / "p", 1, hall_id="h1", hall_host="127.0.0.1", tls=True)


def table_files(prov) -> dict[str, str]:
    d = prov.out / "tables" / "table-01"
    return {"web__tls_certfile": str(d / "web.crt"), "web__tls_keyfile": str(d / "web.key")}


def trusting(cafile: Path) -> ssl.SSLContext:
    return ssl.create_default_context(cafile=str(cafile))


# --- the decisions ---------------------------------------------------------------------------------------------

def test_login_refusal_is_a_function_of_the_connection():
    assert login_refusal(secure=True, remote="192.0.2.9", tls=True, insecure_login=False) is None
    assert "HTTPS only" in login_refusal(secure=False, remote="127.0.0.1", tls=True, insecure_login=True)
    assert login_refusal(secure=False, remote="127.0.0.1", tls=False, insecure_login=False) is None
    assert login_refusal(secure=False, remote="::1", tls=False, insecure_login=False) is None
    assert "plain HTTP from another machine" in login_refusal(secure=False, remote="192.168.1.40", tls=False,
                                                              insecure_login=False)
    assert login_refusal(secure=False, remote="192.168.1.40", tls=False, insecure_login=True) is None
    assert not is_loopback("0.0.0.0") and not is_loopback("") and is_loopback("127.0.0.2") and is_loopback("localhost")


def test_table_wide_lockout_spares_the_tables_own_screen():
    now = [0.0]
    rl = RateLimit(clock=lambda: now[0])
    for i in range(20):
        rl.failed(f"10.0.0.{i}")
    assert rl.retry_after("10.0.0.99") > 0  # guessing from many addresses locks the table...
    assert rl.retry_after("127.0.0.1", overall=False) == 0  # ...but not the judge at its screen or button
    for _ in range(5):
        rl.failed("127.0.0.1")
    assert rl.retry_after("127.0.0.1", overall=False) > 0  # each still has the per-client limit
    now[0] = 61
    assert rl.retry_after("10.0.0.99") == 0


def test_sessions_expire_idle_and_absolute():
    now = [0.0]
    s = Sessions(idle_s=60, max_s=300, clock=lambda: now[0])
    tok, _ = s.open("A", "x")
    for t in (50, 100, 150, 200, 250, 299):  # kept alive by use...
        now[0] = t
        assert s.get(tok) is not None
    now[0] = 301  # ...until the absolute limit
    assert s.get(tok) is None
    tok, _ = s.open("A", "x")
    now[0] = 362
    assert s.get(tok) is None  # idle


def test_pin_watch_sees_a_new_pin_in_the_config(tmp_path):
    cfg = tmp_path / "c.toml"
    old, new = hash_pin("111111", n=2**10), hash_pin("222222", n=2**10)
    cfg.write_text(f'[web]\njudge_pin_hash = "{old}"\n')
    w = PinWatch(cfg, old, every_s=0)
    assert w.changed() is None
    cfg.write_text(f'[web]\njudge_pin_hash = "{new}"\n# longer\n')
    assert w.changed() == new and w.changed() is None
    cfg.write_text("[web\nbroken")
    assert w.changed() is None and w.current == new  # a half-written file keeps the PIN in force


# --- certificates -----------------------------------------------------------------------------------------------

def test_cert_problems_and_config_check_lines(hall_ca, tmp_path, capsys):
    d = hall_ca.out / "tables" / "table-01"
    crt, key = str(d / "web.crt"), str(d / "web.key")
    assert cert_problems(crt, key, ["table-01", "table-01.local", "127.0.0.1"]) == []
    assert [w for w, _ in cert_problems(str(tmp_path / "none.crt"), key)] == ["cert"]
    assert "does not match" in cert_problems(crt, str(hall_ca.out / "hall" / "web.key"))[0][1]
    assert "expired" in cert_problems(crt, key, now=dt.datetime.now(dt.UTC) + dt.timedelta(days=500))[0][1]
    assert "does not cover table-02.local" in cert_problems(crt, key, ["table-02.local"])[0][1]
    # config check: FILE:LINE: KEY: what is wrong — one line each
    ca = _CA("another", 1)
    k2, c2 = ca.issue("table-01", server_names=("table-01",))
    (tmp_path / "old.crt").write_bytes(ca.pem(cert=c2))
    cfg = tmp_path / "c.toml"
    cfg.write_text(f'[web]\nhost = "0.0.0.0"\ntls_certfile = "{crt}"\ntls_keyfile = "{hall_ca.out / "hall" / "web.key"}"\n'
                   'names = ["table-09.local"]\n')
    assert main(["config", "check", str(cfg)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"{cfg}:4: web.tls_keyfile: {hall_ca.out / 'hall' / 'web.key'}: does not match the certificate {crt}"
    assert out[1].startswith(f"{cfg}:5: web.names: {crt} does not cover table-09.local")
    assert out[2] == f"2 problem(s) in {cfg}"
    cfg.write_text(f'[web]\ntls_certfile = "{tmp_path / "gone.crt"}"\ntls_keyfile = "{key}"\n')
    assert main(["config", "check", str(cfg)]) == 1
    assert capsys.readouterr().out.splitlines()[0] == f"{cfg}:2: web.tls_certfile: {tmp_path / 'gone.crt'}: no such file"


def test_provision_issues_the_pages_certificates(hall_ca, tmp_path, capsys):
    out = tmp_path / "p"
    assert main(["hall", "provision", "--tables", "2", "--out", str(out), "--tls", "--hall-host", "hall.lan",
                 "--table-host", "table-02=192.168.1.22"]) == 0
    assert "HTTPS certificates of the pages" in capsys.readouterr().out
    t2 = out / "tables" / "table-02"
    assert cert_problems(str(t2 / "web.crt"), str(t2 / "web.key"),
                         ["table-02", "table-02.local", "192.168.1.22", "localhost", "127.0.0.1"]) == []
    assert (t2 / "web.key").stat().st_mode & 0o077 == 0
    assert 'tls_certfile = "/etc/mahjong-table/hall/web.crt"' in (t2 / "config.toml").read_text()
    assert cert_problems(str(out / "hall" / "web.crt"), str(out / "hall" / "web.key"), ["hall.lan"]) == []
    from hall.config import load

    hall_cfg = load(out / "hall" / "hall.toml")  # the dashboard's HTTPS named in the hall's config
    assert (hall_cfg["web.tls_certfile"], hall_cfg["web.names"]) == (str(out / "hall" / "web.crt"), ["hall.lan"])
    assert hall_cfg["web.cafile"] == str(out / "hall" / "ca.crt") and hall_cfg["web.http_port"] == 8090
    assert main(["hall", "provision", "--tables", "1", "--out", str(tmp_path / "q"), "--table-host", "x"]) == 2


# --- the table's page over HTTPS -----------------------------------------------------------------------------------

def test_judge_over_https_plain_http_refused_and_a_replayed_cookie_ends_the_session(hall_ca, tmp_path):
    async def scenario():
        async with served(tmp_path, web__http_port=0, **table_files(hall_ca)) as t:
            https = f"https://127.0.0.1:{t.web.port}"
            plain = f"http://127.0.0.1:{t.web.http_port}"
            ctx = trusting(hall_ca.out / "ca" / "ca.crt")
            jar = aiohttp.CookieJar(unsafe=True)
            async with aiohttp.ClientSession(cookie_jar=jar, connector=aiohttp.TCPConnector(ssl=ctx)) as http:
                async with http.post(https + "/api/login", json={"pin": PIN, "name": "J"}, headers={"Origin": https}) as r:
                    assert r.status == 200
                    assert "Secure" in r.headers["Set-Cookie"] and "HttpOnly" in r.headers["Set-Cookie"]
                    csrf = (await r.json())["csrf"]
                cookie = r.cookies["mt_judge"].value
                h = {"Origin": https, "X-CSRF-Token": csrf}
                async with http.post(https + "/api/judge/penalty", headers=h, json={
                        "seat": 1, "points": 8, "rule": "000 §2.8", "reason": "over HTTPS"}) as r:
                    assert r.status == 200, await r.text()
            async with aiohttp.ClientSession() as raw:  # the public view stays on plain HTTP
                async with raw.get(plain + "/api/view") as r:
                    assert r.status == 200
                async with raw.post(plain + "/api/login", json={"pin": PIN}, headers={"Origin": plain}) as r:
                    assert r.status == 403 and (await r.json())["https"].startswith("https://127.0.0.1:")
                async with raw.get(plain + "/api/judge/audit", allow_redirects=False) as r:
                    assert r.status == 308 and r.headers["Location"] == https + "/api/judge/audit"
                # a captured cookie replayed over HTTP: refused, and that session is over for everyone
                h = {"Origin": plain, "X-CSRF-Token": csrf, "Cookie": f"mt_judge={cookie}"}
                async with raw.post(plain + "/api/judge/penalty", headers=h, json={
                        "seat": 1, "points": 8, "rule": "000 §2.8", "reason": "replayed"}) as r:
                    assert r.status == 403
            async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(ssl=ctx)) as again:
                async with again.get(https + "/api/judge/audit", headers={"Cookie": f"mt_judge={cookie}"}) as r:
                    assert r.status == 401
            assert "replayed" not in str(t.svc.store.events(f"{t.svc.cfg['table.id']}/judge"))
            # a certificate from another CA is refused; so is TLS 1.1
            other = tmp_path / "other.crt"
            other.write_bytes(_CA("not the hall", 1).pem(cert=_CA("not the hall", 1).cert))
            async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(ssl=trusting(other))) as stranger:
                with pytest.raises(aiohttp.ClientConnectorCertificateError):
                    await stranger.get(https + "/api/view")
            old = trusting(hall_ca.out / "ca" / "ca.crt")
            with warnings.catch_warnings():  # (Python deprecates the old version: exactly what is refused here)
                warnings.simplefilter("ignore", DeprecationWarning)
                old.minimum_version = old.maximum_version = ssl.TLSVersion.TLSv1_1
            async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(ssl=old)) as legacy:
                with pytest.raises(aiohttp.ClientError):
                    await legacy.get(https + "/api/view")

    run(scenario())


def test_no_login_over_plain_http_from_another_machine(tmp_path):
    ip = other_machine()
    # the server's answer is login_refusal() of the request's remote: tested above for any address; here a real
    # client whose address is this machine's non-loopback one (the connection's source; its destination stays
    # loopback: tests.web.other_machine). What the operator hears when the page listens on every interface
    # (web.host 0.0.0.0) depends on the configuration only: checked on such a server, never started.

    async def scenario(insecure: bool):
        async with served(tmp_path / str(insecure), web__insecure_login=insecure) as t:
            from controller.web.server import WebServer

            beyond = WebServer(t.svc, "0.0.0.0", 0, pin_hash=t.web.table.pin_hash)
            assert bool(beyond.warnings()) and ("in clear" in beyond.warnings()[0]) is insecure
            url = t.url
            async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True), connector=connector(ip)) as http:
                async with http.get(url + "/api/session") as r:
                    s = await r.json()
                async with http.post(url + "/api/login", json={"pin": PIN}, headers={"Origin": url}) as r:
                    status = r.status
            async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
                async with http.post(url + "/api/login", json={"pin": PIN}, headers={"Origin": url}) as r:
                    assert r.status == 200  # the table's own screen logs in without HTTPS
            return s, status

    s, status = run(scenario(False))
    assert status == 403 and s["login"] is False and "another machine" in s["refused"]
    s, status = run(scenario(True))
    assert status == 200 and s["login"] is True and s["insecure"] is True  # web.insecure_login: the page warns


def test_pin_change_and_logout_everywhere_end_every_session(tmp_path):
    async def scenario():
        async with served(tmp_path, web__session_idle_minutes=2, web__session_max_hours=1) as t:
            assert (t.web.table.sessions.idle_s, t.web.table.sessions.max_s) == (120, 3600)  # from the config
            a = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
            b = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
            async with a, b:
                ca = await t.login(a)
                await t.login(b)
                async with a.post(t.url + "/api/logout", headers=t.headers(ca), json={"everywhere": True}) as r:
                    assert r.status == 200
                async with b.get(t.url + "/api/judge/audit") as r:
                    assert r.status == 401  # the phone's session ended with the logout on the other device
                # a PIN changed in the config (web set-pin) ends every session; the old PIN no longer opens one
                cfg = tmp_path / "config.toml"
                cfg.write_text(f'[web]\njudge_pin_hash = "{t.web.table.pin_hash}"\n')
                t.web.table.pin_watch = PinWatch(cfg, t.web.table.pin_hash, every_s=0)
                await t.login(b)
                assert main(["web", "set-pin", "--config", str(cfg), "--stdin"]) == 0
                async with b.get(t.url + "/api/judge/audit") as r:
                    assert r.status == 401
                async with b.post(t.url + "/api/login", json={"pin": PIN}, headers=t.headers()) as r:
                    assert r.status == 401
                await t.login(b, pin="13579135")
                kinds = [e.action for e in t.svc.store.events(f"{t.svc.cfg['table.id']}/judge")]
                assert "pin_changed" in kinds

    import io
    import sys

    old = sys.stdin
    sys.stdin = io.StringIO("13579135\n")
    try:
        run(scenario())
    finally:
        sys.stdin = old


def test_dashboard_https_ca_page_and_director_login(hall_ca, tmp_path):
    from hall.auth import hash_password
    from hall.web import Dashboard

    h = hall_ca.out / "hall"

    async def scenario():
        dash = Dashboard(None, "127.0.0.1", 0, directors={"d": hash_password("pw-123456")}, certfile=str(h / "web.crt"),
                         keyfile=str(h / "web.key"), cafile=str(h / "ca.crt"), http_port=0)
        port = await dash.start()
        https, plain = f"https://127.0.0.1:{port}", f"http://127.0.0.1:{dash.http_port}"
        try:
            async with aiohttp.ClientSession() as raw:
                async with raw.get(plain + "/ca") as r:
                    page = await r.text()
                assert fingerprint((h / "ca.crt").read_bytes()) in page and "<svg" in page and "Android" in page
                assert f"{plain}/ca.crt" in page and "Настройки" in page
                import segno  # the QR code holds the download address with the fingerprint, nothing else

                fp = fingerprint((h / "ca.crt").read_bytes()).replace(":", "")
                assert segno.make(f"{plain}/ca.crt#sha256={fp}", error="m").svg_inline(scale=5) in page
                async with raw.get(plain + "/ca.crt") as r:
                    assert (await r.read()) == (h / "ca.crt").read_bytes()
                async with raw.get(plain + "/login", allow_redirects=False) as r:
                    assert r.status == 308 and r.headers["Location"] == https + "/login"
                async with raw.post(plain + "/login", data={"name": "d", "password": "pw-123456"}) as r:
                    assert r.status == 403
            ctx = trusting(h / "ca.crt")
            async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(ssl=ctx)) as http:
                async with http.post(https + "/login", data={"name": "d", "password": "pw-123456"},
                                     headers={"Origin": https}, allow_redirects=False) as r:
                    assert r.status == 302 and "Secure" in r.headers["Set-Cookie"]
                    token = r.cookies["hall_director"].value
                dash.snapshot = lambda: {}  # (no hall behind this dashboard: /api/state shows the login only)
                async with http.get(https + "/api/state", headers={"Cookie": f"hall_director={token}"}) as r:
                    assert (await r.json())["director"]["name"] == "d"
                dash.sessions[token]["seen"] -= 3601  # an hour without a request: the session is over
                async with http.get(https + "/api/state", headers={"Cookie": f"hall_director={token}"}) as r:
                    assert (await r.json())["director"] is None
                async with http.post(https + "/login", data={"name": "d", "password": "pw-123456"},
                                     headers={"Origin": "https://evil.example"}, allow_redirects=False) as r:
                    assert r.status == 403
                for _ in range(5):  # wrong passwords from one address: then it waits, even with the right one
                    async with http.post(https + "/login", data={"name": "d", "password": "wrong"},
                                         headers={"Origin": https}, allow_redirects=False) as r:
                        assert r.status == 302 and "error=1" in r.headers["Location"]
                async with http.post(https + "/login", data={"name": "d", "password": "pw-123456"},
                                     headers={"Origin": https}, allow_redirects=False) as r:
                    assert r.status == 429 and int(r.headers["Retry-After"]) <= 61
        finally:
            await dash.close()

    asyncio.run(scenario())


def test_a_lockout_of_the_whole_table_cannot_keep_the_judge_out(tmp_path):
    """20 wrong PINs a minute from many addresses lock the table for other addresses; the table's own screen and
    a judge holding the table's judge button still log in (the panel on gpiozero's mock pins)."""
    from gpiozero.pins.mock import MockFactory

    from controller.config import gpio_number
    from controller.devices import Panel

    ip = other_machine()  # the phones' address: the source of their connections to the table's 127.0.0.1

    async def scenario():
        async with served(tmp_path, web__insecure_login=True) as t:
            w = t.web
            factory = MockFactory()
            panel = Panel(t.svc.cfg.section("gpio"), pin_factory=factory)
            old_panel, t.svc.panel = t.svc.panel, panel
            try:
                for i in range(20):  # guessing from many phones
                    w.table.limit.failed(f"10.1.1.{i}")
                url = t.url
                jar = aiohttp.CookieJar(unsafe=True)
                async with aiohttp.ClientSession(cookie_jar=jar, connector=connector(ip)) as remote, \
                        aiohttp.ClientSession(cookie_jar=jar) as local:
                    async def login(http):
                        async with http.post(url + "/api/login", json={"pin": PIN}, headers={"Origin": url}) as r:
                            return r.status
                    assert await login(remote) == 429  # locked for every other address...
                    assert await login(local) == 200  # ...not for the table's own screen
                    pin = factory.pin(gpio_number(t.svc.cfg["gpio.judge_button"]))
                    pin.drive_low()  # the judge holds the judge button (pull-up: pressed = low)
                    assert panel.judge.is_pressed
                    assert await login(remote) == 200
                    pin.drive_high()
                    assert await login(remote) == 429
            finally:
                t.svc.panel = old_panel
                panel.close()

    run(scenario())


def test_server_context_speaks_tls12_and_13_with_forward_secret_aead_only(hall_ca):
    from hall.tls import server_context

    d = hall_ca.out / "tables" / "table-01"
    ctx = server_context(str(d / "web.crt"), str(d / "web.key"))
    assert ctx.minimum_version == ssl.TLSVersion.TLSv1_2
    suites = ctx.get_ciphers()
    assert suites and all(c["aead"] for c in suites)
    assert all(c["kea"] in ("kx-ecdhe", "kx-any") for c in suites)  # kx-any: TLS 1.3 (always ECDHE/DHE)
    assert {c["protocol"] for c in suites} == {"TLSv1.2", "TLSv1.3"}


def test_dashboard_without_https_takes_the_directors_password_only_on_its_own_machine(tmp_path):
    from hall.auth import hash_password
    from hall.web import Dashboard

    ip = other_machine()  # the source of the "remote" connection; every destination is 127.0.0.1

    async def scenario(insecure: bool) -> list[int]:
        directors = {"d": hash_password("pw-123456")}
        beyond = Dashboard(None, "0.0.0.0", 0, directors=directors, insecure_login=insecure)  # (never started)
        assert ("in clear" in beyond.warnings()[0]) is insecure
        dash = Dashboard(None, "127.0.0.1", 0, directors=directors, insecure_login=insecure)
        port = await dash.start()
        got = []
        try:
            url = f"http://127.0.0.1:{port}"
            for conn in (connector(ip), None):
                async with aiohttp.ClientSession(connector=conn) as http:
                    async with http.post(url + "/login", data={"name": "d", "password": "pw-123456"},
                                         headers={"Origin": url}, allow_redirects=False) as r:
                        got.append((r.status, r.headers.get("Location", "")))
        finally:
            await dash.close()
        return got

    (remote, local) = asyncio.run(scenario(False))
    assert remote == (303, "/login?error=https&lang=en") and local == (302, "/?lang=en")
    (remote, local) = asyncio.run(scenario(True))
    assert remote == (302, "/?lang=en")  # web.insecure_login = true: the operator's explicit choice


def test_serve_beyond_loopback_without_https_warns_on_start(tmp_path):
    """``serve --host 0.0.0.0`` without a certificate: a warning line on every start, the login only on this
    machine; with web.insecure_login the warning says the PIN crosses the network in clear."""
    import subprocess
    import sys

    from tests.web.browser import ROOT
    from tests.web.helpers import PIN_HASH

    for insecure, words in ((False, "the judge's login is offered only on this machine's own screen"),
                            (True, "web.insecure_login = true: the judge's PIN and session cross the network in clear")):
        cfg = tmp_path / f"c{insecure}.toml"
        cfg.write_text(f'[table]\nprofile = "basic"\n[serial]\ntime_scale = 200.0\n[store]\npath = "{tmp_path / str(insecure)}.sqlite"\n'
                       f'[web]\nport = 0\njudge_pin_hash = "{PIN_HASH}"\ninsecure_login = {str(insecure).lower()}\n')
        p = subprocess.Popen([sys.executable, "-m", "controller", "serve", "--host", "0.0.0.0", "--config", str(cfg)],
                             cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            first, second = p.stdout.readline(), p.stdout.readline()
        finally:
            p.terminate()
            p.wait(20)
        assert re.search(r"web page on http://0\.0\.0\.0:\d+/", first), first
        assert second.startswith("warning: ") and words in second, second


def test_the_client_on_another_machine_reaches_loopback_and_is_not_loopback_to_the_server():
    """The tests' "other machine" (tests.web.other_machine): its connections go to 127.0.0.x only, and the server
    sees this machine's non-loopback address as the remote — through aiohttp's connector and chromium's forwarder."""
    from aiohttp import web

    from tests.web.other_machine import Forwarder

    ip = other_machine()

    async def scenario() -> list[str]:
        async def remote(request: web.Request) -> web.Response:
            return web.Response(text=str(request.remote))

        app = web.Application()
        app.router.add_get("/", remote)
        runner = web.AppRunner(app)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        port = runner.addresses[0][1]
        fw = Forwarder(ip, port, ("127.0.0.2", 0))
        seen = []
        try:
            for url, conn in ((f"http://127.0.0.1:{port}/", connector(ip)), (f"http://127.0.0.1:{port}/", None),
                              (f"http://127.0.0.2:{fw.address[1]}/", None)):
                async with aiohttp.ClientSession(connector=conn) as http, http.get(url) as r:
                    seen.append(await r.text())
        finally:
            await asyncio.get_running_loop().run_in_executor(None, fw.close)
            await runner.cleanup()
        return seen

    assert asyncio.run(scenario()) == [ip, "127.0.0.1", ip]
