"""The camera view: a frame of the (simulated) table with every recognised tile outlined and labelled as
the vision pipeline read it, read only while a page watches, served as a JPEG."""
from __future__ import annotations

import asyncio
import json
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
