"""Seeded bots that play legal, sensible hands, and a fast shanten for them.

* :class:`GreedyBot` — discards to lower shanten (ties: the least connected tile, then the seeded RNG),
  wins whenever the profile says the hand is a legal win, claims a discard when it lowers shanten
  (a win always), makes a kong when it does not raise shanten, declares flowers, discards its missing suit
  first (Sichuan). ``error_rate`` makes it sometimes declare a win with a ready-but-incomplete hand
  (a false win), to exercise violations.
* :class:`RandomBot` — a random legal discard, wins when it can, never claims (a peer for the bench).

A bot sees only its own concealed tiles and public information (it reads its own ``SeatState``); its
randomness comes from the ``random.Random`` it is given (no global state).

Speed (the simulator plays thousands of hands): the greedy bot keeps its hand as four suit groups with
their shanten summaries (:class:`Groups`), so a candidate discard, a claim's meld or the tile just drawn
changes one group — one summary look-up and two cached combinations instead of a whole shanten; a group
seen for the first time is summarised from its independent segments (:func:`segment_summary`). The hand a
discard leaves is remembered for the next claim window. The decisions are exactly those of the plain
rule (``tests/game/test_bot_shortcuts.py`` compares them).

:func:`fast_shanten` equals ``rules.shapes.shanten`` (tests check it) but combines the per-suit-group
tables of ``rules.shapes.group_blocks`` through a cache of group summaries, a few dictionary look-ups
per call.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from operator import itemgetter
from typing import TYPE_CHECKING

from rules.game.state import HandState, SeatState, WinRecord
from rules.notation import Hand, MeldKind
from rules.shapes import (
    BROKEN,
    STANDARD_SHAPES,
    SUMMARY_VALUES,
    Shape,
    combine_summaries,
    group_removals,
    group_state,
    group_summary,
    is_win,
    regular_shanten,
    seven_pairs_shanten,
    waits,
)
from rules.tiles import KIND_OF, KINDS, N_KINDS, RED_OF, TERMINALS_AND_HONORS, TILES, Tile
from rules.wall import WallSpec

if TYPE_CHECKING:  # pragma: no cover
    from rules.game.protocols import RuleSet

# ----------------------------------------------------------------------------------------------------------
# Fast shanten


# The group summaries live in rules.shapes (the same tables its ``shanten`` uses).
_combine = combine_summaries
_SUMMARIES: dict[tuple[int, ...], int] = {}  # a group's counts -> its summary, made of its segments
_PAD = (0,) * 9


def segment_summary(key: tuple[int, ...]) -> int:
    """``rules.shapes.group_summary(key)``, made of the summaries of the group's independent segments.

    No set or partial set spans two empty positions in a row (nor any empty honour), so a group is the
    combination of its segments between such gaps (``combine_summaries``, as for two suits); the
    segments, each moved to the start of a group, repeat far more often than whole groups, so a new
    group rarely costs ``rules.shapes`` a new table (the summary is the same interned id)."""
    s = _SUMMARIES.get(key)
    if s is not None:
        return s
    segs: list[tuple[int, ...]] = []
    if len(key) == 7:  # honours: pungs and pairs only, every position on its own
        segs = [(x, 0, 0, 0, 0, 0, 0) for x in key if x]
    else:
        start = last = -1
        for i, x in enumerate(key):
            if x:
                if start < 0:
                    start = i
                elif i - last > 2:
                    segs.append((key[start:last + 1] + _PAD)[:9])
                    start = i
                last = i
        if start >= 0:
            segs.append((key[start:last + 1] + _PAD)[:9])
    if len(segs) <= 1:
        s = group_summary(segs[0] if segs else key)
    else:
        s = group_summary(segs[0])
        for seg in segs[1:]:
            s = _combine(s, group_summary(seg))
    if len(_SUMMARIES) > 200_000:  # bounded: a long run must not grow without limit
        _SUMMARIES.clear()
    _SUMMARIES[key] = s
    return s


_removals = group_removals
_VALUES = SUMMARY_VALUES
regular_shanten_fast = regular_shanten


def fast_shanten(c: list[int], n_melds: int = 0, shapes: frozenset[Shape] = frozenset({Shape.REGULAR}),
                 quads_as_two_pairs: bool = False) -> int:
    """Shanten over the regular shape and, for a closed hand, seven pairs / thirteen orphans."""
    best = regular_shanten_fast(c, n_melds) if Shape.REGULAR in shapes else 8
    if n_melds == 0 and best > 0:
        if Shape.SEVEN_PAIRS in shapes:
            if quads_as_two_pairs:
                best = min(best, seven_pairs_shanten(c, True))
            else:  # rules.shapes.seven_pairs_shanten, inlined
                pairs = kinds = 0
                for x in c:
                    if x:
                        kinds += 1
                        if x > 1:
                            pairs += 1
                v = 6 - pairs + (7 - kinds if kinds < 7 else 0)
                if v < best:
                    best = v
        if Shape.THIRTEEN_ORPHANS in shapes and best > 0:  # rules.shapes.thirteen_orphans_shanten, inlined
            kinds = 0
            pair = 0
            for k in TERMINALS_AND_HONORS:
                x = c[k]
                if x:
                    kinds += 1
                    if x > 1:
                        pair = 1
            v = 13 - kinds - pair
            if v < best:
                best = v
    return best


def discard_shanten(c: list[int], n_melds: int, shapes: frozenset[Shape], q2: bool = False) -> dict[int, int]:
    """Shanten after discarding each kind held (``c`` holds 14 − 3·melds tiles)."""
    keys = [tuple(c[0:9]), tuple(c[9:18]), tuple(c[18:27]), tuple(c[27:34])]
    sums = [segment_summary(k) for k in keys]
    others = [
        _combine(sums[1], _combine(sums[2], sums[3])),
        _combine(sums[0], _combine(sums[2], sums[3])),
        _combine(_combine(sums[0], sums[1]), sums[3]),
        _combine(_combine(sums[0], sums[1]), sums[2]),
    ]
    regular = Shape.REGULAR in shapes
    out: dict[int, int] = {}
    for g in range(4):
        off = _OFFSETS[g]
        rem = _removals(keys[g])
        og = others[g]
        for i, sub in enumerate(rem):
            if sub >= 0:
                out[off + i] = _VALUES[_combine(og, sub)][n_melds] if regular else 8
    if n_melds == 0 and (Shape.SEVEN_PAIRS in shapes or Shape.THIRTEEN_ORPHANS in shapes):
        # a discard never lowers these shapes' shanten: only look when the 14-tile value can compete
        best = min(out.values())
        if Shape.SEVEN_PAIRS in shapes:
            if q2:
                if seven_pairs_shanten(c, q2) <= best:
                    for k in out:
                        c[k] -= 1
                        out[k] = min(out[k], seven_pairs_shanten(c, q2))
                        c[k] += 1
            else:
                pairs = sum(1 for x in c if x >= 2)
                kinds = sum(1 for x in c if x)
                if 6 - pairs + max(0, 7 - kinds) <= best:
                    for k in out:
                        x = c[k]
                        v = 6 - (pairs - (x == 2)) + max(0, 7 - (kinds - (x == 1)))
                        if v < out[k]:
                            out[k] = v
        if Shape.THIRTEEN_ORPHANS in shapes:
            kinds_t = sum(1 for k in TERMINALS_AND_HONORS if c[k])
            n_pairs = sum(1 for k in TERMINALS_AND_HONORS if c[k] >= 2)
            to14 = 13 - kinds_t - (n_pairs > 0)
            if to14 <= best:
                for k in out:
                    v = to14
                    if k in _TH:
                        x = c[k]
                        v = 13 - (kinds_t - (x == 1)) - ((n_pairs - (x == 2)) > 0)
                    if v < out[k]:
                        out[k] = v
    return out


_TH = frozenset(TERMINALS_AND_HONORS)
_N_CODES_PLAYING = 45  # codes below the joker: the 34 kinds, flowers, red fives
_NO_WAITS: frozenset[int] = frozenset()
_OFFSETS = (0, 9, 18, 27)


# ----------------------------------------------------------------------------------------------------------
# Bot decisions


@dataclass(frozen=True)
class Decision:
    """A bot's choice: ``kind`` is discard / win / kong_concealed / kong_added / flower / claim / pass."""

    kind: str
    tile: Tile | None = None
    claim: str | None = None  # for "claim": hu / kong / pung / chow
    tiles: tuple[Tile, ...] = ()  # for a meld claim: the tiles shown from the hand
    riichi: bool = False  # for "discard": a riichi declaration (the sideways discard)


