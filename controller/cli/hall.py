"""``mahjong-table hall``: the tournament hall — its service and dashboard, a simulated tournament, provisioning
the tables' identities and the broker, the hall database's backup and restore.

  hall serve [--config F]            the hall service and its dashboard (an embedded mosquitto by default)
  hall simulate --tables N --sessions S --profile P --seed X [--broker URL] [--broker-restart] [--regulations] [--seat-check]
                                     N simulated tables through S sessions; prints the final standings and
                                     'results: sent N, ingested N, lost 0, duplicated 0'; exit 1 on a loss
                [--pantheon URL --pantheon-token T --pantheon-event E --pantheon-person P]
                                     riichi: every hand into Pantheon, the hall down once while sending;
                                     'pantheon: sent N, accepted N, refused 0, doubled 0'
  hall provision --tables N --out DIR [--tls] ...
                                     identities, passwords, ACL, certificates, configs for the hall and tables
  hall backup --config F --out FILE  /  hall restore --config F --from FILE
  hall director-password NAME        a director login line for the hall config's [directors.users]
  hall players import FILE           register players from the EMA list or mahjong-portal's CSV
  hall export --format ema|portal|penalties [--session N] --out FILE
                                     results for MERS, mahjong-portal; penalties and the zero-sum check
  hall badges --out badges.pdf [--session N]
                                     a badge per player (name, QR code of the id) for the seat check
  hall pantheon check|send|held|release
                                     riichi into Pantheon: the event and token, sending, the judge's decisions
"""
from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from controller.cli import CliError
from controller.cli.common import (
    add_profile,
    hall_config,
    pantheon_records,
    positive_int,
    print_help,
    serve_web,
    stop_on_signals,
)

