"""Claims on a discard: who may claim what, the claim window, arbitration and call corrections
(001 «Объявление со сноса», «Панг», «Чоу», «Иерархия объявлений», «Правила взятия и сноса» 2, 4–5,
«Джокеры» 2, «Морское дно и речное дно» 3, «Неправильные объявления» 1–4; spec §4.2–§4.4, §8.3).

Pure functions over a small description of what happened around one discard; the game machine turns
its log into :class:`Claim` objects.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from rules.events import as_int
from rules.notation import Meld, MeldKind, parse_tiles
from rules.profiles.red.seating import seats
from rules.scoring import JSONObject, JSONValue
from rules.tiles import Tile
from rules.wall import next_seat, prev_seat, turn_distance

WIN, PUNG, CHOW = "win", "pung", "chow"
RANK = {WIN: 0, PUNG: 1, CHOW: 2}

# Timing of a claim relative to the other players' actions on the same discard.
TIMELY = "timely"
AFTER_SET_EXPOSED = "after_set_exposed"  # called after a chow/pung claimant exposed its set
AFTER_SET_DISCARD = "after_set_discard"  # ... after that claimant exposed and discarded
AFTER_NEXT_DRAW = "after_next_draw"  # called after the next player drew (not yet discarded)
AFTER_NEXT_DISCARD = "after_next_discard"  # the next player drew and discarded: the discard is dead

# reasons (the vectors' words)
R_JOKER = "a discarded joker cannot be claimed"
R_DEAD = "dead hand"
R_CLOSED = "window closed"
R_LATE = "late"
R_NOT_LEFT = "not from left player"
R_RIVER = "river bottom"
R_TOUCHED = "touched live wall"
R_SILENT = "not called aloud"
R_OUTRANKED = "outranked"
R_ILLEGAL = "not a legal set"
R_SELF = "own discard"


@dataclass(frozen=True)
class Claim:
    """One claim on the discard.

    ``called``: spoken aloud (001 §Объявление со сноса 5); ``timing``: see the constants; ``exposed`` /
    ``discarded``: how far a pung/chow claimant got; ``touched_wall``: the claimant (the next player) had
    touched or drawn from the live wall first; ``dead``: the claimant's hand is dead; ``tiles_from_hand``:
    the two tiles shown for a pung/chow (optional; checked when given).
    """

    seat: int
    type: str
    called: bool = True
    timing: str = TIMELY
    exposed: bool = False
    discarded: bool = False
    touched_wall: bool = False
    dead: bool = False
    tiles_from_hand: tuple[Tile, ...] = ()
    concealed_before: tuple[Tile, ...] = ()

    @staticmethod
    def from_vector(d: Mapping[str, JSONValue]) -> Claim:
        """From the vectors' ``{seat, type, events}`` form."""
        ev = [str(e) for e in _strings(d.get("events"))]
        timing = TIMELY
        if "called_after_chow_exposed" in ev:
            timing = AFTER_SET_EXPOSED
        if "called_after_chow_discard" in ev:
            timing = AFTER_SET_DISCARD
        if any(e.startswith("called_after_seat") and e.endswith("_draw") for e in ev):
            timing = AFTER_NEXT_DRAW
        if any(e.startswith("called_after_seat") and e.endswith("_discard") for e in ev):
            timing = AFTER_NEXT_DISCARD
        return Claim(
            seat=as_int(d["seat"]),
            type=str(d["type"]),
            called="exposed_without_call" not in ev,
            timing=timing,
            exposed="exposed" in ev or "exposed_without_call" in ev,
            discarded="discarded" in ev,
            touched_wall="touched_wall" in ev or "drew" in ev,
            dead=d.get("claimant_hand") == "dead",
            tiles_from_hand=tuple(parse_tiles(" ".join(_strings(d.get("tiles_from_hand"))))),
            concealed_before=tuple(parse_tiles(str(d.get("concealed_before", "")))),
        )


def _strings(v: JSONValue) -> list[str]:
    return [str(x) for x in v] if isinstance(v, list | tuple) else []


@dataclass
class Arbitration:
    awarded: Claim | None = None
    rejected: list[tuple[Claim, str]] = field(default_factory=list)
    exposed: Meld | None = None
    remaining_in_hand: tuple[Tile, ...] = ()
    next_turn: int | None = None
    drawn_tile_returned_to_wall: bool = False
    hand_result: str | None = None  # "draw" when the river bottom is not won

    def to_json(self) -> JSONObject:
        aw: JSONObject | None = None
        if self.awarded is not None:
            aw = {"seat": self.awarded.seat, "type": self.awarded.type}
            if self.exposed is not None:
                aw["exposed"] = str(self.exposed)
            if self.remaining_in_hand:
                aw["remaining_in_hand"] = [str(t) for t in self.remaining_in_hand]
        return {
            "awarded": aw,
            "rejected": [{"seat": c.seat, "type": c.type, "reason": r} for c, r in self.rejected],
            "next_turn": self.next_turn,
            "drawn_tile_returned_to_wall": self.drawn_tile_returned_to_wall,
            "hand_result": self.hand_result,
        }


