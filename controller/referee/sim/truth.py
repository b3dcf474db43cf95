"""The ground truth of a simulated hand: bots play it through a full-information hand machine, as players
at a real table would — and, asked to, commit the faults the referee must catch.

:class:`TableDriver` is the random-game driver (:class:`rules.simulate.HandDriver`) with what a table adds:

* the dice the table threw (the MCU emulator's dice motor), not the driver's own;
* Sichuan WMSG's set-aside tile: each player's first discard is a tile of his missing suit (002 §5.2);
* riichi's ura indicators turned for a riichi winner before his hand is scored (004 Rules 3.3.10);
* faults (:data:`FAULTS`), each at most once a hand, at the first chance after a random number of discards:
  a claim after the window, a chow from the wrong seat, a pung of the missing suit (Sichuan), a furiten ron
  (riichi), a false hu and a discard out of turn. The rule faults go through the truth machine, which
  records the violation as a referee in full information would (a late claim: a claim stamped after the
  window's deadline on the clock); the one it cannot see — a tile put into a pond out of turn and taken
  back — is a physical act (:class:`Act`) with the code it must draw.
"""
from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass, field
from typing import Protocol, Unpack

from controller.referee.variants import missing_suit_from_first_discard
from rules.bots import Decision
from rules.driver import HandDriver, HandOptions, HandResult
from rules.events import Claimed, DoraRevealed
from rules.game.protocols import RuleSet
from rules.game.state import HandState, Phase, SeatState
from rules.notation import Hand
from rules.siamese_play import SiameseDriver
from rules.tiles import Tile
from rules.wall import WallSpec

#: fault -> the violation code the referee must give it.
FAULTS: dict[str, str] = {
    "late_claim": "claim_late",
    "chow_wrong_seat": "chow_not_from_left",
    "missing_suit_pung": "missing_suit_tiles",
    "furiten_ron": "furiten",
    "false_hu": "false_win",
    "out_of_turn": "out_of_turn",
}


def faults_for(profile: RuleSet) -> tuple[str, ...]:
    """The faults a profile can have: chows where chows exist, the missing suit in Sichuan, furiten where
    the profile judges it on a discard (riichi)."""
    out = ["out_of_turn"] if profile.capabilities.two_hands else ["false_hu", "out_of_turn"]  # Siamese bots declare no false hu
    if profile.capabilities.claim_window_s is not None:  # a claim time on the clock (MPL, MCR): the machine times claims
        out.append("late_claim")
    if profile.capabilities.chow_allowed:
        out.append("chow_wrong_seat")
    if "missing_suit" in profile.capabilities.pre_play:
        out.append("missing_suit_pung")
    if profile.capabilities.has_riichi:
        out.append("furiten_ron")
    return tuple(sorted(out))


@dataclass(frozen=True)
class Act:
    """A physical fault the machine cannot see: ``after`` is the log index of the discard it follows."""

    fault: str
    seat: int
    after: int
    tile: str = ""


@dataclass
class Injected:
    fault: str
    seat: int
    code: str
    log_index: int  # the truth log's length when it was committed


class _FixedDice(random.Random):
    """Stands in for the driver's RNG while it throws the dice: the table's throws, in order (only
    ``randint`` is asked: ``rules.wall.roll_dice``)."""

    def __init__(self, dice: tuple[tuple[int, ...], ...]):
        super().__init__(0)
        self._values = [v for pair in dice for v in pair]

    def randint(self, a: int, b: int) -> int:
        return self._values.pop(0)


class _Bot(Protocol):
    """What the table asks of a driver's bot in its turn (``rules.bots``)."""

    @property
    def seat(self) -> int: ...

    def turn(self, state: HandState, spec: WallSpec) -> Decision: ...


class _TableBot:
    """A seat's bot as the driver asks it, with the table's overrides: the WMSG set-aside tile as the
    first discard, and a false hu when the driver says so."""

    def __init__(self, bot: _Bot, driver: TableMixin):
        self._bot = bot
        self._driver = driver

    def __getattr__(self, name: str) -> object:
        return getattr(self._bot, name)

    def turn(self, state: HandState, spec: WallSpec) -> Decision:
        d = self._bot.turn(state, spec)
        drv = self._driver
        seat = self._bot.seat
        ss = state.seat_state[seat]
        if d.kind == "discard" and drv.wmsg and seat not in drv.discarded:
            aside = next((t for t in ss.tiles() if t.suit == ss.missing_suit), None)
            if aside is not None:
                d = Decision("discard", aside)
        if d.kind == "discard" and drv.due("false_hu") and not ss.dead and ss.drawn is not None and (
                seat in drv.discarded):
            drv.commit("false_hu", seat)
            return Decision("win", ss.drawn)
        return d


