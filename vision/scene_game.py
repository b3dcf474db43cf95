"""Physical table states from a game's event log (rules core), and frame sequences of them.

    scenes = scenes_from_events("riichi-ema2016", hand_result.events)   # one Scene per visible change
    for frame, truth in render_sequence(scenes, seed=3): ...           # hands reach in, then still frames

The table follows the profile's conventions: the claimed tile leaves the discarder's pond and lies
sideways in the claimant's set pointing at its source (where the profile turns it), concealed kongs show
the profile's face-down tiles, the riichi discard lies sideways (the next one when it is claimed), the
winner takes the lowest hu card (Sichuan MPL), hands are laid face up at the reveal.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

import numpy as np

from rules.events import (
    Dealt,
    DiceRolled,
    Discarded,
    Drew,
    Event,
    FlowerDeclared,
    HandRevealed,
    HandStarted,
    MeldMade,
    MissingSuitDeclared,
    RiichiDeclared,
    Won,
    relative_source,
)
from vision.arrays import Image
from vision.conventions import conventions, sideways_index
from vision.scene_model import MeldView, PondTile, Scene, SeatView
from vision.scene_render import CameraPose, Truth, render_scene

MAX_POND = 30  # the most discards the rendered pond area holds (vision.scene_render); a real table has room


def view_seats(profile: str, players: int) -> int:
    """Seat views a table of ``players`` needs: up to its highest seat (two players sit at seats 0 and 2)."""
    from rules.profiles import registry

    try:
        return max(registry.get(profile).wall_spec(players).seats) + 1
    except (ValueError, KeyError):  # (an unknown profile is a KeyError: registry.UnknownProfile)
        return players


@dataclass
class _SeatState:
    """One seat's part of the table while a hand is played (lists grow; :meth:`_Table.scene` freezes them)."""

    pond: list[PondTile] = field(default_factory=list)
    melds: list[MeldView] = field(default_factory=list)
    flowers: list[str] = field(default_factory=list)
    standing: int = 0
    revealed: tuple[str, ...] = ()
    riichi_stick: bool = False
    card: str | None = None


class _Table:
    def __init__(self, profile: str, n: int, max_pond: int | None = MAX_POND):
        self.profile = profile
        self.max_pond = max_pond
        self.conv = conventions(profile)
        self.n = n
        views = view_seats(profile, n)  # two players sit opposite (seats 0 and 2 of a four-seat view)
        self.seats = [_SeatState() for _ in range(views)]
        self.dice: tuple[int, ...] = ()
        self.sideways_next = [False] * views
        self.hu_cards = ["1", "2", "3"] if self.conv.hu_cards else []

    def scene(self) -> Scene:
        views = []
        for s in self.seats:
            views.append(SeatView(tuple(s.pond), tuple(s.melds), tuple(s.flowers), max(0, s.standing),
                                  tuple(s.revealed), s.riichi_stick, s.card))
        return Scene(self.profile, tuple(views), self.dice)

    def apply(self, e: Event) -> None:
        c = self.conv
        if isinstance(e, DiceRolled):
            self.dice = tuple(e.values)
        elif isinstance(e, Dealt):
            self.seats[e.seat].standing = len(e.tiles)
        elif isinstance(e, Drew):
            self.seats[e.seat].standing += 1
        elif isinstance(e, FlowerDeclared):
            s = self.seats[e.seat]
            s.standing -= 1
            s.flowers.append(e.tile)
        elif isinstance(e, MissingSuitDeclared) and c.missing_suit_cards:
            self.seats[e.seat].card = e.suit
        elif isinstance(e, RiichiDeclared):
            self.seats[e.seat].riichi_stick = c.riichi_sticks
        elif isinstance(e, Discarded):
            s = self.seats[e.seat]
            s.standing -= 1
            side = c.riichi_sideways_discard and (e.riichi or self.sideways_next[e.seat])
            self.sideways_next[e.seat] = False
            s.pond.append(PondTile(e.tile, side))
            if self.max_pond is not None and len(s.pond) > self.max_pond:
                raise ValueError("pond overflow")
        elif isinstance(e, MeldMade):
            self._meld(e)
        elif isinstance(e, Won):
            if e.from_seat is not None and self.seats[e.from_seat].pond:
                p = self.seats[e.from_seat].pond
                if p[-1].tile == e.tile:
                    p.pop()
            if self.hu_cards:
                self.seats[e.seat].card = self.hu_cards.pop(0)
        elif isinstance(e, HandRevealed):
            s = self.seats[e.seat]
            tiles = list(e.tiles) + ([e.winning] if e.winning and e.winning not in e.tiles else [])
            s.revealed = tuple(tiles)
            s.standing = 0
            s.melds = [MeldView(m.kind, m.tiles if "x" not in m.tiles else m.tiles_known, m.sideways, m.source,
                                   m.added) if isinstance(m, _KnownMeld) else m for m in s.melds]

    def _meld(self, e: MeldMade) -> None:
        c = self.conv
        s = self.seats[e.seat]
        tiles = list(e.tiles)
        if e.kind == "kong_concealed":
            s.standing -= 4
            shown = tuple("x" if i in c.concealed_kong_down else t for i, t in enumerate(tiles))
            s.melds.append(_KnownMeld("kong_concealed", shown, None, None, False, tiles_known=tuple(tiles)))
            return
        if e.kind == "kong_added":
            s.standing -= 1
            add = e.claimed_tile or tiles[-1]
            for i, m in enumerate(s.melds):
                if m.kind == "pung" and m.tiles[0][1] == add[1] and {t.replace("0", "5") for t in m.tiles} == {
                        add.replace("0", "5")}:
                    s.melds[i] = MeldView("kong_added", m.tiles + (add,), m.sideways, m.source, True)
                    return
            return
        # a claimed set: the discard leaves its pond
        src_seat = e.from_seat
        claimed = e.claimed_tile
        if src_seat is not None:
            p = self.seats[src_seat].pond
            if p and (claimed is None or p[-1].tile == claimed):
                gone = p.pop()
                if gone.sideways:
                    self.sideways_next[src_seat] = True
        s.standing -= len(tiles) - 1
        rel = relative_source(e.seat, src_seat, self.n) if src_seat is not None else None
        others = list(tiles)
        if claimed in others:
            others.remove(claimed)
        if e.kind == "chow":
            others.sort(key=lambda t: (t[1], 5 if t[0] == "0" else int(t[0])))
        if c.claimed_sideways and rel is not None and claimed is not None:
            k = sideways_index(rel, len(tiles))
            row = others[:k] + [claimed] + others[k:]
            s.melds.append(MeldView(e.kind, tuple(row), k, rel))
        else:
            row = ([claimed] if claimed else []) + others
            s.melds.append(MeldView(e.kind, tuple(row), None, None))