_DISCARD = tuple(Decision("discard", t) for t in TILES)  # decisions are immutable: one per tile
_PASS = Decision("pass")


def connectivity(c: list[int], k: int) -> int:
    """How connected a kind is in the hand (neighbours within two; honours only with copies)."""
    score = 3 * (c[k] - 1)
    if k < 27:
        base = k - k % 9
        for d in (-2, -1, 1, 2):
            j = k + d
            if base <= j < base + 9 and c[j]:
                score += 3 - abs(d)
        n = k % 9
        score += 1 if 2 <= n <= 6 else 0
    return score


# kinds within two of each suited kind in its suit, and how central a kind is (0 honours, 1 terminals, ...)
_NEAR = tuple(
    tuple(j for j in range(k - 2, k + 3) if j != k and k - k % 9 <= j < k - k % 9 + 9) if k < 27 else ()
    for k in range(N_KINDS)
)


def _isolated(c: list[int], k: int) -> bool:
    """No tile within two of ``k`` in its suit (always true for an honour)."""
    for j in _NEAR[k]:
        if c[j]:
            return False
    return True


_MIDDLE = tuple(0 if k >= 27 else 1 + min(k % 9, 8 - k % 9) for k in range(N_KINDS))
_GROUP_OF = tuple(min(k // 9, 3) for k in range(N_KINDS))  # suit group of each kind (3: honours)
_TH_COUNTS = itemgetter(*TERMINALS_AND_HONORS)
_CHOICE: dict[tuple[int, ...], tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]] = {}


def _choice_info(key: tuple[int, ...]) -> tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]:
    """For one group's counts: ``(_MIDDLE, position)`` of its isolated singles and ``(connectivity,
    position)`` of every position held, in position order (both depend on the group alone)."""
    info = _CHOICE.get(key)
    if info is None:
        if len(key) == 7:  # honours
            iso = tuple((0, i) for i, x in enumerate(key) if x == 1)
            conn = tuple((3 * (x - 1), i) for i, x in enumerate(key) if x)
        else:  # _isolated and connectivity within the group, in one pass
            iso_l: list[tuple[int, int]] = []
            conn_l: list[tuple[int, int]] = []
            for i, x in enumerate(key):
                if not x:
                    continue
                score = 3 * (x - 1) + (1 if 2 <= i <= 6 else 0)
                near = False
                for j in range(max(0, i - 2), min(9, i + 3)):
                    if j != i and key[j]:
                        score += 3 - abs(j - i)
                        near = True
                conn_l.append((score, i))
                if x == 1 and not near:
                    iso_l.append((_MIDDLE[i], i))
            iso, conn = tuple(iso_l), tuple(conn_l)
        if len(_CHOICE) > 200_000:
            _CHOICE.clear()
        info = _CHOICE[key] = (iso, conn)
    return info


