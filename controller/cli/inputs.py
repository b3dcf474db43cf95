"""Checked command-line inputs: numbers in range, files that exist and parse, outputs that can be written.

Every check fails with :class:`controller.cli.CliError` — one line, exit code 2 — naming the option and what
is allowed; a reader that trips over a malformed file (whatever it raises) becomes "cannot read ... : why".
"""
from __future__ import annotations

import argparse
import math
import os
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from controller.cli import CliError

T = TypeVar("T")


def int_in(lo: int, hi: int) -> Callable[[str], int]:
    """An argparse ``type``: an integer ``lo..hi``."""
    def parse(text: str) -> int:
        try:
            v = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if not lo <= v <= hi:
            raise argparse.ArgumentTypeError(f"{v} is out of range {lo}..{hi}")
        return v
    parse.__name__ = "integer"
    return parse


def float_in(lo: float, hi: float) -> Callable[[str], float]:
    """An argparse ``type``: a finite number ``lo..hi``."""
    def parse(text: str) -> float:
        try:
            v = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        if not math.isfinite(v) or not lo <= v <= hi:
            raise argparse.ArgumentTypeError(f"{text} is out of range {lo:g}..{hi:g}")
        return v
    parse.__name__ = "number"
    return parse


def input_file(path: str | Path, what: str) -> Path:
    """A file to read: it exists, is a regular file and is not empty."""
    p = Path(path)
    if not p.exists():
        raise CliError(f"{what} {p}: no such file")
    if p.is_dir():
        raise CliError(f"{what} {p}: is a directory, not a file")
    if not p.is_file():
        raise CliError(f"{what} {p}: not a regular file")
    if not os.access(p, os.R_OK):
        raise CliError(f"{what} {p}: permission denied")
    if p.stat().st_size == 0:
        raise CliError(f"{what} {p}: the file is empty")
    return p


def read_with(reader: Callable[[Path], T], path: str | Path, what: str) -> T:
    """``reader(path)`` on a checked input file; anything it raises on a malformed file is one line."""
    p = input_file(path, what)
    try:
        return reader(p)
    except CliError:
        raise
    except MemoryError:
        raise CliError(f"{what} {p}: too large to read") from None
    except Exception as exc:  # a malformed file: whatever the parser raises, the user gets one line
        raise CliError(f"cannot read {what} {p}: {reason(exc)}") from None


def output_file(path: str | Path, what: str, suffixes: tuple[str, ...] = ()) -> Path:
    """A file to write: its folder exists and is writable, it is not a folder, its suffix is allowed."""
    p = Path(path)
    if suffixes and p.suffix.lower() not in suffixes:
        raise CliError(f"{what} {p}: must end in {' or '.join(suffixes)}")
    if p.is_dir():
        raise CliError(f"{what} {p}: is a directory; give a file name")
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.is_dir():
        raise CliError(f"{what} {p}: no such folder {parent}")
    if not os.access(parent, os.W_OK) or (p.exists() and not os.access(p, os.W_OK)):
        raise CliError(f"{what} {p}: permission denied")
    return p


def write_with(writer: Callable[[Path], object], path: str | Path, what: str, suffixes: tuple[str, ...] = ()) -> None:
    p = output_file(path, what, suffixes)
    try:
        ok = writer(p)
    except OSError as exc:
        raise CliError(f"cannot write {what} {p}: {exc.strerror or exc}") from None
    if ok is False:  # cv2.imwrite's way of failing
        raise CliError(f"cannot write {what} {p}")


def reason(exc: BaseException) -> str:
    """One line saying what was wrong (the first line of the message, or the kind of error)."""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    if isinstance(exc, KeyError):
        text = f"missing field {text}"
    text = text[:200]
    return text or type(exc).__name__
