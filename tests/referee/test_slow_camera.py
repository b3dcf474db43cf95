"""The live referee with a camera read slower than the buttons are pressed (issue 29: a Pi-class CPU): a
call button waits for the frames the camera took before it, and the feed never idles behind a slow read."""
from __future__ import annotations

import asyncio
import time
from types import SimpleNamespace

import pytest

from controller.referee import feed as feed_mod
from controller.referee import session as session_mod
from controller.referee.session import RefereeSession
from rules.events import ButtonPressed, PondTileSeen


def _session() -> RefereeSession:
    svc = SimpleNamespace(cfg={"referee.claim_wait_s": 0, "referee.reveal_wait_s": 4.0}, profile="mcr")
    return RefereeSession(svc, "t1-00001")


def _press(t: float, seat: int = 0) -> ButtonPressed:
    return ButtonPressed(button="call", seat=seat, call="chow", t_mono=t, t_wall=t)


def _queued(s: RefereeSession) -> list:
    out = []
    while not s.queue.empty():
        out.append(s.queue.get_nowait())
    return out


def test_a_button_waits_for_the_frames_taken_before_it():
    s = _session()
    b0 = _press(1.0)
    s.button(b0)  # no camera feed reading: straight to the referee
    assert _queued(s) == [b0]
    s.caught_up(10.0)  # the feed has read the frame taken at 10.0
    b1, b2 = _press(10.5, 0), _press(10.7, 1)
    s.button(b1)
    s.button(b2)
    assert _queued(s) == []  # the discard a call claims may be in the frame being read
    s.caught_up(10.6)
    assert _queued(s) == [b1]
    s.caught_up(10.8, settled=False)  # the frame after the press shows a tile not yet confirmed: it waits on
    assert _queued(s) == []
    s.put(PondTileSeen(frame=7, seat=3, index=0, tile="6p", sideways=False, t_mono=10.65, t_wall=10.65))
    s.caught_up(10.9)
    q = _queued(s)
    assert [e.TYPE for e in q] == ["pond_tile_seen", "button_pressed"] and q[1] is b2
    b3 = _press(9.0)  # pressed before the last frame read: nothing to wait for
    s.button(b3)
    assert _queued(s) == [b3]
    b4 = _press(11.0)
    s.button(b4)
    s.caught_up(None)  # the camera gives no frame: nothing waits for it
    assert _queued(s) == [b4]


def test_a_held_button_goes_on_after_hold_max_s(monkeypatch):
    s = _session()
    s.caught_up(10.0)
    b = _press(12.0)
    s.button(b)
    s._release_stale()
    assert _queued(s) == []
    later = time.monotonic() + session_mod.HOLD_MAX_S
    monkeypatch.setattr(session_mod.time, "monotonic", lambda: later)
    s._release_stale()
    assert _queued(s) == [b]


def test_the_feed_reads_the_next_frame_at_once_after_a_read_longer_than_a_frame_interval(monkeypatch):
    """A read slower than the camera (a Pi 4): no extra wait of a frame interval on top of it."""
    frames = iter(range(1, 100))
    slept: list[float] = []
    real_sleep = asyncio.sleep

    class Cam:
        calibration = object()

        def sync(self):
            pass

        def next_frame(self):
            k = next(frames)
            return SimpleNamespace(image=None, t_mono=float(k), t_wall=float(k))

    class Reader:
        def __init__(self, *a, **k):
            self.pipe = SimpleNamespace(scene=1, tracker=SimpleNamespace(stable=1))

        def process(self, image, t_mono, t_wall):
            time.sleep(0.15)  # 1.5 frame intervals at 10 fps
            return []

        def set_reader(self):  # no enrolled set behind it: no set learning, no set watch
            return None

        def set_check(self):
            return None

    done = asyncio.Event()

    class Session:
        referee = SimpleNamespace(game_log=[])
        read: list[float] = []

        def __init__(self):
            async def open_camera():
                return Cam()
            self.svc = SimpleNamespace(open_camera=open_camera, profile="mcr", players=4, note=lambda m: None,
                                       cfg={"camera.styles": ["classic"], "referee.min_score": 0.5})

        def put(self, ev):
            pass

        def caught_up(self, t, settled=True):
            self.read.append(t)
            if len(self.read) >= 3:
                done.set()

    async def sleep(d):
        slept.append(d)
        await real_sleep(0)

    monkeypatch.setattr(feed_mod, "CameraReader", Reader)
    monkeypatch.setattr(feed_mod.asyncio, "sleep", sleep)
    sess = Session()

    async def main():
        task = asyncio.create_task(feed_mod.CameraFeed(fps=10.0).run(sess))
        await asyncio.wait_for(done.wait(), 10)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(main())
    assert sess.read[:3] == [1.0, 2.0, 3.0]  # the session told how far the camera has been read
    assert slept and max(slept[:2]) == 0.0  # (it slept a whole 0.1 s after every read)
