"""How a session ends at a real table, as each seed says, with the hall's clock as the outer bound.

The table decides by itself whether a new hand may start — it does not wait for the hall's gong:

* the hall ended the session, or its clock (``ends_at``) has run out: no new hand (every seed; the hall's
  ``session_end`` is the gong);
* the profile's game is over: MCR four rounds of four hands (003 line 9: «четыре раунда или отведённое
  для четырёх раундов время»), riichi East and South (004 line 63: no extra rounds after South 4), Sichuan
  the organisers' number of hands (000 line 190: «Если за столом были сыграны все отведённые в сессии
  сдачи ... сессия завершается»);
* the profile's red zone: riichi's last ten minutes, «красная зона», where only the hands already started
  are finished (004 line 62; ``profile.session_may_start_hand``).

A hand counts as started at its first dice throw with the walls built (000 line 190; 004 line 570): the
table asks again just before the dice (:meth:`SessionRules.decide` with the hand in play not yet counted);
a hand whose dice come after the limit is closed as not started. A hand a chombo had dealt again is not a hand
played (004 line 570, :func:`played`): it neither ends the game nor moves the chairs.

Riichi's red zone (004 line 62, Reg 6.1.2: the last 10 minutes, only started hands are finished) is followed, not
004 line 570 (Rules 5.9: a 15-minute signal, a hand whose dice were just thrown allowing two): the seed's own
tournament regulations (its section 6, «Особенности турнира») set this tournament's session, where Rules 5.9
repeats the EMA rules' general text — the head judge applies the tournament's regulation [Interp, docs/hall.md].

Players change chairs each round (MCR, 003 line 2168 «Способ распределения мест»): :meth:`chairs` gives the
players by seat for the next hand from ``profile.seating``; each result carries them as ``seats`` so the
hall credits the right players.

Pure functions of the session (the hall's command), the hands finished in it and the time: no I/O here.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Protocol, TypedDict

# What the table's page says (English, Russian): the seeds are Russian, the page speaks both.
TEXTS: dict[str, tuple[str, str]] = {
    "ended": ("The session is over: no new hand starts", "Сессия окончена: новая раздача не начинается"),
    "time": ("The session's time is up: no new hand starts", "Время сессии истекло: новая раздача не начинается"),
    "game_over": ("All the session's hands are played", "Все раздачи сессии сыграны"),
    "red_zone": ("Red zone: only the hand already started is finished",
                 "Красная зона: доигрывается только начатая раздача"),
    "last_hand": ("Last hand of the session", "Последняя раздача сессии"),
    # the seat check holds the first hand (controller/hall_link/seat_check.py words each case itself)
    "seat_check": ("Seat check: the players do not sit as seated", "Проверка мест: игроки сидят не по рассадке"),
}


class HallSession(TypedDict, total=False):
    """The hall's current session as its commands set it at this table (``controller/hall_link/link.py``)."""

    session: int | None
    players: list[str]  # by seat, as seated (a substitute's seating replaces them)
    received: float  # when this table received the session's start
    starts_at: float | None
    ends_at: float | None
    warning_at: float | None
    warned: bool
    ended: bool


class SessionLimits(Protocol):
    """What the session's end reads of a rule set (``rules.game.profile_api.GameRules`` has it all; its
    ``red_zone_min`` too, read where there is one)."""

    def seating(self, hands_played: int, players: int) -> tuple[int, ...] | None: ...
    def game_over(self, hands_played: int, dealer_changes: int, players: int) -> bool: ...
    def session_may_start_hand(self, minutes_left: float) -> bool: ...


HandRecord = Mapping[str, object]  # a hand's result as recorded (hall.messages.HandResult): the keys read here


@dataclass(frozen=True)
class SessionState:
    """What the table shows and obeys: ``may_start`` a new hand (else ``reason``, a key of :data:`TEXTS`),
    ``last_hand`` (the hand in play, or the next one, is the session's last), ``red_zone``."""

    session: int | None
    may_start: bool
    reason: str  # "" while hands may start
    last_hand: bool
    red_zone: bool
    seconds_left: float | None
    hands_played: int
    text_en: str
    text_ru: str

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


def dealer_changes(results: Sequence[HandRecord]) -> int:
    """How often the deal passed in these results (a hand whose ``next_dealer`` differs from its dealer)."""
    n = 0
    for r in results:
        if "next_dealer" in r and "dealer" in r and r["next_dealer"] != r["dealer"]:
            n += 1
    return n


def played(results: Sequence[HandRecord]) -> int:
    """The hands that count as played: a hand a chombo had dealt again does not (004 line 570: «В случае чомбо
    происходит пересдача и не может считается, что раздача была сыграна»); a drawn hand does («Раздача,
    завершившаяся исчерпывающей ничьей, считается за сыгранную раздачу»)."""
    return sum(1 for r in results if not r.get("replayed"))


class SessionRules:
    def __init__(self, profile: SessionLimits):
        self.profile = profile

    def chairs(self, players: Sequence[str], hands_played: int) -> list[str]:
        """The players by seat for the next hand (the profile's chair rotation; as seated when it has none)."""
        order = self.profile.seating(hands_played, len(players)) if players else None
        if order is None:
            return list(players)
        return [players[i] for i in order]

    def _over(self, hands: int, changes: int, players: int) -> bool:
        return bool(players) and bool(self.profile.game_over(hands, changes, players))

    def decide(self, session: HallSession, results: Sequence[HandRecord], now: float,
               in_play: bool = False) -> SessionState:
        """The session's state at ``now``: ``session`` as the hall's commands set it (``ends_at``, ``ended``,
        ``players``), ``results`` the hands played in it (each with ``dealer``, ``next_dealer``)."""
        if not session or session.get("session") is None:  # no hall session: the table plays freely
            return SessionState(None, True, "", False, False, None, len(results), "", "")
        n = len(session.get("players") or ()) or 4
        hands, changes = played(results), dealer_changes(results)
        ends_at = session.get("ends_at")
        left = None if ends_at is None else max(0.0, float(ends_at) - now)
        minutes = None if left is None else left / 60
        zone = int(getattr(self.profile, "red_zone_min", 0) or 0)
        red = bool(zone) and minutes is not None and 0 < minutes <= zone
        reason = ""
        if session.get("ended"):
            reason = "ended"
        elif left is not None and left <= 0:
            reason = "time"
        elif self._over(hands, changes, n):
            reason = "game_over"
        elif minutes is not None and not self.profile.session_may_start_hand(minutes):
            reason = "red_zone"
        may = not reason
        # the hand in play is the last when nothing may start after it, or when the game ends with it (the deal
        # passing: a riichi dealer who keeps it plays on); before a hand, the same for the next one
        last = (in_play and not may) or ((in_play or may) and self._over(hands + 1, changes + 1, n))
        en, ru = TEXTS[reason] if reason else TEXTS["last_hand"] if last else ("", "")
        if reason and last and in_play:
            en, ru = f"{TEXTS['last_hand'][0]}. {en}", f"{TEXTS['last_hand'][1]}. {ru}"
        return SessionState(session.get("session"), may, reason, last, red,
                            None if left is None else round(left, 1), hands, en, ru)
