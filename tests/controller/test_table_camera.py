"""The table camera in the service: physical dice read from the rendered frame, and the re-read of the table
after a restart (match → resume; a tile moved while the service was down → stays paused, differences shown).

The simulated camera renders the *physical* table of the emulated rig: the dice the twin's dice motor left
(seeded, never told to the service) and the tiles of the game record; the service sees only frames.
"""
from __future__ import annotations

import asyncio

from gpiozero.pins.mock import MockFactory

from controller import config
from controller.backends.gpio_direct import GpioBackend, GpioTableSim
from controller.event_store import EventStore
from controller.play_sources import BotPlay
from controller.service import TableService
from controller.table_camera import (
    SEAT_NAMES,
    describe,
    differences,
    move_pond_tile,
    open_table_camera,
    unread_tiles,
)
from controller.table_machine import S
from rules.events import DiceRolled, TableReconciled, TableStateChanged
from vision.scene_model import MeldView, PondTile, Scene, SeatView

SCALE = 400.0


class Rig:
    """Service + GPIO twin on mock pins + simulated camera; ``moves`` are applied to the simulated table."""

    def __init__(self, tmp_path, profile="basic", dice="electronic", auto=True, seed=0, moves=(), play=None):
        self.cfg = config.defaults().with_overrides(table__profile=profile, table__id="t9", table__dice=dice,
                                                    camera__dice_settle_s=0)
        f = MockFactory()
        tiles = {"basic": 136, "mcr": 144}[profile]
        self.sim = GpioTableSim(f, time_scale=SCALE, tile_count=tiles, seed=seed).start()
        be = GpioBackend(f, time_scale=SCALE)
        be.twin = self.sim
        self.store = EventStore(tmp_path / "events.sqlite")
        self.moves = list(moves)
        self.reads = 0

        def factory(svc):
            cam = open_table_camera(svc.cfg, backend=svc.backend, record=svc.table_record)
            cam.world.moves.extend(self.moves)
            cam.dice_tries = 3
            return cam

        self.svc = TableService(self.cfg, be, self.store, auto=auto, play=play, camera_factory=factory)

    def close(self):
        self.sim.stop()
        self.store.close()


async def until(cond, timeout=40.0):
    end = asyncio.get_running_loop().time() + timeout
    while not cond():
        assert asyncio.get_running_loop().time() < end, "timed out"
        await asyncio.sleep(0.01)


def run(rig, scenario, timeout=60.0):
    async def main():
        stop = asyncio.Event()
        task = asyncio.create_task(rig.svc.run(stop))
        await until(lambda: rig.svc._triggers is not None)
        try:
            await scenario(rig.svc)
        finally:
            stop.set()
            await task

    asyncio.run(asyncio.wait_for(main(), timeout))


# --- comparing (pure) ---------------------------------------------------------------------------------------

def test_differences_name_seat_zone_expected_and_seen():
    a = Scene("basic", (SeatView(pond=(PondTile("1m"), PondTile("9p")), standing=13), SeatView(standing=13),
                        SeatView(melds=(MeldView("pung", ("5s", "5s", "5s"), 1, "opposite"),), standing=10),
                        SeatView(standing=13)))
    assert differences(a, a) == []
    b = move_pond_tile(0, 1)(a)
    d = differences(a, b)
    assert [(x["seat"], x["zone"]) for x in d] == [(0, "pond"), (1, "pond")]
    assert d[0]["expected"] == "1m 9p" and d[0]["seen"] == "1m" and d[1]["seen"] == "9p"
    assert describe(d).startswith("East pond: expected 1m 9p, seen 1m; South pond: expected empty, seen 9p")
    c = a.with_seat(2, SeatView(melds=(MeldView("pung", ("5s", "5s", "5s"), 0, "left"),), standing=9))
    assert [(x["zone"], x["expected"], x["seen"]) for x in differences(a, c)] == [
        ("melds", "pung 5s5s5s from opposite", "pung 5s5s5s from left"), ("standing", "10 tiles", "9 tiles")]


def test_a_tile_the_camera_could_not_read_is_no_difference():
    """After a restart the re-read holds the table only where the camera contradicts the record: a tile read
    ``unknown`` agrees with any tile in its place (test-long: a demo table stayed paused for ever on
    'North revealed: expected ... 5p 5p 5p 5m, seen ... 5p 5p unknown 5m'); a tile more, less or other is
    still a difference."""
    a = Scene("basic", (SeatView(pond=(PondTile("1m"), PondTile("9p")), standing=13),
                        SeatView(revealed=("3m", "3m", "5p", "5p", "5p")),
                        SeatView(melds=(MeldView("pung", ("5s", "5s", "5s"), 1, "opposite"),), standing=10),
                        SeatView(standing=13)))
    seen = a.with_seat(1, SeatView(revealed=("3m", "3m", "5p", "unknown", "5p")))
    seen = seen.with_seat(0, SeatView(pond=(PondTile("unknown"), PondTile("9p")), standing=13))
    seen = seen.with_seat(2, SeatView(melds=(MeldView("pung", ("5s", "unknown", "5s"), 1, "opposite"),), standing=10))
    assert differences(a, seen) == [] and unread_tiles(seen) == 3 and unread_tiles(a) == 0
    short = a.with_seat(1, SeatView(revealed=("3m", "3m", "5p", "unknown")))
    other = a.with_seat(1, SeatView(revealed=("3m", "3m", "5p", "unknown", "6p")))
    assert [d["zone"] for d in differences(a, short)] == ["revealed"]
    assert [d["zone"] for d in differences(a, other)] == ["revealed"]


