"""Every message of the protocol: type codes, payload layouts (little-endian ``struct`` formats) and codes.

A message is a frozen dataclass; ``pack()`` gives its payload bytes and ``unpack(payload)`` reads them back.
Fields that are arrays (per side, per seat) are tuples whose lengths are given in ``ARRAYS``. The tables in
docs/protocol.md are generated from the same formats (``tests/firmware_bridge/test_protocol_doc.py`` checks
that they agree).
"""
from __future__ import annotations

import dataclasses
import struct
from dataclasses import dataclass
from enum import Enum, IntEnum
from typing import ClassVar, Self


class MsgType(IntEnum):
    HELLO = 0x01
    PI_HEARTBEAT = 0x02
    MCU_HEARTBEAT = 0x03
    ACK = 0x04
    STATUS = 0x10
    CONFIGURE = 0x11
    COLLECT = 0x12
    SHUFFLE = 0x13
    LIFT = 0x14
    DICE = 0x15
    INDICATORS = 0x16
    ESTOP = 0x17
    RESET = 0x18
    PROGRESS = 0x40
    DONE = 0x41
    FAULT = 0x42
    SENSOR = 0x43
    BUTTON = 0x44


class Delivery(Enum):
    """How a message is delivered (docs/protocol.md, "Delivery classes")."""

    UNRELIABLE = "unreliable"  # heartbeats: never acknowledged, never repeated
    ACK = "ack"  # the acknowledgement itself
    REPEATABLE = "repeatable"  # absolute target: retransmitted, re-sent after an MCU reset
    AT_MOST_ONCE = "at-most-once"  # retransmitted (dedup by seq), never re-sent after an MCU reset
    URGENT = "urgent"  # emergency stop: jumps the queue, executed on every copy (idempotent)
    EVENT = "event"  # MCU -> Pi, acknowledged by the Pi


class Result(IntEnum):
    """First payload byte of an ACK."""

    OK = 0
    NOT_SYNCED = 1  # no session: the MCU booted (or never saw HELLO) -> Pi re-synchronises
    BAD_MESSAGE = 2  # unknown type or wrong payload length
    BUSY = 3  # the part needed is running another operation
    BAD_ARGUMENT = 4
    ESTOPPED = 5  # emergency stop latched: only STATUS, INDICATORS, HELLO, ESTOP, RESET accepted
    UNSUPPORTED = 6  # not fitted on this table (capabilities)
    FAULTED = 7  # a fault is active on the part (lid open, jammed lift): RESET or fix first


class Op(IntEnum):
    """Long-running operations; bit ``op - 1`` of the status ``busy`` mask."""

    NONE = 0
    COLLECT = 1
    SHUFFLE = 2
    LIFT = 3
    DICE = 4


class FaultCode(IntEnum):
    SHUFFLE_TIMEOUT = 1  # shuffle not done within SHUFFLE_TIMEOUT_S (80 s)
    LIFT_LIMIT_TIMEOUT = 2  # a lift did not reach its limit switch in LIFT_TIMEOUT_S
    CHAIN_ZERO_LOST = 3  # distribution chain zero sensor not seen once per revolution
    PUSH_COUNT_WRONG = 4  # pusher counted a different number of tiles than configured
    STACK_COUNT_WRONG = 5  # stacks built on a side differ from the configured count
    MOTOR_OVERCURRENT = 6
    LID_OPEN = 7
    HEARTBEAT_LOST = 8  # no frame from the Pi for the heartbeat timeout: motors stopped
    EMERGENCY_STOP = 9  # an operation aborted by ESTOP


class Part(IntEnum):
    NONE = 0
    LIFT0 = 1
    LIFT1 = 2
    LIFT2 = 3
    LIFT3 = 4
    CENTRE_LIFT = 5
    TURNTABLE = 6
    MAGNET_RING = 7
    STACKER = 8
    CHAIN = 9
    DICE = 10
    LID = 11
    LINK = 12
    SIDE0 = 13
    SIDE1 = 14
    SIDE2 = 15
    SIDE3 = 16


class Sensor(IntEnum):
    LID = 1  # 1 = open
    CHAIN_ZERO = 2  # 1 = seen within the last revolution
    LIFT0_UP = 3  # upper limit switches, 1 = at limit
    LIFT1_UP = 4
    LIFT2_UP = 5
    LIFT3_UP = 6
    CENTRE_UP = 7


