"""MCR — Mahjong Competition Rules (Chinese Official, 81 fan), seed 003, and its Siamese variant.

* ``profile.MCR`` — profile ``mcr`` (four players, 144 tiles, 81 fans, 8-fan minimum);
* ``siamese.MCRSiamese`` — profile ``mcr-siamese`` (003 «Сиамский», spec §11: two hands per player);
* ``options.MCROptions`` / ``GREEN_BOOK`` — the named options where the seed differs from the Green Book.

The package imports nothing itself (no import cycle through it); ``rules.profiles.registry`` loads the
profiles by module.
"""
