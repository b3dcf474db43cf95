"""The profile interface, scoring side: what ``mahjong-table score`` and the referee ask of a rule set.

A profile is one object (no global state) answering:

* ``check_hand(hand)`` — rule errors of the tile set (a fifth copy, a joker outside Red, a red five in
  MCR, a flower among concealed tiles...), separate from notation syntax errors;
* ``score(hand, ctx)`` — is the hand a legal win in this profile, its fans and points (:class:`ScoreResult`);
* ``waits(hand)`` / ``shanten(hand)`` — with the profile's shapes and its rule on waiting on a tile whose
  four copies the player holds.

``context_fields`` lists the context a profile reads (``self_drawn``, ``seat_wind``...): the CLI turns
them into flags and JSON fields, and rejects unknown fields. The game side of the interface (walls,
claims, settlement, rotation, standings) lives in ``rules.game`` (Foundation II).
"""
from __future__ import annotations

from collections.abc import Mapping

from rules.game.profile_api import GameRules
from rules.notation import Hand
from rules.scoring import ContextError, ContextField, ContextValue, ScoreResult, invalid
from rules.shapes import STANDARD_SHAPES, Shape, shanten, waits
from rules.tiles import KINDS, N_KINDS, Tile, counts34


class Profile(GameRules):
    """Base class of the rule profiles. Sub-classes set the class attributes and implement ``score``."""

    name: str = ""
    title: str = ""
    seed: str = ""  # seed document id, e.g. "000"
    players: tuple[int, ...] = (4,)
    shapes: frozenset[Shape] = STANDARD_SHAPES
    quads_as_two_pairs: bool = False  # seven pairs may hold four identical tiles as two pairs
    allows_jokers: bool = False
    allows_red_fives: bool = False
    allows_flowers: bool = False
    suits: str = "mpsz"  # suits in the tile set (Sichuan: "mps")
    context_fields: tuple[ContextField, ...] = ()

    # --- context --------------------------------------------------------------------------------------
    def context(self, fields: Mapping[str, ContextValue]) -> dict[str, ContextValue]:
        """Validate and complete a context mapping (unknown fields are an error)."""
        known = {f.name: f for f in self.context_fields}
        out = {f.name: f.default for f in self.context_fields}
        for k, v in fields.items():
            if k not in known:
                raise ContextError(f"unknown field {k!r} for profile {self.name}")
            out[k] = known[k].coerce(v)
        return out

    # --- tile-set rule checks -------------------------------------------------------------------------
    def check_hand(self, hand: Hand) -> list[str]:
        """Rule errors of this profile's tile set; empty when the tiles are possible in this profile."""
        errs: list[str] = []
        tiles = list(hand.all_concealed) + [t for m in hand.melds for t in m.tiles]
        if tiles and not hand.flowers:  # the usual hand: plain tiles of the profile's suits, counts to check
            hi = max(tiles)
            if hi < N_KINDS and (self.suits == "mpsz" or (hi < 27 and all(x in self.suits for x in "mps"))):
                per_kind = [0] * N_KINDS
                for t in tiles:
                    per_kind[t] += 1
                return [f'{per_kind[k]} copies of "{KINDS[k]}" (a set has four)' for k in range(N_KINDS)
                        if per_kind[k] > 4]
        for t in tiles + list(hand.flowers):
            s = t.suit
            if t.is_joker and not self.allows_jokers:
                errs.append(f"a joker is not part of the {self.name} tile set")
            elif t.is_red and not self.allows_red_fives:
                errs.append(f'a red five ("{t}") is not part of the {self.name} tile set')
            elif t.is_flower and not self.allows_flowers:
                errs.append(f'flowers ("{t}") are not part of the {self.name} tile set')
            elif s in "mpsz" and s not in self.suits:
                errs.append(f'"{t}" is not part of the {self.name} tile set (suits: {self.suits})')
        for t in hand.all_concealed:
            if t.is_flower:
                errs.append(f'a flower ("{t}") cannot stay among the concealed tiles; put it after "|"')
            if t.is_unknown:
                errs.append('an unknown tile "x" cannot be scored')
        c = counts34(tiles)
        for k in range(N_KINDS):
            if c[k] > 4:
                errs.append(f'{c[k]} copies of "{KINDS[k]}" (a set has four)')
        reds: dict[str, int] = {}
        for t in tiles:
            if t.is_red:
                reds[t.suit] = reds.get(t.suit, 0) + 1
        for s, n in reds.items():
            if n > 1:
                errs.append(f'{n} red fives "0{s}" (a set has one)')
        fl = [str(f) for f in hand.flowers]
        for f in set(fl):
            if fl.count(f) > 1:
                errs.append(f'flower "{f}" appears {fl.count(f)} times')
        out: list[str] = []
        for e in errs:
            if e not in out:
                out.append(e)
        return out

    def check_tile_count(self, hand: Hand, with_winning: bool) -> str | None:
        want = 14 if with_winning else 13
        n = hand.tile_count
        if n != want:
            return f"the hand has {n} tiles counting each set as three; {want} expected"
        return None

    # --- shapes ---------------------------------------------------------------------------------------
    def waits(self, hand: Hand) -> list[Tile]:
        """Tiles that complete a 13-tile hand (shape only; situational rules are the referee's)."""
        c = counts34(hand.concealed)
        return [KINDS[k] for k in waits(c, len(hand.melds), self.shapes, self.quads_as_two_pairs)]

    def shanten(self, hand: Hand) -> int:
        c = counts34(hand.all_concealed)
        return shanten(c, len(hand.melds), self.shapes, self.quads_as_two_pairs)

    # --- scoring --------------------------------------------------------------------------------------
    def score(self, hand: Hand, ctx: Mapping[str, ContextValue]) -> ScoreResult:  # pragma: no cover - abstract
        raise NotImplementedError

    def score_checked(self, hand: Hand, ctx: Mapping[str, ContextValue]) -> ScoreResult:
        """Rule checks, then ``score``. ``ctx`` must come from :meth:`context`."""
        errs = self.check_hand(hand)
        if errs:
            return invalid("; ".join(errs))
        if hand.winning is None:
            return invalid('the hand has no winning tile (add "+ TILE")')
        bad = self.check_tile_count(hand, with_winning=True)
        if bad:
            return invalid(bad)
        return self.score(hand, ctx)
