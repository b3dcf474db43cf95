"""What several sub-commands share: the rule sets a ``--profile`` may name, a whole number of at least one,
serving a web page until a signal (``serve``, ``hall serve``), the hall's config as the hall commands load it.

Kept apart from the command modules so that one command's module never imports another's (issue #31: the
``hall`` ↔ ``hall provision`` import circle).
"""
from __future__ import annotations

import argparse
from collections.abc import Awaitable, Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Protocol

from controller.cli import CliError
from rules.profiles.registry import names

if TYPE_CHECKING:
    import asyncio

    from hall.config import HallConfig

class _Registered:
    """The rule profiles as the registry names them when asked (a rule set registered after this module was
    imported is a choice too): argparse's ``choices``."""

    def __contains__(self, name: object) -> bool:
        return name in names()

    def __iter__(self) -> Iterator[str]:
        return iter(names())


PROFILES = _Registered()


def pantheon_records(profile: str) -> bool:
    """Whether Pantheon records the hands of ``profile`` (a registry name): its data says so (riichi's
    ``record_formats``); an unknown name does not."""
    from rules.game.table_data import PANTHEON
    from rules.profiles import registry

    try:
        return PANTHEON in registry.get(profile).record_formats
    except registry.UnknownProfile:
        return False


class WebService(Protocol):
    """What :func:`serve_web` needs of a web server: the table's page or the hall's dashboard."""

    async def start(self) -> int: ...

    async def close(self) -> None: ...

    def warnings(self) -> Iterable[str]: ...


def add_profile(parser: argparse.ArgumentParser, *, default: str | None = None, required: bool = False,
                short: bool = False, help: str = "the rule set", any_name: bool = False) -> None:
    """``--profile`` (and ``-p`` with ``short``), the one way a command takes a rule set: its choices are the
    registry's, so an unknown name is argparse's one line, exit code 2, before the command runs.
    ``any_name``: the command answers an unknown name itself (``score --jsonl`` answers every line, an
    unknown profile with ``{"ok": false, ...}``) and checks it with :func:`rules.profiles.registry.get`."""
    flags = ("--profile", "-p") if short else ("--profile",)
    parser.add_argument(*flags, default=default, required=required, help=help,
                        **({"metavar": "PROFILE"} if any_name else {"choices": PROFILES}))


def print_help(parser: argparse.ArgumentParser) -> Callable[[argparse.Namespace], int]:
    """A ``func`` for a command given without its sub-command: ``parser``'s help, exit code 0."""
    def run(args: argparse.Namespace) -> int:
        parser.print_help()
        return 0

    return run


def positive_int(text: str) -> int:
    """An argparse ``type``: a whole number of at least 1."""
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if v < 1:
        raise argparse.ArgumentTypeError(f"{v} must be at least 1")
    return v


def stop_on_signals() -> asyncio.Event:
    """An event that SIGINT and SIGTERM set (handlers on the running loop): what a serving command runs
    until — Ctrl-C in a terminal, ``systemctl stop`` under systemd."""
    import asyncio
    import signal

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    return stop


async def serve_web(web: WebService, host: str, port: int, announce: Callable[[int], None],
                    run: Callable[[], Awaitable[None]]) -> None:
    """Start ``web`` (a port it cannot listen on: one line, exit 2), ``announce`` the port it listens on,
    print its warnings (the judge's or director's login without HTTPS), ``run`` — until a signal, as the
    caller waits — and close it, whatever ``run`` ended with."""
    try:
        bound = await web.start()
    except OSError as exc:
        raise CliError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    announce(bound)
    for w in web.warnings():  # on every start
        print(f"warning: {w}", flush=True)
    try:
        await run()
    finally:
        await web.close()


def hall_config(path: str | None, **over: object) -> HallConfig:
    """The hall config (``--config``; ``over``: keys given on the command line, None left out), bad input as
    one line."""
    from hall.config import HallConfigError, load

    try:
        cfg = load(path)
        given = {k: v for k, v in over.items() if v is not None}
        return cfg.with_overrides(**given) if given else cfg
    except HallConfigError as exc:
        raise CliError("hall configuration: " + "; ".join(exc.problems)) from None
