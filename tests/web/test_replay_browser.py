"""The replay in a real browser (Debian's chromium through Playwright), a refereed hand of every rule set
played by the demo table's bots (``serve --demo``): the table's hands list opens it; each step forward (the arrow key) shows what the record holds at
that step — the ponds, the discard or claim just made, the wall — and back (the buttons) returns; the address
names the step (a shared link opens at it); Russian and English; riichi's tenhou.net/6 link carries the
export."""
from __future__ import annotations

import json
import re
import urllib.parse

import pytest

from controller.event_store import EventStore
from controller.replay import replay_events
from rules.events import Discarded, MeldMade, Settled
from tests.conftest import LONG
from tests.needs import need
from tests.web.browser import ROOT, browser, chromium_missing, demo_table
from tests.web.replay_data import PROFILES
from vision.conventions import conventions

PLAYERS = {"mcr-siamese": 3}

# every rule set at the long size; make test (small) steps through riichi (the tenhou link) and Sichuan MPL
# in the browser — the replay of every rule set is checked at both sizes without a browser (tests/web/test_replay.py)
BROWSER_PROFILES = PROFILES if LONG else ("riichi-ema2016", "sichuan-mpl2025")


@pytest.fixture(autouse=True, scope="module")
def _chromium():
    if missing := chromium_missing():  # a missing browser fails (tests/needs.py) unless the person asked to skip
        need("chromium", missing)

SHOWN = """() => ({
  pos: document.querySelector('#pos').textContent,
  what: document.querySelector('#what').dataset.type,
  whatTile: (document.querySelector('#what img') || {}).alt || null,
  whatText: document.querySelector('#what').textContent,
  seats: Object.fromEntries([...document.querySelectorAll('.seat[data-seat]')].map(b => [b.dataset.seat, {
    pond: [...b.querySelectorAll('.pond img')].map(i => i.alt),
    melds: [...b.querySelectorAll('.meld')].map(m => ({src: m.dataset.source, tiles: [...m.querySelectorAll('.tile')].map(i => i.alt || 'x')})),
  }])),
  wall: (document.querySelector('#wall') || {}).textContent || null,
  deltas: (document.querySelector('#deltas') || {}).textContent || null,
  hash: location.hash,
})"""


@pytest.fixture(scope="module")
def chrome():
    with browser() as b:
        yield b


def _record(store_path: str, hand: str):
    st = EventStore(store_path)
    try:
        return replay_events(st, hand)[1]
    finally:
        st.close()


@pytest.mark.parametrize("profile", BROWSER_PROFILES)
def test_step_through_a_refereed_hand(tmp_path, chrome, profile):
    with demo_table(tmp_path, profile=profile, pace=0.0, players=PLAYERS.get(profile, 4)) as url:
        _step_through(url, str(tmp_path / "events.sqlite"), chrome, profile)


