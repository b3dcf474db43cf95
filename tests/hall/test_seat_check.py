"""The seat check at the table (issue #32 part 4): before a hall session's first hand the overhead camera
reads the badges, the table compares them with the hall's seating; a mismatch is shown on the table's page
(both languages) and sent to the hall's dashboard, and holds the first hand until the judge overrides (in the
judge stream, with who and why), the players move (read again) or the hall's corrected seating matches."""
from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from types import SimpleNamespace

import pytest
from gpiozero.pins.mock import MockFactory

from controller import config
from controller.backends.gpio_direct import GpioBackend, GpioTableSim
from controller.event_store import EventStore
from controller.hall_link.link import HallLink, LinkConfig
from controller.hall_link.seat_check import check_frame, render_badges
from controller.play_sources import BotPlay
from controller.service import TableService
from controller.table_cycle import TableCycle
from controller.web.judge import ACTIONS, Judge
from controller.web.live import LiveTable
from hall.db import HallDB
from hall.messages import Command
from hall.service import HallService
from hall.web import seat_checks
from tests.hall.conftest import wait_for
from vision.calibration import calibrate

SEATING = ["a", "b", "c", "d"]
SWAPPED = {0: "a", 1: "c", 2: "b", 3: "d"}


def test_the_camera_calibration_puts_each_badge_at_its_seat_where_the_frame_sides_do_not():
    """A camera mounted turned 35° about the table's centre: the frame's nearest side puts two badges at the
    bottom and none at the top or left; the table's markers (the calibration) put each at its seat."""
    frame = render_badges(dict(enumerate(SEATING)), seed=1, turn_deg=35, px_per_mm=0.85)
    assert check_frame(frame, SEATING).found == ("a", "b", None, None)
    right = check_frame(frame, SEATING, calibrate(frame))
    assert right.ok and right.found == tuple(SEATING)
    swapped = render_badges(SWAPPED, seed=2)
    c = check_frame(swapped, SEATING, calibrate(swapped))
    assert c.found == ("a", "c", "b", "d") and not c.ok
    assert c.problems() == ["seat 1: c sits here (seated at seat 2); expected b",
                            "seat 2: b sits here (seated at seat 1); expected c"]


def _link(tmp_path, name="t.sqlite") -> HallLink:
    link = HallLink(LinkConfig("mqtt://127.0.0.1:1", "h1", "t7"), tmp_path / name, seat_check=True, profile="basic")
    return link


def _session(link: HallLink, players=SEATING) -> None:
    cmd = Command("c1", "session_start", {"session": 1, "players": list(players), "ends_at": 4e9})
    link.outbox.record_command(cmd.id, cmd.kind, cmd.body)
    link._apply(cmd)


def test_a_mismatch_holds_the_first_hand_until_the_judge_overrides_and_a_restart_remembers(tmp_path):
    link = _link(tmp_path)
    _session(link)
    assert link.seat_check_due() and not link.may_start_hand()  # not read yet: no hand before the check
    frame = render_badges(SWAPPED, seed=3)
    s = link.record_seats(check_frame(frame, SEATING, calibrate(frame)), calibrated=True)
    assert s.status == "mismatch" and s.calibrated
    st = link.session_state()
    assert not st.may_start and st.reason == "seat_check"
    assert "seat 1: c sits here (seated at seat 2); expected b" in st.text_en
    assert "место 1: сидит c (его место 2); должен сидеть b" in st.text_ru
    assert link.view()["seat_check"]["found"] == ["a", "c", "b", "d"]
    assert link.seat_check_due()  # the next START reads again
    done = link.override_seats("Judge Ivanov", "they keep these seats")
    assert done.status == "overridden" and link.may_start_hand() and not link.seat_check_due()
    with pytest.raises(ValueError):
        link.override_seats("Judge Ivanov", "again")
    sent = [(h, k) for h, _, k, _ in link.outbox.messages()]
    assert sent == [("seatcheck-s1", "seat_check")] * 2  # the mismatch, then the override, for the hall
    bodies = [m.body for m in link.outbox.due(0.0)]
    assert [b["status"] for b in bodies] == ["mismatch", "overridden"] and bodies[1]["judge"] == "Judge Ivanov"
    link.outbox.close()
    again = _link(tmp_path)  # a restarted table: the session's check is remembered, not read again
    assert again.seats.status == "overridden" and again.may_start_hand() and not again.seat_check_due()
    again.outbox.close()


