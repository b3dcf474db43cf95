"""Violations: typed results of illegal actions, never exceptions (the referee reports and plays on).

Each code has a default seed rule reference (the rule as 000/001/003/004 state it for most profiles); a
profile overrides references in ``GameRules.violation_rules``. :func:`violation` builds the
:class:`rules.events.Violation` event.
"""
from __future__ import annotations

from collections.abc import Mapping

from rules.events import Event, JSONObject, JSONValue, Violation

# code -> (default rule reference, what it means)
CODES: dict[str, tuple[str, str]] = {
    "out_of_phase": ("", "an action that the current phase of the hand does not allow"),
    "bad_event": ("", "a malformed event (unknown seat, tile or kind)"),
    "wrong_break": ("000 §2.4.9.3", "the wall is not broken where the dice say"),
    "out_of_turn": ("000 §2.5.3", "an action out of turn"),
    "draw_out_of_turn": ("000 §2.5.3", "a draw out of turn"),
    "wall_empty": ("000 §2.1.22", "a draw from an empty wall"),
    "wrong_wall_tile": ("", "the drawn tile is not the tile at that wall position"),
    "unknown_tile": ("", "a face-down tile \"x\" where full information is required"),
    "tile_not_held": ("000 §2.5.4", "a discard or meld of a tile the player does not hold"),
    "flower_discard": ("001 §Замена цветов 6", "a flower may not be discarded"),
    "not_a_flower": ("", "a tile declared as a flower is not one"),
    "claim_own_discard": ("", "a claim on one's own discard"),
    "claim_not_allowed": ("", "this claim does not exist in the profile"),
    "chow_not_from_left": ("003 §Порядок игры 5", "a chow may only take the left player's discard"),
    "claim_inactive_player": ("000 §2.6.2.1", "a claim by a player who has won or whose hand is dead"),
    "claim_last_tile": ("000 §2.5.5", "this claim is not allowed on the last discard"),
    "claim_late": ("000 §2.5.1.3", "a claim made after the claim window closed (the profile's claim time)"),
    "claim_priority": ("003 §Порядок игры 7", "a claim granted over a higher-priority claim"),
    "claim_not_announced": ("", "a meld made without the matching claim"),
    "bad_meld": ("", "the tiles do not form the declared meld with the claimed tile"),
    "kong_not_allowed": ("001 §Панг 5", "kongs do not exist in the profile"),
    "kong_on_last_tile": ("000 §2.5.7", "no kong when the wall has no tiles left"),
    "kong_after_claim": ("000 §2.5.7", "no concealed or added kong in a turn that began with a claim"),
    "multiple_win_not_allowed": ("003 §Как собрать 2e", "only one player wins a discard (head bump)"),
    "win_out_of_turn": ("", "a self-drawn win out of turn"),
    "false_win": ("000 §2.8.4.3", "a declared win that is not a legal win"),
    "furiten": ("000 §2.6.1.5", "a win on a discard while furiten"),
    "false_tenpai": ("004 Rules 3.4.2", "a hand declared ready (tenpai) that is not"),
    "reveal_mismatch": ("", "the revealed tiles contradict the tiles recorded for that player"),
    "tile_count": ("003 §Отдельные нарушения 8", "a hand with the wrong number of tiles"),
    "settlement_mismatch": ("", "a settlement that differs from the engine's"),
    "dealer_mismatch": ("", "a next dealer that differs from the engine's"),
    "missing_suit_twice": ("000 §2.4.10.2", "the missing suit is chosen once"),
    "bad_missing_suit": ("000 §2.4.10.1", "the missing suit must be m, p or s"),
    "missing_suit_tiles": ("000 §2.4.10.3", "a set or a win made with tiles of the missing suit"),
    "flower_pig": ("000 §2.1.25", "missing-suit tiles in the hand at the hand check"),
    "kuikae": ("004 Rules 3.3.2", "a discard the player's last call forbids (swap-calling)"),
    "riichi_not_allowed": ("004 Rules 3.3.14", "riichi declared without its conditions"),
    "riichi_open_hand": ("004 Rules 3.3.14", "riichi declared with an open hand"),
    "riichi_too_late": ("004 Rules 3.3.14", "riichi with fewer than four tiles left in the live wall"),
    "riichi_not_tenpai": ("004 Rules 3.3.14", "riichi declared with a hand that is not ready"),
    "riichi_hand_changed": ("004 Rules 3.3.14", "after riichi only the drawn tile may be discarded"),
    "riichi_illegal_kan": ("004 Rules 3.3.14", "a concealed kan after riichi that changes the hand"),
    "dora_mismatch": ("004 Rules 3.3.10", "a dora indicator that the wall or the kans do not allow"),
}


def violation(
    code: str,
    seat: int | None,
    message: str = "",
    *,
    rule: str | None = None,
    rules_by_code: Mapping[str, str] | None = None,
    at: Event | None = None,
    deferred: bool = False,
    hand_id: str = "",
    action: Event | None = None,
    codes: Mapping[str, tuple[str, str]] | None = None,
) -> Violation:
    """A :class:`Violation` event for ``code``; ``at``: the event that caused it (its clock is reused);
    ``codes``: codes a hand variant adds to :data:`CODES` (their default reference and meaning)."""
    default_rule, meaning = CODES.get(code) or (codes or {}).get(code) or ("", code)
    ref = rule if rule is not None else (rules_by_code or {}).get(code, default_rule)
    kw: dict[str, float] = {}
    if at is not None:
        kw = {"t_mono": at.t_mono, "t_wall": at.t_wall}
    return Violation(
        seat=seat, code=code, rule=ref, message=message or meaning, deferred=deferred,
        hand_id=hand_id, action=frozen_object(action.to_json()) if action is not None else {}, **kw,
    )


def frozen_json(v: JSONValue) -> JSONValue:
    """JSON data with lists as tuples: equal to itself after an event's JSON round trip."""
    if isinstance(v, list | tuple):
        return tuple(frozen_json(x) for x in v)
    if isinstance(v, dict):
        return {str(k): frozen_json(x) for k, x in v.items()}
    return v


def frozen_object(d: JSONObject) -> JSONObject:
    """:func:`frozen_json` of a JSON object."""
    return {str(k): frozen_json(x) for k, x in d.items()}
