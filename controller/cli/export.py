"""``mahjong-table export``: a refereed hand's record from the event store.

``--format events`` (default): the hand's record as JSON lines — the hand machine's log as the referee
followed it (its latest revision: judge corrections applied), then the referee's own verdicts, questions
and confirmation. ``--format tenhou6``: riichi hands as tenhou.net/6 JSON, one per line, to replay a
refereed hand in the viewers players already use. ``--format mjai``: riichi hands as mjai JSON lines (one
game: start_game, every hand's kyoku, end_game) for Mortal and mjai-reviewer — the public view only, every
tile nobody saw is "?". HAND_ID or --all (every hand with a refereed record).
"""
from __future__ import annotations

import argparse
import json
import sys

from controller.cli import CliError


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    ap = sub.add_parser("export", help="a refereed hand's record: event log (JSON lines), tenhou.net/6 or mjai",
                        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("hand_id", nargs="?", default=None, help="the hand (see 'mahjong-table serve' or the web page)")
    ap.add_argument("--all", action="store_true", help="every refereed hand in the store")
    ap.add_argument("--store", default=None, help="event store path (default: store.path of the configuration)")
    ap.add_argument("--config", "-c", default=None, help="config file (for store.path)")
    ap.add_argument("--format", choices=("events", "tenhou6", "mjai"), default="events",
                    help="events: JSON lines (default); tenhou6: tenhou.net/6 JSON (riichi); mjai: mjai JSON lines "
                    "(riichi, the public view: unseen tiles are '?')")
    ap.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from controller.event_store import EventStore, StoreError
    from controller.referee.export import ExportError, hand_ids, lines
    from controller.referee.export_mjai import MjaiError, store_lines

    if bool(args.hand_id) == bool(args.all):
        raise CliError("give one HAND_ID or --all")
    path = args.store
    if path is None:
        from controller import config as config_mod

        try:
            path = config_mod.load(args.config).store.path
        except config_mod.ConfigError as exc:
            raise CliError("configuration: " + "; ".join(exc.problems)) from None
    if not Path(path).is_file():
        raise CliError(f"no event store at {path}")
    try:
        store = EventStore(path)
    except StoreError as exc:
        raise CliError(str(exc)) from None
    try:
        ids = hand_ids(store) if args.all else [args.hand_id]
        if args.all and not ids:
            raise CliError(f"no refereed hand in {path}")
        out = store_lines(store, ids) if args.format == "mjai" else (
            line for hid in ids for line in lines(store, hid, args.format))
        if args.format == "mjai":
            out = iter(list(out))  # every hand checked before the first line is written
        for line in out:
            sys.stdout.write(json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n")
    except (ExportError, MjaiError) as exc:
        raise CliError(str(exc)) from None
    finally:
        store.close()
    return 0
