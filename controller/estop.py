"""The e-stop as a supervised task: awaited, its failure recorded and shown, retried until the table confirms.

The service stops the motors on every FAULT and PAUSED (:meth:`EStopSupervisor.request`). The stop is a task
the supervisor keeps (never a fire-and-forget ``create_task`` that may be garbage-collected before it runs);
a stop the board does not confirm (the link is dead, the MCU guard refuses) calls ``on_failed`` — the service
records a ``DeviceFault``, blinks the panel's fault LED, sounds the buzzer and shows it on the web page — and
is retried with a growing pause until it is confirmed. While a stop is unconfirmed the table does not move
again (:attr:`EStopSupervisor.ok` is False). After a stop the back-end must be recovered (the MCU's e-stop
latch is cleared by a reset) before the next motion: :attr:`EStopSupervisor.latched`.
"""
from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

from controller.backends import BackendFault, TableBackend
from controller.tasks import cancel_and_wait

log = logging.getLogger("mahjong_table.estop")

RETRY_S = (0.2, 0.5, 1.0, 2.0, 5.0)  # pause before the 2nd, 3rd, ... try; then every 5 s


class EStopSupervisor:
    def __init__(self, backend: TableBackend, *, on_failed: Callable[[BackendFault, int], None] | None = None,
                 on_confirmed: Callable[[int], None] | None = None, retry_s: tuple[float, ...] = RETRY_S):
        self.backend = backend
        self.on_failed = on_failed or (lambda exc, n: None)
        self.on_confirmed = on_confirmed or (lambda n: None)
        self.retry_s = retry_s
        self.state = "idle"  # idle | stopping | confirmed | failed
        self.error = ""
        self.reason = ""
        self.attempts = 0
        self.failures = 0  # failed attempts since the service started
        self.latched = False  # a stop was sent since the last recover(): the back-end must be recovered
        self.confirmed_at = 0.0
        self._task: asyncio.Task[None] | None = None
        self._settled = asyncio.Event()  # set at the end of every attempt

    @property
    def ok(self) -> bool:
        """No stop is pending or failing: the table may be moved (after a recover, if latched)."""
        return self.state in ("idle", "confirmed")

    def request(self, reason: str) -> asyncio.Task[None]:
        """Stop the motors (again); a stop already being tried keeps going and is returned."""
        self.latched = True
        self.reason = reason
        if self._task is not None and not self._task.done():
            return self._task
        self.state = "stopping"
        self.attempts = 0
        self._task = asyncio.create_task(self._run(), name="estop")
        return self._task

    async def _run(self) -> None:
        while True:
            self.attempts += 1
            try:
                await self.backend.estop()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # BackendFault, or a bug: either way the stop is not confirmed
                fault = exc if isinstance(exc, BackendFault) else BackendFault(
                    "estop_failed", "none", f"emergency stop failed: {exc!r}")
                self.state = "failed"
                self.error = fault.message
                self.failures += 1
                log.error("emergency stop attempt %d failed: %s", self.attempts, fault.message)
                self._settled.set()
                self.on_failed(fault, self.attempts)
                await asyncio.sleep(self.retry_s[min(self.attempts - 1, len(self.retry_s) - 1)])
                continue
            self.state = "confirmed"
            self.error = ""
            self.confirmed_at = time.monotonic()
            log.info("emergency stop confirmed (%s) after %d attempt(s)", self.reason, self.attempts)
            self._settled.set()
            self.on_confirmed(self.attempts)
            return

    async def wait(self) -> bool:
        """Until the stop being tried is confirmed (True) — or, while it fails, False at once."""
        while self.state == "stopping":
            self._settled.clear()
            await self._settled.wait()
        return self.ok

    def recovered(self) -> None:
        """The back-end cleared the stop (reset): the table may move."""
        self.latched = False
        if self.state == "confirmed":
            self.state = "idle"

    def view(self) -> dict[str, object]:
        """For the web page (``/api/state``) and the panel."""
        return {"state": self.state, "error": self.error, "attempts": self.attempts, "reason": self.reason,
                "failures": self.failures, "latched": self.latched}

    async def close(self) -> None:
        if self._task is not None and not self._task.done():
            await cancel_and_wait(self._task)
