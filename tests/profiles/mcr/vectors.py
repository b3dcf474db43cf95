"""Loading ``mcr_vectors.json`` and turning each scoring vector into hands to score.

The vectors are ``tests/vectors/mcr_vectors.json``. How the tests decide what the seed leaves open (spec §14, NOTATION.md "hand_tiles"):

* ``hand`` — scored as written, with the vector's context fields;
* ``hand_tiles`` — all groups concealed, four identical tiles a concealed kong; the winning tile is not
  given, so every kind in the concealed part is tried as the winning discard and the best-scoring
  reading is the one asserted (the player's choice, principle 4); only context-independent fans are
  asserted by these vectors;
* ``fragment`` — completed below with filler sets that form no fan with the fragment.
"""
from __future__ import annotations

from typing import Any

from rules.notation import Hand, Meld, parse_hand, parse_tiles
from tests import vectors as spec_vectors

CONTEXT_KEYS = ("self_drawn", "seat_wind", "round_wind")

# fragment vectors completed to a whole hand: the filler chows/pair form no fan with the fragment
FRAGMENT_HANDS: dict[str, str] = {
    "mcr-003-f73-e1a": "234m678m345s8s [111p] + 8s",
    "mcr-003-f73-e1b": "234m678m345s8s [999p] + 8s",
    "mcr-003-f73-e1c": "234m678m345s8s [444z] + 8s",
    "mcr-003-f74-e1a": "234m678m345s8s [5555z] + 8s",
    "mcr-003-f69-e1": "456s456s234m8p [789p] + 8p",
    "mcr-003-f70-e1": "456s456p123m9p [111z] + 9p",
    "mcr-003-f71-e1": "345s678s234m9p [111z] + 9p",
    "mcr-003-f72-e1": "123m789m456p9s [111z] + 9s",
    "mcr-003-note-123-123-456": "123m123m456m9s [111z] + 9s",
    "mcr-003-note-two-short-straights": "123m456m123p456p9s + 9s",
    "mcr-003-note-two-terminal-chow-pairs": "123m789m123p789p9s + 9s",
    "mcr-003-note-double-wind": "123m456p789s9s [111z] + 9s",
    "mcr-003-note-kong-melded-terminal": "234m567p345s8s [9999m] + 8s",
    "mcr-003-note-kong-concealed-dragon": "234m567p345s8s [(7777z)] + 8s",
}
# a fragment that is a display illustration only (spec §12 A24): four face-down tiles
FACE_DOWN_FRAGMENT = "mcr-003-f74-e1b"


def all_vectors() -> tuple[dict[str, Any], ...]:
    return spec_vectors.vectors("mcr")


def meta() -> dict[str, Any]:
    meta: dict[str, Any] = spec_vectors.document("mcr")["meta"]
    return meta


def scoring_vectors() -> list[dict[str, Any]]:
    return [v for v in all_vectors() if v.get("kind") != "payment"]


def payment_vectors() -> list[dict[str, Any]]:
    return [v for v in all_vectors() if v.get("kind") == "payment"]


def context_of(v: dict[str, Any]) -> dict[str, Any]:
    return {k: v[k] for k in CONTEXT_KEYS if k in v}


def hand_tiles_candidates(text: str) -> list[Hand]:
    """Every hand the seed's printed groups can be with one concealed tile as the winning discard."""
    concealed = []
    melds = []
    for group in text.split():
        tiles = parse_tiles(group)
        if len(tiles) == 4 and len({t.kind for t in tiles}) == 1:
            melds.append(Meld.build(tiles, concealed=True))
        else:
            concealed.extend(tiles)
    out = []
    seen = set()
    for t in concealed:
        if t.kind in seen:
            continue
        seen.add(t.kind)
        rest = list(concealed)
        rest.remove(t)
        out.append(Hand(tuple(rest), tuple(melds), t))
    return out


def vector_hands(v: dict[str, Any]) -> list[Hand]:
    if "hand" in v:
        return [parse_hand(v["hand"])]
    if "hand_tiles" in v:
        return hand_tiles_candidates(v["hand_tiles"])
    return [parse_hand(FRAGMENT_HANDS[v["id"]])]
