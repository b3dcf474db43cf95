"""Table service configuration: TOML at ``/etc/mahjong-table/config.toml`` with working development defaults.

The schema is the section dataclasses below: one frozen dataclass per ``[section]``, one field per key, its
annotation the type and :func:`config_engine.key` its default, help text, allowed values and check. The
engine (``config_engine``, shared with the hall) does the rest: :func:`load` merges a file over the defaults
and returns a :class:`Config` (``cfg.serial.baud``, ``cfg.gpio.turn_leds`` typed and frozen;
``cfg["serial.baud"]`` reads the same value as TOML gives it). :func:`check` returns every problem at once,
one line each, naming the file, the line and the key and saying what is allowed — ``mahjong-table config
check`` prints them. Every key is used or rejected: an unknown key is a problem (with the closest known key), a
retired key says what replaced it, a key this build does not use (``unused=``) is refused when a file sets
it, and checks across keys catch what no single key shows (a pin given twice, the page's certificate).
tests/controller/test_config_keys.py proves each key changes what the service does.
"""
from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

import config_engine
from config_engine import ConfigBase, CrossCheck, Schema, key, key_lines, to_toml
from config_engine.keys import Check
from rules.profiles import registry

DEFAULT_PATH = Path("/etc/mahjong-table/config.toml")
PROFILES = tuple(registry.names())  # the rule profiles, as the registry names them (table.profile asks it)
CALLS = ("chow", "pung", "kong", "hu", "riichi", "flower", "call")
TILE_ASSETS = Path(__file__).resolve().parents[1] / "vision" / "assets" / "tiles"  # enrolled tile styles

__all__ = ["CALLS", "DEFAULT_PATH", "PROFILES", "SCHEMA", "SECTIONS", "Config", "ConfigError", "check",
           "defaults", "example_toml", "gpio_number", "key_lines", "load"]


def _default_store() -> str:
    state = os.environ.get("STATE_DIRECTORY")  # set by systemd's StateDirectory=
    return str(Path(state) / "events.sqlite") if state else "var/events.sqlite"


# The Pi's 40-pin header: physical pin -> GPIO (BCM) number, for BOARDn / J8:n pin names.
HEADER_PINS = {3: 2, 5: 3, 7: 4, 8: 14, 10: 15, 11: 17, 12: 18, 13: 27, 15: 22, 16: 23, 18: 24, 19: 10, 21: 9,
               22: 25, 23: 11, 24: 8, 26: 7, 27: 0, 28: 1, 29: 5, 31: 6, 32: 12, 33: 13, 35: 19, 36: 16, 37: 26,
               38: 20, 40: 21}


def gpio_number(v: object) -> int | None:
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


# --- the keys' own checks: the value (of the key's type) -> what is wrong, or None ------------------------------

def _pin(v: object) -> str | None:
    if v is None or gpio_number(v) is not None:
        return None
    return f"{v!r} is not a GPIO pin (0..27, or a name like 'GPIO17' / 'BOARD11' / 'J8:11')"


def _pins4(v: object) -> str | None:
    if not isinstance(v, list) or len(v) != 4:
        return "must be a list of four pins, one per seat (East, South, West, North)"
    for p in v:
        bad = _pin(p)
        if bad:
            return bad
    return None


def _port(v: object) -> str | None:
    return None if isinstance(v, int) and 0 <= v <= 65535 else "must be a TCP port 1..65535 (0: any free port)"


def _http_port(v: object) -> str | None:
    return None if v == -1 else _port(v)


def _positive(v: object) -> str | None:
    ok = isinstance(v, int | float) and not isinstance(v, bool) and 0 < v < float("inf")
    return None if ok else "must be a positive number"


def _in(lo: float, hi: float, unit: str = "") -> Check:
    def check(v: object) -> str | None:
        ok = isinstance(v, int | float) and not isinstance(v, bool) and lo <= v <= hi
        return None if ok else f"must be between {lo:g} and {hi:g}{unit}"
    return check


