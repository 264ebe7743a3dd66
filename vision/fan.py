"""Index corners of overlapping cards, found from their glyphs rather than their outlines.

In a fanned hand, or cards laid in a row each covering most of the one before, a covered
card shows little more than its index corner: the rank glyph with the suit pip under it.
Its outline is mostly hidden, and its visible corner often sits on a straight run of the
blob's outline (cards in a row) or inside the blob, where no outline corner marks it.  So
this stage looks for the index itself:

1. Ink (darker than the paper around it) in the bright region of overlapping cards is cut
   into connected components at a resolution where a card is ``fan_work_height`` px tall.
2. Pairs of components that look like a rank over its suit (similar size, one just below
   the other) give a pose: "down" runs from the rank to the suit, and the card's corner
   sits a fixed offset up and left of the rank.  Either component of a pair may be the
   rank, so both ways are tried (a pip above a pip is tried too, and rejected by the
   rank classifier).
3. The index corner is warped upright with that pose and read by the same
   :class:`~vision.pipeline.IndexReader` as whole cards' corners, under a stricter margin.
   A pose whose glyphs do not land where the pose put them, or whose reading disagrees
   with another reading of the same place, names nothing; one whose glyphs a long
   straight edge runs against (a covering card may have cut one) needs a surer reading.

The card's size comes from the whole cards found in the frame; without any, from the
glyph's height (``fan_rank_ratio``).  The quad reported for such a card is extrapolated
from its index corner at the 63 x 88 mm card shape (:class:`~vision.pipeline.CardReading`
``partial``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.glyphs import RANK_CLASSES
from vision.native import kernels

if TYPE_CHECKING:
    from vision.pipeline import RecognizerConfig

CARD_ASPECT = 63.0 / 88.0
_KERNELS = kernels()  # the C kernels, with the compiled reader (see vision/native.py)


@dataclass(frozen=True)
class IndexPose:
    """Where an index corner would be: the card's quad (clockwise from its top-left, image
    pixels) if the rank glyph at ``rank`` (image pixels, its centre) is its top-left index."""

    quad: np.ndarray
    rank: tuple[float, float]
    # the same pose turned a little about the rank (the pair's axis is only roughly the
    # card's: a suit pip sits under the middle of a rank glyph that may lean), tried in
    # turn when the card's edges are not found about ``quad``
    turned: tuple[np.ndarray, ...] = ()


def ink_components(
    v: np.ndarray,
    region: np.ndarray,
    glyph_px: float,
    span: tuple[float, float],
    cfg: RecognizerConfig,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Components of ink in ``v`` (the ink channel, uint8) within ``region`` (uint8 mask
    of the cards' paper): stats (x, y, w, h, area) and centroids of the components that
    may be glyphs (``span`` times ``glyph_px`` tall), the label image and their labels."""
    k = max(3, int(round(1.6 * glyph_px)) | 1)
    # the paper's level around each pixel: the brightest nearby (a glyph is narrower
    # than the window, so its own ink does not count)
    paper = cv2.dilate(v, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
    pf = paper.astype(np.float32)
    ink = (v.astype(np.float32) < np.minimum(pf * cfg.ink_ratio, pf - cfg.ink_min_contrast))
    ink &= paper > 60
    mask = ink.view(np.uint8) & region
    n, labels, stats, cents = cv2.connectedComponentsWithStats(mask, connectivity=8,
                                                               ltype=cv2.CV_16U)
    lo, hi = span
    h = stats[:, 3]
    w = stats[:, 2]
    big = np.maximum(h, w)
    keep = (big >= lo * glyph_px) & (big <= hi * glyph_px) & (stats[:, 4] >= 6)
    keep[0] = False
    ids = np.nonzero(keep)[0]
    return stats[keep], cents[keep], labels, ids


def component_pixels(labels: np.ndarray, ids: np.ndarray, origin_xy: tuple[int, int],
                     row_ends: bool = False, stats: np.ndarray | None = None
                     ) -> list[np.ndarray]:
    """The pixels (x y, float32, moved by ``origin_xy``) of each component of ``labels``
    numbered in ``ids`` (ascending), each in the order of the picture's rows: one pass over
    the label image for them all.  ``row_ends``: only the first and last pixel of each of
    a component's rows (every corner of its convex hull is one of them: a fifth of a
    glyph's pixels, and OpenCV's convexHull gives the same corners from them) -- with the C
    kernels and the components' ``stats`` (their rows of OpenCV's statistics, in the order
    of ``ids``), looked for in each one's box only."""
    if not len(ids):
        return []
    if (row_ends and stats is not None and _KERNELS is not None and labels.dtype == np.uint16
            and labels.ndim == 2 and labels.flags.c_contiguous and len(stats) == len(ids)):
        boxes = np.array(stats, np.int32).reshape(-1, 5)
        boxes[:, 4] = ids
        n = len(ids)
        points = np.empty((2 * int(boxes[:, 3].sum()), 2), np.float32)
        cuts = np.empty(n + 1, np.int64)
        _KERNELS.row_ends(labels, labels.shape[0], labels.shape[1], boxes, n,
                          int(origin_xy[0]), int(origin_xy[1]), points, cuts)
        bounds: list[int] = cuts.tolist()
        return [points[a:b] for a, b in zip(bounds[:-1], bounds[1:], strict=True)]
    wanted = np.zeros(int(ids[-1]) + 2, bool)  # (the last: every label above the wanted)
    wanted[ids] = True
    flat = labels.ravel()
    at = np.flatnonzero(wanted[np.minimum(flat, len(wanted) - 1)])
    own = flat[at]
    order = np.argsort(own, kind="stable")  # by component, each in the rows' order
    at, own = at[order], own[order]
    ys, xs = np.divmod(at, labels.shape[1])
    if row_ends and len(at):
        row = own.astype(np.int64) * labels.shape[0] + ys  # a component's row
        ends = np.ones(len(at), bool)
        ends[1:-1] = (row[1:-1] != row[:-2]) | (row[1:-1] != row[2:])
        own, ys, xs = own[ends], ys[ends], xs[ends]
    pts = np.stack([xs + origin_xy[0], ys + origin_xy[1]], axis=1).astype(np.float32)
    cuts = np.searchsorted(own, ids).tolist() + [len(own)]
    return [pts[a:b] for a, b in zip(cuts[:-1], cuts[1:], strict=True)]


def glyph_pairs(stats: np.ndarray, cents: np.ndarray, cfg: RecognizerConfig
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The pairs of glyph components (``stats``: x, y, w, h, area; ``cents``: centres) that
    may be a rank (i) over its suit (j): near enough for their size, of like sizes.  Their
    i and j, and every centre's offset to every other (n x n x 2, i to j) and its length."""
    size = np.maximum(stats[:, 2], stats[:, 3]).astype(np.float32)
    d = cents[None, :, :] - cents[:, None, :]  # from i (rank) to j (suit)
    dist = np.hypot(d[..., 0], d[..., 1])
    ratio = size[None, :] / size[:, None]
    lo, hi = cfg.fan_pair_distance
    rlo, rhi = cfg.fan_pair_ratio
    ok = (dist >= lo * size[:, None]) & (dist <= hi * size[:, None])
    ok &= (ratio >= rlo) & (ratio <= rhi)
    np.fill_diagonal(ok, False)
    ii, jj = np.nonzero(ok)
    return ii, jj, d, dist


def index_poses(
    stats: np.ndarray,
    cents: np.ndarray,
    pixels: list[np.ndarray],
    card_h: float | None,
    region: np.ndarray,
    origin_xy: tuple[int, int],
    cfg: RecognizerConfig,
) -> list[IndexPose]:
    """Poses of index corners from pairs of glyph components (rank over suit), in the
    pixels the components were found in (``pixels``: each one's pixel coordinates, x y, or
    those of its convex hull's corners: only their extent along the card's axes counts).
    ``card_h`` None: each pose's card is sized from
    its rank glyph.  A pose is kept only where the card's top edge, beside the rank, has
    no paper beyond it in ``region`` (the mask of the bright region, whose top-left is at
    ``origin_xy``): an index sits in a corner of the card, and a covered card's corner
    that shows lies on its region's outline."""
    if len(stats) < 2:
        return []
    ii, jj, d, dist = glyph_pairs(stats, cents, cfg)
    if not len(ii):
        return []
    ox, oy = cfg.fan_corner_offset
    # every pair at once: the card's axes for each turn tried (pairs x turns), from the
    # pair's axis (rank centre to suit centre)
    rad = np.radians(np.asarray(cfg.fan_turns, np.float32))
    cos, sin = np.cos(rad)[None, :], np.sin(rad)[None, :]
    axis = d[ii, jj] / dist[ii, jj][:, None]
    ax, ay = axis[:, :1], axis[:, 1:]
    down = np.stack([cos * ax - sin * ay, sin * ax + cos * ay], axis=2)
    right = np.stack([down[..., 1], -down[..., 0]], axis=2)
    # the rank's extent along them: its points' projections, pair by pair (each pair's
    # rank's points in a run), least and most of each run
    lo_r, hi_r, lo_d, hi_d = _extents(pixels, ii, right, down)
    if card_h is not None:
        ch = np.full(lo_d.shape, card_h, np.float32)
    else:
        ch = (hi_d - lo_d) / cfg.fan_rank_ratio
    cw = ch * CARD_ASPECT
    origin = (right * (lo_r - ox * cw)[..., None] + down * (lo_d - oy * ch)[..., None])
    # points beside the rank just beyond the card's top edge (pairs x turns x probes): none
    # may be paper
    probe = np.asarray(cfg.fan_edge_probe, np.float32)[None, None, :, None]
    pts = (origin[:, :, None, :] + right[:, :, None, :] * (probe * cw[..., None, None])
           - down[:, :, None, :] * (cfg.fan_edge_out * ch)[..., None, None]
           - np.asarray(origin_xy, np.float32))
    good: list[list[bool]] = np.logical_not(on_paper(pts, region).any(axis=2)).tolist()
    across = right * cw[..., None]
    along = down * ch[..., None]
    quads = np.stack([origin, origin + across, origin + across + along, origin + along],
                     axis=2)
    out = []
    for p, (i, turns) in enumerate(zip(ii.tolist(), good, strict=True)):
        kept = [quads[p, t] for t, g in enumerate(turns) if g]
        if kept:
            out.append(IndexPose(kept[0], (float(cents[i, 0]), float(cents[i, 1])),
                                 tuple(kept[1:])))
    return out


def on_paper(pts: np.ndarray, region: np.ndarray) -> np.ndarray:
    """Whether each point of ``pts`` (... x 2: x, y in ``region``'s pixels, rounded to the
    nearest) lies on the region's paper (non-zero); a point off the region does not."""
    rh, rw = region.shape
    xi = np.round(pts[..., 0]).astype(np.int64)
    yi = np.round(pts[..., 1]).astype(np.int64)
    inside_ = (xi >= 0) & (xi < rw) & (yi >= 0) & (yi < rh)
    paper = np.zeros(xi.shape, bool)
    paper[inside_] = region[yi[inside_], xi[inside_]] > 0
    return paper


def _extents(
    pixels: list[np.ndarray], ii: np.ndarray, right: np.ndarray, down: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The least and most projection of the points of ``pixels[i]`` onto each direction of
    ``right`` and ``down`` (pairs x turns x 2) for each pair's ``i`` of ``ii``: four arrays,
    pairs x turns.  Each projection x * u + y * v is rounded as a float32 matrix product
    on this project's numpy (OpenBLAS's, with a fused multiply-add: x * u rounded to
    float32, then y * v added to it exactly and the sum rounded; in float64, whose product
    of two float32 is exact), so one pair alone or all at once give the same."""
    counts = np.array([len(p) for p in pixels], np.int64)
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    flat = np.concatenate(pixels).reshape(-1, 2)
    runs = counts[ii]
    first = np.concatenate([[0], np.cumsum(runs)[:-1]])
    # each pair's points: its rank's run of ``flat``, pair after pair
    rows = np.repeat(starts[ii] - first, runs) + np.arange(int(runs.sum()))
    pair = np.repeat(np.arange(len(ii)), runs)
    dirs = np.concatenate([right, down], axis=1)[pair]  # points x 2 turns x 2
    x = flat[rows, 0][:, None]
    y = flat[rows, 1][:, None].astype(np.float64)
    proj = (y * dirs[..., 1] + (x * dirs[..., 0]).astype(np.float64)).astype(np.float32)
    lo = np.minimum.reduceat(proj, first, axis=0)
    hi = np.maximum.reduceat(proj, first, axis=0)
    nt = right.shape[1]
    return lo[:, :nt], hi[:, :nt], lo[:, nt:], hi[:, nt:]


def _step(profile: np.ndarray, lo: int, hi: int) -> tuple[int, float]:
    """Where along ``profile`` (mean grey across an edge) it rises most steeply between
    ``lo`` and ``hi``, and by how much (over 3 px)."""
    d = profile[3:] - profile[:-3]
    lo, hi = max(0, lo), min(len(d), hi)
    if hi <= lo:
        return 0, 0.0
    k = int(np.argmax(d[lo:hi])) + lo
    return k + 1, float(d[k])


def band_steps(
    patch: np.ndarray, spans: tuple[tuple[int, int], ...], across: int, lo: int, hi: int
) -> list[tuple[int, float]]:
    """:func:`_step` of the mean profile of each band of ``patch`` (grey, uint8) that
    ``spans`` names: across 0, rows a to b (a level for each column); 1, columns a to b (a
    level for each row).  With the compiled reader, in C (``band_steps`` in
    vision/_kernels.c: the same numbers)."""
    h, w = patch.shape
    if (_KERNELS is not None and patch.dtype == np.uint8
            and all(0 <= a < b <= (w if across else h) for a, b in spans)):
        return list(_KERNELS.band_steps(np.ascontiguousarray(patch), h, w,
                                        np.array(spans, np.int32), len(spans), across, lo, hi))
    levels = patch.astype(np.float32)
    return [_step(levels[a:b, :].mean(axis=0) if across == 0 else levels[:, a:b].mean(axis=1),
                  lo, hi) for a, b in spans]


def warp_part(img: np.ndarray, m: np.ndarray, size: tuple[int, int], whole: tuple[int, int]
              ) -> np.ndarray:
    """The top-left part, at least ``size`` (columns, rows), of the patch ``whole`` (its
    columns and rows) of ``img`` warped by ``m`` (linear, the border replicated): the
    whole patch's very pixels.  OpenCV warps each row alone, and the columns of a row in
    runs of 16 (the rest one by one, which may round a coordinate otherwise): the part is
    as wide as whole runs of 16 reach, or as the patch."""
    w = -(-size[0] // 16) * 16
    cols = whole[0] if w >= whole[0] else w
    return np.asarray(cv2.warpPerspective(img, m, (cols, min(whole[1], size[1])),
                                          flags=cv2.INTER_LINEAR,
                                          borderMode=cv2.BORDER_REPLICATE))


def snap_corner(
    img: np.ndarray, quad: np.ndarray, cfg: RecognizerConfig, turns: int | None = None
) -> np.ndarray | None:
    """The card quad of an index pose moved onto the card's own edges in ``img`` (a
    pyramid level, grey or BGR), or None when the card shows no top edge (paper over
    something darker, straight across the index) and no left edge where the pose expects
    them: then the glyphs are no index corner.

    The pose's corner is extrapolated from the rank glyph; the patch is warped with a
    margin beyond it, and the edges are found as the steepest rise of the grey level
    (table, or a shadowed card edge, to paper) in two bands each, which must agree (a
    straight edge square to the glyphs).  Where both edges are found but lean from the
    pose (the pair's axis is only roughly the card's: a suit pip sits under the middle of
    a rank glyph that may lean), the pose is turned by the lean they show, about the rank,
    and the edges looked for again (``fan_snap_turns`` times at most)."""
    W, H = cfg.crop_size
    mx, my = int(cfg.fan_snap_margin * W), int(cfg.fan_snap_margin * H)
    pw, ph = int(0.3 * W) + mx, int(0.3 * H) + my
    rect = _canonical_rect((W, H)) + np.array([mx, my], np.float32)
    m = cv2.getPerspectiveTransform(quad.astype(np.float32), rect)
    if img.ndim == 3:
        img = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    reach = int(cfg.fan_snap_reach * H)
    # left edge: columns' mean over two bands of rows beside the index (looked for first,
    # on the patch's part that holds them: three in five poses show none)
    rows = ((my + int(0.06 * H), my + int(0.14 * H)), (my + int(0.14 * H), my + int(0.24 * H)))
    g = warp_part(img, m, (mx + reach + 3, rows[1][1]), (pw, ph))
    lefts = band_steps(g, rows, 0, mx - reach, mx + reach)
    if min(c for _, c in lefts) < cfg.fan_side_contrast:
        return None
    (xa, _), (xb, _) = lefts
    ra = (rows[0][0] + rows[0][1]) / 2
    rb = (rows[1][0] + rows[1][1]) / 2
    lean: float | None = None
    # top edge: rows' mean over two bands of columns above the index; where the pair
    # nearest the corner finds it bent, the next pairs (further along it) in turn
    pairs = [((mx + int(a0 * W), mx + int(a1 * W)), (mx + int(b0 * W), mx + int(b1 * W)))
             for a0, a1, b0, b1 in cfg.fan_snap_bands]
    g = warp_part(img, m, (max([b for pair in pairs for _, b in pair], default=1),
                           my + reach + 3), (pw, ph))
    for bands in pairs:
        tops = band_steps(g, bands, 1, my - reach, my + reach)
        if min(c for _, c in tops) < cfg.fan_edge_contrast:
            break
        (ya, _), (yb, _) = tops
        ca = (bands[0][0] + bands[0][1]) / 2
        cb = (bands[1][0] + bands[1][1]) / 2
        if abs(ya - yb) > cfg.fan_snap_bend * H or abs(xa - xb) > cfg.fan_snap_bend * H:
            # both edges leaning the same way: the card is turned from the pose
            lean_top = math.degrees(math.atan2(yb - ya, cb - ca))
            lean_left = -math.degrees(math.atan2(xb - xa, rb - ra))
            if (lean is None and abs(lean_top - lean_left) <= cfg.fan_snap_lean_agree
                    and abs(lean_top + lean_left) / 2 <= cfg.fan_snap_max_lean):
                lean = (lean_top + lean_left) / 2
            continue
        # the corner where the two edges meet, and the card along them, in patch pixels
        top_dir = np.array([cb - ca, yb - ya], np.float32)
        left_dir = np.array([xb - xa, rb - ra], np.float32)
        top_dir /= np.linalg.norm(top_dir)
        left_dir /= np.linalg.norm(left_dir)
        corner = _meet(np.array([ca, ya], np.float32), top_dir,
                       np.array([xa, ra], np.float32), left_dir)
        # the glyphs must sit where an index sits from the corner: near the pose's guess
        if corner is None or abs(corner[0] - mx) > reach or abs(corner[1] - my) > reach:
            break
        pts = np.array([corner, corner + top_dir * W, corner + top_dir * W + left_dir * H,
                        corner + left_dir * H], np.float32)
        back = cv2.perspectiveTransform(pts.reshape(-1, 1, 2), np.linalg.inv(m))
        return np.asarray(back.reshape(4, 2), np.float32)
    left = cfg.fan_snap_turns if turns is None else turns
    if lean is None or left <= 0:
        return None
    return snap_corner(img, _turn(quad, lean, cfg), cfg, left - 1)


def _turn(quad: np.ndarray, degrees: float, cfg: RecognizerConfig) -> np.ndarray:
    """A pose's quad turned by ``degrees`` (clockwise on the image) about its rank glyph."""
    ox, oy = cfg.fan_corner_offset
    o = quad[0].astype(np.float64)
    r = (quad[1] - quad[0]).astype(np.float64)
    d = (quad[3] - quad[0]).astype(np.float64)
    # the rank's middle: its top-left at the corner offset, about half a rank's size on
    pivot = o + r * (ox + 0.05) + d * (oy + cfg.fan_rank_ratio / 2)
    t = math.radians(degrees)
    rot = np.array([[math.cos(t), -math.sin(t)], [math.sin(t), math.cos(t)]])
    return np.asarray((quad.astype(np.float64) - pivot) @ rot.T + pivot, np.float32)


def _meet(p: np.ndarray, u: np.ndarray, q: np.ndarray, v: np.ndarray) -> np.ndarray | None:
    den = u[0] * v[1] - u[1] * v[0]
    if abs(den) < 0.5:  # edges far from square
        return None
    t = ((q[0] - p[0]) * v[1] - (q[1] - p[1]) * v[0]) / den
    return np.asarray(p + t * u, np.float32)


def inside(point: tuple[float, float], quad: np.ndarray) -> bool:
    return cv2.pointPolygonTest(quad.reshape(-1, 1, 2).astype(np.float32),
                                (float(point[0]), float(point[1])), False) >= 0


def _same_quad(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two quads have the same corners (in any order), to a twentieth of a side."""
    d = np.hypot(*(a[:, None, :] - b[None, :, :]).transpose(2, 0, 1))
    tol = 0.05 * float(np.hypot(*(a[1] - a[0])))
    return bool(d.min(axis=1).max() < tol)


class IndexCorners:
    """The index corners of cards (at each quad's first corner, the top-left of the card it
    outlines), asked of all at once whether a point lies in one."""

    def __init__(self, quads: list[np.ndarray]) -> None:
        q = np.asarray(quads, np.float32).reshape(-1, 4, 2)
        o = q[:, 0].astype(np.float64)
        # each card's axes, whose coordinates of a point say where on the card it lies
        m = np.stack([q[:, 1] - o, q[:, 3] - o], axis=2)
        square = ~(np.abs(np.linalg.det(m)) < 1e-6) if len(q) else np.zeros(0, bool)
        self.origins = o[square]
        self.axes = m[square]

    def hold(self, point: tuple[float, float]) -> bool:
        """Whether ``point`` lies in any of the index corners."""
        return bool(self.hold_all(np.array([point], np.float64))[0])

    def hold_all(self, points: np.ndarray) -> np.ndarray:
        """Whether each of ``points`` (n x 2) lies in any of the index corners (one solve
        for every point and card: each the same as alone)."""
        points = np.asarray(points, np.float64).reshape(-1, 2)
        if not len(self.axes) or not len(points):
            return np.zeros(len(points), np.bool_)
        uv = np.linalg.solve(self.axes[None],
                             (points[:, None, :] - self.origins[None])[..., None])
        u, v = uv[..., 0, 0], uv[..., 1, 0]
        return np.asarray(np.any((-0.05 < u) & (u < 0.3) & (-0.05 < v) & (v < 0.3), axis=1))


def card_height_from(quads: list[np.ndarray]) -> float | None:
    """The median long side of the card-shaped quads among ``quads``, or None.  (A quad
    around a whole row of overlapping cards is far longer for its width than a card.)"""
    if not quads:
        return None
    short, long_ = short_long_sides(quads)
    card = np.abs(short / np.maximum(long_, 1e-6) - CARD_ASPECT) < 0.12
    if not card.any():
        return None
    return float(np.median(long_[card]))


def square_turn(a: np.ndarray, b: np.ndarray) -> float:
    """Degrees between two directions."""
    c = float(np.clip(a @ b / (np.linalg.norm(a) * np.linalg.norm(b) + 1e-9), -1, 1))
    return math.degrees(math.acos(c))


def _level_for(card_h: float, target: float) -> int:
    lvl = 0
    while card_h / (2 ** (lvl + 1)) >= target:
        lvl += 1
    return lvl


def read_fans(
    rec: Recognizer,
    pyr: _Pyramid,
    quads: list[np.ndarray],
    regions: list[np.ndarray],
    readings: list[CardReading],
    unsized: list[CardReading] | None = None,
) -> list[CardReading]:
    """Covered cards named from the index corners that show in ``regions`` (outlines,
    image pixels, of bright regions no card read explains).  Only named cards are
    returned, each with ``partial`` set; none already named in ``readings`` but a second
    deck's copy lying apart from it (``fan_second_copy``).  The cards
    named whole size the search, but those of ``unsized`` (the top cards of rows: 40 rows of
    a jumbo-index deck, the covered corners sized from their glyphs, as where no card is
    named, read 95 of 160; sized from the top cards, 48, and two covered 10s named 6s --
    the search's index proportions are the phone deck's).  Where the cards named whole
    show an index of other proportions (:func:`index_config`), the corners are looked for
    a second time as that deck prints them, sized by every card named; where no card sizes
    the search, a second time sized by each region's short side (``fan_region_sized``)."""
    named = [r for r in readings if r.card is not None and len(r.corners) == 4]
    named_quads = [np.array(r.corners, np.float32) for r in named]
    skip = {id(r) for r in unsized or []}
    card_h = card_height_from([q for q, r in zip(named_quads, named, strict=True)
                               if id(r) not in skip])
    grays: dict[int, np.ndarray] = {}  # the levels in grey, where the edges are looked for
    # (a card named whole, wherever found, rather than from a covered corner)
    whole = [not r.partial for r in named]
    found = _covered(rec, rec.config, pyr, quads, regions, named_quads, whole, card_h, grays)
    deck = index_config(rec.config, [r.index for r in named if r.index is not None
                                     and not r.partial])
    if card_h is None and rec.config.fan_region_sized:
        # no card named whole sizes the search: the glyphs size it, and a second look takes
        # each region's short side for a card's height (about it, for a fan or a row)
        # (named only where sure: a jumbo deck's "10" whose "0" the card over it cuts
        # read as a 6 at 0.56)
        sure = replace(rec.config, fan_min_confidence=max(rec.config.fan_min_confidence,
                                                           rec.config.fan_region_confidence))
        found += _covered(rec, sure, pyr, quads, regions, named_quads, whole, None, grays,
                          by_region=True)
    if deck is not rec.config:
        # the index looked for also where the cards named whole show theirs, and the
        # search sized by every card named (a row's top card too: the proportions are
        # the deck's own); a place read differently by the two looks names nothing
        sized = card_height_from(named_quads)
        found += _covered(rec, deck, pyr, quads, regions, named_quads, whole, sized,
                          grays)
    seen: dict[str, list[np.ndarray]] = {}
    for q, r in zip(named_quads, named, strict=True):
        if r.card is not None:
            seen.setdefault(r.card.code, []).append(q)
    out = _agree(found, card_h, seen, rec.config.fan_second_copy)
    # a covered card is named only where it is as tall as a card named whole must be
    # (min_card_height): its index is a few px high (12-card frames shrunk to 0.4, their
    # cards 42 to 59 px tall, named 7 wrong cards of 337 here, a QC or a KH among them)
    least = rec.config.min_card_height
    return [r for r in out if _card_height(np.asarray(r.corners, np.float32)) >= least]


def _covered(
    rec: Recognizer,
    cfg: RecognizerConfig,
    pyr: _Pyramid,
    quads: list[np.ndarray],
    regions: list[np.ndarray],
    named_quads: list[np.ndarray],
    named_whole: list[bool],
    card_h: float | None,
    grays: dict[int, np.ndarray],
    by_region: bool = False,
) -> list[tuple[IndexPose, CardReading]]:
    """The covered corners :func:`read_fans` reads in ``regions``, looked for as ``cfg``
    places an index and sized by ``card_h`` (None: from the glyphs, or with ``by_region``
    from each region's short side): each pose read, and the card it names.  ``grays``: the
    pyramid's levels in grey, made as needed and shared by the looks.  ``named_whole``:
    whether each of ``named_quads`` is a card named whole (not from a covered corner)."""
    H = cfg.crop_size[1]
    # a card read whole covers whatever lies inside its outline (one found whole, or named
    # whole from the rest of touching cards' paper: the covered corners looked for in the
    # pips of touching cards named so cost a touching frame some 2 ms, and named nothing
    # more); one read from a corner on a blob's outline (its quad extrapolated from that
    # corner over the cards on top of it) only its index there
    whole: list[np.ndarray] = []
    cornered: list[np.ndarray] = []
    for q, w in zip(named_quads, named_whole, strict=True):
        (whole if w or any(_same_quad(q, d) for d in quads) else cornered).append(q)
    indexes = IndexCorners(cornered)
    poses: list[IndexPose] = []
    for outline in regions:
        pts = np.asarray(outline, np.float32).reshape(-1, 2)
        if len(pts) < 3:
            continue
        (_, _), (bw, bh), _ = cv2.minAreaRect(pts)
        # the region's short side: about a card's height for a fan or a row of cards
        ch = card_h if card_h is not None else float(min(bw, bh))
        lvl = _level_for(ch, cfg.fan_work_height)
        img = pyr.level(lvl)
        s = 1.0 / 2**lvl
        x0, y0, rw, rh = cv2.boundingRect(np.round(pts * s).astype(np.int32))
        x1, y1 = min(img.shape[1], x0 + rw + 1), min(img.shape[0], y0 + rh + 1)
        x0, y0 = max(0, x0), max(0, y0)
        if x1 - x0 < 8 or y1 - y0 < 8:
            continue
        region = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillPoly(region, [np.round(pts * s - (x0, y0)).astype(np.int32)], 1)
        v = _ink_channel(img[y0:y1, x0:x1])
        stats, cents, labels, ids = ink_components(
            v, region, ch * s * cfg.fan_rank_ratio,
            cfg.fan_glyph_height if card_h else cfg.fan_glyph_height_unsized, cfg)
        # each component's outermost pixels, its convex hull's corners: the glyph's extent
        # along any direction is theirs (index_poses measures it some sixty times a look)
        pixels = [np.asarray(cv2.convexHull(p), np.float32).reshape(-1, 2)
                  for p in component_pixels(labels, ids, (x0, y0), row_ends=True,
                                            stats=stats)]
        stats = stats.astype(np.float32)
        stats[:, 0] += x0
        stats[:, 1] += y0
        cents = (cents + (x0, y0)).astype(np.float32)
        sized = ch * s if card_h is not None or by_region else None
        made = index_poses(stats, cents, pixels, sized, region, (x0, y0), cfg)
        ranks = [(p.rank[0] / s, p.rank[1] / s) for p in made]
        held = indexes.hold_all(np.array(ranks, np.float64)).tolist()
        for p, rank, known in zip(made, ranks, held, strict=True):
            if known or any(inside(rank, q) for q in whole):
                continue  # the index of a card read already
            poses.append(IndexPose(p.quad / s, rank, tuple(q / s for q in p.turned)))
    if not poses:
        return []
    poses = poses[: cfg.fan_max_poses]
    rect = _canonical_rect(cfg.crop_size)
    patches = []
    snapped = []
    for p in poses:
        side = float(np.hypot(*(p.quad[3] - p.quad[0])))
        lvl = _level_for(side, 1.3 * H)
        if lvl not in grays:
            grays[lvl] = cv2.cvtColor(pyr.level(lvl), cv2.COLOR_BGR2GRAY)
        got = None
        for guess in (p.quad, *p.turned):
            got = snap_corner(grays[lvl], guess / 2**lvl, cfg)
            if got is not None:
                break
        if got is None:
            continue
        q = got
        m = cv2.getPerspectiveTransform(q, rect)
        patches.append(pyr.warp(lvl, m, (rec.reader.pw, rec.reader.ph)))
        snapped.append(IndexPose(q * 2**lvl, p.rank))
    poses = snapped
    segs = [edge_segments(patch, cfg) for patch in patches]
    # (no wider patch for a big "10": the cards over this one cover what lies beyond; a
    # corner whose rank runs off the patch is not read)
    reads = rec.reader.read_patches([blank(pt, sg, cfg) for pt, sg in zip(patches, segs,
                                                                          strict=True)],
                                    whole_rank=True)
    found: list[tuple[IndexPose, CardReading]] = []
    for p, patch, read, sg in zip(poses, patches, reads, segs, strict=True):
        why, reading = judge(rec, p, patch, read, sg, cfg)
        if reading is not None:
            found.append((p, reading))
    return found


def index_config(cfg: RecognizerConfig, places: list[tuple[float, float, float]]
                 ) -> RecognizerConfig:
    """``cfg`` with the covered corners' index looked for where the cards named whole show
    theirs (``places``: their :attr:`~vision.pipeline.CardReading.index`; those outside
    ``fan_index_bounds`` left out, a quad larger than its card), moved and scaled from the
    phone deck's by as much as their median differs from ``fan_index_reference`` -- where
    the rank's height differs by more than ``fan_index_band`` of it (within that, the
    cards' own places scatter as much: ``cfg`` itself is returned)."""
    (xlo, xhi), (ylo, yhi), (hlo, hhi) = cfg.fan_index_bounds
    ok = [p for p in places if xlo <= p[0] <= xhi and ylo <= p[1] <= yhi and hlo <= p[2] <= hhi]
    if not ok:
        return cfg
    x, y, h = (float(np.median([p[i] for p in ok])) for i in range(3))
    rx, ry, rh = cfg.fan_index_reference
    if abs(h / rh - 1.0) <= cfg.fan_index_band:
        return cfg
    ox, oy = cfg.fan_corner_offset
    return replace(cfg, fan_corner_offset=(ox + x - rx, oy + y - ry),
                   fan_rank_ratio=cfg.fan_rank_ratio * h / rh)


def edge_segments(patch: np.ndarray, cfg: RecognizerConfig) -> np.ndarray:
    """Long straight edges in a corner patch (x0, y0, x1, y1 each): the card's own top and
    left edges, and those of the cards over it."""
    gray = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY)
    edges = cv2.Canny(cv2.GaussianBlur(gray, (3, 3), 0), 40, 120)
    ph = patch.shape[0]
    segs = cv2.HoughLinesP(edges, 1, np.pi / 90, threshold=int(0.2 * ph),
                           minLineLength=int(cfg.overlap_edge_length * ph), maxLineGap=3)
    if segs is None:
        return np.zeros((0, 4), np.float32)
    return np.asarray(segs.reshape(-1, 4), np.float32)


def blank(patch: np.ndarray, segs: np.ndarray, cfg: RecognizerConfig) -> np.ndarray:
    """The patch as the index reader is shown it: ink beyond the card's edges as the pose
    puts them (a neighbouring card's edge, the table) joined to the patch's border, which
    drops it (it is no glyph of this index), and the long straight edges painted over with
    the paper's colour, each across the whole patch (``fan_paint_extend``): a covering
    card's edge, often a dark line, beside a glyph would otherwise be taken for a stroke
    of it (a 3 and a line read as a 10).  Whether such an
    edge cuts a glyph is judged on the patch itself (:func:`_cut_glyphs`)."""
    W, H = cfg.crop_size
    ox, oy = cfg.fan_corner_offset
    b = patch.copy()
    if len(segs):
        colour = _paper_median(patch, cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY))
        ext = cfg.fan_paint_extend * patch.shape[0]
        for sx0, sy0, sx1, sy1 in segs:
            u = np.array([sx1 - sx0, sy1 - sy0], np.float32)
            u /= max(1e-6, float(np.hypot(*u)))
            a = np.round(np.array([sx0, sy0]) - ext * u).astype(int)
            e = np.round(np.array([sx1, sy1]) + ext * u).astype(int)
            cv2.line(b, (int(a[0]), int(a[1])), (int(e[0]), int(e[1])), colour,
                     cfg.fan_edge_paint)
    b[:, : max(0, int((ox - cfg.fan_edge_margin) * W))] = 0
    b[: max(0, int((oy - cfg.fan_edge_margin) * H)), :] = 0
    return b


