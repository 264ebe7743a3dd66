"""Synthetic table frames with known truth, for tests and the vision benchmark.

Everything is drawn here: card faces (white rounded card, rank and suit pip at the two index
corners, centre pips or a court letter), printed QR cards (``segno``), table textures (plain,
wood, green cloth, dark), perspective poses, uneven light, blur and sensor noise. A seeded
``numpy`` generator drives every random choice, so a seed names a frame exactly.

Ground truth corners are frame pixels, clockwise from the card's top-left as the card reads,
which is the order FORMATS.md uses for ``companion identify``.
"""

from __future__ import annotations

import csv
import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.cards import RANKS, Card, Suit, full_deck

Point = tuple[float, float]
Corners = tuple[Point, Point, Point, Point]
# cv2's stubs type every result as a generic array, so precise dtypes would only add casts.
Image = NDArray[Any]
Floats = NDArray[Any]

TABLES = ("plain", "wood", "cloth", "dark")

_RED = (40, 30, 200)
_BLACK = (25, 25, 25)


@dataclass(frozen=True)
class SynthConfig:
    """How synthetic frames look; defaults give a 1280x720 webcam-like frame."""

    width: int = 1280
    height: int = 720
    # "random" picks one of TABLES per frame.
    table: str = "random"
    # Card height as a fraction of the frame's short side; a range sampled per frame.
    card_height: tuple[float, float] = (0.24, 0.36)
    # Out-of-plane tilt of each card (perspective), sampled up to this angle.
    max_tilt_deg: float = 45.0
    # Focal length over camera distance: larger is a flatter, more telephoto look.
    camera_focal: float = 1.6
    max_blur_sigma: float = 1.0
    max_noise_sigma: float = 5.0
    # Peak fractional change of brightness across the frame from the light gradient.
    light_strength: float = 0.3
    # Resolution at which faces are drawn before warping (the card is 5:7).
    face_width: int = 300
    # Minimum gap between cards, in pixels, so the truth has no overlapping cards.
    gap: int = 6
    # Fraction of the card width the QR symbol takes on a printed QR card.
    qr_fraction: float = 0.72
    shadow: bool = True
    # Cards shrink to fit when the frame is crowded, but never below this height in pixels.
    min_card_height: int = 40


@dataclass(frozen=True)
class SynthCard:
    """A card placed in a frame: a playing card (``card``) or a printed QR card (``code``)."""

    card: Card | None
    code: str | None
    corners: Corners


@dataclass(frozen=True)
class SynthCode:
    """A QR symbol in the frame (its modules, not its quiet zone)."""

    data: str
    corners: Corners


@dataclass(frozen=True)
class SynthFrame:
    image: Image
    cards: tuple[SynthCard, ...]
    codes: tuple[SynthCode, ...]
    table: str
    seed: int

    @property
    def playing_cards(self) -> tuple[Card, ...]:
        return tuple(c.card for c in self.cards if c.card is not None)


# -- card faces --------------------------------------------------------------------------


def _pip_polys(suit: Suit, cx: float, cy: float, size: float) -> list[tuple[str, Any]]:
    """Shapes of one suit pip centred at (cx, cy), ``size`` tall, upright.

    Returned as ("poly", points) and ("circle", (x, y, r)) in float pixels.
    """
    s = size

    def p(u: float, v: float) -> tuple[float, float]:
        return (cx + (u - 0.5) * s, cy + (v - 0.5) * s)

    shapes: list[tuple[str, Any]] = []
    if suit is Suit.DIAMONDS:
        shapes.append(("poly", [p(0.5, 0.0), p(0.86, 0.5), p(0.5, 1.0), p(0.14, 0.5)]))
    elif suit is Suit.HEARTS:
        r = 0.25 * s
        shapes.append(("circle", (*p(0.27, 0.3), r)))
        shapes.append(("circle", (*p(0.73, 0.3), r)))
        shapes.append(("poly", [p(0.03, 0.38), p(0.97, 0.38), p(0.5, 0.97)]))
    elif suit is Suit.SPADES:
        r = 0.22 * s
        shapes.append(("circle", (*p(0.29, 0.58), r)))
        shapes.append(("circle", (*p(0.71, 0.58), r)))
        shapes.append(("poly", [p(0.08, 0.52), p(0.92, 0.52), p(0.5, 0.0)]))
        shapes.append(("poly", [p(0.5, 0.62), p(0.68, 1.0), p(0.32, 1.0)]))
    else:
        r = 0.2 * s
        shapes.append(("circle", (*p(0.5, 0.24), r)))
        shapes.append(("circle", (*p(0.26, 0.58), r)))
        shapes.append(("circle", (*p(0.74, 0.58), r)))
        shapes.append(("poly", [p(0.5, 0.45), p(0.68, 1.0), p(0.32, 1.0)]))
    return shapes


