"""One hand played by bots through the hand machine: :class:`HandDriver` (the random-game driver's engine).

The driver shuffles a wall with the seeded RNG, throws the dice, deals and lets one bot per seat act until
the hand is settled; every step is an event submitted to a full-information
:class:`~rules.game.machine.HandMachine`, so the result (:class:`HandResult`) carries the hand's complete
event log. A simulated clock (:class:`SimClock`) stamps the events (``t_mono``), so runs are reproducible bit
for bit. ``rules.simulate`` chains hands into games; ``rules.siamese_play`` drives two hands per player.
"""
from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypedDict, TypeVar

from rules.bots import BOTS, claim_options
from rules.events import (
    Claimed,
    Dealt,
    DiceRolled,
    Discarded,
    DoraRevealed,
    Drew,
    Event,
    ExhaustiveDraw,
    FlowerDeclared,
    HandRevealed,
    HandStarted,
    JSONObject,
    MeldMade,
    MissingSuitDeclared,
    WallBroken,
    Won,
)
from rules.game.machine import HandMachine
from rules.game.setup import cached_break
from rules.game.state import Phase
from rules.tiles import RED_OF, TILES, Tile
from rules.wall import WallSpec, deal_steps, roll_dice, tile_set

if TYPE_CHECKING:  # pragma: no cover
    from rules.game.protocols import RuleSet

_TXT = tuple(str(t) for t in TILES)  # tile code -> notation

WALL_EPOCH = 1_767_225_600.0  # 2026-01-01T00:00:00Z: t_wall = epoch + t_mono in simulation


class SimClock:
    """The simulated shared clock: each event is ``step`` seconds after the previous one."""

    def __init__(self, t0: float = 0.0, step: float = 0.5):
        self.t = t0
        self.step = step

    def stamp(self) -> dict[str, float]:
        self.t += self.step  # steps of 1/2**k seconds keep every stamp exact
        return {"t_mono": self.t, "t_wall": WALL_EPOCH + self.t}


_TILE_SETS: dict[str, tuple[Tile, ...]] = {}


def _shuffled_wall(spec: WallSpec, rng: random.Random) -> tuple[Tile, ...]:
    """``rules.wall.shuffled_wall`` with the tile set made once per name (the same shuffle of the same list)."""
    tiles = _TILE_SETS.get(spec.tile_set)
    if tiles is None:
        tiles = _TILE_SETS[spec.tile_set] = tile_set(spec.tile_set)
    out = list(tiles)
    rng.shuffle(out)
    return tuple(out)


_REQUIRED = object()
_TEMPLATES: dict[type[Event], dict[str, object] | None] = {}
E = TypeVar("E", bound=Event)


def _template(cls: type[Event]) -> dict[str, object] | None:
    """An event class's fields with their defaults, in field order (``_REQUIRED`` where there is none);
    None for a class that needs its ``__init__`` (a default factory, ``__post_init__``, slots)."""
    if cls not in _TEMPLATES:
        fields = dataclasses.fields(cls)
        plain = not hasattr(cls, "__post_init__") and "__slots__" not in cls.__dict__ and all(
            f.default_factory is dataclasses.MISSING and f.init for f in fields)
        _TEMPLATES[cls] = {f.name: _REQUIRED if f.default is dataclasses.MISSING else f.default
                           for f in fields} if plain else None
    return _TEMPLATES[cls]


def make_event(cls: type[E], fields: Mapping[str, object]) -> E:
    """``cls(**fields)`` for the simulator's hot path: the frozen dataclass's instance dict is set at once
    rather than field by field (an equal object: same fields in the same order, same JSON)."""
    t = _template(cls)
    kw: dict[str, Any] = dict(fields)  # (checked by the event's constructor when it is called)
    if t is None or not kw.keys() <= t.keys():
        return cls(**kw)  # (an unknown field: the constructor's own error)
    d = dict(t)
    d.update(kw)
    if _REQUIRED in d.values():
        return cls(**kw)  # (a required field missing: the constructor's own error)
    ev = object.__new__(cls)
    object.__setattr__(ev, "__dict__", d)
    return ev


class BotOptions(TypedDict, total=False):
    """How bots play hands (``rules.simulate.random_hands``, ``rules.simulate_many.simulate``)."""

    n_players: int
    bot: str
    error_rate: float
    round_wind: str
    hand_number: int
    clock: SimClock
    players: tuple[str, ...]
    options: JSONObject | None
    max_events: int


class HandOptions(BotOptions, total=False):
    """The keyword options of :class:`HandDriver` (and of ``rules.simulate.play_hand``)."""

    dealer: int
    hand_id: str


