"""The CRC is exactly the variant docs/protocol.md pins (checked against a bitwise reference model)."""
from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge import crc


def reference_crc(data: bytes, width=crc.WIDTH, poly=crc.POLY, init=crc.INIT, refin=crc.REFIN,
                  refout=crc.REFOUT, xorout=crc.XOROUT) -> int:
    """The Rocksoft model, bit by bit, from the parameters alone."""
    def reflect(v: int, n: int) -> int:
        return int(f"{v:0{n}b}"[::-1], 2)

    top, mask = 1 << (width - 1), (1 << width) - 1
    reg = init
    for byte in data:
        if refin:
            byte = reflect(byte, 8)
        reg ^= byte << (width - 8)
        for _ in range(8):
            reg = ((reg << 1) ^ poly) & mask if reg & top else (reg << 1) & mask
    if refout:
        reg = reflect(reg, width)
    return reg ^ xorout


def test_check_value():
    assert crc.crc32(b"123456789") == crc.CHECK == 0xCBF43926
    assert reference_crc(b"123456789") == crc.CHECK


def test_documented_vectors():
    assert crc.crc32(b"") == 0
    assert crc.crc32(bytes.fromhex("01010100 01e803")) == 0xC34B6CB6


@given(st.binary(max_size=80))
def test_library_matches_the_documented_parameters(data):
    assert crc.crc32(data) == reference_crc(data)
