"""Hardware-in-the-loop tests: the MCU emulator and gpiozero mock pins by default, the real table with
``--hw=real``."""
