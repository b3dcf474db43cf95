"""Agreed options of a Red Mahjong game (spec §9), the ``options`` context field of the vectors."""
from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, fields

from rules.scoring import ContextError, JSONObject

CAP = 300  # 001 §Система подсчёта очков 5


@dataclass(frozen=True)
class RedOptions:
    chaotic_value: int = 12  # 12, or 3 by agreement (001 fn12)
    min_points: int = 0  # agreed minimum (001 §Система подсчёта очков 3–4); 0 = none
    min_excludes_flowers: bool = True  # fan 1 not counted towards the minimum (spec A30)
    fan_multiplicity: str = "per_combination"  # or "once" (spec A15)
    half_flush_pair_included: bool = True  # spec A17
    half_flush_requires_honour: bool = False  # spec A17
    pure_straight_same_suit: bool = True  # spec A18
    cap: int = CAP

    @staticmethod
    def parse(value: object) -> RedOptions:
        """From a mapping or a JSON object string; unknown keys and bad values are :class:`ContextError`."""
        if value is None or isinstance(value, RedOptions):
            return value or RedOptions()
        if isinstance(value, str):
            try:
                value = json.loads(value) if value.strip() else {}
            except json.JSONDecodeError as exc:
                raise ContextError(f"field 'options': not a JSON object ({exc.msg})") from None
        if not isinstance(value, Mapping):
            raise ContextError("field 'options': expected an object such as {\"chaotic_value\": 3}")
        known = {f.name: f for f in fields(RedOptions)}
        kw: JSONObject = {}
        for k, v in value.items():
            if k not in known:
                raise ContextError(f"field 'options': unknown option {k!r} (known: {', '.join(known)})")
            want = known[k].type
            if want == "bool":
                if not isinstance(v, bool):
                    raise ContextError(f"option {k!r}: {v!r} is not true/false")
            elif want == "int":
                if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                    raise ContextError(f"option {k!r}: {v!r} is not a non-negative integer")
            kw[k] = v
        opts = RedOptions(**kw)  # type: ignore[arg-type]  # (each value checked against its field above)
        if opts.chaotic_value not in (12, 3):
            raise ContextError("option 'chaotic_value' must be 12 or 3 (001 fn12)")
        if opts.fan_multiplicity not in ("per_combination", "once"):
            raise ContextError("option 'fan_multiplicity' must be 'per_combination' or 'once'")
        return opts

    def to_json(self) -> JSONObject:
        return {f.name: getattr(self, f.name) for f in fields(self)}
