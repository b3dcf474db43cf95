"""Walls and dice: tile sets, wall geometry, the break, the deal, draw and replacement ends, dead wall.

One table of per-profile wall parameters (:data:`WALLS`, data read from each spec) drives one geometry:

* The wall is a **ring of stacks** (two tiles each). Each side's section is numbered ``1..n`` from its
  owner's right end; moving clockwise along a section goes from its owner's right end to his left end and
  continues into the section of the owner's *left* player (sichuan.md §4.3, red.md §3.3, riichi.md §3.3).
* The dice pick the **breaker** (the section owner) and a **count** ``c``; the wall is broken after the
  ``c``-th stack counted clockwise from the breaker's right end (crossing into the next section when ``c``
  is larger than the section, mcr.md A28, red.md §3.3.3).
* The **draw sequence** ``L`` starts at the stack just clockwise of the break: ``seq[2i]`` is the top tile of
  stack ``L(i+1)``, ``seq[2i+1]`` its bottom tile (top before bottom, sichuan.md AMB-12). Normal draws take
  from the head. Replacements take from the head (Sichuan, 002 §8 comment), from the tail (MCR, Red
  flowers: top tile of the stack next to the break first) or from riichi's 14-tile dead wall (the last
  seven stacks of ``L``).

Everything here is pure: no I/O, no global random state (a caller passes a ``random.Random``).
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from rules.tiles import FLOWERS, JOKER, KINDS, UNKNOWN, Tile

# ----------------------------------------------------------------------------------------------------------
# Tile sets


def tile_set(name: str) -> tuple[Tile, ...]:
    """The physical tiles of a named set, in canonical order (four copies of each playing kind)."""
    suits = tuple(k for k in KINDS for _ in range(4))
    if name == "sichuan108":  # 000 §2.3: suits only
        return tuple(t for t in suits if t.suit != "z")
    if name == "std136":  # riichi.md §3.2, basic
        return suits
    if name == "mcr144":  # mcr.md §1: 136 + 8 flowers/seasons
        return suits + FLOWERS
    if name == "T144":  # red.md §1: 136 + 8 flowers
        return suits + FLOWERS
    if name == "T148":  # red.md §1: 136 + 8 flowers + 4 jokers
        return suits + FLOWERS + (JOKER,) * 4
    if name == "T144J":  # red.md §1 interp. A1: seasons only + 4 jokers
        return suits + FLOWERS[4:] + (JOKER,) * 4
    raise ValueError(f"unknown tile set {name!r}")


# ----------------------------------------------------------------------------------------------------------
# Per-profile wall parameters (data)


@dataclass(frozen=True)
class WallSpec:
    """How one profile builds, breaks and deals its wall for a number of players.

    ``sides``: the physical sides holding a wall section (seats), ``sections``: stacks per side counted by
    offset from the dealer in turn order among the sides. ``count``: ``"min_die"`` (Sichuan: the smaller
    die), ``"sum"`` (riichi: the sum), ``"two_sums"`` (MCR, Red: first sum + second sum, thrown by the
    player the first sum points to). ``dice``: ``"count"`` (sum counted in turn order from the thrower as 1)
    or ``"parity2"`` (Red 2 players: odd = opposite, even = thrower). ``deal``: ``"jump"`` (4 players: the
    dealer takes the tops of the 1st and 3rd stacks, the others one each) or ``"singles"`` (one each in
    turn order, then the dealer one more) — both give the same tiles at a full table. ``replacement``:
    ``"head"``, ``"tail"`` or ``"dead_wall"``.
    """

    family: str
    tile_set: str
    players: int
    seats: tuple[int, ...]
    sides: tuple[int, ...]
    sections: tuple[int, ...]
    throws: int
    count: str
    dice: str
    deal: str
    replacement: str
    dead_wall: int = 0
    flowers: bool = False
    kongs: bool = True
    refs: dict[str, str] = field(default_factory=dict)

    @cached_property
    def n_tiles(self) -> int:
        return 2 * sum(self.sections)


# seats by number of players: three leave North empty, two sit East and West (docs/notation.md "Seats")
SEATS: dict[int, tuple[int, ...]] = {4: (0, 1, 2, 3), 3: (0, 1, 2), 2: (0, 2)}

# family -> parameters; "sections" maps (players, tile set) to stacks per side from the dealer.
WALLS: dict[str, dict[str, Any]] = {
    "sichuan": {
        "tile_sets": ("sichuan108",),
        "players": (4, 3),
        "sides": {4: (0, 1, 2, 3), 3: (0, 1, 2, 3)},  # 3 players keep the full 4-sided wall (AMB-13)
        "sections": {(4, "sichuan108"): (14, 13, 14, 13), (3, "sichuan108"): (14, 13, 14, 13)},  # 000 §2.4.8
        "throws": 1,  # 000 §2.4.9.1: the dealer throws once
        "count": "min_die",  # 000 §2.4.9.3, 002 §1.3
        "dice": "count",
        "deal": {4: "jump", 3: "singles"},  # 000 §2.4.9.4-5; 3 players 000 §3.1.3
        "replacement": "head",  # 000 §2.5.7, 002 §8 comment: same end as normal draws
        "dead_wall": 0,  # 000 §2.1.22: every tile is drawn
        "flowers": False,
        "kongs": True,
        "refs": {"wall": "000 §2.4.8", "dice": "000 §2.4.9.1-2", "break": "000 §2.4.9.3-4",
                 "deal": "000 §2.4.9.4-5", "replacement": "002 §8", "exhaustion": "000 §2.1.22"},
    },
    "mcr": {
        "tile_sets": ("mcr144",),
        "players": (4,),
        "sides": {4: (0, 1, 2, 3)},
        "sections": {(4, "mcr144"): (18, 18, 18, 18)},  # §Начало игры 1
        "throws": 2,  # §Начало игры 2: the dealer, then the player his sum points to
        "count": "two_sums",
        "dice": "count",
        "deal": {4: "jump"},
        "replacement": "tail",  # §Словарь 23, §Порядок игры 8: the other end
        "dead_wall": 0,  # mcr.md §3.7
        "flowers": True,
        "kongs": True,
        "refs": {"wall": "MCR §Начало игры 1", "dice": "MCR §Начало игры 2", "break": "MCR §Начало игры 2",
                 "deal": "MCR §Начало игры 2", "replacement": "MCR §Порядок игры 8", "flowers": "MCR §Словарь 23"},
    },
    "riichi": {
        "tile_sets": ("std136",),
        "players": (4,),
        "sides": {4: (0, 1, 2, 3)},
        "sections": {(4, "std136"): (17, 17, 17, 17)},  # Rules 2.4
        "throws": 1,  # Rules 2.5
        "count": "sum",
        "dice": "count",
        "deal": {4: "jump"},  # Rules 2.8
        "replacement": "dead_wall",  # Rules 2.6
        "dead_wall": 14,
        "flowers": False,
        "kongs": True,
        "refs": {"wall": "004 Rules 2.4", "dice": "004 Rules 2.5", "break": "004 Rules 2.5",
                 "deal": "004 Rules 2.8", "replacement": "004 Rules 2.6", "dora": "004 Rules 2.7"},
    },
    "red": {
        "tile_sets": ("T144", "T148", "T144J"),
        "players": (4, 3, 2),
        "sides": {4: (0, 1, 2, 3), 3: (0, 1, 2), 2: (0, 2)},
        "sections": {  # §Перемешивание и построение стены 5-7 (red.md §3.2)
            (4, "T144"): (18, 18, 18, 18), (4, "T148"): (19, 18, 19, 18), (4, "T144J"): (18, 18, 18, 18),
            (3, "T144"): (24, 24, 24), (3, "T148"): (24, 25, 25), (3, "T144J"): (24, 24, 24),
            (2, "T144"): (36, 36), (2, "T148"): (37, 37), (2, "T144J"): (36, 36),
        },
        "throws": 2,  # §Разлом стены 1-2
        "count": "two_sums",
        "dice": {4: "count", 3: "count", 2: "parity2"},  # §Очки на игральных кубиках 1-3
        "deal": {4: "singles", 3: "singles", 2: "singles"},  # §Раздача 1-4
        "replacement": "tail",  # flower end (§Разлом стены 4, red.md A9)
        "dead_wall": 0,
        "flowers": True,
        "kongs": False,  # §Панг 5
        "refs": {"wall": "001 §Перемешивание и построение стены 5-7", "dice": "001 §Очки на игральных кубиках",
                 "break": "001 §Разлом стены", "deal": "001 §Раздача", "flowers": "001 §Раздача 7-8"},
    },
    "mcr-siamese": {  # 003 §Сиамский (mcr.md §11; the numbers of rules/profiles/mcr/siamese.py SIAMESE_TABLE)
        "tile_sets": ("std136",),  # §Сиамский 7: 136 tiles, no flowers
        "players": (3, 2),
        "sides": {3: (0, 1, 2, 3), 2: (0, 1, 2, 3)},  # four walls of 17 stacks; North builds, deals no hand
        "sections": {(3, "std136"): (17, 17, 17, 17), (2, "std136"): (17, 17, 17, 17)},
        "throws": 2,  # as MCR; East throws for North (§Сиамский)
        "count": "two_sums",
        "dice": "count",
        "deal": {3: "siamese", 2: "siamese"},  # 6 x 4 tiles, 3 x 1, East a 28th (§Сиамский 8)
        "replacement": "tail",
        "dead_wall": {3: 0, 2: 27},  # §Сиамский 22: 27 tiles from the far end, never played
        "flowers": False,
        "kongs": True,
        "refs": {"wall": "003 §Сиамский 7", "deal": "003 §Сиамский 8", "dead_wall": "003 §Сиамский 22"},
    },
    "basic": {  # the engine test profile: riichi's wall without a dead wall, replacements from the tail
        "tile_sets": ("std136",),
        "players": (4, 3),
        "sides": {4: (0, 1, 2, 3), 3: (0, 1, 2, 3)},
        "sections": {(4, "std136"): (17, 17, 17, 17), (3, "std136"): (17, 17, 17, 17)},
        "throws": 1,
        "count": "sum",
        "dice": "count",
        "deal": {4: "jump", 3: "singles"},
        "replacement": "tail",
        "dead_wall": 0,
        "flowers": False,
        "kongs": True,
        "refs": {},
    },
}

PROFILE_FAMILY = {
    "sichuan-mpl2025": "sichuan", "sichuan-wmsg": "sichuan", "mcr": "mcr",
    "riichi-ema2016": "riichi", "red": "red", "basic": "basic", "mcr-siamese": "mcr-siamese",
}


def wall_spec(profile: str, players: int = 4, tiles: str | None = None) -> WallSpec:
    """The wall parameters of ``profile`` (a registry name or a family) for ``players`` players."""
    fam = PROFILE_FAMILY.get(profile, profile)
    if fam not in WALLS:
        raise ValueError(f"no wall parameters for profile {profile!r}")
    p = WALLS[fam]
    if players not in p["players"]:
        raise ValueError(f"{profile} is played by {', '.join(map(str, p['players']))} players, not {players}")
    ts = tiles or p["tile_sets"][0]
    if ts not in p["tile_sets"]:
        raise ValueError(f"{profile} has no tile set {ts!r} (sets: {', '.join(p['tile_sets'])})")

    def pick(v: Any) -> Any:
        return v[players] if isinstance(v, dict) else v

    return WallSpec(
        family=fam, tile_set=ts, players=players, seats=SEATS[players], sides=p["sides"][players],
        sections=p["sections"][(players, ts)], throws=p["throws"], count=p["count"], dice=pick(p["dice"]),
        deal=pick(p["deal"]), replacement=p["replacement"], dead_wall=pick(p["dead_wall"]), flowers=p["flowers"],
        kongs=p["kongs"], refs=dict(p["refs"]),
    )


# ----------------------------------------------------------------------------------------------------------
# Seats and dice


def next_seat(seats: tuple[int, ...], k: int) -> int:
    """The seat after ``k`` in turn order among ``seats`` (counter-clockwise, docs/notation.md "Seats")."""
    i = seats.index(k)
    return seats[(i + 1) % len(seats)]


def prev_seat(seats: tuple[int, ...], k: int) -> int:
    """The seat before ``k`` in turn order: ``k``'s left player."""
    i = seats.index(k)
    return seats[(i - 1) % len(seats)]


