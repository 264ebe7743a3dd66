"""Reading the QR codes printed on our own cards (Budge, event, scenario, Aladdin).

The codes carry ``<kind>:<id>`` text (FORMATS.md "Card codes"). Decoding is done by zbar
through pyzbar. Two passes:

1. inside each rectified card crop (the card fills the crop, so small codes get many pixels and
   zbar scans far fewer pixels than in the whole frame); the code's corners are mapped back to
   frame pixels through the crop's homography;
2. over the whole frame, for codes not on a detected card, retried on an upscaled and on a
   thresholded copy when the plain pass finds nothing new.

``corners`` of a :class:`CodeReading` are frame pixel coordinates, clockwise from the code's
top-left as the code reads (the corner with no finder pattern is bottom-right).
"""

from __future__ import annotations

import ctypes
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol

import cv2
import numpy as np
from numpy.typing import NDArray

Point = tuple[float, float]
Corners = tuple[Point, Point, Point, Point]

ZBAR_INSTALL_HINT = "apt-get install -y libzbar0"


class ZbarMissingError(RuntimeError):
    """pyzbar or the zbar shared library it wraps cannot be loaded."""

    def __init__(self, detail: str) -> None:
        super().__init__(
            "QR decoding needs the zbar library, which could not be loaded "
            f"({detail}). On Debian/Ubuntu: {ZBAR_INSTALL_HINT}; then pip install pyzbar."
        )


def _load_pyzbar() -> Any:
    # pyzbar raises ImportError (no module) or an OSError/ImportError from ctypes when the
    # shared library is absent; both become one message that says how to fix it.
    try:
        from pyzbar import pyzbar
    except (ImportError, OSError) as exc:
        raise ZbarMissingError(str(exc) or type(exc).__name__) from None
    return pyzbar


def require_zbar() -> None:
    """Fail early, with :class:`ZbarMissingError`, when QR decoding cannot work."""
    _load_pyzbar()


@dataclass(frozen=True)
class CodeReading:
    """One decoded QR code: its text and its corners in frame pixels."""

    data: str
    corners: Corners

    @property
    def kind(self) -> str:
        """The part before the first ``:`` (``budge``, ``aladdin`` ...), or ``""``."""
        head, sep, _ = self.data.partition(":")
        return head if sep else ""

    @property
    def centre(self) -> Point:
        xs = [p[0] for p in self.corners]
        ys = [p[1] for p in self.corners]
        return (sum(xs) / 4.0, sum(ys) / 4.0)

    def to_json(self) -> dict[str, object]:
        return {
            "data": self.data,
            "corners": [[round(x, 1), round(y, 1)] for x, y in self.corners],
        }


class HasCrop(Protocol):
    """What the QR reader needs of a detected card: its frame corners and upright crop."""

    @property
    def corners(self) -> Any: ...

    @property
    def crop(self) -> Any: ...


@dataclass(frozen=True)
class QrConfig:
    """Tunables of the QR stage."""

    # A crop smaller than this on its short side is upscaled before decoding: zbar needs about
    # three pixels per module, and a card crop of a far card can be small.
    crop_min_side: int = 360
    # Frames whose long side is at most this are also tried at 2x when the plain pass misses.
    upscale_max_side: int = 960
    upscale_factor: float = 2.0
    # Adaptive threshold window (odd) and offset for the thresholded retry; it rescues codes
    # under uneven light, where zbar's own binarisation loses the pale half of the code.
    threshold_block: int = 51
    threshold_c: int = 10
    # Two readings with the same text whose centres are closer than this fraction of the
    # code's size are the same code seen twice (crop pass and frame pass).
    same_code_distance: float = 0.5
    # Where the whole frame is decoded: "finder" only around QR finder patterns that lie on
    # no card already looked at (codes are rare and zbar over a 1280x720 frame costs about
    # 25 ms), or "always" all of it.  Inside card quads zbar runs only where finder patterns
    # show too.
    frame_pass: str = "finder"
    # Finder patterns are searched at half resolution with this adaptive threshold window
    # and offset; smaller outlines (half-resolution pixels) are noise.
    finder_block: int = 25
    finder_offset: int = 10
    finder_min_side: float = 5.0
    # The cards already looked at are blanked out of that search (their print is most of
    # its cost) but for a rim this wide (half-resolution pixels), so that a pattern just
    # beside one keeps all of its ink.
    finder_blank_inset: float = 3.0
    # Two finder patterns of one code lie this many (of their side) apart: 21 to 57 modules.
    finder_pair_distance: tuple[float, float] = (1.8, 7.5)
    # A frame-level code is re-read in a patch this much larger than its outline (room for
    # the quiet zone, which zbar needs to find the code again).
    refine_margin: float = 1.5
    try_upscale: bool = True
    try_threshold: bool = True
    threshold_only_if_empty: bool = True


