"""The ``mcr`` profile: Mahjong Competition Rules (Chinese Official, 81 fan), seed 003."""
from __future__ import annotations

from collections.abc import Mapping

from rules.circumstances import Impossible, impossible, robbing_on_the_last_tile, rule
from rules.notation import Hand
from rules.profiles.base import Profile
from rules.profiles.mcr.fan_table import BY_NO, FLOWERS_NO, MIN_FAN
from rules.profiles.mcr.game import MCRGame
from rules.profiles.mcr.options import SEED, MCROptions
from rules.profiles.mcr.reading import WinContext
from rules.profiles.mcr.scorer import Scored, fan_value, score_tiles
from rules.profiles.mcr.settlement import points_summary
from rules.profiles.mcr.table import EXAMPLES, REFEREE, TABLE
from rules.scoring import (
    KONG_REPLACEMENT,
    LAST_TILE,
    ROBBING_KONG,
    ROUND_WIND,
    SEAT_WIND,
    SELF_DRAWN,
    ContextField,
    ContextValue,
    FanEntry,
    ScoreResult,
    ctx_tile,
    invalid,
)
from rules.shapes import ALL_SHAPES

LAST_OF_KIND = ContextField("last_of_kind", "bool", False,
                            "the winning tile is the last of its kind, the other three visible (003 #58)")
FLOWER_REPLACEMENT = ContextField("flower_replacement", "bool", False,
                                  "won on a flower replacement tile (Self-Drawn, not #46; 003 #81)")
MCR_SEAT_WIND = ContextField(SEAT_WIND.name, "tile", None, "the winner's seat wind (1z-4z; default 1z East)")
MCR_ROUND_WIND = ContextField(ROUND_WIND.name, "tile", None, "the prevalent wind (1z-4z; default 1z East)")


# what cannot happen together (003 §Как собрать 2d), in judging order. [Open: a robbed kong on the last
# tile (riichi's A20) is not refused here: the seed does not say it, and the scorer never refused it]
IMPOSSIBLE: tuple[Impossible, ...] = (
    rule({"robbing_kong", "self_drawn"}, "robbing the kong is a win by discard (003 §Как собрать 2d(2)), not self-drawn"),
    rule({"kong_replacement"}, "a kong replacement win is self-drawn (003 §Как собрать 2d(1))", none_of={"self_drawn"}),
    rule({"flower_replacement"}, "a flower replacement win is self-drawn (003 §Как собрать 2d(1))",
         none_of={"self_drawn"}),
    robbing_on_the_last_tile("003 §Как играть конг: a kong takes its replacement from the wall"),
)