def _paper_median(patch: np.ndarray, gray: np.ndarray) -> tuple[float, float, float]:
    """The median colour (B, G, R) of the paper of a corner patch (BGR uint8, ``gray`` its
    grey): of its pixels at least as light as three in four of them (numpy's 75th
    percentile of the grey levels), channel by channel.  With the compiled reader, read off
    their histograms in C (``paper_median`` in vision/_kernels.c: the same numbers)."""
    h, w = gray.shape
    if (_KERNELS is not None and h and w and patch.dtype == np.uint8
            and gray.dtype == np.uint8 and patch.shape == (h, w, 3)):
        return _KERNELS.paper_median(np.ascontiguousarray(patch), np.ascontiguousarray(gray),
                                     h, w)
    paper = patch[gray >= np.percentile(gray, 75)]
    if not len(paper):
        return (255.0, 255.0, 255.0)
    b, g, r = (float(c) for c in np.median(paper, axis=0))
    return b, g, r


def judge(
    rec: Recognizer, p: IndexPose, patch: np.ndarray, read: CornerRead | None, segs: np.ndarray,
    cfg: RecognizerConfig | None = None,
) -> tuple[str, CardReading | None]:
    """The card an index corner's reading names (partial), or None and why not; ``cfg``:
    the recognizer's, its index's place that of the deck read (:func:`index_config`)."""
    cfg = cfg or rec.config
    W, H = cfg.crop_size
    ox, oy = cfg.fan_corner_offset
    if read is None:
        return "no glyphs", None
    bx, by = read.box[:2]
    tol = cfg.fan_box_tolerance * H
    if abs(bx - ox * W) > tol or abs(by - oy * H) > tol:
        return "box", None  # the glyphs read are not the pair the pose was made from
    if read.rank_mask is not None:
        # ... nor where the rank read lies away from the glyph the pose was made from (a
        # corner snapped onto another card's edges shows that card's glyphs in place)
        rh, rw = read.rank_mask.shape
        m = cv2.getPerspectiveTransform(_canonical_rect((W, H)), p.quad.astype(np.float32))
        at = np.array([[[bx + rw / 2, by + rh / 2]]], np.float32)
        c = cv2.perspectiveTransform(at, m)[0, 0]
        side = float(np.hypot(*(p.quad[3] - p.quad[0])))
        if math.hypot(c[0] - p.rank[0], c[1] - p.rank[1]) > cfg.fan_rank_shift * side:
            return "box", None
    # (the cheap checks first: two in five of the corners that get this far in rows, fans
    # and crowded frames fail them, and need no costly look at the ink round the glyphs;
    # each check is the corner's alone, so the order changes only which reason is given)
    if side_by_side(read, cfg):
        return "wide", None
    if float(read.suit_scores.max()) < cfg.fan_min_suit:
        return "suit", None  # no suit under the rank: text on a page, not an index
    corners = tuple((float(x), float(y)) for x, y in p.quad)
    # the stricter margin where the rank or its runner-up is one of the ranks a cut or
    # crowded index corner turns into another (a 10 missing its 1, a Q's tail)
    order = np.argsort(-read.rank_scores[: len(RANK_CLASSES)])[:2]
    hard = any(RANK_CLASSES[int(k)] in cfg.fan_hard_ranks for k in order)
    r = rec.decide([read], corners, strict=cfg.fan_hard_factor if hard else cfg.fan_factor)
    if r.card is None or r.confidence < cfg.fan_min_confidence:
        return "margin", None
    placed = None
    if read.rank_mask is not None and read.suit_mask is not None:
        # an upright index has its suit under its rank: one read off to the side is a pip
        # beside it, or the patch turned from the card (snapped onto another card's edges)
        ink = ink_mask(patch, cfg)
        x0, y0, x1, y1 = read.box
        rp = _place(read.rank_mask, ink, x0, x1, y0)
        sp = _place(read.suit_mask, ink, x0, x1, y1 - read.suit_mask.shape[0])
        placed = (ink, rp, sp)
        dx = float(sp[:, 0].min() + sp[:, 0].max() - rp[:, 0].min() - rp[:, 0].max()) / 2
        dy = float(sp[:, 1].min() + sp[:, 1].max() - rp[:, 1].min() - rp[:, 1].max()) / 2
        if abs(math.degrees(math.atan2(dx, dy))) > cfg.fan_suit_slant:
            return "slant", None
        # (the patch's top holds this card's edge, maybe the table: only the ink between
        # rank and suit counts for a piece broken off the rank)
        why = not_one_index(patch, ink, read, rp, cfg, above=False)
        if why is not None:
            return why, None
    # a straight edge beside the glyphs may have cut one short (a 9 whose right side
    # another card hides read as a 10): such a corner needs a surer reading (looked for
    # only where the reading is less sure than that)
    if r.confidence < cfg.fan_cut_confidence and _cut_glyphs(patch, read, segs, cfg, placed):
        return "cut", None
    return "read", CardReading(r.card, corners, r.confidence, r.alternatives, True)


