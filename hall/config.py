"""The hall service's configuration (``hall serve --config hall.toml``): TOML over working defaults.

Keys are data (:data:`SCHEMA`); :func:`load` reports every problem at once, each naming the key.
``hall provision`` writes a complete file for a provisioned hall.
"""
from __future__ import annotations

import difflib
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

PROFILES = ("sichuan-mpl2025", "sichuan-wmsg", "mcr", "mcr-siamese", "riichi-ema2016", "red", "basic")


@dataclass(frozen=True)
class Key:
    type: type | tuple[type, ...]
    default: Any
    help: str
    choices: tuple[Any, ...] = ()


SCHEMA: dict[str, Key] = {
    "hall.id": Key(str, "hall", "the hall's id: the MQTT topic root hall/<id>/..."),
    "hall.name": Key(str, "Tournament", "the tournament's name on the dashboard and the protocols"),
    "hall.profile": Key(str, "sichuan-mpl2025", "the rule set played (its profile computes the standings)", PROFILES),
    "hall.db": Key(str, "var/hall.sqlite", "the hall's database (SQLite)"),
    "hall.tables": Key(list, [], "the table ids of the hall (empty: table-1 .. table-N as needed)"),
    "hall.seed": Key(int, 0, "seed of the seating draws (0: from the system's random source)"),
    "broker.url": Key(str, "", "an existing broker, mqtt://HOST:PORT or mqtts://HOST:PORT (empty: start mosquitto)"),
    "broker.dir": Key(str, "var/broker", "the embedded mosquitto's folder (config, persistence, log)"),
    "broker.host": Key(str, "127.0.0.1", "the embedded mosquitto's listening address"),
    "broker.port": Key(int, 1883, "the embedded mosquitto's port (0: any free port)"),
    "broker.username": Key(str, "", "the hall's MQTT username (empty: anonymous)"),
    "broker.password": Key(str, "", "the hall's MQTT password"),
    "broker.password_file": Key(str, "", "embedded mosquitto: password file (hall provision writes it)"),
    "broker.acl_file": Key(str, "", "embedded mosquitto: ACL file (hall provision writes it)"),
    "broker.cafile": Key(str, "", "TLS: the hall CA certificate"),
    "broker.certfile": Key(str, "", "TLS: this client's (or the embedded broker's) certificate"),
    "broker.keyfile": Key(str, "", "TLS: its key"),
    "broker.server_certfile": Key(str, "", "TLS, embedded mosquitto: the broker's certificate"),
    "broker.server_keyfile": Key(str, "", "TLS, embedded mosquitto: the broker's key"),
    "web.host": Key(str, "127.0.0.1", "the dashboard's listening address"),
    "web.port": Key(int, 8090, "the dashboard's port (0: any free port); HTTPS when web.tls_certfile is set"),
    "web.tls_certfile": Key(str, "", "HTTPS: the dashboard's certificate from the hall CA (hall provision --tls)"),
    "web.tls_keyfile": Key(str, "", "HTTPS: its key"),
    "web.cafile": Key(str, "", "the hall CA's certificate offered for download on /ca (judges' phones trust it)"),
    "web.http_port": Key(int, -1, "with HTTPS: a plain-HTTP port for the public view and the CA download; its login "
                         "paths redirect to HTTPS (-1: none, 0: any free port)"),
    "web.names": Key(list, [], "the host names/addresses the dashboard is reached by (its certificate must cover "
                     "them; the first is used in links)"),
    "web.insecure_login": Key(bool, False, "allow the director's login over plain HTTP from other machines "
                              "(a warning on every start and on the page)"),
    "web.session_idle_minutes": Key(int, 60, "a director's session ends after this long without a request"),
    "web.session_max_hours": Key(int, 8, "a director's session ends this long after the login, whatever happens"),
    "session.minutes": Key(int, 0, "a session's length in minutes (0: the profile's)"),
    "session.warning_minutes": Key(int, 0, "the warning before the end, in minutes (0: the profile's: "
                                   "000 15 minutes, 004 the 10-minute red zone)"),
    "directors.users": Key(dict, {}, "director logins: name = 'pbkdf2_sha256$...' (hall director-password)"),
    "pantheon.url": Key(str, "", "Pantheon's Mimir, e.g. https://mimir.riichimahjong.org (empty: no Pantheon)"),
    "pantheon.token": Key(str, "", "the X-Auth-Token of the referee or administrator who records the event's games"),
    "pantheon.person_id": Key(int, 0, "that person's Pantheon id (X-Current-Person-Id)"),
    "pantheon.event_id": Key(int, 0, "the Pantheon event the tables' games go to (X-Current-Event-Id)"),
    "pantheon.outbox": Key(str, "var/pantheon.sqlite", "the Pantheon outbox (SQLite): what waits for Pantheon's answer"),
}


