"""``riichi-ema2016``: riichi under the EMA 2016 rules and the 004 tournament regulation.

The scoring side (``score``): every reading of the hand (:mod:`.reading`) is valued with the yaku units
(:mod:`.yaku`), fu (:mod:`.fu`) and the limit/payment rules (:mod:`.limits`); the reading that pays the
most is taken (004 Rules 3.4.9). The game side lives in the sibling modules (settlement, session,
furiten, riichi, claims) as pure functions.
"""

from __future__ import annotations

from collections.abc import Mapping

from rules.circumstances import BitTable, Impossible, robbing_on_the_last_tile, rule
from rules.notation import Hand
from rules.profiles.base import Profile
from rules.profiles.riichi import limits, table
from rules.profiles.riichi.context import FIELDS
from rules.profiles.riichi.dora import count_dora
from rules.profiles.riichi.fu import fu_breakdown, round_fu
from rules.profiles.riichi.game import RiichiHooks
from rules.profiles.riichi.reading import CHIITOITSU, KOKUSHI, HandInfo, Reading, readings
from rules.profiles.riichi.yaku import BY_ID, HAND_YAKU, HAND_YAKUMAN, RANK, READING_YAKU, READING_YAKUMAN
from rules.profiles.riichi.yaku.base import YakuDef
from rules.scoring import ContextValue, FanEntry, JSONObject, ScoreResult, invalid
from rules.shapes import waits as shape_waits
from rules.tiles import KINDS, Tile, counts34

LIABILITY_YAKUMAN = ("daisangen", "daisuushii")  # 004 Rules 3.3.9
PINFU_NEEDS = BY_ID["pinfu"].needs


# what cannot happen together (004 Rules 3.3.14, 4.2.1, 4.2.4-4.2.5; spec A20), in the order it is judged
IMPOSSIBLE: tuple[Impossible, ...] = (
    rule({"riichi"}, "riichi needs a closed hand (004 Rules 3.3.14)", none_of={"closed"}),
    rule({"ippatsu"}, "ippatsu and double riichi need riichi", none_of={"riichi"}),
    rule({"double_riichi"}, "ippatsu and double riichi need riichi", none_of={"riichi"}),
    rule({"robbing_kong", "self_drawn"}, "robbing a kan is a win on a discard, not a self-draw (004 Rules 4.2.1)"),
    rule({"robbing_kong", "kong_replacement"},
         "robbing a kan is a win on a discard, not a self-draw (004 Rules 4.2.1)"),
    rule({"kong_replacement"}, "a win on a replacement tile is self-drawn (004 Rules 4.2.1)", none_of={"self_drawn"}),
    rule({"kong_replacement"}, "a win on a replacement tile needs a kan in the hand", none_of={"kan"}),
    rule({"first_go_around", "melds"},
         "first go-around wins need an uninterrupted go-around: no call or kan (004 Rules 4.2.4-4.2.5)"),
    rule({"first_go_around", "riichi"}, "a first go-around win cannot follow a riichi"),
    rule({"first_go_around", "dealer"},
         "the dealer cannot win on a discard before his first turn (renhou is for non-dealers)",
         none_of={"self_drawn"}),
    robbing_on_the_last_tile("004 Rules 3.4.1; spec A20"),
)


# the circumstances of a win the table speaks of, as bits of one int (the scorer judges every hand):
# ``HandInfo.impossible_key`` sets bit i when the i-th name holds
CIRCUMSTANCES = ("self_drawn", "riichi", "ippatsu", "double_riichi", "robbing_kong", "kong_replacement",
                 "last_tile", "first_go_around", "dealer", "closed", "kan", "melds")
# every entry of the table needs one of these: without them no entry applies (the scorer skips the lookup)
TRIGGERS = ("riichi", "ippatsu", "double_riichi", "robbing_kong", "kong_replacement", "first_go_around")
_TABLE = BitTable(IMPOSSIBLE, CIRCUMSTANCES)


YakuList = list[tuple[YakuDef, int]]


