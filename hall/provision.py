"""Provisioning a hall: one identity per table, the broker's password file and ACL, TLS certificates, and the
config files of the hall, its broker and every table (``mahjong-table hall provision``).

Passwords are random (``secrets``) and stored in the broker's password file only as PBKDF2-SHA512 hashes in
mosquitto's own ``$7$`` format (what ``mosquitto_passwd`` writes); the clear passwords go only into each
table's config file (mode 0600). With ``tls`` a hall CA signs the broker's certificate and one client
certificate per table (CN = the table id), and the broker asks every client for one; it also signs the pages'
server certificates — each table's (its id, ``<id>.local``, ``localhost``/``127.0.0.1`` for the table's own screen,
and the addresses given with ``table_hosts``) and the dashboard's (the hall's host and ``dashboard_names``) — and
every config names them, so the judge's PIN and the director's password travel only over HTTPS (docs/hall.md).
"""
from __future__ import annotations

import base64
import datetime as dt
import hashlib
import ipaddress
import json
import os
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from hall.broker import BrokerTLS, broker_conf
from hall.config import to_toml
from hall.topics import Topics, check_id

if TYPE_CHECKING:
    from cryptography import x509
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509 import GeneralName

MOSQ_ITERATIONS = 101  # mosquitto_passwd's default for $7$ (PBKDF2-SHA512)
# the pages' ports in a provisioned hall: HTTPS for everything, plain HTTP kept for the public view (its login
# and console paths redirect to HTTPS)
WEB_HTTPS_PORT_TABLE, WEB_HTTP_PORT_TABLE = 8443, 8080
WEB_HTTPS_PORT_HALL, WEB_HTTP_PORT_HALL = 8453, 8090


def mosquitto_hash(password: str, salt: bytes | None = None, iterations: int = MOSQ_ITERATIONS) -> str:
    """A password-file hash as ``mosquitto_passwd`` writes it: ``$7$<iterations>$<salt>$<pbkdf2-sha512>``."""
    salt = salt or secrets.token_bytes(12)
    dk = hashlib.pbkdf2_hmac("sha512", password.encode(), salt, iterations)
    return f"$7${iterations}${base64.b64encode(salt).decode()}${base64.b64encode(dk).decode()}"


def _write(path: Path, text: str | bytes, secret: bool = False) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    data = text.encode() if isinstance(text, str) else text
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600 if secret else 0o644)
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    os.chmod(path, 0o600 if secret else 0o644)
    return path


@dataclass(frozen=True)
class Provisioned:
    out: Path
    hall_id: str
    tables: tuple[str, ...]
    passwords: dict[str, str]  # user -> clear password (also in the config files written)
    tls: bool

    def table_config(self, table: str) -> Path:
        return self.out / "tables" / table / "config.toml"


class _CA:
    """A small CA with the ``cryptography`` package: EC P-256 keys, SHA-256 signatures."""

    def __init__(self, name: str, days: int):
        from cryptography import x509
        from cryptography.hazmat.primitives import hashes
        from cryptography.hazmat.primitives.asymmetric import ec
        from cryptography.x509.oid import NameOID

        self.x509, self.hashes, self.ec, self.oid = x509, hashes, ec, NameOID
        self.days = days
        self.key = ec.generate_private_key(ec.SECP256R1())
        subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
        now = dt.datetime.now(dt.UTC)
        self.name = subject
        self.cert = (x509.CertificateBuilder().subject_name(subject).issuer_name(subject)
                     .public_key(self.key.public_key()).serial_number(x509.random_serial_number())
                     .not_valid_before(now - dt.timedelta(minutes=5)).not_valid_after(now + dt.timedelta(days=days))
                     .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
                     .sign(self.key, hashes.SHA256()))

    def issue(self, cn: str, *, server_names: tuple[str, ...] = (),
              client: bool = False) -> tuple[ec.EllipticCurvePrivateKey, x509.Certificate]:
        x509 = self.x509
        key = self.ec.generate_private_key(self.ec.SECP256R1())
        now = dt.datetime.now(dt.UTC)
        b = (x509.CertificateBuilder().subject_name(x509.Name([x509.NameAttribute(self.oid.COMMON_NAME, cn)]))
             .issuer_name(self.name).public_key(key.public_key()).serial_number(x509.random_serial_number())
             .not_valid_before(now - dt.timedelta(minutes=5)).not_valid_after(now + dt.timedelta(days=self.days))
             .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True))
        if server_names:
            alt: list[GeneralName] = []
            for n in server_names:
                try:
                    alt.append(x509.IPAddress(ipaddress.ip_address(n)))
                except ValueError:
                    alt.append(x509.DNSName(n))
            b = b.add_extension(x509.SubjectAlternativeName(alt), critical=False)
        from cryptography.x509.oid import ExtendedKeyUsageOID

        usage = ExtendedKeyUsageOID.CLIENT_AUTH if client else ExtendedKeyUsageOID.SERVER_AUTH
        b = b.add_extension(x509.ExtendedKeyUsage([usage]), critical=False)
        return key, b.sign(self.key, self.hashes.SHA256())

    @staticmethod
    def pem(key: ec.EllipticCurvePrivateKey | None = None, cert: x509.Certificate | None = None) -> bytes:
        from cryptography.hazmat.primitives import serialization

        if cert is not None:
            return cert.public_bytes(serialization.Encoding.PEM)
        assert key is not None, "a key or a certificate"
        return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                 serialization.NoEncryption())


