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
   A pose whose glyphs do not land where the pose put them, which a long straight edge
   crosses (a covering card may have cut a glyph), or whose reading disagrees with another
   reading of the same place, names nothing.

The card's size comes from the whole cards found in the frame; without any, from the
glyph's height (``fan_rank_ratio``).  The quad reported for such a card is extrapolated
from its index corner at the 63 x 88 mm card shape (:class:`~vision.pipeline.CardReading`
``partial``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.glyphs import RANK_CLASSES

if TYPE_CHECKING:
    from vision.pipeline import RecognizerConfig

CARD_ASPECT = 63.0 / 88.0


@dataclass(frozen=True)
class IndexPose:
    """Where an index corner would be: the card's quad (clockwise from its top-left, image
    pixels) if the rank glyph at ``rank`` (image pixels, its centre) is its top-left index."""

    quad: np.ndarray
    rank: tuple[float, float]


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
    pixels the components were found in (``pixels``: each one's pixel coordinates, x y).
    ``card_h`` None: each pose's card is sized from
    its rank glyph.  A pose is kept only where the card's top edge, beside the rank, has
    no paper beyond it in ``region`` (the mask of the bright region, whose top-left is at
    ``origin_xy``): an index sits in a corner of the card, and a covered card's corner
    that shows lies on its region's outline."""
    n = len(stats)
    if n < 2:
        return []
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
    ox, oy = cfg.fan_corner_offset
    out = []
    rh, rw = region.shape
    for i, j in zip(ii.tolist(), jj.tolist(), strict=True):
        down = d[i, j] / dist[i, j]
        right = np.array([down[1], -down[0]], np.float32)
        # the rank's extent along the card's axes
        pr = pixels[i] @ right
        pd = pixels[i] @ down
        ch = card_h if card_h is not None else float(pd.max() - pd.min()) / cfg.fan_rank_ratio
        cw = ch * CARD_ASPECT
        origin = right * (pr.min() - ox * cw) + down * (pd.min() - oy * ch)
        beyond = True
        for t in cfg.fan_edge_probe:
            px, py = origin + right * (t * cw) - down * (cfg.fan_edge_out * ch) - origin_xy
            xi, yi = int(round(px)), int(round(py))
            if 0 <= xi < rw and 0 <= yi < rh and region[yi, xi]:
                beyond = False
                break
        if not beyond:
            continue
        quad = np.array(
            [origin, origin + right * cw, origin + right * cw + down * ch, origin + down * ch],
            np.float32,
        )
        out.append(IndexPose(quad, (float(cents[i, 0]), float(cents[i, 1]))))
    return out


def _step(profile: np.ndarray, lo: int, hi: int) -> tuple[int, float]:
    """Where along ``profile`` (mean grey across an edge) it rises most steeply between
    ``lo`` and ``hi``, and by how much (over 3 px)."""
    d = profile[3:] - profile[:-3]
    lo, hi = max(0, lo), min(len(d), hi)
    if hi <= lo:
        return 0, 0.0
    k = int(np.argmax(d[lo:hi])) + lo
    return k + 1, float(d[k])


def snap_corner(img: np.ndarray, quad: np.ndarray, cfg: RecognizerConfig) -> np.ndarray | None:
    """The card quad of an index pose moved onto the card's own edges, or None when the
    card shows no top edge (paper over something darker, straight across the index) and
    no left edge where the pose expects them: then the glyphs are no index corner.

    The pose's corner is extrapolated from the rank glyph; the patch is warped with a
    margin beyond it, and the edges are found as the steepest rise of the grey level
    (table, or a shadowed card edge, to paper) in two bands each, which must agree (a
    straight edge square to the glyphs)."""
    W, H = cfg.crop_size
    mx, my = int(cfg.fan_snap_margin * W), int(cfg.fan_snap_margin * H)
    ox, oy = cfg.fan_corner_offset
    pw, ph = int(0.3 * W) + mx, int(0.3 * H) + my
    rect = _canonical_rect((W, H)) + np.array([mx, my], np.float32)
    m = cv2.getPerspectiveTransform(quad.astype(np.float32), rect)
    g = cv2.cvtColor(cv2.warpPerspective(img, m, (pw, ph), flags=cv2.INTER_LINEAR,
                                         borderMode=cv2.BORDER_REPLICATE),
                     cv2.COLOR_BGR2GRAY).astype(np.float32)
    reach = int(cfg.fan_snap_reach * H)
    need = cfg.fan_edge_contrast
    # top edge: rows' mean over two bands of columns above the index
    bands = ((mx + int(0.02 * W), mx + int(0.09 * W)), (mx + int(0.10 * W), mx + int(0.17 * W)))
    tops = [_step(g[:, a:b].mean(axis=1), my - reach, my + reach) for a, b in bands]
    # left edge: columns' mean over two bands of rows beside the index
    rows = ((my + int(0.06 * H), my + int(0.14 * H)), (my + int(0.14 * H), my + int(0.24 * H)))
    lefts = [_step(g[a:b, :].mean(axis=0), mx - reach, mx + reach) for a, b in rows]
    if min(c for _, c in tops) < need or min(c for _, c in lefts) < cfg.fan_side_contrast:
        return None
    (ya, _), (yb, _) = tops
    (xa, _), (xb, _) = lefts
    if abs(ya - yb) > cfg.fan_snap_bend * H or abs(xa - xb) > cfg.fan_snap_bend * H:
        return None
    # the corner where the two edges meet, and the card along them, in patch pixels
    ca = (bands[0][0] + bands[0][1]) / 2
    cb = (bands[1][0] + bands[1][1]) / 2
    ra = (rows[0][0] + rows[0][1]) / 2
    rb = (rows[1][0] + rows[1][1]) / 2
    top_dir = np.array([cb - ca, yb - ya], np.float32)
    left_dir = np.array([xb - xa, rb - ra], np.float32)
    top_dir /= np.linalg.norm(top_dir)
    left_dir /= np.linalg.norm(left_dir)
    p_top = np.array([ca, ya], np.float32)
    p_left = np.array([xa, ra], np.float32)
    corner = _meet(p_top, top_dir, p_left, left_dir)
    if corner is None:
        return None
    pts = np.array([corner, corner + top_dir * W, corner + top_dir * W + left_dir * H,
                    corner + left_dir * H], np.float32)
    back = cv2.perspectiveTransform(pts.reshape(-1, 1, 2), np.linalg.inv(m)).reshape(4, 2)
    # the glyphs must sit where an index sits from the corner: not far off the pose's guess
    if abs(corner[0] - mx) > reach or abs(corner[1] - my) > reach:
        return None
    del ox, oy
    return np.asarray(back, np.float32)


def _meet(p: np.ndarray, u: np.ndarray, q: np.ndarray, v: np.ndarray) -> np.ndarray | None:
    den = u[0] * v[1] - u[1] * v[0]
    if abs(den) < 0.5:  # edges far from square
        return None
    t = ((q[0] - p[0]) * v[1] - (q[1] - p[1]) * v[0]) / den
    return np.asarray(p + t * u, np.float32)


def inside(point: tuple[float, float], quad: np.ndarray) -> bool:
    return cv2.pointPolygonTest(quad.reshape(-1, 1, 2).astype(np.float32),
                                (float(point[0]), float(point[1])), False) >= 0


def card_height_from(quads: list[np.ndarray]) -> float | None:
    """The median long side of the whole cards found, or None."""
    if not quads:
        return None
    sides = np.array([np.hypot(*(np.roll(q, -1, axis=0) - q).T) for q in quads])
    long_ = np.maximum(sides[:, 0] + sides[:, 2], sides[:, 1] + sides[:, 3]) / 2
    return float(np.median(long_))


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
) -> list[CardReading]:
    """Covered cards named from the index corners that show in ``regions`` (outlines,
    image pixels, of bright regions no card read explains).  Only named cards are
    returned, each with ``partial`` set; none already named in ``readings``."""
    cfg = rec.config
    named = [r for r in readings if r.card is not None and len(r.corners) == 4]
    named_quads = [np.array(r.corners, np.float32) for r in named]
    card_h = card_height_from(named_quads) or card_height_from(quads)
    H = cfg.crop_size[1]
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
        pixels = []
        for (bx, by, bw, bh), lab in zip(stats[:, :4].tolist(), ids.tolist(), strict=True):
            yy, xx = np.nonzero(labels[by : by + bh, bx : bx + bw] == lab)
            pixels.append(np.stack([xx + bx + x0, yy + by + y0], axis=1).astype(np.float32))
        stats = stats.astype(np.float32)
        stats[:, 0] += x0
        stats[:, 1] += y0
        cents = (cents + (x0, y0)).astype(np.float32)
        sized = ch * s if card_h is not None else None
        for p in index_poses(stats, cents, pixels, sized, region, (x0, y0), cfg):
            rank = (p.rank[0] / s, p.rank[1] / s)
            if any(inside(rank, q) for q in named_quads):
                continue  # the index of a card read whole
            poses.append(IndexPose(p.quad / s, rank))
    if not poses:
        return []
    poses = poses[: cfg.fan_max_poses]
    rect = _canonical_rect(cfg.crop_size)
    patches = []
    snapped = []
    for p in poses:
        side = float(np.hypot(*(p.quad[3] - p.quad[0])))
        lvl = _level_for(side, 1.3 * H)
        q = snap_corner(pyr.level(lvl), p.quad / 2**lvl, cfg)
        if q is None:
            continue
        m = cv2.getPerspectiveTransform(q, rect)
        patches.append(cv2.warpPerspective(
            pyr.level(lvl), m, (rec.reader.pw, rec.reader.ph),
            flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE))
        snapped.append(IndexPose(q * 2**lvl, p.rank))
    poses = snapped
    W = cfg.crop_size[0]
    ox, oy = cfg.fan_corner_offset
    # ink beyond the card's edges as the pose puts them (a neighbouring card's edge, the
    # table) joined to the patch's border, which drops it: it is no glyph of this index
    xc = max(0, int((ox - cfg.fan_edge_margin) * W))
    yc = max(0, int((oy - cfg.fan_edge_margin) * H))
    blanked = []
    for patch in patches:
        b = patch.copy()
        b[:, :xc] = 0
        b[:yc, :] = 0
        blanked.append(b)
    reads = rec.reader.read_patches(blanked)
    tol = cfg.fan_box_tolerance * H
    del W
    found: list[tuple[IndexPose, CardReading]] = []
    for p, patch, read in zip(poses, patches, reads, strict=True):
        if read is None:
            continue
        bx, by = read.box[:2]
        if abs(bx - ox * cfg.crop_size[0]) > tol or abs(by - oy * H) > tol:
            continue  # the glyphs read are not the pair the pose was made from
        if _cut_glyphs(patch, read, cfg):
            continue
        if read.rank_mask is not None:
            rh, rw = read.rank_mask.shape
            if rw > cfg.fan_rank_aspect * rh:
                continue  # glyphs of two cards side by side (a covering card's faint edge
                # between them) taken for one rank: wider than any rank is tall
        corners = tuple((float(x), float(y)) for x, y in p.quad)
        # the stricter margin where the rank or its runner-up is one of the ranks a cut or
        # crowded index corner turns into another (a 10 missing its 1, a Q's tail)
        order = np.argsort(-read.rank_scores[: len(RANK_CLASSES)])[:2]
        hard = any(RANK_CLASSES[int(k)] in cfg.fan_hard_ranks for k in order)
        r = rec.decide([read], corners,
                       strict=cfg.fan_hard_factor if hard else cfg.fan_factor)
        if r.card is None or r.confidence < cfg.fan_min_confidence:
            continue
        found.append((p, CardReading(r.card, corners, r.confidence, r.alternatives, True)))
    return _agree(found, card_h, {r.card.code for r in named if r.card is not None})


def _cut_glyphs(patch: np.ndarray, read: CornerRead, cfg: RecognizerConfig) -> bool:
    """Whether a long straight edge (a covering card's side) runs through or touches the
    rank's or the suit's box: then a glyph may be cut short and look like another.  The
    covering card of a tight row or fan lies close beside the index, so an edge merely
    near the glyphs (as :func:`~vision.pipeline._edge_crosses` rejects for a whole card's
    corner) is allowed."""
    gray = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY)
    edges = cv2.Canny(cv2.GaussianBlur(gray, (3, 3), 0), 40, 120)
    ph = patch.shape[0]
    segs = cv2.HoughLinesP(edges, 1, np.pi / 90, threshold=int(0.2 * ph),
                           minLineLength=int(cfg.overlap_edge_length * ph), maxLineGap=3)
    if segs is None:
        return False
    x0, y0, x1, y1 = read.box
    boxes = []
    if read.rank_mask is not None and read.suit_mask is not None:
        rh, rw = read.rank_mask.shape
        sh, sw = read.suit_mask.shape
        # the rank starts the box's top row; the suit ends its bottom row
        boxes = [(x0, y0, x1 - x0, rh), (x0, y1 - sh, x1 - x0, sh)]
    else:
        boxes = [(x0, y0, x1 - x0, y1 - y0)]
    pad = cfg.fan_edge_pad
    for bx, by, bw, bh in boxes:
        rect = (bx - pad, by - pad, bw + 2 * pad, bh + 2 * pad)
        for sx0, sy0, sx1, sy1 in segs.reshape(-1, 4):
            ok, _, _ = cv2.clipLine(rect, (int(sx0), int(sy0)), (int(sx1), int(sy1)))
            if ok:
                return True
    return False


def _agree(
    found: list[tuple[IndexPose, CardReading]], card_h: float | None, seen: set[str]
) -> list[CardReading]:
    """One reading per place; none where two readings of one place disagree, nor of a card
    named elsewhere already."""
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
        if i in bad or code in seen:
            continue
        if code not in best or r.confidence > best[code].confidence:
            best[code] = r
    out.extend(best.values())
    return out


from vision.pipeline import (  # noqa: E402  (the pipeline imports this module)
    CardReading,
    CornerRead,
    Recognizer,
    _canonical_rect,
    _ink_channel,
    _Pyramid,
)