class HallConfigError(ValueError):
    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("; ".join(problems))


@dataclass(frozen=True)
class HallConfig:
    values: dict[str, Any]
    source: str

    def __getitem__(self, key: str) -> Any:
        return self.values[key]

    def with_overrides(self, **kv: Any) -> HallConfig:
        vals = dict(self.values)
        vals.update({k.replace("__", "."): v for k, v in kv.items()})
        problems = _validate(vals)
        if problems:
            raise HallConfigError(problems)
        return HallConfig(vals, self.source)


def defaults() -> HallConfig:
    return HallConfig({k: v.default for k, v in SCHEMA.items()}, "defaults")


def _flatten(d: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in d.items():
        key = f"{prefix}{k}"
        if isinstance(v, dict) and key not in SCHEMA:
            out.update(_flatten(v, key + "."))
        else:
            out[key] = v
    return out


def _validate(values: dict[str, Any]) -> list[str]:
    problems = []
    for key, v in values.items():
        spec = SCHEMA.get(key)
        if spec is None:
            close = difflib.get_close_matches(key, SCHEMA, n=1)
            problems.append(f"{key}: unknown key" + (f" (did you mean {close[0]}?)" if close else ""))
            continue
        types = spec.type if isinstance(spec.type, tuple) else (spec.type,)
        if isinstance(v, bool) and bool not in types or not isinstance(v, types):
            problems.append(f"{key}: {v!r} is not a {'/'.join(t.__name__ for t in types)} — {spec.help}")
        elif spec.choices and v not in spec.choices:
            problems.append(f"{key}: {v!r} is not one of {', '.join(map(str, spec.choices))}")
    return problems


def load(path: str | Path | None) -> HallConfig:
    if path is None:
        return defaults()
    p = Path(path)
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise HallConfigError([f"{p}: no such file"]) from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise HallConfigError([f"{p}: not valid TOML: {exc}"]) from None
    flat = _flatten(data)
    problems = _validate(flat)
    if problems:
        raise HallConfigError(problems)
    vals = {k: v.default for k, v in SCHEMA.items()}
    vals.update(flat)
    return HallConfig(vals, str(p))


def to_toml(values: dict[str, Any]) -> str:
    """A config file with the given values (others left at their defaults, commented)."""
    import json

    lines: list[str] = ["# mahjong-table hall configuration (mahjong-table hall serve --config FILE)"]
    section = None
    for key, spec in SCHEMA.items():
        sec, name = key.split(".", 1)
        if sec != section:
            lines += ["", f"[{sec}]"]
            section = sec
        v = values.get(key, spec.default)
        if isinstance(v, dict):
            lines.append(f"# {spec.help}")
            lines.append(f"{name} = {{ " + ", ".join(f"{k} = {json.dumps(x)}" for k, x in v.items()) + " }")
            continue
        text = ("true" if v else "false") if isinstance(v, bool) else json.dumps(v)
        lines += [f"# {spec.help}", f"{name} = {text}" if key in values else f"# {name} = {text}"]
    return "\n".join(lines) + "\n"
