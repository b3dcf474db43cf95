"""Small asyncio helpers the service's parts share."""
from __future__ import annotations

import asyncio


async def cancel_and_wait(task: asyncio.Task[object] | None) -> None:
    """Cancel ``task`` and wait until it has ended; its cancellation is the expected end, not an error
    (an exception it ended with otherwise is raised here). ``None``: nothing to stop."""
    if task is None:
        return
    task.cancel()
    try:
        await task
    except asyncio.CancelledError:
        pass