class MCR(MCRGame, Profile):
    name = "mcr"
    title = "Mahjong Competition Rules (Chinese Official, 81 fan)"
    seed = "003"
    players: tuple[int, ...] = (4,)
    shapes = ALL_SHAPES
    quads_as_two_pairs = True  # 003 #19 example 2: two identical pairs allowed
    table_conventions = TABLE
    referee_notes = REFEREE
    examples = EXAMPLES
    allows_flowers = True
    impossible = IMPOSSIBLE
    context_fields: tuple[ContextField, ...] = (
        SELF_DRAWN,
        MCR_SEAT_WIND,
        MCR_ROUND_WIND,
        LAST_TILE,
        LAST_OF_KIND,
        KONG_REPLACEMENT,
        FLOWER_REPLACEMENT,
        ROBBING_KONG,
    )

    def __init__(self, options: MCROptions = SEED):
        self.options = options

    # --- tile-set rules -----------------------------------------------------------------------------
    def check_hand(self, hand: Hand) -> list[str]:
        if self._plainly_legal(hand):
            return []
        errs = super().check_hand(hand)
        for m in hand.melds:
            if any(t.is_unknown for t in m.tiles):
                errs.append("a concealed kong must be shown face up when the hand is scored (003 §Порядок игры 8b)")
        return errs

    def _plainly_legal(self, hand: Hand) -> bool:
        """Fast path of ``check_hand`` for the usual case: playing tiles only, at most four of a kind,
        distinct flowers (if this tile set has them); anything else goes through the full checks."""
        c = [0] * 34
        for t in hand.all_concealed:
            if t >= 34:
                return False
            c[t] += 1
        for m in hand.melds:
            for t in m.tiles:
                if t >= 34:
                    return False
                c[t] += 1
        if max(c) > 4:
            return False
        fl = hand.flowers
        if fl and (not self.allows_flowers or len(set(fl)) != len(fl) or any(not 34 <= t < 42 for t in fl)):
            return False
        return True

    # --- scoring ------------------------------------------------------------------------------------
    def scoring_context(self, ctx: Mapping[str, ContextValue]) -> WinContext | str:
        """The scorer's context, or the reason why the fields contradict each other."""
        sd = bool(ctx.get("self_drawn"))
        bad = impossible(self.impossible, ctx)
        if bad:
            return bad
        winds = []
        for key in ("seat_wind", "round_wind"):
            t = ctx_tile(ctx, key)
            k = 27 if t is None else t.kind
            if not 27 <= k <= 30:
                return f"{key} must be a wind (1z-4z)"
            winds.append(k)
        return WinContext(sd, winds[0], winds[1], bool(ctx.get("last_tile")), bool(ctx.get("last_of_kind")),
                          bool(ctx.get("kong_replacement")), bool(ctx.get("flower_replacement")),
                          bool(ctx.get("robbing_kong")))

    def evaluate(self, hand: Hand, ctx: Mapping[str, ContextValue]) -> Scored | str:
        """The best reading's fans even below the minimum, or why there is none."""
        wc = self.scoring_context(ctx)
        if isinstance(wc, str):
            return wc
        if hand.winning is None:
            return 'the hand has no winning tile (add "+ TILE")'
        if wc.kong_replacement and not any(m.is_kong for m in hand.melds):
            return "a win on a kong replacement needs a declared kong (003 #46)"
        if wc.robbing_kong:
            k = hand.winning.kind
            held = sum(1 for t in hand.concealed if t.kind == k) + sum(1 for m in hand.melds for x in m.kinds if x == k)
            if held:
                return "a robbed kong tile is the fourth of its kind: the winner cannot hold another (003 #47)"
        got = score_tiles(hand, wc, self.options)
        if got is None:
            return ("not a winning shape: no four sets and a pair, seven pairs, thirteen orphans, "
                    "knitted straight or honors and knitted tiles")
        return got

    def fan_entries(self, s: Scored) -> list[FanEntry]:
        order = sorted(s.fans, key=lambda no: (-fan_value(no, self.options), no))
        out = [FanEntry(BY_NO[no].name, fan_value(no, self.options), s.fans[no], {"no": no}) for no in order]
        if s.flower_fan:
            out.append(FanEntry(BY_NO[FLOWERS_NO].name, 1, s.flower_fan, {"no": FLOWERS_NO}))
        return out

    def score(self, hand: Hand, ctx: Mapping[str, ContextValue]) -> ScoreResult:
        got = self.evaluate(hand, ctx)
        if isinstance(got, str):
            return invalid(got)
        fans = self.fan_entries(got)
        extra = {"hand_fan": got.hand_fan, "flower_fan": got.flower_fan, "self_drawn": bool(ctx.get("self_drawn"))}
        if got.hand_fan < MIN_FAN:
            reason = (f"false hu: {got.hand_fan} fan without flowers, {MIN_FAN} needed "
                      "(003 §Подсчёт 1a; penalty 003 §Отдельные нарушения 6)")
            return ScoreResult(False, reason, fans, got.total_fan, {"total": 0}, extra)
        points = self.points(got.total_fan, bool(ctx.get("self_drawn")))
        return ScoreResult(True, None, fans, got.total_fan, points, extra)

    def points(self, hand_value: int, self_drawn: bool) -> dict[str, int]:
        return points_summary(hand_value, self_drawn)
