"""The game-machine hooks of the Sichuan profiles (``rules.game.profile_api.GameRules``).

The hand machine (Foundation II) tracks the hand; these hooks give it the Sichuan rules: missing-suit
declaration, no chow, pung on the last discard, blood battle (winners leave, the hand ends at three hu),
hands judged at the end (000 §2.1.15), furiten from the recorded history, the flower pig at the reveal,
tenpai with the four-concealed exception, dealer rotation, TP 4/3/2/1.

Settlement: a Sichuan hand also pays for kongs and refunds them (000 §2.7.2), so it is not a sum of
per-win payments: the ``settle_hand`` hook settles the whole hand with :func:`ledger_from_state` (the
:class:`HandLedger` fed from ``state.history``), in the order of events.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rules.events import Discarded, Drew, MeldMade, Payment, Won, as_int
from rules.game.profile_api import Capabilities, GameRules, Standing
from rules.game.state import SeatState
from rules.notation import Hand
from rules.profiles.sichuan import penalties as sichuan_penalties
from rules.profiles.sichuan.params import MPL2025, SichuanParams
from rules.profiles.sichuan.scoring import TenpaiInfo, tenpai
from rules.profiles.sichuan.settlement import EndHand, HandLedger
from rules.scoring import ContextValue
from rules.tiles import Tile

if TYPE_CHECKING:  # pragma: no cover
    from rules.game.state import HandState, WinRecord

DEAD_HAND_CODES = frozenset({"tile_count"})  # 000 §2.8.3.1: a wrong tile count gives a dead hand


# ----------------------------------------------------------------------------------------------------------
# Reading the history


def _won_index(state: HandState, win: WinRecord) -> int:
    """Index in ``state.history`` of the Won event of ``win``; len(history) for a win not declared yet."""
    try:
        k = next(i for i, w in enumerate(state.wins) if w is win)
    except StopIteration:
        return len(state.history)
    n = -1
    for i, ev in enumerate(state.history):
        if isinstance(ev, Won):
            n += 1
            if n == k:
                return i
    return len(state.history)


def _offer_index(state: HandState, upto: int, seat: int) -> int | None:
    """Index of the tile on offer before ``upto``: ``seat``'s last discard or added kong."""
    for i in range(upto - 1, -1, -1):
        ev = state.history[i]
        if isinstance(ev, Discarded) and ev.seat == seat:
            return i
        if isinstance(ev, MeldMade) and ev.seat == seat and ev.kind == "kong_added":
            return i
    return None


def discard_after_kong(state: HandState, discard_index: int) -> bool:
    """Whether the discard at ``discard_index`` was made in a turn in which its player declared a kong (the
    index may be an added kong's too, a tile offered to be robbed: ``_offer_index``)."""
    ev = state.history[discard_index]
    assert isinstance(ev, Discarded | MeldMade)
    seat = ev.seat
    for i in range(discard_index - 1, -1, -1):
        e = state.history[i]
        if isinstance(e, MeldMade) and e.seat == seat and e.kind.startswith("kong"):
            return True
        if isinstance(e, Drew) and e.seat == seat and e.source == "wall":
            return False
        if isinstance(e, Discarded | Won):
            return False
        if isinstance(e, MeldMade) and e.seat == seat and e.kind == "pung":
            return False
    return False


def left_before(state: HandState, win: WinRecord) -> set[int]:
    """Seats that declared hu (valid or not) before ``win``: they are out of play [AMB-09]."""
    out = set()
    for w in state.wins:
        if w is win:
            break
        out.add(w.seat)
    return out


# ----------------------------------------------------------------------------------------------------------
# The ledger of a hand from the machine's state


