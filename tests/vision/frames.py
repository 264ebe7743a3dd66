"""Frames composed from the real photos, for timing and many-card checks.

``table_frame`` pastes real card crops (rectified from ``phone-scenes`` single-card photos)
onto a plain table at random angles, like an overhead 1280x720 webcam frame with up to 12
cards; it returns the frame and the cards' codes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

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


def patterned_table(kind, size=(1280, 720), seed=0):
    """A table top with a pattern: "rug" (patches of strong colour under a dark diamond
    lattice), "grain" (wood-like stripes) or "loop" (a coarse grey-beige speckle)."""
    rng = np.random.default_rng(seed)
    w, h = size
    if kind == "rug":
        small = rng.integers(40, 200, (h // 60 + 2, w // 60 + 2, 3)).astype(np.uint8)
        base = cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC).astype(np.float32)
        yy, xx = np.mgrid[0:h, 0:w]
        lattice = (np.abs((xx + yy) % 48 - 24) < 3) | (np.abs((xx - yy) % 48 - 24) < 3)
        base[lattice] *= 0.4
        base += rng.normal(0, 14, (h, w, 3))
    elif kind == "grain":
        yy, xx = np.mgrid[0:h, 0:w]
        base = np.zeros((h, w, 3), np.float32)
        base[:] = (60, 110, 160)
        base += (np.sin(yy / 3.0 + 4 * np.sin(xx / 90.0)) * 18)[..., None]
        base += rng.normal(0, 8, (h, w, 1))
    elif kind == "loop":
        base = np.zeros((h, w, 3), np.float32)
        base[:] = (120, 130, 140)
        speckle = rng.normal(0, 30, (h // 2, w // 2)).astype(np.float32)
        base += cv2.resize(speckle, (w, h), interpolation=cv2.INTER_NEAREST)[..., None]
    else:
        raise ValueError(f"no such table pattern: {kind!r}")
    return np.clip(base, 0, 255).astype(np.uint8)


def _plain_table(rng, size, colour, sigma):
    """A table of one ``colour`` with the camera's noise (grey, ``sigma`` levels) drawn
    from ``rng``."""
    w, h = size
    frame = np.zeros((h, w, 3), np.uint8)
    frame[:] = colour
    noise = rng.normal(0, sigma, (h, w, 1)).astype(np.float32)
    return np.clip(frame.astype(np.float32) + noise, 0, 255).astype(np.uint8)


def table_frame(crops, n=12, size=(1280, 720), seed=0, colour=(40, 90, 50), qr=(),
                background=None):
    """``n`` cards on a table; the last ``len(qr)`` of them are printed cards of ours
    carrying those QR texts (drawn by ``vision.synth``) instead of playing cards.  The
    codes returned are the playing cards'.  ``background``: a picture of the table (of
    ``size``) instead of a plain one of ``colour``."""
    rng = np.random.default_rng(seed)
    w, h = size
    if background is not None:
        frame = background.copy()
    else:
        frame = _plain_table(rng, size, colour, 6)
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


def strip_frame(crops, n=6, size=(1280, 720), seed=0, strips=2, colour=(40, 90, 50)):
    """``n`` cards (at most 6) on a table, ``strips`` of them touching a thin bright strip
    (4 to 12 px wide, 215 to 250 grey: a table's edge, a ruler, a cable) that runs from
    under the card off the frame's edge, clear of the other cards."""
    rng = np.random.default_rng(seed)
    w, h = size
    frame = _plain_table(rng, size, colour, 6)
    picks = rng.choice(len(crops), size=min(n, 6, len(crops)), replace=False)
    centres = [((k % 3 + 0.5) * w / 3 + rng.uniform(-30, 30),
                (k // 3 + 0.5) * h / 2 + rng.uniform(-20, 20)) for k in range(len(picks))]
    for k in rng.choice(len(picks), size=min(strips, len(picks)), replace=False):
        cx, cy = centres[k]
        for _ in range(50):
            a = rng.uniform(0, 2 * math.pi)
            d = np.array([math.cos(a), math.sin(a)])
            clear = True
            for j, (ox, oy) in enumerate(centres):
                v = np.array([ox - cx, oy - cy])
                t = float(v @ d)
                if j != k and t > 0 and float(np.linalg.norm(v - t * d)) < 140:
                    clear = False
            if clear:
                break
        width, grey = int(rng.integers(4, 13)), int(rng.integers(215, 250))
        cv2.line(frame, (int(cx), int(cy)), (int(cx + 2000 * d[0]), int(cy + 2000 * d[1])),
                 (grey, grey, grey), width, cv2.LINE_AA)
    codes = []
    for k, idx in enumerate(picks):
        crop, code = crops[idx]
        lay(frame, crop, centres[k][0], centres[k][1], rng.uniform(0, 2 * math.pi), 0.85)
        codes.append(code)
    return frame, codes


def touching_frame(crops, n=6, size=(640, 480), seed=0, colour=(40, 90, 50), scale=0.85):
    """Up to ``n`` cards crowded on a table, each laid touching or close beside one laid
    before it (centres at most 1.1 card heights apart), at any angle, overlapping no card by
    more than 4% of its area, and wholly inside the picture: where cards touch, their paper
    is one bright region.  The codes of the cards laid."""
    rng = np.random.default_rng(seed)
    w, h = size
    frame = _plain_table(rng, size, colour, 6)
    codes, masks, centres = [], [], []
    for idx in rng.choice(len(crops), size=min(n, len(crops)), replace=False):
        crop, code = crops[idx]
        ch, cw = crop.shape[:2]
        src = np.float32([[0, 0], [cw, 0], [cw, ch], [0, ch]])
        for _ in range(200):
            ang = rng.uniform(0, 2 * math.pi)
            c, s = math.cos(ang), math.sin(ang)
            cx, cy = rng.uniform(0, w), rng.uniform(0, h)
            dst = np.float32([[cx + scale * ((x - cw / 2) * c - (y - ch / 2) * s),
                               cy + scale * ((x - cw / 2) * s + (y - ch / 2) * c)]
                              for x, y in src])
            if dst[:, 0].min() < 3 or dst[:, 1].min() < 3 or dst[:, 0].max() > w - 4 or (
                    dst[:, 1].max() > h - 4):
                continue
            mask = np.zeros((h, w), np.uint8)
            cv2.fillConvexPoly(mask, dst.astype(np.int32), 1)
            if masks and (max(int((mask & m).sum()) for m in masks) > 0.04 * mask.sum()
                          or min(math.hypot(cx - px, cy - py) for px, py in centres)
                          > 1.1 * scale * ch):
                continue
            break
        else:
            continue
        m = cv2.getPerspectiveTransform(src, dst)
        warped = cv2.warpPerspective(crop, m, (w, h))
        pasted = cv2.warpPerspective(np.full((ch, cw), 255, np.uint8), m, (w, h))
        frame[pasted > 127] = warped[pasted > 127]
        masks.append(mask)
        centres.append((cx, cy))
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
    hand = fan_hand(crops, n, size, seed, colour, spread, card_height)
    return hand.frame, hand.codes


@dataclass
class Hand:
    """A composed frame of overlapping cards: the codes bottom card first, each card's
    corners (clockwise from its upright top-left, image pixels) and whether its upright
    top-left index corner shows (not covered by a later card)."""

    frame: np.ndarray
    codes: list[str]
    quads: list[np.ndarray]
    shows: list[bool]

    @property
    def hidden(self) -> list[str]:
        """Codes of the cards under another whose index corner shows."""
        top = len(self.codes) - 1
        pairs = enumerate(zip(self.codes, self.shows, strict=True))
        return [c for k, (c, s) in pairs if s and k < top]


def fan_hand(crops, n=5, size=(1280, 720), seed=0, colour=(35, 60, 110), spread=12.0,
             card_height=300, layout="fan", step=0.26, jitter=0.0):
    """``n`` real cards overlapping, the later ones on top.  ``layout`` "fan": each turned
    ``spread`` degrees more about a point below the cards; "row": laid in a row (the whole
    row turned at random), each shifted ``step`` card widths right of the previous one so
    that it covers all of it but the index strip, each turned by up to ``jitter`` degrees
    at random (a challenge path)."""
    rng = np.random.default_rng(seed)
    w, h = size
    frame = _plain_table(rng, size, colour, 5)
    picks = rng.choice(len(crops), size=min(n, len(crops)), replace=False)
    codes: list[str] = []
    quads: list[np.ndarray] = []
    ch, cw = crops[0][0].shape[:2]
    s = card_height / ch
    card_w = cw * s
    if layout == "fan":
        px, py = w / 2 + rng.uniform(-80, 80), h / 2 + card_height * 0.75
        base = rng.uniform(-20, 20) - spread * (n - 1) / 2
        poses = []
        for k in range(len(picks)):
            # card's bottom-centre sits a little above the pivot
            poses.append((px, py, math.radians(base + spread * k), card_height * 0.15))
    else:
        turn = math.radians(rng.uniform(-180, 180))
        length = card_w * (1 + step * (len(picks) - 1))
        poses = []
        for k in range(len(picks)):
            along = -length / 2 + card_w / 2 + k * step * card_w
            cx = w / 2 + along * math.cos(turn)
            cy = h / 2 + along * math.sin(turn)
            ang = turn + math.radians(rng.uniform(-jitter, jitter))
            # pivot at the card's centre: its bottom-centre half a card below
            poses.append((cx, cy, ang, card_height / 2))
    for (px, py, ang, lift), idx in zip(poses, picks, strict=True):
        crop, code = crops[idx]
        ch, cw = crop.shape[:2]
        c, si = math.cos(ang), math.sin(ang)
        src = np.float32([[0, 0], [cw, 0], [cw, ch], [0, ch]])
        pts = []
        for x, y in src:
            dx, dy = (x - cw / 2) * s, (y - ch) * s + lift
            pts.append([px + dx * c - dy * si, py + dx * si + dy * c])
        m = cv2.getPerspectiveTransform(src, np.float32(pts))
        warped = cv2.warpPerspective(crop, m, (w, h))
        mask = cv2.warpPerspective(np.full((ch, cw), 255, np.uint8), m, (w, h))
        frame[mask > 127] = warped[mask > 127]
        codes.append(code)
        quads.append(np.float32(pts))
    # an index corner shows when the box around it (a fifth of the width, a quarter of the
    # height) lies outside every later card
    shows = []
    for k, q in enumerate(quads):
        o, right, down = q[0], (q[1] - q[0]) / 5, (q[3] - q[0]) / 4
        box = np.float32([o, o + right, o + right + down, o + down])
        covered = 0.0
        for later in quads[k + 1 :]:
            inter, _ = cv2.intersectConvexConvex(box, later)
            covered = max(covered, float(inter))
        shows.append(covered < 0.1 * abs(cv2.contourArea(box)))
    return Hand(frame, codes, quads, shows)


def card_back(kind="red", w=250, h=350):
    """The back of a playing card: a lattice in ``kind`` (red, blue or black) inside a white
    border, an oval in the middle."""
    col = {"red": (40, 40, 190), "blue": (170, 80, 30), "black": (30, 30, 30)}[kind]
    img = np.full((h, w, 3), 245, np.uint8)
    m = int(0.06 * w)
    yy, xx = np.mgrid[0 : h - 2 * m, 0 : w - 2 * m]
    inner = img[m : h - m, m : w - m]
    inner[((xx + yy) % 14 < 5) | ((xx - yy) % 14 < 5)] = col
    centre = ((w - 2 * m) // 2, (h - 2 * m) // 2)
    cv2.ellipse(inner, centre, (40, 60), 0, 0, 360, col, -1)
    cv2.circle(inner, centre, 25, (245, 245, 245), -1)
    return img


TEXT_WORDS = ("K", "Q", "A", "J", "10", "Sinbad", "rules", "7", "8 of", "The King", "Budge", "Q3")


def text_page(rng, w=420, h=300):
    """A printed page (rules, a score pad): words and card names in rows."""
    img = np.full((h, w, 3), 240, np.uint8)
    y = 30
    while y < h - 10:
        x = 10
        while x < w - 60:
            word = TEXT_WORDS[int(rng.integers(len(TEXT_WORDS)))]
            cv2.putText(img, word, (x, y), cv2.FONT_HERSHEY_SIMPLEX,
                        float(rng.uniform(0.5, 1.2)), (20, 20, 20), 2)
            x += 30 + 18 * len(word)
        y += 34
    return img


def lay(frame, crop, cx, cy, angle, scale):
    """``crop`` pasted on ``frame`` centred at (cx, cy), turned by ``angle`` radians."""
    h, w = frame.shape[:2]
    ch, cw = crop.shape[:2]
    src = np.float32([[0, 0], [cw, 0], [cw, ch], [0, ch]])
    c, s = math.cos(angle), math.sin(angle)
    dst = np.float32([[cx + scale * ((x - cw / 2) * c - (y - ch / 2) * s),
                       cy + scale * ((x - cw / 2) * s + (y - ch / 2) * c)] for x, y in src])
    m = cv2.getPerspectiveTransform(src, dst)
    warped = cv2.warpPerspective(crop, m, (w, h))
    mask = cv2.warpPerspective(np.full((ch, cw), 255, np.uint8), m, (w, h))
    frame[mask > 127] = warped[mask > 127]
