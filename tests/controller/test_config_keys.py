"""Configuration that is obeyed: every key of the example config changes what the service does (or is refused
as unused), problems name the file, the line and the key, and the typed sections are frozen."""
from __future__ import annotations

import asyncio
import dataclasses
import json
import socket
import time
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from controller import config
from controller.backends import TableBackend
from controller.cli import main
from controller.event_store import EventStore
from controller.service import TableService
from controller.table_machine import S
from rules.events import DiceRolled, TableReconciled, TableStateChanged

ROOT = Path(__file__).resolve().parents[2]


# --- problems, one line each, with file, line and key ----------------------------------------------------------

def check_text(tmp_path, text: str) -> list[str]:
    p = tmp_path / "c.toml"
    p.write_text(text)
    cfg, problems = config.check(p)
    assert (cfg is None) == bool(problems)
    return problems


def test_problems_name_the_file_the_line_and_the_key(tmp_path):
    problems = check_text(tmp_path, '# a table\n[table]\nid = "t1"\nplayers = 5\n\n[serial]\nbaud = 1234\n'
                                    '[gpio.call_panels.0]\nhu = 99\n')
    p = tmp_path / "c.toml"
    assert problems[0].startswith(f"{p}:4: table.players: 5 is not one of 2, 3, 4")
    assert problems[1].startswith(f"{p}:7: serial.baud: 1234 is not one of 9600")
    assert problems[2].startswith(f"{p}:8: gpio.call_panels: seat 0 hu: 99 is not a GPIO pin")
    assert all("\n" not in x for x in problems)


def test_a_toml_syntax_error_names_its_line(tmp_path):
    problems = check_text(tmp_path, '[table]\nid = "t1"\nprofile = mcr\n')
    assert len(problems) == 1 and problems[0].startswith(f"{tmp_path / 'c.toml'}:3: not valid TOML")


@pytest.mark.parametrize("text,key,words", [
    ("[gpio]\nstart_button = 17\n", "gpio.start_button", "already used by gpio.turn_leds"),  # 17 = East's LED
    ("[gpio]\njudge_button = \"BOARD11\"\n", "gpio.judge_button", "(GPIO17) is already used"),  # = GPIO17
    ("[gpio]\ncall_buttons = [12, 12, 20, 21]\n", "gpio.call_buttons", "given twice"),
    ("[gpio.call_panels.1]\nhu = 6\n", "gpio.call_panels.1.hu", "already used by gpio.dice_button"),
    ("[camera]\nwidth = -640\n", "camera.width", "between 160 and 8192"),
    ("[camera]\nheight = 0\n", "camera.height", "between 120 and 8192"),
    ("[camera]\ncalibration = \"/no/such/cal.json\"\n", "camera.calibration", "no calibration file"),
    ("[camera]\nsource = \"garbage\"\n", "camera.source", "is not a camera"),
    ("[camera]\nsource = \"cam:x\"\n", "camera.source", "cam:0, cam:1"),
    ("[camera]\nsource = \"ftp://cam\"\n", "camera.source", "unknown stream protocol"),
    ("[geometry]\ntable_mm = 900\n", "geometry.table_mm", "comes from the camera calibration"),
    ("[table]\nid = \"table 1/x\"\n", "table.id", "letters, digits"),
    ("[table]\ndice_pulse_ms = -1\n", "table.dice_pulse_ms", "between 1 and 5000"),
    ("[serial]\ntime_scale = nan\n", "serial.time_scale", "between"),
    ("[gpio]\nbounce_ms = 0\n", "gpio.bounce_ms", "between 1 and 1000"),
])
def test_config_check_refuses(tmp_path, text, key, words):
    problems = check_text(tmp_path, text)
    assert len(problems) == 1, problems
    assert f": {key}: " in problems[0] and words in problems[0], problems[0]


def test_a_calibration_file_that_is_not_one_is_refused(tmp_path):
    (tmp_path / "cal.json").write_text("[]")
    problems = check_text(tmp_path, f'[camera]\ncalibration = "{tmp_path / "cal.json"}"\n')
    assert len(problems) == 1 and "is not a calibration" in problems[0]


def test_config_check_cli_prints_one_line_per_problem_and_exits_1(tmp_path, capsys):
    p = tmp_path / "c.toml"
    p.write_text('[camera]\nsource = "garbage"\nwidth = -1\n[gpio]\nstart_button = 17\n')
    assert main(["config", "check", str(p)]) == 1
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 3 + 1 and out[-1] == f"3 problem(s) in {p}"
    assert out[0].startswith(f"{p}:2: camera.source") and out[1].startswith(f"{p}:3: camera.width")