def _camera_source(v: object) -> str | None:
    """synthetic | picamera | cam:N | an rtsp:// http:// https:// URL | an existing folder or video file."""
    if not isinstance(v, str):
        return f"{v!r} is not a camera"
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


def _calibration_file(v: object) -> str | None:
    if not v or not isinstance(v, str):
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


def _pin_factory_on_board(v: object) -> str | None:
    """A pin factory this board cannot run (rpigpio on a Pi 5), by the board's model (controller/board.py)."""
    from controller import board

    return board.pin_factory_problem(str(v), board.model())


def _table_id(v: object) -> str | None:
    ok = isinstance(v, str) and re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]{0,39}", v)
    return None if ok else "must be 1..40 letters, digits, '.', '_' or '-' (it names every hand: table-1-00042)"


def _store_path(v: object) -> str | None:
    if not v or not isinstance(v, str):
        return "must name the event store file"
    if Path(v).is_dir():
        return f"{v!r} is a directory: give the file, e.g. {str(Path(v) / 'events.sqlite')!r}"
    return None


def _styles(v: object) -> str | None:
    known = sorted(p.parent.name for p in TILE_ASSETS.glob("*/style.json"))
    if not isinstance(v, list) or not v or not all(isinstance(x, str) for x in v):
        return f"must be a non-empty list of tile style names ({', '.join(known)})"
    bad = [x for x in v if x not in known]
    return f"unknown tile style {bad[0]!r}; enrolled styles: {', '.join(known)}" if bad else None


def _tilesets(v: object) -> str | None:
    paths = v if isinstance(v, list) else []
    return next((f"{p!r}: no such tile-set file" for p in paths if not (isinstance(p, str) and Path(p).is_file())),
                None)


def _call_panels(v: object) -> str | None:
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


def _host_names(v: object) -> str | None:
    ok = isinstance(v, list) and all(isinstance(x, str) and x for x in v)
    return None if ok else "a list of host names or addresses"


def _pin_hash(v: object) -> str | None:
    from controller.web.security import hash_problem

    return hash_problem(str(v))


# --- the schema: one frozen dataclass per [section] -------------------------------------------------------------

Pin = int | str  # 17, "GPIO17", "BCM17", "BOARD11", "J8:11"
_NO_PANELS: Mapping[str, Mapping[str, Pin]] = MappingProxyType({})


@dataclass(frozen=True)
class TableSection:
    id: str = key("table-1", "this table's identity in the hall (letters, digits, . _ -)", check=_table_id)
    profile: str = key("sichuan-mpl2025", "the rule profile played at this table", choices=registry.names)
    players: int = key(4, "players seated", choices=(2, 3, 4))
    backend: str = key("mcu", "mcu: a controller board over serial; gpio: the Pi drives the motors",
                       choices=("mcu", "gpio"))
    dice: str = key("electronic", "electronic: the Pi draws the dice; physical: dice motor + camera",
                    choices=("electronic", "physical"))
    dice_pulse_ms: int = key(600, "physical dice: how long the dice motor is pulsed (milliseconds)",
                             check=_in(1, 5000, " ms"))
    tile_sets: int = key(1, "tile sets the table alternates, hand by hand (the MCU's tile_set 0, 1)", choices=(1, 2))


@dataclass(frozen=True)
class SerialSection:
    port: str = key("emulator", "serial device, pyserial URL (socket://, loop://) or 'emulator'")
    baud: int = key(115200, "serial speed of the link to the MCU",
                    choices=(9600, 57600, 115200, 230400, 460800, 921600, 1000000))
    time_scale: float = key(20.0, "emulator only: how much faster than real time it runs", check=_in(0.01, 10000))