@dataclass
class FaultPlan:
    faults: tuple[str, ...]
    rng: random.Random
    start: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.start = {f: self.rng.randint(2, 36) for f in self.faults}


class TableMixin(HandDriver):
    """One hand of bots at the table (see the module's docstring), over a driver of the rules engine (the
    plain one, :class:`TableDriver`, or the Siamese one, :class:`SiameseTableDriver`: this class comes first)."""

    def __init__(self, profile: RuleSet, rng: random.Random, *, dice: tuple[tuple[int, ...], ...] | None = None,
                 plan: FaultPlan | None = None, **kw: Unpack[HandOptions]):
        super().__init__(profile, rng, **kw)
        self.dice = dice
        self.plan = plan
        self.wmsg = missing_suit_from_first_discard(profile)  # WMSG: no cards, the set-aside tile shows it
        self.discarded: set[int] = set()
        self.injected: list[Injected] = []
        self.acts: list[Act] = []
        self.done: set[str] = set()
        self.n_discards = 0
        if not profile.capabilities.two_hands:  # (Siamese bots choose a hand and its tiles: they are played as they are)
            self.bots = {s: _TableBot(b, self) for s, b in self.bots.items()}

    def result(self) -> HandResult:
        """The hand as :class:`rules.simulate.HandResult` (after :meth:`run`)."""
        st = self.machine.state
        return HandResult(machine=self.machine, wall=self.wall, deltas=tuple(st.settled.deltas) if st.settled else (),
                          next_dealer=st.next_dealer if st.next_dealer is not None else st.dealer,
                          winners=tuple(w.seat for w in st.valid_wins()), exhaustive=st.exhaustive,
                          violations=tuple(v.code for v in st.violations))

    # --- faults --------------------------------------------------------------------------------------
    def due(self, fault: str) -> bool:
        p = self.plan
        return p is not None and fault in p.faults and fault not in self.done and self.n_discards >= p.start[fault]

    def commit(self, fault: str, seat: int) -> None:
        self.done.add(fault)
        self.injected.append(Injected(fault, seat, FAULTS[fault], len(self.machine.log)))

    # --- the table's dice and ura indicators ----------------------------------------------------------
    def setup(self) -> None:
        if self.dice is None:
            return super().setup()
        rng, self.rng = self.rng, _FixedDice(self.dice)
        try:
            return super().setup()
        finally:
            self.rng = rng

    def _reveal_all(self, force: bool = False) -> None:
        st = self.machine.state
        if self.spec.replacement == "dead_wall" and not any(isinstance(e, DoraRevealed) and e.kind == "ura"
                                                            for e in st.history):
            wall = st.wall  # (dealt: the wall is built)
            if wall is not None and any(st.seat_state[w.seat].riichi and w.valid is None for w in st.wins):
                for pos in wall.ura_indicator_positions(wall.kongs)[:1 + wall.kongs]:
                    self.machine.submit(self._ev(DoraRevealed, indicator=str(self.wall[pos]), kind="ura"))
        super()._reveal_all(force)

    # --- turns and claims ---------------------------------------------------------------------------
    def _turn(self, seat: int) -> None:
        n = len(self.machine.log)
        super()._turn(seat)
        if any(e.TYPE == "discarded" for e in self.machine.log[n:]):
            self.discarded.add(seat)
            self.n_discards += 1

    def _claims(self) -> None:
        m = self.machine
        st = m.state
        if not (st.phase == Phase.CLAIMS and st.window is not None and self.plan is not None):
            return super()._claims()
        self._rule_faults()
        disc = len(m.log) - 1
        while disc > 0 and m.log[disc].TYPE != "discarded":
            disc -= 1
        idle = self._idle_seats()
        n = len(m.log)
        super()._claims()
        if not any(e.TYPE in ("meld_made", "won", "claimed") for e in m.log[n:]):  # the discard passed
            self._physical_faults(disc, idle)
        return None

    def _rule_faults(self) -> None:
        m = self.machine
        st = m.state
        w = st.window
        assert w is not None
        disc, tile = w.seat, w.tile
        order = st.seat_order(disc)
        others = [s for s in order[1:] if st.seat_state[s].active]
        quiet = not any(self._could_claim(s, tile) for s in others) and not (
            self.profile.capabilities.chow_allowed and _chow_tiles(st.seat_state[order[1]], tile))  # nobody will take it
        if self.due("late_claim") and w.deadline is not None and st.wall_remaining > 0 and quiet:
            late = [s for s in others if s != m.next_drawer()]
            if late:  # a call after the window closed: the machine times it by its stamp
                self.commit("late_claim", late[-1])
                ev = self._ev(Claimed, seat=late[-1], kind="pung", from_seat=disc, tile=str(tile))
                m.submit(dataclasses.replace(ev, t_mono=w.deadline + 0.5))
                return
        if self.due("chow_wrong_seat") and tile.kind < 27 and st.wall_remaining > 0:
            for s in others:
                if s == order[1]:
                    continue
                shown = _chow_tiles(st.seat_state[s], tile)
                if shown:
                    self.commit("chow_wrong_seat", s)
                    m.submit(self._ev(Claimed, seat=s, kind="chow", from_seat=disc, tile=str(tile),
                                      tiles=tuple(str(t) for t in shown)))
                    return
        if self.due("missing_suit_pung") and st.wall_remaining > 0:
            for s in others:
                ss = st.seat_state[s]
                same = [t for t in ss.tiles() if t.kind == tile.kind]
                if ss.missing_suit == tile.suit and len(same) >= 2:
                    self.commit("missing_suit_pung", s)
                    m.submit(self._ev(Claimed, seat=s, kind="pung", from_seat=disc, tile=str(tile),
                                      tiles=tuple(str(t) for t in same[:2])))
                    return
        if self.due("furiten_ron"):
            for s in others:
                if self._furiten_win(s, disc, tile):
                    self.commit("furiten_ron", s)
                    m.submit(self._ev(Claimed, seat=s, kind="hu", from_seat=disc, tile=str(tile)))
                    return

    def _could_claim(self, seat: int, tile: Tile) -> bool:
        """Whether ``seat`` might claim ``tile`` in time (a pair of it, or a hand waiting on it)."""
        ss = self.machine.state.seat_state[seat]
        info = getattr(self.bots[seat], "hand_info", None)
        waits = info(ss)[2] if info is not None else range(34)  # (no shortcut: anyone may claim)
        return sum(1 for t in ss.tiles() if t.kind == tile.kind) >= 2 or tile.kind in waits

    def _furiten_win(self, seat: int, disc: int, tile: Tile) -> bool:
        from rules.game.state import WinRecord

        st = self.machine.state
        ss = st.seat_state[seat]
        if ss.dead or ss.won:
            return False
        w = WinRecord(seat, tile, disc)
        hand = Hand(tuple(ss.tiles()), tuple(ss.melds), tile, tuple(ss.flowers))
        try:
            if not self.profile.judge_win(st, seat, hand, w).valid:
                return False
        except ValueError:
            return False
        return bool(self.profile.is_furiten(st, seat, hand, w))

    def _idle_seats(self) -> list[tuple[int, str]]:
        """Seats that neither discarded nor draw next, with a tile each holds (before the claims); at a table
        of two (Siamese MCR, Red for two) no seat is idle, and the discarder is the one who may lay a second tile
        out of turn while the other is to draw."""
        m = self.machine
        st = m.state
        assert st.window is not None
        disc = st.window.seat
        nxt = m.next_drawer()
        if st.wall_remaining == 0:
            return []
        playing = [s for s in st.seat_order(disc) if st.seat_state[s].active and st.seat_state[s].tiles()]
        idle = [s for s in playing if s not in (disc, nxt)]
        if not idle and len(st.seat_state) == 2 == len(playing):
            idle = [disc]
        return [(s, str(st.seat_state[s].tiles()[-1])) for s in idle]

    def _physical_faults(self, after: int, idle: list[tuple[int, str]]) -> None:
        """A tile put into a pond out of turn (and taken back), while the discard at ``after`` was on offer
        and nobody claimed it."""
        if not idle:
            return
        seat, tile = idle[-1]
        if self.due("out_of_turn"):
            self.commit("out_of_turn", seat)
            self.acts.append(Act("out_of_turn", seat, after, tile))


class TableDriver(TableMixin, HandDriver):
    pass


class SiameseTableDriver(TableMixin, SiameseDriver):
    pass


def driver_for(profile: RuleSet) -> type[TableMixin]:
    """The table's driver for ``profile`` (two hands per player: the Siamese one)."""
    return SiameseTableDriver if profile.capabilities.two_hands else TableDriver


def _chow_tiles(ss: SeatState, tile: Tile) -> tuple[Tile, ...]:
    """Two tiles of ``ss``'s hand that make a chow with ``tile`` (empty when none do)."""
    k = tile.kind
    n = k % 9
    held = {t.kind: t for t in ss.tiles()}
    for a, b in ((k - 2, k - 1), (k - 1, k + 1), (k + 1, k + 2)):
        if 0 <= a and b < 27 and a // 9 == k // 9 == b // 9 and a in held and b in held and 0 <= n:
            return held[a], held[b]
    return ()
