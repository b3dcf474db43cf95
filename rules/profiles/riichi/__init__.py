"""Rule profile ``riichi-ema2016``: EMA 2016 riichi as played under the 004 tournament regulation."""

from rules.profiles.riichi.profile import RiichiEMA2016

__all__ = ["RiichiEMA2016"]