@dataclass
class HandResult:
    machine: HandMachine
    wall: tuple[Tile, ...]
    deltas: tuple[int, ...]
    next_dealer: int
    winners: tuple[int, ...]
    exhaustive: bool
    violations: tuple[str, ...]

    @property
    def events(self) -> list[Event]:
        return self.machine.log


class HandDriver:
    """Runs one hand: owns the machine, the bots and the clock; :meth:`run` plays it to the end."""

    machine_class: type[HandMachine] = HandMachine

    def _check_deal(self, deal: str) -> None:
        if deal == "siamese":  # 27/28 tiles, two hands per player: rules/siamese_play.py plays them
            raise ValueError(f"{self.profile.name}: two hands per player (003 §Сиамский) are played by "
                             "rules.siamese_play (play_hand dispatches there)")

    def _bot(self, kind: str) -> type:
        return BOTS[kind]

    def __init__(self, profile: RuleSet, rng: random.Random, *, n_players: int = 4, dealer: int = 0,
                 bot: str = "greedy", error_rate: float = 0.0, hand_id: str = "", round_wind: str = "1z",
                 hand_number: int = 0, clock: SimClock | None = None, players: tuple[str, ...] = (),
                 options: JSONObject | None = None, max_events: int = 5000):
        self.profile = profile
        self.rng = rng
        tiles = (options or {}).get("tiles")
        self.spec = profile.wall_spec(n_players, None if tiles is None else str(tiles))
        self._check_deal(self.spec.deal)
        self.dealer = dealer
        self.clock = clock or SimClock()
        self.hand_id = hand_id
        self.wall = _shuffled_wall(self.spec, rng)
        self.machine = self.machine_class(profile, "full", self.wall)
        self.bots: dict[int, Any] = {s: self._bot(bot)(s, profile, random.Random(rng.random()), error_rate) for s in self.spec.seats}
        self.start = HandStarted(profile=profile.name, n_players=n_players, dealer=dealer, round_wind=round_wind,
                                 hand_number=hand_number, seats=players or tuple(f"P{s}" for s in self.spec.seats),
                                 options=dict(options or {}), hand_id=hand_id, **self.clock.stamp())
        self.max_events = max_events

    def _ev(self, cls: type[E], **kw: object) -> E:
        clock = self.clock
        if type(clock) is SimClock:  # SimClock.stamp, inline
            t = clock.t = clock.t + clock.step
            kw["t_mono"] = t
            kw["t_wall"] = WALL_EPOCH + t
        else:
            kw.update(clock.stamp())
        kw["hand_id"] = self.hand_id
        return make_event(cls, kw)

    def submit(self, ev: Event) -> list[Event]:
        out = self.machine.submit(ev)
        return out

    # --- the hand -------------------------------------------------------------------------------------
    def setup(self) -> None:
        m = self.machine
        m.submit(self.start)
        dice = roll_dice(self.rng, self.spec)
        brk = cached_break(self.spec, self.dealer, dice)
        for thrower, d in zip(brk.throwers, dice):
            m.submit(self._ev(DiceRolled, seat=thrower, values=d, purpose="break", source="electronic"))
        m.submit(self._ev(WallBroken, wall_side=brk.side, stack=brk.count, position=0))
        hands: dict[int, list[str]] = {s: [] for s in self.spec.seats}  # rules.wall.deal's hands
        wall = self.wall
        for step in deal_steps(self.spec, self.dealer):
            hands[step.seat].extend([_TXT[wall[p]] for p in step.positions])
        for s in self.spec.seats:
            m.submit(self._ev(Dealt, seat=s, tiles=tuple(hands[s])))
        self._dora(0, "initial")
        if m.phase == Phase.PRE_PLAY:
            self._pre_play()

    def _pre_play(self) -> None:
        m = self.machine
        st = m.state
        order = st.seat_order(self.dealer)
        if self.spec.flowers:  # in turn order from the dealer, until nobody holds a flower (MCR §3.5)
            while any(t.is_flower for s in order for t in st.seat_state[s].tiles()):
                for s in order:
                    flowers = [t for t in st.seat_state[s].tiles() if t.is_flower]
                    for f in flowers:
                        m.submit(self._ev(FlowerDeclared, seat=s, tile=str(f)))
                    for _ in flowers:
                        t = m.draw_tile("replacement")
                        if t is None:
                            return
                        m.submit(self._ev(Drew, seat=s, tile=_TXT[t], source="replacement"))
        if "missing_suit" in self.profile.capabilities.pre_play:
            for s in order:
                m.submit(self._ev(MissingSuitDeclared, seat=s, suit=self.bots[s].missing_suit(st)))

    def step(self) -> bool:
        """One decision of the hand; False when the hand is over."""
        m = self.machine
        st = m.state
        ph = st.phase
        if ph in (Phase.TURN, Phase.PRE_PLAY):
            self._turn(st.current if ph == Phase.TURN else self.dealer)
        elif ph == Phase.DRAW:
            t = m.draw_tile("wall")
            if t is None:
                self._exhaust()
            else:
                m.submit(self._ev(Drew, seat=st.current, tile=_TXT[t], source="wall"))
        elif ph == Phase.REPLACE:
            t = m.draw_tile("replacement")
            if t is None:  # a flower with an empty wall: the hand is drawn (mcr.md A32)
                st.phase = Phase.EXHAUSTED
            else:
                m.submit(self._ev(Drew, seat=st.current, tile=_TXT[t], source="replacement"))
        elif ph in (Phase.CLAIMS, Phase.ROB):
            self._claims()
        elif ph == Phase.EXHAUSTED:
            self._exhaust()
        elif ph == Phase.ENDED:
            self._reveal_all()
            m.submit(self._stamped(m.settlement()))
        elif ph == Phase.SETTLED:
            m.submit(self._stamped(m.hand_end()))
        else:
            return False
        return True

    def _dora(self, i: int, kind: str) -> None:
        """Riichi: turn the i-th indicator of the dead wall face up (the initial one, then one per kan)."""
        if self.spec.replacement != "dead_wall" or i > 4:
            return
        pos = self.machine.state.wall.dora_indicator_positions(i)[i]  # type: ignore[union-attr]
        self.machine.submit(self._ev(DoraRevealed, indicator=_TXT[self.wall[pos]], kind=kind))

    def _exhaust(self) -> None:
        st = self.machine.state
        tenpai = tuple(s for s in st.seats if st.seat_state[s].active and self._ready(s))
        self.machine.submit(self._ev(ExhaustiveDraw, tenpai=tenpai))

    def _stamped(self, ev: Event) -> Event:
        """``ev`` (proposed by the machine) stamped by the clock now."""
        return dataclasses.replace(ev, **self.clock.stamp())

    def _ready(self, seat: int) -> bool:
        ss = self.machine.state.seat_state[seat]
        return bool(self.profile.waits(ss.hand()))

    def _reveal_all(self, force: bool = False) -> None:
        m = self.machine
        st = m.state
        seats: list[int] = []
        for w in st.wins:
            if w.seat not in seats:
                seats.append(w.seat)
        if st.exhaustive or not self.profile.capabilities.reveal_on_win or force:
            extra = [s for s in st.seats if s not in seats and (self.profile.capabilities.reveal_all_at_draw
                                                                  or s in st.tenpai_declared)]
            seats += extra if st.exhaustive else []
        judged = {w.seat for w in st.wins if w.valid is not None}
        for s in seats:
            ss = st.seat_state[s]
            if ss.revealed or (s in judged and not st.exhaustive):
                continue
            win = next((w for w in st.wins if w.seat == s and w.from_seat is None), None)
            m.submit(self._ev(HandRevealed, seat=s, tiles=tuple([_TXT[t] for t in ss.tiles()]),
                              winning=str(win.tile) if win else ""))

    def _turn(self, seat: int) -> None:
        m = self.machine
        st = m.state
        d = self.bots[seat].turn(st, self.spec)
        if d.kind == "win":
            m.submit(self._ev(Won, seat=seat, tile=_TXT[d.tile], from_seat=None,
                              kong_replacement=st.after_kong, last_tile=st.wall_remaining == 0))
            if self.profile.capabilities.reveal_on_win and m.phase == Phase.ENDED:
                self._reveal_all()
        elif d.kind == "flower":
            m.submit(self._ev(FlowerDeclared, seat=seat, tile=_TXT[d.tile]))
        elif d.kind == "kong_concealed":
            kong = [t for t in st.seat_state[seat].tiles() if t.kind == d.tile.kind][:4]
            if m.submit(self._ev(MeldMade, seat=seat, kind="kong_concealed", tiles=tuple([_TXT[t] for t in kong]))
                        )[0].TYPE == "meld_made":
                self._dora(m.state.wall.kongs, "kan")  # type: ignore[union-attr]
        elif d.kind == "kong_added":
            meld = next(x for x in st.seat_state[seat].melds if x.kind.value == "pung" and x.base == d.tile.kind)
            tiles = (*[_TXT[t] for t in meld.tiles], _TXT[d.tile])
            fresh = st.seat_state[seat].drawn == d.tile
            if m.submit(self._ev(MeldMade, seat=seat, kind="kong_added", tiles=tiles, claimed_tile=_TXT[d.tile],
                                 drawn_tile=fresh))[0].TYPE == "meld_made" and m.phase != Phase.ROB:
                self._dora(m.state.wall.kongs, "kan")  # type: ignore[union-attr]
        else:
            out = m.submit(self._ev(Discarded, seat=seat, tile=_TXT[d.tile],
                                    tsumogiri=st.seat_state[seat].drawn == d.tile, riichi=d.riichi))
            if out and out[0].TYPE == "violation":  # a bot bug must not loop forever
                raise RuntimeError(f"bot discard rejected: {out[0]}")

    def _claims(self) -> None:
        m = self.machine
        st = m.state
        robbing = st.phase == Phase.ROB
        assert st.window is not None
        disc, tile = st.window.seat, st.window.tile
        k = tile.kind
        red = RED_OF.get(k)
        order = st.seat_order(disc)
        for s in order[1:]:
            ss = st.seat_state[s]
            if not ss.active:
                continue
            # a quick look first: most seats can do nothing with most discards
            n_same = ss.counts[k] + (ss.counts[red] if red is not None else 0) if k < 34 else 0
            bot = self.bots[s]
            _, sh, wait_kinds = bot.hand_info(ss)
            if n_same < 2 and k not in wait_kinds:
                # a chow helps only a hand that is not ready yet (a ready hand claims only its win), and
                # only one with two tiles that make a chow with the discard
                if not (s == order[1] and k < 27 and self.profile.capabilities.chow_allowed and not robbing and sh > 0):
                    continue
                c = bot.waiting_counts(ss)
                n = k % 9
                if not ((n >= 2 and c[k - 2] and c[k - 1]) or (1 <= n <= 7 and c[k - 1] and c[k + 1])
                        or (n <= 6 and c[k + 1] and c[k + 2])):
                    continue
            opts = claim_options(st, s, tile, disc, self.profile, self.spec, robbing=robbing)
            if not opts:
                continue
            d = self.bots[s].claim(st, tile, disc, opts, robbing=robbing)
            if d.kind == "claim":
                m.submit(self._ev(Claimed, seat=s, kind=d.claim, from_seat=disc, tile=_TXT[tile],
                                  tiles=tuple([_TXT[t] for t in d.tiles])))
        granted = m.arbitrate()
        for ev in granted:
            m.submit(self._stamped(ev))
        if granted and isinstance(granted[0], MeldMade):
            if granted[0].kind == "kong_open":
                self._dora(m.state.wall.kongs, "kan")  # type: ignore[union-attr]
            return
        if granted and self.profile.capabilities.reveal_on_win:
            self._reveal_all()
            if m.phase not in (Phase.CLAIMS, Phase.ROB):
                return
        if robbing and not granted and not m.pending_winners:
            self._dora(m.state.wall.kongs, "kan")  # type: ignore[union-attr]  # the added kan stands (A21)
            t = m.draw_tile("replacement")
            assert t is not None
            m.submit(self._ev(Drew, seat=disc, tile=_TXT[t], source="replacement"))
            return
        nxt = m.next_drawer()
        t = m.draw_tile("wall")
        if nxt is not None and t is not None:
            m.submit(self._ev(Drew, seat=nxt, tile=_TXT[t], source="wall"))
        elif m.pending_winners and m.window_ends_hand():
            self._reveal_all(force=True)  # the reveals close the window
            if m.phase in (Phase.CLAIMS, Phase.ROB):  # nothing left to reveal: the settlement closes it
                m.submit(self._stamped(m.settlement()))
        else:  # the wall is empty: an exhaustive draw (closing the window)
            self._exhaust()

    def run(self) -> HandResult:
        self.setup()
        n = 0
        while self.step():
            n += 1
            if n > self.max_events:
                raise RuntimeError(f"hand {self.hand_id} did not end after {n} steps (phase {self.machine.phase})")
        st = self.machine.state
        deltas = st.settled.deltas if st.settled is not None else (0, 0, 0, 0)
        return HandResult(
            machine=self.machine, wall=self.wall, deltas=tuple(deltas),
            next_dealer=st.next_dealer if st.next_dealer is not None else st.dealer,
            winners=tuple(w.seat for w in st.valid_wins()), exhaustive=st.exhaustive,
            violations=tuple(v.code for v in st.violations),
        )
