"""Whole-set enrollment: every tile of the table's set laid in its centre, a camera frame a *page*.

The calibration layout (:mod:`vision.tile_layout`) lays one copy of each face; a table enrolled from three
frames of it has three crops per face. Here all four copies of every face are laid, over three pages, so every
face has four crops from four physical tiles under the table's own lamp (twelve where the pages are laid
three times)::

    page 1   rows 1-4: 1m .. 9m (one row a copy)     rows 5-8: 1p .. 9p
    page 2   rows 1-4: 1s .. 9s                      rows 5-8: 1z .. 7z back
    page 3   row 1: 0m 0p 0s j j j j                 row 2: 1f .. 8f      (take it four times)

Tiles lie face up and upright for East (the camera's bottom edge), centres ``LAYOUT_PITCH_MM`` apart (37 mm
along a row, 48 mm between rows: a gap of about a third of a tile), the page centred on the table's centre.
Pages 1 and 2 cover 323 x 372 mm, well inside the markers (their inner edges are 375 mm from the centre) and
the view looked in (:data:`WHOLE_SET_HALF`, 270 mm either way) leaves 80 mm either way for a
page laid off centre. A set has one of each red five and flower: page 3 is taken four times, the tiles lifted
and laid down again between frames, for four crops of those too.

Reading a page frame: the centre is rectified and its tiles found exactly as the table pipeline does
(:func:`vision.tile_layout.centre_view`), the page's grid is fitted to the tiles found (pitch, then the
offset of column 1 and row 1, the page nearest the centre where a whole edge row or column is empty), and
each cell is *filled* (one upright tile on its place), *empty*, or *doubtful* (two tiles, something that is
not one upright tile -- touching tiles, a tile turned sideways, a hand --, or a tile half-way between cells);
only filled cells give crops. Which page a frame shows is told by the network: its reading of the tiles
found agrees with one page's cells far more than with the others' (:func:`detect_page`).
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypedDict

import numpy as np

from vision.tile_labels import BACK, FLOWERS, HONOURS, JOKER, RED_FIVES
from vision.tile_layout import LAYOUT, LAYOUT_PITCH_MM, Box, CentreView, centre_blobs, centre_view

if TYPE_CHECKING:
    from vision.calibration import Calibration
    from vision.scene_render import CameraPose, Truth
    from vision.tile_classifier import TileClassifier
    from vision.tileset import TileSet

#: The part of the table (mm from the centre, x and y) a page is looked for in.
WHOLE_SET_HALF = (270.0, 270.0)
FILLED, EMPTY, DOUBTFUL = "filled", "empty", "doubtful"
OFF_PLACE = 0.3  # a tile whose centre is this share of the pitch or more off its cell's centre is doubtful
PAGE_SCORE_MIN = 0.5  # the share of a frame's tiles the network puts in their cells' suits for its page ...
PAGE_SCORE_LEAD = 0.2  # ... and that page's lead over the next


def _suit(s: str) -> tuple[str, ...]:
    return tuple(f"{n}{s}" for n in range(1, 10))


@dataclass(frozen=True)
class Page:
    """One frame's layout: ``rows`` of face labels (a label may repeat: the copies of a face)."""

    number: int
    rows: tuple[tuple[str, ...], ...]
    title: str
    title_ru: str
    frames: int = 1  # frames of it for four crops of each of its faces (a page of single tiles: four)

    @property
    def shape(self) -> tuple[int, int]:
        """(rows, columns) of the page's grid."""
        return len(self.rows), max(len(r) for r in self.rows)

    @property
    def faces(self) -> tuple[str, ...]:
        """Its labels, each once, in layout order."""
        return tuple(dict.fromkeys(lab for row in self.rows for lab in row))

    def cells(self) -> list[tuple[int, int, str]]:
        return [(r, c, lab) for r, row in enumerate(self.rows) for c, lab in enumerate(row)]

    def label(self, r: int, c: int) -> str | None:
        return self.rows[r][c] if 0 <= r < len(self.rows) and 0 <= c < len(self.rows[r]) else None