class Button(IntEnum):
    START = 1  # the table's own start/shuffle key (wired to the MCU on some frames)
    DICE = 2
    ESTOP_SWITCH = 3  # auxiliary contact of the hardwired e-stop, for information only


class DiceKind(IntEnum):
    NONE = 0
    POPPER = 1  # a motor under a dome, pulsed for N ms
    DISPLAY = 2  # electronic dice shown by the MCU


TILE_SETS = (108, 136, 144, 148)  # bit i of hello.tile_sets = TILE_SETS[i] supported
NO_SEAT = 0xFF
LIFT_BITS = 0x1F  # bits 0..3 side lifts of seats 0..3, bit 4 centre lift
SIDE_LIFTS = 0x0F


_TYPES: dict[int, type[Message]] = {}


@dataclass(frozen=True)
class Payload:
    """A fixed-layout payload: ``FORMAT`` packs the fields in order; tuple fields are expanded."""

    FORMAT: ClassVar[struct.Struct] = struct.Struct("<")
    ARRAYS: ClassVar[dict[str, int]] = {}

    def pack(self) -> bytes:
        flat: list[int] = []
        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            flat.extend(v) if f.name in self.ARRAYS else flat.append(int(v))
        return self.FORMAT.pack(*flat)

    @classmethod
    def unpack(cls, payload: bytes) -> Self:
        if len(payload) != cls.FORMAT.size:
            raise ValueError(f"{cls.__name__}: payload of {len(payload)} bytes, expected {cls.FORMAT.size}")
        flat: list[int] = list(cls.FORMAT.unpack(payload))
        kwargs: dict[str, int | tuple[int, ...]] = {}
        for f in dataclasses.fields(cls):
            n = cls.ARRAYS.get(f.name)
            if n is None:
                kwargs[f.name] = flat.pop(0)
            else:
                kwargs[f.name], flat = tuple(flat[:n]), flat[n:]
        return cls(**kwargs)


@dataclass(frozen=True)
class Message(Payload):
    """A message with a type code; sub-classes register themselves for :func:`parse`."""

    TYPE: ClassVar[MsgType]
    DELIVERY: ClassVar[Delivery]

    def __init_subclass__(cls, **kw: object) -> None:
        super().__init_subclass__(**kw)
        if "TYPE" in cls.__dict__:
            _TYPES[int(cls.TYPE)] = cls


# ---------------------------------------------------------------------------------------------- link


@dataclass(frozen=True)
class Hello(Message):
    """Pi -> MCU: start a session. The ACK carries :class:`HelloInfo`."""

    TYPE: ClassVar = MsgType.HELLO
    DELIVERY: ClassVar = Delivery.AT_MOST_ONCE
    FORMAT: ClassVar = struct.Struct("<BH")
    protocol_version: int = 1
    heartbeat_timeout_ms: int = 1000  # the MCU stops all motors after this long without a frame


@dataclass(frozen=True)
class HelloInfo(Payload):
    """The ACK payload of HELLO: versions and capabilities."""

    FORMAT: ClassVar = struct.Struct("<BBBBIBBBBHB")
    protocol_version: int
    fw_major: int
    fw_minor: int
    fw_patch: int
    boot_counter: int  # incremented at every MCU start: a change means the MCU was reset
    n_lifts: int  # side lifts
    dice_kind: int  # DiceKind
    tile_sets: int  # bit i = TILE_SETS[i] supported
    n_tile_sets: int  # 1 or 2 (two-set tables shuffle one set while the other is played)
    sensors: int  # bit s = Sensor(s) fitted
    max_stacks: int  # most stacks per side

    @property
    def tile_set_sizes(self) -> tuple[int, ...]:
        return tuple(n for i, n in enumerate(TILE_SETS) if self.tile_sets >> i & 1)


@dataclass(frozen=True)
class PiHeartbeat(Message):
    TYPE: ClassVar = MsgType.PI_HEARTBEAT
    DELIVERY: ClassVar = Delivery.UNRELIABLE


