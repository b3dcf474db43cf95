"""Tracking: debounced stable state per zone, diffed into observation events on the shared clock.

Each frame the pipeline hands over the parsed :class:`~vision.scene_model.Scene`, which zones were read,
and which were not trusted (a hand over them, blobs that fit no tile). A zone's new reading becomes its
*stable* state once it has been seen identically in ``debounce`` trusted frames in a row; the change is
then turned into events (:mod:`rules.events` observation events) stamped with the ``t_mono`` of the
*first* frame that showed it — the moment the tile was seen down, which the referee's claim windows start
from. A zone that was not re-read (its image did not change) confirms its candidate — unless that holds a
tile the reader could not read: such a reading is confirmed only by reading the zone again
(:meth:`Tracker.unsettled`; the pipeline does).
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Set
from dataclasses import dataclass
from typing import TypedDict, cast

from rules.events import (
    CardSeen,
    DiceRead,
    FlowerSeen,
    MeldSeen,
    ObservationEvent,
    PondTileRemoved,
    PondTileSeen,
    StickSeen,
    TilesRevealed,
    relative_source,
)
from vision.conventions import conventions
from vision.scene_model import MeldView, PondTile, Scene, SeatView
from vision.tile_labels import NONE, UNKNOWN

#: A revealed hand read with a tile unread is told (and the judge asked) only after this many readings alike:
#: half a second of the camera's frames for the other readings to give that place its face (a hand is scored
#: once, at its end; sichuan-mpl2025 seed 11 hands 151 and 157: a 9p and a 4m unread in two frames in a row)
HAND_UNREAD_FRAMES = 5
UNREAD = (UNKNOWN, NONE)  # a place the reader gave no face: it takes the face a later reading gives
#: The last tiles of a pond read as bare cloth this long are gone (a tile put down out of turn and taken back,
#: the finder still cutting its empty place); shorter, an arm over them taken for cloth: they keep their faces.
CLOTH_GONE_S = 1.0
#: A place of a pond the finder cut a tile from but the reader called bare cloth (``none``) is read again at
#: every frame for this long: a new discard read as cloth once, under a shadow, would otherwise keep that
#: reading until its pond changed again (sichuan-mpl2025 seed 11 hand 53: an 8p read as cloth at 95.7 s was
#: not seen until 103.5 s, and the next player's discard was judged out of turn).
NONE_REREAD_S = 6.0

#: The part of a seat's view each zone kind holds.
ZONE_FIELDS = {"pond": ("pond",), "meld": ("melds",), "side": ("flowers", "card"),
               "hand": ("standing", "revealed"), "stick": ("riichi_stick",)}


# A zone's reading: its fields of the seat's view (ZONE_FIELDS), in order; the centre's is the dice.
CentreState = tuple[tuple[int, ...]]
PondState = tuple[tuple[PondTile, ...]]
MeldState = tuple[tuple[MeldView, ...]]
SideState = tuple[tuple[str, ...], str | None]  # flowers, card
HandState = tuple[int, tuple[str, ...]]  # standing, revealed
StickState = tuple[bool]
ZoneState = CentreState | PondState | MeldState | SideState | HandState | StickState


def zone_state(scene: Scene, zone: str) -> ZoneState:
    """The reading of one zone (``pond2``, ``centre``...) as a hashable value."""
    if zone == "centre":
        return (scene.dice,)
    kind, seat = zone[:-1], int(zone[-1])
    v = scene.seats[seat]
    return cast(ZoneState, tuple(getattr(v, f) for f in ZONE_FIELDS[kind]))  # the fields ZoneState names


class _Stamp(TypedDict):
    """When an event's change was first seen."""

    t_mono: float
    t_wall: float
    frame: int


def _set_zone(scene: Scene, zone: str, state: ZoneState) -> Scene:
    if zone == "centre":
        return Scene(scene.profile, scene.seats, cast(CentreState, state)[0])
    kind, seat = zone[:-1], int(zone[-1])
    v = scene.seats[seat]
    d = dict(v.__dict__)
    d.update(zip(ZONE_FIELDS[kind], state))
    return scene.with_seat(seat, SeatView(**d))


@dataclass
class _Candidate:
    state: ZoneState
    frame: int
    t_mono: float
    t_wall: float
    count: int = 1