def turn_distance(seats: tuple[int, ...], frm: int, to: int) -> int:
    """Steps along turn order from ``frm`` to ``to`` among ``seats`` (0 = the same seat)."""
    return (seats.index(to) - seats.index(frm)) % len(seats)


def dice_target(spec: WallSpec, thrower: int, total: int) -> int:
    """The side a dice sum points to, counted in turn order among the sides from the thrower as 1."""
    sides = spec.sides
    if spec.dice == "parity2":  # red.md §2.2: odd = the opposite player, even = the thrower (A3)
        return thrower if total % 2 == 0 else next_seat(sides, thrower)
    i = sides.index(thrower)
    return sides[(i + total - 1) % len(sides)]


def roll_dice(rng: random.Random, spec: WallSpec) -> tuple[tuple[int, int], ...]:
    """One or two throws of two dice, as the profile prescribes."""
    return tuple((rng.randint(1, 6), rng.randint(1, 6)) for _ in range(spec.throws))


def parse_dice(text: str) -> tuple[tuple[int, int], ...]:
    """``"4,2"`` or ``"4,2,3,5"`` -> ((4, 2),) / ((4, 2), (3, 5)). Raises ``ValueError``."""
    try:
        vals = [int(x) for x in text.replace(" ", "").split(",") if x]
    except ValueError:
        raise ValueError(f"dice must be numbers separated by commas, not {text!r}") from None
    if len(vals) not in (2, 4) or any(not 1 <= v <= 6 for v in vals):
        raise ValueError(f"dice must be two or four values 1..6, not {text!r}")
    return tuple((vals[i], vals[i + 1]) for i in range(0, len(vals), 2))