PAGES: tuple[Page, ...] = (
    Page(1, (_suit("m"),) * 4 + (_suit("p"),) * 4, "characters and dots", "знаки и точки"),
    Page(2, (_suit("s"),) * 4 + (tuple(HONOURS) + (BACK,),) * 4, "bamboos, honours and backs",
         "бамбуки, ветры и драконы, рубашки"),
    Page(3, (tuple(RED_FIVES) + (JOKER,) * 4, tuple(FLOWERS)), "red fives, jokers and flowers",
         "красные пятёрки, джокеры и цветы", frames=4),
)


#: The calibration layout (:data:`vision.tile_layout.LAYOUT`, one copy of each face) as page 0: the guide prints
#: it and the camera view draws its grid the same way.
CALIBRATION_PAGE = Page(0, LAYOUT, "calibration layout: one copy of each face",
                        "калибровочная раскладка: по одной кости каждого вида", frames=3)


def page(number: int) -> Page:
    """The page numbered ``number`` (1-3; 0: the calibration layout); ValueError for another number."""
    if number == 0:
        return CALIBRATION_PAGE
    for p in PAGES:
        if p.number == number:
            return p
    raise ValueError(f"no page {number}: the whole-set layout has pages {', '.join(str(p.number) for p in PAGES)}")


def pages_for(labels: Iterable[str]) -> list[Page]:
    """The pages holding any of ``labels``."""
    have = set(labels)
    return [p for p in PAGES if have & set(p.faces)]


# ---- the grid of a page, fitted to the tiles found ---------------------------------------------------------

@dataclass(frozen=True)
class Grid:
    """Where a page's cells lie: column 0 / row 0 centres ``origin`` (mm from the table's centre, x to East's
    right, y towards East) and the ``pitch`` (along a row, between rows)."""

    page: Page
    origin: tuple[float, float]
    pitch: tuple[float, float]

    @classmethod
    def centred(cls, pg: Page) -> Grid:
        """The page as the guide lays it: centred on the table's centre, at the documented pitch."""
        rows, cols = pg.shape
        pa, pb = LAYOUT_PITCH_MM
        return cls(pg, (-(cols - 1) / 2 * pa, -(rows - 1) / 2 * pb), (pa, pb))

    def centre(self, r: int, c: int) -> tuple[float, float]:
        return self.origin[0] + c * self.pitch[0], self.origin[1] + r * self.pitch[1]

    def index(self, x: float, y: float) -> tuple[int, int, float, float]:
        """The cell (row, column) nearest (x, y) mm, and how far off its centre as shares of the pitch."""
        u, v = (x - self.origin[0]) / self.pitch[0], (y - self.origin[1]) / self.pitch[1]
        c, r = int(round(u)), int(round(v))
        return r, c, abs(u - c), abs(v - r)


def _phase(values: np.ndarray, pitch: float) -> float:
    """The circular mean of ``values`` modulo ``pitch``: where the lattice through them lies."""
    ang = 2 * np.pi * values / pitch
    return float(np.arctan2(np.sin(ang).mean(), np.cos(ang).mean()) * pitch / (2 * np.pi))


def _axis_origins(values: np.ndarray, pitch: float, n: int, most: int = 3) -> list[float]:
    """Where index 0's centre may lie along one axis for ``n`` cells: on the lattice through ``values``, holding
    the most of them in 0..n-1; the page nearest the table's centre first (a row or column left empty at an
    edge of the page leaves a choice of shifts: :func:`detect_page` lets the network choose)."""
    centred = -(n - 1) / 2 * pitch
    if not len(values):
        return [centred]
    ph = _phase(values, pitch)
    keys = []
    for k in range(-2 * n - 4, 2 * n + 5):
        o = ph + k * pitch
        idx = np.round((values - o) / pitch)
        keys.append((-int(((idx >= 0) & (idx <= n - 1)).sum()), abs(o - centred), o))
    keys.sort()
    return [o for inside, _, o in keys if inside == keys[0][0]][:most]


