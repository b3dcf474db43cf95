"""Claims: priority, kuikae (swap-calling), the last-tile and fourth-kan limits, pao triggers.

004 Rules 3.3.1 (priority and timeout), 3.3.2 (kuikae), 3.3.3–3.3.7 (chi, pon, kans), 3.3.9 (liability),
3.3.10 (fourth kan), 3.4.1 (last tile).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.tiles import Tile

RON, PON, KAN, CHI = "ron", "pon", "kan", "chi"

# higher wins; pon and open kan share a rank (they cannot compete on one discard), 004 Rules 3.3.1
PRIORITY: dict[str, int] = {RON: 3, PON: 2, KAN: 2, CHI: 1}

# the claim window of a discard by seat k closes when seat k+1 ... (004 Rules 3.3.1)
WINDOW_CLOSES: dict[str, str] = {RON: "discards", PON: "draws", KAN: "draws", CHI: "draws"}

MAX_KANS = 4  # 004 Rules 3.3.10: after the fourth kan no further kan
DEAD_HAND_AFTER_DISCARDS = 2  # a claimed tile not taken before two more discards: dead hand (3.3.8)


def claim_order(claims: Sequence[tuple[int, str]], discarder: int) -> list[tuple[int, str]]:
    """Claims on one discard sorted by priority; ron claims all stand (double/triple ron, 004 Rules
    3.3.1, 4.1) and come in turn order from the discarder's right."""

    def key(c: tuple[int, str]) -> tuple[int, int]:
        return (-PRIORITY[c[1]], (c[0] - discarder) % 4)

    return sorted(claims, key=key)


def winning_claims(claims: Sequence[tuple[int, str]], discarder: int) -> list[tuple[int, str]]:
    """The claims that are granted: every ron, else the single best pon/kan, else the chi."""
    ordered = claim_order(claims, discarder)
    if not ordered:
        return []
    if ordered[0][1] == RON:
        return [c for c in ordered if c[1] == RON]
    return [ordered[0]]


def chi_allowed(claimer: int, discarder: int) -> bool:
    """A chi only takes the left player's discard (004 Rules 3.3.3)."""
    return claimer == (discarder + 1) % 4


def meld_claim_allowed(
    call: str, last_discard: bool, riichi: bool, dead_hand: bool, kans_on_table: int
) -> bool:
    """Chi/pon/open kan: never on the last discard (3.4.1), not by a riichi player (3.3.14), not with a
    dead hand (3.4.7), no kan after the fourth (3.3.10)."""
    if last_discard or riichi or dead_hand:
        return False
    return not (call == KAN and kans_on_table >= MAX_KANS)


def kuikae_forbidden(call: str, claimed: Tile, from_hand: Sequence[Tile]) -> frozenset[int]:
    """Kinds the claimer may not discard right after the call (004 Rules 3.3.2): the claimed tile, and
    for a chi claimed at one end the tile at the other end (claim 1 for 123: not 1 or 4). A tile claimed
    in the middle forbids only itself (spec Ambiguity A12)."""
    k = claimed.kind
    out = {k}
    if call == CHI and k < 27:
        others = sorted(t.kind for t in from_hand)
        if others == [k + 1, k + 2] and (k % 9) + 3 <= 8:
            out.add(k + 3)
        elif others == [k - 2, k - 1] and (k % 9) - 3 >= 0:
            out.add(k - 3)
    return frozenset(out)


def kuikae_legal(call: str, claimed: Tile, from_hand: Sequence[Tile], discard: Tile) -> bool:
    return discard.kind not in kuikae_forbidden(call, claimed, from_hand)


@dataclass(frozen=True)
class PaoTrigger:
    """Player ``liable`` fed ``winner`` the third dragon set / fourth wind set (004 Rules 3.3.9)."""

    winner: int
    liable: int
    yaku: str  # "daisangen" or "daisuushii"


def pao_trigger(
    claimer: int, discarder: int, claimed_kind: int, open_sets_before: Sequence[int]
) -> PaoTrigger | None:
    """Called when ``claimer`` pons or open-kans ``claimed_kind`` from ``discarder``. ``open_sets_before``:
    bases of the claimer's open pons/kans before this call (concealed kans do not count, spec A8)."""
    if claimed_kind in (31, 32, 33):
        if sum(1 for b in set(open_sets_before) if b in (31, 32, 33) and b != claimed_kind) == 2:
            return PaoTrigger(claimer, discarder, "daisangen")
    elif claimed_kind in (27, 28, 29, 30):
        if sum(1 for b in set(open_sets_before) if b in (27, 28, 29, 30) and b != claimed_kind) == 3:
            return PaoTrigger(claimer, discarder, "daisuushii")
    return None


def kan_allowed(live_wall_tiles_left: int, kans_on_table: int) -> bool:
    """Any kan needs a replacement and a tile to move to the dead wall: none on an empty live wall
    (004 Rules 3.4.1; spec A20), none after the fourth (3.3.10)."""
    return live_wall_tiles_left > 0 and kans_on_table < MAX_KANS
