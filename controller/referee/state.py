"""All the referee's state for one hand (:class:`RefereeState`), in typed parts, and its constants.

The hand machine (:mod:`rules.game`) holds the hand as the record says it went; the parts here hold what
only the table shows: each pond as the camera sees it against the record's, the claim window as the table
times it, the hands laid face up, the dora indicators, the question open and the inputs waiting for it, the
racks' counts, the signatures. A judge's correction replays the record into a fresh state (the
:class:`RecordLog` outlives it).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import ClassVar

from rules.events import (
    ButtonPressed,
    CorrectionApplied,
    Event,
    IndicatorSeen,
    JSONObject,
    PenaltyAwarded,
    PondTileSeen,
    QuestionAsked,
    ResultConfirmed,
    TilesRevealed,
    Won,
    relative_source,
)
from rules.game.machine import HandMachine, replay
from rules.game.machines import machine_for
from rules.game.protocols import RuleSet
from rules.game.state import HandState
from rules.game.table_data import TableConventions
from rules.tiles import TILES

REFEREE_JUDGE = "referee"  # who gave a penalty the referee ruled itself (controller/referee/sanctions.py)
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

    def to_json(self) -> JSONObject:
        return {"discarder": self.discarder, "tile": self.tile, "t_open": self.t_open, "deadline": self.deadline,
                "rob": self.rob, "claims": {str(s): c for s, (c, _) in self.presses.items()}}


@dataclass(frozen=True)
class Resume:
    """How an answer resumes the hand: what the question is about (a subclass of this, one per question:
    :mod:`controller.referee.questions`), its class the row of :data:`controller.referee.answers.RESUME`,
    :attr:`question` its row of :data:`controller.referee.questions.QUESTIONS`."""

    question: ClassVar[str] = ""


@dataclass
class OpenQuestion:
    event: QuestionAsked
    resume: Resume


@dataclass(frozen=True)
class Variant:
    """What differs in refereeing a rule set's hands, as data (chosen from the profile's capabilities and its
    table conventions by :func:`controller.referee.variants.variant_for`)."""

    missing_suit_from_first_discard: bool = False  # Sichuan WMSG: no cards, each first discard names it (002 §5.2-5.3)
    two_hands: bool = False  # Siamese (003 §Сиамский): a win is judged with the hand it shows; no ready hands at a
    #                          draw (§14); every pool shown at the end; two racks of fourteen the camera does not count
    ura_after_riichi_win: bool = False  # riichi: a riichi winner's hand waits for the ura indicators
    kong_drawn_tile_paid: bool = False  # an added kong with the tile just drawn is paid at once (000 §2.5.3)


@dataclass
class PondView:
    """Each pond: the record's tiles and the camera's, and what reconciles them."""

    record: dict[int, list[PondEntry]] = field(default_factory=dict)
    seen: dict[int, list[str]] = field(default_factory=dict)  # each pond as the camera shows it
    taken: dict[int, list[str]] = field(default_factory=dict)  # claimed tiles whose leaving the pond is still to be seen
    odd: dict[int, float] = field(default_factory=dict)  # seat -> since when its pond is unlike the record
    phantoms: dict[int, int] = field(default_factory=dict)  # seat -> unreadable "tiles" in its pond the operator said are none
    named: dict[int, set[int]] = field(default_factory=dict)  # seat -> places of unreadable tiles the operator named
    unread: dict[int, PondTileSeen] = field(default_factory=dict)  # seat -> an unreadable new tile, asked once its frame is read


@dataclass
class ClaimWatch:
    """The claim window as the table times it, the calls pressed before it opened, the sets and flowers seen."""

    window: Window | None = None
    early: list[ButtonPressed] = field(default_factory=list)
    melds: dict[int, list[tuple[str, tuple[str, ...]]]] = field(default_factory=dict)
    flowers: dict[int, list[str]] = field(default_factory=dict)


@dataclass
class Reveals:
    """The hands laid face up, the end of the wall, the wins waiting for what the table shows next."""

    unread: dict[int, TilesRevealed] = field(default_factory=dict)  # unreadable "hands" shown when none was due
    due: dict[int, float] = field(default_factory=dict)  # seat -> since when its hand is due while only that was seen
    shown: dict[int, tuple[str, ...]] = field(default_factory=dict)
    held: list[TilesRevealed] = field(default_factory=list)  # reveals waiting for the claim window or the ura
    exhausting_since: float | None = None
    shown_wins: dict[int, Won] = field(default_factory=dict)  # Siamese: wins waiting for their hand to be laid face up
    rack_wins: dict[int, Won] = field(default_factory=dict)  # Siamese: self-drawn wins waiting for the rack
    copies_ok: bool = False
    hu_cards: dict[int, str] = field(default_factory=dict)


@dataclass
class Indicators:
    indicators: list[str] = field(default_factory=list)  # dora indicators seen, in order
    held: list[IndicatorSeen] = field(default_factory=list)
    ura: list[str] = field(default_factory=list)


@dataclass
class Asking:
    open: OpenQuestion | None = None
    waiting: list[Event] = field(default_factory=list)  # inputs held while the hand waits
    next_id: int = 0


@dataclass
class MissingSuits:
    """Sichuan WMSG: the missing suits learned from the first discards (002 §5.2-5.3)."""

    suits: dict[int, str] = field(default_factory=dict)
    next: int | None = None  # while the suits are face down: who discards next
    card: set[int] = field(default_factory=set)
    out: set[int] = field(default_factory=set)  # seats with a judge's card face down (no tile of the suit)


@dataclass
class Racks:
    count: dict[int, int] = field(default_factory=dict)
    odd: dict[int, float] = field(default_factory=dict)  # seat -> since when its rack holds the wrong count
    flagged: set[int] = field(default_factory=set)
    kong: dict[int, int] = field(default_factory=dict)  # seat -> log index of an added kong waiting for the rack


@dataclass
class Signatures:
    seats: set[int] = field(default_factory=set)
    confirmed: ResultConfirmed | None = None


@dataclass
class RecordLog:
    """What outlives a replay: every input, the record (corrections applied), the corrections' audit."""

    inputs: list[Event] = field(default_factory=list)  # everything fed, corrections included
    record: list[Event] = field(default_factory=list)  # the inputs the hand is derived from
    revision: int = 0
    corrections: list[CorrectionApplied] = field(default_factory=list)
    # presses that signed a result a judge's correction then changed: they no longer sign
    withdrawn: list[Event] = field(default_factory=list)


