"""The card recognizer: frame -> card quadrilaterals -> rank and suit (or "don't know").

    >>> rec = Recognizer()
    >>> for reading in rec.read(frame):           # BGR or grey uint8, any size
    ...     print(reading.card, reading.confidence, reading.corners)

Steps: :func:`vision.detect.detect_quads` finds bright quadrilaterals; for each, the four
corners are tried as the card's top-left (two ways to hold a card upright, and each has two
index corners); each corner is warped to an upright patch, its rank and suit glyphs are cut
out as connected components and compared with the built-in glyph exemplars (rendered from
fonts, see ``vision.build_glyph_model``) and with a taught :class:`DeckProfile`.  The two
index corners of the best interpretation vote together; the card is named only when the
rank and the suit each clearly beat the runner-up (``RecognizerConfig.abstain_margin``) and
the ink colour agrees with the suit.  Otherwise ``CardReading.card`` is None.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property

import cv2
import numpy as np

from companion.cards import Card, Suit
from vision.detect import detect_quads, order_clockwise, to_bgr
from vision.glyphs import (
    RANK_CLASSES,
    RED_SUITS,
    SUIT_CLASSES,
    Exemplars,
    builtin_model,
    glyph_feature,
)

__all__ = [
    "CardQuad",
    "CardReading",
    "DeckProfile",
    "Recognizer",
    "RecognizerConfig",
    "rectify",
]


@dataclass(frozen=True)
class RecognizerConfig:
    """Every threshold and tunable of the recognizer."""

    # canonical upright card crop (width, height) in pixels; 63 x 88 mm
    crop_size: tuple[int, int] = (250, 350)
    # corner index search window, as fractions of the crop (width, height)
    index_window: tuple[float, float] = (0.30, 0.44)
    # a rank glyph's height as a fraction of the card height
    rank_height: tuple[float, float] = (0.035, 0.20)
    # the rank glyph must start within this fraction of the crop from the corner (x, y)
    rank_start: tuple[float, float] = (0.20, 0.26)
    # ink: darker than paper_level * ink_ratio, and at least ink_min_contrast darker
    ink_ratio: float = 0.68
    ink_min_contrast: float = 28.0
    paper_percentile: float = 80.0
    line_length: float = 0.22  # straight ink runs longer than this (of card height) are lines
    # detection
    detect_max_side: int = 800
    min_card_area: float = 0.004  # of the (scaled) frame
    max_card_area: float = 0.97
    min_solidity: float = 0.88
    min_rectangularity: float = 0.85
    max_side_ratio: float = 2.2
    min_aspect: float = 0.35
    max_overlap: float = 0.5
    max_card_saturation: int = 70
    canny_low: int = 40
    canny_high: int = 120
    adaptive_offset: int = 12
    # classification
    aspect_weight: float = 0.25
    profile_bonus: float = 0.04
    red_threshold: float = 0.16  # redness (normalised by paper colour) above = red ink
    black_threshold: float = 0.07  # below = black ink; between = undecided
    colour_penalty: float = 0.25  # subtracted from suits of the other colour
    # deciding
    min_rank_similarity: float = 0.62
    min_suit_similarity: float = 0.62
    abstain_margin: float = 0.035
    min_confidence: float = 0.5
    portrait_prior: float = 0.03  # bonus for the interpretation whose short side is on top
    max_alternatives: int = 4


@dataclass(frozen=True)
class CardReading:
    card: Card | None
    corners: tuple[tuple[float, float], ...]
    confidence: float
    alternatives: tuple[tuple[str, float], ...] = ()


def _canonical_rect(size: tuple[int, int]) -> np.ndarray:
    w, h = size
    return np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)


def rectify(
    image: np.ndarray, quad: np.ndarray | tuple, size: tuple[int, int] = (250, 350)
) -> np.ndarray:
    """Warp the card with corners ``quad`` (clockwise from its top-left) to an upright
    ``size`` = (width, height) crop."""
    src = np.asarray(quad, np.float32).reshape(4, 2)
    m = cv2.getPerspectiveTransform(src, _canonical_rect(size))
    return cv2.warpPerspective(image, m, (int(size[0]), int(size[1])), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)


def unrectify_points(
    points: np.ndarray, quad: np.ndarray | tuple, size: tuple[int, int] = (250, 350)
) -> np.ndarray:
    """Map points of a rectified crop back to image pixels."""
    src = np.asarray(quad, np.float32).reshape(4, 2)
    m = cv2.getPerspectiveTransform(_canonical_rect(size), src)
    pts = np.asarray(points, np.float32).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(pts, m).reshape(-1, 2)


@dataclass
class CardQuad:
    """One card found in a frame: its corners (image pixels, clockwise; the first corner is
    a top-left only once the card has been read) and its rectified upright crop."""

    corners: np.ndarray
    image: np.ndarray = field(repr=False)
    size: tuple[int, int] = (250, 350)

    @cached_property
    def crop(self) -> np.ndarray:
        return rectify(self.image, self.corners, self.size)

    @property
    def center(self) -> tuple[float, float]:
        c = self.corners.mean(axis=0)
        return float(c[0]), float(c[1])


# ---------------------------------------------------------------------------- index reading


@dataclass
class CornerRead:
    """What one index corner shows: per-class similarities and ink colour."""

    rank_scores: np.ndarray  # (13,)
    suit_scores: np.ndarray  # (4,)
    redness: float | None
    rank_feat: np.ndarray | None = None
    rank_aspect: float = 0.0
    suit_feat: np.ndarray | None = None
    suit_aspect: float = 0.0
    rank_mask: np.ndarray | None = field(default=None, repr=False)
    suit_mask: np.ndarray | None = field(default=None, repr=False)

    @property
    def quality(self) -> float:
        return float(self.rank_scores.max() + self.suit_scores.max())


class _Pyramid:
    """The frame at halving resolutions, made when first needed."""

    def __init__(self, image: np.ndarray) -> None:
        self.levels = [image]

    def level(self, i: int) -> np.ndarray:
        while len(self.levels) <= i:
            self.levels.append(cv2.pyrDown(self.levels[-1]))
        return self.levels[i]


def _components(mask: np.ndarray):
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    return n, labels, stats


class IndexReader:
    """Cuts the rank and suit glyphs out of an upright corner patch and scores them."""

    def __init__(self, cfg: RecognizerConfig, profile: DeckProfile | None) -> None:
        self.cfg = cfg
        self.profile = profile
        self.model = builtin_model()
        w, h = cfg.crop_size
        self.pw = int(round(cfg.index_window[0] * w))
        self.ph = int(round(cfg.index_window[1] * h))

    def _vk(self, n: int) -> np.ndarray:
        return np.ones((n, 1), np.uint8)

    def _hk(self, n: int) -> np.ndarray:
        return np.ones((1, n), np.uint8)

    # -- glyph extraction
    def glyphs(self, patch: np.ndarray) -> list[tuple[np.ndarray, float, np.ndarray, float, float | None]]:
        """Candidate (rank mask, rank aspect, suit mask, suit aspect, redness) cut-outs."""
        cfg = self.cfg
        H = cfg.crop_size[1]
        v = patch.min(axis=2)
        paper = float(np.percentile(v, cfg.paper_percentile))
        if paper < 60:
            return []
        thr = min(paper * cfg.ink_ratio, paper - cfg.ink_min_contrast)
        mask = (v < thr).astype(np.uint8)
        # long straight lines (the frame of a face card's picture, a panel's border) are
        # not glyphs; cut them out so that a glyph touching one survives
        L = max(9, int(cfg.line_length * H))
        lines = cv2.morphologyEx(mask, cv2.MORPH_OPEN, self._vk(L)) | cv2.morphologyEx(
            mask, cv2.MORPH_OPEN, self._hk(L)
        )
        if lines.any():
            mask &= 1 - cv2.dilate(lines, np.ones((3, 3), np.uint8))
        m = max(2, int(0.008 * H))
        mask[:m, :] = 0
        mask[:, :m] = 0
        n, labels, stats = _components(mask)
        ph, pw = mask.shape
        hmin = cfg.rank_height[0] * H
        hmax = cfg.rank_height[1] * H
        comps = []
        for i in range(1, n):
            x, y, w, h, a = (int(t) for t in stats[i])
            if a < 6 or h < 0.25 * hmin:
                continue
            touches = x <= m or y <= m or x + w >= pw - 1 or y + h >= ph - 1
            if touches:
                continue
            comps.append((i, x, y, w, h, a))
        if not comps:
            return []
        W = cfg.crop_size[0]
        starts = [
            c
            for c in comps
            if hmin <= c[4] <= hmax
            and c[1] < cfg.rank_start[0] * W
            and c[2] < cfg.rank_start[1] * H
        ]
        starts.sort(key=lambda c: c[2] + 0.5 * c[1])
        out = []
        for st in starts[:3]:
            rank = [st]
            x0, y0, x1, y1 = st[1], st[2], st[1] + st[3], st[2] + st[4]
            changed = True
            while changed:
                changed = False
                for c in comps:
                    if c in rank:
                        continue
                    cx0, cy0, cx1, cy1 = c[1], c[2], c[1] + c[3], c[2] + c[4]
                    hh = y1 - y0
                    vov = min(y1, cy1) - max(y0, cy0)
                    gap = max(cx0 - x1, x0 - cx1)
                    same_row = (
                        vov > 0.6 * min(hh, c[4])
                        and gap < 0.45 * hh
                        and 0.6 * hh < c[4] < 1.4 * hh
                    )
                    inside = cx0 >= x0 - 1 and cx1 <= x1 + 1 and cy0 >= y0 - 1 and cy1 <= y1 + 1
                    if same_row or inside:
                        rank.append(c)
                        x0, y0 = min(x0, cx0), min(y0, cy0)
                        x1, y1 = max(x1, cx1), max(y1, cy1)
                        changed = True
            rh = y1 - y0
            if (x1 - x0) > 1.6 * rh:
                continue
            # suit: the nearest component below, overlapping the rank's columns
            best = None
            for c in comps:
                if c in rank:
                    continue
                cx0, cy0, cx1, cy1 = c[1], c[2], c[1] + c[3], c[2] + c[4]
                if cy0 < y1 - 0.15 * rh or cy0 > y1 + 0.9 * rh:
                    continue
                if not (0.3 * rh <= c[4] <= 1.5 * rh):
                    continue
                if cx1 < x0 - 0.3 * rh or cx0 > x1 + 0.3 * rh:
                    continue
                d = cy0 - y1 + 0.5 * abs((cx0 + cx1) / 2 - (x0 + x1) / 2)
                if best is None or d < best[0]:
                    best = (d, c)
            if best is None:
                continue
            sc = best[1]
            sx0, sy0, sx1, sy1 = sc[1], sc[2], sc[1] + sc[3], sc[2] + sc[4]
            suit_ids = [sc[0]]
            for c in comps:
                if c in rank or c is sc:
                    continue
                if c[1] >= sx0 and c[1] + c[3] <= sx1 and c[2] >= sy0 and c[2] + c[4] <= sy1:
                    suit_ids.append(c[0])
            rl = labels[y0:y1, x0:x1]
            rmask = np.isin(rl, [c[0] for c in rank]).astype(np.uint8) * 255
            sl = labels[sy0:sy1, sx0:sx1]
            smask = np.isin(sl, suit_ids).astype(np.uint8) * 255
            red = self._redness(patch, labels, [c[0] for c in rank] + suit_ids,
                                (min(x0, sx0), y0, max(x1, sx1), sy1), v > thr)
            out.append(
                (rmask, math.log((x1 - x0) / max(1, rh)), smask,
                 math.log((sx1 - sx0) / max(1, sy1 - sy0)), red)
            )
        return out

    def _redness(self, patch, labels, ids, box, paper_mask) -> float | None:
        x0, y0, x1, y1 = box
        sub = patch[y0:y1, x0:x1].astype(np.float32)
        ink = np.isin(labels[y0:y1, x0:x1], ids)
        if ink.sum() < 4:
            return None
        pm = paper_mask
        if pm.sum() < 10:
            return None
        paper_col = patch[pm].reshape(-1, 3).astype(np.float32).mean(axis=0) + 1.0
        col = sub[ink].mean(axis=0) / paper_col  # B, G, R relative to paper
        return float(col[2] - max(col[0], col[1]))

    # -- scoring
    def read_patch(
        self, patch: np.ndarray, target: tuple[int, int] | None = None
    ) -> CornerRead | None:
        """The best glyph cut-out of the patch; with ``target`` (rank, suit class indices,
        when teaching) the one that looks most like that card."""
        cfg = self.cfg
        best: CornerRead | None = None
        best_q = -1e9
        for rmask, raspect, smask, saspect, red in self.glyphs(patch):
            rf = glyph_feature(rmask)
            sf = glyph_feature(smask)
            rs = self._scores(self.model.ranks, rf, raspect, len(RANK_CLASSES),
                              self.profile.ranks if self.profile else None)
            ss = self._scores(self.model.suits, sf, saspect, len(SUIT_CLASSES),
                              self.profile.suits if self.profile else None)
            if red is not None:
                if red > cfg.red_threshold:
                    for i, s in enumerate(SUIT_CLASSES):
                        if s not in RED_SUITS:
                            ss[i] -= cfg.colour_penalty
                elif red < cfg.black_threshold:
                    for i, s in enumerate(SUIT_CLASSES):
                        if s in RED_SUITS:
                            ss[i] -= cfg.colour_penalty
            cr = CornerRead(rs, ss, red, rf, raspect, sf, saspect, rmask, smask)
            q = cr.quality if target is None else float(rs[target[0]] + ss[target[1]])
            if best is None or q > best_q:
                best, best_q = cr, q
        return best

    def _scores(self, ex: Exemplars, feat, aspect, n, taught: Exemplars | None) -> np.ndarray:
        f = feat[None, :]
        a = np.array([aspect], np.float32)
        s = ex.class_scores(f, a, n, self.cfg.aspect_weight)[0]
        if taught is not None and len(taught):
            t = taught.class_scores(f, a, n, self.cfg.aspect_weight)[0]
            s = np.maximum(s, np.where(t > -1, t + self.cfg.profile_bonus, -1))
        return s


# ---------------------------------------------------------------------------- recognizer


@dataclass
class _Interpretation:
    corners: np.ndarray  # clockwise from the card's top-left
    reads: list[CornerRead]
    score: float


class Recognizer:
    """Finds and reads playing cards in frames."""

    def __init__(
        self, config: RecognizerConfig | None = None, profile: DeckProfile | None = None
    ) -> None:
        self.config = config or RecognizerConfig()
        self.profile = profile
        self.reader = IndexReader(self.config, profile)

    # -- detection
    def find_cards(self, image: np.ndarray) -> list[CardQuad]:
        bgr = to_bgr(image)
        if bgr is None:
            return []
        try:
            quads = detect_quads(bgr, self.config)
        except cv2.error:
            return []
        return [CardQuad(q, bgr, self.config.crop_size) for q in quads]

    # -- reading
    def read(self, image: np.ndarray) -> list[CardReading]:
        bgr = to_bgr(image)
        if bgr is None:
            return []
        try:
            quads = detect_quads(bgr, self.config)
        except cv2.error:
            return []
        pyr = _Pyramid(bgr)
        return [self.read_quad(pyr, q) for q in quads]

    def read_crop(self, crop: np.ndarray) -> CardReading:
        """Read an image that is one card filling the frame (a cell of a deck sheet)."""
        bgr = to_bgr(crop)
        if bgr is None:
            return CardReading(None, (), 0.0)
        h, w = bgr.shape[:2]
        quad = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)
        return self.read_quad(_Pyramid(bgr), quad)

    def interpretations(
        self, pyr: _Pyramid, quad: np.ndarray, target: tuple[int, int] | None = None
    ) -> list[_Interpretation]:
        cfg = self.config
        W, H = cfg.crop_size
        q = order_clockwise(quad)
        sides = np.hypot(*(np.roll(q, -1, axis=0) - q).T)
        long_side = float(sides.max())
        lvl = 0
        while long_side / (2 ** (lvl + 1)) >= 1.3 * H:
            lvl += 1
        img = pyr.level(lvl)
        qs = q / (2**lvl)
        rect = _canonical_rect(cfg.crop_size)
        reads: list[CornerRead | None] = []
        for k in range(4):
            src = np.roll(qs, -k, axis=0)
            m = cv2.getPerspectiveTransform(src, rect)
            patch = cv2.warpPerspective(
                img, m, (self.reader.pw, self.reader.ph), flags=cv2.INTER_LINEAR,
                borderMode=cv2.BORDER_REPLICATE,
            )
            reads.append(self.reader.read_patch(patch, target))
        out = []
        for k in range(2):
            pair = [r for r in (reads[k], reads[k + 2]) if r is not None]
            # short side on top reads as portrait
            top = (sides[k] + sides[(k + 2) % 4]) / 2
            left = (sides[(k + 1) % 4] + sides[(k + 3) % 4]) / 2
            prior = cfg.portrait_prior if top < left else 0.0
            def qual(r: CornerRead | None) -> float:
                if r is None:
                    return -9.0
                if target is None:
                    return r.quality
                return float(r.rank_scores[target[0]] + r.suit_scores[target[1]])

            score = max(qual(reads[k]), qual(reads[k + 2])) + prior
            best_k = k if qual(reads[k]) >= qual(reads[k + 2]) else k + 2
            out.append(_Interpretation(np.roll(q, -best_k, axis=0), pair, score))
        out.sort(key=lambda t: -t.score)
        return out

    def read_quad(self, pyr: _Pyramid, quad: np.ndarray) -> CardReading:
        interps = self.interpretations(pyr, quad)
        best = interps[0]
        corners = tuple((float(x), float(y)) for x, y in best.corners)
        if not best.reads:
            return CardReading(None, corners, 0.0)
        return self.decide(best.reads, corners)

    def decide(self, reads: list[CornerRead], corners) -> CardReading:
        cfg = self.config
        rank = np.mean([r.rank_scores for r in reads], axis=0)
        suit = np.mean([r.suit_scores for r in reads], axis=0)
        ro = np.argsort(-rank)
        so = np.argsort(-suit)
        r1, r2 = float(rank[ro[0]]), float(rank[ro[1]])
        s1, s2 = float(suit[so[0]]), float(suit[so[1]])
        # corners that disagree
        agree = all(int(np.argmax(r.rank_scores)) == ro[0] for r in reads) and all(
            int(np.argmax(r.suit_scores)) == so[0] for r in reads
        )
        rank_conf = _margin_conf(r1, r2, cfg.min_rank_similarity, cfg.abstain_margin)
        suit_conf = _margin_conf(s1, s2, cfg.min_suit_similarity, cfg.abstain_margin)
        conf = min(rank_conf, suit_conf)
        if len(reads) < 2:
            conf *= 0.9
        if not agree:
            conf *= 0.5
        alts = []
        combos = []
        for ri in ro[:3]:
            for si in so[:3]:
                combos.append((float(rank[ri] + suit[si]) / 2, RANK_CLASSES[ri] + SUIT_CLASSES[si]))
        combos.sort(reverse=True)
        alts = tuple((c, round(max(0.0, s), 4)) for s, c in combos[: cfg.max_alternatives])
        card = None
        if (
            conf >= cfg.min_confidence
            and r1 >= cfg.min_rank_similarity
            and s1 >= cfg.min_suit_similarity
            and r1 - r2 >= cfg.abstain_margin
            and s1 - s2 >= cfg.abstain_margin
            and agree
        ):
            card = Card(RANK_CLASSES[ro[0]], Suit.from_letter(SUIT_CLASSES[so[0]]))
        return CardReading(card, corners, float(round(conf, 4)), alts)


def _margin_conf(best: float, second: float, floor: float, margin: float) -> float:
    """0..1 from how far the best class is above the floor and above the runner-up."""
    m = (best - second) / max(1e-6, 3 * margin)
    a = (best - floor) / max(1e-6, 1 - floor)
    return float(np.clip(min(m, 1.0) * 0.6 + np.clip(a, 0, 1) * 0.4, 0.0, 1.0)) if best > floor else 0.0


from vision.profile import DeckProfile  # noqa: E402  (profile uses the reader above)