def _pitch(pts: np.ndarray, nominal: float, across: float, axis: int) -> float:
    """The pitch along ``axis`` the tiles show (neighbours' spacing, within 15 % of ``nominal``), else nominal."""
    if len(pts) < 3:
        return nominal
    d = np.abs(pts[:, None, :] - pts[None, :, :])
    along, other = d[..., axis], d[..., 1 - axis]
    sel = (other < 0.4 * across) & (along > 0.6 * nominal) & (along < 1.45 * nominal)
    if sel.sum() < 8:  # each pair counted twice: four neighbour pairs at least
        return nominal
    return float(np.clip(np.median(along[sel]), 0.85 * nominal, 1.15 * nominal))


def candidate_grids(pg: Page, centres: np.ndarray) -> list[Grid]:
    """The page's grids through tile centres (N, 2) (mm from the table's centre): the pitch the tiles show, and
    the shifts that hold the most of them in the page's cells, the page nearest the centre first."""
    pa0, pb0 = LAYOUT_PITCH_MM
    pts = np.asarray(centres, np.float64).reshape(-1, 2)
    pa, pb = _pitch(pts, pa0, pb0, 0), _pitch(pts, pb0, pa0, 1)
    rows, cols = pg.shape
    grids = [Grid(pg, (x, y), (pa, pb)) for x in _axis_origins(pts[:, 0], pa, cols)
             for y in _axis_origins(pts[:, 1], pb, rows)]
    cx, cy = Grid.centred(pg).origin
    return sorted(grids, key=lambda g: abs(g.origin[0] - cx) / pa + abs(g.origin[1] - cy) / pb)


def fit_grid(pg: Page, centres: np.ndarray) -> Grid:
    """The page's grid through tile centres (N, 2): of :func:`candidate_grids`, the page nearest the centre."""
    return candidate_grids(pg, centres)[0]


# ---- reading a page frame -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Cell:
    """One cell of a page as a frame shows it; ``box`` (px of the view) where a tile lies in it."""

    row: int
    col: int
    label: str
    state: str  # FILLED, EMPTY or DOUBTFUL
    why: str = ""  # for a doubtful cell: "two tiles", "not one upright tile", "between two cells"
    box: Box | None = None


class CellOutline(TypedDict):
    """A cell as the camera view draws it: its face, state, why (a doubtful cell) and place (frame pixels)."""

    label: str
    state: str
    why: str
    poly: list[list[float]]


@dataclass
class PageRead:
    """A frame read as one page: its cells, the filled cells' crops, the tiles lying in no cell of it."""

    page: Page
    grid: Grid
    cells: list[Cell]
    crops: dict[tuple[int, int], np.ndarray]
    strays: list[Box]
    view: CentreView
    score: float = float("nan")  # the network's mean probability of the cells' faces (detect_page)
    scores: dict[int, float] = field(default_factory=dict)

    def examples(self) -> dict[str, list[np.ndarray]]:
        """The crops per label (upright BGR, as the pipeline cuts tiles)."""
        out: dict[str, list[np.ndarray]] = {}
        for cell in self.cells:
            if (cell.row, cell.col) in self.crops:
                out.setdefault(cell.label, []).append(self.crops[(cell.row, cell.col)])
        return out

    def count(self, state: str) -> int:
        return sum(c.state == state for c in self.cells)

    def empty_faces(self) -> list[str]:
        """The page's faces without one filled cell."""
        filled = {c.label for c in self.cells if c.state == FILLED}
        return [lab for lab in self.page.faces if lab not in filled]

    def doubtful_cells(self) -> list[Cell]:
        return [c for c in self.cells if c.state == DOUBTFUL]

    def outlines(self) -> list[CellOutline]:
        """Each cell as ``{"label", "state", "why", "poly"}``, ``poly`` the tile's place (four corners, frame
        pixels) where the grid puts it: what the camera view draws."""
        cal, geo = self.view.calibration, self.view.calibration.geometry
        out: list[CellOutline] = []
        for cell in self.cells:
            x, y = self.grid.centre(cell.row, cell.col)
            hw, hh = geo.tile_w / 2, geo.tile_h / 2
            mm = np.array([[x - hw, y - hh], [x + hw, y - hh], [x + hw, y + hh], [x - hw, y + hh]]) + geo.centre
            px = cal.table_to_frame(mm)
            out.append({"label": cell.label, "state": cell.state, "why": cell.why,
                        "poly": [[float(a), float(b)] for a, b in px]})
        return out


