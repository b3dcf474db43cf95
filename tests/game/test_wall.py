"""Walls, dice, break and deal: the spec vectors of every profile and the geometry's invariants."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from rules.tiles import Tile
from rules.wall import (
    WALLS,
    WallCursor,
    break_wall,
    deal,
    deal_steps,
    dice_target,
    parse_dice,
    roll_dice,
    shuffled_wall,
    stack_order,
    tile_set,
    wall_spec,
)
from tests.vectors import by_id

# --- tile sets ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name,n,flowers,jokers", [
    ("sichuan108", 108, 0, 0), ("std136", 136, 0, 0), ("mcr144", 144, 8, 0),
    ("T144", 144, 8, 0), ("T148", 148, 8, 4), ("T144J", 144, 4, 4),
])
def test_tile_sets(name, n, flowers, jokers):
    ts = tile_set(name)
    assert len(ts) == n
    assert sum(t.is_flower for t in ts) == flowers
    assert sum(t.is_joker for t in ts) == jokers
    c = Counter(t for t in ts if t.is_playing)
    assert set(c.values()) == {4}
    if name == "sichuan108":
        assert all(t.suit in "mps" for t in ts)


@pytest.mark.parametrize("fam", sorted(WALLS))
def test_sections_hold_the_tile_set(fam):
    p = WALLS[fam]
    for players in p["players"]:
        for ts in p["tile_sets"]:
            spec = wall_spec(fam, players, ts)
            assert spec.n_tiles == len(tile_set(ts)), (fam, players, ts)
            assert len(spec.sections) == len(spec.sides)


# --- dice -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("vid,profile", [("mpl-table-dice-to-wall", "sichuan-mpl2025"),
                                         ("wmsg-table-dice-to-wall", "sichuan-wmsg")])
def test_sichuan_dice_table(vid, profile):
    v = by_id("sichuan", vid)
    spec = wall_spec(profile)
    for case in v["expected"]["cases"]:
        assert dice_target(spec, v["dealer_seat"], case["dice_sum"]) == case["wall_owner_offset_from_dealer"]


def test_sichuan_wmsg_dice_example():
    v = by_id("sichuan", "wmsg-002-1.3-dice-example")
    brk = break_wall(wall_spec("sichuan-wmsg"), v["dealer_seat"], (tuple(v["dice"]),))
    assert brk.side == v["expected"]["wall_owner_seat"]
    assert brk.count == v["expected"]["break_stacks"]
    assert sum(brk.sums) == v["expected"]["dice_sum"]


def test_riichi_dice_breaker():
    v = by_id("riichi", "setup-dice-breaker")
    spec = wall_spec("riichi-ema2016")
    got = [dice_target(spec, 0, s) for s in v["input"]["dice_sums"]]
    assert got == v["expected"]["breaker_seat_relative_to_east"]


@pytest.mark.parametrize("vid", ["red-dice-01-4p", "red-dice-02-3p", "red-dice-03-2p", "red-dice-04-3p-from-west"])
def test_red_dice(vid):
    v = by_id("red", vid)
    spec = wall_spec("red", v["players"])
    for s, target in v["expected"]["target_seat_by_sum"].items():
        assert dice_target(spec, v["thrower"], int(s)) == target, s


@pytest.mark.parametrize("vid", ["red-break-01-fn5", "red-break-02-cross"])
def test_red_break(vid):
    v = by_id("red", vid)
    spec = wall_spec("red", v["players"], f"T{v['tile_set']}")
    s1, s2 = v["first_throw"]["sum"], v["second_throw"]["sum"]
    # any dice with these sums give the same break
    dice = ((1, s1 - 1) if s1 <= 7 else (6, s1 - 6), (1, s2 - 1) if s2 <= 7 else (6, s2 - 6))
    brk = break_wall(spec, v["dealer"], dice)
    assert brk.side == v["expected"]["breaker"]
    assert brk.count == v["expected"]["break_number"]
    lay = v["expected"]["derived_layout"]
    side, stack = brk.first_stack
    assert f"stack {stack} of seat {side}" in lay["live_wall_first_stack"].replace("'s section", "").replace(
        f"stack {stack} of seat {side} section", f"stack {stack} of seat {side}") or (
        lay["live_wall_first_stack"].startswith(f"stack {stack} of seat {side}"))
    crosses = brk.count > spec.sections[spec.sides.index(brk.side)]
    assert crosses == lay["crosses_into_left_section"]


# --- deal -----------------------------------------------------------------------------------------------


def test_sichuan_deal_layout_vector():
    v = by_id("sichuan", "mpl-rule-deal-layout")
    spec = wall_spec("sichuan-mpl2025")
    steps = deal_steps(spec, v["dealer_seat"])
    exp = v["expected"]
    blocks = [s for s in steps if s.what == "block"]
    want_blocks = [(t["seat"], t["stacks"]) for r in exp["rounds"] for t in r["takes"]]
    got_blocks = [(s.seat, [f"L{p // 2 + 1}" for p in s.positions[::2]]) for s in blocks]
    assert got_blocks == want_blocks

    def name(p: int) -> str:
        return f"L{p // 2 + 1}.{'top' if p % 2 == 0 else 'bottom'}"

    jumps = [(s.seat, [name(p) for p in s.positions]) for s in steps if s.what == "jump"]
    assert jumps == [(j["seat"], j["tiles"]) for j in exp["jump"]]
    seq = shuffled_wall(spec, random.Random(0))
    d = deal(spec, v["dealer_seat"], ((3, 4),), seq)
    assert {str(s): len(h) for s, h in d.hands.items()} == exp["hand_sizes"]
    assert d.dealt == exp["tiles_dealt"] and d.remaining == exp["tiles_left_to_draw"]
    assert name(d.cursor().draw_position()) == exp["first_draw"]


@pytest.mark.parametrize("vid", ["red-deal-4p-144", "red-deal-4p-148", "red-deal-3p-144", "red-deal-3p-148",
                                 "red-deal-2p-144", "red-deal-2p-148"])
def test_red_deal_vectors(vid):
    v = by_id("red", vid)
    spec = wall_spec("red", v["players"], f"T{v['tile_set']}")
    exp = v["expected"]
    sections = {str(s): spec.sections[(spec.sides.index(s) - spec.sides.index(v["dealer"])) % len(spec.sides)]
                for s in spec.sides}
    assert sections == exp["wall_sections_stacks"]
    d = deal(spec, v["dealer"], ((2, 3), (4, 5)), shuffled_wall(spec, random.Random(1)))
    assert {str(s): len(h) for s, h in d.hands.items()} == exp["hand_sizes"]
    assert d.remaining == exp["tiles_left_in_wall_before_flower_replacement"]


def _all_specs():
    for fam, p in WALLS.items():
        for players in p["players"]:
            for ts in p["tile_sets"]:
                yield wall_spec(fam, players, ts)


@pytest.mark.parametrize("spec", list(_all_specs()), ids=lambda s: f"{s.family}-{s.players}-{s.tile_set}")
def test_every_break_and_deal_is_a_permutation(spec):
    rng = random.Random(7)
    for dealer in spec.seats:
        for _ in range(6):
            dice = tuple((rng.randint(1, 6), rng.randint(1, 6)) for _ in range(spec.throws))
            brk = break_wall(spec, dealer, dice)
            order = stack_order(spec, dealer, brk)
            assert len(order) == len(set(order)) == spec.n_tiles // 2
            assert order[0] == brk.first_stack
            seq = shuffled_wall(spec, rng)
            d = deal(spec, dealer, dice, seq)
            pos = [p for s in d.steps for p in s.positions]
            size = 27 if spec.deal == "siamese" else 13  # Siamese: two hands per player (003 §Сиамский 8)
            assert len(pos) == len(set(pos)) == size * spec.players + 1
            assert sorted(pos) == list(range(len(pos)))  # the deal takes the head of the wall
            assert len(d.hands[dealer]) == size + 1 and all(len(d.hands[s]) == size for s in spec.seats if s != dealer)
            assert Counter(t for h in d.hands.values() for t in h) == Counter(seq[: len(pos)])
            assert d.remaining == spec.n_tiles - spec.dead_wall - len(pos)


def test_parse_dice():
    assert parse_dice("4,2") == ((4, 2),)
    assert parse_dice("4, 2,3,5") == ((4, 2), (3, 5))
    for bad in ("4", "4,7", "a,b", "1,2,3"):
        with pytest.raises(ValueError):
            parse_dice(bad)


def test_throw_count_is_checked():
    with pytest.raises(ValueError):
        break_wall(wall_spec("mcr"), 0, ((1, 2),))


# --- draw and replacement ends ----------------------------------------------------------------------


def _drain(spec, kinds: list[str]) -> list[int]:
    cur = WallCursor(spec, head=53)
    out = []
    for k in kinds:
        p = cur.take(k)
        if p is not None:
            out.append(p)
    return out


def test_sichuan_replaces_from_the_draw_end():
    spec = wall_spec("sichuan-mpl2025")  # 002 §8 comment
    assert _drain(spec, ["wall", "replacement", "wall"]) == [53, 54, 55]


def test_mcr_replaces_from_the_tail_top_first():
    spec = wall_spec("mcr")
    n = spec.n_tiles
    assert _drain(spec, ["replacement", "replacement", "replacement", "wall"]) == [n - 2, n - 1, n - 4, 53]


def test_riichi_dead_wall_and_indicators():
    spec = wall_spec("riichi-ema2016")
    cur = WallCursor(spec, head=53)
    assert cur.remaining == 69
    n = spec.n_tiles
    assert cur.dora_indicator_positions(0) == (n - 6,)  # top of the 3rd dead-wall stack
    assert cur.dora_indicator_positions(2) == (n - 6, n - 8, n - 10)
    assert cur.ura_indicator_positions(0) == (n - 5,)
    assert cur.take("replacement") == n - 2  # top of stack 1 at the break
    assert cur.remaining == 68  # each kan moves a live tile into the dead wall
    assert cur.take("replacement") == n - 1


def test_wall_runs_out_exactly():
    for spec in _all_specs():
        cur = WallCursor(spec, head=13 * spec.players + 1)
        seen = set()
        i = 0
        while cur.remaining:
            p = cur.take("wall" if i % 3 else "replacement")
            if p is None:  # riichi: no fifth kan replacement
                assert spec.dead_wall and cur.dead_used == 4
                p = cur.take("wall")
            assert p not in seen
            seen.add(p)
            i += 1
        assert cur.take("wall") is None and cur.take("replacement") is None
        assert len(seen) == spec.n_tiles - spec.dead_wall - (13 * spec.players + 1)
        if spec.dead_wall:  # the indicators were never drawn
            assert not seen & set(cur.dora_indicator_positions(4) + cur.ura_indicator_positions(4))


def test_unknown_wall_deals_x():
    spec = wall_spec("basic")
    d = deal(spec, 2, ((1, 1),))
    assert d.sequence is None
    assert all(t == Tile.parse("x") for h in d.hands.values() for t in h)
    assert len(d.hands[2]) == 14


@pytest.mark.parametrize("players", [3, 2])
def test_mcr_siamese_wall_and_deal(players):
    """003 §Сиамский (rules/profiles/mcr/siamese.py SIAMESE_TABLE): 136 tiles in four walls of 17 stacks,
    6 x 4 tiles then 3 x 1 to each player and a 28th to East; 2 players leave 27 tiles dead at the far end."""
    from rules.profiles.mcr.siamese import SIAMESE_TABLE
    from rules.profiles.registry import get

    spec = get("mcr-siamese").wall_spec(players)
    assert spec.n_tiles == SIAMESE_TABLE["tiles"] and set(spec.sections) == {SIAMESE_TABLE["stacks_per_wall"]}
    assert not spec.flowers
    rng = random.Random(players)
    seq = shuffled_wall(spec, rng)
    d = deal(spec, 0, roll_dice(rng, spec), seq)
    sizes = SIAMESE_TABLE["hand_sizes"]
    assert {s: len(h) for s, h in d.hands.items()} == {
        s: sizes["dealer"] if s == 0 else sizes["other"] for s in spec.seats}
    dealt = sum(len(h) for h in d.hands.values())
    dead = SIAMESE_TABLE["dead_wall_two_players"] if players == 2 else 0
    w = WallCursor(spec, head=dealt)
    assert w.remaining == spec.n_tiles - dealt - dead
    taken = set()
    while w.remaining:  # every live tile is reached exactly once, never one of the dead wall
        pos = w.take("replacement" if len(taken) % 5 == 0 else "wall")
        assert pos not in taken
        taken.add(pos)
    assert len(taken) == spec.n_tiles - dealt - dead
    untouched = set(range(dealt, spec.n_tiles)) - taken  # the dead wall: the far end's 27 tiles
    assert len(untouched) == dead and all(i >= spec.n_tiles - dead - 1 for i in untouched)
