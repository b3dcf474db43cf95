"""Named profile options where the seed deliberately differs from common Chinese (Green Book) practice.

Spec mcr.md §12: the seed is followed by default; a tournament that plays the Green Book (GB 2006)
reading switches with :data:`GREEN_BOOK` or single fields.

* ``kong_pairs`` (A3): one melded + one concealed kong. ``"seed"`` = Two Melded Kongs + Concealed Kong
  = 6 (003 #57: «Один открытый конг и один закрытый конг дают 6 очков»); ``"gb"`` = the Chinese
  "Concealed Kong and Melded Kong" (明暗杠) 5 as PyMahjongGB scores it (``fan_table.VARIANT_FANS``).
* ``two_concealed_kongs_fan`` (A44): #48 value, 8 as printed (003 L1066) or 6 (GB).
* ``all_green_half_flush`` (A9): All Green combines with Half Flush (003 #3 text and examples) or not (GB).
* ``special_fully_concealed`` (A10): a self-drawn Seven Pairs, Thirteen Orphans, Honors and Knitted,
  Nine Gates, Seven Shifted Pairs or Four Concealed Pungs scores Fully Concealed Hand 4 (seed) or only
  Self-Drawn 1 (GB).
* ``nine_gates_terminal_pungs`` (A15): Nine Gates excludes every Pung of Terminals or Honors (seed,
  ``False``) or only the one inside 111/999 (GB, ``True``: one fewer).
* ``knitted_straight_concealed_hand`` (A11): #35 "не совмещается с «Закрытая рука»" (seed, ``False``);
  GB scores Concealed Hand with a concealed knitted straight won by discard (``True``).
* ``all_terminals_double_pung`` (A22): All Terminals combines with Double Pung (003 #8 «Совмещается с
  «Двойной панг»», ``True``) or excludes it (GB, ``False``).
* ``phantom_waits`` (A2): whether a kind the hand already holds four of still counts as a wait when
  deciding if the hand waited on one tile only. The seed's wait fans need "only this tile completes the
  hand" and a fifth tile does not exist (``False``); PyMahjongGB counts it (``True``).
* ``robbing_kong_single_wait`` (A14): Robbing the Kong excludes Single Wait (seed) or not (GB).
"""
from __future__ import annotations

from dataclasses import dataclass, replace


@dataclass(frozen=True)
class MCROptions:
    kong_pairs: str = "seed"  # A3: "seed" | "gb"
    two_concealed_kongs_fan: int = 8  # A44: 8 | 6
    all_green_half_flush: bool = True  # A9
    special_fully_concealed: bool = True  # A10
    robbing_kong_single_wait: bool = False  # A14: False = seed (no Single Wait when robbing)
    nine_gates_terminal_pungs: bool = False  # A15: False = seed (no PTH with Nine Gates)
    knitted_straight_concealed_hand: bool = False  # A11
    all_terminals_double_pung: bool = True  # A22
    phantom_waits: bool = False  # A2

    def __post_init__(self) -> None:
        if self.kong_pairs not in ("seed", "gb"):
            raise ValueError(f"kong_pairs must be 'seed' or 'gb', not {self.kong_pairs!r}")
        if self.two_concealed_kongs_fan not in (6, 8):
            raise ValueError("two_concealed_kongs_fan must be 6 or 8")

    def with_(self, **kw: bool | int) -> MCROptions:
        return replace(self, **kw)  # type: ignore[arg-type]  # (dataclasses.replace checks the names)


SEED = MCROptions()
GREEN_BOOK = MCROptions(
    kong_pairs="gb",
    two_concealed_kongs_fan=6,
    all_green_half_flush=False,
    special_fully_concealed=False,
    robbing_kong_single_wait=True,
    nine_gates_terminal_pungs=True,
    knitted_straight_concealed_hand=True,
    all_terminals_double_pung=False,
    phantom_waits=True,
)
