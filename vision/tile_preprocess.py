"""Turn a tile crop of any size and aspect into the classifier's square input.

The crop is letterboxed (padded to a square with the median colour of its border, so a sideways tile
stays recognisably sideways) and resized. Training and inference share this function.
"""
from __future__ import annotations

import cv2
import numpy as np

INPUT_SIZE = 48


def to_bgr(img: np.ndarray) -> np.ndarray:
    """Accept grey (H, W), BGR (H, W, 3) or BGRA (H, W, 4) uint8 images; return BGR uint8."""
    if img.ndim == 2:
        return cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)
    if img.ndim == 3 and img.shape[2] == 4:
        return cv2.cvtColor(img, cv2.COLOR_BGRA2BGR)
    if img.ndim == 3 and img.shape[2] == 3:
        return img
    raise ValueError(f"expected a grey, BGR or BGRA image, got shape {img.shape}")


def preprocess(crop: np.ndarray, size: int = INPUT_SIZE) -> np.ndarray:
    """Letterbox and resize a BGR crop; returns RGB ``uint8`` of shape (size, size, 3)."""
    crop = to_bgr(np.asarray(crop))
    if crop.dtype != np.uint8:
        crop = np.clip(crop, 0, 255).astype(np.uint8)
    h, w = crop.shape[:2]
    if h < 2 or w < 2:
        raise ValueError(f"crop too small: {w}x{h}")
    s = max(h, w)
    border = np.concatenate([crop[0], crop[-1], crop[:, 0], crop[:, -1]])
    mid = len(border) // 2
    pad = [int(v) for v in np.partition(border, mid, axis=0)[mid]]  # per-channel median (the upper one)
    top, left = (s - h) // 2, (s - w) // 2
    square = cv2.copyMakeBorder(crop, top, s - h - top, left, s - w - left, cv2.BORDER_CONSTANT, value=pad)
    interp = cv2.INTER_AREA if s > size else cv2.INTER_LINEAR
    return cv2.cvtColor(cv2.resize(square, (size, size), interpolation=interp), cv2.COLOR_BGR2RGB)