@dataclass(frozen=True)
class GpioSection:
    pin_factory: str = key("mock", "gpiozero pin factory: mock (no hardware), lgpio (Pi 5 and 4), rpigpio (not on "
                           "a Pi 5), native", choices=("mock", "lgpio", "rpigpio", "native", "pigpio"),
                           check=_pin_factory_on_board)
    start_button: Pin = key(5, "start/shuffle button pin", check=_pin)
    dice_button: Pin = key(6, "dice button pin", check=_pin)
    judge_button: Pin = key(13, "judge-call button pin", check=_pin)
    status_led: Pin = key(19, "status LED pin", check=_pin)
    buzzer: Pin = key(26, "buzzer pin (session warnings, end-of-session gong)", check=_pin)
    turn_leds: tuple[Pin, ...] = key((17, 27, 22, 23), "seat-turn LED pins, East South West North", check=_pins4)
    dealer_leds: tuple[Pin, ...] = key((4, 18, 24, 25), "dealer LED pins, East South West North", check=_pins4)
    call_buttons: tuple[Pin, ...] = key((12, 16, 20, 21), "single 'call' button per seat (the camera tells which "
                                        "call)", check=_pins4)
    call_panels: Mapping[str, Mapping[str, Pin]] = key(_NO_PANELS, "optional full call panels: seat -> "
                                                       "{chow/pung/kong/hu/riichi/flower = pin}", check=_call_panels)
    bounce_ms: int = key(20, "button debounce time in milliseconds", check=_in(1, 1000, " ms"))


@dataclass(frozen=True)
class CameraSection:
    source: str = key("synthetic", "synthetic (rendered), picamera, cam:N (OpenCV), an rtsp:// or http:// URL, or "
                      "a folder/video to replay", check=_camera_source)
    width: int = key(1920, "frame width asked of a live camera (pixels)", check=_in(160, 8192, " pixels"))
    height: int = key(1080, "frame height asked of a live camera (pixels)", check=_in(120, 8192, " pixels"))
    calibration: str = key("", "calibration file written by 'mahjong-table calibrate' (empty: fit it to the "
                           "table's markers on the first frame)", check=_calibration_file)
    styles: tuple[str, ...] = key(("classic",), "the tile styles (sets) this table plays with, as enrolled for "
                                  "the camera; the synthetic camera draws the first", check=_styles)
    tilesets: tuple[str, ...] = key((), "enrolled tile sets ('mahjong-table tiles enroll' .npz files) the camera "
                                    "reads with; a table that alternates two sets names both (empty: the enrolled "
                                    "sets of camera.styles)", check=_tilesets)
    reconcile: bool = key(True, "after a restart, re-read the table with the camera and compare it with the "
                          "record before the paused hand may resume")
    dice_settle_s: float = key(0.3, "physical dice: seconds to wait after the dice motor stops before the camera "
                               "reads them", check=_in(0, 60, " s"))


@dataclass(frozen=True)
class StoreSection:
    path: str = key(_default_store(), "the durable event store (SQLite)", check=_store_path)


@dataclass(frozen=True)
class HallSection:
    address: str = key("", "hall broker, e.g. mqtt://hall.local:1883 or mqtts://hall.local:8883 (empty: "
                       "standalone table)")
    id: str = key("hall", "the hall's id: this table publishes under hall/<id>/table/<table.id>/")
    username: str = key("", "MQTT username at the hall's broker (empty: the table id)")
    password: str = key("", "MQTT password (from 'mahjong-table hall provision')")
    cafile: str = key("", "TLS (mqtts://): the hall's CA certificate")
    certfile: str = key("", "TLS: this table's client certificate")
    keyfile: str = key("", "TLS: this table's client key")
    events: str = key("results", "what goes to the hall: results and hand starts, or every event",
                      choices=("results", "all"))
    resend_s: float = key(5.0, "seconds before an unacknowledged result is sent again", check=_positive)
    seat_check: bool = key(False, "before a hall session's first hand, read the players' badges with the camera "
                           "and hold the hand while a seat does not match the hall's seating")


