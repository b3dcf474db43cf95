"""The table's state as the Pi mirrors it: a pure function of the acknowledged commands and the events.

The MCU reports :class:`~firmware_bridge.messages.TableStatus` on request; between requests the Pi keeps it
current by applying the same transitions the firmware performs (docs/protocol.md, "Status transitions").
Only fields no event touches change on an acknowledgement (configuration, indicators, the e-stop latch);
everything an operation changes travels in the event stream, which is totally ordered, so the result does
not depend on how acknowledgements and events interleave on the wire.
The emulator keeps its own status through this very class, so a lost or doubled event shows up as a
difference between the two after a reconciliation.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from firmware_bridge.messages import (
    Configure,
    Done,
    EStop,
    Fault,
    Indicators,
    Message,
    Op,
    Progress,
    Result,
    Sensor,
    SensorEvent,
    TableStatus,
)

_COUNTERS = {Op.COLLECT: "collects", Op.SHUFFLE: "shuffles", Op.DICE: "dice_rolls"}
_LIFT_SENSORS = {Sensor.LIFT0_UP: 0, Sensor.LIFT1_UP: 1, Sensor.LIFT2_UP: 2, Sensor.LIFT3_UP: 3, Sensor.CENTRE_UP: 4}


def seq_after(a: int, b: int) -> bool:
    """u16 sequence number ``a`` comes after ``b`` (serial-number arithmetic, window 32767)."""
    return 0 < (a - b) & 0xFFFF < 0x8000


def op_bit(op: int) -> int:
    return 1 << (op - 1) if op else 0


def _set_bit(word: int, bit: int, on: bool) -> int:
    return word | bit if on else word & ~bit


@dataclass
class TableView:
    """A mutable holder of the current :class:`TableStatus` with the transition rules."""

    status: TableStatus = field(default_factory=TableStatus)

    def replace_all(self, status: TableStatus) -> None:
        """Reconciliation: take the MCU's reported status as the truth."""
        self.status = status

    def replace_if_current(self, status: TableStatus) -> bool:
        """A STATUS answer: taken as the truth unless the view already holds a newer event than it
        includes (an answer retransmitted, or read before events the view has applied since); then the
        stale snapshot is ignored. Returns whether it was taken."""
        if seq_after(self.status.event_seq, status.event_seq):
            return False
        self.status = status
        return True

    def apply_command(self, msg: Message, result: int) -> None:
        """A command the MCU acknowledged with ``result`` (only OK changes anything)."""
        if result != Result.OK:
            return
        s = self.status
        if isinstance(msg, Configure):
            s = replace(s, tile_count=msg.tile_count, stacks=tuple(msg.stacks), tile_set=msg.tile_set,
                        flags=s.flags | TableStatus.CONFIGURED)
        elif isinstance(msg, Indicators):
            s = replace(s, indicators=(msg.turn, msg.dealer, msg.wind, msg.light))
        elif isinstance(msg, EStop):
            s = replace(s, flags=s.flags | TableStatus.ESTOPPED)
        self.status = s

    def apply_event(self, msg: Message, seq: int | None = None) -> bool:
        """Apply an event; with its ``seq``, only if it is newer than the status (``event_seq``): an event
        whose effect a STATUS answer already included is not applied twice. Returns whether applied."""
        if seq is not None and not seq_after(seq, self.status.event_seq):
            return False
        s = self.status if seq is None else replace(self.status, event_seq=seq)
        if isinstance(msg, Progress):  # also sent once when an operation starts
            s = replace(s, busy=s.busy | op_bit(msg.op))
            if msg.op == Op.SHUFFLE:
                s = replace(s, built=tuple(msg.built))
        elif isinstance(msg, Done):
            s = replace(s, busy=s.busy & ~op_bit(msg.op))
            counter = _COUNTERS.get(Op(msg.op)) if msg.op in Op._value2member_map_ else None
            if counter:
                s = replace(s, **{counter: (getattr(s, counter) + 1) & 0xFFFF})
        elif isinstance(msg, Fault):
            s = replace(s, busy=s.busy & ~op_bit(msg.op), fault_code=msg.code, fault_part=msg.part)
        elif isinstance(msg, SensorEvent):
            if msg.sensor == Sensor.LID:
                s = replace(s, flags=_set_bit(s.flags, TableStatus.LID_OPEN, bool(msg.value)))
            elif msg.sensor == Sensor.CHAIN_ZERO:
                s = replace(s, flags=_set_bit(s.flags, TableStatus.CHAIN_ZERO_OK, bool(msg.value)))
            elif msg.sensor in _LIFT_SENSORS:
                s = replace(s, lifts=_set_bit(s.lifts, 1 << _LIFT_SENSORS[Sensor(msg.sensor)], bool(msg.value)))
        self.status = s
        return True
