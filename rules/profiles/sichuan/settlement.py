"""The settlement record of one Sichuan hand: every payment with its reason and seed reference.

:class:`HandLedger` is fed the scoring events of a hand in the order they happen — kongs, hu (valid or
false), dead hands, penalties, the exhaustion check — and keeps the payer set fixed at each event (only
players who have not declared hu pay, 000 §2.7.2.2-3, §2.7.3.5; 002 §7.2). Refunds are recorded as
reverse payments with their own reason, so a referee reads the whole story line by line. Amounts are
game points (GP); ``payee=None`` is a penalty that nobody receives (000 §2.8.2, §2.8.4.1; 002 §11.2).

The per-event calculators (:func:`kong_payments`, :func:`exhaustion_payments` ...) are pure functions the
ledger uses and tests call directly.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from rules.events import Payment
from rules.notation import Hand
from rules.profiles.sichuan import penalties
from rules.profiles.sichuan.params import SichuanParams
from rules.profiles.sichuan.scoring import Situation, best_fans, holds_suit, hu_payments, tenpai, win_problem
from rules.profiles.sichuan.session import HuEvent, next_dealer
from rules.scoring import JSONObject

KONG_KINDS = ("open", "concealed", "added")


def _pay(payer: int | None, payee: int | None, amount: int, reason: str, rule: str) -> Payment:
    return Payment(payer=payer, payee=payee, amount=amount, reason=reason, rule=rule)


def kong_payments(
    params: SichuanParams,
    seat: int,
    kind: str,
    players_in_play: Iterable[int],
    from_seat: int | None = None,
    fresh: bool = True,
) -> list[Payment]:
    """The payments of one kong when it is declared (000 §2.7.2.1-3, App.1 kong table; 002 §8.1-3).

    open: ``kong_open`` from the discarder; concealed: ``kong_concealed`` from each player still in play;
    added: ``kong_added_fresh`` from each, only when the fourth tile is the tile just drawn (a replacement
    tile counts as just drawn [Interp AMB-19]); from the hand it is a delayed kong: nothing.
    """
    r = params.rule
    if kind == "open":
        if from_seat is None or from_seat == seat:
            raise ValueError("an open kong needs the discarder of the fourth tile")
        return [_pay(from_seat, seat, params.kong_open, "open kong", r("000 §2.7.2.1", "002 §8.1"))]
    if kind == "concealed":
        amount, reason, rule = params.kong_concealed, "concealed kong", r("000 §2.7.2.2", "002 §8.3")
    elif kind == "added":
        if not fresh:
            return []  # delayed kong: 0 points, still a fan (000 §2.7.2.3, App.1 row 4; 002 §8.2)
        amount, reason, rule = params.kong_added_fresh, "added kong", r("000 §2.7.2.3", "002 §8.2")
    else:
        raise ValueError(f"kong kind must be one of {KONG_KINDS}, not {kind!r}")
    return [_pay(p, seat, amount, reason, rule) for p in sorted(players_in_play) if p != seat]


def refund(lines: Iterable[Payment], reason: str, rule: str) -> list[Payment]:
    """Reverse payments: each payee gives the amount back to its payer."""
    return [_pay(p.payee, p.payer, p.amount, reason, rule) for p in lines]


def deltas_of(lines: Iterable[Payment], seats: Iterable[int] = (0, 1, 2, 3)) -> dict[int, int]:
    """Seat → net GP of a list of payments (penalties to nobody only subtract)."""
    d = {s: 0 for s in seats}
    for p in lines:
        if p.payer is not None:
            d[p.payer] = d.get(p.payer, 0) - p.amount
        if p.payee is not None:
            d[p.payee] = d.get(p.payee, 0) + p.amount
    return d


# ----------------------------------------------------------------------------------------------------------
# Exhaustion


@dataclass(frozen=True)
class EndHand:
    """A player still in play when the wall ran out, as shown at the end check (000 §2.5.8.3)."""

    hand: Hand | None  # the 13-tile hand (None: not shown / unknown → not tenpai)
    missing_suit: str | None
    discards: tuple[str, ...] | None = None  # suits of his discards in order (passive-pig test)
    all_discards_of_missing_suit: bool | None = None  # given directly instead of ``discards``
    dead_hand: bool = False


@dataclass(frozen=True)
class EndState:
    seat: int
    state: str  # tenpai, not_tenpai, active_pig, passive_pig (MPL), pig (WMSG), dead_hand
    max_total_fan: int = 0
    max_base_points: int = 0
    pig_penalty: int = 0

    @property
    def tenpai(self) -> bool:
        return self.state == "tenpai"


def end_state(params: SichuanParams, seat: int, end: EndHand) -> EndState:
    """Classify one player at exhaustion (000 §2.7.4.1-3, 002 §11.1)."""
    h = end.hand
    if h is not None and holds_suit(h, end.missing_suit):
        if end.all_discards_of_missing_suit is not None:
            suits = [end.missing_suit or ""] if end.all_discards_of_missing_suit else ["other"]
        else:
            suits = list(end.discards or ())
        kind = penalties.pig_kind(params, True, suits, end.missing_suit or "")
        state = "pig" if kind == "pig" else f"{kind}_pig"
        return EndState(seat, state, pig_penalty=penalties.pig_penalty(params, kind))
    if end.dead_hand or h is None or h.tile_count != 13:
        # a dead hand cannot win: not tenpai [Interp AMB-21]; a wrong count is a dead hand (000 §2.5.8.3)
        return EndState(seat, "dead_hand")
    info = tenpai(params, h, end.missing_suit)
    if info.tenpai:
        return EndState(seat, "tenpai", info.max_total_fan, info.base_points)
    return EndState(seat, "not_tenpai")


def pays_tenpai_players(params: SichuanParams, st: EndState) -> bool:
    if st.state in ("not_tenpai", "dead_hand"):
        return True
    if st.state in ("active_pig", "passive_pig", "pig"):
        return params.pig_pays_tenpai_players  # MPL: a pig counts as not tenpai (000 §2.7.4.3)
    return False


def exhaustion_payments(params: SichuanParams, states: Mapping[int, EndState]) -> list[Payment]:
    """000 §2.7.4.4-5, 002 §11.3-4: each non-tenpai player pays each tenpai player his maximum; pigs pay 48.

    When every remaining player is in the same state and none is a pig nothing is paid: with only tenpai
    players nobody pays, with none nobody receives, so the rule falls out of the loop. A pig's 48 goes to
    nobody [Interp AMB-04; 002 §11.2 explicit].
    """
    r = params.rule
    out: list[Payment] = []
    tenpai_seats = [s for s in sorted(states) if states[s].tenpai]
    for s in sorted(states):
        st = states[s]
        if pays_tenpai_players(params, st):
            for t in tenpai_seats:
                out.append(
                    _pay(s, t, states[t].max_base_points, f"not tenpai ({st.state}) pays tenpai hand's maximum "
                         f"({states[t].max_total_fan} fan)", r("000 §2.7.4.4", "002 §11.3"))
                )
        if st.pig_penalty:
            out.append(_pay(s, None, st.pig_penalty, f"{st.state.replace('_', ' ')} penalty",
                            r("000 §2.8.4.1, §2.7.4.3", "002 §11.2")))
    return out


# ----------------------------------------------------------------------------------------------------------
# The ledger


@dataclass
class KongRecord:
    seat: int
    kind: str
    fresh: bool
    from_seat: int | None
    lines: list[Payment]
    status: str = "valid"  # valid, robbed, refunded


@dataclass
class HuRecord:
    seat: int
    valid: bool
    discarder: int | None
    self_drawn: bool
    total_fan: int = 0
    base_points: int = 0
    fans: tuple[tuple[str, int, int], ...] = ()
    reason: str | None = None  # why it is a false hu
    lines: list[Payment] = field(default_factory=list)
    at: int = 0  # number of payments recorded when the player left play


@dataclass
class Settlement:
    """The record of one hand: payments in order, net deltas, the end states, the next dealer."""

    payments: list[Payment]
    deltas: dict[int, int]
    states: dict[int, str]
    hu: list[HuRecord]
    next_dealer: int
    ended_by: str  # "hu", "exhaustion" or "" (in progress)

    @property
    def penalties_total(self) -> int:
        return sum(p.amount for p in self.payments if p.payee is None)

    def to_json(self) -> JSONObject:
        return {
            "payments": [
                {"payer": p.payer, "payee": p.payee, "amount": p.amount, "reason": p.reason, "rule": p.rule}
                for p in self.payments
            ],
            "deltas": {str(s): d for s, d in sorted(self.deltas.items())},
            "states": {str(s): v for s, v in sorted(self.states.items())},
            "next_dealer": self.next_dealer,
            "ended_by": self.ended_by,
        }

    def lines(self) -> list[str]:
        """A readable settlement: one line per payment."""
        out = []
        for p in self.payments:
            who = "nobody" if p.payee is None else f"seat {p.payee}"
            out.append(f"seat {p.payer} pays {p.amount} to {who}: {p.reason} [{p.rule}]")
        out.append("net: " + ", ".join(f"seat {s} {d:+d}" for s, d in sorted(self.deltas.items())))
        return out


class HandLedger:
    """Collects the scoring events of one hand and produces its :class:`Settlement`.

    Seats still in play (no hu declared) are the payers of concealed/added kongs and self-drawn wins at
    the moment of the event. A false-hu declarer leaves play like a winner [Interp AMB-09].
    """

    def __init__(self, params: SichuanParams, seats: Iterable[int] = (0, 1, 2, 3), dealer: int = 0,
                 missing_suits: Mapping[int, str] | None = None):
        self.params = params
        self.seats = tuple(sorted(seats))
        self.dealer = dealer
        self.missing_suits = dict(missing_suits or {})
        self.active: set[int] = set(self.seats)
        self.dead: set[int] = set()
        self.payments: list[Payment] = []
        self.kongs: list[KongRecord] = []
        self.hus: list[HuRecord] = []
        self.hu_events: list[HuEvent] = []
        self.states: dict[int, str] = {}
        self.ended_by = ""

    # -- flow ------------------------------------------------------------------------------------------
    @property
    def finished(self) -> bool:
        return bool(self.ended_by)

    def _rule(self, mpl: str, wmsg: str) -> str:
        return self.params.rule(mpl, wmsg)

    # -- kongs -----------------------------------------------------------------------------------------
    def kong(self, seat: int, kind: str, from_seat: int | None = None, fresh: bool = True) -> KongRecord:
        """A declared kong: its payments from the players in play now."""
        lines = kong_payments(self.params, seat, kind, self.active, from_seat, fresh)
        rec = KongRecord(seat, kind, fresh, from_seat, lines)
        self.kongs.append(rec)
        self.payments.extend(lines)
        return rec

    def _refund_kong(self, rec: KongRecord, status: str, reason: str, rule: str) -> None:
        if rec.status != "valid":
            return
        rec.status = status
        self.payments.extend(refund(rec.lines, reason, rule))

    def _refund_all_kongs(self, seat: int, reason: str, rule: str) -> None:
        for rec in self.kongs:
            if rec.seat == seat:
                self._refund_kong(rec, "refunded", reason, rule)

    def _last_kong(self, seat: int) -> KongRecord | None:
        for rec in reversed(self.kongs):
            if rec.seat == seat:
                return rec
        return None

    # -- hu --------------------------------------------------------------------------------------------
    def hu(
        self,
        seat: int,
        hand: Hand | None = None,
        *,
        discarder: int | None = None,
        self_drawn: bool = False,
        kong_replacement: bool = False,
        kong_discard: bool = False,
        robbing_kong: bool = False,
        last_tile: bool = False,
        furiten: bool = False,
        total_fan: int | None = None,
        tenpai_before: bool | None = None,
        missing_suit: str | None = None,
        false_reason: str | None = None,
    ) -> HuRecord:
        """A hu declaration, checked as at the end of the hand (000 §2.1.15, §2.5.8.3).

        ``hand`` is the 14-tile winning hand; without it ``total_fan`` must be given (rule-table use).
        A furiten hu, a hu under dead hand, or a hand that cannot win is a false hu (§2.8.4.2-3).
        ``false_reason`` records a hu the referee already found false. ``discarder`` is the kong
        declarer for a robbed kong; ``kong_discard``/``robbing_kong`` apply
        their side effects (refund of the discarder's last kong / the robbed kong void) even when the
        hu itself is false (000 §2.8.4.3).
        """
        if seat not in self.active:
            raise ValueError(f"seat {seat} is not in play")
        missing = missing_suit if missing_suit is not None else self.missing_suits.get(seat)
        sit = Situation(self_drawn or kong_replacement, kong_replacement, kong_discard, robbing_kong, last_tile)
        self._kong_side_effects(discarder, kong_discard, robbing_kong)  # they stand whatever the hu turns out to be
        problem, fans, total_fan = self._hu_problem(seat, hand, sit, missing, furiten, total_fan, false_reason)
        if not sit.self_drawn and discarder is None and problem is None:
            raise ValueError("a win on a discard needs the discarder")
        if problem is not None:
            return self._false_hu(seat, hand, problem, tenpai_before, missing, discarder, sit.self_drawn)
        assert total_fan is not None
        return self._pay_hu(seat, discarder, sit, robbing_kong, total_fan, fans)

    def _kong_side_effects(self, discarder: int | None, kong_discard: bool, robbing_kong: bool) -> None:
        """A kong discard refunds the discarder's last kong; a robbed (added) kong is void (000 §2.8.4.3)."""
        if kong_discard and discarder is not None:
            kong = self._last_kong(discarder)
            if kong is not None:
                self._refund_kong(kong, "refunded", "kong discard: the last kong's points are returned",
                                  self._rule("000 §2.7.2.5, App.1 #8", "002 §8.4"))
        if robbing_kong and discarder is not None:
            kong = self._last_kong(discarder)
            if kong is not None and kong.kind == "added":
                self._refund_kong(kong, "robbed", "robbed kong is invalid: its points are returned",
                                  "000 App.1 #9")

    def _hu_problem(self, seat: int, hand: Hand | None, sit: Situation, missing: str | None, furiten: bool,
                    total_fan: int | None, false_reason: str | None
                    ) -> tuple[str | None, tuple[tuple[str, int, int], ...], int | None]:
        """Why the hu is false (None: it stands), its fans and total fan (000 §2.8.4.2-3, §2.6.1)."""
        problem = false_reason or sit.problem()
        if seat in self.dead:
            problem = "hu declared under dead hand (000 §2.8.3)"
        elif furiten and problem is None:
            problem = self._rule("furiten hu (000 §2.6.1.5)",
                                 "hu after a passed discard win, before the next draw (002 §3.4)")
        fans: tuple[tuple[str, int, int], ...] = ()
        if problem is None and hand is not None:
            problem = win_problem(hand, missing)
            if problem is None:
                res = best_fans(self.params, hand, sit)
                if res is None:
                    problem = "not a winning shape (000 §2.6.1.1)"
                else:
                    fans, total_fan = res.fans, res.total_fan
        elif problem is None and total_fan is None:
            raise ValueError("give the winning hand or its total_fan")
        return problem, fans, total_fan

    def _pay_hu(self, seat: int, discarder: int | None, sit: Situation, robbing_kong: bool, total_fan: int,
                fans: tuple[tuple[str, int, int], ...]) -> HuRecord:
        """A valid hu: the payments of the base points (000 §2.7.3.4-5), the winner leaves play."""
        base = self.params.base_points(total_fan)
        d = hu_payments(self.params, base, seat, sit.self_drawn, discarder, self.active)
        how = "self-drawn hu" if sit.self_drawn else ("robbing the kong" if robbing_kong else "hu on a discard")
        rule = (self._rule("000 §2.7.3.5", "002 §9.5") if sit.self_drawn
                else self._rule("000 §2.7.3.4" + (", App.1 #9 [AMB-06]" if robbing_kong else ""), "002 §9.4"))
        each = base + self.params.self_draw_bonus if sit.self_drawn else base
        lines = [_pay(p, seat, each, f"{how}: {total_fan} fan, base {base}", rule)
                 for p in sorted(d) if d[p] < 0]
        self.payments.extend(lines)
        rec = HuRecord(seat, True, discarder, sit.self_drawn, total_fan, base, fans, None, lines)
        self._leave(seat, rec)
        self.hu_events.append(HuEvent((seat,), discarder))
        return rec

    def _false_hu(self, seat: int, hand: Hand | None, reason: str, tenpai_before: bool | None,
                  missing: str | None, discarder: int | None, self_drawn: bool) -> HuRecord:
        """000 §2.8.4.2-3, 002 §11.5 (and AMB-10 for a hand holding the missing suit)."""
        if tenpai_before is None:
            tenpai_before = False
            if hand is not None and hand.winning is not None:
                h13 = Hand(hand.concealed, hand.melds)
                tenpai_before = tenpai(self.params, h13, missing).tenpai
        amount = penalties.false_hu_penalty(self.params, tenpai_before)
        rule = self._rule("000 §2.8.4.2", "002 §11.5")
        lines = [_pay(seat, p, amount, f"false hu ({reason}); hand {'tenpai' if tenpai_before else 'not tenpai'}",
                      rule) for p in sorted(self.active) if p != seat]
        self.payments.extend(lines)
        if self.params.kong_refund_false_hu:
            self._refund_all_kongs(seat, "false hu: all kong points are returned", "000 §2.8.4.3")
        if hand is not None and holds_suit(hand, missing):
            pen = _pay(seat, None, self.params.pig_penalty, "hu with the missing suit in the hand (pig)",
                       self._rule("000 §2.5.8.3, §2.8.4.1 [AMB-10]", "002 §11.2 [AMB-10]"))
            self.payments.append(pen)
            lines.append(pen)
        rec = HuRecord(seat, False, discarder, self_drawn, reason=reason, lines=lines)
        self._leave(seat, rec)
        self.hu_events.append(HuEvent((seat,), discarder, false_hu=True))
        return rec

    def _leave(self, seat: int, rec: HuRecord) -> None:
        rec.at = len(self.payments)
        self.hus.append(rec)
        self.active.discard(seat)
        self.states[seat] = "won" if rec.valid else "false_hu"
        if len(self.hus) >= len(self.seats) - 1:
            self.ended_by = "hu"  # 000 §2.6.2.1, §3.1.3: three hu (two at a 3-player table)

    def false_hu(self, seat: int, tenpai_before: bool, reason: str = "false hu") -> HuRecord:
        """A hu declaration the referee found false without a hand to check (rule-table use)."""
        return self._false_hu(seat, None, reason, tenpai_before, None, None, False)

    def hu_group(self, discarder: int, winners: Mapping[int, Hand], *, robbing_kong: bool = False,
                 last_tile: bool = False, kong_discard: bool = False) -> list[HuRecord]:
        """Several hu on one discard (000 §2.6.1.6): each is paid by the discarder, in turn order."""
        from rules.profiles.sichuan.session import winners_in_turn_order

        order = winners_in_turn_order(discarder, winners)
        recs = [self.hu(w, winners[w], discarder=discarder, robbing_kong=robbing_kong, last_tile=last_tile,
                        kong_discard=kong_discard) for w in order]
        self.merge_last_hu(len(recs), discarder)
        return recs

    def merge_last_hu(self, n: int, discarder: int) -> None:
        """The last ``n`` hu were declared together on one tile (one event for dealer rotation)."""
        if n < 2:
            return
        evs = self.hu_events[-n:]
        del self.hu_events[-n:]
        winners = tuple(w for e in evs for w in e.winners)
        valid = tuple(bool(e.valid_winners()) for e in evs)
        self.hu_events.append(HuEvent(winners, discarder, valid=valid))

    def mark_won_earlier(self, seat: int) -> None:
        """A seat that left play before this ledger started recording (its hu scored elsewhere)."""
        self.active.discard(seat)
        self.states[seat] = "won"

    # -- dead hand, penalties --------------------------------------------------------------------------
    def dead_hand(self, seat: int, code: str = "wrong_tile_count") -> None:
        """000 §2.8.3: no claims, no hu; all kong points returned (at settlement, later kongs too)."""
        self.dead.add(seat)

    def penalty(self, seat: int, amount: int, reason: str, rule: str) -> None:
        """A penalty nobody receives (progressive scale, lateness...)."""
        if amount:
            self.payments.append(_pay(seat, None, amount, reason, rule))

    # -- end -------------------------------------------------------------------------------------------
    def exhaustion(self, ends: Mapping[int, EndHand]) -> dict[int, EndState]:
        """The wall is empty: classify the players in play, refund kongs of non-tenpai ones, settle."""
        missing = set(self.active) - set(ends)
        if missing:
            raise ValueError(f"seats {sorted(missing)} are in play and must be shown at exhaustion")
        states = {}
        for s in sorted(self.active):
            e = ends[s]
            if s in self.dead and not e.dead_hand:
                e = EndHand(e.hand, e.missing_suit, e.discards, e.all_discards_of_missing_suit, True)
            states[s] = end_state(self.params, s, e)
        for s, st in states.items():
            self.states[s] = st.state
            if not st.tenpai:
                self._refund_all_kongs(s, f"{st.state.replace('_', ' ')} at exhaustion: kong points are returned",
                                       self._rule("000 §2.7.2.4", "002 §8.5"))
        self.payments.extend(exhaustion_payments(self.params, states))
        self.ended_by = "exhaustion"
        return states

    def settle(self) -> Settlement:
        if self.params.kong_refund_dead_hand:
            for s in sorted(self.dead):
                self._refund_all_kongs(s, "dead hand: all kong points are returned", "000 §2.8.3")
        hu_events = self.hu_events
        return Settlement(
            payments=list(self.payments),
            deltas=deltas_of(self.payments, self.seats),
            states=dict(self.states),
            hu=list(self.hus),
            next_dealer=next_dealer(self.dealer, hu_events),
            ended_by=self.ended_by,
        )
