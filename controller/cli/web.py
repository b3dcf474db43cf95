"""``mahjong-table web hash-pin|set-pin``: the judge's PIN for the table's web page, stored hashed.

``set-pin`` asks for the PIN twice (or reads one line from standard input with ``--stdin``) and writes
its scrypt hash as ``judge_pin_hash`` in the ``[web]`` section of the config file, leaving the rest of
the file as it was; ``hash-pin`` prints the hash line to paste by hand. The PIN itself is never written
or printed.
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from controller.cli import CliError


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    ap = sub.add_parser("web", help="the web page's judge PIN (stored hashed in the config)", description=__doc__,
                        formatter_class=argparse.RawDescriptionHelpFormatter)
    wsub = ap.add_subparsers(dest="web_cmd", metavar="ACTION", required=True)
    h = wsub.add_parser("hash-pin", help="print the hash of a PIN as a config line (web.judge_pin_hash)")
    h.add_argument("--stdin", action="store_true", help="read the PIN from standard input (one line)")
    h.set_defaults(func=run)
    s = wsub.add_parser("set-pin", help="write the hash of a new judge PIN into the config file")
    s.add_argument("--config", "-c", default="/etc/mahjong-table/config.toml", help="config file (default %(default)s)")
    s.add_argument("--stdin", action="store_true", help="read the PIN from standard input (one line)")
    s.set_defaults(func=run)


def read_pin(from_stdin: bool) -> str:
    if from_stdin:
        line = sys.stdin.readline()
        if not line:
            raise CliError("no PIN on standard input")
        return line.rstrip("\r\n")
    import getpass

    try:
        a = getpass.getpass("judge's PIN (at least 6 characters): ")
        b = getpass.getpass("the same PIN again: ")
    except EOFError:
        raise CliError("no PIN given (use --stdin to pipe one)") from None
    if a != b:
        raise CliError("the two PINs differ: nothing written")
    return a


def set_key(text: str, line: str) -> str:
    """``text`` (TOML) with ``judge_pin_hash`` in its ``[web]`` section replaced by ``line`` (added, and the
    section too, when missing)."""
    lines = text.splitlines()
    start = next((i for i, ln in enumerate(lines) if re.match(r"^\s*\[web\]\s*(#.*)?$", ln)), None)
    if start is None:
        return text.rstrip("\n") + ("\n\n" if text.strip() else "") + "[web]\n" + line + "\n"
    end = next((i for i in range(start + 1, len(lines)) if re.match(r"^\s*\[", lines[i])), len(lines))
    for i in range(start + 1, end):
        if re.match(r"^\s*judge_pin_hash\s*=", lines[i]):
            lines[i] = line
            break
    else:
        lines.insert(start + 1, line)
    return "\n".join(lines) + "\n"


def run(args: argparse.Namespace) -> int:
    from controller import config
    from controller.web.security import PinError, hash_pin

    try:
        digest = hash_pin(read_pin(args.stdin))
    except PinError as exc:
        raise CliError(str(exc)) from None
    line = f'judge_pin_hash = "{digest}"'
    if args.web_cmd == "hash-pin":
        print("[web]")
        print(line)
        return 0
    path = Path(args.config)
    try:
        old = path.read_text(encoding="utf-8") if path.exists() else ""
    except (OSError, UnicodeDecodeError) as exc:
        raise CliError(f"{path}: cannot read it ({exc})") from None
    new = set_key(old, line)
    tmp = path.with_name(path.name + ".new")
    try:
        tmp.write_text(new, encoding="utf-8")
        _, problems = config.check(tmp)
        if problems:
            raise CliError(f"{path}: would not be a valid config: {'; '.join(problems)}")
        if path.exists():
            tmp.chmod(path.stat().st_mode & 0o777)
        tmp.replace(path)
    except OSError as exc:
        raise CliError(f"{path}: cannot write it ({exc.strerror or exc})") from None
    finally:
        tmp.unlink(missing_ok=True)
    print(f"{path}: the judge's PIN is set (stored hashed); restart the service to use it")
    return 0
