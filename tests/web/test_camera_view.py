"""The camera view: a frame of the (simulated) table with every recognised tile outlined and labelled as
the vision pipeline read it, read only while a page watches, served as a JPEG."""
from __future__ import annotations

import asyncio
import json
import time
from collections import Counter

from controller.play_sources import BotPlay
from controller.table_machine import S
from tests.web.helpers import client, run, served


def test_camera_view_outlines_what_the_pipeline_read(tmp_path):
    async def scenario():
        async with served(tmp_path, play=BotPlay(event_delay=0), web__camera_interval_s=0.2) as t, client() as http:
            svc, cam = t.svc, t.web.table.camera
            for state in (S.IDLE, S.DEALING):  # START, then START when the tiles are taken
                while svc.machine.state is not state:
                    await asyncio.sleep(0.02)
                while svc.machine.state is state:  # a press before the service waits for it is not kept
                    svc.press("start")
                    await asyncio.sleep(0.2)
            while svc.machine.state is not S.SCORING:  # the result waits for START: the table stands still
                await asyncio.sleep(0.02)
            assert cam.frame is None, "no page watches: no frame is read"
            async with http.ws_connect(t.url.replace("http", "ws") + "/ws", origin=t.origin) as ws:
                await ws.send_str(json.dumps({"camera": True}))
                frame = None
                async for msg in ws:
                    c = json.loads(msg.data)["public"]["camera"]
                    if c["frame"] is not None:
                        frame = c
                        break
            hand = t.web.table.live.public_state()["hand"]
            async with http.get(t.url + "/api/camera.jpg") as r:
                jpeg = await r.read()
                assert r.status == 200 and r.content_type == "image/jpeg" and jpeg[:2] == b"\xff\xd8"
            return frame, hand

    frame, hand = run(scenario(), timeout=240)
    assert frame["width"] == 640 and frame["height"] > 0 and not frame["error"]
    tiles = frame["tiles"]
    assert tiles and all(len(t["poly"]) == 4 and all(0 <= x <= 1 and 0 <= y <= 1 for x, y in t["poly"]) for t in tiles)
    for seat in hand["seats"]:  # each pond as the camera read it: the same tiles the record puts there
        read = Counter(t["label"] for t in tiles if t["zone"] == f"pond{seat['seat']}")
        want = Counter(p["tile"] for p in seat["pond"])
        assert sum((read & want).values()) >= 0.9 * sum(want.values()), (seat["seat"], read, want)


# ---- the enrollment grid over the camera view ----------------------------------------------------------------

class _LayoutCamera:
    """A table camera whose frames show a layout page laid in the table's centre (rendered, with a pipeline
    reading of nothing): what the judge's page shows during enrollment."""

    def __init__(self, frame):
        from vision.calibration import calibrate

        self.frame, self.cal = frame, calibrate(frame)

    def sync(self) -> None:
        pass

    def look(self):
        from types import SimpleNamespace

        return self.frame, SimpleNamespace(info=None), self.cal, 1.2


class _LayoutService:
    def __init__(self, frame):
        self.cam = _LayoutCamera(frame)

    async def open_camera(self):
        return self.cam


def _page_with_faults():
    """Page 1 laid by the guide but every 3m missing and two 8p piled in one cell."""
    from vision.scene_render import render_laid_out
    from vision.whole_set import Grid, page

    g = Grid.centred(page(1))
    tiles = []
    for r, c, lab in page(1).cells():
        x, y = g.centre(r, c)
        if lab == "3m":
            continue
        if (r, c) == (6, 7):
            tiles += [(lab, x - 6, y - 8, 0.0), (lab, x + 6, y + 8, 0.0)]
        else:
            tiles.append((lab, x, y, 0.0))
    return render_laid_out("kai", tiles, seed=21)[0]


def test_the_grid_marks_each_cell_filled_empty_or_doubtful():
    from controller.web.camera_view import CameraView

    async def scenario():
        view = CameraView(_LayoutService(_page_with_faults()), 1.0)
        view.set_layout(1)
        f = await view.grab()
        view.set_layout(None)
        g = await view.grab()
        return f, g, view

    f, g, view = run(scenario(), timeout=120)
    lay = f.layout
    assert lay["page"] == 1 and lay["title"] == "characters and dots" and lay["n"] == 72 and f.tiles == []
    states = {(c["label"], c["state"]) for c in lay["cells"]}
    assert ("3m", "empty") in states and ("3m", "filled") not in states and ("8p", "doubtful") in states
    assert lay["empty"] == ["3m"] and lay["filled"] == 72 - 4 - sum(c["state"] == "doubtful" for c in lay["cells"])
    assert {d["label"] for d in lay["doubtful"]} <= {"8p", "7p", "9p"} and "8p" in {d["label"] for d in lay["doubtful"]}
    assert all(len(c["poly"]) == 4 and all(0 < x < 1 and 0 < y < 1 for x, y in c["poly"]) for c in lay["cells"])
    assert g.layout is None and view.status()["camera"]["layout"] is None  # the grid off: the tiles read again
    for bad in (4, -1):
        try:
            view.set_layout(bad)
        except ValueError:
            continue
        raise AssertionError(f"page {bad} accepted")