def _take1(ss: SeatState, kind: int) -> Tile:
    """One held tile of ``kind`` (a plain five before a red five): ``_take(ss, kind, 1)[0]``."""
    return TILES[kind] if ss.counts[kind] else TILES[RED_OF[kind]]


class Groups:
    """A hand's 34 counts cut into the four suit groups of ``rules.shapes`` with their interned shanten
    summaries, so that the hand without one tile (a discard) or without a claim's tiles is one group
    summary and two combinations away (the same tables and grouping as ``rules.shapes.regular_shanten``,
    hence the same values as :func:`fast_shanten`)."""

    __slots__ = ("c", "keys", "sums", "c01", "c23", "all")
    keys: tuple[tuple[int, ...], ...]
    sums: tuple[int, ...]

    def __init__(self, c: list[int]):
        self.c = c
        keys = self.keys = (tuple(c[0:9]), tuple(c[9:18]), tuple(c[18:27]), tuple(c[27:34]))
        s0, s1, s2, s3 = self.sums = (segment_summary(keys[0]), segment_summary(keys[1]),
                                      segment_summary(keys[2]), segment_summary(keys[3]))
        self.c01 = _combine(s0, s1)
        self.c23 = _combine(s2, s3)
        self.all = _combine(self.c01, self.c23)  # the whole hand

    def whole(self) -> int:
        """The summary of the whole hand."""
        return self.all

    def with_group(self, g: int, sub: int) -> int:
        """The summary of the hand with group ``g``'s summary replaced by ``sub``."""
        s = self.sums
        if g == 0:
            return _combine(_combine(sub, s[1]), self.c23)
        if g == 1:
            return _combine(_combine(s[0], sub), self.c23)
        if g == 2:
            return _combine(self.c01, _combine(sub, s[3]))
        return _combine(self.c01, _combine(s[2], sub))

    def changed(self, k: int, d: int) -> Groups:
        """The groups of the hand with ``d`` more tiles of kind ``k`` (one group summary made anew)."""
        new = Groups.__new__(Groups)
        c = new.c = list(self.c)
        c[k] += d
        g = _GROUP_OF[k]
        off = _OFFSETS[g]
        key = tuple(c[off:off + 9]) if g < 3 else tuple(c[27:34])
        keys = list(self.keys)
        keys[g] = key
        new.keys = tuple(keys)
        sums = list(self.sums)
        sums[g] = segment_summary(key)
        new.sums = tuple(sums)
        new.c01 = _combine(sums[0], sums[1]) if g < 2 else self.c01
        new.c23 = _combine(sums[2], sums[3]) if g >= 2 else self.c23
        new.all = _combine(new.c01, new.c23)
        return new

    def without(self, k: int) -> int:
        """The summary of the hand without one tile of kind ``k`` (held)."""
        g = _GROUP_OF[k]
        off = _OFFSETS[g]
        c = self.c
        c[k] -= 1
        sub = segment_summary(tuple(c[off:off + 9]) if g < 3 else tuple(c[27:34]))
        c[k] += 1
        return self.with_group(g, sub)


