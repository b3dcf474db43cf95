"""Scoring a parsed scene against the truth (tests and ``make bench``): structure compared exactly,
tile labels counted, plus the proof's rates (zone assignment, meld source, pond order)."""
from __future__ import annotations

from collections import Counter

from vision.conventions import conventions
from vision.scene_model import MeldView, PondTile, Scene, SeatView


def _mask(t: str) -> str:
    return t if t == "x" else "?"


def structure(scene: Scene) -> Scene:
    """The scene with every face label hidden (face-down tiles stay ``x``) and chow/pung merged, so that
    zone assignment, pond order and sideways flags, meld kinds, sideways places and sources compare
    exactly while tile identities are scored separately."""
    free = conventions(scene.profile).pond_layout == "free"
    seats = []
    for v in scene.seats:
        pond = tuple(PondTile("?", p.sideways) for p in v.pond)
        if free:
            pond = tuple(sorted(pond, key=lambda p: p.sideways))
        melds = tuple(MeldView("set3" if m.kind in ("chow", "pung") else m.kind, tuple(map(_mask, m.tiles)),
                               m.sideways, m.source, m.added) for m in v.melds)
        seats.append(SeatView(pond, melds, tuple(map(_mask, v.flowers)), v.standing, tuple(map(_mask, v.revealed)),
                              v.riichi_stick, v.card))
    return Scene(scene.profile, tuple(seats), scene.dice)


def label_errors(got: Scene, want: Scene) -> tuple[int, int]:
    """(wrong, total) face labels, per zone as multisets in free ponds, position by position elsewhere."""
    free = conventions(want.profile).pond_layout == "free"
    wrong = total = 0
    for a, b in zip(got.seats, want.seats):
        if free:
            total += len(b.pond)
            wrong += sum((Counter(p.tile for p in b.pond) - Counter(p.tile for p in a.pond)).values())
        else:
            total += len(b.pond)
            wrong += sum(p.tile != q.tile for p, q in zip(a.pond, b.pond)) + abs(len(a.pond) - len(b.pond))
        for x, y in ((a.flowers, b.flowers), (a.revealed, b.revealed)):
            total += len(y)
            wrong += sum(p != q for p, q in zip(x, y)) + abs(len(x) - len(y))
        for m, n in zip(a.melds, b.melds):
            total += len(n.tiles)
            wrong += sum(p != q for p, q in zip(m.tiles, n.tiles))
        total += sum(len(n.tiles) for n in b.melds[len(a.melds):])
        wrong += sum(len(n.tiles) for n in b.melds[len(a.melds):])
    return wrong, total


def label_outcomes(got: Scene, want: Scene) -> tuple[int, int, int, int]:
    """(right, asked, wrong, total) face labels: *asked* a tile read ``unknown`` (the referee asks), *wrong*
    a tile given a face that is not its own, or missed (not found, or read as no tile) -- a confident
    misread is what the table must never give. Counted as :func:`label_errors` counts."""
    free = conventions(want.profile).pond_layout == "free"
    right = asked = total = 0

    def pairs(xs: tuple[str, ...], ys: tuple[str, ...]) -> None:
        nonlocal right, asked, total
        total += len(ys)
        right += sum(p == q for p, q in zip(xs, ys))
        asked += sum(p == "unknown" and q != "unknown" for p, q in zip(xs, ys))

    for a, b in zip(got.seats, want.seats):
        if free:
            total += len(b.pond)
            right += sum((Counter(p.tile for p in b.pond) & Counter(p.tile for p in a.pond)).values())
            asked += min(sum(p.tile == "unknown" for p in a.pond), len(b.pond))
        else:
            pairs(tuple(p.tile for p in a.pond), tuple(p.tile for p in b.pond))
        pairs(a.flowers, b.flowers)
        pairs(a.revealed, b.revealed)
        for i, n in enumerate(b.melds):
            pairs(a.melds[i].tiles if i < len(a.melds) else (), n.tiles)
    return right, asked, total - right - asked, total


def rates(got: Scene, want: Scene) -> dict[str, tuple[int, int]]:
    """(right, total) for: tile labels, zone assignment (tiles found in the zone they lie in), meld source
    seats, pond order (ponds whose order and sideways flags are right)."""
    wrong, total = label_errors(got, want)
    out = {"tiles": (total - wrong, total)}
    zr = zt = 0
    for a, b in zip(got.seats, want.seats):
        for x, y in ((len(a.pond), len(b.pond)), (sum(len(m.tiles) for m in a.melds), sum(len(m.tiles) for m in b.melds)),
                     (len(a.flowers), len(b.flowers)), (len(a.revealed) or a.standing, len(b.revealed) or b.standing)):
            zt += y
            zr += min(x, y)
    out["zones"] = (zr, zt)
    sr = st = 0
    for a, b in zip(got.seats, want.seats):
        for i, m in enumerate(b.melds):
            if m.source is None:
                continue
            st += 1
            sr += i < len(a.melds) and a.melds[i].source == m.source
    out["meld_source"] = (sr, st)
    free = conventions(want.profile).pond_layout == "free"
    pr = pt = 0
    for a, b in zip(got.seats, want.seats):
        if not b.pond:
            continue
        pt += 1
        if free:
            pr += sorted(p.sideways for p in a.pond) == sorted(p.sideways for p in b.pond) and len(a.pond) == len(b.pond)
        else:
            pr += [p.sideways for p in a.pond] == [p.sideways for p in b.pond]
    out["pond_order"] = (pr, pt)
    return out
