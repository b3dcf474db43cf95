"""The judge's login over HTTPS in Debian's chromium (issue 33), the hall's CA trusted as a judge's phone trusts it.

Why an NSS database and not ``--ignore-certificate-errors-spki-list``: the SPKI list pins one key and skips the
chain's verification, so it cannot show that the browser trusts what the hall's CA signed and refuses what another
CA signed. Chromium on Linux takes user-added trust anchors from the NSS database in ``$HOME/.pki/nssdb``; the test
gives chromium its own HOME and adds the hall's CA there with ``certutil`` (Debian's ``libnss3-tools``) — the same
trust path as installing the CA on a phone. The table listens on 127.0.0.1; the browser "on another machine" talks
to forwarders on 127.0.0.2 at the table's own port numbers (so the table's redirect to HTTPS at the host the page
used lands on them too), which connect on to the table from this machine's non-loopback address
(tests.web.other_machine): every connection's destination is loopback, and the table sees a client that is not.
"""
from __future__ import annotations

import contextlib
import http.client
import os
import re
import shutil
import ssl
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from hall.provision import _CA, provision
from tests.needs import need
from tests.web.browser import CHROMIUM, OFFLINE_ARGS, ROOT, chromium_missing, log_in, started
from tests.web.helpers import PIN
from tests.web.other_machine import forwarded, other_machine


@pytest.fixture(autouse=True, scope="module")
def _tools():
    """A missing browser or certutil fails these tests (tests/needs.py), unless the person asked to skip them."""
    if missing := chromium_missing():
        need("chromium", missing)
    if not shutil.which("certutil"):
        need("certutil", "certutil is missing (apt-get install libnss3-tools): the hall's CA in chromium's NSS db")


@pytest.fixture(scope="module")
def hall(tmp_path_factory):
    ip = other_machine()
    tmp = tmp_path_factory.mktemp("tlsb")
    # the page's certificate also names 127.0.0.2: the address chromium uses for the table, through the forwarders
    prov = provision(tmp / "prov", 1, hall_id="h1", hall_host="127.0.0.1", tls=True,
                     table_hosts={"table-01": ["127.0.0.2"]})
    return prov, ip, tmp


@pytest.fixture(scope="module")
def chrome(hall):
    """Chromium whose HOME holds an NSS db that trusts the hall's CA (and nothing else added)."""
    from playwright.sync_api import sync_playwright

    prov, _, tmp = hall
    home = tmp / "home"
    nss = home / ".pki" / "nssdb"
    nss.mkdir(parents=True)
    subprocess.run(["certutil", "-d", f"sql:{nss}", "-N", "--empty-password"], check=True)
    subprocess.run(["certutil", "-d", f"sql:{nss}", "-A", "-t", "C,,", "-n", "mahjong hall CA", "-i",
                    str(prov.out / "ca" / "ca.crt")], check=True)
    env = {**os.environ, "HOME": str(home)}
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, headless=True, env=env,
                               args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", *OFFLINE_ARGS])
        try:
            yield b
        finally:
            b.close()


@contextlib.contextmanager
def tls_table(tmp: Path, certdir: Path):
    with started([sys.executable, "-m", "tests.web.refereed", str(tmp), str(certdir)], r"https (\d+) http (\d+)") as m:
        yield int(m.group(1)), int(m.group(2))