class RiichiEMA2016(RiichiHooks, Profile):
    name = "riichi-ema2016"
    title = "Riichi, EMA 2016 rules, 004 tournament regulation"
    seed = "004"
    players = (4,)
    allows_red_fives = False  # EMA 2016 uses no red fives (spec §1)
    table_conventions = table.TABLE
    referee_notes = table.REFEREE
    record_formats = table.RECORD_FORMATS
    examples = table.EXAMPLES
    context_fields = FIELDS
    impossible = IMPOSSIBLE

    # --- tile-set rule checks -------------------------------------------------------------------------
    def check_hand(self, hand: Hand) -> list[str]:
        """As :meth:`Profile.check_hand` (no red fives, flowers, jokers; four copies at most), with a fast
        path for the usual hand made only of the 34 plain kinds."""
        c = [0] * 34
        for t in hand.all_concealed:
            if t >= 34:
                return super().check_hand(hand)
            c[t] += 1
        for m in hand.melds:
            for t in m.tiles:
                if t >= 34:
                    return super().check_hand(hand)
                c[t] += 1
        if hand.flowers or max(c) > 4:
            return super().check_hand(hand)
        return []

    def score_checked(self, hand: Hand, ctx: Mapping[str, ContextValue]) -> ScoreResult:
        """Rule checks, then ``score`` (as :meth:`Profile.score_checked`; the tile count is checked once)."""
        info = HandInfo(hand, ctx)
        if not info.plain:
            errs = self.check_hand(hand)
            if errs:
                return invalid("; ".join(errs))
        return self.score(hand, ctx, info)

    # --- shapes ---------------------------------------------------------------------------------------
    def waits(self, hand: Hand) -> list[Tile]:
        """Tiles completing the hand; a tile he holds all four of is no wait (004 Rules 3.3.13)."""
        c = counts34(hand.concealed)
        held = list(c)
        for m in hand.melds:
            for k in m.kinds:
                held[k] += 1
        return [KINDS[k] for k in shape_waits(c, len(hand.melds), self.shapes) if held[k] < 4]

    # --- scoring --------------------------------------------------------------------------------------
    def score(self, hand: Hand, ctx: Mapping[str, ContextValue], info: HandInfo | None = None) -> ScoreResult:
        """The best reading's result; ``info`` may be passed when already built for this hand and ctx."""
        if hand.winning is None:
            return invalid('the hand has no winning tile (add "+ TILE")')
        n = len(hand.concealed) + 1 + 3 * len(hand.melds)
        if n != 14:
            return invalid(f"the hand has {n} tiles counting each set as three; 14 expected")
        if info is None:
            info = HandInfo(hand, ctx)
        bad = _context_error(info)
        if bad:
            return invalid(bad)
        rs = readings(info)
        if not rs:
            return invalid("not a winning shape: no four sets and a pair, seven pairs or thirteen orphans")
        if info.robbing_kong and info.robbed_kan == "concealed" and rs[0].shape != KOKUSHI:
            return invalid("a concealed kan can be robbed only for thirteen orphans (004 Rules 4.2.1)")
        dora = count_dora(info.counts, info.dora_indicators)
        ura = count_dora(info.counts, info.ura_indicators) if info.riichi else 0
        best = _best_reading(info, rs, dora + ura)
        if best is None:
            return invalid("no yaku: the hand is complete but has no yaku (dora do not count, 004 Rules 3.2)")
        _, r, yaku, fu, han, basic, limit, parts = best
        return _result(r, yaku, fu, han, basic, limit, dora, ura, info.honba, parts or None)


Best = tuple[tuple[int, int, int], Reading, YakuList, int | None, int, int, str | None, list[tuple[str, int]]]


def _best_reading(info: HandInfo, rs: list[Reading], dora_han: int) -> Best | None:
    """The reading that pays the most (004 Rules 3.4.9): (key, reading, yaku, fu, han, basic points,
    limit, fu items), None when no reading has a yaku. Hand-level yaku are checked once, on the first."""
    closed = info.closed
    self_drawn = info.self_drawn or info.kong_replacement
    honba = info.honba
    r0 = rs[0]
    hand_yakuman = (
        [d for d, _, check, _ in HAND_YAKUMAN[closed] if check(r0)] if info.hand_yakuman_possible else []
    )
    hand_yaku = [(d, h) for d, h, check, _ in HAND_YAKU[closed] if check(r0)]
    reading_yakuman = READING_YAKUMAN[closed] if info.set_yakuman_possible else ()
    reading_yaku = READING_YAKU[closed]
    named = len(rs) == 1  # the fu items of the only reading are the ones shown
    best: Best | None = None
    for r in rs:
        f = r.features
        yakuman = hand_yakuman + [
            d for d, _, check, need in reading_yakuman if need & f == need and check(r)
        ]
        if yakuman:
            yaku: YakuList = [(d, 13) for d in yakuman]
            han, fu, basic = 13, None, limits.LIMIT_BASIC[limits.YAKUMAN]
            limit: str | None = limits.YAKUMAN
            parts: list[tuple[str, int]] = []
        else:
            yaku = hand_yaku + [
                (d, h) for d, h, check, need in reading_yaku if need & f == need and check(r)
            ]
            if not yaku:
                continue
            pinfu = f & PINFU_NEEDS == PINFU_NEEDS and any(d.id == "pinfu" for d, _ in yaku)
            parts = fu_breakdown(r, pinfu, named=named)
            raw = 0
            for _, v in parts:
                raw += v
            fu = round_fu(raw, r.shape == CHIITOITSU)
            han = dora_han
            for _, h in yaku:
                han += h
            basic, limit = limits.basic_points(han, fu)
        if named:
            return ((0, 0, 0), r, yaku, fu, han, basic, limit, parts)
        total = limits.payments(basic, info.dealer, self_drawn, honba)["total"]
        key = (total, han, fu or 0)
        if best is None or key > best[0]:
            best = (key, r, yaku, fu, han, basic, limit, [])
    return best


