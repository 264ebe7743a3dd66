"""Cards touching the cards found: where a card lies edge to edge with another (a flat scan
of a whole deck, a row of cards laid out on a table), the line between the two is often too
faint for any mask of :mod:`vision.detect` to close, and the pair or the whole block is one
region.  Cards of one size that are found there predict where the missing ones lie: the
card beside each found card, across each of its sides, has (nearly) the same shape and
shares that side.  Such a quad is proposed when its border is paper about as bright as
the card's own that no card found covers, and it holds some ink; each half of each of its
sides is then moved onto the strongest straight edge (a step or a thin dark line) near
where it is expected.  Proposals are models for one more round, so a row is followed.

These quads are guesses: the recognizer reports one only when it names the card in it
(:func:`keep_read_guesses`), so a guess that lands on no card costs a read, nothing more.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.detect import median, order_clockwise, outward_normals, quad_area, turn_quad
from vision.native import kernels

if TYPE_CHECKING:
    from vision.pipeline import CardReading, RecognizerConfig

__all__ = ["card_round_print", "keep_read_guesses", "neighbour_quads", "snap_sides"]

_KERNELS = kernels()  # the C kernels, with the compiled reader (see vision/native.py)

# points along each side of a proposed quad where its border is sampled (fractions)
_BORDER_T = np.linspace(0.15, 0.85, 7)
# ... over its face, where ink is looked for (unit square)
_INK_GRID = np.stack(
    np.meshgrid(np.linspace(0.06, 0.94, 12), np.linspace(0.05, 0.95, 16)), axis=-1
).reshape(-1, 2).astype(np.float32)
# ... and along a side where its edge line is looked for
_EDGE_T = np.linspace(0.2, 0.8, 13, dtype=np.float32)
# ... its two halves (the first and the last six points), and where along the side each
# half's middle lies (the C kernel is given these as numpy makes them)
_EDGE_HALVES = np.ascontiguousarray(np.stack([_EDGE_T[:6], _EDGE_T[-6:]]))
_EDGE_MIDDLES = (float(_EDGE_T[:6].mean()), float(_EDGE_T[-6:].mean()))
# where along each side of a printed frame card_round_print looks out for the card's edge
# (an odd count: see there)
_PRINT_T = np.linspace(0.2, 0.8, 9, dtype=np.float32)


def _overlap(a: np.ndarray, b: np.ndarray) -> float:
    """Area of intersection over the smaller quad's area."""
    inter, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    return float(inter) / max(1e-6, min(abs(quad_area(a)), abs(quad_area(b))))


def _sample(img: np.ndarray, pts: np.ndarray) -> NDArray[np.float32]:
    """Grey values at the points (nearest pixel), points outside read as 0."""
    h, w = img.shape[:2]
    x = np.rint(pts[..., 0]).astype(np.int32)
    y = np.rint(pts[..., 1]).astype(np.int32)
    inside = (x >= 0) & (y >= 0) & (x < w) & (y < h)
    out = np.zeros(x.shape, np.float32)
    out[inside] = img[y[inside], x[inside]]
    return out


def _border(img: np.ndarray, q: np.ndarray, inset: float) -> NDArray[np.float32]:
    """Grey values at points just inside the quad's sides (``inset`` px in): a card's
    white border."""
    centre = q.mean(axis=0)
    a = q + (centre - q) * (inset / np.maximum(1.0, np.hypot(*(centre - q).T)))[:, None]
    b = turn_quad(a, 1)
    return _sample(img, a[:, None, :] + (b - a)[:, None, :] * _BORDER_T[None, :, None])