@dataclass
class RefereeState:
    """One hand as the referee follows it: the hand machine (the record) and what only the table shows."""

    profile: RuleSet
    conv: TableConventions  # the table's (the rule set's own: vision.conventions)
    wait_s: float
    reveal_wait_s: float
    log: RecordLog
    machine: HandMachine
    variant: Variant
    hand_id: str = ""
    outputs: list[Event] = field(default_factory=list)
    out: list[Event] = field(default_factory=list)  # what the input being handled concluded
    at: Event | None = None  # the input being handled
    pond: PondView = field(default_factory=PondView)
    claims: ClaimWatch = field(default_factory=ClaimWatch)
    reveals: Reveals = field(default_factory=Reveals)
    dora: Indicators = field(default_factory=Indicators)
    asking: Asking = field(default_factory=Asking)
    wmsg: MissingSuits = field(default_factory=MissingSuits)
    racks: Racks = field(default_factory=Racks)
    signing: Signatures = field(default_factory=Signatures)
    replayed: PenaltyAwarded | None = None  # the judge's penalty that ended the hand to be dealt again (chombo)

    @property
    def name(self) -> str:
        return str(self.profile.name)

    @property
    def st(self) -> HandState:
        return self.machine.state

    @property
    def settled(self) -> bool:
        """The result is known and waits for its signatures (a hand to be dealt again has its result too)."""
        return self.machine.state.settled is not None or self.replayed is not None

    def deltas(self) -> tuple[int, ...]:
        """The hand's own result, by seat. A replayed hand pays nothing itself when the judge's penalty carries
        the chombo; a chombo the referee ruled itself is the hand's payment."""
        settled, pen = self.machine.state.settled, self.replayed
        if pen is not None and pen.judge == REFEREE_JUDGE:
            return tuple(pen.paid[s] - (pen.points if s == pen.seat else 0) for s in range(len(pen.paid)))
        if settled is None:
            return tuple(0 for _ in range(4))
        return tuple(settled.deltas)

    def seats(self) -> tuple[int, ...]:
        return tuple(self.st.seats)


def fresh_state(profile: RuleSet, conv: TableConventions, wait_s: float, reveal_wait_s: float, log: RecordLog,
                variant: Variant) -> RefereeState:
    return RefereeState(profile, conv, wait_s, reveal_wait_s, log, machine_for(profile)(profile, "table"), variant)


def replay_machine(profile: RuleSet, log: list[Event]) -> HandMachine:
    """A table-mode machine rebuilt from a (completed) log."""
    return replay(profile, log, "table", machine=machine_for(profile))


def seat_from_source(seat: int, source: str, seats: tuple[int, ...], n_players: int) -> int | None:
    """The seat a meld's claimed tile came from, given its relative ``source`` as the camera reads it."""
    for s in seats:
        if s != seat and relative_source(seat, s, n_players) == source:
            return s
    return None


class FollowUp(Enum):
    """What a handler leaves to be finished once it has run, for the core to run
    (:data:`controller.referee.follow_ups.FOLLOW_UPS`): the handler says what its input may have freed, the
    core runs the concern that finishes it — as the hand machine's ``implied()`` runs what time made due."""

    INDICATORS = "indicators"  # a kan in the record, or an indicator seen: the kan indicators held for it
    SUITS = "suits"  # a missing suit learned (WMSG): declared once every seat's is known
    REVEALS = "reveals"  # a hand shown: the reveals held for their claim window or the ura indicators
    SETTLE = "settle"  # a win or a hand that may end play: the settlement once every hand due is shown


#: an input's handler: acts on the state, returns what it leaves to be finished (None: nothing); a row of
#: :data:`controller.referee.table.TABLE` takes the input of its type only (:func:`controller.referee.table.row`)
Handler = Callable[[RefereeState, Event], FollowUp | None]
