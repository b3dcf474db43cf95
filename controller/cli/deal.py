"""``mahjong-table deal``: the wall, the break and the starting hands for given dice (and a seeded wall)."""
from __future__ import annotations

import argparse
import json

from controller.cli import CliError
from controller.cli.common import add_profile
from controller.cli.inputs import int_in

WIND = "ESWN"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    ap = sub.add_parser(
        "deal", help="show the wall, the break and the starting hands for given dice",
        description="Break the wall with the given dice and deal, as the profile prescribes. Without --seed the "
                    "tiles are unknown (x) and only positions and counts are shown.",
    )
    add_profile(ap, default="basic", short=True, help="rule profile (default basic)")
    ap.add_argument("--dice", required=True, help="dice values: 4,2 (one throw) or 4,2,3,5 (two throws)")
    ap.add_argument("--seed", type=int, default=None, help="shuffle a known wall with this seed")
    ap.add_argument("--players", type=int_in(2, 4), default=4, help="number of players (default 4)")
    ap.add_argument("--tiles", default=None, help="tile set where the profile has several (Red: T144, T148, T144J)")
    ap.add_argument("--dealer", type=int_in(0, 3), default=0, help="dealer seat (default 0 = East)")
    ap.add_argument("--json", action="store_true", help="print a JSON object")
    ap.set_defaults(func=run)


def _side_name(seat: int, dealer: int, sides: tuple[int, ...]) -> str:
    """The side's wind relative to the dealer (East); two sides are East and West."""
    winds = WIND if len(sides) > 2 else "EW"
    return winds[(sides.index(seat) - sides.index(dealer)) % len(sides)]


def run(args: argparse.Namespace) -> int:
    import random

    from rules.notation import format_tiles
    from rules.tiles import sort_tiles
    from rules.wall import deal, parse_dice, shuffled_wall, wall_spec

    try:
        spec = wall_spec(args.profile, args.players, args.tiles)
        dice = parse_dice(args.dice)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    if len(dice) != spec.throws:
        raise CliError(f"{args.profile} throws the dice {spec.throws} time(s): give {2 * spec.throws} values")
    if args.dealer not in spec.seats:
        raise CliError(f"seat {args.dealer} is not seated with {args.players} players ({spec.seats})")
    seq = shuffled_wall(spec, random.Random(args.seed)) if args.seed is not None else None
    d = deal(spec, args.dealer, dice, seq)
    sides = spec.sides

    def name(seat: int) -> str:
        return f"{_side_name(seat, args.dealer, sides)}(seat {seat})"

    first_side, first_stack = d.brk.first_stack
    count_rule = {"min_die": "the smaller die", "sum": "the dice sum", "two_sums": "both sums"}[spec.count]
    repl = {"head": "the draw end (same end as normal draws)", "tail": "the other end (the tail of the wall)",
            "dead_wall": f"the {spec.dead_wall}-tile dead wall"}[spec.replacement]
    if args.json:
        out = {
            "profile": args.profile, "players": spec.players, "tile_set": spec.tile_set, "tiles": spec.n_tiles,
            "dealer": args.dealer, "dice": [list(x) for x in dice], "throwers": list(d.brk.throwers),
            "sections": {str(s): spec.sections[(sides.index(s) - sides.index(args.dealer)) % len(sides)]
                         for s in sides},
            "break": {"side": d.brk.side, "count": d.brk.count, "first_stack": list(d.brk.first_stack)},
            "steps": [{"seat": s.seat, "what": s.what, "positions": list(s.positions)} for s in d.steps],
            "hands": {str(s): [str(t) for t in h] for s, h in d.hands.items()},
            "remaining": d.remaining, "replacement": spec.replacement, "dead_wall": spec.dead_wall,
            "wall": [str(t) for t in seq] if seq is not None else None,
        }
        print(json.dumps(out))
        return 0
    print(f"profile {args.profile}: {spec.players} players, {spec.n_tiles} tiles ({spec.tile_set}), "
          f"dealer {name(args.dealer)}")
    secs = ", ".join(f"{_side_name(s, args.dealer, sides)} {spec.sections[(sides.index(s) - sides.index(args.dealer)) % len(sides)]}"
                     for s in sides)
    print(f"wall sections (stacks of two): {secs}")
    for i, (thr, (a, b)) in enumerate(zip(d.brk.throwers, dice)):
        print(f"throw {i + 1}: {name(thr)} throws {a}+{b} = {a + b}")
    print(f"break: wall of {name(d.brk.side)}, after {d.brk.count} stack(s) ({count_rule}) counted from its "
          f"owner's right end; drawing starts at {name(first_side)} stack {first_stack}")
    print(f"replacement tiles come from {repl}")

    def pos(i: int) -> str:
        return f"L{i // 2 + 1}.{'top' if i % 2 == 0 else 'bot'}"

    print("deal:")
    for st in d.steps:
        where = ", ".join(pos(p) for p in st.positions) if st.what != "block" else \
            f"L{st.positions[0] // 2 + 1}-L{st.positions[-1] // 2 + 1}"
        print(f"  {st.what:6} {name(st.seat)} <- {where}")
    print("starting hands:")
    for s in spec.seats:
        h = d.hands[s]
        body = format_tiles(sort_tiles(h)) if seq is not None else " ".join("x" for _ in h)
        print(f"  {name(s):12} {len(h):2} tiles  {body}")
    print(f"tiles left to draw: {d.remaining}" + (f" (+ {spec.dead_wall} in the dead wall)" if spec.dead_wall else ""))
    if spec.replacement == "dead_wall":
        ind = d.cursor().dora_indicator_positions(0)[0]
        print(f"dora indicator: {pos(ind)}" + (f" = {seq[ind]}" if seq is not None else ""))
    if seq is not None:
        print("wall in draw order (L1 top/bottom, L2 ...):")
        pairs = [f"{seq[i]}{seq[i + 1]}" for i in range(0, len(seq), 2)]
        for i in range(0, len(pairs), 18):
            print("  " + " ".join(pairs[i:i + 18]))
    return 0
