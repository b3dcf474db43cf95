"""The serial protocol to the table's microcontroller: framing, the reliable link layer, the Pi-side
bridge API and an emulator of the MCU that speaks the same protocol."""
