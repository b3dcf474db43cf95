"""The serial protocol to the table's microcontroller: framing, the reliable link layer, the Pi-side
bridge API and an emulator of the MCU that speaks the same protocol (docs/protocol.md).

Modules, bottom up:
  * ``crc`` — the frame check (CRC-32/ISO-HDLC from the standard library),
  * ``framing`` — header/payload/CRC, COBS with a 0x00 delimiter, an incremental decoder,
  * ``messages`` — every message type, its payload layout and the code tables,
  * ``state`` — the table status the Pi mirrors and the rules that keep it current,
  * ``transport`` — pyserial port + ``serial.threaded`` reader thread feeding a framing protocol object,
  * ``link`` — reliable delivery, heartbeats, sessions, reset detection, reconnection (threads),
  * ``bridge`` — the asyncio API for the controller (``await bridge.shuffle()``) and the event stream,
  * ``emulator`` — the MCU twin on a pty or TCP port, with simulated motors and fault injection.
"""
