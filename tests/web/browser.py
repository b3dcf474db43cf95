"""A demo table served in a subprocess and Debian's chromium driven by Playwright (never a downloaded
browser): shared by the browser tests and ``make screenshots``."""
from __future__ import annotations

import contextlib
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

from tests.web.helpers import PIN_HASH

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("MT_CHROMIUM", "/usr/bin/chromium")
# chromium's own traffic stays on this machine (the workplace allows no other destination than loopback): every
# host name but the loopback ones resolves to nothing, so no DNS query leaves (the tests use 127.0.0.x and
# localhost), and the background services (updates, autofill, sign-in, connectivity checks) stay off
OFFLINE_ARGS = ["--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1, EXCLUDE 127.0.0.2",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-pings",
                "--disable-domain-reliability", "--dns-prefetch-disable"]


def chromium_missing() -> str:
    """Why the browser tests cannot run here ("" when they can)."""
    if not Path(CHROMIUM).exists() and not shutil.which("chromium"):
        return f"no chromium at {CHROMIUM} (.ci/run installs Debian's chromium package)"
    try:
        import playwright  # noqa: F401
    except ImportError:
        return "the playwright package is missing (pip install -e '.[dev]')"
    return ""


@contextlib.contextmanager
def demo_table(tmp: Path, *, profile: str = "basic", pace: float = 0.05, language: str = "en",
               table: str = "demo-1", players: int = 4) -> Iterator[str]:
    """``mahjong-table serve --demo`` on a free port with the test PIN; yields the page's address."""
    cfg = tmp / "config.toml"
    cfg.write_text(
        f'[table]\nid = "{table}"\nprofile = "{profile}"\nbackend = "mcu"\nplayers = {players}\n'
        '[serial]\nport = "emulator"\ntime_scale = 200.0\n'
        f'[store]\npath = "{tmp / "events.sqlite"}"\n'
        f'[web]\nport = 0\nlanguage = "{language}"\njudge_pin_hash = "{PIN_HASH}"\ncamera_interval_s = 1.0\n'
    )
    with _served([sys.executable, "-m", "controller", "serve", "--demo", "--pace", str(pace), "--config", str(cfg)]) as url:
        yield url


@contextlib.contextmanager
def camera_table(tmp: Path, frames: Path) -> Iterator[str]:
    """``mahjong-table serve`` (no demo: the table idle, as while a set is enrolled) whose camera replays the
    images in ``frames`` (a folder) every half second; yields the page's address."""
    cfg = tmp / "config.toml"
    cfg.write_text(
        '[table]\nid = "enroll-1"\nprofile = "basic"\nbackend = "mcu"\nplayers = 4\n'
        '[serial]\nport = "emulator"\ntime_scale = 200.0\n'
        f'[store]\npath = "{tmp / "events.sqlite"}"\n'
        f'[camera]\nsource = "{frames}"\n'
        f'[web]\nport = 0\nlanguage = "en"\njudge_pin_hash = "{PIN_HASH}"\ncamera_interval_s = 0.5\n'
    )
    with _served([sys.executable, "-m", "controller", "serve", "--config", str(cfg)]) as url:
        yield url


@contextlib.contextmanager
def refereed_table(tmp: Path) -> Iterator[str]:
    """A table whose referee follows a hand with a misread tile and waits for the judge (tests.web.refereed)."""
    with _served([sys.executable, "-m", "tests.web.refereed", str(tmp)]) as url:
        yield url


@contextlib.contextmanager
def _served(argv: list[str]) -> Iterator[str]:
    with started(argv, r"(http://[\d.]+:\d+)/") as m:
        yield m.group(1)


@contextlib.contextmanager
def started(argv: list[str], pattern: str) -> Iterator[re.Match[str]]:
    """A service started from this checkout whose first line of output matches ``pattern`` (its address or
    ports); stopped (terminated, killed after 10 s) when the block ends."""
    p = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        line = p.stdout.readline() if p.stdout else ""
        m = re.search(pattern, line)
        assert m, f"the service did not print where it listens: {line!r}"
        yield m
    finally:
        p.terminate()
        try:
            p.wait(10)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()


@contextlib.contextmanager
def browser() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    exe = CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium")
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=exe, headless=True, args=["--no-sandbox", "--disable-gpu", *OFFLINE_ARGS])
        try:
            yield b
        finally:
            b.close()


def log_in(page, name: str, pin: str) -> None:
    """Fill and send the page's judge login (the caller waits for what should follow)."""
    page.click("#judge-btn")
    page.fill("input[name=name]", name)
    page.fill("input[name=pin]", pin)
    page.click("#login-go")


def award_penalty(page, seat: int, points: int, rule: str, reason: str) -> None:
    """Award a penalty from the judge's console and wait until the audit log shows it."""
    page.select_option("#pen-seat", str(seat))
    page.fill("#penalty input[name=points]", str(points))
    page.fill("#penalty input[name=rule]", rule)
    page.fill("#penalty input[name=reason]", reason)
    page.click("#penalty button[type=submit]")
    page.wait_for_selector(f"#audit td:has-text('{reason}')")
