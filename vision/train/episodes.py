"""Few-shot episodes for training the tile network's embedding (numpy only; the loss is in ``train.py``)."""
from __future__ import annotations

import numpy as np


class Episodes:
    """Few-shot episodes drawn inside one style: every class of the style gets ``support`` crops, whose
    mean embedding is its prototype, and ``query`` crops classified by the nearest prototype. This is
    enrollment in miniature; it teaches the embedding to keep what tells two faces of *one* set apart
    (colour, petal count, a corner index) even where the classifier head learns to ignore it across
    sets (a random style's 1f is any colour)."""

    def __init__(self, y: np.ndarray, style: np.ndarray, support: int = 2, query: int = 1) -> None:
        self.support, self.query = support, query
        self.groups: list[list[np.ndarray]] = []  # per style: per class present, the sample indices
        order = np.lexsort((y, style))
        ys, ss = y[order], style[order]
        for sid in np.unique(ss):
            if sid < 0:  # none crops belong to no style
                continue
            m = ss == sid
            idx, labs = order[m], ys[m]
            _, start = np.unique(labs, return_index=True)
            self.groups.append(np.split(idx, start[1:]))

    def draw(self, rng: np.random.Generator) -> tuple[np.ndarray, int]:
        """Indices (classes x (support + query), support first per class) and the number of classes."""
        g = self.groups[int(rng.integers(len(self.groups)))]
        k = self.support + self.query
        idx = np.stack([rng.choice(members, k, replace=len(members) < k) for members in g])
        return idx.reshape(-1), len(g)