def _step_through(url: str, store_path: str, chrome, profile: str) -> None:
    ctx = chrome.new_context(viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(url + "/?lang=en")
        page.click("#history a.replay", timeout=180000)  # the hands list opens the replay (a refereed hand)
        page.wait_for_selector("body[data-ready]")
        hand = urllib.parse.unquote(page.url.split("/replay/")[1].split("#")[0])
        data = page.evaluate(f"fetch('/api/replay/{hand}').then(r => r.json())")
        record = _record(store_path, hand)
        steps = data["steps"]
        n = len(steps)
        assert n >= 10
        assert page.inner_text("#next") == "Forward ▶" and page.is_disabled("#prev")
        for k, st in enumerate(steps):
            if k:
                page.keyboard.press("ArrowRight")
            shown = page.evaluate(SHOWN)
            assert shown["pos"] == f"{k + 1} / {n}" and shown["hash"] == f"#{k}"
            view = st["view"]
            for seat in view["seats"]:
                got = shown["seats"][str(seat["seat"])]
                assert got["pond"] == [p["tile"] for p in seat["pond"]], f"step {k}: seat {seat['seat']}'s pond"
                assert [sorted(m["tiles"]) for m in got["melds"]] == [sorted(m["tiles"]) for m in seat["melds"]]
            ev = record[st["at"] - 1]  # the record's event this step plays
            if isinstance(ev, Discarded):
                assert shown["what"] == "discarded" and shown["whatTile"] == ev.tile
                assert shown["seats"][str(ev.seat)]["pond"][-1] == ev.tile, f"step {k}: the discard ends the pond"
            elif isinstance(ev, MeldMade):
                assert shown["what"] == "meld_made"
                melds = shown["seats"][str(ev.seat)]["melds"]  # (an added kong grows its pung where it lies)
                same = [m for m in melds if sorted(m["tiles"]) == sorted(ev.tiles)]
                if ev.kind == "kong_concealed":  # the public view: the tiles laid face down are hidden (`x`), the
                    # record may know them (Sichuan: 000 shows a concealed kong's ends down, the referee knows it)
                    down = conventions(profile).concealed_kong_down
                    public = sorted("x" if i in down else t for i, t in enumerate(ev.tiles))
                    same = same or [m for m in melds if sorted(m["tiles"]) == public]
                assert same or "x" in ev.tiles, f"step {k}: {ev.tiles} not among {melds}"
                meld = same[-1] if same else melds[-1]
                if ev.from_seat is not None and ev.from_seat != ev.seat:  # a claim names its source
                    assert re.search(rf"from .*\({ev.from_seat}\)", shown["whatText"]), (k, shown["whatText"])
                elif ev.kind != "kong_added":  # a concealed kong: no source (an added kong keeps its pung's)
                    assert meld["src"] == "", f"step {k}"
            if view["wall"] is not None:
                assert shown["wall"] == str(view["wall"])
        settled = [e for e in record if isinstance(e, Settled)]
        if settled:  # the last step: the settlement of the record
            deltas = [int(x) for x in re.findall(r"[-+]?\d+(?=\s*(?:·|$))", shown["deltas"])]
            assert deltas == [settled[-1].deltas[s["seat"]] for s in steps[-1]["view"]["seats"]]
        # the tile faces (tiles.js, shared with the live page, draws them from the replay's own tile path) load
        page.wait_for_function("() => [...document.querySelectorAll('img.tile')].every(i => i.complete)")
        faces = page.evaluate("() => [...document.querySelectorAll('img.tile')].map(i => i.naturalWidth)")
        assert faces and all(faces), faces
        # back: the buttons, the first step; a shared link opens at its step; Russian
        page.click("#prev")
        assert page.evaluate(SHOWN)["pos"] == f"{n - 1} / {n}"
        page.click("#first")
        assert page.evaluate(SHOWN)["pos"] == f"1 / {n}" and page.is_disabled("#first")
        page.keyboard.press("End")
        assert page.evaluate(SHOWN)["pos"] == f"{n} / {n}" and page.is_disabled("#next")
        mid = n // 2
        other = ctx.new_page()
        other.goto(f"{url}/replay/{hand}?lang=ru#{mid}")
        other.wait_for_selector("body[data-ready]")
        assert other.evaluate(SHOWN)["pos"] == f"{mid + 1} / {n}"
        assert other.inner_text("#next") == "Вперёд ▶" and other.locator("html").get_attribute("lang") == "ru"
        tenhou = other.get_attribute("#tenhou", "href")
        if profile == "riichi-ema2016":
            assert tenhou.startswith("https://tenhou.net/6/#json=")
            t6 = json.loads(urllib.parse.unquote(tenhou.split("#json=", 1)[1]))
            assert t6["log"] and len(t6["log"][0]) >= 4
        else:
            assert other.is_hidden("#tenhou")
    finally:
        ctx.close()
    assert not errors, errors


def test_an_unknown_hand_says_so(tmp_path, chrome):
    with demo_table(tmp_path, profile="basic", pace=0.0) as url:
        page = chrome.new_page()
        try:
            page.goto(url + "/replay/t7-99999?lang=ru")
            page.wait_for_selector("#error:not([hidden])")
            assert "Судейской записи этой раздачи нет" in page.inner_text("#error")
        finally:
            page.close()


def test_the_halls_hands_list_opens_the_replay(tmp_path, chrome):
    """The dashboard's hands list (hall/web/index.html) links each hand the hall holds the events of; the
    replay there is the table's, built from the hall's messages."""
    import asyncio
    import threading

    from aiohttp import web

    from controller.web.replay_routes import add_hall_routes
    from hall.db import HallDB
    from hall.messages import OutboxMessage

    with demo_table(tmp_path, profile="basic", pace=0.0) as url:
        page = chrome.new_page()
        try:
            page.goto(url + "/?lang=en")
            page.wait_for_selector("#history a.replay", timeout=180000)
            hand = page.get_attribute("#history a.replay", "href").rsplit("/", 1)[1]
            table_steps = page.evaluate(f"fetch('/api/replay/{hand}').then(r => r.json())")["steps"]
        finally:
            page.close()
    st = EventStore(tmp_path / "events.sqlite")
    try:
        rows = [(s.hand_id, s.seq, s.event.to_json()) for s in st.iter_events() if s.hand_id.startswith(hand + "/")]
        result = st.result(hand)
    finally:
        st.close()
    db = HallDB(tmp_path / "hall.sqlite")
    with db.tx() as c:
        for i, (stream, seq, ev) in enumerate(rows):
            db.ingest(c, "t1", OutboxMessage(hand, i, "event", {"stream": stream, "seq": seq, "event": ev}, 0.0), 1.0)
        db.ingest(c, "t1", OutboxMessage(hand, len(rows), "result", {"profile": "basic", "result": result,
                                                                     "session": 1, "players": []}, 0.0), 1.0)
    index = (ROOT / "hall" / "web" / "index.html").read_text(encoding="utf-8")

    async def home(request):
        return web.Response(text=index, content_type="text/html")

    app = web.Application()
    app.router.add_get("/", home)
    add_hall_routes(app, db)
    loop = asyncio.new_event_loop()
    threading.Thread(target=loop.run_forever, daemon=True).start()
    runner = web.AppRunner(app)

    async def start():
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", 0).start()
        return runner.addresses[0][1]

    port = asyncio.run_coroutine_threadsafe(start(), loop).result(10)
    page = chrome.new_page()
    try:
        page.goto(f"http://127.0.0.1:{port}/?lang=ru")
        page.click(f"#hands tr[data-hand='{hand}'] a.replay", timeout=30000)
        page.wait_for_selector("body[data-ready]")
        assert page.url.split("?")[0].endswith(f"/replay/t1/{hand}")
        n = len(table_steps)
        assert page.inner_text("#pos") == f"1 / {n}" and page.inner_text("#next") == "Вперёд ▶"
        page.keyboard.press("End")
        assert page.inner_text("#pos") == f"{n} / {n}"
        assert page.evaluate(f"fetch('/api/replay/t1/{hand}').then(r => r.json())")["steps"] == table_steps
    finally:
        page.close()
        asyncio.run_coroutine_threadsafe(runner.cleanup(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        db.close()
