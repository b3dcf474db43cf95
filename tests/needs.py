"""A test that needs a tool this machine lacks fails loudly, naming what to install; it is skipped only when
the person asked for it: ``MT_ALLOW_MISSING="chromium systemd-analyze"`` (names: chromium, mosquitto,
systemd-analyze, certutil, unshare, pymahjonggb). ``make test`` installs the Debian ones first (tools/install_deps.sh);
the test summary counts the tests skipped on request (tests/conftest.py)."""
from __future__ import annotations

import os

import pytest

ALLOW_ENV = "MT_ALLOW_MISSING"
ON_REQUEST = "skipped on request"


def allowed() -> set[str]:
    """The tools the person said may be missing."""
    return set(os.environ.get(ALLOW_ENV, "").replace(",", " ").split())


def need(tool: str, why: str) -> None:
    """``why`` the test cannot run without ``tool``: fail (the default) or skip when ``tool`` is allowed."""
    if tool in allowed():
        pytest.skip(f"{why}: {ON_REQUEST} ({ALLOW_ENV} names {tool})")
    pytest.fail(f"{why}: run 'make deps' (as root it installs it), or set {ALLOW_ENV}={tool} to skip these "
                "tests on purpose", pytrace=False)