if TYPE_CHECKING:
    import asyncio

    from controller.hall_link.simulate_pantheon import PantheonSim
    from hall.config import HallConfig
    from hall.runtime import Hall


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    ap = sub.add_parser("hall", help="the tournament hall: serve, simulate, provision, backup, restore",
                        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    hs = ap.add_subparsers(dest="hall_command", metavar="HALL_COMMAND")
    ap.set_defaults(func=print_help(ap))

    p = hs.add_parser("serve", help="run the hall service and its dashboard")
    p.add_argument("--config", "-c", default=None, help="hall config (TOML; default: built-in development defaults)")
    p.set_defaults(func=serve)

    p = hs.add_parser("simulate", help="a simulated tournament against a broker; proves nothing lost or doubled")
    p.add_argument("--tables", type=positive_int, required=True, help="simulated tables (4 players each)")
    p.add_argument("--sessions", type=positive_int, required=True, help="sessions to play")
    add_profile(p, required=True)
    p.add_argument("--seed", type=int, required=True, help="seed of the seating draws and the bots")
    p.add_argument("--broker", default="", help="an existing broker mqtt://HOST:PORT (default: a local mosquitto "
                   "started on a free port and stopped at the end)")
    p.add_argument("--broker-restart", action="store_true", help="stop and restart the broker in the middle of a session")
    p.add_argument("--events", choices=("results", "all"), default="results",
                   help="what the tables publish: results and hand starts (default), or every event")
    p.add_argument("--max-hands", type=positive_int, default=None, help="at most this many hands per table and session")
    p.add_argument("--regulations", action="store_true",
                   help="play the seeds' regulations too: a substitute mid-session, a late player, a penalty and "
                   "sanctions at a table's console, appeals (one upheld: the hand corrected), riichi's chombo, the "
                   "rule set's smaller tables (listed on stderr)")
    p.add_argument("--seat-check", action="store_true",
                   help="each table reads the players' badges before a session's first hand (rendered into its "
                   "camera frame); in session 1 two players of the first table sit swapped (the judge overrides) "
                   "and two of the second (they move): listed on stderr, the run fails if the hall missed one")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress lines on stderr")
    p.add_argument("--pantheon", default="", metavar="URL",
                   help="riichi: send every hand to this Pantheon (Mimir URL) through the hall's Pantheon outbox, the "
                   "hall going down once while sending; prints 'pantheon: sent N, accepted N, refused 0, doubled 0' "
                   "(the tables send every event; players P001.. are Pantheon players 1..)")
    p.add_argument("--pantheon-token", default="", help="with --pantheon: the X-Auth-Token")
    p.add_argument("--pantheon-event", type=positive_int, default=None, help="with --pantheon: the event id")
    p.add_argument("--pantheon-person", type=positive_int, default=None, help="with --pantheon: the person id")
    p.set_defaults(func=simulate)

    p = hs.add_parser("backup", help="copy the hall database (consistent, while the hall runs)")
    p.add_argument("--config", "-c", default=None)
    p.add_argument("--db", default=None, help="the hall database (overrides hall.db)")
    p.add_argument("--out", required=True, help="the backup file")
    p.set_defaults(func=backup)

    p = hs.add_parser("restore", help="replace the hall database by a backup (stop the hall first)")
    p.add_argument("--config", "-c", default=None)
    p.add_argument("--db", default=None, help="the hall database (overrides hall.db)")
    p.add_argument("--from", dest="source", required=True, help="the backup file")
    p.set_defaults(func=restore)

    p = hs.add_parser("director-password", help="print a director login line for the hall config's [directors.users]")
    p.add_argument("name", help="the director's login name")
    p.add_argument("--password", default=None, help="the password (default: asked without echo)")
    p.set_defaults(func=director_password)

    from controller.cli.hall_exports import register as register_exports

    register_exports(hs)

    from controller.cli.hall_provision import register as register_provision

    register_provision(hs)

    from controller.cli.hall_badges import register as register_badges

    register_badges(hs)


def serve(args: argparse.Namespace) -> int:
    import asyncio
    import logging

    from hall.broker import BrokerError
    from hall.db import HallDBError
    from hall.runtime import Hall

    cfg = hall_config(args.config)
    if cfg.web.tls_certfile or cfg.web.tls_keyfile:  # the dashboard's certificate, one line for each problem
        from hall.tls import cert_problems

        names = [*cfg.web.names, *([cfg.web.host] if cfg.web.host not in ("0.0.0.0", "::") else [])]
        keys = {"cert": "web.tls_certfile", "key": "web.tls_keyfile", "names": "web.names"}
        problems = [f"{keys[k]}: {why}" for k, why in cert_problems(cfg.web.tls_certfile, cfg.web.tls_keyfile, names)]
        if problems:
            raise CliError("hall configuration: " + "; ".join(problems))
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s", datefmt="%H:%M:%S")
    try:
        hall = Hall(cfg).start()
    except (BrokerError, HallDBError, OSError) as exc:
        raise CliError(str(exc)) from None

    async def main() -> None:
        from hall.web import Dashboard

        stop = stop_on_signals()
        directors = dict(cfg.directors.users)
        if not directors:  # development defaults: a one-time director login, printed once
            import secrets

            from hall.auth import hash_password

            once = secrets.token_urlsafe(9)
            directors = {"director": hash_password(once)}
            print(f"no [directors] in the config: log in as 'director' with the one-time password {once}", flush=True)
        web = Dashboard(hall, cfg.web.host, cfg.web.port, directors=directors,
                        certfile=cfg.web.tls_certfile, keyfile=cfg.web.tls_keyfile, cafile=cfg.web.cafile,
                        http_port=cfg.web.http_port, insecure_login=cfg.web.insecure_login,
                        names=list(cfg.web.names), idle_s=60.0 * cfg.web.session_idle_minutes,
                        max_s=3600.0 * cfg.web.session_max_hours)
        from controller.web.replay_routes import add_hall_routes  # each hand's replay (issue #32)

        add_hall_routes(web.app, hall.db)

        def announce(port: int) -> None:
            scheme = "https" if web.tls else "http"
            plain = (f" (public view and the CA also on http://{cfg.web.host}:{web.http_port}/)"
                     if web.http_port is not None else "")
            print(f"hall {cfg.hall.id} ({cfg.hall.profile}): broker {hall.broker_url}, dashboard "
                  f"{scheme}://{cfg.web.host}:{port}/{plain}, database {cfg.hall.db} — Ctrl-C to stop", flush=True)

        async def until_stopped() -> None:
            pantheon = _pantheon_task(cfg, hall, stop)
            try:
                await stop.wait()
            finally:
                if pantheon is not None:
                    await pantheon

        await serve_web(web, cfg.web.host, cfg.web.port, announce, until_stopped)

    try:
        asyncio.run(main())
    finally:
        hall.stop()
    return 0


def _pantheon_task(cfg: HallConfig, hall: Hall, stop: asyncio.Event) -> asyncio.Task[None] | None:
    """With ``[pantheon] url`` set and a riichi hall: the refereed hands go to Pantheon while the hall runs."""
    import asyncio

    if not cfg.pantheon.url:
        return None
    if not pantheon_records(cfg.hall.profile):
        print(f"pantheon: not used — Pantheon records riichi, this hall plays {cfg.hall.profile}", flush=True)
        return None
    from hall.pantheon.client import PantheonConfig
    from hall.pantheon.service import run as pantheon_run

    pc = PantheonConfig(cfg.pantheon.url, cfg.pantheon.token, cfg.pantheon.person_id, cfg.pantheon.event_id)
    print(f"pantheon: sending the refereed hands to event {pc.event_id} at {pc.url}", flush=True)
    assert hall.tournament is not None  # (the hall is started: hall serve runs it before its tasks)
    return asyncio.create_task(pantheon_run(hall.db, hall.tournament.profile, pc, cfg.pantheon.outbox, stop,
                                            say=lambda m: print(f"pantheon: {m}", flush=True)))


def simulate(args: argparse.Namespace) -> int:
    from controller.hall_link.simulate import format_ranking, run
    from hall.broker import BrokerError
    from hall.mqtt import BrokerURLError, parse_url

    if args.broker:
        try:
            parse_url(args.broker)
        except BrokerURLError as exc:
            raise CliError(str(exc)) from None
        if args.broker_restart:
            raise CliError("--broker-restart restarts the local mosquitto: leave out --broker")
    progress = None if args.quiet else (lambda m: print(m, file=sys.stderr, flush=True))
    pan = _pantheon_sim(args, progress)
    try:
        rep = run(args.tables, args.sessions, args.profile, args.seed, broker=args.broker,
                  broker_restart=args.broker_restart, events="all" if pan else args.events,
                  max_hands=args.max_hands, progress=progress, after_session=pan.after_session if pan else None,
                  regulations=args.regulations, seat_check=args.seat_check)
    except (BrokerError, RuntimeError) as exc:
        raise CliError(str(exc)) from None
    for line in rep.regulations:
        if progress is not None:
            progress(f"regulations: {line}")
    for line in rep.seat_checks:
        if progress is not None:
            progress(f"seat check: {line}")
    for line in rep.seat_problems:
        print(f"seat check: {line}", file=sys.stderr)
    print(f"final standings: {args.profile}, {args.tables} tables, {args.sessions} session(s), "
          f"{rep.seconds:.1f} s")
    for line in format_ranking(rep):
        print(line)
    if rep.mismatched:
        print(f"standings differ from the tables' records for: {', '.join(rep.mismatched)}", file=sys.stderr)
    print(rep.line(), flush=True)
    if pan is None:
        return 0 if rep.ok else 1
    import shutil

    ok, line = pan.result()
    shutil.rmtree(pan.outbox_path.parent, ignore_errors=True)
    for problem in pan.problems + pan.errors:
        print(f"pantheon: {problem}", file=sys.stderr)
    print(line, flush=True)
    return 0 if rep.ok and ok else 1


def _pantheon_sim(args: argparse.Namespace, progress: Callable[[str], None] | None) -> PantheonSim | None:
    """``--pantheon URL``: the Pantheon side of the simulation (None without it)."""
    if not args.pantheon:
        return None
    import tempfile
    from pathlib import Path
    from urllib.parse import urlparse

    from controller.hall_link.simulate_pantheon import PantheonSim, config

    u = urlparse(args.pantheon)
    if u.scheme not in ("http", "https") or not u.netloc:
        raise CliError(f"--pantheon: {args.pantheon!r} is not an http(s) URL")
    if not pantheon_records(args.profile):
        raise CliError(f"--pantheon: Pantheon records riichi, not {args.profile}")
    if not args.pantheon_token or args.pantheon_event is None or args.pantheon_person is None:
        raise CliError("--pantheon needs --pantheon-token, --pantheon-event and --pantheon-person")
    work = Path(tempfile.mkdtemp(prefix="mahjong-pantheon-sim-"))
    return PantheonSim(config(args.pantheon, args.pantheon_token, args.pantheon_event, args.pantheon_person),
                       work / "pantheon.sqlite", max(1, (args.sessions + 1) // 2), progress or (lambda _m: None))


def backup(args: argparse.Namespace) -> int:
    from hall.db import HallDB, HallDBError

    cfg = hall_config(args.config, hall__db=args.db)
    try:
        db = HallDB(cfg.hall.db)
        try:
            out = db.backup(args.out)
        finally:
            db.close()
    except (HallDBError, OSError) as exc:
        raise CliError(str(exc)) from None
    print(f"backed up {cfg.hall.db} to {out}")
    return 0


def restore(args: argparse.Namespace) -> int:
    from hall.db import HallDBError
    from hall.db import restore as do_restore

    cfg = hall_config(args.config, hall__db=args.db)
    try:
        v = do_restore(args.source, cfg.hall.db)
    except (HallDBError, OSError) as exc:
        raise CliError(str(exc)) from None
    print(f"restored {cfg.hall.db} from {args.source} (schema {v})")
    return 0


def director_password(args: argparse.Namespace) -> int:
    import getpass
    import re

    from hall.auth import hash_password

    if not re.fullmatch(r"[A-Za-z0-9_-]{1,40}", args.name):  # a TOML key: letters, digits, _ and -
        raise CliError(f"director name {args.name!r}: 1..40 letters, digits, '_' or '-'")
    pw = args.password if args.password is not None else getpass.getpass(f"password for {args.name}: ")
    if len(pw) < 8:
        raise CliError("a director password needs at least 8 characters")
    print(f'{args.name} = "{hash_password(pw)}"')
    return 0