@dataclass(frozen=True)
class McuHeartbeat(Message):
    TYPE: ClassVar = MsgType.MCU_HEARTBEAT
    DELIVERY: ClassVar = Delivery.UNRELIABLE
    FORMAT: ClassVar = struct.Struct("<IIB")
    boot_counter: int
    uptime_ms: int
    flags: int  # bit0 synced (a session is open), bit1 motors running, bit2 e-stop latched

    SYNCED: ClassVar[int] = 1
    MOTORS: ClassVar[int] = 2
    ESTOPPED: ClassVar[int] = 4


@dataclass(frozen=True)
class Ack(Message):
    """Acknowledges frame ``seq`` (in the header). Payload: result byte, then the response if any."""

    TYPE: ClassVar = MsgType.ACK
    DELIVERY: ClassVar = Delivery.ACK
    result: int = Result.OK
    data: bytes = b""

    def pack(self) -> bytes:
        return bytes([self.result]) + self.data

    @classmethod
    def unpack(cls, payload: bytes) -> Ack:
        if not payload:
            raise ValueError("Ack: empty payload")
        return cls(result=payload[0], data=bytes(payload[1:]))


# ------------------------------------------------------------------------------------------ commands


@dataclass(frozen=True)
class StatusRequest(Message):
    """The ACK carries :class:`TableStatus`."""

    TYPE: ClassVar = MsgType.STATUS
    DELIVERY: ClassVar = Delivery.REPEATABLE


@dataclass(frozen=True)
class Configure(Message):
    TYPE: ClassVar = MsgType.CONFIGURE
    DELIVERY: ClassVar = Delivery.REPEATABLE
    FORMAT: ClassVar = struct.Struct("<H4BB")
    ARRAYS: ClassVar = {"stacks": 4}
    tile_count: int  # 108, 136, 144 or 148
    stacks: tuple[int, ...]  # stacks to build per side, seats 0..3
    tile_set: int = 0  # which of the two tile sets (0 or 1)


@dataclass(frozen=True)
class Collect(Message):
    """Open the centre and take the tiles in. DONE/FAULT op COLLECT follows."""

    TYPE: ClassVar = MsgType.COLLECT
    DELIVERY: ClassVar = Delivery.AT_MOST_ONCE


@dataclass(frozen=True)
class Shuffle(Message):
    """Shuffle and build the walls as configured. PROGRESS events, then DONE/FAULT op SHUFFLE."""

    TYPE: ClassVar = MsgType.SHUFFLE
    DELIVERY: ClassVar = Delivery.AT_MOST_ONCE


@dataclass(frozen=True)
class Lift(Message):
    """Move the lifts in ``mask`` to ``up`` (absolute). DONE/FAULT op LIFT when all reached their limit."""

    TYPE: ClassVar = MsgType.LIFT
    DELIVERY: ClassVar = Delivery.REPEATABLE
    FORMAT: ClassVar = struct.Struct("<BB")
    mask: int  # LIFT_BITS
    up: int  # 1 = up (walls raised), 0 = down


@dataclass(frozen=True)
class Dice(Message):
    """Pulse the dice motor for ``pulse_ms``. DONE op DICE when the pulse ended."""

    TYPE: ClassVar = MsgType.DICE
    DELIVERY: ClassVar = Delivery.AT_MOST_ONCE
    FORMAT: ClassVar = struct.Struct("<H")
    pulse_ms: int


@dataclass(frozen=True)
class Indicators(Message):
    """Set the table's lamps (absolute). 0xFF = off."""

    TYPE: ClassVar = MsgType.INDICATORS
    DELIVERY: ClassVar = Delivery.REPEATABLE
    FORMAT: ClassVar = struct.Struct("<BBBB")
    turn: int = NO_SEAT  # seat whose turn lamp is lit
    dealer: int = NO_SEAT
    wind: int = NO_SEAT  # round wind 0..3 (E S W N)
    light: int = 0  # status lamp: 0 off, 1 ready, 2 playing, 3 attention, 4 fault


@dataclass(frozen=True)
class EStop(Message):
    TYPE: ClassVar = MsgType.ESTOP
    DELIVERY: ClassVar = Delivery.URGENT