def _centre_mm(view: CentreView, box: Box) -> tuple[float, float]:
    x, y, w, h = box
    mx, my = view.to_mm(x + w / 2 - 0.5, y + h / 2 - 0.5)
    c = view.calibration.geometry.centre
    return mx - c, my - c


def assign(pg: Page, view: CentreView, tiles: list[Box], other: list[Box], grid: Grid | None = None) -> PageRead:
    """The page's cells over a view's blobs (:func:`vision.tile_layout.centre_blobs`: upright tiles, others):
    the grid (default: fitted to the tiles, :func:`fit_grid`), each tile in the cell it lies on, each cell's
    state."""
    if grid is None:
        grid = fit_grid(pg, np.array([_centre_mm(view, b) for b in tiles]).reshape(-1, 2))
    at: dict[tuple[int, int], list[tuple[Box, bool]]] = {}
    strays: list[Box] = []
    for b in tiles:
        r, c, du, dv = grid.index(*_centre_mm(view, b))
        if pg.label(r, c) is None:
            strays.append(b)
            continue
        at.setdefault((r, c), []).append((b, du < OFF_PLACE and dv < OFF_PLACE))
    blocked: dict[tuple[int, int], str] = {}
    px = view.px_per_mm
    for x, y, w, h in other:  # cells whose centre something that is not one upright tile covers
        for r, c, _ in pg.cells():
            cx, cy = grid.centre(r, c)
            cen = view.calibration.geometry.centre
            ux, uy = (cx + cen - view.origin_mm[0]) * px, (cy + cen - view.origin_mm[1]) * px
            if x <= ux <= x + w and y <= uy <= y + h:
                blocked[(r, c)] = "not one upright tile"
    cells, crops = [], {}
    img = view.image
    for r, c, lab in pg.cells():
        here = at.get((r, c), [])
        if (r, c) in blocked:
            cells.append(Cell(r, c, lab, DOUBTFUL, blocked[(r, c)], here[0][0] if here else None))
        elif len(here) > 1:
            cells.append(Cell(r, c, lab, DOUBTFUL, "two tiles", here[0][0]))
        elif here and not here[0][1]:
            cells.append(Cell(r, c, lab, DOUBTFUL, "between two cells", here[0][0]))
        elif here:
            x, y, w, h = here[0][0]
            crops[(r, c)] = np.ascontiguousarray(img[y:y + h, x:x + w])
            cells.append(Cell(r, c, lab, FILLED, "", here[0][0]))
        else:
            cells.append(Cell(r, c, lab, EMPTY))
    return PageRead(pg, grid, cells, crops, strays, view)


def page_view(frame: np.ndarray, calibration: Calibration | None = None, px_per_mm: float = 1.2) -> CentreView:
    """The table's centre of a page frame (rectified as the pipeline rectifies it, with its mask)."""
    return centre_view(frame, calibration, px_per_mm, WHOLE_SET_HALF)


class PageError(ValueError):
    """A frame that shows no page of the layout, or cannot be told one page from another."""


def _group(label: str) -> str:
    """A face's suit as the page check counts it: m, p, s (red fives with their suit), z, f, j, back."""
    return label[-1] if label[-1] in "mpszf" else label


def _base_reading(classifier: TileClassifier, view: CentreView, tiles: list[Box]) -> tuple[np.ndarray, np.ndarray]:
    """The network's one-pass probabilities (no set) of the tiles found, a row a tile: per class, and per suit
    (:func:`_group`)."""
    from vision.tile_labels import CLASS_LABELS

    crops = [np.ascontiguousarray(view.image[y:y + h, x:x + w]) for x, y, w, h in tiles]
    logits, _, emb = classifier.run_prepared(classifier.prepare(crops))
    prob = classifier.probabilities(logits, emb)
    groups = sorted({_group(lab) for lab in CLASS_LABELS})
    member = np.array([[_group(lab) == g for g in groups] for lab in CLASS_LABELS], np.float32)
    return prob, prob @ member


