"""A ground-truth hand as it happens at the table, on the shared clock: what the table looks like from one
moment to the next, and which call buttons are pressed when.

:func:`build` walks the truth log (:func:`vision.scene_game.scene_after_each`) and gives each visible change
a time the way players make them: a discard settles, calls come 0.3–1.5 s later, the set is laid 0.6 s after
the call, the next player's discard comes once the claim window has passed, hands are shown after it, every
seat presses its button to sign the result. A draw is not a moment of its own (the player's rack is back to
its count once he discarded). The physical faults of :mod:`.truth` (a late call, a tile put into a pond out
of turn and taken back) are laid over the walk. Moments are ``input`` (an event the service itself records:
the hand's start, the dice, a button press, a dead-wall indicator) or ``scene`` (the table the camera sees).
"""
from __future__ import annotations

import random
from dataclasses import dataclass, replace

from controller.referee.sim.truth import Act
from controller.referee.variants import missing_suit_from_first_discard
from controller.referee.verdicts import CALL_WAIT_S
from rules.events import (
    ButtonPressed,
    Claimed,
    Dealt,
    DiceRolled,
    Discarded,
    DoraRevealed,
    Drew,
    Event,
    ExhaustiveDraw,
    HandEnded,
    HandRevealed,
    HandStarted,
    MeldMade,
    MissingSuitDeclared,
    Settled,
    Violation,
    Won,
    as_int,
)
from rules.game.protocols import RuleSet
from vision.scene_game import changed_zones, scene_after_each
from vision.scene_model import PondTile, Scene, SeatView

CALL_DELAY = (0.3, 1.4)  # seconds from the discard settling to a call button
LAY_DELAY = 0.6  # from the call to the set lying on the table
CLAIM_OF = {"chow": "chow", "pung": "pung", "kong_open": "kong"}
TURN_EXTRA = (0.4, 1.4)  # after the claim window closed, until the next discard settles


@dataclass(frozen=True)
class Moment:
    t: float
    kind: str  # "input" or "scene"
    event: Event | None = None
    scene: Scene | None = None
    zones: tuple[tuple[int, str], ...] = ()  # the zones a hand reached into for this change
    truth: int = -1  # the truth log index this moment shows
    note: str = ""  # "discard" (a discard settles), "reveal", "phantom" ...
    apart: tuple[tuple[int, int], ...] = ()  # (seat, tiles standing apart at the right end of its rack)
    dora: tuple[str, ...] = ()  # riichi's indicators face up on the dead wall (and the ura ones turned)
    ura: tuple[str, ...] = ()

    @property
    def input(self) -> Event:
        """The event of an ``input`` moment."""
        if self.event is None:
            raise ValueError(f"a {self.kind} moment at {self.t} has no input event")
        return self.event

    @property
    def table(self) -> Scene:
        """The table a ``scene`` moment shows."""
        if self.scene is None:
            raise ValueError(f"an {self.kind} moment at {self.t} shows no table")
        return self.scene


@dataclass
class Expected:
    """A violation the referee must give: ``code`` by ``seat`` about time ``t`` (the moment it shows)."""

    code: str
    seat: int | None
    t: float
    fault: str = ""  # the injected fault behind it ("" for one the bots made by themselves)


@dataclass
class Timeline:
    moments: list[Moment]
    expected: list[Expected]
    discard_times: dict[int, float]  # truth log index of a discard -> when it settled
    end: float


def _press(t: float, seat: int, call: str | None, hand_id: str, button: str = "call") -> Moment:
    return Moment(t, "input", ButtonPressed(button=button, seat=seat, call=call, t_mono=t, t_wall=t, ))


def panel(slot: int) -> str:
    """The call panel of a player's hand: ``call`` (the first), ``call2`` (Siamese: the second hand)."""
    return "call2" if slot == 1 else "call"


def prev_scene_of(i: int, scenes: list[tuple[Event, Scene]]) -> Scene:
    return scenes[i][1]


def _show_hand(sc: Scene, seat: int, hand: str, apart: str = "") -> Scene:
    """A Siamese win: the winning hand laid face up (the player's other hand set aside meanwhile), a
    self-drawn winning tile ``apart`` at the right end."""
    from rules.notation import parse_tiles

    tiles = [str(t) for t in parse_tiles(hand)]
    if apart in tiles:
        tiles.remove(apart)
        tiles.append(apart)
    v = sc.seats[seat]
    return sc.with_seat(seat, SeatView(v.pond, v.melds, v.flowers, 0, tuple(tiles), v.riichi_stick, v.card))


