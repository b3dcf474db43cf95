"""The yaku of EMA 2016 as played by the 004 regulation: one small unit per yaku, found by its id.

Each unit (``yaku/<id>.py``) holds ``DEF`` (:class:`~rules.profiles.riichi.yaku.base.YakuDef`: id, name,
han closed/open, seed reference) and ``check(reading) -> bool``; :data:`UNITS` registers each as a
:class:`rules.units.Unit`, in the order of the spec's yaku table (004 Rules 4.2.1–4.2.5).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from rules.profiles.riichi.reading import Reading
from rules.profiles.riichi.yaku.base import YakuDef
from rules.units import Registry, Unit

ORDER = (
    "riichi ippatsu double_riichi menzen_tsumo pinfu iipeikou tanyao sanshoku_doujun ittsu "
    "yakuhai_haku yakuhai_hatsu yakuhai_chun yakuhai_seat_wind yakuhai_round_wind chanta "
    "rinshan_kaihou chankan haitei houtei chiitoitsu sanshoku_doukou sanankou sankantsu toitoi "
    "honitsu shousangen honroutou ryanpeikou junchan chinitsu renhou kokushi_musou chuuren_poutou "
    "tenhou chiihou suuankou suukantsu ryuuiisou chinroutou tsuuiisou daisangen shousuushii "
    "daisuushii"
).split()  # the spec's yaku table order (§12)


def _load(name: str) -> tuple[YakuDef, Unit[Reading]]:
    mod = importlib.import_module(f"{__name__}.{name}")
    d: YakuDef = mod.DEF
    return d, Unit(d.id, d.name, d.ref, mod.check)


_ALL = [_load(n) for n in ORDER]
UNITS: Registry[Reading] = Registry(u for _, u in _ALL)  # every yaku as a rules.units.Unit, in table order
BY_ID: dict[str, YakuDef] = {d.id: d for d, _ in _ALL}


# (def, han, check) per closed/open hand, only the yaku possible that way, split into hand-level units
# (checked once per hand) and reading-level units (checked for each reading)
def _table(
    yakuman: bool, closed: bool, hand_level: bool
) -> tuple[tuple[YakuDef, int, Callable[[Reading], int], int], ...]:
    return tuple(
        (d, d.han(closed), u.check, d.needs)
        for d, u in _ALL
        if d.yakuman == yakuman and d.hand_level == hand_level and d.han(closed)
    )


HAND_YAKU = {closed: _table(False, closed, True) for closed in (True, False)}
READING_YAKU = {closed: _table(False, closed, False) for closed in (True, False)}
HAND_YAKUMAN = {closed: _table(True, closed, True) for closed in (True, False)}
READING_YAKUMAN = {closed: _table(True, closed, False) for closed in (True, False)}
RANK: dict[str, int] = {n: i for i, n in enumerate(ORDER)}  # table order, for listing
