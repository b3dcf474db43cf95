"""The game side of a profile: the hooks the hand machine, the bots and the hall call.

``rules.profiles.base.Profile`` inherits :class:`GameRules`, so every profile has sensible defaults and
overrides only what its seed says differently. The hooks receive the machine's :class:`HandState`
(read-only by convention) and return plain data; none does I/O or keeps global state.

Defaults (what ``basic`` plays): chow from the left player, pung, open/concealed/added kong, robbing an
added kong, win on a discard (several winners allowed) or self-drawn, priority hu > kong = pung > chow,
the last discard claimable only for hu, no kong on an empty wall, the winner's hand revealed at the
declaration, a false win ends the hand with a penalty, a win paid by the discarder (``points["discarder"]``)
or by every other player (``points["each"]``), nothing paid at an exhaustive draw, the dealer keeping the
deal after his win or a draw and passing it otherwise, a game of one round (every seat deals once).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import ClassVar

from rules.events import Payment
from rules.game.penalty_catalogue import PenaltyKind
from rules.game.state import HandState, WinRecord
from rules.game.table_data import Example, RefereeNotes, TableConventions
from rules.notation import Hand
from rules.scoring import ContextField, ContextValue, ScoreResult
from rules.tiles import KINDS, Tile
from rules.wall import WallSpec, next_seat, wall_spec

_SPECS: dict[tuple[str, int, str | None], WallSpec] = {}


@dataclass(frozen=True)
class Standing:
    rank: int
    seat: int
    player: str
    total: int
    table_points: float
    place: float = 0.0  # 1-based; tied players share the average of their positions (1.5)
    penalty: int = 0  # out-of-hand deductions already applied by session_standings


@dataclass(frozen=True)
class TournamentStanding:
    """One player's line of the tournament ranking (the hall's standings), from ``tournament_standings``."""

    rank: int
    player: str
    sessions: int
    table_points: float
    total: int
    detail: dict[str, float] = field(default_factory=dict)  # the profile's further criteria, for display


@dataclass(frozen=True)
class Capabilities:
    """What a rule set has and allows at the table, as data: the hand machine, the bots, the driver and the
    referee read it (``profile.capabilities``); nothing is found by probing a profile for a member."""

    two_hands: bool = False
    """Each player builds two hands from one pool (mcr-siamese, 003 §Сиамский): the Siamese machine."""
    pre_play: tuple[str, ...] = ()
    """Duties between the deal and the first discard besides flower replacement: ``"missing_suit"``
    (Sichuan: every seated player declares one suit, MissingSuitDeclared events)."""
    flower_discard: bool = False
    """A flower may be discarded (MCR A29); False: it must be declared and replaced (Red)."""
    chow_allowed: bool = True
    """False where no chow exists (Sichuan 002 §2.1)."""
    claim_priority: Mapping[str, int] = field(default_factory=lambda: {"hu": 3, "kong": 2, "pung": 2, "chow": 1})
    """Higher wins arbitration; equal priorities are broken by seat order from the discarder."""
    multiple_winners: bool = True
    """Several players may win on one discard; False = head bump (nearest in turn order wins)."""
    last_discard_claims: frozenset[str] = frozenset({"hu"})
    """Claims allowed on a discard made with the wall empty (Sichuan also allows pung, 000 §2.5.5)."""
    robbing_kong: bool = True
    """An added kong's tile may be won on (robbing the kong)."""
    claim_window_s: float | None = None
    """Seconds after a discard (or an added kong) in which a claim is in time: the claim window's deadline
    on the shared clock (``rules.game.state.ClaimWindow``). None: the seed sets no time (a referee judges)."""
    has_riichi: bool = False
    """The profile has riichi declarations (bots declare when ``check_riichi`` allows)."""
    reveal_on_win: bool = True
    """The winner shows his hand at the declaration (MCR, riichi). False = at the end of the hand
    (Sichuan 000 §2.1.15): validity, furiten and pig are then judged at the end."""
    continue_after_win: bool = False
    """Play goes on after a win (Sichuan "blood battle", 000 §2.6.2.1): winners leave the hand."""
    max_winners: int | None = None
    """With ``continue_after_win``: the hand ends when this many have won (default: players − 1)."""
    false_win_ends_hand: bool = True
    """A false win (found at the reveal) ends the hand (a chombo); False: the offender's hand is dead and
    play goes on (Sichuan 000 §2.8.4.3)."""
    dead_hand_codes: frozenset[str] = frozenset()
    """Violation codes that make the offender's hand dead for the rest of the hand, like a ``HandDead``
    event (Sichuan 000 §2.8.3.1, Red 001 §Перебор и недобор костей: a wrong tile count)."""
    dead_hand_win_is_false: bool = False
    """A win declared by a dead hand is accepted and judged a false win at the reveal (Sichuan 000 §2.8.3);
    False: it is refused on the spot (``claim_inactive_player``)."""
    reveal_all_at_draw: bool = True
    """At an exhaustive draw every player reveals (False: only those declaring tenpai, riichi)."""


