"""Frames composed from the real photos, for timing and many-card checks.

``table_frame`` pastes real card crops (rectified from ``phone-scenes`` single-card photos)
onto a plain table at random angles, like an overhead 1280x720 webcam frame with up to 12
cards; it returns the frame and the cards' codes.
"""

from __future__ import annotations

import math

import cv2
import numpy as np


def card_crops(recognizer, photos, size=(126, 176)):
    """(crop, code) for single-card photos whose card the recognizer finds and reads."""
    out = []
    for p in photos:
        if len(p.cards) != 1:
            continue
        img = p.image()
        readings = recognizer.read(img)
        named = [r for r in readings if r.card is not None and r.card.code == p.cards[0]]
        if not named:
            continue
        from vision.pipeline import rectify

        out.append((rectify(img, named[0].corners, size), p.cards[0]))
    return out


def table_frame(crops, n=12, size=(1280, 720), seed=0, colour=(40, 90, 50), qr=()):
    """``n`` cards on a table; the last ``len(qr)`` of them are printed cards of ours
    carrying those QR texts (drawn by ``vision.synth``) instead of playing cards.  The
    codes returned are the playing cards'."""
    rng = np.random.default_rng(seed)
    w, h = size
    frame = np.zeros((h, w, 3), np.uint8)
    frame[:] = colour
    noise = rng.normal(0, 6, (h, w, 1)).astype(np.float32)
    frame = np.clip(frame.astype(np.float32) + noise, 0, 255).astype(np.uint8)
    cols, rows = 4, 3
    codes = []
    picks = rng.choice(len(crops), size=min(n, len(crops)), replace=False)
    printed = [_printed_card(data, crops[0][0].shape[:2]) for data in qr]
    for k, idx in enumerate(picks):
        crop, code = crops[idx]
        if k >= len(picks) - len(printed):
            crop, code = printed[k - (len(picks) - len(printed))], None
        ch, cw = crop.shape[:2]
        cx = (k % cols + 0.5) * w / cols + rng.uniform(-20, 20)
        cy = (k // cols + 0.5) * h / rows + rng.uniform(-10, 10)
        ang = rng.uniform(0, 2 * math.pi)
        src = np.float32([[0, 0], [cw, 0], [cw, ch], [0, ch]])
        c, s = math.cos(ang), math.sin(ang)
        scale = 0.85
        dst = np.float32(
            [[cx + scale * ((x - cw / 2) * c - (y - ch / 2) * s),
              cy + scale * ((x - cw / 2) * s + (y - ch / 2) * c)] for x, y in src]
        )
        m = cv2.getPerspectiveTransform(src, dst)
        warped = cv2.warpPerspective(crop, m, (w, h))
        mask = cv2.warpPerspective(np.full((ch, cw), 255, np.uint8), m, (w, h))
        frame[mask > 127] = warped[mask > 127]
        if code is not None:
            codes.append(code)
    return frame, codes


def _printed_card(data, shape):
    from vision.synth import render_qr_card

    face, mask, _ = render_qr_card(data, width=300)
    # the rounded corners outside the card take the paper colour (the paste is rectangular)
    face[mask == 0] = 235
    return cv2.resize(face, (shape[1], shape[0]), interpolation=cv2.INTER_AREA)


def fan_frame(crops, n=5, size=(1280, 720), seed=0, colour=(35, 60, 110), spread=12.0,
              card_height=300):
    """A hand of ``n`` real cards fanned (each turned ``spread`` degrees more about a
    point below the cards, the later ones on top), so that only each card's upper-left
    corner index shows, as when a player spreads a hand on the table."""
    rng = np.random.default_rng(seed)
    w, h = size
    frame = np.zeros((h, w, 3), np.uint8)
    frame[:] = colour
    noise = rng.normal(0, 5, (h, w, 1)).astype(np.float32)
    frame = np.clip(frame.astype(np.float32) + noise, 0, 255).astype(np.uint8)
    picks = rng.choice(len(crops), size=min(n, len(crops)), replace=False)
    codes = []
    px, py = w / 2 + rng.uniform(-80, 80), h / 2 + card_height * 0.75
    base = rng.uniform(-20, 20) - spread * (n - 1) / 2
    for k, idx in enumerate(picks):
        crop, code = crops[idx]
        ch, cw = crop.shape[:2]
        s = card_height / ch
        ang = math.radians(base + spread * k)
        c, si = math.cos(ang), math.sin(ang)
        src = np.float32([[0, 0], [cw, 0], [cw, ch], [0, ch]])
        # card's bottom-centre sits a little above the pivot
        pts = []
        for x, y in src:
            dx, dy = (x - cw / 2) * s, (y - ch) * s + card_height * 0.15
            pts.append([px + dx * c - dy * si, py + dx * si + dy * c])
        m = cv2.getPerspectiveTransform(src, np.float32(pts))
        warped = cv2.warpPerspective(crop, m, (w, h))
        mask = cv2.warpPerspective(np.full((ch, cw), 255, np.uint8), m, (w, h))
        frame[mask > 127] = warped[mask > 127]
        codes.append(code)
    return frame, codes
