"""HTTPS for the table's page and the hall's dashboard: the server's TLS context, what is wrong with a certificate
and key pair (for ``config check`` and at start), the CA's fingerprint, and when a login may go over plain HTTP.

Certificates come from the hall's CA (``hall provision --tls``, :mod:`hall.provision`). The context is Python's
``ssl`` with TLS 1.2 as the floor and only forward-secret AEAD suites for TLS 1.2 (ECDHE with AES-GCM or
ChaCha20-Poly1305; TLS 1.3's suites are all of that kind) — what every phone browser of the last years speaks.
"""
from __future__ import annotations

import datetime as dt
import ipaddress
import ssl
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cryptography import x509

CIPHERS_TLS12 = "ECDHE+AESGCM:ECDHE+CHACHA20:!aNULL:!eNULL"

#: the paths that carry a login or a session's authority (the table's console and the dashboard's director):
#: never served over plain HTTP when the page has HTTPS (a GET is redirected, anything else refused)
TABLE_LOGIN_PATHS = ("/api/login", "/api/logout", "/api/session", "/api/press/", "/api/judge/")
HALL_LOGIN_PATHS = ("/login", "/logout", "/api/director/")


def server_context(certfile: str, keyfile: str) -> ssl.SSLContext:
    """The listening socket's TLS: 1.2 or newer, ECDHE + AEAD suites, no compression, no renegotiation."""
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_2
    ctx.set_ciphers(CIPHERS_TLS12)
    ctx.options |= ssl.OP_NO_COMPRESSION | ssl.OP_CIPHER_SERVER_PREFERENCE | ssl.OP_NO_RENEGOTIATION
    ctx.load_cert_chain(certfile, keyfile)
    return ctx


def is_loopback(host: str | None) -> bool:
    """Whether an address (or ``localhost``) never leaves this machine. A wildcard (``0.0.0.0``, ``::``, empty)
    is not loopback: it listens on every interface."""
    if not host:
        return False
    if host.lower() in ("localhost", "localhost."):
        return True
    try:
        return ipaddress.ip_address(host.split("%", 1)[0]).is_loopback
    except ValueError:
        return False


def login_refusal(*, secure: bool, remote: str | None, tls: bool, insecure_login: bool) -> str | None:
    """Why a login (or a session's request) must not be accepted on this connection, or None when it may.

    * over HTTPS: always allowed;
    * the page has HTTPS (``tls``) but this came over its plain-HTTP port: refused, from anywhere — the PIN or
      the cookie crossed the network in clear, or a captured cookie is being replayed;
    * no HTTPS at all: allowed from this machine (loopback: the table's own screen, ``make run``), from anywhere
      else only when the operator said ``insecure_login = true`` in the config.
    """
    if secure:
        return None
    if tls:
        return "the login is over HTTPS only on this server"
    if is_loopback(remote) or insecure_login:
        return None
    return ("no login over plain HTTP from another machine: configure HTTPS (certificates from 'hall provision "
            "--tls'), or set insecure_login = true at your own risk")


def is_login_path(path: str, prefixes: tuple[str, ...]) -> bool:
    return any(path == p or (p.endswith("/") and path.startswith(p)) for p in prefixes)


def fingerprint(pem: bytes) -> str:
    """``AB:CD:...``: the SHA-256 fingerprint of a certificate, as phones and browsers show it."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes

    digest = x509.load_pem_x509_certificate(pem).fingerprint(hashes.SHA256())
    return ":".join(f"{b:02X}" for b in digest)


def _covers(cert: x509.Certificate, name: str) -> bool:
    from cryptography import x509

    try:
        san = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    except x509.ExtensionNotFound:
        return False  # browsers match names only against the SAN (RFC 6125), never the CN
    try:
        ip = ipaddress.ip_address(name)
    except ValueError:
        ip = None
    if ip is not None:
        return ip in san.get_values_for_type(x509.IPAddress)
    name = name.lower().rstrip(".")
    for dns in san.get_values_for_type(x509.DNSName):
        dns = dns.lower().rstrip(".")
        if dns == name or (dns.startswith("*.") and "." in name and name.split(".", 1)[1] == dns[2:]):
            return True
    return False


def cert_problems(certfile: str, keyfile: str, names: list[str] | tuple[str, ...] = (),
                  now: dt.datetime | None = None) -> list[tuple[str, str]]:
    """What is wrong with a server's certificate and key, as ``(which, why)`` with ``which`` ``"cert"``,
    ``"key"`` or ``"names"``: a missing or unreadable file, a certificate expired or not yet valid, a key that
    does not match it, a name the page is reached by that the certificate does not cover. Empty: fine."""
    from cryptography import x509
    from cryptography.hazmat.primitives import serialization

    out: list[tuple[str, str]] = []
    cert = key = None
    if not certfile:
        out.append(("cert", "no certificate file named (the key is given without it)"))
    else:
        try:
            cert = x509.load_pem_x509_certificate(Path(certfile).read_bytes())
        except FileNotFoundError:
            out.append(("cert", f"{certfile}: no such file"))
        except OSError as exc:
            out.append(("cert", f"{certfile}: cannot read it: {exc.strerror or exc}"))
        except ValueError:
            out.append(("cert", f"{certfile}: not a PEM certificate"))
    if not keyfile:
        out.append(("key", "no key file named (the certificate is given without it)"))
    else:
        try:
            key = serialization.load_pem_private_key(Path(keyfile).read_bytes(), password=None)
        except FileNotFoundError:
            out.append(("key", f"{keyfile}: no such file"))
        except OSError as exc:
            out.append(("key", f"{keyfile}: cannot read it: {exc.strerror or exc}"))
        except (ValueError, TypeError):
            out.append(("key", f"{keyfile}: not an unencrypted PEM private key"))
    if cert is None:
        return out
    now = now or dt.datetime.now(dt.UTC)
    if now > cert.not_valid_after_utc:
        out.append(("cert", f"{certfile}: expired on {cert.not_valid_after_utc:%Y-%m-%d} (issue a new one: "
                            "hall provision --tls)"))
    elif now < cert.not_valid_before_utc:
        out.append(("cert", f"{certfile}: not valid before {cert.not_valid_before_utc:%Y-%m-%d %H:%M} UTC "
                            "(is this machine's clock right?)"))
    if key is not None:
        pub = serialization.PublicFormat.SubjectPublicKeyInfo
        if (key.public_key().public_bytes(serialization.Encoding.DER, pub)
                != cert.public_key().public_bytes(serialization.Encoding.DER, pub)):
            out.append(("key", f"{keyfile}: does not match the certificate {certfile}"))
    missing = [n for n in names if n and not _covers(cert, n)]
    if missing:
        out.append(("names", f"{certfile} does not cover {', '.join(missing)} (the names and addresses the page "
                             "is reached by: issue the certificate with them)"))
    return out
