"""Minipoints (fu) of one reading, with the itemised breakdown (004 Rules 4.1.1).

Base: closed hand won on a discard 30; seven pairs 25 (fixed, nothing added, never rounded); any other
win 20. Sets: see :data:`SET_FU`. +2 each for a dragon pair, a seat-wind pair, a round-wind pair (a
double-wind pair gives 4, spec Ambiguity A11), an edge/closed/pair wait, a self-draw (except pinfu), and
an "open pinfu" (open hand won on a discard with nothing else: 20 + 2). Rounded up to the next 10.
"""

from __future__ import annotations

from rules.profiles.riichi.reading import (
    CHI,
    CHIITOITSU,
    KAN,
    KANCHAN,
    PENCHAN,
    TANKI,
    TERMINAL_OR_HONOR,
    Reading,
)
from rules.tiles import DRAGONS, kind_text

# (kind, terminal_or_honour, concealed) -> fu — the seed's table (004 Rules 4.1.1)
SET_FU: dict[tuple[str, bool, bool], int] = {
    ("pon", False, False): 2,
    ("pon", False, True): 4,
    ("pon", True, False): 4,
    ("pon", True, True): 8,
    ("kan", False, False): 8,
    ("kan", False, True): 16,
    ("kan", True, False): 16,
    ("kan", True, True): 32,
}


def fu_breakdown(r: Reading, pinfu: bool, named: bool = True) -> list[tuple[str, int]]:
    """Itemised minipoints before rounding: ``[(reason, fu), ...]`` (``named=False``: set items without
    the tile's name, for speed)."""
    i = r.info
    if r.shape == CHIITOITSU:
        return [("seven pairs", 25)]
    self_drawn = i.self_drawn or i.kong_replacement
    if pinfu:
        return [("pinfu tsumo", 20)] if self_drawn else [("closed ron", 30)]
    parts: list[tuple[str, int]] = []
    parts.append(("closed ron", 30) if i.closed and not self_drawn else ("win", 20))
    for k, b, conc in r.sets:
        if k == CHI:
            continue
        v = SET_FU[(k if k == KAN else "pon", b in TERMINAL_OR_HONOR, conc)]
        what = ("concealed " if conc else "open ") + ("kan" if k == KAN else "pon")
        parts.append((f"{what} {_NAMES[b]}" if named else what, v))
    p = r.pair
    if p is not None:
        if p in DRAGONS:
            parts.append(("dragon pair", 2))
        if p == i.seat_wind:
            parts.append(("seat-wind pair", 2))
        if p == i.round_wind:
            parts.append(("round-wind pair", 2))
    if r.wait in (KANCHAN, PENCHAN, TANKI):
        parts.append((f"{r.wait} wait", 2))
    if self_drawn:
        parts.append(("self-draw", 2))
    elif not i.closed and sum(v for _, v in parts) == 20:
        parts.append(("open pinfu", 2))
    return parts


_NAMES = tuple(kind_text(k) for k in range(34))


def round_fu(raw: int, chiitoitsu: bool = False) -> int:
    """Round up to the next 10 (32 -> 40); seven pairs stay 25 (004 Rules 4.1)."""
    if chiitoitsu:
        return 25
    return -(-raw // 10) * 10
