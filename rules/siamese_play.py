"""Bots and the random-hand driver for MCR's Siamese format (``mcr-siamese``, 003 §Сиамский).

:class:`SiameseBot` is a seeded greedy player for two hands from one pool of concealed tiles:

* **wins** — for each open hand (slot) it asks whether some subset of the pool plus that slot's melds is
  complete (``fast_shanten`` ≤ −1 over the pool), then enumerates the complete subsets (four sets and a
  pair, seven pairs, thirteen orphans; at most ``MAX_CANDIDATES``) and scores each through the profile
  (``judge_win``: the 8-fan minimum, §17's fans for a kept drawn tile). A second win is declared as soon
  as one is worth at least the first (golden rule, §4). A first win is chosen to leave the best rest for
  the other hand (lowest shanten of what remains), then the cheapest (the golden rule is easier after a
  cheap first win); it keeps the drawn tile when the rest needs it (§17), which allows two wins in one turn.
* **discards** — the tile whose removal keeps the nearest hand nearest (min over open slots of the
  slot's shanten), then keeps the most complete sets in the whole pool (a two-hand proxy), then the
  least connected tile, ties broken by the seeded RNG.
* **claims** — a win on a discard (as above, the discard as winning tile); a pung into the open hand
  with fewer sets when the pool is still far from any hand (shanten ≥ 1). No kongs, no chows.

:class:`SiameseDriver` plays one hand through a full-information
:class:`~rules.game.siamese.SiameseHandMachine` (it reuses :class:`rules.driver.HandDriver`'s setup and
step loop); :func:`play_siamese_hand` is what ``rules.simulate.play_hand`` dispatches to for deal
``"siamese"``.
"""
from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING, Unpack

from rules.bots import connectivity, fast_shanten
from rules.driver import HandDriver, HandOptions, HandResult
from rules.events import Claimed, Discarded, Drew, ExhaustiveDraw, HandRevealed, Won
from rules.game.siamese import SiameseHandMachine, SiameseSeat, SiameseWin, siamese_seat, siamese_wins
from rules.game.state import HandState, Phase
from rules.notation import Hand, format_tiles
from rules.shapes import regular_shanten
from rules.tiles import KINDS, TERMINALS_AND_HONORS, Tile

if TYPE_CHECKING:  # pragma: no cover
    from rules.game.protocols import RuleSet

MAX_CANDIDATES = 250  # complete subsets scored per question (a bound on the bot's work, not a rule)


@dataclass(frozen=True)
class WinChoice:
    """A win a bot can declare: ``slot``, ``tiles`` (the concealed tiles shown: a self-drawn winning
    tile included, a discard not), ``tile`` (winning), ``kept`` (a first win without the drawn tile)."""

    slot: int
    tiles: tuple[Tile, ...]
    tile: Tile
    kept: bool
    value: int
    rest_shanten: int


def complete_subsets(c: list[int], n_melds: int, must: int | None = None, limit: int = MAX_CANDIDATES
                     ) -> Iterator[tuple[int, ...]]:
    """Count vectors of the sub-multisets of ``c`` that complete a hand with ``n_melds`` sets declared
    (seven pairs and thirteen orphans when nothing is declared, then 4 − n_melds sets and a pair), each
    once, containing kind ``must`` when given; at most ``limit``."""
    seen: set[tuple[int, ...]] = set()
    need = 4 - n_melds
    sub = [0] * 34

    def emit() -> Iterator[tuple[int, ...]]:
        key = tuple(sub)
        if key not in seen and (must is None or key[must]):
            seen.add(key)
            yield key

    def sets(start: int, left: int) -> Iterator[tuple[int, ...]]:
        if left == 0:
            yield from emit()
            return
        for i in range(start, 68):
            k, chow = divmod(i, 2)
            if chow:
                if k >= 27 or k % 9 > 6 or min(c[k] - sub[k], c[k + 1] - sub[k + 1], c[k + 2] - sub[k + 2]) < 1:
                    continue
                for j in (k, k + 1, k + 2):
                    sub[j] += 1
                yield from sets(i, left - 1)
                for j in (k, k + 1, k + 2):
                    sub[j] -= 1
            else:
                if c[k] - sub[k] < 3:
                    continue
                sub[k] += 3
                yield from sets(i + 1, left - 1)
                sub[k] -= 3
            if len(seen) >= limit:
                return

    if n_melds == 0:
        pairs = [k for k in range(34) if c[k] >= 2]
        if len(pairs) >= 7:
            for pick in combinations(pairs, 7):
                for k in pick:
                    sub[k] += 2
                yield from emit()
                for k in pick:
                    sub[k] -= 2
                if len(seen) >= limit:
                    return
        if all(c[k] for k in TERMINALS_AND_HONORS):
            for p in TERMINALS_AND_HONORS:
                if c[p] >= 2:
                    for k in TERMINALS_AND_HONORS:
                        sub[k] += 1
                    sub[p] += 1
                    yield from emit()
                    sub[p] -= 1
                    for k in TERMINALS_AND_HONORS:
                        sub[k] -= 1
    for p in range(34):
        if c[p] >= 2:
            sub[p] += 2
            yield from sets(0, need)
            sub[p] -= 2
            if len(seen) >= limit:
                return


