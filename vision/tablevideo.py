"""Render a table video from a scripted list of table events.

    python -m vision.tablevideo EVENTS.jsonl OUT.avi [--fps 5] [--size 960x720] [--seed 0]
    python -m vision.tablevideo --example EVENTS.jsonl     # write a sample script

EVENTS.jsonl holds table events as FORMATS.md "Table events" writes them (``t``, ``event``
placed/removed, ``card`` or ``code``, ``zone``), one per line. The video shows the printed
board (drawn from the layout, corner QR codes included) under a virtual overhead camera with
mild perspective; playing cards (``vision.synth`` faces) and printed QR cards appear in and
leave their zones at the scripted times, laid by a hand-like occluder that reaches in over
the zone; another hand sometimes passes over the table; light falls off unevenly, and each
frame gets blur and sensor noise. A seed names a video exactly.

This is the bundled demo's camera and the vision end-to-end test: the script is the truth
that ``vision.watch.watch_events`` must recover.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.cards import Card, CardCodeError
from vision.board import DEFAULT_LAYOUT, OFF_ZONE, Layout, LayoutError, load_layout, render_board
from vision.synth import render_card_face, render_qr_card

Image = NDArray[Any]
Floats = NDArray[Any]
Point = tuple[float, float]


class ScriptError(ValueError):
    """A script line that is not a usable table event; names the file, line and problem."""


@dataclass(frozen=True)
class ScriptEvent:
    t: float
    event: str  # "placed" / "removed"
    kind: str  # "card" / "code"
    value: str
    zone: str

    def to_json(self) -> dict[str, object]:
        return {"t": self.t, "event": self.event, self.kind: self.value, "zone": self.zone}


@dataclass(frozen=True)
class TableVideoConfig:
    """How the virtual table looks; defaults give a small, fast, webcam-like video."""

    width: int = 960
    height: int = 720
    fps: float = 5.0
    # Seconds of video after the last scripted event.
    tail: float = 2.5
    # Resolution of the board drawing before the camera warp.
    board_px_per_mm: float = 3.0
    # Fraction of the frame the board spans (the limiting side).
    board_fill: float = 0.94
    # How much narrower the far (top) edge looks than the near one: the camera's tilt.
    perspective: float = 0.06
    # In-plane rotation of the board in the frame, degrees.
    rotation_deg: float = 1.5
    # Card size on the table, mm (poker size).
    card_mm: tuple[float, float] = (63.0, 88.0)
    # Cards are laid slightly off their slot and askew, as people lay them.
    card_jitter_mm: float = 2.0
    card_spin_deg: float = 3.0
    face_width: int = 300
    # Probability that a scripted event is done by a hand reaching over the zone.
    hand_probability: float = 0.7
    # Seconds the hand takes to reach in (and again to leave); it covers the card meanwhile.
    hand_reach: float = 0.5
    # Hand passes over the table not tied to an event, per minute of video.
    passes_per_minute: float = 4.0
    # Seconds one such pass lasts; shorter than the watcher's removal delay on purpose.
    pass_seconds: float = 0.6
    blur_sigma: float = 0.7
    noise_sigma: float = 3.0
    light_strength: float = 0.25
    seed: int = 0


# -- script ------------------------------------------------------------------------------------


def parse_script(lines: Sequence[str], source: str = "<script>",
                 layout: Layout | None = None) -> list[ScriptEvent]:
    """Script events from JSON lines; :class:`ScriptError` for anything the renderer cannot do.

    Checks that times do not go back, that a removed card is on the table in that zone, that
    a card is not placed twice, and that zones exist in the layout.
    """
    zones = {z.name for z in layout.zones} | {OFF_ZONE} if layout is not None else None
    out: list[ScriptEvent] = []
    on_table: dict[tuple[str, str], str] = {}
    last_t = 0.0
    for n, raw in enumerate(lines, 1):
        if not raw.strip():
            continue
        where = f"{source}:{n}"
        try:
            obj = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise ScriptError(f"{where}: not JSON ({exc.msg})") from None
        if not isinstance(obj, dict):
            raise ScriptError(f"{where}: expected a JSON object, got {raw.strip()[:40]!r}")
        t = obj.get("t")
        if isinstance(t, bool) or not isinstance(t, int | float) or not math.isfinite(t) \
                or t < 0:
            raise ScriptError(f"{where}: t: expected seconds >= 0 (got {t!r})")
        if t < last_t:
            raise ScriptError(f"{where}: t {t} comes before the previous event's {last_t}")
        event = obj.get("event")
        if event not in ("placed", "removed"):
            raise ScriptError(f"{where}: event: expected 'placed' or 'removed' (got {event!r})")
        if ("card" in obj) == ("code" in obj):
            raise ScriptError(f"{where}: give exactly one of 'card' (QH) or 'code' "
                              "(budge:swallow-guide)")
        kind = "card" if "card" in obj else "code"
        value = obj[kind]
        if not isinstance(value, str) or not value:
            raise ScriptError(f"{where}: {kind}: expected a string (got {value!r})")
        if kind == "card":
            try:
                value = Card.from_code(value).code
            except CardCodeError as exc:
                raise ScriptError(f"{where}: {exc}") from None
        zone = obj.get("zone")
        if not isinstance(zone, str) or (zones is not None and zone not in zones):
            known = ", ".join(sorted(zones)) if zones else "a zone name"
            raise ScriptError(f"{where}: zone: expected one of {known} (got {zone!r})")
        key = (kind, value)
        if event == "placed":
            if key in on_table:
                raise ScriptError(f"{where}: {value} is already on the table "
                                  f"(zone {on_table[key]})")
            on_table[key] = zone
        else:
            if on_table.get(key) != zone:
                raise ScriptError(f"{where}: {value} is not on the table in zone {zone}")
            del on_table[key]
        out.append(ScriptEvent(float(t), event, kind, value, zone))
        last_t = float(t)
    if not out:
        raise ScriptError(f"{source}: no events")
    return out


def load_script(path: str | Path, layout: Layout | None = None) -> list[ScriptEvent]:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ScriptError(f"{p}: no such events file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ScriptError(f"{p}: cannot be read ({exc})") from None
    return parse_script(text.splitlines(), str(p), layout)


def example_script() -> list[ScriptEvent]:
    """A short scripted round: Jaffar plays, an event, a Budge card, Sinbad fills paths."""
    rows = [
        (1.0, "placed", "code", "event:shipwreck", "event"),
        (2.5, "placed", "card", "7C", "jaffar"),
        (4.0, "placed", "code", "budge:swallow-guide", "budge"),
        (5.5, "placed", "card", "QH", "path:2"),
        (7.0, "placed", "card", "2S", "path:4"),
        (8.5, "removed", "card", "7C", "jaffar"),
        (10.0, "placed", "card", "9D", "path:1"),
        (11.5, "placed", "card", "KS", "jaffar"),
        (13.0, "removed", "card", "QH", "path:2"),
        (14.5, "placed", "card", "5H", "bank"),
    ]
    return [ScriptEvent(*r) for r in rows]


# -- the virtual camera ----------------------------------------------------------------------


def camera_homography(layout: Layout, cfg: TableVideoConfig) -> Floats:
    """Board mm -> frame pixels: centred, tilted (far edge narrower), slightly rotated."""
    bw, bh = layout.size
    scale = cfg.board_fill * min(cfg.width / bw, cfg.height / bh)
    hw, hh = bw * scale / 2, bh * scale / 2
    near, far = 1.0, 1.0 - cfg.perspective
    quad = np.array([[-hw * far, -hh], [hw * far, -hh], [hw * near, hh], [-hw * near, hh]])
    a = math.radians(cfg.rotation_deg)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    quad = quad @ rot.T + np.array([cfg.width / 2, cfg.height / 2])
    src = np.array([[0, 0], [bw, 0], [bw, bh], [0, bh]], np.float32)
    h: Floats = cv2.getPerspectiveTransform(src, quad.astype(np.float32)).astype(np.float64)
    return h


def _to_frame(h: Floats, points: Sequence[Point]) -> Floats:
    out: Floats = cv2.perspectiveTransform(np.asarray(points, np.float64).reshape(-1, 1, 2),
                                           h).reshape(-1, 2)
    return out


def _slots(layout: Layout, zone: str, cfg: TableVideoConfig) -> list[Point]:
    """Card centre positions (mm) in a zone, left to right; 'table' is the board's margin."""
    cw, ch = cfg.card_mm
    if zone == OFF_ZONE:
        bw, bh = layout.size
        return [(bw / 2, bh + ch)]  # off the board's near edge, in front of the players
    x0, y0, x1, y1 = layout.zone(zone).bounds
    cols = max(1, int((x1 - x0 + 4) // (cw + 4)))
    gap = (x1 - x0 - cols * cw) / (cols + 1)
    return [(x0 + gap + cw / 2 + i * (cw + gap), (y0 + y1) / 2) for i in range(cols)]


@dataclass(frozen=True)
class _Placed:
    kind: str
    value: str
    zone: str
    corners_mm: tuple[Point, Point, Point, Point]


@dataclass(frozen=True)
class _Hand:
    start: float
    end: float
    reach: float
    target: Point  # frame px
    entry: Point  # frame px, where the arm comes from (outside the frame)
    width: float  # palm width, frame px
    tone: tuple[float, float, float]

    def progress(self, t: float) -> float:
        """0 = out of view, 1 = over the target."""
        if t <= self.start or t >= self.end:
            return 0.0
        up = (t - self.start) / self.reach
        down = (self.end - t) / self.reach
        p = min(1.0, up, down)
        return 0.5 - 0.5 * math.cos(math.pi * p)


class TableRenderer:
    """Renders the frames of one scripted video (mutable: caches the table's looks)."""

    def __init__(self, script: Sequence[ScriptEvent], layout: Layout | None = None,
                 config: TableVideoConfig | None = None) -> None:
        self.cfg = config or TableVideoConfig()
        self.layout = layout or load_layout(DEFAULT_LAYOUT)
        self.script = list(script)
        self.rng = np.random.default_rng(self.cfg.seed)
        self.h = camera_homography(self.layout, self.cfg)
        cfg = self.cfg
        board = render_board(self.layout, cfg.board_px_per_mm)
        k = cfg.board_px_per_mm
        scale = np.diag([1 / k, 1 / k, 1.0])
        table = self._table_texture()
        warped = cv2.warpPerspective(board, self.h @ scale, (cfg.width, cfg.height),
                                     flags=cv2.INTER_AREA)
        mask = cv2.warpPerspective(np.full(board.shape[:2], 255, np.uint8), self.h @ scale,
                                   (cfg.width, cfg.height), flags=cv2.INTER_LINEAR)
        a = (mask.astype(np.float32) / 255.0)[:, :, None]
        self.base: Floats = table * (1 - a) + warped.astype(np.float32) * a
        self.light = self._light()
        self.states = self._states()
        self.hands = self._hands()
        self.duration = (self.script[-1].t if self.script else 0.0) + cfg.tail
        self._cache: dict[tuple[_Placed, ...], Floats] = {}

    # -- scene ----------------------------------------------------------------------------

    def _table_texture(self) -> Floats:
        cfg = self.cfg
        base = np.array([60, 85, 120], np.float32)  # a wooden table, BGR
        yy = np.arange(cfg.height, dtype=np.float32)[:, None]
        grain = 0.5 + 0.5 * np.sin(yy * 0.09 + 3 * np.sin(np.arange(cfg.width) * 0.004)[None])
        img = base[None, None] * (0.8 + 0.3 * grain[:, :, None])
        out: Floats = img.astype(np.float32)
        return out

    def _light(self) -> Floats:
        cfg = self.cfg
        yy, xx = np.mgrid[0:cfg.height, 0:cfg.width].astype(np.float32)
        ang = self.rng.uniform(0, 2 * math.pi)
        ramp = math.cos(ang) * (xx / cfg.width - 0.5) + math.sin(ang) * (yy / cfg.height - 0.5)
        field: Floats = (1.0 + cfg.light_strength * ramp).astype(np.float32)
        return field

    def _states(self) -> list[tuple[float, tuple[_Placed, ...]]]:
        """The cards on the table after each event, with their poses (mm)."""
        cfg = self.cfg
        on: list[_Placed] = []
        out: list[tuple[float, tuple[_Placed, ...]]] = [(0.0, ())]
        for ev in self.script:
            if ev.event == "removed":
                on = [p for p in on if not (p.kind == ev.kind and p.value == ev.value)]
            else:
                slots = _slots(self.layout, ev.zone, cfg)
                used = [p for p in on if p.zone == ev.zone]
                cx, cy = slots[len(used) % len(slots)]
                if len(used) >= len(slots):
                    # A full zone: the new card overlaps the earlier ones, cascading down.
                    cx, cy = cx + 8 * (len(used) // len(slots)), cy + 14 * (len(used) //
                                                                             len(slots))
                free = [s for s in slots if not any(
                    math.dist(s, _centre_mm(p.corners_mm)) < 20 for p in used)]
                if free:
                    cx, cy = free[0]
                cx += self.rng.uniform(-1, 1) * cfg.card_jitter_mm
                cy += self.rng.uniform(-1, 1) * cfg.card_jitter_mm
                spin = math.radians(self.rng.uniform(-1, 1) * cfg.card_spin_deg)
                on.append(_Placed(ev.kind, ev.value, ev.zone,
                                  _card_corners((cx, cy), cfg.card_mm, spin)))
            out.append((ev.t, tuple(on)))
        return out

    def _hands(self) -> list[_Hand]:
        cfg = self.cfg
        hands: list[_Hand] = []
        scale = cfg.width / self.layout.size[0]
        tone = (80.0, 125.0, 185.0)
        for i, ev in enumerate(self.script):
            if self.rng.uniform() >= cfg.hand_probability:
                continue
            state = self.states[i + 1][1]
            pose = next((p for p in state if p.value == ev.value), None)
            if pose is None:  # a removal: the card's pose is in the state before
                pose = next((p for p in self.states[i][1] if p.value == ev.value), None)
            if pose is None:
                continue
            target = _to_frame(self.h, [_centre_mm(pose.corners_mm)])[0]
            hands.append(self._hand(ev.t - cfg.hand_reach, ev.t + cfg.hand_reach,
                                    (float(target[0]), float(target[1])), scale, tone))
        duration = (self.script[-1].t if self.script else 0.0) + cfg.tail
        n = int(self.rng.poisson(cfg.passes_per_minute * duration / 60.0))
        for _ in range(n):
            start = float(self.rng.uniform(0.5, max(0.6, duration - 1.5)))
            target = (float(self.rng.uniform(0.2, 0.8) * cfg.width),
                      float(self.rng.uniform(0.3, 0.8) * cfg.height))
            hands.append(self._hand(start, start + cfg.pass_seconds, target, scale, tone,
                                    reach=cfg.pass_seconds / 2))
        return hands

    def _hand(self, start: float, end: float, target: Point, scale: float,
              tone: tuple[float, float, float], reach: float | None = None) -> _Hand:
        cfg = self.cfg
        # Jaffar's player sits across the table (the top of the frame), Sinbad's near it.
        from_top = target[1] < cfg.height * 0.4
        ex = target[0] + float(self.rng.uniform(-0.25, 0.25)) * cfg.width
        entry = (ex, -0.35 * cfg.height) if from_top else (ex, 1.35 * cfg.height)
        jitter = self.rng.uniform(0.9, 1.1, 3)
        skin = (tone[0] * jitter[0], tone[1] * jitter[1], tone[2] * jitter[2])
        return _Hand(start, end, reach if reach is not None else cfg.hand_reach, target, entry,
                     85.0 * scale, skin)

    # -- frames ---------------------------------------------------------------------------

    def state_at(self, t: float) -> tuple[_Placed, ...]:
        state: tuple[_Placed, ...] = ()
        for when, s in self.states:
            if when <= t:
                state = s
        return state

    def _table_at(self, state: tuple[_Placed, ...]) -> Floats:
        cached = self._cache.get(state)
        if cached is not None:
            return cached
        img = self.base.copy()
        for p in state:
            if p.kind == "card":
                face, mask = render_card_face(p.value, self.cfg.face_width)
            else:
                face, mask, _sym = render_qr_card(p.value, self.cfg.face_width)
            corners = _to_frame(self.h, p.corners_mm)
            _paste(img, face, mask, corners)
        if len(self._cache) > 64:
            self._cache.clear()
        self._cache[state] = img
        return img

    def frame(self, index: int) -> Image:
        """Frame ``index`` (BGR uint8); its time is ``index / fps``."""
        cfg = self.cfg
        t = index / cfg.fps
        img = self._table_at(self.state_at(t)).copy()
        for hand in self.hands:
            p = hand.progress(t)
            if p > 0:
                _draw_hand(img, hand, p)
        img *= self.light[:, :, None]
        # Per-frame randomness comes from the frame index, so any frame renders alone.
        rng = np.random.default_rng((cfg.seed, index))
        if cfg.blur_sigma > 0.2:
            img = cv2.GaussianBlur(img, (0, 0), cfg.blur_sigma)
        if cfg.noise_sigma > 0:
            img += rng.standard_normal(img.shape, dtype=np.float32) * cfg.noise_sigma
        out: Image = np.clip(img, 0, 255).astype(np.uint8)
        return out

    def frames(self) -> Iterator[Image]:
        for i in range(self.frame_count):
            yield self.frame(i)

    @property
    def frame_count(self) -> int:
        return int(math.ceil(self.duration * self.cfg.fps))


def _centre_mm(corners: Sequence[Point]) -> Point:
    return (sum(p[0] for p in corners) / len(corners), sum(p[1] for p in corners) / len(corners))


def _card_corners(centre: Point, size: tuple[float, float],
                  spin: float) -> tuple[Point, Point, Point, Point]:
    w, h = size[0] / 2, size[1] / 2
    c, s = math.cos(spin), math.sin(spin)
    pts = [(-w, -h), (w, -h), (w, h), (-w, h)]
    a, b, cc, d = ((centre[0] + x * c - y * s, centre[1] + x * s + y * c) for x, y in pts)
    return (a, b, cc, d)


def _paste(frame: Floats, face: Image, mask: Image, corners: Floats) -> None:
    """Warp a card face onto the frame at ``corners`` (frame px), with a soft shadow."""
    hgt, wid = frame.shape[:2]
    pad = 12
    x0 = max(0, int(math.floor(corners[:, 0].min())) - pad)
    y0 = max(0, int(math.floor(corners[:, 1].min())) - pad)
    x1 = min(wid, int(math.ceil(corners[:, 0].max())) + pad)
    y1 = min(hgt, int(math.ceil(corners[:, 1].max())) + pad)
    if x1 <= x0 or y1 <= y0:
        return
    fh, fw = face.shape[:2]
    src = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32)
    hom = cv2.getPerspectiveTransform(src, (corners - [x0, y0]).astype(np.float32))
    size = (x1 - x0, y1 - y0)
    warped = cv2.warpPerspective(face, hom, size, flags=cv2.INTER_AREA).astype(np.float32)
    alpha = cv2.warpPerspective(mask, hom, size, flags=cv2.INTER_LINEAR).astype(np.float32)
    alpha /= 255.0
    roi = frame[y0:y1, x0:x1]
    offset = np.array([[1, 0, 2], [0, 1, 3]], np.float32)
    shadow = cv2.GaussianBlur(cv2.warpAffine(alpha, offset, size), (0, 0), 3)
    roi *= (1.0 - 0.3 * shadow)[:, :, None]
    a = alpha[:, :, None]
    roi *= 1.0 - a
    roi += warped * a


def _draw_hand(img: Floats, hand: _Hand, p: float) -> None:
    """An arm from outside the frame to a palm with four fingers and a thumb."""
    tx, ty = hand.target
    ex, ey = hand.entry
    # At p = 1 the palm centre sits on the target; before, it is on the way in.
    px, py = ex + (tx - ex) * p, ey + (ty - ey) * p
    ang = math.atan2(ty - ey, tx - ex)  # the direction the hand points
    ux, uy = math.cos(ang), math.sin(ang)
    vx, vy = -uy, ux
    w = hand.width
    hgt, wid = img.shape[:2]
    mask = np.zeros((hgt, wid), np.uint8)
    # The arm: a thick band from the entry point to the wrist.
    wx, wy = px - ux * 0.5 * w, py - uy * 0.5 * w
    arm = np.array([[ex + vx * 0.45 * w, ey + vy * 0.45 * w],
                    [wx + vx * 0.4 * w, wy + vy * 0.4 * w],
                    [wx - vx * 0.4 * w, wy - vy * 0.4 * w],
                    [ex - vx * 0.45 * w, ey - vy * 0.45 * w]])
    cv2.fillPoly(mask, [np.round(arm).astype(np.int32)], 255, cv2.LINE_AA)
    deg = math.degrees(ang)
    cv2.ellipse(mask, (int(px), int(py)), (int(0.6 * w), int(0.5 * w)), deg, 0, 360, 255, -1,
                cv2.LINE_AA)
    for i, off in enumerate((-0.33, -0.11, 0.11, 0.33)):
        length = (0.55, 0.65, 0.62, 0.5)[i] * w
        fx = px + ux * (0.45 * w + length / 2) + vx * off * w
        fy = py + uy * (0.45 * w + length / 2) + vy * off * w
        cv2.ellipse(mask, (int(fx), int(fy)), (int(length / 2), int(0.1 * w)), deg, 0, 360,
                    255, -1, cv2.LINE_AA)
    thx, thy = px + ux * 0.15 * w + vx * 0.6 * w, py + uy * 0.15 * w + vy * 0.6 * w
    cv2.ellipse(mask, (int(thx), int(thy)), (int(0.35 * w), int(0.11 * w)), deg + 40, 0, 360,
                255, -1, cv2.LINE_AA)
    ys, xs = np.nonzero(mask)
    if not len(xs):
        return
    x0, x1, y0, y1 = xs.min(), xs.max() + 1, ys.min(), ys.max() + 1
    a = cv2.GaussianBlur(mask[y0:y1, x0:x1].astype(np.float32) / 255.0, (0, 0), 1.5)
    # Shading: a hand is rounder than a card; darker towards its edges.
    shade = 0.75 + 0.25 * cv2.GaussianBlur(a, (0, 0), max(1.0, 0.12 * w))
    colour = np.asarray(hand.tone, np.float32)[None, None] * shade[:, :, None]
    roi = img[y0:y1, x0:x1]
    roi *= 1.0 - a[:, :, None]
    roi += colour * a[:, :, None]


def render_video(script: Sequence[ScriptEvent], out: str | Path, *,
                 layout: Layout | None = None,
                 config: TableVideoConfig | None = None) -> TableRenderer:
    """Write the scripted table as an MJPG ``.avi``; returns the renderer (frames, timing)."""
    renderer = TableRenderer(script, layout, config)
    cfg = renderer.cfg
    p = Path(out)
    fourcc = cv2.VideoWriter.fourcc(*"MJPG")
    writer = cv2.VideoWriter(str(p), fourcc, cfg.fps,
                             (cfg.width, cfg.height))
    if not writer.isOpened():
        raise OSError(f"{p}: cannot write a video here (MJPG .avi)")
    try:
        for image in renderer.frames():
            writer.write(image)
    finally:
        writer.release()
    return renderer


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.tablevideo",
                                     description="Render a table video from scripted events.")
    parser.add_argument("events", metavar="EVENTS.jsonl")
    parser.add_argument("out", metavar="OUT.avi", nargs="?")
    parser.add_argument("--example", action="store_true",
                        help="write an example script to EVENTS.jsonl and stop")
    parser.add_argument("--layout", default=str(DEFAULT_LAYOUT))
    parser.add_argument("--fps", type=float, default=TableVideoConfig.fps)
    parser.add_argument("--size", default="960x720", metavar="WxH")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-hands", action="store_true", help="no occluding hands")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    if args.example:
        Path(args.events).write_text(
            "".join(json.dumps(e.to_json()) + "\n" for e in example_script()), encoding="utf-8")
        print(f"wrote {args.events}")
        return 0
    if not args.out:
        parser.error("give OUT.avi (or --example)")
    try:
        w, _, h = args.size.lower().partition("x")
        width, height = int(w), int(h)
        if width < 160 or height < 120 or args.fps <= 0:
            raise ValueError
    except ValueError:
        print(f"vision.tablevideo: --size {args.size} / --fps {args.fps}: give WxH of at least "
              "160x120 and a positive fps", file=sys.stderr)
        return 2
    try:
        layout = load_layout(args.layout)
        script = load_script(args.events, layout)
        cfg = TableVideoConfig(width=width, height=height, fps=args.fps, seed=args.seed,
                               hand_probability=0.0 if args.no_hands else
                               TableVideoConfig.hand_probability,
                               passes_per_minute=0.0 if args.no_hands else
                               TableVideoConfig.passes_per_minute)
        r = render_video(script, args.out, layout=layout, config=cfg)
    except (ScriptError, LayoutError, OSError) as exc:
        print(f"vision.tablevideo: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {args.out}: {r.frame_count} frames, {r.duration:.1f} s at {cfg.fps:g} "
          f"frames/s, {len(script)} events, {len(r.hands)} hands")
    return 0


if __name__ == "__main__":
    sys.exit(main())
