"""Framing: round trips, resynchronisation, and a decoder that random or mutated input cannot fool."""
from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge import framing
from firmware_bridge.crc import crc32
from firmware_bridge.framing import MAX_PAYLOAD, Frame, FrameDecoder
from tests.conftest import scaled

frames = st.builds(Frame, type=st.integers(0, 255), seq=st.integers(0, 0xFFFF),
                   payload=st.binary(max_size=MAX_PAYLOAD))


def crc_ok(f: Frame) -> bool:
    raw = framing.encode_raw(f)
    return crc32(raw[:-4]) == int.from_bytes(raw[-4:], "little")


@given(st.lists(frames, max_size=8))
def test_round_trip_in_one_stream(fs):
    wire = b"".join(framing.encode(f) for f in fs)
    assert wire.count(0) == len(fs)  # COBS: the delimiter is the only zero
    assert FrameDecoder().feed(wire) == fs


@given(st.lists(frames, min_size=1, max_size=5), st.data())
def test_any_split_of_the_stream_decodes_the_same(fs, data):
    wire = b"".join(framing.encode(f) for f in fs)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(wire)), max_size=6)))
    dec, out, prev = FrameDecoder(), [], 0
    for c in [*cuts, len(wire)]:
        out += dec.feed(wire[prev:c])
        prev = c
    assert out == fs


def test_max_length_is_enforced():
    f = Frame(1, 1, bytes(range(1, MAX_PAYLOAD + 1)))
    assert len(framing.encode(f)) == framing.MAX_ENCODED + 1 == 74
    try:
        framing.encode(Frame(1, 1, bytes(MAX_PAYLOAD + 1)))
    except ValueError:
        pass
    else:
        raise AssertionError("an over-long payload must be refused")


@given(st.binary(max_size=600))
def test_random_bytes_never_crash_and_only_valid_frames_come_out(noise):
    dec = FrameDecoder()
    for f in dec.feed(noise):
        assert crc_ok(f) and f.version == framing.PROTOCOL_VERSION


@given(st.binary(max_size=300), frames)
def test_resynchronises_after_garbage(garbage, f):
    dec = FrameDecoder()
    dec.feed(garbage)
    assert dec.feed(b"\x00" + framing.encode(f)) == [f]


def test_overrun_is_discarded_then_resynchronised():
    dec = FrameDecoder()
    good = framing.encode(Frame(0x10, 5))
    assert dec.feed(b"\x01" * 500 + b"\x00" + good) == [Frame(0x10, 5)]
    assert dec.stats.overruns == 1


def test_mutated_frames_never_deliver_a_corrupted_frame():
    """Flip, insert and delete bytes in a valid stream: what comes out is only ever an original frame."""
    rng = random.Random(1234)
    originals = [Frame(rng.randrange(256), rng.randrange(65536), rng.randbytes(rng.randrange(MAX_PAYLOAD)))
                 for _ in range(50)]
    wire = bytearray(b"".join(framing.encode(f) for f in originals))
    delivered = corrupt = 0
    for _ in range(scaled(300, 5000)):
        w = bytearray(wire)
        for _ in range(rng.randrange(1, 6)):
            i = rng.randrange(len(w))
            match rng.randrange(3):
                case 0:
                    w[i] ^= rng.randrange(1, 256)
                case 1:
                    w.insert(i, rng.randrange(256))
                case 2:
                    del w[i]
        dec = FrameDecoder()
        out = dec.feed(bytes(w))
        delivered += len(out)
        corrupt += dec.stats.crc_errors + dec.stats.cobs_errors
        assert all(f in originals for f in out)
    assert delivered > 0 and corrupt > 0  # both paths were exercised
