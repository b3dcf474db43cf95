"""What a rule set tells the software around its hand machine, as typed data each profile provides.

The hand machine asks a profile for rules (:mod:`rules.game.protocols`); the table's camera, its referee,
its exports and the hall need a few facts more, and read them from the profile too — never from its name:

* :class:`TableConventions` — how the table looks from above: where discards, claimed sets, kongs, riichi
  sticks and cards lie (``vision.conventions`` reads it; the camera, the scene renderer and the referee's
  variants follow it);
* :class:`RefereeNotes` — the camera referee's own verdicts as this rule set's seed words them (their seed
  references, the texts of codes the rule set adds) and what the referee must read for the settlement;
* :class:`Example` — a few real wins, scored by ``mahjong-table demo``;
* the record formats a hand of the rule set can be written in besides its event log (:data:`TENHOU6`,
  :data:`MJAI`, :data:`PANTHEON`: riichi's), in ``GameRules.record_formats``.

``rules.game.profile_api.GameRules`` holds the defaults (a generic table, what ``basic`` plays); each
profile sets its own in ``rules/profiles/<rule set>/table.py``.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

#: tenhou.net/6 JSON (``mahjong-table export --format tenhou6``, the replay's viewer link)
TENHOU6 = "tenhou6"
#: mjai JSON lines (``mahjong-table export --format mjai``: Mortal, mjai-reviewer)
MJAI = "mjai"
#: the hall's Pantheon feed (a refereed hand as a Pantheon round)
PANTHEON = "pantheon"
RECORD_FORMATS = (TENHOU6, MJAI, PANTHEON)

POND_LAYOUTS = ("rows6", "free")
ADDED_KONG = ("beside_sideways",)


@dataclass(frozen=True)
class TableConventions:
    """How one rule set's table looks from above, as the overhead camera has to read it. The defaults are
    a generic table (``basic``'s): rows of six, the claimed tile sideways, the outer two tiles of a
    concealed kong face down, one throw of the dice."""

    pond_layout: str = "rows6"
    """``"rows6"``: rows of 6, the first nearest the centre, left to right; ``"free"``: anywhere."""
    claimed_sideways: bool = True
    """The claimed tile of an open set is turned 90° towards its source."""
    kongs: bool = True
    concealed_kong_down: tuple[int, ...] = (0, 3)
    """Indices (0..3, left to right) of a concealed kong's tiles lying face down."""
    concealed_kong_known: bool = True
    """A concealed kong's identity is readable before the reveal."""
    added_kong: str = "beside_sideways"
    """``"beside_sideways"``: the fourth tile lies sideways next to the claimed tile."""
    flowers: bool = False
    riichi_sticks: bool = False
    riichi_sideways_discard: bool = False
    hu_cards: bool = False
    """Sichuan MPL's hu cards "1", "2", "3"."""
    missing_suit_cards: bool = False
    """MPL's missing-suit cards (where a rule set with a missing suit has none, each player's first discard
    shows it: WMSG)."""
    dice_throws: int = 1
    dora_indicators: bool = False
    """The dead wall's indicator slots are watched (riichi's dora and ura indicators)."""
    rule: str = "generic table (rows of 6, sideways claimed tile, outer two of a concealed kong down)"
    """Where these come from (seed sections)."""

    def __post_init__(self) -> None:
        if self.pond_layout not in POND_LAYOUTS or self.added_kong not in ADDED_KONG:
            raise ValueError(f"pond layout {self.pond_layout!r} / added kong {self.added_kong!r}")
        if any(not 0 <= i <= 3 for i in self.concealed_kong_down) or self.dice_throws < 1:
            raise ValueError(f"concealed kong {self.concealed_kong_down!r} / dice throws {self.dice_throws}")


@dataclass(frozen=True)
class RefereeNotes:
    """What the camera referee says and reads differently under this rule set."""

    references: Mapping[str, str] = field(default_factory=dict)
    """The seed reference of each of the referee's own verdicts (``out_of_turn``, ``tile_count``) as this
    rule set's seed states it; a code not here takes ``GameRules.violation_rules``, then the referee's default."""
    texts: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    """(English, Russian) of violation codes this rule set adds, for the verdict shown at the table; the
    codes every rule set shares have their texts in the referee."""
    kong_drawn_tile_paid: bool = False
    """An added kong made with the tile just drawn (kept apart) is paid at once, else it is a "delayed" kong
    (000 §2.5.3, §2.7.2.3): the referee reads where the fourth tile came from."""


@dataclass(frozen=True)
class Example:
    """One real win of the rule set (``mahjong-table demo`` scores it): the hand in ``docs/notation.md``'s
    notation and its context (JSON values, as ``mahjong-table score --json`` takes them)."""

    hand: str
    context: Mapping[str, object] = field(default_factory=dict)
