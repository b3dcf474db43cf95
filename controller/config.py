"""Table service configuration: TOML at ``/etc/mahjong-table/config.toml`` with working development defaults.

The schema is data (:data:`SCHEMA`, one ``Key(...)`` line per key): its type, default, allowed values and help
text. :func:`load` merges a file (parsed with ``tomllib``) over the defaults and returns a :class:`Config`,
whose sections are typed, frozen dataclasses derived from the schema (``cfg.serial.baud``,
``cfg.gpio.turn_leds``; ``cfg["serial.baud"]`` reads the same value). :func:`check` returns every problem at
once, one line each, naming the file, the line and the key and saying what is allowed — ``mahjong-table config
check`` prints them. Every key is used or rejected: an unknown key is a problem (with the closest known key), a
retired key says what replaced it, a key this build does not use (``Key.unused``) is refused when a file sets
it, and checks across keys catch what no single key shows (a pin given twice, a calibration file that is not
there, a camera source that is none). tests/controller/test_config_keys.py proves each key changes what the
service does.
"""
from __future__ import annotations

import dataclasses
import difflib
import json
import os
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from rules.profiles.registry import PROFILES as _REGISTRY

DEFAULT_PATH = Path("/etc/mahjong-table/config.toml")
PROFILES = tuple(_REGISTRY)  # the rule profiles, as the registry names them
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
    unused: str = ""  # why this build does not use the key yet: a file that sets it is refused, with this


# The Pi's 40-pin header: physical pin -> GPIO (BCM) number, for BOARDn / J8:n pin names.
HEADER_PINS = {3: 2, 5: 3, 7: 4, 8: 14, 10: 15, 11: 17, 12: 18, 13: 27, 15: 22, 16: 23, 18: 24, 19: 10, 21: 9,
               22: 25, 23: 11, 24: 8, 26: 7, 27: 0, 28: 1, 29: 5, 31: 6, 32: 12, 33: 13, 35: 19, 36: 16, 37: 26,
               38: 20, 40: 21}


def gpio_number(v: Any) -> int | None:
    """The GPIO (BCM) number of a pin given as 17, "GPIO17", "BCM17", "BOARD11" or "J8:11" (None: not a pin)."""
    if isinstance(v, bool):
        return None
    if isinstance(v, int):
        return v if 0 <= v <= 27 else None
    if not isinstance(v, str):
        return None
    m = re.fullmatch(r"(GPIO|BCM|BOARD|J8:)(\d{1,2})", v)
    if not m:
        return None
    n = int(m.group(2))
    if m.group(1) in ("GPIO", "BCM"):
        return n if 0 <= n <= 27 else None
    return HEADER_PINS.get(n)


def _pin(v: Any) -> str | None:
    if v is None or gpio_number(v) is not None:
        return None
    return f"{v!r} is not a GPIO pin (0..27, or a name like 'GPIO17' / 'BOARD11' / 'J8:11')"


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
    ok = isinstance(v, int | float) and not isinstance(v, bool) and 0 < v < float("inf")
    return None if ok else "must be a positive number"


def _in(lo: float, hi: float, unit: str = "") -> Callable[[Any], str | None]:
    def check(v: Any) -> str | None:
        ok = isinstance(v, int | float) and not isinstance(v, bool) and lo <= v <= hi
        return None if ok else f"must be between {lo:g} and {hi:g}{unit}"
    return check


def _camera_source(v: Any) -> str | None:
    """synthetic | picamera | cam:N | an rtsp:// http:// https:// URL | an existing folder or video file."""
    if v in ("synthetic", "picamera") or re.fullmatch(r"cam:\d{1,2}", v):
        return None
    if re.match(r"(rtsp|rtsps|http|https)://[^\s/]+", v):
        return None
    if "://" in v:
        return f"{v!r}: unknown stream protocol (rtsp://, http:// or https://)"
    if v.startswith("cam:"):
        return f"{v!r}: a camera number is cam:0, cam:1, ..."
    if Path(v).exists():
        return None
    return (f"{v!r} is not a camera: synthetic, picamera, cam:N, an rtsp:// or http:// URL, or an existing "
            "folder of frames or video file")


