"""Profiles by name. Each profile lives in its own module and is imported on first use."""
from __future__ import annotations

import importlib

from rules.profiles.base import Profile

# name -> (module, class); a profile's module is imported on first use (``mahjong-table --help`` stays fast).
PROFILES: dict[str, tuple[str, str]] = {
    "sichuan-mpl2025": ("rules.profiles.sichuan.profile", "SichuanMPL2025"),
    "sichuan-wmsg": ("rules.profiles.sichuan.profile", "SichuanWMSG"),
    "mcr": ("rules.profiles.mcr.profile", "MCR"),
    "mcr-siamese": ("rules.profiles.mcr.siamese", "MCRSiamese"),
    "riichi-ema2016": ("rules.profiles.riichi.profile", "RiichiEMA2016"),
    "red": ("rules.profiles.red.profile", "Red"),
    "basic": ("rules.profiles.basic", "Basic"),
}


class UnknownProfile(KeyError):
    def __str__(self) -> str:
        return f"unknown profile {self.args[0]!r} (known: {', '.join(PROFILES)})"


_cache: dict[str, Profile] = {}


def get(name: str) -> Profile:
    """The profile object for ``name``; raises :class:`UnknownProfile`."""
    if name in _cache:
        return _cache[name]
    if name not in PROFILES:
        raise UnknownProfile(name)
    mod_name, cls_name = PROFILES[name]
    prof: Profile = getattr(importlib.import_module(mod_name), cls_name)()
    _cache[name] = prof
    return prof


def names() -> list[str]:
    return list(PROFILES)