def diff_events(profile: str, zone: str, old: ZoneState, new: ZoneState, *, t_mono: float, t_wall: float, frame: int,
                pond_order: list[str] | None = None, last_removed: tuple[int, str] | None = None
                ) -> list[ObservationEvent]:
    """Events for one zone's stable change ``old`` → ``new``. ``pond_order`` (free layouts) is the seat's
    pond in order of appearance and is updated; ``last_removed`` = (seat, tile) of the latest tile taken
    from a pond, the source of a meld the profile does not turn sideways."""
    st: _Stamp = {"t_mono": t_mono, "t_wall": t_wall, "frame": frame}
    out: list[ObservationEvent] = []
    if zone == "centre":
        dice_old, dice_new = cast(CentreState, old)[0], cast(CentreState, new)[0]
        if dice_new and dice_new != dice_old:
            out.append(DiceRead(values=tuple(dice_new), **st))
        return out
    kind, seat = zone[:-1], int(zone[-1])
    conv = conventions(profile)
    if kind == "pond":
        o, n = list(cast(PondState, old)[0]), list(cast(PondState, new)[0])
        if conv.pond_layout == "rows6":
            k = 0
            while k < min(len(o), len(n)) and (o[k] == n[k] or (o[k].tile in UNREAD and o[k].sideways == n[k].sideways)):
                if o[k] != n[k]:  # an unread tile read at last, in its place
                    out.append(PondTileSeen(seat=seat, index=k, tile=n[k].tile, sideways=n[k].sideways, **st))
                k += 1
            for i in range(len(o) - 1, k - 1, -1):
                out.append(PondTileRemoved(seat=seat, index=i, tile=o[i].tile, **st))
            for i in range(k, len(n)):
                out.append(PondTileSeen(seat=seat, index=i, tile=n[i].tile, sideways=n[i].sideways, **st))
        else:  # free layout: the order is the order of appearance
            order = pond_order if pond_order is not None else [t.tile for t in o]
            gone = Counter(t.tile for t in o) - Counter(t.tile for t in n)
            came = Counter(t.tile for t in n) - Counter(t.tile for t in o)
            for tile, c in gone.items():
                for _ in range(c):
                    i = len(order) - 1 - order[::-1].index(tile) if tile in order else len(order) - 1
                    out.append(PondTileRemoved(seat=seat, index=i, tile=tile, **st))
                    if tile in order:
                        order.pop(i)
            for t in n:
                if came.get(t.tile, 0) > 0:
                    came[t.tile] -= 1
                    out.append(PondTileSeen(seat=seat, index=len(order), tile=t.tile, sideways=t.sideways, **st))
                    order.append(t.tile)
        return out
    if kind == "meld":
        mo, mn = list(cast(MeldState, old)[0]), list(cast(MeldState, new)[0])
        for i, m in enumerate(mn):
            if i < len(mo) and mo[i] == m:
                continue
            src = m.source
            if src is None and m.kind not in ("kong_concealed",) and last_removed is not None:
                src = relative_source(seat, last_removed[0])
            out.append(MeldSeen(seat=seat, kind=m.kind, tiles=m.tiles, claimed_index=m.sideways, source=src, **st))
        return out
    if kind == "side":
        so, sn = cast(SideState, old), cast(SideState, new)
        of, nf = list(so[0]), list(sn[0])
        for flower in nf[len(of):] if nf[:len(of)] == of else nf:
            out.append(FlowerSeen(seat=seat, tile=flower, **st))
        if sn[1] is not None and sn[1] != so[1]:
            out.append(CardSeen(seat=seat, card=sn[1], **st))
        return out
    if kind == "hand":
        ho, hn = cast(HandState, old), cast(HandState, new)
        if hn[1] and hn[1] != ho[1]:
            out.append(TilesRevealed(seat=seat, tiles=tuple(hn[1]), **st))
        return out
    if kind == "stick":
        if cast(StickState, new)[0] and not cast(StickState, old)[0]:
            out.append(StickSeen(seat=seat, kind="riichi", **st))
        return out
    return out


def unsure(zone: str, state: ZoneState) -> bool:
    """Whether a zone's reading holds a tile the reader could not read (``unknown``) or a set the rules cannot
    make of its tiles."""
    kind = zone[:-1]
    if kind == "pond":
        return any(p.tile == UNKNOWN for p in cast(PondState, state)[0])
    if kind == "meld":  # (a set of no kind: tiles the rules cannot make a set — two touching sets in a blur)
        return any(UNKNOWN in m.tiles or m.kind == UNKNOWN for m in cast(MeldState, state)[0])
    if kind == "side":
        return UNKNOWN in cast(SideState, state)[0]
    if kind == "hand":
        return UNKNOWN in cast(HandState, state)[1]
    return False


