"""Finding cards in a frame: bright, roughly rectangular regions -> 4-corner quads.

Works on a copy of the frame scaled down to ``RecognizerConfig.detect_max_side``.  Several
masks are tried (Otsu on brightness, "paper" = bright and unsaturated, and both cut along
Canny edges so that touching cards separate); every outer contour that is close to a convex
quadrilateral of a plausible size becomes a candidate, corners are refined by fitting a
straight line to each side (so rounded card corners do not pull them in), and overlapping
candidates are merged.  Quads are returned in input-image pixels, clockwise (y down).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import cache
from typing import TYPE_CHECKING

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.native import kernels

if TYPE_CHECKING:
    from vision.pipeline import RecognizerConfig

# the C kernels, with the compiled modules (see vision.native): refine_quads hands them its
# lines' fits
_KERNELS = kernels()


def to_bgr(image: np.ndarray) -> np.ndarray | None:
    """The image as 3-channel BGR uint8, or None if it cannot be one."""
    if not isinstance(image, np.ndarray) or image.size == 0 or image.dtype.kind not in "biuf":
        return None  # (no picture: nor one of strings, objects, dates or complex numbers)
    img = image
    if img.dtype == np.uint16:
        img = (img // 257).astype(np.uint8)
    elif img.dtype != np.uint8:
        if np.issubdtype(img.dtype, np.floating):
            mx = float(np.nanmax(img)) if img.size else 0.0
            img = np.nan_to_num(img * (255.0 if mx <= 1.0 else 1.0))
        img = np.clip(img, 0, 255).astype(np.uint8)
    if img.ndim == 2:
        return cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)
    if img.ndim == 3 and img.shape[2] == 1:
        return cv2.cvtColor(img[:, :, 0], cv2.COLOR_GRAY2BGR)
    if img.ndim == 3 and img.shape[2] == 4:
        return cv2.cvtColor(img, cv2.COLOR_BGRA2BGR)
    if img.ndim == 3 and img.shape[2] == 3:
        return np.ascontiguousarray(img)
    return None


def order_clockwise(pts: np.ndarray) -> np.ndarray:
    """Four points ordered clockwise on screen (y down), starting nearest the top-left.
    With the compiled reader the C kernel ``order_corners`` orders them (the same angles,
    the same order), where they are finite."""
    p = np.asarray(pts, np.float32).reshape(4, 2)
    if _KERNELS is not None:
        out = np.empty((4, 2), np.float32)
        if _KERNELS.order_corners(np.ascontiguousarray(p), out):
            return out
    xy = p.tolist()
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = xy
    cx = (x0 + x1 + x2 + x3) / 4
    cy = (y0 + y1 + y2 + y3) / 4
    # (plain lists and no lambdas: this runs some fifty times per frame)
    angles = [math.atan2(y - cy, x - cx) for x, y in xy]
    order = sorted(range(4), key=angles.__getitem__)
    sums = [xy[i][0] + xy[i][1] for i in order]
    start = sums.index(min(sums))  # the first of equal sums, as min(key=...) takes it
    return p.take(_order_index(tuple(order[start:] + order[:start])), axis=0)


@cache
def _order_index(order: tuple[int, ...]) -> NDArray[np.intp]:
    """``order`` as an index array, made once (taking by it costs less than by a list)."""
    return np.array(order, np.intp)


def turn_quad(q: np.ndarray, k: int) -> np.ndarray:
    """The four corners starting from the k-th: ``np.roll(q, -k, axis=0)`` for a quad, at a
    fraction of its cost (this runs for every corner of every card)."""
    # (a take by a ready index: the fewest steps numpy has for it)
    return q.take(_TURNS[k % 4], axis=0)


# the corners in the order of each quarter turn of a quad (see turn_quad)
_TURNS = tuple(np.array([(k + i) % 4 for i in range(4)], np.intp) for k in range(4))
NEXT_CORNER = _TURNS[1]  # the corner after each corner of a quad


def quad_sides(q: np.ndarray) -> NDArray[np.float64]:
    """The lengths of a quad's four sides, from corner 0 to 1 onwards (with the compiled
    reader, the C kernel ``quad_sides``: the same lengths)."""
    if _KERNELS is not None and _plain_quad(q):
        out = np.empty(4)
        _KERNELS.quad_sides(q, q.dtype == np.float64, out)
        return out
    d = q.take(NEXT_CORNER, axis=0) - q
    sides: NDArray[np.float64] = np.hypot(d[:, 0], d[:, 1]).astype(np.float64, copy=False)
    return sides


def _plain_quad(q: object) -> bool:
    """Whether ``q`` is a quad the kernels take as it is: a C-contiguous 4 x 2 array of
    float32 or float64."""
    return (isinstance(q, np.ndarray) and q.shape == (4, 2) and q.flags.c_contiguous
            and (q.dtype == np.float32 or q.dtype == np.float64))


def median(values: Sequence[float]) -> float:
    """The median of a few plain numbers, as ``float(np.median(values))`` gives it (the mean
    of the middle two for an even count), without numpy's overhead: a frame takes the median
    of its dozen cards' areas several times."""
    s = sorted(values)
    mid = len(s) // 2
    return float(s[mid]) if len(s) % 2 else (s[mid - 1] + s[mid]) / 2


def quad_area(q: np.ndarray) -> float:
    """Signed area; positive for clockwise-on-screen (y down) corners.  In plain numbers
    (double precision): some two hundred quads a frame, where numpy's scalars cost four
    times as much (with the compiled reader, the C kernel ``quad_area``: the same sum)."""
    if _KERNELS is not None and _plain_quad(q):
        return float(_KERNELS.quad_area(q, q.dtype == np.float64))
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = np.asarray(q).reshape(4, 2).tolist()
    return 0.5 * float(x0 * y1 - x1 * y0 + x1 * y2 - x2 * y1
                       + x2 * y3 - x3 * y2 + x3 * y0 - x0 * y3)


_PREV_SIDE = np.array([3, 0, 1, 2])  # the side before each side of a quad


# the side lines' fit: residuals (px) up to HUBER_C count in full, farther ones by
# HUBER_C / residual (Huber's weights), reweighted FIT_ROUNDS times from the plain
# least-squares line
HUBER_C = 1.345
FIT_ROUNDS = 3


