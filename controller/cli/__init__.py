"""The ``mahjong-table`` command line.

Each sub-command lives in its own module of this package and exposes ``register(subparsers)``, which adds
its parser and sets ``func`` (called with the parsed namespace, returning an exit code). Modules import
their heavy dependencies inside the handler, so ``--help`` stays fast on a Pi.

Exit codes, one rule for every command (README, "Exit codes"): 0 the question was answered; 1 a negative
answer a script needs (not a win, config problems, a failed self-test, a table fault); 2 bad input — one line
on stderr, never a traceback (:class:`CliError`, argparse's usage errors, checked files and numbers:
:mod:`controller.cli.inputs`).
"""
from __future__ import annotations

import argparse
import importlib
import sys
from typing import NoReturn

# The sub-command modules, in the order ``--help`` lists them.
COMMAND_MODULES = (
    "demo",
    "score",
    "hands",  # waits, shanten
    "deal",
    "play",
    "table",  # technician commands against the MCU (firmware_bridge)
    "emulator",
    "tiles",  # tile classifier: enroll, classify
    "calibrate",
    "vision",
    "config",
    "serve",
    "web",  # the web page's judge PIN
    "hall",  # the tournament hall: serve, simulate, provision, backup, restore (issue #19)
    "simulate",  # the camera referee end to end against the bots' truth
    "export",  # a refereed hand's record: events or tenhou.net/6
)


class CliError(Exception):
    """An error the user caused: printed as one line, exit code 2, never a traceback."""


class Parser(argparse.ArgumentParser):
    """argparse, with a usage error on one line (exit code 2) instead of the usage block and the error."""

    def error(self, message: str) -> NoReturn:
        # one prefix for every bad input (README "Exit codes"): the sub-command named after it
        command = self.prog.removeprefix("mahjong-table").strip()
        self.exit(2, f"mahjong-table: error: {command + ': ' if command else ''}{message} (see '{self.prog} --help')\n")


def build_parser() -> argparse.ArgumentParser:
    ap = Parser(
        prog="mahjong-table",
        description="Camera-refereed automatic mahjong table: rules engine, table controller, vision.",
        epilog="Run 'mahjong-table COMMAND --help' for a command's options.",
    )
    sub = ap.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(f"controller.cli.{name}").register(sub)
    return ap


def main(argv: list[str] | None = None) -> int:
    ap = build_parser()
    # A sub-command that sets ``accepts_extra`` (e.g. ``score``: its context flags depend on the profile)
    # receives the arguments argparse did not know as ``args.extra``; any other command rejects them.
    try:  # a usage error (an unknown option, a --profile not in the registry) is one line and exit code 2
        args, extra = ap.parse_known_args(argv)
        if extra and not getattr(args, "accepts_extra", False):
            ap.error(f"unrecognized arguments: {' '.join(extra)}")
    except SystemExit as exc:  # (argparse exits; main returns the code like every other answer: --help 0)
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    args.extra = extra
    if not getattr(args, "func", None):
        ap.print_help()
        return 0
    try:
        return int(args.func(args) or 0)
    except CliError as exc:
        print(f"mahjong-table: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
