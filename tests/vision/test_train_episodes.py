"""Few-shot training episodes: one style per episode, every class of it, support before query."""
from __future__ import annotations

import numpy as np

from vision.train.episodes import Episodes


def _data():
    rng = np.random.default_rng(0)
    style = np.concatenate([np.full(300, 0), np.full(120, 11), np.full(40, -1)])  # two styles + none crops
    y = np.concatenate([rng.integers(0, 10, 300), rng.integers(3, 8, 120), np.full(40, 47)])
    y[:10] = np.arange(10)  # every class of style 0 present
    y[300:305] = np.arange(3, 8)
    perm = rng.permutation(len(y))
    return y[perm], style[perm]


def test_an_episode_holds_every_class_of_one_style_support_first():
    y, style = _data()
    ep = Episodes(y, style, support=2, query=1)
    rng = np.random.default_rng(1)
    seen_styles = set()
    for _ in range(40):
        idx, n_classes = ep.draw(rng)
        assert len(idx) == n_classes * 3
        assert len(set(style[idx])) == 1  # one style, never the none crops
        sid = int(style[idx][0])
        seen_styles.add(sid)
        blocks = y[idx].reshape(n_classes, 3)
        assert (blocks == blocks[:, :1]).all()  # support and query of a block are one class
        assert sorted(blocks[:, 0]) == sorted(set(y[style == sid]))  # every class of the style, once
    assert seen_styles == {0, 11}


def test_a_class_with_fewer_crops_than_an_episode_needs_is_drawn_with_replacement():
    y = np.array([0, 0, 0, 1])
    style = np.zeros(4, int)
    idx, n = Episodes(y, style, support=2, query=2).draw(np.random.default_rng(0))
    assert n == 2 and list(y[idx]) == [0, 0, 0, 0, 1, 1, 1, 1]