@dataclass(frozen=True)
class WebSection:
    host: str = key("127.0.0.1", "address the table's web page listens on")
    port: int = key(8080, "port of the table's web page", check=_port)
    language: str = key("en", "the page's language until a viewer switches it", choices=("en", "ru"))
    judge_pin_hash: str = key("", "the judge's PIN, hashed: written by 'mahjong-table web set-pin' (empty: no "
                              "judge login)", check=_pin_hash)
    camera_public: bool = key(True, "show the camera view to everyone (false: to the logged-in judge only)")
    camera_interval_s: float = key(2.0, "seconds between camera-view frames while someone watches it",
                                   check=_positive)
    tls_certfile: str = key("", "HTTPS: this table's page certificate from the hall CA (hall provision --tls); "
                            "empty: plain HTTP")
    tls_keyfile: str = key("", "HTTPS: its key")
    http_port: int = key(-1, "with HTTPS: a plain-HTTP port for the public view; its login and console paths "
                         "redirect to HTTPS (-1: none, 0: any free port)", check=_http_port)
    names: tuple[str, ...] = key((), "the host names/addresses the judges' phones reach this page by: the "
                                 "certificate must cover each (and web.host unless it is 0.0.0.0/::)",
                                 check=_host_names)
    insecure_login: bool = key(False, "allow the judge's login over plain HTTP from other machines (without HTTPS "
                               "only the table's own screen may log in); warned on every start and on the page")
    session_idle_minutes: float = key(60, "a judge's session ends after this many minutes without a request",
                                      check=_in(1, 24 * 60, " minutes"))
    session_max_hours: float = key(12, "a judge's session ends this many hours after the login, whatever happens",
                                   check=_in(0.1, 72, " hours"))


@dataclass(frozen=True)
class ServiceSection:
    watchdog: bool = key(True, "ping the systemd watchdog while the main loop is healthy")


@dataclass(frozen=True)
class RefereeSection:
    enabled: bool = key(True, "the camera referee follows each hand (false: the operator presses START when a "
                        "hand is over)")
    claim_wait_s: float = key(0, "seconds the referee awaits further calls before granting a win on a discard "
                              "where the profile sets no claim time (0: 3 s; where it does, its claim window "
                              "rules)", check=_in(0, 60, " s"))
    reveal_wait_s: float = key(4.0, "after an exhaustive draw, seconds after the last hand shown before the "
                               "others count as not ready", check=_positive)
    min_score: float = key(0.7, "a tile read with less confidence than this is asked about, never guessed",
                           check=_in(0, 1))
    demo_camera: str = key("frames", "demo mode: the bots' table reaches the referee as rendered frames read by "
                           "vision (frames) or as exact observations (exact)", choices=("frames", "exact"))


# Keys that no longer exist: a file that sets one is told what replaced it.
RETIRED: dict[str, str] = {
    "geometry.table_mm": "retired: the playing surface's size comes from the camera calibration "
                         "('mahjong-table calibrate'), not from the configuration",
}


# --- checks across keys: (values, keys the file set) -> [(key, problem)] ----------------------------------------

def _pins_in_use(values: Mapping[str, object]) -> list[tuple[str, object]]:
    """(key, pin) for every GPIO pin of the panel (the buttons, the LEDs, the buzzer, the call panels)."""
    out: list[tuple[str, object]] = []
    panels = values.get("gpio.call_panels") or {}
    for k in SCHEMA:
        if not k.startswith("gpio.") or k in ("gpio.pin_factory", "gpio.bounce_ms", "gpio.call_panels"):
            continue
        v = values.get(k)
        if k == "gpio.call_buttons" and isinstance(v, list):  # a seat with a full panel has no call button
            out += [(k, pin) for seat, pin in enumerate(v) if not (isinstance(panels, dict) and str(seat) in panels)]
        elif isinstance(v, list):
            out += [(k, pin) for pin in v]
        else:
            out.append((k, v))
    if isinstance(panels, dict):
        for seat, calls in panels.items():
            if isinstance(calls, dict):
                out += [(f"gpio.call_panels.{seat}.{call}", pin) for call, pin in calls.items()]
    return out