def _calibration_file(v: Any) -> str | None:
    if not v:
        return None
    p = Path(v)
    if not p.exists():
        return f"no calibration file {v!r} (write one with 'mahjong-table calibrate --image F --out {v}')"
    if not p.is_file():
        return f"{v!r} is not a file"
    try:
        from vision.calibration import Calibration

        Calibration.load(p)
    except Exception as exc:  # whatever the reader trips on, the file is not a usable calibration
        return f"{v!r} is not a calibration written by 'mahjong-table calibrate' ({type(exc).__name__}: {exc})"
    return None


def _pin_factory_on_board(v: Any) -> str | None:
    """A pin factory this board cannot run (rpigpio on a Pi 5), by the board's model (controller/board.py)."""
    from controller import board

    return board.pin_factory_problem(v, board.model())


def _table_id(v: Any) -> str | None:
    ok = isinstance(v, str) and re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]{0,39}", v)
    return None if ok else "must be 1..40 letters, digits, '.', '_' or '-' (it names every hand: table-1-00042)"


def _store_path(v: Any) -> str | None:
    if not v:
        return "must name the event store file"
    if Path(v).is_dir():
        return f"{v!r} is a directory: give the file, e.g. {str(Path(v) / 'events.sqlite')!r}"
    return None


def _styles(v: Any) -> str | None:
    known = sorted(p.parent.name for p in TILE_ASSETS.glob("*/style.json"))
    if not isinstance(v, list) or not v or not all(isinstance(x, str) for x in v):
        return f"must be a non-empty list of tile style names ({', '.join(known)})"
    bad = [x for x in v if x not in known]
    return f"unknown tile style {bad[0]!r}; enrolled styles: {', '.join(known)}" if bad else None


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
    "table.id": Key(str, "table-1", "this table's identity in the hall (letters, digits, . _ -)", (), _table_id),
    "table.profile": Key(str, "sichuan-mpl2025", "the rule profile played at this table", PROFILES),
    "table.players": Key(int, 4, "players seated", (2, 3, 4)),
    "table.backend": Key(str, "mcu", "mcu: a controller board over serial; gpio: the Pi drives the motors", ("mcu", "gpio")),
    "table.dice": Key(str, "electronic", "electronic: the Pi draws the dice; physical: dice motor + camera", ("electronic", "physical")),
    "table.dice_pulse_ms": Key(int, 600, "physical dice: how long the dice motor is pulsed (milliseconds)", (), _in(1, 5000, " ms")),
    "table.tile_sets": Key(int, 1, "tile sets the table alternates, hand by hand (the MCU's tile_set 0, 1)", (1, 2)),
    "serial.port": Key(str, "emulator", "serial device, pyserial URL (socket://, loop://) or 'emulator'"),
    "serial.baud": Key(int, 115200, "serial speed of the link to the MCU", (9600, 57600, 115200, 230400, 460800, 921600, 1000000)),
    "serial.time_scale": Key((int, float), 20.0, "emulator only: how much faster than real time it runs", (), _in(0.01, 10000)),
    "gpio.pin_factory": Key(str, "mock", "gpiozero pin factory: mock (no hardware), lgpio (Pi 5 and 4), rpigpio (not on a Pi 5), native", ("mock", "lgpio", "rpigpio", "native", "pigpio"), _pin_factory_on_board),
    "gpio.start_button": Key((int, str), 5, "start/shuffle button pin", (), _pin),
    "gpio.dice_button": Key((int, str), 6, "dice button pin", (), _pin),
    "gpio.judge_button": Key((int, str), 13, "judge-call button pin", (), _pin),
    "gpio.status_led": Key((int, str), 19, "status LED pin", (), _pin),
    "gpio.buzzer": Key((int, str), 26, "buzzer pin (session warnings, end-of-session gong)", (), _pin),
    "gpio.turn_leds": Key(list, [17, 27, 22, 23], "seat-turn LED pins, East South West North", (), _pins4),
    "gpio.dealer_leds": Key(list, [4, 18, 24, 25], "dealer LED pins, East South West North", (), _pins4),
    "gpio.call_buttons": Key(list, [12, 16, 20, 21], "single 'call' button per seat (the camera tells which call)", (), _pins4),
    "gpio.call_panels": Key(dict, {}, "optional full call panels: seat -> {chow/pung/kong/hu/riichi/flower = pin}", (), _call_panels),
    "gpio.bounce_ms": Key(int, 20, "button debounce time in milliseconds", (), _in(1, 1000, " ms")),
    "camera.source": Key(str, "synthetic", "synthetic (rendered), picamera, cam:N (OpenCV), an rtsp:// or http:// URL, or a folder/video to replay", (), _camera_source),
    "camera.width": Key(int, 1920, "frame width asked of a live camera (pixels)", (), _in(160, 8192, " pixels")),
    "camera.height": Key(int, 1080, "frame height asked of a live camera (pixels)", (), _in(120, 8192, " pixels")),
    "camera.calibration": Key(str, "", "calibration file written by 'mahjong-table calibrate' (empty: fit it "
                              "to the table's markers on the first frame)", (), _calibration_file),
    "camera.styles": Key(list, ["classic"], "the tile styles (sets) this table plays with, as enrolled for the "
                         "camera; the synthetic camera draws the first", (), _styles),
    "camera.tilesets": Key(list, [], "enrolled tile sets ('mahjong-table tiles enroll' .npz files) the camera reads with; a table that alternates two sets names both (empty: the enrolled sets of camera.styles)", (), lambda v: next((f"{p!r}: no such tile-set file" for p in v if not (isinstance(p, str) and Path(p).is_file())), None)),
    "camera.reconcile": Key(bool, True, "after a restart, re-read the table with the camera and compare it with "
                            "the record before the paused hand may resume"),
    "camera.dice_settle_s": Key((int, float), 0.3, "physical dice: seconds to wait after the dice motor stops "
                                "before the camera reads them", (), _in(0, 60, " s")),
    "store.path": Key(str, _default_store(), "the durable event store (SQLite)", (), _store_path),
    "hall.address": Key(str, "", "hall broker, e.g. mqtt://hall.local:1883 or mqtts://hall.local:8883 (empty: standalone table)"),
    "hall.id": Key(str, "hall", "the hall's id: this table publishes under hall/<id>/table/<table.id>/"),
    "hall.username": Key(str, "", "MQTT username at the hall's broker (empty: the table id)"),
    "hall.password": Key(str, "", "MQTT password (from 'mahjong-table hall provision')"),
    "hall.cafile": Key(str, "", "TLS (mqtts://): the hall's CA certificate"),
    "hall.certfile": Key(str, "", "TLS: this table's client certificate"),
    "hall.keyfile": Key(str, "", "TLS: this table's client key"),
    "hall.events": Key(str, "results", "what goes to the hall: results and hand starts, or every event", ("results", "all")),
    "hall.resend_s": Key((int, float), 5.0, "seconds before an unacknowledged result is sent again", (), _positive),
    "hall.seat_check": Key(bool, False, "before a hall session's first hand, read the players' badges with the "
                           "camera and hold the hand while a seat does not match the hall's seating"),
    "web.host": Key(str, "127.0.0.1", "address the table's web page listens on"),
    "web.port": Key(int, 8080, "port of the table's web page", (), _port),
    "web.language": Key(str, "en", "the page's language until a viewer switches it", ("en", "ru")),
    "web.judge_pin_hash": Key(str, "", "the judge's PIN, hashed: written by 'mahjong-table web set-pin' (empty: no judge login)", (), _pin_hash),
    "web.camera_public": Key(bool, True, "show the camera view to everyone (false: to the logged-in judge only)"),
    "web.camera_interval_s": Key((int, float), 2.0, "seconds between camera-view frames while someone watches it", (), _positive),
    "web.tls_certfile": Key(str, "", "HTTPS: this table's page certificate from the hall CA (hall provision --tls); empty: plain HTTP"),
    "web.tls_keyfile": Key(str, "", "HTTPS: its key"),
    "web.http_port": Key(int, -1, "with HTTPS: a plain-HTTP port for the public view; its login and console paths redirect to HTTPS (-1: none, 0: any free port)", (), lambda v: None if v == -1 else _port(v)),
    "web.names": Key(list, [], "the host names/addresses the judges' phones reach this page by: the certificate must cover each (and web.host unless it is 0.0.0.0/::)", (), lambda v: None if all(isinstance(x, str) and x for x in v) else "a list of host names or addresses"),
    "web.insecure_login": Key(bool, False, "allow the judge's login over plain HTTP from other machines (without HTTPS only the table's own screen may log in); warned on every start and on the page"),
    "web.session_idle_minutes": Key((int, float), 60, "a judge's session ends after this many minutes without a request", (), _in(1, 24 * 60, " minutes")),
    "web.session_max_hours": Key((int, float), 12, "a judge's session ends this many hours after the login, whatever happens", (), _in(0.1, 72, " hours")),
    "service.watchdog": Key(bool, True, "ping the systemd watchdog while the main loop is healthy"),
    "referee.enabled": Key(bool, True, "the camera referee follows each hand (false: the operator presses START when a hand is over)"),
    "referee.claim_wait_s": Key((int, float), 0, "seconds the referee awaits further calls before granting a win on a discard where the profile sets no claim time (0: 3 s; where it does, its claim window rules)", (), _in(0, 60, " s")),
    "referee.reveal_wait_s": Key((int, float), 4.0, "after an exhaustive draw, seconds after the last hand shown before the others count as not ready", (), _positive),
    "referee.min_score": Key((int, float), 0.7, "a tile read with less confidence than this is asked about, never guessed", (), _in(0, 1)),
    "referee.demo_camera": Key(str, "frames", "demo mode: the bots' table reaches the referee as rendered frames read by vision (frames) or as exact observations (exact)", ("frames", "exact")),
}


