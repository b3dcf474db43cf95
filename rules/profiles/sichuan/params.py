"""Profile parameters of the two Sichuan rule sets (spec sichuan.md §12.2) and their fan tables, as data.

Every rule that differs between ``sichuan-mpl2025`` (seed 000, MPL-2025 edition) and ``sichuan-wmsg``
(seed 002) is a field of :class:`SichuanParams`; the code reads the field, never the profile name.
Values marked [Interp] in the comments are the spec's recommended readings of a silent or unclear seed
(sichuan.md §13, AMB-xx); docs/rules/sichuan.md lists where this implementation follows or departs.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class FanDef:
    """One fan of a profile's table: ``id`` as in the vectors, value per occurrence, seed reference."""

    id: str
    name: str  # English name used in results
    ru: str  # the seed's name
    value: int
    rule: str
    situational: bool = False  # ignored by the exhaustion "theoretical maximum" (000 §2.7.4.4)


# 000 §2.7.3.6 = App.1 "Таблица комбинаций и фанов"
MPL_FANS: tuple[FanDef, ...] = (
    FanDef("kong", "Kong", "Конг", 1, "000 App.1 #1"),
    FanDef("quad", "Quad", "Четвёрка", 1, "000 App.1 #2"),
    FanDef("all_pungs", "All Pungs", "Все панги", 1, "000 App.1 #3"),
    FanDef("golden_wait", "Golden Wait", "Золотое ожидание", 1, "000 App.1 #4"),
    FanDef("pure_suit", "Pure Suit", "Чистая масть", 2, "000 App.1 #5"),
    FanDef("seven_pairs", "Seven Pairs", "Семь пар", 2, "000 App.1 #6"),
    FanDef("win_on_kong_replacement", "Win on Kong Replacement", "Выигрыш на замене", 1, "000 App.1 #7", True),
    FanDef("kong_discard", "Kong Discard", "Наброс после конга", 1, "000 App.1 #8", True),
    FanDef("robbing_kong", "Robbing the Kong", "Ограбление конга", 1, "000 App.1 #9", True),
    FanDef("sea_bottom", "Sea Bottom", "Морское дно", 1, "000 App.1 #10", True),
)

# 002 §10 — no separate Kong fan: a Quad is any four identical tiles, kong or not
WMSG_FANS: tuple[FanDef, ...] = (
    FanDef("quad", "Quad", "Четвёрка", 1, "002 §10 #1"),
    FanDef("all_pungs", "All Pungs", "Все панги", 1, "002 §10 #2"),
    FanDef("golden_wait", "Golden Wait", "Золотое ожидание", 1, "002 §10 #3"),
    FanDef("pure_suit", "Pure Suit", "Полное изобилие", 2, "002 §10 #4"),
    FanDef("seven_pairs", "Seven Pairs", "Семь пар", 2, "002 §10 #5"),
    FanDef("win_on_kong_replacement", "Win after Kong", "Выигрыш после конга", 1, "002 §10 #6", True),
    FanDef("kong_discard", "Kong Discard", "Наброс после конга", 1, "002 §10 #7", True),
    FanDef("robbing_kong", "Robbing the Kong", "Ограбление конга", 1, "002 §10 #8", True),
    FanDef("sea_bottom", "Sea Bottom", "Морское дно", 1, "002 §10 #9", True),
)


