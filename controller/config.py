"""Table service configuration: TOML at ``/etc/mahjong-table/config.toml`` with working development defaults.

The schema is data (:data:`SCHEMA`): every key with its type, default, allowed values and help text.
:func:`load` merges a file over the defaults and returns a :class:`Config`; :func:`check` returns every
problem at once, each naming the key and what is allowed — ``mahjong-table config check`` prints them.
"""
from __future__ import annotations

import difflib
import os
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DEFAULT_PATH = Path("/etc/mahjong-table/config.toml")
PROFILES = ("sichuan-mpl2025", "sichuan-wmsg", "mcr", "mcr-siamese", "riichi-ema2016", "red", "basic")
CALLS = ("chow", "pung", "kong", "hu", "riichi", "flower", "call")
TILE_ASSETS = Path(__file__).resolve().parents[1] / "vision" / "assets" / "tiles"  # enrolled tile styles


def _default_store() -> str:
    state = os.environ.get("STATE_DIRECTORY")  # set by systemd's StateDirectory=
    return str(Path(state) / "events.sqlite") if state else "var/events.sqlite"


@dataclass(frozen=True)
class Key:
    type: type | tuple[type, ...]
    default: Any
    help: str
    choices: tuple[Any, ...] = ()
    check: Callable[[Any], str | None] | None = None  # returns a problem or None


def _pin(v: Any) -> str | None:
    if v is None:
        return None
    if isinstance(v, int) and 0 <= v <= 27:
        return None
    if isinstance(v, str) and (v.startswith("GPIO") or v.startswith("BOARD") or v.startswith("J8:")):
        return None
    return f"{v!r} is not a GPIO pin (0..27, or a name like 'GPIO17' / 'BOARD11')"


def _pins4(v: Any) -> str | None:
    if not isinstance(v, list) or len(v) != 4:
        return "must be a list of four pins, one per seat (East, South, West, North)"
    for p in v:
        bad = _pin(p)
        if bad:
            return bad
    return None


def _port(v: Any) -> str | None:
    return None if isinstance(v, int) and 0 <= v <= 65535 else "must be a TCP port 1..65535 (0: any free port)"


def _positive(v: Any) -> str | None:
    return None if isinstance(v, int | float) and v > 0 else "must be a positive number"


def _styles(v: Any) -> str | None:
    known = sorted(p.parent.name for p in TILE_ASSETS.glob("*/style.json"))
    if not isinstance(v, list) or not v or not all(isinstance(x, str) for x in v):
        return f"must be a non-empty list of tile style names ({', '.join(known)})"
    bad = [x for x in v if x not in known]
    return f"unknown tile style {bad[0]!r}; enrolled styles: {', '.join(known)}" if bad else None


def _non_negative(v: Any) -> str | None:
    return None if isinstance(v, int | float) and not isinstance(v, bool) and v >= 0 else "must be a number ≥ 0"


def _call_panels(v: Any) -> str | None:
    if not isinstance(v, dict):
        return "must be a table of seat -> {call = pin}"
    for seat, calls in v.items():
        if seat not in ("0", "1", "2", "3"):
            return f"seat {seat!r} must be 0, 1, 2 or 3"
        if not isinstance(calls, dict):
            return f"seat {seat}: must be a table of call = pin"
        for call, pin in calls.items():
            if call not in CALLS:
                return f"seat {seat}: call {call!r} is not one of {', '.join(CALLS)}"
            bad = _pin(pin)
            if bad:
                return f"seat {seat} {call}: {bad}"
    return None


def _pin_hash(v: Any) -> str | None:
    from controller.web.security import hash_problem

    return hash_problem(v)