# Keys that no longer exist: a file that sets one is told what replaced it.
RETIRED: dict[str, str] = {
    "geometry.table_mm": "retired: the playing surface's size comes from the camera calibration "
                         "('mahjong-table calibrate'), not from the configuration",
}


def _pins_in_use(values: dict[str, Any]) -> list[tuple[str, Any]]:
    """(key, pin) for every GPIO pin of the panel (the buttons, the LEDs, the buzzer, the call panels)."""
    out: list[tuple[str, Any]] = []
    panels = values.get("gpio.call_panels") or {}
    for key in SCHEMA:
        if not key.startswith("gpio.") or key in ("gpio.pin_factory", "gpio.bounce_ms", "gpio.call_panels"):
            continue
        v = values.get(key)
        if key == "gpio.call_buttons" and isinstance(v, list):  # a seat with a full panel has no call button
            out += [(key, pin) for seat, pin in enumerate(v) if str(seat) not in panels]
        elif isinstance(v, list):
            out += [(key, pin) for pin in v]
        else:
            out.append((key, v))
    if isinstance(panels, dict):
        for seat, calls in panels.items():
            if isinstance(calls, dict):
                out += [(f"gpio.call_panels.{seat}.{call}", pin) for call, pin in calls.items()]
    return out


def _duplicate_pins(values: dict[str, Any], given: set[str]) -> list[tuple[str, str]]:
    """A pin used twice; reported on the key the file set (the other may be a default)."""
    seen: dict[int, str] = {}
    problems = []
    pins = _pins_in_use(values)
    pins.sort(key=lambda kp: kp[0].split(".")[0] + "." + kp[0].split(".")[1] in given)  # defaults first
    for key, pin in pins:
        n = gpio_number(pin)
        if n is None:
            continue
        if n in seen and seen[n] != key:
            problems.append((key, f"pin {pin!r} (GPIO{n}) is already used by {seen[n]}"))
        elif n in seen:
            problems.append((key, f"pin {pin!r} (GPIO{n}) is given twice"))
        else:
            seen[n] = key
    return problems


