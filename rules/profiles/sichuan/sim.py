"""A random-play simulator of one Sichuan hand, settled through :class:`HandLedger`.

Not a bot for real play: simple greedy players (missing suit first, then the discard that keeps shanten
lowest) that claim pungs, kongs and hu at random, now and then rob a kong, get a dead hand or declare a
false hu — enough to drive every settlement rule through thousands of random hands for the property
tests and the benchmark. It follows the rules of this package: the deal of ``tables``, claim arbitration
of ``claims``, blood battle until three hu (two at a 3-player table) or exhaustion.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from rules.notation import Hand, Meld, MeldKind
from rules.profiles.sichuan import claims, session, tables
from rules.profiles.sichuan.params import SichuanParams
from rules.profiles.sichuan.scoring import SHAPES
from rules.profiles.sichuan.settlement import EndHand, HandLedger, Settlement
from rules.shapes import is_win
from rules.tiles import KINDS

SUITS = "mps"
TILE_KINDS = tuple(range(27))


@dataclass
class Player:
    seat: int
    counts: list[int]
    missing: str = "m"
    melds: list[Meld] = field(default_factory=list)
    discards: list[str] = field(default_factory=list)  # suits, in order
    dead: bool = False
    careless: bool = False  # keeps his missing suit like any other (makes pigs)

    def hand(self, winning: int | None = None) -> Hand:
        tiles = tuple(KINDS[k] for k in TILE_KINDS for _ in range(self.counts[k]))
        return Hand(tiles, tuple(self.melds), KINDS[winning] if winning is not None else None)

    def holds_missing(self) -> bool:
        i = SUITS.index(self.missing)
        if any(self.counts[i * 9 : i * 9 + 9]):
            return True
        return any(m.tiles[0].suit == self.missing for m in self.melds)

    def can_win_with(self, k: int) -> bool:
        if self.dead or SUITS[k // 9] == self.missing or self.holds_missing():
            return False
        self.counts[k] += 1
        ok = is_win(self.counts, len(self.melds), SHAPES, True)
        self.counts[k] -= 1
        return ok


@dataclass
class SimResult:
    settlement: Settlement
    ledger: HandLedger
    wins: list[tuple[int, Hand, str]]  # (seat, hand, missing suit) of every valid hu
    turns: int


def _meld(k: int, n: int, kind: MeldKind) -> Meld:
    return Meld.build([KINDS[k]] * n, concealed=kind is MeldKind.KONG_CONCEALED, added=kind is MeldKind.KONG_ADDED)


def _choose_missing(p: Player) -> str:
    return min(SUITS, key=lambda s: (sum(p.counts[SUITS.index(s) * 9 : SUITS.index(s) * 9 + 9]), s))


def _keep_score(c: list[int], k: int) -> int:
    """How much a tile is worth keeping: copies and neighbours within its suit (a cheap greedy measure)."""
    pos = k % 9
    sc = 4 * (c[k] - 1)
    for d, w in ((1, 3), (2, 1)):
        if pos - d >= 0 and c[k - d]:
            sc += w
        if pos + d <= 8 and c[k + d]:
            sc += w
    return sc


def _choose_discard(p: Player, rng: random.Random) -> int:
    """Missing suit first (unless careless), then the tile with the fewest copies and neighbours."""
    i = SUITS.index(p.missing)
    miss = [k for k in range(i * 9, i * 9 + 9) if p.counts[k]]
    if miss and not p.careless:
        return rng.choice(miss)
    best: list[int] = []
    best_s = 99
    for k in TILE_KINDS:
        if p.counts[k]:
            s = _keep_score(p.counts, k)
            if s < best_s:
                best, best_s = [k], s
            elif s == best_s:
                best.append(k)
    return rng.choice(best)


def simulate_hand(
    params: SichuanParams,
    rng: random.Random,
    seats: tuple[int, ...] = (0, 1, 2, 3),
    dealer: int = 0,
    p_claim: float = 0.6,
    p_rob: float = 0.9,
    p_false_hu: float = 0.004,
    p_dead: float = 0.002,
    p_careless: float = 0.05,
) -> SimResult:
    """Play and settle one hand with random greedy players."""
    return _Table(params, rng, seats, dealer, p_claim, p_rob, p_false_hu, p_dead, p_careless).run()


class _Table:
    def __init__(self, params: SichuanParams, rng: random.Random, seats: tuple[int, ...], dealer: int,
                 p_claim: float, p_rob: float, p_false_hu: float, p_dead: float, p_careless: float):
        self.params, self.rng = params, rng
        self.p_claim, self.p_rob, self.p_false_hu, self.p_dead = p_claim, p_rob, p_false_hu, p_dead
        wall = [k for k in TILE_KINDS for _ in range(4)]
        rng.shuffle(wall)  # the shuffled list stands for the ring in drawing order (tables.stack_order)
        self.dice = (rng.randint(1, 6), rng.randint(1, 6))
        dealt = tables.deal(wall, dealer, seats)
        self.live = list(dealt.live)
        self.players = {s: Player(s, [0] * 34) for s in seats}
        for s, tiles in dealt.hands.items():
            for k in tiles:
                self.players[s].counts[k] += 1
            self.players[s].missing = _choose_missing(self.players[s])
            self.players[s].careless = rng.random() < p_careless
        self.led = HandLedger(params, seats, dealer, {s: p.missing for s, p in self.players.items()})
        self.wins: list[tuple[int, Hand, str]] = []
        self.dealer = dealer

    # -- helpers ---------------------------------------------------------------------------------------
    def _win(self, p: Player, k: int, **kw) -> None:
        """Declare hu with ``k`` as the winning tile (already counted in ``p.counts``); p leaves play."""
        p.counts[k] -= 1
        h = p.hand(k)
        rec = self.led.hu(p.seat, h, **kw)
        if rec.valid:
            self.wins.append((p.seat, h, p.missing))
        p.counts = [0] * 34

    def _group(self, discarder: int, winners: tuple[int, ...], k: int, **kw) -> None:
        """Several hu on one tile: one dealer-rotation event (000 §2.6.2.6)."""
        for s in winners:
            q = self.players[s]
            q.counts[k] += 1
            self._win(q, k, discarder=discarder, **kw)
        self.led.merge_last_hu(len(winners), discarder)

    def _try_kong(self, cur: int, drawn: int | None) -> str | None:
        """A concealed or added kong if the player wants one: "kong", "robbed" or None."""
        p, led = self.players[cur], self.led
        if claims.kong_problem("concealed", len(self.live), False, True) is not None:
            return None
        for k in TILE_KINDS:
            if p.counts[k] == 4 and SUITS[k // 9] != p.missing and self.rng.random() < 0.8:
                p.counts[k] = 0
                p.melds.append(_meld(k, 4, MeldKind.KONG_CONCEALED))
                led.kong(cur, "concealed")
                return "kong"
        for i, m in enumerate(p.melds):
            k = m.base
            if m.kind is MeldKind.PUNG and k is not None and p.counts[k] and self.rng.random() < 0.8:
                p.counts[k] -= 1
                led.kong(cur, "added", fresh=(k == drawn))
                robbers = tuple(s for s in session.order_from(cur, list(led.active))
                                if self.players[s].can_win_with(k) and self.rng.random() < self.p_rob)
                if robbers:  # the kong is invalid; the pung stays (000 App.1 #9)
                    self._group(cur, robbers, k, robbing_kong=True, last_tile=not self.live)
                    self.robbers = robbers
                    return "robbed"
                p.melds[i] = _meld(k, 4, MeldKind.KONG_ADDED)
                return "kong"
        return None

    # -- the hand --------------------------------------------------------------------------------------
    def run(self) -> SimResult:
        led, live, rng = self.led, self.live, self.rng
        cur, mode = self.dealer, "dealt"  # dealt | draw | replacement | after_pung
        drawn: int | None = None
        kong_turn = False
        turns = 0
        while not led.finished:
            p = self.players[cur]
            turns += 1
            if mode == "draw":
                if not live:
                    break  # exhaustion: nothing left to draw
                drawn = live.pop(0)
                p.counts[drawn] += 1
            elif mode == "replacement":
                drawn = live.pop(0)  # same open end as normal draws (000 §2.5.7, 002 §8 comment)
                p.counts[drawn] += 1
            else:
                drawn = None
            if mode != "replacement":
                kong_turn = False
            if mode != "after_pung":
                # self-drawn hu; the dealer's 14 dealt tiles count as a self-draw turn [Interp AMB-20]
                if not p.dead and not p.holds_missing() and is_win(p.counts, len(p.melds), SHAPES, True):
                    k = drawn if drawn is not None else next(k for k in TILE_KINDS if p.counts[k])
                    self._win(p, k, self_drawn=True, kong_replacement=mode == "replacement", last_tile=not live)
                    cur, mode = session.next_to_play(cur, [cur], led.active), "draw"
                    if cur is None:
                        break
                    continue
                got = self._try_kong(cur, drawn)
                if got == "kong":
                    kong_turn, mode = True, "replacement"
                    continue
                if got == "robbed":
                    cur, mode = session.next_to_play(cur, self.robbers, led.active), "draw"
                    if cur is None:
                        break
                    continue
            if not p.dead and rng.random() < self.p_dead:
                p.dead = True
                led.dead_hand(cur)
            t = _choose_discard(p, rng)
            if (not p.dead and not p.holds_missing() and rng.random() < self.p_false_hu
                    and not is_win(p.counts, len(p.melds), SHAPES, True)):
                self._win(p, t, self_drawn=True)  # a false hu on his own tiles
                cur, mode = session.next_to_play(cur, [cur], led.active), "draw"
                if cur is None:
                    break
                continue
            p.counts[t] -= 1
            p.discards.append(SUITS[t // 9])
            cur, mode = self._claims(cur, t, kong_turn)
            if cur is None:
                break
        if not led.finished:
            led.exhaustion({
                s: EndHand(self.players[s].hand(), self.players[s].missing, tuple(self.players[s].discards),
                           dead_hand=self.players[s].dead)
                for s in sorted(led.active)
            })
        return SimResult(led.settle(), led, self.wins, turns)

    def _claims(self, cur: int, t: int, kong_turn: bool) -> tuple[int | None, str]:
        """Claims on the discard ``t``: who plays next and how."""
        led, live = self.led, self.live
        cl: list[claims.Claim] = []
        for s in session.order_from(cur, list(led.active)):
            q = self.players[s]
            if q.dead:
                continue
            if q.can_win_with(t):
                cl.append(claims.Claim(s, "hu"))
            elif SUITS[t // 9] != q.missing and self.rng.random() < self.p_claim:
                if q.counts[t] == 3 and live:
                    cl.append(claims.Claim(s, "kong"))
                elif q.counts[t] >= 2:
                    cl.append(claims.Claim(s, "pung"))
        arb = claims.arbitrate(self.params, cur, cl, led.active, led.dead, wall_empty=not live,
                               tile_suit=SUITS[t // 9], missing_suits={s: q.missing for s, q in self.players.items()})
        if arb.hu:
            self._group(cur, arb.hu, t, kong_discard=kong_turn, last_tile=not live)
            return session.next_to_play(cur, arb.hu, led.active), "draw"
        if arb.meld is not None:
            q = self.players[arb.meld.seat]
            if arb.meld.kind == "kong":
                q.counts[t] -= 3
                q.melds.append(_meld(t, 4, MeldKind.KONG_OPEN))
                led.kong(q.seat, "open", from_seat=cur)
                return q.seat, "replacement"
            q.counts[t] -= 2
            q.melds.append(_meld(t, 3, MeldKind.PUNG))
            return q.seat, "after_pung"
        if not live:
            return None, "end"  # a discard with the wall empty that nobody claims ends the hand (§6.12)
        return session.next_to_play(cur, [], led.active), "draw"
