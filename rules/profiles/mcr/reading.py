"""Readings of a winning hand: every way its tiles split into the structures of 003 §Как собрать 2.

A :class:`Reading` is one decomposition with everything the fan detectors ask: the sets (declared melds
kept as declared, concealed sets as found), the pair, the counts of all tiles, the winning tile and how
it came, and whether the 13-tile hand waited on a single kind. Principle 4 ("большее против меньшего",
003 §Подсчёт 1e(4)) is applied by scoring every reading and keeping the best.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

from rules.notation import Hand, Meld, MeldKind
from rules.shapes import ALL_SHAPES, Shape, decompositions, is_regular_win, waits
from rules.tiles import CHOW, N_KINDS, PUNG

_WAIT_SHAPES = frozenset({Shape.REGULAR, Shape.SEVEN_PAIRS})
_NOT_KNITTED = frozenset({Shape.REGULAR, Shape.SEVEN_PAIRS, Shape.THIRTEEN_ORPHANS})
_NOT_HONORS_KNITTED = _NOT_KNITTED | {Shape.KNITTED}
_WAIT_SHAPES_KNITTED = frozenset({Shape.REGULAR, Shape.SEVEN_PAIRS, Shape.KNITTED})


class MSet(NamedTuple):
    """One set of a reading. ``kong``: None, "open", "added" or "concealed"; ``claimed``: a declared set
    other than a concealed kong; ``concealed``: a pung/kong that counts as concealed (spec §6.2 step 6)."""

    kind: str  # CHOW or PUNG (a kong is a PUNG with ``kong`` set)
    base: int
    kong: str | None = None
    claimed: bool = False
    concealed: bool = False

    @property
    def is_pung(self) -> bool:
        return self.kind == PUNG

    @property
    def is_chow(self) -> bool:
        return self.kind == CHOW


@dataclass(frozen=True)
class WinContext:
    self_drawn: bool = False
    seat_wind: int = 27
    round_wind: int = 27
    last_tile: bool = False
    last_of_kind: bool = False
    kong_replacement: bool = False
    flower_replacement: bool = False
    robbing_kong: bool = False


@dataclass
class Reading:
    shape: Shape
    sets: tuple[MSet, ...]
    pair: int | None
    pairs: tuple[int, ...]
    knitted: tuple[int, ...]
    counts: tuple[int, ...]  # all tiles of the hand by kind, kongs as four
    win: int
    ctx: WinContext
    closed: bool  # no claimed set (concealed kongs allowed, 003 §Порядок игры 8b)
    single_wait: bool  # the 13-tile hand waited on exactly one kind
    n_concealed: int  # concealed tiles before the win (13 minus 3 per declared set)
    wait_position: int = 0  # bit flags: 1 edge, 2 closed, 4 single (spec §6.2 step 7)
    last_of_kind: bool = False  # #58: given, or the other three copies stand in the winner's exposed sets
    cache: dict[str, Any] = field(default_factory=dict)  # a memo shared by all readings of one hand (same tiles)
    chows: list[int] = field(init=False)
    pungs: list[int] = field(init=False)  # pungs and kongs
    wind_pungs: list[int] = field(init=False)
    dragon_pungs: list[int] = field(init=False)

    def __post_init__(self) -> None:
        self.chows = [s.base for s in self.sets if s.kind == CHOW]
        self.pungs = [s.base for s in self.sets if s.kind == PUNG]
        self.wind_pungs = [k for k in self.pungs if 27 <= k <= 30]
        self.dragon_pungs = [k for k in self.pungs if k >= 31]

    @property
    def is_regular(self) -> bool:
        return self.shape is Shape.REGULAR


def _meld_set(m: Meld) -> MSet:
    assert m.base is not None  # (MCR has no jokers: every meld stands for its tiles)
    if m.kind is MeldKind.CHOW:
        return MSet(CHOW, m.base, None, True, False)
    if m.kind is MeldKind.PUNG:
        return MSet(PUNG, m.base, None, True, False)
    if m.kind is MeldKind.KONG_CONCEALED:
        return MSet(PUNG, m.base, "concealed", False, True)
    return MSet(PUNG, m.base, "added" if m.kind is MeldKind.KONG_ADDED else "open", True, False)


def _wait_position(sets: tuple[MSet, ...], pair: int | None, win: int) -> int:
    """Where the winning tile can sit among the concealed sets of one reading (GB: edge, closed, single)."""
    flags = 0
    for s in sets:
        if s.claimed or s.kong:
            continue
        if s.kind == CHOW:
            b = s.base
            if win == b + 1:
                flags |= 2
            elif (win == b + 2 and b % 9 == 0) or (win == b and b % 9 == 6):
                flags |= 1
    if pair == win:
        flags |= 4
    return flags


def _waits(before: list[int], n_melds: int, shapes: frozenset[Shape], phantom: bool) -> list[int]:
    """Kinds completing the 13-tile hand; with ``phantom`` also a kind already held four times (GB)."""
    w = waits(before, n_melds, shapes, quads_as_two_pairs=True)
    if phantom:
        for k in range(N_KINDS):
            if before[k] == 4:
                before[k] += 1
                if is_regular_win(before):
                    w.append(k)
                before[k] -= 1
    return w


def readings(hand: Hand, ctx: WinContext, phantom_waits: bool = False) -> list[Reading]:
    """Every reading of a 14-tile hand with a winning tile (empty when the tiles make no winning shape)."""
    assert hand.winning is not None
    win = hand.winning.kind
    conc = [0] * N_KINDS
    for t in hand.all_concealed:  # counts34 without the property look-ups (kinds below 34 are the codes)
        if t < N_KINDS:
            conc[t] += 1
        elif t.kind < N_KINDS:
            conc[t.kind] += 1
    melds = tuple(_meld_set(m) for m in hand.melds)
    n_melds = len(melds)
    decs = decompositions(conc, n_melds, _shapes_worth_trying(conc), quads_as_two_pairs=True)
    if not decs:
        return []
    allc = list(conc)
    for m in hand.melds:
        for k in m.kinds:
            allc[k] += 1
    counts = tuple(allc)
    closed = all(not s.claimed for s in melds)
    # 003 #58 / spec §12 A33: the other three copies evident, here in the winner's own exposed sets
    exposed = sum(1 for m in hand.melds if not m.is_concealed for k in m.kinds if k == win)
    last_of_kind = ctx.last_of_kind or exposed >= 3
    shared: dict[str, Any] = {}
    single = True  # decided below, only if some reading could score a wait fan
    out: list[Reading] = []
    discard = not ctx.self_drawn
    for d in decs:
        if d.shape in (Shape.REGULAR, Shape.KNITTED):
            conc_sets = []
            win_elsewhere = d.pair == win or any(
                kind == CHOW and b <= win <= b + 2 for kind, b in d.sets
            ) or (d.shape is Shape.KNITTED and _in_knitted(d.knitted, win))
            demoted = False
            for kind, b in d.sets:
                if kind == PUNG:
                    # a concealed pung completed by a discard counts as melded (spec §12 A20, GB)
                    if discard and b == win and not win_elsewhere and not demoted:
                        demoted = True
                        conc_sets.append(MSet(PUNG, b, None, False, False))
                    else:
                        conc_sets.append(MSet(PUNG, b, None, False, True))
                else:
                    conc_sets.append(MSet(CHOW, b, None, False, False))
            sets = tuple(conc_sets) + melds
            pos = _wait_position(tuple(conc_sets), d.pair, win)
            out.append(Reading(d.shape, sets, d.pair, (), d.knitted, counts, win, ctx, closed, single,
                               sum(conc) - 1, pos, last_of_kind, shared))
        else:
            out.append(Reading(d.shape, (), d.pair, d.pairs, d.knitted, counts, win, ctx, closed, False,
                               sum(conc) - 1, 0, last_of_kind, shared))
    if any(r.wait_position for r in out):
        # Wait fans: the 13-tile hand waits on one kind only (spec §12 A2, GB reading).
        before = list(conc)
        before[win] -= 1
        shapes = _WAIT_SHAPES_KNITTED if any(d.shape is Shape.KNITTED for d in decs) else _WAIT_SHAPES
        if len(_waits(before, n_melds, shapes, phantom_waits)) != 1:
            for r in out:
                r.single_wait = False
                r.wait_position = 0
    return out


def _shapes_worth_trying(conc: list[int]) -> frozenset[Shape]:
    """All shapes, less the knitted ones that cannot fit (a quick test, for speed)."""
    if max(conc) == 1:
        return ALL_SHAPES  # fourteen singles: honors and knitted tiles
    if sum(1 for k in range(27) if conc[k]) >= 9:
        return _NOT_HONORS_KNITTED
    return _NOT_KNITTED


def _in_knitted(perm: tuple[int, ...], k: int) -> bool:
    if k >= 27:
        return False
    suit, rank0 = divmod(k, 9)
    return perm[rank0 % 3] == suit
