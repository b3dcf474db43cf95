"""Seeded bots that play legal, sensible hands, and a fast shanten for them.

* :class:`GreedyBot` — discards to lower shanten (ties: the least connected tile, then the seeded RNG),
  wins whenever the profile says the hand is a legal win, claims a discard when it lowers shanten
  (a win always), makes a kong when it does not raise shanten, declares flowers, discards its missing suit
  first (Sichuan). ``error_rate`` makes it sometimes declare a win with a ready-but-incomplete hand
  (a false win), to exercise violations.
* :class:`RandomBot` — a random legal discard, wins when it can, never claims (a peer for the bench).

A bot sees only its own concealed tiles and public information (it reads its own ``SeatState``); its
randomness comes from the ``random.Random`` it is given (no global state).

:func:`fast_shanten` equals ``rules.shapes.shanten`` (tests check it) but combines the per-suit-group
tables of ``rules.shapes.group_blocks`` through a cache of group summaries, a few dictionary look-ups
per call.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from rules.shapes import (
    SUMMARY_VALUES,
    Shape,
    combine_summaries,
    group_removals,
    group_summary,
    is_win,
    regular_shanten,
    seven_pairs_shanten,
    waits,
)
from rules.tiles import KINDS, N_KINDS, TERMINALS_AND_HONORS, TILES, Tile

# ----------------------------------------------------------------------------------------------------------
# Fast shanten


# The group summaries live in rules.shapes (the same tables its ``shanten`` uses).
_summary = group_summary
_combine = combine_summaries
_removals = group_removals
_VALUES = SUMMARY_VALUES
regular_shanten_fast = regular_shanten


def fast_shanten(c: list[int], n_melds: int = 0, shapes: frozenset = frozenset({Shape.REGULAR}),
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


def discard_shanten(c: list[int], n_melds: int, shapes: frozenset, q2: bool = False) -> dict[int, int]:
    """Shanten after discarding each kind held (``c`` holds 14 − 3·melds tiles)."""
    keys = [tuple(c[0:9]), tuple(c[9:18]), tuple(c[18:27]), tuple(c[27:34])]
    sums = [_summary(k) for k in keys]
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


def _connectivity(c: list[int], k: int) -> int:
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


class GreedyBot:
    """Greedy shanten reduction; see the module docstring."""

    name = "greedy"

    def __init__(self, seat: int, profile: Any, rng: random.Random, error_rate: float = 0.0):
        self.seat = seat
        self.profile = profile
        self.rng = rng
        self.error_rate = error_rate
        self.shapes = frozenset(profile.shapes)
        self.q2 = bool(profile.quads_as_two_pairs)
        self._memo: dict[tuple[bytes, int], int] = {}

    # --- helpers --------------------------------------------------------------------------------------
    _key: tuple | None = None
    _info: tuple = ()

    def _hand_info(self, ss: Any) -> tuple[int, int, frozenset[int]]:
        """Version, shanten and waits of the bot's waiting hand (cached: it changes only on its turn)."""
        key = (ss.version, len(ss.melds))
        if key != self._key:
            c = ss.counts34()
            sh = self._shanten(c, len(ss.melds))
            w = frozenset(waits(c, len(ss.melds), self.shapes, self.q2)) if sh == 0 else frozenset()
            self._key, self._info = key, (sh, w)
        return key[0], self._info[0], self._info[1]

    def _counts(self, state: Any) -> list[int]:
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

    def _legal_win(self, state: Any, hand_tiles_win: Tile, from_seat: int | None, **flags: Any) -> bool:
        from rules.game.state import WinRecord
        from rules.notation import Hand

        ss = state.seat_state[self.seat]
        tiles = ss.tiles()
        if from_seat is None:
            tiles.remove(hand_tiles_win)
        w = WinRecord(self.seat, hand_tiles_win, from_seat, **flags)
        hand = Hand(tuple(tiles), tuple(ss.melds), hand_tiles_win, tuple(ss.flowers))
        r = self.profile.judge_win(state, self.seat, hand, w)
        if not r.valid:
            return False
        return from_seat is None or not self.profile.is_furiten(state, self.seat, hand, w)

    # --- own turn -------------------------------------------------------------------------------------
    def turn(self, state: Any, spec: Any) -> Decision:
        ss = state.seat_state[self.seat]
        c = self._counts(state)
        n_melds = len(ss.melds)
        if any(ss.counts[34:42]) and state.wall_remaining > 0:
            return Decision("flower", TILES[34 + next(i for i, n in enumerate(ss.counts[34:42]) if n)])
        drawn = ss.drawn if ss.drawn is not None and not ss.drawn.is_flower else None
        complete = not ss.dead and is_win(c, n_melds, self.shapes, self.q2)
        sh = -1 if complete else None
        if complete:
            win_tile = drawn if drawn is not None and ss.counts[drawn] else self._any_tile(ss)
            if self._legal_win(state, win_tile, None, kong_replacement=state.after_kong,
                               last_tile=state.wall_remaining == 0):
                return Decision("win", win_tile)
        elif self.error_rate and not ss.dead and self.rng.random() < self.error_rate and self._shanten(c, n_melds) == 0:
            return Decision("win", drawn if drawn is not None else self._any_tile(ss))  # a false win
        if ss.riichi and drawn is not None:  # the hand is locked after riichi (004 Rules 3.3.14)
            return Decision("discard", drawn)
        if spec.kongs and not state.turn_by_claim and state.wall_remaining > 0:
            for k in range(N_KINDS):
                if c[k] == 4 and not self._missing(state, k):
                    c2 = list(c)
                    c2[k] = 0
                    sh = self._shanten(c, n_melds) if sh is None else sh
                    if self._shanten(c2, n_melds + 1) <= sh:
                        return Decision("kong_concealed", KINDS[k])
            for m in ss.melds:
                if m.kind.value == "pung" and m.base is not None and c[m.base]:
                    c2 = list(c)
                    c2[m.base] -= 1
                    sh = self._shanten(c, n_melds) if sh is None else sh
                    if self._shanten(c2, n_melds) <= sh:
                        tile = next(t for t in ss.tiles() if t.kind == m.base)
                        return Decision("kong_added", tile)
        tile = self.choose_discard(state)
        if self.profile.has_riichi and self._riichi_ready(state, ss, c, tile):
            return Decision("discard", tile, riichi=True)
        return Decision("discard", tile)

    def _riichi_ready(self, state: Any, ss: Any, c: list[int], tile: Tile) -> bool:
        """Declare riichi whenever the profile allows it: a closed hand left ready by the discard."""
        if ss.riichi or any(src is not None for src in ss.meld_sources) or state.wall_remaining < 4:
            return False
        c[tile.kind] -= 1
        ready = self._shanten(c, len(ss.melds)) == 0
        c[tile.kind] += 1
        return ready and self.profile.check_riichi(state, self.seat, tile) is None

    def _any_tile(self, ss: Any) -> Tile:
        return ss.tiles()[-1]

    def _missing(self, state: Any, k: int) -> bool:
        ms = state.seat_state[self.seat].missing_suit
        return ms is not None and k < 27 and "mps"[k // 9] == ms

    def choose_discard(self, state: Any) -> Tile:
        ss = state.seat_state[self.seat]
        c = ss.counts34()
        ms = ss.missing_suit
        if ms is not None:  # the missing suit goes first (Sichuan), fewest copies first
            i = "mps".index(ms)
            held = [k for k in range(9 * i, 9 * i + 9) if c[k]]
            if held:
                k = min(held, key=lambda k: (c[k], k))
                return _take(ss, k, 1)[0]
        if self.profile.flower_discard:
            fl = [t for t in ss.tiles() if t.is_flower]
            if fl:
                return fl[0]
        n_melds = len(ss.melds)
        # the best discard keeps the 14-tile shanten: try the least connected tiles first, stop at the first
        # that keeps it (ties between equally connected tiles broken by the seeded RNG)
        target = self._shanten(c, n_melds)
        rnd = self.rng.random
        banned = self.profile.forbidden_discards(state, self.seat)
        held = [k for k in range(N_KINDS) if c[k] and k not in banned] or [k for k in range(N_KINDS) if c[k]]
        if not held:  # only jokers (or flowers) left, e.g. Red's four melds + "jj": discard one of them
            return _spare_tile(ss, self.profile)
        # isolated singles first (honours, then terminals, then the rest): usually one of them will do
        # (one shanten per candidate: cheaper than discard_shanten's removal tables, which touch more
        # group keys and miss rules.shapes' summary cache more often)
        shanten = self._shanten
        iso = sorted((_MIDDLE[k], rnd(), k) for k in held if c[k] == 1 and _isolated(c, k))
        for _, _, k in iso:
            c[k] -= 1
            v = shanten(c, n_melds)
            c[k] += 1
            if v <= target:
                return _take(ss, k, 1)[0]
        order = sorted((_connectivity(c, k), rnd(), k) for k in held)
        for _, _, k in order:
            c[k] -= 1
            v = shanten(c, n_melds)
            c[k] += 1
            if v <= target:
                return _take(ss, k, 1)[0]
        by_kind = discard_shanten(c, n_melds, self.shapes, self.q2)  # not reached for the standard shapes
        best = min(by_kind[k] for _, _, k in order)
        k = next(k for _, _, k in order if by_kind[k] == best)
        return _take(ss, k, 1)[0]

    # --- claims ---------------------------------------------------------------------------------------
    def claim(self, state: Any, tile: Tile, from_seat: int, options: list[tuple[str, tuple[Tile, ...]]],
              robbing: bool = False) -> Decision:
        ss = state.seat_state[self.seat]
        _, sh, wait_kinds = self._hand_info(ss)
        n_melds = len(ss.melds)
        if tile.kind in wait_kinds and options and options[0][0] == "hu" and self._legal_win(
            state, tile, from_seat, robbing_kong=robbing, last_tile=state.discard_on_empty_wall
        ):
            return Decision("claim", tile, "hu")
        if robbing or len(options) <= 1 or ss.riichi:
            return Decision("pass")
        c = ss.counts34()
        best: tuple[int, Decision] | None = None
        for kind, shown in options:
            if kind == "hu":
                continue
            if any(self._missing(state, t.kind) for t in shown):
                continue
            c2 = list(c)
            for t in shown:
                c2[t.kind] -= 1
            if kind != "kong":  # a call that leaves only tiles it forbids to discard is not made (kuikae)
                banned = self.profile.call_forbids(kind, tile, shown)
                if banned and all(k in banned for k in range(N_KINDS) if c2[k]):
                    continue
            if kind == "kong":
                after = self._shanten(c2, n_melds + 1)
                if after <= sh and (best is None or after < best[0]):
                    best = (after, Decision("claim", tile, kind, shown))
                continue
            after = self._shanten(c2, n_melds + 1)  # the meld's hand before its discard = its best discard
            if after < sh and (best is None or after < best[0]):
                best = (after, Decision("claim", tile, kind, shown))
        return best[1] if best else Decision("pass")

    def missing_suit(self, state: Any) -> str:
        c = self._counts(state)
        per = {s: sum(c[i * 9:(i + 1) * 9]) for i, s in enumerate("mps")}
        return min("mps", key=lambda s: (per[s], s))


class RandomBot(GreedyBot):
    """A random legal discard; wins when it can; never claims (except a win); no kongs."""

    name = "random"

    def turn(self, state: Any, spec: Any) -> Decision:
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

    def choose_discard(self, state: Any) -> Tile:
        ss = state.seat_state[self.seat]
        held = sorted(t for t in ss.tiles() if not t.is_flower or self.profile.flower_discard)
        return held[self.rng.randrange(len(held))]

    def claim(self, state: Any, tile: Tile, from_seat: int, options: list[tuple[str, tuple[Tile, ...]]],
              robbing: bool = False) -> Decision:
        d = super().claim(state, tile, from_seat, [o for o in options if o[0] == "hu"], robbing=True)
        return d


BOTS = {"greedy": GreedyBot, "random": RandomBot}


def _spare_tile(ss: Any, profile: Any) -> Tile:
    """A discard for a hand without natural tiles (the 34 kinds): a joker, else a discardable flower."""
    tiles = ss.tiles()
    for t in tiles:
        if t.is_joker:
            return t
    return next(t for t in tiles if not t.is_flower or profile.flower_discard)


def _take(ss: Any, kind: int, n: int) -> tuple[Tile, ...]:
    """``n`` held tiles of ``kind`` (plain fives before a red five)."""
    out: list[Tile] = []
    codes = (kind, RED_OF.get(kind)) if kind in RED_OF else (kind,)
    for code in codes:
        if code is None:
            continue
        out.extend([TILES[code]] * min(ss.counts[code], n - len(out)))
    return tuple(out)


RED_OF = {4: 42, 13: 43, 22: 44}


def claim_options(state: Any, seat: int, tile: Tile, from_seat: int, profile: Any, spec: Any,
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
    allowed = profile.last_discard_claims if state.discard_on_empty_wall else ("kong", "pung", "chow")
    if n_same >= 3 and spec.kongs and "kong" in allowed and state.wall_remaining > 0:
        out.append(("kong", _take(ss, k, 3)))
    if n_same >= 2 and "pung" in allowed:
        out.append(("pung", _take(ss, k, 2)))
    if k < 27 and "chow" in allowed and profile.chow_allowed and profile.may_chow_from(state, seat, from_seat):
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


