"""``mahjong-table demo`` (what ``make run`` starts until the table service lands): score a few example
hands under every profile, then play one short random game in the terminal."""
from __future__ import annotations

import argparse
import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from rules.events import JSONValue


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    ap = sub.add_parser("demo", help="score example hands and play one short random game (make run)")
    ap.add_argument("--seed", type=int, default=None, help="random seed of the game (default: random)")
    ap.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from controller.cli.score import render, score_object
    from rules.profiles import registry

    print("mahjong-table demo — example hands under each profile\n")
    for name in registry.names():
        for ex in registry.get(name).examples:  # each rule set's own real wins (rules.game.table_data.Example)
            context = cast("Mapping[str, JSONValue]", ex.context)  # an Example's context is JSON values (rules: object)
            res = score_object(name, {"hand": ex.hand, **context})
            if not res.get("ok"):
                print(f"[{name}] {ex.hand}: {res['error']}\n")
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
