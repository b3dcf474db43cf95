"""The referee: follows a hand from what the camera and the call buttons report, and judges it as it goes.

    ref = Referee("riichi-ema2016")
    for ev in inputs:               # hand_started, dice, camera observations, button presses, answers, ...
        for out in ref.feed(ev):    # game events, violations, questions, claim timings, the confirmation
            ...
    ref.tick(t_mono)                # time passed with nothing seen: a claim window or the reveals may end

Pure and synchronous: no I/O, no clock of its own — every decision is timed by the inputs' ``t_mono`` on
the table's shared monotonic clock, so the referee is a function of its inputs (:attr:`Referee.record`) and
a judge's correction simply replays the corrected record. It drives a hand machine in ``table`` mode
(:mod:`rules.game`: concealed tiles, the wall and self-drawn tiles are unknown until revealed) through its
public API only, and adds what only the table sees: when a claim came, a discard out of turn.

How observations become the hand (the translation table, one handler per input type, :data:`HANDLERS`):

* the dice (``dice_rolled``) → the break from the wall model, the deal (``x`` tiles, the profile's counts);
* a new tile in seat k's pond → seat k's discard, preceded by the draw the phase implies (a wall draw, a
  kong's or a flower's replacement); a sideways discard is riichi's declaration;
* a call button (``button_pressed`` ``call``) → a claim on the discard on offer, timed from the frame in
  which the discard settled; a ``hu`` in one's own turn → a self-drawn win;
* a tile leaving a pond and a set appearing in seat j's meld area → seat j's claim and the granted set, its
  source from the open claim window (and the sideways tile where the profile turns it); a concealed or an
  added kong in the player's own turn; a flower set aside → the flower and its replacement;
* a missing-suit card (Sichuan MPL) → the declaration; a hu card → the seat has won;
* a hand laid face up → ``hand_revealed`` (a self-drawn winning tile is the one shown apart, at the right
  end); at an exhaustive draw the hands shown are the ready hands;
* riichi's dead-wall indicators (``indicator_seen``) → ``dora_revealed``.

It never guesses: an unreadable tile or an observation that contradicts the record becomes a question
(:class:`~rules.events.QuestionAsked`); the inputs that follow wait until the answer
(:class:`~rules.events.QuestionAnswered`) comes. Once every hand that must be shown is shown the hand is
settled and waits for its confirmation (every seat's call button, or the judge).
"""
from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from controller.referee.verdicts import CALL_WAIT_S, DRAWN_TILE_PAID, english, referee_rule, russian
from rules.events import (
    ButtonPressed,
    CardSeen,
    Claimed,
    ClaimTimed,
    CorrectionApplied,
    Dealt,
    DiceRead,
    DiceRolled,
    Discarded,
    DoraRevealed,
    Drew,
    Event,
    ExhaustiveDraw,
    FlowerDeclared,
    FlowerSeen,
    GameEvent,
    HandDead,
    HandRevealed,
    HandStarted,
    IndicatorSeen,
    JudgeCorrection,
    MeldMade,
    MeldSeen,
    MissingSuitDeclared,
    PondTileRemoved,
    PondTileSeen,
    QuestionAnswered,
    QuestionAsked,
    RackCounted,
    RefereeTick,
    ResultConfirmed,
    StickSeen,
    TilesRevealed,
    Violation,
    WallBroken,
    Won,
    relative_source,
)
from rules.game.machine import HandMachine, replay
from rules.game.machines import machine_for
from rules.game.setup import cached_break
from rules.game.state import Phase
from rules.game.violations import violation
from rules.notation import Hand
from rules.tiles import TILES
from rules.wall import deal_steps, tile_set

TILE_TEXTS = frozenset(str(t) for t in TILES) - {"x"}
NO_TILE = "none"  # the camera's reader: no tile where the finder cut one (bare cloth)
CLAIM_OF_MELD = {"chow": "chow", "pung": "pung", "kong_open": "kong"}
CLAIM_CALLS = ("chow", "pung", "kong", "hu")
SET_OF_CALL = {"chow": "chow", "pung": "pung", "kong": "kong_open"}  # the set a claim's call makes
EARLY_PRESS_S = 0.8
PANELS = {"call": 0, "call2": 1}  # a seat's call panels: the hand they name (Siamese: the second hand's)
POND_SETTLE_S = 2.5  # a pond unlike the record for this long is asked about
RACK_SETTLE_S = 3.0  # a rack with the wrong count for this long (while its owner waits) is a wrong tile count
#: an unreadable new pond tile is asked about once it stayed so this long: an arm over it moves on, a blurred
#: frame is followed by a sharp one (the camera films on at 10 frames a second)
UNREAD_WAIT_S = 0.5
TICK_S = 0.2  # the table service ticks the referee this often while nothing is seen (what became due is acted on)


@dataclass
class PondEntry:
    tile: str
    accepted: bool  # False: put there out of turn or refused; expected to be taken back


@dataclass
class Window:
    """The claim window of the discard (or the added kong) on offer."""

    discarder: int
    tile: str
    t_open: float
    deadline: float
    rob: bool = False
    presses: dict[int, tuple[str, float]] = field(default_factory=dict)  # seat -> (call, time) of its claim
    calls: set[tuple[int, str]] = field(default_factory=set)  # (seat, call) pressed on it
    hu: list[int] = field(default_factory=list)  # seats whose hu claim the machine accepted
    taken: float | None = None  # the tile left the pond (a claim or a win took it)
    late: set[int] = field(default_factory=set)  # seats whose call on it came after its window closed
    stands: set[int] = field(default_factory=set)  # seats whose late set the judge let stand
    slots: dict[int, int] = field(default_factory=dict)  # seat -> the hand its call named (Siamese)

    def to_json(self) -> dict[str, Any]:
        return {"discarder": self.discarder, "tile": self.tile, "t_open": self.t_open, "deadline": self.deadline,
                "rob": self.rob, "claims": {str(s): c for s, (c, _) in self.presses.items()}}


@dataclass
class OpenQuestion:
    event: QuestionAsked
    resume: Callable[[str], None]


def replay_machine(profile: Any, log: list[Event]) -> HandMachine:
    """A table-mode machine rebuilt from a (completed) log."""
    return replay(profile, log, "table", machine=machine_for(profile))


def seat_from_source(seat: int, source: str, seats: tuple[int, ...], n_players: int) -> int | None:
    """The seat a meld's claimed tile came from, given its relative ``source`` as the camera reads it."""
    for s in seats:
        if s != seat and relative_source(seat, s, n_players) == source:
            return s
    return None