def _best_grid(pg: Page, view: CentreView, tiles: list[Box], other: list[Box],
               prob: tuple[np.ndarray, np.ndarray] | None) -> PageRead:
    """The page read on the grid whose cells the network's reading (``prob``: per class, per suit) agrees with
    most -- the mean over the tiles found of the probability of their cell's face plus that of its suit, tiles
    outside the cells or doubtful counting nothing; ``score`` is the suit's share alone. Without ``prob``, the
    page nearest the centre."""
    from vision.tile_labels import CLASS_LABELS

    grids = candidate_grids(pg, np.array([_centre_mm(view, b) for b in tiles]).reshape(-1, 2))
    if prob is None:
        return assign(pg, view, tiles, other, grids[0])
    p_face, p_suit = prob
    groups = sorted({_group(lab) for lab in CLASS_LABELS})
    row_of = {b: i for i, b in enumerate(tiles)}
    best: tuple[float, PageRead] | None = None
    for g in grids:
        rd = assign(pg, view, tiles, other, g)
        filled = [(row_of[c.box], c.label) for c in rd.cells if c.state == FILLED and c.box is not None]
        face = sum(float(p_face[i, CLASS_LABELS.index(lab)]) for i, lab in filled) / max(1, len(tiles))
        rd.score = sum(float(p_suit[i, groups.index(_group(lab))]) for i, lab in filled) / max(1, len(tiles))
        if best is None or face + rd.score > best[0] + 1e-9:
            best = (face + rd.score, rd)
    assert best is not None
    return best[1]


def read_page(frame: np.ndarray, number: int, calibration: Calibration | None = None, px_per_mm: float = 1.2,
              view: CentreView | None = None, classifier: TileClassifier | None = None) -> PageRead:
    """A frame of the table's camera read as page ``number``; with ``classifier``, the grid's shift (where a
    row or column at an edge of the page is empty) is the one the network's reading agrees with most.
    ValueError (CalibrationError) without markers."""
    view = view if view is not None else page_view(frame, calibration, px_per_mm)
    tiles, other = centre_blobs(view)
    prob = _base_reading(classifier, view, tiles) if classifier is not None and tiles else None
    return _best_grid(page(number), view, tiles, other, prob)


def detect_page(frame: np.ndarray, classifier: TileClassifier, calibration: Calibration | None = None,
                px_per_mm: float = 1.2) -> PageRead:
    """The frame read as the page it shows: the page (and grid) whose cells the network's one-pass reading of
    the tiles found (no set: the base model) agrees with most (:func:`_best_grid`). The page's score is the
    share of the frame's tiles the network puts in their cells' suits (a held-out set's faces are often
    misread within their suit, seldom across: a page laid with a row out of place, or another layout, scores
    low). :class:`PageError` where no page reaches :data:`PAGE_SCORE_MIN` or the best leads the next by less
    than :data:`PAGE_SCORE_LEAD`."""
    view = page_view(frame, calibration, px_per_mm)
    tiles, other = centre_blobs(view)
    if len(tiles) < 2:
        raise PageError(f"found {len(tiles)} tiles in the table's centre: no page of the whole-set layout")
    prob = _base_reading(classifier, view, tiles)
    reads = {pg.number: _best_grid(pg, view, tiles, other, prob) for pg in (*PAGES, CALIBRATION_PAGE)}
    scores = {n: rd.score for n, rd in reads.items()}
    order = sorted(scores, key=lambda k: -scores[k])
    best, second = order[0], order[1]
    shown = ", ".join(f"page {k} {scores[k]:.2f}" if k else f"calibration layout {scores[k]:.2f}" for k in order)
    if best == 0 and scores[0] >= PAGE_SCORE_MIN:
        raise PageError(f"this frame shows the calibration layout (one copy of each face; {shown}), not a page of "
                        "the whole set: enroll it without --whole-set")
    if scores[best] < PAGE_SCORE_MIN:
        raise PageError(f"the tiles in the table's centre match no page of the whole-set layout ({shown})")
    if scores[best] - scores[second] < PAGE_SCORE_LEAD:
        raise PageError(f"cannot tell page {best} from page {second} ({shown}): name the frame's page")
    out = reads[best]
    out.scores = scores
    return out


