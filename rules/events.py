"""The event schema: the one language spoken between the parts of mahjong-table (pure data, no I/O).

Every event is an immutable dataclass with
  * ``t_mono`` — seconds on the table's shared monotonic clock (camera frames, GPIO presses and the MCU
    link are all stamped on it, so claim windows can be timed across them), and
  * ``t_wall`` — Unix wall-clock time, for humans and the hall.

``to_json``/``from_json`` give a versioned, JSON-serialisable dict: ``{"type": ..., "v": SCHEMA_VERSION,
...fields}``. Tiles are notation strings (``"5m"``, ``"0p"``, ``"x"`` for a face-down tile of unknown
identity; see docs/ARCHITECTURE.md); seats are 0..3 (0 = East); a meld's source is a *relative* seat
(``"left"``, ``"opposite"``, ``"right"``) as the camera sees it.

Three families:
  * game events — what happened in the hand (the game state machine's log),
  * observation events — what the camera saw,
  * device events — what the table hardware and buttons reported.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

SCHEMA_VERSION = 1

RELATIVE_SOURCES = ("left", "opposite", "right")

# JSON data as events carry it (a list comes back from ``from_json`` as a tuple)
JSONValue = str | int | float | bool | None | Sequence["JSONValue"] | Mapping[str, "JSONValue"]
JSONObject = dict[str, JSONValue]


def as_int(v: object) -> int:
    """A number read from JSON data (an ``int``; anything else is a malformed record)."""
    if isinstance(v, int):
        return int(v)
    raise TypeError(f"{v!r} is not a whole number")


def as_seat(v: object) -> int | None:
    """A seat read from JSON data (``None``: the table)."""
    return None if v is None else as_int(v)


def relative_source(seat: int, from_seat: int, n_seats: int = 4) -> str:
    """Where ``from_seat`` sits as seen from ``seat`` (turn order E→S→W→N; the left player plays just before)."""
    d = (from_seat - seat) % n_seats
    return {n_seats - 1: "left", 1: "right"}.get(d, "opposite")


_REGISTRY: dict[str, type[Event]] = {}


@dataclass(frozen=True, kw_only=True)
class Event:
    """Base of every event. Sub-classes set ``TYPE`` (the wire name) and ``FAMILY``."""

    TYPE: ClassVar[str] = "event"
    FAMILY: ClassVar[str] = "base"

    t_mono: float = 0.0
    t_wall: float = 0.0

    def __init_subclass__(cls, **kw: object) -> None:
        super().__init_subclass__(**kw)
        if "TYPE" in cls.__dict__:
            if cls.TYPE in _REGISTRY:
                raise TypeError(f"duplicate event type {cls.TYPE!r}")
            _REGISTRY[cls.TYPE] = cls

    def to_json(self) -> JSONObject:
        d: JSONObject = {"type": self.TYPE, "v": SCHEMA_VERSION}
        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            d[f.name] = _jsonable(v)
        return d

    @staticmethod
    def from_json(d: Mapping[str, JSONValue]) -> Event:
        """Rebuild an event from :meth:`to_json` output. Raises ``ValueError`` on an unknown type/version."""
        t = d.get("type")
        cls = _REGISTRY.get(t) if isinstance(t, str) else None
        if cls is None:
            raise ValueError(f"unknown event type {t!r}")
        v = d.get("v", SCHEMA_VERSION)
        if not isinstance(v, int) or v > SCHEMA_VERSION:
            raise ValueError(f"event {t!r} has schema version {v}, this build reads up to {SCHEMA_VERSION}")
        names = {f.name: f for f in dataclasses.fields(cls)}
        kwargs: dict[str, Any] = {}  # checked by the dataclass's own constructor
        for k, val in d.items():
            if k in ("type", "v"):
                continue
            if k not in names:
                raise ValueError(f"event {t!r} has no field {k!r}")
            kwargs[k] = _from_jsonable(val)
        return cls(**kwargs)


def _jsonable(v: object) -> JSONValue:
    if isinstance(v, tuple | list):
        return [_jsonable(x) for x in v]
    if isinstance(v, dict):
        return {str(k): _jsonable(x) for k, x in v.items()}
    if v is None or isinstance(v, str | int | float):
        return v
    raise TypeError(f"{v!r} is not JSON data")


def _from_jsonable(v: JSONValue) -> JSONValue:
    if isinstance(v, list):
        return tuple(_from_jsonable(x) for x in v)
    if isinstance(v, dict):
        return {k: _from_jsonable(x) for k, x in v.items()}
    return v


def event_types() -> dict[str, type[Event]]:
    """Every registered event type by wire name."""
    return dict(_REGISTRY)


# ----------------------------------------------------------------------------------------------------------
# Game events


@dataclass(frozen=True, kw_only=True)
class GameEvent(Event):
    FAMILY: ClassVar[str] = "game"
    hand_id: str = ""


@dataclass(frozen=True, kw_only=True)
class HandStarted(GameEvent):
    TYPE: ClassVar[str] = "hand_started"
    profile: str
    n_players: int = 4
    dealer: int = 0
    round_wind: str = "1z"
    hand_number: int = 0
    seats: tuple[str, ...] = ()  # player ids by seat
    options: JSONObject = field(default_factory=dict)


@dataclass(frozen=True, kw_only=True)
class DiceRolled(GameEvent):
    TYPE: ClassVar[str] = "dice_rolled"
    seat: int  # who threw
    values: tuple[int, ...]
    purpose: str = "break"  # "break", "break2", "seating", ...
    source: str = "electronic"  # "electronic" (Pi CSPRNG) or "camera" (physical dice read)


@dataclass(frozen=True, kw_only=True)
class WallBroken(GameEvent):
    TYPE: ClassVar[str] = "wall_broken"
    wall_side: int  # seat whose wall is broken
    stack: int  # stack index counted from that wall's right end, as the profile counts
    position: int  # index into the wall-order sequence where drawing starts


@dataclass(frozen=True, kw_only=True)
class Dealt(GameEvent):
    TYPE: ClassVar[str] = "dealt"
    seat: int
    tiles: tuple[str, ...]  # "x" for each tile the observer cannot see


@dataclass(frozen=True, kw_only=True)
class Drew(GameEvent):
    TYPE: ClassVar[str] = "drew"
    seat: int
    tile: str = "x"
    source: str = "wall"  # "wall", "replacement" (kong/flower), "dead_wall"


@dataclass(frozen=True, kw_only=True)
class FlowerDeclared(GameEvent):
    TYPE: ClassVar[str] = "flower_declared"
    seat: int
    tile: str


@dataclass(frozen=True, kw_only=True)
class MissingSuitDeclared(GameEvent):
    TYPE: ClassVar[str] = "missing_suit_declared"
    seat: int
    suit: str  # "m", "p" or "s"


@dataclass(frozen=True, kw_only=True)
class Discarded(GameEvent):
    TYPE: ClassVar[str] = "discarded"
    seat: int
    tile: str
    tsumogiri: bool | None = None  # the drawn tile itself (None = not known)
    riichi: bool = False  # sideways riichi declaration discard


@dataclass(frozen=True, kw_only=True)
class Claimed(GameEvent):
    """A claim announced on a discard (before arbitration): ``kind`` chow/pung/kong/hu."""

    TYPE: ClassVar[str] = "claimed"
    seat: int
    kind: str
    from_seat: int
    tile: str
    tiles: tuple[str, ...] = ()  # tiles shown from the hand for the meld
    slot: int = 0  # mcr-siamese: the player's hand (0/1) that receives the meld or the win (003 §Сиамский 10)


@dataclass(frozen=True, kw_only=True)
class MeldMade(GameEvent):
    """A meld that arbitration granted: ``kind`` chow/pung/kong_open/kong_concealed/kong_added."""

    TYPE: ClassVar[str] = "meld_made"
    seat: int
    kind: str
    tiles: tuple[str, ...]
    from_seat: int | None = None
    claimed_tile: str | None = None
    drawn_tile: bool | None = None  # kong_added: the added tile is the tile just drawn (None = not known)
    slot: int = 0  # mcr-siamese: the player's hand (0/1) the meld goes to (003 §Сиамский 10)


@dataclass(frozen=True, kw_only=True)
class RiichiDeclared(GameEvent):
    TYPE: ClassVar[str] = "riichi_declared"
    seat: int
    double: bool = False


@dataclass(frozen=True, kw_only=True)
class DoraRevealed(GameEvent):
    TYPE: ClassVar[str] = "dora_revealed"
    indicator: str
    kind: str = "kan"  # "initial", "kan", "ura"


@dataclass(frozen=True, kw_only=True)
class Won(GameEvent):
    TYPE: ClassVar[str] = "won"
    seat: int
    tile: str
    from_seat: int | None = None  # None = self-drawn
    hand: str = ""  # the revealed hand in notation
    robbing_kong: bool = False
    kong_replacement: bool = False
    last_tile: bool = False
    slot: int = 0  # mcr-siamese: which of the player's two hands wins (003 §Сиамский 10-11)
    drawn_tile: bool | None = None  # mcr-siamese, self-drawn: the winning tile is the tile just drawn
    # (None = not known; a first win may keep the drawn tile, 003 §Сиамский 17)


@dataclass(frozen=True, kw_only=True)
class HandRevealed(GameEvent):
    """A player's concealed tiles shown (at a win, at the hand check, at an exhaustive draw).

    ``tiles``: every concealed tile the player holds at that moment (a self-drawn winning tile included,
    a winning discard not); ``winning``: the self-drawn winning tile shown apart ("" when none).
    """

    TYPE: ClassVar[str] = "hand_revealed"
    seat: int
    tiles: tuple[str, ...]
    winning: str = ""


@dataclass(frozen=True, kw_only=True)
class ExhaustiveDraw(GameEvent):
    TYPE: ClassVar[str] = "exhaustive_draw"
    tenpai: tuple[int, ...] = ()


@dataclass(frozen=True, kw_only=True)
class HandDead(GameEvent):
    """A seat's hand is declared dead for the rest of the hand (a judge's decision, or the referee's own
    finding such as a wrong tile count): it draws and discards, claims nothing, cannot win
    (Sichuan 000 §2.8.3, Red 001 §Перебор и недобор костей)."""

    TYPE: ClassVar[str] = "hand_dead"
    seat: int
    reason: str = ""  # a violation code, e.g. "tile_count", or "judge"
    rule: str = ""  # seed reference


@dataclass(frozen=True, kw_only=True)
class Payment(Event):
    """One line of a settlement: ``payer`` pays ``amount`` to ``payee`` (``None`` = the pot/the table)."""

    TYPE: ClassVar[str] = "payment"
    FAMILY: ClassVar[str] = "settlement"
    payer: int | None
    payee: int | None
    amount: int
    reason: str
    rule: str = ""  # seed reference, e.g. "000 §2.7.2"


@dataclass(frozen=True, kw_only=True)
class Settled(GameEvent):
    TYPE: ClassVar[str] = "settled"
    payments: tuple[JSONObject, ...] = ()  # Payment.to_json() dicts
    deltas: tuple[int, ...] = ()  # per seat


@dataclass(frozen=True, kw_only=True)
class Violation(GameEvent):
    """An illegal action or claim: reported and played on, never an exception."""

    TYPE: ClassVar[str] = "violation"
    seat: int | None
    code: str  # machine-readable, e.g. "chow_not_from_left"
    rule: str  # seed reference
    message: str
    deferred: bool = False  # found at the reveal, against the recorded history
    action: JSONObject = field(default_factory=dict)  # the rejected event's JSON ({} when none)


@dataclass(frozen=True, kw_only=True)
class HandEnded(GameEvent):
    TYPE: ClassVar[str] = "hand_ended"
    next_dealer: int
    reason: str = ""


# ----------------------------------------------------------------------------------------------------------
# Observation events (the camera)


@dataclass(frozen=True, kw_only=True)
class ObservationEvent(Event):
    FAMILY: ClassVar[str] = "observation"
    frame: int = -1  # camera frame number


@dataclass(frozen=True, kw_only=True)
class PondTileSeen(ObservationEvent):
    TYPE: ClassVar[str] = "pond_tile_seen"
    seat: int
    index: int  # position in that seat's pond, discard order
    tile: str
    sideways: bool = False


@dataclass(frozen=True, kw_only=True)
class PondTileRemoved(ObservationEvent):
    TYPE: ClassVar[str] = "pond_tile_removed"
    seat: int
    index: int
    tile: str


@dataclass(frozen=True, kw_only=True)
class MeldSeen(ObservationEvent):
    TYPE: ClassVar[str] = "meld_seen"
    seat: int
    kind: str  # chow/pung/kong_open/kong_concealed/kong_added
    tiles: tuple[str, ...]  # "x" for face-down tiles
    claimed_index: int | None = None  # which tile lies sideways
    source: str | None = None  # "left" / "opposite" / "right" / None (concealed)


@dataclass(frozen=True, kw_only=True)
class TilesRevealed(ObservationEvent):
    TYPE: ClassVar[str] = "tiles_revealed"
    seat: int
    tiles: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class FlowerSeen(ObservationEvent):
    TYPE: ClassVar[str] = "flower_seen"
    seat: int
    tile: str


@dataclass(frozen=True, kw_only=True)
class DiceRead(ObservationEvent):
    TYPE: ClassVar[str] = "dice_read"
    values: tuple[int, ...]


@dataclass(frozen=True, kw_only=True)
class CardSeen(ObservationEvent):
    """A Sichuan hu card ("1"/"2"/"3") or MPL missing-suit card on the table."""

    TYPE: ClassVar[str] = "card_seen"
    seat: int
    card: str


@dataclass(frozen=True, kw_only=True)
class StickSeen(ObservationEvent):
    TYPE: ClassVar[str] = "stick_seen"
    seat: int
    kind: str  # "riichi", "honba"


# ----------------------------------------------------------------------------------------------------------
# Device events (the table's MCU and the Pi's GPIO)


@dataclass(frozen=True, kw_only=True)
class DeviceEvent(Event):
    FAMILY: ClassVar[str] = "device"


@dataclass(frozen=True, kw_only=True)
class ShuffleProgress(DeviceEvent):
    TYPE: ClassVar[str] = "shuffle_progress"
    stacks_built: tuple[int, ...]  # per side
    stacks_target: tuple[int, ...]


@dataclass(frozen=True, kw_only=True)
class DeviceDone(DeviceEvent):
    TYPE: ClassVar[str] = "device_done"
    operation: str  # "collect", "shuffle", "raise", "lower", "dice", ...


@dataclass(frozen=True, kw_only=True)
class DeviceFault(DeviceEvent):
    TYPE: ClassVar[str] = "device_fault"
    code: str  # e.g. "shuffle_timeout", "lift_limit_timeout"
    part: str  # e.g. "lift2", "chain"
    message: str = ""


@dataclass(frozen=True, kw_only=True)
class SensorChanged(DeviceEvent):
    TYPE: ClassVar[str] = "sensor_changed"
    sensor: str
    value: int


@dataclass(frozen=True, kw_only=True)
class ButtonPressed(DeviceEvent):
    TYPE: ClassVar[str] = "button_pressed"
    button: str  # "start", "dice", "call", "judge", ...
    seat: int | None = None
    call: str | None = None  # chow/pung/kong/hu/riichi/flower for a call panel


@dataclass(frozen=True, kw_only=True)
class LinkState(DeviceEvent):
    TYPE: ClassVar[str] = "link_state"
    state: str  # "up", "down", "mcu_reset"
    detail: str = ""


# ----------------------------------------------------------------------------------------------------------
# Service events (the table service's own record)


@dataclass(frozen=True, kw_only=True)
class ServiceEvent(Event):
    FAMILY: ClassVar[str] = "service"


@dataclass(frozen=True, kw_only=True)
class TableStateChanged(ServiceEvent):
    """The table cycle moved (controller.table_machine): idle, collecting, shuffling, ... fault, paused."""

    TYPE: ClassVar[str] = "table_state"
    hand_id: str = ""
    state: str
    previous: str
    trigger: str
    detail: str = ""


@dataclass(frozen=True, kw_only=True)
class TableReconciled(ServiceEvent):
    """After a restart the camera re-read the table and it was compared with the replayed record.

    ``result``: ``match`` (the table is as recorded), ``mismatch`` (``differences`` lists each one as
    ``{"seat", "zone", "expected", "seen"}``; the table stays paused), ``unchecked`` (nothing recorded to
    compare with, e.g. tiles being collected or a hand without a referee record), ``unreadable`` (no
    trusted camera read; ``detail`` says why). ``state``: the cycle state the hand resumes to; ``frames``:
    camera frames read.
    """

    TYPE: ClassVar[str] = "table_reconciled"
    hand_id: str = ""
    result: str
    state: str = ""
    differences: tuple[JSONObject, ...] = ()
    frames: int = 0
    detail: str = ""


# ----------------------------------------------------------------------------------------------------------
# Judge events (the judge's actions at the table's web page: the audit log, each with who made it)


@dataclass(frozen=True, kw_only=True)
class JudgeEvent(Event):
    FAMILY: ClassVar[str] = "judge"
    hand_id: str = ""  # the hand in play or last played ("" before the first)
    judge: str  # who: the name the judge logged in with
    client: str = ""  # the address the action came from


@dataclass(frozen=True, kw_only=True)
class JudgeAction(JudgeEvent):
    """A judge pressed a control: ``action`` = a table button (start, judge, abort, accept), pause, resume,
    login, logout, or an action a later part adds (answer, correct, undo, confirm, reject)."""

    TYPE: ClassVar[str] = "judge_action"
    action: str
    detail: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, kw_only=True)
class PenaltyAwarded(JudgeEvent):
    """A penalty the judge awarded: ``seat`` loses ``points``; ``paid``: what each seat receives (a penalty
    paid to the players: ``points`` is their sum) rather than nobody (000 §2.8.2: not paid to anybody);
    ``to_others``: paid to each other seat (a record without ``paid``: ``points`` to each, the offender paying
    them all — rules.game.penalty_catalogue.receipts)."""

    TYPE: ClassVar[str] = "penalty_awarded"
    seat: int
    points: int
    rule: str  # seed reference
    reason: str
    code: str = ""  # the profile's penalty code when chosen from its list
    to_others: bool = False
    # chosen from the profile's catalogue (rules/game/penalty_catalogue.py): what each seat receives (by seat;
    # empty: nobody, or ``to_others``), the offence's count on its ladder, when it is charged, a dead hand,
    # the hand in play dealt again (riichi's chombo, 004 line 278: the referee ends it, the payment is this one)
    paid: tuple[int, ...] = ()
    occurrence: int = 0
    when: str = "now"
    dead_hand: bool = False
    replay: bool = False


# ----------------------------------------------------------------------------------------------------------
# Referee events (controller.referee): what the camera reads only for the referee, the questions it asks the
# operator and the judge, their answers, judge corrections with their audit record, the timing of each
# claim and the confirmation of a result. Added for issue #17; no field of an event above changes.


@dataclass(frozen=True, kw_only=True)
class IndicatorSeen(ObservationEvent):
    """A tile turned face up on riichi's dead wall: ``kind`` ``dora`` (the initial indicator, index 0, then
    one per kan) or ``ura`` (the tiles under them, turned for a riichi winner at the end)."""

    TYPE: ClassVar[str] = "indicator_seen"
    index: int
    tile: str
    kind: str = "dora"


@dataclass(frozen=True, kw_only=True)
class RackCounted(ObservationEvent):
    """The camera counted ``standing`` tiles (their tops) in ``seat``'s rack, steady over two frames;
    ``apart``: how many of them stand apart at the right end (the tile just drawn is kept apart, 000 §2.5.3)."""

    TYPE: ClassVar[str] = "rack_counted"
    seat: int
    standing: int
    apart: int = 0


@dataclass(frozen=True, kw_only=True)
class RefereeEvent(Event):
    FAMILY: ClassVar[str] = "referee"
    hand_id: str = ""


@dataclass(frozen=True, kw_only=True)
class QuestionAsked(RefereeEvent):
    """The referee cannot see or cannot reconcile something and asks the operator / the judge (the hand
    waits for the answer; a question is not a violation). ``kind``: ``tile`` (an unreadable tile),
    ``impossible`` (an observation that contradicts the record), ``order`` (an ambiguous order),
    ``missing_suit``, ``slot`` (mcr-siamese: which hand a set goes to); ``subject``: what it is about (the
    observation's JSON, the seat, the zone, the index); ``choices``: the answers that fit (empty: free)."""

    TYPE: ClassVar[str] = "question"
    question_id: int
    kind: str
    seat: int | None = None
    subject: dict[str, Any] = field(default_factory=dict)
    choices: tuple[str, ...] = ()
    message: str = ""
    message_ru: str = ""


@dataclass(frozen=True, kw_only=True)
class QuestionAnswered(RefereeEvent):
    """The answer to question ``question_id`` (a tile, a suit, a seat, ``ignore`` ...), and who gave it."""

    TYPE: ClassVar[str] = "answer"
    question_id: int
    answer: str
    by: str = "operator"


@dataclass(frozen=True, kw_only=True)
class JudgeCorrection(RefereeEvent):
    """A judge corrects the referee's record of observations: ``op`` ``replace`` (input ``index`` becomes
    ``event``), ``insert`` (``event`` goes in before input ``index``; ``index`` = the record's length
    appends), ``delete`` (input ``index`` is dropped) or ``move`` (input ``index`` goes to position ``to``).
    Indices count the hand's referee inputs (``Referee.inputs``) as the correction finds them."""

    TYPE: ClassVar[str] = "correction"
    by: str
    op: str
    index: int
    event: dict[str, Any] = field(default_factory=dict)
    to: int = -1
    reason: str = ""


@dataclass(frozen=True, kw_only=True)
class CorrectionApplied(RefereeEvent):
    """The audit record of a judge correction: who, what changed, and the settlement before and after
    (``before`` / ``after``: deltas per seat, empty while the hand was not settled). ``revision``: the
    record's revision after it (the first record is revision 0)."""

    TYPE: ClassVar[str] = "correction_applied"
    by: str
    change: str
    revision: int
    before: tuple[int, ...] = ()
    after: tuple[int, ...] = ()
    payments_before: tuple[dict[str, Any], ...] = ()
    payments_after: tuple[dict[str, Any], ...] = ()
    violations_before: tuple[str, ...] = ()
    violations_after: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True)
class ClaimTimed(RefereeEvent):
    """When a claim came, on the shared clock: ``delay`` seconds from the frame in which the discard (or
    the added kong) settled to the call button or the frame of the claim; ``window`` the profile's limit."""

    TYPE: ClassVar[str] = "claim_timed"
    seat: int
    kind: str
    from_seat: int
    tile: str
    delay: float
    window: float
    late: bool = False
    source: str = "button"  # "button" or "camera"


@dataclass(frozen=True, kw_only=True)
class ResultConfirmed(RefereeEvent):
    """The hand's result may leave the table: every seat signed with its call button (``by`` ``seats``) or
    the judge confirmed it (``judge``). ``deltas``: the settlement confirmed."""

    TYPE: ClassVar[str] = "result_confirmed"
    by: str
    seats: tuple[int, ...] = ()
    deltas: tuple[int, ...] = ()
    revision: int = 0


@dataclass(frozen=True, kw_only=True)
class RefereeTick(RefereeEvent):
    """Time passed on the shared clock with nothing seen, and something was due then (a claim window
    closed, the reveals after an exhaustive draw ended): recorded so that a replay decides the same."""

    TYPE: ClassVar[str] = "referee_tick"