def ledger_from_state(profile: SichuanGameRules, state: HandState) -> HandLedger:
    """Replay the hand's accepted events into a :class:`HandLedger` (validity as judged at the reveal)."""
    params = profile.params
    seats = tuple(state.seats)
    missing = {s: m for s in seats if (m := state.seat_state[s].missing_suit) is not None}
    led = HandLedger(params, seats, state.dealer, missing)
    dead_at = {ss.dead_since: s for s, ss in state.seat_state.items() if ss.dead_since is not None}
    drawn: dict[int, Tile | None] = {}
    hist = state.history
    wins = list(state.wins)
    k = 0
    group: list[int] = []  # consecutive hu on one tile
    group_key: tuple[int, int] | None = None
    for i, ev in enumerate(hist):
        if i in dead_at:  # 000 §2.8.3: dead from here on (a judge's HandDead or a wrong tile count)
            led.dead_hand(dead_at[i], getattr(ev, "reason", "") or "tile_count")
        if not isinstance(ev, Won) and group:
            led.merge_last_hu(len(group), group_key[0])  # type: ignore[index]
            group, group_key = [], None
        if isinstance(ev, Drew):
            drawn[ev.seat] = Tile.parse(ev.tile) if ev.tile != "x" else None
        elif isinstance(ev, Discarded):
            drawn[ev.seat] = None
        elif isinstance(ev, MeldMade) and ev.kind.startswith("kong"):
            _ledger_kong(led, ev, drawn)
        elif isinstance(ev, Won):
            w = wins[k] if k < len(wins) else None
            k += 1
            if w is None or ev.seat not in led.active:
                continue
            _ledger_hu(led, state, i, ev.seat, w)
            key = (w.from_seat, i) if w.from_seat is not None else None
            if key is not None and group and group_key is not None and group_key[0] == w.from_seat:
                group.append(ev.seat)
            else:
                if group:
                    led.merge_last_hu(len(group), group_key[0])  # type: ignore[index]
                group, group_key = ([ev.seat], key) if key is not None else ([], None)
    if group:
        led.merge_last_hu(len(group), group_key[0])  # type: ignore[index]
    if state.exhaustive and not led.finished:
        led.exhaustion(_exhaustion_ends(led, state))
    return led


def _ledger_kong(led: HandLedger, ev: MeldMade, drawn: dict[int, Tile | None]) -> None:
    """A kong into the ledger: fresh (its points now) unless an added kong with an older tile (000 §2.7.2.3)."""
    kind = ev.kind.removeprefix("kong_")
    fresh = True
    if kind == "added" and ev.drawn_tile is not None:  # seen: taken from the drawn-tile place
        fresh = ev.drawn_tile
    elif kind == "added":  # full information: the added tile is the tile just drawn
        t = Tile.parse(ev.claimed_tile) if ev.claimed_tile else None
        d = drawn.get(ev.seat)
        fresh = t is not None and d is not None and t.kind == d.kind  # else delayed (000 §2.7.2.3)
    led.kong(ev.seat, kind, from_seat=ev.from_seat, fresh=fresh)


def _ledger_hu(led: HandLedger, state: HandState, i: int, seat: int, w: WinRecord) -> None:
    """One hu (the i-th event) into the ledger, false as the machine judged it (furiten, no legal win)."""
    params = led.params
    kd = False
    if w.from_seat is not None and not w.robbing_kong:
        j = _offer_index(state, i, w.from_seat)
        kd = j is not None and discard_after_kong(state, j)
    result = w.result
    false_reason = None
    if w.valid is False:
        if result is not None and result.valid:
            false_reason = params.rule("furiten hu (000 §2.6.1.5)", "hu while passed over (002 §3.4)")
        else:
            false_reason = (result.reason if result is not None else None) or "not a legal win"
    led.hu(seat, win_hand(state.seat_state[seat], w) if w.valid is False else None, discarder=w.from_seat,
           self_drawn=w.from_seat is None, kong_replacement=w.kong_replacement, kong_discard=kd,
           robbing_kong=w.robbing_kong, last_tile=w.last_tile, false_reason=false_reason,
           total_fan=result.total_fan if result is not None and result.valid else 0)


def _exhaustion_ends(led: HandLedger, state: HandState) -> dict[int, EndHand]:
    """How each player still in play ends an exhausted wall (hands seen at the reveal or in full information)."""
    ends = {}
    for s in sorted(led.active):
        ss = state.seat_state[s]
        hand = ss.hand() if ss.revealed or state.mode == "full" else None
        ends[s] = EndHand(hand, ss.missing_suit, tuple(t.suit for t in ss.pond), dead_hand=s in led.dead)
    return ends


def win_hand(ss: SeatState, w: WinRecord) -> Hand | None:
    if w.tile.is_unknown:
        return None
    if w.from_seat is None:
        return ss.hand(winning=w.tile)
    return Hand(tuple(ss.tiles()), tuple(ss.melds), w.tile)


# ----------------------------------------------------------------------------------------------------------
# The hooks


