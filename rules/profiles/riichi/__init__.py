"""Rule profile ``riichi-ema2016``: EMA 2016 riichi as played under the 004 tournament regulation.

``profile.RiichiEMA2016`` is the profile (``rules.profiles.registry`` loads it); the package imports nothing
itself (no import cycle through it).
"""