def provision(out: str | Path, tables: int, *, hall_id: str = "hall", hall_host: str = "localhost",
              port: int | None = None, tls: bool = False, profile: str = "sichuan-mpl2025", days: int = 400,
              table_ids: list[str] | None = None, table_hosts: dict[str, list[str]] | None = None,
              dashboard_names: list[str] | None = None) -> Provisioned:
    """Write everything a hall of ``tables`` tables needs under ``out`` (see docs/hall.md)."""
    check_id("hall", hall_id)
    out = Path(out)
    ids = table_ids or [f"table-{i + 1:02d}" for i in range(tables)]
    for t in ids:
        check_id("table", t)
    if len(set(ids)) != len(ids) or "hall" in ids:
        raise ValueError("table ids must be distinct and not 'hall'")
    table_hosts = dict(table_hosts or {})
    unknown = sorted(set(table_hosts) - set(ids))
    if unknown:
        raise ValueError(f"a host for an unknown table: {', '.join(unknown)} (the tables are {', '.join(ids)})")
    port = port or (8883 if tls else 1883)
    scheme = "mqtts" if tls else "mqtt"
    passwords = {u: secrets.token_urlsafe(18) for u in ["hall", *ids]}
    broker = out / "broker"
    _write(broker / "passwords", "".join(f"{u}:{mosquitto_hash(p)}\n" for u, p in passwords.items()), secret=True)
    _write(broker / "acl", Topics(hall_id).acl("hall"))
    tls_conf = None
    hall_tls: dict[str, object] = {}
    if tls:
        ca = _CA(f"mahjong-table hall {hall_id} CA", days)
        _write(out / "ca" / "ca.crt", ca.pem(cert=ca.cert))
        _write(out / "ca" / "ca.key", ca.pem(key=ca.key), secret=True)
        local = hall_host in ("localhost", "127.0.0.1")
        names: tuple[str, ...] = (hall_host, "localhost", "127.0.0.1") if local else (hall_host,)
        key, cert = ca.issue(hall_host, server_names=names)
        _write(broker / "server.crt", ca.pem(cert=cert))
        _write(broker / "server.key", ca.pem(key=key), secret=True)
        _write(broker / "ca.crt", ca.pem(cert=ca.cert))
        tls_conf = BrokerTLS(str(broker / "ca.crt"), str(broker / "server.crt"), str(broker / "server.key"))
        key, cert = ca.issue("hall", client=True)
        _write(out / "hall" / "hall.crt", ca.pem(cert=cert))
        _write(out / "hall" / "hall.key", ca.pem(key=key), secret=True)
        _write(out / "hall" / "ca.crt", ca.pem(cert=ca.cert))
        hall_tls = {"broker.cafile": str(out / "hall" / "ca.crt"), "broker.certfile": str(out / "hall" / "hall.crt"),
                    "broker.keyfile": str(out / "hall" / "hall.key")}
        # the dashboard's HTTPS: the director's login, and the CA offered to the judges' phones (docs/hall.md)
        dash_names = _names(hall_host, *(dashboard_names or ()), "localhost", "127.0.0.1")
        key, cert = ca.issue(hall_host, server_names=dash_names)
        _write(out / "hall" / "web.crt", ca.pem(cert=cert))
        _write(out / "hall" / "web.key", ca.pem(key=key), secret=True)
        hall_tls |= {"web.host": "0.0.0.0", "web.port": WEB_HTTPS_PORT_HALL, "web.http_port": WEB_HTTP_PORT_HALL,
                     "web.tls_certfile": str(out / "hall" / "web.crt"), "web.tls_keyfile": str(out / "hall" / "web.key"),
                     "web.cafile": str(out / "hall" / "ca.crt"),
                     "web.names": [n for n in dash_names if n == hall_host or n not in ("localhost", "127.0.0.1")]}
    # the hall's own broker (mosquitto), listening on all interfaces for the tables
    _write(broker / "mosquitto.conf", broker_conf(port, broker / "data", host="0.0.0.0",
                                                  password_file=str(broker / "passwords"),
                                                  acl_file=str(broker / "acl"), tls=tls_conf, user="mosquitto"))
    # the hall service: its broker login, the embedded broker's files when it runs mosquitto itself
    hall_values = {"hall.id": hall_id, "hall.profile": profile, "hall.tables": ids, "hall.db": str(out / "hall" / "hall.sqlite"),
                   "broker.url": f"{scheme}://{hall_host}:{port}", "broker.username": "hall",
                   "broker.password": passwords["hall"], **hall_tls}
    _write(out / "hall" / "hall.toml", to_toml(hall_values), secret=True)
    for t in ids:
        lines = ["# mahjong-table: this table's identity in the hall (written by 'mahjong-table hall provision')",
                 "[table]", f"id = {json.dumps(t)}", f"profile = {json.dumps(profile)}", "", "[hall]",
                 f'address = "{scheme}://{hall_host}:{port}"', f"id = {json.dumps(hall_id)}",
                 f"username = {json.dumps(t)}", f"password = {json.dumps(passwords[t])}"]
        if tls:
            d = out / "tables" / t
            key, cert = ca.issue(t, client=True)
            _write(d / "client.crt", ca.pem(cert=cert))
            _write(d / "client.key", ca.pem(key=key), secret=True)
            _write(d / "ca.crt", ca.pem(cert=ca.cert))
            lines += ['cafile = "/etc/mahjong-table/hall/ca.crt"', 'certfile = "/etc/mahjong-table/hall/client.crt"',
                      'keyfile = "/etc/mahjong-table/hall/client.key"']
            # the table's page over HTTPS: the judge's PIN and session never cross the hall's Wi-Fi in clear
            names = _names(t, f"{t}.local", *table_hosts.get(t, ()), "localhost", "127.0.0.1")
            key, cert = ca.issue(t, server_names=names)
            _write(d / "web.crt", ca.pem(cert=cert))
            _write(d / "web.key", ca.pem(key=key), secret=True)
            lines += ["", "[web]", 'host = "0.0.0.0"', f"port = {WEB_HTTPS_PORT_TABLE}",
                      f"http_port = {WEB_HTTP_PORT_TABLE}", 'tls_certfile = "/etc/mahjong-table/hall/web.crt"',
                      'tls_keyfile = "/etc/mahjong-table/hall/web.key"',
                      f"names = {json.dumps([n for n in names if n not in ('localhost', '127.0.0.1')])}"]
        _write(out / "tables" / t / "config.toml", "\n".join(lines) + "\n", secret=True)
    _write(out / "README.txt", _readme(hall_id, ids, tls, port))
    return Provisioned(out, hall_id, tuple(ids), passwords, tls)


def _names(*names: str) -> tuple[str, ...]:
    """The names in order, each once (a certificate's subject alternative names)."""
    return tuple(dict.fromkeys(n for n in names if n))


def _readme(hall_id: str, ids: list[str], tls: bool, port: int) -> str:
    return f"""mahjong-table hall {hall_id}: {len(ids)} tables{' with TLS' if tls else ''} (port {port})

broker/      mosquitto.conf, passwords (hashed), acl{', server.crt/key, ca.crt' if tls else ''}
             -> /etc/mosquitto/conf.d/ (or: hall serve with broker.url empty runs mosquitto itself)
hall/        hall.toml (the hall service's config, with its broker password){', hall.crt/key, web.crt/key (the dashboard)' if tls else ''}
tables/<id>/ config.toml for /etc/mahjong-table/config.toml (merge its [table], [hall]{' and [web]' if tls else ''} sections)
             {'client.crt, client.key, ca.crt, web.crt, web.key -> /etc/mahjong-table/hall/' if tls else ''}
{'ca/         the hall CA: keep ca.key offline' if tls else ''}
Each table may publish only under hall/{hall_id}/table/<its id>/up/# and read only .../down/#.
"""