def test_judge_over_https_corrects_a_record_plain_http_goes_to_https_and_a_replayed_cookie_is_refused(hall, chrome):
    prov, ip, tmp = hall
    with tls_table(tmp / "t1", prov.out / "tables" / "table-01") as (https_port, http_port), \
            forwarded(ip, [https_port, http_port]) as host:
        ctx = chrome.new_context(viewport={"width": 1280, "height": 900})
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        # from another machine's address over plain HTTP: the public view, and the judge's button leads to HTTPS
        page.goto(f"http://{host}:{http_port}/?lang=en")
        page.wait_for_selector("text=Standings")
        refused = page.evaluate("fetch('/api/login', {method: 'POST', headers: {'Content-Type': 'application/json'}, "
                                f"body: JSON.stringify({{pin: '{PIN}'}})}}).then(r => r.status)")
        assert refused == 403
        page.click("#judge-btn")
        page.wait_for_url(f"https://{host}:{https_port}/**")  # the certificate is trusted: no interstitial
        # over HTTPS the judge logs in and corrects the misread tile: the settlement changes
        page.goto(f"https://{host}:{https_port}/?lang=en")
        log_in(page, "Chief Judge", PIN)
        page.wait_for_selector("#referee:not([hidden])", timeout=60000)
        page.wait_for_selector("#result .deltas", timeout=60000)
        wrong = page.inner_text("#result .deltas")
        page.locator("#ref-record tr:has(img[alt='7m']) [data-fix]").last.click()
        page.fill("#ref-fix input[name=tile]", "4m")
        page.fill("#ref-fix input[name=reason]", "4m read as 7m")
        page.click("#ref-fix button[type=submit]")
        page.wait_for_function("w => document.querySelector('#result .deltas') && "
                               "document.querySelector('#result .deltas').innerText !== w", arg=wrong, timeout=30000)
        page.wait_for_selector("#ref-corrections li:has-text('Chief Judge')")
        cookie = next(c for c in ctx.cookies() if c["name"] == "mt_judge")
        assert cookie["secure"] and cookie["httpOnly"] and cookie["sameSite"] == "Strict"
        # the captured cookie replayed over plain HTTP: refused, and the judge's session is over
        conn = http.client.HTTPConnection("127.0.0.1", http_port, timeout=10, source_address=(ip, 0))
        conn.request("GET", "/api/judge/audit", headers={"Cookie": f"mt_judge={cookie['value']}"})
        r = conn.getresponse()
        assert r.status == 308 and r.getheader("Location").startswith("https://")  # not served: the session ended
        conn.close()
        session = page.evaluate("fetch('/api/session').then(r => r.json())")
        assert session["judge"] is False
        ctx.close()
        assert not errors, errors


def test_a_certificate_from_another_ca_is_refused(hall, chrome, tmp_path):
    ca = _CA("not the hall", 1)
    key, cert = ca.issue("127.0.0.1", server_names=("127.0.0.1", "localhost"))
    (tmp_path / "s.crt").write_bytes(ca.pem(cert=cert))
    (tmp_path / "s.key").write_bytes(ca.pem(key=key))

    class Ok(BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b"impostor")

        def log_message(self, *a):
            pass

    srv = ThreadingHTTPServer(("127.0.0.1", 0), Ok)
    sctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    sctx.load_cert_chain(tmp_path / "s.crt", tmp_path / "s.key")
    srv.socket = sctx.wrap_socket(srv.socket, server_side=True)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        ctx = chrome.new_context()
        page = ctx.new_page()
        with pytest.raises(Exception, match="ERR_CERT_AUTHORITY_INVALID"):
            page.goto(f"https://127.0.0.1:{srv.server_address[1]}/")
        ctx.close()
    finally:
        srv.shutdown()


def test_the_console_warns_when_the_login_is_insecure(hall, chrome):
    """web.insecure_login = true: the operator's choice works from another machine, and the judge sees why it
    should not be (the console's warning, in the page's language)."""
    _, ip, tmp = hall
    p = subprocess.Popen([sys.executable, "-m", "tests.web.refereed", str(tmp / "t3"), "insecure"], cwd=ROOT,
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        line = p.stdout.readline() if p.stdout else ""
        m = re.search(r":(\d+)/", line)
        assert m, line
        with forwarded(ip, [int(m.group(1))]) as host:
            ctx = chrome.new_context()
            page = ctx.new_page()
            page.goto(f"http://{host}:{m.group(1)}/?lang=ru")
            page.wait_for_selector("text=Положение")
            log_in(page, "Судья", PIN)
            page.wait_for_selector("#insecure-warn:not([hidden])", timeout=30000)
            assert "открыто" in page.inner_text("#insecure-warn")
            ctx.close()
    finally:
        p.terminate()
        p.wait(10)
