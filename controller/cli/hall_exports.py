"""``mahjong-table hall players import`` and ``hall export``: the hall and the systems organisers already use.

  hall players import FILE [--config F] [--db DB]
      registers the players of the EMA player list (EMA_NUMBER,LAST_NAME,FIRST_NAME,COUNTRY) or of
      mahjong-portal's CSV (name or first_name,last_name; ema, pantheon_id, country, id where known);
      a malformed row: one line each with its row number, exit 2, nothing imported
  hall export --format ema|portal|penalties [--session N] --out FILE [--config F] [--db DB]
      ema: the EMA (MERS) results table; portal: mahjong-portal's upload CSV (--portal-names first-last:
      its EMA mode); penalties: the penalties and chombo list per session, and the check that every
      table's scores sum to zero (one line per table that does not, exit 1)
  hall pantheon check [--config F]
      one line: is the Pantheon event of the config ([pantheon] url, token, person_id, event_id) reachable
      and the token valid (exit 0), or why not (exit 1)
  hall pantheon held [--config F]  /  hall pantheon release KEY --send|--skip [--config F]
      what waits for the judge (a refused round, a disagreement), and the judge's decision on it
  hall pantheon send [--config F]
      write the hall's riichi games, refereed hands and penalties into the Pantheon outbox, then send it in
      order; one line with the counts, then each problem (a disagreement, a refusal, a hand without record)
"""
from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from controller.cli import CliError
from controller.cli.common import hall_config, pantheon_records, print_help

if TYPE_CHECKING:
    from hall.config import HallConfig
    from hall.db import HallDB
    from hall.pantheon.client import PantheonConfig