def claim_meld(claim: Claim, discard: Tile) -> tuple[Meld | None, tuple[Tile, ...]]:
    """The exposed set of a pung/chow claim and what stays concealed of ``concealed_before``
    (001 §Панг 1, 3; §Чоу 1; spec A12: jokers from the hand may join the natural discard)."""
    shown = list(claim.tiles_from_hand)
    rest = list(claim.concealed_before)
    if not shown and rest:  # take two matching tiles from the concealed ones
        want = [t for t in rest if t.kind == discard.kind] if claim.type == PUNG else []
        shown = want[:2]
    for t in shown:
        if t in rest:
            rest.remove(t)
    if len(shown) != 2:
        return None, tuple(rest)
    try:
        m = Meld.build([discard, *shown])
    except ValueError:
        return None, tuple(rest)
    want_kind = MeldKind.PUNG if claim.type == PUNG else MeldKind.CHOW
    if m.kind is not want_kind or m.base is None:
        return None, tuple(rest)
    return m, tuple(rest)


def arbitrate(
    players: int,
    discarder: int,
    discard: Tile | str,
    claims: Iterable[Claim],
    river_bottom: bool = False,
) -> Arbitration:
    """Decide the claims on one discard (spec §4.4):

    * a joker can never be claimed (001 §Джокеры 2); the river bottom only for a win (§Морское дно 3),
      and a river-bottom joker not at all, so the hand is drawn;
    * dead hands claim nothing (§Перебор и недобор костей 3–4); the next player's claims lapse once
      they touched the live wall, but their win revives if another player claims (§Правила взятия 2);
    * the window closes when the next player drew and discarded (§Правила взятия 4); a pung called after
      a chow claimant exposed or discarded is late (§Иерархия 4); a win loses only once a set claimant
      exposed **and** discarded (§Иерархия, last paragraph; spec A7);
    * a chow only from the left player — the previous one in turn (§Чоу 1; spec A6);
    * claims not called aloud have no priority (§Иерархия 3);
    * award: the win nearest the discarder in turn order, then pung, then chow (§Иерархия 2).
    """
    if isinstance(discard, str):
        discard = Tile.parse(discard)
    out = Arbitration()
    cl = list(claims)
    if discard.is_joker:
        out.rejected = [(c, R_JOKER) for c in cl]
        if river_bottom:
            out.hand_result = "draw"
        return out
    nxt = next_seat(seats(players), discarder)
    live = _eligible(out, cl, players, discarder, discard, river_bottom, nxt)
    pool = _spoken(out, _timely(out, live))
    if pool:
        _award(out, pool, cl, players, discarder, discard, nxt)
    elif river_bottom:
        out.hand_result = "draw"
    return out


def _eligible(out: Arbitration, cl: list[Claim], players: int, discarder: int, discard: Tile, river_bottom: bool,
              nxt: int) -> list[Claim]:
    """The claims that may be made at all (the others rejected into ``out``, with their reason); the next
    player who touched the wall keeps only a win, and only if someone else claims (spec A8)."""
    live: list[Claim] = []
    touched: list[Claim] = []
    for c in cl:
        reason = _reject_reason(c, players, discarder, discard, river_bottom)
        if reason:
            out.rejected.append((c, reason))
        elif c.seat == nxt and c.touched_wall:
            touched.append(c)
        else:
            live.append(c)
    for c in touched:
        if c.type == WIN and live:
            live.append(c)
        else:
            out.rejected.append((c, R_TOUCHED))
    return live


def _timely(out: Arbitration, live: list[Claim]) -> list[Claim]:
    """Timeliness against a set claimant's progress (§Иерархия 4 and last paragraph; spec A7)."""
    set_claims = [c for c in live if c.type in (PUNG, CHOW)]
    chow_progressed = any(c.type == CHOW and (c.exposed or c.discarded) for c in set_claims)
    kept: list[Claim] = []
    for c in live:
        if c.type == PUNG and c.timing in (AFTER_SET_EXPOSED, AFTER_SET_DISCARD) and chow_progressed:
            out.rejected.append((c, R_LATE))
        elif c.type == WIN and c.timing == AFTER_SET_DISCARD:
            out.rejected.append((c, R_CLOSED))
        else:
            kept.append(c)
    return kept