def _edge_offset(img: np.ndarray, p: np.ndarray, r: np.ndarray, normal: np.ndarray,
                 reach: int, min_contrast: float, span: NDArray[np.float32]) -> float | None:
    """How far (px, along ``normal``) to move the stretch ``span`` (fractions) of the side
    p -> r onto the strongest straight edge within ``reach`` px: a step from paper inside
    to something darker outside, or a thin dark line, along the whole stretch.  None when
    none stands out."""
    offsets = np.arange(-reach - 2, reach + 3, dtype=np.float32)
    base = p[None, :] + (r - p)[None, :] * span[:, None]
    pts = base[None, :, :] + offsets[:, None, None] * normal[None, None, :]
    vals = _sample(img, pts)  # offsets x points
    # the median over the points: an edge runs along the whole side, a printed pip does not
    prof = np.median(vals, axis=1)
    # paper inside, something darker outside (a printed frame is the other way round)
    step = (prof[:-4] - prof[4:]) / 2
    valley = (prof[:-4] + prof[4:]) / 2 - prof[2:-2]
    strength = np.maximum(step, valley)
    # a mild preference for the place predicted
    k = np.arange(-reach, reach + 1, dtype=np.float32)
    score = strength - 0.25 * min_contrast * np.abs(k) / max(1, reach)
    best = int(np.argmax(score))
    if strength[best] < min_contrast:
        return None
    return float(k[best])


def _edge_offsets(img: np.ndarray, q: np.ndarray, normals: np.ndarray, reach: int,
                  min_contrast: float) -> list[list[float | None]]:
    """:func:`_edge_offset` of both halves (``_EDGE_T``'s first and last six points) of each
    side of ``q``, in one pass: per side, the offsets of its first and its second half."""
    offsets = np.arange(-reach - 2, reach + 3, dtype=np.float32)
    spans = _EDGE_HALVES  # 2 x 6
    ends = np.concatenate([q[1:], q[:1]])
    # sides x halves x points, then x offsets: the same float32 sums as one by one
    base = q[:, None, None, :] + (ends - q)[:, None, None, :] * spans[None, :, :, None]
    pts = (base[:, :, None, :, :]
           + offsets[None, None, :, None, None] * normals[:, None, None, None, :])
    prof = np.median(_sample(img, pts), axis=-1)  # sides x halves x offsets
    step = (prof[..., :-4] - prof[..., 4:]) / 2
    valley = (prof[..., :-4] + prof[..., 4:]) / 2 - prof[..., 2:-2]
    strength = np.maximum(step, valley)
    k = np.arange(-reach, reach + 1, dtype=np.float32)
    score = strength - 0.25 * min_contrast * np.abs(k) / max(1, reach)
    best = np.argmax(score, axis=-1)
    peak = np.take_along_axis(strength, best[..., None], axis=-1)[..., 0]
    return [[float(k[b]) if s >= min_contrast else None for b, s in zip(bs, ss, strict=True)]
            for bs, ss in zip(best.tolist(), peak.tolist(), strict=True)]


def snap_sides(img: np.ndarray, q: np.ndarray, reach: int, min_contrast: float) -> np.ndarray:
    """The quad with each side moved onto the edge found near it, each half of the side on
    its own (so that a side predicted a little askew turns onto the edge); corners are
    the intersections of the lines through the sides.  With the compiled reader, the C
    kernel ``snap_sides`` does it all in one pass (a float32 quad on a grey picture): the
    same float32 numbers."""
    if (_KERNELS is not None and q.dtype == np.float32 and q.shape == (4, 2)
            and img.dtype == np.uint8 and img.ndim == 2 and 0 <= reach <= 1000):
        out = np.empty((4, 2), np.float32)
        h, w = img.shape
        if _KERNELS.snap_sides(np.ascontiguousarray(img), h, w, np.ascontiguousarray(q), reach,
                               float(min_contrast), _EDGE_HALVES, _EDGE_MIDDLES[0],
                               _EDGE_MIDDLES[1], out):
            return out
        return q
    centre = q.mean(axis=0)
    normals = []
    for i in range(4):
        p, r = q[i], q[(i + 1) % 4]
        d = r - p
        n = np.array([d[1], -d[0]], np.float32) / max(1e-6, float(np.hypot(*d)))
        # (its sign exactly, from the float32 numbers: products of two are exact in
        # Python's floats, and their sum is rounded once)
        a = centre - p
        if float(a[0]) * float(n[0]) + float(a[1]) * float(n[1]) > 0:
            n = -n  # outwards
        normals.append(n)
    found = _edge_offsets(img, q, np.stack(normals), reach, min_contrast)
    lines = []
    for i, (o1, o2) in enumerate(found):
        p, n = q[i], normals[i]
        d = q[(i + 1) % 4] - p
        if o1 is None or o2 is None:
            off = o1 if o1 is not None else (o2 if o2 is not None else 0.0)
            lines.append((p + off * n, d))
            continue
        t1, t2 = _EDGE_MIDDLES
        a1, a2 = p + d * t1 + o1 * n, p + d * t2 + o2 * n
        lines.append((a1, (a2 - a1) / (t2 - t1)))
    corners = _line_corners(lines)
    return q if corners is None else corners


