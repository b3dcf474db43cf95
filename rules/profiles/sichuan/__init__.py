"""Sichuan Bloody Mahjong: profiles ``sichuan-mpl2025`` (seed 000) and ``sichuan-wmsg`` (seed 002).

Modules: ``profile`` (the two profiles), ``params`` (the §12.2 parameter table and fan tables as data),
``fans`` (one function per fan), ``scoring`` (wins, tenpai, exhaustion maximum), ``settlement`` (the
per-hand ledger: every payment with its reason and seed reference), ``penalties``, ``session`` (dealer
rotation, TP, session end), ``claims`` (claim arbitration, kong restrictions, furiten), ``game`` (the hand
machine's hooks); the dice, the wall and the deal are ``rules.wall``'s (``WALLS["sichuan"]``). The package
imports nothing itself (no import cycle through it).
"""