def _tiles_of(counts: tuple[int, ...] | list[int]) -> list[Tile]:
    return [KINDS[k] for k, n in enumerate(counts) if n for _ in range(n)]


class SiameseBot:
    """A greedy Siamese player (see the module docstring). It reads only its own seat and public state."""

    name = "greedy"

    def __init__(self, seat: int, profile: RuleSet, rng: random.Random, error_rate: float = 0.0):
        self.seat = seat
        self.profile = profile
        self.rng = rng
        self.shapes = frozenset(profile.shapes)
        self.q2 = bool(profile.quads_as_two_pairs)
        self._scores: dict[tuple[object, ...], tuple[bool, int]] = {}

    # --- judging candidate hands ---------------------------------------------------------------------
    def _value(self, state: HandState, ss: SiameseSeat, slot: int, sub: tuple[int, ...], tile: Tile,
               from_seat: int | None, kept: bool, robbing: bool = False) -> tuple[bool, int]:
        """(valid, value) of a declared hand through the profile, remembered for the hand."""
        key = (sub, slot, len(ss.melds), tile, from_seat is None, kept, state.wall_remaining == 0, state.after_kong)
        got = self._scores.get(key)
        if got is None:
            tiles = _tiles_of(sub)
            tiles.remove(tile)
            w = SiameseWin(self.seat, tile, from_seat, robbing_kong=robbing,
                           kong_replacement=from_seat is None and state.after_kong,
                           last_tile=state.wall_remaining == 0, slot=slot, drawn_tile_kept=kept)
            hand = Hand(tuple(tiles), tuple(ss.slot_melds(slot)), tile, ())
            r = self.profile.judge_win(state, self.seat, hand, w)
            got = self._scores[key] = (bool(r.valid), int(r.total_fan))
        return got

    def best_win(self, state: HandState, extra: Tile | None = None, from_seat: int | None = None,
                 robbing: bool = False) -> WinChoice | None:
        """The win to declare now: self-drawn (``extra`` None) or on the tile ``extra`` from ``from_seat``."""
        ss = siamese_seat(state, self.seat)
        if ss.dead:
            return None
        c = ss.counts34()
        mine = siamese_wins(state, self.seat)
        first = mine[0].result if mine else None
        floor = first.total_fan if first is not None else 0  # the golden rule (§4)
        drawn = ss.drawn if extra is None else None
        if extra is None and drawn is None:
            return None  # no self-drawn win without a drawn tile this turn (§5)
        if extra is not None:
            c[extra.kind] += 1
        cands: list[tuple[int, float, int, tuple[int, ...]]] = []  # (rest shanten, tie-break, slot, subset)
        for slot in ss.open_slots():
            k = len(ss.slot_melds(slot))
            if fast_shanten(c, k, self.shapes, self.q2) > -1:
                continue
            other = 1 - slot
            must = extra.kind if extra is not None else (drawn.kind if mine and drawn is not None else None)
            k_other = len(ss.slot_melds(other))
            for sub in complete_subsets(c, k, must):
                if mine or ss.slot_wins[other] is not None:
                    rs = -2  # a second win: what is left does not matter
                else:
                    rest = [a - b for a, b in zip(c, sub, strict=True)]
                    rs = max(-1, fast_shanten(rest, k_other, self.shapes, self.q2))
                cands.append((rs, self.rng.random(), slot, sub))
        cands.sort()
        best: WinChoice | None = None
        for rs, _, slot, sub in cands:  # the best rest first; score only that group once a win is found
            if best is not None and rs != best.rest_shanten:
                break
            if extra is not None:
                tile, kept = extra, False
            elif drawn is not None and sub[drawn.kind]:
                tile, kept = drawn, False
            else:
                tile, kept = KINDS[max(i for i, n in enumerate(sub) if n)], True
            valid, value = self._value(state, ss, slot, sub, tile, from_seat, kept, robbing)
            if not valid or value < floor:
                continue
            if best is None or value < best.value:
                shown = _tiles_of(sub)
                if extra is not None:
                    shown.remove(extra)
                best = WinChoice(slot, tuple(shown), tile, kept, value, rs)
                if mine:
                    break  # a second win ends the hand: the first one found will do
        return best

    # --- own turn ----------------------------------------------------------------------------------------
    def turn(self, state: HandState) -> WinChoice | Tile:
        """A win to declare, else the tile to discard."""
        win = self.best_win(state)
        return win if win is not None else self.choose_discard(state)

    def choose_discard(self, state: HandState) -> Tile:
        ss = siamese_seat(state, self.seat)
        c = ss.counts34()
        slots = [len(ss.slot_melds(s)) for s in ss.open_slots()] or [len(ss.slot_melds(0))]
        n_all = min(4, len(ss.melds))
        best = None
        for k in range(34):
            if not c[k]:
                continue
            c[k] -= 1
            near = min(max(-1, fast_shanten(c, m, self.shapes, self.q2)) for m in slots)
            whole = regular_shanten(c, n_all)
            c[k] += 1
            key = (near, whole, connectivity(c, k), self.rng.random(), k)
            if best is None or key < best:
                best = key
        return KINDS[best[-1]]  # type: ignore[index]

    # --- claims ------------------------------------------------------------------------------------------
    def claim(self, state: HandState, tile: Tile, from_seat: int, robbing: bool = False
              ) -> tuple[str, int, tuple[Tile, ...]] | None:
        """``(kind, slot, tiles shown)`` to claim the discard (or the robbed kong's tile), or None."""
        win = self.best_win(state, tile, from_seat, robbing)
        if win is not None:
            return "hu", win.slot, win.tiles
        ss = siamese_seat(state, self.seat)
        if robbing or ss.dead or (state.window is not None and state.window.last_tile) or ss.counts34()[tile.kind] < 2:
            return None
        slots = sorted(ss.open_slots(), key=lambda s: len(ss.slot_melds(s)))
        slots = [s for s in slots if len(ss.slot_melds(s)) < 4]
        if not slots:
            return None
        slot = slots[0]
        c = ss.counts34()
        k = len(ss.slot_melds(slot))
        now = fast_shanten(c, k, self.shapes, self.q2)
        if now < 1:
            return None
        c[tile.kind] -= 2
        if fast_shanten(c, k + 1, self.shapes, self.q2) < now:
            return "pung", slot, (tile, tile)
        return None