def refine_quad(contour: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """Fit a line to the middle of each side's contour points and intersect them."""
    return refine_quads([(contour, quad)])[0]


def refine_quads(items: Sequence[tuple[np.ndarray, np.ndarray]]) -> list[np.ndarray]:
    """For each (contour, quad): the quad's corners where lines fitted to its sides meet,
    each line fitted to the contour points along the middle 70% of that side and within
    max(3 px, 4% of its length) of it; the quad itself where the contour is too short,
    a side too short, two lines parallel or a corner moved by more than 8% of the
    diagonal (a failed fit).  A side with fewer than 5 such points keeps its own line.

    Each line is a robust least-squares fit: Huber's weights (see ``HUBER_C``), iterated
    ``FIT_ROUNDS`` times from the plain fit -- a glyph or shadow touching the outline pulls
    it little (OpenCV's fitLine restarts its Huber fit from twenty random subsets of each
    side's points, and took 1.5 ms a frame; the corners of drawn cards come out as close to
    the truth).  All the sides of all the quads are fitted together: by the C kernel
    ``fit_sides`` with the compiled reader (some 0.1 ms for a dozen cards), else in a few
    passes of numpy over the points of the frame's cards (:func:`_side_lines`, the same
    numbers to the bit; compiled, some 1 ms).  Each quad comes out as it would alone, to
    the bit."""
    out = [np.asarray(q, np.float32) for _, q in items]
    todo = [k for k, (c, _) in enumerate(items) if len(c.reshape(-1, 2)) >= 16]
    if not todo:
        return out
    quads = np.stack([out[k] for k in todo]).astype(np.float64)  # K x 4 x 2
    n_quads = len(todo)
    ab = quads[:, NEXT_CORNER] - quads
    lengths = np.hypot(ab[..., 0], ab[..., 1])  # K x 4
    usable = lengths.min(axis=1) >= 4
    u = ab / np.maximum(lengths, 1e-9)[..., None]
    # each side's line: direction (vx, vy) through (px, py) -- by default its own side,
    # through its first corner -- where at least 5 points lie along it
    pts = [items[k][0].reshape(-1, 2) for k in todo]
    counts = [len(c) for c in pts]
    p = np.concatenate(pts).astype(np.float64)
    if _KERNELS is not None:
        lines = np.zeros((n_quads, 4, 4))
        lines[..., :2] = u
        _KERNELS.fit_sides(p, np.asarray(counts, np.int64), np.ascontiguousarray(quads),
                           np.ascontiguousarray(u), np.ascontiguousarray(lengths), n_quads,
                           FIT_ROUNDS, HUBER_C, lines)
        vx, vy, px, py = (lines[..., j].reshape(-1) for j in range(4))
    else:
        vx, vy, px, py = _side_lines(p, counts, quads, u, lengths)
    # each corner where the side before it meets its own side (quads x sides)
    vx2, vy2 = vx.reshape(-1, 4), vy.reshape(-1, 4)
    x2, y2 = px.reshape(-1, 4) + quads[..., 0], py.reshape(-1, 4) + quads[..., 1]
    vx1, vy1, x1, y1 = (a[:, _PREV_SIDE] for a in (vx2, vy2, x2, y2))
    den = vx1 * vy2 - vy1 * vx2
    crossing = (np.abs(den) >= 1e-6).all(axis=1)
    den = np.where(np.abs(den) < 1e-6, 1.0, den)
    tt = ((x2 - x1) * vy2 - (y2 - y1) * vx2) / den
    res = np.stack([x1 + tt * vx1, y1 + tt * vy1], axis=-1)  # K x 4 x 2
    # refinement must not move corners far (a failed fit)
    diag = np.hypot(*(quads[:, 2] - quads[:, 0]).T)
    moved = res - quads
    near = np.hypot(moved[..., 0], moved[..., 1]).max(axis=1) <= 0.08 * diag
    for j in np.flatnonzero(usable & crossing & near).tolist():
        out[todo[j]] = res[j].astype(np.float32)
    return out


def _side_lines(
    p: NDArray[np.float64], counts: list[int], quads: NDArray[np.float64],
    u: NDArray[np.float64], lengths: NDArray[np.float64],
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    """The lines of :func:`refine_quads`: for each side of each quad (K x 4 x 2 corners,
    ``u`` their sides' unit directions, ``lengths`` their lengths), of the contour points
    ``p`` (``counts`` of them to each quad, in order) those along the middle 70% of the side
    and within max(3 px, 4% of its length) of it, a line fitted -- direction (vx, vy) and a
    point (px, py) relative to the side's first corner, four arrays of K x 4 -- where there
    are 5 such points or more; else the side's own direction through its first corner.

    The sums run point by point, in the contour's order, from zero (numpy's bincount, and
    the C kernel ``fit_sides`` alike), and the angles are the C library's (``math``): the
    kernel gives the same numbers to the bit."""
    n_quads = len(quads)
    owner = np.repeat(np.arange(n_quads), counts)
    # (M x 4 each: per point, its quad's corners, sides' directions and the bounds along
    # and off each side, made per side and repeated -- the same numbers as made per point)
    cx, cy, ux, uy = (np.repeat(v, counts, axis=0) for v in (
        quads[..., 0], quads[..., 1], u[..., 0], u[..., 1]))
    lo, hi, off = (np.repeat(v, counts, axis=0) for v in (
        0.15 * lengths, 0.85 * lengths, np.maximum(3.0, 0.04 * lengths)))
    rx = p[:, 0, None] - cx
    ry = p[:, 1, None] - cy
    t = rx * ux + ry * uy
    d = np.abs(rx * uy - ry * ux)
    sel = (t > lo) & (t < hi) & (d < off)
    # the points chosen, grouped by side (quad k's side i is group 4k + i), in the contour's
    # order; positions relative to the side's first corner (found in the flat array: point
    # * 4 + side)
    flat = np.flatnonzero(sel)
    at, side = flat >> 2, flat & 3
    group = owner[at] * 4 + side
    order = np.argsort(group, kind="stable")
    group = group[order]
    flat = flat[order]
    x, y = rx.reshape(-1)[flat], ry.reshape(-1)[flat]
    per_side = np.bincount(group, minlength=4 * n_quads)
    enough = per_side >= 5
    keep = enough[group]
    x, y = x[keep], y[keep]
    fitted = np.flatnonzero(enough)
    vx, vy = u[..., 0].flatten(), u[..., 1].flatten()  # (copies: u is the caller's)
    px, py = np.zeros(4 * n_quads), np.zeros(4 * n_quads)
    if not len(fitted):
        return vx, vy, px, py
    m = len(fitted)
    at_side = np.repeat(np.arange(m), per_side[fitted])  # each point's side, of those fitted
    w = np.ones(len(x))
    cos: list[float] = []
    sin: list[float] = []
    for rnd in range(FIT_ROUNDS + 1):
        # weighted centroid, and the principal direction of the weighted scatter
        wx, wy = w * x, w * y
        wsum = np.bincount(at_side, w, m)
        mx = np.bincount(at_side, wx, m) / wsum
        my = np.bincount(at_side, wy, m) / wsum
        sxx = np.bincount(at_side, wx * x, m) / wsum - mx * mx
        syy = np.bincount(at_side, wy * y, m) / wsum - my * my
        sxy = np.bincount(at_side, wx * y, m) / wsum - mx * my
        angles = [0.5 * math.atan2(2.0 * b, a - c)
                  for a, b, c in zip(sxx.tolist(), sxy.tolist(), syy.tolist(), strict=True)]
        cos = [math.cos(a) for a in angles]
        sin = [math.sin(a) for a in angles]
        if rnd == FIT_ROUNDS:
            break
        cs, sn = np.array(cos)[at_side], np.array(sin)[at_side]
        r = np.abs((x - mx[at_side]) * sn - (y - my[at_side]) * cs)
        w = HUBER_C / np.maximum(r, HUBER_C)
    vx[fitted], vy[fitted], px[fitted], py[fitted] = cos, sin, mx, my
    return vx, vy, px, py


_OUTLINE_T = np.linspace(0.1, 0.9, 8)


def _outline_covered(c: np.ndarray, quad: np.ndarray, tol: float, share: float) -> bool:
    """Whether at least ``share`` of the quad's outline runs along the contour (within
    ``tol`` px).  Each point measured costs a pass over the whole contour, so the count
    stops as soon as too many points are off it.  With the compiled reader the C kernel
    ``outline_off`` counts them (OpenCV's distances, but for sides too far to matter)."""
    pts = (quad[:, None, :] + (turn_quad(quad, 1) - quad)[:, None, :] * _OUTLINE_T[None, :, None])
    if _KERNELS is not None and c.dtype == np.int32 and c.size == 2 * len(c):
        # (the same count, and the same answer, in one C pass: outline_off)
        places = np.ascontiguousarray(pts.reshape(-1, 2), np.float64)
        off = _KERNELS.outline_off(np.ascontiguousarray(c), len(c), places, len(places),
                                   float(tol), float(share), np.empty(len(places)))
        return not (len(places) - off) / len(places) < share
    pts = pts.reshape(-1, 2).tolist()
    off = 0
    for x, y in pts:
        if abs(cv2.pointPolygonTest(c, (x, y), True)) > tol:
            off += 1
            if (len(pts) - off) / len(pts) < share:
                return False
    return True


_TURNS_MIN = 800


def _turns(c: np.ndarray) -> np.ndarray:
    """The points of a closed contour (N x 1 x 2, CHAIN_APPROX_NONE) where it turns: a
    point that it enters and leaves by the same step lies between its two neighbours on a
    straight line, so it is no corner of the convex hull, whose points (and their order)
    are the same from these alone; sorting them costs a third as much.  An outline of
    fewer than ``_TURNS_MIN`` points is given back whole: the hull sorts those in less
    time than finding the turns takes (a card's outline at detection scale is some 300)."""
    p = c.reshape(-1, 2)
    if len(p) < _TURNS_MIN:
        return c
    step = np.empty_like(p)  # step[i]: from point i - 1 to point i
    np.subtract(p[1:], p[:-1], out=step[1:])
    np.subtract(p[:1], p[-1:], out=step[:1])
    sx, sy = step[:, 0], step[:, 1]
    turn = np.empty(len(p), bool)
    np.not_equal(sx[:-1], sx[1:], out=turn[:-1])
    turn[:-1] |= sy[:-1] != sy[1:]
    turn[-1] = bool(sx[-1] != sx[0] or sy[-1] != sy[0])
    return c[turn]


# a contour's first quad: (quad, its area, the hull's area, the contour's, solid), and
# whether lines are to be fitted to its sides (its polygon cut off rounded corners)
_Rough = tuple[NDArray[np.float32], float, float, float, bool, bool]


def _quad_from_contour(
    c: np.ndarray, cfg: RecognizerConfig, img_area: float, ragged: bool = False
) -> tuple[NDArray[np.float32], float] | None:
    """A card-like quad fitted to an outer contour, with its area; or None.  ``ragged``:
    the contour comes from a mask whose card corners may be eaten away (a card in
    shadow), so a fitted rectangle may stand in for a polygon that cuts one off.  (In
    two steps, :func:`_rough_quad` and :func:`_finish_quad`, between which a mask's
    outlines have their sides fitted together.)"""
    rough = _rough_quad(c, cfg, img_area, ragged)
    if rough is None:
        return None
    return _finish_quad(c, rough, cfg, refine_quad(c, rough[0]) if rough[5] else None)


def _rough_quad(
    c: np.ndarray, cfg: RecognizerConfig, img_area: float, ragged: bool = False
) -> _Rough | None:
    """:func:`_quad_from_contour`'s polygon, before lines are fitted to its sides."""
    area = float(cv2.contourArea(c))
    if area > cfg.max_card_area * img_area:
        return None
    hull = cv2.convexHull(_turns(c))
    hull_area = float(cv2.contourArea(hull))
    if hull_area < cfg.min_card_area * img_area:
        return None
    # a card whose white border is broken by its picture or index is not solid, but its
    # outline still runs all around its convex hull
    solid = area / hull_area >= cfg.min_solidity
    if not solid and area / hull_area < cfg.min_ring_solidity:
        return None
    peri = cv2.arcLength(hull, True)
    quad = None
    for eps in (0.015, 0.025, 0.04, 0.06):
        ap = cv2.approxPolyDP(hull, eps * peri, True)
        if len(ap) == 4:
            quad = ap.reshape(4, 2).astype(np.float32)
            break
        if len(ap) < 4:
            break
    if quad is None:
        rect = cv2.minAreaRect(c)
        box = cv2.boxPoints(rect).astype(np.float32)
        if hull_area / max(1.0, rect[1][0] * rect[1][1]) < cfg.min_rectangularity:
            return None
        if solid and area / max(1.0, rect[1][0] * rect[1][1]) < cfg.min_rectangularity:
            return None
        quad = box
    quad = order_clockwise(quad)
    qa = quad_area(quad)
    sq = _quad_from_sides(hull, peri, cfg.side_fit_eps, max(qa, 1.02 * qa))
    if sq is not None:
        sa = quad_area(sq)
        if qa < sa <= hull_area / 0.9 and sa > 1.02 * qa:
            # the polygon cut a corner that the card's sides, run on, give back (ink at
            # the corner joined to the card's edge ate into its outline)
            quad, qa = sq, sa
    if ragged and qa > 0 and hull_area / qa >= 1.12:
        # the polygon cut off a ragged corner (a card in shadow, its paper near the
        # threshold): the fitted rectangle holds it all (the sides are refined later)
        rect = cv2.minAreaRect(c)
        if hull_area / max(1.0, rect[1][0] * rect[1][1]) >= cfg.min_rectangularity:
            quad = order_clockwise(cv2.boxPoints(rect).astype(np.float32))
            qa = quad_area(quad)
    return quad, qa, hull_area, area, solid, qa > 0 and hull_area / qa >= 1.12


def _refit_quad(
    c: np.ndarray, rough: _Rough, cfg: RecognizerConfig, fitted: np.ndarray | None
) -> tuple[NDArray[np.float32], float] | None:
    """For an outline :func:`_finish_quad` refused: the quad of lines fitted to its sides
    (``fitted``, or fitted now), taken where ``refit_share`` of its outline runs along
    the contour -- a small card seen at a slant, its index close to a corner: its far
    side short, its corners round over several of that side's pixels, the polygon cut
    them off by more than they are, and the ring of paper round its middle (a printed
    frame, darker), broken where the index touches the card's edge, leaves the
    polygon's sides off the outline.  Only a ring (not solid) whose polygon cut off at
    least ``refit_cut`` of its hull and whose contour runs near the polygon's outline."""
    if (cfg.refit_share >= 1.0 or rough[4] or rough[1] <= 0
            or rough[2] / rough[1] < cfg.refit_cut or not _near_outline(c, rough[0])):
        return None
    if fitted is None:
        fitted = refine_quad(c, rough[0])
    return _finish_quad(c, rough, cfg, fitted, cfg.refit_share)


def _despurred(
    c: np.ndarray, cfg: RecognizerConfig, img_area: float, mask: np.ndarray | None = None
) -> tuple[NDArray[np.float32], float, np.ndarray] | None:
    """For a region's outline ``c`` that gives no quad: a card's quad (its area, and the
    outline to fit its corners to) once the thin bright strips it touches are taken off
    -- a table's edge, a ruler, a cable: one region with the card.  The region, filled,
    is opened by a disk of ``despur_radius`` times its deepest inside distance (half a
    card's short side, for a card); what that takes off beyond specks (the tips of the
    card's corners) is a strip, each of which must meet the rest along at most
    ``despur_contact`` of the card's short side (a fanned card's strip beside the card over
    it runs along a whole side).  The rest must be one piece, its quad's sides lines
    fitted to the region's outline but where the strips run off it (:func:`_fit_sides`),
    the region's outline must run along nearly all of them (a piece of a court whose
    picture broke its paper up has sides inside the region), and no long strip may run
    on along one of them (``despur_along``, ``despur_turn``: the margin beside such a
    court's picture, or a card under it showing beyond it).  A noisy table's speckle may
    leave a quad so too: ``despur_on`` of the region's outline must run along its sides,
    and at most ``despur_ring`` of the ring round it be paper in ``mask`` (the mask the
    outline was traced in).  The quad is a card's shape as any outline's must be; whether
    it is a card's size the caller weighs."""
    # (a strip running off a card leaves its region far from solid: a region that is,
    # a court's paper broken by its picture, two cards overlapping a little, is let be)
    hull_area = float(cv2.contourArea(cv2.convexHull(_turns(c))))
    if float(cv2.contourArea(c)) >= cfg.min_solidity * hull_area:
        return None
    # all of it worked out on the region drawn small (the root of its area at most
    # _DESPUR_SIDE px: the opening's disk grows with the card, and its cost with the
    # disk's area), the quad then fitted to the region's own outline
    x, y, w, h = cv2.boundingRect(c)
    f = min(1.0, _DESPUR_SIDE / math.sqrt(max(1.0, float(cv2.contourArea(c)))))
    pad = 5  # (more than the closing reaches: it must not run into the box's edge)
    origin = np.array([x, y], np.float64)
    small = np.round((c.reshape(-1, 2) - origin) * f + pad).astype(np.int32)
    filled = np.zeros((int(h * f) + 2 * pad + 1, int(w * f) + 2 * pad + 1), np.uint8)
    cv2.fillPoly(filled, [small], 255)
    # (closed first: an index or pip whose ink reaches the card's edge notches the region
    # by a thin channel, and the hole behind it, opened, would eat into the card; closed,
    # the channel is shut and the hole filled)
    shut, _ = cv2.findContours(cv2.morphologyEx(filled, cv2.MORPH_CLOSE,
                                                _DISK7 if f > 0.7 else _SQUARE3),
                               cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    cv2.drawContours(filled, shut, -1, 255, cv2.FILLED)
    deepest = float(cv2.minMaxLoc(cv2.distanceTransform(filled, cv2.DIST_L2, 3))[1])
    r = int(round(cfg.despur_radius * deepest))
    # (the smallest card taken, min_card_area of the picture, is some 0.42 of its area's
    # root deep: a region less deep holds no card -- a court's paper broken up)
    if r < 2 or deepest < 0.35 * f * math.sqrt(cfg.min_card_area * img_area):
        return None
    disk = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))
    opened = cv2.morphologyEx(filled, cv2.MORPH_OPEN, disk)
    rest = cv2.bitwise_and(filled, cv2.bitwise_not(opened))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(rest, connectivity=8,
                                                         ltype=cv2.CV_16U)
    strips = [i for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] >= 2 * r * r]
    if not strips:
        return None
    # (where each meets the rest: its pixels in a ring two pixels wide round the rest)
    ring = cv2.bitwise_and(cv2.dilate(opened, _SQUARE5), rest)
    reach = cfg.despur_contact * 2.0 * deepest
    if any(cv2.countNonZero(ring[labels == i]) / 2.0 > reach for i in strips):
        return None
    least = cfg.min_card_area * img_area * f * f
    pieces, _ = cv2.findContours(opened, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    big = [p for p in pieces if cv2.contourArea(p) >= least]
    if len(big) != 1:
        return None  # (two cards a strip joins: not parted here)
    # the card as opened: its corners rounded, a bump where a strip met it
    piece = np.round((big[0].reshape(-1, 1, 2) - pad) / f + origin).astype(np.int32)
    rough = _rough_quad(piece, cfg, img_area, ragged=True)
    if rough is None:
        return None
    # its sides fitted to the card's own outline: the region's, but for where the strips
    # run off it (and half a disk round them)
    half = max(1, r // 2)
    zone = cv2.dilate(np.isin(labels, strips).astype(np.uint8),
                      cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * half + 1, 2 * half + 1)))
    pts = c.reshape(-1, 2)
    at = np.round((pts - origin) * f + pad).astype(np.intp)
    at[:, 0] = np.clip(at[:, 0], 0, zone.shape[1] - 1)
    at[:, 1] = np.clip(at[:, 1], 0, zone.shape[0] - 1)
    own = np.ascontiguousarray(pts[zone[at[:, 1], at[:, 0]] == 0].reshape(-1, 1, 2))
    if len(own) < 16:
        return None
    quad = _fit_sides(own.reshape(-1, 2).astype(np.float32), rough[0])
    if quad is None:
        return None
    sides = quad_sides(quad).tolist()
    if (min(sides) < 8
            or max(sides[0], sides[2]) > cfg.max_side_ratio * min(sides[0], sides[2])
            or max(sides[1], sides[3]) > cfg.max_side_ratio * min(sides[1], sides[3])
            or min(sides[0] + sides[2], sides[1] + sides[3])
            < cfg.min_aspect * max(sides[0] + sides[2], sides[1] + sides[3])
            or not cv2.isContourConvex(quad.reshape(-1, 1, 2))
            or quad_area(quad) < cfg.min_card_area * img_area
            or not _outline_covered(c, quad, max(2.0, 0.02 * max(sides)), 0.85)):
        return None
    # despur_on of the region's outline, its notches shut (but where the strips leave
    # it), runs along the quad's sides: a region of a noisy table's speckle runs
    # everywhere, near every line, but mostly along none
    rim = max(shut, key=cv2.contourArea).reshape(-1, 2)
    rim = rim[zone[rim[:, 1], rim[:, 0]] == 0]
    if _share_near(quad, (rim - pad) / f + origin,
                   max(2.0, 0.02 * max(sides)) + 0.5 / f) < cfg.despur_on:
        return None
    # a long strip that runs on along one of the card's sides is the margin of a card
    # whose paper its picture broke up (the quad, the margin below the picture), not a
    # strip the card touches
    for i in strips:
        ys, xs = np.nonzero(labels == i)
        strip = (np.stack([xs, ys], axis=1).astype(np.float64) - pad) / f + origin
        if _runs_along(strip, quad, cfg.despur_along * min(sides), cfg.despur_turn):
            return None
    if mask is not None and _ring_share(mask, quad) > cfg.despur_ring:
        return None
    return order_clockwise(quad), quad_area(quad), own