def test_the_halls_corrected_seating_releases_the_first_hand_and_a_re_read_as_seated_does_too(tmp_path):
    link = _link(tmp_path)
    _session(link)
    frame = render_badges(SWAPPED, seed=4)
    link.record_seats(check_frame(frame, SEATING, calibrate(frame)))
    assert not link.may_start_hand()
    # the director seats them as they sit: the hall's seating command for the running session
    link._apply(Command("c2", "seating", {"session": 1, "players": ["a", "c", "b", "d"], "now": True}))
    assert link.seats.status == "ok" and link.may_start_hand()
    other = _link(tmp_path, "u.sqlite")
    _session(other)
    other.record_seats(check_frame(frame, SEATING, calibrate(frame)))
    assert not other.may_start_hand()
    moved = render_badges(dict(enumerate(SEATING)), seed=5)
    assert other.record_seats(check_frame(moved, SEATING, calibrate(moved))).status == "ok"
    assert other.may_start_hand()
    link.outbox.close()
    other.outbox.close()


def test_without_the_seat_check_nothing_is_read_or_held(tmp_path):
    link = HallLink(LinkConfig("mqtt://127.0.0.1:1", "h1", "t7"), tmp_path / "t.sqlite", profile="basic")
    _session(link)
    assert not link.seat_check_due() and link.may_start_hand() and link.view()["seat_check"] is None
    link.outbox.close()


class _BadgeCamera:
    """The overhead camera at session start: the players' badges as they sit (seats 1 and 2 swapped)."""

    calibration = None

    def __init__(self, at_seat: dict[int, str]):
        self.frame = render_badges(at_seat, seed=6)
        self.reads = 0

    def next_frame(self):
        self.reads += 1
        return SimpleNamespace(image=self.frame)

    def close(self) -> None:
        pass


def test_the_table_service_holds_the_first_hand_shows_it_and_the_hall_records_it_until_the_judge_overrides(
        broker, tmp_path):
    db = HallDB(tmp_path / "hall.sqlite")
    hall = HallService(db, broker.url, "h1").start()
    assert hall.wait_connected()
    cfg = config.defaults().with_overrides(table__profile="basic", table__id="t7", hall__address=broker.url,
                                           hall__id="h1", hall__resend_s=1.0, hall__seat_check=True)
    f = MockFactory()
    sim = GpioTableSim(f, time_scale=400.0, tile_count=136).start()
    store = EventStore(tmp_path / "events.sqlite")
    cam = _BadgeCamera(SWAPPED)
    svc = TableService(cfg, GpioBackend(f, time_scale=400.0), store, auto=False, play=BotPlay(event_delay=0),
                       camera_factory=lambda _svc: cam)
    seen = {}

    async def scenario():
        stop = asyncio.Event()
        task = asyncio.create_task(svc.run(stop))
        while svc.hall is None or not svc.hall.connected:
            await asyncio.sleep(0.02)
        hall.send_command("t7", "session_start", {"session": 1, "players": SEATING, "ends_at": 4e9})
        while svc.hall.context().get("session") != 1:
            await asyncio.sleep(0.02)
        svc.trigger("start")
        while cam.reads == 0 or svc.hall.seats.status == "":
            await asyncio.sleep(0.02)
        await asyncio.sleep(0.3)
        seen["state"] = str(svc.machine.state)  # START did not start a hand
        seen["hands"] = svc.hand_id, len(store.results())
        seen["page"] = LiveTable(svc).public_state()["session"]  # what the table's page shows
        seen["hall_view"] = svc.snapshot().hall["seat_check"]
        while not seat_checks(db, 1).get("t7"):
            await asyncio.sleep(0.05)
        seen["hall"] = seat_checks(db, 1)["t7"]
        seen["override"] = ACTIONS["override_seat_check"].run(svc, Judge("Judge Ivanov", "127.0.0.1"),
                                                              {"reason": "they keep these seats"})
        await svc.writer.flush()
        svc.trigger("start")
        while not svc.hand_id:
            await asyncio.sleep(0.02)
        seen["started"] = svc.hall.context_for(svc.hand_id)
        stop.set()
        await task

    try:
        asyncio.run(asyncio.wait_for(scenario(), 90))
    finally:
        sim.stop()
    assert seen["state"] == "idle" and seen["hands"] == ("", 0)
    page = seen["page"]
    assert page["reason"] == "seat_check" and not page["may_start"]
    assert "seat 2: b sits here (seated at seat 1); expected c" in page["text_en"]
    assert "место 2: сидит b (его место 1); должен сидеть c" in page["text_ru"]
    assert seen["hall_view"]["calibrated"]  # the seats were told by the table's markers
    assert seen["hall"]["status"] == "mismatch" and seen["hall"]["found"] == ["a", "c", "b", "d"]
    assert seen["override"]["seat_check"]["status"] == "overridden"
    # the first hand started only after the override, with the session's players
    assert seen["started"]["session"] == 1 and seen["started"]["players"] == SEATING
    audit = [e for e in store.events("t7/judge") if e.TYPE == "judge_action" and e.action == "override_seat_check"]
    assert len(audit) == 1 and audit[0].judge == "Judge Ivanov" and audit[0].detail["reason"] == "they keep these seats"
    assert list(audit[0].detail["found"]) == ["a", "c", "b", "d"]
    wait_for(lambda: seat_checks(db, 1).get("t7", {}).get("status") == "overridden", what="the override at the hall")
    rows = db.q("SELECT body FROM messages WHERE table_id='t7' AND kind='seat_check' ORDER BY seq")
    assert [json.loads(b)["status"] for (b,) in rows] == ["mismatch", "overridden"]
    hall.stop()


