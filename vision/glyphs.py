"""Glyph features and the nearest-neighbour glyph classifier.

A *glyph* is one printed shape of a card's corner index: the rank (``A``, ``7``, ``10`` ...)
or the suit pip under it.  Every glyph, whether cut out of a photo, rendered from a font by
``vision.build_glyph_model`` or taught from a person's deck, goes through the same
:func:`glyph_feature`, so that they can be compared with a cosine similarity.

The built-in exemplars live in ``vision/data/glyphs.npz`` (generated, never downloaded).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.native import PACKAGE, kernels

RANK_CLASSES: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")
# what a rank cut-out may be instead when a glyph was cut apart (the "0" or the "1" of a
# "10" alone): the model knows these shapes too, and a reading that looks most like one of
# them is no reading
REJECT_CLASSES: tuple[str, ...] = ("0", "1")
RANK_MODEL_CLASSES: tuple[str, ...] = RANK_CLASSES + REJECT_CLASSES
SUIT_CLASSES: tuple[str, ...] = ("C", "D", "H", "S")
RED_SUITS = frozenset({"D", "H"})

GLYPH_SIZE = 32
_PIX = 8  # side of the coarse pixel template appended to the HOG
FEATURE_DIM = 324 + _PIX * _PIX
# (beside the sources: this module may be loaded compiled from elsewhere, see vision.native)
MODEL_PATH = PACKAGE / "data" / "glyphs.npz"
TOPK = 1  # a class scores the mean similarity of its TOPK nearest exemplars
# the C kernels, with the compiled modules (see vision.native): the glyph squares' gradient
# histograms
_KERNELS = kernels()
_KERNEL_SIDE = 32  # the side of the glyph squares vision/_kernels.c is written for


_CELLS = GLYPH_SIZE // 8
# the first histogram bin of each pixel's 8 px cell, pixel by pixel of a square
_CELL_BIN = (
    (np.arange(GLYPH_SIZE)[:, None] // 8 * _CELLS + np.arange(GLYPH_SIZE)[None, :] // 8) * 9
).reshape(-1)
_AREA_BITS = (GLYPH_SIZE * GLYPH_SIZE).bit_length() - 1
# a square's pixels are a power of 2: a pixel's square and place in it are bit fields
assert 1 << _AREA_BITS == GLYPH_SIZE * GLYPH_SIZE
# the cells of each 2x2-cell block (blocks row by row), in the order a block's histogram
# concatenates them: top-left, top-right, bottom-left, bottom-right
_BLOCK_CELLS = np.array(
    [[by * _CELLS + bx, by * _CELLS + bx + 1, (by + 1) * _CELLS + bx, (by + 1) * _CELLS + bx + 1]
     for by in range(_CELLS - 1) for bx in range(_CELLS - 1)], np.intp)


# an orientation bin index b, for b from -1 to 9, modulo the 9 bins (at index b + 1): a
# lookup in a few bytes costs less than numpy's integer modulo
_BIN_MOD = np.array([8, 0, 1, 2, 3, 4, 5, 6, 7, 8, 0], np.intp)


_PI32 = np.float32(np.pi)


def _orientations(
    dx: NDArray[np.float32], dy: NDArray[np.float32]
) -> tuple[NDArray[np.intp], NDArray[np.intp], NDArray[np.float64], NDArray[np.float64]]:
    """Of gradients (``dx``, ``dy``: whole numbers as float32): the two orientation bins each
    falls between (9 unsigned bins, each centred on its share of pi) and its magnitude's share
    in each, by how near it lies to each bin's centre."""
    mag = np.sqrt(dx * dx + dy * dy)
    # the angle modulo pi (as ``% np.pi`` gives it in float32, to the bit: a negative angle
    # plus pi, pi itself 0), without numpy's floating remainder, which costs three times
    # as much
    ang = np.arctan2(dy, dx)
    ang = np.where(ang < 0, ang + _PI32, ang)
    ang[ang >= _PI32] = 0.0
    pos = ang / (np.pi / 9.0) - 0.5
    below = np.floor(pos)
    w1 = pos - below.astype(np.int64)  # (float64, as float32 less int64 is)
    b = below.astype(np.intp) + 1
    return np.take(_BIN_MOD, b), np.take(_BIN_MOD, b + 1), mag * (1 - w1), mag * w1


