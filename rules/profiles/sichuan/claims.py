"""Claims on a discard, kong restrictions and furiten (000 §2.5.1, §2.5.5-7, §2.6.1.5-6, §2.6.2.5; 002 §2-3).

Pure functions: the game machine (or a referee) asks them and reports the violations they name; nothing
here raises for a player's mistake.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from rules.profiles.sichuan.params import SichuanParams
from rules.profiles.sichuan.session import winners_in_turn_order

CLAIM_KINDS = ("pung", "kong", "hu")  # 000 §2.5.1: no chow (002 §2.1)


@dataclass(frozen=True)
class Claim:
    seat: int
    kind: str  # "pung", "kong" (open kong), "hu"; "chow" is always rejected
    at: float = 0.0  # seconds after the discard


@dataclass(frozen=True)
class Rejected:
    claim: Claim
    code: str
    rule: str
    message: str


@dataclass(frozen=True)
class Arbitration:
    hu: tuple[int, ...]  # winners on the tile, counter-clockwise from the discarder
    meld: Claim | None  # the pung/kong that is executed (only when nobody won)
    rejected: tuple[Rejected, ...] = ()
    ignored: tuple[Claim, ...] = ()  # pung/kong claims overridden by hu (000 §2.6.2.5)


def arbitrate(
    params: SichuanParams,
    discarder: int,
    claims: Iterable[Claim],
    in_play: Iterable[int],
    dead: Iterable[int] = (),
    wall_empty: bool = False,
    tile_suit: str | None = None,
    missing_suits: Mapping[int, str] | None = None,
) -> Arbitration:
    """Decide the claims on one discard (spec §6.5).

    Every eligible hu wins (several allowed: 000 §2.6.1.6, 002 §3.3; up to three, AMB-15) and voids the
    pung/kong claims (000 §2.6.2.5). Otherwise the pung/kong is executed (two can never coexist: 2+2
    copies plus the discard exceed four). Rejected: chows, late claims (> 3 s, 000 §2.5.1.3, §2.8.2.5),
    players out of play or under dead hand (000 §2.8.3), kongs on the last tile (000 §2.5.5, §2.5.7),
    claims on a tile of the claimer's missing suit (000 §2.4.10.3, a serious violation: flag).
    """
    active = set(in_play) - {discarder}
    dead = set(dead)
    missing = dict(missing_suits or {})
    rejected: list[Rejected] = []
    ok: list[Claim] = []
    for c in claims:
        if c.kind not in CLAIM_KINDS:
            rejected.append(Rejected(c, "chow_claim" if c.kind == "chow" else "unknown_claim",
                                     params.rule("000 §2.5.1", "002 §2.1"), f"no {c.kind} claims in Sichuan"))
        elif c.at > params.claim_window_s:
            rejected.append(Rejected(c, "late_call", "000 §2.5.1.3, §2.8.2.5",
                                     f"claimed {c.at:.1f} s after the discard (window {params.claim_window_s:g} s)"))
        elif c.seat not in active:
            rejected.append(Rejected(c, "not_in_play", "000 §2.6.2.2", "the player is out of play"))
        elif c.seat in dead:
            rejected.append(Rejected(c, "dead_hand_claim", "000 §2.8.3", "a dead hand may not claim"))
        elif c.kind == "kong" and wall_empty:
            rejected.append(Rejected(c, "kong_on_last_tile", "000 §2.5.5, §2.5.7", "no kong with the wall empty"))
        elif tile_suit is not None and missing.get(c.seat) == tile_suit:
            rejected.append(Rejected(c, "missing_suit_claim", "000 §2.4.10.3",
                                     "a set or hu with tiles of the missing suit is forbidden (serious violation)"))
        else:
            ok.append(c)
    hu_seats = [c.seat for c in ok if c.kind == "hu"]
    melds = [c for c in ok if c.kind != "hu"]
    if hu_seats:
        return Arbitration(tuple(winners_in_turn_order(discarder, set(hu_seats))), None, tuple(rejected),
                           tuple(melds))
    meld = min(melds, key=lambda c: c.at) if melds else None
    return Arbitration((), meld, tuple(rejected), tuple(m for m in melds if m is not meld))


def kong_problem(kind: str, wall_left: int, claimed_pung_this_turn: bool, drew_this_turn: bool) -> str | None:
    """Why a kong may not be declared now, or None (000 §2.5.5, §2.5.7; spec §6.7).

    No kong of any type with the wall empty (no replacement tile); concealed and added kongs only in a
    turn that began with a tile from the wall, never in the turn of a claimed pung [AMB-16: the open kong
    is made on a discard].
    """
    if wall_left <= 0:
        return "no kong when the wall has no tiles left (000 §2.5.7)"
    if kind in ("concealed", "added"):
        if claimed_pung_this_turn:
            return "no kong in the turn a pung was claimed (000 §2.5.7)"
        if not drew_this_turn:
            return "a concealed or added kong needs a tile from the wall this turn (000 §2.5.7)"
    return None


@dataclass
class Furiten:
    """Furiten per profile (spec §6.10).

    MPL (000 §2.6.1.5): a hu on a discard of kind *t* is furiten when a tile of kind *t* was discarded
    (by anyone, himself included) since the player's last wall draw or claimed set — unless the hand is
    now worth more (capped base points [Interp AMB-07]). ``passed`` keeps, per seat, the kinds seen and
    the value the hand would have had on them (None: unknown → any value counts as not higher).
    WMSG (002 §3.4): after passing a possible discard win, no discard win until the next wall draw,
    except at a higher value [Interp: "другую" read as higher].
    """

    params: SichuanParams
    seen: dict[int, dict[int, int | None]] = field(default_factory=dict)  # MPL: seat -> kind -> value
    blocked: dict[int, int] = field(default_factory=dict)  # WMSG: seat -> value passed

    def on_discard(self, kind: int, seats: Iterable[int], values: Mapping[int, int | None] | None = None) -> None:
        """A tile of ``kind`` was discarded; ``values`` the hand values it offered (wins passed)."""
        values = values or {}
        for s in seats:
            if self.params.furiten_scope == "same_kind":
                cur = self.seen.setdefault(s, {})
                v = values.get(s)
                old = cur.get(kind)
                cur[kind] = v if old is None else max(old, v if v is not None else old)
            elif s in values:
                v = values[s]
                self.blocked[s] = max(self.blocked.get(s, 0), v if v is not None else 0)

    def on_draw_or_claim(self, seat: int, wall_draw: bool = True) -> None:
        """MPL: a wall draw (replacement draws too) or a claimed set; WMSG: the next wall draw only."""
        if self.params.furiten_scope == "same_kind":
            self.seen.pop(seat, None)
        elif wall_draw:
            self.blocked.pop(seat, None)

    def is_furiten(self, seat: int, kind: int, value: int) -> bool:
        """Whether a hu on a discard of ``kind`` worth ``value`` (capped base points) is furiten now."""
        if self.params.furiten_scope == "same_kind":
            cur = self.seen.get(seat, {})
            if kind not in cur:
                return False
            old = cur[kind]
            return old is None or value <= old
        if seat not in self.blocked:
            return False
        return value <= self.blocked[seat]


def draw_timing_problem(params: SichuanParams, seconds_after_discard: float) -> str | None:
    """000 §2.5.3: with no claim, draw at least 1-2 s after the left player's discard and within 3 s."""
    if seconds_after_discard < params.draw_min_s:
        return f"drew {seconds_after_discard:.1f} s after the discard: others may still claim (000 §2.5.3)"
    if seconds_after_discard > params.draw_max_s:
        return f"drew {seconds_after_discard:.1f} s after the discard (limit {params.draw_max_s:g} s, 000 §2.5.3)"
    return None


def discard_timing_problem(params: SichuanParams, seconds_in_turn: float) -> str | None:
    """000 §2.5.4: discard within 10 s of the draw or claim."""
    if seconds_in_turn > params.discard_max_s:
        return f"discarded {seconds_in_turn:.1f} s into the turn (limit {params.discard_max_s:g} s, 000 §2.5.4)"
    return None