def _share_near(quad: np.ndarray, pts: np.ndarray, tol: float) -> float:
    """The share of the points ``pts`` (N x 2) within ``tol`` px of the quad's outline."""
    if len(pts) == 0:
        return 0.0
    a = np.asarray(quad, np.float64)
    ab = np.roll(a, -1, axis=0) - a
    rel = np.asarray(pts, np.float64).reshape(-1, 1, 2) - a[None]
    t = np.clip((rel * ab[None]).sum(axis=2) / (ab * ab).sum(axis=1)[None], 0.0, 1.0)
    gap = np.hypot(*(rel - t[..., None] * ab[None]).transpose(2, 0, 1)).min(axis=1)
    return float(np.count_nonzero(gap <= tol)) / len(pts)


def _runs_along(strip: np.ndarray, quad: np.ndarray, width: float, degrees: float) -> bool:
    """Whether the pixels ``strip`` (N x 2) make a long strip (three times as long as
    wide and more) running along one of the quad's sides: its direction within
    ``degrees`` of the side's, its middle within ``width`` of the side's line."""
    mid = strip.mean(axis=0)
    evals, evecs = np.linalg.eigh(np.cov((strip - mid).T))
    if evals[1] < 9.0 * max(float(evals[0]), 1e-9):
        return False  # a stub
    along = evecs[:, 1]
    q = np.asarray(quad, np.float64)
    d = np.roll(q, -1, axis=0) - q
    u = d / np.hypot(d[:, 0], d[:, 1])[:, None]
    turn = math.cos(math.radians(degrees))
    for k in range(4):
        rel = mid - q[k]
        if (abs(float(along @ u[k])) >= turn
                and abs(rel[0] * u[k, 1] - rel[1] * u[k, 0]) < width):
            return True
    return False


def _ring_share(mask: np.ndarray, quad: np.ndarray) -> float:
    """The share of ``mask`` (non-zero) in the ring round ``quad`` from 1.05 to 1.2 times
    its size about its middle: round a card on a table, little (a strip it touches
    crosses the ring); round a region of a noisy table's speckle, as much as anywhere."""
    q = np.asarray(quad, np.float64)
    mid = q.mean(axis=0)
    return _share_in(mask, mid + (q - mid) * 1.2, mid + (q - mid) * 1.05)


def _share_in(mask: np.ndarray, outer: np.ndarray, inner: np.ndarray | None = None) -> float:
    """The share of ``mask`` (non-zero) in the polygon ``outer`` (``mask``'s pixels), less
    the polygon ``inner`` where given (a ring)."""
    h, w = mask.shape[:2]
    x0, y0 = (int(max(0.0, v)) for v in np.floor(outer.min(axis=0)))
    x1 = int(min(w, math.ceil(outer[:, 0].max()) + 1))
    y1 = int(min(h, math.ceil(outer[:, 1].max()) + 1))
    if x1 <= x0 or y1 <= y0:
        return 0.0
    part = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillPoly(part, [np.round(outer - (x0, y0)).astype(np.int32)], 255)
    if inner is not None:
        cv2.fillPoly(part, [np.round(inner - (x0, y0)).astype(np.int32)], 0)
    total = cv2.countNonZero(part)
    if total == 0:
        return 0.0
    return cv2.countNonZero(cv2.bitwise_and(part, mask[y0:y1, x0:x1])) / total


def _fit_sides(pts: NDArray[np.float32], quad: np.ndarray) -> NDArray[np.float32] | None:
    """The quad whose sides are lines fitted (Huber) to the points ``pts`` near each side
    of ``quad`` (along its middle four fifths, within a band that narrows from an eighth
    of the shorter side to a twentieth over three rounds): for a first quad some pixels
    off its card's sides, as an opened region's is.  None where a side has too few points
    or two sides do not cross."""
    q = order_clockwise(np.asarray(quad, np.float32)).astype(np.float64)
    for share in (0.125, 0.08, 0.05):
        band = share * float(quad_sides(q).min())
        lines = []
        for k in range(4):
            a, b = q[k], q[(k + 1) % 4]
            d = b - a
            length = float(np.hypot(*d))
            if length < 1e-6:
                return None
            u = d / length
            rel = pts - a
            t = rel @ u
            off = np.abs(rel[:, 0] * u[1] - rel[:, 1] * u[0])
            near = pts[(t > 0.1 * length) & (t < 0.9 * length) & (off < band)]
            if len(near) < 5:
                return None
            vx, vy, x0, y0 = cv2.fitLine(near.reshape(-1, 1, 2), cv2.DIST_HUBER, 0, 0.01,
                                         0.01).reshape(-1).tolist()
            lines.append((x0, y0, vx, vy))
        corners = []
        for k in range(4):
            px, py, ux, uy = lines[k - 1]
            qx, qy, vx, vy = lines[k]
            den = ux * vy - uy * vx
            if abs(den) < 1e-6:
                return None
            t = ((qx - px) * vy - (qy - py) * vx) / den
            corners.append((px + t * ux, py + t * uy))
        q = np.array(corners, np.float64)
    return q.astype(np.float32)


def _near_outline(c: np.ndarray, quad: np.ndarray) -> bool:
    """Whether the contour runs near nine tenths of the quad's outline (within twice the
    tolerance :func:`_finish_quad` allows a quad): a card's paper whose polygon is off
    its sides, not a piece of something else, is worth its sides fitted."""
    sides = quad_sides(quad)
    return _outline_covered(c, quad, 2 * max(2.0, 0.02 * float(sides.max())), 0.9)


def _finish_quad(
    c: np.ndarray, rough: _Rough, cfg: RecognizerConfig, fitted: np.ndarray | None,
    share: float = 1.0,
) -> tuple[NDArray[np.float32], float] | None:
    """:func:`_quad_from_contour`'s quad from its rough one and, where that cut off
    rounded corners, the quad ``fitted`` to its sides (:func:`refine_quads`), taken where
    at least ``share`` of its outline runs along the contour."""
    quad, qa, hull_area, area, solid, _ = rough
    if fitted is not None:
        # the polygon's corners lie on the hull's rounded corners and cut them off (a
        # small card, whose corners are round over several pixels): the corners where
        # lines fitted to its sides meet
        # (only when the contour runs along all of the new quad's outline: lines fitted
        # to a card's sides, not to a glyph or a shadow cutting into its outline)
        fitted = order_clockwise(fitted)
        fa = quad_area(fitted)
        tol = max(1.5, 0.015 * float(np.hypot(*(fitted[2] - fitted[0]))))
        if 0.85 < hull_area / max(1e-6, fa) < 1.12 and _outline_covered(c, fitted, tol, share):
            quad, qa = fitted, fa
    if qa <= 0 or not (0.85 < hull_area / qa < 1.12):
        return None
    if solid and not (0.8 < area / qa < 1.12):
        return None
    sides = quad_sides(quad).tolist()  # (plain floats: the same doubles, cheaper to compare)
    if min(sides) < 8:
        return None
    if not solid and not _outline_covered(c, quad, max(2.0, 0.02 * max(sides)), 0.85):
        return None
    # opposite sides: perspective may shorten one, but not by much more than half
    if max(sides[0], sides[2]) / min(sides[0], sides[2]) > cfg.max_side_ratio:
        return None
    if max(sides[1], sides[3]) / min(sides[1], sides[3]) > cfg.max_side_ratio:
        return None
    a = (sides[0] + sides[2]) / 2
    b = (sides[1] + sides[3]) / 2
    aspect = min(a, b) / max(a, b)
    if aspect < cfg.min_aspect:
        return None
    if not cv2.isContourConvex(quad.reshape(-1, 1, 2).astype(np.float32)):
        return None
    return quad, qa


def _quad_from_sides(
    hull: np.ndarray, peri: float, eps: float, beyond: float = -math.inf
) -> NDArray[np.float32] | None:
    """The quad whose sides run along the four longest sides of the convex ``hull``
    (simplified to within ``eps`` of its perimeter ``peri``), met where they cross: a
    corner cut off or rounded is a short side between two long ones.  None when the
    hull has fewer than five sides or its longest four do not make a convex quad, and
    when its area is well below ``beyond`` (a caller that takes the quad only when it is
    bigger than that: most cards' polygon cuts no corner, and such a quad would only be
    made to be dropped).
    (Plain floats: it runs for every outline of every mask, on a handful of points.)"""
    poly: list[list[float]] = cv2.approxPolyDP(hull, eps * peri, True).reshape(-1, 2).tolist()
    n = len(poly)
    if n < 5:
        return None
    sides = []
    for k in range(n):
        (x0, y0), (x1, y1) = poly[k], poly[(k + 1) % n]
        sides.append((math.hypot(x1 - x0, y1 - y0), k, x0, y0, x1 - x0, y1 - y0))
    longest = sorted(sorted(sides, reverse=True)[:4], key=lambda t: t[1])
    if longest[-1][0] < 0.15 * peri or min(t[0] for t in longest) < 0.15 * peri:
        return None  # not four long sides: no card's outline
    pts = []
    for a, b in zip(longest, longest[1:] + longest[:1], strict=True):
        _, _, px, py, ux, uy = a
        _, _, qx, qy, vx, vy = b
        den = ux * vy - uy * vx
        if abs(den) < 1e-6:
            return None
        t = ((qx - px) * vy - (qy - py) * vx) / den
        pts.append((px + t * ux, py + t * uy))
    # (in doubles, of corners not yet rounded to float32: the float32 area of the quad
    # returned differs by some millionths of it, far less than the margin)
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = pts
    area = 0.5 * abs(x0 * y1 - x1 * y0 + x1 * y2 - x2 * y1 + x2 * y3 - x3 * y2
                     + x3 * y0 - x0 * y3)
    if area < beyond - 1e-4 * abs(beyond):
        return None
    # each long side of the hull is most of its side of the quad: a corner cut off is a
    # short piece of the outline, not a long diagonal (a shadow, a hand)
    for k in range(4):
        (x0, y0), (x1, y1) = pts[k - 1], pts[k]
        if longest[k][0] < 0.6 * math.hypot(x1 - x0, y1 - y0):
            return None
    quad = np.array(pts, np.float32)
    if not cv2.isContourConvex(quad.reshape(-1, 1, 2)):
        return None
    return order_clockwise(quad)


def _skewed(quad: np.ndarray, ratio: float) -> bool:
    """Whether either pair of opposite sides differs in length by more than ``ratio``."""
    sides = quad_sides(quad)
    return bool(max(sides[0], sides[2]) > ratio * min(sides[0], sides[2])
                or max(sides[1], sides[3]) > ratio * min(sides[1], sides[3]))