def test_camera_config_keys_are_checked():
    problems = config._validate({"camera.styles": ["classic", "nope"], "camera.dice_settle_s": -1,
                                 "camera.reconcile": "yes", "table.dice_pulse_ms": 0})
    assert len(problems) == 4
    assert any("camera.styles" in p and "'nope'" in p and "classic" in p for p in problems)
    assert any(p.startswith("camera.reconcile") for p in problems)


def test_a_live_camera_is_asked_for_the_configured_frame_size(monkeypatch):
    import vision.camera

    opened = []

    class FakeCamera:
        def __init__(self, spec, size=(0, 0), clock=None):
            opened.append((spec, size))

    monkeypatch.setattr(vision.camera, "CvCamera", FakeCamera)
    cfg = config.defaults().with_overrides(camera__source="cam:3", camera__width=1280, camera__height=720)
    open_table_camera(cfg)
    assert opened == [(3, (1280, 720))]


# --- physical dice ------------------------------------------------------------------------------------------

def test_physical_dice_are_read_by_the_camera(tmp_path):
    rig = Rig(tmp_path, profile="mcr", dice="physical", seed=5)  # MCR: two throws

    async def scenario(svc):
        await until(lambda: svc.hands_played() >= 1)

    try:
        run(rig, scenario)
        dice = [e for e in rig.store.events("t9-00001") if isinstance(e, DiceRolled)]
        assert [(d.purpose, d.source) for d in dice] == [("break", "camera"), ("break2", "camera")]
        assert sorted(dice[-1].values) == sorted(rig.sim.dice_values)  # the twin's dice, learnt from the frame
        assert all(1 <= v <= 6 for d in dice for v in d.values)
        assert rig.store.results()[0][1]["dice"] == [list(d.values) for d in dice]
    finally:
        rig.close()


def test_unreadable_dice_fault_then_roll_again(tmp_path):
    covered = [True]

    def cover_dice(sc: Scene) -> Scene:  # a cocked die / a hand over the dome: no dice in view
        return Scene(sc.profile, sc.seats, ()) if covered[0] else sc

    rig = Rig(tmp_path, dice="physical", auto=False, moves=[cover_dice])

    async def scenario(svc):
        svc.press("start")
        await until(lambda: svc.machine.state is S.FAULT)
        assert "dice not readable" in svc.machine.prompt and "roll again" in svc.machine.prompt
        assert svc.machine.resume_to is S.DICE
        covered[0] = False
        svc.press("start")  # retry: pulse the motor again, read again
        await until(lambda: svc.machine.state is S.DEALING)

    try:
        run(rig, scenario)
        evs = rig.store.events("t9-00001")
        assert [(e.code, e.part) for e in evs if e.TYPE == "device_fault"] == [("dice_unreadable", "dice")]
        dice = [e for e in evs if isinstance(e, DiceRolled)]
        assert len(dice) == 1 and dice[0].source == "camera"
    finally:
        rig.close()


# --- the re-read after a restart ----------------------------------------------------------------------------

def _down_in_play(tmp_path, events_before_stop=25) -> str:
    """A first service that goes down in the middle of play, with tiles in the ponds; the hand it was in (a
    short first hand may end before it goes down: then it is the next one)."""
    rig = Rig(tmp_path, play=BotPlay(event_delay=0.05))  # the hand lasts a few seconds: it is down in play
    down_in: list[str] = []

    async def scenario(svc):
        await until(lambda: svc.machine.state is S.PLAY and rig.store.count(f"{svc.hand_id}/game") >= events_before_stop)
        down_in.append(svc.hand_id)

    try:
        run(rig, scenario)
    finally:
        rig.close()
    return down_in[0]


def _moved_across(sc: Scene) -> Scene:
    """The last discard of the first seat (from East) with one pushed into the opposite seat's pond while
    nobody watched (East's discards may all have been claimed when the service went down)."""
    seat = next((i for i, v in enumerate(sc.seats) if v.pond), None)
    return sc if seat is None else move_pond_tile(seat, (seat + 2) % 4)(sc)


