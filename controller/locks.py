"""One service per store and per serial port: exclusive ``flock`` locks that name their holder.

``serve`` takes the store's lock (``<store>.lock`` beside it) and the serial port's lock (in the lock
directory, keyed by the port's real path) before it opens either; ``table`` takes the port's. A second
process gets :class:`LockHeld` — one line naming the holder's PID — instead of two writers corrupting each
other's view. The kernel drops a ``flock`` when its process dies (a crash, ``kill -9``), so a stale lock file
never blocks a restart.
"""
from __future__ import annotations

import fcntl
import os
import re
import tempfile
from pathlib import Path

# ports that are not a shared device: the in-process emulator and pyserial's loopback
UNSHARED_PORTS = ("emulator", "loop://")


class LockHeld(RuntimeError):
    def __init__(self, what: str, holder: str):
        self.what = what
        self.holder = holder
        super().__init__(f"{what} is in use by another mahjong-table process ({holder}); stop it first "
                         "(sudo systemctl stop mahjong-table) or point this one elsewhere")


def lock_dir() -> Path:
    """``$MAHJONG_TABLE_LOCK_DIR``, else /run/lock where writable, else the temporary directory."""
    env = os.environ.get("MAHJONG_TABLE_LOCK_DIR")
    if env:
        return Path(env)
    run = Path("/run/lock")
    if run.is_dir() and os.access(run, os.W_OK):
        return run
    return Path(tempfile.gettempdir())


class ExclusiveLock:
    def __init__(self, path: str | Path, what: str):
        self.path = Path(path)
        self.what = what
        self._fd: int | None = None

    def acquire(self, role: str = "mahjong-table") -> ExclusiveLock:
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        except OSError as exc:
            raise OSError(exc.errno, f"cannot create the lock file {self.path} for {self.what}: "
                                     f"{exc.strerror}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _read(fd)
            os.close(fd)
            raise LockHeld(self.what, holder or "PID unknown") from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"PID {os.getpid()}, {role}\n".encode(), 0)
        self._fd = fd
        return self

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the descriptor drops the flock
            self._fd = None

    def __enter__(self) -> ExclusiveLock:
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()


def _read(fd: int) -> str:
    try:
        return os.pread(fd, 200, 0).decode("utf-8", "replace").strip()
    except OSError:
        return ""


def store_lock(store_path: str | Path) -> ExclusiveLock:
    p = Path(store_path)
    return ExclusiveLock(p.with_name(p.name + ".lock"), f"the event store {p}")


def port_lock(port: str) -> ExclusiveLock | None:
    """The lock of a serial port (None for the in-process emulator and loop://)."""
    if port.startswith(UNSHARED_PORTS):
        return None
    key = os.path.realpath(port) if "://" not in port else port
    name = re.sub(r"[^A-Za-z0-9._-]+", "_", key).strip("_")
    return ExclusiveLock(lock_dir() / f"mahjong-table-port-{name}.lock", f"the serial port {port}")
