"""The game-side hooks of ``riichi-ema2016`` (``rules.game.profile_api.GameRules``).

Everything the referee must know beyond the tiles comes from the hand's accepted events
(``HandState.history``): riichi declarations (``Discarded(riichi=True)`` / ``RiichiDeclared``), calls
(``MeldMade``), dora indicators (``DoraRevealed``), draws and discards. Counters and sticks carried in from
earlier hands are read from ``HandStarted.options`` (``{"honba": n, "deposits": points}``), see
:meth:`RiichiHooks.next_hand_options`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from rules.events import Discarded, DoraRevealed, Drew, Event, MeldMade, RiichiDeclared, Won, as_int
from rules.events import Payment as PaymentEvent
from rules.game.profile_api import Capabilities, GameRules, Standing, TournamentStanding
from rules.game.state import HandState, WinRecord
from rules.notation import Hand
from rules.profiles.riichi import claims, settlement, tournament
from rules.profiles.riichi.furiten import hand_waits
from rules.scoring import ContextValue, ScoreResult
from rules.tiles import KINDS, Tile

CHOMBO_CODES = ("false_win", "furiten", "false_tenpai_riichi")


@dataclass
class HandHistory:
    """What the event log says about riichi, calls, indicators and the first go-around."""

    riichi_at: dict[int, int] = field(default_factory=dict)  # seat -> index of the declaration discard
    double: set[int] = field(default_factory=set)
    melds: list[tuple[int, MeldMade]] = field(default_factory=list)  # (index, event)
    discards: list[tuple[int, Discarded]] = field(default_factory=list)
    draws: list[tuple[int, Drew]] = field(default_factory=list)
    wins: list[tuple[int, Won]] = field(default_factory=list)
    dora_indicators: list[Tile] = field(default_factory=list)
    ura_indicators: list[Tile] = field(default_factory=list)

    @staticmethod
    def of(events: Sequence[Event]) -> HandHistory:
        h = HandHistory()
        declared: list[tuple[int, RiichiDeclared]] = []
        for i, e in enumerate(events):
            if isinstance(e, Discarded):
                h.discards.append((i, e))
                if e.riichi and e.seat not in h.riichi_at:
                    h.riichi_at[e.seat] = i
            elif isinstance(e, Drew):
                h.draws.append((i, e))
            elif isinstance(e, MeldMade):
                h.melds.append((i, e))
            elif isinstance(e, Won):
                h.wins.append((i, e))
            elif isinstance(e, RiichiDeclared):
                declared.append((i, e))
            elif isinstance(e, DoraRevealed):
                t = Tile.parse(e.indicator)
                (h.ura_indicators if e.kind == "ura" else h.dora_indicators).append(t)
        for i, e in declared:  # a declaration without a sideways discard event: the event marks it
            h.riichi_at.setdefault(e.seat, i)
            if e.double:
                h.double.add(e.seat)
        for seat, at in h.riichi_at.items():
            first = next((i for i, d in h.discards if d.seat == seat), None)
            if first == at and not any(i < at for i, _ in h.melds):
                h.double.add(seat)  # 004 Rules 4.2.1: declared on his very first turn, no call before
        return h

    def win_index(self, seat: int) -> int:
        return max((i for i, w in self.wins if w.seat == seat), default=10**9)

    def riichi_valid(self, seat: int) -> bool:
        """Declared, and the declaration tile was not won on (then the riichi is void, 004 Rules 3.3.14)."""
        at = self.riichi_at.get(seat)
        if at is None:
            return False
        return not any(
            w.from_seat == seat and i > at and self._last_discard_before(i) == at for i, w in self.wins
        )

    def _last_discard_before(self, idx: int) -> int | None:
        return max((i for i, _ in self.discards if i < idx), default=None)

    def ippatsu(self, seat: int, robbing_kong: bool) -> bool:
        """No call at the table and no new discard by the declarer since the declaration (3.3.14)."""
        at = self.riichi_at.get(seat)
        if at is None:
            return False
        end = self.win_index(seat)
        melds = [i for i, _ in self.melds if at < i < end]
        if robbing_kong and melds:
            melds = melds[:-1]  # the robbed kan is not made
        if melds:
            return False
        return not any(at < i < end and d.seat == seat for i, d in self.discards)

    def first_go_around(self, seat: int, self_drawn: bool) -> bool:
        """Tenhou / chiihou / renhou: no call (a concealed kan included) before the win, and the winner had
        not discarded (self-draw) or not drawn (win on a discard) before (004 Rules 4.2.4-4.2.5)."""
        end = self.win_index(seat)
        if any(i < end for i, _ in self.melds):
            return False
        if any(i < end and d.seat == seat for i, d in self.discards):
            return False
        # a win on a discard: also before his first draw (the dealer has discarded by then)
        return self_drawn or not any(i < end and d.seat == seat for i, d in self.draws)

    def liable_for(self, seat: int) -> int | None:
        """The player who fed ``seat`` his third dragon / fourth wind set (004 Rules 3.3.9)."""
        open_bases: list[int] = []
        liable = None
        for _, m in self.melds:
            if m.seat != seat or m.kind not in ("pung", "kong_open"):
                continue
            base = Tile.parse(m.tiles[0]).kind
            if m.from_seat is not None:
                trig = claims.pao_trigger(seat, m.from_seat, base, open_bases)
                if trig is not None:
                    liable = trig.liable
            open_bases.append(base)
        return liable

    def kans(self) -> int:
        return sum(1 for _, m in self.melds if m.kind.startswith("kong"))


CAPABILITIES = Capabilities(
    claim_priority={"hu": 3, "kong": 2, "pung": 2, "chow": 1},  # 004 Rules 3.3.1
    multiple_winners=True,  # double and triple ron, no head bump (3.3.1, 4.1)
    last_discard_claims=frozenset({"hu"}),  # 3.4.1
    robbing_kong=True,
    has_riichi=True,
    reveal_on_win=True,
    false_win_ends_hand=True,  # chombo: the hand is replayed (3.4.6)
    reveal_all_at_draw=False,  # only tenpai hands are shown; riichi hands must be (3.4.2)
)


class RiichiHooks(GameRules):
    """The ``GameRules`` hooks for riichi (mixed into the profile class before ``Profile``)."""

    penalty_catalogue = tournament.CATALOGUE  # the judge's console (rules/game/penalty_catalogue.py)

    capabilities = CAPABILITIES
    start_score = 30_000  # Reg 6.2.3
    placement_points = (15.0, 5.0, -5.0, -15.0)  # EMA uma in thousands: informational only (spec §2.6)
    violation_rules = {
        "false_win": "004 Rules 3.4.6",
        "furiten": "004 Rules 3.4.5",
        "false_tenpai": "004 Rules 3.4.2, 3.4.6",
        "claim_last_tile": "004 Rules 3.4.1",
        "kong_on_last_tile": "004 Rules 3.4.1",
        "chow_not_from_left": "004 Rules 3.3.3",
        "kuikae": "004 Rules 3.3.2, 3.4.7",
        "riichi_open_hand": "004 Rules 3.4.7, 5.3",
        "riichi_too_late": "004 Rules 3.3.14",
        "riichi_hand_changed": "004 Rules 3.3.14",
        "riichi_illegal_kan": "004 Rules 3.3.14, 3.4.6",
    }

    # --- discards, riichi and kans, checked when they happen ------------------------------------------
    def forbidden_discards(self, state: HandState, seat: int) -> frozenset[int]:
        """Kuikae: right after a chi or pon the claimed tile (and a chi's other end) may not be discarded
        (004 Rules 3.3.2; a tile claimed in the middle forbids only itself, spec A12)."""
        if not state.turn_by_claim or state.current != seat:
            return frozenset()
        for ev in reversed(state.history):  # the call is the last event of this seat's turn
            if isinstance(ev, MeldMade) and ev.seat == seat:
                if ev.kind not in ("chow", "pung") or not ev.claimed_tile:
                    return frozenset()
                claimed = Tile.parse(ev.claimed_tile)
                own = [Tile.parse(t) for t in ev.tiles]
                own.remove(next(t for t in own if t.kind == claimed.kind))
                return self.call_forbids(ev.kind, claimed, own)
        return frozenset()

    def call_forbids(self, kind: str, tile: Tile, shown: Sequence[Tile]) -> frozenset[int]:
        if kind not in ("chow", "pung"):
            return frozenset()
        return claims.kuikae_forbidden(claims.CHI if kind == "chow" else claims.PON, tile, list(shown))

    def check_discard(self, state: HandState, seat: int, tile: Tile, tsumogiri: bool | None) -> tuple[str, str] | None:
        """Kuikae (004 Rules 3.3.2) and the locked hand after riichi: only the drawn tile (3.3.14). With
        ``tsumogiri`` unknown (table mode) the lock is judged at the reveal (``reveal_checks``)."""
        if tile.kind in self.forbidden_discards(state, seat):
            return ("kuikae", f"{tile} may not be discarded right after this call")
        if state.seat_state[seat].riichi and tsumogiri is False:
            return ("riichi_hand_changed", f"{tile} is not the drawn tile: the hand is locked after riichi")
        return None

    def check_riichi(self, state: HandState, seat: int, tile: Tile | None) -> tuple[str, str] | None:
        """004 Rules 3.3.14: a closed hand (concealed kans allowed), ready after the declaration discard,
        at least four tiles left in the live wall (spec A27). A score below 1000 does not forbid it (spec
        A13: the stick is borrowed). Tenpai is judged here when the hand is known, else at the reveal."""
        from rules.profiles.riichi.riichi import MIN_LIVE_WALL

        ss = state.seat_state[seat]
        if ss.riichi:
            return ("riichi_not_allowed", "riichi is declared once")
        if any(src is not None for src in ss.meld_sources):
            return ("riichi_open_hand", "riichi needs a closed hand")
        if state.wall_remaining < MIN_LIVE_WALL:
            return ("riichi_too_late", f"{state.wall_remaining} tiles left in the live wall")
        if ss.unknown == 0:
            tiles = ss.tiles()
            if tile is not None and tile in tiles:
                tiles.remove(tile)
            if len(tiles) + 3 * len(ss.melds) == 13 and not self.waits(
                    Hand(tuple(tiles), tuple(ss.melds), None)):
                return ("riichi_not_tenpai", "the hand is not ready after the declaration discard")
        return None

    def check_kong(self, state: HandState, seat: int, kind: str, tile: Tile | None) -> tuple[str, str] | None:
        """After riichi a concealed kan only with the drawn tile and only when it changes neither the
        waits nor any reading of the hand (004 Rules 3.3.14); no kan after the fourth (3.3.10)."""
        from rules.profiles.riichi.riichi import concealed_kan_allowed

        if state.wall is not None and state.wall.kongs >= claims.MAX_KANS:
            return ("kong_not_allowed", "no kan after the fourth (004 Rules 3.3.10)")
        ss = state.seat_state[seat]
        if not ss.riichi or kind != "kong_concealed" or ss.unknown or tile is None:
            return None
        drawn = ss.drawn
        if drawn is None or drawn.kind != tile.kind:
            return ("riichi_illegal_kan", "after riichi only the drawn tile may complete a concealed kan")
        tiles = ss.tiles()
        tiles.remove(drawn)
        _, ok = concealed_kan_allowed(Hand(tuple(tiles), tuple(ss.melds), None), drawn)
        if not ok:
            return ("riichi_illegal_kan", f"a concealed kan of {tile} after riichi changes the hand")
        return None

    # --- claims ---------------------------------------------------------------------------------------
    def claim_check(self, state: HandState, seat: int, kind: str, tile: Tile) -> tuple[str, str] | None:
        if kind in ("chow", "pung", "kong") and state.seat_state[seat].riichi:
            return ("claim_not_allowed", "a riichi player makes no chi, pon or open kan (004 Rules 3.3.14)")
        if kind == "kong" and HandHistory.of(state.history).kans() >= claims.MAX_KANS:
            return ("kong_not_allowed", "no kan after the fourth (004 Rules 3.3.10)")
        return None

    # --- winning --------------------------------------------------------------------------------------
    def win_context(self, state: HandState, seat: int, win: WinRecord) -> dict[str, ContextValue]:
        h = HandHistory.of(state.history)
        order = state.seat_order(state.dealer)
        wind = {s: KINDS[27 + i] for i, s in enumerate(order)}
        self_drawn = win.from_seat is None
        riichi = h.riichi_valid(seat)
        ctx: dict[str, ContextValue] = {
            "self_drawn": self_drawn,
            "riichi": riichi,
            "double_riichi": riichi and seat in h.double,
            "ippatsu": riichi and h.ippatsu(seat, win.robbing_kong),
            "seat_wind": wind[seat],
            "round_wind": Tile.parse(state.round_wind) if state.round_wind else KINDS[27],
            "dealer": seat == state.dealer,
            "dora_indicators": tuple(h.dora_indicators[:5]),
            "ura_indicators": tuple(h.ura_indicators[:5]) if riichi else (),
            "honba": as_int(state.options.get("honba", 0)),
            "last_tile": win.last_tile,
            "kong_replacement": win.kong_replacement,
            "robbing_kong": win.robbing_kong,
            "first_go_around": not riichi and h.first_go_around(seat, self_drawn),
        }
        liable = h.liable_for(seat)
        if liable is not None:
            ctx["liable_seat_wind"] = wind[liable]
            if win.from_seat is not None:
                ctx["discarder_seat_wind"] = wind[win.from_seat]
        return ctx

    def is_furiten(self, state: HandState, seat: int, hand: Hand, win: WinRecord) -> bool:
        """Discard, temporary and riichi furiten (004 Rules 3.4.5, 3.3.14), judged on the revealed hand:
        its waits are fixed since the player's last discard (and since his riichi)."""
        waiting = Hand(hand.concealed, hand.melds, None)
        w = hand_waits(waiting)
        h = HandHistory.of(state.history)
        own = [(i, d) for i, d in h.discards if d.seat == seat]
        if any(Tile.parse(d.tile).kind in w for _, d in own):
            return True  # own discards (claimed ones included, spec A25)
        end = h.win_index(seat)
        last_own = max((i for i, _ in own), default=-1)
        # passes count since his last discard (temporary furiten, spec A6), since his riichi for a riichi
        # player (riichi furiten lasts the hand)
        since = h.riichi_at.get(seat, last_own)
        winning_discard = h._last_discard_before(end) if win.from_seat is not None else None
        for i, d in h.discards:
            if since < i < end and d.seat != seat and i != winning_discard and Tile.parse(d.tile).kind in w:
                return True
        added = [(i, m) for i, m in h.melds if since < i < end and m.kind == "kong_added" and m.seat != seat]
        if win.robbing_kong and added:
            added = added[:-1]  # the kan being robbed
        return any(Tile.parse(m.tiles[0]).kind in w for _, m in added)

    def reveal_checks(self, state: HandState, seat: int, hand: Hand) -> list[tuple[str, str]]:
        """Checks of the player's conduct the referee can only complete at his reveal: kuikae after his
        calls (dead hand), the riichi conditions and the locked hand after riichi (004 Rules 3.3.2,
        3.3.14, 3.4.6-3.4.7)."""
        h = HandHistory.of(state.history)
        return kuikae_violations(h, seat) + riichi_violations(h, seat, hand)

    # --- end of hand ----------------------------------------------------------------------------------
    def is_tenpai(self, state: HandState, seat: int, hand: Hand) -> bool:
        """Shape tenpai, yaku not needed; waiting only on tiles he holds four of is not (3.3.13, A10)."""
        ss = state.seat_state.get(seat)
        if ss is not None and ss.dead:
            return False
        return bool(self.waits(hand))

    def settle_win(self, state: HandState, win: WinRecord, result: ScoreResult) -> list[PaymentEvent]:
        h = HandHistory.of(state.history)
        honba = as_int(state.options.get("honba", 0))
        deposits = as_int(state.options.get("deposits", 0))
        riichi = [s for s in h.riichi_at if h.riichi_valid(s)]
        pts = result.int_points()
        wins = state.valid_wins()
        if win.from_seat is None:
            rec = settlement.settle_tsumo(
                win.seat, state.dealer, pts, honba, deposits, riichi, liable=h.liable_for(win.seat)
            )
            return _events(rec.payments)
        disc = win.from_seat
        ordered = sorted((w for w in wins if w.from_seat == disc), key=lambda w: (w.seat - disc) % 4)
        first = ordered[0].seat if ordered else win.seat
        later = [w.seat for w in ordered[1:] if w.seat in riichi]
        liable = h.liable_for(win.seat) if "discarder_pays" in pts else None
        return _events(settlement.settle_ron_win(win.seat, disc, pts, honba, deposits, riichi, first, later, liable))

    def settle_exhaustive(self, state: HandState, tenpai: Sequence[int]) -> list[PaymentEvent]:
        h = HandHistory.of(state.history)
        riichi = [s for s in h.riichi_at if h.riichi_valid(s)]
        rec = settlement.settle_exhaustive_draw(tenpai, riichi)
        return _events(rec.payments)

    def penalty_payments(self, state: HandState, seat: int, code: str) -> list[PaymentEvent]:
        """Chombo (004 Rules 3.4.6): a false win (furiten ron included) or a riichi without tenpai."""
        h = HandHistory.of(state.history)
        if code in ("false_win", "riichi_illegal_kan") or (code == "false_tenpai" and seat in h.riichi_at):
            rec = settlement.settle_chombo(seat, state.dealer)
            return _events(rec.payments)
        return []

    def next_dealer(self, state: HandState) -> int:
        """The dealer stays after his win (alone or with others), his tenpai at an exhaustive draw, or a
        chombo re-deal; otherwise South becomes East (004 Rules 3.4.11)."""
        from rules.wall import next_seat

        wins = state.valid_wins()
        if wins:
            stays = any(w.seat == state.dealer for w in wins)
        elif state.exhaustive:
            stays = bool(state.tenpai.get(state.dealer))
        else:
            stays = bool(state.violations)  # chombo: the same hand is dealt again
        return state.dealer if stays else next_seat(state.seats, state.dealer)

    def next_hand_options(self, state: HandState) -> dict[str, int]:
        """``HandStarted.options`` of the next hand: counters and the sticks left on the table."""
        honba = as_int(state.options.get("honba", 0))
        deposits = as_int(state.options.get("deposits", 0))
        h = HandHistory.of(state.history)
        wins = state.valid_wins()
        if wins:
            dealer_won = any(w.seat == state.dealer for w in wins)
            return {"honba": honba + 1 if dealer_won else 0, "deposits": 0}
        if state.exhaustive:
            riichi = [s for s in h.riichi_at if h.riichi_valid(s)]
            return {"honba": honba + 1, "deposits": deposits + 1000 * len(riichi)}
        return {"honba": honba, "deposits": deposits}  # chombo: no change, stakes returned

    # --- session --------------------------------------------------------------------------------------
    def game_over(self, hands_played: int, dealer_changes: int, players: int) -> bool:
        """East and South rounds: over when the deal has passed eight times (004 Rules 3.5, Reg 6.1.3); a
        South 4 dealer who wins or is tenpai keeps dealing, leading or not (no agari yame, 3.6)."""
        return dealer_changes >= 2 * players

    def end_of_game(self, totals: dict[int, int], last: HandState) -> dict[int, int]:
        """The riichi sticks left on the table go to the first-placed player, tied leaders sharing them
        (004 Rules 3.6; spec A15). Players are numbered from the first dealer."""
        deposits = self.next_hand_options(last)["deposits"]
        players = sorted(totals)
        final = tournament.end_of_game_deposits([totals[p] for p in players], deposits)
        return dict(zip(players, final, strict=True))

    # --- the hall: a session's result and the tournament (004 Reg 6.1-6.3, spec A5) --------------------
    session_warning_min = tournament.RED_ZONE_MIN  # 004 Reg 6.1.2: the 10-minute red zone
    session_minutes = tournament.SESSION_MIN  # Reg 6.1.1
    red_zone_min = tournament.RED_ZONE_MIN  # Reg 6.1.2 (004 line 62): only started hands are finished

    def session_may_start_hand(self, minutes_left: float) -> bool:
        """No new hand in the red zone, the session's last 10 minutes (004 Reg 6.1.2)."""
        return tournament.may_start_hand(minutes_left, self.red_zone_min)

    def session_standings(self, totals: Mapping[int, int], players: Mapping[int, str] | None = None, *,
                          penalties: Mapping[int, int] | None = None, late: Mapping[int, float] | None = None,
                          leftover: int = 0) -> list[Standing]:
        """A table's session: the sticks left on the table go to the first place (Rules 3.6), places by final
        score with ties sharing the average place (A5), deductions — penalties and lateness, 1000 per started
        minute (Rules 5.7) — taken from the points, not the places; EMA uma as informational table points."""
        seats = sorted(totals)
        finals = dict(zip(seats, tournament.end_of_game_deposits([totals[s] for s in seats], leftover), strict=True))
        places = dict(zip(seats, tournament.places([finals[s] for s in seats]), strict=True))
        uma = dict(zip(seats, tournament.ema_scores([finals[s] for s in seats]), strict=True))
        out = []
        for s in sorted(seats, key=lambda x: (places[x], x)):
            lateness, substitute = tournament.lateness_penalty(float((late or {}).get(s, 0)))
            if substitute:  # over 10 minutes a substitute plays (004 line 560); a late player who plays all the
                # same is deducted the full 10 minutes (004 line 558) [Interp: the seed stops the scale there]
                lateness = tournament.LATE_PER_MINUTE * tournament.LATE_MAX_MINUTES
            deduction = int((penalties or {}).get(s, 0)) + (lateness or 0)
            out.append(Standing(1 + sum(1 for x in seats if finals[x] > finals[s]), s, (players or {}).get(s, str(s)),
                                finals[s], (uma[s] - (finals[s] - self.start_score)) / 1000, places[s], deduction))
        return out

    def tournament_standings(self, records: Mapping[str, Sequence[Standing]]) -> list[TournamentStanding]:
        """004 Reg 6.3: average place, then the sum of points (final − 30 000 − deductions, A5), then the
        variance of places, then the spread of session scores; players equal on all four share the rank."""
        rs = [tournament.Standing(p, [r.place for r in recs], [tournament.session_points(r.total, r.penalty) for r in recs],
                               [r.total for r in recs]) for p, recs in records.items()]
        rk = tournament.ranks(rs)
        uma = {p: sum(r.table_points for r in recs) for p, recs in records.items()}
        return [TournamentStanding(rk[x.id], x.id, len(x.places), uma[x.id], x.total_points,
                                   {"average_place": x.average_place, "place_variance": x.place_variance,
                                    "spread": x.spread})
                for x in sorted(tournament.rank(rs), key=lambda x: (rk[x.id], x.id))]


def kuikae_violations(h: HandHistory, seat: int) -> list[tuple[str, str]]:
    """Swap-calling: the discard right after his chi/pon is a forbidden tile (004 Rules 3.3.2; A12)."""
    out = []
    for i, m in h.melds:
        if m.seat != seat or m.kind not in ("chow", "pung") or not m.claimed_tile:
            continue
        nxt = next((d for j, d in h.discards if j > i and d.seat == seat), None)
        if nxt is None:
            continue
        claimed = Tile.parse(m.claimed_tile)
        own = [Tile.parse(t) for t in m.tiles]
        own.remove(next(t for t in own if t.kind == claimed.kind))
        call = claims.CHI if m.kind == "chow" else claims.PON
        if not claims.kuikae_legal(call, claimed, own, Tile.parse(nxt.tile)):
            out.append(("kuikae", f"discarded {nxt.tile} right after calling {m.claimed_tile}: dead hand"))
    return out


def riichi_violations(h: HandHistory, seat: int, hand: Hand) -> list[tuple[str, str]]:
    """Riichi declared with an open hand or with fewer than four live-wall tiles; after riichi a discard
    other than the drawn tile, or a concealed kan that changes the waits or breaks a reading."""
    at = h.riichi_at.get(seat)
    if at is None:
        return []
    from rules.profiles.riichi.riichi import MIN_LIVE_WALL, concealed_kan_allowed
    from rules.profiles.riichi.setup import live_wall_after_kans

    out = []
    if any(i < at and m.seat == seat and m.kind != "kong_concealed" for i, m in h.melds):
        out.append(("riichi_open_hand", "riichi declared with an open hand: dead hand"))
    wall_draws = sum(1 for i, d in h.draws if i < at and d.source == "wall")
    kans_before = sum(1 for i, m in h.melds if i < at and m.kind.startswith("kong"))
    if live_wall_after_kans(kans_before) - wall_draws < MIN_LIVE_WALL:
        out.append(("riichi_too_late", "riichi with fewer than four tiles left in the wall"))
    for i, d in h.discards:
        if i > at and d.seat == seat and d.tsumogiri is False:
            out.append(("riichi_hand_changed", f"discarded {d.tile} from the hand after riichi"))
    kans = [m for i, m in h.melds if i > at and m.seat == seat and m.kind == "kong_concealed"]
    if kans:
        concealed = list(hand.concealed)
        melds_before = [
            m
            for m in hand.melds
            if not any(
                k.kind == "kong_concealed" and m.is_concealed and m.base == Tile.parse(k.tiles[0]).kind
                for k in kans
            )
        ]
        for k in kans:
            t = Tile.parse(k.tiles[0])
            riichi_hand = Hand(tuple(concealed + [t, t, t]), tuple(melds_before), None)
            if len(riichi_hand.concealed) + 3 * len(riichi_hand.melds) == 13:
                _, ok = concealed_kan_allowed(riichi_hand, t)
                if not ok:
                    out.append(("riichi_illegal_kan", f"concealed kan of {t} after riichi changes the hand"))
    return out


def _events(payments: Sequence[settlement.Payment]) -> list[PaymentEvent]:
    return [
        PaymentEvent(payer=p.payer, payee=p.payee, amount=p.amount, reason=p.reason, rule=p.ref)
        for p in payments
    ]