def _line_corners(lines: list[tuple[np.ndarray, np.ndarray]]) -> np.ndarray | None:
    """The corners of the quad whose sides lie on ``lines`` (a point and a direction each,
    in order round it): each where a line meets the one before; None where two are
    parallel."""
    out = []
    for i in range(4):
        (p1, d1), (p2, d2) = lines[i - 1], lines[i]
        den = float(d1[0] * d2[1] - d1[1] * d2[0])
        if abs(den) < 1e-6:
            return None
        t = float((p2[0] - p1[0]) * d2[1] - (p2[1] - p1[1]) * d2[0]) / den
        out.append(p1 + t * d1)
    return np.array(out, np.float32)


def card_round_print(img: np.ndarray, q: np.ndarray, min_contrast: float,
                     reach: float = 1.2, min_margin: float = 0.08) -> np.ndarray | None:
    """The card around a frame printed in its middle (a panel, a court's picture frame),
    whose corners are ``q`` (clockwise), from the grey picture ``img``: where cards touch,
    their paper is one region and that frame is what outlines a card's shape.  The frame
    sits in the middle of its card with paper all round it, so the card's edge lies
    outside each side, as far on one side as on the opposite: along each side's outward
    normal, up to ``reach`` x the frame's shorter side, the first place where the paper
    gives way (by ``min_contrast`` and a quarter of its level) to something darker for
    good -- the table.  That paper is as light as the frame's inner rim, nearly (round a
    card's own outline lies the table, darker than its paper).  A side whose paper runs on
    (into a card it touches) takes the opposite side's margin; where both of a pair show
    an edge, the nearer counts.  None where neither margin of a pair is found, where one is
    under ``min_margin`` x the frame's shorter side (3 px at least: an outline found just
    inside a card's edge, not a frame printed in it), or where the card would not have a
    card's shape."""
    q = np.asarray(q, np.float32).reshape(4, 2)
    sides = np.hypot(*(np.roll(q, -1, axis=0) - q).T)
    if float(sides.min()) < 8:
        return None
    top = int(reach * float(sides.min()))
    offsets = np.arange(0, top + 1, dtype=np.float32)
    # the paper round a printed frame is about as light as the frame's inside, or lighter;
    # round a card, the table is darker
    least = 0.85 * float(np.median(_border(img, q, max(2.0, 0.08 * float(sides.min())))))
    sides_d = np.roll(q, -1, axis=0) - q
    normals = outward_normals(q[None], sides_d[None])[0]
    # every side's points at once (side, offset, place along it); the median of each
    # offset's places is the middle one sorted (an odd count: the same value as
    # np.median's, at a fraction of its cost)
    pts = (q[:, None, None, :] + (sides_d[:, None, None, :] * _PRINT_T[None, None, :, None])
           + offsets[None, :, None, None] * normals[:, None, None, :])
    profs = np.sort(_sample(img, pts), axis=2)[:, :, _PRINT_T.size // 2]
    margins = [_paper_end(prof, min_contrast, least) for prof in profs]
    # a frame printed in a card's middle has a margin of paper round it; an outline found
    # a pixel or two inside a card's edge has none to speak of
    least_margin = max(3.0, min_margin * float(sides.min()))
    width = []
    for a, b in ((0, 2), (1, 3)):
        known = [m for m in (margins[a], margins[b]) if m is not None]
        if not known or min(known) < least_margin:
            return None
        width.append(min(known))
    lines = []
    for i in range(4):
        p, n = q[i], normals[i]
        lines.append((p + width[i % 2] * n, q[(i + 1) % 4] - p))
    card = _line_corners(lines)
    if card is None:
        return None
    cs = np.hypot(*(np.roll(card, -1, axis=0) - card).T)
    across, along = float(cs[0] + cs[2]), float(cs[1] + cs[3])
    if not 0.6 <= min(across, along) / max(across, along) <= 0.8:
        return None
    return card


def _paper_end(prof: NDArray[np.float32], min_contrast: float, least: float) -> float | None:
    """Where the paper outside a printed frame ends along the profile ``prof`` (grey levels
    at 0, 1, 2 ... px out from the frame's side): past the frame's own dark line, the
    paper's level is the brightest of the first stretch; the edge is the first place from
    which the profile stays darker than it by ``min_contrast`` and a quarter of it for 3 px.
    None where the paper runs on, or is darker than ``least`` (no paper: the table)."""
    n = prof.shape[0]
    if n < 8:
        return None
    start = max(3, n // 6)
    paper = float(prof[:start].max())
    if paper < max(least, 2 * min_contrast):
        return None
    low = paper - max(min_contrast, 0.25 * paper)
    dark = prof < low
    for k in range(int(np.argmax(prof[:start])) + 1, n - 2):
        if dark[k] and dark[k + 1] and dark[k + 2]:
            return float(k)
    return None


def neighbour_quads(
    kept: list[np.ndarray],
    alone: list[bool],
    blur: np.ndarray,
    level: float,
    cfg: RecognizerConfig,
) -> list[np.ndarray]:
    """Quads (of ``blur``'s pixels, clockwise) of cards that may lie edge to edge with the
    cards ``kept`` (not ``alone``: a card that is a bright region of its own touches
    nothing); ``level`` is the grey level paper is brighter than.  The quads proposed are
    themselves models for the next round (``neighbour_rounds`` in all): a row of cards
    is followed from the one card found in it."""
    out: list[np.ndarray] = []
    if len(kept) < cfg.neighbour_min_cards or all(alone):
        return out
    areas = [abs(quad_area(q)) for q in kept]
    med = median(areas)
    lo, hi = cfg.single_area
    # the cards of the common size are the models; quads much bigger (two cards taken
    # for one, which the recognizer drops unread) hide no neighbour
    cards = [q for q, a in zip(kept, areas, strict=True) if lo * med <= a <= hi * med]
    sources = [q for q, a, alo in zip(kept, areas, alone, strict=True)
               if not alo and lo * med <= a <= hi * med]
    if not sources or len(cards) < cfg.neighbour_min_cards:
        return out
    blockers = [q for q, a in zip(kept, areas, strict=True) if a < 1.6 * med]
    short = math.sqrt(med / 1.4)  # a card's short side, about
    for _ in range(cfg.neighbour_rounds):
        new = _propose(sources, blockers, blur, level, short, cfg)
        new = new[: cfg.neighbour_max - len(out)]
        if not new:
            break
        out += new
        blockers += new
        sources = new
    return out


def _propose(
    sources: list[np.ndarray],
    blockers: list[np.ndarray],
    blur: np.ndarray,
    level: float,
    short: float,
    cfg: RecognizerConfig,
) -> list[np.ndarray]:
    """One round of :func:`neighbour_quads`: the cells beside ``sources`` that are paper
    and overlap no quad of ``blockers``."""
    h, w = blur.shape[:2]
    margin = cfg.neighbour_outside * short
    inset = max(2.0, cfg.neighbour_inset * short)
    centres = np.array([q.mean(axis=0) for q in blockers], np.float32).reshape(-1, 2)
    found: list[np.ndarray] = []
    for q in sources:
        # the neighbour's border must be paper about as bright as this card's own
        paper = max(level, cfg.neighbour_paper_level * float(np.median(_border(blur, q, inset))))
        for i in range(4):
            a, b = q[i], q[(i + 1) % 4]
            c, d = q[(i + 2) % 4], q[(i + 3) % 4]
            # across side a-b: the same card moved by its own height (or width)
            t = ((a - d) + (b - c)) / 2
            p = np.array([a + t, b + t, b, a], np.float32)
            if (p[:, 0].min() < -margin or p[:, 1].min() < -margin
                    or p[:, 0].max() > w - 1 + margin or p[:, 1].max() > h - 1 + margin):
                continue
            if float(np.mean(_border(blur, p, inset) > paper)) < cfg.neighbour_paper:
                continue
            pc = p.mean(axis=0)
            near = np.hypot(*(centres - pc).T) < 1.6 * short
            if any(_overlap(p, blockers[j]) > cfg.neighbour_max_overlap
                   for j in np.flatnonzero(near).tolist()):
                continue
            found.append(p)
    if not found:
        return []
    # one cell predicted from several cards: the mean of the predictions
    groups: list[list[np.ndarray]] = []
    for p in found:
        pc = p.mean(axis=0)
        for g in groups:
            if float(np.hypot(*(g[0].mean(axis=0) - pc))) < 0.3 * short:
                g.append(p)
                break
        else:
            groups.append([p])
    reach = max(2, round(cfg.neighbour_reach * short))
    out = []
    for g in groups:
        first = order_clockwise(g[0])
        # corners matched to the first prediction's, whatever their order
        stack = [p[[int(np.argmin(np.hypot(*(p - c).T))) for c in first]] for p in g]
        first = np.mean(stack, axis=0).astype(np.float32)
        snapped = snap_sides(blur, first, reach, cfg.neighbour_contrast)
        # the edges found must leave a card of the shape predicted, with some ink on it (a
        # blank of paper beside a card on a white table is no card)
        if float(np.max(np.hypot(*(snapped - first).T))) > 2.5 * reach + 1:
            snapped = first
        if _inked(blur, snapped, cfg):
            out.append(order_clockwise(snapped))
    return out


def _inked(img: np.ndarray, q: np.ndarray, cfg: RecognizerConfig) -> bool:
    """Whether the quad holds ink: at least ``neighbour_ink`` of a coarse grid of points
    over its face are darker than ``ink_ratio`` x its paper (the bright border)."""
    g = _INK_GRID
    m = cv2.getPerspectiveTransform(
        np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32), order_clockwise(q)
    )
    pts = cv2.perspectiveTransform(g.reshape(-1, 1, 2), m).reshape(-1, 2)
    vals = _sample(img, pts)
    paper = float(np.percentile(vals, 90))
    return float(np.mean(vals < cfg.ink_ratio * paper)) >= cfg.neighbour_ink


def keep_read_guesses(
    readings: list[CardReading], quads: list[np.ndarray], guessed: list[bool]
) -> tuple[list[CardReading], list[np.ndarray]]:
    """The readings (and their quads) without the guessed quads that name no card, or that
    name a card already named by a quad found outright that overlaps them."""
    named = [
        (r.card, q) for r, q, g in zip(readings, quads, guessed, strict=True)
        if not g and r.card is not None
    ]
    out_r, out_q = [], []
    for r, q, g in zip(readings, quads, guessed, strict=True):
        if g and (r.card is None or any(
            card == r.card and _overlap(q, q2) > 0.3 for card, q2 in named
        )):
            continue
        out_r.append(r)
        out_q.append(q)
    return out_r, out_q
