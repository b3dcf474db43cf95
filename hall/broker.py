"""A local mosquitto for the hall: the embedded default of ``hall serve``, ``hall simulate`` and the tests.

:class:`Mosquitto` writes a ``mosquitto.conf`` into its own folder (persistence on, so a restarted broker
still holds the persistent sessions and their queued QoS-1 messages), starts Debian's ``/usr/sbin/mosquitto``
on a free port and stops it again. With a password file and an ACL (``hall provision`` writes both) every
client must log in and may use only its own topics; with ``tls`` the listener speaks TLS and asks each
client for a certificate signed by the hall's CA.
"""
from __future__ import annotations

import getpass
import os
import shutil
import signal
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

CANDIDATES = ("/usr/sbin/mosquitto", "/usr/local/sbin/mosquitto", "/usr/bin/mosquitto")


class BrokerError(RuntimeError):
    pass


def find_mosquitto() -> str | None:
    for c in CANDIDATES:
        if os.access(c, os.X_OK):
            return c
    return shutil.which("mosquitto")


def _die_with_parent() -> None:
    """In the broker's child process: SIGTERM when the process (thread) that started it dies — a broker is
    never left running by a killed test, simulation or hall (SIGTERM: it still saves its persistence)."""
    import ctypes

    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # pragma: no cover - not glibc Linux: the pid file cleans up instead
        pass


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


@dataclass(frozen=True)
class BrokerTLS:
    cafile: str
    certfile: str
    keyfile: str
    require_certificate: bool = True


def broker_conf(port: int, data_dir: Path, *, host: str = "127.0.0.1", password_file: str | None = None,
                acl_file: str | None = None, tls: BrokerTLS | None = None, user: str | None = None) -> str:
    """The mosquitto.conf the hall runs (also what ``hall provision`` writes for the hall's own broker)."""
    lines = [
        "# mahjong-table hall broker (mosquitto 2.x)",
        f"user {user or getpass.getuser()}",
        "per_listener_settings false",
        "persistence true",  # persistent sessions and their queued messages survive a broker restart
        f"persistence_location {data_dir}/",
        "autosave_interval 5",
        "max_queued_messages 200000",  # a table's or the hall's backlog while it is offline
        "max_inflight_messages 200",
        f"log_dest file {data_dir}/mosquitto.log",
        f"pid_file {data_dir}/mosquitto.pid",
        "log_type error",
        "log_type warning",
        "log_type notice",
        "connection_messages true",
        f"listener {port} {host}",
    ]
    if password_file:
        lines += ["allow_anonymous false", f"password_file {password_file}"]
    else:
        lines += ["allow_anonymous true"]
    if acl_file:
        lines.append(f"acl_file {acl_file}")
    if tls is not None:
        lines += [f"cafile {tls.cafile}", f"certfile {tls.certfile}", f"keyfile {tls.keyfile}",
                  f"require_certificate {'true' if tls.require_certificate else 'false'}",
                  "tls_version tlsv1.2"]
    return "\n".join(lines) + "\n"


class Mosquitto:
    """One mosquitto process in ``workdir`` (config, persistence, log)."""

    def __init__(self, workdir: str | Path, port: int = 0, *, host: str = "127.0.0.1",
                 password_file: str | None = None, acl_file: str | None = None, tls: BrokerTLS | None = None,
                 binary: str | None = None):
        self.workdir = Path(workdir)
        self.host = host
        self.port = port or free_port(host)
        self.password_file = password_file
        self.acl_file = acl_file
        self.tls = tls
        found = binary or find_mosquitto()
        if found is None:
            raise BrokerError("mosquitto is not installed (Debian: apt-get install mosquitto), "
                              "or point the hall at a running broker with --broker mqtt://HOST:PORT")
        self.binary: str = found
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"{'mqtts' if self.tls else 'mqtt'}://{self.host}:{self.port}"

    @property
    def conf_path(self) -> Path:
        return self.workdir / "mosquitto.conf"

    def start(self, timeout: float = 10.0) -> Mosquitto:
        self.workdir.mkdir(parents=True, exist_ok=True)
        self._stop_orphan()
        self.conf_path.write_text(broker_conf(self.port, self.workdir, host=self.host,
                                              password_file=self.password_file, acl_file=self.acl_file,
                                              tls=self.tls), encoding="utf-8")
        self.proc = subprocess.Popen([self.binary, "-c", str(self.conf_path)], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE, start_new_session=True, preexec_fn=_die_with_parent)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                err = (self.proc.stderr.read() or b"").decode(errors="replace").strip() if self.proc.stderr else ""
                log = self.log_tail()
                raise BrokerError(f"mosquitto exited at start ({self.proc.returncode}): {err or log}")
            try:
                with socket.create_connection((self.host, self.port), timeout=0.2):
                    return self
            except OSError:
                time.sleep(0.02)
        self.stop()
        raise BrokerError(f"mosquitto did not listen on {self.host}:{self.port} within {timeout:.0f} s")

    def _stop_orphan(self) -> None:
        """A broker still running from a hall killed with -9 (where the parent-death signal was not
        delivered): stop it, so that the restarted hall starts its own on the same port and persistence."""
        pid_file = self.workdir / "mosquitto.pid"
        try:
            pid = int(pid_file.read_text().strip())
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except (OSError, ValueError):
            return
        if str(self.conf_path).encode() not in cmdline:
            return  # another process took the number
        os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and Path(f"/proc/{pid}").exists():
            time.sleep(0.02)

    def stop(self, kill: bool = False) -> None:
        """Stop the broker: SIGTERM (it saves its persistence file) or, with ``kill``, SIGKILL."""
        p, self.proc = self.proc, None
        if p is None or p.poll() is not None:
            return
        p.send_signal(signal.SIGKILL if kill else signal.SIGTERM)
        try:
            p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
        if p.stderr:
            p.stderr.close()

    def restart(self, down_s: float = 0.0) -> None:
        self.stop()
        if down_s:
            time.sleep(down_s)
        self.start()

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def log_tail(self, n: int = 20) -> str:
        p = self.workdir / "mosquitto.log"
        if not p.exists():
            return ""
        return "\n".join(p.read_text(encoding="utf-8", errors="replace").splitlines()[-n:])

    def __enter__(self) -> Mosquitto:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
