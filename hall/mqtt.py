"""MQTT clients for the hall and the tables (paho-mqtt 2): broker URLs, credentials, TLS, persistent sessions.

Both ends use MQTT 3.1.1 with ``clean_session=False`` and a fixed client id (the table id, or the hall's),
so the broker keeps each client's subscriptions and its queued QoS-1 messages while it is away, and paho's
network thread reconnects by itself after a cut or a broker restart.
"""
from __future__ import annotations

import ssl
from dataclasses import dataclass
from urllib.parse import urlsplit

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

SCHEMES = {"mqtt": (1883, False), "tcp": (1883, False), "mqtts": (8883, True), "ssl": (8883, True)}


class BrokerURLError(ValueError):
    pass


@dataclass(frozen=True)
class BrokerAddress:
    host: str
    port: int
    tls: bool

    @property
    def url(self) -> str:
        return f"{'mqtts' if self.tls else 'mqtt'}://{self.host}:{self.port}"


def parse_url(url: str) -> BrokerAddress:
    """``mqtt://host[:port]`` (1883) or ``mqtts://host[:port]`` (8883, TLS)."""
    try:
        u = urlsplit(url)
        port = u.port
    except ValueError as exc:
        raise BrokerURLError(f"broker URL {url!r}: {exc}") from None
    if u.scheme not in SCHEMES or not u.hostname:
        raise BrokerURLError(f"broker URL {url!r}: use mqtt://HOST[:PORT] or mqtts://HOST[:PORT]")
    default_port, tls = SCHEMES[u.scheme]
    return BrokerAddress(u.hostname, port or default_port, tls)


@dataclass(frozen=True)
class Credentials:
    username: str = ""
    password: str = ""
    cafile: str = ""  # the hall CA (TLS): verifies the broker
    certfile: str = ""  # this client's certificate (TLS with client certificates)
    keyfile: str = ""


def make_client(client_id: str, url: str, creds: Credentials | None = None, *,
                will: tuple[str, str | bytes] | None = None,
                manual_ack: bool = False) -> tuple[mqtt.Client, BrokerAddress]:
    """A paho client with a persistent session, not yet connected (``connect_async`` + ``loop_start``)."""
    addr = parse_url(url)
    c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=False,
                    protocol=mqtt.MQTTv311, manual_ack=manual_ack)
    creds = creds or Credentials()
    if creds.username:
        c.username_pw_set(creds.username, creds.password or None)
    if addr.tls:
        c.tls_set(ca_certs=creds.cafile or None, certfile=creds.certfile or None, keyfile=creds.keyfile or None,
                  cert_reqs=ssl.CERT_REQUIRED, tls_version=ssl.PROTOCOL_TLS_CLIENT)
    if will is not None:
        c.will_set(will[0], will[1], qos=1, retain=True)
    c.reconnect_delay_set(min_delay=1, max_delay=2)  # back within 2 s of a broker restart
    c.max_inflight_messages_set(200)
    c.max_queued_messages_set(0)  # 0: no limit; the outbox bounds what is in flight
    return c, addr


def connect_error(reason: object) -> str:
    """A readable line for a CONNACK refusal (bad credentials, not authorised)."""
    return str(reason)
