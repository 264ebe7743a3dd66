"""The printed board: its layout, its fiducials, the frame<->board homography and the zones.

A board layout (``calibration/sinbad-board.toml``) is in millimetres, origin top-left, x right,
y down. It names zones (rectangles or polygons, where a card's *centre* must lie) and four
fiducials: QR codes printed near the corners whose text (``board:sinbad:tl`` ...) says which
corner they are. A frame's QR readings of those codes give 16 point pairs (four corners each),
from which :func:`estimate_homography` fits the board->frame homography.

An estimation that fails returns a falsy :class:`HomographyFit` that carries the reason; it
never hands out a garbage homography. :class:`BoardTracker` keeps the last good fit and a
saved calibration (``python -m vision.board calibrate``) for frames whose fiducials are covered
by cards or hands.

    python -m vision.board check calibration/sinbad-board.toml
    python -m vision.board print calibration/sinbad-board.toml board.svg [--png board.png]
    python -m vision.board calibrate 0 --layout calibration/sinbad-board.toml \\
        --out calibration/my-table.json
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

Point = tuple[float, float]
Matrix = NDArray[np.float64]
Image = NDArray[Any]

DEFAULT_LAYOUT = Path(__file__).resolve().parent.parent / "calibration" / "sinbad-board.toml"

# The zone names the game side understands (vision.watch passes any other name through).
GAME_ZONES = ("jaffar", "path:1", "path:2", "path:3", "path:4", "bank", "budge", "event",
              "draw", "jaffar_deck", "table")
OFF_ZONE = "table"
FIDUCIAL_PREFIX = "board:"


class LayoutError(ValueError):
    """A board layout file that is missing or breaks the format; names file, key and value."""


class CalibrationError(ValueError):
    """A calibration file that is missing, unreadable or made for another layout."""


# -- layout --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Zone:
    name: str
    label: str
    polygon: tuple[Point, ...]

    def contains(self, point: Point) -> bool:
        return _inside(point, self.polygon)

    @property
    def centre(self) -> Point:
        xs, ys = zip(*self.polygon, strict=True)
        return (sum(xs) / len(xs), sum(ys) / len(ys))

    @property
    def bounds(self) -> tuple[float, float, float, float]:
        """``(x0, y0, x1, y1)`` of the zone's bounding box, mm."""
        xs, ys = zip(*self.polygon, strict=True)
        return (min(xs), min(ys), max(xs), max(ys))


@dataclass(frozen=True)
class Fiducial:
    """A QR code on the board: its text, centre and symbol side (no quiet zone), mm."""

    text: str
    center: Point
    size: float

    @property
    def corners(self) -> tuple[Point, Point, Point, Point]:
        """Symbol corners clockwise from top-left: the order the QR reader reports them."""
        x, y, h = self.center[0], self.center[1], self.size / 2
        return ((x - h, y - h), (x + h, y - h), (x + h, y + h), (x - h, y + h))

    @property
    def corner_name(self) -> str:
        return self.text.rsplit(":", 1)[-1]


@dataclass(frozen=True)
class Layout:
    name: str
    title: str
    size: tuple[float, float]
    zones: tuple[Zone, ...]
    fiducials: tuple[Fiducial, ...]
    colours: dict[str, str] = field(default_factory=dict, compare=False, hash=False)
    source: str = ""
    # Title position [x centre, baseline] and cap height, mm; None: centred above the zones.
    title_at: Point | None = None
    title_size: float = 8.0

    def zone_at(self, point: Point) -> str:
        """The first zone holding ``point`` (board mm), else ``"table"``."""
        for zone in self.zones:
            if zone.contains(point):
                return zone.name
        return OFF_ZONE

    def zone(self, name: str) -> Zone:
        for zone in self.zones:
            if zone.name == name:
                return zone
        raise KeyError(f"{self.source or self.name}: no zone named {name!r}; zones: "
                       + ", ".join(z.name for z in self.zones))

    def on_board(self, point: Point) -> bool:
        return 0.0 <= point[0] <= self.size[0] and 0.0 <= point[1] <= self.size[1]

    def fiducial(self, text: str) -> Fiducial | None:
        for f in self.fiducials:
            if f.text == text:
                return f
        return None


_COLOUR_KEYS = {"background": "#1c3a44", "zone_fill": "#24505c", "outline": "#c7a24a",
                "ink": "#d9cfae"}


