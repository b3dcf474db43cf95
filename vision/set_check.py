"""The check before an enrolled set is accepted: the faces that are **missing** (no crop) and the pairs of faces
that are **doubtful** (too alike for the network to tell apart surely).

* *Missing*: an expected face (the faces of the whole-set layout's pages 1 and 2 -- every suit and honour, and
  the back --, or the faces a rule profile plays with) without one crop. Such a face is ruled out by the set:
  the table would never read it.
* *Doubtful*: two faces A and B of the set where, leaving each enrolled crop out of its own face's prototypes,
  some crop of A is nearer B's prototypes than its own (a *left-out confusion*), or where the set's own
  prototypes of A and B are so alike (:attr:`~vision.tileset.TileSet.closeness` c) that a crop as like its own
  face as the set's crops are (the set's match level) would be less than :data:`DOUBT_MARGIN` nearer its face
  than the other -- the margin the reader needs at the least to take an answer (``SURE_MARGIN_FLOOR``): the
  table would ask about those faces however well they are laid.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from vision.tile_labels import BACK, CLASS_LABELS, FLOWERS, HONOURS, JOKER, RED_FIVES, SUITED

if TYPE_CHECKING:
    from vision.tile_classifier import TileClassifier
    from vision.tileset import TileSet

#: How much nearer its own face than the next a crop at the set's match level must be (the reader's least
#: margin for a sure answer, :data:`vision.tile_classifier.SURE_MARGIN_FLOOR`).
DOUBT_MARGIN = 0.12


@dataclass(frozen=True)
class Doubt:
    """Two faces too alike: their prototypes' ``closeness``, and ``confused`` of ``reads`` left-out reads of
    their crops (each crop in its four quarter turns) nearer the other face than their own."""

    a: str
    b: str
    closeness: float
    confused: int
    reads: int

    def text(self) -> str:
        why = [f"{self.confused} of {self.reads} left-out reads nearer the other"] if self.confused else []
        return f"{self.a}/{self.b} ({', '.join([f'{self.closeness:.2f} alike'] + why)})"

    def text_ru(self) -> str:
        why = [f"{self.confused} из {self.reads} проверок ближе к другой"] if self.confused else []
        return f"{self.a}/{self.b} ({', '.join([f'похожи на {self.closeness:.2f}'] + why)})"


@dataclass(frozen=True)
class SetCheck:
    missing: tuple[str, ...]
    doubtful: tuple[Doubt, ...]

    @property
    def ok(self) -> bool:
        return not self.missing and not self.doubtful

    def lines(self) -> list[str]:
        """One line each for the missing faces and the doubtful pairs (none where there are none)."""
        out = []
        if self.missing:
            out.append(f"missing: {' '.join(self.missing)} (no crop: lay them in their cells and take the page again)")
        if self.doubtful:
            out.append("doubtful: " + ", ".join(d.text() for d in self.doubtful)
                       + " (the table will ask about these faces)")
        return out

    def lines_ru(self) -> list[str]:
        out = []
        if self.missing:
            out.append(f"нет костей: {' '.join(self.missing)} (ни одного снимка: положите их на места и снимите "
                       "страницу ещё раз)")
        if self.doubtful:
            out.append("сомнительные: " + ", ".join(d.text_ru() for d in self.doubtful)
                       + " (стол будет спрашивать об этих костях)")
        return out


def expected_faces(profile: str | None = None) -> tuple[str, ...]:
    """The faces a set must hold: every suit, honour and the back; with a rule ``profile``, the faces it
    plays with (its suits and honours, red fives, flowers, jokers) and the back."""
    if profile is None:
        return tuple(SUITED + HONOURS + [BACK])
    from rules.profiles import registry

    p = registry.get(profile)
    faces = [lab for lab in SUITED + HONOURS if lab[-1] in p.suits]
    faces += RED_FIVES if p.allows_red_fives else []
    faces += FLOWERS if p.allows_flowers else []
    faces += [JOKER] if p.allows_jokers else []
    return tuple(faces + [BACK])


def _unit(x: np.ndarray) -> np.ndarray:
    out: np.ndarray = x / np.maximum(np.linalg.norm(x, axis=-1, keepdims=True), 1e-6)
    return out


def left_out_confusions(classifier: TileClassifier, ts: TileSet, examples: Mapping[str, Sequence[np.ndarray]]
                        ) -> tuple[dict[tuple[str, str], int], dict[str, int]]:
    """Each enrolled crop in its four quarter turns, matched against the set's prototypes with its own face's
    built without it (the crops' plain embeddings, one a quarter turn): ``{(truth, nearest), n}`` where the
    nearest face is another, and the reads per face. Faces with one crop cannot be left out."""
    faces = [lab for lab in ts.labels if lab != BACK and len(examples.get(lab, ())) >= 2]
    confused: dict[tuple[str, str], int] = {}
    reads: dict[str, int] = {}
    others = [i for i, lab in enumerate(ts.labels) if lab != BACK]
    for lab in faces:
        crops = examples[lab]
        turns = [np.ascontiguousarray(np.rot90(c, k)) for k in range(4) for c in crops]
        emb = classifier.embed(turns).reshape(4, len(crops), -1)  # (turn, crop, D)
        total = emb.sum(axis=1)  # (turn, D)
        own = ts.labels.index(lab)
        rest = [i for i in others if i != own]
        rest_protos = ts.prototypes[rest]  # (P-1, M, D)
        for i in range(len(crops)):
            loo = _unit(total - emb[:, i])  # (turn, D): the face's prototypes without crop i
            for k in range(4):
                e = emb[k, i]
                s_own = float((loo @ e).max())
                s_rest = np.einsum("pmd,d->pm", rest_protos, e).max(axis=1)
                j = int(np.argmax(s_rest))
                reads[lab] = reads.get(lab, 0) + 1
                if s_rest[j] >= s_own:
                    pair = (lab, ts.labels[rest[j]])
                    confused[pair] = confused.get(pair, 0) + 1
    return confused, reads


def doubtful_pairs(ts: TileSet, confused: Mapping[tuple[str, str], int] | None = None,
                   reads: Mapping[str, int] | None = None) -> list[Doubt]:
    """The set's doubtful pairs of faces (module doc), most alike first."""
    level = ts.match_level or 0.95
    close = ts.closeness
    faces = [lab for lab in ts.labels if lab != BACK]
    confused, reads = dict(confused or {}), dict(reads or {})
    out = []
    for x, a in enumerate(faces):
        for b in faces[x + 1:]:
            c = float(close[CLASS_LABELS.index(a), CLASS_LABELS.index(b)])
            n = confused.get((a, b), 0) + confused.get((b, a), 0)
            if n or level - c < DOUBT_MARGIN:
                out.append(Doubt(a, b, c, n, reads.get(a, 0) + reads.get(b, 0)))
    return sorted(out, key=lambda d: (-d.confused, -d.closeness))


def check_set(ts: TileSet, expected: Iterable[str], classifier: TileClassifier | None = None,
              examples: Mapping[str, Sequence[np.ndarray]] | None = None) -> SetCheck:
    """The set's missing faces (of ``expected``) and doubtful pairs; the left-out reads where ``classifier``
    and the enrolled ``examples`` are given, else the prototypes' closeness alone."""
    have = set(ts.labels)
    missing = tuple(lab for lab in expected if lab not in have)
    confused, reads = (left_out_confusions(classifier, ts, examples) if classifier is not None and examples
                       else ({}, {}))
    return SetCheck(missing, tuple(doubtful_pairs(ts, confused, reads)))
