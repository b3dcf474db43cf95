"""The array types of the camera side, for typed signatures (``numpy.typing``).

OpenCV returns its own loose ``MatLike``; where such a result enters a typed value it is cast once, at the
call (``cast(Image, cv2.remap(...))``): a cast costs nothing and converts nothing.
"""
from __future__ import annotations

from typing import TypeAlias

import numpy as np
import numpy.typing as npt

#: An 8-bit image: BGR (H, W, 3), BGRA (H, W, 4) or grey (H, W); also a 0/255 (or 0/1) mask.
Image: TypeAlias = npt.NDArray[np.uint8]
#: float32: an image being drawn or compared (H, W, C), feature vectors, colours.
Float32Array: TypeAlias = npt.NDArray[np.float32]
#: float64: points (N, 2) in millimetres or pixels, homographies (3, 3), camera matrices, probabilities.
Float64Array: TypeAlias = npt.NDArray[np.float64]
#: int64: indices, boxes.
IntArray: TypeAlias = npt.NDArray[np.int64]
#: bool: a per-item or per-pixel flag.
BoolArray: TypeAlias = npt.NDArray[np.bool_]
#: The element types OpenCV works in (its depths CV_8U .. CV_64F), for functions generic over them.
CvDepth: TypeAlias = np.uint8 | np.int8 | np.uint16 | np.int16 | np.int32 | np.float32 | np.float64