@functools.cache
def _bin_table() -> tuple[NDArray[np.uint8], NDArray[np.float64]]:
    """:func:`_orientations` of every gradient a glyph square can have (dx and dy whole, from
    -255 to 255), for the C kernel: row (dy + 255) * 511 + dx + 255 holds its two bins, and
    its two shares -- numbers numpy itself computed, so the kernel bins a gradient exactly
    as :func:`_hog` does (made once, when first needed: some 10 ms)."""
    d = np.arange(-255, 256, dtype=np.float32)
    dy, dx = np.meshgrid(d, d, indexing="ij")
    first, second, share1, share2 = _orientations(dx.reshape(-1), dy.reshape(-1))
    bins = np.ascontiguousarray(np.stack([first, second], axis=1).astype(np.uint8))
    return bins, np.ascontiguousarray(np.stack([share1, share2], axis=1))


def _hog_of_squares(sq: NDArray[np.float32]) -> NDArray[np.float32]:
    """:func:`_hog` of glyph squares (N x S x S float32, ink 0..1) taken as levels 0..255;
    with the compiled modules, the cells' histograms and their blocks made by the C kernels
    (the same sums, in the same order)."""
    if (_KERNELS is not None and sq.dtype == np.float32 and sq.flags.c_contiguous
            and sq.shape[1:] == (_KERNEL_SIDE, _KERNEL_SIDE)):
        num = sq.shape[0]
        bins, shares = _bin_table()
        hist = np.empty(num * _CELLS * _CELLS * 9, np.float64)
        _KERNELS.hog_hist(sq, bins, shares, hist)
        blocks = np.empty((num, (_CELLS - 1) * (_CELLS - 1) * 36), np.float32)
        _KERNELS.hog_blocks(hist, num, blocks)
        return blocks
    return _hog(np.clip(sq * 255.0, 0, 255).astype(np.uint8))


def _hog(imgs: NDArray[np.uint8]) -> NDArray[np.float32]:
    """Histograms of oriented gradients of N GLYPH_SIZE squares (N x S x S): 8 px cells,
    9 unsigned orientation bins, 2x2-cell blocks with stride one cell, L2-Hys normalised
    (N x 324)."""
    num = imgs.shape[0]
    f = imgs.astype(np.int16)
    gx = np.zeros_like(f)
    gy = np.zeros_like(f)
    gx[:, :, 1:-1] = f[:, :, 2:] - f[:, :, :-2]
    gy[:, 1:-1, :] = f[:, 2:, :] - f[:, :-2, :]
    # glyphs are masks: most pixels have no gradient and add nothing to any bin, so only
    # the others are binned (the same sums, in the same order, for a fraction of the work;
    # numpy finds the true entries of a boolean array several times faster than the
    # non-zero ones of an integer array)
    nz = np.flatnonzero((gx != 0) | (gy != 0))
    first, second, share1, share2 = _orientations(gx.reshape(-1)[nz].astype(np.float32),
                                                  gy.reshape(-1)[nz].astype(np.float32))
    n = _CELLS
    base = (nz >> _AREA_BITS) * (n * n * 9) + _CELL_BIN[nz & ((1 << _AREA_BITS) - 1)]
    idx = np.concatenate([base + first, base + second])
    wts = np.concatenate([share1, share2])
    hist = np.bincount(idx, weights=wts, minlength=num * n * n * 9).astype(np.float32)
    return _blocks(hist, num)


