"""Refereed riichi hands as mjai JSON lines (``mahjong-table export --format mjai``), for Mortal and the
other mjai tools (mjai-reviewer), beside the tenhou.net/6 export (:mod:`controller.referee.export`).

The events are mjai's as Mortal's ``libriichi`` reads them: ``start_game``, ``start_kyoku``, ``tsumo``,
``dahai``, ``chi``/``pon``/``daiminkan``/``kakan``/``ankan``, ``reach``/``reach_accepted``, ``dora``, ``hora``,
``ryukyoku``, ``end_kyoku``, ``end_game``. Tiles: ``1m``..``9m``, ``1p``.., ``1s``.., ``E S W N`` for the winds,
``P F C`` for white, green, red, ``5mr`` for a red five, ``?`` for a tile nobody saw.

**The public view only.** The camera sees no concealed tile until it is shown, so every tile of a deal
(``tehais``) and every draw (``tsumo``) is ``"?"`` — mjai's own notation for another player's unseen tile —
never a tile reconstructed from what was shown later (unlike the tenhou.net/6 export, whose viewers need
faces). What the record cannot give is listed in docs/export-mjai.md: ``tsumogiri`` where the
camera could not tell (false), the dora indicator of a hand whose indicator was not read (``"?"``), the
split of a double ron's deltas (the riichi sticks go with the first winner), a chombo (a ``ryukyoku`` with
the chombo's payments: mjai has no chombo event).

Scores: ``start_kyoku.scores`` are the hand's start scores when the record has them (``options.scores``),
else the profile's start score at the first hand and the running totals of the hands exported before it.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Protocol

from controller.referee.export import RefereedHands
from rules.events import (
    Dealt,
    Discarded,
    DoraRevealed,
    Drew,
    Event,
    HandStarted,
    JSONObject,
    JSONValue,
    MeldMade,
    RiichiDeclared,
    Settled,
    Won,
    as_int,
    as_seat,
)
from rules.game.protocols import RuleSet
from rules.game.table_data import MJAI
from rules.tiles import Tile

UNSEEN = "?"
HONORS = ("E", "S", "W", "N", "P", "F", "C")  # 1z..7z: East South West North White Green Red
BAKAZE = {"1": "E", "2": "S", "3": "W", "4": "N"}


class MjaiError(ValueError):
    """The hand cannot be exported as mjai (not riichi, no record)."""


class Judgement(Protocol):
    """A win's judgement, as far as the export reads it (``rules.scoring.ScoreResult``)."""

    @property
    def valid(self) -> bool: ...


class JudgedWin(Protocol):
    """A win of the hand as the hand machine judged it (``rules.game.state.WinRecord``)."""

    @property
    def seat(self) -> int: ...

    @property
    def from_seat(self) -> int | None: ...

    @property
    def valid(self) -> bool | None: ...

    @property
    def result(self) -> Judgement | None: ...


def writes_mjai(profile: RuleSet | str) -> bool:
    """Whether hands of ``profile`` (a rule set or its registry name) are written in mjai: its data says
    so (``record_formats``, riichi's)."""
    if isinstance(profile, str):
        from rules.profiles import registry

        try:
            profile = registry.get(profile)
        except registry.UnknownProfile:
            return False
    return MJAI in profile.record_formats


def tile(t: str) -> str:
    """An mjai tile from ours (``5m``, ``0m`` red five, ``1z``..``7z``; ``x`` unseen → ``?``)."""
    if not t or t == "x":
        return UNSEEN
    x = Tile.parse(t)
    if x.kind >= 27:
        return HONORS[x.kind - 27]
    return f"{x.kind % 9 + 1}{x.suit}" + ("r" if x.is_red else "")


def _without(tiles: Sequence[str], one: str | None) -> list[str]:
    out = list(tiles)
    if one is not None and one in out:
        out.remove(one)
    return out


