"""The colours of a tile's ink, as a signature that a lamp's colour cast does not change.

    sig = ink_signatures(crops)                 # InkSignature: (N, BINS + 1) histograms and the ink per crop
    d = ink_distance(sig, tileset.ink, rows)    # (N,) how unlike each crop's inks are those of a face's mean crop

The network's embedding is nearly colour-blind: a face drawn as another face of the set in other inks (a red
five and its plain five, the flowers of one picture in four colours, another set's tiles among the table's own)
sits as near the prototype as the table's own tile does. The inks tell them apart, and the set holds each face's
mean enrolled crop (:attr:`vision.tileset.TileSet.faces`), so a crop's inks can be compared with the answered
face's (:class:`vision.tile_reader.SetReader`).

Each crop is taken at 20 x 15 px; its body colour is, per channel, the brightest fifth of its pixels (the
darkest fifth on a dark body: ``fluffy_black``) -- a ring just inside the edge lands on the glyphs of a face
as full as ``fluffy``'s 5p. Every pixel of its inner 80 % is measured as *relative absorption*
``1 - pixel / body`` per channel (on a dark body ``(pixel - body) / (256 - body)``: the ink is lighter): a
white-balance gain scales a pixel and its body alike, so the lamp's colour cast drops out. Black ink absorbs
the three channels alike; a coloured ink some more than others, in a direction -- its *ink hue* -- that names
its colour. The signature is the histogram of the ink's hue (:data:`BINS` bins, soft-binned) with one bin for
neutral (black, grey) ink, each pixel weighted by how strongly it absorbs and shared between the neutral bin and
its hue by its chroma (all neutral under :data:`NEUTRAL_LO`, all hue over :data:`NEUTRAL_HI`: a dark navy dot
is neither), each hue bin sharing a quarter with either neighbour (:data:`SMOOTH`), normalised to one; the distance of two signatures is their total variation (0: the same inks in
the same shares, 1: none in common). No glyph's place is compared, only the inks' colours, so a crop cut a
little off-centre, turned or blurred keeps its signature. Measured on six sets' table crops (tuning split,
docs/vision-model.md): the set's own red fives, fives and flowers 0.005-0.02 from their face (median), 99.9 %
under 0.11; another set's tiles taken for such a face of the table's set 0.17 and more. About 40 us a crop.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.arrays import BoolArray, Float32Array, Image, IntArray
from vision.tile_preprocess import to_bgr

H, W = 20, 15  # the size crops are measured at (the set's mean crops: 40 x 30)
BINS = 12  # ink hues (30 degrees each) and one bin more for neutral ink
NEUTRAL_LO, NEUTRAL_HI = 0.1, 0.4  # chroma (a share of the absorption) under LO: neutral ink, over HI: coloured
SMOOTH = 0.25  # each hue bin gives this share to either neighbour (a hue at a bin's edge; a little lamp shift)
FAINT = 0.08  # absorption under this is the body's own grain, not ink
DARK_BODY = 110.0  # a body darker than this (mean of B, G, R) carries light ink (fluffy_black)


#: a light body this bright in any channel is clipped there by the camera (the lamp's glare): the inks' channels
#: are clipped unevenly, so faint neutral ink reads as coloured (kai's seasons, ink 0.05-0.08, their bodies at
#: 246-253 in blue and 255 in green and red: 0.15-0.29 from their mean enrolled crops; 0.02-0.09 unclipped)
GLARE_BODY = 253.0
BODY_SHARE = 0.2  # the body is the brightest fifth of a crop's pixels, per channel (the darkest, on a dark body)
LO, MED, HI = round(BODY_SHARE * H * W), H * W // 2, round((1 - BODY_SHARE) * H * W)


def _inner(h: int, w: int) -> IntArray:
    """Flat indices of the inner part (10 % in from every edge: the face, past the tile's side) of an h x w crop."""
    inner = np.zeros((h, w), bool)
    inner[round(0.1 * h):h - round(0.1 * h), round(0.1 * w):w - round(0.1 * w)] = True
    return np.flatnonzero(inner.ravel())


_INNER = _inner(H, W)


@dataclass(frozen=True)
class InkSignature:
    """``hist`` (N, BINS + 1): each crop's ink by hue (the last bin neutral ink), rows summing to one (zero where
    there is no ink); ``ink`` (N,): how much ink a crop holds (mean weight over its inner part); ``glare`` (N,):
    a light body clipped white in a channel (:data:`GLARE_BODY`), its inks only roughly measured."""

    hist: Float32Array
    ink: Float32Array
    glare: BoolArray

    def __len__(self) -> int:
        return len(self.ink)


def ink_signatures(crops: Sequence[Image]) -> InkSignature:
    """The ink signature of each crop (BGR, grey or BGRA, any size; upright or not)."""
    n = len(crops)
    x = np.empty((n, H, W, 3), np.uint8)
    for i, c in enumerate(crops):
        x[i] = cv2.resize(c if c.ndim == 3 and c.shape[2] == 3 else to_bgr(np.asarray(c)), (W, H),
                          interpolation=cv2.INTER_AREA)
    px = x.reshape(n, H * W, 3)
    ranked = np.partition(px, (LO, MED, HI), axis=1)
    dark = ranked[:, MED].sum(1) < 3 * DARK_BODY
    body = np.where(dark[:, None], ranked[:, LO], ranked[:, HI]).astype(np.float32) + 1.0  # (N, 3)
    inner = px[:, _INNER].astype(np.float32)
    a = 1.0 - inner * (1.0 / body)[:, None, :]  # relative absorption: a white-balance gain drops out
    if dark.any():  # light ink on a dark body: how far toward white, per channel
        bd = body[dark][:, None, :]
        a[dark] = (inner[dark] - bd) / np.maximum(256.0 - bd, 1.0)
    np.maximum(a, 0.0, out=a)
    np.minimum(a, 1.0, out=a)
    b_, g_, r_ = a[..., 0], a[..., 1], a[..., 2]  # the absorption's part across the grey axis: hue and chroma
    u = (b_ - g_) * np.float32(1 / np.sqrt(2.0))
    v = (b_ + g_ - 2.0 * r_) * np.float32(1 / np.sqrt(6.0))
    strength = np.sqrt((a * a).sum(2))
    ratio = np.sqrt(u * u + v * v) / (strength + 1e-6)  # 0 for black or grey ink, up to 0.8 for one channel's
    greyness = np.clip((NEUTRAL_HI - ratio) * (1.0 / (NEUTRAL_HI - NEUTRAL_LO)), 0.0, 1.0)
    w = np.maximum(strength - FAINT, 0.0)
    w_grey = w * greyness
    w_col = w - w_grey
    pos = np.arctan2(v, u) * np.float32(BINS / (2 * np.pi)) + BINS  # the ink's hue, in bins (positive)
    lo = pos.astype(np.int64)
    frac = pos - lo
    base = np.arange(0, n * (BINS + 1), BINS + 1)[:, None]
    w_hi = w_col * frac
    idx = np.concatenate([(base + lo % BINS).ravel(), (base + (lo + 1) % BINS).ravel(),
                          np.broadcast_to(base + BINS, lo.shape).ravel()])
    hist = np.bincount(idx, np.concatenate([(w_col - w_hi).ravel(), w_hi.ravel(), w_grey.ravel()]),
                       n * (BINS + 1)).reshape(n, BINS + 1)
    hue = hist[:, :BINS]  # a hue at a bin's edge, or a little off under another lamp, shared with its neighbours
    hist[:, :BINS] = (1 - 2 * SMOOTH) * hue + SMOOTH * (np.roll(hue, 1, axis=1) + np.roll(hue, -1, axis=1))
    total = hist.sum(1)
    glare = ~dark & (body.max(1) >= GLARE_BODY + 1.0)  # (body is the brightest fifth + 1)
    return InkSignature((hist / np.maximum(total, 1e-9)[:, None]).astype(np.float32),
                        (total / len(_INNER)).astype(np.float32), glare)


def ink_distance(a: InkSignature, b: InkSignature, rows: IntArray | None = None) -> Float32Array:
    """Total variation between each crop's signature in ``a`` and row ``rows[i]`` of ``b`` (or ``b``'s i-th
    where ``rows`` is None): 0 the same inks, 1 none in common (N,)."""
    hb = b.hist if rows is None else b.hist[rows]
    d: Float32Array = 0.5 * np.abs(a.hist - hb).sum(1)
    return d
