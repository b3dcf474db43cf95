"""Profiles by name. Each profile lives in its own module and is imported on first use; a rule set that
lives elsewhere (a test's, a club's own) joins with :func:`register`.

The registry is the only list of rule sets: code outside ``rules/`` never names one, it asks a profile
for its data (``rules.game.protocols.RuleSet``, ``rules.game.table_data``)."""
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
        return f"unknown profile {self.args[0]!r} (known: {', '.join(names())})"


_cache: dict[str, Profile] = {}
_registered: dict[str, Profile] = {}  # name -> a profile registered at run time (register)


def get(name: str) -> Profile:
    """The profile object for ``name``; raises :class:`UnknownProfile`."""
    if name in _cache:
        return _cache[name]
    if name in _registered:
        return _registered[name]
    if name not in PROFILES:
        raise UnknownProfile(name)
    mod_name, cls_name = PROFILES[name]
    prof: Profile = getattr(importlib.import_module(mod_name), cls_name)()
    _cache[name] = prof
    return prof


def names() -> list[str]:
    """Every rule set's name: the built-in ones in their order, then those registered."""
    return list(PROFILES) + list(_registered)


def tournament_names() -> list[str]:
    """The rule sets tournaments play (``GameRules.tournament``: not ``basic``, the engine's test profile)."""
    return [n for n in names() if get(n).tournament]


def register(profile: Profile) -> Profile:
    """Add a rule set to the registry under its ``name`` (from then on :func:`get` and :func:`names` know
    it, and so does everything that asks them: the referee, the camera's conventions, the simulation);
    ValueError for a name without letters or one already known."""
    name = profile.name
    if not name or not name.strip() or name != name.strip():
        raise ValueError(f"a profile to register needs a name, not {name!r}")
    if name in PROFILES or name in _registered:
        raise ValueError(f"profile {name!r} is already registered")
    _registered[name] = profile
    return profile


def unregister(name: str) -> None:
    """Remove a rule set :func:`register` added (the built-in ones stay); UnknownProfile if none is."""
    if name not in _registered:
        raise UnknownProfile(name)
    del _registered[name]