# ----------------------------------------------------------------------------------------------------------
# Break and layout


@dataclass(frozen=True)
class Break:
    """Where the wall is broken. ``throwers``: who threw each throw; ``side``: the breaker's section;
    ``count``: stacks counted from its right end (clockwise); the draw sequence starts at ring stack
    ``count`` (0-based), i.e. the stack just clockwise of the break, which may lie in a later section."""

    throwers: tuple[int, ...]
    sums: tuple[int, ...]
    side: int
    count: int
    first_stack: tuple[int, int]  # (side, stack number from its owner's right end, 1-based)


def break_wall(spec: WallSpec, dealer: int, dice: tuple[tuple[int, int], ...]) -> Break:
    """Apply the profile's dice rule. ``dice``: one (a, b) per throw."""
    if len(dice) != spec.throws:
        raise ValueError(f"{spec.family} throws the dice {spec.throws} time(s), got {len(dice)} throw(s)")
    sums = tuple(a + b for a, b in dice)
    target = dice_target(spec, dealer, sums[0])
    throwers: tuple[int, ...] = (dealer,)
    if spec.count == "min_die":  # 000 §2.4.9.3: the smaller value
        count = min(dice[0])
    elif spec.count == "sum":  # riichi Rules 2.5
        count = sums[0]
    else:  # two throws: the second thrower is the target of the first; count = both sums
        throwers = (dealer, target if target in spec.seats else dealer)  # an empty seat: the dealer throws
        count = sums[0] + sums[1]
    ring = _ring(spec, dealer, target)
    return Break(throwers, sums, target, count, ring[count % len(ring)])


