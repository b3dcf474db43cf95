"""``basic``: the minimal profile that proves the engine end to end (not a tournament rule set).

136 tiles, the standard shapes, no claims restrictions beyond the common ones; a win scores one fan
per the simple table below and pays ``fan`` from the discarder or from each player on a self-draw.
Tests and the demo use it; the real rule sets live in their own modules.
"""
from __future__ import annotations

from collections.abc import Mapping

from rules.game.state import HandState, WinRecord
from rules.game.table_data import Example, TableConventions
from rules.notation import Hand
from rules.profiles.base import Profile
from rules.scoring import SELF_DRAWN, ContextValue, FanEntry, ScoreResult, invalid
from rules.shapes import Shape, decompositions
from rules.shapes import waits as shape_waits
from rules.tiles import counts34

# name -> value: a small fan table as data
FANS = {
    "Win": 1,
    "Self Drawn": 1,
    "Concealed Hand": 1,
    "All Pungs": 2,
    "Seven Pairs": 2,
    "Half Flush": 2,
    "Full Flush": 4,
    "Thirteen Orphans": 13,
}


class Basic(Profile):
    name = "basic"
    title = "Basic (engine test profile)"
    context_fields = (SELF_DRAWN,)
    tournament = False  # the engine's test profile: ``simulate all`` runs none of its tables
    table_conventions = TableConventions(
        rule="basic: generic table (rows of 6, sideways claimed tile, outer two of a concealed kong down)")
    examples = (Example("123m456p789s1133z + 1z", {"self_drawn": True}), Example("1122m3344p5566s7z + 7z"))

    def score(self, hand: Hand, ctx: Mapping[str, ContextValue]) -> ScoreResult:
        c = counts34(hand.all_concealed)
        decs = decompositions(c, len(hand.melds), self.shapes, self.quads_as_two_pairs)
        if not decs:
            return invalid("not a winning shape: no four sets and a pair, seven pairs or thirteen orphans")
        best: ScoreResult | None = None
        for d in decs:
            names = ["Win"]
            if ctx.get("self_drawn"):
                names.append("Self Drawn")
            if hand.is_closed:
                names.append("Concealed Hand")
            if d.shape is Shape.SEVEN_PAIRS:
                names.append("Seven Pairs")
            elif d.shape is Shape.THIRTEEN_ORPHANS:
                names.append("Thirteen Orphans")
            elif all(k == "pung" for k, _ in d.sets) and all(not m.kind == "chow" for m in hand.melds):
                names.append("All Pungs")
            suits = {t.suit for t in hand.all_concealed} | {t.suit for m in hand.melds for t in m.tiles}
            if len(suits - {"z"}) == 1:
                names.append("Full Flush" if "z" not in suits else "Half Flush")
            fans = [FanEntry(n, FANS[n]) for n in names]
            total = sum(f.value for f in fans)
            if self_drawn := bool(ctx.get("self_drawn")):
                points = {"total": 3 * total, "each": total}
            else:
                points = {"total": total, "discarder": total}
            r = ScoreResult(True, fans=fans, total_fan=total, points=points, extra={"self_drawn": self_drawn})
            if best is None or r.total_fan > best.total_fan:
                best = r
        assert best is not None
        return best

    # --- game side (Foundation II): the one situational rule basic adds to the engine defaults --------
    def is_furiten(self, state: HandState, seat: int, hand: Hand, win: WinRecord) -> bool:
        """Own-discard furiten (an engine test rule, riichi-like): no win on a discard while one of the
        hand's waits lies among the winner's own discards. Judged on the revealed hand."""
        # Profile.waits of the concealed tiles, without building the waiting Hand (this runs per judged win)
        waits = set(shape_waits(counts34(hand.concealed), len(hand.melds), self.shapes, self.quads_as_two_pairs))
        return any(t.kind in waits for t in state.seat_state[seat].pond)