@dataclass(frozen=True)
class Reset(Message):
    """Reboot the MCU (the ACK is sent first). Clears an e-stop latch and faults."""

    TYPE: ClassVar = MsgType.RESET
    DELIVERY: ClassVar = Delivery.AT_MOST_ONCE


# ---------------------------------------------------------------------------------------- responses


@dataclass(frozen=True)
class TableStatus(Payload):
    """The ACK payload of STATUS: everything the Pi mirrors."""

    FORMAT: ClassVar = struct.Struct("<IBBH4BBB4B4BBBHHHH")
    ARRAYS: ClassVar = {"stacks": 4, "built": 4, "indicators": 4}
    boot_counter: int = 0
    flags: int = 0  # bit0 configured, bit1 e-stop latched, bit2 lid open, bit3 chain zero ok
    busy: int = 0  # bit (op-1) per running Op
    tile_count: int = 0
    stacks: tuple[int, ...] = (0, 0, 0, 0)
    tile_set: int = 0
    lifts: int = 0  # bit per lift, 1 = up (LIFT_BITS)
    built: tuple[int, ...] = (0, 0, 0, 0)  # stacks built per side by the last shuffle
    indicators: tuple[int, ...] = (NO_SEAT, NO_SEAT, NO_SEAT, 0)  # turn, dealer, wind, light
    fault_code: int = 0  # the last fault reported since boot, 0 = none
    fault_part: int = 0
    collects: int = 0  # operations completed since boot (u16, wrapping)
    shuffles: int = 0
    dice_rolls: int = 0
    event_seq: int = 0  # seq of the newest event whose effect is included (0 = none since boot)

    CONFIGURED: ClassVar[int] = 1
    ESTOPPED: ClassVar[int] = 2
    LID_OPEN: ClassVar[int] = 4
    CHAIN_ZERO_OK: ClassVar[int] = 8


# ------------------------------------------------------------------------------------------- events


@dataclass(frozen=True)
class Progress(Message):
    TYPE: ClassVar = MsgType.PROGRESS
    DELIVERY: ClassVar = Delivery.EVENT
    FORMAT: ClassVar = struct.Struct("<BH4B4B")
    ARRAYS: ClassVar = {"built": 4, "target": 4}
    op: int
    ref: int  # seq of the command that started the operation
    built: tuple[int, ...]
    target: tuple[int, ...]


@dataclass(frozen=True)
class Done(Message):
    TYPE: ClassVar = MsgType.DONE
    DELIVERY: ClassVar = Delivery.EVENT
    FORMAT: ClassVar = struct.Struct("<BH")
    op: int
    ref: int


@dataclass(frozen=True)
class Fault(Message):
    TYPE: ClassVar = MsgType.FAULT
    DELIVERY: ClassVar = Delivery.EVENT
    FORMAT: ClassVar = struct.Struct("<BBBH")
    code: int
    part: int
    op: int = Op.NONE  # the operation it ended, NONE if none was running
    ref: int = 0xFFFF


@dataclass(frozen=True)
class SensorEvent(Message):
    TYPE: ClassVar = MsgType.SENSOR
    DELIVERY: ClassVar = Delivery.EVENT
    FORMAT: ClassVar = struct.Struct("<BH")
    sensor: int
    value: int


@dataclass(frozen=True)
class ButtonEvent(Message):
    TYPE: ClassVar = MsgType.BUTTON
    DELIVERY: ClassVar = Delivery.EVENT
    FORMAT: ClassVar = struct.Struct("<BB")
    button: int
    seat: int = NO_SEAT


def parse(mtype: int, payload: bytes) -> Message:
    """Decode a payload by type. Raises ``ValueError`` for an unknown type or a wrong length."""
    cls = _TYPES.get(mtype)
    if cls is None:
        raise ValueError(f"unknown message type 0x{mtype:02x}")
    return cls.unpack(payload)


def all_message_classes() -> list[type[Message]]:
    return [_TYPES[k] for k in sorted(_TYPES)]


def code_name(enum: type[IntEnum], value: int) -> str:
    """``Part.LIFT2`` -> ``"lift2"``; unknown values -> ``"<enum>_<n>"`` (a newer firmware's code)."""
    try:
        return enum(value).name.lower()
    except ValueError:
        return f"{enum.__name__.lower()}_{value}"