def _draw_shapes(img: Image, shapes: list[tuple[str, Any]], colour: tuple[int, int, int]) -> None:
    shift = 4  # sub-pixel precision for the anti-aliased drawing calls
    k = 1 << shift
    for kind, data in shapes:
        if kind == "poly":
            pts = np.round(np.asarray(data) * k).astype(np.int32).reshape(-1, 1, 2)
            cv2.fillPoly(img, [pts], colour, lineType=cv2.LINE_AA, shift=shift)
        else:
            x, y, r = data
            cv2.circle(
                img, (round(x * k), round(y * k)), round(r * k), colour, -1, cv2.LINE_AA, shift
            )


def _rounded_mask(w: int, h: int, radius: int) -> Image:
    mask = np.zeros((h, w), np.uint8)
    cv2.rectangle(mask, (radius, 0), (w - 1 - radius, h - 1), 255, -1)
    cv2.rectangle(mask, (0, radius), (w - 1, h - 1 - radius), 255, -1)
    for cx, cy in ((radius, radius), (w - 1 - radius, radius),
                   (radius, h - 1 - radius), (w - 1 - radius, h - 1 - radius)):
        cv2.circle(mask, (cx, cy), radius, 255, -1, cv2.LINE_AA)
    return mask


def _blank_card(width: int) -> tuple[Image, Image]:
    height = int(round(width * 7 / 5))
    radius = max(2, int(width * 0.06))
    face = np.full((height, width, 3), 250, np.uint8)
    mask = _rounded_mask(width, height, radius)
    return face, mask


# Centre pip positions for 2..10: (column 0..1, row 0..1); rows below the middle are drawn
# upside down, as on a real card.
_LAYOUTS: dict[str, list[tuple[float, float]]] = {
    "2": [(0.5, 0.0), (0.5, 1.0)],
    "3": [(0.5, 0.0), (0.5, 0.5), (0.5, 1.0)],
    "4": [(0, 0), (1, 0), (0, 1), (1, 1)],
    "5": [(0, 0), (1, 0), (0.5, 0.5), (0, 1), (1, 1)],
    "6": [(0, 0), (1, 0), (0, 0.5), (1, 0.5), (0, 1), (1, 1)],
    "7": [(0, 0), (1, 0), (0.5, 0.25), (0, 0.5), (1, 0.5), (0, 1), (1, 1)],
    "8": [(0, 0), (1, 0), (0.5, 0.25), (0, 0.5), (1, 0.5), (0.5, 0.75), (0, 1), (1, 1)],
    "9": [(0, 0), (1, 0), (0, 1 / 3), (1, 1 / 3), (0.5, 0.5),
          (0, 2 / 3), (1, 2 / 3), (0, 1), (1, 1)],
    "T": [(0, 0), (1, 0), (0.5, 1 / 6), (0, 1 / 3), (1, 1 / 3),
          (0, 2 / 3), (1, 2 / 3), (0.5, 5 / 6), (0, 1), (1, 1)],
}


def _rank_text(rank: str) -> str:
    return "10" if rank == "T" else rank


