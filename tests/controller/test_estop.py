"""The supervised e-stop: awaited, its failures reported one by one, retried until the table confirms it."""
from __future__ import annotations

import asyncio

from controller.backends import BackendFault
from controller.estop import EStopSupervisor


class FlakyStop:
    """A back-end whose e-stop fails ``fails`` times (the link is down), then works."""

    def __init__(self, fails: int):
        self.fails = fails
        self.calls = 0

    async def estop(self) -> None:
        self.calls += 1
        await asyncio.sleep(0)
        if self.calls <= self.fails:
            raise BackendFault("estop_failed", "link", f"no answer (try {self.calls})")


def test_a_failing_stop_is_reported_each_time_and_retried_until_confirmed():
    be = FlakyStop(3)
    failed, confirmed = [], []

    async def go():
        sup = EStopSupervisor(be, on_failed=lambda exc, n: failed.append((n, exc.message)),
                              on_confirmed=confirmed.append, retry_s=(0.01, 0.02))
        task = sup.request("paused")
        assert sup.request("paused again") is task  # one stop at a time; the reason is kept up to date
        while not failed:
            await asyncio.sleep(0.001)
        assert sup.state == "failed" and not sup.ok and not await sup.wait()  # no waiting on a failing stop
        await task
        assert sup.state == "confirmed" and sup.ok and sup.latched and await sup.wait()
        sup.recovered()
        assert sup.state == "idle" and not sup.latched
        return sup

    sup = asyncio.run(go())
    assert [n for n, _ in failed] == [1, 2, 3] and confirmed == [4] and be.calls == 4
    assert sup.failures == 3 and sup.view()["attempts"] == 4


def test_a_bug_in_the_back_end_counts_as_a_failed_stop():
    class Broken:
        calls = 0

        async def estop(self):
            self.calls += 1
            if self.calls == 1:
                raise RuntimeError("boom")

    failed = []

    async def go():
        sup = EStopSupervisor(Broken(), on_failed=lambda exc, n: failed.append(exc), retry_s=(0.0,))
        await sup.request("fault")
        return sup

    sup = asyncio.run(go())
    assert sup.state == "confirmed" and failed[0].code == "estop_failed" and "boom" in failed[0].message
