"""The ``red`` profile: Red Mahjong for 2 to 4 players (seed 001), scoring side."""
from __future__ import annotations

from collections.abc import Mapping

from rules.notation import Hand
from rules.profiles.base import Profile
from rules.profiles.red import arrangement as arr
from rules.profiles.red import table
from rules.profiles.red.game import RedGameRules
from rules.profiles.red.options import RedOptions
from rules.profiles.red.payments import points_summary, settle_win
from rules.profiles.red.scoring import best
from rules.scoring import (
    SELF_DRAWN,
    ContextError,
    ContextField,
    ContextValue,
    FanEntry,
    JSONObject,
    ScoreResult,
    ctx_int,
    invalid,
)
from rules.shapes import Shape, regular_shanten
from rules.tiles import KINDS, N_KINDS, Tile, kind_text
from rules.wall import SEATS

MAX_JOKERS = 4  # 001 §Кости для маджонга 2, 8


class OptionsField(ContextField):
    """The ``options`` object of the vectors (spec §9): a mapping or a JSON object string."""

    def coerce(self, value: object) -> ContextValue:
        return RedOptions.parse(value).to_json() if value is not None else None


PLAYERS = ContextField("players", "int", 4, "number of players (2, 3 or 4)", choices=(2, 3, 4))
DEALER = ContextField("dealer", "seat", 0, "the dealer's seat (0 = East at the start)")
WINNER = ContextField("winner", "seat", None, "the winner's seat (for the per-seat payments)")
DISCARDER = ContextField("discarder", "seat", None, "the seat that discarded the winning tile")
RIVER_BOTTOM = ContextField("river_bottom", "bool", False, "won on the river bottom (last discard)")
OPTIONS = OptionsField(
    "options", "json", None,
    'agreed options as JSON, e.g. {"chaotic_value": 3, "min_points": 3}',
)