class Referee:
    """One hand, refereed from observations. ``profile``: a registry name or a profile object;
    ``wait_s``: how long to wait for further calls before a win on a discard is granted where the profile
    sets no claim time (:data:`verdicts.CALL_WAIT_S`; where it does, the hand machine's claim window);
    ``reveal_wait_s``: after an exhaustive draw, how long after the last hand shown the others count as
    not ready (riichi shows only ready hands)."""

    def __init__(self, profile: Any, *, wait_s: float | None = None, reveal_wait_s: float = 4.0):
        if isinstance(profile, str):
            from rules.profiles import registry

            profile = registry.get(profile)
        self.profile = profile
        self.name: str = profile.name
        from vision.conventions import conventions

        self.conv = conventions(self.name)
        self.wait_s = wait_s or CALL_WAIT_S
        self.reveal_wait_s = reveal_wait_s
        self.inputs: list[Event] = []  # everything fed, corrections included
        self.record: list[Event] = []  # the inputs the hand is derived from (corrections applied)
        self.revision = 0
        self.corrections: list[CorrectionApplied] = []
        # presses that signed a result a judge's correction then changed: they no longer sign (the seats sign
        # the changed result again, or the judge does)
        self.withdrawn: list[Event] = []
        self._reset()

    # ------------------------------------------------------------------------------------------------
    # public API

    def feed(self, ev: Event) -> list[Event]:
        """One input: returns what the referee concluded from it (possibly nothing, or a question)."""
        self.inputs.append(ev)
        if isinstance(ev, JudgeCorrection):
            return self._correct(ev)
        self.record.append(ev)
        return self._process(ev)

    def tick(self, t_mono: float) -> list[Event]:
        """Time passed to ``t_mono`` with nothing seen: act on what is due (recorded as an input)."""
        if self.open_question is not None or not self._due_before(t_mono):
            return []
        return self.feed(RefereeTick(t_mono=t_mono, hand_id=self.hand_id))

    def due(self, t_mono: float) -> bool:
        """Whether something becomes due by ``t_mono`` (a claim window closing, the reveals ending, a pond
        or a rack that stayed unlike the record): then a tick at that time is an input."""
        return self._due_before(t_mono)

    def final_length(self) -> int:
        """How much of :attr:`game_log` is final: an event the camera may still complete (a concealed kong
        laid face down, the source of an added kong's tile) and all after it are not yet."""
        log = self.machine.log
        open_at = [i for i in self.kong_rack.values()]
        for i, e in enumerate(log):
            if isinstance(e, MeldMade) and e.kind == "kong_concealed" and "x" in e.tiles:
                open_at.append(i)
        return min(open_at, default=len(log))

    @property
    def phase(self) -> str:
        return self.machine.phase

    @property
    def settled(self) -> bool:
        return self.machine.state.settled is not None

    @property
    def confirmed(self) -> ResultConfirmed | None:
        return self._confirmed

    @property
    def game_log(self) -> list[Event]:
        """The hand machine's log: the hand as the referee followed it (the record of this revision)."""
        return self.machine.log

    def violations(self) -> list[Violation]:
        return [e for e in self.outputs if isinstance(e, Violation)]

    def questions(self) -> list[QuestionAsked]:
        return [e for e in self.outputs if isinstance(e, QuestionAsked)]

    def result(self) -> dict[str, Any]:
        """The hand's result (once settled): deltas, payments, winners, next dealer, verdicts, questions."""
        st = self.machine.state
        settled = st.settled
        return {
            "source": "referee",
            "profile": self.name,
            "deltas": list(settled.deltas) if settled is not None else [],
            "payments": [dict(p) for p in settled.payments] if settled is not None else [],
            "winners": [w.seat for w in st.valid_wins()],
            "exhaustive": st.exhaustive,
            "next_dealer": st.next_dealer if st.next_dealer is not None else st.dealer,
            "violations": [{"seat": v.seat, "code": v.code, "rule": v.rule} for v in self.violations()],
            "questions": len(self.questions()),
            "revision": self.revision,
            "confirmed_by": self._confirmed.by if self._confirmed is not None else None,
            "next_options": dict(self.profile.next_hand_options(st)) if settled is not None else {},
            "events": len(self.machine.log),
        }

    # ------------------------------------------------------------------------------------------------
    # state

    def _reset(self) -> None:
        self.machine = machine_for(self.profile)(self.profile, "table")
        self.hand_id = ""
        self.outputs: list[Event] = []
        self._out: list[Event] = []
        self.window: Window | None = None
        self.early: list[ButtonPressed] = []
        self.ponds: dict[int, list[PondEntry]] = {}
        self.melds: dict[int, list[tuple[str, tuple[str, ...]]]] = {}
        self.flowers: dict[int, list[str]] = {}
        self.taken: dict[int, list[str]] = {}  # claimed tiles whose leaving the pond is still to be seen
        self.seen: dict[int, list[str]] = {}  # each pond as the camera shows it
        self.pond_odd: dict[int, float] = {}  # seat -> since when its pond is unlike the record
        self.phantoms: dict[int, int] = {}  # seat -> unreadable "tiles" in its pond the operator said are none
        self.named: dict[int, set[int]] = {}  # seat -> places in its pond of unreadable tiles the operator named
        self.unread: dict[int, PondTileSeen] = {}  # seat -> an unreadable new pond tile, asked once its frame is read
        self.unread_reveals: dict[int, TilesRevealed] = {}  # unreadable "hands" shown when none was due
        self.reveal_due: dict[int, float] = {}  # seat -> since when its hand is due while only that was seen
        self.revealed: dict[int, tuple[str, ...]] = {}
        self.held: list[TilesRevealed] = []  # reveals waiting for the claim window or the ura indicators
        self.exhausting_since: float | None = None
        self.indicators: list[str] = []  # dora indicators seen, in order
        self.held_indicators: list[IndicatorSeen] = []
        self.ura: list[str] = []
        self.open_question: OpenQuestion | None = None
        self.waiting: list[Event] = []
        self.confirm_seats: set[int] = set()
        self._confirmed: ResultConfirmed | None = None
        self.hu_cards: dict[int, str] = {}
        self.shown_wins: dict[int, Won] = {}  # Siamese: wins waiting for their hand to be laid face up
        self.rack_wins: dict[int, Won] = {}  # Siamese: self-drawn wins waiting for the rack (drawn tile kept?)
        self.wmsg_suits: dict[int, str] = {}
        self.wmsg_next: int | None = None  # while the suits are face down: who discards next
        self.wmsg_card: set[int] = set()
        self.wmsg_out: set[int] = set()  # seats with a judge's card face down (no tile of the suit)
        self._qid = 0
        self._at: Event | None = None
        self.rack: dict[int, int] = {}
        self.rack_odd: dict[int, float] = {}  # seat -> since when its rack holds the wrong count
        self.rack_flagged: set[int] = set()
        self.copies_ok = False
        self.kong_rack: dict[int, int] = {}  # seat -> log index of an added kong waiting for the rack count

    @property
    def _st(self):
        return self.machine.state

    def _seats(self) -> tuple[int, ...]:
        return tuple(self._st.seats)

    # ------------------------------------------------------------------------------------------------
    # processing

    def _process(self, ev: Event) -> list[Event]:
        self._out = []
        if self._blocked(ev):
            self.waiting.append(ev)  # the hand waits (for an answer, for what the table has not shown yet)
            self._learn_wmsg(ev)
        else:
            self._handle(ev)
        self._drain()
        out = self._out
        self.outputs.extend(out)
        self._out = []
        return out

    def _handle(self, ev: Event) -> None:
        self._at = ev
        if self.rack_wins and not isinstance(ev, RackCounted):  # play goes on: the rack was not seen
            for seat in sorted(self.rack_wins):
                self._submit(self.rack_wins.pop(seat))
        self._due(ev.t_mono)
        if isinstance(ev, RefereeTick):
            for seat in self._stale_reveals(ev.t_mono):
                self.reveal_due.pop(seat, None)
                return self._ask_tile(self.unread_reveals.pop(seat), "hand", None)
        if self._unread_due(ev.t_mono):
            self._ask_unread()
            if self.open_question is not None:
                self.waiting.insert(0, ev)
                return
        handler = HANDLERS.get(type(ev))
        if handler is not None:
            handler(self, ev)

    def _drain(self) -> None:
        while self.waiting and not self._blocked(self.waiting[0]):
            self._handle(self.waiting.pop(0))

    def _blocked(self, ev: Event) -> bool:
        if isinstance(ev, QuestionAnswered):
            return False
        if self.open_question is not None:
            return True
        if self.unread and isinstance(ev, AFTER_THE_DISCARD):
            return True  # a call or a set is about the discard not read yet: it waits for that tile
        return self._suits_pending() and isinstance(ev, PLAY_INPUTS)

    # --- Sichuan WMSG: the missing suit shows with each player's first discard (002 §5.2-5.3) --------
    def _suits_pending(self) -> bool:
        st = self._st
        return (st.phase == Phase.PRE_PLAY and "missing_suit" in self.profile.capabilities.pre_play
                and not self.conv.missing_suit_cards and any(st.seat_state[s].missing_suit is None for s in st.seats))

    def _learn_wmsg(self, ev: Event) -> None:
        """While the suits are face down, each seat's first discard (its set-aside tile) names its suit;
        once all are known they are declared and the held play goes through."""
        st = self._st
        if not self._suits_pending():
            return
        if self.wmsg_next is None:
            self.wmsg_next = st.dealer
        seat = getattr(ev, "seat", None)
        if isinstance(ev, MeldSeen) and ev.kind in CLAIM_OF_MELD:
            self.wmsg_next = seat  # a claim: the claimant discards next
        if seat is None or seat not in st.seat_state:
            return
        if isinstance(ev, ButtonPressed) and ev.call == "hu" and ev.button == "call":
            self.wmsg_out.add(seat)  # a hu: the player leaves (blood battle), the next one plays on
            self.wmsg_next = self._wmsg_after(seat)
        if isinstance(ev, PondTileSeen):
            if seat != self.wmsg_next:
                return  # out of turn: not the set-aside tile
            self.wmsg_next = self._wmsg_after(seat)
            if seat in self.wmsg_suits or ev.index != 0 or seat in self.wmsg_card:
                return
            if ev.tile not in TILE_TEXTS:
                self._at = ev
                self.wmsg_next = seat
                self._ask_tile(ev, "pond", ev.index)
                return
            if ev.tile[-1] not in "mps":
                self._ask_suit(seat)
                return
            self.wmsg_suits[seat] = ev.tile[-1]
            self._declare_suits()
        elif seat not in self.wmsg_suits and ((isinstance(ev, ButtonPressed) and ev.call == "hu")
                                              or isinstance(ev, TilesRevealed)):
            self._ask_suit(seat)  # a win before the first discard: the set-aside tile is not shown
        # (a kong before it: the first discard follows its replacement draw, and names the suit)

    def _wmsg_after(self, seat: int) -> int:
        order = self._st.seat_order(seat)
        return next((s for s in order[1:] if s not in self.wmsg_out), seat)

    def _declare_suits(self) -> None:
        st = self._st
        if st.phase != Phase.PRE_PLAY or not all(s in self.wmsg_suits or st.seat_state[s].missing_suit
                                                 for s in st.seats):
            return
        for s in st.seats:
            if st.seat_state[s].missing_suit is None:
                self._submit(MissingSuitDeclared(seat=s, suit=self.wmsg_suits[s]))

    def _ask_suit(self, seat: int) -> None:
        def resume(answer: str) -> None:
            if answer not in ("m", "p", "s"):
                return self._ask_suit(seat)
            self.wmsg_suits[seat] = answer
            self._declare_suits()
            return None

        self._ask("missing_suit", seat, {"seat": seat}, ("m", "p", "s"),
                  f"seat {seat}'s missing suit is not on the table: which is it?",
                  "запрещённая масть игрока не видна: какая?", resume)

    def _emit(self, ev: Event) -> None:
        self._out.append(ev)

    def _stamp(self) -> dict[str, Any]:
        at = self._at
        return {"t_mono": at.t_mono, "t_wall": at.t_wall, "hand_id": self.hand_id} if at else {"hand_id": self.hand_id}

    def _submit(self, ev: GameEvent, at: float | None = None) -> list[Event]:
        """Submit a game event to the hand machine, stamped with the input that led to it (``at``: the moment
        it happened, when earlier: a claim is timed by its button)."""
        stamp = self._stamp()
        if at is not None:
            stamp["t_mono"] = at
        ev = dataclasses.replace(ev, **stamp)
        out = self.machine.submit(ev)
        self._out.extend(out)
        return out

    @staticmethod
    def _refused(out: list[Event]) -> bool:
        return bool(out) and isinstance(out[0], Violation)

    def _flag(self, code: str, seat: int | None, message: str = "") -> Violation:
        """A verdict of the referee's own (not the machine's): timing, out-of-turn discards, rack counts."""
        rule = referee_rule(self.name, code, self.profile.violation_rules)
        v = violation(code, seat, message, rule=rule, at=self._at, hand_id=self.hand_id)
        self._emit(v)
        return v

    def _ask(self, kind: str, seat: int | None, subject: dict[str, Any], choices: tuple[str, ...],
             en: str, ru: str, resume: Callable[[str], None]) -> None:
        q = QuestionAsked(question_id=self._qid, kind=kind, seat=seat, subject=subject, choices=choices,
                          message=en, message_ru=ru, **self._stamp())
        self._qid += 1
        self.open_question = OpenQuestion(q, resume)
        self._emit(q)

    # --- time ---------------------------------------------------------------------------------------
    def _due_before(self, t: float) -> bool:
        w = self.window
        if w is not None and t > w.deadline and (w.hu or self.held or (self._st.wall_remaining == 0 and not w.rob)):
            return True
        if self.exhausting_since is not None and t > self.exhausting_since + self.reveal_wait_s:
            return True
        if self._unread_due(t):  # an unreadable new tile: still so
            return True
        if self._stale_reveals(t):
            return True
        return any(t - since >= POND_SETTLE_S for since in self.pond_odd.values()) or any(
            t - since >= RACK_SETTLE_S for since in self.rack_odd.values())

    def _due(self, t: float) -> None:
        """Act on what the passing of time decided before ``t``: a claim window whose deadline passed
        (its wins are granted), the reveals after an exhaustive draw."""
        w = self.window
        if w is not None and t > w.deadline:
            if w.hu:
                self._close_window()
            if self.exhausting_since is None and self._wall_done():
                self.exhausting_since = w.deadline  # the last discard passed: the wall is exhausted
        if self.exhausting_since is not None and t > self.exhausting_since + self.reveal_wait_s:
            self._finish_exhaustion()
        self._release_held()
        self._odd_ponds(t)
        self._odd_racks(t)

    # --- setup --------------------------------------------------------------------------------------
    def _on_start(self, ev: HandStarted) -> None:
        self.hand_id = ev.hand_id
        out = self._submit(ev)
        if self._refused(out):
            return
        for s in self._seats():
            self.ponds[s], self.melds[s], self.flowers[s], self.taken[s], self.seen[s] = [], [], [], [], []

    def _on_dice(self, ev: DiceRolled) -> None:
        if self._refused(self._submit(ev)):
            return
        spec = self.machine.spec
        st = self._st
        if spec is None or len(st.dice) != spec.throws:
            return
        brk = cached_break(spec, st.dealer, tuple(tuple(d) for d in st.dice))
        self._submit(WallBroken(wall_side=brk.side, stack=brk.count, position=0))
        counts: dict[int, int] = {s: 0 for s in spec.seats}
        for step in deal_steps(spec, st.dealer):
            counts[step.seat] += len(step.positions)
        for s in spec.seats:
            self._submit(Dealt(seat=s, tiles=("x",) * counts[s]))

    def _on_indicator(self, ev: IndicatorSeen) -> None:
        if ev.tile not in TILE_TEXTS:
            return self._ask_tile(ev, "indicator", ev.index)
        if ev.kind == "ura":
            if ev.index >= len(self.ura):
                self.ura.append(ev.tile)
                self._submit(DoraRevealed(indicator=ev.tile, kind="ura"))
            return None
        if ev.index < len(self.indicators):
            return None  # seen already
        self.held_indicators.append(ev)
        self._release_indicators()
        return None

    def _release_indicators(self) -> None:
        """Kan indicators are turned after their kan: one waits until the record has the kan."""
        while self.held_indicators:
            ev = self.held_indicators[0]
            if ev.index != len(self.indicators):
                self.held_indicators.pop(0)
                continue
            kongs = self._st.wall.kongs if self._st.wall is not None else 0
            if ev.index > kongs or self._st.phase == Phase.SETUP:
                return
            self.held_indicators.pop(0)
            out = self._submit(DoraRevealed(indicator=ev.tile, kind="initial" if ev.index == 0 else "kan"))
            if not self._refused(out):
                self.indicators.append(ev.tile)

    def _on_card(self, ev: CardSeen) -> None:
        st = self._st
        if ev.card in ("m", "p", "s"):
            ss = st.seat_state.get(ev.seat)
            if ss is None or ss.missing_suit is not None:
                return
            if st.phase == Phase.PRE_PLAY and self.conv.missing_suit_cards:
                self._submit(MissingSuitDeclared(seat=ev.seat, suit=ev.card))
            elif st.phase == Phase.PRE_PLAY:  # WMSG: the judge's card for a hand without the suit (002 §5.3)
                self.wmsg_suits[ev.seat] = ev.card
                self._declare_suits()
            return
        if ev.card == "x" and self._st.phase == Phase.PRE_PLAY:
            self.wmsg_card.add(ev.seat)  # a judge's card face down: the first discard does not name the suit
            return
        if ev.card in ("1", "2", "3") and ev.seat not in self.hu_cards:
            self.hu_cards[ev.seat] = ev.card  # the winner took the lowest hu card (Sichuan MPL)

    # --- the turn -----------------------------------------------------------------------------------
    def _bring_turn(self, seat: int) -> bool:
        """Make it ``seat``'s turn by the draw the record implies (unseen: face down); False when it is not
        that seat's turn."""
        m = self.machine
        st = m.state
        if st.phase == Phase.PRE_PLAY:
            return seat == st.dealer
        if st.phase in (Phase.CLAIMS, Phase.ROB):
            self._close_window()
            if st.phase == Phase.ROB and not m.pending_winners:  # nobody robbed: the kong's replacement
                if st.window is None or seat != st.window.seat:
                    return False
                self.window = None
                return not self._refused(self._submit(Drew(seat=seat, tile="x", source="replacement")))
            if st.phase in (Phase.CLAIMS, Phase.ROB):  # a discard passed, or wins on it: the next draws
                if m.next_drawer() != seat:
                    return False
                self.window = None
                return not self._refused(self._submit(Drew(seat=seat, tile="x", source="wall")))
        if st.phase == Phase.DRAW and st.current == seat:
            return not self._refused(self._submit(Drew(seat=seat, tile="x", source="wall")))
        if st.phase == Phase.REPLACE and st.current == seat:
            return not self._refused(self._submit(Drew(seat=seat, tile="x", source="replacement")))
        return st.phase == Phase.TURN and st.current == seat

    def _open_window(self, seat: int, tile: str, t: float, rob: bool = False) -> None:
        mw = self._st.window
        deadline = mw.deadline if mw is not None and mw.deadline is not None else t + self.wait_s
        w = Window(seat, tile, t, deadline, rob=rob)
        self.window = w
        early, self.early = self.early, []
        for press in early:  # calls pressed while the discard was being laid
            if press.t_mono >= t - EARLY_PRESS_S and press.seat != seat:
                self._claim_press(press)

    def _close_window(self) -> None:
        """The claim window closes: its accepted hu claims become wins (the profile's arbitration)."""
        w = self.window
        if w is None or not w.hu:
            return
        w.hu = []
        for won in self.machine.arbitrate():
            if isinstance(won, Won) and self.profile.capabilities.two_hands:  # judged with the hand it shows (Siamese)
                self.shown_wins[won.seat] = dataclasses.replace(won, slot=w.slots.get(won.seat, 0))
            elif isinstance(won, Won):
                self._submit(won)
        if not w.rob:
            self._won_discard(w.discarder)

    def _won_discard(self, seat: int) -> None:
        """A win on ``seat``'s last discard: the winner took it (gone from the pond once the camera saw it go)."""
        rec = self.ponds.get(seat)
        seen = self._real_seen(seat) if seat in self.seen else None
        if rec and seen is not None and len(seen) < len(rec) and self._won_on(seat, rec[-1].tile):
            rec.pop()
            self.pond_odd.pop(seat, None)

    # --- discards -----------------------------------------------------------------------------------
    # Each pond as the camera shows it (``seen``) is reconciled with the tiles the record says lie there
    # (``ponds``): one tile more at the end is a discard; the last one gone is a claim or a win taking it
    # (or a tile put down out of turn taken back); anything else is left to settle — a re-read that
    # shuffles and restores a row changes nothing — and asked about if it stays.
    def _on_pond_seen(self, ev: PondTileSeen) -> None:
        seen = self.seen.get(ev.seat)
        if seen is None:
            return None
        if ev.index < len(seen):
            # an unreadable tile the operator named keeps the name (a stain read later is no evidence against it)
            named = ev.index in self.named.get(ev.seat, ()) and ev.tile in TILE_TEXTS
            seen[ev.index] = seen[ev.index] if named else ev.tile
        else:
            seen.extend(["?"] * (ev.index - len(seen)))
            seen.append(ev.tile)
        self._reconcile_pond(ev.seat, ev)
        return None

    def _same_pond(self, seen: list[str], tiles: list[str]) -> bool:
        """The camera's pond is the record's (an unreadable tile matches the tile the record has there; a free
        layout has no order)."""
        if len(seen) != len(tiles):
            return False
        if self.conv.pond_layout == "rows6":
            return all(a == b or a not in TILE_TEXTS for a, b in zip(seen, tiles))
        left = Counter(tiles)
        left.subtract(t for t in seen if t in TILE_TEXTS)
        return all(n >= 0 for n in left.values())

    def _on_pond_removed(self, ev: PondTileRemoved) -> None:
        seen = self.seen.get(ev.seat)
        if not seen:
            return
        # an unreadable tile gone: the one at that place (it may have been answered meanwhile: the record
        # knows its face, the camera still does not)
        answered = ev.tile not in TILE_TEXTS and ev.index < len(seen)
        i = ev.index if ev.index < len(seen) and (seen[ev.index] == ev.tile or answered) else (
            max((k for k, t in enumerate(seen) if t == ev.tile), default=min(ev.index, len(seen) - 1)))
        seen.pop(i)
        self.named[ev.seat] = {k for k in self.named.get(ev.seat, ()) if k < i} | {
            k - 1 for k in self.named.get(ev.seat, ()) if k > i}
        if ev.tile not in TILE_TEXTS and self.phantoms.get(ev.seat) and not any(t not in TILE_TEXTS for t in seen):
            self.phantoms[ev.seat] -= 1  # the tile that was none is gone from the camera's view too
        self._reconcile_pond(ev.seat, ev)

    def _real_seen(self, seat: int, keep: int | None = None) -> list[str]:
        """The camera's pond less the unreadable entries the operator said are no tile (a detection of
        something that is not a tile: a reflection, two touching tiles found as three), less what the reader
        calls no tile (:data:`NO_TILE`), and less an unreadable
        new tile waiting for the rest of its frame; ``keep``: the index of the entry just seen, never one of
        them."""
        seen, n = self.seen[seat], self.phantoms.get(seat, 0)
        u = self.unread.get(seat)
        aside = u.index if u is not None and u.index != keep else None  # (asked once its frame is read)
        if not n and (aside is None or aside >= len(seen) or seen[aside] in TILE_TEXTS) and NO_TILE not in seen:
            return seen
        out = []
        for i, t in enumerate(seen):
            if t == NO_TILE:  # the reader says: bare cloth, no tile
                continue
            if t not in TILE_TEXTS and i != keep and (n or i == aside):
                n -= 0 if i == aside else 1
                continue
            out.append(t)
        return out

    def _reconcile_pond(self, seat: int, ev: Event) -> None:
        new = isinstance(ev, PondTileSeen) and ev.tile != NO_TILE and ev.index == len(self.seen[seat]) - 1
        seen = self._real_seen(seat, keep=ev.index if new else None)  # type: ignore[attr-defined]
        rec = self.ponds[seat]
        tiles = [e.tile for e in rec]
        if self._same_pond(seen, tiles):
            self.pond_odd.pop(seat, None)
            return
        if self.conv.pond_layout != "rows6" and isinstance(ev, PondTileSeen) and len(seen) == len(tiles) + 1:
            # a free pond has no order: one readable tile more than the record, wherever the camera sorts it
            # (a tile nudged out of line reads in another place), is the discard
            read = Counter(t for t in seen if t in TILE_TEXTS)
            extra, missing = read - Counter(tiles), Counter(tiles) - read
            if sum(extra.values()) == 1 and sum(missing.values()) == sum(1 for t in seen if t not in TILE_TEXTS):
                t = next(iter(extra))
                self.pond_odd.pop(seat, None)
                at = max(i for i, x in enumerate(self.seen[seat]) if x == t)
                return self._discard(dataclasses.replace(ev, tile=t, index=at))
        if new and len(seen) == len(tiles) + 1 and self._same_pond(seen[:-1], tiles):
            self.pond_odd.pop(seat, None)
            if ev.tile not in TILE_TEXTS:
                # asked once it stayed unreadable a while (UNREAD_WAIT_S; a free pond: a tile read there
                # meanwhile may be the discard, this one no tile at all)
                self.unread[seat] = ev  # type: ignore[assignment]
                return None
            u = self.unread.get(seat)
            if u is not None and u.index == ev.index:  # read at last (the arm moved on): laid when first seen
                del self.unread[seat]
                ev = dataclasses.replace(ev, t_mono=u.t_mono, t_wall=u.t_wall, frame=u.frame)  # type: ignore[assignment]
            return self._discard(ev)  # type: ignore[arg-type]
        n = len(tiles)
        if (self.conv.pond_layout == "rows6" and isinstance(ev, PondTileSeen) and ev.index == n and len(seen) > n + 1
                and self._same_pond(seen[:n], tiles) and seen[n] in TILE_TEXTS
                and all(t not in TILE_TEXTS for t in seen[n + 1:])):
            self.pond_odd[seat] = ev.t_mono  # (an answer: the rest is asked in turn)
            return self._discard(ev)
        if len(seen) == len(tiles) - 1 and self._same_pond(seen, tiles[:-1]):
            if self._pond_lost_last(seat, ev.t_mono):
                self.pond_odd.pop(seat, None)
                return None
        self.pond_odd.setdefault(seat, ev.t_mono)  # left to settle: asked about if it stays
        return None

    def _unread_due(self, t: float) -> bool:
        return any(t - u.t_mono >= UNREAD_WAIT_S for u in self.unread.values())

    def _ask_unread(self) -> None:
        """The unreadable new tiles of the frame just read: still one more than the record, each is asked."""
        for seat, ev in sorted(self.unread.items()):
            del self.unread[seat]
            seen, tiles = self._real_seen(seat), [e.tile for e in self.ponds[seat]]
            if len(seen) == len(tiles) + 1 and any(t not in TILE_TEXTS for t in seen):
                i = max(k for k, t in enumerate(seen) if t not in TILE_TEXTS)
                if self._same_pond(seen[:i] + seen[i + 1:], tiles):
                    return self._ask_tile(ev, "pond", ev.index)
            if not self._same_pond(seen, tiles):
                self.pond_odd.setdefault(seat, ev.t_mono)

    def _pond_lost_last(self, seat: int, t: float) -> bool:
        """The last tile of the pond is gone: True when the record explains it."""
        rec = self.ponds[seat]
        last = rec[-1]
        if not last.accepted:  # a tile put down out of turn (or refused), taken back
            rec.pop()
            return True
        if last.tile in self.taken[seat]:  # its set was seen first
            self.taken[seat].remove(last.tile)
            rec.pop()
            return True
        if self._won_on(seat, last.tile):  # the won discard, taken by the winner
            rec.pop()
            return True
        w = self.window
        if w is not None and w.discarder == seat and not w.rob:
            if w.taken is None:
                w.taken = t  # a claim or a win takes it: the set or the hand follows
            return True
        return False

    def _odd_ponds(self, t: float) -> None:
        """A pond that stayed unlike the record: the operator or the judge says what happened."""
        for seat, since in sorted(self.pond_odd.items()):
            if t - since >= POND_SETTLE_S and self.open_question is None:
                del self.pond_odd[seat]
                self._ask_pond(seat, since)

    def _ask_pond(self, seat: int, since: float) -> None:
        seen, rec = list(self.seen[seat]), [e.tile for e in self.ponds[seat]]
        real, n = self._real_seen(seat), len(rec)
        if (self.conv.pond_layout == "rows6" and len(real) > n and self._same_pond(real[:n], rec)
                and all(t not in TILE_TEXTS for t in real[n:])):
            # the record's pond and more than one tile after it, none readable (a discard the finder cut in
            # two, a stain): each is asked in turn, the first one's face the discard ('none': no tile)
            wall = self._at.t_wall if self._at is not None else since
            return self._ask_tile(PondTileSeen(seat=seat, index=n, tile="unknown", t_mono=since, t_wall=wall),
                                  "pond", n)

        def resume(answer: str) -> None:
            if answer == "ignore":  # the record stands: the camera misread (the judge may correct the record)
                self.seen[seat] = [e.tile for e in self.ponds[seat]]
                self.phantoms.pop(seat, None)

        self._ask("impossible", seat, {"seat": seat, "zone": "pond", "seen": seen, "record": rec}, ("ignore",),
                  f"seat {seat}'s pond shows {' '.join(seen) or 'nothing'}, the record has {' '.join(rec) or 'nothing'}"
                  " (the judge corrects the record, or answers 'ignore')",
                  "снос на столе не совпадает с записью", resume)

    def _discard(self, ev: PondTileSeen) -> None:
        seat = ev.seat
        pond = self.ponds[seat]
        st = self._st
        if self._set_unseen(ev):
            return
        if not self._bring_turn(seat):
            self._flag("out_of_turn", seat, f"seat {st.current} plays now")
            pond.append(PondEntry(ev.tile, False))
            return
        ss = st.seat_state[seat]
        riichi = bool(ev.sideways and self.conv.riichi_sideways_discard and not ss.riichi)
        out = self._submit(Discarded(seat=seat, tile=ev.tile, tsumogiri=None, riichi=riichi))
        if self._refused(out):
            pond.append(PondEntry(ev.tile, False))
            return
        pond.append(PondEntry(ev.tile, True))
        self._open_window(seat, ev.tile, ev.t_mono)

    def _set_unseen(self, ev: PondTileSeen) -> bool:
        """``ev``'s seat called a set by its button, the discard it called left the pond, and it plays on — but
        the camera has not seen the set (an arm over it, tiles it took for felt): its tiles are asked, never
        guessed (neither the set nor its absence); the discard waits for the answer."""
        w = self.window
        seat = ev.seat
        press = w.presses.get(seat) if w is not None and self._st.phase == Phase.CLAIMS else None
        if w is None or press is None or press[0] not in SET_OF_CALL or seat in w.late:
            return False
        rec = self.ponds.get(w.discarder)
        if not rec or len(self._real_seen(w.discarder)) >= len(rec):
            return False  # the discard still lies in its pond: the call was not acted on
        kind = SET_OF_CALL[press[0]]
        probe = MeldSeen(seat=seat, kind=kind, tiles=("unknown",) * (4 if kind == "kong_open" else 3),
                         t_mono=ev.t_mono, t_wall=ev.t_wall, frame=ev.frame)
        self.waiting.insert(0, ev)  # the discard, again once the set is known
        n = len(probe.tiles)
        self._ask_tile(probe, "meld", None, (
            f"seat {seat} called {press[0]} on seat {w.discarder}'s {w.tile} and took it, but the camera does not "
            f"see the set: its {n} tiles?",
            f"место {seat} объявило {press[0]} на {w.tile} и взяло её, но камера не видит комбинацию: какие "
            f"{n} кости?"))
        return True

    def _leaves_pond(self, seat: int) -> None:
        """The record's last discard of ``seat`` was taken (a set, a win): gone from the pond when the camera
        saw it go, else expected to go."""
        rec = self.ponds[seat]
        if not rec:
            return
        if len(self._real_seen(seat)) < len(rec):
            rec.pop()
            self.pond_odd.pop(seat, None)
        else:
            self.taken[seat].append(rec[-1].tile)

    def _won_on(self, seat: int, tile: str) -> bool:
        return any(w.from_seat == seat and str(w.tile) == tile for w in self._st.wins)

    # --- claims -------------------------------------------------------------------------------------
    def _on_button(self, ev: ButtonPressed) -> None:
        if ev.button == "confirm" or (ev.button in PANELS and self.settled):
            return self._confirm(ev)
        if ev.button not in PANELS or ev.seat is None:
            return None
        if self.exhausting_since is not None:  # the wall is exhausted and no claim is open: a seat signs, so
            return self._confirm(ev)  # the hands shown are all that will be (the noten ones are not waited for)
        call = ev.call or "call"
        if call == "hu" and self._own_turn(ev.seat):
            return self._self_drawn(ev)
        if call in ("riichi", "flower"):
            return None  # the sideways discard and the flower set aside are the record
        w = self.window
        if w is None or self._st.phase not in (Phase.CLAIMS, Phase.ROB):
            self.early = [p for p in self.early if p.t_mono >= ev.t_mono - EARLY_PRESS_S] + [ev]
            return None
        return self._claim_press(ev)

    def _own_turn(self, seat: int) -> bool:
        """Whether ``seat`` is the player who acts now (its draw included): a hu then is self-drawn."""
        m = self.machine
        st = m.state
        if st.phase in (Phase.TURN, Phase.DRAW, Phase.REPLACE):
            return st.current == seat
        if st.phase == Phase.PRE_PLAY:
            return seat == st.dealer
        w = self.window
        closed = self._at is not None and (w is None or self._at.t_mono > w.deadline)
        if st.phase == Phase.CLAIMS and closed:
            return m.next_drawer() == seat  # the window closed: the next player drew, and may win on it
        if st.phase == Phase.ROB and closed and m.pending_winners:
            return m.next_drawer() == seat  # the kong was robbed: the next player drew
        if st.phase == Phase.ROB and closed:
            return st.window is not None and st.window.seat == seat  # nobody robbed: his replacement
        return False

    def _claim_press(self, ev: ButtonPressed) -> None:
        """A call on the tile on offer, at the moment of the button: the hand machine judges it (its claim
        window times it on the shared clock: ``claim_late``)."""
        w = self.window
        assert w is not None and ev.seat is not None
        seat, call = ev.seat, ev.call or "call"
        if seat == w.discarder or (seat, call) in w.calls:
            return
        w.calls.add((seat, call))
        self._timed(seat, call, ev.t_mono, "button")
        if seat not in w.presses or w.presses[seat][0] not in CLAIM_CALLS:
            w.presses[seat] = (call, ev.t_mono)
        if call not in CLAIM_CALLS:
            return  # a single call button: the set or the hand shown tells which claim
        w.slots[seat] = PANELS[ev.button]
        out = self._submit(Claimed(seat=seat, kind=call, from_seat=w.discarder, tile=w.tile,
                                   slot=PANELS[ev.button]), at=ev.t_mono)
        if self._refused(out):
            if out[0].code == "claim_late":
                w.late.add(seat)
        elif call == "hu":
            w.hu.append(seat)

    def _timed(self, seat: int, kind: str, t: float, source: str) -> None:
        """The claim's timing for the judge's console: from the frame the tile settled, against the window."""
        w = self.window
        mw = self._st.window
        assert w is not None
        limit = mw.deadline - mw.opened_at if mw is not None and mw.deadline is not None else 0.0
        delay = round(t - w.t_open, 3)
        self._emit(ClaimTimed(seat=seat, kind=kind, from_seat=w.discarder, tile=w.tile, delay=delay,
                              window=round(limit, 3), late=bool(limit) and delay > limit, source=source,
                              **self._stamp()))

    def _self_drawn(self, ev: ButtonPressed) -> None:
        seat = ev.seat
        assert seat is not None
        if not self._bring_turn(seat):
            return
        st = self._st
        won = Won(seat=seat, tile="x", from_seat=None, kong_replacement=st.after_kong, last_tile=st.wall_remaining == 0,
                  slot=PANELS.get(ev.button, 0))
        if self.profile.capabilities.two_hands:  # Siamese: judged at once, with the hand it shows
            self.shown_wins[seat] = won
            return
        self._submit(won)
        self._maybe_settle()

    def _on_meld(self, ev: MeldSeen) -> None:
        if any(t not in TILE_TEXTS and t != "x" for t in ev.tiles):
            return self._ask_tile(ev, "meld", None)
        seen = self.melds.get(ev.seat)
        if seen is None:
            return None
        if ev.kind == "kong_concealed" and self._shows_kong(ev):
            return None
        if self._st.phase in (Phase.EXHAUSTED, Phase.ENDED, Phase.SETTLED, Phase.OVER):
            # a set seen only once play is over: the camera saw it late (the judge puts it in its place)
            return self._ask_impossible(ev, f"seat {ev.seat}'s {ev.kind} {' '.join(ev.tiles)} was seen after play "
                                        "ended: the camera saw it late", "комбинация замечена после конца игры")
        if ev.kind in CLAIM_OF_MELD and self._seen_before(ev):
            return None  # a set the record holds, read again (the camera regrouped the seat's sets)
        if ev.kind in CLAIM_OF_MELD:
            self._claim_meld(ev)
        elif ev.kind == "kong_concealed":
            if self._bring_turn(ev.seat):
                if not self._refused(self._submit(MeldMade(seat=ev.seat, kind="kong_concealed", tiles=ev.tiles))):
                    seen.append(("kong_concealed", tuple(ev.tiles)))
                    self._release_indicators()
            else:
                self._submit(MeldMade(seat=ev.seat, kind="kong_concealed", tiles=ev.tiles))  # refused: out of turn
        elif ev.kind == "kong_added":
            self._added_kong(ev)
        return None

    def _seen_before(self, ev: MeldSeen) -> bool:
        """A claimed set the seat already made, seen again: the same set in the record, and no discard on
        offer it could take (a new set alike, chow for chow, comes only with such a discard)."""
        shown = (ev.kind, sorted(_kind(t) for t in ev.tiles))
        if not any((k, sorted(_kind(t) for t in tiles)) == shown for k, tiles in self.melds.get(ev.seat, ())):
            return False
        w = self.window
        return w is None or self._st.phase != Phase.CLAIMS or _kind(w.tile) not in shown[1]

    def _shows_kong(self, ev: MeldSeen) -> bool:
        """A concealed kong laid face down (MCR: all four) turned face up at the reveal: the record learns its
        tiles — the kong's event is completed and the hand replayed from its log (as the machine resolves a
        face-down draw at the reveal)."""
        seen = self.melds[ev.seat]
        for i, (kind, tiles) in enumerate(seen):
            if kind != "kong_concealed" or "x" not in tiles or len(tiles) != len(ev.tiles) or "x" in ev.tiles:
                continue
            if any(a != "x" and _kind(a) != _kind(b) for a, b in zip(tiles, ev.tiles)):
                continue
            log = list(self.machine.log)
            k = next((j for j, e in enumerate(log) if isinstance(e, MeldMade) and e.seat == ev.seat
                      and e.kind == "kong_concealed" and tuple(e.tiles) == tiles), None)
            if k is None:
                return False
            log[k] = dataclasses.replace(log[k], tiles=tuple(ev.tiles))
            self.machine = replay_machine(self.profile, log)
            seen[i] = ("kong_concealed", tuple(ev.tiles))
            return True
        return False

    def _claim_meld(self, ev: MeldSeen) -> None:
        w = self.window
        st = self._st
        seat = ev.seat
        if w is None or st.phase != Phase.CLAIMS:
            return self._ask_impossible(ev, f"a {ev.kind} appeared for seat {seat} with no discard on offer",
                                        "комбинация появилась без сноса, который можно взять")
        kind = CLAIM_OF_MELD[ev.kind]
        tiles = list(ev.tiles)
        if ev.claimed_index is not None and 0 <= ev.claimed_index < len(tiles):
            tile = tiles.pop(ev.claimed_index)
        else:
            same = [t for t in tiles if _kind(t) == _kind(w.tile)]
            if not same:
                return self._ask_impossible(ev, f"seat {seat}'s {ev.kind} does not hold the discard {w.tile}",
                                            "в комбинации нет снесённой кости")
            tile = same[0]
            tiles.remove(tile)
        if _kind(tile) != _kind(w.tile):
            return self._ask_impossible(ev, f"seat {seat}'s {ev.kind} took {tile}, the discard on offer is {w.tile}",
                                        "взятая кость не совпадает со сносом")
        if self.conv.claimed_sideways and ev.source is not None:
            src = seat_from_source(seat, ev.source, self._seats(), st.n_players)
            if src != w.discarder:
                return self._ask_impossible(ev, f"seat {seat}'s {ev.kind} points {ev.source}, the discard came from "
                                            f"seat {w.discarder}", "боковая кость указывает не на снёсшего")
        press = w.presses.get(seat)
        if seat in w.late and seat not in w.stands:
            return self._ask_judge_late(ev)  # the tile taken on a call the window had closed on
        if (press is None or press[0] not in CLAIM_CALLS) and seat not in w.stands:
            # no call button told the claim: it is the set the camera sees, timed by its first sign
            t_claim = min(x for x in (ev.t_mono, press[1] if press else None, w.taken) if x is not None)
            self._timed(seat, kind, t_claim, "button" if press else "camera")
            out = self._submit(Claimed(seat=seat, kind=kind, from_seat=w.discarder, tile=w.tile, tiles=tuple(tiles)),
                               at=t_claim)
            if self._refused(out):
                if out[0].code == "claim_late":
                    w.late.add(seat)
                    return self._ask_judge_late(ev)
                return None
        out = self._submit(MeldMade(seat=seat, kind=ev.kind, tiles=(*tiles, tile), from_seat=w.discarder,
                                    claimed_tile=tile, slot=w.slots.get(seat, 0)))
        if self._refused(out):
            return None
        self.melds[seat].append((ev.kind, tuple(ev.tiles)))
        self._leaves_pond(w.discarder)
        self.window = None
        self._release_indicators()
        return None

    def _ask_judge_late(self, ev: MeldSeen) -> None:
        def resume(answer: str) -> None:
            if answer == "stands":  # the judge lets the set stand: it is made as it lies
                w = self.window
                if w is not None:
                    w.stands.add(ev.seat)
                self._on_meld(ev)

        self._ask("impossible", ev.seat, {"observation": ev.to_json()}, ("stands", "taken_back"),
                  f"seat {ev.seat} made a {ev.kind} on a late claim: does it stand?",
                  "комбинация на позднее объявление: оставить её?", resume)

    def _added_kong(self, ev: MeldSeen) -> None:
        seat = ev.seat
        added = ev.tiles[-1]
        if not self._bring_turn(seat):
            self._submit(MeldMade(seat=seat, kind="kong_added", tiles=ev.tiles, claimed_tile=added))
            return
        n = len(self.machine.log)
        out = self._submit(MeldMade(seat=seat, kind="kong_added", tiles=ev.tiles, claimed_tile=added, drawn_tile=None))
        if self._refused(out):
            return
        if self.name in DRAWN_TILE_PAID:
            self.kong_rack[seat] = n
        self.melds[seat] = [m for m in self.melds[seat] if not (m[0] == "pung" and _kind(m[1][0]) == _kind(added))]
        self.melds[seat].append(("kong_added", tuple(ev.tiles)))
        if self._st.phase == Phase.ROB:
            self._open_window(seat, added, ev.t_mono, rob=True)
        else:
            self._release_indicators()

    def _on_flower(self, ev: FlowerSeen) -> None:
        if ev.tile not in TILE_TEXTS:
            return self._ask_tile(ev, "flower", None)
        have = self.flowers.get(ev.seat)
        if have is None or ev.tile in have:
            return None
        st = self._st
        if st.phase != Phase.PRE_PLAY and not self._bring_turn(ev.seat):
            self._submit(FlowerDeclared(seat=ev.seat, tile=ev.tile))  # refused: not the player's turn
            return None
        if self._refused(self._submit(FlowerDeclared(seat=ev.seat, tile=ev.tile))):
            return None
        have.append(ev.tile)
        self._submit(Drew(seat=ev.seat, tile="x", source="replacement"))
        return None

    # --- the end of the hand ------------------------------------------------------------------------
    def _on_revealed(self, ev: TilesRevealed) -> None:
        if any(t not in TILE_TEXTS for t in ev.tiles):
            if not self._reveal_expected(ev.seat):
                # nobody shows a hand now: the camera took something else for one (Siamese racks seen from
                # above); asked only if a hand becomes due and the camera shows no other
                self.unread_reveals[ev.seat] = ev
                return None
            return self._ask_tile(ev, "hand", None)
        self.unread_reveals.pop(ev.seat, None)
        self.reveal_due.pop(ev.seat, None)
        if self.revealed.get(ev.seat) == tuple(ev.tiles) or ev.seat not in self._st.seat_state:
            return None
        if any(h.seat == ev.seat for h in self.held):
            self.held = [h for h in self.held if h.seat != ev.seat]
        self.held.append(ev)
        w = self.window
        if self.exhausting_since is None and self._wall_done() and not (w is not None and w.presses and not w.taken
                                                                        and ev.t_mono <= w.deadline):
            self.exhausting_since = ev.t_mono  # the last discard passed: the ready hands are shown
        if self.exhausting_since is not None:
            self.exhausting_since = max(self.exhausting_since, ev.t_mono)
            if self._all_shown():
                self._finish_exhaustion()
            return None
        self._release_held()
        return None

    def _reveal_expected(self, seat: int) -> bool:
        """Whether ``seat`` may be showing its hand now: its win or claim, an exhaustive draw, play over."""
        st = self._st
        w = self.window
        return (st.phase in (Phase.EXHAUSTED, Phase.ENDED, Phase.SETTLED, Phase.OVER)
                or any(x.seat == seat for x in st.wins) or seat in self.shown_wins or seat in self.rack_wins
                or (w is not None and seat in w.presses) or self.exhausting_since is not None or self._wall_done())

    def _stale_reveals(self, t: float) -> list[int]:
        """Seats whose hand is due, of which the camera showed only an unreadable one, for ``reveal_wait_s``."""
        out = []
        for seat in sorted(self.unread_reveals):
            if self._reveal_expected(seat) and t - self.reveal_due.setdefault(seat, t) >= self.reveal_wait_s:
                out.append(seat)
        return out

    def _wall_done(self) -> bool:
        """The wall is empty and the last discard's window holds no claim that ends the hand: an exhaustive
        draw (after any wins on that discard, where play would go on)."""
        st = self._st
        m = self.machine
        if st.wall_remaining != 0:
            return False
        if st.phase == Phase.EXHAUSTED:
            return True
        if st.phase != Phase.CLAIMS:
            return False
        if m.pending_winners:
            return not m.window_ends_hand()
        return not (st.window is not None and st.window.claims)

    def _all_shown(self) -> bool:
        st = self._st
        shown = {h.seat for h in self.held} | {s for s in st.seats if st.seat_state[s].revealed}
        return all(s in shown for s in st.seats)

    def _release_held(self) -> None:
        """Submit the reveals that may go now: after their claim window (all wins on a discard are granted
        first) and, for a riichi winner, after the ura indicators were turned."""
        if not self.held or self.exhausting_since is not None:
            return
        w = self.window
        if w is not None and w.hu and self._at is not None and self._at.t_mono <= w.deadline:
            return  # other players may still claim the same discard
        self._close_window()
        while self.held and self.open_question is None:
            ev = self.held[0]
            if self._awaits_ura(ev.seat):
                return
            self.held.pop(0)
            self._reveal(ev)
        self._maybe_settle()

    def _awaits_ura(self, seat: int) -> bool:
        st = self._st
        if self.name != "riichi-ema2016" or not st.seat_state[seat].riichi:
            return False
        if not any(w.seat == seat and w.valid is None for w in st.wins):
            return False
        return len(self.ura) < len(self.indicators)

    def _over_copies(self, seat: int, shown: tuple[str, ...]) -> list[str]:
        """Tiles of which more copies would lie face up than the set holds with ``shown`` revealed: some
        observation was misread (a tile that cannot be there)."""
        spec = self.machine.spec
        if spec is None:
            return []
        copies = Counter(_kind(str(t)) for t in tile_set(spec.tile_set))
        up: Counter[str] = Counter(_kind(t) for t in shown)
        for s, ss in self._st.seat_state.items():
            up.update(_kind(str(t)) for t, taken in zip(ss.pond, ss.pond_claimed) if not taken)
            up.update(_kind(str(t)) for m in ss.melds for t in m.tiles if not t.is_unknown)
            up.update(_kind(str(t)) for t in ss.flowers)
            if ss.revealed and s != seat:
                up.update(_kind(str(t)) for t in ss.tiles())
        up.update(_kind(t) for t in self.indicators)
        return sorted(k for k, n in up.items() if n > copies.get(k, 0))

    def _reveal(self, ev: TilesRevealed) -> None:
        st = self._st
        tiles = tuple(ev.tiles)
        won = self.shown_wins.pop(ev.seat, None)
        if won is not None:  # Siamese: the winning hand laid face up names the win (003 §Сиамский 11)
            from rules.notation import format_tiles

            won = dataclasses.replace(won, hand=format_tiles(_tiles(tiles)), drawn_tile=None)
            if won.from_seat is None:  # the self-drawn tile shown apart; the rack tells whether it was drawn
                self.rack_wins[ev.seat] = dataclasses.replace(won, tile=tiles[-1])
            else:
                self._submit(won)
                self._won_discard(won.from_seat)
            return None
        over = self._over_copies(ev.seat, tiles)
        if over and not self.copies_ok:
            return self._ask_copies(ev, over)
        win = next((w for w in st.wins if w.seat == ev.seat and w.valid is None), None)
        winning = tiles[-1] if win is not None and win.from_seat is None and tiles else ""
        if not self._refused(self._submit(HandRevealed(seat=ev.seat, tiles=tiles, winning=winning))):
            self.revealed[ev.seat] = tiles

    def _finish_exhaustion(self) -> None:
        st = self._st
        if self.exhausting_since is None:
            return
        self.exhausting_since = None
        self.window = None
        shown = {h.seat: h for h in self.held}
        tenpai = []
        for s in st.seats if not self.profile.capabilities.two_hands else ():  # (Siamese: no ready hands, §14)
            ss = st.seat_state[s]
            h = shown.get(s)
            if h is None or not ss.active:
                continue
            hand = Hand(tuple(_tiles(h.tiles)), tuple(ss.melds), None, tuple(ss.flowers))
            if self.profile.waits(hand):
                tenpai.append(s)
        if st.phase in (Phase.CLAIMS, Phase.EXHAUSTED, Phase.DRAW):
            self._submit(ExhaustiveDraw(tenpai=tuple(tenpai)))
        while self.held and self.open_question is None:
            self._reveal(self.held.pop(0))
        self._maybe_settle()

    def _pending_reveals(self) -> list[int]:
        """Seats whose hand must still be shown before the settlement (as the bot driver shows them)."""
        st = self._st
        if self.profile.capabilities.two_hands:  # Siamese: every pool is shown at the end (an empty one needs no look)
            for s in st.seats:
                ss = st.seat_state[s]
                if not ss.revealed and ss.n_concealed == 0:
                    self._submit(HandRevealed(seat=s, tiles=()))
            return [s for s in st.seats if not st.seat_state[s].revealed]
        seats: list[int] = []
        for w in st.wins:
            if w.seat not in seats:
                seats.append(w.seat)
        if st.exhaustive:
            seats += [s for s in st.seats if s not in seats and (self.profile.capabilities.reveal_all_at_draw
                                                                  or s in st.tenpai_declared)]
        judged = {w.seat for w in st.wins if w.valid is not None}
        return [s for s in seats if not st.seat_state[s].revealed and not (s in judged and not st.exhaustive)]

    def _maybe_settle(self) -> None:
        m = self.machine
        if m.phase != Phase.ENDED or self._pending_reveals() or self.open_question is not None:
            return
        if self.kong_rack:  # no rack was seen after an added kong: where did its tile come from?
            return self._ask_kong_tile(min(self.kong_rack))
        self._submit(m.settlement())
        if m.phase == Phase.SETTLED:
            self._submit(m.hand_end())

    def _confirm(self, ev: ButtonPressed) -> None:
        if self.exhausting_since is not None and ev.button in PANELS:
            self._finish_exhaustion()
        st = self._st
        if st.settled is None or self._confirmed is not None or any(ev is w for w in self.withdrawn):
            return
        if ev.seat is None:  # the judge
            by, seats = "judge", tuple(sorted(self.confirm_seats))
        else:
            self.confirm_seats.add(ev.seat)
            if not all(s in self.confirm_seats for s in st.seats):
                return
            by, seats = "seats", tuple(sorted(self.confirm_seats))
        self._confirmed = ResultConfirmed(by=by, seats=seats, deltas=tuple(st.settled.deltas), revision=self.revision,
                                          **self._stamp())
        self._emit(self._confirmed)

    # --- questions ----------------------------------------------------------------------------------
    def _ask_tile(self, ev: Event, zone: str, index: int | None, why: tuple[str, str] | None = None) -> None:
        """Which tiles the ``unknown`` ones of ``ev`` are (``why``: the question's own words, English and
        Russian, where it is not a tile the camera saw and could not read)."""
        seat = getattr(ev, "seat", None)
        tiles = getattr(ev, "tiles", None) or (getattr(ev, "tile", ""),)
        unknown = sum(1 for t in tiles if t not in TILE_TEXTS and t != "x")
        where = f"seat {seat}'s {zone}" + (f" at {index + 1}" if index is not None else "")

        def resume(answer: str) -> None:
            if answer == "none" and zone == "pond" and seat is not None:  # no tile there: the camera saw one
                self.phantoms[seat] = self.phantoms.get(seat, 0) + 1
                if self._same_pond(self._real_seen(seat), [e.tile for e in self.ponds[seat]]):
                    self.pond_odd.pop(seat, None)
                return None
            if answer == "none" and zone in ("hand", "indicator"):  # no hand shown / no indicator turned there
                return None  # (racks seen from above, an empty slot of the dead wall): dropped
            given = answer.split()
            if len(given) != unknown or any(t not in TILE_TEXTS for t in given):
                return self._ask_tile(ev, zone, index, why)  # not an answer to this question: asked again
            it = iter(given)
            if hasattr(ev, "tiles"):
                fixed = tuple(next(it) if t not in TILE_TEXTS and t != "x" else t for t in ev.tiles)  # type: ignore[attr-defined]
                return self._redo(ev, dataclasses.replace(ev, tiles=fixed))
            self._redo(ev, dataclasses.replace(ev, tile=given[0]))
            if zone == "pond" and seat is not None and index is not None:
                self.named.setdefault(seat, set()).add(index)  # (a later read of it does not overrule the answer)
            return None

        en, ru = why or (
            f"the camera cannot read {unknown} tile(s) in {where}: which?"
            + (" ('none': there is no tile)" if zone in ("pond", "indicator") else " ('none': no hand is shown)"
               if zone == "hand" else ""),
            f"камера не может прочитать кость ({unknown}) — какая?"
            + (" ('none': кости там нет)" if zone in ("pond", "indicator") else " ('none': руку не открывали)"
               if zone == "hand" else ""))
        self._ask("tile", seat, {"observation": ev.to_json(), "zone": zone, "index": index, "unknown": unknown},
                  (), en, ru, resume)

    def _ask_kong_tile(self, seat: int) -> None:
        def resume(answer: str) -> None:
            if answer not in ("yes", "no"):
                return self._ask_kong_tile(seat)
            apart = 0 if answer == "yes" else 1
            self._on_rack(RackCounted(seat=seat, standing=self.rack.get(seat, 0), apart=apart))
            self._maybe_settle()
            return None

        self._ask("kong_tile", seat, {"seat": seat, "log_index": self.kong_rack[seat]}, ("yes", "no"),
                  f"seat {seat}'s added kong: was its fourth tile the tile just drawn, kept apart?",
                  "добавленный конг: четвёртая кость — только что взятая (лежала отдельно)?", resume)

    def _ask_copies(self, ev: TilesRevealed, over: list[str]) -> None:
        def resume(answer: str) -> None:
            if answer == "ignore":  # the judge lets the record stand as it is
                self.copies_ok = True
                self._reveal(ev)
                self.copies_ok = False
                self._maybe_settle()
            else:
                self._ask_copies(ev, over)

        self._ask("impossible", ev.seat, {"observation": ev.to_json(), "over": over}, ("ignore",),
                  f"more {', '.join(over)} on the table than the set holds once seat {ev.seat}'s hand is shown: a "
                  "tile was misread (the judge corrects the record, or answers 'ignore')",
                  "на столе больше копий кости, чем в наборе: кость прочитана неверно", resume)

    def _ask_impossible(self, ev: Event, en: str, ru: str) -> None:
        def resume(answer: str) -> None:
            if answer not in ("ignore", "taken_back"):
                self._ask_impossible(ev, en, ru)

        self._ask("impossible", getattr(ev, "seat", None), {"observation": ev.to_json()}, ("ignore",),
                  en + " (the judge corrects the record, or answers 'ignore')", ru, resume)

    def _redo(self, asked: Event, ev: Event) -> None:
        """The observation ``asked`` about, as answered: in its place in the queue if it waits there, else
        handled now."""
        for i, w in enumerate(self.waiting):
            if w is asked:
                self.waiting[i] = ev
                self._learn_wmsg(ev)
                return
        handler = HANDLERS.get(type(ev))
        if handler is not None:  # what it shows happened when the camera saw it, not when the answer came
            at, self._at = self._at, ev
            try:
                handler(self, ev)
            finally:
                self._at = at

    def _on_answer(self, ev: QuestionAnswered) -> None:
        q = self.open_question
        if q is None or q.event.question_id != ev.question_id:
            return  # a stale answer (the question went away with a correction)
        self.open_question = None
        q.resume(ev.answer.strip())

    def _on_tick(self, ev: RefereeTick) -> None:
        return None  # _process already acted on what was due

    def _on_rack(self, ev: RackCounted) -> None:
        """The rack after an added kong tells where its fourth tile came from: the drawn tile kept apart went
        to the set (none left apart) or one from the hand did (the drawn tile still apart) — 000 §2.5.3:
        only a kong with the tile just drawn is paid at once (the log's kong event is completed, replayed)."""
        self.rack[ev.seat] = ev.standing
        won = self.rack_wins.pop(ev.seat, None)
        if won is not None:  # 003 §Сиамский 17: a drawn tile still apart was kept (the win did not use it)
            self._submit(dataclasses.replace(won, drawn_tile=ev.apart == 0))
        self._check_rack(ev.seat, ev.t_mono)
        k = self.kong_rack.pop(ev.seat, None)
        if k is None:
            return
        log = list(self.machine.log)
        if k < len(log) and isinstance(log[k], MeldMade) and log[k].drawn_tile is None:
            log[k] = dataclasses.replace(log[k], drawn_tile=ev.apart == 0)
            self.machine = replay_machine(self.profile, log)

    # --- rack counts: a hand with the wrong number of tiles -------------------------------------------
    def _rack_expected(self, seat: int) -> int | None:
        """The tiles ``seat``'s rack must hold now, or None while that is in motion (his own turn, a claim
        of his in the air, the hand shown or over)."""
        st = self._st
        ss = st.seat_state.get(seat)
        if ss is None or ss.revealed or ss.won or st.phase not in (Phase.CLAIMS, Phase.DRAW, Phase.TURN):
            return None
        if self.profile.capabilities.two_hands:  # two racks of fourteen: the table's camera does not count them
            return None
        if st.current == seat or self.machine.next_drawer() == seat:
            return None
        w = self.window
        if w is not None and (seat in w.presses or w.taken is not None):
            return None
        return ss.n_concealed

    def _check_rack(self, seat: int, t: float) -> None:
        want = self._rack_expected(seat)
        have = self.rack.get(seat)
        if want is None or have is None or have == want:
            self.rack_odd.pop(seat, None)
        else:
            self.rack_odd.setdefault(seat, t)

    def _odd_racks(self, t: float) -> None:
        """A rack that stays wrong: the hand has too many or too few tiles (the camera counts the backs)."""
        for seat, since in sorted(self.rack_odd.items()):
            self._check_rack(seat, t)
            if seat not in self.rack_odd or t - since < RACK_SETTLE_S:
                continue
            del self.rack_odd[seat]
            want, have = self._rack_expected(seat), self.rack[seat]
            self.rack_flagged.add(seat)
            self._flag("tile_count", seat, f"{have} tiles in the rack, {want} expected")
            if "tile_count" in self.profile.capabilities.dead_hand_codes and not self._st.seat_state[seat].dead:
                rule = referee_rule(self.name, "tile_count", self.profile.violation_rules)
                self._submit(HandDead(seat=seat, reason="tile_count", rule=rule))

    # --- corrections --------------------------------------------------------------------------------
    def _correct(self, c: JudgeCorrection) -> list[Event]:
        """A judge's correction of the record: replayed from the corrected record, audited."""
        st = self._st
        before = st.settled
        viol_before = tuple(f"{v.seat}:{v.code}" for v in self.violations())
        rec = list(self.record)
        try:
            change = apply_correction(rec, c)
        except (ValueError, IndexError, KeyError, TypeError) as exc:
            return [violation("bad_event", None, f"correction refused: {exc}", at=c, hand_id=self.hand_id)]
        signed = sorted(self.confirm_seats) if self._confirmed is None else list(self._confirmed.seats) or ["judge"]
        self.record = rec
        self.revision += 1
        self._replay()
        after = self._st.settled
        if signed and _payments(before) != _payments(after):
            # a changed result is signed again: the signatures of the old one are withdrawn
            self.withdrawn += [e for e in self.record if isinstance(e, ButtonPressed)
                               and not any(e is w for w in self.withdrawn)]
            self._replay()
            change += f"; the result changed: the signatures ({', '.join(map(str, signed))}) are withdrawn"
        audit = CorrectionApplied(
            by=c.by, change=change + (f" — {c.reason}" if c.reason else ""), revision=self.revision,
            before=tuple(before.deltas) if before else (), after=tuple(after.deltas) if after else (),
            payments_before=tuple(before.payments) if before else (),
            payments_after=tuple(after.payments) if after else (),
            violations_before=viol_before, violations_after=tuple(f"{v.seat}:{v.code}" for v in self.violations()),
            t_mono=c.t_mono, t_wall=c.t_wall, hand_id=self.hand_id)
        self.corrections.append(audit)
        self.outputs.append(audit)
        return [audit]

    def _replay(self) -> None:
        corrections = self.corrections
        self._reset()
        self.corrections = corrections
        for ev in self.record:
            self._process(ev)


