"""The context fields of ``riichi-ema2016``, named as in ``riichi_vectors.json``."""

from __future__ import annotations

from rules.scoring import KONG_REPLACEMENT, LAST_TILE, ROBBING_KONG, SELF_DRAWN, ContextField

FIELDS: tuple[ContextField, ...] = (
    SELF_DRAWN,
    ContextField("riichi", "bool", False, "the winner declared riichi"),
    ContextField("double_riichi", "bool", False, "the riichi was declared on the first turn (needs riichi)"),
    ContextField("ippatsu", "bool", False, "win within the first go-around after riichi (needs riichi)"),
    ContextField("seat_wind", "tile", None, "the winner's seat wind 1z-4z (default 2z, South)"),
    ContextField("round_wind", "tile", None, "the round wind 1z-4z (default 1z, East)"),
    ContextField("dealer", "bool", None, "the winner is the dealer (default: seat wind is East)"),
    ContextField("dora_indicators", "tiles", (), "every face-up dora indicator (1 + kans on the table)"),
    ContextField("ura_indicators", "tiles", (), "the tiles under them (counted for a riichi winner only)"),
    ContextField("honba", "int", 0, "counters on the table (300 points each)"),
    LAST_TILE,
    KONG_REPLACEMENT,
    ROBBING_KONG,
    ContextField(
        "robbed_kan",
        "str",
        None,
        "kind of kan robbed: added or concealed (kokushi only)",
        ("added", "concealed"),
    ),
    ContextField(
        "first_go_around",
        "bool",
        False,
        "win in the first uninterrupted go-around (tenhou / chiihou / renhou)",
    ),
    ContextField("liable_seat_wind", "tile", None, "seat wind of the player liable for big dragons/winds"),
    ContextField("discarder_seat_wind", "tile", None, "seat wind of the discarder (liability split)"),
)