class _Special:
    """What seven pairs and thirteen orphans need of a hand's counts (pairs and kinds held), so that
    :func:`fast_shanten`'s values for the hand and for the hand less one tile cost a few additions."""

    __slots__ = ("pairs", "kinds", "half", "th_kinds", "th_pairs")

    def __init__(self, c: list[int], q2: bool):
        zeros = c.count(0)
        self.kinds = 34 - zeros
        self.pairs = 34 - zeros - c.count(1)
        self.half = sum(x // 2 for x in c) if q2 else 0  # pairs, four of a kind as two (quads_as_two_pairs)
        th = _TH_COUNTS(c)
        zeros = th.count(0)
        self.th_kinds = 13 - zeros
        self.th_pairs = 13 - zeros - th.count(1)


class GreedyBot:
    """Greedy shanten reduction; see the module docstring."""

    name = "greedy"

    def __init__(self, seat: int, profile: RuleSet, rng: random.Random, error_rate: float = 0.0):
        self.seat = seat
        self.profile = profile
        self.rng = rng
        self.error_rate = error_rate
        self.shapes = frozenset(profile.shapes)
        self.q2 = bool(profile.quads_as_two_pairs)
        self._memo: dict[tuple[bytes, int], int] = {}
        self._regular = Shape.REGULAR in self.shapes
        self._pairs = Shape.SEVEN_PAIRS in self.shapes
        self._orphans = Shape.THIRTEEN_ORPHANS in self.shapes
        self._other_shapes = self.shapes - {Shape.REGULAR}  # what is_win checks beyond the regular shape
        self._exotic = self.shapes - STANDARD_SHAPES  # the knitted shapes (MCR)
        self._knitted = Shape.KNITTED in self.shapes

    # --- helpers --------------------------------------------------------------------------------------
    _key: tuple[int, int] | None = None
    _info: tuple[int, frozenset[int], Groups | None] = (99, frozenset(), None)
    _pending: tuple[Groups, int, int] | None = None  # (groups, melds, shanten) of the hand the last chosen discard leaves

    def hand_info(self, ss: SeatState) -> tuple[int, int, frozenset[int]]:
        """Version, shanten and waits of the bot's waiting hand (cached: it changes only on its turn)."""
        key = (ss.version, len(ss.melds))
        if key != self._key:
            c = ss.counts34()
            n_melds = key[1]
            p = self._pending
            if p is not None and p[1] == n_melds and p[0].c == c:
                sh, g = p[2], p[0]
            else:
                sh, g = self._shanten(c, n_melds), None
            w = frozenset(waits(c, n_melds, self.shapes, self.q2)) if sh == 0 else _NO_WAITS
            self._key, self._info = key, (sh, w, g)
        return key[0], self._info[0], self._info[1]

    def waiting_counts(self, ss: SeatState) -> list[int]:
        """The 34 counts of the waiting hand (after :meth:`hand_info`; not to be changed)."""
        g = self._info[2]
        return g.c if g is not None and self._key == (ss.version, len(ss.melds)) else ss.counts34()

    def _groups(self, ss: SeatState) -> Groups:
        """The suit groups of the waiting hand of :meth:`hand_info` (made on first use)."""
        self.hand_info(ss)
        sh, w, g = self._info
        if g is None:
            g = Groups(ss.counts34())
            self._info = (sh, w, g)
        return g

    def _counts(self, state: HandState) -> list[int]:
        return state.seat_state[self.seat].counts34()

    def _shanten(self, c: list[int], n_melds: int) -> int:
        """fast_shanten, remembered for the bot's recent hands (a turn asks for the same hand again: the
        13-tile hand a discard leaves is the next claim window's waiting hand)."""
        key = (bytes(c), n_melds)
        memo = self._memo
        v = memo.get(key)
        if v is None:
            if len(memo) > 512:
                memo.clear()
            v = memo[key] = fast_shanten(c, n_melds, self.shapes, self.q2)
        return v

    def _special(self, c: list[int], n_melds: int) -> _Special | None:
        return _Special(c, self.q2) if n_melds == 0 and (self._pairs or self._orphans) else None

    def _value(self, summary: int, n_melds: int, c: list[int], sp: _Special | None, k: int = -1) -> int:
        """:func:`fast_shanten` of the counts ``c`` (less one tile of kind ``k`` when ``k >= 0``) whose
        regular summary is ``summary``; ``sp``: :meth:`_special` of ``c``."""
        best = (_VALUES[summary][n_melds] if n_melds <= 4 else 8) if self._regular else 8
        if sp is None or best <= 0:
            return best
        x = c[k] if k >= 0 else 0
        if self._pairs:
            if self.q2:
                v = 6 - min(7, sp.half - (1 if k >= 0 and x % 2 == 0 else 0))
            else:
                pairs = sp.pairs - (x == 2)
                kinds = sp.kinds - (x == 1)
                v = 6 - pairs + (7 - kinds if kinds < 7 else 0)
            if v < best:
                best = v
        if self._orphans and best > 0:
            th_kinds, th_pairs = sp.th_kinds, sp.th_pairs
            if k in _TH:
                th_kinds -= x == 1
                th_pairs -= x == 2
            v = 13 - th_kinds - (1 if th_pairs > 0 else 0)
            if v < best:
                best = v
        return best

    def _is_win(self, g: Groups, n_melds: int, sp: _Special | None) -> bool:
        """``rules.shapes.is_win`` on the hand of ``g``: with 14 tiles less three per meld a shape is
        complete exactly when its shanten is -1 (the regular one from the summary, seven pairs and
        thirteen orphans from ``sp``); any other count goes through the groups' states."""
        c = g.c
        if n_melds <= 4 and sum(c) == 14 - 3 * n_melds:
            if self._regular and _VALUES[g.all][n_melds] == -1:
                return True
            if sp is not None:
                if self._pairs and (6 - min(7, sp.half) if self.q2 else
                                    6 - sp.pairs + max(0, 7 - sp.kinds)) == -1:
                    return True
                if self._orphans and 13 - sp.th_kinds - (sp.th_pairs > 0) == -1:
                    return True
            if self._exotic and (n_melds == 0 or (n_melds == 1 and self._knitted)):
                return is_win(c, n_melds, self._exotic, self.q2)
            return False
        if self._regular:
            pairs = 0
            for key in g.keys:
                st = group_state(key)
                if st == BROKEN:
                    break
                pairs += st
            else:
                if pairs == 1:
                    return True
        if self._other_shapes and (n_melds == 0 or (n_melds == 1 and self._knitted)):
            return is_win(g.c, n_melds, self._other_shapes, self.q2)
        return False

    def _legal_win(self, state: HandState, hand_tiles_win: Tile, from_seat: int | None, *,
                   kong_replacement: bool = False, robbing_kong: bool = False, last_tile: bool = False,
                   flower_replacement: bool = False) -> bool:
        ss = state.seat_state[self.seat]
        tiles = ss.tiles()
        if from_seat is None:
            tiles.remove(hand_tiles_win)
        w = WinRecord(self.seat, hand_tiles_win, from_seat, robbing_kong=robbing_kong,
                      kong_replacement=kong_replacement, flower_replacement=flower_replacement, last_tile=last_tile)
        hand = Hand(tuple(tiles), tuple(ss.melds), hand_tiles_win, tuple(ss.flowers))
        r = self.profile.judge_win(state, self.seat, hand, w)
        if not r.valid:
            return False
        return from_seat is None or not self.profile.is_furiten(state, self.seat, hand, w)

    # --- own turn -------------------------------------------------------------------------------------
    def turn(self, state: HandState, spec: WallSpec) -> Decision:
        ss = state.seat_state[self.seat]
        if any(ss.counts[34:42]) and state.wall_remaining > 0:
            return Decision("flower", TILES[34 + next(i for i, n in enumerate(ss.counts[34:42]) if n)])
        c = ss.counts34()
        n_melds = len(ss.melds)
        drawn = ss.drawn if ss.drawn is not None and not ss.drawn.is_flower else None
        g = None
        prev = self._info[2] if self._info and self._key is not None and self._key[1] == n_melds else None
        if prev is not None and drawn is not None and drawn < _N_CODES_PLAYING:
            dk = KIND_OF[drawn]  # the hand is the waiting hand and the tile just drawn: one group changes
            c[dk] -= 1
            if c == prev.c:
                g = prev.changed(dk, 1)
            c[dk] += 1
        if g is None:
            g = Groups(c)
        sp = self._special(c, n_melds)
        complete = not ss.dead and self._is_win(g, n_melds, sp)
        sh = -1 if complete else None
        if complete:
            win_tile = drawn if drawn is not None and ss.counts[drawn] else self._any_tile(ss)
            if self._legal_win(state, win_tile, None, kong_replacement=state.after_kong,
                               last_tile=state.wall_remaining == 0):
                return Decision("win", win_tile)
        elif self.error_rate and not ss.dead and self.rng.random() < self.error_rate and self._value(
                g.whole(), n_melds, c, sp) == 0:
            return Decision("win", drawn if drawn is not None else self._any_tile(ss))  # a false win
        if ss.riichi and drawn is not None:  # the hand is locked after riichi (004 Rules 3.3.14)
            return _DISCARD[drawn]
        if spec.kongs and not state.turn_by_claim and state.wall_remaining > 0:
            if 4 in c:
                for k in range(N_KINDS):
                    if c[k] == 4 and not self._missing(state, k):
                        c2 = list(c)
                        c2[k] = 0
                        sh = self._value(g.whole(), n_melds, c, sp) if sh is None else sh
                        if self._shanten(c2, n_melds + 1) <= sh:
                            return Decision("kong_concealed", KINDS[k])
            for m in ss.melds:
                if m.kind is MeldKind.PUNG and m.base is not None and c[m.base]:
                    sh = self._value(g.whole(), n_melds, c, sp) if sh is None else sh
                    if self._value(g.without(m.base), n_melds, c, sp, m.base) <= sh:
                        tile = next(t for t in ss.tiles() if t.kind == m.base)
                        return Decision("kong_added", tile)
        tile = self._choose(state, ss, g, sp)
        if self.profile.capabilities.has_riichi and self._riichi_ready(state, ss, c, tile):
            return Decision("discard", tile, riichi=True)
        return _DISCARD[tile]

    def _riichi_ready(self, state: HandState, ss: SeatState, c: list[int], tile: Tile) -> bool:
        """Declare riichi whenever the profile allows it: a closed hand left ready by the discard."""
        if ss.riichi or any(src is not None for src in ss.meld_sources) or state.wall_remaining < 4:
            return False
        c[tile.kind] -= 1
        ready = self._shanten(c, len(ss.melds)) == 0
        c[tile.kind] += 1
        return ready and self.profile.check_riichi(state, self.seat, tile) is None

    def _any_tile(self, ss: SeatState) -> Tile:
        return ss.tiles()[-1]

    def _missing(self, state: HandState, k: int) -> bool:
        ms = state.seat_state[self.seat].missing_suit
        return ms is not None and k < 27 and "mps"[k // 9] == ms

    def choose_discard(self, state: HandState) -> Tile:
        """The discard: the missing suit first (Sichuan), a flower where it may be discarded, else the
        first tile (least connected first) whose discard keeps the hand's shanten."""
        ss = state.seat_state[self.seat]
        c = ss.counts34()
        n_melds = len(ss.melds)
        return self._choose(state, ss, Groups(c), self._special(c, n_melds))

    def _choose(self, state: HandState, ss: SeatState, g: Groups, sp: _Special | None) -> Tile:
        """:meth:`choose_discard` with the hand's groups and special-shape counts at hand."""
        c = g.c
        ms = ss.missing_suit
        if ms is not None:  # the missing suit goes first (Sichuan), fewest copies first
            i = "mps".index(ms)
            held = [k for k in range(9 * i, 9 * i + 9) if c[k]]
            if held:
                k = min(held, key=lambda k: (c[k], k))
                return _take1(ss, k)
        if self.profile.capabilities.flower_discard:
            fl = [t for t in ss.tiles() if t.is_flower]
            if fl:
                return fl[0]
        n_melds = len(ss.melds)
        value = self._value
        # the best discard keeps the 14-tile shanten: try the least connected tiles first, stop at the first
        # that keeps it (ties between equally connected tiles broken by the seeded RNG)
        target = value(g.whole(), n_melds, c, sp)
        rnd = self.rng.random
        banned = self.profile.forbidden_discards(state, self.seat)
        # isolated singles first (honours, then terminals, then the rest): usually one of them will do;
        # then every kind held, least connected first
        if banned:
            held = [k for k in range(N_KINDS) if c[k] and k not in banned] or [k for k in range(N_KINDS) if c[k]]
            iso = sorted((_MIDDLE[k], rnd(), k) for k in held if c[k] == 1 and _isolated(c, k))
        else:
            infos = [(_OFFSETS[i], _choice_info(key)) for i, key in enumerate(g.keys)]
            held = [off + i for off, info in infos for _, i in info[1]]
            iso = sorted((m, rnd(), off + i) for off, info in infos for m, i in info[0])
        if not held:  # only jokers (or flowers) left, e.g. Red's four melds + "jj": discard one of them
            return _spare_tile(ss, self.profile)
        tried: dict[int, int] = {}
        for _, _, k in iso:
            v = tried[k] = value(g.without(k), n_melds, c, sp, k)
            if v <= target:
                return self._discard(ss, g, n_melds, k, v)
        if banned:
            order = sorted((connectivity(c, k), rnd(), k) for k in held)
        else:
            order = sorted((x, rnd(), off + i) for off, info in infos for x, i in info[1])
        for _, _, k in order:
            known = tried.get(k)
            v = value(g.without(k), n_melds, c, sp, k) if known is None else known
            if v <= target:
                return self._discard(ss, g, n_melds, k, v)
        by_kind = discard_shanten(c, n_melds, self.shapes, self.q2)  # not reached for the standard shapes
        best = min(by_kind[k] for _, _, k in order)
        k = next(k for _, _, k in order if by_kind[k] == best)
        return _take1(ss, k)

    def _discard(self, ss: SeatState, g: Groups, n_melds: int, k: int, v: int) -> Tile:
        """The tile of kind ``k`` to discard; the hand it leaves has shanten ``v`` (remembered with its
        groups: it is the next claim window's waiting hand, see :meth:`hand_info`)."""
        self._pending = (g.changed(k, -1), n_melds, v)
        return _take1(ss, k)

    # --- claims ---------------------------------------------------------------------------------------
    def claim(self, state: HandState, tile: Tile, from_seat: int, options: list[tuple[str, tuple[Tile, ...]]],
              robbing: bool = False) -> Decision:
        ss = state.seat_state[self.seat]
        _, sh, wait_kinds = self.hand_info(ss)
        n_melds = len(ss.melds)
        if tile.kind in wait_kinds and options and options[0][0] == "hu" and self._legal_win(
            state, tile, from_seat, robbing_kong=robbing, last_tile=state.window is not None and state.window.last_tile
        ):
            return Decision("claim", tile, "hu")
        if robbing or len(options) <= 1 or ss.riichi:
            return _PASS
        g = self._groups(ss)
        c = g.c
        best: tuple[int, Decision] | None = None
        for kind, shown in options:
            if kind == "hu":
                continue
            if any(self._missing(state, t.kind) for t in shown):
                continue
            if kind != "kong":  # a call that leaves only tiles it forbids to discard is not made (kuikae)
                banned = self.profile.call_forbids(kind, tile, shown)
                if banned:
                    c2 = list(c)
                    for t in shown:
                        c2[t.kind] -= 1
                    if all(k in banned for k in range(N_KINDS) if c2[k]):
                        continue
            # the meld's hand before its discard = its best discard
            after = self._after_showing(g, shown, n_melds + 1)
            if kind == "kong":
                if after <= sh and (best is None or after < best[0]):
                    best = (after, Decision("claim", tile, kind, shown))
                continue
            if after < sh and (best is None or after < best[0]):
                best = (after, Decision("claim", tile, kind, shown))
        return best[1] if best else _PASS

    def _after_showing(self, g: Groups, shown: tuple[Tile, ...], n_melds: int) -> int:
        """:func:`fast_shanten` of the hand of ``g`` without the tiles ``shown`` (a claim's, all of one
        suit group) and with ``n_melds`` (≥ 1) declared sets."""
        kinds = [t.kind for t in shown]
        grp = _GROUP_OF[kinds[0]] if kinds and kinds[0] < N_KINDS else -1
        if grp < 0 or any(k >= N_KINDS or _GROUP_OF[k] != grp for k in kinds):
            c2 = list(g.c)
            for k in kinds:
                c2[k] -= 1
            return self._shanten(c2, n_melds)
        if not self._regular or n_melds > 4:
            return 8
        key = list(g.keys[grp])
        off = _OFFSETS[grp]
        for k in kinds:
            key[k - off] -= 1
        return _VALUES[g.with_group(grp, segment_summary(tuple(key)))][n_melds]

    def missing_suit(self, state: HandState) -> str:
        c = self._counts(state)
        per = {s: sum(c[i * 9:(i + 1) * 9]) for i, s in enumerate("mps")}
        return min("mps", key=lambda s: (per[s], s))


class RandomBot(GreedyBot):
    """A random legal discard; wins when it can; never claims (except a win); no kongs."""

    name = "random"

    def turn(self, state: HandState, spec: WallSpec) -> Decision:
        ss = state.seat_state[self.seat]
        flowers = [t for t in ss.tiles() if t.is_flower]
        if flowers and state.wall_remaining > 0:
            return Decision("flower", flowers[0])
        c = self._counts(state)
        if self._shanten(c, len(ss.melds)) == -1:
            drawn = ss.drawn if ss.drawn is not None and ss.drawn in ss.tiles() else self._any_tile(ss)
            if self._legal_win(state, drawn, None, kong_replacement=state.after_kong,
                               last_tile=state.wall_remaining == 0):
                return Decision("win", drawn)
        return Decision("discard", self.choose_discard(state))

    def choose_discard(self, state: HandState) -> Tile:
        ss = state.seat_state[self.seat]
        held = sorted(t for t in ss.tiles() if not t.is_flower or self.profile.capabilities.flower_discard)
        return held[self.rng.randrange(len(held))]

    def claim(self, state: HandState, tile: Tile, from_seat: int, options: list[tuple[str, tuple[Tile, ...]]],
              robbing: bool = False) -> Decision:
        d = super().claim(state, tile, from_seat, [o for o in options if o[0] == "hu"], robbing=True)
        return d


BOTS = {"greedy": GreedyBot, "random": RandomBot}


def _spare_tile(ss: SeatState, profile: RuleSet) -> Tile:
    """A discard for a hand without natural tiles (the 34 kinds): a joker, else a discardable flower."""
    tiles = ss.tiles()
    for t in tiles:
        if t.is_joker:
            return t
    return next(t for t in tiles if not t.is_flower or profile.capabilities.flower_discard)


def _take(ss: SeatState, kind: int, n: int) -> tuple[Tile, ...]:
    """``n`` held tiles of ``kind`` (plain fives before a red five)."""
    out: list[Tile] = []
    codes = (kind, RED_OF.get(kind)) if kind in RED_OF else (kind,)
    for code in codes:
        if code is None:
            continue
        out.extend([TILES[code]] * min(ss.counts[code], n - len(out)))
    return tuple(out)




def claim_options(state: HandState, seat: int, tile: Tile, from_seat: int, profile: RuleSet, spec: WallSpec,
                  robbing: bool = False) -> list[tuple[str, tuple[Tile, ...]]]:
    """The claims ``seat`` can physically make on ``tile`` (shape of its own tiles; the machine judges
    the rest): hu on any tile, kong with three, pung with two, chow with two from the left player."""
    ss = state.seat_state[seat]
    if not ss.active or seat == from_seat:
        return []
    out: list[tuple[str, tuple[Tile, ...]]] = [("hu", ())]
    if robbing or tile.is_joker:
        return out
    c = ss.counts
    k = tile.kind
    n_same = c[k] + (c[RED_OF[k]] if k in RED_OF else 0)
    last = state.window is not None and state.window.last_tile
    allowed = profile.capabilities.last_discard_claims if last else ("kong", "pung", "chow")
    if n_same >= 3 and spec.kongs and "kong" in allowed and state.wall_remaining > 0:
        out.append(("kong", _take(ss, k, 3)))
    if n_same >= 2 and "pung" in allowed:
        out.append(("pung", _take(ss, k, 2)))
    if k < 27 and "chow" in allowed and profile.capabilities.chow_allowed and profile.may_chow_from(state, seat, from_seat):
        n = k % 9
        for lo in (k - 2, k - 1, k):
            if lo < k - n or lo + 2 > k - n + 8:
                continue
            shown: list[Tile] = []
            for j in (lo, lo + 1, lo + 2):
                if j == k:
                    continue
                got = _take(ss, j, 1)
                if not got:
                    break
                shown.extend(got)
            else:
                out.append(("chow", tuple(shown)))
    return out


