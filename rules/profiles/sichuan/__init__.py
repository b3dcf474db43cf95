"""Sichuan Bloody Mahjong: profiles ``sichuan-mpl2025`` (seed 000) and ``sichuan-wmsg`` (seed 002).

Modules: ``params`` (the §12.2 parameter table and fan tables as data), ``fans`` (one function per fan),
``scoring`` (wins, tenpai, exhaustion maximum); the dice, the wall and the deal are ``rules.wall``'s (``WALLS["sichuan"]``),
``settlement`` (the per-hand ledger: every payment with its reason and seed reference), ``penalties``,
``session`` (dealer rotation, TP, session end), ``claims`` (claim arbitration, kong restrictions,
furiten), ``game`` (the hand machine's hooks; random hands are played by ``rules.simulate``).
"""
from rules.profiles.sichuan.profile import SichuanMPL2025, SichuanProfile, SichuanWMSG

__all__ = ["SichuanMPL2025", "SichuanProfile", "SichuanWMSG"]