def not_one_index(patch: np.ndarray, ink: np.ndarray, read: CornerRead, at: np.ndarray | None,
                  cfg: RecognizerConfig, above: bool = True) -> str | None:
    """Why a single corner's rank and suit are not one card's whole index -- "broken" (see
    :func:`broken_rank`, ``above`` as there) or "inks" (:func:`two_inks`) -- or None.
    ``ink``: the patch's (:func:`ink_mask`); ``at``: where the rank's ink lies in the patch
    (:func:`_place`), placed here once if not known."""
    if read.rank_mask is None or read.suit_mask is None:
        return None
    if at is None:
        x0, y0, x1, _ = read.box
        at = _place(read.rank_mask, ink, x0, x1, y0)
    if broken_rank(ink, read, at, cfg, above):
        return "broken"
    if two_inks(patch, ink, read, at, cfg):
        return "inks"
    return None


def broken_rank(ink: np.ndarray, read: CornerRead, at: np.ndarray | None, cfg: RecognizerConfig,
                above: bool = True) -> bool:
    """Whether a corner's ``ink`` (its patch's, :func:`ink_mask`) holds more than
    ``fan_broken_rank`` of the rank glyph's box in the rank's columns between the rank and
    the suit, or (``above``) within half the rank's height above it: a piece of the rank
    broken off at a thin stroke, whose rest may look like another rank (a 9 without its
    stem read as a Q, a 7 without its bar as a J).  ``at``: where the rank's ink lies in
    the patch (:func:`_place`), if known."""
    if read.rank_mask is None or read.suit_mask is None:
        return False
    x0, y0, x1, y1 = read.box
    rh = read.rank_mask.shape[0]
    if at is None:
        at = _place(read.rank_mask, ink, x0, x1, y0)
    rx0, rx1 = int(at[:, 0].min()), int(at[:, 0].max()) + 1
    pieces = np.count_nonzero(ink[y0 + rh : y1 - read.suit_mask.shape[0], rx0:rx1])
    if above:
        pieces += np.count_nonzero(ink[max(0, y0 - rh // 2) : y0, rx0:rx1])
    return bool(pieces > cfg.fan_broken_rank * rh * (rx1 - rx0))


def two_inks(patch: np.ndarray, ink: np.ndarray, read: CornerRead, at: np.ndarray | None,
             cfg: RecognizerConfig) -> bool:
    """Whether a corner's rank and suit are printed in different inks, one red and one
    black: the glyphs of two cards (a black 7 beside the red heart of the card under it),
    for an index is printed in one.  ``ink``: the patch's (:func:`ink_mask`); ``at``:
    where the rank's ink lies in the patch (:func:`_place`), if known."""
    if read.rank_mask is None or read.redness is None or patch.ndim != 3:
        return False
    if at is None:
        x0, y0, x1, _ = read.box
        at = _place(read.rank_mask, ink, x0, x1, y0)
    count = ink.size - int(np.count_nonzero(ink))
    if count < 10 or not len(at):
        return False
    # the paper's mean colour: the whole patch's sums of levels less the ink's, over the
    # paper's count (sums of whole levels, exact in doubles: numpy's mean of the paper's
    # pixels to the bit, without gathering them)
    inky = cv2.bitwise_and(patch, patch, mask=ink.view(np.uint8))
    paper = (np.array(cv2.sumElems(patch)[:3]) - np.array(cv2.sumElems(inky)[:3])) / count
    xs, ys = at[:, 0].astype(np.intp), at[:, 1].astype(np.intp)
    b, g, r = (patch[ys, xs].mean(axis=0) + 1.0) / (paper + 1.0)
    rank_red = float(r - max(b, g))
    suit_red = read.redness
    return bool((rank_red > cfg.red_threshold and suit_red < cfg.black_threshold)
                or (rank_red < cfg.black_threshold and suit_red > cfg.red_threshold))


def side_by_side(read: CornerRead, cfg: RecognizerConfig, wide: bool = True) -> bool:
    """Whether the rank a covered corner's reading rests on is the glyphs of two cards side
    by side (a covering card's faint edge between them) taken for one: in parts further
    apart than a 10's digits, or more parts than its rank has; or, with ``wide``, wider
    than any rank is tall (in the decks the limits were set on)."""
    if read.rank_mask is None:
        return False
    rh, rw = read.rank_mask.shape
    top = RANK_CLASSES[int(np.argmax(read.rank_scores[: len(RANK_CLASSES)]))]
    gap = cfg.fan_rank_gap[0 if top == "T" else 1]
    parts = 2 if top == "T" else 1
    return bool((wide and rw > cfg.fan_rank_aspect * rh) or rank_gap(read.rank_mask) > gap
                or rank_parts(read.rank_mask, cfg.fan_rank_part) > parts)


def rank_parts(mask: np.ndarray, least: float) -> int:
    """How many pieces a rank glyph's mask is in, counting those of at least ``least``
    times the largest one's area: one for a rank but a 10 (two, or one where its digits
    touch); another beside it is a piece of a pip or of another card's glyph that the
    reader joined to it (a 10's 0 and its pip beside it read as a 9)."""
    n, _, stats, _ = cv2.connectedComponentsWithStats((mask > 0).view(np.uint8),
                                                      connectivity=8)
    if n <= 2:
        return n - 1
    area = stats[1:, cv2.CC_STAT_AREA]
    return int(np.count_nonzero(area >= least * area.max()))


def rank_gap(mask: np.ndarray) -> float:
    """The widest run of blank columns between inked ones in a rank glyph's mask, over the
    mask's height: a 10's digits nearly touch, but a glyph joined to a covering card's edge
    or to a sliver of its index leaves a wide gap."""
    cols = np.nonzero((mask > 0).any(axis=0))[0]
    if len(cols) < 2:
        return 0.0
    return float(np.max(np.diff(cols) - 1)) / max(1, int(mask.shape[0]))


def _cut_glyphs(
    patch: np.ndarray, read: CornerRead, segs: np.ndarray, cfg: RecognizerConfig,
    placed: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None,
) -> bool:
    """Whether a long straight edge (a covering card's side; ``segs``, from
    :func:`edge_segments`) runs through the rank's or the suit's box and comes within
    ``fan_cut_clear`` px of its ink, or of ink joined to it: then a glyph may be cut short
    by the card over it and look like another.  The covering card of a tight row or fan
    lies close beside the index, so an edge merely near the glyphs (as
    :func:`~vision.pipeline._edge_crosses` rejects for a whole card's corner), or across
    a corner of their box with paper between it and the ink, is allowed.  ``placed``:
    the patch's ink (:func:`ink_mask`) and where the rank's and the suit's ink lie in it
    (:func:`_place`), if known."""
    if not len(segs):
        return False
    ph = patch.shape[0]
    x0, y0, x1, y1 = read.box
    pad = cfg.fan_edge_pad
    if read.rank_mask is None or read.suit_mask is None:
        rect = (x0 - pad, y0 - pad, x1 - x0 + 2 * pad, y1 - y0 + 2 * pad)
        return any(cv2.clipLine(rect, (int(a), int(b)), (int(c), int(d)))[0]
                   for a, b, c, d in segs)
    ext = cfg.fan_cut_extend * ph
    if placed is None:
        ink = ink_mask(patch, cfg)
        # the rank starts the box's top row; the suit ends its bottom row
        placed = (ink, _place(read.rank_mask, ink, x0, x1, y0),
                  _place(read.suit_mask, ink, x0, x1, y1 - read.suit_mask.shape[0]))
    ink, rank_at, suit_at = placed
    n, labels = cv2.connectedComponents(ink.view(np.uint8), connectivity=8, ltype=cv2.CV_16U)
    for mask, top, at in ((read.rank_mask, y0, rank_at),
                          (read.suit_mask, y1 - read.suit_mask.shape[0], suit_at)):
        # with all the ink joined to the glyph in the patch (a pip it touches, which the
        # reader may have split from it)
        pts = _with_joined(at, labels, n)
        rect = (x0 - pad, top - pad, x1 - x0 + 2 * pad, mask.shape[0] + 2 * pad)
        for sx0, sy0, sx1, sy1 in segs:
            u = np.array([sx1 - sx0, sy1 - sy0], np.float32)
            u /= max(1e-6, float(np.hypot(*u)))
            # an edge is found in pieces: each is taken on a little further both ways
            ea, eb = np.array([sx0, sy0]) - ext * u, np.array([sx1, sy1]) + ext * u
            ok, _, _ = cv2.clipLine(rect, (int(ea[0]), int(ea[1])), (int(eb[0]), int(eb[1])))
            if not ok:
                continue
            if not len(pts):
                return True
            dist = np.abs((pts[:, 0] - sx0) * u[1] - (pts[:, 1] - sy0) * u[0])
            if float(dist.min()) < cfg.fan_cut_clear:
                return True
    return False


def _with_joined(pts: np.ndarray, labels: np.ndarray, n: int) -> np.ndarray:
    """``pts`` (x, y, float32: a glyph's ink in a patch) and after them the pixels of every
    component of ``labels`` (``n`` labels, 0 the paper) that one of them lies on, in the
    rows' order."""
    joined = np.zeros(n, np.bool_)
    joined[labels[pts[:, 1].astype(np.int32), pts[:, 0].astype(np.int32)]] = True
    joined[0] = False
    if not joined.any():
        return pts
    yy, xx = np.nonzero(joined[labels])
    return np.concatenate([pts, np.stack([xx, yy], axis=1).astype(np.float32)])


def ink_mask(patch: np.ndarray, cfg: RecognizerConfig) -> np.ndarray:
    """The patch's ink as the index reader finds it (darker than its paper)."""
    v = _ink_channel(patch)
    # (numpy's percentile, to the bit, read off the levels' histogram)
    paper = _percentile_linear(v[::2, ::2].ravel(), cfg.paper_percentile)
    return np.asarray(v < min(paper * cfg.ink_ratio, paper - cfg.ink_min_contrast), np.bool_)


def _place(mask: np.ndarray, ink: np.ndarray, x0: int, x1: int, top: int) -> np.ndarray:
    """Patch coordinates (x, y) of a glyph mask's ink, the mask put at ``top`` and at the
    column between ``x0`` and ``x1`` where it best covers the patch's ink (at ``x0`` where
    it fits nowhere, its points then moved onto the patch's edge)."""
    mh, mw = mask.shape
    m = mask > 0
    best, bx = -1, x0
    for x in range(x0, max(x0, x1 - mw) + 1):
        win = ink[top : top + mh, x : x + mw]
        if win.shape != m.shape:
            continue
        n = int(np.count_nonzero(win & m))
        if n > best:
            best, bx = n, x
    yy, xx = np.nonzero(m)
    # (kept inside the patch: a glyph read from a wider patch than this one, its box
    # reaching past this one's edge, fits nowhere in it)
    h, w = ink.shape[:2]
    return np.stack([np.clip(xx + bx, 0, w - 1), np.clip(yy + top, 0, h - 1)],
                    axis=1).astype(np.float32)


def _agree(
    found: list[tuple[IndexPose, CardReading]], card_h: float | None,
    seen: dict[str, list[np.ndarray]], second: float = 0.0,
) -> list[CardReading]:
    """One reading per place; none where two readings of one place disagree, nor of a card
    named already (``seen``: its quads), but where ``second`` (``fan_second_copy``) lets a
    reading lying apart from every quad of it be a second copy."""
    out: list[CardReading] = []
    places: list[tuple[tuple[float, float], str, float]] = []
    for p, r in found:
        assert r.card is not None
        near = 0.1 * (card_h or float(np.hypot(*(p.quad[3] - p.quad[0]))))
        places.append((p.rank, r.card.code, near))
    bad: set[int] = set()
    for i, (a, ca, na) in enumerate(places):
        for j in range(i + 1, len(places)):
            b, cb, _ = places[j]
            if ca != cb and math.hypot(a[0] - b[0], a[1] - b[1]) < na:
                bad.update((i, j))
    best: dict[str, CardReading] = {}
    for i, (_, r) in enumerate(found):
        assert r.card is not None
        code = r.card.code
        if i in bad:
            continue
        if code in seen and (second <= 0 or _same_card_near(found[i][0], r, seen[code],
                                                            second)):
            continue
        if code not in best or r.confidence > best[code].confidence:
            best[code] = r
    out.extend(best.values())
    return out


def _same_card_near(p: IndexPose, r: CardReading, quads: list[np.ndarray],
                    share: float) -> bool:
    """Whether a covered corner's reading ``r`` (pose ``p``) may be a card named already,
    one of ``quads``: its rank lies inside one, or its quad overlaps one by ``share`` of
    its area."""
    return any(inside(p.rank, n) for n in quads) or _overlaps_any(
        np.asarray(r.corners, np.float32).reshape(4, 2), quads, share)


from vision.pipeline import (  # noqa: E402  (the pipeline imports this module)
    CardReading,
    CornerRead,
    Recognizer,
    _canonical_rect,
    _card_height,
    _ink_channel,
    _overlaps_any,
    _percentile_linear,
    _Pyramid,
    short_long_sides,
)
