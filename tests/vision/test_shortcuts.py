"""The recognizer's shortcuts for speed give, pixel for pixel and card for card, what the
plain computations they replace give."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
import realdata

from vision.detect import _outline_covered, detect, order_clockwise
from vision.pipeline import Recognizer, RecognizerConfig, _long_lines


def _blotches(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """A 0/1 mask of ink blotches, with a straight line or two and ink at the borders."""
    k = int(rng.integers(0, 4)) * 2 + 1
    noise = rng.integers(0, 255, (h, w), dtype=np.uint8)
    mask = (cv2.GaussianBlur(noise, (k, k), 0) < rng.integers(70, 160)).astype(np.uint8)
    if rng.random() < 0.5:
        mask[:, rng.integers(0, w)] = 1
    if rng.random() < 0.5:
        mask[rng.integers(0, h), : rng.integers(1, w + 1)] = 1
    return mask


def test_long_lines_are_the_openings_by_lines() -> None:
    rng = np.random.default_rng(7)
    for _ in range(1500):
        h, w = int(rng.integers(5, 180)), int(rng.integers(5, 130))
        mask = _blotches(rng, h, w)
        n = int(rng.integers(2, 90))
        _, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8,
                                                          ltype=cv2.CV_16U)
        if len(stats) < 2:
            continue
        want = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((n, 1), np.uint8)) | (
            cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((1, n), np.uint8)))
        assert np.array_equal(_long_lines(mask, stats, n), want), (h, w, n)


def test_outline_coverage_stops_only_where_the_count_is_decided() -> None:
    rng = np.random.default_rng(3)
    for _ in range(300):
        c = (rng.normal(0, 1, (60, 1, 2)).cumsum(axis=0) * 3 + 100).astype(np.int32)
        quad = order_clockwise(np.float32(cv2.boxPoints(cv2.minAreaRect(c))))
        tol = float(rng.uniform(1, 8))
        share = float(rng.uniform(0.3, 1.0))
        pts = [quad[i] + (quad[(i + 1) % 4] - quad[i]) * t
               for i in range(4) for t in np.linspace(0.1, 0.9, 8)]
        near = sum(abs(cv2.pointPolygonTest(c, (float(x), float(y)), True)) <= tol
                   for x, y in pts)
        assert _outline_covered(c, quad, tol, share) == (near / len(pts) >= share)


@pytest.fixture(scope="module")
def crops():
    import frames

    return frames.card_crops(Recognizer(), realdata.photos("phone-scenes"))


def test_skipping_the_cut_mask_inside_single_cards_finds_the_same_cards(crops) -> None:
    """Cards apart (the cut mask skipped altogether), touching ones, a QR card, a fan."""
    import frames

    images = [frames.table_frame(crops, 12, seed=s)[0] for s in range(8)]
    images.append(frames.table_frame(crops, 12, seed=1, qr=["budge:test"])[0])
    images.append(frames.fan_frame(crops, 5, seed=0)[0])
    on, off = RecognizerConfig(), RecognizerConfig(detect_skip_single=False)
    for img in images:
        quads_on, blobs_on = detect(img, on)
        quads_off, blobs_off = detect(img, off)
        assert len(quads_on) == len(quads_off)
        for a, b in zip(quads_on, quads_off, strict=True):
            assert np.array_equal(a, b)
        assert len(blobs_on) == len(blobs_off)


def test_the_other_masks_do_not_trace_again_a_card_found_whole(monkeypatch) -> None:
    """On a light table the masks besides Otsu's are made over the whole frame; their
    outlines inside the box of a card that is a plain Otsu region of its own are not made
    cards again, nor a last-resort mask's a little beyond it (the card's rim and shadow:
    such a quad would be dropped for the card found).  The same cards are found, as near
    their drawn corners (a tie between two tracings of one card may move a corner by a
    pixel or two), for a sixth of the outline fitting the frame needs without the
    shortcuts."""
    import vision.detect as det
    from vision.synth import SynthConfig, random_frame

    fitted = [0]
    fit = det._rough_quad  # (where every outline's quad is begun)

    def counted(*args, **kwargs):
        fitted[0] += 1
        return fit(*args, **kwargs)

    monkeypatch.setattr(det, "_rough_quad", counted)
    on, off = RecognizerConfig(), RecognizerConfig(detect_skip_single=False)
    calls = {"on": 0, "off": 0}
    for seed in (1000, 1004, 1035, 1044):
        frame = random_frame(seed, 12, 0, SynthConfig(width=1280, height=720))
        fitted[0] = 0
        quads_on, _ = detect(frame.image, on, [], None, [])
        calls["on"] += fitted[0]
        fitted[0] = 0
        quads_off, _ = detect(frame.image, off, [], None, [])
        calls["off"] += fitted[0]
        assert len(quads_on) == len(quads_off) == 12
        truth = [np.float32(c.corners) for c in frame.cards]
        for a, b in zip(quads_on, quads_off, strict=True):
            assert np.abs(a - b).max() < 3.0
            drawn = min(truth, key=lambda t: float(np.abs(t.mean(0) - a.mean(0)).sum()))
            err_on = np.hypot(*(a[:, None] - drawn[None]).transpose(2, 0, 1)).min(1).max()
            err_off = np.hypot(*(b[:, None] - drawn[None]).transpose(2, 0, 1)).min(1).max()
            assert err_on <= err_off + 0.5
    # (measured 57 of 356; the cut mask's shortcut alone leaves 0.56 of the fitting, and
    # without a margin round the cards for the last-resort masks' outlines, 96)
    assert calls["on"] < 0.22 * calls["off"], calls