def kyoku(events: Sequence[Event], wins: Sequence[JudgedWin], scores: Sequence[int]) -> tuple[list[JSONObject], list[int]]:
    """One hand: its mjai events from ``start_kyoku`` to ``end_kyoku``, and the scores after it."""
    start = next(e for e in events if isinstance(e, HandStarted))
    if start.n_players != 4:
        raise MjaiError(f"mjai is four-player riichi; this hand has {start.n_players} players")
    opts: Mapping[str, JSONValue] = start.options or {}
    given = opts.get("scores") or scores
    if not isinstance(given, Sequence):
        raise TypeError(f"{given!r} is not a list of scores")
    scores = [as_int(x) for x in given]
    initial = next((e.indicator for e in events if isinstance(e, DoraRevealed) and e.kind == "initial"), "")
    k = _Kyoku([{
        "type": "start_kyoku", "bakaze": BAKAZE.get(start.round_wind[:1], "E"), "dora_marker": tile(initial),
        "kyoku": start.dealer + 1, "honba": as_int(opts.get("honba", 0)),
        "kyotaku": as_int(opts.get("deposits", 0)) // 1000, "oya": start.dealer, "scores": list(scores),
        "tehais": [[UNSEEN] * 13 for _ in range(4)]}], list(scores))
    for e in events:
        k.take(e)
    k.accept()  # a riichi on the last discard of an exhaustive draw stands
    after = k.end(wins)
    if k.settled is not None and k.settled.deltas:  # the record's own totals win over the sum of the parts
        after = [s + as_int(x) for s, x in zip(scores, k.settled.deltas, strict=True)]
    return k.out, after


_CLAIMS = {"chow": "chi", "pung": "pon", "kong_open": "daiminkan"}


class _Kyoku:
    """The mjai lines of one hand as its events are taken one by one."""

    def __init__(self, out: list[JSONObject], after: list[int]) -> None:
        self.out = out
        self.after = after
        self.reached: set[int] = set()
        self.pending: int | None = None  # a riichi discard not yet passed (reach_accepted after it, unless ron)
        self.ura: list[str] = []
        self.settled: Settled | None = None
        self.initial_seen = False

    def accept(self) -> None:
        if self.pending is not None:
            self.out.append({"type": "reach_accepted", "actor": self.pending})
            self.after[self.pending] -= 1000
            self.pending = None

    def _reach(self, seat: int) -> None:
        if seat not in self.reached:
            self.out.append({"type": "reach", "actor": seat})
            self.reached.add(seat)

    def take(self, e: Event) -> None:
        if isinstance(e, Dealt):
            if len(e.tiles) > 13:  # the dealer's fourteenth tile is his first draw
                self.out.append({"type": "tsumo", "actor": e.seat, "pai": UNSEEN})
        elif isinstance(e, Drew):
            self.accept()
            self.out.append({"type": "tsumo", "actor": e.seat, "pai": UNSEEN})  # a draw is never seen
        elif isinstance(e, RiichiDeclared):
            self._reach(e.seat)
        elif isinstance(e, Discarded):
            self._discarded(e)
        elif isinstance(e, MeldMade):
            self._meld(e)
        elif isinstance(e, DoraRevealed):
            self._dora(e)
        elif isinstance(e, Won):
            if e.from_seat is not None and e.from_seat == self.pending:
                self.pending = None  # ron on the riichi discard: the riichi is not accepted (004 Rules 3.3.14)
        elif isinstance(e, Settled):
            self.settled = e

    def _discarded(self, e: Discarded) -> None:
        self.accept()
        if e.riichi:
            self._reach(e.seat)
        self.out.append({"type": "dahai", "actor": e.seat, "pai": tile(e.tile), "tsumogiri": bool(e.tsumogiri)})
        if e.riichi:
            self.pending = e.seat

    def _meld(self, e: MeldMade) -> None:
        if e.kind in _CLAIMS:
            self.accept()
            claimed = e.claimed_tile or e.tiles[0]
            self.out.append({"type": _CLAIMS[e.kind], "actor": e.seat,
                             "target": e.from_seat if e.from_seat is not None else e.seat,
                             "pai": tile(claimed), "consumed": [tile(t) for t in _without(e.tiles, claimed)]})
        elif e.kind == "kong_added":
            added = e.claimed_tile or e.tiles[-1]
            self.out.append({"type": "kakan", "actor": e.seat, "pai": tile(added),
                             "consumed": [tile(t) for t in _without(e.tiles, added)][:3]})
        elif e.kind == "kong_concealed":
            faces = [t for t in e.tiles if t != "x"]  # a face-down end shows the same tile as the others
            self.out.append({"type": "ankan", "actor": e.seat,
                             "consumed": [tile(t if t != "x" or not faces else faces[0]) for t in e.tiles]})

    def _dora(self, e: DoraRevealed) -> None:
        if e.kind == "ura":
            self.ura.append(tile(e.indicator))
        elif e.kind == "initial" and not self.initial_seen:
            self.initial_seen = True  # already in start_kyoku
        else:
            self.out.append({"type": "dora", "dora_marker": tile(e.indicator)})

    def end(self, wins: Sequence[JudgedWin]) -> list[int]:
        """The hand's ending lines (hora for each valid win, else ryukyoku; end_kyoku): the scores after it."""
        valid = [w for w in wins if w.valid is not False and w.result is not None and w.result.valid]
        payments = list(self.settled.payments) if self.settled is not None else []
        after = self.after
        if valid:
            for i, w in enumerate(valid):
                d = _deltas(payments, w.seat, first=i == 0)
                after = [a + x for a, x in zip(after, d, strict=True)]
                self.out.append({"type": "hora", "actor": w.seat,
                                 "target": w.from_seat if w.from_seat is not None else w.seat,
                                 "deltas": d, "ura_markers": list(self.ura)})
        else:
            d = _deltas(payments, None, first=False)
            after = [a + x for a, x in zip(after, d, strict=True)]
            self.out.append({"type": "ryukyoku", "deltas": d})
        self.out.append({"type": "end_kyoku"})
        return after


