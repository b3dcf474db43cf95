"""``mahjong-table config check|show|example``: validate and inspect the table service configuration.

``check`` prints one line per problem, ``FILE:LINE: KEY: what is wrong (what is allowed)``, then a count, and
exits 1; a clean file prints ``FILE: OK`` and exits 0. A path that is not a readable file exits 2. ``check`` also
asks this machine for what the file names (the camera can be imported and is there, the serial port exists and is
the header's UART of this board, the pin factory can run); ``--no-hardware`` checks the file only.
"""
from __future__ import annotations

import argparse

from controller.cli import CliError


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    ap = sub.add_parser("config", help="check, show or write an example of the service configuration",
                        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    csub = ap.add_subparsers(dest="config_cmd", metavar="ACTION", required=True)
    c = csub.add_parser("check", help="validate a config file: one line per problem, naming the line and the key")
    c.add_argument("path", nargs="?", default=None, help="config file (default /etc/mahjong-table/config.toml)")
    c.add_argument("--no-hardware", action="store_true", help="check the file only, not this machine's camera, "
                   "serial port and GPIO (a config written for another machine)")
    c.set_defaults(func=run)
    s = csub.add_parser("show", help="print the effective configuration (defaults merged with the file)")
    s.add_argument("path", nargs="?", default=None)
    s.set_defaults(func=run)
    e = csub.add_parser("example", help="print a commented config file with every key and its default")
    e.set_defaults(func=run, path=None)


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from config_engine import where
    from controller import config

    if args.config_cmd == "example":
        print(config.example_toml(), end="")
        return 0
    path = args.path
    if path is None and config.DEFAULT_PATH.exists():
        path = config.DEFAULT_PATH
    if path is not None:
        p = Path(path)
        if not p.exists():
            raise CliError(f"{p}: no such file")
        if not p.is_file():
            raise CliError(f"{p}: is a directory, not a config file" if p.is_dir() else f"{p}: not a regular file")
    cfg, problems = config.check(path)
    if cfg is not None and args.config_cmd == "check" and not args.no_hardware:
        from controller import device_check

        src = Path(cfg.source) if path is not None else None
        problems = [f"{where(src, key, cfg.lines) if src else 'defaults'}: {key}: {why}"
                    for key, why in device_check.problems(cfg)]
    if problems:
        for line in problems:
            print(line)
        print(f"{len(problems)} problem(s) in {path}")
        return 1
    assert cfg is not None
    if args.config_cmd == "check":
        print(f"{cfg.source}: OK")
        return 0
    for k, v in cfg.values.items():
        print(f"{k} = {v!r}")
    return 0