class Red(RedGameRules, Profile):
    name = "red"
    title = "Red Mahjong (2-4 players, jokers)"
    seed = "001"
    players = (2, 3, 4)
    # the natural-tile shape the shared tools (bots, hints) aim for; Red's own shapes — the regular hand with
    # jokers and the chaotic hand — are judged by ``arrangement`` (no seven pairs, no thirteen orphans)
    shapes = frozenset({Shape.REGULAR})
    allows_jokers = True
    allows_red_fives = False
    allows_flowers = True
    table_conventions = table.TABLE
    referee_notes = table.REFEREE
    examples = table.EXAMPLES
    context_fields = (SELF_DRAWN, PLAYERS, DEALER, WINNER, DISCARDER, RIVER_BOTTOM, OPTIONS)

    # --- context --------------------------------------------------------------------------------------
    def context(self, fields: Mapping[str, ContextValue]) -> dict[str, ContextValue]:
        ctx = super().context(fields)
        n = ctx["players"]
        if n not in SEATS:
            raise ContextError(f"field 'players': Red Mahjong is for 2 to 4 players, not {n}")
        for f in ("dealer", "winner", "discarder"):
            if ctx[f] is not None and ctx[f] not in SEATS[n]:
                raise ContextError(f"field {f!r}: seat {ctx[f]} is empty at a {n}-player table {SEATS[n]}")
        return ctx

    # --- tile-set rule checks -------------------------------------------------------------------------
    def check_hand(self, hand: Hand) -> list[str]:
        errs = super().check_hand(hand)
        for m in hand.melds:
            if m.is_kong or len(m.tiles) == 4:
                errs.append(f"{m}: there are no kongs in Red Mahjong; a 4-tile set cannot be declared (001 §Панг 5)")
            elif m.base is None:
                errs.append(f"{m}: a set made only of jokers is forbidden (001 §Джокеры 3)")
            elif any(t.is_unknown for t in m.tiles):
                errs.append(f"{m}: an unknown tile \"x\" cannot be scored")
        tiles = list(hand.all_concealed) + [t for m in hand.melds for t in m.tiles]
        nj = sum(1 for t in tiles if t.is_joker)
        if nj > MAX_JOKERS:
            errs.append(f"{nj} jokers (the 148-tile set has {MAX_JOKERS})")
        return errs

    # --- shapes ---------------------------------------------------------------------------------------
    def waits(self, hand: Hand) -> list[Tile]:
        """Natural tiles that complete a 13-tile hand (regular with jokers, or chaotic)."""
        c, j = arr.concealed_counts(hand)
        if arr.meld_sets(hand) is None:
            return []
        return [KINDS[k] for k in arr.waits(c, j, len(hand.melds))]

    def joker_completes(self, hand: Hand) -> bool:
        """Whether a drawn joker completes the hand (001 §Джокеры 5, fn9; only by self-draw, J2)."""
        c, j = arr.concealed_counts(hand)
        if arr.meld_sets(hand) is None:
            return False
        return arr.is_winning_shape(c, j + 1, len(hand.melds))

    def shanten(self, hand: Hand) -> int:
        """Regular-hand shanten; each joker is given greedily the kind that lowers it most (an upper bound
        with jokers, exact without). -1 for a complete hand (chaotic included)."""
        c, j = arr.concealed_counts(hand)
        n_melds = len(hand.melds)
        if arr.is_winning_shape(c, j, n_melds):
            return -1
        c = list(c)
        for _ in range(j):
            best_k, best_s = 0, 99
            for k in range(N_KINDS):
                c[k] += 1
                s = regular_shanten(c, n_melds)
                c[k] -= 1
                if s < best_s:
                    best_k, best_s = k, s
            c[best_k] += 1
        return max(0, regular_shanten(c, n_melds))

    # --- scoring --------------------------------------------------------------------------------------
    def score(self, hand: Hand, ctx: Mapping[str, ContextValue]) -> ScoreResult:
        ctx = self.context({k: v for k, v in ctx.items() if v is not None}) if _raw(ctx) else ctx
        opts = RedOptions.parse(ctx.get("options"))
        players = ctx_int(ctx, "players") or 4
        self_drawn = bool(ctx.get("self_drawn"))
        winning = hand.winning
        if winning is not None and winning.is_joker and not self_drawn:
            if ctx.get("river_bottom"):
                return invalid("a joker on the river bottom cannot be won on (001 §Морское дно и речное дно 3)")
            return invalid("a discarded joker can never be claimed, not even for a win (001 §Джокеры 2)")
        if any(t.is_flower for t in hand.all_concealed):
            return invalid("a flower may only be exposed in a winning hand; a concealed flower leaves "
                           "13 playing tiles (001 §Замена цветов 1, spec A22)")
        arrs = arr.arrangements(hand)
        if not arrs:
            return invalid(_why_not(hand))
        top = best(arrs, opts)
        assert top is not None
        raw = top.raw
        value = top.value(opts)
        basic = top.basic(opts)
        extra: JSONObject = {"total": raw, "value": value}
        if opts.min_points:
            extra["basic_points"] = basic
            if basic < opts.min_points:
                return invalid(
                    f"agreed minimum of {opts.min_points} points on basic fans "
                    f"{'(fan 1 excluded) ' if opts.min_excludes_flowers else ''}not reached: {basic} "
                    "(001 §Система подсчёта очков 4)",
                    **extra,
                )
        fans = [
            FanEntry(h.fan.name, h.unit, h.count, {"no": h.fan.no, "points": h.points}) for h in top.hits
        ]
        points: JSONObject = dict(points_summary(value, players, self_drawn))
        winner = ctx_int(ctx, "winner")
        if winner is not None:
            st = settle_win(players, winner, value, self_drawn=self_drawn, discarder=ctx_int(ctx, "discarder"))
            points["payments"] = {str(s): d for s, d in st.deltas.items()}
        a = top.arrangement
        extra["arrangement"] = _describe(a)
        return ScoreResult(True, fans=fans, total_fan=raw, points=points, extra=extra)


def _raw(ctx: Mapping[str, ContextValue]) -> bool:
    """A context not produced by :meth:`Red.context` (a plain mapping from a caller)."""
    return not all(f.name in ctx for f in Red.context_fields)


def _why_not(hand: Hand) -> str:
    if arr.meld_sets(hand) is None:
        return "a declared set is not a legal Red Mahjong set"
    if hand.melds:
        return ("not 4 sets and a pair (every set and the pair need a natural tile, 001 §Джокеры 3); "
                "a chaotic hand has no sets, so a declared set rules it out (001 §Победная рука 3)")
    return ("not 4 sets and a pair (every set and the pair need a natural tile, 001 §Джокеры 3) "
            "nor a chaotic hand of 14 different single tiles (001 §Победная рука, fan 11)")


def _describe(a: arr.Arrangement) -> JSONObject:
    if a.chaotic:
        return {"shape": "chaotic"}

    def s(kind: str, b: int) -> str:
        if kind == "chow":
            return "".join(kind_text(b + i)[0] for i in range(3)) + kind_text(b)[1]
        return kind_text(b)[0] * 3 + kind_text(b)[1]

    return {
        "shape": "regular",
        "sets": [s(k, b) for k, b in a.sets],
        "pair": kind_text(a.pair)[0] * 2 + kind_text(a.pair)[1] if a.pair is not None else None,
        "jokers_as": [kind_text(k) for k in a.joker_kinds],
    }