def _ring(spec: WallSpec, dealer: int, start_side: int) -> list[tuple[int, int]]:
    """All stacks clockwise from ``start_side``'s right end: (side, stack number)."""
    sides = spec.sides
    n_by_side = {s: spec.sections[(sides.index(s) - sides.index(dealer)) % len(sides)] for s in sides}
    out: list[tuple[int, int]] = []
    s = start_side
    for _ in sides:
        out.extend((s, i) for i in range(1, n_by_side[s] + 1))
        s = prev_seat(sides, s)  # clockwise continues into the owner's left player's section
    return out


def stack_order(spec: WallSpec, dealer: int, brk: Break) -> list[tuple[int, int]]:
    """The draw-order stacks L1..LN as (side, stack number)."""
    ring = _ring(spec, dealer, brk.side)
    c = brk.count % len(ring)
    return ring[c:] + ring[:c]


# ----------------------------------------------------------------------------------------------------------
# Deal


@dataclass(frozen=True)
class DealStep:
    seat: int
    positions: tuple[int, ...]  # indices into the draw sequence
    what: str  # "block", "jump", "single"


_STEPS: dict[tuple[tuple[int, ...], int, str, int], tuple[DealStep, ...]] = {}


def deal_steps(spec: WallSpec, dealer: int) -> list[DealStep]:
    """The exact dealing order: three rounds of 4-tile blocks, then the dealer's jump tiles or singles."""
    key = (spec.seats, spec.players, spec.deal, dealer)
    got = _STEPS.get(key)
    if got is None:
        got = _STEPS[key] = tuple(_deal_steps(spec, dealer))
    return list(got)


