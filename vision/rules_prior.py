"""What the rules allow, as a prior over the tile readings of one frame.

The scene parser reads every crop into class probabilities (:class:`vision.tile_reader.SetReader`) and then
asks this module what the table may hold:

* the profile's tile set (:func:`allowed_faces`): no jokers outside a profile with jokers, no flowers where
  the profile has none, no red fives or honours where its set has none -- read from the profile's public
  attributes (``allows_jokers``, ``allows_flowers``, ``allows_red_fives``, ``suits``);
* a declared set is a legal meld (:meth:`RulesPrior.meld`): a pung or kong of one face (a joker may stand
  in where the profile has jokers), a chow a run in one suit, the face-down tiles of a concealed kong only
  where the profile's convention lays them (:mod:`vision.conventions`); the most probable legal reading is
  chosen, and where the evidence conflicts -- a tile the legal reading needs is not what the camera sees --
  that tile is ``unknown`` (a question for the referee), never an illegal meld;
* at most four copies of a face (a red five counts as a five) and one of each flower are in view, counting
  the tiles the record already holds out of view (:meth:`RulesPrior.limit_copies`): a surplus copy is read
  as its next most probable face, or ``unknown``.

Readers without probabilities (the template reader) get a sharp distribution on their label.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import permutations
from typing import TYPE_CHECKING, TypeVar

import numpy as np

from vision.arrays import Float64Array, IntArray
from vision.conventions import conventions
from vision.tile_labels import BACK, CLASS_LABELS, FACE_LABELS, FLOWERS, JOKER, NONE, RED_FIVES, UNKNOWN

if TYPE_CHECKING:
    from vision.tile_match import Reading

IDX = {lab: i for i, lab in enumerate(CLASS_LABELS)}
#: A tile the legal reading needs is "seen" if the camera gives it at least this probability; below it, the
#: evidence conflicts and the tile is reported ``unknown``.
CONFLICT_P = 0.05
COPIES = 4
_K = TypeVar("_K", bound=Hashable)  # what a caller keys its tiles by (limit_copies)


@lru_cache(maxsize=32)
def allowed_faces(profile: str) -> frozenset[str]:
    """The face labels a profile's tile set holds (from the profile's public attributes; every face for a
    name the registry does not know)."""
    try:
        from rules.profiles import registry

        prof = registry.get(profile)
    except (LookupError, ValueError, ImportError):
        return frozenset(FACE_LABELS)
    suits = str(getattr(prof, "suits", "mpsz"))
    out = set()
    for lab in FACE_LABELS:
        if lab == JOKER:
            ok = bool(getattr(prof, "allows_jokers", True))
        elif lab in FLOWERS:
            ok = bool(getattr(prof, "allows_flowers", True))
        elif lab in RED_FIVES:
            ok = bool(getattr(prof, "allows_red_fives", True)) and lab[1] in suits
        else:
            ok = lab[1] in suits
        if ok:
            out.add(lab)
    return frozenset(out)


def face_of(label: str) -> str:
    """The face a label counts as for copies: a red five is a five."""
    return f"5{label[1]}" if label in RED_FIVES else label


def _probs(reading: Reading) -> Float64Array:
    p = reading.probs
    if p is not None:
        return np.asarray(p, np.float64)
    q = np.full(len(CLASS_LABELS), 0.02 / (len(CLASS_LABELS) - 1))
    q[IDX.get(reading.label, IDX[NONE])] = 0.98
    return q


@dataclass(frozen=True)
class MeldReading:
    kind: str  # chow / pung / kong_open / kong_concealed / kong_added / unknown (no legal set fits the tiles)
    tiles: tuple[str, ...]  # "x" face down, "unknown" where the evidence conflicts


class RulesPrior:
    """The rules of ``profile`` as a prior over readings (see the module docstring)."""

    def __init__(self, profile: str, faces: frozenset[str] | None = None):
        """``faces``: the tile set's faces instead of the profile's (e.g. every face, to check a set)."""
        self.profile = profile
        self.conv = conventions(profile)
        self.faces = allowed_faces(profile) if faces is None else faces
        self.jokers = JOKER in self.faces
        self._plain = sorted((lab for lab in self.faces if lab not in FLOWERS and lab != JOKER and lab not in RED_FIVES),
                             key=CLASS_LABELS.index)
        self._runs = [(f"{n}{s}", f"{n + 1}{s}", f"{n + 2}{s}") for s in "mps" for n in range(1, 8)
                      if f"{n}{s}" in self.faces]

    def restrict(self, allowed: frozenset[str]) -> frozenset[str]:
        """A zone's allowed labels within the profile's tile set (``back`` stays where the zone allows it)."""
        return frozenset(lab for lab in allowed if lab in self.faces or lab in (BACK, NONE))

    # ---- sets --------------------------------------------------------------------------------------

    def _options(self, face: str) -> tuple[str, ...]:
        """Labels that may lie where ``face`` is needed: the face, its red five, a joker."""
        opts = [face]
        if face[0] == "5" and face[1] in "mps" and f"0{face[1]}" in self.faces:
            opts.append(f"0{face[1]}")
        if self.jokers:
            opts.append(JOKER)
        return tuple(opts)

    @property
    def _tables(self) -> tuple[Float64Array, IntArray]:
        """(option matrix O (classes, plain faces): 1 where a label may stand for the face; chow index
        table (runs x 6 orders, 3) into the plain faces)."""
        if not hasattr(self, "_tab"):
            o = np.zeros((len(CLASS_LABELS), len(self._plain)))
            for j, face in enumerate(self._plain):
                for lab in self._options(face):
                    o[IDX[lab], j] = 1.0
            col = {f: j for j, f in enumerate(self._plain)}
            runs = [[col[f] for f in perm] for run in self._runs for perm in permutations(run)]
            self._tab = (o, np.array(runs, np.int64).reshape(-1, 3))
        return self._tab

    def meld(self, readings: Sequence[Reading], sideways: int | None, added: bool) -> MeldReading:
        """The most probable legal reading of a set lying in a row: ``readings`` left to right (an added
        kong's 4th tile last), ``sideways`` the index of the claimed tile (None: none), ``added`` whether
        a 4th tile lies beside the sideways one."""
        ps = np.stack([_probs(r) for r in readings]) if len(readings) else np.zeros((0, len(CLASS_LABELS)))
        n = len(ps)
        o, runs = self._tables
        a = np.log(np.maximum(ps @ o, 1e-12))  # (n, plain faces): log P(the tile may stand for the face)
        best: tuple[float, str, list[str | None]] | None = None  # score, kind, needed face or "x" per tile
        if n == 3 and not added and len(self._plain):
            pung = a.sum(0)
            j = int(np.argmax(pung))
            best = (float(pung[j]), "pung", [self._plain[j]] * 3)
            if len(runs):
                chow = a[np.arange(3), runs].sum(1)
                k = int(np.argmax(chow))
                if chow[k] > best[0]:
                    best = (float(chow[k]), "chow", [self._plain[i] for i in runs[k]])
        elif n == 4 and self.conv.kongs and len(self._plain):
            down: tuple[int, ...]
            if added:
                kind, down = "kong_added", ()
            elif sideways is not None:
                kind, down = "kong_open", ()
            else:
                kind, down = "kong_concealed", self.conv.concealed_kong_down
            lb = np.log(np.maximum(ps[:, IDX[BACK]], 1e-12))
            shown = [i for i in range(4) if i not in down or self.conv.concealed_kong_known]
            score = np.zeros(len(self._plain))
            for i in range(4):
                if i in down and not self.conv.concealed_kong_known:
                    score += lb[i]
                elif i in down:  # face down by the convention, or turned up: either is legal
                    score += np.logaddexp(a[i], lb[i])
                else:
                    score += a[i]
            j = int(np.argmax(score))
            need = [None if i in down and (i not in shown or lb[i] > a[i, j]) else self._plain[j] for i in range(4)]
            best = (float(score[j]), kind, need)
            if kind == "kong_concealed" and down and not self.conv.concealed_kong_known:
                up = a.sum(0)  # (MCR) laid face down in play, turned face up at the reveal: four of one face
                k = int(np.argmax(up))
                if up[k] > score[j]:
                    best = (float(up[k]), kind, [self._plain[k]] * 4)
        if best is None:
            seen = tuple("x" if (lab := CLASS_LABELS[int(np.argmax(p))]) == BACK else lab for p in ps)
            return MeldReading(UNKNOWN, seen)
        _, kind, need = best
        out = []
        for p, face in zip(ps, need):
            if face is None:  # face down
                out.append("x" if p[IDX[BACK]] >= CONFLICT_P else UNKNOWN)
                continue
            opts = self._options(face)
            lab = max(opts, key=lambda x: p[IDX[x]])
            out.append(lab if sum(p[IDX[x]] for x in opts) >= CONFLICT_P else UNKNOWN)
        return MeldReading(kind, self._settled(kind, out, [r.label != UNKNOWN for r in readings]))

    @staticmethod
    def _settled(kind: str, tiles: list[str], sure: Sequence[bool]) -> tuple[str, ...]:
        """A tile its reader was not sure of (read ``unknown``, its probabilities kept) is taken only where the
        meld's sure tiles fix its face: another sure tile of a pung or kong shows it, or a chow's two sure
        tiles are the run's ends. Else it stays ``unknown`` -- the rules choose among faces, they do not
        vouch for one the camera doubts (a wrong set's probabilities are confident and wrong)."""
        out = list(tiles)
        for i, t in enumerate(tiles):
            if sure[i] or t in ("x", UNKNOWN):
                continue
            others = [face_of(tiles[j]) for j in range(len(tiles))
                      if j != i and sure[j] and tiles[j] not in ("x", UNKNOWN, JOKER)]
            if kind == "chow":
                nums = sorted(int(f[0]) for f in others if f[1] == t[1])
                fixed = len(nums) == 2 and nums[1] - nums[0] == 2 and int(face_of(t)[0]) == nums[0] + 1
            else:
                fixed = t != JOKER and face_of(t) in others
            if not fixed:
                out[i] = UNKNOWN
        return tuple(out)

    def legal(self, kind: str, tiles: Sequence[str]) -> bool:
        """Whether a reported set is a legal meld of this profile (``unknown`` tiles may stand for any face,
        a joker for any face where the profile has jokers); a set of kind ``unknown`` is a question, legal."""
        if kind == UNKNOWN:
            return True
        if any(t not in IDX and t not in ("x", UNKNOWN) or t in IDX and t not in self.faces and t != BACK
               for t in tiles):
            return False
        shown = [face_of(t) for t in tiles if t not in ("x", UNKNOWN, JOKER)]
        if kind in ("pung", "chow"):
            if len(tiles) != 3 or "x" in tiles:
                return False
            if kind == "pung":
                return len(set(shown)) <= 1
            if any(f[1] not in "mps" for f in shown) or len({f[1] for f in shown}) > 1:
                return False
            nums = sorted(int(f[0]) for f in shown)
            return len(set(nums)) == len(nums) and (not nums or nums[-1] - nums[0] <= 2)
        if kind in ("kong_open", "kong_added", "kong_concealed"):
            if len(tiles) != 4 or not self.conv.kongs or len(set(shown)) > 1:
                return False
            down = [i for i, t in enumerate(tiles) if t == "x"]
            return not down or kind == "kong_concealed" and set(down) <= set(self.conv.concealed_kong_down)
        return False

    # ---- copies ------------------------------------------------------------------------------------

    def limit_copies(self, labels: Mapping[_K, str], readings: Mapping[_K, Reading],
                     known: Counter[str] | None = None) -> dict[_K, str]:
        """At most four copies of a face (one of each flower) among ``labels`` (any key -> label) plus
        ``known`` (tiles the record holds out of view): the surplus copies with the lowest probability of
        that face are read as their next most probable allowed face, or ``unknown``."""
        labels = dict(labels)
        for _ in range(8):  # a moved copy may overfill another face: a few rounds settle it
            count = Counter(face_of(lab) for lab in labels.values() if lab in IDX and lab not in (BACK, NONE))
            if known:
                count.update({face_of(k): v for k, v in known.items()})
            over = {f: c - (1 if f in FLOWERS else COPIES) for f, c in count.items()
                    if f != JOKER and c > (1 if f in FLOWERS else COPIES)}
            if not over:
                break
            for face, extra in over.items():
                keys = [k for k, lab in labels.items() if lab in IDX and face_of(lab) == face]
                keys.sort(key=lambda k: _probs(readings[k])[IDX[labels[k]]])
                for k in keys[:extra]:
                    p = _probs(readings[k]).copy()
                    for lab in CLASS_LABELS:
                        if lab in (BACK, NONE) or face_of(lab) == face or lab not in self.faces:
                            p[IDX[lab]] = 0.0
                    j = int(np.argmax(p))
                    labels[k] = CLASS_LABELS[j] if p[j] >= CONFLICT_P else UNKNOWN
        return labels
