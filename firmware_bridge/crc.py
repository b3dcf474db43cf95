"""The frame check: CRC-32/ISO-HDLC (the Ethernet/zlib CRC-32), computed by the standard library.

Parameters (Rocksoft model), pinned in docs/protocol.md: width 32, poly 0x04C11DB7, init 0xFFFFFFFF,
refin true, refout true, xorout 0xFFFFFFFF, check("123456789") = 0xCBF43926. On the wire it is sent
little-endian after the payload.
"""
from __future__ import annotations

import zlib

NAME = "CRC-32/ISO-HDLC"
WIDTH = 32
POLY = 0x04C11DB7
INIT = 0xFFFFFFFF
REFIN = True
REFOUT = True
XOROUT = 0xFFFFFFFF
CHECK = 0xCBF43926  # crc32(b"123456789")


def crc32(data: bytes) -> int:
    """The CRC of ``data`` as an unsigned 32-bit integer."""
    return zlib.crc32(data) & 0xFFFFFFFF
