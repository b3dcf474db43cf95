"""Readings of a winning hand: one decomposition × one place of the winning tile.

The scorer enumerates every way the fourteen tiles split into sets and a pair (or seven pairs, or
thirteen orphans) and, within each split, every set the winning tile can complete: the wait and the
"concealed" status of a pon completed by a discard differ between those readings, and the highest
paying one is taken (004 Rules 3.4.9).

A set is a tuple ``(kind, base, concealed)``: kind is :data:`CHI`, :data:`PON` or :data:`KAN`,
base the 34-way kind of its lowest tile, ``concealed`` true for sets formed only from concealed tiles
(a pon completed by a discard counts as open for fu and for sanankou/suuankou, 004 Rules 4.1.1).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from rules.notation import Hand, MeldKind
from rules.scoring import ContextValue
from rules.shapes import (
    BROKEN,
    WITHPAIR,
    group_decompositions,
    group_state,
    is_seven_pairs,
    is_thirteen_orphans,
)
from rules.tiles import N_KINDS, TERMINALS_AND_HONORS, Tile

CHI, PON, KAN = "chi", "pon", "kan"

# waits (004 Rules 4.1.1: edge, closed and pair waits give 2 fu; a two-sided wait gives none)
RYANMEN, KANCHAN, PENCHAN, TANKI, SHANPON = "ryanmen", "kanchan", "penchan", "tanki", "shanpon"

REGULAR, CHIITOITSU, KOKUSHI = "regular", "chiitoitsu", "kokushi"

# Features of a reading, as bits: a yaku unit lists the features it needs (``YakuDef.needs``) so that the
# scorer calls only the units whose necessary conditions hold (the unit itself still decides).
F_CHI2, F_CHI3, F_CHI4 = 1, 2, 4  # at least 2 / 3 / 4 chi
F_PON3 = 8  # at least three pons/kans
F_NO_CHI = 16
F_HONOR_PON = 32  # a pon/kan of honours
F_OUTSIDE_PAIR = 64  # the pair is a terminal or an honour
F_DRAGON_PAIR = 128
F_RYANMEN = 256

TERMINAL_OR_HONOR = frozenset(TERMINALS_AND_HONORS)


class HandInfo:
    """What does not depend on the reading: the tiles, open/closed, and the context of the win.

    ``counts``: every tile of the hand per kind (kans count four); ``suits``: the suits present (0 m,
    1 p, 2 s); ``suit``: the one suit of a one-suit hand, else -1.
    """

    __slots__ = (
        "hand",
        "counts",
        "closed",
        "n_kans",
        "win",
        "self_drawn",
        "riichi",
        "ippatsu",
        "double_riichi",
        "seat_wind",
        "round_wind",
        "dealer",
        "last_tile",
        "kong_replacement",
        "robbing_kong",
        "first_go_around",
        "suits",
        "suit",
        "has_honor",
        "meld_sets",
        "concealed_counts",
        "simples_only",
        "terminals_honors_only",
        "hand_yakuman_possible",
        "set_yakuman_possible",
        "plain",
        # the context of the win, read and type-checked once here (the scorer reads these, never ``ctx``)
        "seat_tile",
        "round_tile",
        "dealer_given",
        "liable_wind",
        "discarder_wind",
        "honba",
        "dora_indicators",
        "ura_indicators",
        "robbed_kan",
        "impossible_key",
    )

    def __init__(self, hand: Hand, ctx: Mapping[str, ContextValue]):
        self.hand = hand
        self._read_tiles(hand)
        self._read_context(ctx)
        self._summarise()

    def _read_tiles(self, hand: Hand) -> None:
        """Counts per kind, the melds as sets, open or closed."""
        c = [0] * N_KINDS
        plain = True  # only the 34 plain kinds (no red five, flower, joker, unknown tile)
        for t in hand.all_concealed:
            if t < N_KINDS:
                c[t] += 1  # a plain tile's code is its kind
            else:
                plain = False
                k = t.kind
                if k < N_KINDS:
                    c[k] += 1
        self.concealed_counts = c[:]
        meld_sets: list[tuple[str, int, bool]] = []
        n_kans = 0
        all_concealed_kans = True
        for m in hand.melds:
            base = m.base if m.base is not None else 0
            kind = m.kind
            if plain and max(m.tiles) >= N_KINDS:
                plain = False
            if kind is MeldKind.CHOW:
                meld_sets.append((CHI, base, False))
                c[base] += 1
                c[base + 1] += 1
                c[base + 2] += 1
                all_concealed_kans = False
            elif kind is MeldKind.PUNG:
                meld_sets.append((PON, base, False))
                c[base] += 3
                all_concealed_kans = False
            else:
                n_kans += 1
                conc = kind is MeldKind.KONG_CONCEALED
                all_concealed_kans = all_concealed_kans and conc
                meld_sets.append((KAN, base, conc))
                c[base] += 4
        self.counts = c
        self.plain = plain and not hand.flowers and max(c) <= 4
        self.meld_sets = tuple(meld_sets)
        self.n_kans = n_kans
        self.closed = all_concealed_kans
        self.win = hand.winning.kind if hand.winning is not None else -1

    def _read_context(self, ctx: Mapping[str, ContextValue]) -> None:
        """The context of the win, read and type-checked once (the scorer reads these, never ``ctx``)."""
        g = ctx.get
        self.self_drawn = self_drawn = bool(g("self_drawn"))
        self.riichi = riichi = bool(g("riichi"))
        self.ippatsu = ippatsu = bool(g("ippatsu"))
        self.double_riichi = double_riichi = bool(g("double_riichi"))
        self.last_tile = last_tile = bool(g("last_tile"))
        self.kong_replacement = kong_replacement = bool(g("kong_replacement"))
        self.robbing_kong = robbing_kong = bool(g("robbing_kong"))
        self.first_go_around = fga = bool(g("first_go_around"))
        sw, rw, d = g("seat_wind"), g("round_wind"), g("dealer")
        liable, disc = g("liable_seat_wind"), g("discarder_seat_wind")
        honba, dora, ura, robbed = g("honba"), g("dora_indicators") or (), g("ura_indicators") or (), g("robbed_kan")
        if not ((sw is None or isinstance(sw, Tile)) and (rw is None or isinstance(rw, Tile))
                and (liable is None or isinstance(liable, Tile)) and (disc is None or isinstance(disc, Tile))
                and (honba is None or isinstance(honba, int)) and isinstance(dora, tuple) and isinstance(ura, tuple)
                and (robbed is None or isinstance(robbed, str))):
            raise TypeError(f"a context field of the wrong type (not from Profile.context?): {dict(ctx)!r}")
        self.seat_tile, self.round_tile, self.dealer_given = sw, rw, d
        self.liable_wind, self.discarder_wind = liable, disc
        self.honba = 0 if honba is None else int(honba)  # (bool is an int: True counts 1, as before)
        self.dora_indicators, self.ura_indicators, self.robbed_kan = dora, ura, robbed
        # defaults: South (a non-dealer), or East when only "dealer" is given; the East round
        self.seat_wind = sw.kind if sw is not None else (27 if d else 28)
        self.round_wind = rw.kind if rw is not None else 27
        self.dealer = dealer = (self.seat_wind == 27) if d is None else bool(d)
        # the circumstances the impossible table speaks of, as bits (``profile.CIRCUMSTANCES`` order); 0 when
        # none of ``profile.TRIGGERS`` holds: no entry of the table applies then (tests/rules/test_circumstances)
        self.impossible_key = (
            self_drawn | riichi << 1 | ippatsu << 2 | double_riichi << 3 | robbing_kong << 4
            | kong_replacement << 5 | last_tile << 6 | fga << 7 | dealer << 8 | self.closed << 9
            | (self.n_kans > 0) << 10 | bool(self.meld_sets) << 11
        ) if riichi or ippatsu or double_riichi or robbing_kong or kong_replacement or fga else 0

    def _summarise(self) -> None:
        """What the yaku units and their gates ask of the whole hand: suits, honours, terminals."""
        c = self.counts
        n_kans = self.n_kans
        n_m, n_p, n_s = sum(c[0:9]), sum(c[9:18]), sum(c[18:27])
        self.suits = suits = ((0,) if n_m else ()) + ((1,) if n_p else ()) + ((2,) if n_s else ())
        self.suit = suits[0] if len(suits) == 1 else -1
        honors = sum(c[27:34])
        self.has_honor = honors > 0
        edges = c[0] + c[8] + c[9] + c[17] + c[18] + c[26]
        self.simples_only = edges == 0 and honors == 0
        self.terminals_honors_only = th = n_m + n_p + n_s == edges
        # necessary conditions of the yakuman (a cheap gate; each yakuman unit still decides): situational,
        # four kans, one suit or none (flushes, all green, all honours), terminals and honours only...
        self.hand_yakuman_possible = self.first_go_around or n_kans == 4 or len(suits) <= 1 or th
        # ... big dragons or winds need 9 dragon / 11 wind tiles; suuankou and kokushi need no open meld
        self.set_yakuman_possible = self.closed or sum(c[31:34]) >= 9 or sum(c[27:31]) >= 11


class Reading:
    """One reading of a complete hand (see the module docstring)."""

    __slots__ = ("info", "shape", "sets", "pair", "wait", "chis", "pons", "n_concealed_pons", "features")

    def __init__(
        self,
        info: HandInfo,
        shape: str,
        sets: tuple[tuple[str, int, bool], ...],
        pair: int | None,
        wait: str | None,
    ):
        self.info = info
        self.shape = shape
        self.sets = sets
        self.pair = pair
        self.wait = wait
        chis: list[int] = []
        pons: list[int] = []
        n_conc = 0
        for k, b, conc in sets:
            if k == CHI:
                chis.append(b)
            else:
                pons.append(b)
                n_conc += conc
        chis.sort()
        self.chis = chis  # bases of the chi, sorted
        self.pons = pons  # bases of the pons and kans
        self.n_concealed_pons = n_conc
        n = len(chis)
        f = (F_CHI2 if n >= 2 else 0) | (F_CHI3 if n >= 3 else 0) | (F_CHI4 if n == 4 else 0)
        if len(pons) >= 3:
            f |= F_PON3
        if not n:
            f |= F_NO_CHI
        if pons and max(pons) >= 27:
            f |= F_HONOR_PON
        if pair is not None and pair in TERMINAL_OR_HONOR:
            f |= F_OUTSIDE_PAIR
            if pair >= 31:
                f |= F_DRAGON_PAIR
        if wait == RYANMEN:
            f |= F_RYANMEN
        self.features = f

    # small helpers the yaku units share
    def chi_bases(self) -> list[int]:
        return self.chis

    def pon_bases(self) -> list[int]:
        """Bases of pons and kans."""
        return self.pons

    def concealed_pons(self) -> int:
        return self.n_concealed_pons

    def __repr__(self) -> str:
        return f"Reading({self.shape}, sets={self.sets}, pair={self.pair}, wait={self.wait})"


def _chi_wait(base: int, win: int) -> str:
    if win == base + 1:
        return KANCHAN
    if win == base:
        return PENCHAN if base % 9 == 6 else RYANMEN
    return PENCHAN if base % 9 == 0 else RYANMEN


@cache
def _group_options(
    offset: int, key: tuple[int, ...]
) -> tuple[int, tuple[tuple[int, tuple[tuple[str, int, bool], ...]], ...]] | None:
    """One tile group's readings from the core tables (``rules.shapes``): None if the group cannot be
    split into sets (and one pair), else (1 if it holds the pair, [(pair kind or -1, sets)...])."""
    st = group_state(key)
    if st == BROKEN:
        return None
    want = st == WITHPAIR
    opts = tuple(
        (
            p + offset if p >= 0 else -1,
            tuple((CHI if k == "chow" else PON, b + offset, True) for k, b in sets),
        )
        for p, sets in group_decompositions(key)
        if (p >= 0) == want
    )
    return (1 if want else 0), opts


def regular_splits(c: list[int]) -> list[tuple[int, tuple[tuple[str, int, bool], ...]]]:
    """Every split of the concealed counts into concealed sets and exactly one pair: [(pair, sets)]."""
    out: list[tuple[int, tuple[tuple[str, int, bool], ...]]] = [(-1, ())]
    pairs = 0
    for off in (0, 9, 18, 27):
        key = tuple(c[off : off + 9]) if off < 27 else tuple(c[27:34])
        if not any(key):
            continue
        g = _group_options(off, key)
        if g is None:
            return []
        pairs += g[0]
        if pairs > 1:
            return []
        out = [(p2 if p2 >= 0 else p, sets + s2) for p, sets in out for p2, s2 in g[1]]
    return out if pairs == 1 else []


def readings(info: HandInfo) -> list[Reading]:
    """Every reading of the hand; empty when the tiles do not form a winning shape."""
    hand = info.hand
    c = info.concealed_counts
    win = info.win
    self_drawn = info.self_drawn or info.kong_replacement
    out: list[Reading] = []
    if not hand.melds:
        # cheap necessary conditions first (C-level list methods), then the core's checks
        if c.count(2) == 7 and is_seven_pairs(c):
            out.append(Reading(info, CHIITOITSU, (), None, TANKI))
        elif info.terminals_honors_only and c.count(0) == 21 and is_thirteen_orphans(c):
            pair = next(k for k in TERMINAL_OR_HONOR if c[k] == 2)
            return [Reading(info, KOKUSHI, (), pair, TANKI)]
    for pair, concealed in regular_splits(c):
        seen: set[tuple[int, str]] = set()
        if pair == win:
            out.append(Reading(info, REGULAR, concealed + info.meld_sets, pair, TANKI))
        for i, (k, b, _) in enumerate(concealed):
            if k == PON:
                if b != win:
                    continue
                wait = SHANPON
            elif b <= win <= b + 2 and win < 27:
                wait = _chi_wait(b, win)
            else:
                continue
            key = (b if k == CHI else 100 + b, wait)
            if key in seen:
                continue
            seen.add(key)
            sets = concealed
            if k == PON and not self_drawn:
                # completed by a discard: an open pon (004 Rules 4.1.1)
                sets = concealed[:i] + ((PON, b, False),) + concealed[i + 1 :]
            out.append(Reading(info, REGULAR, sets + info.meld_sets, pair, wait))
    return out


def all_tile_kinds(info: HandInfo) -> list[int]:
    """The kinds present anywhere in the hand (concealed, melds, winning tile)."""
    return [k for k in range(N_KINDS) if info.counts[k]]
