"""Fuzzed serial frames from the MCU (and to it): no crash, no hang, the link survives and stays usable.

Frames are valid frames mutated (bit flips, cuts, joins, random types with a correct CRC, random payloads),
streamed through the Pi's decoder, message parser and link, and through the emulated MCU's frame handler:
1,000,000 frames at long size (``make test-long``), 20,000 at ``make test`` size.
"""
from __future__ import annotations

import random
import threading

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge import framing
from firmware_bridge.framing import MAX_PAYLOAD, Frame, FrameDecoder
from firmware_bridge.link import Link
from firmware_bridge.messages import MsgType, parse
from tests.conftest import scaled

TYPES = [int(t) for t in MsgType]


def mutated_stream(rng: random.Random, n: int):
    """``n`` frames' worth of bytes, in chunks as a UART would deliver them."""
    for _ in range(n):
        kind = rng.random()
        mtype = rng.choice(TYPES) if rng.random() < 0.8 else rng.randrange(256)
        payload = bytes(rng.randrange(256) for _ in range(rng.choice((0, 1, 2, 3, 5, 9, 11, 15, 32, MAX_PAYLOAD))))
        wire = framing.encode(Frame(mtype, rng.randrange(0x10000), payload))
        if kind < 0.3:  # bit flips
            b = bytearray(wire)
            for _ in range(rng.randrange(1, 4)):
                b[rng.randrange(len(b))] ^= 1 << rng.randrange(8)
            wire = bytes(b)
        elif kind < 0.4:  # cut short, or the delimiter lost
            wire = wire[:rng.randrange(len(wire))]
        elif kind < 0.45:  # line noise
            wire = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 200)))
        yield wire


class Quiet(Link):
    """A link with no port: frames are fed straight in, nothing is written back."""

    def __init__(self) -> None:
        super().__init__("loop://", on_event=lambda m, s, t: None, on_state=lambda s, d: None)
        self._synced = True  # as if a session were up: events are delivered and acknowledged

    def _write_frame(self, msg, seq):  # no transport
        return None


def test_a_million_fuzzed_frames_neither_crash_nor_hang_the_pi_side():
    n = scaled(20_000, 1_000_000)
    rng = random.Random(16)
    dec = FrameDecoder()
    link = Quiet()
    delivered = parsed = 0
    chunk = bytearray()
    for wire in mutated_stream(rng, n):
        chunk += wire
        if len(chunk) < rng.randrange(1, 300):  # deliver in UART-sized chunks
            continue
        for frame in dec.feed(bytes(chunk)):
            delivered += 1
            try:
                parse(frame.type, frame.payload)
                parsed += 1
            except ValueError:
                pass
            link._frame_in(frame)  # the link's receive path: acks, events, heartbeats, resets
        chunk.clear()
    s = dec.stats
    assert delivered > n // 3 and parsed > 0  # the valid frames got through
    assert s.crc_errors + s.cobs_errors + s.overruns > n // 20  # and the broken ones were dropped, counted
    assert link.stats.rx_frames == delivered and link.stats.bad_payloads == delivered - parsed


def test_fuzzed_frames_neither_crash_nor_hang_the_emulated_mcu():
    from firmware_bridge.emulator.mcu import McuEmulator

    class NullPort:
        url = "null"

        def write(self, data):
            pass

        def read(self, timeout):
            return b""

        def close(self):
            pass

    emu = McuEmulator(NullPort(), time_scale=1000.0)
    rng = random.Random(61)
    dec = FrameDecoder()
    n = scaled(5_000, 200_000)
    done = threading.Event()

    def feed():
        for wire in mutated_stream(rng, n):
            for frame in dec.feed(wire + b"\x00"):
                emu._frame(frame)
                emu._service(emu._last_rx)
        done.set()

    t = threading.Thread(target=feed, daemon=True)
    t.start()
    assert done.wait(600), "the emulated MCU hung on fuzzed frames"
    assert emu.view.status.boot_counter >= 1


@settings(max_examples=scaled(300, 5000))
@given(st.binary(max_size=600))
def test_any_bytes_decode_to_valid_frames_only(data):
    for f in FrameDecoder().feed(data):
        assert 0 <= f.seq <= 0xFFFF and len(f.payload) <= MAX_PAYLOAD and f.version == framing.PROTOCOL_VERSION


@settings(max_examples=scaled(300, 5000))
@given(st.integers(0, 255), st.binary(max_size=MAX_PAYLOAD))
def test_any_payload_parses_or_is_refused_with_value_error(mtype, payload):
    try:
        msg = parse(mtype, payload)
    except ValueError:
        return
    assert msg.pack() == payload  # what parses is exactly what it says
