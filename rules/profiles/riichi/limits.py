"""Limits and payments: from han and fu to what each player pays (004 Rules 4.1.2–4.1.3).

The seed refers to the EMA tables without reproducing them; the limit table below is EMA 2016's
(spec §11.3): no kiriage mangan (4 han 30 fu = 7700), no kazoe yakuman (11+ han = sanbaiman), yakuman
never doubled. Non-limit hands: basic = fu × 2^(han + 2), capped at the mangan's 2000.
"""

from __future__ import annotations

MANGAN, HANEMAN, BAIMAN, SANBAIMAN, YAKUMAN = "mangan", "haneman", "baiman", "sanbaiman", "yakuman"

# limit -> basic points (a non-dealer's self-draw share); the rows of the EMA limit table
LIMIT_BASIC: dict[str, int] = {MANGAN: 2000, HANEMAN: 3000, BAIMAN: 4000, SANBAIMAN: 6000, YAKUMAN: 8000}

# lowest han of each counted limit (han ≥ 5); a yakuman is never reached by counting han
HAN_LIMITS: tuple[tuple[int, str], ...] = ((11, SANBAIMAN), (8, BAIMAN), (6, HANEMAN), (5, MANGAN))

HONBA_RON = 300  # per counter, paid by the discarder (004 Rules 3.4.10)
HONBA_TSUMO_EACH = 100  # per counter, paid by each of the three players on a self-draw


def ceil100(x: int) -> int:
    return -(-x // 100) * 100


def limit_of(han: int, fu: int | None, yakuman: bool = False) -> str | None:
    """The limit a hand reaches, or None for a hand paid by the formula."""
    if yakuman:
        return YAKUMAN
    for lo, name in HAN_LIMITS:
        if han >= lo:
            return name
    if fu is not None and fu * (1 << (han + 2)) >= 2000:
        return MANGAN
    return None


def basic_points(han: int, fu: int | None, yakuman: bool = False) -> tuple[int, str | None]:
    """(basic points, limit name or None)."""
    lim = limit_of(han, fu, yakuman)
    if lim is not None:
        return LIMIT_BASIC[lim], lim
    assert fu is not None
    return fu * (1 << (han + 2)), None


def ron_value(basic: int, dealer: bool) -> int:
    """What the discarder pays before counters: ceil100(4 × basic), a dealer winner ceil100(6 × basic)."""
    return ceil100(basic * (6 if dealer else 4))


def payments(basic: int, dealer: bool, self_drawn: bool, honba: int = 0) -> dict[str, int]:
    """The payment object of the vectors: ``ron`` / ``tsumo_dealer_pays`` + ``tsumo_nondealer_pays`` /
    ``tsumo_each_pays``, and ``total`` (what the winner receives, counters included, deposits excluded)."""
    if not self_drawn:
        ron = ron_value(basic, dealer) + HONBA_RON * honba
        return {"ron": ron, "total": ron}
    if dealer:
        each = ceil100(2 * basic) + HONBA_TSUMO_EACH * honba
        return {"tsumo_each_pays": each, "total": 3 * each}
    d = ceil100(2 * basic) + HONBA_TSUMO_EACH * honba
    nd = ceil100(basic) + HONBA_TSUMO_EACH * honba
    return {"tsumo_dealer_pays": d, "tsumo_nondealer_pays": nd, "total": d + 2 * nd}


def liability_payments(
    basic: int, dealer: bool, self_drawn: bool, honba: int, liable_is_discarder: bool
) -> dict[str, int]:
    """Pao (004 Rules 3.3.9): on a self-draw the liable player pays the whole hand as a ron, counters
    included (spec A8); on a discard by another player the discarder and the liable player pay half each,
    the discarder paying the counters (spec A8); on the liable player's own discard he pays all."""
    full = ron_value(basic, dealer)
    counters = HONBA_RON * honba
    if self_drawn:
        return {"liable_pays": full + counters, "others_pay": 0, "total": full + counters}
    if liable_is_discarder:
        return {"ron": full + counters, "liable_pays": full + counters, "total": full + counters}
    half = full // 2
    return {"discarder_pays": full - half + counters, "liable_pays": half, "total": full + counters}