def load_layout(path: str | Path | None = None) -> Layout:
    """Read and validate a board layout TOML file (the bundled Sinbad board by default)."""
    p = Path(path) if path is not None else DEFAULT_LAYOUT
    if not p.exists():
        raise LayoutError(f"{p}: no such layout file (the bundled one is {DEFAULT_LAYOUT})")
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise LayoutError(f"{p}: cannot be read ({exc})") from None
    except tomllib.TOMLDecodeError as exc:
        raise LayoutError(f"{p}: not valid TOML ({exc})") from None
    return parse_layout(data, str(p))


def parse_layout(data: dict[str, Any], source: str = "<layout>") -> Layout:
    """A :class:`Layout` from parsed TOML; :class:`LayoutError` names source, key and value."""

    def fail(key: str, problem: str, value: object) -> LayoutError:
        return LayoutError(f"{source}: {key}: {problem} (got {value!r})")

    def number(key: str, value: object, *, positive: bool = False) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise fail(key, "expected a number", value)
        if not math.isfinite(value) or (positive and value <= 0):
            raise fail(key, "expected a positive number" if positive else "not finite", value)
        return float(value)

    def point(key: str, value: object) -> Point:
        if not isinstance(value, list) or len(value) != 2:
            raise fail(key, "expected [x, y] in mm", value)
        return (number(f"{key}[0]", value[0]), number(f"{key}[1]", value[1]))

    if not isinstance(data, dict):
        raise fail("(top)", "expected a table", data)
    name = data.get("name", Path(source).stem)
    if not isinstance(name, str) or not name:
        raise fail("name", "expected a non-empty string", name)
    title = data.get("title", name)
    if not isinstance(title, str):
        raise fail("title", "expected a string", title)
    size_raw = data.get("size")
    if not isinstance(size_raw, list) or len(size_raw) != 2:
        raise fail("size", "expected [width, height] in mm", size_raw)
    size = (number("size[0]", size_raw[0], positive=True),
            number("size[1]", size_raw[1], positive=True))

    def within(key: str, pt: Point) -> Point:
        if not (0 <= pt[0] <= size[0] and 0 <= pt[1] <= size[1]):
            raise fail(key, f"outside the {size[0]:g} x {size[1]:g} mm board", list(pt))
        return pt

    zones_raw = data.get("zones")
    if not isinstance(zones_raw, list) or not zones_raw:
        raise fail("zones", "expected at least one [[zones]] table", zones_raw)
    zones: list[Zone] = []
    for i, z in enumerate(zones_raw):
        key = f"zones[{i}]"
        if not isinstance(z, dict):
            raise fail(key, "expected a table", z)
        zname = z.get("name")
        if not isinstance(zname, str) or not zname:
            raise fail(f"{key}.name", "expected a non-empty string", zname)
        if zname == OFF_ZONE:
            raise fail(f"{key}.name", f"{OFF_ZONE!r} is what lies outside every zone", zname)
        if any(other.name == zname for other in zones):
            raise fail(f"{key}.name", "zone names must be unique", zname)
        label = z.get("label", zname)
        if not isinstance(label, str):
            raise fail(f"{key}.label", "expected a string", label)
        if ("rect" in z) == ("polygon" in z):
            raise fail(key, "give exactly one of rect = [x, y, w, h] or polygon = [[x, y], ...]",
                       sorted(z))
        if "rect" in z:
            r = z["rect"]
            if not isinstance(r, list) or len(r) != 4:
                raise fail(f"{key}.rect", "expected [x, y, width, height] in mm", r)
            x = number(f"{key}.rect[0]", r[0])
            y = number(f"{key}.rect[1]", r[1])
            w = number(f"{key}.rect[2]", r[2], positive=True)
            h = number(f"{key}.rect[3]", r[3], positive=True)
            poly: tuple[Point, ...] = ((x, y), (x + w, y), (x + w, y + h), (x, y + h))
            for pt in poly:
                within(f"{key}.rect", pt)
        else:
            pr = z["polygon"]
            if not isinstance(pr, list) or len(pr) < 3:
                raise fail(f"{key}.polygon", "expected at least three [x, y] points", pr)
            poly = tuple(within(f"{key}.polygon[{j}]", point(f"{key}.polygon[{j}]", v))
                         for j, v in enumerate(pr))
            if _poly_area(poly) < 1.0:
                raise fail(f"{key}.polygon", "the polygon has no area", pr)
        zones.append(Zone(zname, label, poly))

    fids_raw = data.get("fiducials")
    if not isinstance(fids_raw, list) or len(fids_raw) < 3:
        raise fail("fiducials", "expected at least three [[fiducials]] (four corners)",
                   fids_raw if not isinstance(fids_raw, list) else len(fids_raw))
    fids: list[Fiducial] = []
    for i, f in enumerate(fids_raw):
        key = f"fiducials[{i}]"
        if not isinstance(f, dict):
            raise fail(key, "expected a table", f)
        text = f.get("text")
        if not isinstance(text, str) or not text.startswith(FIDUCIAL_PREFIX):
            raise fail(f"{key}.text", f"expected a QR text starting with {FIDUCIAL_PREFIX!r}",
                       text)
        if any(o.text == text for o in fids):
            raise fail(f"{key}.text", "fiducial texts must be unique", text)
        centre = within(f"{key}.center", point(f"{key}.center", f.get("center")))
        side = number(f"{key}.size", f.get("size"), positive=True)
        fid = Fiducial(text, centre, side)
        for c in fid.corners:
            within(f"{key}.size", c)
        fids.append(fid)
    centres = [f.center for f in fids]
    if _spread(centres) < 0.05 * size[0] * size[1]:
        raise fail("fiducials", "the fiducials lie nearly on one line; put them near the "
                   "board's corners", [list(c) for c in centres])

    colours = {}
    for k, default in _COLOUR_KEYS.items():
        v = data.get(k, default)
        if not isinstance(v, str) or not _is_hex_colour(v):
            raise fail(k, "expected a colour like '#1c3a44'", v)
        colours[k] = v
    title_at = None
    if "title_at" in data:
        title_at = within("title_at", point("title_at", data["title_at"]))
    title_size = number("title_size", data.get("title_size", 8.0), positive=True)
    return Layout(name, title, size, tuple(zones), tuple(fids), colours, source, title_at,
                  title_size)