def _payments(settled: Any) -> tuple[Any, ...] | None:
    """What a result is, for its signatures: the deltas and every payment (None: no result)."""
    if settled is None:
        return None
    return tuple(settled.deltas), tuple(tuple(sorted(dict(p).items())) for p in settled.payments)


def apply_correction(rec: list[Event], c: JudgeCorrection) -> str:
    """Apply one correction to the record in place; returns what changed, for the audit record."""
    def show(e: Event) -> str:
        d = {k: v for k, v in e.to_json().items() if k not in ("v", "t_wall", "frame", "hand_id")}
        return ", ".join(f"{k}={v}" for k, v in d.items())

    if c.op == "delete":
        gone = rec.pop(c.index)
        return f"deleted input {c.index} ({show(gone)})"
    if c.op == "move":
        ev = rec.pop(c.index)
        rec.insert(c.to, ev)
        return f"moved input {c.index} ({show(ev)}) to {c.to}"
    new = Event.from_json(dict(c.event))
    if c.op == "replace":
        old = rec[c.index]
        rec[c.index] = new
        return f"replaced input {c.index} ({show(old)}) with ({show(new)})"
    if c.op == "insert":
        if not 0 <= c.index <= len(rec):
            raise IndexError(f"no position {c.index} in a record of {len(rec)} inputs")
        rec.insert(c.index, new)
        return f"inserted ({show(new)}) at {c.index}"
    raise ValueError(f"unknown correction {c.op!r} (replace, insert, delete, move)")


