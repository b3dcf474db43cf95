"""MCR — Mahjong Competition Rules (Chinese Official, 81 fan), seed 003, and its Siamese variant.

* ``MCR`` — profile ``mcr`` (four players, 144 tiles, 81 fans, 8-fan minimum);
* ``MCRSiamese`` — profile ``mcr-siamese`` (003 «Сиамский», spec §11: two hands per player);
* ``MCROptions`` / ``GREEN_BOOK`` — the named options where the seed differs from the Green Book.
"""
from __future__ import annotations

from rules.profiles.mcr.options import GREEN_BOOK, SEED, MCROptions
from rules.profiles.mcr.profile import MCR
from rules.profiles.mcr.siamese import MCRSiamese

__all__ = ["MCR", "MCRSiamese", "MCROptions", "GREEN_BOOK", "SEED"]
