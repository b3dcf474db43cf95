"""The Sichuan fans, one small function per fan, found by the fan id used in the vectors.

Each function reads one :class:`WinFacts` (a winning hand read one way, plus the situation) and returns
how many times its fan applies (0 = not at all). The profile's fan table (``params.py``) gives the value;
:data:`UNITS` registers each as a :class:`rules.units.Unit` by that id. Fans that depend on the decomposition (All pungs, Golden wait,
Seven pairs) read ``facts.decomposition``; the others read the tiles or the context.
"""
from __future__ import annotations

from dataclasses import dataclass

from rules.notation import Meld, MeldKind
from rules.shapes import Decomposition, Shape
from rules.tiles import PUNG
from rules.units import Registry


@dataclass(frozen=True)
class WinFacts:
    """A winning hand read through one decomposition, with the situation of the win."""

    decomposition: Decomposition
    melds: tuple[Meld, ...]
    counts: tuple[int, ...]  # 34 counts of every tile of the hand (concealed, winning tile, melds)
    concealed_before_win: int  # concealed tiles before the winning tile (13 minus 3 per meld)
    suits: frozenset[str]
    kong_model: str  # "kong+quad" (MPL) or "quad" (WMSG)
    kong_replacement: bool = False
    kong_discard: bool = False
    robbing_kong: bool = False
    last_tile: bool = False

    @property
    def kong_kinds(self) -> frozenset[int]:
        return frozenset(m.base for m in self.melds if m.is_kong and m.base is not None)


UNITS: Registry[WinFacts] = Registry()  # every fan of both rule sets, by the id the vectors use


@UNITS.unit("kong", "Kong", "000 App.1 #1")
def kong(f: WinFacts) -> int:
    """000 App.1 #1: 1 fan per kong (open, concealed, added; a delayed kong keeps it, AMB-19)."""
    return sum(1 for m in f.melds if m.is_kong)


@UNITS.unit("quad", "Quad", "000 App.1 #2; 002 §10 #1")
def quad(f: WinFacts) -> int:
    """000 App.1 #2 (four identical tiles not in a kong) / 002 §10 #1 (four identical, kong or not).

    Counted once per tile kind: a tenpai hand waiting on a "fifth" 5p scores it once (000 Example 16).
    A declared pung plus the fourth tile concealed counts (AMB-35).
    """
    kongs = f.kong_kinds
    n = 0
    for k, c in enumerate(f.counts):
        if c >= 4 and (f.kong_model == "quad" or k not in kongs):
            n += 1
    return n


@UNITS.unit("all_pungs", "All Pungs", "000 App.1 #3; 002 §10 #2")
def all_pungs(f: WinFacts) -> int:
    """000 App.1 #3, 002 §10 #2: a regular hand of four pungs or kongs (and the pair)."""
    d = f.decomposition
    if d.shape is not Shape.REGULAR:
        return 0
    if any(m.kind is MeldKind.CHOW for m in f.melds):
        return 0
    return int(all(kind == PUNG for kind, _ in d.sets))


@UNITS.unit("golden_wait", "Golden Wait", "000 App.1 #4; 002 §10 #3")
def golden_wait(f: WinFacts) -> int:
    """000 App.1 #4, 002 §10 #3: four declared pungs/kongs and one tile left in the hand (single wait)."""
    pungs_or_kongs = sum(1 for m in f.melds if m.kind is not MeldKind.CHOW)
    return int(pungs_or_kongs == 4 and f.concealed_before_win == 1)


@UNITS.unit("pure_suit", "Pure Suit", "000 App.1 #5; 002 §10 #4")
def pure_suit(f: WinFacts) -> int:
    """000 App.1 #5, 002 §10 #4: every tile of one suit."""
    return int(len(f.suits) == 1)


@UNITS.unit("seven_pairs", "Seven Pairs", "000 App.1 #6; 002 §10 #5")
def seven_pairs(f: WinFacts) -> int:
    """000 App.1 #6, 002 §10 #5: seven pairs (four identical tiles are two pairs, 000 §2.6.1.1)."""
    return int(f.decomposition.shape is Shape.SEVEN_PAIRS)


@UNITS.unit("win_on_kong_replacement", "Win on Kong Replacement", "000 App.1 #7; 002 §10 #6")
def win_on_kong_replacement(f: WinFacts) -> int:
    """000 App.1 #7, 002 §10 #6: the winning tile is the replacement drawn after a kong."""
    return int(f.kong_replacement)


@UNITS.unit("kong_discard", "Kong Discard", "000 App.1 #8; 002 §10 #7")
def kong_discard(f: WinFacts) -> int:
    """000 App.1 #8, 002 §10 #7: win on the discard a player makes right after his kong."""
    return int(f.kong_discard)


@UNITS.unit("robbing_kong", "Robbing the Kong", "000 App.1 #9; 002 §10 #8")
def robbing_kong(f: WinFacts) -> int:
    """000 App.1 #9, 002 §10 #8: win on the tile another player adds to his pung."""
    return int(f.robbing_kong)


@UNITS.unit("sea_bottom", "Sea Bottom", "000 App.1 #10; 002 §10 #9")
def sea_bottom(f: WinFacts) -> int:
    """000 App.1 #10 (hu with the wall empty, self-drawn or on a discard), 002 §10 #9."""
    return int(f.last_tile)

