"""The two Sichuan profile classes: context fields, tile-set checks, scoring, waits."""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass

from rules.notation import Hand, MeldKind
from rules.profiles.base import Profile
from rules.profiles.sichuan.game import CAPABILITIES, SichuanGameRules
from rules.profiles.sichuan.params import MPL2025, WMSG, SichuanParams
from rules.profiles.sichuan.scoring import IMPOSSIBLE, SHAPES, score_hand
from rules.profiles.sichuan.table import MPL2025_EXAMPLES, MPL2025_TABLE, REFEREE, WMSG_EXAMPLES, WMSG_TABLE
from rules.scoring import (
    KONG_REPLACEMENT,
    LAST_TILE,
    ROBBING_KONG,
    SELF_DRAWN,
    ContextError,
    ContextField,
    ContextValue,
    ScoreResult,
)


@dataclass(frozen=True)
class SeatsField(ContextField):
    """A list of seats: JSON ``[0, 2, 3]`` or a flag value ``0,2,3``."""

    def coerce(self, value: object) -> ContextValue:
        if value is None:
            return None
        if isinstance(value, str):
            value = [v for v in value.replace(",", " ").split() if v]
        if not isinstance(value, list | tuple):
            raise ContextError(f"field {self.name!r}: {value!r} is not a list of seats")
        out = []
        for v in value:
            if isinstance(v, bool):
                raise ContextError(f"field {self.name!r}: {v!r} is not a seat")
            try:
                s = int(v)
            except (TypeError, ValueError):
                raise ContextError(f"field {self.name!r}: {v!r} is not a seat") from None
            if not 0 <= s <= 3:
                raise ContextError(f"field {self.name!r}: seat must be 0..3, not {s}")
            if s in out:
                raise ContextError(f"field {self.name!r}: seat {s} is listed twice")
            out.append(s)
        return tuple(sorted(out))


# Context fields, named as in sichuan_vectors.json (spec §15)
MISSING_SUIT = ContextField("missing_suit", "suit", None, "the winner's declared missing suit (m, p or s)")
KONG_DISCARD = ContextField(
    "kong_discard", "bool", False, "won on the discard a player made right after declaring a kong"
)
SEA_BOTTOM = ContextField(
    LAST_TILE.name, "bool", False, "won with the wall empty: last wall tile or a discard after it (sea bottom)"
)
WINNER_SEAT = ContextField("winner_seat", "seat", None, "the winner's seat (0-3), for the payments")
DISCARDER_SEAT = ContextField("discarder_seat", "seat", None, "the discarder's seat (win on a discard)")
KONG_DECLARER_SEAT = ContextField(
    "kong_declarer_seat", "seat", None, "seat whose added kong was robbed (pays as the discarder)"
)
PLAYERS_IN_PLAY = SeatsField(
    "players_in_play", "seats", None, "seats that had not declared hu when the win happened (default 0,1,2,3)"
)


class SichuanProfile(SichuanGameRules, Profile):
    referee_notes = REFEREE
    incomplete_table_bye = True  # 000 §3.1.4 (lines 508-513): a table of one or two plays no game
    appeal_minutes = 30  # 000 line 485: «не позже, чем через 30 минут после окончания соответствующей сессии»
    """Shared behaviour of both Sichuan profiles; the differences are in ``params``."""

    params: SichuanParams = MPL2025
    players = (4, 3)  # 000 §3.1: three players only at an incomplete table
    shapes = SHAPES
    quads_as_two_pairs = True  # 000 §2.6.1.1
    suits = "mps"  # 000 §2.3: 108 tiles, no honours
    impossible = IMPOSSIBLE
    context_fields = (
        MISSING_SUIT,
        SELF_DRAWN,
        KONG_REPLACEMENT,
        KONG_DISCARD,
        ROBBING_KONG,
        SEA_BOTTOM,
        WINNER_SEAT,
        DISCARDER_SEAT,
        KONG_DECLARER_SEAT,
        PLAYERS_IN_PLAY,
    )

    def check_hand(self, hand: Hand) -> list[str]:
        errs = super().check_hand(hand)
        if any(m.kind is MeldKind.CHOW for m in hand.melds):
            errs.append("a chow cannot be declared in Sichuan: chows are only concealed (000 §2.5.1, 002 §2.1)")
        return errs

    def score(self, hand: Hand, ctx: Mapping[str, ContextValue]) -> ScoreResult:
        return score_hand(self.params, hand, ctx)

    def base_points(self, total_fan: int) -> int:
        return self.params.base_points(total_fan)


class SichuanMPL2025(SichuanProfile):
    name = "sichuan-mpl2025"
    title = "Sichuan Bloody Mahjong, Russian federation MPL-2025 edition"
    seed = "000"
    params = MPL2025
    capabilities = dataclasses.replace(CAPABILITIES, claim_window_s=MPL2025.claim_window_s)  # 000 §2.5.1.3
    table_conventions = MPL2025_TABLE
    examples = MPL2025_EXAMPLES


class SichuanWMSG(SichuanProfile):
    name = "sichuan-wmsg"
    title = "Sichuan Bloody Mahjong, WMSG rules"
    seed = "002"
    params = WMSG
    capabilities = CAPABILITIES  # 002 sets no claim time
    table_conventions = WMSG_TABLE
    examples = WMSG_EXAMPLES