def _paper_round(gray: np.ndarray, outer: np.ndarray, inner: np.ndarray) -> bool:
    """Whether the ring between quad ``outer`` and quad ``inner`` (a frame printed on a
    card) is about as light as the paper inside the frame, as a card's margin is."""
    ring = np.zeros(gray.shape, np.uint8)
    cv2.fillPoly(ring, [np.round(outer).astype(np.int32)], 1)
    inside = np.zeros_like(ring)
    cv2.fillPoly(inside, [np.round(inner).astype(np.int32)], 1)
    ring &= 1 - inside
    if not ring.any() or not inside.any():
        return False
    paper = float(np.percentile(gray[inside > 0], 80))
    return float(np.median(gray[ring > 0])) >= 0.8 * paper


def _above(img: np.ndarray, t: float, value: int = 255) -> NDArray[np.uint8]:
    """``(img > t).astype(np.uint8) * value`` of a uint8 picture, in one OpenCV call (for
    whole levels, above ``t`` is above floor(t))."""
    return np.asarray(cv2.threshold(img, math.floor(t), value, cv2.THRESH_BINARY)[1],
                      dtype=np.uint8)


def _below(img: np.ndarray, t: float, value: int = 255) -> NDArray[np.uint8]:
    """``(img < t).astype(np.uint8) * value`` of a uint8 picture, in one OpenCV call (for
    whole levels, below ``t`` is at most ceil(t) - 1)."""
    return np.asarray(cv2.threshold(img, math.ceil(t) - 1, value, cv2.THRESH_BINARY_INV)[1],
                      dtype=np.uint8)


RAGGED = ("closed", "hull", "pale")  # masks whose card corners may be eaten away
# the last-resort masks, whose quads are taken only where no other mask found a card (and
# reported only when read): the same ones
LAST_RESORT = RAGGED
_DISK5 = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
_SQUARE3 = np.ones((3, 3), np.uint8)
_SQUARE5 = np.ones((5, 5), np.uint8)
_ERODE_REACH = 2  # how far from a pixel an erosion by _SQUARE5 looks
_DISK7 = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7))
_DESPUR_SIDE = 60.0  # (see _despurred)
# masks that may be peppered with holes (saturation at the paper threshold), and how
# much of a mask its small holes fill for it to count as such (a beige table: 1.8%; other
# tables' paper masks at most 0.8%)
SPECKLED = ("paper", "pale")
SPECKLE_PX = 0.012
# a box's colour is shrunk alone where the resize repeats itself every SHRINK_PERIOD
# px or fewer, on frames up to SHRINK_SIDE px (see _Shrunk)
SHRINK_PERIOD = 5
SHRINK_SIDE = 2048
EDGE_MARGIN = 16  # px around a box whose edges are made for the box alone (at detection scale)
_NOISE_KERNEL = np.array([[1, -2, 1], [-2, 4, -2], [1, -2, 1]], np.float32)