def _blocks(hist: NDArray[np.float32], num: int) -> NDArray[np.float32]:
    """The cells' histograms (``hist``: N x cells x 9, flat) of N squares gathered into
    2x2-cell blocks, each L2-Hys normalised (N x 324)."""
    n = _CELLS
    # each block's four cells, gathered in one indexing
    blocks = hist.reshape(num, n * n, 9)[:, _BLOCK_CELLS].reshape(num, (n - 1) * (n - 1), 36)
    blocks = blocks / (_norms(blocks, 2) + 1e-3)
    blocks = np.minimum(blocks, 0.2)
    blocks = blocks / (_norms(blocks, 2) + 1e-3)
    return blocks.reshape(num, -1)


def _norms(a: NDArray[np.float32], axis: int) -> NDArray[np.float32]:
    """``np.linalg.norm(a, axis=axis, keepdims=True)`` of a real array, the same sums in the
    same order (it is how numpy computes it), without the checks around them: this runs
    some twenty times per frame on small arrays, where they cost more than the sums."""
    return np.sqrt(np.add.reduce(a * a, axis=axis, keepdims=True))


# every uint8 level as float32, as it is and divided by 255 (see _square)
_LEVELS = np.arange(256, dtype=np.float32)
_BY_255 = _LEVELS / np.float32(255.0)


def _square(mask: NDArray[Any], out: NDArray[np.float32] | None = None
            ) -> NDArray[np.float32]:
    """A glyph mask (ink > 0: uint8 0/255, or float 0..1) padded by 8% of its longer side
    and stretched to a GLYPH_SIZE square of float32 ink 0..1 -- into ``out`` where given
    (a GLYPH_SIZE square of float32, C-contiguous: OpenCV writes it in place)."""
    # (a few calls per glyph, some fifty glyphs per frame: the maximum and the division
    # are numpy's, without the wrappers around them; a uint8 mask is padded as it is and
    # turned to float32 by a table, the same values as dividing each by 255)
    h, w = mask.shape
    pad = max(1, int(round(0.08 * max(h, w))))
    if (_KERNELS is not None and mask.dtype == np.uint8 and mask.size
            and mask.flags.c_contiguous):
        # (the padding, the largest level and the table in one pass, in C)
        padded = np.empty((h + 2 * pad, w + 2 * pad), np.float32)
        _KERNELS.pad_levels(mask, h, w, pad, padded)
    elif mask.dtype == np.uint8:
        padded = cv2.copyMakeBorder(mask, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0)
        scaled = mask.size and np.maximum.reduce(mask, axis=None) > 1
        padded = cv2.LUT(padded, _BY_255 if scaled else _LEVELS)
    else:
        m = mask.astype(np.float32)
        if m.size and np.maximum.reduce(m, axis=None) > 1.0:
            m /= np.float32(255.0)
        padded = cv2.copyMakeBorder(m, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0.0)
    inter = cv2.INTER_AREA if max(h, w) > GLYPH_SIZE else cv2.INTER_LINEAR
    return cast("NDArray[np.float32]",
                cv2.resize(padded, (GLYPH_SIZE, GLYPH_SIZE), dst=out, interpolation=inter))


