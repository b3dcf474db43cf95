"""The judge's login: the PIN hashed (scrypt), sessions, a login rate limit and the same-origin check.

The table keeps only ``web.judge_pin_hash`` (``scrypt$N$r$p$salt$hash``, written by ``mahjong-table web
set-pin``), never the PIN. A login that matches opens a session: a random token in an ``HttpOnly``,
``SameSite=Strict`` cookie and a CSRF token the page sends back in a header with every state-changing
request. Sessions live in memory (a restarted service asks the judge to log in again); they end after
``web.session_idle_minutes`` without a request and ``web.session_max_hours`` after the login, and all of them
when the PIN changes.
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import time
import tomllib
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**14, 8, 1  # 16 MiB, ~50 ms on a Raspberry Pi 5
MIN_PIN = 6
COOKIE = "mt_judge"
CSRF_HEADER = "X-CSRF-Token"


class PinError(ValueError):
    """A PIN or a stored hash that cannot be used (one line for the user)."""


def _b64(b: bytes) -> str:
    return base64.urlsafe_b64encode(b).decode().rstrip("=")


def _unb64(s: str) -> bytes:
    return base64.urlsafe_b64decode(s + "=" * (-len(s) % 4))


def hash_pin(pin: str, *, salt: bytes | None = None, n: int = SCRYPT_N) -> str:
    """``scrypt$N$r$p$salt$hash`` for a PIN of at least :data:`MIN_PIN` characters."""
    if len(pin) < MIN_PIN:
        raise PinError(f"the PIN must have at least {MIN_PIN} characters")
    if pin != pin.strip():
        raise PinError("the PIN must not start or end with a space")
    salt = salt or secrets.token_bytes(16)
    digest = hashlib.scrypt(pin.encode(), salt=salt, n=n, r=SCRYPT_R, p=SCRYPT_P, dklen=32)
    return f"scrypt${n}${SCRYPT_R}${SCRYPT_P}${_b64(salt)}${_b64(digest)}"


def one_time_pin() -> tuple[str, str]:
    """(a random 6-digit PIN, its hash) for a demo run that has no PIN configured."""
    pin = f"{secrets.randbelow(10**6):06d}"
    return pin, hash_pin(pin, n=2**12)


def hash_problem(stored: str) -> str | None:
    """Why ``stored`` is not a usable PIN hash (None when it is; "" means no judge login)."""
    if stored == "":
        return None
    parts = stored.split("$")
    if len(parts) != 6 or parts[0] != "scrypt":
        return "not a PIN hash: write it with 'mahjong-table web set-pin' (scrypt$N$r$p$salt$hash)"
    try:
        n, r, p = (int(x) for x in parts[1:4])
        salt, digest = _unb64(parts[4]), _unb64(parts[5])
    except ValueError:
        return "a damaged PIN hash: write it again with 'mahjong-table web set-pin'"
    if n < 2**10 or n & (n - 1) or not 1 <= r <= 32 or not 1 <= p <= 16 or len(salt) < 8 or len(digest) != 32:
        return "a PIN hash with unusable parameters: write it again with 'mahjong-table web set-pin'"
    return None


def verify_pin(pin: str, stored: str) -> bool:
    """Constant-time check of ``pin`` against a stored hash (False for an empty or unusable hash)."""
    if not stored or hash_problem(stored) is not None:
        return False
    _, n, r, p, salt, digest = stored.split("$")
    got = hashlib.scrypt(pin.encode(), salt=_unb64(salt), n=int(n), r=int(r), p=int(p), dklen=32)
    return hmac.compare_digest(got, _unb64(digest))


@dataclass
class Session:
    name: str  # who the judge said they are (the audit log's "who")
    client: str  # address logged in from
    csrf: str
    created: float
    seen: float


class Sessions:
    """Judge sessions by token (in memory), expiring after ``idle_s`` without a request and ``max_s`` in all."""

    def __init__(self, idle_s: float = 4 * 3600, max_s: float = 16 * 3600, clock: Callable[[], float] = time.monotonic,
                 limit: int = 32):
        self.idle_s, self.max_s, self.clock, self.limit = idle_s, max_s, clock, limit
        self._by_token: dict[str, Session] = {}

    def open(self, name: str, client: str) -> tuple[str, Session]:
        self._expire()
        while len(self._by_token) >= self.limit:  # the oldest session makes room
            del self._by_token[min(self._by_token, key=lambda t: self._by_token[t].seen)]
        now = self.clock()
        token = secrets.token_urlsafe(32)
        s = Session(name, client, secrets.token_urlsafe(24), now, now)
        self._by_token[token] = s
        return token, s

    def get(self, token: str | None) -> Session | None:
        if not token:
            return None
        s = self._by_token.get(token)
        if s is None:
            return None
        now = self.clock()
        if now - s.seen > self.idle_s or now - s.created > self.max_s:
            del self._by_token[token]
            return None
        s.seen = now
        return s

    def close(self, token: str | None) -> None:
        self._by_token.pop(token or "", None)

    def close_all(self) -> None:
        """Every session ends (a PIN change, a logout on every device)."""
        self._by_token.clear()

    def _expire(self) -> None:
        for t in list(self._by_token):
            self.get(t)

    def __len__(self) -> int:
        return len(self._by_token)


@dataclass
class RateLimit:
    """Failed logins allowed per client (``per_client`` in ``window_s``) and for the whole table
    (``overall``: guessing from many addresses). ``retry_after`` says how long a client must wait."""

    per_client: int = 5
    overall: int = 20
    window_s: float = 60.0
    clock: Callable[[], float] = time.monotonic
    _fails: dict[str, deque[float]] = field(default_factory=dict)
    _all: deque[float] = field(default_factory=deque)

    def _trim(self, q: deque[float], now: float) -> None:
        while q and now - q[0] >= self.window_s:
            q.popleft()

    def retry_after(self, client: str, overall: bool = True) -> float:
        """Seconds until ``client`` may try again (0: now); ``overall=False``: the table-wide limit does not
        apply to this client (the table's own screen, the judge button held)."""
        now = self.clock()
        self._trim(self._all, now)
        q = self._fails.get(client)
        waits = [0.0]
        if q is not None:
            self._trim(q, now)
            if not q:
                del self._fails[client]
            elif len(q) >= self.per_client:
                waits.append(q[0] + self.window_s - now)
        if overall and len(self._all) >= self.overall:
            waits.append(self._all[0] + self.window_s - now)
        return max(waits)

    def failed(self, client: str) -> None:
        now = self.clock()
        if len(self._fails) > 1024 and client not in self._fails:  # bounded memory under a flood
            self._fails.pop(next(iter(self._fails)))
        self._fails.setdefault(client, deque()).append(now)
        self._all.append(now)

    def succeeded(self, client: str) -> None:
        self._fails.pop(client, None)


class PinWatch:
    """Notices a new ``web.judge_pin_hash`` in the config file (``web set-pin`` while the service runs): the
    file is looked at (one ``stat``) at most every ``every_s`` seconds and read only when it changed."""

    def __init__(self, path: str | Path, current: str, every_s: float = 1.0,
                 clock: Callable[[], float] = time.monotonic):
        self.path, self.current, self.every_s, self.clock = Path(path), current, every_s, clock
        self._next = 0.0
        self._stamp = self._stat()

    def _stat(self) -> tuple[int, int] | None:
        try:
            st = self.path.stat()
        except OSError:
            return None
        return st.st_mtime_ns, st.st_size

    def changed(self) -> str | None:
        """The new PIN hash when the file now holds another usable one, else None."""
        now = self.clock()
        if now < self._next:
            return None
        self._next = now + self.every_s
        stamp = self._stat()
        if stamp is None or stamp == self._stamp:
            return None
        self._stamp = stamp
        try:
            web = tomllib.loads(self.path.read_text(encoding="utf-8")).get("web", {})
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
            return None  # half-written or broken: keep the PIN in force
        new = web.get("judge_pin_hash", "") if isinstance(web, dict) else ""
        if not isinstance(new, str) or new == self.current or hash_problem(new) is not None:
            return None
        self.current = new
        return new


def same_origin(headers: Mapping[str, str], host: str) -> bool:
    """Whether a request comes from this page: its ``Origin`` (or, without one, ``Referer``) names this
    host, or, from a client that sends neither, ``Sec-Fetch-Site`` is not cross-site."""
    for name in ("Origin", "Referer"):
        v = headers.get(name)
        if v is not None:
            if v == "null":
                return False
            u = urlsplit(v)
            return u.scheme in ("http", "https") and u.netloc.lower() == host.lower()
    return headers.get("Sec-Fetch-Site", "same-origin") in ("same-origin", "none")