SCHEMA: dict[str, Key] = {
    "table.id": Key(str, "table-1", "this table's identity in the hall"),
    "table.profile": Key(str, "sichuan-mpl2025", "the rule profile played at this table", PROFILES),
    "table.players": Key(int, 4, "players seated", (2, 3, 4)),
    "table.backend": Key(str, "mcu", "mcu: a controller board over serial; gpio: the Pi drives the motors", ("mcu", "gpio")),
    "table.dice": Key(str, "electronic", "electronic: the Pi draws the dice; physical: dice motor + camera", ("electronic", "physical")),
    "table.dice_pulse_ms": Key(int, 600, "physical dice: how long the dice motor is pulsed (milliseconds)", (), _positive),
    "table.tile_sets": Key(int, 1, "tile sets the table alternates", (1, 2)),
    "serial.port": Key(str, "emulator", "serial device, pyserial URL (socket://, loop://) or 'emulator'"),
    "serial.baud": Key(int, 115200, "serial speed", (9600, 57600, 115200, 230400, 460800, 921600, 1000000)),
    "serial.time_scale": Key((int, float), 20.0, "emulator only: how much faster than real time it runs", (), _positive),
    "gpio.pin_factory": Key(str, "mock", "gpiozero pin factory: mock (no hardware), lgpio (Pi 5), rpigpio, native", ("mock", "lgpio", "rpigpio", "native", "pigpio")),
    "gpio.start_button": Key((int, str), 5, "start/shuffle button pin", (), _pin),
    "gpio.dice_button": Key((int, str), 6, "dice button pin", (), _pin),
    "gpio.judge_button": Key((int, str), 13, "judge-call button pin", (), _pin),
    "gpio.status_led": Key((int, str), 19, "status LED pin", (), _pin),
    "gpio.buzzer": Key((int, str), 26, "buzzer pin (session warnings, end-of-session gong)", (), _pin),
    "gpio.turn_leds": Key(list, [17, 27, 22, 23], "seat-turn LED pins, East South West North", (), _pins4),
    "gpio.dealer_leds": Key(list, [4, 18, 24, 25], "dealer LED pins, East South West North", (), _pins4),
    "gpio.call_buttons": Key(list, [12, 16, 20, 21], "single 'call' button per seat (the camera tells which call)", (), _pins4),
    "gpio.call_panels": Key(dict, {}, "optional full call panels: seat -> {chow/pung/kong/hu/riichi/flower = pin}", (), _call_panels),
    "gpio.bounce_ms": Key(int, 20, "button debounce time in milliseconds", (), _positive),
    "camera.source": Key(str, "synthetic", "synthetic (rendered), picamera, cam:N (OpenCV), an rtsp:// or http:// URL, or a folder/video to replay"),
    "camera.width": Key(int, 1920, "frame width"),
    "camera.height": Key(int, 1080, "frame height"),
    "camera.calibration": Key(str, "", "calibration file written by 'mahjong-table calibrate' (empty: fit it "
                              "to the table's markers on the first frame)"),
    "camera.styles": Key(list, ["classic"], "the tile styles (sets) this table plays with, as enrolled for the "
                         "camera; the synthetic camera draws the first", (), _styles),
    "camera.reconcile": Key(bool, True, "after a restart, re-read the table with the camera and compare it with "
                            "the record before the paused hand may resume"),
    "camera.dice_settle_s": Key((int, float), 0.3, "physical dice: seconds to wait after the dice motor stops "
                                "before the camera reads them", (), _non_negative),
    "geometry.table_mm": Key(int, 900, "playing surface side in millimetres", (), _positive),
    "store.path": Key(str, _default_store(), "the durable event store (SQLite)"),
    "hall.address": Key(str, "", "hall broker, e.g. mqtt://hall.local:1883 or mqtts://hall.local:8883 (empty: standalone table)"),
    "hall.id": Key(str, "hall", "the hall's id: this table publishes under hall/<id>/table/<table.id>/"),
    "hall.username": Key(str, "", "MQTT username at the hall's broker (empty: the table id)"),
    "hall.password": Key(str, "", "MQTT password (from 'mahjong-table hall provision')"),
    "hall.cafile": Key(str, "", "TLS (mqtts://): the hall's CA certificate"),
    "hall.certfile": Key(str, "", "TLS: this table's client certificate"),
    "hall.keyfile": Key(str, "", "TLS: this table's client key"),
    "hall.events": Key(str, "results", "what goes to the hall: results and hand starts, or every event", ("results", "all")),
    "hall.resend_s": Key((int, float), 5.0, "seconds before an unacknowledged result is sent again", (), _positive),
    "web.host": Key(str, "127.0.0.1", "address the table's web page listens on"),
    "web.port": Key(int, 8080, "port of the table's web page", (), _port),
    "web.language": Key(str, "en", "the page's language until a viewer switches it", ("en", "ru")),
    "web.judge_pin_hash": Key(str, "", "the judge's PIN, hashed: written by 'mahjong-table web set-pin' (empty: no judge login)", (), _pin_hash),
    "web.camera_public": Key(bool, True, "show the camera view to everyone (false: to the logged-in judge only)"),
    "web.camera_interval_s": Key((int, float), 2.0, "seconds between camera-view frames while someone watches it", (), _positive),
    "service.watchdog": Key(bool, True, "ping the systemd watchdog while the main loop is healthy"),
    "referee.enabled": Key(bool, True, "the camera referee follows each hand (false: the operator presses START when a hand is over)"),
    "referee.claim_wait_s": Key((int, float), 0, "seconds the referee awaits further calls before granting a win on a discard where the profile sets no claim time (0: 3 s; where it does, its claim window rules)", (), _non_negative),
    "referee.reveal_wait_s": Key((int, float), 4.0, "after an exhaustive draw, seconds after the last hand shown before the others count as not ready", (), _positive),
    "referee.min_score": Key((int, float), 0.7, "a tile read with less confidence than this is asked about, never guessed", (), _non_negative),
    "referee.demo_camera": Key(str, "frames", "demo mode: the bots' table reaches the referee as rendered frames read by vision (frames) or as exact observations (exact)", ("frames", "exact")),
}