CAPABILITIES = Capabilities(
    pre_play=("missing_suit",),  # 000 §2.4.10, 002 §5
    chow_allowed=False,  # 000 §2.5.1, 002 §2.1
    last_discard_claims=frozenset({"hu", "pung"}),  # 000 §2.5.5
    multiple_winners=True,  # 000 §2.6.1.6, 002 §3.3
    robbing_kong=True,  # 000 App.1 #9, 002 §10 #8
    reveal_on_win=False,  # 000 §2.1.15: hands are opened at the end of the hand
    continue_after_win=True,  # 000 §2.6.2.1, 002 §4: blood battle
    max_winners=None,  # players − 1: three hu, two at a 3-player table (000 §3.1.3)
    false_win_ends_hand=False,  # 000 §2.8.4.3: penalties; the hand goes on
    reveal_all_at_draw=True,  # 000 §2.5.8.3
    dead_hand_codes=DEAD_HAND_CODES,  # 000 §2.8.3.1
    dead_hand_win_is_false=True,  # 000 §2.8.3: a later hu is a false hu
)


class SichuanGameRules(GameRules):
    """Mixed into the Sichuan profiles before ``Profile`` (whose base is ``GameRules``)."""

    penalty_catalogue = sichuan_penalties.CATALOGUE  # the judge's console (rules/game/penalty_catalogue.py)

    capabilities = CAPABILITIES
    params: SichuanParams = MPL2025
    placement_points = (4.0, 3.0, 2.0, 1.0)  # 000 §2.7.5.2 (3 players use 4, 3, 2: §3.1.3)
    session_hands = 8  # hands per session: set by the organisers [Interp AMB-31]
    violation_rules = {
        "claim_not_allowed": "000 §2.5.1, 002 §2.1",
        "claim_last_tile": "000 §2.5.5",
        "missing_suit_tiles": "000 §2.4.10.3",
        "flower_pig": "000 §2.1.25, §2.8.4.1",
        "false_win": "000 §2.8.4.2-3",
        "tile_count": "000 §2.8.3.1",
    }

    def claim_check(self, state: HandState, seat: int, kind: str, tile: Tile) -> tuple[str, str] | None:
        """000 §2.4.10.3: no set or hu with tiles of the missing suit (a serious violation)."""
        ms = state.seat_state[seat].missing_suit
        if ms is not None and getattr(tile, "suit", None) == ms:
            return ("missing_suit_tiles", f"a {kind} on a tile of the declared missing suit {ms}")
        return None

    def win_context(self, state: HandState, seat: int, win: WinRecord) -> dict[str, ContextValue]:
        idx = _won_index(state, win)
        kd = False
        if win.from_seat is not None and not win.robbing_kong:
            j = _offer_index(state, idx, win.from_seat)
            kd = j is not None and discard_after_kong(state, j)
        in_play = [s for s in state.seats if s not in left_before(state, win) and s != seat] + [seat]
        ctx: dict[str, Any] = {
            "missing_suit": state.seat_state[seat].missing_suit,
            "self_drawn": win.from_seat is None,
            "kong_replacement": win.kong_replacement,
            "kong_discard": kd,
            "robbing_kong": win.robbing_kong,
            "last_tile": win.last_tile,
            "winner_seat": seat,
            "players_in_play": sorted(in_play),
        }
        if win.from_seat is not None:
            ctx["kong_declarer_seat" if win.robbing_kong else "discarder_seat"] = win.from_seat
        return ctx

    def is_furiten(self, state: HandState, seat: int, hand: Hand, win: WinRecord) -> bool:
        """Furiten from the recorded history (spec §6.10; "higher value" = higher capped base, AMB-07).

        MPL (000 §2.6.1.5): a tile of the winning kind was offered (discarded by anyone, himself
        included, or added to a kong) since the player's last draw or claimed set. WMSG (002 §3.4): he
        passed a discard he could have won on since his last draw. A robbed kong counts as a discard
        (AMB-06). WMSG limitation: a set claimed after the passed discard changes the hand, and the
        pass is then not judged (the player is given the benefit).
        """
        if win.from_seat is None:
            return False
        idx = _won_index(state, win)
        j = _offer_index(state, idx, win.from_seat)
        if j is None:
            return False
        now = self.judge_win(state, seat, hand, win)
        if not now.valid:
            return False
        base_now = as_int(now.extra.get("base_points", 0))
        same_kind = self.params.furiten_scope == "same_kind"
        for i in range(j - 1, -1, -1):
            ev = state.history[i]
            if isinstance(ev, Drew) and ev.seat == seat:
                return False
            if isinstance(ev, MeldMade) and ev.seat == seat and ev.from_seat is not None:
                return False
            if isinstance(ev, Discarded):
                offered = Tile.parse(ev.tile)
            elif isinstance(ev, MeldMade) and ev.kind == "kong_added" and ev.claimed_tile:
                offered = Tile.parse(ev.claimed_tile)
            else:
                continue
            if same_kind and offered.kind != win.tile.kind:
                continue
            if not same_kind and ev.seat == seat:
                continue
            then = self._value_on(state, seat, hand, offered, i)
            if then is not None and base_now <= then:
                return True
        return False

    def _value_on(self, state: HandState, seat: int, hand: Hand, t: Tile, i: int) -> int | None:
        """The capped base the same hand would have scored on the discard at history index ``i``."""
        from rules.profiles.sichuan.scoring import Situation, best_fans, win_problem

        h = Hand(hand.concealed, hand.melds, t)
        ms = state.seat_state[seat].missing_suit
        if win_problem(h, ms):
            return None
        res = best_fans(self.params, h, Situation(kong_discard=discard_after_kong(state, i)))
        if res is None:
            return None
        return self.params.base_points(res.total_fan)

    def reveal_checks(self, state: HandState, seat: int, hand: Hand) -> list[tuple[str, str]]:
        """The flower pig: tiles of the missing suit at the hand check (000 §2.1.25, §2.5.8.3)."""
        from rules.profiles.sichuan.scoring import holds_suit

        ss = state.seat_state[seat]
        if not (state.exhaustive or ss.won or any(w.seat == seat for w in state.wins)):
            return []
        if holds_suit(hand, ss.missing_suit):
            return [("flower_pig", f"tiles of the missing suit {ss.missing_suit} in the hand")]
        return []

    def tenpai(self, hand: Hand, missing_suit: str | None) -> TenpaiInfo:
        """Tenpai and the exhaustion maximum of a 13-tile hand (000 §2.7.4.2, §2.7.4.4)."""
        return tenpai(self.params, hand, missing_suit)

    def is_tenpai(self, state: HandState, seat: int, hand: Hand) -> bool:
        ss = state.seat_state[seat]
        if ss.dead:
            return False  # [Interp AMB-21]
        return self.tenpai(hand, ss.missing_suit).tenpai

    # -- settlement --------------------------------------------------------------------------------
    def settle_hand(self, state: HandState) -> list[Payment]:
        """Every payment of the hand, in the order of events (the referee's settlement record)."""
        return ledger_from_state(self, state).settle().payments

    def next_dealer(self, state: HandState) -> int:
        """000 §2.6.2.6, 002 §6 (false hu ignored)."""
        return ledger_from_state(self, state).settle().next_dealer

    def game_over(self, hands_played: int, dealer_changes: int, players: int) -> bool:
        return hands_played >= self.session_hands

    # -- the hall: a session's result and the tournament ---------------------------------------------
    session_warning_min = 15  # 000 §2.4.4: the chief judge announces the last 15 minutes
    # tournament_keys stays ("table_points", "total"): TP summed over the sessions (000 §2.7.5.2), then GP
    # [Interp: the seed ranks by TP only; GP as the tie-break is the organisers' usual rule, §2.7.5.2 end]

    def session_standings(self, totals: Mapping[int, int], players: Mapping[int, str] | None = None, *,
                          penalties: Mapping[int, int] | None = None, late: Mapping[int, float] | None = None,
                          leftover: int = 0) -> list[Standing]:
        """000 §2.7.5: session GP = the hands' GP minus penalties (§2.8.2, given to nobody) and lateness
        (§2.8.4.5: −8 / −16 GP; over 15 minutes a fixed 0 TP / 0 GP, left out of the others' ranking);
        TP 4/3/2/1 by GP, tied places sharing their TP (AMB-26); 3 players 4/3/2 (§3.1.3); a table of one
        or two players 3 TP each (§3.1.4)."""
        from rules.profiles.sichuan.session import SessionScore

        seats = tuple(sorted(totals))
        sc = SessionScore(seats=seats)
        sc.add_hand(totals)
        for s, amount in (penalties or {}).items():
            sc.add_penalty(s, int(amount))
        for s, minutes in (late or {}).items():
            sc.late(s, float(minutes))
        gp, tp = sc.gp(), sc.tp()
        order = sorted(seats, key=lambda s: (-tp[s], -gp[s], s))
        out = []
        for s in order:
            higher = sum(1 for x in seats if tp[x] > tp[s])
            equal = sum(1 for x in seats if tp[x] == tp[s])
            out.append(Standing(higher + 1, s, (players or {}).get(s, str(s)), gp[s], tp[s], higher + (equal + 1) / 2,
                                penalty=totals[s] - gp[s]))
        return out