def _deal_steps(spec: WallSpec, dealer: int) -> list[DealStep]:
    order = [dealer]
    while len(order) < spec.players:
        order.append(next_seat(spec.seats, order[-1]))
    steps: list[DealStep] = []
    p = 0
    for _ in range(6 if spec.deal == "siamese" else 3):  # Siamese: two hands each (003 §Сиамский 8)
        for s in order:
            steps.append(DealStep(s, tuple(range(p, p + 4)), "block"))
            p += 4
    if spec.deal == "siamese":
        for _ in range(3):
            for s in order:
                steps.append(DealStep(s, (p,), "single"))
                p += 1
        steps.append(DealStep(dealer, (p,), "single"))
    elif spec.deal == "jump" and spec.players == 4:
        # 000 §2.4.9.4: dealer takes the tops of the 1st and 3rd stacks; the others the tiles between
        steps.append(DealStep(dealer, (p, p + 4), "jump"))
        for i, s in enumerate(order[1:]):
            steps.append(DealStep(s, (p + 1 + i,), "jump"))
    else:
        for i, s in enumerate(order):
            steps.append(DealStep(s, (p + i,), "single"))
        steps.append(DealStep(dealer, (p + len(order),), "single"))
    return steps


# ----------------------------------------------------------------------------------------------------------
# The wall as it is used during a hand


@dataclass
class WallCursor:
    """Counts and positions of a wall in play (works with or without the tiles' identities).

    ``head``: next draw-sequence index for a normal draw; ``tail_used``: tiles taken from the tail end
    (replacements, MCR/Red/basic); ``dead_used``: riichi dead-wall replacements; ``kongs``: kongs declared
    (each moves one live tile into the dead wall, riichi Rules 2.6).
    """

    spec: WallSpec
    head: int = 0
    tail_used: int = 0
    dead_used: int = 0
    kongs: int = 0

    @property
    def live_end(self) -> int:
        """One past the last drawable index of the live wall."""
        n = self.spec.n_tiles
        if self.spec.replacement == "dead_wall":
            return n - self.spec.dead_wall - self.dead_used
        return n - self.spec.dead_wall - self.tail_used  # Siamese 2 players: a dead wall at the far end

    @property
    def remaining(self) -> int:
        """Tiles that can still be drawn (normal or replacement): the referee's wall count."""
        spec = self.spec  # live_end - head, inlined: the hand machine asks this on every draw and discard
        used = self.dead_used if spec.replacement == "dead_wall" else self.tail_used
        left = spec.n_tiles - spec.dead_wall - used - self.head
        return left if left > 0 else 0

    def draw_position(self) -> int | None:
        if self.remaining <= 0:
            return None
        n = self.spec.n_tiles
        u = self.tail_used + (self.spec.dead_wall if self.spec.replacement == "tail" else 0)
        if u % 2 and self.head >= n - u - 1:  # the last tile: the bottom of a stack whose top went to the tail
            return n - u
        return self.head

    def replacement_position(self) -> int | None:
        """Where the next replacement tile comes from (None when the wall is empty)."""
        if self.remaining <= 0:
            return None
        r = self.spec.replacement
        n = self.spec.n_tiles
        if r == "head":
            return self.head
        if r == "tail":
            # the last tile may be the bottom of a stack whose top the head took
            return max(tail_index(n, self.spec.dead_wall + self.tail_used), self.head)
        # riichi Rules 2.6: stack 1 at the break, top then bottom, then stack 2 ... (four kans at most, 3.3.10)
        if self.dead_used >= 4:
            return None
        return tail_index(n, self.dead_used)

    def take(self, source: str) -> int | None:
        """Advance for a draw from ``source`` ("wall" or "replacement"); return the position or None."""
        if source == "wall":
            pos = self.draw_position()
            if pos is not None:
                self.head += 1
            return pos
        pos = self.replacement_position()
        if pos is None:
            return None
        r = self.spec.replacement
        if r == "head":
            self.head += 1
        elif r == "tail":
            self.tail_used += 1
        else:
            self.dead_used += 1
        return pos

    def dora_indicator_positions(self, kongs: int) -> tuple[int, ...]:
        """Riichi: the dora indicator and one kan-dora indicator per kong (tops of dead-wall stacks 3..7)."""
        if self.spec.replacement != "dead_wall":
            return ()
        n = self.spec.n_tiles
        return tuple(n - 6 - 2 * i for i in range(min(kongs, 4) + 1))

    def ura_indicator_positions(self, kongs: int) -> tuple[int, ...]:
        if self.spec.replacement != "dead_wall":
            return ()
        n = self.spec.n_tiles
        return tuple(n - 5 - 2 * i for i in range(min(kongs, 4) + 1))

    def to_json(self) -> dict[str, int]:
        return {"head": self.head, "tail_used": self.tail_used, "dead_used": self.dead_used,
                "kongs": self.kongs, "remaining": self.remaining}