def _web_tls(values: dict[str, Any], given: set[str]) -> list[tuple[str, str]]:
    """The page's certificate: a missing or expired file, a key that does not match, a name it does not cover."""
    cert, key = values.get("web.tls_certfile", ""), values.get("web.tls_keyfile", "")
    if not cert and not key:
        return []
    from hall.tls import cert_problems, is_loopback

    host = values.get("web.host", "")
    names = list(values.get("web.names") or [])
    if host and host not in ("0.0.0.0", "::") and not is_loopback(host) and host not in names:
        names.append(host)
    where = {"cert": "web.tls_certfile", "key": "web.tls_keyfile", "names": "web.names" if "web.names" in given else "web.tls_certfile"}
    return [(where[which], why) for which, why in cert_problems(cert, key, names)]


# Checks across keys: (values, keys the file set) -> [(key, problem)].
CROSS_CHECKS: list[Callable[[dict[str, Any], set[str]], list[tuple[str, str]]]] = [_duplicate_pins, _web_tls]


class ConfigError(ValueError):
    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("; ".join(problems))


def _frozen(v: Any) -> Any:
    if isinstance(v, list):
        return tuple(_frozen(x) for x in v)
    if isinstance(v, dict):
        return MappingProxyType({k: _frozen(x) for k, x in v.items()})
    return v


