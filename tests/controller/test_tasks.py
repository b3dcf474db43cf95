"""controller.tasks.cancel_and_wait: a running task is stopped and waited for; nothing else is hidden."""
from __future__ import annotations

import asyncio

import pytest

from controller.tasks import cancel_and_wait


def test_a_running_task_is_cancelled_and_has_ended_when_it_returns():
    async def main() -> tuple[bool, bool]:
        cleaned = asyncio.Event()

        async def forever() -> None:
            try:
                await asyncio.sleep(3600)
            finally:
                cleaned.set()

        task = asyncio.create_task(forever())
        await asyncio.sleep(0)
        await cancel_and_wait(task)
        await cancel_and_wait(None)  # nothing to stop
        return task.cancelled(), cleaned.is_set()

    assert asyncio.run(main()) == (True, True)


def test_a_task_that_failed_is_not_hidden():
    async def main() -> None:
        async def boom() -> None:
            raise RuntimeError("motor driver")

        task = asyncio.create_task(boom())
        await asyncio.sleep(0)
        await cancel_and_wait(task)

    with pytest.raises(RuntimeError, match="motor driver"):
        asyncio.run(main())