def _played(sc: Scene, played: dict[int, int]) -> Scene:
    """The racks without the tiles of the hands won and played (Siamese)."""
    for seat, n in played.items():
        v = sc.seats[seat]
        if not v.revealed:
            sc = sc.with_seat(seat, SeatView(v.pond, v.melds, v.flowers, max(0, v.standing - n), (),
                                             v.riichi_stick, v.card))
    return sc


def build(profile: RuleSet, log: list[Event], acts: list[Act], rng: random.Random, *,
          fault_of: dict[int, str] | None = None) -> Timeline:
    """The moments of one truth hand (``log``: its machine log; ``acts``: its physical faults)."""
    window_s = call_window(profile)
    name = profile.name
    moments: list[Moment] = []
    expected: list[Expected] = []
    disc_t: dict[int, float] = {}
    fault_of = fault_of or {}
    acts_at = {a.after: a for a in acts}
    t = 0.0
    floor = 0.0  # the next own-turn action comes no earlier
    last_disc = None  # (log index, time, seat) of the discard on offer
    prev: Scene | None = None
    presses: dict[tuple[int, str], float] = {}
    late_calls: set[tuple[int, str]] = set()
    reveal_t = 0.0
    hand_id = ""
    overlays: list[tuple[float, float, int, str]] = []
    drawn: tuple[int, Scene] | None = None  # the last draw: its seat and the table with it

    dora: list[str] = []
    ura: list[str] = []

    def scene_at(ts: float, sc: Scene, i: int, note: str = "", apart: tuple[tuple[int, int], ...] = ()) -> None:
        nonlocal prev
        zones = tuple(changed_zones(prev, sc)) if prev is not None else ()
        moments.append(Moment(ts, "scene", scene=sc, zones=zones, truth=i, note=note, apart=apart,
                              dora=tuple(dora), ura=tuple(ura)))
        prev = sc

    cards = _judge_cards(profile, log)  # WMSG: seats with a judge's card instead of a set-aside tile
    first_discard: set[int] = set()
    back: dict[int, int] = {}  # seats whose false win was shown and whose hand went back: tiles standing
    resumes = not profile.capabilities.false_win_ends_hand and profile.capabilities.reveal_on_win
    played: dict[int, int] = {}  # Siamese: tiles of each seat's won hands, gone out of play
    log_scenes = list(scene_after_each(name, [_as_laid(e) for e in log]))
    for i, (e, sc) in enumerate(log_scenes):
        if played and not isinstance(e, HandRevealed):
            sc = _played(sc, played)
        if back:
            _count_back(back, e)
            sc = _hands_back(sc, back)
        if cards:
            if isinstance(e, Discarded):
                first_discard.add(e.seat)
            sc = _with_cards(sc, cards, first_discard, i)
        if isinstance(e, HandStarted):
            hand_id = e.hand_id
            moments.append(Moment(0.0, "input", e, truth=i))
            prev = sc
            continue
        if isinstance(e, DiceRolled):
            t += 0.5
            moments.append(Moment(t, "input", replace(e, t_mono=t, t_wall=t), truth=i))
            continue
        if isinstance(e, Violation):
            act = e.action.get("type") if e.action else None
            if act == "claimed":
                p = e.action
                key = (as_int(p["seat"]), str(p["kind"]))
                if e.code == "claim_late" and last_disc is not None:  # a call after the window closed
                    presses[key] = round(last_disc[1] + window_s + rng.uniform(0.3, 0.8), 3)
                    late_calls.add(key)
                    floor = max(floor, presses[key] + 1.5)
                tp = presses.setdefault(key, _call_time(last_disc, rng, _last_call(presses, late_calls)))
                moments.append(_press(tp, as_int(p["seat"]), str(p["kind"]), hand_id))
                expected.append(Expected(e.code, e.seat, tp, fault_of.get(i, "")))
            else:
                expected.append(Expected(e.code, e.seat, max(t, reveal_t), fault_of.get(i, "")))
                if resumes and e.code in ("false_win", "furiten") and e.seat is not None and prev is not None:
                    back[e.seat] = len(prev.seats[e.seat].revealed)  # play goes on: the hand goes back
            continue
        if isinstance(e, DoraRevealed):  # turned face up on the dead wall (the camera reads it there)
            (ura if e.kind == "ura" else dora).append(e.indicator)
            t = max(t, reveal_t) + 0.3 if e.kind == "ura" else t + 0.3
            if e.kind == "ura":
                reveal_t = t
            scene_at(t, sc, i, "indicator")
            continue
        if isinstance(e, Claimed):
            tp = presses.setdefault((e.seat, e.kind), _call_time(last_disc, rng, _last_call(presses, late_calls)))
            moments.append(_press(tp, e.seat, e.kind, hand_id, button=panel(e.slot)))
            continue
        if isinstance(e, Discarded):
            t = max(t, floor) + 0.2
            if last_disc is not None:
                t = max(t, last_disc[1] + window_s + rng.uniform(*TURN_EXTRA))
            scene_at(t, sc, i, "discard")
            last_disc = (i, t, e.seat)
            disc_t[i] = t
            presses = {}
            floor = t
            fault = acts_at.get(i)
            if fault is not None:
                floor = _act(fault, t, expected, rng, overlays)
            continue
        if isinstance(e, MeldMade):
            if e.from_seat is not None and last_disc is not None:  # a claimed set: laid after the call
                tp = presses.get((e.seat, CLAIM_OF[e.kind]), _call_time(last_disc, rng))
                t = max(t, tp + LAY_DELAY)
            else:  # a kong in the player's own turn, after his draw
                t = max(t, floor, last_disc[1] + window_s if last_disc else 0.0) + rng.uniform(0.8, 1.6)
                if e.kind == "kong_added" and drawn is not None and drawn[0] == e.seat:
                    scene_at(t - 0.5, drawn[1], i, apart=((e.seat, 1),))  # the drawn tile, kept apart
            if sc != prev:  # an added kong: the drawn tile kept apart went to the set, or one from the hand
                scene_at(t, sc, i, apart=((e.seat, 0 if e.drawn_tile else 1),) if e.kind == "kong_added" else ())
            floor = t + rng.uniform(0.8, 1.5)
            if e.kind == "kong_added":
                last_disc = (i, t, e.seat)  # the added tile may be robbed: its window opens now
                presses = {}
            continue
        if isinstance(e, Won):
            if e.from_seat is None:  # self-drawn: the button in the player's own turn
                t = max(t, floor, last_disc[1] + window_s if last_disc else 0.0) + rng.uniform(0.8, 1.6)
                moments.append(_press(t, e.seat, "hu", hand_id, button=panel(e.slot)))
            else:
                t = max(t, presses.get((e.seat, "hu"), t) + LAY_DELAY)
            if e.hand:  # Siamese: the winning hand is laid face up, judged, and goes out of play
                sc = _show_hand(sc, e.seat, e.hand, e.tile if e.from_seat is None else "")
                scene_at(t + 0.3, sc, i, "reveal")
                played[e.seat] = played.get(e.seat, 0) + len(sc.seats[e.seat].revealed) - (e.from_seat is not None)
                sc = _played(prev_scene_of(i, log_scenes), played)
                t += 1.0
                if e.from_seat is None:  # the drawn tile, when the win did not use it, stays apart in the rack
                    scene_at(t + 0.3, sc, i, apart=((e.seat, 0 if e.drawn_tile is not False else 1),))
            if sc != prev:
                scene_at(t + 0.3, sc, i)
            reveal_t = max(reveal_t, (last_disc[1] + window_s if last_disc else t) + 0.4, t + 0.5)
            floor = t + 1.0
            continue
        if isinstance(e, ExhaustiveDraw):
            reveal_t = max(reveal_t, (last_disc[1] if last_disc else t) + window_s + 0.5)
            continue
        if isinstance(e, HandRevealed):
            t = max(t, reveal_t) + 0.5
            reveal_t = t
            scene_at(t, sc, i, "reveal")
            continue
        if isinstance(e, Drew):
            drawn = (e.seat, sc)  # shows with the discard that follows it (the rack is back to its count)
            continue
        if isinstance(e, Settled | HandEnded):
            continue
        if sc != prev:  # the deal, a flower set aside, a missing-suit card
            t = max(t, floor) + 0.5
            if last_disc is not None:  # in play: the player's turn came once the claim window closed
                t = max(t, last_disc[1] + window_s + rng.uniform(*TURN_EXTRA))
            scene_at(t, sc, i)
    end = max(t, reveal_t) + 2.0
    for s in sorted({s for m in moments if m.kind == "scene" for s in range(len(m.table.seats))}):
        moments.append(_press(end + 0.3 * s, s, None, hand_id))  # every seat signs the result
    moments.sort(key=lambda m: m.t)
    moments = _lay_overlays(moments, overlays)
    return Timeline(moments, expected, disc_t, end + 2.0)


