"""``mahjong-table config check|show|example``: validate and inspect the table service configuration."""
from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    ap = sub.add_parser("config", help="check, show or write an example of the service configuration")
    csub = ap.add_subparsers(dest="config_cmd", metavar="ACTION", required=True)
    c = csub.add_parser("check", help="validate a config file; every problem names its key and what is allowed")
    c.add_argument("path", nargs="?", default=None, help="config file (default /etc/mahjong-table/config.toml)")
    c.set_defaults(func=run)
    s = csub.add_parser("show", help="print the effective configuration (defaults merged with the file)")
    s.add_argument("path", nargs="?", default=None)
    s.set_defaults(func=run)
    e = csub.add_parser("example", help="print a commented config file with every key and its default")
    e.set_defaults(func=run, path=None)


def run(args: argparse.Namespace) -> int:
    from controller import config

    if args.config_cmd == "example":
        print(config.example_toml(), end="")
        return 0
    path = args.path
    if path is None and config.DEFAULT_PATH.exists():
        path = config.DEFAULT_PATH
    cfg, problems = config.check(path)
    if problems:
        for p in problems:
            print(f"error: {p}")
        print(f"{len(problems)} problem(s) in {path}")
        return 1
    assert cfg is not None
    if args.config_cmd == "check":
        print(f"{cfg.source}: OK")
        return 0
    for k, v in cfg.values.items():
        print(f"{k} = {v!r}")
    return 0