def _fill_unread(prev: HandState, cur: HandState) -> HandState | None:
    """Two readings of a revealed hand that agree on every place both read (the same count, no place read as two
    faces), as one: a place one could not read takes the face the other gave it (each is the reader's sure
    answer for that tile; a hand laid down does not change face). Fourteen tiles a frame, a frame seldom reads
    all of them: sichuan-mpl2025 seed 11 hand 190, three frames each with another place unread, the judge was
    asked about a 4m the frame before had read. None where they disagree, or where neither holds an unread tile
    the other read."""
    (n0, a), (n1, b) = prev, cur
    if n0 != n1 or len(a) != len(b) or a == b:
        return None
    if any(x != y and UNKNOWN not in (x, y) for x, y in zip(a, b)):
        return None
    return (n1, tuple(x if y == UNKNOWN else y for x, y in zip(a, b)))


def _turned_up(old: tuple[str, ...], new: tuple[str, ...]) -> bool:
    """A face-down tile of a set now shows its face (a concealed kong turned up at the reveal): a change,
    not a misread."""
    return any(a == "x" and b != "x" for a, b in zip(old, new))


class Tracker:
    """Per-zone debouncing and event generation for one table."""

    def __init__(self, profile: str, n_seats: int = 4, debounce: int = 2):
        self.profile = profile
        self.debounce = debounce
        self.stable = Scene(profile, tuple(SeatView() for _ in range(n_seats)))
        # ponds first: a claimed tile leaving a pond is known before the set it went to
        self.zones = ["centre"] + [f"{k}{s}" for k in ZONE_FIELDS for s in range(n_seats)]
        self._cand: dict[str, _Candidate | None] = {z: None for z in self.zones}
        self._pond_order: dict[int, list[str]] = {s: [] for s in range(n_seats)}
        self._last_removed: tuple[int, str] | None = None
        self._cloth_since: dict[str, float] = {}  # pond zone -> since when its last known tiles read as cloth
        self._none_since: dict[str, float] = {}  # pond zone -> since when its stable reading holds a none place
        self._t = 0.0  # the latest frame's time

    def _cloth_gone(self, zone: str, o: tuple[PondTile, ...], n: tuple[PondTile, ...], t: float) -> int:
        """How many of the last known tiles of a pond have read as bare cloth for :data:`CLOTH_GONE_S`: they are
        gone (their places keep no face)."""
        k = j = min(len(o), len(n))
        while j > 0 and n[j - 1].tile == NONE and o[j - 1].tile not in UNREAD:
            j -= 1
        if j == k or k < len(o):
            self._cloth_since.pop(zone, None)
            return 0
        self._cloth_since.setdefault(zone, t)
        return k - j if self._cloth_due(zone, t) else 0

    def _cloth_due(self, zone: str, t: float) -> bool:
        """Whether a pond's last tiles have read as bare cloth for :data:`CLOTH_GONE_S` by ``t``."""
        since = self._cloth_since.get(zone)
        return since is not None and t - since >= CLOTH_GONE_S

    def _keep_identities(self, zone: str, cur: ZoneState, old: ZoneState, t: float) -> ZoneState:
        """A tile lying in a pond, a set or among the flowers set aside does not change face: where a
        re-reading differs only in the labels of tiles already there (same places, same sideways flags),
        keep the stable labels, so one misread in a later frame is not a removal and a new discard (or a
        new flower: an 8f read 5f later on would be a flower replaced out of turn). A stable ``unknown`` (or
        ``none``: an arm's even brown read as cloth) in a pond takes the face a new reading gives it (read
        under an arm, the tile shows once the arm moved on:
        :func:`diff_events` tells it as that tile seen in its place). The last tiles of a pond read as bare
        cloth a while are gone (:meth:`_cloth_gone`)."""
        kind = zone[:-1]
        if kind == "pond" and conventions(self.profile).pond_layout == "rows6":
            o, n = cast(PondState, old)[0], cast(PondState, cur)[0]
            k = min(len(o), len(n))
            if [p.sideways for p in o[:k]] == [p.sideways for p in n[:k]]:
                kept = tuple(b if a.tile in UNREAD and b.tile not in UNREAD else a for a, b in zip(o[:k], n[:k]))
                gone = self._cloth_gone(zone, o, n, t)
                return (kept[:k - gone] + tuple(n[k - gone:]),)
        if kind == "side":  # flowers set aside stay as they lie (a card may still turn up); bare cloth after
            so, sn = cast(SideState, old), cast(SideState, cur)  # them is no flower (an arm over the row taken for
            k = min(len(so[0]), len(sn[0]))  # cloth: mcr seed 11 hand 87)
            return (tuple(so[0][:k]) + tuple(t for t in sn[0][k:] if t != NONE), sn[1])
        if kind == "meld":
            mo, mn = cast(MeldState, old)[0], cast(MeldState, cur)[0]
            out: list[MeldView] = []
            for i, m in enumerate(mn):
                if i < len(mo) and (len(mo[i].tiles), mo[i].sideways, mo[i].added, mo[i].kind) == (
                        len(m.tiles), m.sideways, m.added, m.kind) and not _turned_up(mo[i].tiles, m.tiles):
                    out.append(mo[i])
                else:
                    out.append(m)
            return (tuple(out),)
        return cur

    def _needed(self, zone: str, state: ZoneState) -> int:
        """The frames a zone's new reading must be seen in: a revealed hand that holds an unread tile waits
        :data:`HAND_UNREAD_FRAMES` (re-read every frame, :meth:`unsettled`; each place takes the face any of
        them gives it, :func:`_fill_unread`) before it is told with the tile unread and the judge asked."""
        if zone.startswith("hand") and unsure(zone, state):
            return max(self.debounce, HAND_UNREAD_FRAMES)
        return self.debounce

    def unsettled(self) -> set[str]:
        """Zones to read again at the next frame whatever their image: a new reading that holds an unread
        tile is confirmed only by reading it again, not by a frame that looks the same — the frame it came
        from may have been the odd one (a blurred frame: its tiles unread, the next sharp one differs too
        little to count as a change). A pond whose last tiles read as bare cloth is read again until they
        are gone (:data:`CLOTH_GONE_S`) or show a face: one reading of a frame that looks the same after it
        is no second (sichuan-wmsg seed 11 hand 2: an 8p read as cloth once, under a shadow, was gone 3.5 s
        later without another look)."""
        return {z for z, c in self._cand.items() if c is not None and c.count < self._needed(z, c.state)
                and unsure(z, c.state) and c.state != zone_state(self.stable, z)} | set(self._cloth_since) | {
            z for z, since in self._none_since.items() if self._t - since < NONE_REREAD_S}

    def update(self, scene: Scene, *, frame: int, t_mono: float, t_wall: float = 0.0,
               read: Set[str] | None = None, untrusted: Set[str] = frozenset()) -> list[ObservationEvent]:
        """Feed one frame's parse. ``read``: zones re-read this frame (None = all); zones not re-read and
        trusted confirm their candidate; ``untrusted`` zones reset theirs."""
        events: list[ObservationEvent] = []
        for z in self.zones:
            if z in untrusted:
                self._cand[z] = None
                continue
            cur = self._keep_identities(z, zone_state(scene, z), zone_state(self.stable, z), t_mono)
            c = self._cand[z]
            if read is None or z in read:
                both = _fill_unread(cast(HandState, c.state), cast(HandState, cur)) \
                    if c is not None and z.startswith("hand") else None
                if c is not None and both is not None:  # a revealed hand read again, other places unread
                    c.state = both
                    c.count += 1
                elif c is not None and c.state == cur:
                    c.count += 1
                else:
                    c = self._cand[z] = _Candidate(cur, frame, t_mono, t_wall)
            elif c is not None and c.state != cur and self._cloth_due(z, t_mono):  # confirmed by the time it read so
                c = self._cand[z] = _Candidate(cur, frame, t_mono, t_wall, count=self.debounce)
            elif c is not None:
                if not (c.state != zone_state(self.stable, z) and unsure(z, c.state)):
                    c.count += 1  # (an unread tile is confirmed by a second reading only: see unsettled)
            else:
                c = self._cand[z] = _Candidate(cur, frame, t_mono, t_wall)
            old = zone_state(self.stable, z)
            if c.count >= self._needed(z, c.state) and c.state != old:
                seat = int(z[-1]) if z != "centre" else -1
                evs = diff_events(self.profile, z, old, c.state, t_mono=c.t_mono, t_wall=c.t_wall, frame=c.frame,
                                  pond_order=self._pond_order.get(seat), last_removed=self._last_removed)
                for e in evs:
                    if isinstance(e, PondTileRemoved):
                        self._last_removed = (e.seat, e.tile)
                events += evs
                self.stable = _set_zone(self.stable, z, c.state)
        self._t = t_mono
        self._note_none_places(t_mono)
        events.sort(key=lambda e: (e.t_mono, e.frame))
        return events

    def _note_none_places(self, t: float) -> None:
        """Which ponds' stable readings hold a place read as cloth, and since when (:data:`NONE_REREAD_S`)."""
        for seat, v in enumerate(self.stable.seats):
            z = f"pond{seat}"
            if any(p.tile == NONE for p in v.pond):
                self._none_since.setdefault(z, t)
            else:
                self._none_since.pop(z, None)


def scene_events(profile: str, scenes: list[tuple[Scene, int, float]]) -> list[ObservationEvent]:
    """The events of a sequence of exact scenes ``(scene, frame, t_mono)`` (ground truth for tests)."""
    tr = Tracker(profile, len(scenes[0][0].seats) if scenes else 4, debounce=1)
    out: list[ObservationEvent] = []
    for sc, fr, t in scenes:
        out += tr.update(sc, frame=fr, t_mono=t)
    return out

