"""``mahjong-table waits`` and ``mahjong-table shanten``: hand-shape questions under a profile's shapes."""
from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from controller.cli import CliError
from controller.cli.common import add_profile

if TYPE_CHECKING:
    from rules.notation import Hand
    from rules.profiles.base import Profile

DEFAULT_PROFILE = "basic"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    for name, helptext in (
        ("waits", "list the tiles that complete a 13-tile hand"),
        ("shanten", "tiles away from tenpai (0 = tenpai, -1 = complete)"),
    ):
        ap = sub.add_parser(name, help=helptext, description=helptext)
        ap.add_argument("hand", help='hand in mpsz notation, e.g. "1112345678999m" or "123m456p [555z] 78s1z"')
        add_profile(ap, default=DEFAULT_PROFILE, short=True, help=f"rule profile (default {DEFAULT_PROFILE})")
        ap.add_argument("--json", action="store_true", help="print a JSON object")
        ap.set_defaults(func=run, question=name)


def _load(args: argparse.Namespace) -> tuple[Profile, Hand]:
    from rules.notation import ParseError, parse_hand
    from rules.profiles import registry

    profile = registry.get(args.profile)  # a name of the registry: add_profile's choices
    try:
        hand = parse_hand(args.hand)
    except ParseError as exc:
        raise CliError(f"bad hand: {exc}") from None
    errs = profile.check_hand(hand)
    if errs:
        raise CliError("; ".join(errs))
    return profile, hand


def run(args: argparse.Namespace) -> int:
    from rules.notation import format_hand

    profile, hand = _load(args)
    if args.question == "waits":
        if hand.winning is not None:
            raise CliError('waits takes a hand without a winning tile (no "+")')
        bad = profile.check_tile_count(hand, with_winning=False)
        if bad:
            raise CliError(bad)
        ws = [str(t) for t in profile.waits(hand)]
        if args.json:
            print(json.dumps({"hand": format_hand(hand), "profile": profile.name, "waits": ws}))
        else:
            print(" ".join(ws) if ws else "no waits (not tenpai)")
        return 0
    n = hand.tile_count
    if n not in (13, 14):
        raise CliError(f"the hand has {n} tiles counting each set as three; 13 or 14 expected")
    sh = profile.shanten(hand)
    if args.json:
        print(json.dumps({"hand": format_hand(hand), "profile": profile.name, "shanten": sh}))
    else:
        print({-1: "complete (-1)", 0: "tenpai (0)"}.get(sh, str(sh)))
    return 0
