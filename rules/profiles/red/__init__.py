"""Red Mahjong (seed 001): 2 to 4 players, 144/148 tiles with jokers, no kongs, 18 additive fans.

Modules: ``profile`` (the :class:`Red` profile: rule checks, waits, scoring), ``arrangement`` (readings of
a hand, the chaotic hand), ``fans`` (the fan table as data) and ``detectors`` (one per fan), ``scoring``,
``payments`` («Схема выплат», settlement records), ``penalties`` («Штрафы» and irregularities),
``claims`` (claim arbitration), ``seating`` (seats by dice, counting sticks),
``flowers`` (flower replacement), ``game`` (the hand machine's hooks). The package imports nothing
itself (no import cycle through it); ``rules.profiles.registry`` loads ``profile.Red``.
"""