# the letters printed on the court cards (J, Q, K) of decks in other languages: a French
# deck's Valet, Dame, Roi; a German deck's Bube, Dame, Koenig
COURT_LETTERS = {
    "english": {},
    "french": {"J": "V", "Q": "D", "K": "R"},
    "german": {"J": "B", "Q": "D", "K": "K"},
}


# index styles: (rank height, index pip size) as fractions of the card's width
INDEX_STYLES = {"standard": (0.13, 0.10), "large": (0.18, 0.13), "jumbo": (0.24, 0.16)}
# the pips in the middle of a 2 to 10, per index style: (pip size and left column, of the
# card's width; top row, of its height).  A deck with big indices prints smaller pips
# nearer the middle: no pip touches an index (its "10" is up to a third of the card wide)
_PIP_FIELDS = {"standard": (0.17, 0.30, 0.20), "large": (0.15, 0.365, 0.24),
               "jumbo": (0.14, 0.38, 0.28)}


def _draw_index(face: Image, card: Card, colour: tuple[int, int, int],
                style: str = "standard", letters: str = "english",
                font: str | None = None) -> None:
    """Rank and small pip in the top-left corner (the caller rotates for bottom-right).
    ``font``: a TrueType/OpenType file to set the rank in (else OpenCV's Hershey Duplex)."""
    w = face.shape[1]
    rank_h, pip_w = INDEX_STYLES[style]
    text = COURT_LETTERS[letters].get(card.rank) or _rank_text(card.rank)
    if font is None:
        hershey = cv2.FONT_HERSHEY_DUPLEX
        (tw, th), _ = cv2.getTextSize(text, hershey, 1.0, 2)
        scale = rank_h * w / th
        thick = max(1, int(round(scale * 1.6)))
        (tw, th), _ = cv2.getTextSize(text, hershey, scale, thick)
        cx = max(0.11 * w, 0.04 * w + tw / 2)
        org = (int(round(cx - tw / 2)), int(round(0.05 * w + th)))
        cv2.putText(face, text, org, hershey, scale, colour, thick, cv2.LINE_AA)
    else:
        ink = _set_in(text, font, rank_h * w)
        th, tw = ink.shape
        cx = max(0.11 * w, 0.04 * w + tw / 2)
        x0, y0 = int(round(cx - tw / 2)), int(round(0.05 * w))
        region = face[y0 : y0 + th, x0 : x0 + tw].astype(np.float32)
        a = ink[..., None]
        paint = np.array(colour, np.float32)
        face[y0 : y0 + th, x0 : x0 + tw] = (region * (1 - a) + paint * a).astype(np.uint8)
    pip = pip_w * w
    _draw_shapes(face, _pip_polys(card.suit, cx, 0.05 * w + th + 0.04 * w + pip / 2, pip), colour)