@dataclass(frozen=True)
class _Raw:
    data: str
    corners: Corners


def _order_corners(points: Sequence[Point], orientation: str | None) -> Corners:
    """Four polygon points as clockwise-from-top-left in the code's own reading frame.

    zbar reports the polygon in varying orders, plus a coarse orientation (the screen
    direction the code's top faces). The top-left corner is the polygon point lying furthest
    towards "code up + code left" from the centre.
    """
    # (in plain floats: four points, where numpy's calls cost some 0.1 ms a code)
    pts = [(float(x), float(y)) for x, y in points]
    if len(pts) != 4:
        # Non-quadrilateral outlines (rare for QR) are replaced by their minimum-area box.
        box = cv2.boxPoints(cv2.minAreaRect(np.asarray(pts, dtype=np.float32)))
        pts = [(float(x), float(y)) for x, y in box]
    # the centre: the points summed in order, over four (as numpy's mean sums them)
    cx = (((pts[0][0] + pts[1][0]) + pts[2][0]) + pts[3][0]) / 4
    cy = (((pts[0][1] + pts[1][1]) + pts[2][1]) + pts[3][1]) / 4
    rel = [(x - cx, y - cy) for x, y in pts]
    # Image y grows downwards, so increasing atan2 is clockwise on screen.
    angles = [math.atan2(y, x) for x, y in rel]
    order = sorted(range(4), key=angles.__getitem__)
    if any(angles[order[k + 1]] - angles[order[k]] < 1e-9 for k in range(3)):
        # two points at (nearly) one angle from the centre, a degenerate outline: put in
        # numpy's order (its arctan2 may round otherwise, its sort order ties otherwise)
        order = np.argsort(np.arctan2(*np.asarray(rel, np.float64)[:, ::-1].T)).tolist()
    up = {
        "UP": (0.0, -1.0), "RIGHT": (1.0, 0.0), "DOWN": (0.0, 1.0), "LEFT": (-1.0, 0.0)
    }.get(orientation or "UP", (0.0, -1.0))
    # "left" is "up" turned a quarter anticlockwise on screen.
    tl_x, tl_y = up[0] + up[1], up[1] - up[0]
    toward = [rel[i][0] * tl_x + rel[i][1] * tl_y for i in order]
    start = toward.index(max(toward))
    a, b, c, d = (pts[order[(start + k) % 4]] for k in range(4))
    return (a, b, c, d)


class _Symbol(NamedTuple):
    """What :func:`_decode_gray` reads of a symbol zbar decoded (as pyzbar's ``Decoded``
    gives it)."""

    data: bytes
    polygon: list[Any]
    rect: Any
    orientation: str | None


_QR_ONLY: tuple[tuple[int, int, int], ...] = ()


def _qr_only(zb: Any) -> tuple[tuple[int, int, int], ...]:
    """The settings that leave a zbar scanner reading QR codes alone, as whole numbers
    (symbol, setting, value): every symbology pyzbar knows switched off in its order, but
    QR codes on (worked out once, and set whole: going through pyzbar's enumerations costs
    more than the calls)."""
    global _QR_ONLY
    if not _QR_ONLY:
        enable = int(zb.ZBarConfig.CFG_ENABLE)
        _QR_ONLY = tuple((int(symbol), enable, int(symbol == zb.ZBarSymbol.QRCODE))
                         for symbol in zb.ZBarSymbol)
    return _QR_ONLY


