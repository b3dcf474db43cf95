"""The hall service's configuration (``hall serve --config hall.toml``): TOML over working defaults.

The schema is the section dataclasses below (one per ``[section]``, one :func:`config_engine.key` field per
key); the engine shared with the table (``config_engine``) reads a file, reports every problem at once as
``FILE:LINE: KEY: what is wrong`` (an unknown key with the closest known one, a retired key with what replaced
it) and writes the file ``hall provision`` leaves for a provisioned hall (:func:`to_toml`).
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

import config_engine
from config_engine import ConfigBase, Schema, key
from rules.profiles import registry

__all__ = ["SCHEMA", "SECTIONS", "HallConfig", "HallConfigError", "defaults", "load", "to_toml"]

_NO_DIRECTORS: Mapping[str, str] = MappingProxyType({})


@dataclass(frozen=True)
class HallSection:
    id: str = key("hall", "the hall's id: the MQTT topic root hall/<id>/...")
    name: str = key("Tournament", "the tournament's name on the dashboard and the protocols")
    profile: str = key("sichuan-mpl2025", "the rule set played (its profile computes the standings)",
                       choices=registry.names)
    db: str = key("var/hall.sqlite", "the hall's database (SQLite)")
    tables: tuple[str, ...] = key((), "the table ids of the hall (empty: table-1 .. table-N as needed)")
    seed: int = key(0, "seed of the seating draws (0: from the system's random source)")


@dataclass(frozen=True)
class BrokerSection:
    url: str = key("", "an existing broker, mqtt://HOST:PORT or mqtts://HOST:PORT (empty: start mosquitto)")
    dir: str = key("var/broker", "the embedded mosquitto's folder (config, persistence, log)")
    host: str = key("127.0.0.1", "the embedded mosquitto's listening address")
    port: int = key(1883, "the embedded mosquitto's port (0: any free port)")
    username: str = key("", "the hall's MQTT username (empty: anonymous)")
    password: str = key("", "the hall's MQTT password")
    password_file: str = key("", "embedded mosquitto: password file (hall provision writes it)")
    acl_file: str = key("", "embedded mosquitto: ACL file (hall provision writes it)")
    cafile: str = key("", "TLS: the hall CA certificate")
    certfile: str = key("", "TLS: this client's (or the embedded broker's) certificate")
    keyfile: str = key("", "TLS: its key")
    server_certfile: str = key("", "TLS, embedded mosquitto: the broker's certificate")
    server_keyfile: str = key("", "TLS, embedded mosquitto: the broker's key")


@dataclass(frozen=True)
class WebSection:
    host: str = key("127.0.0.1", "the dashboard's listening address")
    port: int = key(8090, "the dashboard's port (0: any free port); HTTPS when web.tls_certfile is set")
    tls_certfile: str = key("", "HTTPS: the dashboard's certificate from the hall CA (hall provision --tls)")
    tls_keyfile: str = key("", "HTTPS: its key")
    cafile: str = key("", "the hall CA's certificate offered for download on /ca (judges' phones trust it)")
    http_port: int = key(-1, "with HTTPS: a plain-HTTP port for the public view and the CA download; its login "
                         "paths redirect to HTTPS (-1: none, 0: any free port)")
    names: tuple[str, ...] = key((), "the host names/addresses the dashboard is reached by (its certificate must "
                                 "cover them; the first is used in links)")
    insecure_login: bool = key(False, "allow the director's login over plain HTTP from other machines (a warning "
                               "on every start and on the page)")
    session_idle_minutes: int = key(60, "a director's session ends after this long without a request")
    session_max_hours: int = key(8, "a director's session ends this long after the login, whatever happens")


@dataclass(frozen=True)
class SessionSection:
    minutes: int = key(0, "a session's length in minutes (0: the profile's)")
    warning_minutes: int = key(0, "the warning before the end, in minutes (0: the profile's: 000 15 minutes, 004 "
                               "the 10-minute red zone)")


@dataclass(frozen=True)
class DirectorsSection:
    users: Mapping[str, str] = key(_NO_DIRECTORS, "director logins: name = 'pbkdf2_sha256$...' (hall "
                                   "director-password)")


@dataclass(frozen=True)
class PantheonSection:
    url: str = key("", "Pantheon's Mimir, e.g. https://mimir.riichimahjong.org (empty: no Pantheon)")
    token: str = key("", "the X-Auth-Token of the referee or administrator who records the event's games")
    person_id: int = key(0, "that person's Pantheon id (X-Current-Person-Id)")
    event_id: int = key(0, "the Pantheon event the tables' games go to (X-Current-Event-Id)")
    outbox: str = key("var/pantheon.sqlite", "the Pantheon outbox (SQLite): what waits for Pantheon's answer")


# Keys that no longer exist: a file that sets one is told what replaced it ("section.key" -> "retired: ...").
RETIRED: dict[str, str] = {}


class HallConfigError(config_engine.ConfigError):
    """Every problem of a hall configuration, one line each (``problems``)."""


@dataclass(frozen=True)
class HallConfig(ConfigBase):
    """The hall's effective configuration: ``cfg.<section>.<name>`` (typed, frozen) or ``cfg["section.name"]``."""

    hall: HallSection = field(init=False, repr=False, compare=False)
    broker: BrokerSection = field(init=False, repr=False, compare=False)
    web: WebSection = field(init=False, repr=False, compare=False)
    session: SessionSection = field(init=False, repr=False, compare=False)
    directors: DirectorsSection = field(init=False, repr=False, compare=False)
    pantheon: PantheonSection = field(init=False, repr=False, compare=False)


HallConfig.schema = Schema(HallConfig, retired=RETIRED, error=HallConfigError)
SCHEMA = HallConfig.schema.keys  # "section.key" -> Key (types, default, help, choices)
SECTIONS = HallConfig.schema.sections  # "section" -> its frozen dataclass


def defaults() -> HallConfig:
    return HallConfig.defaults()


def load(path: str | Path | None) -> HallConfig:
    """The file's configuration over the defaults (None: the defaults); raises :class:`HallConfigError` with
    every problem, one line each, naming the file, the line and the key."""
    return HallConfig.load(path)


def to_toml(values: Mapping[str, object]) -> str:
    """A config file with the given values (others left at their defaults, commented)."""
    return config_engine.to_toml(HallConfig.schema, ["# mahjong-table hall configuration (mahjong-table hall serve "
                                                     "--config FILE)"], values)
