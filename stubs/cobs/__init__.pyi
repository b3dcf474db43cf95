# Type stubs for cobs (1.2.x ships none): the part of its API firmware_bridge/framing.py uses.