def gather(reads: Sequence[PageRead]) -> dict[str, list[np.ndarray]]:
    """Every filled cell's crop per label, over the frames."""
    out: dict[str, list[np.ndarray]] = {}
    for rd in reads:
        for lab, crops in rd.examples().items():
            out.setdefault(lab, []).extend(crops)
    return out


# ---- rendered pages (tests, the bench, `vision render --layout --whole-set`) -----------------------------------

def page_tiles(pg: Page, labels: Iterable[str], rng: np.random.Generator, offset_mm: float = 10.0,
               pitch_error: float = 0.03) -> list[tuple[str, float, float, float]]:
    """Where a person laying the page by the guide puts its tiles of ``labels``: the page off the centre by up
    to ``offset_mm`` either way, its spacing up to ``pitch_error`` off, each tile 1.5 mm and a degree or so
    off its place. ``(label, x, y, angle)``, mm from the table's centre."""
    have = set(labels)
    scale = 1.0 + rng.uniform(-pitch_error, pitch_error, 2)
    dx, dy = rng.uniform(-offset_mm, offset_mm, 2)
    g = Grid.centred(pg)
    out = []
    for r, c, lab in pg.cells():
        if lab not in have:
            continue
        x, y = g.centre(r, c)
        out.append((lab, x * scale[0] + dx + rng.uniform(-1.5, 1.5), y * scale[1] + dy + rng.uniform(-1.5, 1.5),
                    float(rng.normal(0, 1.0))))
    return out


def render_page(style: str, number: int, *, seed: int = 0, labels: Iterable[str] | None = None,
                offset_mm: float = 10.0, pose: CameraPose | None = None, felt: tuple[int, int, int] | None = None
                ) -> tuple[np.ndarray, Truth]:
    """A camera frame of the table with page ``number`` of the whole-set layout laid in ``style`` (its faces
    of ``labels``, default every face the style has, and ``back``); ``pose`` and ``felt`` fix the camera and the
    cloth (one table's frames), else drawn from ``seed``. ValueError where the style has none of the page's
    faces."""
    from vision.scene_render import render_laid_out
    from vision.tile_render import load_style

    pg = page(number)
    have = set(load_style(style).labels) if labels is None else set(labels)
    if not have & set(pg.faces):
        raise ValueError(f"style {style} has none of page {number}'s faces ({pg.title})")
    rng = np.random.default_rng([seed, 11, number])
    return render_laid_out(style, page_tiles(pg, have, rng, offset_mm), seed=seed, pose=pose, felt=felt)


WHOLE_SET_SEED = 33_000  # page frames of rendered whole-set enrollments: never a test's or a bench's seeds


def enroll_rendered_whole_set(classifier: TileClassifier, style: str, repeats: int = 1, seed: int = WHOLE_SET_SEED,
                              labels: set[str] | None = None) -> TileSet:
    """A set of ``style`` enrolled from rendered page frames as a table enrolls its whole set: every page of
    its faces ``repeats`` times (page 3 four times as often), each frame read as its page."""
    from vision.enrollment import enroll
    from vision.tile_render import load_style

    have = set(load_style(style).labels) if labels is None else labels
    reads = []
    k = 0
    for _ in range(repeats):
        for pg in pages_for(have):
            for _ in range(pg.frames):
                frame, _ = render_page(style, pg.number, seed=seed + k, labels=have)
                reads.append(read_page(frame, pg.number, classifier=classifier))
                k += 1
    return enroll(classifier, gather(reads), name=style.rstrip("/").rsplit("/", 1)[-1], seed=seed)