def _zbar_sparse(pyzbar: Any, gray: NDArray[Any], density: int) -> list[Any]:
    """``pyzbar.decode`` for QR codes alone, zbar scanning every ``density``-th row and
    column of ``gray`` for finder patterns (pyzbar sets no scan density; its ctypes calls
    do it here).  Made for windows round finder patterns found, a little larger than the
    code: every 2nd line read all 233 codes of 233 such windows (drawn frames, QR cards
    on tables) in 0.41 ms against 0.72, the corners placed within a pixel or so alike.
    A new scanner each time (one kept would carry what it saw into the next scan: a
    corner a pixel elsewhere, one window in a hundred), given the picture's own pixels
    (no copy), the symbols read as pyzbar reads them: their text, the hull of their
    points, its box and the orientation.  Empty where zbar's bindings are not as
    expected."""
    try:
        from pyzbar import wrapper as zb
        from pyzbar.locations import bounding_box, convex_hull

        pixels = np.ascontiguousarray(gray if gray.ndim == 2 else gray[:, :, 0], np.uint8)
        height, width = pixels.shape
        scanner = zb.zbar_image_scanner_create()
        if not scanner:
            return []
        try:
            for symbol, config, value in _qr_only(zb):
                zb.zbar_image_scanner_set_config(scanner, symbol, config, value)
            for axis in (zb.ZBarConfig.CFG_X_DENSITY, zb.ZBarConfig.CFG_Y_DENSITY):
                zb.zbar_image_scanner_set_config(scanner, 0, int(axis), density)
            image = zb.zbar_image_create()
            if not image:
                return []
            try:
                zb.zbar_image_set_format(image, pyzbar._FOURCC["L800"])
                zb.zbar_image_set_size(image, width, height)
                zb.zbar_image_set_data(image, pixels.ctypes.data, pixels.size, None)
                if zb.zbar_scan_image(scanner, image) < 0:
                    return []
                found: list[Any] = []
                turned = zb.zbar_symbol_get_orientation
                symbol = zb.zbar_image_first_symbol(image)
                while symbol:
                    data = ctypes.string_at(zb.zbar_symbol_get_data(symbol),
                                            zb.zbar_symbol_get_data_length(symbol))
                    polygon = convex_hull(
                        (zb.zbar_symbol_get_loc_x(symbol, i), zb.zbar_symbol_get_loc_y(symbol, i))
                        for i in range(zb.zbar_symbol_get_loc_size(symbol)))
                    way = zb.ZBarOrientation(turned(symbol)).name if turned else None
                    found.append(_Symbol(data, polygon, bounding_box(polygon), way))
                    symbol = zb.zbar_symbol_next(symbol)
                return found
            finally:
                zb.zbar_image_destroy(image)
        finally:
            zb.zbar_image_scanner_destroy(scanner)
    except (AttributeError, KeyError, TypeError, ValueError):
        return []


def _decode_gray(pyzbar: Any, gray: NDArray[Any], density: int = 1) -> list[_Raw]:
    """The QR codes zbar reads in ``gray``; with ``density`` over 1, scanning that sparser
    first (:func:`_zbar_sparse`), then every line where that reads none."""
    if gray.size == 0 or min(gray.shape[:2]) < 8:
        return []
    symbols = [pyzbar.ZBarSymbol.QRCODE]
    found = []
    decoded = _zbar_sparse(pyzbar, gray, density) if density > 1 else []
    for d in decoded or pyzbar.decode(gray, symbols=symbols):
        try:
            text = d.data.decode("utf-8")
        except UnicodeDecodeError:
            text = d.data.decode("latin-1")
        poly = [(float(p.x), float(p.y)) for p in d.polygon]
        if len(poly) < 3:
            r = d.rect
            poly = [
                (r.left, r.top), (r.left + r.width, r.top),
                (r.left + r.width, r.top + r.height), (r.left, r.top + r.height),
            ]
        found.append(_Raw(text, _order_corners(poly, getattr(d, "orientation", None))))
    return found


