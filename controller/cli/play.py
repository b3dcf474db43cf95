"""``mahjong-table play``: bots play hands in the terminal; prints the event log and the settlement."""
from __future__ import annotations

import argparse
import json
from collections.abc import Mapping
from typing import TYPE_CHECKING

from controller.cli import CliError
from controller.cli.common import add_profile
from controller.cli.inputs import int_in

if TYPE_CHECKING:
    from rules.events import Event

WIND = "ESWN"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    ap = sub.add_parser(
        "play", help="let seeded bots play hands and print the event log and settlements",
        description="Seeded bots play hands through the rules engine (full information). Each hand's events "
                    "are printed one per line, then its settlement; --json prints every event as JSON lines.",
    )
    add_profile(ap, default="basic", short=True, help="rule profile (default basic)")
    ap.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    ap.add_argument("--hands", type=int_in(1, 100_000), default=1, help="number of hands, 1..100000 (default 1)")
    ap.add_argument("--players", type=int_in(2, 4), default=None,
                    help="number of players (default 4, or the profile's first: 3 for mcr-siamese)")
    ap.add_argument("--bot", choices=("greedy", "random"), default="greedy", help="bot kind (default greedy)")
    ap.add_argument("--quiet", "-q", action="store_true", help="only the result line of each hand")
    ap.add_argument("--json", action="store_true", help="print the events as JSON lines")
    ap.set_defaults(func=run)


def describe(ev: Event, seats: Mapping[int, str]) -> str:
    """One readable line for a game event."""
    from rules.events import (
        Claimed,
        Dealt,
        DiceRolled,
        Discarded,
        DoraRevealed,
        Drew,
        ExhaustiveDraw,
        FlowerDeclared,
        HandEnded,
        HandRevealed,
        HandStarted,
        MeldMade,
        MissingSuitDeclared,
        Settled,
        Violation,
        WallBroken,
        Won,
        as_seat,
        relative_source,
    )

    def who(k: int | None) -> str:
        return seats.get(k, f"seat {k}") if k is not None else "-"

    match ev:
        case HandStarted():
            return f"hand {ev.hand_number} starts: {ev.profile}, dealer {who(ev.dealer)}, round wind {ev.round_wind}"
        case DiceRolled():
            return f"{who(ev.seat)} throws {'+'.join(map(str, ev.values))}"
        case WallBroken():
            return f"the wall of {who(ev.wall_side)} is broken after stack {ev.stack}"
        case Dealt():
            return f"{who(ev.seat)} is dealt {len(ev.tiles)}: {' '.join(ev.tiles)}"
        case Drew():
            return f"{who(ev.seat)} draws {ev.tile}" + (" (replacement)" if ev.source != "wall" else "")
        case Discarded():
            return f"{who(ev.seat)} discards {ev.tile}"
        case Claimed():
            return f"{who(ev.seat)} calls {ev.kind} on {ev.tile}"
        case MeldMade():
            src = f" from the {relative_source(ev.seat, ev.from_seat)}" if ev.from_seat is not None else ""
            return f"{who(ev.seat)} makes {ev.kind} {' '.join(ev.tiles)}{src}"
        case Won():
            how = "self-drawn" if ev.from_seat is None else f"on {who(ev.from_seat)}'s discard"
            shown = f" with hand {ev.slot + 1}: {ev.hand}" if ev.hand else ""  # mcr-siamese names the hand
            return (f"{who(ev.seat)} declares a win on {ev.tile}{shown} "
                    f"({how}{', robbing the kong' if ev.robbing_kong else ''})")
        case HandRevealed():
            return f"{who(ev.seat)} reveals {' '.join(ev.tiles)}" + (f" (winning {ev.winning})" if ev.winning else "")
        case FlowerDeclared():
            return f"{who(ev.seat)} declares flower {ev.tile}"
        case MissingSuitDeclared():
            return f"{who(ev.seat)} declares the missing suit {ev.suit}"
        case ExhaustiveDraw():
            return "exhaustive draw" + (f"; ready: {', '.join(who(s) for s in ev.tenpai)}" if ev.tenpai else "")
        case DoraRevealed():
            return f"dora indicator {ev.indicator} turned ({ev.kind})"
        case Violation():
            return f"VIOLATION {ev.code} by {who(ev.seat)} [{ev.rule}]: {ev.message}"
        case Settled():
            pays = "; ".join(f"{who(as_seat(p['payer']))} pays {p['amount']} to {who(as_seat(p['payee']))} "
                             f"({p['reason']})" for p in ev.payments) or "no payments"
            return f"settlement: {pays}"
        case HandEnded():
            return f"hand over ({ev.reason}); next dealer {who(ev.next_dealer)}"
    d = ev.to_json()
    return f"{ev.TYPE} {json.dumps({k: v for k, v in d.items() if k not in ('type', 'v', 't_wall', 'hand_id')})}"


def run(args: argparse.Namespace) -> int:
    import random

    from rules.profiles import registry
    from rules.simulate import SimClock, play_hand

    try:
        profile = registry.get(args.profile)
        if args.players is None:  # the profile's usual table (mcr-siamese: 3 players)
            args.players = 4 if 4 in getattr(profile, "players", (4,)) else profile.players[0]
        spec = profile.wall_spec(args.players)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    if args.hands < 1:
        raise CliError("--hands must be at least 1")
    rng = random.Random(args.seed)
    clock = SimClock()
    dealer = spec.seats[0]
    totals = {s: 0 for s in spec.seats}
    winds = WIND if len(spec.seats) > 2 else "EW"
    names = {s: f"{winds[i]}{s}" for i, s in enumerate(spec.seats)}
    for i in range(args.hands):
        try:
            r = play_hand(profile, random.Random(rng.random()), n_players=args.players, dealer=dealer, bot=args.bot,
                          hand_id=f"s{args.seed}-h{i}", hand_number=i, clock=clock)
        except ValueError as exc:  # a profile the machine cannot play
            raise CliError(str(exc)) from None
        for s in spec.seats:
            totals[s] += r.deltas[s]
        if args.json:
            for ev in r.events:
                print(json.dumps(ev.to_json()))
        elif not args.quiet:
            for ev in r.events:
                print(f"{ev.t_mono:8.1f}  {describe(ev, names)}")
        won = {w: r.winners.count(w) for w in r.winners}  # mcr-siamese: a player may win both hands
        result = (f"won by {', '.join(names[w] + (f' x{n}' if n > 1 else '') for w, n in won.items())}" if r.winners
                  else "exhaustive draw" if r.exhaustive else "no winner")
        if not args.json:
            deltas = " ".join(f"{names[s]} {r.deltas[s]:+d}" for s in spec.seats)
            print(f"hand {i}: {result}; {deltas}; {len(r.events)} events")
        dealer = r.next_dealer
    if not args.json and args.hands > 1:
        print("totals: " + " ".join(f"{names[s]} {totals[s]:+d}" for s in spec.seats))
        for st in profile.standings(totals, names):
            print(f"  {st.rank}. {st.player:4} {st.total:+6d}  ({st.table_points:g} table points)")
    return 0