def _spoken(out: Arbitration, kept: list[Claim]) -> list[Claim]:
    """Claims not called aloud have no priority when another was called (§Иерархия 3)."""
    spoken = [c for c in kept if c.called]
    pool = spoken if spoken else kept
    for c in kept:
        if c not in pool:
            out.rejected.append((c, R_SILENT))
    return pool


def _award(out: Arbitration, pool: list[Claim], cl: list[Claim], players: int, discarder: int, discard: Tile,
           nxt: int) -> None:
    """The win nearest the discarder in turn order, then pung, then chow (§Иерархия 2); the others outranked."""
    pool.sort(key=lambda c: (RANK[c.type], turn_distance(seats(players), discarder, c.seat)))
    win = pool[0]
    out.awarded = win
    for c in pool[1:]:
        out.rejected.append((c, R_OUTRANKED))
    if win.type in (PUNG, CHOW):
        out.exposed, out.remaining_in_hand = claim_meld(win, discard)
        out.next_turn = next_seat(seats(players), win.seat)
    next_drew = any(c.timing == AFTER_NEXT_DRAW or (c.seat == nxt and c.touched_wall) for c in cl)
    out.drawn_tile_returned_to_wall = next_drew  # §Правила взятия и сноса 5


def _reject_reason(c: Claim, players: int, discarder: int, discard: Tile, river_bottom: bool) -> str | None:
    if c.seat == discarder:
        return R_SELF
    if c.dead:
        return R_DEAD
    if c.timing == AFTER_NEXT_DISCARD:
        return R_CLOSED
    if river_bottom and c.type != WIN:
        return R_RIVER
    if c.type == CHOW and prev_seat(seats(players), c.seat) != discarder:
        return R_NOT_LEFT
    if c.type in (PUNG, CHOW) and (c.tiles_from_hand or c.concealed_before):
        if claim_meld(c, discard)[0] is None:
            return R_ILLEGAL
    return None


# ----------------------------------------------------------------------------------------------------------
# Wrong declarations — 001 §Неправильные объявления 1–4 (spec §8.3, A26)


def fix_exposure(discard: Tile | str, declared: str, exposed: Sequence[Tile | str],
                 concealed: Sequence[Tile | str]) -> tuple[Meld, tuple[Tile, ...]] | None:
    """A wrong exposure caught at once (item 1): the set of the declared kind the discard makes with the
    player's tiles, keeping as many of the wrongly exposed tiles as possible; and the exposed tiles that go
    back into the hand. None if the player holds no such set."""
    d = Tile.parse(discard) if isinstance(discard, str) else discard
    ex = [Tile.parse(t) if isinstance(t, str) else t for t in exposed]
    own = [Tile.parse(t) if isinstance(t, str) else t for t in concealed]
    best: tuple[int, Meld, tuple[Tile, ...]] | None = None
    for i in range(len(own)):
        for j in range(i + 1, len(own)):
            pair = (own[i], own[j])
            try:
                m = Meld.build([d, *pair])
            except ValueError:
                continue
            if m.kind.value != declared:
                continue
            keep = sum(1 for t in pair if t in ex)
            back = list(ex)
            for t in pair:
                if t in back:
                    back.remove(t)
            if best is None or keep > best[0]:
                best = (keep, m, tuple(back))
    return None if best is None else (best[1], best[2])


def correction_verdict(events: Sequence[str], exposed_valid: bool = True) -> JSONObject:
    """What a caller may still do about a pung/chow call, given what happened (items 2–4):

    * before any tile is exposed the call may be withdrawn or changed (items 2–3) — unless the caller
      discarded first and that discard was taken or the next player drew: then the set must be exposed;
    * an invalid exposed set found after the caller's discard was taken or the next player drew cannot be
      fixed: the hand is dead (item 4).
    """
    ev = set(events)
    late = bool(ev & {"next_player_drew", "discard_claimed"})
    exposed = bool(ev & {"exposed", "exposed_without_call"})
    out: JSONObject = {"penalty": None}
    if exposed:
        out["may_withdraw"] = False
        if not exposed_valid:
            out["correctable"] = not late
            out["hand"] = "dead" if late else "live"
        else:
            out["correctable"] = True
            out["hand"] = "live"
        return out
    if "discarded_before_exposing" in ev and late:
        out.update(may_withdraw=False, must_expose_declared_set=True, hand="live")
        return out
    out.update(may_withdraw=True, may_change=True, hand="live")
    return out


def set_is_valid(tiles: Sequence[Tile | str], declared: str) -> bool:
    ts = [Tile.parse(t) if isinstance(t, str) else t for t in tiles]
    try:
        m = Meld.build(ts)
    except ValueError:
        return False
    return m.kind.value == declared and m.base is not None