class SiameseDriver(HandDriver):
    """One Siamese hand played by :class:`SiameseBot` s through a :class:`SiameseHandMachine`."""

    machine_class = SiameseHandMachine

    def __init__(self, profile: RuleSet, rng: random.Random, **kw: Unpack[HandOptions]):
        kw.setdefault("n_players", 3)
        super().__init__(profile, rng, **kw)

    def _check_deal(self, deal: str) -> None:
        if deal != "siamese":
            raise ValueError(f"{self.profile.name} does not deal two hands per player")

    def _bot(self, kind: str) -> type:
        return SiameseBot

    def _exhaust(self) -> None:
        self.machine.submit(self._ev(ExhaustiveDraw, tenpai=()))  # no ready hands in Siamese (§14)

    def _reveal_all(self, force: bool = False) -> None:
        """At the end every pool is shown (the tile-conservation check of the machine)."""
        st = self.machine.state
        for s in st.seats:
            ss = st.seat_state[s]
            if not ss.revealed:
                self.machine.submit(self._ev(HandRevealed, seat=s, tiles=tuple(str(t) for t in ss.tiles())))

    def _turn(self, seat: int) -> None:
        m = self.machine
        st = m.state
        d = self.bots[seat].turn(st)
        if isinstance(d, WinChoice):
            out = m.submit(self._ev(Won, seat=seat, tile=str(d.tile), from_seat=None, hand=format_tiles(d.tiles),
                                    slot=d.slot, drawn_tile=not d.kept, kong_replacement=st.after_kong,
                                    last_tile=st.wall_remaining == 0))
        else:
            ss = st.seat_state[seat]
            out = m.submit(self._ev(Discarded, seat=seat, tile=str(d), tsumogiri=ss.drawn == d))
        if out and out[0].TYPE == "violation":  # a bot bug must not loop forever
            raise RuntimeError(f"bot action rejected: {out[0]}")

    def _claims(self) -> None:
        m = self.machine
        st = m.state
        robbing = st.phase == Phase.ROB
        assert st.window is not None
        disc, tile = st.window.seat, st.window.tile
        for s in st.seat_order(disc)[1:]:
            if not st.seat_state[s].active:
                continue
            got = self.bots[s].claim(st, tile, disc, robbing)
            if got is not None:
                kind, slot, shown = got
                m.submit(self._ev(Claimed, seat=s, kind=kind, from_seat=disc, tile=str(tile),
                                  tiles=tuple(str(t) for t in shown), slot=slot))
        for ev in m.arbitrate():
            m.submit(self._stamped(ev))
        if m.phase not in (Phase.CLAIMS, Phase.ROB):
            return  # a meld or a win: the claimant plays (or the hand is over)
        if robbing:
            t = m.draw_tile("replacement")
            m.submit(self._ev(Drew, seat=disc, tile=str(t), source="replacement"))
            return
        nxt = m.next_drawer()
        t = m.draw_tile("wall")
        if nxt is not None and t is not None:
            m.submit(self._ev(Drew, seat=nxt, tile=str(t), source="wall"))
        else:
            self._exhaust()


def play_siamese_hand(profile: RuleSet, rng: random.Random, **kw: Unpack[HandOptions]) -> HandResult:
    """Play one Siamese hand with bots (the options of :class:`SiameseDriver`); 3 players by default."""
    if kw.get("n_players", 4) == 4:
        kw["n_players"] = 3
    return SiameseDriver(profile, rng, **kw).run()