@dataclass(frozen=True)
class Finder:
    """A QR finder-pattern candidate: centre and side (pixels of the image searched)."""

    x: float
    y: float
    side: float


def finder_patterns(
    gray: NDArray[Any], block: int = 25, offset: int = 10, min_side: float = 5.0,
    blank: Sequence[NDArray[Any]] = (),
) -> list[Finder]:
    """Where ``gray`` shows a QR finder pattern: a dark square ring around a light ring
    around a dark square (7:5:3 modules across), found as three nested contours.

    Cheap (one adaptive threshold and one contour tree), so it can say whether a frame may
    hold a code before zbar, which costs some 25 ms on a 1280x720 frame, is asked.  Finder
    patterns have few look-alikes on playing cards; a false alarm costs time, not a reading.
    ``blank``: polygons (``gray`` pixels) already looked at, whose patterns the caller would
    drop: their ink is left out of the contour tree (a card's print is most of its cost).
    """
    if gray.size == 0 or min(gray.shape[:2]) < 16:
        return []
    blk = max(3, min(block | 1, (min(gray.shape[:2]) // 2) * 2 - 1))
    dark = cv2.adaptiveThreshold(
        gray, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, blk, offset
    )
    for p in blank:  # (one by one: polygons filled together leave their overlap unfilled)
        cv2.fillPoly(dark, [np.round(p).astype(np.int32).reshape(-1, 1, 2)], 0)
    contours, hier = cv2.findContours(dark, cv2.RETR_TREE, cv2.CHAIN_APPROX_SIMPLE)
    if hier is None:
        return []
    h = hier[0]
    child = h[:, 2]
    # a dark outline (i) whose hole (j) holds a dark blob (k)
    has = np.nonzero((child >= 0) & (child[np.maximum(child, 0)] >= 0))[0]
    out: list[Finder] = []
    for i in has.tolist():
        ci = contours[i]
        x, y, w, hh = cv2.boundingRect(ci)
        if min(w, hh) < min_side or max(w, hh) > 2.5 * min(w, hh):
            continue
        a_out = cv2.contourArea(ci)
        (_c, (rw, rh), _a) = cv2.minAreaRect(ci)
        if a_out < 0.75 * rw * rh:
            continue  # not a filled square outline
        j = int(child[i])
        while j >= 0:
            a_hole = cv2.contourArea(contours[j])
            # ideal areas 49 : 25 : 9 (modules); thin rings lose more to pixel edges
            if 0.3 * a_out < a_hole < 0.75 * a_out:
                k = int(child[j])
                while k >= 0:
                    a_in = cv2.contourArea(contours[k])
                    if 0.08 * a_out < a_in < 0.32 * a_out and 0.18 * a_hole < a_in < 0.62 * a_hole:
                        kx, ky, kw, kh = cv2.boundingRect(contours[k])
                        cx, cy = x + w / 2, y + hh / 2
                        if (
                            abs(kx + kw / 2 - cx) < 0.15 * w
                            and abs(ky + kh / 2 - cy) < 0.15 * hh
                            and a_in > 0.4 * kw * kh
                        ):
                            out.append(Finder(cx, cy, float(max(w, hh))))
                            break
                    k = int(h[k, 0])
            j = int(h[j, 0])
    return out


def _size(corners: Corners) -> float:
    xs = [p[0] for p in corners]
    ys = [p[1] for p in corners]
    return max(max(xs) - min(xs), max(ys) - min(ys), 1.0)


def _to_gray(image: NDArray[Any]) -> NDArray[Any]:
    if image.size == 0:
        return np.zeros((0, 0), np.uint8)
    if image.ndim == 3 and image.shape[2] >= 3:
        return cv2.cvtColor(np.ascontiguousarray(image[:, :, :3]), cv2.COLOR_BGR2GRAY)
    if image.ndim == 3:
        return np.ascontiguousarray(image[:, :, 0])
    return np.ascontiguousarray(image)


def _scaled(corners: Corners, factor: float) -> Corners:
    a, b, c, d = ((x * factor, y * factor) for x, y in corners)
    return (a, b, c, d)


def _map_points(h: NDArray[np.float64], corners: Corners) -> Corners:
    src = np.asarray(corners, dtype=np.float64).reshape(-1, 1, 2)
    dst = cv2.perspectiveTransform(src, h).reshape(-1, 2)
    return tuple((float(x), float(y)) for x, y in dst)  # type: ignore[return-value]


class QrReader:
    """Finds and decodes QR codes in frames; build once, call :meth:`read` per frame."""

    def __init__(self, config: QrConfig | None = None) -> None:
        self.config = config or QrConfig()
        self._pyzbar = _load_pyzbar()

    # -- passes ------------------------------------------------------------------------

    def read_crop(
        self, crop: NDArray[Any], corners: Sequence[Sequence[float]]
    ) -> list[CodeReading]:
        """Codes inside one upright card crop, with corners mapped to the frame.

        ``corners`` are the card's frame corners, clockwise from its top-left, matching the
        crop's top-left, top-right, bottom-right and bottom-left.
        """
        return self._read_crop(crop, corners, gated=False)

    def _read_crop(
        self, crop: NDArray[Any], corners: Sequence[Sequence[float]], gated: bool
    ) -> list[CodeReading]:
        gray = _to_gray(crop)
        h, w = gray.shape[:2]
        if h < 8 or w < 8 or len(corners) != 4:
            return []
        scale = 1.0
        if min(h, w) < self.config.crop_min_side:
            scale = self.config.crop_min_side / float(min(h, w))
            gray = cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
        if gated and not self._code_sites(gray):
            return []
        raws = _decode_gray(self._pyzbar, gray)
        if not raws and self.config.try_threshold:
            raws = _decode_gray(self._pyzbar, self._threshold(gray))
        if not raws:
            return []
        src = np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float32)
        dst = np.asarray(corners, dtype=np.float32).reshape(4, 2)
        homography = cv2.getPerspectiveTransform(src, dst).astype(np.float64)
        out = []
        for raw in raws:
            in_crop = _scaled(raw.corners, 1.0 / scale)
            out.append(CodeReading(raw.data, _map_points(homography, in_crop)))
        return out

    def read_quad(
        self, image: NDArray[Any], corners: Sequence[Sequence[float]], gated: bool = False
    ) -> list[CodeReading]:
        """Codes on a card given only its frame corners: the card is rectified here first.
        ``gated``: zbar runs only when finder patterns show in the card."""
        quad = np.asarray(corners, dtype=np.float32).reshape(4, 2)
        if image.size == 0:
            return []
        top = float(np.linalg.norm(quad[1] - quad[0]))
        side = float(np.linalg.norm(quad[3] - quad[0]))
        if top < 4 or side < 4:
            return []
        if gated:
            # zbar reads grey: warp the grey frame (a third of the work), and ask zbar only
            # when finder patterns show (most cards asked about are playing cards)
            gray = _to_gray(image)
            # the finder patterns are looked for at half the crop's size: warp straight to
            # that (a quarter of the pixels) and make the whole crop only when they show
            small = self._warp(gray, quad, top, side, self.config.crop_min_side, half=True)
            sites = self._code_sites(small, halved=True)
            if not sites:
                return []
            # most codes read in a window around their finder patterns at that half size,
            # a fraction of the pixels of the whole crop; the crop is the fallback
            quick = self._read_small_sites(small, sites, quad)
            if quick:
                return quick
            crop = self._warp(gray, quad, top, side, self.config.crop_min_side)
        else:
            crop = self._warp(image, quad, top, side, self.config.crop_min_side)
        return self._read_crop(crop, quad.tolist(), False)

    def _read_small_sites(
        self, small: NDArray[Any], sites: Sequence[tuple[int, int, int, int]],
        quad: NDArray[Any],
    ) -> list[CodeReading]:
        """Codes in the windows ``sites`` (pixels of twice ``small``'s size) of a half-size
        card crop ``small``, whose corners are the frame's ``quad``, mapped to the frame."""
        h, w = small.shape[:2]
        rect = np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float32)
        homography = cv2.getPerspectiveTransform(rect, quad).astype(np.float64)
        out: list[CodeReading] = []
        for x0, y0, x1, y1 in sites:
            sx0, sy0 = x0 // 2, y0 // 2
            win = np.ascontiguousarray(small[sy0 : (y1 + 1) // 2, sx0 : (x1 + 1) // 2])
            if min(win.shape[:2]) < 16:
                continue
            scale = 1.0
            if min(win.shape[:2]) < self.config.crop_min_side // 2:
                scale = (self.config.crop_min_side // 2) / float(min(win.shape[:2]))
                win = cv2.resize(win, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
            for raw in _decode_gray(self._pyzbar, win, density=2):
                in_small = tuple((x / scale + sx0, y / scale + sy0) for x, y in raw.corners)
                reading = CodeReading(raw.data, _map_points(homography, in_small))  # type: ignore[arg-type]
                out = self._merge(out, [reading])
        return out

    @staticmethod
    def _warp(
        image: NDArray[Any], quad: NDArray[Any], top: float, side: float, min_side: float,
        half: bool = False,
    ) -> NDArray[Any]:
        # Keep the card's own aspect but never shrink below what zbar needs.
        scale = max(1.0, min_side / min(top, side))
        w, h = int(round(top * scale)), int(round(side * scale))
        if half:  # the size cv2.pyrDown would make of it
            w, h = (w + 1) // 2, (h + 1) // 2
        src = np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float32)
        warp = cv2.getPerspectiveTransform(quad, src)
        return cv2.warpPerspective(image, warp, (w, h), flags=cv2.INTER_LINEAR)

    def read_frame(self, image: NDArray[Any]) -> list[CodeReading]:
        """Codes anywhere in the frame (no card detection needed)."""
        gray = _to_gray(image)
        if gray.size == 0 or min(gray.shape[:2]) < 8:
            return []
        found = [CodeReading(r.data, r.corners) for r in _decode_gray(self._pyzbar, gray)]
        cfg = self.config
        if cfg.try_upscale and max(gray.shape[:2]) <= cfg.upscale_max_side:
            big = cv2.resize(
                gray, None, fx=cfg.upscale_factor, fy=cfg.upscale_factor,
                interpolation=cv2.INTER_CUBIC,
            )
            for r in _decode_gray(self._pyzbar, big):
                mapped = _scaled(r.corners, 1.0 / cfg.upscale_factor)
                found = self._merge(found, [CodeReading(r.data, mapped)])
        # The thresholded pass costs half a plain pass again; it exists to rescue codes that
        # uneven light hides, so it only runs when nothing was found the plain way.
        if cfg.try_threshold and not (found and cfg.threshold_only_if_empty):
            binary = self._threshold(gray)
            extra = [CodeReading(r.data, r.corners) for r in _decode_gray(self._pyzbar, binary)]
            found = self._merge(found, extra)
        return [self._refine(gray, reading) for reading in found]

    def read(
        self,
        image: NDArray[Any],
        cards: Iterable[HasCrop] = (),
        quads: Iterable[Sequence[Sequence[float]]] = (),
        skip: Iterable[Sequence[Sequence[float]]] = (),
        gray: NDArray[Any] | None = None,
        known: Iterable[CodeReading] = (),
        elsewhere: bool = True,
    ) -> list[CodeReading]:
        """All codes in a frame: inside detected cards first, then anywhere else.

        ``cards`` are detections with ``corners`` and an upright ``crop`` (a
        ``CardQuad``); ``quads`` are bare corner lists that are rectified here; ``skip`` are
        quads known to hold no code (playing cards the recognizer named).  With
        ``frame_pass="finder"`` zbar looks only where QR finder patterns show: inside the
        cards and quads, and in the rest of the frame outside them all.  ``gray``: the frame in
        grey, when the caller has it (the recognizer does).  ``known``: codes read already
        (inside quads of ``skip``), counted among those found.  ``elsewhere``: whether the
        rest of the frame may hold a code (with ``frame_pass="finder"``: False where the
        caller knows that the cards and quads given cover every piece of paper in it).
        """
        found: list[CodeReading] = self._merge([], known)
        if image.size == 0:
            return found
        gated = self.config.frame_pass == "finder"
        looked: list[NDArray[Any]] = []
        for card in cards:
            corners = _corner_list(card.corners)
            crop = getattr(card, "crop", None)
            if crop is not None and getattr(crop, "size", 0) > 0:
                found = self._merge(found, self._read_crop(crop, corners, gated))
            else:
                found = self._merge(found, self.read_quad(image, corners, gated))
            looked.append(np.asarray(corners, np.float32).reshape(-1, 2))
        if not gated:
            gray = image
        elif gray is None or gray.shape[:2] != image.shape[:2]:
            gray = _to_gray(image)
        for quad in quads:
            # zbar reads grey anyway: warping the grey frame costs a third of the colour one
            found = self._merge(found, self.read_quad(gray, _corner_list(quad), gated))
            looked.append(np.asarray(quad, np.float32).reshape(-1, 2))
        if not gated:
            return self._merge(found, self.read_frame(image))
        if not elsewhere:
            return found
        # (float32 straight from the corners: the same numbers as by way of float64)
        looked += [np.asarray(q, np.float32).reshape(-1, 2) for q in skip]
        looked += [np.asarray(c.corners, np.float32) for c in found]
        return self._merge(found, self._read_sites(gray, looked))

    def _code_sites(
        self, gray: NDArray[Any], outside: Sequence[NDArray[Any]] = (), halved: bool = False
    ) -> list[tuple[int, int, int, int]]:
        """Boxes (x0, y0, x1, y1, pixels of ``gray``) that may hold a QR code: around two
        or more finder patterns of about one size, as far apart as one code's; patterns
        inside the polygons ``outside`` do not count.  ``halved``: ``gray`` is the picture
        at half size already (boxes and ``outside`` are then in twice its pixels)."""
        cfg = self.config
        small = gray if halved else cv2.pyrDown(gray)
        blank = []
        inset = cfg.finder_blank_inset
        for p in outside:
            # (plain floats: numpy's reductions cost more than they save on four points,
            # a dozen times a frame)
            q = (np.asarray(p, np.float32).reshape(-1, 2) * 0.5).tolist()
            xs, ys = [x for x, _ in q], [y for _, y in q]
            size = min(max(xs) - min(xs), max(ys) - min(ys))
            if size > 8 * inset:
                cx, cy = sum(xs) / len(q), sum(ys) / len(q)
                k = 1.0 - 2 * inset / size
                blank.append(np.array([(cx + (x - cx) * k, cy + (y - cy) * k) for x, y in q],
                                      np.float32))
        pats = finder_patterns(small, cfg.finder_block, cfg.finder_offset, cfg.finder_min_side,
                               blank)
        pts: list[tuple[float, float, float]] = []
        for f in pats:
            x, y, side = 2.0 * f.x, 2.0 * f.y, 2.0 * f.side
            if any(cv2.pointPolygonTest(p.reshape(-1, 1, 2), (x, y), False) >= 0
                   for p in outside):
                continue
            # the same pattern found twice (nested outlines of one finder)
            if any(math.hypot(x - q[0], y - q[1]) < 0.3 * max(side, q[2]) for q in pts):
                continue
            pts.append((x, y, side))
        lo, hi = cfg.finder_pair_distance
        parent = list(range(len(pts)))

        def root(i: int) -> int:
            while parent[i] != i:
                i = parent[i]
            return i

        paired: set[int] = set()
        for i, (xi, yi, si) in enumerate(pts):
            for j in range(i + 1, len(pts)):
                xj, yj, sj = pts[j]
                side = 0.5 * (si + sj)
                if max(si, sj) > 1.7 * min(si, sj):
                    continue
                if lo * side <= math.hypot(xi - xj, yi - yj) <= hi * side:
                    parent[root(j)] = root(i)
                    paired.update((i, j))
        groups: dict[int, list[int]] = {}
        for i in paired:
            groups.setdefault(root(i), []).append(i)
        h, w = (2 * small.shape[0], 2 * small.shape[1]) if halved else gray.shape[:2]
        boxes = []
        for members in groups.values():
            xs = [pts[i][0] for i in members]
            ys = [pts[i][1] for i in members]
            side = max(pts[i][2] for i in members)
            span = max(max(xs) - min(xs), max(ys) - min(ys))
            # three patterns mark the code's corners; with two the third may lie either way
            pad = 1.3 * side if len(members) >= 3 else span + 1.3 * side
            boxes.append((max(0, int(min(xs) - pad)), max(0, int(min(ys) - pad)),
                          min(w, int(max(xs) + pad) + 1), min(h, int(max(ys) + pad) + 1)))
        return boxes

    def _read_sites(
        self, image: NDArray[Any], outside: Sequence[NDArray[Any]]
    ) -> list[CodeReading]:
        """Codes around finder patterns of the frame that lie outside ``outside``."""
        gray = _to_gray(image)
        if gray.size == 0 or min(gray.shape[:2]) < 16:
            return []
        found: list[CodeReading] = []
        for x0, y0, x1, y1 in self._code_sites(gray, outside):
            win = np.ascontiguousarray(gray[y0:y1, x0:x1])
            scale = 1.0
            if min(win.shape[:2]) < self.config.crop_min_side // 2:
                # zbar misses codes that fill a small window; give it room
                scale = (self.config.crop_min_side // 2) / float(min(win.shape[:2]))
                win = cv2.resize(win, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
            raws = _decode_gray(self._pyzbar, win)
            if not raws and self.config.try_threshold:
                raws = _decode_gray(self._pyzbar, self._threshold(win))
            for r in raws:
                corners = tuple((x / scale + x0, y / scale + y0) for x, y in r.corners)
                reading = CodeReading(r.data, corners)  # type: ignore[arg-type]
                found = self._merge(found, [self._refine(gray, reading)])
        return found

    # -- helpers -----------------------------------------------------------------------

    def _refine(self, gray: NDArray[Any], reading: CodeReading) -> CodeReading:
        """Re-read a frame-level code in a patch rectified along its own outline.

        zbar's orientation is quantised to quarter turns, so for a code turned near 45 degrees
        (or seen at a slant) the top-left corner picked from the frame pass can be wrong. In
        the rectified patch the code sits square to the axes, where the quantised
        orientation is exact; the corners then map back through the patch's homography.
        """
        pts = np.asarray(reading.corners, dtype=np.float64)
        centre = pts.mean(axis=0)
        quad = centre + (pts - centre) * self.config.refine_margin
        for better in self.read_quad(gray, quad.tolist()):
            if better.data == reading.data:
                return better
        return reading

    def _threshold(self, gray: NDArray[Any]) -> NDArray[Any]:
        block = self.config.threshold_block | 1
        block = max(3, min(block, (min(gray.shape[:2]) // 2) * 2 - 1))
        return cv2.adaptiveThreshold(
            gray, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY, block, self.config.threshold_c
        )

    def _merge(self, have: list[CodeReading], new: Iterable[CodeReading]) -> list[CodeReading]:
        out = list(have)
        for cand in new:
            if not any(self._same(cand, old) for old in out):
                out.append(cand)
        return out

    def _same(self, a: CodeReading, b: CodeReading) -> bool:
        if a.data != b.data:
            return False
        (ax, ay), (bx, by) = a.centre, b.centre
        limit = self.config.same_code_distance * max(_size(a.corners), _size(b.corners))
        return math.hypot(ax - bx, ay - by) <= limit


def _corner_list(corners: Any) -> list[list[float]]:
    arr = np.asarray(corners, dtype=np.float64).reshape(-1, 2)
    return arr.tolist()

