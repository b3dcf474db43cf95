"""Shared test configuration.

One size knob for the whole suite: ``MT_TEST_SIZE`` = ``small`` (``make test``, the default) or
``long`` (``make test-long``). Tests ask :func:`scaled` for their counts so the same test runs small in
CI and at full size before an issue is resolved.
"""
from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

SIZE = os.environ.get("MT_TEST_SIZE", "small")
LONG = SIZE == "long"


def scaled(small: int, long: int) -> int:
    """Pick the count for the current test size."""
    return long if LONG else small


_SUPPRESS = [HealthCheck.too_slow, HealthCheck.large_base_example, HealthCheck.data_too_large]

settings.register_profile(
    "small", max_examples=200, deadline=None, suppress_health_check=_SUPPRESS
)
settings.register_profile(
    "long", max_examples=5000, deadline=None, suppress_health_check=_SUPPRESS
)
settings.load_profile("long" if LONG else "small")


def pytest_terminal_summary(terminalreporter) -> None:
    """Tests skipped because the person allowed a tool to be missing (tests/needs.py) are counted, never silent."""
    from tests.needs import ALLOW_ENV, ON_REQUEST, allowed

    n = sum(1 for r in terminalreporter.stats.get("skipped", []) if ON_REQUEST in str(r.longrepr))
    if n or allowed():
        terminalreporter.write_line(f"{n} test(s) {ON_REQUEST}: {ALLOW_ENV}={' '.join(sorted(allowed()))} "
                                    "(tools allowed to be missing)", yellow=True)
