"""``mahjong-table demo`` (what ``make run`` starts until the table service lands): score a few example
hands under every profile, then play one short random game in the terminal."""
from __future__ import annotations

import argparse
import random
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rules.events import JSONValue

# profile -> example hands with context (one line each; all are real wins in that profile)
EXAMPLES: dict[str, list[tuple[str, dict[str, JSONValue]]]] = {
    "basic": [("123m456p789s1133z + 1z", {"self_drawn": True}), ("1122m3344p5566s7z + 7z", {})],
    "mcr": [("1112345678999m + 9m", {}), ("147m258p369s1234z + 5z", {"self_drawn": True})],
    "riichi-ema2016": [
        ("23456m67888p234s + 1m", {"self_drawn": True, "seat_wind": "2z", "round_wind": "1z", "dora_indicators": ["1p"]})
    ],
    "sichuan-mpl2025": [("1122334455667m + 7m", {"missing_suit": "s"})],
    "sichuan-wmsg": [("123456789m1p [555p] + 1p", {"missing_suit": "s"})],
    "red": [("234s j [123m] [555p] [777z] + j", {"self_drawn": True, "players": 4})],
}


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    ap = sub.add_parser("demo", help="score example hands and play one short random game (make run)")
    ap.add_argument("--seed", type=int, default=None, help="random seed of the game (default: random)")
    ap.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from controller.cli.score import render, score_object
    from rules.profiles import registry

    print("mahjong-table demo — example hands under each profile\n")
    for name in registry.names():
        for hand, ctx in EXAMPLES.get(name, []):
            res = score_object(name, {"hand": hand, **ctx})
            if not res.get("ok"):
                print(f"[{name}] {hand}: {res['error']}\n")
                continue
            print(render(res) + "\n")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 30)
    print(f"one short random game: bots play a hand of the basic profile (seed {seed})\n")
    return bot_game(seed)


def bot_game(seed: int) -> int:
    """Four greedy bots play one hand through the rules engine's hand machine; print it as it went."""
    from controller.cli.play import WIND, describe
    from rules.profiles import registry
    from rules.simulate import play_hand

    r = play_hand(registry.get("basic"), random.Random(seed), hand_id=f"demo-{seed}")
    names = {s: f"{WIND[s]}{s}" for s in range(4)}
    for ev in r.events:
        print(f"{ev.t_mono:7.1f}  {describe(ev, names)}")
    result = f"won by {', '.join(names[w] for w in r.winners)}" if r.winners else "exhaustive draw"
    print(f"\n{result}; score changes {list(r.deltas)}")
    return 0
