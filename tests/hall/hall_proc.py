"""The hall's ingest as its own process, for the kill -9 test: ``python -m tests.hall.hall_proc DB URL HALL``."""
from __future__ import annotations

import signal
import sys

from hall.db import HallDB
from hall.service import HallService

if __name__ == "__main__":
    svc = HallService(HallDB(sys.argv[1]), sys.argv[2], sys.argv[3]).start()
    if not svc.wait_connected(20):
        sys.exit(f"no broker: {svc.error}")
    print("ready", flush=True)
    signal.pause()