def _is_hex_colour(v: str) -> bool:
    return len(v) == 7 and v[0] == "#" and all(c in "0123456789abcdefABCDEF" for c in v[1:])


def _poly_area(poly: Sequence[Point]) -> float:
    s = 0.0
    for (x0, y0), (x1, y1) in zip(poly, list(poly[1:]) + [poly[0]], strict=True):
        s += x0 * y1 - x1 * y0
    return abs(s) / 2.0


def _spread(points: Sequence[Point]) -> float:
    """Area of the largest triangle of the points: zero when they are collinear."""
    best = 0.0
    n = len(points)
    for i in range(n):
        for j in range(i + 1, n):
            for k in range(j + 1, n):
                best = max(best, _poly_area([points[i], points[j], points[k]]))
    return best


def _inside(point: Point, polygon: Sequence[Point]) -> bool:
    # Even-odd ray casting; points on an edge count as inside (cards straddle outlines).
    x, y = point
    inside = False
    n = len(polygon)
    for i in range(n):
        (x0, y0), (x1, y1) = polygon[i], polygon[(i + 1) % n]
        if _on_segment(x, y, x0, y0, x1, y1):
            return True
        if (y0 > y) != (y1 > y):
            xc = x0 + (y - y0) * (x1 - x0) / (y1 - y0)
            if xc > x:
                inside = not inside
    return inside


def _on_segment(x: float, y: float, x0: float, y0: float, x1: float, y1: float) -> bool:
    cross = (x1 - x0) * (y - y0) - (y1 - y0) * (x - x0)
    if abs(cross) > 1e-9 * max(1.0, math.hypot(x1 - x0, y1 - y0)):
        return False
    return min(x0, x1) - 1e-9 <= x <= max(x0, x1) + 1e-9 and \
        min(y0, y1) - 1e-9 <= y <= max(y0, y1) + 1e-9


# -- homography ----------------------------------------------------------------------------


@dataclass(frozen=True)
class HomographyConfig:
    """Tunables of the board fit."""

    # Fiducials a fit needs. Three corner codes (12 points spread over the board) determine
    # the board as well as four; asking for four would drop every frame in which one hand or
    # card covers one corner.
    min_fiducials: int = 3
    # RANSAC inlier threshold, frame pixels.
    ransac_px: float = 4.0
    # A fit whose RMS error (fiducial corners mapped back onto the board) exceeds this, mm,
    # is refused: it means a misread corner order or a bent/lifted board.
    max_error_mm: float = 4.0
    # The board must cover at least this many frame pixels; anything smaller cannot be read.
    min_board_px: float = 4000.0