def _kind(tile: str) -> str:
    """A tile's kind in notation (a red five is a five)."""
    return "5" + tile[1] if tile[:1] == "0" else tile


def _tiles(texts: tuple[str, ...]) -> list[Any]:
    by = {str(t): t for t in TILES}
    return [by[t] for t in texts]


#: Inputs of play, held while the hand waits for what the table has not shown yet.
#: inputs that follow a discard (a call on it, the set or the hand that takes it): they wait while a new pond tile
#: is not read yet (UNREAD_WAIT_S), else a call would be judged on the discard before it
AFTER_THE_DISCARD = (ButtonPressed, MeldSeen, TilesRevealed)
PLAY_INPUTS = (PondTileSeen, PondTileRemoved, MeldSeen, FlowerSeen, TilesRevealed, ButtonPressed, RefereeTick,
               IndicatorSeen, RackCounted, StickSeen)

HANDLERS: dict[type, Callable[[Referee, Any], Any]] = {
    HandStarted: Referee._on_start,
    DiceRolled: Referee._on_dice,
    DiceRead: lambda r, ev: None,  # the service records the throw (dice_rolled) it read
    IndicatorSeen: Referee._on_indicator,
    CardSeen: Referee._on_card,
    PondTileSeen: Referee._on_pond_seen,
    PondTileRemoved: Referee._on_pond_removed,
    MeldSeen: Referee._on_meld,
    FlowerSeen: Referee._on_flower,
    TilesRevealed: Referee._on_revealed,
    StickSeen: lambda r, ev: None,  # the sideways discard is riichi's record; the stick only confirms it
    RackCounted: Referee._on_rack,
    ButtonPressed: Referee._on_button,
    QuestionAnswered: Referee._on_answer,
    RefereeTick: Referee._on_tick,
}

__all__ = ["HANDLERS", "Referee", "RefereeTick", "english", "russian"]