def test_the_move_takes_a_discard_where_there_is_one():
    a = Scene("basic", (SeatView(), SeatView(pond=(PondTile("1m"), PondTile("9p"))), SeatView(), SeatView()))
    b = _moved_across(a)  # East's discards all claimed: South's last goes to North
    assert [[p.tile for p in v.pond] for v in b.seats] == [[], ["1m"], [], ["9p"]]
    assert {(d["seat"], d["zone"]) for d in differences(a, b)} == {(1, "pond"), (3, "pond")}


def test_a_tile_moved_while_down_holds_the_table_paused(tmp_path):
    hand = _down_in_play(tmp_path)
    moved = _moved_across
    rig = Rig(tmp_path, play=BotPlay(event_delay=0), moves=[moved])

    async def scenario(svc):
        await until(lambda: svc.table_check is not None)
        assert svc.machine.state is S.PAUSED
        chk = svc.table_check
        assert chk["result"] == "mismatch" and chk["hold"]
        seats = sorted(d["seat"] for d in chk["differences"])
        assert {d["zone"] for d in chk["differences"]} == {"pond"} and len(seats) == 2 and seats[1] == seats[0] + 2
        snap = svc.snapshot()
        assert all(f"{SEAT_NAMES[s]} pond" in snap.fault for s in seats) and "JUDGE" in snap.prompt
        await asyncio.sleep(0.3)  # demo mode does not resume a table that differs from the record
        assert svc.machine.state is S.PAUSED
        svc.press("judge")  # re-read: still moved
        await until(lambda: len([e for e in rig.store.events(svc.hand_id) if isinstance(e, TableReconciled)]) == 2)
        await asyncio.sleep(0.1)
        assert svc.machine.state is S.PAUSED
        rig.svc.camera.world.moves.remove(moved)  # the judge puts the tile back
        svc.press("judge")
        await until(lambda: svc.machine.state is S.PLAY)
        await until(lambda: svc.hands_played() >= 1)

    try:
        run(rig, scenario, timeout=90)
        evs = rig.store.events(hand)
        checks = [e for e in evs if isinstance(e, TableReconciled)]
        assert [(c.result, c.state) for c in checks] == [("mismatch", "play")] * 2 + [("match", "play")]
        assert {d["zone"] for d in checks[0].differences} == {"pond"} and checks[2].differences == ()
        assert all(c.frames >= 2 for c in checks)
        restart = [k for k, e in enumerate(evs) if isinstance(e, TableStateChanged) and e.trigger == "restart"]
        resumed = [k for k, e in enumerate(evs) if isinstance(e, TableStateChanged) and e.trigger == "resume"]
        assert restart[0] < evs.index(checks[0]) < evs.index(checks[2]) < resumed[0]  # read while paused
    finally:
        rig.close()


def test_the_judge_may_accept_a_table_that_differs(tmp_path):
    hand = _down_in_play(tmp_path)
    rig = Rig(tmp_path, play=BotPlay(event_delay=0), moves=[_moved_across])

    async def scenario(svc):
        await until(lambda: svc.table_check is not None)
        assert svc.table_check["result"] == "mismatch" and svc.machine.state is S.PAUSED
        svc.press("abort")  # not a fault: abort does nothing to a paused table
        svc.press("accept")  # the judge overrides (the web page's Accept button)
        await until(lambda: svc.machine.state is S.PLAY)
        assert not svc.table_check["hold"] and svc.table_check["result"] == "accepted"

    try:
        run(rig, scenario, timeout=60)
        checks = [e for e in rig.store.events(hand) if isinstance(e, TableReconciled)]
        assert [c.result for c in checks] == ["mismatch", "accepted"]
        assert checks[1].differences == checks[0].differences and "judge accepted" in checks[1].detail
    finally:
        rig.close()


def test_no_camera_after_restart_holds_until_the_judge_checks_by_eye(tmp_path):
    from controller.table_camera import CameraError

    first = Rig(tmp_path, auto=False)
    first.sim.jammed.add(1)

    async def down_at_walls(svc):  # a jammed lift, then the service goes down
        svc.press("start")
        await until(lambda: svc.machine.state is S.FAULT)

    try:
        run(first, down_at_walls)
    finally:
        first.close()
    rig = Rig(tmp_path, auto=False)

    def no_camera(svc):
        raise CameraError("camera 'cam:0': cannot open it")

    rig.svc.camera_factory = no_camera

    async def scenario(svc):
        await until(lambda: svc.table_check is not None)
        assert svc.machine.state is S.PAUSED and svc.machine.resume_to is S.WALLS_UP
        snap = svc.snapshot()
        assert snap.fault == "Camera could not read the table: camera 'cam:0': cannot open it"
        assert "by eye" in snap.prompt
        svc.press("judge")  # the judge looked: the walls are empty, go on
        await until(lambda: svc.machine.state is S.DEALING)

    try:
        run(rig, scenario)
        checks = [e for e in rig.store.events("t9-00001") if isinstance(e, TableReconciled)]
        assert [(c.result, c.state, c.frames) for c in checks] == [("unreadable", "walls_up", 0)]
    finally:
        rig.close()