def test_sections_are_typed_frozen_dataclasses_derived_from_the_schema():
    cfg = config.defaults().with_overrides(serial__baud=57600, gpio__turn_leds=[1, 2, 3, 8])
    assert cfg.serial.baud == 57600 == cfg["serial.baud"] and cfg.gpio.turn_leds == (1, 2, 3, 8)
    for sec, cls in config.SECTIONS.items():
        assert dataclasses.is_dataclass(cls) and cls.__dataclass_params__.frozen
        names = {f.name for f in dataclasses.fields(cls)}
        assert names == {k.split(".", 1)[1] for k in config.SCHEMA if k.startswith(sec + ".")}
    with pytest.raises(dataclasses.FrozenInstanceError):
        cfg.serial.baud = 9600
    assert set(config.PROFILES) == set(__import__("rules.profiles.registry", fromlist=["x"]).PROFILES)


# --- every key reaches the code that uses it -------------------------------------------------------------------

class SpyBackend(TableBackend):
    """Records every call; every operation succeeds at once."""

    name = "spy"

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[tuple[str, tuple]] = []
        self.at: dict[str, float] = {}

    def _call(self, op: str, *args: Any) -> dict:
        self.calls.append((op, args))
        self.at[op] = time.monotonic()
        return {}

    async def start(self):
        return self._call("start")

    async def close(self):
        self._call("close")

    async def configure(self, tile_count, stacks, tile_set=0):
        self._call("configure", tile_count, tuple(stacks), tile_set)

    async def collect(self):
        self._call("collect")

    async def shuffle(self, progress=None):
        self._call("shuffle")

    async def raise_walls(self):
        self._call("raise_walls")

    async def lower_walls(self):
        self._call("lower_walls")

    async def dice(self, pulse_ms=600):
        self._call("dice", pulse_ms)

    async def indicators(self, turn, dealer):
        self._call("indicators", turn, dealer)

    async def estop(self):
        self._call("estop")

    async def recover(self):
        return self._call("recover")

    def halt(self, reason: str = "") -> None:
        self.calls.append(("halt", ()))

    def physical_dice(self):
        return (3, 4)


class FixedCamera:
    def __init__(self):
        self.reads = 0
        self.read_at = 0.0

    def sync(self):
        pass

    def read_dice(self, n):
        self.reads += 1
        self.read_at = time.monotonic()
        return (2, 5)

    def close(self):
        pass


def run_service(tmp_path, cfg, scenario, *, backend=None, hands_in_store=None) -> tuple[TableService, EventStore]:
    store = EventStore(tmp_path / f"e{time.monotonic_ns()}.sqlite")
    if hands_in_store:
        hands_in_store(store)
    svc = TableService(cfg, backend or SpyBackend(), store, camera_factory=lambda svc: FixedCamera())

    async def go():
        stop = asyncio.Event()
        task = asyncio.create_task(svc.run(stop))
        while svc._triggers is None:
            await asyncio.sleep(0.005)
        try:
            await asyncio.wait_for(scenario(svc), 30)
        finally:
            stop.set()
            await task

    asyncio.run(go())
    return svc, store


async def until(cond):
    while not cond():
        await asyncio.sleep(0.005)


def dice_of(tmp_path, cfg) -> list[Any]:
    """The dice events and the calls of one hand run up to dealing."""
    async def scenario(svc):
        svc.press("start")
        await until(lambda: svc.machine.state is S.DEALING)

    svc, store = run_service(tmp_path, cfg, scenario)
    dice = [(e.source, e.values) for e in store.events(svc.hand_id) if isinstance(e, DiceRolled)]
    return [dice, [c for c in svc.backend.calls if c[0] in ("dice", "configure")]]


def paused_hand(store):
    store.start_hand("t-00001", "basic", 1.0)
    store.append("t-00001", 0, TableStateChanged(hand_id="t-00001", state="dealing", previous="dice",
                                                   trigger="done"))


def reconciled(tmp_path, cfg) -> list[str]:
    async def scenario(svc):
        await asyncio.sleep(0.3)

    svc, store = run_service(tmp_path, cfg, scenario, hands_in_store=paused_hand)
    return [e.result for e in store.events("t-00001") if isinstance(e, TableReconciled)]


def watchdog_pings(tmp_path, cfg, monkeypatch) -> int:
    path = str(tmp_path / "notify.sock")
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    srv.bind(path)
    srv.setblocking(False)
    monkeypatch.setenv("NOTIFY_SOCKET", path)
    monkeypatch.setenv("WATCHDOG_USEC", "400000")  # a ping every 0.2 s while the loop is healthy
    monkeypatch.delenv("WATCHDOG_PID", raising=False)

    async def scenario(svc):
        await asyncio.sleep(1.0)

    run_service(tmp_path, cfg, scenario)
    pings = 0
    while True:
        try:
            pings += srv.recv(1024) == b"WATCHDOG=1"
        except BlockingIOError:
            break
    srv.close()
    return pings