def _judge_cards(profile: RuleSet, log: list[Event]) -> dict[int, tuple[int, str]]:
    """Sichuan WMSG (002 §5.3): a player whose starting hand has no tile of his missing suit gets the
    judge's card, face down, turned up on his first discard (AMB-27): seat -> (log index, suit)."""
    if not missing_suit_from_first_discard(profile):
        return {}
    dealt = {e.seat: e.tiles for e in log if isinstance(e, Dealt)}
    out = {}
    for i, e in enumerate(log):
        if isinstance(e, MissingSuitDeclared) and not any(t[-1] == e.suit for t in dealt.get(e.seat, ())):
            out[e.seat] = (i, e.suit)
    return out


def _with_cards(sc: Scene, cards: dict[int, tuple[int, str]], shown: set[int], i: int) -> Scene:
    for seat, (k, suit) in cards.items():
        if i >= k:
            v = sc.seats[seat]
            sc = sc.with_seat(seat, SeatView(v.pond, v.melds, v.flowers, v.standing, v.revealed, v.riichi_stick,
                                             suit if seat in shown else "x"))
    return sc


def _count_back(back: dict[int, int], e: Event) -> None:
    """The rack of a seat whose shown hand went back, as its events change it (until it is shown again)."""
    seat = getattr(e, "seat", None)
    if seat not in back:
        return
    if isinstance(e, HandRevealed):
        del back[seat]
    elif isinstance(e, Drew):
        back[seat] += 1
    elif isinstance(e, Discarded) or e.TYPE == "flower_declared":
        back[seat] -= 1
    elif isinstance(e, MeldMade):
        back[seat] -= {"kong_concealed": 4, "kong_added": 1}.get(e.kind, len(e.tiles) - 1)


