"""The C kernels built with the compiled card reader (vision/_kernels.c): used with the
compiled modules, and giving to the bit what the sources compute -- on pieces of the real
photos and on random pictures of every size, the degenerate ones too."""

from __future__ import annotations

import math
import os
import shutil
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest
import realdata

from vision import detect, fan, glyphs, native, pipeline

REPO = Path(__file__).resolve().parents[2]


def _kernels() -> native.Kernels:
    """The kernels, which the tests expect to be in use (./test compiles them)."""
    if os.environ.get(native.PURE_ENV, "") not in ("", "0"):
        pytest.fail(f"the kernels are used with the compiled reader only ({native.PURE_ENV} "
                    "is set): run these tests without it")
    k = native.kernels()
    assert k is not None, native.status
    return k


def _pictures(count: int, seed: int) -> list[np.ndarray]:
    """Pieces of the shared photos (the size of corner patches and card middles, and
    smaller), random pictures, and the degenerate ones: one pixel, one row, all black, all
    white."""
    rng = np.random.default_rng(seed)
    out: list[np.ndarray] = [np.zeros((1, 1, 3), np.uint8), np.full((1, 7, 3), 255, np.uint8),
                             np.zeros((9, 1, 3), np.uint8), np.full((154, 75, 3), 255, np.uint8),
                             np.zeros((175, 125, 3), np.uint8)]
    photos = realdata.photos("phone-scenes")[:6] + realdata.photos("webcam-grey")[:6]
    images = [cv2.imread(str(p.path)) for p in photos]
    while len(out) < count:
        if images and rng.random() < 0.7:
            img = images[int(rng.integers(len(images)))]
            h = int(rng.integers(2, 200))
            w = int(rng.integers(2, 140))
            y = int(rng.integers(0, img.shape[0] - h))
            x = int(rng.integers(0, img.shape[1] - w))
            out.append(np.ascontiguousarray(img[y:y + h, x:x + w]))
        else:
            h, w = (int(v) for v in rng.integers(1, 120, 2))
            out.append(rng.integers(0, 256, (h, w, 3)).astype(np.uint8))
    return out


def test_the_kernels_go_with_the_compiled_reader() -> None:
    """Where the compiled modules run, so do the kernels (they are built, and current,
    together); the sources never load them."""
    _kernels()
    assert pipeline._KERNELS is not None and glyphs._KERNELS is not None
    assert native.in_use() == "compiled"


def test_percentile_levels_are_numpys() -> None:
    """``_percentile`` through the kernel: the k-th smallest of every other pixel of every
    other row, as numpy's partition finds it, for every percentile asked of a patch."""
    _kernels()
    for pic in _pictures(400, seed=1):
        v = pipeline._ink_channel(pic)
        flat = v[::2, ::2].reshape(-1)
        for q in (0.0, 2.0, 37.5, 50.0, 90.0, 95.0, 99.9, 100.0):
            k = min(flat.size - 1, max(0, int(flat.size * q / 100.0)))
            assert pipeline._percentile(v, q) == float(np.partition(flat, k)[k]), (v.shape, q)


def test_paper_colours_are_opencvs() -> None:
    """``_paper_colour`` through the kernel: the mean colour of every third pixel of every
    third row lighter than the threshold, as OpenCV's mean gives it, or None where fewer
    than ten are."""
    _kernels()
    nones = 0
    for pic in _pictures(400, seed=2):
        v = pipeline._ink_channel(pic)
        for thr in (-3.0, 0.0, 30.2, 100.0, 150.5, 200.0, 254.9, 255.0, 300.0):
            sel = np.asarray(cv2.threshold(v[::3], math.floor(thr), 1, cv2.THRESH_BINARY)[1],
                             np.uint8) & (np.arange(v.shape[1]) % 3 == 0).astype(np.uint8)
            want = (None if cv2.countNonZero(sel) < 10
                    else np.array(cv2.mean(pic[::3], sel)[:3], np.float32) + 1.0)
            got = pipeline._paper_colour(pic, v, thr)
            if want is None:
                nones += 1
                assert got is None, (pic.shape, thr)
            else:
                assert got is not None and got.dtype == np.float32, (pic.shape, thr)
                assert np.array_equal(got, want), (pic.shape, thr, got, want)
    assert nones > 100  # (the rule for too few pixels was met as often as the rest)


