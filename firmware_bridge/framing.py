"""Frames on the wire: header, payload and CRC, COBS-encoded and ended by a 0x00 delimiter.

Raw frame (before COBS), all integers little-endian::

    offset  size  field
    0       1     version   protocol version (PROTOCOL_VERSION)
    1       1     type      message type (firmware_bridge.messages.MsgType)
    2       2     seq       sequence number (u16); for an ACK: the seq being acknowledged
    4       n     payload   0..MAX_PAYLOAD bytes, layout per message type
    4+n     4     crc       CRC-32/ISO-HDLC over bytes 0..4+n-1

The decoder resynchronises on the next 0x00 after any garbage, drops frames that are too long, fail COBS or
fail the CRC, and counts every drop. It never raises on input bytes.
"""
from __future__ import annotations

import struct
from dataclasses import dataclass, field

from cobs import cobs

from firmware_bridge.crc import crc32

PROTOCOL_VERSION = 1
DELIMITER = b"\x00"
HEADER = struct.Struct("<BBH")
CRC = struct.Struct("<I")
MAX_PAYLOAD = 64
MAX_RAW = HEADER.size + MAX_PAYLOAD + CRC.size  # 72
MIN_RAW = HEADER.size + CRC.size  # 8
MAX_ENCODED = MAX_RAW + 1  # COBS adds one byte per started 254-byte block: 73 (plus the delimiter: 74)


@dataclass(frozen=True)
class Frame:
    """One decoded frame: message type, sequence number and raw payload bytes."""

    type: int
    seq: int
    payload: bytes = b""
    version: int = PROTOCOL_VERSION


def encode_raw(frame: Frame) -> bytes:
    """Header + payload + CRC, before COBS (what the CRC test vectors in docs/protocol.md show)."""
    if len(frame.payload) > MAX_PAYLOAD:
        raise ValueError(f"payload of {len(frame.payload)} bytes exceeds {MAX_PAYLOAD}")
    body = HEADER.pack(frame.version, frame.type, frame.seq & 0xFFFF) + frame.payload
    return body + CRC.pack(crc32(body))


def encode(frame: Frame) -> bytes:
    """The bytes to write: COBS(raw frame) followed by the 0x00 delimiter."""
    return cobs.encode(encode_raw(frame)) + DELIMITER


def decode_raw(raw: bytes) -> Frame | None:
    """Parse a raw (COBS-decoded) frame; ``None`` if it is too short/long or the CRC fails."""
    if not MIN_RAW <= len(raw) <= MAX_RAW:
        return None
    body, (crc,) = raw[:-CRC.size], CRC.unpack_from(raw, len(raw) - CRC.size)
    if crc32(body) != crc:
        return None
    version, mtype, seq = HEADER.unpack_from(body)
    return Frame(type=mtype, seq=seq, payload=bytes(body[HEADER.size:]), version=version)


@dataclass
class DecoderStats:
    frames: int = 0
    crc_errors: int = 0  # wrong length or CRC mismatch
    cobs_errors: int = 0
    overruns: int = 0  # more than MAX_ENCODED bytes without a delimiter
    bad_version: int = 0


@dataclass
class FrameDecoder:
    """Incremental decoder: ``feed(bytes)`` returns the complete, valid frames found so far."""

    stats: DecoderStats = field(default_factory=DecoderStats)
    _buf: bytearray = field(default_factory=bytearray)
    _overrun: bool = False  # discarding until the next delimiter

    def feed(self, data: bytes) -> list[Frame]:
        out: list[Frame] = []
        start = 0
        while True:
            end = data.find(0, start)
            chunk = data[start:] if end < 0 else data[start:end]
            if not self._overrun:
                self._buf += chunk
                if len(self._buf) > MAX_ENCODED:
                    self._buf.clear()
                    self._overrun = True
                    self.stats.overruns += 1
            if end < 0:
                return out
            if not self._overrun and self._buf:
                frame = self._decode(bytes(self._buf))
                if frame is not None:
                    out.append(frame)
            self._buf.clear()
            self._overrun = False
            start = end + 1

    def _decode(self, encoded: bytes) -> Frame | None:
        try:
            raw = cobs.decode(encoded)
        except cobs.DecodeError:
            self.stats.cobs_errors += 1
            return None
        frame = decode_raw(raw)
        if frame is None:
            self.stats.crc_errors += 1
            return None
        if frame.version != PROTOCOL_VERSION:
            self.stats.bad_version += 1
            return None
        self.stats.frames += 1
        return frame

    def reset(self) -> None:
        """Forget a partial frame (after a reconnect)."""
        self._buf.clear()
        self._overrun = False
