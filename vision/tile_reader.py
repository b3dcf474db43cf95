"""The table pipeline's tile reader: vision I's classifier with the table's own enrolled tile set(s).

    reader = SetReader([TileSet.load("table3.npz")])          # the default reader of the pipeline
    readings = reader.read(crops, allowed)                     # one Reading per upright crop

Each crop the tile finder cut (upright or upside-down in its owner's view) is read once by the network;
the class probabilities are combined with the set's prototypes (:meth:`TileClassifier.probabilities`),
restricted to the labels the zone allows (no face-down tile in a pond, only flowers among the flowers) and
renormalised. A :class:`~vision.tile_match.Reading` carries the label, its probability, whether the tile
lies upside-down, and the whole probability row, which the scene parser combines with the rules
(:mod:`vision.rules_prior`). :class:`SetReader` with no set reads with the base model alone.

A face the reader is not sure of is ``unknown`` (the referee asks; its probability row still goes to the rules
prior): the embedding must agree with the answer
(:meth:`TileClassifier.sure`: the nearest prototype is the answer by a margin, and the crop looks like the
set's own crops). A doubted face on a crop that looks like the set's tiles is read again in its other three
quarter turns (:meth:`SetReader._look_again`: the extra network passes go to the doubtful crops only), and the
embedding, nearly colour-blind, is checked against the inks of the set's own mean crops (:mod:`vision.ink`): an
answer that is a red five, a five or a flower (the faces a set draws as another face in other inks) whose crop's
inks are not the answered face's is asked instead, and a doubt between two such faces is decided by the inks
where they are clear. A running similarity of the crops read to the set (:class:`vision.set_watch.SetWatch`)
notices a set that is not the table's during play; while it says so, every face is ``unknown`` with an even
row (no face of the wrong set is taken, not even through a meld), and :meth:`SetReader.set_check` says why.

Reading is thread-safe (onnxruntime sessions are); the pipeline splits a frame's crops in two batches on
two threads, so the model is loaded with one onnxruntime thread.
"""
from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

import numpy as np

from vision.arrays import BoolArray, Float32Array, Float64Array, Image, IntArray
from vision.ink import InkSignature, ink_distance, ink_signatures
from vision.set_watch import SetCheck, SetWatch
from vision.tile_classifier import SURE_DROP, SURE_MARGIN, TRUST_LEVEL, TileClassifier
from vision.tile_labels import BACK, CLASS_LABELS, NONE, UNKNOWN
from vision.tile_match import Reading
from vision.tileset import TileSet, TileSetError

#: a crop whose nearest face prototype is less similar than this is no tile face of any set (a back, an arm,
#: a shadow; 0.25-0.45 measured): it tells the set watch nothing (another set's faces: 0.67-0.89)
WATCH_FLOOR = 0.55
#: a doubted face is looked at again (:meth:`SetReader._look_again`) where its crop's nearest face prototype is
#: within this of the set's match level (the table's own doubted tiles: 92 % of them; another set's: 38 %)
LOOK_DROP = 0.2
#: a face answer is taken only where its crop's inks are at most this far (:func:`vision.ink.ink_distance`) from
#: the answered face's mean enrolled crop (the tuning split's own tiles of six sets: median 0.005-0.02, 99.9 % under
#: 0.11, 2 of 2 892 over 0.14; another set's tiles taken for a face of the table's set: 0.17 and more)
INK_FAR = 0.14
#: ... or this far, for a face of faint ink (its mean crop's under GLARE_FAINT: kai's seasons 0.061-0.081), on a
#: crop clipped white by the lamp's glare (:data:`vision.ink.GLARE_BODY`: faint neutral ink reads coloured there;
#: kai's own seasons 0.15-0.29 from their mean crops, mcr seed 11 hand 5 asked four of them, hand 10 and red@3
#: hand 2 more; held-out sets' seasons taken for kai's 0.55 and more)
INK_FAR_GLARE = 0.35
GLARE_FAINT = 0.1
#: ... looked at for the faces the set draws as another of its faces in other inks (TileSet.ink_twins: a red
#: five and its five, the flowers) where the crop fits its face less closely than the set's own crops do (its
#: match level; another set's tiles taken for such a face: 0.017 below it at the nearest): on the tuning split every tile of another set taken for a face of the
#: table's set (250 of 250), and every wrong face of the own set (1: a red five for its five), was one of them;
#: and for every answer taken only by its clear margin (its crop far from the set's look: a peacock drawn where the
#: set enrolled a bamboo one, 0.57 to the joker and 0.3 ahead, inks 0.92 apart; the own set's such answers, under
#: glare, 0.04 at most); and where that face holds ink at all (a blank white dragon: none; kai's faces 0.1-0.15)
INK_MIN = 0.01
#: ... and a crop answered as such an inkless face (a blank white dragon) far from the set's look holds at most
#: this much ink (the styles' blank dragons: 0.0 on table crops; a stain over a face: 0.44)
INK_BLANK = 0.05
#: two faces whose inks are at least this far apart are told apart by them (:meth:`SetReader._inks_decide`;
#: kai's flowers 0.84-0.93 from one another, its red fives 0.92 from their fives)
INK_APART = 0.5


