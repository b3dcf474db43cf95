"""The referee's questions: what it asks when the table does not say (an unreadable tile, an observation
that contradicts the record, what only a person knows), as data.

:data:`QUESTIONS` is the table: a question's name → its kind (``QuestionAsked.kind``), the choices offered,
its English and Russian text. How each answer resumes the hand is the same name's row of
:data:`controller.referee.answers.RESUME`; the open question carries that row's name and its subject
(:class:`~controller.referee.state.Resume`). Asking never guesses: the inputs that follow wait.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from controller.referee import effects, ponds
from controller.referee.state import TILE_TEXTS, OpenQuestion, RefereeState, Resume
from rules.events import (
    FlowerSeen,
    IndicatorSeen,
    JSONObject,
    MeldSeen,
    PondTileSeen,
    QuestionAsked,
    TilesRevealed,
)

#: an observation with tiles the camera may not read (a tile question's subject)
Unreadable = PondTileSeen | MeldSeen | TilesRevealed | IndicatorSeen | FlowerSeen

JUDGE_OR_IGNORE = " (the judge corrects the record, or answers 'ignore')"


@dataclass(frozen=True)
class Question:
    kind: str  # the QuestionAsked kind the page and the operator see
    choices: tuple[str, ...]
    en: str  # str.format templates
    ru: str


QUESTIONS: dict[str, Question] = {
    # a tile the camera saw and could not read (its words: tile_words), or one the camera did not see at all
    "tile": Question("tile", (), "{en}", "{ru}"),
    "kong_tile": Question("kong_tile", ("yes", "no"),
                          "seat {seat}'s added kong: was its fourth tile the tile just drawn, kept apart?",
                          "добавленный конг: четвёртая кость — только что взятая (лежала отдельно)?"),
    "copies": Question("impossible", ("ignore",),
                       "more {over} on the table than the set holds once seat {seat}'s hand is shown: a tile was "
                       "misread (the judge corrects the record, or answers 'ignore')",
                       "на столе больше копий кости, чем в наборе: кость прочитана неверно"),
    "impossible": Question("impossible", ("ignore",), "{en}" + JUDGE_OR_IGNORE, "{ru}"),
    "late_claim": Question("impossible", ("stands", "taken_back"),
                           "seat {seat} made a {kind} on a late claim: does it stand?",
                           "комбинация на позднее объявление: оставить её?"),
    # Sichuan WMSG: a missing suit the first discard did not show (002 §5.2-5.3)
    "missing_suit": Question("missing_suit", ("m", "p", "s"),
                             "seat {seat}'s missing suit is not on the table: which is it?",
                             "запрещённая масть игрока не видна: какая?"),
    "pond": Question("impossible", ("ignore",), "seat {seat}'s pond shows {seen}, the record has {rec}" + JUDGE_OR_IGNORE,
                     "снос на столе не совпадает с записью"),
}


# --- what each question is about: its answer resumes the hand from it (controller.referee.answers.RESUME) ---

@dataclass(frozen=True)
class TileAsked(Resume):
    """Which tiles the unreadable ones of ``ev`` are (``why``: the question's own words, where given)."""

    question: ClassVar[str] = "tile"
    ev: Unreadable
    zone: str
    index: int | None
    why: tuple[str, str] | None


@dataclass(frozen=True)
class KongTileAsked(Resume):
    question: ClassVar[str] = "kong_tile"
    seat: int


@dataclass(frozen=True)
class CopiesAsked(Resume):
    question: ClassVar[str] = "copies"
    ev: TilesRevealed
    over: list[str]


@dataclass(frozen=True)
class ImpossibleAsked(Resume):
    question: ClassVar[str] = "impossible"
    ev: MeldSeen
    en: str
    ru: str


@dataclass(frozen=True)
class LateClaimAsked(Resume):
    question: ClassVar[str] = "late_claim"
    ev: MeldSeen


@dataclass(frozen=True)
class SuitAsked(Resume):
    question: ClassVar[str] = "missing_suit"
    seat: int


@dataclass(frozen=True)
class PondAsked(Resume):
    question: ClassVar[str] = "pond"
    seat: int


def ask(r: RefereeState, about: Resume, seat: int | None, subject: JSONObject, /, **words: object) -> None:
    """Ask the question of :data:`QUESTIONS` that ``about`` names (its text filled with ``words``); its answer
    resumes the hand from ``about``. The hand waits for it."""
    row = QUESTIONS[about.question]
    q = QuestionAsked(question_id=r.asking.next_id, kind=row.kind, seat=seat, subject=subject, choices=row.choices,
                      message=row.en.format(**words), message_ru=row.ru.format(**words), **effects.stamp(r))
    r.asking.next_id += 1
    r.asking.open = OpenQuestion(q, about)
    effects.emit(r, q)


def unknown_count(ev: Unreadable) -> int:
    tiles = (ev.tiles or ("",)) if isinstance(ev, MeldSeen | TilesRevealed) else (ev.tile,)
    return sum(1 for t in tiles if t not in TILE_TEXTS and t != "x")


def tile_words(seat: int | None, zone: str, index: int | None, unknown: int) -> tuple[str, str]:
    """A tile question's English and Russian text."""
    where = f"seat {seat}'s {zone}" + (f" at {index + 1}" if index is not None else "")
    return (f"the camera cannot read {unknown} tile(s) in {where}: which?"
            + (" ('none': there is no tile)" if zone in ("pond", "indicator") else " ('none': no hand is shown)"
               if zone == "hand" else ""),
            f"камера не может прочитать кость ({unknown}) — какая?"
            + (" ('none': кости там нет)" if zone in ("pond", "indicator") else " ('none': руку не открывали)"
               if zone == "hand" else ""))


def ask_tile(r: RefereeState, ev: Unreadable, zone: str, index: int | None,
             why: tuple[str, str] | None = None) -> None:
    """Which tiles the ``unknown`` ones of ``ev`` are (``why``: the question's own words, English and
    Russian, where it is not a tile the camera saw and could not read)."""
    seat = None if isinstance(ev, IndicatorSeen) else ev.seat
    unknown = unknown_count(ev)
    en, ru = why or tile_words(seat, zone, index, unknown)
    ask(r, TileAsked(ev, zone, index, why), seat,
        {"observation": ev.to_json(), "zone": zone, "index": index, "unknown": unknown}, en=en, ru=ru)


def ask_kong_tile(r: RefereeState, seat: int) -> None:
    ask(r, KongTileAsked(seat), seat, {"seat": seat, "log_index": r.racks.kong[seat]}, seat=seat)


def ask_copies(r: RefereeState, ev: TilesRevealed, over: list[str]) -> None:
    ask(r, CopiesAsked(ev, over), ev.seat, {"observation": ev.to_json(), "over": over}, over=", ".join(over),
        seat=ev.seat)


def ask_impossible(r: RefereeState, ev: MeldSeen, en: str, ru: str) -> None:
    ask(r, ImpossibleAsked(ev, en, ru), ev.seat, {"observation": ev.to_json()}, en=en, ru=ru)


def ask_judge_late(r: RefereeState, ev: MeldSeen) -> None:
    ask(r, LateClaimAsked(ev), ev.seat, {"observation": ev.to_json()}, seat=ev.seat, kind=ev.kind)


def ask_suit(r: RefereeState, seat: int) -> None:
    ask(r, SuitAsked(seat), seat, {"seat": seat}, seat=seat)


def ask_pond(r: RefereeState, seat: int, since: float) -> None:
    """A pond that stayed unlike the record: the unreadable tiles after it asked in turn, else the judge."""
    seen, rec = list(r.pond.seen[seat]), [e.tile for e in r.pond.record[seat]]
    real, n = ponds.real_seen(r, seat), len(rec)
    if (r.conv.pond_layout == "rows6" and len(real) > n and ponds.same_pond(r, real[:n], rec)
            and all(t not in TILE_TEXTS for t in real[n:])):
        # the record's pond and more than one tile after it, none readable (a discard the finder cut in
        # two, a stain): each is asked in turn, the first one's face the discard ('none': no tile)
        wall = r.at.t_wall if r.at is not None else since
        return ask_tile(r, PondTileSeen(seat=seat, index=n, tile="unknown", t_mono=since, t_wall=wall), "pond", n)
    ask(r, PondAsked(seat), seat, {"seat": seat, "zone": "pond", "seen": seen, "record": rec},
        seat=seat, seen=" ".join(seen) or "nothing", rec=" ".join(rec) or "nothing")
    return None
