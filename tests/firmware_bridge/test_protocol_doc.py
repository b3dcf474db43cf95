"""docs/protocol.md is the firmware author's reference: its example frames and message table must be
exactly what the code sends."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from firmware_bridge import framing
from firmware_bridge.framing import Frame, FrameDecoder
from firmware_bridge.messages import (
    Ack,
    Configure,
    Delivery,
    Dice,
    DiceKind,
    Done,
    EStop,
    Fault,
    FaultCode,
    Hello,
    HelloInfo,
    Indicators,
    Lift,
    McuHeartbeat,
    Op,
    Part,
    PiHeartbeat,
    Progress,
    Result,
    TableStatus,
    all_message_classes,
    parse,
)

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"

EXAMPLES = {
    "hello": (Hello(1, 1000), 1),
    "hello-ack": (Ack(Result.OK, HelloInfo(1, 1, 0, 0, 7, 4, DiceKind.POPPER, 0b1111, 2, 0xFE, 20).pack()), 1),
    "pi-heartbeat": (PiHeartbeat(), 0),
    "mcu-heartbeat": (McuHeartbeat(7, 123456, 1), 0),
    "configure": (Configure(136, (17, 17, 17, 17), 0), 2),
    "ack-ok": (Ack(Result.OK), 2),
    "lift": (Lift(0x0F, 1), 3),
    "dice": (Dice(600), 4),
    "indicators": (Indicators(2, 0, 0, 2), 5),
    "estop": (EStop(), 6),
    "ack-busy": (Ack(Result.BUSY), 4),
    "progress": (Progress(Op.SHUFFLE, 9, (5, 4, 4, 4), (17, 17, 17, 17)), 1),
    "done": (Done(Op.SHUFFLE, 9), 2),
    "fault": (Fault(FaultCode.LIFT_LIMIT_TIMEOUT, Part.LIFT2, Op.LIFT, 3), 3),
    "event-ack": (Ack(Result.OK), 3),
}


def doc_examples() -> dict[str, tuple[bytes, bytes]]:
    text = DOC.read_text()
    block = text.split("<!-- frame-examples")[1].split("```text")[1].split("```")[0]
    out = {}
    for m in re.finditer(r"^example (\S+).*\n\s+raw\s+([0-9a-f ]+)\n\s+wire\s+([0-9a-f ]+)$", block, re.M):
        out[m.group(1)] = (bytes.fromhex(m.group(2)), bytes.fromhex(m.group(3)))
    return out


def test_every_example_is_in_the_doc():
    assert set(doc_examples()) == set(EXAMPLES)


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_example_frame_byte_for_byte(name):
    msg, seq = EXAMPLES[name]
    raw, wire = doc_examples()[name]
    frame = Frame(int(msg.TYPE), seq, msg.pack())
    assert framing.encode_raw(frame) == raw
    assert framing.encode(frame) == wire
    (decoded,) = FrameDecoder().feed(wire)
    assert decoded == frame
    assert parse(decoded.type, decoded.payload) == msg


def test_message_table_matches_the_code():
    rows = re.findall(r"^\| 0x([0-9a-f]{2}) \| (\w+) \| [^|]+ \| ([\w-]+) \| ([\d+n]+) \|", DOC.read_text(), re.M)
    table = {int(t, 16): (name, cls, size) for t, name, cls, size in rows}
    classes = all_message_classes()
    assert set(table) == {int(c.TYPE) for c in classes}
    for c in classes:
        name, delivery, size = table[int(c.TYPE)]
        assert name == c.TYPE.name
        assert delivery == c.DELIVERY.value
        assert size == ("1+n" if c.DELIVERY == Delivery.ACK else str(c.FORMAT.size))


def test_documented_response_sizes():
    text = DOC.read_text()
    assert f"**HelloInfo** ({HelloInfo.FORMAT.size} bytes, `{HelloInfo.FORMAT.format}`)" in text
    assert f"**TableStatus** ({TableStatus.FORMAT.size} bytes, `{TableStatus.FORMAT.format}`)" in text