def camera_seen(cfg, monkeypatch) -> Any:
    import vision.camera
    from controller.table_camera import open_table_camera

    opened = []

    class FakeCv:
        def __init__(self, spec, size=(0, 0), clock=None):
            opened.append((spec, size))

    monkeypatch.setattr(vision.camera, "CvCamera", FakeCv)
    cam = open_table_camera(cfg)
    return [opened, cam.styles, cam.calibration is not None, [ts.name for ts in getattr(cam, "tilesets", None) or []]]


def panel_pins(cfg) -> Any:
    from controller.devices import Panel

    p = Panel(cfg.section("gpio"), pin_factory=MockFactory())
    try:
        pins = {name: d.pin.info.name for name, d in (("start", p.start), ("dice", p.dice), ("judge", p.judge),
                                                      ("status", p.status_led), ("buzzer", p.buzzer))}
        pins["turn"] = [d.pin.info.name for d in p.turn_leds]
        pins["dealer"] = [d.pin.info.name for d in p.dealer_leds]
        pins["calls"] = {k: d.pin.info.name for k, d in p.calls.items()}
        pins["bounce"] = p.start.pin.bounce
        return pins
    finally:
        p.close()


def built(cfg) -> Any:
    from controller.cli.serve import build

    panel, backend, store, sim = build(cfg, demo=False)
    try:
        out = {"backend": backend.name, "store": str(store.path),
               "factory": type(panel.factory).__name__}
        if backend.name == "mcu":
            out.update(port=backend.port, link=backend.link_config().baudrate, scale=backend.time_scale)
        else:
            out.update(scale=sim.scale)
        return out
    finally:
        if sim is not None:
            sim.stop()
        panel.close()
        store.close()


def make_calibration(tmp_path) -> str:
    import numpy as np

    from vision.calibration import Calibration

    path = tmp_path / "cal.json"
    Calibration(np.eye(3), (1920, 1080)).save(path)
    return str(path)


# key -> (another valid value, what the service does with the configuration)
PROBES: dict[str, tuple[Any, Any]] = {
    "table.id": ("t-probe", lambda t, cfg, mp: run_service(t, cfg, _start_only)[0].hand_id),
    "table.profile": ("mcr", lambda t, cfg, mp: dice_of(t, cfg)),  # two throws, 144 tiles configured
    "table.players": (3, lambda t, cfg, mp: _hand_started(t, cfg)),  # the players the hand is dealt to
    "table.backend": ("gpio", lambda t, cfg, mp: built(cfg)),
    "table.dice": ("physical", lambda t, cfg, mp: dice_of(t, cfg)),
    "table.dice_pulse_ms": (250, lambda t, cfg, mp: dice_of(t, cfg.with_overrides(table__dice="physical"))[1]),
    "table.tile_sets": (2, lambda t, cfg, mp: _two_hands_tile_sets(t, cfg)),
    "serial.port": ("loop://", lambda t, cfg, mp: built(cfg)),
    "serial.baud": (57600, lambda t, cfg, mp: built(cfg)),
    "serial.time_scale": (50.0, lambda t, cfg, mp: built(cfg)),
    "gpio.pin_factory": ("native", lambda t, cfg, mp: _factory_or_error(cfg)),
    "gpio.start_button": (9, lambda t, cfg, mp: panel_pins(cfg)),
    "gpio.dice_button": (9, lambda t, cfg, mp: panel_pins(cfg)),
    "gpio.judge_button": ("GPIO9", lambda t, cfg, mp: panel_pins(cfg)),
    "gpio.status_led": (9, lambda t, cfg, mp: panel_pins(cfg)),
    "gpio.buzzer": (9, lambda t, cfg, mp: panel_pins(cfg)),
    "gpio.turn_leds": ([17, 27, 22, 9], lambda t, cfg, mp: panel_pins(cfg)),
    "gpio.dealer_leds": ([4, 18, 24, 9], lambda t, cfg, mp: panel_pins(cfg)),
    "gpio.call_buttons": ([12, 16, 20, 9], lambda t, cfg, mp: panel_pins(cfg)),
    "gpio.call_panels": ({"2": {"hu": 9, "pung": 10}}, lambda t, cfg, mp: panel_pins(cfg)),
    "gpio.bounce_ms": (50, lambda t, cfg, mp: panel_pins(cfg)),
    "camera.source": ("cam:3", lambda t, cfg, mp: camera_seen(cfg, mp)),
    "camera.width": (1280, lambda t, cfg, mp: camera_seen(cfg.with_overrides(camera__source="cam:0"), mp)),
    "camera.height": (720, lambda t, cfg, mp: camera_seen(cfg.with_overrides(camera__source="cam:0"), mp)),
    "camera.calibration": ("CAL", lambda t, cfg, mp: camera_seen(cfg, mp)),
    "camera.styles": (["kai"], lambda t, cfg, mp: camera_seen(cfg, mp)),
    "camera.tilesets": ([str(ROOT / "vision" / "tilesets" / "kai.npz")], lambda t, cfg, mp: camera_seen(cfg, mp)),
    "camera.reconcile": (False, lambda t, cfg, mp: reconciled(t, cfg)),
    "camera.dice_settle_s": (1.5, lambda t, cfg, mp: _settle_time(t, cfg)),
    "store.path": ("STORE", lambda t, cfg, mp: built(cfg)),
    "service.watchdog": (False, lambda t, cfg, mp: watchdog_pings(t, cfg, mp) > 0),
}