def tail_index(n: int, used: int) -> int:
    """The ``used``-th tile from the tail: the stack next to the break first, its top tile first."""
    stack = used // 2
    return n - 2 * (stack + 1) + (used % 2)


# ----------------------------------------------------------------------------------------------------------
# A dealt wall (for simulation, the CLI and tests)


@dataclass(frozen=True)
class Deal:
    """The result of building, breaking and dealing: everything the controller and referee need."""

    spec: WallSpec
    dealer: int
    dice: tuple[tuple[int, int], ...]
    brk: Break
    stacks: tuple[tuple[int, int], ...]  # L1..LN as (side, stack number)
    steps: tuple[DealStep, ...]
    sequence: tuple[Tile, ...] | None  # the wall in draw order (None when unknown)
    hands: dict[int, tuple[Tile, ...]]  # starting tiles per seat ("x" tiles when the wall is unknown)

    @property
    def dealt(self) -> int:
        return sum(len(s.positions) for s in self.steps)

    @property
    def remaining(self) -> int:
        return self.spec.n_tiles - self.spec.dead_wall - self.dealt

    def position_of(self, index: int) -> tuple[int, int, str]:
        """(side, stack number, "top"/"bottom") of a draw-sequence index."""
        side, stack = self.stacks[index // 2]
        return side, stack, "top" if index % 2 == 0 else "bottom"

    def cursor(self) -> WallCursor:
        return WallCursor(self.spec, head=self.dealt)


def shuffled_wall(spec: WallSpec, rng: random.Random) -> tuple[Tile, ...]:
    tiles = list(tile_set(spec.tile_set))
    rng.shuffle(tiles)
    return tuple(tiles)


def deal(
    spec: WallSpec,
    dealer: int,
    dice: tuple[tuple[int, int], ...],
    sequence: tuple[Tile, ...] | None = None,
) -> Deal:
    """Break the wall with ``dice`` and deal. ``sequence``: the wall in draw order, when known."""
    if sequence is not None and len(sequence) != spec.n_tiles:
        raise ValueError(f"the wall has {spec.n_tiles} tiles, the sequence {len(sequence)}")
    brk = break_wall(spec, dealer, dice)
    stacks = tuple(stack_order(spec, dealer, brk))
    steps = tuple(deal_steps(spec, dealer))
    hands: dict[int, list[Tile]] = {s: [] for s in spec.seats}
    for st in steps:
        for p in st.positions:
            hands[st.seat].append(sequence[p] if sequence is not None else UNKNOWN)
    return Deal(spec, dealer, dice, brk, stacks, steps, sequence, {s: tuple(h) for s, h in hands.items()})