def _block_means(sq: NDArray[np.float32], k: int) -> NDArray[np.float32]:
    """The means of the k x k blocks of N squares (N x S x S float32), as
    ``sq.reshape(N, S // k, k, S // k, k).mean(axis=(2, 4))`` gives them, to the bit: each
    block's rows summed left to right, then the row sums top to bottom (the order of
    numpy's reduction), and divided by k * k (a power of two: exact); in a few passes over
    strided views instead of numpy's element-by-element reduction over two small axes."""
    num, side = sq.shape[0], sq.shape[1]
    v = sq.reshape(num, side // k, k, side // k, k)
    rows = v[..., 0] + v[..., 1] if k > 1 else v[..., 0].copy()
    for j in range(2, k):
        rows += v[..., j]
    total = rows[:, :, 0] + rows[:, :, 1] if k > 1 else rows[:, :, 0].copy()
    for i in range(2, k):
        total += rows[:, :, i]
    if k & (k - 1):  # not a power of two: divide as numpy's mean does
        return np.asarray(total / np.intp(k * k), dtype=np.float32)
    total *= np.float32(1.0 / (k * k))
    return total


def glyph_features(masks: list[NDArray[Any]]) -> NDArray[np.float32]:
    """Unit-length features of glyphs (N x FEATURE_DIM).

    Each mask is a 2-D array, ink > 0 (uint8 0/255 or float 0..1), already cut to the
    glyph's bounding box (a little margin does not matter).  The glyph is stretched to a
    square so the feature describes shape, not width; the width/height ratio is compared
    separately.
    """
    if not masks:
        return np.zeros((0, FEATURE_DIM), np.float32)
    # (each square resized straight into its place: no array made for it, none stacked)
    sq = np.empty((len(masks), GLYPH_SIZE, GLYPH_SIZE), np.float32)
    for i, m in enumerate(masks):
        _square(m, sq[i])
    hog = _hog_of_squares(sq)
    num = sq.shape[0]
    if (_KERNELS is not None and sq.shape[1:] == (_KERNEL_SIDE, _KERNEL_SIDE) and _PIX == 8
            and hog.dtype == np.float32 and hog.flags.c_contiguous):
        # (the block means and the three unit lengths in one pass, in C: the same sums; the
        # kernel is written for 32 px squares and an 8 x 8 template)
        feats = np.empty((num, FEATURE_DIM), np.float32)
        _KERNELS.glyph_tail(sq, hog, num, feats)
        return feats
    k = GLYPH_SIZE // _PIX
    pix = _block_means(sq, k).reshape(num, -1)
    pix = pix - pix.mean(axis=1, keepdims=True)
    pix = _unit_rows(pix)
    hog = _unit_rows(hog)
    feat = np.concatenate([hog * 0.8, pix * 0.6], axis=1).astype(np.float32, copy=False)
    return _unit_rows(feat)


def _unit_rows(a: NDArray[np.float32]) -> NDArray[np.float32]:
    """The rows of ``a`` divided by their length, those shorter than 1e-6 left as they are:
    ``np.where(n > 1e-6, a / np.maximum(n, 1e-6), a)``, without the two passes that change
    nothing when every row is long enough (as nearly always)."""
    n = _norms(a, 1)
    long = n > 1e-6
    if bool(long.all()):
        return np.asarray(a / n, dtype=np.float32)
    return np.asarray(np.where(long, a / np.maximum(n, 1e-6), a), dtype=np.float32)


def glyph_feature(mask: NDArray[Any]) -> NDArray[np.float32]:
    """The feature of one glyph (see :func:`glyph_features`)."""
    return np.asarray(glyph_features([mask])[0], dtype=np.float32)


@dataclass
class Exemplars:
    """Labelled glyph features: ``feats`` (N x D, unit rows), ``labels`` (N, class index),
    ``aspects`` (N, log of width/height)."""

    feats: np.ndarray
    labels: np.ndarray
    aspects: np.ndarray
    # optional projection (FEATURE_DIM x k) to fewer dimensions, for speed: queries are
    # projected and re-normalised; ``feats`` then hold projected unit rows
    proj: np.ndarray | None = None

    @classmethod
    def empty(cls) -> Exemplars:
        return cls(
            np.zeros((0, FEATURE_DIM), np.float32), np.zeros(0, np.int16), np.zeros(0, np.float32)
        )

    def __post_init__(self) -> None:
        self._index()

    def _index(self) -> None:
        order = np.argsort(self.labels, kind="stable")
        self.feats = np.ascontiguousarray(self.feats[order], np.float32)
        self.labels = self.labels[order]
        self.aspects = self.aspects[order]
        self._ft = np.ascontiguousarray(self.feats.T)
        classes, starts = np.unique(self.labels, return_index=True)
        self._classes = classes.astype(np.int64)
        self._starts = starts.astype(np.int64)

    def __len__(self) -> int:
        return int(self.labels.shape[0])

    def extend(self, feats: np.ndarray, labels: np.ndarray, aspects: np.ndarray) -> None:
        self.feats = np.concatenate([self.feats, feats.astype(np.float32)])
        self.labels = np.concatenate([self.labels, labels.astype(np.int16)])
        self.aspects = np.concatenate([self.aspects, aspects.astype(np.float32)])
        self._index()

    def class_scores(
        self, feats: np.ndarray, aspects: np.ndarray, n_classes: int, aspect_weight: float
    ) -> np.ndarray:
        """Per query and class: the best similarity of any exemplar of that class
        (cosine similarity less an aspect-ratio penalty).  -1 where a class has none."""
        q = feats.shape[0]
        out = np.full((q, n_classes), -1.0, np.float32)
        if len(self) == 0 or q == 0:
            return out
        q = feats.astype(np.float32)
        if self.proj is not None:
            q = q @ self.proj
            q /= np.linalg.norm(q, axis=1, keepdims=True) + 1e-6
        sims = q @ self._ft
        if (_KERNELS is not None and TOPK <= 1 and sims.dtype == np.float32
                and aspects.dtype == np.float32 and self.aspects.dtype == np.float32
                and aspects.flags.c_contiguous and self.aspects.flags.c_contiguous
                and sims.flags.c_contiguous):
            # the penalty and each class's best in one pass, in C (the same float32 steps)
            _KERNELS.class_best(sims, aspects, self.aspects, float(aspect_weight),
                                self._starts, self._classes, out)
            return out
        # the aspect penalty, made in one scratch array (queries x exemplars)
        pen = aspects[:, None] - self.aspects[None, :]
        np.abs(pen, out=pen)
        pen *= aspect_weight
        sims -= pen
        if TOPK <= 1:
            out[:, self._classes] = np.maximum.reduceat(sims, self._starts, axis=1)
            return out
        ends = list(self._starts[1:]) + [sims.shape[1]]
        for c, a, b in zip(self._classes, self._starts, ends, strict=True):
            blk = sims[:, a:b]
            k = min(TOPK, b - a)
            top = np.partition(blk, blk.shape[1] - k, axis=1)[:, blk.shape[1] - k :]
            out[:, c] = top.mean(axis=1)
        return out


@dataclass
class GlyphModel:
    ranks: Exemplars
    suits: Exemplars

    @classmethod
    def load(cls, path: Path = MODEL_PATH) -> GlyphModel:
        with np.load(path) as z:
            return cls(
                _projected(z["rank_feats"], z["rank_labels"], z["rank_aspects"],
                           z["rank_proj"] if "rank_proj" in z else None),
                _projected(z["suit_feats"], z["suit_labels"], z["suit_aspects"],
                           z["suit_proj"] if "suit_proj" in z else None),
            )


def _projected(
    feats: np.ndarray, labels: np.ndarray, aspects: np.ndarray, proj: np.ndarray | None
) -> Exemplars:
    f = feats.astype(np.float32)
    p = None
    if proj is not None:
        p = proj.astype(np.float32)
        f = f @ p
        f /= np.linalg.norm(f, axis=1, keepdims=True) + 1e-6
    return Exemplars(f, labels.astype(np.int16), aspects.astype(np.float32), p)


def projection(feats: np.ndarray, dims: int) -> np.ndarray:
    """The ``dims`` principal directions (uncentred) of unit feature rows."""
    _u, _s, vt = np.linalg.svd(feats.astype(np.float32), full_matrices=False)
    return np.ascontiguousarray(vt[:dims].T.astype(np.float32))


_BUILTIN: GlyphModel | None = None


def builtin_model() -> GlyphModel:
    """The shipped glyph model (loaded once per process)."""
    global _BUILTIN
    if _BUILTIN is None:
        _BUILTIN = GlyphModel.load()
    return _BUILTIN


def side_notches(mask: np.ndarray) -> tuple[float, float]:
    """Depths (of the width) of the deepest dent in the left side and in the right side of
    a suit shape, between 20% and 62% of its height: a club's waist between its lobes
    (about 0.1-0.25 each side; 0.06-0.09 where the lobes are set close), which a spade,
    heart or diamond does not have (below about 0.06).  A dent on one side only is no
    waist: a speck or stroke run into the glyph's side (a court's printed frame beside its
    index) makes one.  With the C kernels, theirs where they give it (the same depths from
    the same border, hull and defects as OpenCV's, for a fifth of the cost: this runs for
    every suit glyph read)."""
    # findContours takes any non-zero pixel as ink: a uint8 mask needs no 0/1 copy
    m = mask if mask.dtype == np.uint8 else (mask > 0).astype(np.uint8)
    if (_KERNELS is not None and m.ndim == 2 and m.size and m.flags.c_contiguous
            and m.size <= _NOTCH_KERNEL_MAX):
        found = _KERNELS.notches(m, m.shape[0], m.shape[1])
        if found is not None:
            return found
    return _opencv_notches(m)


# the largest mask (pixels) the kernel is given: its scratch room is some 140 bytes a pixel
# (a glyph is some 30 x 30 px)
_NOTCH_KERNEL_MAX = 1 << 18


def _opencv_notches(m: NDArray[np.uint8]) -> tuple[float, float]:
    """:func:`side_notches` of a uint8 mask (ink non-zero), by OpenCV's contours, hull and
    convexity defects."""
    h, w = m.shape
    cs, _ = cv2.findContours(m, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not cs:
        return 0.0, 0.0
    c = cs[0] if len(cs) == 1 else max(cs, key=cv2.contourArea)
    if len(c) < 5:
        return 0.0, 0.0
    try:
        hull = cv2.convexHull(c, returnPoints=False)
        d = cv2.convexityDefects(c, hull)
    except cv2.error:
        return 0.0, 0.0
    if d is None:
        return 0.0, 0.0
    left = right = 0.0
    # plain ints: a few defects, each costing more in numpy scalars than in Python
    d = d.reshape(-1, 4)
    far = c.reshape(-1, 2)[d[:, 2]].tolist()
    for (px, py), depth in zip(far, d[:, 3].tolist(), strict=True):
        y = py / h
        x = px / w
        if 0.2 < y < 0.62:
            if x < 0.4:
                left = max(left, depth / 256.0 / w)
            elif x > 0.6:
                right = max(right, depth / 256.0 / w)
    return left, right


def top_width(mask: np.ndarray, at: float = 0.12) -> float:
    """Width of the ink at ``at`` of the height from the top, over the glyph's width: a
    heart's two lobes make it wide (about 0.75 and more, even blurred), a diamond's point
    narrow (about 0.5 and less)."""
    h, w = mask.shape
    if h < 3 or w < 2:
        return 0.5
    y = min(h - 1, int(round(at * h)))
    if _KERNELS is not None and mask.dtype == np.uint8 and mask.flags.c_contiguous:
        return float(_KERNELS.ink_span(mask, h, w, y)) / float(w)
    # (the non-zero places of a uint8 row are its ink: no comparison first)
    line = mask[y]
    # (the row's own method: numpy's flatnonzero wraps it in two more calls, on some
    # seventy rows a frame)
    row = line.nonzero()[0] if mask.dtype == np.uint8 else (line > 0).nonzero()[0]
    if len(row) == 0:
        return 0.0
    return float(row[-1] - row[0] + 1) / float(w)

