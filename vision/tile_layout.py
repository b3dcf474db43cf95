"""Enrollment from one photo of the documented calibration layout.

Lay each face of the set once, face up and upright (top of the tile away from the camera's bottom edge),
in this grid on a plain table, and take one photo from above (see ``docs/vision-model.md``)::

    row 1:  1m 2m 3m 4m 5m 6m 7m 8m 9m
    row 2:  1p 2p 3p 4p 5p 6p 7p 8p 9p
    row 3:  1s 2s 3s 4s 5s 6s 7s 8s 9s
    row 4:  1z 2z 3z 4z 5z 6z 7z back
    row 5:  0m 0p 0s j
    row 6:  1f 2f 3f 4f 5f 6f 7f 8f

A set without some faces leaves their cells empty (rows 5 and 6 may be missing altogether). The tiles are
found as blobs that differ from the table colour, grouped into rows, and assigned to columns by the
row pitch.
"""
from __future__ import annotations

import cv2
import numpy as np

LAYOUT: tuple[tuple[str, ...], ...] = (
    tuple(f"{n}m" for n in range(1, 10)),
    tuple(f"{n}p" for n in range(1, 10)),
    tuple(f"{n}s" for n in range(1, 10)),
    tuple(f"{n}z" for n in range(1, 8)) + ("back",),
    ("0m", "0p", "0s", "j"),
    tuple(f"{n}f" for n in range(1, 9)),
)


def find_tiles(photo: np.ndarray) -> list[tuple[int, int, int, int]]:
    """Bounding boxes (x, y, w, h) of tile-sized blobs that stand out from the table colour."""
    h, w = photo.shape[:2]
    lab = cv2.cvtColor(cv2.GaussianBlur(photo, (5, 5), 0), cv2.COLOR_BGR2LAB).astype(np.float32)
    border = np.concatenate([lab[:4].reshape(-1, 3), lab[-4:].reshape(-1, 3), lab[:, :4].reshape(-1, 3),
                             lab[:, -4:].reshape(-1, 3)])
    table = np.median(border, axis=0)
    dist = np.linalg.norm(lab - table, axis=2)
    scale = 255.0 / max(float(dist.max()), 1.0)
    otsu, _ = cv2.threshold(np.clip(dist * scale, 0, 255).astype(np.uint8), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    mask = (dist > max(18.0, 0.5 * otsu / scale)).astype(np.uint8) * 255
    edges = cv2.Canny(cv2.cvtColor(photo, cv2.COLOR_BGR2GRAY), 30, 90)
    mask = cv2.bitwise_or(mask, edges)  # dark faces on a dark table still have glyph and outline edges
    k = max(3, int(min(h, w) * 0.02)) | 1
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((k, k), np.uint8))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((k, k), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    boxes = [tuple(int(v) for v in cv2.boundingRect(c)) for c in contours]
    boxes = [b for b in boxes if b[2] * b[3] > 0.0005 * h * w]
    if not boxes:
        return []
    med = float(np.median([b[2] * b[3] for b in boxes]))
    return [b for b in boxes if 0.4 * med < b[2] * b[3] < 2.2 * med and 0.45 < b[2] / b[3] < 1.2]


def read_layout(photo: np.ndarray, margin: float = 0.04) -> dict[str, np.ndarray]:
    """Crops per label from a photo of the calibration layout; ValueError if no grid is recognisable."""
    boxes = find_tiles(photo)
    if len(boxes) < 9:
        raise ValueError(f"found {len(boxes)} tiles, expected the calibration grid (at least one full row)")
    boxes.sort(key=lambda b: b[1] + b[3] / 2)
    th = float(np.median([b[3] for b in boxes]))
    rows: list[list[tuple[int, int, int, int]]] = [[boxes[0]]]
    for b in boxes[1:]:
        prev = rows[-1][-1]
        if (b[1] + b[3] / 2) - (prev[1] + prev[3] / 2) > 0.5 * th:
            rows.append([])
        rows[-1].append(b)
    if len(rows) > len(LAYOUT):
        raise ValueError(f"found {len(rows)} rows of tiles, the calibration layout has at most {len(LAYOUT)}")
    full = [r for r in rows if len(r) >= 2]
    pitch = float(np.median([np.median(np.diff(sorted(b[0] + b[2] / 2 for b in r))) for r in full]))
    x0 = min(b[0] + b[2] / 2 for r in rows for b in r)
    out: dict[str, np.ndarray] = {}
    for r, row in enumerate(rows):
        for b in row:
            col = int(round((b[0] + b[2] / 2 - x0) / pitch))
            if col >= len(LAYOUT[r]):
                raise ValueError(f"row {r + 1} has a tile in column {col + 1}, beyond its {len(LAYOUT[r])} faces")
            x, y, w, h = b
            mx, my = int(w * margin), int(h * margin)
            out[LAYOUT[r][col]] = photo[max(0, y - my):y + h + my, max(0, x - mx):x + w + mx].copy()
    return out


def render_layout(style: str, tile_height: int = 80, seed: int = 0, labels: set[str] | None = None) -> np.ndarray:
    """A synthetic overhead photo of the calibration layout for ``style`` (tests, docs)."""
    from vision.tile_render import TABLE_COLOURS, face_image, load_style

    st = load_style(style)
    have = set(st.labels) if labels is None else labels
    rng = np.random.default_rng(seed)
    tw = int(tile_height * 0.75)
    gap = int(tile_height * 0.35)
    rows = [r for r in LAYOUT if any(lab in have for lab in r)]
    h = len(rows) * (tile_height + gap) + gap
    w = 9 * (tw + gap) + gap
    img = np.empty((h, w, 3), np.float32)
    img[:] = TABLE_COLOURS[int(rng.integers(len(TABLE_COLOURS)))]
    img += rng.normal(0, 4, img.shape)
    for r, row in enumerate(rows):
        for c, lab in enumerate(row):
            if lab not in have:
                continue
            f = face_image(st, lab, tile_height).astype(np.float32)
            x, y = gap + c * (tw + gap) + int(rng.integers(-3, 4)), gap + r * (tile_height + gap) + int(rng.integers(-3, 4))
            a = f[..., 3:4] / 255.0
            img[y:y + tile_height, x:x + f.shape[1]] = img[y:y + tile_height, x:x + f.shape[1]] * (1 - a) + f[..., :3] * a
    ramp = np.linspace(0.85, 1.1, w, dtype=np.float32)[None, :, None]
    return np.clip(img * ramp, 0, 255).astype(np.uint8)