@dataclass(frozen=True)
class HomographyFit:
    """A board->frame homography, or (falsy) the reason there is none."""

    board_to_frame: Matrix | None
    reason: str = ""
    error_mm: float = math.inf
    fiducials: tuple[str, ...] = ()
    source: str = "frame"  # "frame", "last good", "calibration"

    def __bool__(self) -> bool:
        return self.board_to_frame is not None

    @property
    def frame_to_board(self) -> Matrix:
        if self.board_to_frame is None:
            raise ValueError(f"no board homography: {self.reason}")
        inv = np.linalg.inv(self.board_to_frame).astype(np.float64)
        return inv

    def to_board(self, points: Sequence[Point]) -> list[Point]:
        return _apply(self.frame_to_board, points)

    def to_frame(self, points: Sequence[Point]) -> list[Point]:
        if self.board_to_frame is None:
            raise ValueError(f"no board homography: {self.reason}")
        return _apply(self.board_to_frame, points)

    @classmethod
    def failed(cls, reason: str, fiducials: Sequence[str] = ()) -> HomographyFit:
        return cls(None, reason, math.inf, tuple(fiducials))


def _apply(h: Matrix, points: Sequence[Point]) -> list[Point]:
    if not len(points):
        return []
    src = np.asarray(points, np.float64).reshape(-1, 1, 2)
    dst = cv2.perspectiveTransform(src, h).reshape(-1, 2)
    return [(float(x), float(y)) for x, y in dst]


def estimate_homography(
    layout: Layout,
    codes: Iterable[tuple[str, Sequence[Point]]],
    config: HomographyConfig | None = None,
) -> HomographyFit:
    """Fit board->frame from QR readings ``(text, four frame corners clockwise from TL)``.

    Readings that are not this layout's fiducials are ignored. Returns a falsy fit, with the
    reason, for too few fiducials, collinear ones, a mirrored or collapsed mapping, or a
    reprojection error above ``config.max_error_mm``.
    """
    cfg = config or HomographyConfig()
    board_pts: list[Point] = []
    frame_pts: list[Point] = []
    used: list[str] = []
    for text, corners in codes:
        fid = layout.fiducial(text)
        if fid is None or text in used or len(corners) != 4:
            continue
        used.append(text)
        board_pts.extend(fid.corners)
        frame_pts.extend((float(x), float(y)) for x, y in corners)
    names = tuple(sorted(used))
    need = max(1, cfg.min_fiducials)
    if len(used) < need:
        seen = ", ".join(layout.fiducial(u).corner_name for u in used  # type: ignore[union-attr]
                         ) or "none"
        return HomographyFit.failed(
            f"saw {len(used)} of {len(layout.fiducials)} board fiducials ({seen}); need {need}",
            names)
    centres = [layout.fiducial(u).center for u in used]  # type: ignore[union-attr]
    if len(used) >= 3 and _spread(centres) < 0.05 * layout.size[0] * layout.size[1]:
        return HomographyFit.failed("the fiducials seen lie on one line", names)
    src = np.asarray(board_pts, np.float64)
    dst = np.asarray(frame_pts, np.float64)
    if not np.all(np.isfinite(dst)):
        return HomographyFit.failed("a fiducial corner is not a finite number", names)
    h, _mask = cv2.findHomography(src, dst, cv2.RANSAC, cfg.ransac_px)
    if h is None or not np.all(np.isfinite(h)) or abs(float(h[2, 2])) < 1e-12:
        return HomographyFit.failed("no homography fits the fiducial corners", names)
    h = (h / h[2, 2]).astype(np.float64)
    w, hh = layout.size
    outline = _apply(h, [(0, 0), (w, 0), (w, hh), (0, hh)])
    if not _convex_clockwise(outline):
        return HomographyFit.failed("the fit maps the board to a folded or mirrored shape "
                                    "(fiducials misread or in the wrong places)", names)
    if _poly_area(outline) < cfg.min_board_px:
        return HomographyFit.failed(
            f"the board would cover only {_poly_area(outline):.0f} frame pixels", names)
    try:
        back = _apply(np.linalg.inv(h), frame_pts)
    except np.linalg.LinAlgError:
        return HomographyFit.failed("the fit cannot be inverted", names)
    err = math.sqrt(sum((bx - sx) ** 2 + (by - sy) ** 2
                        for (bx, by), (sx, sy) in zip(back, board_pts, strict=True))
                    / len(board_pts))
    if not err <= cfg.max_error_mm:
        return HomographyFit(None, f"reprojection error {err:.1f} mm exceeds "
                             f"{cfg.max_error_mm:g} mm", err, names)
    return HomographyFit(h, "", err, names)