#: a doubt between faces that are not ink twins but drawn in other inks (classic's 5p and 5s: the embedding
#: holds them 0.84 alike under the lamp, a 0.135 margin where 0.15 is needed) is decided by the inks where the
#: crop's are the nearest face's closely (at most INK_CLOSE: the own set's median 0.005-0.02; another set's
#: tiles taken for a face of the table's set 0.17 and more) and at least INK_RIVAL from every rival's
#: (classic's 5p on the table: 0.02-0.04 from its 5p, 0.27-0.29 from its 5s)
INK_CLOSE = 0.07
INK_RIVAL = 0.2


@lru_cache(maxsize=4)
def pipeline_classifier(model: str | None = None) -> TileClassifier:
    """The tile model loaded once per process with one onnxruntime thread (shared by every pipeline)."""
    return TileClassifier.load(model, threads=1)


class SetReader:
    """Reads upright tile crops with the classifier and the enrolled sets ``tilesets`` (merged: a table
    that alternates two sets gives both)."""

    thread_safe = True
    crop_margin_px = 0

    def __init__(self, tilesets: Sequence[TileSet] = (), classifier: TileClassifier | None = None,
                 model: str | Path | None = None, guard: bool = True, second_look: bool = True):
        """``guard``: ask about faces the reader is not sure of, and watch for a wrong set (False: every crop
        read as its most probable class, as before vision IV -- the benchmark's comparison). ``second_look``: a
        doubted face is read again in its other quarter turns, and every face answer's inks are held to the
        answered face's (False: the vision IV reader of 27 Nov 2026 -- the benchmark's comparison)."""
        self.guard = guard
        self.second_look = second_look
        self.clf = classifier or pipeline_classifier(str(model) if model else None)
        self.sets = tuple(tilesets)
        self.tileset = TileSet.merge(self.sets) if self.sets else None
        if self.tileset is not None and self.tileset.model_id and self.clf.model_id \
                and self.tileset.model_id != self.clf.model_id:
            raise TileSetError(f"tile set {self.tileset.name!r} was enrolled with another model: enroll it again "
                               "('mahjong-table tiles enroll')")
        self._classes = np.array(CLASS_LABELS)
        self._none = CLASS_LABELS.index(NONE)
        self._faces = ~np.isin(self._classes, [NONE, BACK])
        self._masks: dict[frozenset[str], BoolArray] = {}
        level = self.tileset.match_level if self.tileset is not None else 0.0
        self.watch = SetWatch(level) if level > 0 and guard else None

    def use(self, tileset: TileSet) -> None:
        """Read with ``tileset`` from now on (the same set with what the table learned,
        :class:`vision.set_learner.SetLearner`); the set watch goes on."""
        self.tileset = tileset

    def set_check(self) -> SetCheck | None:
        """Whether the tiles in view still look like the enrolled set (None: no set, or one without a match
        level to compare with)."""
        return self.watch.check() if self.watch is not None else None

    @property
    def threshold(self) -> float:
        """The confidence below which an answer is ``unknown``: the set's own calibrated threshold, else the
        model's tile-set threshold (the base model's without a set)."""
        if self.tileset is None:
            return self.clf.threshold
        return self.tileset.threshold or self.clf.fusion.threshold

    @property
    def face(self) -> tuple[int, int, int] | None:
        """The set's face colour (BGR) where it is known: it sharpens the tile finder's masks."""
        return self.tileset.colour("face") if self.tileset is not None else None

    def _mask(self, ok: frozenset[str]) -> BoolArray:
        m = self._masks.get(ok)
        if m is None:
            m = self._masks[ok] = np.isin(self._classes, list(ok))
        return m

    def probabilities(self, crops: Sequence[Image]) -> tuple[Float32Array, Float32Array]:
        """Class probabilities (N, classes) with the sets, and orientation logits (N, 4), one pass a crop."""
        p, orient, _, _, _, _ = self._read(crops)
        return p, orient

    def _read(self, crops: Sequence[Image]
              ) -> tuple[Float32Array, Float32Array, Float32Array | None, BoolArray, Image, Float32Array]:
        """Probabilities, orientation logits, similarities to the prototypes, the blank-dragon mask, the
        network's input (for a second look) and the embeddings (the set watch's: one tile counted once)."""
        x = self.clf.prepare(list(crops))
        logits, orient, emb = self.clf.run_prepared(x)
        p, cos = self.clf.fused(logits, emb, self.tileset)
        blank = self.clf.blank_of(p, crops, self.tileset)
        return self.clf.apply_blank(p, blank), orient, cos, blank, x, emb

    def similarity(self, crops: Sequence[Image]) -> Float32Array | Float64Array:
        """Each crop's cosine similarity to its nearest enrolled prototype (N,): how much it looks like a face
        of the set (float64 NaN without a set)."""
        if self.tileset is None or not len(crops):
            return np.full(len(crops), np.nan)
        emb = self.clf.run_prepared(self.clf.prepare(list(crops)))[2]
        near: Float32Array = np.nanmax(self.tileset.similarities(emb), axis=1)
        return near

    def read(self, crops: Sequence[Image], allowed: Sequence[frozenset[str] | None] | None = None) -> list[Reading]:
        """The most probable allowed class of each crop (batched); ``Reading.probs`` is the renormalised row."""
        if not crops:
            return []
        p, orient, cos, blank, x, emb = self._read(crops)
        seen_face = self._faces[p.argmax(1)]  # before the zone's mask: a crop the reader itself takes for a face
        keep = None
        if allowed is not None:  # the zone priors, one mask per distinct label set
            keep = np.ones_like(p, bool)
            for ok in set(a for a in allowed if a is not None):
                keep[[i for i, a in enumerate(allowed) if a == ok]] = self._mask(ok)
            p = _renormalised(p, keep)
        up_down = orient.argmax(1) == 2
        if self.tileset is None or not self.guard or cos is None:
            return self._readings(p, up_down)
        near = np.where(self._faces[None, :] & ~np.isnan(cos), cos, -2.0).max(1)
        wrong_set = self.watch is not None and self.watch.wrong
        sure = self.clf.sure(p, cos, self.tileset, self.threshold, keep, blank)
        if self.second_look and not wrong_set:
            p, cos, sure = self._look_again(x, p, cos, keep, blank, sure, near)
            sure |= self._inks_decide(crops, p, cos, keep, self._faces[p.argmax(1)] & ~sure & ~blank)
            best = p.argmax(1)
            level = self.tileset.match_level or TRUST_LEVEL
            top1 = np.where(self._faces[None, :] & ~np.isnan(cos), cos, -2.0).max(1)
            twins = np.broadcast_to(self.tileset.ink_twins_within(keep), p.shape)  # (a five whose red five ...
            twin = twins[np.arange(len(best)), best] & (top1 < level)  # ... the zone allows; at the level: its own look)
            sure &= self._inks_agree(crops, best, sure & ~blank & (twin | (top1 < level - SURE_DROP)))
        face = self._faces[p.argmax(1)]
        unsure = face & ~sure
        if self.watch is not None:
            # a face at all (not a back or a shadow the zone's mask made a face): the watch's sample
            watched = face & seen_face & ~blank & (near >= WATCH_FLOOR)
            if self.watch.see(near[watched], emb[watched]):  # the tiles in view are not the set's: ask, read nothing
                unsure = face
                p = p.copy()
                p[face] = np.where(self._faces, 1.0, 0.0) / self._faces.sum()
        return self._readings(p, up_down, unsure)

    def _readings(self, p: Float32Array, up_down: BoolArray, unsure: BoolArray | None = None) -> list[Reading]:
        best = p.argmax(1)
        conf = p[np.arange(len(p)), best]
        labels = self._classes[best]
        if unsure is not None:
            labels = np.where(unsure, UNKNOWN, labels)
        flip = up_down & (best != self._none)
        return [Reading(str(lab), float(c), bool(u), q) for lab, c, u, q in zip(labels, conf, flip, p)]

    def _look_again(self, x: Image, p: Float32Array, cos: Float32Array, keep: BoolArray | None, blank: BoolArray,
                    sure: BoolArray, near: Float32Array) -> tuple[Float32Array, Float32Array, BoolArray]:
        """A face the reader doubts, on a crop that looks like the set's tiles at all (its nearest face prototype
        within :data:`LOOK_DROP` of the set's match level), is read again in its other three quarter turns and
        judged on the four reads' mean probabilities and similarities, by the same rule (the set holds a
        prototype per quarter turn: a blurred or tinted tile that one view leaves unsure is seldom unsure in all;
        kai's 3m at a 0.045 margin upright, 0.18-0.24 turned, 0.18 in the mean). Returns the probabilities,
        similarities (the mean where looked at again) and which answers are sure."""
        assert self.tileset is not None
        level = self.tileset.match_level or TRUST_LEVEL
        look = np.flatnonzero(self._faces[p.argmax(1)] & ~sure & ~blank & (near >= level - LOOK_DROP))
        if not len(look):
            return p, cos, sure
        turned = np.concatenate([np.rot90(x[look], k, axes=(1, 2)) for k in (1, 2, 3)])
        logits, _, emb = self.clf.run_prepared(np.ascontiguousarray(turned))
        pk, ck = self.clf.fused(logits, emb, self.tileset)
        assert ck is not None
        if keep is not None:
            pk = _renormalised(pk, np.tile(keep[look], (3, 1)))
        n = len(look)
        pa = (p[look] + pk[:n] + pk[n:2 * n] + pk[2 * n:]) * 0.25
        ca = (cos[look] + ck[:n] + ck[n:2 * n] + ck[2 * n:]) * 0.25
        again = self.clf.sure(pa, ca, self.tileset, self.threshold, None if keep is None else keep[look])
        took = again & self._faces[pa.argmax(1)]
        p, cos, sure = p.copy(), cos.copy(), sure.copy()
        p[look] = pa
        cos[look] = ca
        sure[look[took]] = True
        return p, cos, sure

    def _inks_decide(self, crops: Sequence[Image], p: Float32Array, cos: Float32Array, keep: BoolArray | None,
                     doubted: BoolArray) -> BoolArray:
        """Which doubted faces the inks decide: where every face within :data:`SURE_MARGIN` of the nearest is one
        the set draws as another in other inks (:attr:`TileSet.ink_twins`: kai's 1f and 3f, one flower in red
        and in yellow, 0.92 against 0.85), the nearest is the most probable, the crop looks like the set's own
        (within :data:`SURE_DROP` of its match level), its inks are the nearest face's (at most :data:`INK_FAR`)
        and at least :data:`INK_APART` from every other such face's, the answer is taken."""
        ts = self.tileset
        out = np.zeros(len(p), bool)
        if ts is None or ts.ink is None or not doubted.any():
            return out
        ok_cols = self._faces[None, :] & ~np.isnan(cos)
        c = np.where(ok_cols if keep is None else ok_cols & keep, cos, -2.0)
        first = c.argmax(1)
        top1 = c[np.arange(len(c)), first]
        rivals = c >= (top1 - SURE_MARGIN)[:, None]  # the nearest face and every face as near as a margin
        level = ts.match_level or TRUST_LEVEL
        twins_only = ~(rivals & ~np.broadcast_to(ts.ink_twins_within(keep), rivals.shape)).any(1)
        cand = np.flatnonzero(doubted & (first == p.argmax(1)) & (top1 >= level - SURE_DROP) & (rivals.sum(1) > 1))
        if not len(cand):
            return out
        d = _ink_distances(ink_signatures([crops[int(i)] for i in cand]), ts)  # (n, classes), inf where not held
        for j, i in enumerate(cand):
            others = np.flatnonzero(rivals[i])
            others = others[others != first[i]]
            if twins_only[i]:
                out[i] = d[j, first[i]] <= INK_FAR and bool((d[j, others] >= INK_APART).all())
            else:  # faces the embedding holds alike, drawn in other inks: the crop's are the answer's, closely
                out[i] = d[j, first[i]] <= INK_CLOSE and bool((d[j, others] >= INK_RIVAL).all())
        return out

    def _inks_agree(self, crops: Sequence[Image], best: IntArray, judged: BoolArray) -> BoolArray:
        """False for a face answer whose crop's inks are unlike those of the answered face's mean enrolled crop
        (:mod:`vision.ink`: more than :data:`INK_FAR` apart): the embedding is nearly colour-blind, and another
        set's tile -- or a red five for its plain five -- sits near a face of this set drawn in other inks."""
        ts = self.tileset
        ok = np.ones(len(best), bool)
        if ts is None or ts.ink is None:
            return ok
        rows = ts.rows[best]
        idx = np.flatnonzero(judged & self._faces[best] & (rows >= 0))
        if len(idx):
            sig = ink_signatures([crops[int(i)] for i in idx])
            inked = ts.ink.ink[rows[idx]] >= INK_MIN
            # a face with (next to) no ink has no inks to compare: the crop must hold none either (a stain
            # over a 2p, 0.68 to kai's blank 5z and nothing else near, was read as it: ink 0.44, a blank's 0.0)
            faint = ts.ink.ink[rows[idx]] < GLARE_FAINT
            far = np.where(sig.glare & faint, INK_FAR_GLARE, INK_FAR)
            ok[idx] = np.where(inked, ink_distance(sig, ts.ink, rows[idx]) <= far, sig.ink <= INK_BLANK)
        return ok


def _ink_distances(sig: InkSignature, ts: TileSet) -> Float64Array:
    """(N, classes) ink distance of each crop to each face's mean enrolled crop (inf for faces the set lacks)."""
    assert ts.ink is not None
    d = 0.5 * np.abs(sig.hist[:, None, :] - ts.ink.hist[None, :, :]).sum(2)  # (N, P)
    out = np.full((len(sig), len(CLASS_LABELS)), np.inf)
    held = ts.rows >= 0
    out[:, held] = d[:, ts.rows[held]]
    return out


def _renormalised(p: Float32Array, keep: BoolArray) -> Float32Array:
    """``p`` restricted to ``keep`` (the zone's labels) and renormalised."""
    q: Float32Array = np.where(keep, p, 0.0)
    out: Float32Array = q / np.maximum(q.sum(1, keepdims=True), 1e-12)
    return out
