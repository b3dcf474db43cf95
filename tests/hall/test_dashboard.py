"""The hall dashboard in Debian's chromium (headless, driven by Playwright at /usr/bin/chromium): the public
standings page in English and Russian, the director's login, a penalty applied from the page; the API's
refusals without a login. Screenshots go to ``$MT_HALL_SCREENSHOTS`` when set (docs/hall/)."""
from __future__ import annotations

import asyncio
import json
import os
import shutil
import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from controller.hall_link.link import LinkConfig
from controller.hall_link.sim_table import SimTable
from hall.auth import hash_password
from hall.config import defaults
from hall.runtime import Hall
from hall.web import Dashboard
from tests.hall.conftest import _need_mosquitto, wait_for
from tests.needs import need
from tests.web.browser import OFFLINE_ARGS

PASSWORD = "correct horse battery"
CHROMIUM = "/usr/bin/chromium"


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    """A hall with two simulated tables that played a few hands of session 1, and its dashboard."""
    _need_mosquitto()
    tmp = tmp_path_factory.mktemp("dash")
    ids = ["table-01", "table-02"]
    cfg = defaults().with_overrides(hall__db=str(tmp / "hall.sqlite"), hall__id="kazan", hall__name="Kazan Open",
                                    hall__profile="sichuan-mpl2025", hall__tables=ids, hall__seed=3,
                                    broker__dir=str(tmp / "broker"), broker__port=0)
    hall = Hall(cfg).start()
    assert hall.service.wait_connected()
    t = hall.tournament
    for i in range(8):
        t.register(f"P{i + 1:02d}", ["Анна", "Boris", "Chen", "Dasha", "Erik", "Fedor", "Gleb", "Hana"][i])
    sims = [SimTable(tid, "sichuan-mpl2025", tmp / "tables", LinkConfig(hall.broker_url, "kazan", tid, poll_s=0.05,
                                                                         status_s=0.5), i + 1,
                     seat_check=tid == "table-01").start()
            for i, tid in enumerate(ids)]
    sims[0].misseat[1] = ((1, 2), "override")  # two players of table-01 sit swapped: the judge overrides
    t.seat(1)
    t.start_session(1, minutes=40)
    threads = [threading.Thread(target=s.play_session, args=(1, 3)) for s in sims]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    wait_for(lambda: hall.db.count("results") == 6, what="six results at the hall")
    loop = asyncio.new_event_loop()
    th = threading.Thread(target=loop.run_forever, daemon=True)
    th.start()
    dash = Dashboard(hall, "127.0.0.1", 0, directors={"judge": hash_password(PASSWORD)})
    port = asyncio.run_coroutine_threadsafe(dash.start(), loop).result(10)
    yield f"http://127.0.0.1:{port}", hall
    asyncio.run_coroutine_threadsafe(dash.close(), loop).result(10)
    loop.call_soon_threadsafe(loop.stop)
    for s in sims:
        s.stop()
    hall.stop()


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    if not os.access(CHROMIUM, os.X_OK):
        need("chromium", f"no chromium at {CHROMIUM} (Debian's chromium package)")
    pw = sync_playwright().start()
    b = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-dev-shm-usage", *OFFLINE_ARGS])
    page = b.new_page(viewport={"width": 1400, "height": 1000}, locale="en-US")
    yield page
    b.close()
    pw.stop()


def _shot(page, name: str, tmp: Path) -> None:
    page.screenshot(path=str(tmp / name))
    out = os.environ.get("MT_HALL_SCREENSHOTS")
    if out:
        Path(out).mkdir(parents=True, exist_ok=True)
        shutil.copy(tmp / name, Path(out) / name)


def _ready(page, url):
    page.goto(url)
    page.wait_for_function("document.body.dataset.ready === '1'", timeout=15000)


def test_public_page_in_english_and_russian(live, browser, tmp_path):
    url, hall = live
    page = browser
    _ready(page, url + "/?lang=en")
    assert page.inner_text("#h-standings") == "Standings"
    rows = page.query_selector_all("#standings tbody tr[data-player]")
    assert len(rows) == 8
    api = hall.tournament.standings().ranking
    assert [r.get_attribute("data-player") for r in rows] == [x.player for x in api]
    cards = page.query_selector_all("#tables .tcard")
    assert {c.get_attribute("data-table") for c in cards} == {"table-01", "table-02"}
    assert "hands: 3" in cards[0].inner_text()
    # table-01's seat check: the swapped seats as its camera read them, and the judge's override
    sc = page.query_selector("#tables .tcard[data-table='table-01'] [data-seat-check]")
    assert sc.get_attribute("data-seat-check") == "overridden"
    seated = hall.tournament.seating()[1]["table-01"]
    assert f"seat 1: {seated[2]} sits here (seated at seat 2); expected {seated[1]}" in sc.inner_text()
    assert "overridden by the judge (sim judge:" in sc.inner_text()
    assert page.query_selector("#tables .tcard[data-table='table-02'] [data-seat-check]") is None
    assert "Session 1" in page.inner_text("#clock") and "left" in page.inner_text("#clock")
    assert not page.is_visible("#director")  # the public page is read-only
    _shot(page, "dashboard-en.png", tmp_path)
    _ready(page, url + "/?lang=ru")
    assert page.inner_text("#h-standings") == "Турнирное положение"
    assert "Сессия 1" in page.inner_text("#clock")
    assert page.get_attribute("html", "lang") == "ru"
    sc = page.inner_text("#tables .tcard[data-table='table-01'] [data-seat-check]")
    assert "судья разрешил начать" in sc and f"место 1: сидит {seated[2]} (его место 2)" in sc
    _shot(page, "dashboard-ru.png", tmp_path)