class _Shrunk:
    """The frame in colour as :func:`_shrink` shrinks it to ``size`` (the grey picture's):
    made whole when first needed, or only round a box (:meth:`region`) where one linear
    resize makes it and repeats itself every few pixels -- every P source pixels give Q,
    Q at most ``SHRINK_PERIOD``, on frames up to ``SHRINK_SIDE`` px (1280 x 720 to 800 x
    450: 8 give 5) -- then the part of the frame the box needs, from the start of its first
    period to a whole period after it, is resized alone, which gives the box's pixels
    exactly as the whole frame's resize does.  (A masks' box costs a tenth of the frame.)"""

    def __init__(self, image: np.ndarray, scale: float, size: tuple[int, int]) -> None:
        self.image = image
        self.scale = scale
        self.size = size
        self._whole: np.ndarray | None = None
        # (P, Q) along x and along y, when a box may be shrunk alone
        self._periods: tuple[tuple[int, int], tuple[int, int]] | None = None
        H, W = image.shape[:2]
        w, h = size
        if 0.5 <= scale < 1.0 and max(W, H) <= SHRINK_SIDE:
            gx, gy = math.gcd(W, w), math.gcd(H, h)
            px, py = (W // gx, w // gx), (H // gy, h // gy)
            if max(px[1], py[1]) <= SHRINK_PERIOD:
                self._periods = (px, py)

    def whole(self) -> np.ndarray:
        if self._whole is None:
            self._whole = _shrink(self.image, self.scale)
        return self._whole

    def region(self, box: tuple[int, int, int, int]) -> np.ndarray:
        """The shrunk frame inside ``box`` (x0, y0, x1, y1, in its pixels)."""
        x0, y0, x1, y1 = box
        if self.scale >= 1.0:
            return self.image[y0:y1, x0:x1]  # (no shrinking at all)
        w, h = self.size
        if self._whole is not None or self._periods is None or (
                2 * (x1 - x0) * (y1 - y0) > w * h):
            return self.whole()[y0:y1, x0:x1]
        (px, qx), (py, qy) = self._periods
        # (an output pixel looks at no source pixel before its period's; the last of a
        # period, with a weight of nothing or next to it, at the next period's first)
        ax0, ay0 = x0 // qx * qx, y0 // qy * qy
        ax1, ay1 = min(w, (-(-x1 // qx) + 1) * qx), min(h, (-(-y1 // qy) + 1) * qy)
        part = self.image[ay0 * py // qy : ay1 * py // qy, ax0 * px // qx : ax1 * px // qx]
        small = cv2.resize(part, (ax1 - ax0, ay1 - ay0), interpolation=cv2.INTER_LINEAR)
        return np.asarray(small[y0 - ay0 : y1 - ay0, x0 - ax0 : x1 - ax0], dtype=np.uint8)


class _Masks:
    """Binary masks in which a card should be one component, named; plain Otsu first (it
    gives the whole extent of a card that lies apart) and Otsu cut along edges, then the
    others (:meth:`more`), which only a harder frame needs."""

    def __init__(self, gray: np.ndarray, colour: _Shrunk, cfg: RecognizerConfig) -> None:
        self.colour = colour  # the frame in colour, at gray's size, made where needed
        self._bright_mask: np.ndarray | None = None  # see _bright
        self.cfg = cfg
        self.gray = gray
        self.blur = cv2.GaussianBlur(gray, (5, 5), 0)
        self.otsu_t, self.otsu = cv2.threshold(
            self.blur, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU
        )
        self._not_edges_made: np.ndarray | None = None  # see not_edges
        # what the properties below worked out, kept (a compiled class has no instance
        # dictionary for functools.cached_property to keep them in, and would work them out
        # again at every look)
        self._noise: float | None = None
        self._bright_split: float | None = None
        self._shaded: bool | None = None
        self._local_bright: np.ndarray | None = None

    @property
    def not_edges(self) -> np.ndarray:
        """Everywhere but near an edge (made when first needed: a frame whose cards all lie
        apart needs no cut mask)."""
        if self._not_edges_made is None:
            self._not_edges_made = self._not_edges(self.blur)
        return self._not_edges_made

    def _not_edges(self, blur: np.ndarray) -> np.ndarray:
        edges = cv2.Canny(blur, self.cfg.canny_low, self.cfg.canny_high)
        edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
        return np.asarray(cv2.bitwise_not(edges), dtype=np.uint8)

    def not_edges_in(self, box: tuple[int, int, int, int]) -> np.ndarray:
        """:attr:`not_edges` inside the box (x0, y0, x1, y1), made from the edges of the box
        and a margin of EDGE_MARGIN px around it when the whole frame's are not made yet (a
        frame with one or two cards that need the other masks pays for the edges there
        only).  The margin holds every pixel the gradients, their thinning and the dilation
        look at, so the two differ only where an edge weaker than ``canny_high`` in the box
        is kept for its link to a strong one more than the margin away."""
        x0, y0, x1, y1 = box
        if self._not_edges_made is not None:
            return self.not_edges[y0:y1, x0:x1]
        h, w = self.blur.shape
        mx0, my0 = max(0, x0 - EDGE_MARGIN), max(0, y0 - EDGE_MARGIN)
        mx1, my1 = min(w, x1 + EDGE_MARGIN), min(h, y1 + EDGE_MARGIN)
        around = self._not_edges(self.blur[my0:my1, mx0:mx1])
        return around[y0 - my0 : y1 - my0, x0 - mx0 : x1 - mx0]

    @property
    def noise(self) -> float:
        """The sensor noise of the (shrunk) picture: see :func:`noise_sigma`."""
        if self._noise is None:
            self._noise = noise_sigma(self.gray)
        return self._noise

    def faint_source(self, blur: np.ndarray) -> np.ndarray:
        """The picture faint edges are looked for in: ``blur``, smoothed more when the
        camera's noise would make edges everywhere at the faint thresholds."""
        cfg = self.cfg
        if self.noise < cfg.detect_noise:
            return blur
        return np.asarray(cv2.GaussianBlur(blur, (0, 0), cfg.detect_noise_blur * self.noise),
                          dtype=np.uint8)

    @property
    def bright_split(self) -> float:
        """Otsu's threshold among the pixels brighter than Otsu's own."""
        if self._bright_split is None:
            bright = self.blur[self.blur > self.otsu_t]
            if bright.size <= 100:
                self._bright_split = float(self.otsu_t)
            else:
                t2, _ = cv2.threshold(bright.reshape(1, -1), 0, 255,
                                      cv2.THRESH_BINARY + cv2.THRESH_OTSU)
                self._bright_split = float(t2)
        return self._bright_split

    @property
    def shaded(self) -> bool:
        """Whether the table (what lies below Otsu's threshold) is lit unevenly: its
        lighter tenth more than ``shade_ratio`` x as light as its darker tenth (a shadow
        across it, a lamp's pool of light)."""
        if self._shaded is None:
            self._shaded = self._lit_unevenly()
        return self._shaded

    def _lit_unevenly(self) -> bool:
        if min(self.blur.shape) < 64:
            return False
        # (every 8th pixel of every 8th row of the smoothed picture)
        tiny = np.ascontiguousarray(self.blur[4::8, 4::8])
        hist = cv2.calcHist([tiny], [0], None, [256], [0, 256]).ravel()[: int(self.otsu_t)]
        n = float(hist.sum())
        if n < 50:
            return False
        cum = hist.cumsum()
        lo, hi = float(cum.searchsorted(0.1 * n)), float(cum.searchsorted(0.9 * n))
        return hi > self.cfg.shade_ratio * max(lo, 1.0)

    @property
    def local_bright(self) -> np.ndarray:
        """255 where the picture is much lighter than the mean round it (a card in a shadow
        that darkens the table round it too: below Otsu's threshold, but paper against
        table; see ``RecognizerConfig.local_ratio``)."""
        if self._local_bright is None:
            h, w = self.blur.shape
            k = max(15, (min(h, w) // 4) | 1)
            self._local_bright = self._lighter_than(cv2.blur(self.blur, (k, k)))
        return self._local_bright

    def _lighter_than(self, light: np.ndarray) -> np.ndarray:
        """255 where the picture is lighter than ``light`` (a level for each pixel) by
        ``local_ratio`` x and ``local_offset`` levels: paper against the table round it."""
        cfg = self.cfg
        return np.asarray(cv2.compare(self.blur, cv2.addWeighted(
            light, cfg.local_ratio, light, 0.0, cfg.local_offset), cv2.CMP_GT), dtype=np.uint8)

    def over_table(self, card_side: float = 0.0) -> np.ndarray:
        """255 where the picture is lighter than the table's own light there by
        ``local_ratio`` x and ``local_offset`` levels: paper, in the light or in a shadow,
        and a card lying across a shadow's edge as one region.  The table's light is the
        picture with every bright thing narrower than a square opened away (a grey
        opening, which keeps a shadow's edge where a mean would spread it), worked out on
        the picture shrunk eightfold; the square ``shade_box`` x the picture's short side,
        and ``shade_card`` x ``card_side`` (the short side of the cards found, in the
        picture's pixels) where that is more, up to ``shade_most`` x the picture's short
        side: a card the square fits in is no bright thing to it, and its paper was taken
        for the table's light (but a square much bigger than the table between the cards
        fits nowhere on it, and takes its darkest part for its light)."""
        h, w = self.blur.shape
        small = cv2.resize(self.blur, (max(1, w // 8), max(1, h // 8)),
                           interpolation=cv2.INTER_AREA)
        cfg = self.cfg
        short = min(h, w)
        side = max(cfg.shade_box * short, min(cfg.shade_card * card_side, cfg.shade_most * short))
        k = max(3, int(side / 8) | 1)
        table = cv2.morphologyEx(small, cv2.MORPH_OPEN, np.ones((k, k), np.uint8))
        return self._lighter_than(cv2.resize(table, (w, h), interpolation=cv2.INTER_LINEAR))

    def shade_mask(self, card_side: float = 0.0) -> np.ndarray | None:
        """The "shade" mask of the whole frame (:meth:`over_table`: ``card_side`` is the
        short side of the cards found), where the table is lit unevenly; else None.  Its
        gaps closed by a disk of ``shade_close`` px (the band along a shadow's edge across
        a card, where the table's light, enlarged from the eighth scale, still steps down)
        and its specks opened away by one of ``shade_open``.  (Not one of :meth:`more`: a
        card in a shadow is whole in it, and a box of paper left over holds only the part
        of it the "local" mask saw.)"""
        cfg = self.cfg
        if "shade" not in cfg.detect_masks or not self.shaded:
            return None
        m = self.over_table(card_side)
        if cfg.shade_close > 1:
            m = cv2.morphologyEx(m, cv2.MORPH_CLOSE, cv2.getStructuringElement(
                cv2.MORPH_ELLIPSE, (cfg.shade_close, cfg.shade_close)))
        if cfg.shade_open > 1:
            m = cv2.morphologyEx(m, cv2.MORPH_OPEN, cv2.getStructuringElement(
                cv2.MORPH_ELLIPSE, (cfg.shade_open, cfg.shade_open)))
        return np.asarray(m, dtype=np.uint8)

    def first(self) -> list[tuple[str, Callable[[], np.ndarray]]]:
        """The first masks, each made when called."""
        masks: list[tuple[str, Callable[[], np.ndarray]]] = []
        if "otsu" in self.cfg.detect_masks:
            masks.append(("otsu", lambda: self.otsu))
        masks.append(("otsu-cut", lambda: cv2.bitwise_and(self.otsu, self.not_edges)))
        return masks

    def cut_in(self, box: tuple[int, int, int, int]) -> np.ndarray:
        """The cut mask ("otsu-cut") inside the box (x0, y0, x1, y1)."""
        x0, y0, x1, y1 = box
        return np.asarray(cv2.bitwise_and(self.otsu[y0:y1, x0:x1], self.not_edges_in(box)),
                          dtype=np.uint8)

    def more(
        self, roi: tuple[int, int, int, int] | None = None, only: Sequence[str] | None = None
    ) -> list[tuple[str, np.ndarray]]:
        """The other masks, of the whole frame or of the box ``roi`` (x0, y0, x1, y1); of
        those, only the ones named in ``only`` where given.  (Not "shade": see
        :meth:`shade_mask`.)"""
        cfg, otsu_t = self.cfg, self.otsu_t
        names = [n for n in cfg.detect_masks if only is None or n in only]
        x0, y0, x1, y1 = roi or (0, 0, self.blur.shape[1], self.blur.shape[0])
        blur = self.blur[y0:y1, x0:x1]
        @cache
        def not_edges() -> np.ndarray:  # (made for the masks cut along edges only)
            return self.not_edges if roi is None else self.not_edges_in(roi)

        masks = []
        faint_edges: np.ndarray | None = None  # the faint edges, for "faint" and "hull" both
        if "paper" in names or "pale" in names:
            # light and unsaturated: card paper
            hsv = cv2.cvtColor(self.colour.region((x0, y0, x1, y1)), cv2.COLOR_BGR2HSV)
            unsaturated = _below(cv2.extractChannel(hsv, 1), cfg.max_card_saturation)
            paper = cv2.bitwise_and(_above(blur, max(otsu_t * 0.9, 60)), unsaturated)
            if "paper" in names:
                masks.append(("paper", cv2.bitwise_and(paper, not_edges())))
            if "pale" in names:
                # the same, not cut along edges but opened wider: on a busy table (a rug's
                # colours and lattice) the edges of the pips and of the pattern cut a
                # card's outline up, and specks of pale pattern join it; a disk of 5 px
                # parts them again
                masks.append(("pale", cv2.morphologyEx(paper, cv2.MORPH_OPEN, _DISK5)))
        if "faint" in names:
            # regions closed by faint edges (a white card on a light grey table)
            faint_edges = cv2.Canny(self.faint_source(blur), cfg.canny_faint[0],
                                    cfg.canny_faint[1])
            faint = cv2.dilate(faint_edges, np.ones((3, 3), np.uint8))
            masks.append(
                (
                    "faint",
                    cv2.bitwise_and(cv2.bitwise_not(faint), _above(blur, otsu_t * 0.8)),
                )
            )
        if "closed" in names:
            # Otsu's mask with its specks closed: a card in shadow, near the threshold,
            # comes out of a noisy camera as paper peppered with holes.  Where Otsu put
            # most of the picture on the bright side (it split ink from a light table and
            # the cards on it), the split is made again among the bright pixels.
            disk = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7))
            split = self.otsu[y0:y1, x0:x1]
            if cv2.countNonZero(self.otsu) > 0.7 * self.otsu.size:
                split = _above(blur, self.bright_split)
            masks.append(("closed", cv2.morphologyEx(split, cv2.MORPH_CLOSE, disk)))
        if "hull" in names:
            # the outlines of edges, filled: a card whose outline shows as an edge all
            # round (or nearly: a shadow may break it) though its paper is no brighter than
            # the table nor evenly lit
            # (pieces of one outline up to hull_gap px apart are one outline: the edges
            # are grown by that much to be grouped, and the filled hulls shrunk back)
            edges = (faint_edges if faint_edges is not None
                     else cv2.Canny(self.faint_source(blur), cfg.canny_faint[0],
                                    cfg.canny_faint[1]))
            grow = 2 * (cfg.hull_gap // 2) + 1
            edges = cv2.dilate(edges, np.ones((grow, grow), np.uint8))
            found, _ = cv2.findContours(edges, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
            hull = np.zeros_like(edges)
            big = 0.25 * cfg.min_card_area * self.blur.size
            hulls = [cv2.convexHull(c) for c in found if len(c) >= 8]
            hulls = [c for c in hulls if cv2.contourArea(c) >= big]
            if hulls:
                cv2.drawContours(hull, hulls, -1, 255, thickness=cv2.FILLED)
                # one pixel apart: hulls that touch stay separate regions
                cv2.drawContours(hull, hulls, -1, 0, thickness=1)
                if grow > 3:
                    hull = cv2.erode(hull, np.ones((grow - 2, grow - 2), np.uint8))
                masks.append(("hull", hull))
        if "local" in names and self.shaded:
            masks.append(("local", cv2.bitwise_and(self.local_bright[y0:y1, x0:x1],
                                                   not_edges())))
        if "otsu2" in names:
            # a second Otsu split among the brighter pixels: card against a light table
            bright = self.blur[self.blur > otsu_t]
            if bright.size > 100:
                t2, _ = cv2.threshold(
                    bright.reshape(1, -1), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU
                )
                masks.append(
                    ("otsu2", cv2.bitwise_and((blur > t2).astype(np.uint8) * 255, not_edges()))
                )
        return masks

    def _bright(self, min_px: float) -> np.ndarray:
        """1 where the dimmest mask would see paper (brighter than 0.8 of Otsu's
        threshold), or on a table lit unevenly the "local" mask (made once a frame: the
        cards found change, the picture does not)."""
        if self._bright_mask is not None:
            return self._bright_mask
        left = _above(self.blur, self.otsu_t * 0.8, 1)
        if "local" in self.cfg.detect_masks and self.shaded:
            # ... or than the table round it, in a shadow: regions some two fifths of the
            # smallest card across at least (not the light streaks of a wood grain), their
            # pips closed over first
            k = max(3, int(math.sqrt(min_px) / 2.5) | 1)
            closed = cv2.morphologyEx(self.local_bright, cv2.MORPH_CLOSE, _DISK5)
            opened = np.asarray(cv2.morphologyEx(closed, cv2.MORPH_OPEN,
                                                 np.ones((k, k), np.uint8)), dtype=np.uint8)
            left |= (opened > 0).view(np.uint8)
        self._bright_mask = left
        return left

    def covered(
        self, box: tuple[int, int, int, int], quads: list[np.ndarray], min_px: float
    ) -> bool:
        """Whether ``quads`` leave no paper in ``box`` (x0, y0, x1, y1) that :meth:`left_over`
        would look at: what they leave of :meth:`_bright` there, its blurred rims eroded as
        there, is less than the least region it keeps."""
        left = self._uncovered(self._bright(min_px),
                               [np.round(q).astype(np.int32) for q in quads], box)
        return cv2.countNonZero(left) < 0.1 * self.cfg.detect_left_over * min_px

    def _uncovered(
        self, mask: np.ndarray, polys: list[np.ndarray],
        box: tuple[int, int, int, int] | None = None,
    ) -> np.ndarray:
        """What of ``mask`` (:meth:`_bright`, or Otsu's) the quads (``polys``: their corners
        rounded to whole pixels) leave uncovered, the blurred rim round each card eroded
        away (it is no region of its own); of the box ``box`` (x0, y0, x1, y1) alone where
        given."""
        h, w = self.blur.shape
        x0, y0, x1, y1 = box or (0, 0, w, h)
        left = _filled_out(mask[y0:y1, x0:x1], polys, (x0, y0))
        return np.asarray(cv2.erode(left, _SQUARE5), dtype=np.uint8)

    def _uncovered_count(
        self, mask: np.ndarray, polys: list[np.ndarray], box: tuple[int, int, int, int]
    ) -> int:
        """How many pixels :meth:`_uncovered` leaves on in the whole frame's mask inside
        ``box`` (x0, y0, x1, y1): the quads filled in the whole frame (a polygon clipped
        to a box is filled a pixel differently along its sides), the erosion made in the
        box grown by its reach alone, where every pixel of the box sees what it sees in the
        whole frame (not at the grown box's own edges, which it would take as paper
        beyond)."""
        x0, y0, x1, y1 = box
        if x1 <= x0 or y1 <= y0:
            return 0
        h, w = self.blur.shape
        gx0, gy0 = max(0, x0 - _ERODE_REACH), max(0, y0 - _ERODE_REACH)
        gx1, gy1 = min(w, x1 + _ERODE_REACH), min(h, y1 + _ERODE_REACH)
        left = _filled_out(mask, polys)
        part = cv2.erode(np.ascontiguousarray(left[gy0:gy1, gx0:gx1]), _SQUARE5)
        return int(cv2.countNonZero(part[y0 - gy0 : y1 - gy0, x0 - gx0 : x1 - gx0]))

    def left_over(
        self, quads: list[np.ndarray], min_px: float
    ) -> list[tuple[int, int, int, int]] | None:
        """Where the other masks must look, given the card quads found: None for the whole
        frame, else boxes (x0, y0, x1, y1) around the bright regions no quad covers, down to
        what the dimmest mask ("faint": brighter than 0.8 of Otsu's threshold) would see,
        and on a table lit unevenly what the "local" mask sees (lighter than round it); no
        box when the quads cover everything."""
        if not quads:
            return None
        cfg = self.cfg
        polys = [np.round(q).astype(np.int32) for q in quads]
        left = self._uncovered(self._bright(min_px), polys)
        least = cfg.detect_left_over * min_px
        if cv2.countNonZero(left) < least:
            return []
        # the table's lighter part: a region only a little darker than Otsu's threshold
        # (every region of Otsu's mask, paper as bright as the cards found, being
        # covered), reaching the frame's edge and much larger than a card, on a table lit
        # evenly (in a shadow, a card may be as dim: see "local") where three cards or more
        # are found (a court's printed frame, inside its card, aside), all of a size, each
        # side of each a step down from paper to table (a card found short, cut where its
        # paper falls below the threshold, the rest of it in that region, shows no step
        # along the cut)
        band = 0.0
        card = median([quad_area(q) for q in quads])
        cards = _outer_quads(quads) if cfg.detect_table_band > 0 and not self.shaded else []
        bx, by, bw, bh = cv2.boundingRect(left)
        if (_cards_of_a_size(cards, cfg)
                and _least_step(self.blur, cards) >= cfg.detect_band_step):
            # (Otsu's paper lies inside the dimmest mask's, so what the quads leave of it,
            # eroded, lies inside what they leave of that: it is counted in that box alone)
            if self._uncovered_count(self.otsu, polys, (bx, by, bx + bw, by + bh)) < least:
                band = cfg.detect_table_band * card
        # the regions, found at half resolution (a quarter of the pixels to label), and
        # only in the box around what is left: labels and stats are the same in a window
        # that starts at even coordinates (the labelling works in 2 x 2 blocks) and leaves
        # out only empty rows and columns, but cost as many fewer pixels
        if bw == 0:
            return []
        hx0, hy0 = (bx // 2) & ~1, (by // 2) & ~1
        hx1, hy1 = (bx + bw - 1) // 2 + 1, (by + bh - 1) // 2 + 1
        _, _, stats, _ = cv2.connectedComponentsWithStats(
            np.ascontiguousarray(left[2 * hy0 : 2 * hy1 : 2, 2 * hx0 : 2 * hx1 : 2]),
            connectivity=8, ltype=cv2.CV_16U,
        )
        stats[:, 0] += hx0
        stats[:, 1] += hy0
        h, w = left.shape
        # room around a region for the whole card it may belong to, and the table beside it
        pad = int(0.6 * math.sqrt(card)) + 2
        boxes = []
        for x, y, bw, bh, area in stats[1:].tolist():
            if 4 * area < 0.1 * least:
                continue
            if band and 4 * area > band and (
                    x == 0 or y == 0 or 2 * (x + bw) >= w - 2 or 2 * (y + bh) >= h - 2):
                continue
            boxes.append((max(0, 2 * x - pad), max(0, 2 * y - pad),
                          min(w, 2 * (x + bw) + pad), min(h, 2 * (y + bh) + pad)))
        # pieces of one card (its picture cut it up) lie in boxes that overlap: one box
        # around them all is looked in once
        boxes = _merge_boxes(boxes)
        if sum((b[2] - b[0]) * (b[3] - b[1]) for b in boxes) > 0.5 * h * w:
            return None  # as well look at everything at once
        return boxes


def _filled_out(
    mask: np.ndarray, polys: list[np.ndarray], at: tuple[int, int] = (0, 0)
) -> np.ndarray:
    """A copy of ``mask`` (whose top-left pixel is ``at`` of the frame) with the polygons
    ``polys`` (frame pixels) filled with 0."""
    left = mask.copy()
    offset = (-at[0], -at[1])  # (OpenCV shifts the points itself: no array made a polygon)
    for poly in polys:
        # (one by one: polygons filled together leave where two overlap unfilled, and
        # a court's printed frame, a quad inside its card's, is among the quads)
        cv2.fillPoly(left, [poly], 0, offset=offset)
    return left


def noise_sigma(gray: np.ndarray) -> float:
    """The sensor noise's standard deviation in grey levels of ``gray`` (Immerkaer's
    estimate, with the median of the absolute Laplacian-like response so that edges and
    texture count less), from every 4th pixel of every 4th row (a picture's noise is no
    less plain there, at a sixteenth of the cost)."""
    sub = np.asarray(gray[::4, ::4], dtype=np.float32)
    if min(sub.shape) < 8:
        return 0.0
    # |response| in whole levels (saturated at 255), its median read off a histogram
    r = cv2.convertScaleAbs(cv2.filter2D(sub, -1, _NOISE_KERNEL))
    cum = np.cumsum(cv2.calcHist([r], [0], None, [256], [0, 256]).ravel())
    med = float(np.searchsorted(cum, cum[-1] / 2))
    return med * 1.4826 / 6.0


def _speckled(mask: np.ndarray) -> bool:
    """Whether ``mask`` (0/255) is mostly on and peppered with holes: a closing by 3 x 3
    fills more than ``SPECKLE_PX`` of its pixels (paper on a beige table whose saturation
    lies at the paper threshold: thousands of holes, each an outline of its own)."""
    on = cv2.countNonZero(mask)
    if 2 * on < mask.size:
        return False
    closed = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    return cv2.countNonZero(closed) - on > SPECKLE_PX * mask.size


def outer_outlines(
    mask: np.ndarray, least: float, offset: tuple[int, int] = (0, 0), speckled: bool = False
) -> list[np.ndarray]:
    """The outer outlines of the components of ``mask`` (8-connected, non-zero), also of
    those lying inside another's hole, whose bounding box holds ``least`` px or more and
    which have 16 points or more: as ``cv2.findContours`` traces them (every pixel,
    ``offset`` added) and in the order it lists them with ``RETR_CCOMP`` (the last one
    met in a raster scan first).

    ``speckled``: the mask is peppered with small holes (paper whose saturation lies at
    the threshold: a beige table), thousands of which the two-level trace would follow
    and skip -- then the outer outlines are traced level by level instead, each level's
    components that could hold a large one in a hole filled away before the next is
    traced.  Either way the same outlines in the same order; which is quicker depends on
    how many holes there are."""
    if not speckled:
        contours, hier = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_NONE,
                                          offset=offset)
        if hier is None:
            return []
        out = []
        for c, parent in zip(contours, hier[0][:, 3].tolist(), strict=True):
            if parent == -1 and len(c) >= 16:
                _, _, w, h = cv2.boundingRect(c)
                if w * h >= least:
                    out.append(c)
        return out
    # an outer outline is traced the same whatever lies inside it (the trace looks only
    # at the component's pixels and the background round it), and a component inside a
    # hole whose box is smaller than ``least`` has a smaller box still
    work = np.asarray(cv2.threshold(mask, 0, 1, cv2.THRESH_BINARY)[1], dtype=np.uint8)
    found: list[np.ndarray] = []
    level, _ = cv2.findContours(work, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    while level:
        large = []
        for c in level:
            _, _, w, h = cv2.boundingRect(c)
            if w * h >= least:
                large.append(c)
        if not large:
            break
        found += [c for c in large if len(c) >= 16]
        for c in large:
            x, y = c[0, 0].tolist()
            cv2.floodFill(work, None, (x, y), 0, flags=8)
        level, _ = cv2.findContours(work, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    found.sort(key=lambda c: (int(c[0, 0, 1]), int(c[0, 0, 0])), reverse=True)
    if offset != (0, 0):
        for c in found:
            c += np.array(offset, np.int32)
    return found


def _merge_boxes(boxes: list[tuple[int, int, int, int]]) -> list[tuple[int, int, int, int]]:
    """The boxes (x0, y0, x1, y1), any two that overlap replaced by the box around both
    (until none overlap)."""
    out: list[tuple[int, int, int, int]] = []
    for box in boxes:
        x0, y0, x1, y1 = box
        merged = True
        while merged:
            merged = False
            for i, (a0, b0, a1, b1) in enumerate(out):
                if a0 < x1 and x0 < a1 and b0 < y1 and y0 < b1:
                    x0, y0, x1, y1 = min(x0, a0), min(y0, b0), max(x1, a1), max(y1, b1)
                    del out[i]
                    merged = True
                    break
        out.append((x0, y0, x1, y1))
    return out


def outward_normals(q: np.ndarray, d: np.ndarray) -> np.ndarray:
    """The unit normals of the sides of quads ``q`` (N x 4 x 2, float32), pointing out of
    each quad; ``d``: the sides, corner to next corner."""
    normal = np.empty_like(d)
    normal[..., 0] = d[..., 1]
    np.negative(d[..., 0], out=normal[..., 1])
    normal /= np.maximum(1e-6, np.hypot(normal[..., 0], normal[..., 1]))[..., None]
    inward = ((q + d / 2 - q.mean(axis=1, keepdims=True)) * normal).sum(axis=-1) < 0
    normal *= np.where(inward, -1.0, 1.0)[..., None]
    return normal


def _least_step(img: np.ndarray, quads: list[np.ndarray], reach: float = 3.0) -> float:
    """The least, over every side of the ``quads``, of how much darker ``img`` is ``reach``
    px outside the side than as far inside it (the median of three places along it).  With
    the compiled reader, the C kernel ``side_steps`` works it out in one pass: the same
    float32 steps, the same number."""
    q = np.asarray(quads, np.float32).reshape(-1, 4, 2)
    h, w = img.shape[:2]
    if _KERNELS is not None and len(q) and img.size and img.dtype == np.uint8 and img.ndim == 2:
        return float(_KERNELS.side_steps(np.ascontiguousarray(img), h, w,
                                         np.ascontiguousarray(q), len(q), reach))
    d = q.take(NEXT_CORNER, axis=1) - q
    normal = outward_normals(q, d) * reach
    on = q[:, :, None, :] + d[:, :, None, :] * _STEP_ALONG[None, None, :, None]

    def grey(p: np.ndarray) -> NDArray[np.float32]:
        x = np.clip(np.round(p[..., 0]).astype(np.int32), 0, w - 1)
        y = np.clip(np.round(p[..., 1]).astype(np.int32), 0, h - 1)
        return np.asarray(img[y, x], np.float32)

    step = grey(on - normal[:, :, None, :]) - grey(on + normal[:, :, None, :])
    return float(np.median(step, axis=2).min())


_STEP_ALONG = np.array([0.25, 0.5, 0.75], np.float32)  # where along a side _least_step looks


def _outer_quads(quads: list[np.ndarray]) -> list[np.ndarray]:
    """``quads`` but those inside the box of a larger one (a court's printed frame, among
    the candidates before they are picked)."""
    boxes = [_box(q) for q in quads]
    every = [abs(quad_area(q)) for q in quads]
    return [q for q, b, a in zip(quads, boxes, every, strict=True)
            if not any(a < a2 and b[0] >= o[0] - 1 and b[1] >= o[1] - 1
                       and b[2] <= o[2] + 1 and b[3] <= o[3] + 1
                       for o, a2 in zip(boxes, every, strict=True))]


def _cards_of_a_size(quads: list[np.ndarray], cfg: RecognizerConfig) -> bool:
    """Whether ``quads`` are ``single_min_cards`` or more, each of an area within
    ``single_area`` of their median."""
    sized = _of_a_size([abs(quad_area(q)) for q in quads], cfg)
    return bool(sized) and all(sized)


def _of_a_size(areas: list[float], cfg: RecognizerConfig) -> list[bool]:
    """Per area, whether it is within ``single_area`` of their median; none (an empty
    list) with fewer than ``single_min_cards`` areas."""
    if len(areas) < cfg.single_min_cards:
        return []
    med = median(areas)
    lo, hi = cfg.single_area
    return [lo * med <= a <= hi * med for a in areas]


def _joined(new: list[_Cand], found: list[_Cand], card: float, shapes: _Shapes,
            cfg: RecognizerConfig) -> bool:
    """Whether ``new`` is one quad of the size of ``card`` (within ``single_area`` of it)
    that overlaps none of ``found``."""
    lo, hi = cfg.single_area
    return (len(new) == 1 and lo * card <= new[0][0] <= hi * card
            and not any(shapes.overlap(t[1], new[0][1]) > 0.1 for t in found))


def _box(q: np.ndarray) -> tuple[float, float, float, float]:
    """x0, y0, x1, y1 around the points, in plain floats (numpy's reductions cost more than
    they save on four points, and this runs for most pairs of candidates)."""
    xs, ys = zip(*q.tolist(), strict=True)
    return min(xs), min(ys), max(xs), max(ys)


class _Shapes:
    """The boxes and areas of the quads one :func:`detect` compares pairwise, each made
    once (a frame of a dozen cards compares some hundred pairs of candidates)."""

    def __init__(self) -> None:
        self._boxes: dict[int, tuple[float, float, float, float]] = {}
        self._areas: dict[int, float] = {}
        self._held: list[np.ndarray] = []  # the quads measured: their ids stay theirs

    def box(self, q: np.ndarray) -> tuple[float, float, float, float]:
        b = self._boxes.get(id(q))
        if b is None:
            b = self._boxes[id(q)] = _box(q)
            self._held.append(q)
        return b

    def area(self, q: np.ndarray) -> float:
        a = self._areas.get(id(q))
        if a is None:
            a = self._areas[id(q)] = quad_area(q)
            self._held.append(q)
        return a

    def overlap(self, a: np.ndarray, b: np.ndarray) -> float:
        """Area of intersection over the smaller quad's area."""
        ax0, ay0, ax1, ay1 = self.box(a)
        bx0, by0, bx1, by1 = self.box(b)
        if ax1 <= bx0 or bx1 <= ax0 or ay1 <= by0 or by1 <= ay0:
            return 0.0
        inter, _ = cv2.intersectConvexConvex(a.astype(np.float32, copy=False),
                                             b.astype(np.float32, copy=False))
        return float(inter) / max(1e-6, min(self.area(a), self.area(b)))


_Cand = tuple[float, np.ndarray, np.ndarray]  # area, quad, contour


def _drop_copies(cands: list[_Cand]) -> list[_Cand]:
    """The same card found in several masks: keep the first (largest) of near-copies."""
    out: list[_Cand] = []
    keys: list[tuple[float, float, float]] = []
    for cand in cands:
        area, q, _ = cand
        cx, cy = (float(v) for v in q.sum(axis=0) / 4)
        tol = 0.03 * math.sqrt(area)
        if any(abs(cx - kx) < tol and abs(cy - ky) < tol and abs(area - ka) < 0.06 * ka
               for kx, ky, ka in keys):
            continue
        keys.append((cx, cy, area))
        out.append(cand)
    return out


def _drop_merged(cands: list[_Cand], shapes: _Shapes | None = None) -> list[_Cand]:
    """Drop a candidate that is really two or more touching cards: it holds at least two
    smaller, mutually separate candidates that together fill most of it."""
    overlap = (shapes or _Shapes()).overlap
    out = []
    for i, (area, q, c) in enumerate(cands):
        inside: list[np.ndarray] = []
        for a2, q2, _ in cands[i + 1 :]:
            if a2 < 0.8 * area and a2 > 0.15 * area and overlap(q2, q) > 0.85:
                if all(overlap(q2, o) < 0.25 for o in inside):
                    inside.append(q2)
        if len(inside) >= 2 and sum(quad_area(o) for o in inside) > 0.6 * area:
            continue
        out.append((area, q, c))
    return out


def _pick(cands: list[_Cand], shapes: _Shapes, max_overlap: float,
          fitted: dict[tuple[int, int], np.ndarray]) -> list[tuple[np.ndarray, _Cand]]:
    """The cards among the candidates (biggest first): each that overlaps none picked
    before it by more than ``max_overlap``, with its corners fitted to its sides (as
    ``fitted`` holds them by :func:`_cand_key`); with the candidate it is."""
    picked: list[tuple[np.ndarray, _Cand]] = []
    for cand in cands:
        if any(shapes.overlap(cand[1], k) > max_overlap for k, _ in picked):
            continue
        picked.append((fitted[_cand_key(cand)], cand))
    return picked


def _cand_key(cand: _Cand) -> tuple[int, int]:
    """A candidate's key while a frame is detected: the ids of its quad and its outline."""
    return id(cand[1]), id(cand[2])


def _single_regions(
    found: list[tuple[np.ndarray, np.ndarray]], cfg: RecognizerConfig
) -> list[tuple[int, int, int, int]]:
    """Bounding boxes of the plain Otsu regions (quad, contour) that are one card each:
    with at least ``single_min_cards`` such regions, those whose quad's area is within
    ``single_area`` of their median (two cards side by side would make a region of about
    twice the area).  The cut mask, a part of Otsu's, only finds pieces of those cards,
    which lose to the whole card found in Otsu's (bigger, so first, and covering them)."""
    out = []
    # (none with too few regions: zip stops at the empty list)
    sized = _of_a_size([quad_area(q) for q, _ in found], cfg)
    for one, (_, c) in zip(sized, found, strict=False):
        if one:
            x, y, w, h = cv2.boundingRect(c)
            out.append((x, y, x + w, y + h))
    return out


def detect_quads(image: np.ndarray, cfg: RecognizerConfig) -> list[np.ndarray]:
    """Card quads in ``image`` (BGR uint8), in image pixels, clockwise."""
    return detect(image, cfg)[0]


def _shrink(image: np.ndarray, scale: float) -> np.ndarray:
    """``image`` scaled by ``scale`` (<= 1): halvings first, then one linear resize."""
    small = image
    while scale < 0.5 and min(small.shape[:2]) >= 32:
        small = cv2.pyrDown(small)
        scale *= 2.0
    if scale < 1.0:
        small = cv2.resize(
            small,
            (max(1, round(small.shape[1] * scale)), max(1, round(small.shape[0] * scale))),
            interpolation=cv2.INTER_LINEAR,
        )
    return small


def detect(
    image: np.ndarray,
    cfg: RecognizerConfig,
    apart: list[bool] | None = None,
    gray: np.ndarray | None = None,
    guessed: list[bool] | None = None,
    explained: list[bool] | None = None,
) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Card quads in ``image`` (BGR uint8), in image pixels, clockwise; and the outlines
    (image pixels) of bright regions that whole cards do not explain: overlapping cards.
    ``apart``, when given, is filled with one flag per quad: whether the card is a bright
    region of its own in the plain Otsu mask (it touches no other card).  ``gray`` is the
    image in grey, if the caller has it already.  ``guessed``, when given, asks also for
    the quads of cards lying edge to edge with those found (:mod:`vision.neighbours`),
    added after the others, and for those of the last-resort masks (``LAST_RESORT``), and
    is filled with one flag per quad: whether it is such a guess (to be reported only if
    it reads as a card).  Without it there are none of either.  ``explained``, when given,
    is filled with one flag: whether the cards found cover every bright region of the
    picture (but specks smaller than a quarter of the smallest card; see
    ``detect_left_over``) -- no paper lies anywhere else, nor a code printed on paper; with
    ``guessed``, the last-resort quads count (a caller that drops one unread must unset
    the flag)."""
    h, w = image.shape[:2]
    if min(h, w) < 16:
        return [], []
    # at most detect_max_side on the long side, unless that leaves the short side below
    # detect_min_side (a tall scan of a whole deck)
    scale = min(1.0, max(cfg.detect_max_side / max(h, w), cfg.detect_min_side / min(h, w)))
    if gray is None:
        gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    # grey is all the first masks need: shrinking one channel costs a third of three, and
    # the colour copy is made only for the masks that want saturation
    want = scale
    small_gray = _shrink(gray, want)
    scale = small_gray.shape[1] / w
    sh, sw = small_gray.shape[:2]
    img_area = float(sh * sw)
    cands: list[tuple[float, np.ndarray, np.ndarray]] = []
    opener = np.ones((3, 3), np.uint8)
    min_px = cfg.min_card_area * img_area
    blobs: list[np.ndarray] = []
    masks = _Masks(small_gray, _Shrunk(image, want, (sw, sh)), cfg)
    alone: set[int] = set()  # contours (ids) of quads that are whole Otsu regions
    shapes = _Shapes()  # boxes and areas of the quads compared below
    hulls: set[int] = set()  # contours (ids) of quads from the last-resort masks
    paled: set[int] = set()  # ... of those, from the "pale" mask
    refitted: set[int] = set()  # ... of quads of the other masks' refused outlines refitted
    parted: list[_Cand] = []  # cards parted from the strips they touch (_despurred)
    shaded: set[int] = set()  # contours (ids) of quads from the "shade" mask
    # ... of those, in no box of paper left over (guesses: see below)
    shade_guesses: set[int] = set()

    # bounding boxes (x0, y0, x1, y1) of plain Otsu regions that are one card each; how
    # many regions of a card's size that mask has, and whether one frames the picture
    single: list[tuple[int, int, int, int]] = []
    # ... each with the margin by which a last-resort mask's outline may pass beyond it (a
    # tenth of the box's short side; the other masks' may not)
    single_margin: list[tuple[int, int, int, int, int]] = []
    otsu_boxes: list[tuple[int, int, int, int]] = []  # of the Otsu regions of a card's size
    otsu_framed = False

    def scan(name: str, mask: np.ndarray, roi: tuple[int, int, int, int] | None = None,
             near: list[tuple[int, int, int, int]] | None = None) -> None:
        nonlocal otsu_framed
        m = cv2.morphologyEx(mask, cv2.MORPH_OPEN, opener)
        x0, y0, x1, y1 = roi or (0, 0, sw, sh)
        # outer boundaries of every component, also of those lying inside another's hole
        # (the paper masks' table may be peppered with holes: see outer_outlines)
        outlines: list[tuple[np.ndarray, _Rough | None]] = []
        for c in outer_outlines(m, min_px, (x0, y0), name in SPECKLED and _speckled(m)):
            x, y, w, h = cv2.boundingRect(c)
            if (x <= 1) + (y <= 1) + (x + w >= sw - 1) + (y + h >= sh - 1) >= 3:
                otsu_framed |= name == "otsu"
                continue  # the table itself, framed by the picture's edges
            if name == "otsu":
                otsu_boxes.append((x, y, x + w, y + h))
            # (a whole frame's mask: a region in none of the boxes looked in is a guess)
            aside = near is not None and not any(
                x < bx1 and bx0 < x + w and y < by1 and by0 < y + h
                for bx0, by0, bx1, by1 in near)
            if roi is not None and (
                (x <= x0 + 1 and x0 > 0) or (y <= y0 + 1 and y0 > 0)
                or (x + w >= x1 - 1 and x1 < sw) or (y + h >= y1 - 1 and y1 < sh)
            ):
                continue  # cut by the box looked in: not the region's whole outline
            grow = int(name in LAST_RESORT)  # (the margin counts for those alone)
            if name != "otsu" and any(
                x >= sx0 - grow * m and y >= sy0 - grow * m
                and x + w <= sx1 + grow * m and y + h <= sy1 + grow * m
                for sx0, sy0, sx1, sy1, m in single_margin
            ):
                # a card found whole, or a piece of it: the cut mask's regions lie inside
                # Otsu's, and another mask's outline inside the box of one card traces
                # that card again (on a light table those masks are made over the whole
                # frame, and each would fit every card a second time); a last-resort
                # mask's, a little wider (its rim, its shadow), would only be dropped for
                # the card under it (see free() below)
                continue
            outlines.append((c, _rough_quad(c, cfg, img_area, ragged=name in RAGGED)))
            if aside:
                shade_guesses.add(id(c))
        # the sides of every outline whose polygon cut off rounded corners, fitted together
        refits = iter(refine_quads([(c, rough[0]) for c, rough in outlines
                                    if rough is not None and rough[5]]))
        for c, rough in outlines:
            fit = next(refits) if rough is not None and rough[5] else None
            r = None if rough is None else _finish_quad(c, rough, cfg, fit)
            refit = None
            if r is None and rough is not None and name not in LAST_RESORT:
                # (taken, as a last-resort quad is, only where no other mask found the
                # card: see below)
                refit = r = _refit_quad(c, rough, cfg, fit)
            if r is not None and name == "hull" and _skewed(r[0], cfg.hull_side_ratio):
                r = None  # an outline of edges is trusted only when nearly a rectangle
            if r is not None and name == "shade" and _share_in(m, r[0]) < cfg.shade_fill:
                r = None  # a ring of light lines (a zone printed on a board), not paper
            if r is not None:
                cands.append((r[1], r[0], c))
                if name == "shade":
                    shaded.add(id(c))
                if refit is not None:
                    refitted.add(id(c))
                elif name == "otsu":
                    alone.add(id(c))
                elif name in LAST_RESORT:
                    hulls.add(id(c))
                    if name == "pale":
                        paled.add(id(c))
            elif name == "otsu" and cfg.despur_radius > 0 and (
                    spurred := _despurred(c, cfg, img_area, m)) is not None:
                # a card and a thin bright strip it touches: the card (weighed below)
                parted.append((spurred[1], spurred[0], spurred[2]))
            elif name == "otsu" and cfg.read_overlaps:
                # overlapping cards are one region of the plain Otsu mask
                blobs.append(c)

    for name, make in masks.first():
        if name == "otsu-cut" and single and not otsu_framed:
            # the cut mask's regions lie inside the plain Otsu mask's, and those inside a
            # region that is one card are passed over: the mask is made only around the
            # other regions (none when every region is one card), each box two pixels
            # wider than its region, so that its regions are opened and outlined as in the
            # whole frame's mask (nor does the rest of the frame's edge map cost anything)
            whole = set(single)
            for box in _merge_boxes([(max(0, x0 - 2), max(0, y0 - 2), min(sw, x1 + 2),
                                      min(sh, y1 + 2))
                                     for x0, y0, x1, y1 in otsu_boxes
                                     if (x0, y0, x1, y1) not in whole]):
                scan(name, masks.cut_in(box), box)
            continue
        scan(name, make())
        if name == "otsu" and parted:
            # a card parted from a strip is taken where it is of the size of the cards
            # lying apart (a court's paper broken up by its picture may leave its margin
            # below the picture looking like a card with a strip, the paper beside the
            # picture: a third of a card); with none to compare, as a refitted quad is,
            # only where no other mask finds a card there
            sizes = [t[0] for t in cands if id(t[2]) in alone]
            typical = median(sizes) if sizes else 0.0
            lo, hi = cfg.despur_size
            for t in parted:
                if not sizes:
                    refitted.add(id(t[2]))
                elif not lo * typical <= t[0] <= hi * typical:
                    continue
                cands.append(t)
        if name == "otsu" and cfg.detect_skip_single:
            single = _single_regions([(q, c) for _, q, c in cands if id(c) in alone], cfg)
            single_margin = [(x0, y0, x1, y1, max(2, (min(x1 - x0, y1 - y0) + 5) // 10))
                             for x0, y0, x1, y1 in single]
    # cards lying apart on a darker table are all found by now; the other masks (each
    # costs about a tenth of the frame's reading) are for cards touching one another or
    # barely brighter than the table, which leave bright regions that no quad covers:
    # only there are they looked at
    # (a refitted quad is looked at again: the other masks may find its card better)
    rois = masks.left_over([q for _, q, c in cands if id(c) not in refitted], min_px
                           ) if cfg.detect_skip_clear else None
    if explained is not None:
        explained[:] = [rois == []]
    # a card whose picture cut its paper in two in Otsu's mask (a court's, its picture
    # reaching the card's edges) is left over in a box of its own, and the "closed" mask
    # joins its pieces: made first there, where the cards found are of a size, and where it
    # gives one quad of theirs, clear of them, and leaves no paper in the box uncovered,
    # the other masks (some 2 ms a box, each finding that card again) are not made there
    cards = [t[0] for t in cands if id(t[2]) in alone]
    sized = (bool(_of_a_size(cards, cfg)) and cfg.detect_join_first
             and "closed" in cfg.detect_masks)
    looked: list[tuple[int, int, int, int]] = []  # the boxes the other masks were made in
    for roi in [None] if rois is None else rois:
        rest = None
        if roi is not None and sized:
            before = len(cands)
            for name, mask in masks.more(roi, ("closed",)):
                scan(name, mask, roi)
            if _joined(cands[before:], cands[:before], median(cards), shapes, cfg) and (
                    masks.covered(roi, [q for _, q, _ in cands], min_px)):
                continue
            rest = [n for n in cfg.detect_masks if n != "closed"]
        for name, mask in masks.more(roi, rest):
            scan(name, mask, roi)
        looked.append(roi or (0, 0, sw, sh))
    if masks.shaded:
        # a table lit unevenly: the "shade" mask of the whole frame, its regions in the
        # boxes of paper left over (each whole, though the box holds only part of it)
        # cards, and those elsewhere guesses, reported only where they name a card (a card
        # deep in a shadow, darker than the lit table, is paper in no other mask, nor left
        # over; but a board's printed zones, a hand's shade, are regions of it too); the
        # square that opens the cards away bigger than the cards found lying apart
        short = [float(min(quad_sides(q))) for _, q, c in cands if id(c) in alone]
        if (shade := masks.shade_mask(median(short) if short else 0.0)) is not None:
            scan("shade", shade, None, looked)
    if hulls or refitted:
        # an edge outline ("hull") holds the card and whatever edge touches it (a shadow's,
        # the table's grain, the cards beside it), a closed mask ("closed") or a widely
        # opened one ("pale") the card and the specks beside it: such a quad is taken
        # only where no other mask found anything but, inside it, one frame printed on
        # the card (smaller than hull_yield and larger than hull_frame of it); and not when
        # much smaller than the cards found (a patch of texture).  The paper opened wide
        # first: it is the card's own paper, where the other two hold its shadow and
        # specks too (bigger, they would be picked before it)
        others = [t for t in cands if id(t[2]) not in hulls and id(t[2]) not in refitted]
        # (a sheet or the table's lighter part, table_area x the others' median and more,
        # is no card to be much smaller than: a score pad beside the cards would make every
        # such quad a patch of texture)
        # (each card once: several masks find the same one)
        sizes = [t[0] for t in _drop_copies(sorted(others, key=lambda t: -t[0]))]
        if len(sizes) >= 3:
            cap = cfg.table_area * median(sizes)
            sizes = [a for a in sizes if a < cap]
        least = cfg.hull_yield * max(sizes, default=0.0)

        def free(t: _Cand, among: list[_Cand]) -> bool:
            if t[0] < least:
                return False
            near = [o for o in among if shapes.overlap(o[1], t[1]) > 0.1]
            if not near:
                return True
            frame = max(near, key=lambda o: o[0])
            # a printed frame sits in the middle of its card, with paper all round it
            off = float(np.hypot(*(frame[1].mean(axis=0) - t[1].mean(axis=0))))
            return (
                cfg.hull_frame * t[0] <= frame[0] < cfg.hull_yield * t[0]
                and off < 0.1 * math.sqrt(t[0])
                and all(shapes.overlap(o[1], frame[1]) > 0.5 for o in near)
                and _paper_round(masks.blur, t[1], frame[1])
            )

        pale = [t for t in cands if id(t[2]) in paled and free(t, others)]
        kept_hulls = [t for t in cands if id(t[2]) in hulls and id(t[2]) not in paled
                      and free(t, others + pale)]
        taken = others + pale + kept_hulls
        # a refitted quad is kept only where no other quad of about its size (not a frame
        # or panel printed inside it) overlaps it, a better fit of that card; and, as the
        # others, not when much smaller than the cards found
        cands = taken + [t for t in cands if id(t[2]) in refitted and t[0] >= least and not any(
            o[0] >= cfg.hull_yield * t[0] and shapes.overlap(o[1], t[1]) > 0.1 for o in taken)]
    if shaded:
        # a quad of the "shade" mask is a card across a shadow's edge, where the others
        # find a piece of it; where one finds a quad of nearly its size over it, that is
        # the card, and the shade mask's took in some of the table beside it as well
        cands = [t for t in cands if id(t[2]) not in shaded or not any(
            id(o[2]) not in shaded and o[0] >= cfg.shade_yield * t[0]
            and shapes.overlap(o[1], t[1]) > 0.5 for o in cands)]
    if shade_guesses:
        # ... and one in no box of paper left over is a guess for where nothing else was
        # found (a card deep in a shadow): not over another quad (a card with the shade of
        # a hand beside it, the hand's shade and the card one region)
        firm = [t for t in cands if id(t[2]) not in shade_guesses]
        cands = [t for t in cands if id(t[2]) not in shade_guesses or not any(
            shapes.overlap(o[1], t[1]) > cfg.max_overlap for o in firm)]
    # biggest first; drop candidates that mostly lie inside one already kept (the printed
    # frame of a face card, the yellow panel of a pip card) or duplicate it
    cands.sort(key=lambda t: -t[0])
    cands = _drop_copies(cands)
    cands = _drop_merged(cands, shapes)
    # every candidate's corners fitted to its sides, all at once (nearly every candidate
    # left is a card picked; one fit of them all costs less than one each)
    # (by the ids of a candidate's arrays: a tuple's own id need not last, compiled)
    fitted = {_cand_key(t): order_clockwise(q) for t, q in
              zip(cands, refine_quads([(c, q) for _, q, c in cands]), strict=True)}
    picked = _pick(cands, shapes, cfg.max_overlap, fitted)
    # a kept quad much bigger than the typical card (with three or more kept) is a table's
    # or a sheet's outline (around cards, or around a lighter part of the table), not a
    # card; picked first, the biggest, it pushed out the cards it holds: they are picked
    # again without it (once; a second such quad is only dropped)
    dropped: list[tuple[np.ndarray, _Cand]] = []  # such quads, biggest first
    for again in (True, False):
        if len(picked) < 3:
            break
        areas = [quad_area(q) for q, _ in picked]
        limit = cfg.table_area * median(areas)
        big = [a >= limit for a in areas]
        if not any(big):
            break
        dropped += [p for p, b in zip(picked, big, strict=True) if b]
        if again:
            gone = {_cand_key(t) for (_, t), b in zip(picked, big, strict=True) if b}
            cands = [t for t in cands if _cand_key(t) not in gone]
            picked = _pick(cands, shapes, cfg.max_overlap, fitted)
        else:
            picked = [p for p, b in zip(picked, big, strict=True) if not b]
    # ... but one that holds none of the cards picked may be a card much nearer the camera
    # than they are (a picture taken at a slant: the near cards twice as long as the far
    # ones and more): a guess, reported only where it names a card
    oversized: set[int] = set()  # (its outline's id)
    if guessed is not None and cfg.oversized_guess:
        for q, t in dropped:
            if not any(shapes.overlap(q, k) > cfg.max_overlap for k, _ in picked):
                picked.append((q, t))
                oversized.add(id(t[2]))
    kept = [q for q, _ in picked]
    kept_alone = [id(t[2]) in alone for _, t in picked]
    # from a last-resort mask, or oversized
    kept_last = [id(t[2]) in hulls or id(t[2]) in oversized or id(t[2]) in shade_guesses
                 for _, t in picked]
    if cfg.hull_snap > 0 and any(id(t[2]) in hulls and id(t[2]) not in paled
                                 for _, t in picked):
        from vision.neighbours import snap_sides

        for i, (q, t) in enumerate(picked):
            if id(t[2]) in hulls and id(t[2]) not in paled:
                # an edge outline or a closed mask holds the card's rim and shadow too:
                # its sides are moved onto the card's edges nearby
                reach = max(2, round(cfg.hull_snap * float(min(quad_sides(q)))))
                kept[i] = order_clockwise(snap_sides(masks.blur, q, reach,
                                                     cfg.neighbour_contrast))
    if explained is not None and rois:
        # the other masks were looked at where bright regions were left: those the cards
        # found now cover are explained too (a card whose picture broke its paper region
        # in Otsu's mask, found by the others); a last-resort quad counts here as it will
        # be reported (the caller unsets the flag where it drops one unread)
        explained[:] = [masks.left_over([q for q, last in zip(kept, kept_last, strict=True)
                                         if guessed is not None or not last], min_px) == []]
    if guessed is None:
        # a last-resort quad counts only when it is read (a zone printed on a board has an
        # edge all round it too): a caller that does not read them does not get them
        kept = [v for v, last in zip(kept, kept_last, strict=True) if not last]
        kept_alone = [v for v, last in zip(kept_alone, kept_last, strict=True) if not last]
        kept_last = [False] * len(kept)
    elif cfg.detect_neighbours:
        from vision.neighbours import neighbour_quads

        models = [q for q, last in zip(kept, kept_last, strict=True) if not last]
        alone_models = [a for a, last in zip(kept_alone, kept_last, strict=True) if not last]
        more = neighbour_quads(models, alone_models, masks.blur, masks.otsu_t * 0.8, cfg)
        kept += more
        kept_alone += [False] * len(more)
        kept_last += [True] * len(more)
    if guessed is not None:
        guessed[:] = kept_last
    if apart is not None:
        apart[:] = kept_alone
    inv = 1.0 / scale
    left = []
    for c in blobs:
        # a blob of overlapping cards: bigger than any one card, not one of the cards kept
        area = float(cv2.contourArea(c))
        found = [q for q, last in zip(kept, kept_last, strict=True) if not last]
        if found and area < 1.2 * min(quad_area(q) for q in found):
            continue
        left.append(c.reshape(-1, 2).astype(np.float32) * inv)
    return [order_clockwise(q * inv) for q in kept], left


def corner_quads(
    outline: np.ndarray,
    card_w: float,
    card_h: float,
    skip: list[np.ndarray],
    max_skew: float = 15.0,
) -> list[np.ndarray]:
    """Where overlapping cards show a corner on the outline of their common blob, the quad
    of the card that corner would belong to if it were the card's top-left (upright index)
    corner: the outline runs clockwise, so the edge leaving the corner is the card's top
    (short) side and the edge arriving is its left (long) side.  ``skip`` are corners
    already accounted for (of whole cards found)."""
    c = outline.reshape(-1, 1, 2).astype(np.float32)
    if len(c) < 8:
        return []
    peri = cv2.arcLength(c, True)
    ap = cv2.approxPolyDP(c, max(1.5, 0.004 * peri), True).reshape(-1, 2)
    if len(ap) < 4:
        return []
    if _poly_area(ap) < 0:
        ap = ap[::-1]
    n = len(ap)
    min_edge = 0.06 * card_w
    max_chamfer = 0.16 * card_w
    out: list[np.ndarray] = []
    found = FoundCorners(skip)
    for i in range(n):
        for span in (0, 1):  # a sharp vertex, or a rounded corner cut into two
            p_in, p0, p1, p_out = ap[i - 1], ap[i], ap[(i + span) % n], ap[(i + span + 1) % n]
            if span and float(np.hypot(*(p1 - p0))) > max_chamfer:
                continue
            a = p_in - p0  # back along the arriving edge: the card's left side, downwards
            b = p_out - p1  # along the leaving edge: the card's top side
            la, lb = float(np.hypot(*a)), float(np.hypot(*b))
            if max(la, lb) < 2 * min_edge or min(la, lb) < 2.0:
                continue
            a, b = a / la, b / lb
            cross = a[0] * b[1] - a[1] * b[0]
            if cross >= 0:
                continue  # not convex (clockwise outline: b turns left of a)
            if la >= min_edge and lb >= min_edge:
                ang = math.degrees(math.acos(max(-1.0, min(1.0, float(a @ b)))))
                if not 90.0 - max_skew <= ang <= 90.0 + max_skew:
                    continue  # not a roughly square corner
            elif lb >= min_edge:
                # the left side shows too little (it runs under the card to the left):
                # take it square to the top side
                a = np.array([-b[1], b[0]], np.float32)
            else:
                b = np.array([a[1], -a[0]], np.float32)
            corner = p0 if not span else _intersect(p0, a, p1, b)
            if corner is None:
                continue
            if found.near(corner, 0.12 * card_w):
                continue
            if any(np.hypot(*(corner - q[0])) < 0.12 * card_w for q in out):
                continue
            q = np.array(
                [
                    corner,
                    corner + b * card_w,
                    corner + b * card_w + a * card_h,
                    corner + a * card_h,
                ],
                np.float32,
            )
            out.append(q)
    return out


class FoundCorners:
    """Corners already accounted for (of whole cards found), asked whether a point lies
    nearer than a limit to one of them, its distance to each the float hypot of their
    difference (np.hypot), as one at a time would tell it."""

    def __init__(self, points: list[np.ndarray]) -> None:
        self.points = points
        # float32 points all at once: their distances in doubles pass over those surely far
        # (a float32 hypot is within a unit of its last place of the true length), and only
        # those left are measured one at a time
        self.flat = (np.array(points, np.float32) if points and all(
            p.dtype == np.float32 and p.shape == (2,) for p in points) else None)

    def near(self, corner: np.ndarray, limit: float) -> bool:
        """Whether ``corner`` lies nearer than ``limit`` to any of the points."""
        if self.flat is None or corner.dtype != np.float32:
            return any(np.hypot(*(corner - s)) < limit for s in self.points)
        d = corner - self.flat
        far = np.hypot(d[:, 0].astype(np.float64), d[:, 1].astype(np.float64))
        near = np.flatnonzero(far < limit * (1 + 1e-5)).tolist()
        return any(np.hypot(*d[k]) < limit for k in near)


def _poly_area(p: np.ndarray) -> float:
    x, y = p[:, 0].astype(np.float64), p[:, 1].astype(np.float64)
    return 0.5 * float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))


def _intersect(p: np.ndarray, u: np.ndarray, q: np.ndarray, v: np.ndarray) -> np.ndarray | None:
    den = u[0] * v[1] - u[1] * v[0]
    if abs(den) < 1e-6:
        return None
    t = ((q[0] - p[0]) * v[1] - (q[1] - p[1]) * v[0]) / den
    return np.asarray(p + t * u, dtype=np.float32)