@dataclass(frozen=True)
class SichuanParams:
    """The §12.2 parameter table of one profile."""

    profile: str
    seed: str
    fans: tuple[FanDef, ...]
    fan_limit: int  # fans counted at most (base = 2 ** min(fan, limit))
    kong_fan_model: str  # "kong+quad" (MPL) or "quad" (WMSG)
    self_draw_bonus: int  # added to base, paid by each player still in play
    kong_open: int  # paid by the discarder of the fourth tile
    kong_concealed: int  # paid by each player still in play
    kong_added_fresh: int  # paid by each player still in play, fourth tile just drawn
    kong_added_delayed: int  # fourth tile from the hand ("отложенный" конг)
    kong_refund_false_hu: bool
    kong_refund_dead_hand: bool
    false_hu_tenpai: int  # paid to each player still in play
    false_hu_not_tenpai: int
    pig_penalty: int
    pig_exception_all_discards_missing: bool  # passive pig (MPL)
    pig_pays_tenpai_players: bool  # pig counts as "not tenpai" at exhaustion (MPL)
    furiten_scope: str  # "same_kind" (MPL) or "any_discard" (WMSG)
    missing_suit_procedure: str  # "cards" (MPL) or "set_aside_tile" (WMSG)
    progressive_scale: tuple[int, ...] = (0, 2, 4, 8, 16, 24, 48)  # 000 §2.8.2, cumulative [Interp AMB-23]
    claim_window_s: float = 3.0  # 000 §2.5.1.3
    draw_min_s: float = 1.0  # 000 §2.5.3 ("1-2 s")
    draw_max_s: float = 3.0
    discard_max_s: float = 10.0  # 000 §2.5.4
    declare_max_s: float = 15.0  # 000 §2.4.9.6

    def rule(self, mpl: str, wmsg: str) -> str:
        """The seed reference of a rule in this profile."""
        return mpl if self.seed == "000" else wmsg

    def fan(self, fan_id: str) -> FanDef:
        for f in self.fans:
            if f.id == fan_id:
                return f
        raise KeyError(fan_id)

    def base_points(self, total_fan: int) -> int:
        """000 §2.7.3.2-3, §2.7.3.7; 002 §9.1-3: 1 × 2^fan, capped at the limit."""
        return 1 << min(max(total_fan, 0), self.fan_limit)

    def false_hu_penalty(self, tenpai: bool) -> int:
        return self.false_hu_tenpai if tenpai else self.false_hu_not_tenpai


MPL2025 = SichuanParams(
    profile="sichuan-mpl2025",
    seed="000",
    fans=MPL_FANS,
    fan_limit=4,  # 000 §2.7.3.3: 4 fans = 16
    kong_fan_model="kong+quad",
    self_draw_bonus=1,  # 000 §2.7.3.5, read as (base + 1) from each [Interp AMB-05]
    kong_open=2,  # 000 §2.7.2.1
    kong_concealed=2,  # 000 §2.7.2.2
    kong_added_fresh=1,  # 000 §2.7.2.3
    kong_added_delayed=0,  # 000 §2.7.2.3, App.1 row 4
    kong_refund_false_hu=True,  # 000 §2.8.4.3
    kong_refund_dead_hand=True,  # 000 §2.8.3
    false_hu_tenpai=8,  # 000 §2.8.4.2
    false_hu_not_tenpai=16,
    pig_penalty=48,  # 000 §2.8.4.1, to nobody [Interp AMB-04]
    pig_exception_all_discards_missing=True,  # 000 §2.7.4.3 passive pig
    pig_pays_tenpai_players=True,  # 000 §2.7.4.3 "рассматривается как «без ожидания»"
    furiten_scope="same_kind",  # 000 §2.6.1.5
    missing_suit_procedure="cards",  # 000 §2.4.10.2
)

WMSG = SichuanParams(
    profile="sichuan-wmsg",
    seed="002",
    fans=WMSG_FANS,
    fan_limit=3,  # 002 §9.3: 3 fans or more = 8
    kong_fan_model="quad",
    self_draw_bonus=1,  # 002 §9.5
    kong_open=2,  # 002 §8.1
    kong_concealed=2,  # 002 §8.3
    kong_added_fresh=1,  # 002 §8.2
    kong_added_delayed=0,  # 002 §8.2 "только в случае немедленного объявления"
    kong_refund_false_hu=False,  # 002 lists its refund cases; false hu is not one [Interp §12.2]
    kong_refund_dead_hand=True,  # dead hand inherited from 000 §2.8.3 [Interp §0.3]
    false_hu_tenpai=8,  # 002 §11.5: 8 to each who has not won, no tenpai distinction
    false_hu_not_tenpai=8,
    pig_penalty=48,  # 002 §11.2, "оппоненты за это очков не получают"
    pig_exception_all_discards_missing=False,
    pig_pays_tenpai_players=False,  # pig is a separate third state (002 §11.1) [Interp AMB-04]
    furiten_scope="any_discard",  # 002 §3.4
    missing_suit_procedure="set_aside_tile",  # 002 §5.2
)

PARAMS: dict[str, SichuanParams] = {p.profile: p for p in (MPL2025, WMSG)}