def test_hall_simulate_seat_check_finds_the_swapped_seats_and_their_release():
    out = subprocess.run([sys.executable, "-m", "controller", "hall", "simulate", "--tables", "2", "--sessions", "2",
                          "--profile", "basic", "--seed", "3", "--max-hands", "1", "--seat-check"],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    lines = [ln for ln in out.stderr.splitlines() if ln.startswith("seat check: ")]
    assert len(lines) == 4  # every table, every session
    assert any(ln.startswith("seat check: table-01 session 1: seat 1: ") and ln.endswith("overridden by the judge")
               for ln in lines)
    assert any(ln.startswith("seat check: table-02 session 1: seat 1: ")
               and ln.endswith("the players moved; read again: ok") for ln in lines)
    assert "seat check: table-01 session 2: as seated" in lines
    assert out.stdout.splitlines()[-1] == "results: sent 4, ingested 4, lost 0, duplicated 0"


def test_a_camera_that_fails_holds_the_first_hand_as_unreadable_and_the_judge_may_override(tmp_path):
    """The seat check's camera path failing (no frame, or a bug in it) never takes the table down: the check
    is 'unreadable', the first hand waits, the page says why in both languages, the judge may override."""
    from controller.table_camera import CameraError

    class Broken:
        calibration = None

        def __init__(self, exc):
            self.exc = exc

        def next_frame(self):
            raise self.exc

    for exc, why in ((CameraError("camera sim gave no frame"), "camera sim gave no frame"),
                     (ValueError("boom"), "internal error in the camera path: boom")):
        link = _link(tmp_path, f"{type(exc).__name__}.sqlite")
        _session(link)

        cam = Broken(exc)

        async def opened(cam=cam):
            return cam

        table = SimpleNamespace(hall=link, devices=SimpleNamespace(open_camera=opened), note=lambda _t: None)
        seats = asyncio.run(TableCycle(table).check_seats())
        assert seats.status == "unreadable" and seats.reason == why
        st = link.session_state()
        assert not st.may_start and st.reason == "seat_check" and why in st.text_en and why in st.text_ru
        assert link.override_seats("J", "badges forgotten").status == "overridden" and link.may_start_hand()
        link.outbox.close()