def _annotation(t: type | tuple[type, ...]) -> Any:
    ts = t if isinstance(t, tuple) else (t,)
    names = {list: "tuple", dict: "Mapping[str, Any]"}
    return " | ".join(names.get(x, x.__name__) for x in ts)


def _section_classes() -> dict[str, type]:
    """One frozen dataclass per section, derived from SCHEMA: ``TableSection(id: str, profile: str, ...)``."""
    fields: dict[str, list[tuple[str, Any]]] = {}
    for key, spec in SCHEMA.items():
        sec, name = key.split(".", 1)
        fields.setdefault(sec, []).append((name, _annotation(spec.type)))
    out = {}
    for sec, fs in fields.items():
        cls = dataclasses.make_dataclass(f"{sec.title()}Section", fs, frozen=True)
        cls.__module__ = __name__
        out[sec] = cls
    return out


SECTIONS = _section_classes()


@dataclass(frozen=True)
class Config:
    """The effective configuration: ``cfg.<section>.<name>`` (typed, frozen) or ``cfg["section.name"]``."""

    values: dict[str, Any]
    source: str  # the file read, or "defaults"
    lines: dict[str, int] = field(default_factory=dict, compare=False, repr=False)  # key -> line in the file

    def __post_init__(self) -> None:
        by_sec: dict[str, dict[str, Any]] = {}
        for key, v in self.values.items():
            sec, name = key.split(".", 1)
            by_sec.setdefault(sec, {})[name] = _frozen(v)
        object.__setattr__(self, "_sections", {sec: cls(**by_sec.get(sec, {})) for sec, cls in SECTIONS.items()})

    def __getattr__(self, name: str) -> Any:
        sections = self.__dict__.get("_sections", {})
        if name in sections:
            return sections[name]
        raise AttributeError(f"no configuration section {name!r} (sections: {', '.join(SECTIONS)})")

    def __getitem__(self, key: str) -> Any:
        return self.values[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.values.get(key, default)

    def section(self, name: str) -> dict[str, Any]:
        """A section as a plain dict of its keys (``gpio`` -> {"start_button": 5, ...})."""
        return {k.split(".", 1)[1]: v for k, v in self.values.items() if k.startswith(name + ".")}

    def with_overrides(self, **kv: Any) -> Config:
        """A copy with ``section__key=value`` overrides (tests and the CLI)."""
        vals = dict(self.values)
        for k, v in kv.items():
            vals[k.replace("__", ".")] = v
        problems = _validate(vals, {k.replace("__", ".") for k in kv})
        if problems:
            raise ConfigError(problems)
        return Config(vals, self.source, self.lines)


def defaults() -> Config:
    return Config({k: v.default for k, v in SCHEMA.items()}, "defaults")


def _flatten(d: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in d.items():
        key = f"{prefix}{k}"
        if isinstance(v, dict) and key not in SCHEMA and key not in RETIRED:
            out.update(_flatten(v, key + "."))
        else:
            out[key] = v
    return out


def _type_name(t: type | tuple[type, ...]) -> str:
    names = {int: "integer", float: "number", str: "string", bool: "true/false", list: "list", dict: "table"}
    ts = t if isinstance(t, tuple) else (t,)
    return " or ".join(names.get(x, x.__name__) for x in ts)


def _validate(values: dict[str, Any], given: set[str] | None = None) -> list[str]:
    """Every problem as ``key: what is wrong`` (``given``: the keys a file or override set; default all)."""
    return [f"{k}: {why}" for k, why in _problems(values, set(values) if given is None else given)]


def _problems(values: dict[str, Any], given: set[str]) -> list[tuple[str, str]]:
    """Every problem as (key, what is wrong); ``given`` = the keys a file or override set."""
    problems: list[tuple[str, str]] = []
    for key, v in values.items():
        spec = SCHEMA.get(key)
        if spec is None:
            if key in RETIRED:
                problems.append((key, RETIRED[key]))
                continue
            close = difflib.get_close_matches(key, SCHEMA, n=1)
            hint = f" (did you mean {close[0]}?)" if close else ""
            problems.append((key, f"unknown key{hint}"))
            continue
        types = spec.type if isinstance(spec.type, tuple) else (spec.type,)
        if isinstance(v, bool) and bool not in types or not isinstance(v, types):
            problems.append((key, f"{v!r} is not a {_type_name(spec.type)} — {spec.help}"))
            continue
        if spec.unused and key in given and v != spec.default:
            problems.append((key, f"not used: {spec.unused}; remove it"))
            continue
        if spec.choices and v not in spec.choices:
            allowed = ", ".join(map(str, spec.choices))
            problems.append((key, f"{v!r} is not one of {allowed} — {spec.help}"))
            continue
        if spec.check and (key in given or v != spec.default):
            bad = spec.check(v)
            if bad:
                problems.append((key, bad))
    bad = {k for k, _ in problems}  # checks across keys see the keys that passed (the rest as defaults)
    sound = {k: (SCHEMA[k].default if k in bad else v) for k, v in values.items() if k in SCHEMA}
    for cross in CROSS_CHECKS:
        problems += cross(sound, given - bad)
    return problems


_HEADER = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")
_KEYLINE = re.compile(r"""^\s*((?:"[^"]*"|'[^']*'|[A-Za-z0-9_-]+)(?:\s*\.\s*(?:"[^"]*"|'[^']*'|[A-Za-z0-9_-]+))*)\s*=""")


def _dotted(text: str) -> str:
    parts = re.findall(r""""([^"]*)"|'([^']*)'|([A-Za-z0-9_-]+)""", text)
    return ".".join(a or b or c for a, b, c in parts)


def key_lines(text: str) -> dict[str, int]:
    """Where each key is set (1-based line), from the TOML text: ``[section]`` headers and ``key =`` lines
    (a key of a sub-table counts for the schema key above it: ``gpio.call_panels.0.hu`` -> its own line)."""
    lines: dict[str, int] = {}
    table = ""
    depth = 0  # inside a multi-line array or inline table: no key lines there
    for n, line in enumerate(text.splitlines(), 1):
        if depth == 0:
            m = _HEADER.match(line)
            if m:
                table = _dotted(m.group(1))
                lines.setdefault(table, n)
                continue
            m = _KEYLINE.match(line)
            if m:
                key = (table + "." if table else "") + _dotted(m.group(1))
                lines.setdefault(key, n)
        code = re.sub(r"""("[^"]*"|'[^']*')""", "", line.split("#", 1)[0])
        depth = max(0, depth + code.count("[") + code.count("{") - code.count("]") - code.count("}"))
    return lines


def _line_of(key: str, lines: dict[str, int]) -> int | None:
    """The key's line; for a table key its first sub-key's; else its section's header."""
    if key in lines:
        return lines[key]
    inner = [n for k, n in lines.items() if k.startswith(key + ".")]
    if inner:
        return min(inner)
    k = key.rpartition(".")[0]
    while k:
        if k in lines:
            return lines[k]
        k = k.rpartition(".")[0]
    return None


def _where(path: Path, key: str, lines: dict[str, int]) -> str:
    n = _line_of(key, lines)
    return f"{path}:{n}" if n else f"{path}"


def check(path: str | Path | None) -> tuple[Config | None, list[str]]:
    """Read and validate; returns (config or None, every problem found — one line each, naming the file, the
    line and the key)."""
    if path is None:
        return defaults(), []
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None, [f"{p}: no such file"]
    except IsADirectoryError:
        return None, [f"{p}: is a directory, not a config file"]
    except PermissionError:
        return None, [f"{p}: permission denied"]
    except UnicodeDecodeError:
        return None, [f"{p}: not a UTF-8 text file"]
    except OSError as exc:
        return None, [f"{p}: cannot read it: {exc.strerror or exc}"]
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"\(at line (\d+), column (\d+)\)", str(exc))
        msg = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(exc)) if m else str(exc)
        where = f"{p}:{m.group(1)}" if m else str(p)
        return None, [f"{where}: not valid TOML: {msg}" + (f" (column {m.group(2)})" if m else "")]
    lines = key_lines(text)
    flat = _flatten(data)
    vals = {k: v.default for k, v in SCHEMA.items()}
    vals.update(flat)
    problems = [f"{_where(p, key, lines)}: {key}: {why}" for key, why in _problems(vals, set(flat))]
    if problems:
        return None, problems
    return Config(vals, str(p), lines), []


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
    """The defaults as a commented TOML file (``mahjong-table config example``): every key this build uses."""
    lines = ["# mahjong-table configuration (/etc/mahjong-table/config.toml)", ""]
    section = None
    for key, spec in SCHEMA.items():
        if spec.unused:
            continue
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
