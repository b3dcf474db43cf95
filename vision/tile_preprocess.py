"""Turn a tile crop of any size and aspect into the classifier's square input.

The crop is letterboxed (padded to a square with the median colour of its border, so a sideways tile
stays recognisably sideways) and resized. Training and inference share this function.
"""
from __future__ import annotations

from typing import TypeVar, cast

import cv2
import numpy as np
import numpy.typing as npt

from vision.arrays import CvDepth, Image

INPUT_SIZE = 48
_S = TypeVar("_S", bound=CvDepth)


def to_bgr(img: npt.NDArray[_S]) -> npt.NDArray[_S]:
    """Accept grey (H, W), BGR (H, W, 3) or BGRA (H, W, 4) uint8 images; return BGR uint8 (other depths are
    kept: OpenCV converts the channels only)."""
    if img.ndim == 2:
        return cast("npt.NDArray[_S]", cv2.cvtColor(img, cv2.COLOR_GRAY2BGR))
    if img.ndim == 3 and img.shape[2] == 4:
        return cast("npt.NDArray[_S]", cv2.cvtColor(img, cv2.COLOR_BGRA2BGR))
    if img.ndim == 3 and img.shape[2] == 3:
        return img
    raise ValueError(f"expected a grey, BGR or BGRA image, got shape {img.shape}")


def preprocess(crop: npt.ArrayLike, size: int = INPUT_SIZE) -> Image:
    """Letterbox and resize a BGR crop; returns RGB ``uint8`` of shape (size, size, 3)."""
    bgr = to_bgr(np.asarray(crop))
    img: Image = bgr if bgr.dtype == np.uint8 else np.clip(bgr, 0, 255).astype(np.uint8)
    h, w = img.shape[:2]
    if h < 2 or w < 2:
        raise ValueError(f"crop too small: {w}x{h}")
    s = max(h, w)
    border = np.concatenate([img[0], img[-1], img[:, 0], img[:, -1]])
    mid = len(border) // 2
    pad = [int(v) for v in np.partition(border, mid, axis=0)[mid]]  # per-channel median (the upper one)
    top, left = (s - h) // 2, (s - w) // 2
    square = cv2.copyMakeBorder(img, top, s - h - top, left, s - w - left, cv2.BORDER_CONSTANT, value=pad)
    interp = cv2.INTER_AREA if s > size else cv2.INTER_LINEAR
    return cast(Image, cv2.cvtColor(cv2.resize(square, (size, size), interpolation=interp), cv2.COLOR_BGR2RGB))