@dataclass(frozen=True)
class _KnownMeld(MeldView):
    """A concealed kong that also remembers its face-down tiles (shown at the reveal)."""

    tiles_known: tuple[str, ...] = ()


def _plain(scene: Scene) -> Scene:
    """Drop the remembered identities (a scene equal to what the camera can read)."""
    seats = []
    for v in scene.seats:
        melds = tuple(MeldView(m.kind, m.tiles, m.sideways, m.source, m.added) for m in v.melds)
        seats.append(SeatView(v.pond, melds, v.flowers, v.standing, v.revealed, v.riichi_stick, v.card))
    return Scene(scene.profile, tuple(seats), scene.dice)


def scenes_from_events(profile: str, events: Iterable[Event], max_pond: int | None = MAX_POND) -> list[Scene]:
    """The sequence of distinct physical table states a hand goes through (first: the empty table).
    ``max_pond``: a pond longer than this is a ValueError (a table the renderer cannot draw); None: no limit
    (a 2-player Red pond may pass 30 tiles)."""
    n = 4
    table: _Table | None = None
    out: list[Scene] = []
    for e in events:
        if isinstance(e, HandStarted):
            n = e.n_players
            table = _Table(profile, n, max_pond)
            out = [_plain(table.scene())]
            continue
        if table is None:
            table = _Table(profile, n, max_pond)
            out = [_plain(table.scene())]
        table.apply(e)
        sc = _plain(table.scene())
        if sc != out[-1]:
            out.append(sc)
    return out


def scene_after_each(profile: str, events: Iterable[Event]) -> Iterator[tuple[Event, Scene]]:
    """The physical table after each event of a hand's log, one scene per event (the same scene again where
    an event changes nothing a camera sees): what :func:`scenes_from_events` walks through, event by event."""
    table = _Table(profile, 4)
    for e in events:
        if isinstance(e, HandStarted):
            table = _Table(profile, e.n_players)
            yield e, _plain(table.scene())
            continue
        table.apply(e)
        yield e, _plain(table.scene())


def changed_zones(a: Scene, b: Scene) -> list[tuple[int, str]]:
    """(seat, zone kind) pairs that differ between two scenes (where a hand must have reached)."""
    from vision.tracking import ZONE_FIELDS, zone_state

    out = []
    for s in range(len(a.seats)):
        for k in ZONE_FIELDS:
            if zone_state(a, f"{k}{s}") != zone_state(b, f"{k}{s}"):
                if k == "side" and a.seats[s].card != b.seats[s].card:
                    out.append((s, "card"))
                if k != "side" or a.seats[s].flowers != b.seats[s].flowers:
                    out.append((s, k))
    return out


@dataclass
class SeqFrame:
    frame: Image
    truth: Truth
    index: int
    t_mono: float
    settled: bool  # no hand over the table


def render_sequence(scenes: list[Scene], *, seed: int = 0, style: str | None = None, hand_frames: int = 2,
                    still_frames: int = 2, fps: float = 10.0, hands: bool = True) -> Iterator[SeqFrame]:
    """Frames of a scene sequence: for each change, ``hand_frames`` with a hand over the changed zones
    (the new state underneath), then ``still_frames`` of the new state alone. One camera pose, felt and
    style for the whole sequence; each frame has its own noise."""
    rng = np.random.default_rng(seed)
    from vision.tile_render import available_styles

    style = style or available_styles()[int(rng.integers(len(available_styles())))]
    pose = CameraPose.random(rng)
    from vision.scene_render import felt_for

    felt = felt_for(style, rng)
    k = 0
    prev = None
    for sc in scenes:
        zones: list[tuple[int, str]] = changed_zones(prev, sc) if prev is not None else []
        # a hand over every zone that changed (the player placing, the claimant taking)
        reach = tuple(zones) if hands and zones else ()
        n_hand = hand_frames if reach else 0
        for j in range(n_hand + still_frames):
            hs = reach if j < n_hand else ()
            frame, truth = render_scene(sc, seed=seed * 100003 + k, style=style, pose=pose, felt=felt, hands=hs,
                                        layout_seed=seed * 7919)
            yield SeqFrame(frame, truth, k, k / fps, not hs)
            k += 1
        prev = sc