def _deltas(payments: Iterable[Mapping[str, JSONValue]], seat: int | None, first: bool) -> list[int]:
    """The payments of one winner (the sticks on the table with the first), or of a draw (every payment
    between players); a riichi stake (to the table) is in ``reach_accepted``, not here."""
    d = [0, 0, 0, 0]
    for p in payments:
        payer, payee, amount = as_seat(p.get("payer")), as_seat(p.get("payee")), as_int(p.get("amount", 0))
        if payee is None:
            continue  # a riichi stake: mjai takes it at reach_accepted
        if seat is not None and not (payee == seat and (payer is not None or first)):
            continue
        if payer is not None:
            d[payer] -= amount
        d[payee] += amount
    return d


def game(hands: Sequence[tuple[str, Sequence[Event], Sequence[JudgedWin]]], start_score: int = 25000,
         names: Sequence[str] | None = None) -> Iterator[JSONObject]:
    """``start_game``, every hand's kyoku in order, ``end_game``. ``hands``: (profile, record, judged wins)."""
    for profile, _events, _wins in hands:
        if not writes_mjai(profile):
            raise MjaiError(f"mjai is riichi's format; this hand is {profile} (use --format events)")
    first = next((e for _p, evs, _w in hands for e in evs if isinstance(e, HandStarted)), None)
    seats = list(first.seats) if first is not None and len(first.seats) == 4 else []
    yield {"type": "start_game", "names": list(names or seats or ["East", "South", "West", "North"])}
    scores = [start_score] * 4
    for _profile, events, wins in hands:
        lines, scores = kyoku(events, wins, scores)
        yield from lines
    yield {"type": "end_game"}


def store_lines(store: RefereedHands, hand_ids: Sequence[str]) -> Iterator[JSONObject]:
    """The hands of an event store, each rebuilt from its refereed inputs (judge corrections applied)."""
    from controller.referee.session import rebuild

    hands: list[tuple[str, Sequence[Event], Sequence[JudgedWin]]] = []
    start_score = 25000
    for h in hand_ids:
        if not store.count(f"{h}/referee"):
            raise MjaiError(f"no refereed hand {h!r} in the store")
        ref = rebuild(store, h)
        if not writes_mjai(ref.profile):
            raise MjaiError(f"mjai is riichi's format; {h} is {ref.name} (use --format events)")
        start_score = ref.profile.start_score
        hands.append((ref.name, ref.export_log(), list(ref.machine.state.wins)))  # a chombo: a draw, its payments
    yield from game(hands, start_score)