def register(hs: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    ap = hs.add_parser("players", help="the hall's players: import the EMA list or mahjong-portal's CSV",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ps = ap.add_subparsers(dest="players_command", metavar="PLAYERS_COMMAND")
    ap.set_defaults(func=print_help(ap))
    p = ps.add_parser("import", help="register players from the EMA player list or mahjong-portal's CSV",
                      description="Register players from a CSV file: the EMA player list (header "
                      "EMA_NUMBER,LAST_NAME,FIRST_NAME,COUNTRY) or mahjong-portal's CSV (header with name or "
                      "first_name,last_name and, where known, ema, pantheon_id, country, id). A player already "
                      "registered (same EMA number, Pantheon id or name) is updated. A malformed row is reported "
                      "with its row number and nothing is imported (exit 2).")
    p.add_argument("file", help="the CSV file (UTF-8; comma, semicolon or tab separated)")
    p.add_argument("--config", "-c", default=None, help="hall config (TOML) naming the database")
    p.add_argument("--db", default=None, help="the hall database (overrides hall.db)")
    p.set_defaults(func=players_import)
    register_export(hs)
    register_pantheon(hs)


def register_export(hs: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = hs.add_parser("export", help="results for the EMA (MERS), mahjong-portal; penalties and the zero-sum check",
                      description="Write the tournament's results in the formats organisers upload elsewhere. "
                      "ema: Position,EMA Number,Last Name,First Name,Nationality,Points,Score (MERS). portal: "
                      "mahjong-portal's place,name,scores,games,ema (or place,first_name,last_name,scores,games,ema "
                      "with --portal-names first-last). penalties: every penalty and chombo per session and one "
                      "line per table with the sum of its scores; a table whose scores do not sum to zero is "
                      "reported on stderr, one line each, and the exit code is 1. Each rule set ranks by its own "
                      "seed (the profile's standings).")
    p.add_argument("--format", required=True, choices=("ema", "portal", "penalties"), help="what to write")
    p.add_argument("--session", type=_session, default=None,
                   help="ema/portal: the standings after sessions 1..N; penalties: session N only")
    p.add_argument("--out", required=True, help="the file to write ('-': standard output)")
    p.add_argument("--portal-names", choices=("full", "first-last"), default="full",
                   help="portal: one name column (default) or first and last name apart (the portal's EMA mode)")
    p.add_argument("--config", "-c", default=None, help="hall config (TOML) naming the database and the profile")
    p.add_argument("--db", default=None, help="the hall database (overrides hall.db)")
    p.set_defaults(func=export)


def _session(text: str) -> int:
    from controller.cli.common import positive_int

    return positive_int(text)


def _open_db(args: argparse.Namespace) -> tuple[HallConfig, HallDB]:
    from hall.db import HallDB, HallDBError

    cfg = hall_config(args.config, hall__db=args.db)
    try:
        return cfg, HallDB(cfg.hall.db)
    except (HallDBError, OSError) as exc:
        raise CliError(str(exc)) from None


def players_import(args: argparse.Namespace) -> int:
    from hall.registrations import ImportError_, import_players

    _cfg, db = _open_db(args)
    try:
        rep = import_players(db, args.file)
    except ImportError_ as exc:
        for line in exc.problems:
            print(f"mahjong-table: error: {line}", file=sys.stderr)
        return 2
    finally:
        db.close()
    print(rep.line(args.file))
    return 0


def export(args: argparse.Namespace) -> int:
    from pathlib import Path

    from hall import exports
    from rules.profiles import registry

    cfg, db = _open_db(args)
    try:
        if not db.q("SELECT 1 FROM seating LIMIT 1"):
            raise CliError(f"{cfg.hall.db}: no session has been seated: nothing to export")
        profile = registry.get(db.meta_text("profile", "") or cfg.hall.profile)
        if args.session is not None and not db.q("SELECT 1 FROM seating WHERE session=?", (args.session,)):
            raise CliError(f"session {args.session} has no seating in {cfg.hall.db}")
        bad: list[exports.TableSum] = []
        if args.format == "ema":
            text = exports.ema_table(db, profile, args.session)
        elif args.format == "portal":
            text = exports.portal_csv(db, profile, args.session,
                                      "first_last" if args.portal_names == "first-last" else "full")
        else:
            text, sums = exports.penalties_csv(db, profile, args.session)
            bad = [t for t in sums if not t.ok]
    finally:
        db.close()
    if args.out == "-":
        sys.stdout.write(text)
    else:
        try:
            out = Path(args.out)
            tmp = out.with_name(out.name + ".part")
            tmp.write_text(text, encoding="utf-8")
            tmp.replace(out)
        except OSError as exc:
            raise CliError(f"cannot write {args.out}: {exc.strerror or exc}") from None
        print(f"{args.format}: {text.count(chr(10)) - 1} line(s) written to {args.out}")
    for t in bad:
        print(f"mahjong-table: {t.line()}", file=sys.stderr)
    return 1 if bad else 0


def register_pantheon(hs: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    ap = hs.add_parser("pantheon", help="Pantheon (riichi): check the event and the token, send the outbox",
                       description="Pantheon (MahjongPantheon) for riichi: the refereed hands go into a Pantheon "
                       "event through its Twirp API, configured in the hall config's [pantheon] section (url, "
                       "token, person_id, event_id, outbox).")
    ps = ap.add_subparsers(dest="pantheon_command", metavar="PANTHEON_COMMAND")
    ap.set_defaults(func=print_help(ap))
    p = ps.add_parser("check", help="one line: is the event reachable and the token valid")
    p.add_argument("--config", "-c", default=None, help="hall config (TOML) with a [pantheon] section")
    p.set_defaults(func=pantheon_check)
    p = ps.add_parser("send", help="write the hall's games, hands and penalties into the Pantheon outbox and send "
                      "it (in order; a disagreement is shown, not sent)")
    p.add_argument("--config", "-c", default=None, help="hall config (TOML) with a [pantheon] section")
    p.set_defaults(func=pantheon_send)
    p = ps.add_parser("held", help="what waits for the judge: each refused round or disagreement, one line each")
    p.add_argument("--config", "-c", default=None, help="hall config (TOML) with a [pantheon] section")
    p.set_defaults(func=pantheon_held)
    p = ps.add_parser("release", help="the judge's decision on a held item: send it as the table scored it, or skip it")
    p.add_argument("key", help="the item's key (see 'hall pantheon held')")
    how = p.add_mutually_exclusive_group(required=True)
    how.add_argument("--send", action="store_true", help="send it as it is (no preview check)")
    how.add_argument("--skip", action="store_true", help="never send it (the game goes on without it)")
    p.add_argument("--config", "-c", default=None, help="hall config (TOML) with a [pantheon] section")
    p.set_defaults(func=pantheon_release)


def pantheon_config(args: argparse.Namespace) -> tuple[HallConfig, PantheonConfig]:
    from urllib.parse import urlparse

    from hall.pantheon.client import PantheonConfig

    cfg = hall_config(args.config)
    missing = [k for k in ("pantheon.url", "pantheon.token", "pantheon.person_id", "pantheon.event_id") if not cfg[k]]
    if missing:
        raise CliError(f"hall configuration: {', '.join(missing)} not set: Pantheon is not configured")
    u = urlparse(cfg.pantheon.url)
    if u.scheme not in ("http", "https") or not u.netloc:
        raise CliError(f"pantheon.url: {cfg.pantheon.url!r} is not an http(s) URL")
    return cfg, PantheonConfig(cfg.pantheon.url, cfg.pantheon.token, cfg.pantheon.person_id,
                               cfg.pantheon.event_id)


def pantheon_check(args: argparse.Namespace) -> int:
    import asyncio

    from hall.pantheon.client import check

    _cfg, pc = pantheon_config(args)
    ok, line = asyncio.run(check(pc))
    print(line, file=sys.stdout if ok else sys.stderr)
    return 0 if ok else 1


def pantheon_send(args: argparse.Namespace) -> int:
    import asyncio

    from hall.db import HallDB, HallDBError
    from hall.pantheon.feed import feed
    from hall.pantheon.outbox import PantheonOutbox, Sender
    from rules.profiles import registry

    cfg, pc = pantheon_config(args)
    try:
        db = HallDB(cfg.hall.db)
    except (HallDBError, OSError) as exc:
        raise CliError(str(exc)) from None
    ob = PantheonOutbox(cfg.pantheon.outbox)
    try:
        name = db.meta_text("profile", "") or cfg.hall.profile
        if not pantheon_records(name):
            raise CliError(f"Pantheon records riichi; this hall plays {name}")
        fed = feed(db, ob, registry.get(name))
        rep = asyncio.run(Sender(ob, pc).drain())
    finally:
        ob.close()
        db.close()
    print(rep.line())
    for line in fed.problems:
        print(f"  {line}")
    for p in rep.problems:
        print(f"  {p['text_en']}\n  {p['text_ru']}")
    return 0 if not rep.error and not rep.problems and not fed.problems else 1


def pantheon_held(args: argparse.Namespace) -> int:
    from hall.pantheon.outbox import HELD, PantheonOutbox

    cfg = hall_config(args.config)
    ob = PantheonOutbox(cfg.pantheon.outbox)
    try:
        held = ob.items(HELD)
    finally:
        ob.close()
    for it in held:
        a = it.answer if isinstance(it.answer, dict) else {}
        why = a.get("error") or f"ours {a.get('ours')}, Pantheon {a.get('pantheon')}"
        print(f"{it.key}: {it.state}: {why}")
    if not held:
        print("pantheon: nothing held")
    return 0


def pantheon_release(args: argparse.Namespace) -> int:
    from hall.pantheon.outbox import HELD, PantheonOutbox

    cfg = hall_config(args.config)
    ob = PantheonOutbox(cfg.pantheon.outbox)
    try:
        if args.key not in {i.key for i in ob.items(HELD)}:
            raise CliError(f"{args.key!r} is not held (see 'hall pantheon held')")
        ob.release(args.key, send=args.send)
    finally:
        ob.close()
    print(f"{args.key}: {'will be sent as the table scored it' if args.send else 'skipped'}")
    return 0