def _result(
    r: Reading,
    yaku: YakuList,
    fu: int | None,
    han: int,
    basic: int,
    limit: str | None,
    dora: int,
    ura: int,
    honba: int,
    detail: list[tuple[str, int]] | None = None,
) -> ScoreResult:
    """The full result of the chosen reading: fans, the vectors' fields, fu detail and payments."""
    i = r.info
    self_drawn = i.self_drawn or i.kong_replacement
    yaku = sorted(yaku, key=lambda dh: RANK[dh[0].id])
    is_yakuman = limit == limits.YAKUMAN
    parts: list[tuple[str, int]] = []
    if is_yakuman:
        dora = ura = 0  # yakuman do not add dora (004 Rules 4.2)
    else:
        parts = detail if detail is not None else fu_breakdown(r, any(d.id == "pinfu" for d, _ in yaku))
    liable = i.liable_wind
    points: Mapping[str, int]
    if liable is not None and is_yakuman and any(d.id in LIABILITY_YAKUMAN for d, _ in yaku):
        disc = i.discarder_wind
        points = limits.liability_payments(
            basic, i.dealer, self_drawn, honba, disc is not None and disc.kind == liable.kind
        )
    else:
        points = limits.payments(basic, i.dealer, self_drawn, honba)
    fans = [FanEntry(d.name, h, 1, {"id": d.id}) for d, h in yaku]
    if dora:
        fans.append(FanEntry("Dora", dora, 1, {"id": "dora"}))
    if ura:
        fans.append(FanEntry("Ura dora", ura, 1, {"id": "ura_dora"}))
    extra: JSONObject = {
        "yaku": [[d.id, h] for d, h in yaku],
        "dora": dora,
        "ura_dora": ura,
        "han": han,
        "fu": fu,
        "limit": limit,
        "fu_detail": parts,  # [(reason, fu), ...]
        "wait": r.wait,
        "dealer": i.dealer,
    }
    return ScoreResult(True, fans=fans, total_fan=han, points=points, extra=extra)


def value_of_reading(r: Reading, dora: int, ura: int, honba: int) -> ScoreResult | None:
    """The result of one given reading (None without a yaku): for tests and tools that compare readings."""
    closed = r.info.closed
    yakuman = [d for d, _, check, _ in HAND_YAKUMAN[closed] + READING_YAKUMAN[closed] if check(r)]
    if yakuman:
        return _result(
            r,
            [(d, 13) for d in yakuman],
            None,
            13,
            limits.LIMIT_BASIC[limits.YAKUMAN],
            limits.YAKUMAN,
            dora,
            ura,
            honba,
        )
    yaku = [(d, h) for d, h, check, _ in HAND_YAKU[closed] + READING_YAKU[closed] if check(r)]
    if not yaku:
        return None
    fu = round_fu(
        sum(v for _, v in fu_breakdown(r, any(d.id == "pinfu" for d, _ in yaku))), r.shape == CHIITOITSU
    )
    han = sum(h for _, h in yaku) + dora + ura
    basic, limit = limits.basic_points(han, fu)
    return _result(r, yaku, fu, han, basic, limit, dora, ura, honba)


def _context_error(info: HandInfo) -> str | None:
    """Context that cannot happen under these rules (a riichi with an open hand...), from the context as
    ``HandInfo`` read it."""
    seat, rnd = info.seat_tile, info.round_tile
    if seat is not None and not 27 <= seat <= 30 or rnd is not None and not 27 <= rnd <= 30:
        return "seat_wind and round_wind must be winds (1z-4z)"
    liable, disc = info.liable_wind, info.discarder_wind
    if liable is not None and not 27 <= liable <= 30 or disc is not None and not 27 <= disc <= 30:
        return "liable_seat_wind and discarder_seat_wind must be winds (1z-4z)"
    dealer = info.dealer_given
    if seat is not None and dealer is not None and (seat == 27) != bool(dealer):
        return "dealer must be true exactly when the seat wind is East (1z)"
    bad = _TABLE.answers[info.impossible_key]
    if bad:
        return bad
    if info.honba < 0:
        return "honba cannot be negative"
    dora, ura = info.dora_indicators, info.ura_indicators
    if dora or ura:
        if len(dora) > 5:
            return "at most 5 dora indicators (1 + 4 kans)"
        if len(ura) > len(dora) and dora:
            return "more ura indicators than dora indicators"
        seen = list(info.counts)
        for t in (*dora, *ura):
            if not isinstance(t, Tile):
                raise TypeError(f"an indicator that is not a tile: {t!r} (not from Profile.context?)")
            k = t if t < 34 else t.kind
            if not 0 <= k < 34:  # a flower, a joker or an unknown tile is never an indicator (004: 136 tiles)
                return f'"{t}" cannot be a dora indicator: the indicators are tiles of the set (1m..9s, 1z..7z, red fives)'
            seen[k] += 1
            if seen[k] > 4:
                return f'{seen[k]} copies of "{KINDS[k]}" among the hand and the indicators (a set has four)'
    return None