class ConfigError(ValueError):
    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("; ".join(problems))


@dataclass(frozen=True)
class Config:
    values: dict[str, Any]
    source: str  # the file read, or "defaults"

    def __getitem__(self, key: str) -> Any:
        return self.values[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.values.get(key, default)

    def with_overrides(self, **kv: Any) -> Config:
        """A copy with ``section__key=value`` overrides (tests and the CLI)."""
        vals = dict(self.values)
        for k, v in kv.items():
            vals[k.replace("__", ".")] = v
        problems = _validate(vals)
        if problems:
            raise ConfigError(problems)
        return Config(vals, self.source)


def defaults() -> Config:
    return Config({k: v.default for k, v in SCHEMA.items()}, "defaults")


def _flatten(d: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in d.items():
        key = f"{prefix}{k}"
        if isinstance(v, dict) and key not in SCHEMA:
            out.update(_flatten(v, key + "."))
        else:
            out[key] = v
    return out


def _type_name(t: type | tuple[type, ...]) -> str:
    names = {int: "integer", float: "number", str: "string", bool: "true/false", list: "list", dict: "table"}
    ts = t if isinstance(t, tuple) else (t,)
    return " or ".join(names.get(x, x.__name__) for x in ts)


def _validate(values: dict[str, Any]) -> list[str]:
    problems = []
    for key, v in values.items():
        spec = SCHEMA.get(key)
        if spec is None:
            close = difflib.get_close_matches(key, SCHEMA, n=1)
            hint = f" (did you mean {close[0]}?)" if close else ""
            problems.append(f"{key}: unknown key{hint}")
            continue
        types = spec.type if isinstance(spec.type, tuple) else (spec.type,)
        if isinstance(v, bool) and bool not in types or not isinstance(v, types):
            problems.append(f"{key}: {v!r} is not a {_type_name(spec.type)} — {spec.help}")
            continue
        if spec.choices and v not in spec.choices:
            allowed = ", ".join(map(str, spec.choices))
            problems.append(f"{key}: {v!r} is not one of {allowed} — {spec.help}")
            continue
        if spec.check:
            bad = spec.check(v)
            if bad:
                problems.append(f"{key}: {bad}")
    return problems


def check(path: str | Path | None) -> tuple[Config | None, list[str]]:
    """Read and validate; returns (config or None, every problem found)."""
    if path is None:
        return defaults(), []
    p = Path(path)
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None, [f"{p}: no such file"]
    except PermissionError:
        return None, [f"{p}: permission denied"]
    except tomllib.TOMLDecodeError as exc:
        return None, [f"{p}: not valid TOML: {exc}"]
    except UnicodeDecodeError:
        return None, [f"{p}: not a UTF-8 text file"]
    flat = _flatten(data)
    problems = _validate(flat)
    if problems:
        return None, problems
    vals = {k: v.default for k, v in SCHEMA.items()}
    vals.update(flat)
    return Config(vals, str(p)), []


def load(path: str | Path | None = None) -> Config:
    """The configuration: ``path``, else the system file if it exists, else the defaults."""
    if path is None and DEFAULT_PATH.exists():
        path = DEFAULT_PATH
    cfg, problems = check(path)
    if problems:
        raise ConfigError(problems)
    assert cfg is not None
    return cfg


def example_toml() -> str:
    """The defaults as a commented TOML file (``mahjong-table config example``)."""
    import json

    lines = ["# mahjong-table configuration (/etc/mahjong-table/config.toml)", ""]
    section = None
    for key, spec in SCHEMA.items():
        sec, name = key.split(".", 1)
        if sec != section:
            lines += ["", f"[{sec}]"]
            section = sec
        if spec.choices:
            lines.append(f"# {spec.help} ({' | '.join(map(str, spec.choices))})")
        else:
            lines.append(f"# {spec.help}")
        v = spec.default
        if isinstance(v, bool):
            text = "true" if v else "false"
        elif isinstance(v, dict):
            text = "{}"
        else:
            text = json.dumps(v)
        lines.append(f"{name} = {text}")
    return "\n".join(lines).lstrip() + "\n"