def _convex_clockwise(poly: Sequence[Point]) -> bool:
    """Convex and clockwise on screen (y down): how an unmirrored board must look."""
    n = len(poly)
    for i in range(n):
        (x0, y0), (x1, y1), (x2, y2) = poly[i], poly[(i + 1) % n], poly[(i + 2) % n]
        if (x1 - x0) * (y2 - y1) - (y1 - y0) * (x2 - x1) <= 0:
            return False
    return True


# -- calibration files ---------------------------------------------------------------------


def save_calibration(path: str | Path, layout: Layout, fit: HomographyFit,
                     frame_size: tuple[int, int], source: str = "") -> Path:
    """Write a fixed camera's board homography as JSON (see :func:`load_calibration`)."""
    if not fit or fit.board_to_frame is None:
        raise CalibrationError(f"{path}: nothing to save: {fit.reason}")
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    data = {
        "layout": layout.name,
        "board_to_frame": [[float(v) for v in row] for row in fit.board_to_frame],
        "frame_size": [int(frame_size[0]), int(frame_size[1])],
        "error_mm": round(fit.error_mm, 3),
        "fiducials": list(fit.fiducials),
        "source": source,
        "saved": time.strftime("%Y-%m-%dT%H:%M:%S"),
    }
    p.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    return p


@dataclass(frozen=True)
class Calibration:
    fit: HomographyFit
    frame_size: tuple[int, int]
    layout: str


def load_calibration(path: str | Path, layout: Layout | None = None) -> Calibration:
    p = Path(path)
    if not p.exists():
        raise CalibrationError(f"{p}: no such calibration file (make one with: python -m "
                               f"vision.board calibrate SOURCE --out {p})")
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
        h = np.asarray(data["board_to_frame"], np.float64)
        size = (int(data["frame_size"][0]), int(data["frame_size"][1]))
        name = str(data["layout"])
    except (OSError, ValueError, KeyError, TypeError, IndexError) as exc:
        raise CalibrationError(f"{p}: not a board calibration ({type(exc).__name__}: {exc})"
                               ) from None
    if h.shape != (3, 3) or not np.all(np.isfinite(h)) or abs(np.linalg.det(h)) < 1e-12:
        raise CalibrationError(f"{p}: board_to_frame is not an invertible 3x3 matrix")
    if layout is not None and name != layout.name:
        raise CalibrationError(f"{p}: made for board {name!r}, not {layout.name!r}")
    fit = HomographyFit(h, "", float(data.get("error_mm", 0.0)),
                        tuple(data.get("fiducials", ())), "calibration")
    return Calibration(fit, size, name)


# -- tracking the board over frames ---------------------------------------------------------


class BoardTracker:
    """The board mapping of one camera over time (mutable running state).

    Each frame's fiducials give a fresh fit when enough are visible; otherwise the last good
    fit stands in, and before any, a saved calibration. A frame of another size than the
    calibration's is scaled (the same camera at another resolution).
    """

    def __init__(self, layout: Layout, calibration: Calibration | None = None,
                 config: HomographyConfig | None = None) -> None:
        self.layout = layout
        self.config = config or HomographyConfig()
        self.calibration = calibration
        self.last_good: HomographyFit | None = None
        self.last_reason = "no frame yet"

    def update(self, codes: Iterable[tuple[str, Sequence[Point]]],
               frame_size: tuple[int, int]) -> HomographyFit:
        fit = estimate_homography(self.layout, codes, self.config)
        if fit:
            self.last_good = fit
            return fit
        self.last_reason = fit.reason
        if self.last_good is not None and self.last_good.board_to_frame is not None:
            return HomographyFit(self.last_good.board_to_frame, fit.reason,
                                 self.last_good.error_mm, self.last_good.fiducials, "last good")
        if self.calibration is not None and self.calibration.fit.board_to_frame is not None:
            h = self.calibration.fit.board_to_frame
            cw, ch = self.calibration.frame_size
            if (cw, ch) != frame_size and cw > 0 and ch > 0:
                scale = np.diag([frame_size[0] / cw, frame_size[1] / ch, 1.0])
                h = scale @ h
            return HomographyFit(h, fit.reason, self.calibration.fit.error_mm,
                                 self.calibration.fit.fiducials, "calibration")
        return fit