def _duplicate_pins(values: Mapping[str, object], given: set[str]) -> list[tuple[str, str]]:
    """A pin used twice; reported on the key the file set (the other may be a default)."""
    seen: dict[int, str] = {}
    problems = []
    pins = _pins_in_use(values)
    pins.sort(key=lambda kp: kp[0].split(".")[0] + "." + kp[0].split(".")[1] in given)  # defaults first
    for k, pin in pins:
        n = gpio_number(pin)
        if n is None:
            continue
        if n in seen and seen[n] != k:
            problems.append((k, f"pin {pin!r} (GPIO{n}) is already used by {seen[n]}"))
        elif n in seen:
            problems.append((k, f"pin {pin!r} (GPIO{n}) is given twice"))
        else:
            seen[n] = k
    return problems


def _web_tls(values: Mapping[str, object], given: set[str]) -> list[tuple[str, str]]:
    """The page's certificate: a missing or expired file, a key that does not match, a name it does not cover."""
    cert, keyfile = str(values.get("web.tls_certfile", "")), str(values.get("web.tls_keyfile", ""))
    if not cert and not keyfile:
        return []
    from hall.tls import cert_problems, is_loopback

    host = str(values.get("web.host", ""))
    given_names = values.get("web.names")
    names = [str(n) for n in given_names] if isinstance(given_names, list) else []
    if host and host not in ("0.0.0.0", "::") and not is_loopback(host) and host not in names:
        names.append(host)
    where = {"cert": "web.tls_certfile", "key": "web.tls_keyfile",
             "names": "web.names" if "web.names" in given else "web.tls_certfile"}
    return [(where[which], why) for which, why in cert_problems(cert, keyfile, names)]


CROSS_CHECKS: list[CrossCheck] = [_duplicate_pins, _web_tls]


class ConfigError(config_engine.ConfigError):
    """Every problem of a table configuration, one line each (``problems``)."""


@dataclass(frozen=True)
class Config(ConfigBase):
    """The effective configuration: ``cfg.<section>.<name>`` (typed, frozen) or ``cfg["section.name"]``."""

    table: TableSection = field(init=False, repr=False, compare=False)
    serial: SerialSection = field(init=False, repr=False, compare=False)
    gpio: GpioSection = field(init=False, repr=False, compare=False)
    camera: CameraSection = field(init=False, repr=False, compare=False)
    store: StoreSection = field(init=False, repr=False, compare=False)
    hall: HallSection = field(init=False, repr=False, compare=False)
    web: WebSection = field(init=False, repr=False, compare=False)
    service: ServiceSection = field(init=False, repr=False, compare=False)
    referee: RefereeSection = field(init=False, repr=False, compare=False)


Config.schema = Schema(Config, retired=RETIRED, cross_checks=CROSS_CHECKS, error=ConfigError)
SCHEMA = Config.schema.keys  # "section.key" -> Key (types, default, help, choices, check)
SECTIONS = Config.schema.sections  # "section" -> its frozen dataclass


def defaults() -> Config:
    return Config.defaults()


def _validate(values: Mapping[str, object], given: set[str] | None = None) -> list[str]:
    """Every problem as ``key: what is wrong`` (``given``: the keys a file or override set; default all)."""
    return Config.schema.validate(values, given)


def check(path: str | Path | None) -> tuple[Config | None, list[str]]:
    """Read and validate; returns (config or None, every problem found — one line each, naming the file, the
    line and the key)."""
    return Config.check(path)


def load(path: str | Path | None = None) -> Config:
    """The configuration: ``path``, else the system file if it exists, else the defaults."""
    if path is None and DEFAULT_PATH.exists():
        path = DEFAULT_PATH
    return Config.load(path)


def example_toml() -> str:
    """The defaults as a commented TOML file (``mahjong-table config example``): every key this build uses."""
    return to_toml(Config.schema, ["# mahjong-table configuration (/etc/mahjong-table/config.toml)", ""])