def _hands_back(sc: Scene, back: dict[int, int]) -> Scene:
    for seat, n in back.items():
        v = sc.seats[seat]
        sc = sc.with_seat(seat, SeatView(v.pond, v.melds, v.flowers, n, (), v.riichi_stick, v.card))
    return sc


def call_window(profile: RuleSet) -> float:
    """How long calls on a discard are awaited: the profile's claim time, else the referee's wait."""
    return profile.capabilities.claim_window_s if profile.capabilities.claim_window_s is not None else CALL_WAIT_S


def _as_laid(e: Event) -> Event:
    """A hand shown as players lay it: a self-drawn winning tile apart, at the right end."""
    if isinstance(e, HandRevealed) and e.winning and e.winning in e.tiles:
        rest = list(e.tiles)
        rest.remove(e.winning)
        return replace(e, tiles=(*rest, e.winning), winning="")
    if isinstance(e, HandRevealed) and e.winning:  # a win judged before (a false one): no tile apart now
        return replace(e, winning="")
    return e


def _last_call(presses: dict[tuple[int, str], float], late: set[tuple[int, str]]) -> float:
    return max((t for k, t in presses.items() if k not in late), default=0.0)


def _call_time(last_disc: tuple[int, float, int] | None, rng: random.Random, after: float = 0.0) -> float:
    """When a call comes: CALL_DELAY after the discard settled, after the calls made before it."""
    base = last_disc[1] if last_disc else 0.0
    return round(max(base + rng.uniform(*CALL_DELAY), after + 0.15), 3)


def _act(act: Act, t: float, expected: list[Expected], rng: random.Random,
         overlays: list[tuple[float, float, int, str]]) -> float:
    """Lay a physical fault over the walk; returns the earliest time the next action may come."""
    if act.fault == "out_of_turn":  # the tile goes into the pond, the referee objects, it is taken back
        ta = round(t + rng.uniform(0.4, 0.9), 3)
        overlays.append((ta, ta + 1.2, act.seat, act.tile))
        expected.append(Expected("out_of_turn", act.seat, ta, "out_of_turn"))
        return ta + 1.5
    return t


def _with_phantom(sc: Scene, seat: int, tile: str) -> Scene:
    v = sc.seats[seat]
    return sc.with_seat(seat, SeatView(v.pond + (PondTile(tile),), v.melds, v.flowers, max(0, v.standing - 1),
                                       v.revealed, v.riichi_stick, v.card))


def _lay_overlays(moments: list[Moment], overlays: list[tuple[float, float, int, str]]) -> list[Moment]:
    """A tile lying in a pond from ``ta`` to ``tb`` over whatever else happens on the table meanwhile."""
    for ta, tb, seat, tile in overlays:
        before = [m for m in moments if m.kind == "scene" and m.t <= ta]
        base = before[-1].scene if before else None
        out = []
        for m in moments:
            if m.kind == "scene" and ta < m.t < tb:
                m = replace(m, scene=_with_phantom(m.table, seat, tile))
            out.append(m)
        if base is not None:
            out.append(Moment(ta, "scene", scene=_with_phantom(base, seat, tile), zones=((seat, "pond"),),
                              note="phantom"))
            last = [m for m in out if m.kind == "scene" and m.t < tb and m.note != "phantom"]
            back = last[-1].scene if last and last[-1].t > ta else base
            out.append(Moment(tb, "scene", scene=back, zones=((seat, "pond"),), note="phantom-back"))
        out.sort(key=lambda m: m.t)
        moments = out
    return moments
