"""``mahjong-table demo`` (what ``make run`` starts until the table service lands): score a few example
hands under every implemented profile, then play one short random game in the terminal."""
from __future__ import annotations

import argparse
import random

# profile -> example hands with context (one line each; all are real wins in that profile)
EXAMPLES: dict[str, list[tuple[str, dict]]] = {
    "basic": [("123m456p789s1133z + 1z", {"self_drawn": True}), ("1122m3344p5566s7z + 7z", {})],
    "mcr": [("1112345678999m + 9m", {}), ("147m258p369s1234z + 5z", {"self_drawn": True})],
    "riichi-ema2016": [
        ("23456m67888p234s + 1m", {"self_drawn": True, "seat_wind": "2z", "round_wind": "1z", "dora_indicators": ["1p"]})
    ],
    "sichuan-mpl2025": [("11223344556677m + 7m", {"missing_suit": "s"})],
    "sichuan-wmsg": [("123456789m11p [555p] + 1p", {"missing_suit": "s"})],
    "red": [("234s j [123m] [555p] [777z] + j", {"self_drawn": True, "players": 4})],
}


def register(sub: argparse._SubParsersAction) -> None:
    ap = sub.add_parser("demo", help="score example hands and play one short random game (make run)")
    ap.add_argument("--seed", type=int, default=None, help="random seed of the game (default: random)")
    ap.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from controller.cli.score import render, score_object
    from rules.profiles import registry

    print("mahjong-table demo — example hands under each implemented profile\n")
    for name in registry.names():
        try:
            registry.get(name)
        except registry.NotImplementedProfile:
            print(f"[{name}] not implemented yet\n")
            continue
        for hand, ctx in EXAMPLES.get(name, []):
            res = score_object(name, {"hand": hand, **ctx})
            if not res.get("ok"):
                print(f"[{name}] {hand}: {res['error']}\n")
                continue
            print(render(res) + "\n")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 30)
    print(f"one short random game (seed {seed}):\n")
    try:
        from controller.cli import play
    except ImportError:
        play = None
    if play is not None and hasattr(play, "demo_game"):
        return int(play.demo_game(seed) or 0)
    return solitaire(seed)


def solitaire(seed: int, max_turns: int = 120) -> int:
    """Four greedy players draw and discard (no claims) until one self-draws a win or the wall ends."""
    from rules.notation import Hand, format_hand
    from rules.profiles import registry
    from rules.shapes import shanten
    from rules.tiles import KINDS, counts34

    prof = registry.get("basic")
    rng = random.Random(seed)
    wall = [t for t in KINDS for _ in range(4)]
    rng.shuffle(wall)
    hands = [[wall.pop() for _ in range(13)] for _ in range(4)]
    for turn in range(max_turns):
        if len(wall) <= 14:
            break
        seat = turn % 4
        drawn = wall.pop()
        hand = hands[seat] + [drawn]
        if shanten(counts34(hand)) == -1:
            h = Hand(tuple(hands[seat]), (), drawn)
            res = prof.score_checked(h, prof.context({"self_drawn": True}))
            print(f"turn {turn}: seat {seat} self-draws {drawn} and wins: {format_hand(h)}  ({res.total_fan} fan)")
            return 0
        # discard the tile whose removal keeps shanten lowest (ties: the most isolated)
        best = min(
            range(len(hand)),
            key=lambda i: (shanten(counts34(hand[:i] + hand[i + 1 :])), -abs(hand[i].number - 5), int(hand[i])),
        )
        tile = hand.pop(best)
        hands[seat] = hand
        if turn < 8 or turn % 16 == 0:
            print(f"turn {turn}: seat {seat} draws {drawn}, discards {tile}")
    print("the wall is exhausted: a draw")
    return 0