# -- drawing the board ---------------------------------------------------------------------


@dataclass(frozen=True)
class _Rect:
    x: float
    y: float
    w: float
    h: float
    fill: str | None
    stroke: str | None = None
    width: float = 0.0


@dataclass(frozen=True)
class _Poly:
    points: tuple[Point, ...]
    fill: str | None
    stroke: str | None = None
    width: float = 0.0


@dataclass(frozen=True)
class _Text:
    x: float  # centre
    y: float  # baseline
    text: str
    size: float  # cap height, mm
    colour: str


@dataclass(frozen=True)
class _Qr:
    text: str
    x: float
    y: float
    size: float


Shape = _Rect | _Poly | _Text | _Qr

# QR quiet zone around each fiducial, in modules: zbar reads with two, the standard asks four.
_QUIET_MODULES = 3


def qr_modules(text: str) -> NDArray[np.uint8]:
    """The QR symbol for a fiducial text, 0/1 modules, no quiet zone.

    Error level L keeps ``board:sinbad:tl`` at version 1 (21 modules): the biggest modules
    for the printed size, which is what a distant webcam needs.
    """
    import segno

    qr = segno.make(text, error="l", boost_error=False, micro=False)
    return np.array(qr.matrix, dtype=np.uint8)


def board_shapes(layout: Layout) -> list[Shape]:
    """Everything printed on the board, in mm, back to front."""
    c = layout.colours
    w, h = layout.size
    shapes: list[Shape] = [_Rect(0, 0, w, h, c["background"])]
    for zone in layout.zones:
        shapes.append(_Poly(zone.polygon, c["zone_fill"], c["outline"], 1.2))
        x0, y0, x1, y1 = zone.bounds
        words = zone.label.split()
        # Big labels fill the zone's width; long labels break over two lines.
        lines = [zone.label] if len(zone.label) <= 10 or len(words) == 1 else \
            [" ".join(words[: len(words) // 2 + len(words) % 2]),
             " ".join(words[len(words) // 2 + len(words) % 2:])]
        longest = max(len(s) for s in lines)
        size = min(11.0, 0.9 * (x1 - x0) / max(1, longest) / 0.75)
        cy = (y0 + y1) / 2 - (len(lines) - 1) * size * 0.8
        for i, line in enumerate(lines):
            shapes.append(_Text((x0 + x1) / 2, cy + size / 2 + i * size * 1.6, line, size,
                                c["ink"]))
    for fid in layout.fiducials:
        n = qr_modules(fid.text).shape[0]
        quiet = fid.size / n * _QUIET_MODULES
        x0, y0 = fid.center[0] - fid.size / 2, fid.center[1] - fid.size / 2
        shapes.append(_Rect(x0 - quiet, y0 - quiet, fid.size + 2 * quiet,
                            fid.size + 2 * quiet, "#ffffff"))
        shapes.append(_Qr(fid.text, x0, y0, fid.size))
    if layout.title_at is not None:
        shapes.append(_Text(*layout.title_at, layout.title, layout.title_size, c["outline"]))
    else:
        top = min((z.bounds[1] for z in layout.zones), default=h * 0.1)
        if top >= 12:
            shapes.append(_Text(w / 2, top - 4, layout.title, min(layout.title_size, top - 9),
                                c["ink"]))
    return shapes


def board_svg(layout: Layout) -> str:
    """The printable board as an SVG document, sized in mm (print at 100 %)."""
    w, h = layout.size
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:g}mm" height="{h:g}mm" '
        f'viewBox="0 0 {w:g} {h:g}">',
        f"<title>{escape(layout.title)}: printable board (print at 100 %, A3)</title>",
    ]
    for s in board_shapes(layout):
        if isinstance(s, _Rect):
            out.append(f'<rect x="{s.x:g}" y="{s.y:g}" width="{s.w:g}" height="{s.h:g}" '
                       + _svg_paint(s.fill, s.stroke, s.width) + "/>")
        elif isinstance(s, _Poly):
            pts = " ".join(f"{x:g},{y:g}" for x, y in s.points)
            out.append(f'<polygon points="{pts}" ' + _svg_paint(s.fill, s.stroke, s.width)
                       + "/>")
        elif isinstance(s, _Text):
            # Font size in SVG is the em box; cap height is about 0.72 em for sans fonts.
            out.append(f'<text x="{s.x:g}" y="{s.y:g}" font-family="DejaVu Sans, Arial, '
                       f'sans-serif" font-weight="bold" font-size="{s.size / 0.72:.2f}" '
                       f'text-anchor="middle" fill="{s.colour}">{escape(s.text)}</text>')
        else:
            m = qr_modules(s.text)
            px = s.size / m.shape[0]
            d = "".join(f"M{s.x + c * px:.3f} {s.y + r * px:.3f}h{px:.3f}v{px:.3f}h-{px:.3f}z"
                        for r, c in zip(*np.nonzero(m), strict=True))
            out.append(f'<path d="{d}" fill="#000000"><title>{escape(s.text)}</title></path>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _svg_paint(fill: str | None, stroke: str | None, width: float) -> str:
    paint = f'fill="{fill}"' if fill else 'fill="none"'
    if stroke:
        paint += f' stroke="{stroke}" stroke-width="{width:g}"'
    return paint


def _bgr(colour: str) -> tuple[int, int, int]:
    return (int(colour[5:7], 16), int(colour[3:5], 16), int(colour[1:3], 16))


def render_board(layout: Layout, px_per_mm: float = 4.0) -> Image:
    """The board as a BGR ``uint8`` image, ``round(size * px_per_mm)`` pixels."""
    w, h = layout.size
    k = px_per_mm
    img = np.zeros((int(round(h * k)), int(round(w * k)), 3), np.uint8)
    shift = 4
    f = 1 << shift

    def pts(points: Sequence[Point]) -> NDArray[np.int32]:
        return np.round(np.asarray(points, np.float64) * k * f).astype(np.int32).reshape(-1, 1, 2)

    for s in board_shapes(layout):
        if isinstance(s, _Rect | _Poly):
            poly = ((s.x, s.y), (s.x + s.w, s.y), (s.x + s.w, s.y + s.h), (s.x, s.y + s.h)) \
                if isinstance(s, _Rect) else s.points
            if s.fill:
                cv2.fillPoly(img, [pts(poly)], _bgr(s.fill), cv2.LINE_AA, shift)
            if s.stroke:
                cv2.polylines(img, [pts(poly)], True, _bgr(s.stroke),
                              max(1, int(round(s.width * k))), cv2.LINE_AA, shift)
        elif isinstance(s, _Text):
            font = cv2.FONT_HERSHEY_DUPLEX
            (_tw, th), _ = cv2.getTextSize(s.text, font, 1.0, 2)
            scale = s.size * k / th
            thick = max(1, int(round(scale * 1.4)))
            (tw, _th), _ = cv2.getTextSize(s.text, font, scale, thick)
            cv2.putText(img, s.text, (int(round(s.x * k - tw / 2)), int(round(s.y * k))), font,
                        scale, _bgr(s.colour), thick, cv2.LINE_AA)
        else:
            m = qr_modules(s.text)
            x0, y0 = int(round(s.x * k)), int(round(s.y * k))
            side = int(round(s.size * k))
            sym = cv2.resize(np.where(m == 1, 0, 255).astype(np.uint8), (side, side),
                             interpolation=cv2.INTER_NEAREST)
            img[y0:y0 + side, x0:x0 + side] = sym[:, :, None]
    return img


# -- command line ----------------------------------------------------------------------------


def _cmd_check(args: argparse.Namespace) -> int:
    layout = load_layout(args.layout)
    print(f"{args.layout}: board {layout.name!r} {layout.size[0]:g} x {layout.size[1]:g} mm, "
          f"{len(layout.zones)} zones ({', '.join(z.name for z in layout.zones)}), "
          f"{len(layout.fiducials)} fiducials")
    unknown = [z.name for z in layout.zones if z.name not in GAME_ZONES]
    if unknown:
        print(f"note: zones the game side does not know: {', '.join(unknown)}")
    return 0


def _cmd_print(args: argparse.Namespace) -> int:
    layout = load_layout(args.layout)
    out = Path(args.out)
    out.write_text(board_svg(layout), encoding="utf-8")
    print(f"wrote {out}")
    if args.png:
        img = render_board(layout, args.dpi / 25.4)
        # The PNG says its own resolution, so printing it at "actual size" gives A3.
        ok, buf = cv2.imencode(".png", img, [cv2.IMWRITE_PNG_COMPRESSION, 9])
        if not ok:
            raise LayoutError(f"{args.png}: PNG encoding failed")
        Path(args.png).write_bytes(_with_dpi(buf.tobytes(), args.dpi))
        print(f"wrote {args.png} ({img.shape[1]}x{img.shape[0]} px, {args.dpi:g} dpi)")
    return 0


def _with_dpi(png: bytes, dpi: float) -> bytes:
    """Insert a pHYs chunk (pixels per metre) after IHDR so viewers print at real size."""
    import struct
    import zlib

    ppm = int(round(dpi / 0.0254))
    body = b"pHYs" + struct.pack(">IIB", ppm, ppm, 1)
    chunk = struct.pack(">I", 9) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)
    ihdr_end = 8 + 8 + 13 + 4
    return png[:ihdr_end] + chunk + png[ihdr_end:]


def calibrate(source: str | int, layout: Layout, out: str | Path, *, frames: int = 30,
              config: HomographyConfig | None = None) -> HomographyFit:
    """Watch up to ``frames`` frames of a fixed camera; save the best fit seeing every fiducial.

    Returns the fit saved, or a falsy fit saying why none was good enough (nothing written).
    """
    from vision.qr import QrReader
    from vision.sources import open_source

    cfg = config or HomographyConfig()
    strict = HomographyConfig(min_fiducials=len(layout.fiducials), ransac_px=cfg.ransac_px,
                              max_error_mm=cfg.max_error_mm, min_board_px=cfg.min_board_px)
    reader = QrReader()
    best: HomographyFit = HomographyFit.failed("no frame could be read")
    size = (0, 0)
    src = open_source(source)
    try:
        for _ in range(max(1, frames)):
            frame = src.read()
            if frame is None:
                break
            codes = [(c.data, c.corners) for c in reader.read_frame(frame.image)]
            fit = estimate_homography(layout, codes, strict)
            if fit and (not best or fit.error_mm < best.error_mm):
                best, size = fit, (frame.image.shape[1], frame.image.shape[0])
            elif not best:
                best = fit
    finally:
        src.close()
    if best:
        save_calibration(out, layout, best, size, str(source))
    return best


def _cmd_calibrate(args: argparse.Namespace) -> int:
    layout = load_layout(args.layout)
    source: str | int = int(args.source) if args.source.isdigit() else args.source
    out = args.out or str(Path("calibration") / f"{layout.name}-camera.json")
    fit = calibrate(source, layout, out, frames=args.frames)
    if not fit:
        print(f"vision.board calibrate: no calibration written: {fit.reason}. Make sure the "
              "whole board is in view, no card or hand covers its corner codes, and the "
              "light is even.", file=sys.stderr)
        return 1
    print(f"wrote {out}: board seen with all {len(fit.fiducials)} fiducials, reprojection "
          f"error {fit.error_mm:.2f} mm")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.board",
                                     description="Board layouts: check, print, calibrate.")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("check", help="validate a layout file")
    p.add_argument("layout", nargs="?", default=str(DEFAULT_LAYOUT))
    p.set_defaults(func=_cmd_check)
    p = sub.add_parser("print", help="write the printable board as SVG (and PNG)")
    p.add_argument("layout")
    p.add_argument("out", metavar="OUT.svg")
    p.add_argument("--png", metavar="OUT.png", help="also write a PNG")
    p.add_argument("--dpi", type=float, default=150.0, help="PNG resolution (150)")
    p.set_defaults(func=_cmd_print)
    p = sub.add_parser("calibrate", help="save the board homography of a fixed camera")
    p.add_argument("source", help="camera index, video file or stream URL")
    p.add_argument("--layout", default=str(DEFAULT_LAYOUT))
    p.add_argument("--out", metavar="FILE.json",
                   help="where to save (default calibration/<board>-camera.json)")
    p.add_argument("--frames", type=int, default=30, help="frames to try (30)")
    p.set_defaults(func=_cmd_calibrate)
    args = parser.parse_args(argv)
    from vision.sources import SourceError

    try:
        status: int = args.func(args)
    except (LayoutError, CalibrationError, SourceError, OSError) as exc:
        print(f"vision.board: {exc}", file=sys.stderr)
        return 2
    return status


if __name__ == "__main__":
    sys.exit(main())