_CAPABILITY_NAMES = frozenset(f.name for f in fields(Capabilities))


class GameRules:
    """The game-side hooks with their default behaviour (what ``basic`` plays); a profile's game mixin
    subclasses it and overrides what its seed says differently. ``capabilities`` is the table's data."""

    capabilities: ClassVar[Capabilities] = Capabilities()
    name: str = ""
    context_fields: tuple[ContextField, ...] = ()

    def __init_subclass__(cls, **kw: object) -> None:
        super().__init_subclass__(**kw)
        stray = sorted(set(vars(cls)) & _CAPABILITY_NAMES)
        if stray:  # a capability set as a class attribute would be silently ignored
            raise TypeError(f"{cls.__name__}: set {', '.join(stray)} in capabilities = Capabilities(...)")

    # --- what the game side asks of the scoring side (``rules.profiles.base.Profile``) -------------------
    def context(self, fields: Mapping[str, ContextValue]) -> dict[str, ContextValue]:
        raise NotImplementedError

    def score_checked(self, hand: Hand, ctx: Mapping[str, ContextValue]) -> ScoreResult:
        raise NotImplementedError

    def waits(self, hand: Hand) -> list[Tile]:
        raise NotImplementedError

    # --- the table around the machine: its camera, its referee, its records (rules/game/table_data.py) -
    table_conventions: TableConventions = TableConventions()
    """How the table looks from above (``vision.conventions``)."""
    referee_notes: RefereeNotes = RefereeNotes()
    """The camera referee's own verdicts as this seed words them, and what it reads for the settlement."""
    record_formats: frozenset[str] = frozenset()
    """The formats a hand can be written in besides its event log (``table_data.TENHOU6``, ``MJAI``,
    ``PANTHEON``)."""
    tournament: bool = True
    """A rule set tournaments play (False: ``basic``, the engine's test profile, which ``simulate all``
    does not run and the simulation does not referee)."""
    examples: tuple[Example, ...] = ()
    """A few real wins, for ``mahjong-table demo``."""

    # --- the table ------------------------------------------------------------------------------------

    def wall_spec(self, players: int = 4, tiles: str | None = None) -> WallSpec:
        """Wall geometry, dice and deal parameters (``rules.wall.WALLS``)."""
        key = (self.name or "basic", players, tiles)
        spec = _SPECS.get(key)
        if spec is None:  # made once per profile, players and tile set (WALLS is data; a bad key raises)
            spec = _SPECS[key] = wall_spec(*key)
        return spec

    # --- claims ---------------------------------------------------------------------------------------
    violation_rules: dict[str, str] = {}
    """Seed references per violation code, overriding ``rules.game.violations.CODES``."""


    def claim_check(self, state: HandState, seat: int, kind: str, tile: Tile) -> tuple[str, str] | None:
        """A profile-specific objection to a claim: ``(violation code, message)`` or None (allowed).

        Called after the common checks (own discard, chow from the left, last tile, inactive player).
        Sichuan rejects sets of the missing suit here; riichi rejects chow/pung after riichi.
        """
        return None

    def check_discard(self, state: HandState, seat: int, tile: Tile, tsumogiri: bool | None) -> tuple[str, str] | None:
        """An objection to a discard, checked before it is applied: ``(code, message)`` or None.
        ``tsumogiri``: the tile just drawn (None = not known, table mode). Riichi: kuikae, and after
        riichi only the drawn tile."""
        return None

    def check_riichi(self, state: HandState, seat: int, tile: Tile | None) -> tuple[str, str] | None:
        """An objection to a riichi declaration (``Discarded(riichi=True)`` with ``tile``, or
        ``RiichiDeclared`` with ``tile`` None). Default: no riichi in the profile."""
        return ("riichi_not_allowed", f"no riichi in {self.name or 'this profile'}")

    def check_kong(self, state: HandState, seat: int, kind: str, tile: Tile | None) -> tuple[str, str] | None:
        """An objection to a concealed or added kong (after the common checks). Riichi: a concealed kan
        after riichi only when it does not change the wait."""
        return None

    def call_forbids(self, kind: str, tile: Tile, shown: Sequence[Tile]) -> frozenset[int]:
        """Kinds a ``kind`` call (chow/pung) of ``tile`` with ``shown`` from the hand forbids discarding
        right after it (riichi's kuikae). Default: none."""
        return frozenset()

    def forbidden_discards(self, state: HandState, seat: int) -> frozenset[int]:
        """Kinds (0..33) the player may not discard now — advice for bots and UIs, not a machine check
        (riichi's kuikae after a call; the machine judges conduct through ``reveal_checks``)."""
        return frozenset()

    def may_chow_from(self, state: HandState, seat: int, from_seat: int) -> bool:
        """A chow takes only the left player's discard: the previous seat in turn order (docs/notation.md "Seats")."""
        return state.prev_active_or_seated(seat) == from_seat

    # --- winning --------------------------------------------------------------------------------------
    false_win_penalty: int = 8
    """What the offender of a false win pays each other player (``basic``); profiles override
    :meth:`penalty_payments`."""

    def win_context(self, state: HandState, seat: int, win: WinRecord) -> dict[str, ContextValue]:
        """Scoring context of a win, restricted to the profile's ``context_fields``."""
        order = state.seat_order(state.dealer)
        full: dict[str, ContextValue] = {
            "self_drawn": win.from_seat is None,
            "last_tile": win.last_tile,
            "kong_replacement": win.kong_replacement,
            "robbing_kong": win.robbing_kong,
            "flower_replacement": win.flower_replacement,
            "seat_wind": KINDS[27 + order.index(seat)] if seat in order else None,
            "round_wind": KINDS[27 + "1234".index(state.round_wind[0])] if state.round_wind else None,
        }
        names = {f.name for f in self.context_fields}
        return {k: v for k, v in full.items() if k in names}

    def judge_win(self, state: HandState, seat: int, hand: Hand, win: WinRecord) -> ScoreResult:
        """Is ``hand`` (concealed + melds + winning tile) a legal win here, and what is it worth."""
        ctx = self.context(self.win_context(state, seat, win))
        return self.score_checked(hand, ctx)

    def is_furiten(self, state: HandState, seat: int, hand: Hand, win: WinRecord) -> bool:
        """Whether a win on a discard was forbidden by furiten, judged on the revealed hand and the
        recorded history (``state.history``). Default: no furiten."""
        return False

    def reveal_checks(self, state: HandState, seat: int, hand: Hand) -> list[tuple[str, str]]:
        """Checks that need a player's concealed tiles, run when they are revealed: ``(code, message)``.
        Sichuan's flower pig lives here."""
        return []

    # --- end of hand ----------------------------------------------------------------------------------

    def is_tenpai(self, state: HandState, seat: int, hand: Hand) -> bool:
        """Ready hand at an exhaustive draw (shape only by default)."""
        return bool(self.waits(hand))

    def settle_hand(self, state: HandState) -> list[Payment]:
        """Every payment of the hand, called once when the hand is settled (``HandMachine.settlement``).

        Default: :meth:`settle_win` for each valid win (in declaration order), :meth:`penalty_payments`
        for each violation with a seat (furiten is charged as a false win), then :meth:`settle_exhaustive`
        with the seats found ready after an exhaustive draw. A profile whose settlement is not a sum of
        those parts (Sichuan's kong payments and refunds, 000 §2.7.2) overrides this one hook."""
        out: list[Payment] = []
        for w in state.wins:
            if w.valid:
                assert w.result is not None
                out.extend(self.settle_win(state, w, w.result))
        for v in state.violations:
            if v.seat is not None:
                out.extend(self.penalty_payments(state, v.seat, "false_win" if v.code == "furiten" else v.code))
        if state.exhaustive:
            out.extend(self.settle_exhaustive(state, [s for s in state.seats if state.tenpai.get(s)]))
        return out

    def settle_win(self, state: HandState, win: WinRecord, result: ScoreResult) -> list[Payment]:
        """Payments for one valid win: ``points["discarder"]`` from the discarder, ``points["each"]``
        from every other player still in the hand on a self-draw."""
        if win.from_seat is not None:
            amount = result.point("discarder", result.point("total"))
            return [Payment(payer=win.from_seat, payee=win.seat, amount=amount, reason="win on discard")]
        each = result.point("each")
        return [
            Payment(payer=s, payee=win.seat, amount=each, reason="self-drawn win")
            for s in state.seats if s != win.seat and s not in state.left_before(win)
        ]

    def settle_exhaustive(self, state: HandState, tenpai: Sequence[int]) -> list[Payment]:
        """Payments at an exhaustive draw (none by default)."""
        return []

    def penalty_payments(self, state: HandState, seat: int, code: str) -> list[Payment]:
        """Payments a violation costs (default: a false win pays ``false_win_penalty`` to each other)."""
        if code != "false_win" or not self.false_win_penalty:
            return []
        return [
            Payment(payer=seat, payee=s, amount=self.false_win_penalty, reason="false win", rule="")
            for s in state.seats if s != seat
        ]

    def seating(self, hands_played: int, players: int) -> tuple[int, ...] | None:
        """The player (0..n-1, in the order they were seated for the first hand) in each seat for the
        next hand of a game, by seat; None = nobody changes seats (the default)."""
        return None

    def next_hand_options(self, state: HandState) -> dict[str, int]:
        """What the next hand's ``HandStarted.options`` carry over from this one (riichi: counters and
        sticks); ``rules.simulate.play_game`` passes them on. Default: nothing."""
        return {}

    def next_dealer(self, state: HandState) -> int:
        """The dealer of the next hand: the dealer stays after his win or a draw, else the deal passes."""
        if not state.valid_wins() or any(w.seat == state.dealer for w in state.valid_wins()):
            return state.dealer
        return next_seat(state.seats, state.dealer)

    # --- session and tournament -----------------------------------------------------------------------
    start_score: int = 0
    placement_points: tuple[float, ...] = (4.0, 2.0, 1.0, 0.0)
    """Table points by rank for tournament standings (ties share the average)."""

    def game_over(self, hands_played: int, dealer_changes: int, players: int) -> bool:
        """End of a game: by default one round, i.e. after the deal has passed ``players`` times."""
        return dealer_changes >= players

    def end_of_game(self, totals: dict[int, int], last: HandState) -> dict[int, int]:
        """The players' totals at the end of a game, after its ``last`` hand (riichi: the deposits left on
        the table go to the leader). Default: as they are."""
        return dict(totals)

    def standings(self, totals: dict[int, int], players: dict[int, str] | None = None) -> list[Standing]:
        """Rank seats by total score (higher first); tied seats share rank and table points."""
        order = sorted(totals, key=lambda s: (-totals[s], s))
        out: list[Standing] = []
        i = 0
        pts = list(self.placement_points) + [0.0] * len(order)
        while i < len(order):
            j = i
            while j + 1 < len(order) and totals[order[j + 1]] == totals[order[i]]:
                j += 1
            share = sum(pts[i:j + 1]) / (j - i + 1)
            for k in range(i, j + 1):
                s = order[k]
                out.append(Standing(i + 1, s, (players or {}).get(s, str(s)), totals[s], share, (i + j) / 2 + 1))
            i = j + 1
        return out

    # --- the hall: a table's session and the tournament (hall/standings.py calls these) -------------------
    session_warning_min: int = 15
    """Minutes before a session's end when the hall warns the tables."""
    session_minutes: int = 90
    """A session's length when the organisers set none."""
    penalty_catalogue: tuple[PenaltyKind, ...] = ()
    """The penalties the seed names, for the judge's console (rules/game/penalty_catalogue.py)."""
    incomplete_table_bye: bool = False
    """A table of one or two players left over by the draw plays no game and gets a fixed result, seated
    last (Sichuan 000 §3.1.4, lines 508-513); False: the rule set has no such rule."""
    appeal_minutes: int = 30
    """Minutes after a session's end within which an appeal is received (000 line 485); 001, 003 and 004
    set no limit: the head judge applies 000's [Interp: the issue's «do what the seed's head judge would
    expect»]."""
    red_zone_min: int = 0
    """The session's last minutes in which no new hand starts and only the hands already started are
    finished (riichi: 004 Reg 6.1.2, «красная зона»); 0: none, hands start until the time is up."""

    def session_may_start_hand(self, minutes_left: float) -> bool:
        """Whether a new hand may start (its dice be thrown) with ``minutes_left`` of the session's time."""
        return minutes_left > self.red_zone_min
    tournament_keys: tuple[str, ...] = ("table_points", "total")
    """The tournament ranking: sums over the sessions compared in this order, higher first; players equal
    on all share the rank."""

    def session_standings(self, totals: Mapping[int, int], players: Mapping[int, str] | None = None, *,
                          penalties: Mapping[int, int] | None = None, late: Mapping[int, float] | None = None,
                          leftover: int = 0) -> list[Standing]:
        """One table's result of a session: ``totals`` by seat (start score + the hands' deltas),
        ``penalties`` (points taken, by seat) subtracted before the ranking, ``late`` minutes by seat
        (no rule by default), ``leftover`` points left on the table at the end (no rule by default)."""
        pen = {s: int((penalties or {}).get(s, 0)) for s in totals}
        out = self.standings({s: totals[s] - pen[s] for s in totals}, dict(players or {}))
        return [replace(x, penalty=pen[x.seat]) for x in out]

    def tournament_standings(self, records: Mapping[str, Sequence[Standing]]) -> list[TournamentStanding]:
        """The ranking over the sessions played: ``records`` holds each player's session standings."""
        lines = [TournamentStanding(0, p, len(rs), sum(r.table_points for r in rs), sum(r.total for r in rs))
                 for p, rs in records.items()]
        return rank_lines(lines, lambda t: tuple(-float(getattr(t, k)) for k in self.tournament_keys))


RankKey = Callable[[TournamentStanding], tuple[float, ...]]


def rank_lines(lines: Sequence[TournamentStanding], key: RankKey) -> list[TournamentStanding]:
    """Sort by ``key`` (then player id, for a stable listing); equal keys share the rank."""
    ordered = sorted(lines, key=lambda t: (key(t), t.player))
    out: list[TournamentStanding] = []
    for i, t in enumerate(ordered):
        rank = out[-1].rank if i and key(t) == key(ordered[i - 1]) else i + 1
        out.append(replace(t, rank=rank))
    return out