def _set_in(text: str, font: str, height: float) -> NDArray[np.float32]:
    """``text`` set in the font file ``font``, cropped to its ink and scaled to ``height``
    px: coverage 0..1."""
    size = max(16, int(height * 2))
    canvas = np.zeros((size * 3, size * (len(text) + 2)), np.uint8)
    cv2.putText(canvas, text, (size // 2, size * 2), (255, 255, 255), cv2.FontFace(font), size)
    ys, xs = np.nonzero(canvas > 127)
    if len(xs) == 0:
        raise ValueError(f"font {font!r} draws nothing for {text!r}")
    glyph = canvas[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    scale = height / glyph.shape[0]
    size_out = (max(1, int(round(glyph.shape[1] * scale))), max(1, int(round(height))))
    out = cv2.resize(glyph, size_out, interpolation=cv2.INTER_AREA)
    return np.asarray(out, np.float32) / 255.0


def _copy_index_right(face: Image, card: Card, colour: tuple[int, int, int], index: str,
                      letters: str = "english", font: str | None = None) -> None:
    """The top-left index drawn again, upright, in the top-right corner."""
    h, w = face.shape[:2]
    sheet = np.full_like(face, 255)
    _draw_index(sheet, card, colour, index, letters, font)
    ink = (sheet != 255).any(axis=2)
    ys, xs = np.nonzero(ink)
    if len(xs) == 0:
        return
    x0, x1, y1 = int(xs.min()), int(xs.max()) + 1, int(ys.max()) + 1
    # as far from the right edge as the top-left index is from the left one
    part, where = sheet[:y1, x0:x1], ink[:y1, x0:x1]
    face[:y1, w - x1 : w - x0][where] = part[where]


def render_card_face(
    card: Card | str, width: int = 300, index: str = "standard", four_corners: bool = False,
    letters: str = "english", font: str | None = None,
) -> tuple[Image, Image]:
    """A drawn playing card: ``(face BGR, alpha mask)``, ``width`` x ``width*7/5`` pixels.
    ``index``: a style of :data:`INDEX_STYLES` (a jumbo-index deck's are big);
    ``four_corners``: an index in every corner, as some decks print them; ``letters``: the
    court cards' letters, of :data:`COURT_LETTERS`; ``font``: a TrueType/OpenType file the
    index's rank is set in (else OpenCV's Hershey Duplex, a face the glyph model knows)."""
    if isinstance(card, str):
        card = Card.from_code(card)
    if letters not in COURT_LETTERS:
        raise ValueError(f"letters {letters!r}: expected one of {', '.join(COURT_LETTERS)}")
    face, mask = _card_face_cached(card, width, index, four_corners, letters, font)
    return face.copy(), mask.copy()


@functools.lru_cache(maxsize=128)
def _card_face_cached(
    card: Card, width: int, index: str = "standard", four_corners: bool = False,
    letters: str = "english", font: str | None = None,
) -> tuple[Image, Image]:
    colour = _RED if card.suit in (Suit.HEARTS, Suit.DIAMONDS) else _BLACK
    face, mask = _blank_card(width)
    h, w = face.shape[:2]
    # Both index corners: draw one, turn the card half round, draw again (four corners:
    # the same index, upright, in the top-right and bottom-left too)
    for _ in range(2):
        _draw_index(face, card, colour, index, letters, font)
        if four_corners:
            _copy_index_right(face, card, colour, index, letters, font)
        face = np.ascontiguousarray(np.rot90(face, 2))
    if card.rank in _LAYOUTS:
        size, left, top = _PIP_FIELDS[index]
        pip = size * w
        x0, x1 = left * w, (1 - left) * w
        y0, y1 = top * h, (1 - top) * h
        for u, v in _LAYOUTS[card.rank]:
            x, y = x0 + u * (x1 - x0), y0 + v * (y1 - y0)
            if v > 0.5:
                # Draw upright at the mirrored spot of a half-turned card, then turn back.
                rot = np.ascontiguousarray(np.rot90(face, 2))
                _draw_shapes(rot, _pip_polys(card.suit, w - 1 - x, h - 1 - y, pip), colour)
                face = np.ascontiguousarray(np.rot90(rot, 2))
            else:
                _draw_shapes(face, _pip_polys(card.suit, x, y, pip), colour)
    elif card.rank == "A":
        _draw_shapes(face, _pip_polys(card.suit, w / 2, h / 2, 0.42 * w), colour)
    else:
        # Court cards: a framed panel with a big letter and a pip, like a simplified court.
        x0, y0, x1, y1 = int(0.22 * w), int(0.16 * h), int(0.78 * w), int(0.84 * h)
        cv2.rectangle(face, (x0, y0), (x1, y1), (60, 140, 200), -1)
        cv2.rectangle(face, (x0, y0), (x1, y1), colour, max(1, w // 100), cv2.LINE_AA)
        triplex = cv2.FONT_HERSHEY_TRIPLEX
        letter = COURT_LETTERS[letters].get(card.rank, card.rank)
        (tw, th), _ = cv2.getTextSize(letter, triplex, 1.0, 2)
        scale = (0.3 * h) / th
        thick = max(2, int(scale * 1.8))
        (tw, th), _ = cv2.getTextSize(letter, triplex, scale, thick)
        org = (int(w / 2 - tw / 2), int(0.5 * h + th / 2 - 0.08 * h))
        cv2.putText(face, letter, org, triplex, scale, colour, thick, cv2.LINE_AA)
        _draw_shapes(face, _pip_polys(card.suit, w / 2, 0.72 * h, 0.14 * w), colour)
    face[mask == 0] = 0
    return face, mask


def qr_matrix(data: str) -> Image:
    """The QR symbol for ``data`` as a 0/1 module matrix without quiet zone (1 = dark)."""
    import segno

    qr = segno.make(data, error="m", micro=False)
    return np.array(qr.matrix, dtype=np.uint8)


def render_qr_card(
    data: str, width: int = 300, fraction: float = 0.72
) -> tuple[Image, Image, Corners]:
    """A printed card carrying a QR code: ``(face, mask, symbol corners in face pixels)``."""
    face, mask = _blank_card(width)
    h, w = face.shape[:2]
    modules = qr_matrix(data)
    n = modules.shape[0]
    px = max(1, int(fraction * w / n))
    side = px * n
    sym: Image = np.where(modules == 1, 0, 255).astype(np.uint8)
    sym = cv2.resize(sym, (side, side), interpolation=cv2.INTER_NEAREST)
    x0 = (w - side) // 2
    y0 = int(0.12 * h)
    face[y0:y0 + side, x0:x0 + side] = sym[:, :, None]
    # A title under the code, as printed cards have; it also makes the card read as "a card".
    kind = data.partition(":")[0] or data
    font = cv2.FONT_HERSHEY_SIMPLEX
    scale = 0.0028 * w
    (tw, th), _ = cv2.getTextSize(kind.upper(), font, scale, 2)
    cv2.putText(face, kind.upper(), (int(w / 2 - tw / 2), int(y0 + side + 0.1 * h)),
                font, scale, (60, 60, 60), 2, cv2.LINE_AA)
    face[mask == 0] = 0
    corners: Corners = (
        (float(x0), float(y0)), (float(x0 + side), float(y0)),
        (float(x0 + side), float(y0 + side)), (float(x0), float(y0 + side)),
    )
    return face, mask, corners


# -- tables and light --------------------------------------------------------------------


def _smooth_noise(
    rng: np.random.Generator, h: int, w: int, cells: tuple[int, int]
) -> Floats:
    small = rng.standard_normal((max(2, cells[0]), max(2, cells[1]))).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


def render_table(kind: str, width: int, height: int, rng: np.random.Generator) -> Image:
    """A table surface texture, BGR ``uint8``."""
    h, w = height, width
    img: Floats
    if kind == "plain":
        base = rng.uniform(120, 200, size=3)
        img = np.ones((h, w, 3), np.float32) * base.astype(np.float32)
        img += rng.normal(0, 2.0, (h, w, 1)).astype(np.float32)
    elif kind == "wood":
        # Grain: stripes along x whose phase wanders with smooth noise.
        warp = _smooth_noise(rng, h, w, (6, 3)) * 6.0
        yy = np.arange(h, dtype=np.float32)[:, None]
        freq = rng.uniform(0.05, 0.12)
        grain = 0.5 + 0.5 * np.sin(yy * freq + warp + _smooth_noise(rng, h, w, (40, 4)) * 0.8)
        dark = np.array([20, 40, 80], np.float32) * rng.uniform(0.7, 1.2)
        light = np.array([50, 90, 150], np.float32) * rng.uniform(0.8, 1.1)
        img = dark + (light - dark) * grain[:, :, None]
        img += rng.normal(0, 3.0, (h, w, 1)).astype(np.float32)
    elif kind == "cloth":
        cloth: Floats = np.array([40, 110, 30], np.float32) * rng.uniform(0.7, 1.2)
        img = np.ones((h, w, 3), np.float32) * cloth
        img *= (1.0 + 0.06 * _smooth_noise(rng, h, w, (8, 12)))[:, :, None]
        img += rng.normal(0, 6.0, (h, w, 1)).astype(np.float32)
    elif kind == "dark":
        base = rng.uniform(15, 45, size=3).astype(np.float32)
        img = np.ones((h, w, 3), np.float32) * base
        img += rng.normal(0, 3.0, (h, w, 1)).astype(np.float32)
    else:
        raise ValueError(f"unknown table {kind!r}; choose one of {', '.join(TABLES)}")
    return np.clip(img, 0, 255).astype(np.uint8)


def _light_field(rng: np.random.Generator, h: int, w: int, strength: float) -> Floats:
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    ang = rng.uniform(0, 2 * math.pi)
    ramp = (np.cos(ang) * (xx / w - 0.5) + np.sin(ang) * (yy / h - 0.5)) * 2.0
    cx, cy = rng.uniform(0.2, 0.8) * w, rng.uniform(0.2, 0.8) * h
    r2 = ((xx - cx) / w) ** 2 + ((yy - cy) / h) ** 2
    spot = np.exp(-r2 / 0.25)
    s = rng.uniform(0.3, 1.0) * strength
    field = 1.0 + s * 0.6 * ramp + s * 0.6 * (spot - 0.5)
    out: Floats = np.clip(field, 0.35, 1.6).astype(np.float32)
    return out


# -- poses -------------------------------------------------------------------------------


def _pose_corners(
    rng: np.random.Generator, cw: float, ch: float, cx: float, cy: float,
    max_tilt: float, focal: float,
) -> Floats:
    """Project a cw x ch card, spun in-plane and tilted, centred near (cx, cy)."""
    spin = rng.uniform(0, 2 * math.pi)
    tilt = math.radians(rng.uniform(0, max_tilt))
    tilt_dir = rng.uniform(0, 2 * math.pi)
    local = np.array([[-cw / 2, -ch / 2, 0], [cw / 2, -ch / 2, 0],
                      [cw / 2, ch / 2, 0], [-cw / 2, ch / 2, 0]], dtype=np.float64)
    cs, sn = math.cos(spin), math.sin(spin)
    rz = np.array([[cs, -sn, 0], [sn, cs, 0], [0, 0, 1]])
    # Tilt about an axis in the table plane pointing along tilt_dir.
    ax = np.array([math.cos(tilt_dir), math.sin(tilt_dir), 0.0])
    k = np.array([[0, -ax[2], ax[1]], [ax[2], 0, -ax[0]], [-ax[1], ax[0], 0]])
    rt = np.eye(3) + math.sin(tilt) * k + (1 - math.cos(tilt)) * (k @ k)
    pts = local @ rz.T @ rt.T
    # Pinhole camera at distance d looking straight at the card centre: perspective grows
    # with tilt and with a short focal (small ``focal`` = wide angle).
    d = focal * max(cw, ch)
    z = d + pts[:, 2]
    proj = pts[:, :2] * (d / z)[:, None]
    out: Floats = proj + np.array([cx, cy])
    return out


def _paste(
    frame: Floats, face: Image, mask: Image, corners: Floats,
    shadow: bool,
) -> None:
    h, w = frame.shape[:2]
    fh, fw = face.shape[:2]
    # Work in the card's bounding box (plus room for the shadow) rather than the whole frame:
    # a dozen full-frame warps per frame made rendering the slowest part of the benchmark.
    pad = 20
    x0 = max(0, int(math.floor(corners[:, 0].min())) - pad)
    y0 = max(0, int(math.floor(corners[:, 1].min())) - pad)
    x1 = min(w, int(math.ceil(corners[:, 0].max())) + pad)
    y1 = min(h, int(math.ceil(corners[:, 1].max())) + pad)
    if x1 <= x0 or y1 <= y0:
        return
    rw, rh = x1 - x0, y1 - y0
    src = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], dtype=np.float32)
    dst = (corners - np.array([x0, y0])).astype(np.float32)
    hom = cv2.getPerspectiveTransform(src, dst)
    warped = cv2.warpPerspective(face, hom, (rw, rh), flags=cv2.INTER_AREA)
    alpha = cv2.warpPerspective(mask, hom, (rw, rh), flags=cv2.INTER_LINEAR).astype(np.float32)
    alpha /= 255.0
    roi = frame[y0:y1, x0:x1]
    if shadow:
        offset = np.array([[1, 0, 4], [0, 1, 5]], np.float32)
        sh = cv2.warpAffine(alpha, offset, (rw, rh))
        sh = cv2.GaussianBlur(sh, (0, 0), 5)
        roi *= (1.0 - 0.35 * sh)[:, :, None]
    a = alpha[:, :, None]
    roi *= 1.0 - a
    roi += warped.astype(np.float32) * a


# -- frames ------------------------------------------------------------------------------


def render_frame(
    cards: Sequence[Card | str] = (),
    codes: Sequence[str] = (),
    *,
    seed: int = 0,
    config: SynthConfig | None = None,
) -> SynthFrame:
    """A table frame with these playing cards and printed QR cards at random poses.

    Cards never overlap; when they cannot all fit at the sampled size the size shrinks.
    Raises ``ValueError`` if even small cards do not fit.
    """
    cfg = config or SynthConfig()
    rng = np.random.default_rng(seed)
    table = cfg.table if cfg.table != "random" else TABLES[int(rng.integers(len(TABLES)))]
    w, h = cfg.width, cfg.height
    frame: Floats = render_table(table, w, h, rng).astype(np.float32)

    items: list[tuple[Card | None, str | None]] = [
        (Card.from_code(c) if isinstance(c, str) else c, None) for c in cards
    ]
    items += [(None, data) for data in codes]
    order = rng.permutation(len(items))
    items = [items[int(i)] for i in order]

    short = min(w, h)
    height_frac = rng.uniform(*cfg.card_height)
    placed: list[Floats] = []
    while True:
        placed = _place_all(rng, len(items), height_frac * short, w, h, cfg)
        if len(placed) == len(items):
            break
        height_frac *= 0.85
        if height_frac * short < cfg.min_card_height:
            raise ValueError(
                f"cannot fit {len(items)} cards at least {cfg.min_card_height} px tall "
                f"in a {w}x{h} frame"
            )

    out_cards: list[SynthCard] = []
    out_codes: list[SynthCode] = []
    for (card, data), corners in zip(items, placed, strict=True):
        if card is not None:
            face, mask = render_card_face(card, cfg.face_width)
            sym = None
        else:
            assert data is not None
            face, mask, sym = render_qr_card(data, cfg.face_width, cfg.qr_fraction)
        _paste(frame, face, mask, corners, cfg.shadow)
        cs = _as_corners(corners)
        out_cards.append(SynthCard(card, data, cs))
        if sym is not None and data is not None:
            fh, fw = face.shape[:2]
            src = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], dtype=np.float32)
            hom = cv2.getPerspectiveTransform(src, corners.astype(np.float32))
            mapped = cv2.perspectiveTransform(np.asarray(sym, np.float64).reshape(-1, 1, 2), hom)
            out_codes.append(SynthCode(data, _as_corners(mapped.reshape(4, 2))))

    frame *= _light_field(rng, h, w, cfg.light_strength)[:, :, None]
    sigma = rng.uniform(0, cfg.max_blur_sigma)
    if sigma > 0.2:
        frame = cv2.GaussianBlur(frame, (0, 0), sigma)
    noise = rng.uniform(0, cfg.max_noise_sigma)
    frame += rng.normal(0, noise, frame.shape).astype(np.float32)
    image = np.clip(frame, 0, 255).astype(np.uint8)
    return SynthFrame(image, tuple(out_cards), tuple(out_codes), table, seed)


def _place_all(
    rng: np.random.Generator, n: int, card_h: float, w: int, h: int, cfg: SynthConfig
) -> list[Floats]:
    card_w = card_h * 5 / 7
    # Occupancy at quarter resolution is exact enough for a gap of a few pixels and makes
    # hundreds of trial placements cheap.
    q = 4
    occupied = np.zeros((h // q + 1, w // q + 1), np.uint8)
    gap = max(1, int(math.ceil(cfg.gap / q)))
    out: list[Floats] = []
    margin = 4
    for _ in range(n):
        for _try in range(300):
            cx = rng.uniform(0, w)
            cy = rng.uniform(0, h)
            corners = _pose_corners(rng, card_w, card_h, cx, cy, cfg.max_tilt_deg,
                                    cfg.camera_focal)
            if (corners[:, 0].min() < margin or corners[:, 1].min() < margin
                    or corners[:, 0].max() > w - margin or corners[:, 1].max() > h - margin):
                continue
            poly = np.round(corners / q).astype(np.int32).reshape(-1, 1, 2)
            x0, y0 = poly[:, 0, 0].min(), poly[:, 0, 1].min()
            x1, y1 = poly[:, 0, 0].max() + 1, poly[:, 0, 1].max() + 1
            test = np.zeros((y1 - y0, x1 - x0), np.uint8)
            cv2.fillPoly(test, [poly - np.array([x0, y0])], 255)
            if np.any(test & occupied[y0:y1, x0:x1]):
                continue
            cv2.fillPoly(occupied, [poly], 255)
            cv2.polylines(occupied, [poly], True, 255, 2 * gap)
            out.append(corners)
            break
        else:
            return out
    return out


def _as_corners(points: Floats) -> Corners:
    a, b, c, d = ((float(x), float(y)) for x, y in np.asarray(points).reshape(4, 2))
    return (a, b, c, d)


def random_frame(
    seed: int, n_cards: int, n_codes: int = 0, config: SynthConfig | None = None
) -> SynthFrame:
    """A frame with ``n_cards`` distinct random playing cards and ``n_codes`` QR cards."""
    rng = np.random.default_rng(seed + 7919)
    deck = full_deck()
    picks = rng.choice(len(deck), size=min(n_cards, len(deck)), replace=False)
    kinds = ("budge", "event", "scenario", "aladdin")
    codes = [f"{kinds[i % len(kinds)]}:synth-{seed}-{i}" for i in range(n_codes)]
    return render_frame([deck[int(i)] for i in picks], codes, seed=seed, config=config)


def label_code(card: Card) -> str:
    """A card as the photo folders' labels.csv writes it (``10S``, ``QH``)."""
    return _rank_text(card.rank) + card.suit.letter


def write_folder(folder: str | Path, frames: Sequence[SynthFrame], prefix: str = "synth") -> Path:
    """Write frames as PNG files plus a ``labels.csv`` in the shared data format.

    Returns the labels path. Codes are listed in ``notes`` (labels have no column for them).
    """
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    for i, fr in enumerate(frames):
        name = f"{prefix}-{i:03d}.png"
        cv2.imwrite(str(out / name), fr.image)
        cards = ";".join(label_code(c) for c in sorted(fr.playing_cards, key=lambda c: c.sort_key))
        notes = f"synthetic seed {fr.seed}, table {fr.table}"
        if fr.codes:
            notes += "; codes " + " ".join(c.data for c in fr.codes)
        rows.append([name, fr.image.shape[1], fr.image.shape[0], cards, "", notes])
    labels = out / "labels.csv"
    with labels.open("w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(["file", "width", "height", "cards", "partial", "notes"])
        writer.writerows(rows)
    return labels


__all__ = [
    "RANKS", "TABLES", "SynthCard", "SynthCode", "SynthConfig", "SynthFrame", "label_code",
    "qr_matrix", "random_frame", "render_card_face", "render_frame", "render_qr_card",
    "render_table", "write_folder",
]