def test_paper_light_is_opencvs(monkeypatch: pytest.MonkeyPatch) -> None:
    """The paper's light of a card's middle through the kernel (paper_light): OpenCV's 4 x 4
    area resize, 9 x 9 dilation and 5 x 5 blur to the bit, and the least and greatest of it,
    for the ink of pieces of the photos and random pictures of every size from 16 px (the
    rows and columns past whole blocks left out, the smallest light 4 x 4); and
    ``_paper_light`` gives the same with the kernel as without it, even light or uneven."""
    k = _kernels()
    rng = np.random.default_rng(29)
    greys = [pipeline._ink_channel(p) for p in _pictures(400, seed=30) if min(p.shape[:2]) >= 16]
    greys += [rng.integers(0, 256, (int(h), int(w)), dtype=np.uint8)
              for h, w in rng.integers(16, 200, (300, 2))]
    greys += [np.zeros((16, 16), np.uint8), np.full((19, 23), 255, np.uint8),
              np.tile(np.arange(0, 250, 2, dtype=np.uint8), (175, 1))]  # light falling off
    square9 = np.ones((9, 9), np.uint8)
    for v in greys:
        h, w = v.shape
        small = cv2.resize(v[: h - h % 4, : w - w % 4], (w // 4, h // 4),
                           interpolation=cv2.INTER_AREA)
        want = cv2.blur(cv2.dilate(small, square9), (5, 5))
        got = np.empty((h // 4, w // 4), np.uint8)
        lo, hi = k.paper_light(v, h, w, got)
        assert np.array_equal(got, want), v.shape
        assert (lo, hi) == tuple(cv2.minMaxLoc(want)[:2]), v.shape
    mine = [pipeline._paper_light(v) for v in greys]
    monkeypatch.setattr(pipeline, "_KERNELS", None)
    theirs = [pipeline._paper_light(v) for v in greys]
    uneven = 0
    for a, b in zip(mine, theirs, strict=True):
        assert (a is None) == (b is None)
        if a is not None and b is not None:
            uneven += 1
            assert a.dtype == b.dtype and np.array_equal(a, b)
    assert 50 < uneven < len(greys) - 50


def test_glyph_histograms_are_numpys() -> None:
    """Glyph features through the kernel: the same histograms of oriented gradients as
    numpy's (glyphs._hog), to the bit, for squares cut from the photos' ink, blurred,
    random and empty -- in batches of one to sixty, as a frame's glyphs come."""
    _kernels()
    rng = np.random.default_rng(3)
    masks = []
    for pic in _pictures(300, seed=4):
        v = pipeline._ink_channel(pic)
        masks.append(pipeline._below(v, float(np.median(v))) * np.uint8(255))
    squares = [glyphs._square(m) for m in masks]
    squares += [rng.random((32, 32), dtype=np.float32) for _ in range(40)]
    squares += [cv2.GaussianBlur(s, (5, 5), 0) for s in squares[:60]]
    squares += [np.zeros((32, 32), np.float32), np.ones((32, 32), np.float32),
                np.full((32, 32), 1.2, np.float32), np.full((32, 32), -0.1, np.float32)]
    order = rng.permutation(len(squares))
    at = 0
    while at < len(order):
        n = int(rng.integers(1, 61))
        batch = np.stack([squares[i] for i in order[at:at + n]])
        at += n
        want = glyphs._hog(np.clip(batch * 255.0, 0, 255).astype(np.uint8))
        assert np.array_equal(glyphs._hog_of_squares(batch), want)


def _opencvs_components(mask: np.ndarray) -> tuple[int, np.ndarray, np.ndarray]:
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8,
                                                           ltype=cv2.CV_16U)
    return n, labels, stats


def _ink_masks(rng: np.random.Generator, count: int) -> list[np.ndarray]:
    """Random masks of every kind a labelling can trip on: specks sparse and dense, blots
    (smoothed noise), lines and their crossings, a checkerboard (every pixel of it joined
    corner to corner only), ink along the borders, whole rows and columns of ink; ink of
    any value but 0."""
    masks = []
    for i in range(count):
        h, w = (int(x) for x in rng.integers(1, 180, 2))
        kind = i % 5
        if kind == 0:
            m = (rng.random((h, w)) < rng.random()).astype(np.uint8)
        elif kind == 1:
            k = int(rng.integers(0, 4)) * 2 + 1
            noise = rng.integers(0, 255, (h, w), dtype=np.uint8)
            m = (cv2.GaussianBlur(noise, (k, k), 0) < rng.integers(60, 170)).astype(np.uint8)
        elif kind == 2:
            m = np.zeros((h, w), np.uint8)
            for _ in range(int(rng.integers(1, 8))):
                a = (int(rng.integers(0, w)), int(rng.integers(0, h)))
                b = (int(rng.integers(0, w)), int(rng.integers(0, h)))
                cv2.line(m, a, b, 1, int(rng.integers(1, 3)))
        elif kind == 3:
            m = ((np.add.outer(np.arange(h), np.arange(w)) + i) % 2).astype(np.uint8)
            m[rng.random((h, w)) < 0.1] = 0
        else:
            m = (rng.random((h, w)) < 0.3).astype(np.uint8)
            m[:, int(rng.integers(0, w))] = 1
            m[int(rng.integers(0, h)), :] = 1
            m[0, :] = m[-1, :] = int(rng.integers(0, 2))
        if i % 3 == 0:
            m *= np.uint8(rng.integers(1, 256))
        masks.append(np.ascontiguousarray(m))
    return masks


def test_components_are_opencvs() -> None:
    """``_components`` through the kernel (labelled run by run): the count, the labels in
    OpenCV's order, and the statistics (box and area of each component, the background's
    first) OpenCV's connectedComponentsWithStats gives, on the ink masks of pieces of the
    photos (at several thresholds), random masks of every kind, and the degenerate ones:
    one pixel, one row, one column, no ink, all ink (the background then has no pixels:
    -1, 2**31 - 1, 0, 0, 0, as OpenCV says it).  A mask the kernel does not take (not
    contiguous; of more 2 x 2 blocks than 16-bit labels number) is OpenCV's to label."""
    _kernels()
    rng = np.random.default_rng(5)
    masks = [np.zeros((1, 1), np.uint8), np.ones((1, 1), np.uint8), np.ones((1, 9), np.uint8),
             np.ones((7, 1), np.uint8), np.zeros((154, 75), np.uint8),
             np.ones((154, 75), np.uint8), np.ones((175, 125), np.uint8)]
    for pic in _pictures(200, seed=6):
        v = pipeline._ink_channel(pic)
        for q in (10, 50, 80):
            masks.append(pipeline._below(v, float(np.percentile(v, q))))
    masks += _ink_masks(rng, 3000)
    big = np.zeros((600, 600), np.uint8)  # (90,000 blocks)
    cv2.circle(big, (300, 300), 200, 1, 9)
    cv2.rectangle(big, (20, 20), (80, 500), 1, -1)
    masks += [big, np.ones((300, 400), np.uint8)[::2]]
    for mask in masks:
        n, labels, stats = pipeline._components(mask.copy() if mask.flags.c_contiguous
                                                else mask)
        want_n, want_labels, want_stats = _opencvs_components(mask)
        assert n == want_n and np.array_equal(labels, want_labels), mask.shape
        assert stats.dtype == want_stats.dtype and np.array_equal(stats, want_stats), mask.shape


def test_components_are_labelled_apart_from_opencv() -> None:
    """The kernel's own labels, given straight (not through ``_components``), on masks
    whose labels OpenCV numbers block by block: the same count, labels and statistics,
    and its statistics where the room for them is larger than needed, untouched beyond."""
    k = _kernels()
    rng = np.random.default_rng(9)
    for mask in _ink_masks(rng, 500):
        h, w = mask.shape
        labels = np.full((h, w), 7, np.uint16)
        stats = np.full((h * w + 3, 5), -7, np.int32)
        n = k.cc_label(mask, h, w, labels, stats)
        want_n, want_labels, want_stats = _opencvs_components(mask)
        assert n == want_n and np.array_equal(labels, want_labels)
        assert np.array_equal(stats[:n], want_stats) and (stats[n:] == -7).all()


def test_line_openings_are_the_box_sums() -> None:
    """The openings by a line through the kernel, run by run: the same pixels as
    ``_open_line``'s two box sums (an even line's opening one pixel later, as theirs), along
    columns and rows, in any band of them, of lines shorter and longer than the picture,
    on masks cut from the photos' ink (with their long lines, as ``_long_lines`` finds them)
    and random ones, with runs across the whole picture and values other than 0 and 1."""
    k = _kernels()
    rng = np.random.default_rng(7)
    masks = []
    for pic in _pictures(150, seed=8):
        v = pipeline._ink_channel(pic)
        masks.append(pipeline._below(v, float(np.percentile(v, 40))))
    for i in range(1500):
        h, w = (int(x) for x in rng.integers(1, 160, 2))
        m = (rng.random((h, w)) < rng.random()).astype(np.uint8)
        if i % 3 == 0:
            m[:, int(rng.integers(0, w))] = 1
            m[int(rng.integers(0, h)), :] = 1
        if i % 7 == 0:
            m[rng.random((h, w)) < 0.05] = int(rng.integers(2, 256))
        masks.append(m)
    for i, m in enumerate(masks):
        h, w = m.shape
        n = int(rng.integers(1, max(h, w) + 5))
        vertical = bool(i % 2)
        across = w if vertical else h
        lo = int(rng.integers(0, across))
        hi = int(rng.integers(lo + 1, across + 1))
        want = np.zeros_like(m)
        if vertical:
            want[:, lo:hi] = pipeline._open_line(np.ascontiguousarray(m[:, lo:hi]), n, True)
        else:
            want[lo:hi] = pipeline._open_line(m[lo:hi], n, False)
        got = np.zeros_like(m)
        k.open_lines(m, h, w, n, vertical, lo, hi, got)
        assert np.array_equal(got, want), (m.shape, n, vertical, lo, hi)
    for m in masks[:150]:
        rows = pipeline._components(m.copy())[2].tolist()
        for n in (9, 30, 31):
            lines = pipeline._long_lines(m, rows, n)
            want = np.zeros_like(m)
            for vertical in (True, False):
                want |= pipeline._open_line(m, n, vertical)
            # (the bands _long_lines looks in hold every line there is)
            assert np.array_equal(lines, want), (m.shape, n)


def _side_items(rng: np.random.Generator) -> list[tuple[np.ndarray, np.ndarray]]:
    """(contour, quad) pairs as detection hands refine_quads them: card outlines at any
    angle and size, their points noisy, a few far off (a glyph or shadow touching the
    outline), some too few for a side; the quad a little off the outline."""
    items = []
    for _ in range(int(rng.integers(1, 14))):
        c = rng.uniform(0, 800, 2)
        w, h = rng.uniform(4, 260, 2)
        a = rng.uniform(0, math.pi)
        turn = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
        corners = (np.array([[-w, -h], [w, -h], [w, h], [-w, h]]) / 2) @ turn.T + c
        m = int(rng.integers(1, 700))
        along = np.sort(rng.uniform(0, 4, m))
        side = along.astype(int) % 4
        f = along - np.floor(along)
        pts = corners[side] + (corners[(side + 1) % 4] - corners[side]) * f[:, None]
        pts = pts + rng.normal(0, rng.uniform(0, 3), (m, 2))
        if rng.random() < 0.3:
            pts[rng.integers(0, m, 5)] += rng.normal(0, 30, (5, 2))
        quad = (corners + rng.normal(0, 2, (4, 2))).astype(np.float32)
        items.append((np.round(pts).astype(np.int32).reshape(-1, 1, 2), quad))
    return items


def _lines_both_ways(k: native.Kernels, items: list[tuple[np.ndarray, np.ndarray]]
                     ) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """The side lines of the quads of ``items`` (those refine_quads fits: 16 contour points
    or more), by the sources (detect._side_lines) and by the kernel."""
    todo = [(c.reshape(-1, 2), q) for c, q in items if len(c.reshape(-1, 2)) >= 16]
    if not todo:
        return [], []
    quads = np.stack([q for _, q in todo]).astype(np.float64)
    ab = quads[:, detect.NEXT_CORNER] - quads
    lengths = np.hypot(ab[..., 0], ab[..., 1])
    u = ab / np.maximum(lengths, 1e-9)[..., None]
    counts = [len(c) for c, _ in todo]
    p = np.concatenate([c for c, _ in todo]).astype(np.float64)
    lines = np.zeros((len(todo), 4, 4))
    lines[..., :2] = u
    k.fit_sides(p, np.asarray(counts, np.int64), quads, u, lengths, len(todo),
                detect.FIT_ROUNDS, detect.HUBER_C, lines)
    return (list(detect._side_lines(p, counts, quads, u, lengths)),
            [np.ascontiguousarray(lines[..., j]).reshape(-1) for j in range(4)])


def test_side_lines_are_the_sources(monkeypatch: pytest.MonkeyPatch) -> None:
    """The lines fitted to card quads' sides (refine_quads): the kernel's to the bit the
    sources' (their points chosen alike, their sums made in the same order, the same
    angles), on 3,000 frames' worth of random outlines and on the cards' outlines in three
    drawn frames of vision.bench; and refine_quads gives the same quads with the kernel as
    without it."""
    from vision.synth import SynthConfig, random_frame

    k = _kernels()
    rng = np.random.default_rng(11)
    fitted = 0
    for _ in range(3000):
        mine, theirs = _lines_both_ways(k, _side_items(rng))
        for a, b in zip(mine, theirs, strict=True):
            assert np.array_equal(a, b)
        fitted += int(np.count_nonzero(mine[2])) if mine else 0
    assert fitted > 10_000  # (sides whose line was fitted, not left as the side)
    # the cards' outlines in Otsu's mask of the frames shrunk as detection shrinks them,
    # each with the box round it
    seen: list[list[tuple[np.ndarray, np.ndarray]]] = []
    for seed in (1000, 1004, 1020):
        grey = cv2.cvtColor(random_frame(seed, 12, 0, SynthConfig()).image, cv2.COLOR_BGR2GRAY)
        small = cv2.resize(grey, (800, 450), interpolation=cv2.INTER_AREA)
        _, mask = cv2.threshold(small, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
        outlines, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        seen.append([(c, cv2.boxPoints(cv2.minAreaRect(c)).astype(np.float32))
                     for c in outlines if cv2.contourArea(c) > 2000])
    assert sum(len(items) for items in seen) >= 36
    for items in seen:
        mine, theirs = _lines_both_ways(k, items)
        for a, b in zip(mine, theirs, strict=True):
            assert np.array_equal(a, b)
        with_kernel = detect.refine_quads(items)
        monkeypatch.setattr(detect, "_KERNELS", None)
        without = detect.refine_quads(items)
        monkeypatch.undo()
        for a, b in zip(with_kernel, without, strict=True):
            assert np.array_equal(a, b)


def _suit_like(rng: np.random.Generator, count: int) -> list[np.ndarray]:
    """Glyph-sized masks shaped as suits are (0/255): clubs (three lobes on a stalk, the
    lobes set close or apart), spades, hearts and diamonds of a few polygons, and blobs --
    turned, blurred and thresholded again, some cut by the mask's edge."""
    out = []
    for i in range(count):
        h, w = (int(x) for x in rng.integers(9, 60, 2))
        m = np.zeros((h, w), np.uint8)
        cx, cy, r = w / 2, h / 2, min(h, w) / 4
        kind = i % 4
        if kind == 0:  # a club
            apart = r * float(rng.uniform(0.6, 1.3))
            for dx, dy in ((0.0, -apart), (-apart, apart * 0.4), (apart, apart * 0.4)):
                cv2.circle(m, (round(cx + dx), round(cy + dy)), max(1, round(r)), 255, -1)
            cv2.line(m, (round(cx), round(cy)), (round(cx), h - 1), 255,
                     int(rng.integers(1, 4)))
        elif kind == 1:  # a spade or a heart: two lobes and a point
            for dx in (-r * 0.8, r * 0.8):
                cv2.circle(m, (round(cx + dx), round(cy)), max(1, round(r)), 255, -1)
            tip = (round(cx), round(cy + 2.2 * r) if rng.random() < 0.5 else round(cy - 2.2 * r))
            pts = np.array([(round(cx - 1.8 * r), round(cy)), (round(cx + 1.8 * r), round(cy)),
                            tip], np.int32)
            cv2.fillPoly(m, [pts], 255)
        elif kind == 2:  # a diamond or any polygon
            n = int(rng.integers(3, 9))
            pts = np.stack([rng.integers(0, w, n), rng.integers(0, h, n)], axis=1)
            cv2.fillPoly(m, [pts.astype(np.int32)], 255)
        else:  # blots
            noise = rng.integers(0, 255, (h, w), dtype=np.uint8)
            m = (cv2.GaussianBlur(noise, (5, 5), 0) > 128).astype(np.uint8) * 255
        if rng.random() < 0.5:
            turned = cv2.getRotationMatrix2D((cx, cy), float(rng.uniform(0, 360)), 1.0)
            m = cv2.warpAffine(m, turned, (w, h))
        if rng.random() < 0.5:
            soft = cv2.GaussianBlur(m, (0, 0), float(rng.uniform(0.5, 2.0)))
            m = (soft > int(rng.integers(60, 200))).astype(np.uint8) * 255
        out.append(np.ascontiguousarray(m))
    return out


def test_suit_notches_are_opencvs() -> None:
    """``side_notches`` through the kernel: OpenCV's depths (its outer borders, their
    largest, its hull and convexity defects), to the bit, for suit-shaped masks, the ink
    of pieces of the photos and random masks of every kind; and where the largest border
    passes a pixel twice (a one-pixel neck or spur), no answer from the kernel -- which of
    the pixel's two places OpenCV's hull takes differs between its versions -- and OpenCV's
    through side_notches."""
    k = _kernels()
    rng = np.random.default_rng(13)
    masks = _suit_like(rng, 3000)
    for pic in _pictures(150, seed=14):
        v = pipeline._ink_channel(pic)
        masks.append(pipeline._below(v, float(np.median(v))) * np.uint8(255))
    masks += [np.ascontiguousarray(m) for m in _ink_masks(rng, 1500) if m.size <= 4000]
    masks += [np.zeros((1, 1), np.uint8), np.full((1, 1), 255, np.uint8),
              np.full((1, 9), 255, np.uint8), np.full((6, 5), 255, np.uint8),
              np.zeros((30, 20), np.uint8)]
    answered = declined = dented = 0
    for m in masks:
        want = glyphs._opencv_notches(m)
        got = k.notches(m, m.shape[0], m.shape[1])
        if got is None:
            declined += 1
        else:
            answered += 1
            dented += want != (0.0, 0.0)
            assert got == want, (m.shape, got, want)
        assert glyphs.side_notches(m) == want
    assert answered > 2000 and dented > 1500 and declined > 1000


def _bits(a: np.ndarray) -> np.ndarray:
    """A float32 array's bit patterns (equal only where every value is to the bit, a zero's
    sign too)."""
    return np.ascontiguousarray(a, np.float32).view(np.uint32)


def test_glyph_features_are_the_sources(monkeypatch: pytest.MonkeyPatch) -> None:
    """Glyph features through the kernels (each mask padded and its levels made float32,
    pad_levels; the cells' blocks normalised, hog_blocks; the block means and the three unit
    lengths, glyph_tail): to the bit the sources' numpy, for suit-shaped masks, the ink of
    pieces of the photos, random masks, masks of levels 0 and 1, masks larger than a glyph
    square (shrunk, not stretched) and the degenerate ones -- in batches of one to sixty, as
    a frame's glyphs come; non-contiguous and float masks as well (the sources' way)."""
    _kernels()
    rng = np.random.default_rng(17)
    masks = _suit_like(rng, 400)
    for pic in _pictures(150, seed=18):
        v = pipeline._ink_channel(pic)
        masks.append(pipeline._below(v, float(np.median(v))) * np.uint8(255))
    masks += [m for m in _ink_masks(rng, 300) if m.size <= 20_000]
    masks += [(m > 0).astype(np.uint8) for m in masks[:50]]  # levels 0 and 1
    masks += [np.zeros((1, 1), np.uint8), np.full((1, 1), 255, np.uint8),
              np.full((1, 9), 255, np.uint8), np.zeros((30, 20), np.uint8),
              np.full((80, 3), 255, np.uint8)]
    masks += [np.full((40, 30), 255, np.uint8)[::2, 1:], masks[0].astype(np.float32) / 255]
    assert sum(max(m.shape) > glyphs.GLYPH_SIZE for m in masks) > 100
    order = rng.permutation(len(masks))
    batches = []
    at = 0
    while at < len(order):
        n = int(rng.integers(1, 61))
        batches.append([masks[i] for i in order[at:at + n]])
        at += n
    mine = [glyphs.glyph_features(b) for b in batches]
    monkeypatch.setattr(glyphs, "_KERNELS", None)
    theirs = [glyphs.glyph_features(b) for b in batches]
    for a, b in zip(mine, theirs, strict=True):
        assert a.shape == b.shape and np.array_equal(_bits(a), _bits(b))


def test_glyph_cut_outs_are_the_sources(monkeypatch: pytest.MonkeyPatch) -> None:
    """A glyph's pieces of ink cut from the labels (``_label_mask`` through the kernel,
    label_mask): the sources' 0/255 masks for random boxes of the labels of random and
    suit-shaped masks (the whole picture too) and one to eight ids, some of them no label
    there."""
    _kernels()
    rng = np.random.default_rng(31)
    cases = []
    for m in _ink_masks(rng, 200) + _suit_like(rng, 200):
        n, labels, _ = pipeline._components((m > 0).astype(np.uint8))
        h, w = labels.shape
        for _ in range(5):
            # (boxes of two pixels or more, as a glyph's are: OpenCV's compare takes a
            # picture of one pixel for a second operand of another size)
            x0 = int(rng.integers(0, w))
            x1 = int(rng.integers(x0 + 1, w + 1))
            y0 = int(rng.integers(0, h))
            y1 = int(rng.integers(y0 + 1, h + 1))
            if (x1 - x0) * (y1 - y0) < 2:
                continue
            ids = [int(v) for v in rng.integers(0, n + 2, int(rng.integers(1, 9)))]
            cases.append((labels, ids, (x0, y0, x1, y1)))
        cases.append((labels, [1], (0, 0, w, h)))
    mine = [pipeline._label_mask(*c) for c in cases]
    monkeypatch.setattr(pipeline, "_KERNELS", None)
    theirs = [pipeline._label_mask(*c) for c in cases]
    inked = 0
    for a, b in zip(mine, theirs, strict=True):
        assert a.dtype == b.dtype == np.uint8 and np.array_equal(a, b)
        inked += int(a.any())
    assert inked > 500


def test_row_ends_are_the_sources(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each component's first and last pixel of each row (``fan.component_pixels`` with
    its statistics, through the kernel row_ends): the sources' points, float32 and in the
    same order, for every component and for random choices of them (none, one, all) of the
    labels of random masks, of suit-shaped ones and of a whole covered-corner search's
    region of real touching cards; moved by an offset or not."""
    _kernels()
    rng = np.random.default_rng(47)
    masks = _ink_masks(rng, 160) + _suit_like(rng, 160)
    frame = cv2.imread(str(realdata.photos("phone-scenes")[0].path), cv2.IMREAD_GRAYSCALE)
    assert frame is not None
    masks.append((frame[:400, :600] < 90).astype(np.uint8))  # (a photo's dark ink: a region)
    cases = []
    for m in masks:
        n, labels, stats = pipeline._components((m > 0).astype(np.uint8))
        every = np.arange(1, n)
        for ids in (every, every[rng.random(len(every)) < 0.5], every[:1], every[-1:]):
            at = (int(rng.integers(-3, 700)), int(rng.integers(-3, 500)))
            cases.append((labels, ids, at, stats[ids]))
    assert fan._KERNELS is not None and all(  # (as the kernel takes them)
        lab.dtype == np.uint16 and lab.flags.c_contiguous for lab, *_ in cases)
    mine = [fan.component_pixels(lab, ids, at, row_ends=True, stats=st)
            for lab, ids, at, st in cases]
    monkeypatch.setattr(fan, "_KERNELS", None)
    theirs = [fan.component_pixels(lab, ids, at, row_ends=True, stats=st)
              for lab, ids, at, st in cases]
    points = 0
    for a, b in zip(mine, theirs, strict=True):
        assert len(a) == len(b)
        for p, q in zip(a, b, strict=True):
            assert p.dtype == q.dtype == np.float32 and np.array_equal(p, q)
            points += len(p)
    assert points > 100_000


def test_suit_tops_are_the_sources(monkeypatch: pytest.MonkeyPatch) -> None:
    """``top_width`` through the kernel (ink_span): the sources' widths, for suit-shaped and
    random masks at every height asked, rows without ink and masks one row tall too."""
    k = _kernels()
    rng = np.random.default_rng(19)
    masks = _suit_like(rng, 600) + [m for m in _ink_masks(rng, 300) if m.shape[0] >= 1]
    masks += [np.zeros((5, 4), np.uint8), np.full((3, 2), 255, np.uint8)]
    spans = {0}
    ats = (0.0, 0.1, 0.12, 0.3, 0.5, 0.99)
    mine = [[glyphs.top_width(m, at) for at in ats] for m in masks]
    for m in masks:
        spans.add(k.ink_span(m, m.shape[0], m.shape[1], m.shape[0] // 2))
    monkeypatch.setattr(glyphs, "_KERNELS", None)
    theirs = [[glyphs.top_width(m, at) for at in ats] for m in masks]
    assert mine == theirs
    assert len(spans) > 30 and sum(w == 0.0 for row in mine for w in row) > 50


def test_class_scores_are_numpys(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each class's best similarity less the aspect penalty (``Exemplars.class_scores``)
    through the kernel (class_best): numpy's float32 steps to the bit, for the glyph model's
    ranks and suits and for small exemplar sets whose classes hold one to a few exemplars
    (some classes none: their columns stay -1), queries one to forty; a NaN where a
    class's scores hold one."""
    _kernels()
    rng = np.random.default_rng(23)
    model = glyphs.GlyphModel.load()
    sets = [model.ranks, model.suits]
    for _ in range(20):
        n = int(rng.integers(1, 40))
        feats = rng.normal(size=(n, glyphs.FEATURE_DIM)).astype(np.float32)
        feats /= np.linalg.norm(feats, axis=1, keepdims=True)
        labels = rng.choice(rng.permutation(15)[: int(rng.integers(1, 15))], n)
        sets.append(glyphs.Exemplars(feats, labels.astype(np.int16),
                                     rng.normal(size=n).astype(np.float32)))
    masks = _suit_like(rng, 60)
    real = glyphs.glyph_features(masks)
    real_aspects = np.array([math.log(m.shape[1] / m.shape[0]) for m in masks], np.float32)
    cases = []
    for ex in sets:
        for q in (1, 2, 3, 24, 40):
            feats = rng.normal(size=(q, glyphs.FEATURE_DIM)).astype(np.float32)
            cases.append((ex, feats, rng.normal(scale=0.5, size=q).astype(np.float32)))
        cases.append((ex, real, real_aspects))
    nan_aspects = real_aspects.copy()
    nan_aspects[3] = np.nan
    few = glyphs.Exemplars(real[:6].copy(), np.array([0, 0, 1, 2, 2, 2], np.int16),
                           real_aspects[:6].copy())  # (under four exemplars a class)
    cases += [(few, real, nan_aspects), (model.ranks, real, nan_aspects)]
    mine = [ex.class_scores(f, a, 15, 0.3) for ex, f, a in cases]
    monkeypatch.setattr(glyphs, "_KERNELS", None)
    theirs = [ex.class_scores(f, a, 15, 0.3) for ex, f, a in cases]
    unscored = 0
    for a, b in zip(mine, theirs, strict=True):
        assert np.array_equal(_bits(a), _bits(b))
        unscored += int((a == -1).sum())
    assert unscored > 100
    assert np.isnan(mine[-2][3, :3]).all() and np.isnan(mine[-1][3]).all()


def test_side_steps_are_the_sources(monkeypatch: pytest.MonkeyPatch) -> None:
    """The least step down from the cards' paper to what lies beside them
    (``detect._least_step``, asked where left-over paper may be the table's lighter part)
    through the kernel (side_steps): the sources' number to the bit -- for the card quads of
    drawn frames on their own smoothed picture, and for random quads on random pictures of
    every size: card-like, a pixel or two across, all in one place, far outside the picture
    (past what an int32 holds), on half pixels (where rounding ties go to even), nearly
    flat, the middle of the first side on the mean corner (whole pixels: a normal neither
    in nor out); reaches of one to seven pixels."""
    from vision.synth import SynthConfig, random_frame

    _kernels()
    rng = np.random.default_rng(31)
    cases: list[tuple[np.ndarray, list[np.ndarray], float]] = []
    for seed in (1000, 1004, 1020):
        grey = cv2.cvtColor(random_frame(seed, 12, 0, SynthConfig()).image, cv2.COLOR_BGR2GRAY)
        blur = cv2.GaussianBlur(cv2.resize(grey, (800, 450), interpolation=cv2.INTER_AREA),
                                (5, 5), 0)
        quads = detect.detect_quads(cv2.cvtColor(blur, cv2.COLOR_GRAY2BGR),
                                    pipeline.RecognizerConfig())
        assert len(quads) >= 3
        cases.append((blur, quads, 3.0))
    for i in range(3000):
        h, w = (int(v) for v in rng.integers(1, 300, 2))
        n = int(rng.integers(1, 14))
        kind = i % 7
        if kind == 0:  # card-like, some partly outside
            c = rng.uniform(-20, max(w, h) + 20, (n, 1, 2))
            q = c + rng.normal(0, 40, (n, 4, 2))
        elif kind == 1:  # a pixel or two across
            q = rng.uniform(0, 4, (n, 1, 2)) + rng.uniform(0, 2, (n, 4, 2))
        elif kind == 2:  # every corner in one place: sides of no length
            q = np.repeat(rng.uniform(0, max(w, h), (n, 1, 2)), 4, axis=1)
        elif kind == 3:  # far outside the picture, past int32
            q = rng.uniform(-3e9, 3e9, (n, 4, 2))
        elif kind == 4:  # on half pixels
            q = rng.integers(-5, 2 * max(w, h) + 5, (n, 4, 2)) / 2
        elif kind == 5:  # nearly flat
            a, d = rng.uniform(0, max(w, h), (n, 1, 2)), rng.normal(0, 1, (n, 1, 2))
            q = a + d * rng.uniform(0, 50, (n, 4, 1)) + rng.normal(0, 1e-3, (n, 4, 2))
        else:  # corners a, b, c, a + b - c (whole pixels): the mean on a to b's middle
            a, b, c = (rng.integers(0, max(w, h), (n, 1, 2)) for _ in range(3))
            q = np.concatenate([a, b, c, a + b - c], axis=1)
        img = rng.integers(0, 256, (h, w), dtype=np.uint8)
        cases.append((img, list(q.astype(np.float32)), float(rng.choice([1.0, 2.5, 3.0, 7.3]))))
    mine = [detect._least_step(img, quads, reach) for img, quads, reach in cases]
    monkeypatch.setattr(detect, "_KERNELS", None)
    with np.errstate(invalid="ignore"):  # (numpy's cast of a value past int32)
        theirs = [detect._least_step(img, quads, reach) for img, quads, reach in cases]
    assert mine == theirs
    assert len(set(mine)) > 100 and min(mine[:3]) > 20  # (the cards: paper above the table)


def test_snapped_sides_are_the_sources(monkeypatch: pytest.MonkeyPatch) -> None:
    """A quad's sides moved onto the edges near them (``neighbours.snap_sides``: a card
    found by an outline of edges or a closed mask, a card guessed beside another) through
    the kernel (snap_sides): the sources' float32 corners to the bit -- for the cards of
    drawn frames, each quad shifted and turned a little off its card, on their smoothed
    picture; and for random quads on random pictures of paper on a table and of noise:
    card-like, crossed, crossed with the centre on a side's line (which way is out, the
    dot product's exact sign says), on half pixels, far outside, a pixel or two across
    (corners in one place, lines that never meet); reaches of none to eleven pixels,
    contrasts of none to 30 levels."""
    from vision import neighbours
    from vision.synth import SynthConfig, random_frame

    _kernels()
    rng = np.random.default_rng(37)
    cases: list[tuple[np.ndarray, np.ndarray, int, float]] = []
    for seed in (1000, 1004, 1020):
        grey = cv2.cvtColor(random_frame(seed, 12, 0, SynthConfig()).image, cv2.COLOR_BGR2GRAY)
        blur = cv2.GaussianBlur(cv2.resize(grey, (800, 450), interpolation=cv2.INTER_AREA),
                                (5, 5), 0)
        for q in detect.detect_quads(cv2.cvtColor(blur, cv2.COLOR_GRAY2BGR),
                                     pipeline.RecognizerConfig()):
            for _ in range(4):
                turn = rng.normal(0, 0.03)
                rot = np.array([[math.cos(turn), -math.sin(turn)],
                                [math.sin(turn), math.cos(turn)]])
                c = q.mean(axis=0)
                moved = (q - c) @ rot.T + c + rng.normal(0, 3, 2)
                cases.append((blur, moved.astype(np.float32), int(rng.integers(2, 8)), 4.0))
    assert len(cases) >= 100
    for i in range(6000):
        h, w = (int(v) for v in rng.integers(8, 300, 2))
        img = rng.integers(0, 60, (h, w)).astype(np.uint8)
        for _ in range(int(rng.integers(0, 4))):
            x0, y0 = int(rng.integers(0, w)), int(rng.integers(0, h))
            img[y0:y0 + int(rng.integers(5, 150)), x0:x0 + int(rng.integers(5, 150))] = (
                rng.integers(120, 256))
        if i % 7 == 0:
            img = rng.integers(0, 256, (h, w)).astype(np.uint8)
        c = rng.uniform(0, max(w, h), 2)
        kind = i % 7
        if kind == 0:  # card-like
            turn = rng.uniform(0, 2 * math.pi)
            rot = np.array([[math.cos(turn), -math.sin(turn)], [math.sin(turn), math.cos(turn)]])
            corners = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * rng.uniform(5, 150, 2) / 2
            q = c + corners @ rot.T + rng.normal(0, 2, (4, 2))
        elif kind == 1:  # any four points, crossed ones too
            q = c + rng.normal(0, 30, (4, 2))
        elif kind == 2:  # on half pixels
            q = c + rng.integers(-40, 40, (4, 2)) / 2
        elif kind == 3:  # far outside
            q = rng.uniform(-1e5, 1e5, (4, 2))
        elif kind == 4:  # a pixel or two across
            q = c + rng.normal(0, 1, (4, 2)) * rng.uniform(0, 3)
        elif kind == 5:  # every corner in one place
            q = np.repeat(c[None], 4, axis=0)
        else:  # crossed, the last two corners either side of a point on the first side
            a, b, e = c + rng.normal(0, 20, 2), c + rng.normal(0, 20, 2), rng.normal(0, 5, 2)
            m = a + (b - a) * rng.uniform(-2, 3)
            q = np.stack([a, b, m + e, m - e])
        cases.append((img, q.astype(np.float32), int(rng.integers(0, 12)),
                      float(rng.choice([0.0, 2.5, 4.0, 8.0, 30.0]))))
    mine = [neighbours.snap_sides(img, q, reach, contrast) for img, q, reach, contrast in cases]
    monkeypatch.setattr(neighbours, "_KERNELS", None)
    with np.errstate(all="ignore"):  # (numpy's casts of values past int32, lines apart)
        theirs = [neighbours.snap_sides(img, q, reach, contrast)
                  for img, q, reach, contrast in cases]
    moved = kept = 0
    for a, b, (_, q, _, _) in zip(mine, theirs, cases, strict=True):
        assert a.dtype == b.dtype == np.float32 and np.array_equal(_bits(a), _bits(b))
        moved += int(not np.array_equal(a, q))
        kept += int(a is q and b is q)  # (lines that never meet: the quad as it was)
    assert moved > 3000 and kept >= 800


def test_outline_counts_are_opencvs(monkeypatch: pytest.MonkeyPatch) -> None:
    """How much of a quad's outline runs along a region's contour (``_outline_covered``,
    asked of every outline that may be a card) through the kernel (outline_off): the same
    answer as point by point with OpenCV's pointPolygonTest, for card outlines traced as
    pixels (every pixel, or their corners only; bitten and grown by discs), quads on them
    and off them by a third of a pixel to six, float32 and float64, tolerances of half a
    pixel to four and shares of a half to all; and with no side passed over (a tolerance of
    infinity) OpenCV's distances to the bit, for places on and off the contour, on whole
    pixels and between them, inside it and outside."""
    k = _kernels()
    rng = np.random.default_rng(47)
    answers: list[tuple[bool, bool]] = []
    for i in range(1500):
        img = np.zeros((300, 300), np.uint8)
        turn = rng.uniform(0, math.pi)
        rot = np.array([[math.cos(turn), -math.sin(turn)], [math.sin(turn), math.cos(turn)]])
        corners = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * rng.uniform(10, 120, 2) / 2
        q = (rng.uniform(50, 250, 2) + corners @ rot.T).astype(np.float32)
        cv2.fillPoly(img, [np.round(q).astype(np.int32)], 255)
        if i % 3 == 0:
            for _ in range(5):
                centre = tuple(int(v) for v in rng.uniform(0, 300, 2))
                cv2.circle(img, centre, int(rng.integers(2, 30)), int(rng.choice([0, 255])), -1)
        found, _ = cv2.findContours(img, cv2.RETR_EXTERNAL,
                                    cv2.CHAIN_APPROX_NONE if i % 2 else cv2.CHAIN_APPROX_SIMPLE)
        contour = max(found, key=len)
        quad = (q + rng.normal(0, (0.3, 2.0, 6.0)[i % 3], (4, 2))).astype(
            np.float32 if i % 4 else np.float64)
        tol, share = float(rng.choice([0.5, 1.5, 2.0, 3.7])), float(rng.choice([0.5, 0.85, 1.0]))
        mine = detect._outline_covered(contour, quad, tol, share)
        with monkeypatch.context() as m:
            m.setattr(detect, "_KERNELS", None)
            answers.append((mine, detect._outline_covered(contour, quad, tol, share)))
        places = rng.uniform(-20, 320, (16, 2))
        places = np.concatenate([places, np.round(places), contour.reshape(-1, 2)[:8]])
        places = np.ascontiguousarray(places, np.float64)
        dists = np.empty(len(places))
        k.outline_off(np.ascontiguousarray(contour), len(contour), places, len(places),
                      math.inf, 0.0, dists)
        want = [abs(cv2.pointPolygonTest(contour, (x, y), True)) for x, y in places.tolist()]
        assert dists.tolist() == want
    assert all(a == b for a, b in answers)
    assert 300 < sum(a for a, _ in answers) < len(answers) - 300


def _odd_quads(rng: np.random.Generator, count: int) -> list[np.ndarray]:
    """Quads of every kind a kernel on four corners must take, float32 and float64 in
    turn: card-like, on whole pixels a few apart, a pixel or two apart (equal angles, equal
    sums), all four in one place, a ten-thousandth of a pixel apart, as far as float32
    reaches."""
    quads = []
    for i in range(count):
        c = rng.uniform(-100, 1000, 2)
        kind = i % 6
        if kind == 0:
            q = c + rng.normal(0, 60, (4, 2))
        elif kind == 1:
            q = np.round(c + rng.normal(0, 3, (4, 2)))
        elif kind == 2:
            q = np.round(c) + rng.integers(-2, 3, (4, 2))
        elif kind == 3:
            q = np.repeat(c[None], 4, axis=0)
        elif kind == 4:
            q = c + rng.normal(0, 1e-4, (4, 2))
        else:
            q = rng.uniform(-3e38, 3e38, (4, 2))
        quads.append(q.astype(np.float64 if i % 2 else np.float32))
    return quads


def test_corner_orders_are_the_sources(monkeypatch: pytest.MonkeyPatch) -> None:
    """Four corners clockwise from the top-left (``detect.order_clockwise``, some sixty
    times a frame) through the kernel (order_corners): the sources' float32 array to the
    bit -- for quads of every kind (``_odd_quads``: equal angles and equal sums among them),
    and for corners not finite, which the kernel leaves to the sources."""
    k = _kernels()
    quads = _odd_quads(np.random.default_rng(53), 30000)
    bad = [np.array([[0, 0], [np.nan, 1], [1, 1], [1, 0]], np.float32),
           np.array([[0, 0], [np.inf, 1], [1, 1], [1, 0]], np.float32)]
    mine = [detect.order_clockwise(q) for q in quads + bad]
    monkeypatch.setattr(detect, "_KERNELS", None)
    theirs = [detect.order_clockwise(q) for q in quads + bad]
    for a, b in zip(mine, theirs, strict=True):
        assert a.dtype == b.dtype == np.float32 and np.array_equal(_bits(a), _bits(b))
    out = np.full((4, 2), 7.0, np.float32)
    assert k.order_corners(bad[0], out) is False and (out == 7.0).all()


def test_quad_areas_and_sides_are_the_sources(monkeypatch: pytest.MonkeyPatch) -> None:
    """A quad's signed area and its sides' lengths (``detect.quad_area``, ``quad_sides``,
    hundreds of times a frame) through the kernels (quad_area, quad_sides): the sources'
    doubles to the bit, for float32 and float64 quads of every kind (``_odd_quads``: as far
    as float32 reaches, sides past it infinite), NaN and infinite corners; quads of other
    kinds (whole numbers, a view that skips corners) the sources measure as before."""
    k = _kernels()
    quads = _odd_quads(np.random.default_rng(59), 20000)
    for i in range(3, len(quads), 500):
        quads[i][1, 0] = np.nan
        quads[i + 2][2, 1] = -np.inf
    quads += [np.array([[0, 0], [5, 0], [5, 7], [0, 7]], np.int32),
              np.arange(16, dtype=np.float32).reshape(8, 2)[::2]]
    with np.errstate(all="ignore"):
        mine = [(detect.quad_area(q), detect.quad_sides(q)) for q in quads]
        monkeypatch.setattr(detect, "_KERNELS", None)
        theirs = [(detect.quad_area(q), detect.quad_sides(q)) for q in quads]
    for (a1, s1), (a2, s2) in zip(mine, theirs, strict=True):
        assert a1 == a2 or (math.isnan(a1) and math.isnan(a2))
        assert s1.dtype == s2.dtype == np.float64
        assert np.array_equal(s1.view(np.uint64), s2.view(np.uint64))
    assert mine[-2][0] == 35.0 and mine[-1][1].tolist() == theirs[-1][1].tolist()
    out = np.full(4, 7.0)
    with pytest.raises(ValueError, match="quad_sides"):  # float64 said, float32 given
        k.quad_sides(quads[0], True, out)
    with pytest.raises(ValueError, match="quad_area"):  # three corners
        k.quad_area(quads[0][:3].copy(), False)
    with pytest.raises(ValueError, match="quad_sides"):  # three lengths asked
        k.quad_sides(quads[0], False, out[:3].copy())
    assert (out == 7.0).all()


def test_band_steps_are_the_sources(monkeypatch: pytest.MonkeyPatch) -> None:
    """The steepest rise of each band's mean profile (``fan.band_steps``, a covered card's
    edges looked for beside its index) through the kernel (band_steps): the sources' place
    and float32 rise to the bit -- on the bands a fan's poses are snapped by, and on
    random and flat patches of every size, bands of one row or column to all of them,
    rows and columns, windows reaching past either end of the profile or holding
    nothing (ties between equal rises go to the first)."""
    import sourcecalls

    from vision import fan

    _kernels()
    rng = np.random.default_rng(41)
    # (patch, spans, across, lo, hi)
    cases: list[tuple] = sourcecalls.calls("vision.fan", "band_steps", "fan5-seed2")[:120]
    assert len(cases) >= 40 and {across for _, _, across, _, _ in cases} == {0, 1}
    for i in range(3000):
        h, w = (int(v) for v in rng.integers(1, 160, 2))
        patch = (rng.integers(0, 256, (h, w)) if i % 5 else
                 rng.integers(0, 3, (h, w)) * 127).astype(np.uint8)  # few levels: ties
        across = i % 2
        width = w if across else h
        spans = []
        for _ in range(int(rng.integers(1, 4))):
            a = int(rng.integers(0, width))
            spans.append((a, int(rng.integers(a + 1, width + 1))))
        if i % 11 == 0:
            spans.append((0, width))
        lo, hi = (int(v) for v in rng.integers(-10, (h if across else w) + 10, 2))
        cases.append((patch, tuple(spans), across, lo, hi))
    mine = [fan.band_steps(*case) for case in cases]
    monkeypatch.setattr(fan, "_KERNELS", None)
    theirs = [fan.band_steps(*case) for case in cases]
    assert mine == theirs
    assert all(type(k) is int and type(c) is float for steps in mine for k, c in steps)
    assert sum(1 for steps in mine for k, _ in steps if k == 0) > 100  # windows of nothing
    assert len({c for steps in mine for _, c in steps}) > 1000


def test_paper_medians_are_numpys(monkeypatch: pytest.MonkeyPatch) -> None:
    """The median colour of a corner patch's paper (``fan._paper_median``, the colour a
    covering card's edge is painted over with) through the kernel (paper_median): numpy's
    75th percentile of the grey levels and its channel medians of the pixels at least that
    light, to the bit -- on the corner patches read in crowded frames, on pieces of the
    photos and random pictures of every size (an odd and an even count of paper pixels,
    a percentile falling on a level and between two), few levels (ties), and grey levels
    of their own beside the colours."""
    import sourcecalls

    from vision import fan

    _kernels()
    rng = np.random.default_rng(47)
    patches = [patch for patch, _ in
               sourcecalls.calls("vision.fan", "_paper_median", "row6-seed1")]
    assert len(patches) >= 5
    cases = [(p, cv2.cvtColor(p, cv2.COLOR_BGR2GRAY)) for p in patches]
    for i, pic in enumerate(_pictures(1500, seed=47)):
        if i % 4 == 1:
            pic = (pic // 85 * 85).astype(np.uint8)  # four levels: many ties
        grey = (cv2.cvtColor(pic, cv2.COLOR_BGR2GRAY) if i % 3 else
                rng.integers(0, 256, pic.shape[:2]).astype(np.uint8))
        cases.append((pic, grey))
    mine = [fan._paper_median(p, g) for p, g in cases]
    monkeypatch.setattr(fan, "_KERNELS", None)
    theirs = [fan._paper_median(p, g) for p, g in cases]
    assert mine == theirs
    assert all(type(c) is float for colour in mine for c in colour)
    # (halves: an even count of paper pixels whose two middle levels differ)
    assert sum(1 for colour in mine if any(c % 1 for c in colour)) > 100
    assert len({c for colour in mine for c in colour}) > 300


def test_papery_counts_are_numpys(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whether an outline corner's patch shows a card's paper round its index
    (``pipeline._papery``) through the kernel (unsaturated): the counts of pixels less
    saturated than paper -- in all, in the top rows and in the left columns -- are numpy's
    to the pixel, and so the answers, on the patches read in a frame of touching cards, on
    pieces of the photos and random pictures of every size (fewer rows and columns than
    the bands), and on colours either side of the saturation limit and on it."""
    import sourcecalls

    k = _kernels()
    rng = np.random.default_rng(53)
    cfg = pipeline.RecognizerConfig()
    patches = [patch for patch, _ in sourcecalls.calls("vision.pipeline", "_papery",
                                                       "touch12-seed0")]
    assert len(patches) >= 5
    cases = list(patches) + _pictures(1200, seed=53)
    for _ in range(300):
        # colours near the limit: max - min about saturation x max / 255, and on it (a max
        # of 51, 102, ... 255: whole there)
        h, w = int(rng.integers(1, 60)), int(rng.integers(1, 60))
        hi = np.where(rng.random((h, w)) < 0.5, rng.integers(0, 256, (h, w)),
                      51 * rng.integers(1, 6, (h, w)))
        spread = np.clip(np.round(hi * cfg.max_card_saturation / 255
                                  + rng.integers(-1, 2, (h, w))), 0, hi).astype(np.int64)
        pic = np.stack([hi, hi - spread, hi - rng.integers(0, spread + 1)], axis=2)
        cases.append(rng.permuted(pic, axis=2).astype(np.uint8))
    tops = lefts = 0
    for pic in cases:
        h, w = pic.shape[:2]
        top, left = max(2, h // 10), max(2, w // 8)
        hi = pic.max(axis=2).astype(np.int32)
        lo = pic.min(axis=2).astype(np.int32)
        grey = (hi - lo) * 255 < cfg.max_card_saturation * np.maximum(hi, 1)
        want = (int(np.count_nonzero(grey)), int(np.count_nonzero(grey[:top])),
                int(np.count_nonzero(grey[:, :left])))
        got = k.unsaturated(np.ascontiguousarray(pic), h, w, float(cfg.max_card_saturation),
                            top, left)
        assert got == want, (pic.shape, got, want)
        tops += 0 < want[1] < min(h, top) * w
        lefts += 0 < want[2] < min(w, left) * h
    assert tops > 100 and lefts > 100  # bands neither all paper nor none
    mine = [pipeline._papery(p, cfg) for p in cases]
    monkeypatch.setattr(pipeline, "_KERNELS", None)
    theirs = [pipeline._papery(p, cfg) for p in cases]
    assert mine == theirs
    assert 100 < sum(mine) < len(mine) - 100


def test_shares_under_are_opencvs(monkeypatch: pytest.MonkeyPatch) -> None:
    """The share of a corner's card lying on its region or on the cards found
    (``pipeline._share_under``) through the kernel (inside_count): OpenCV's
    pointPolygonTest counts to the bit -- on the bright regions and card quads of crowded
    frames, and on random polygons of three to three hundred corners (whole-pixel ones
    too, with points on their corners and sides: on one counts as inside), no cards,
    flat and crossed quads."""
    import frames

    _kernels()
    rng = np.random.default_rng(43)
    rec = pipeline.Recognizer()
    crops = frames.card_crops(rec, realdata.photos("webcam-grey"))
    cases: list[tuple[np.ndarray, np.ndarray, list[np.ndarray]]] = []
    for seed in range(3):
        image = frames.touching_frame(crops, 12, size=(1280, 720), seed=seed)[0]
        grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        _, mask = cv2.threshold(grey, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
        outlines, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        quads = [np.asarray(q, np.float32) for q in
                 detect.detect_quads(image, pipeline.RecognizerConfig())]
        assert len(quads) >= 3
        for blob in sorted(outlines, key=len)[-3:]:
            for q in quads:
                moved = q + rng.normal(0, 30, (1, 2)).astype(np.float32)
                cases.append((moved, blob.reshape(-1, 2).astype(np.float32), quads))
    for i in range(2000):
        n = int(rng.integers(3, 300))
        centre = rng.uniform(0, 400, 2)
        angles = np.sort(rng.uniform(0, 2 * np.pi, n))
        radii = rng.uniform(20, 200, n)
        blob = centre + np.stack([np.cos(angles), np.sin(angles)], axis=1) * radii[:, None]
        q = centre + rng.normal(0, 80, (4, 2))
        if i % 3 == 0:  # whole pixels: corners and points meet on sides and corners
            blob, q = np.round(blob / 10) * 10, np.round(q / 10) * 10
        if i % 5 == 0:  # a spread point for a corner of the region
            u, v = pipeline._UNDER_U[i % 35], pipeline._UNDER_V[i % 35]
            blob[0] = (q[0] + u * (q[1] - q[0]) + v * (q[3] - q[0])
                       + u * v * (q[2] - q[1] - q[3] + q[0]))
        cards = [centre + rng.normal(0, 100, (4, 2)) for _ in range(int(rng.integers(0, 4)))]
        if i % 7 == 0:
            q[2] = q[1]  # flat
        cases.append((q, blob.astype(np.float32), [c.astype(np.float32) for c in cards]))
    mine = [pipeline._share_under(q, blob, quads) for q, blob, quads in cases]
    monkeypatch.setattr(pipeline, "_KERNELS", None)
    theirs = [pipeline._share_under(q, blob, quads) for q, blob, quads in cases]
    assert mine == theirs
    shares = set(mine)
    assert len(shares) > 30 and 0.0 in shares and 1.0 in shares


def test_a_wrong_size_is_an_error_not_a_read_past_the_end() -> None:
    """A kernel given arrays of other sizes than it is told says so (ValueError) and
    touches nothing."""
    k = _kernels()
    grey = np.zeros((10, 10), np.uint8)
    with pytest.raises(ValueError, match="level"):
        k.level(grey, 11, 10, 3)
    with pytest.raises(ValueError, match="paper"):
        k.paper(np.zeros((10, 10, 3), np.uint8), grey, 10, 9, 100)
    with pytest.raises(ValueError, match="unsaturated"):
        k.unsaturated(np.zeros((10, 10, 3), np.uint8), 10, 9, 70.0, 2, 2)
    bins, shares = glyphs._bin_table()
    out = np.full(2 * 16 * 9, 7.0)
    with pytest.raises(ValueError, match="hog_hist"):
        k.hog_hist(np.zeros((3, 32, 32), np.float32), bins, shares, out)
    assert (out == 7.0).all()
    with pytest.raises(ValueError, match="hog_hist"):
        k.hog_hist(np.zeros((2, 32, 32), np.float32), bins[:-1], shares, out)
    labels = np.zeros((4, 5), np.uint16)
    stats = np.full((1, 5), 7, np.int32)
    with pytest.raises(ValueError, match="cc_stats"):
        k.cc_stats(labels, 5, 5, stats)
    with pytest.raises(ValueError, match="cc_stats"):
        k.cc_stats(labels, 4, 5, np.zeros(7, np.int32))
    assert (stats == 7).all()
    with pytest.raises(ValueError, match="open_lines"):
        k.open_lines(grey, 10, 10, 5, True, 3, 11, grey.copy())
    with pytest.raises(ValueError, match="open_lines"):
        k.open_lines(grey, 10, 10, 0, False, 0, 10, grey.copy())
    with pytest.raises(ValueError, match="open_lines"):
        k.open_lines(grey, 10, 10, 5, False, 0, 10, np.zeros((9, 10), np.uint8))
    mask = np.ones((4, 5), np.uint8)
    mask[:, 2] = 0  # two components and the background: three rows of statistics
    with pytest.raises(ValueError, match="cc_label"):
        k.cc_label(mask, 5, 5, labels, np.zeros((3, 5), np.int32))
    with pytest.raises(ValueError, match="cc_label"):
        k.cc_label(mask, 4, 5, np.zeros((4, 4), np.uint16), np.zeros((3, 5), np.int32))
    with pytest.raises(ValueError, match="cc_label"):
        k.cc_label(mask, 4, 5, labels, np.zeros((3, 4), np.int32))
    with pytest.raises(ValueError, match="cc_label"):  # no room for the second component
        k.cc_label(mask, 4, 5, labels, stats[:1].copy())
    boxes = np.array([[0, 0, 2, 4, 1], [3, 0, 2, 4, 2]], np.int32)
    points = np.full((16, 2), 7.0, np.float32)  # (the most two boxes 4 rows tall give)
    cuts = np.zeros(3, np.int64)
    with pytest.raises(ValueError, match="row_ends"):
        k.row_ends(labels, 4, 5, boxes, 2, 0, 0, points[:7], cuts)  # (room for 7)
    with pytest.raises(ValueError, match="row_ends"):  # a box beyond the labels
        k.row_ends(labels, 4, 5, boxes + np.array([1, 0, 0, 0, 0], np.int32), 2, 0, 0,
                   points, cuts)
    with pytest.raises(ValueError, match="row_ends"):
        k.row_ends(labels, 4, 5, boxes, 2, 0, 0, points, cuts[:2])
    assert (points == 7.0).all() and (cuts == 0).all()
    assert (labels == 0).all() and (stats == 7).all()
    assert k.cc_label(mask, 4, 5, labels, np.zeros((3, 5), np.int32)) == 3
    labels[:] = 0
    labels[2, 3] = 1  # a label the statistics have no row for
    with pytest.raises(ValueError, match="cc_stats"):
        k.cc_stats(labels, 4, 5, stats)
    quads = np.zeros((2, 4, 2))
    lengths = np.zeros((2, 4))
    lines = np.full((2, 4, 4), 7.0)
    counts = np.array([16, 16], np.int64)
    with pytest.raises(ValueError, match="fit_sides"):  # 32 points said, 31 given
        k.fit_sides(np.zeros((31, 2)), counts, quads, quads, lengths, 2, 3, 1.345, lines)
    with pytest.raises(ValueError, match="fit_sides"):
        k.fit_sides(np.zeros((32, 2)), counts, quads, quads, lengths, 3, 3, 1.345, lines)
    with pytest.raises(ValueError, match="fit_sides"):
        k.fit_sides(np.zeros((32, 2)), counts, quads, quads, lengths, 2, 3, 1.345,
                    lines[:1].copy())
    with pytest.raises(ValueError, match="fit_sides"):
        k.fit_sides(np.zeros((32, 2)), np.array([33, -1], np.int64), quads, quads, lengths,
                    2, 3, 1.345, lines)
    assert (lines == 7.0).all()
    with pytest.raises(ValueError, match="notches"):
        k.notches(grey, 11, 10)
    with pytest.raises(ValueError, match="notches"):
        k.notches(np.zeros((0, 4), np.uint8), 0, 4)
    cut = np.full((2, 3), 7, np.uint8)
    labels16 = np.zeros((4, 5), np.uint16)
    with pytest.raises(ValueError, match="label_mask"):  # a box past the labels
        k.label_mask(labels16, 4, 5, 3, 0, 6, 2, [1], cut)
    with pytest.raises(ValueError, match="label_mask"):
        k.label_mask(labels16, 4, 5, 0, 0, 3, 3, [1], cut)
    with pytest.raises(ValueError, match="label_mask"):
        k.label_mask(labels16, 4, 5, 0, 0, 3, 2, [], cut)
    with pytest.raises(ValueError, match="label_mask"):
        k.label_mask(labels16, 4, 5, 0, 0, 3, 2, list(range(9)), cut)
    assert (cut == 7).all()
    light = np.full((4, 4), 7, np.uint8)
    with pytest.raises(ValueError, match="paper_light"):
        k.paper_light(np.zeros((16, 16), np.uint8), 16, 16, light[:3].copy())
    with pytest.raises(ValueError, match="paper_light"):
        k.paper_light(np.zeros((15, 16), np.uint8), 15, 16, light)
    with pytest.raises(ValueError, match="paper_light"):
        k.paper_light(np.zeros((16, 16), np.uint8), 16, 17, light)
    assert (light == 7).all()
    padded = np.full((14, 14), 7.0, np.float32)
    with pytest.raises(ValueError, match="pad_levels"):
        k.pad_levels(grey, 10, 10, 3, padded)
    with pytest.raises(ValueError, match="pad_levels"):
        k.pad_levels(grey, 10, 11, 2, padded)
    assert (padded == 7.0).all()
    with pytest.raises(ValueError, match="ink_span"):
        k.ink_span(grey, 10, 10, 10)
    with pytest.raises(ValueError, match="ink_span"):
        k.ink_span(grey, 10, 9, 0)
    blocks = np.full((2, 324), 7.0, np.float32)
    with pytest.raises(ValueError, match="hog_blocks"):
        k.hog_blocks(np.zeros(3 * 16 * 9), 2, blocks)
    with pytest.raises(ValueError, match="hog_blocks"):
        k.hog_blocks(np.zeros(2 * 16 * 9), 2, blocks[:1].copy())
    assert (blocks == 7.0).all()
    feats = np.full((2, 388), 7.0, np.float32)
    with pytest.raises(ValueError, match="glyph_tail"):
        k.glyph_tail(np.zeros((2, 32, 32), np.float32), blocks[:1].copy(), 2, feats)
    with pytest.raises(ValueError, match="glyph_tail"):
        k.glyph_tail(np.zeros((2, 32, 31), np.float32), blocks, 2, feats)
    assert (feats == 7.0).all()
    scores = np.full((2, 4), 7.0, np.float32)
    sims = np.zeros((2, 6), np.float32)
    asked, aspects = np.zeros(2, np.float32), np.zeros(6, np.float32)
    starts, classes = np.array([0, 2], np.int64), np.array([1, 3], np.int64)
    with pytest.raises(ValueError, match="class_best"):  # 7 exemplars said, 6 scored
        k.class_best(sims, asked, np.zeros(7, np.float32), 0.3, starts, classes, scores)
    with pytest.raises(ValueError, match="class_best"):  # a class past the columns
        k.class_best(sims, asked, aspects, 0.3, starts, np.array([1, 4], np.int64), scores)
    with pytest.raises(ValueError, match="class_best"):  # not from the first exemplar
        k.class_best(sims, asked, aspects, 0.3, np.array([1, 2], np.int64), classes, scores)
    with pytest.raises(ValueError, match="class_best"):  # classes out of order
        k.class_best(sims, asked, aspects, 0.3, np.array([0, 7], np.int64), classes, scores)
    assert (scores == 7.0).all()
    k.class_best(sims, asked, aspects, 0.3, starts, classes, scores)
    assert (scores[:, [0, 2]] == 7.0).all() and (scores[:, [1, 3]] == 0.0).all()
    quads = np.zeros((2, 4, 2), np.float32)
    with pytest.raises(ValueError, match="side_steps"):  # 3 quads said, 2 given
        k.side_steps(grey, 10, 10, quads, 3, 3.0)
    with pytest.raises(ValueError, match="side_steps"):
        k.side_steps(grey, 10, 11, quads, 2, 3.0)
    with pytest.raises(ValueError, match="side_steps"):  # no quad
        k.side_steps(grey, 10, 10, quads[:0].copy(), 0, 3.0)
    corners = np.full((4, 2), 7.0, np.float32)
    halves = np.zeros((2, 6), np.float32)
    with pytest.raises(ValueError, match="snap_sides"):  # a quad of three corners
        k.snap_sides(grey, 10, 10, quads[0, :3].copy(), 3, 4.0, halves, 0.3, 0.7, corners)
    with pytest.raises(ValueError, match="snap_sides"):
        k.snap_sides(grey, 9, 10, quads[0].copy(), 3, 4.0, halves, 0.3, 0.7, corners)
    with pytest.raises(ValueError, match="snap_sides"):  # five places a half
        k.snap_sides(grey, 10, 10, quads[0].copy(), 3, 4.0, halves[:, :5].copy(), 0.3, 0.7,
                     corners)
    with pytest.raises(ValueError, match="snap_sides"):  # no reach below none
        k.snap_sides(grey, 10, 10, quads[0].copy(), -1, 4.0, halves, 0.3, 0.7, corners)
    assert (corners == 7.0).all()
    contour = np.zeros((5, 1, 2), np.int32)
    places, dists = np.zeros((4, 2)), np.full(4, 7.0)
    with pytest.raises(ValueError, match="outline_off"):  # 6 contour points said, 5 given
        k.outline_off(contour, 6, places, 4, 2.0, 0.9, dists)
    with pytest.raises(ValueError, match="outline_off"):  # a distance for each place
        k.outline_off(contour, 5, places, 4, 2.0, 0.9, dists[:3].copy())
    with pytest.raises(ValueError, match="outline_off"):  # places of float64
        k.outline_off(contour, 5, places.astype(np.float32), 4, 2.0, 0.9, dists)
    assert (dists == 7.0).all()
    with pytest.raises(ValueError, match="order_corners"):  # three corners
        k.order_corners(np.zeros((3, 2), np.float32), np.zeros((4, 2), np.float32))
    with pytest.raises(ValueError, match="order_corners"):  # float64
        k.order_corners(np.zeros((4, 2)), np.zeros((4, 2), np.float32))
    spans = np.array([[0, 10], [3, 11]], np.int32)
    with pytest.raises(ValueError, match="band_steps"):  # a band past the patch
        k.band_steps(grey, 10, 10, spans, 2, 0, 0, 10)
    with pytest.raises(ValueError, match="band_steps"):  # a band of none
        k.band_steps(grey, 10, 10, np.array([[4, 4]], np.int32), 1, 1, 0, 10)
    with pytest.raises(ValueError, match="band_steps"):  # three bands said, two given
        k.band_steps(grey, 10, 10, spans, 3, 0, 0, 10)
    with pytest.raises(ValueError, match="band_steps"):  # neither rows nor columns
        k.band_steps(grey, 10, 10, spans[:1].copy(), 1, 2, 0, 10)
    contour, sizes = np.zeros((5, 2), np.float32), np.array([3, 3], np.int32)
    with pytest.raises(ValueError, match="inside_count"):  # 6 contour points said, 5 given
        k.inside_count(np.zeros((2, 2)), 2, contour, sizes, 2)
    with pytest.raises(ValueError, match="inside_count"):  # float32 points
        k.inside_count(np.zeros((2, 2), np.float32), 2, contour, sizes[:1].copy(), 1)
    with pytest.raises(ValueError, match="inside_count"):  # a contour of fewer than none
        k.inside_count(np.zeros((2, 2)), 2, contour, np.array([6, -1], np.int32), 2)
    bgr = np.zeros((10, 10, 3), np.uint8)
    with pytest.raises(ValueError, match="paper_median"):  # grey of another size
        k.paper_median(bgr, grey[:9].copy(), 10, 10)
    with pytest.raises(ValueError, match="paper_median"):  # one channel given for three
        k.paper_median(grey, grey, 10, 10)
    with pytest.raises(ValueError, match="paper_median"):  # a patch of nothing
        k.paper_median(bgr[:0].copy(), grey[:0].copy(), 0, 10)
    with pytest.raises(TypeError):
        k.level(grey, 10, 10)  # type: ignore[call-arg]


def test_a_build_without_the_kernels_reads_without_them(tmp_path: Path) -> None:
    """Where a build lacks the kernels (removed by hand), the compiled modules do their work
    themselves: no error at start-up, and a card read as with them."""
    other = tmp_path / "native"
    shutil.copytree(native.build_dir(), other)
    for lib in (other / "vision").glob(f"{native.KERNELS}.*"):
        lib.unlink()
    photo = realdata.photos("webcam-grey")[0]
    code = ("import cv2, vision.native as n, vision.pipeline as p; from vision.identify import "
            "FrameReader; r = FrameReader().read(cv2.imread(" + repr(str(photo.path)) + ")); "
            "print(n.in_use(), p._KERNELS is None, sorted(c.card.code for c in r.cards "
            "if c.card is not None))")
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=120,
        env={"PATH": "/usr/bin:/bin", "OMP_NUM_THREADS": "1", "COMPANION_NATIVE_DIR": str(other)})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().split(None, 2) == ["compiled", "True", str(sorted(photo.cards))]
