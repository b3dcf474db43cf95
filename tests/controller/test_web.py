"""The table's web page: state JSON, the buttons, the HTML page."""
from __future__ import annotations

import asyncio
import json

from controller.table_machine import S
from controller.web import WebServer
from tests.controller.test_service import make


async def http(port: int, method: str, path: str) -> tuple[int, str]:
    r, w = await asyncio.open_connection("127.0.0.1", port)
    w.write(f"{method} {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    await w.drain()
    data = await r.read()
    w.close()
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split()[1]), body.decode()


def test_page_state_and_buttons(tmp_path):
    svc, sim, store = make(tmp_path, auto=False)

    async def scenario():
        stop = asyncio.Event()
        task = asyncio.create_task(svc.run(stop))
        web = WebServer(svc, "127.0.0.1", 0)
        port = await web.start()
        while svc._triggers is None:
            await asyncio.sleep(0.01)
        code, body = await http(port, "GET", "/api/state")
        state = json.loads(body)
        assert code == 200 and state["state"] == "idle" and state["table"] == "t7"
        code, body = await http(port, "POST", "/api/press/start")
        assert code == 200
        while svc.machine.state is not S.DEALING:
            await asyncio.sleep(0.01)
        state = json.loads((await http(port, "GET", "/api/state"))[1])
        assert state["state"] == "dealing" and len(state["dice"]) == 1 and state["hand_id"] == "t7-00001"
        assert state["shuffle"]["built"] == state["shuffle"]["target"]
        code, page = await http(port, "GET", "/")
        assert code == 200 and "<html" in page and "Перемешивание" in page
        assert (await http(port, "GET", "/api/press/start"))[0] == 405
        assert (await http(port, "POST", "/api/press/explode"))[0] == 404
        assert (await http(port, "GET", "/nope"))[0] == 404
        await web.close()
        stop.set()
        await task

    try:
        asyncio.run(asyncio.wait_for(scenario(), 30))
    finally:
        sim.stop()