async def _start_only(svc):
    svc.press("start")
    await until(lambda: svc.hand_id)


def _hand_started(tmp_path, cfg) -> list[int]:
    from rules.events import HandStarted

    svc, store = run_service(tmp_path, cfg, _start_only)
    return [e.n_players for e in store.events(svc.hand_id) if isinstance(e, HandStarted)]


def _two_hands_tile_sets(tmp_path, cfg) -> list[int]:
    async def scenario(svc):
        svc.auto = True
        svc.trigger("start")
        await until(lambda: svc.hands_played() >= 2)

    svc, _ = run_service(tmp_path, cfg, scenario)
    return [c[1][2] for c in svc.backend.calls if c[0] == "configure"]


def _factory_or_error(cfg) -> str:
    from controller.devices import make_pin_factory

    try:
        return type(make_pin_factory(cfg.gpio.pin_factory)).__name__
    except Exception as exc:  # this machine has no such GPIO: the attempt is the behaviour
        return type(exc).__name__


def _settle_time(tmp_path, cfg) -> bool:
    """Does the camera wait 1.5 s after the dice motor stops before it reads the dice?"""
    async def scenario(svc):
        svc.press("start")
        await until(lambda: svc.machine.state is S.DEALING)

    svc, _ = run_service(tmp_path, cfg.with_overrides(table__dice="physical"), scenario)
    return svc.camera.read_at - svc.backend.at["dice"] >= 1.5


def test_every_key_of_the_example_config_changes_what_the_service_does(tmp_path, monkeypatch):
    example = tmp_path / "example.toml"
    example.write_text(config.example_toml())
    base = config.load(example)
    used = {k for k, spec in config.SCHEMA.items() if not spec.unused}
    mine = {k for k in used if k.split(".")[0] in ("table", "serial", "gpio", "camera", "store", "service")}
    assert mine <= set(PROBES), f"keys with no behaviour probe here: {sorted(mine - set(PROBES))}"
    for key, (alt, probe) in PROBES.items():
        if alt == "CAL":
            alt = make_calibration(tmp_path)
        elif alt == "STORE":
            alt = str(tmp_path / "other" / "events.sqlite")
        assert alt != config.SCHEMA[key].default
        changed = base.with_overrides(**{key.replace(".", "__"): alt})
        (tmp_path / key).mkdir()
        (tmp_path / key / "b").mkdir()
        before = probe(tmp_path / key, base, monkeypatch)
        after = probe(tmp_path / key / "b", changed, monkeypatch)
        assert before != after, f"{key} = {alt!r} changes nothing: {before!r}"


def test_every_key_is_used_by_some_code():
    """Keys of the other parts (web, hall, referee, ...) too: each is read somewhere outside the config module,
    as ``cfg["section.key"]``, ``cfg.section.key`` or, from a section's dict, ``["key"]`` / ``.get("key"``."""
    code = "\n".join(p.read_text() for d in ("controller", "hall", "vision", "firmware_bridge")
                     for p in (ROOT / d).rglob("*.py") if p != ROOT / "controller" / "config.py")
    unread = []
    for key, spec in config.SCHEMA.items():
        sec, name = key.split(".", 1)
        uses = (f'"{key}"', f"'{key}'", f".{sec}.{name}", f'["{name}"]', f'.get("{name}"')
        if not spec.unused and not any(u in code for u in uses):
            unread.append(key)
    assert unread == [], f"keys no code reads (use them, or mark them unused=): {unread}"


def test_serial_baud_reaches_the_open_port(tmp_path):
    from controller.backends.mcu import McuBackend

    async def go():
        be = McuBackend("emulator", time_scale=400.0, baud=57600)
        await be.start()
        try:
            return be.bridge.link.config.baudrate, be.bridge.link._transport.port.baudrate
        finally:
            await be.close()

    assert asyncio.run(go()) == (57600, 57600)


def test_the_example_is_every_used_key(tmp_path):
    import tomllib

    example = tomllib.loads(config.example_toml())
    flat = {f"{s}.{k}" for s, keys in example.items() for k in keys}
    assert flat == {k for k, spec in config.SCHEMA.items() if not spec.unused}
    assert json.dumps(sorted(flat))  # (no surprise types in the example)