def test_the_judges_page_asks_for_the_grid_over_the_websocket_and_gives_it_back_when_it_closes(tmp_path):
    async def scenario():
        async with served(tmp_path, web__camera_interval_s=0.2) as t, client() as http:
            cam = t.web.table.camera
            cam.svc = _LayoutService(_page_with_faults())
            url = t.url.replace("http", "ws") + "/ws"
            async with http.ws_connect(url, origin=t.origin) as public:  # a viewer may not choose it
                await public.send_str(json.dumps({"camera": True, "layout": 1}))
                await asyncio.sleep(0.5)
                public_chose = cam.layout_page
            await t.login(http)
            async with http.ws_connect(url, origin=t.origin) as ws:
                await ws.send_str(json.dumps({"camera": True, "layout": "2"}))  # not a page number: ignored
                await ws.send_str(json.dumps({"layout": 9}))  # no such page: ignored
                await ws.send_str(json.dumps({"layout": 1}))
                layout = None
                async for msg in ws:
                    c = json.loads(msg.data)["public"]["camera"]
                    if c["layout"] is not None:
                        layout = c["layout"]
                        break
                chosen = cam.layout_page
            while cam.layout_page is not None:  # the page closed: the grid is given back
                await asyncio.sleep(0.02)
            return layout, chosen, public_chose

    layout, chosen, public_chose = run(scenario(), timeout=180)
    assert public_chose is None and chosen == 1 and layout["page"] == 1 and layout["empty"] == ["3m"]


def test_the_judge_checks_the_set_the_pages_seen_hold(tmp_path):
    """Pages 1 (every 3m missing) and 2 shown under the grid; the judge's check enrolls their crops: 3m named
    missing, in both languages. A public page's request is ignored; no page 2 seen: the check says so."""
    from vision.whole_set import render_page

    page2 = _LayoutCamera(render_page("kai", 2, seed=22)[0])
    svc = _LayoutService(_page_with_faults())

    async def scenario():
        async with served(tmp_path, web__camera_interval_s=0.2) as t, client() as http:
            cam = t.web.table.camera
            cam.svc = svc
            url = t.url.replace("http", "ws") + "/ws"
            async with http.ws_connect(url, origin=t.origin) as public:
                await public.send_str(json.dumps({"camera": True, "layout": 1, "layout_check": True}))
                await asyncio.sleep(0.8)
                public_asked = cam.layout_check, cam.layout_page
            await t.login(http)
            async with http.ws_connect(url, origin=t.origin) as ws:
                await ws.send_str(json.dumps({"camera": True, "layout": 1}))
                while cam.layout_seen.get(1) is None:
                    await asyncio.sleep(0.05)
                await ws.send_str(json.dumps({"layout_check": True}))
                while cam.layout_check is None or cam.layout_check.get("running"):
                    await asyncio.sleep(0.1)
                one_page = cam.layout_check
                await ws.send_str(json.dumps({"layout": 2}))
                while cam.layout_page != 2:
                    await asyncio.sleep(0.02)
                svc.cam = page2  # page 2's tiles laid under its grid
                laid = time.monotonic()
                while cam.layout_seen.get(2) is None or cam._seen_at[2] < laid + 0.5:  # a frame of them read
                    await asyncio.sleep(0.05)
                await ws.send_str(json.dumps({"layout_check": True}))
                await asyncio.sleep(0.1)
                while cam.layout_check is None or cam.layout_check.get("running"):
                    await asyncio.sleep(0.1)
                both = cam.layout_check
                pushed = None
                async for msg in ws:  # the page is told
                    c = json.loads(msg.data)["public"]["camera"]
                    if c["layout_check"] and c["layout_check"].get("pages_missing") == []:
                        pushed = c["layout_check"]
                        break
            return public_asked, one_page, both, pushed

    public_asked, one_page, both, pushed = run(scenario(), timeout=240)
    assert public_asked == (None, None)  # only the judge's page may spend the table's CPU on a check
    assert one_page["pages_missing"] == [2] and "1s" in one_page["missing"]
    assert both["pages_missing"] == [] and both["missing"] == ["3m"] and both == pushed
    assert both["lines"][0].startswith("missing: 3m") and both["lines_ru"][0].startswith("нет костей: 3m")