def test_director_login_and_a_penalty_from_the_page(live, browser, tmp_path):
    url, hall = live
    page = browser
    page.goto(url + "/login?lang=en")
    page.fill("#name", "judge")
    page.fill("#password", "wrong password")
    page.click("#go")
    page.wait_for_selector("#err", state="visible", timeout=10000)
    assert page.inner_text("#err") == "Wrong name or password"
    page.fill("#name", "judge")
    page.fill("#password", PASSWORD)
    page.click("#go")
    page.wait_for_selector("#director", state="visible", timeout=10000)
    player = hall.tournament.standings().ranking[0].player
    before = next(x.total for x in hall.tournament.standings().ranking if x.player == player)
    form = 'form[data-action="penalty"]'
    for name, value in (("session", "1"), ("player", player), ("amount", "8"), ("reason", "late claim")):
        page.fill(f'{form} input[name="{name}"]', value)
    page.click(f"{form} button")
    page.wait_for_function("document.getElementById('msg').textContent === 'Done'", timeout=10000)
    after = next(x.total for x in hall.tournament.standings().ranking if x.player == player)
    assert after == before - 8  # 000 §2.8.2: taken from the player's session GP
    page.wait_for_function(f"document.querySelector('#standings tr[data-player=\"{player}\"] td.total')"
                           f".textContent === '{after}'", timeout=10000)
    assert hall.db.q("SELECT who, action FROM audit WHERE action='penalty'") == [("judge", "penalty")]
    _shot(page, "director.png", tmp_path)
    page.click("#logout")
    page.wait_for_selector("#login", state="visible", timeout=10000)
    assert not page.is_visible("#director")


def test_director_gives_a_sanction_and_decides_an_appeal_from_the_page(live, browser, tmp_path):
    """The director's forms for the regulations (hall/regulations.py): a table-point sanction (000 line 422), an
    appeal (000 line 485) and its decision — shown to everybody under "Sanctions, appeals ..."."""
    url, hall = live
    page = browser
    page.goto(url + "/login?lang=en")
    page.fill("#name", "judge")
    page.fill("#password", PASSWORD)
    page.click("#go")
    page.wait_for_selector("#director", state="visible", timeout=10000)

    def submit(action: str, values: dict[str, str]) -> None:
        form = f'form[data-action="{action}"]'
        page.evaluate("document.getElementById('msg').textContent = ''")
        for name, value in values.items():
            if name == "upheld":
                page.check(f'{form} input[name="upheld"]')
            else:
                page.fill(f'{form} input[name="{name}"]', value)
        page.click(f"{form} button")
        page.wait_for_function("document.getElementById('msg').textContent === 'Done'", timeout=10000)

    submit("sanction", {"player": "P02", "kind": "table_points", "session": "1", "points": "1",
                        "reason": "beyond the scale"})
    submit("appeal", {"session": "1", "player": "P03", "text": "the ruling on a late claim"})
    number = str(hall.db.q("SELECT MAX(id) FROM audit WHERE action='appeal'")[0][0])
    submit("decide_appeal", {"appeal": number, "decision": "the ruling stands"})
    page.wait_for_function("document.getElementById('regulations').textContent.includes('not upheld')", timeout=10000)
    text = page.inner_text("#regulations")
    assert "table_points P02 (Session 1, −1 table points) — beyond the scale · by judge" in text
    assert f"Appeal {number}: P03 (Session 1) — the ruling on a late claim · not upheld: the ruling stands" in text
    page.click("#logout")
    page.wait_for_selector("#login", state="visible", timeout=10000)


def test_protocol_and_ranking_pages(live, browser, tmp_path):
    url, hall = live
    page = browser
    page.goto(url + "/protocol/1/table-01.html?lang=ru")
    body = page.content()
    assert "Протокол учёта очков" in body and "Подпись" in body and "Турнирные очки" in body
    _shot(page, "protocol-ru.png", tmp_path)
    csv_text = urllib.request.urlopen(url + "/ranking.csv").read().decode()
    lines = csv_text.strip().splitlines()
    assert lines[0].startswith("rank,player,name,sessions,table_points,total") and len(lines) == 9
    proto = urllib.request.urlopen(url + "/protocol/1/table-02.csv").read().decode().splitlines()
    assert proto[1].startswith("Hand,") and len(proto) == 2 + 3 + 5  # header, 3 hands, 5 summary lines


def _post(url, body, headers=None):
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(req) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def test_director_api_refuses_without_login_or_csrf(live):
    url, hall = live
    status, body = _post(url + "/api/director/penalty", {"session": 1, "player": "P01", "amount": 8})
    assert status == 401 and "login" in body["error"]
    import http.cookiejar

    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    opener.open(urllib.request.Request(url + "/login", data=b"name=judge&password=correct+horse+battery",
                                       method="POST"))
    assert any(c.name == "hall_director" for c in jar)
    cookie = "; ".join(f"{c.name}={c.value}" for c in jar)
    status, body = _post(url + "/api/director/penalty", {"session": 1, "player": "P01", "amount": 8},
                         {"Cookie": cookie})
    assert status == 403 and "CSRF" in body["error"]
    csrf = json.loads(opener.open(url + "/api/state").read())["director"]["csrf"]
    hdr = {"Cookie": cookie, "X-CSRF-Token": csrf}
    assert _post(url + "/api/director/penalty", {"session": 1, "player": "NOBODY", "amount": 8}, hdr)[0] == 400
    assert _post(url + "/api/director/penalty", {"session": 1, "player": "P01"}, hdr)[1]["error"] == "missing field 'amount'"
    assert _post(url + "/api/director/explode", {}, hdr)[0] == 400
    assert _post(url + "/api/director/start", {"session": 1}, hdr)[1]["error"] == "session 1 is already running"
