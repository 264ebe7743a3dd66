"""``companion watch SOURCE``: a camera, video, phone stream or photo folder -> table events.

    for event in watch_events("table.avi"):        # or 0, or "http://phone:8080/video"
        print(event)  # {"t": 12.4, "event": "placed", "card": "QH", "zone": "path:2", ...}

Each frame goes through :class:`vision.identify.FrameReader` (playing cards by code, printed
cards by QR text). The board's corner QR codes give the frame->board homography
(:mod:`vision.board`; the last good one, or a saved calibration, when they are covered), so
each card's centre falls in a zone of the layout. The :class:`Stabilizer` follows each card
position over frames and only reports it *placed* once the same identity in the same zone has
been read in N frames, and *removed* once it has been missing from M frames in a row, so
that a misread, an identity flickering between two readings or a hand passing over the table
changes nothing. Events follow FORMATS.md "Table events".

With a :class:`WatchControl` (``companion play``), each card the stabiliser places keeps a
*capture*: a crop of the frame around it, keyed by an id that the event carries
(``"capture": "c7"``), so that a player who corrects the reading on the tablet can teach the
deck profile that very picture. A card that lies still but is never read gets a capture too,
announced as ``{"event": "unread", "zone": ..., "capture": ...}`` (and ``"gone": true`` once
it leaves), so the table can ask which card it is. Without a control the events are exactly
FORMATS.md's.

Pace: a camera or stream is read in a background thread and the newest frame is taken each
time the recognizer is free (older frames are dropped, never queued). A video file or photo
folder is read frame by frame as fast as the recognizer goes (deterministic), or, with
``pace="realtime"``, on the video's own clock and dropping frames like a camera.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from vision.board import (
    DEFAULT_LAYOUT,
    FIDUCIAL_PREFIX,
    OFF_ZONE,
    BoardTracker,
    Calibration,
    CalibrationError,
    HomographyConfig,
    HomographyFit,
    Layout,
    LayoutError,
    load_calibration,
    load_layout,
)
from vision.sources import (
    CameraThread,
    Frame,
    FrameSource,
    SourceConfig,
    SourceError,
    open_source,
)

Point = tuple[float, float]

__all__ = [
    "Capture", "Observation", "Stabilizer", "StabilizerConfig", "TableEvent", "WatchConfig",
    "WatchControl", "WATCH_ERRORS", "observations", "watch_events",
]

# What watch_events raises for a source, layout or calibration it cannot use.
WATCH_ERRORS = (SourceError, LayoutError, CalibrationError)


# -- values ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Observation:
    """One thing seen in one frame.

    ``kind`` is "card" (a playing card, ``value`` its code), "code" (a printed card, ``value``
    its QR text) or "unread" (a card-shaped quad the recognizer could not name: evidence that
    a card is still there, never of which). ``centre`` and ``size`` are frame pixels.
    """

    kind: str
    value: str | None
    zone: str
    confidence: float = 1.0
    centre: Point = (0.0, 0.0)
    size: float = 0.0


@dataclass(frozen=True)
class TableEvent:
    t: float
    event: str  # "placed" or "removed"
    kind: str  # "card" or "code"
    value: str
    zone: str
    confidence: float | None = None

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"t": round(self.t, 2), "event": self.event,
                                  self.kind: self.value, "zone": self.zone}
        if self.event == "placed" and self.kind == "card" and self.confidence is not None:
            out["confidence"] = round(self.confidence, 3)
        return out


# -- stabilizer ------------------------------------------------------------------------------


@dataclass(frozen=True)
class StabilizerConfig:
    # Frames a card must be read as the same identity in the same zone before "placed"
    # (frames in which it is seen but not read neither count nor break the run).
    place_frames: int = 3
    # Frames in a row a placed card must be missing before "removed": a hand passing over
    # the table hides cards for a few frames.
    remove_frames: int = 5
    # An observation continues a track when its centre is closer than this fraction of the
    # card's size (square root of its area) to the track's.
    match_distance: float = 0.6
    # Readings averaged into a placed card's confidence (the most recent of the run).
    confidence_window: int = 8


Identity = tuple[str, str, str]  # (kind, value, zone)


@dataclass
class _Track:
    """One card position followed over frames."""

    centre: Point
    size: float
    candidate: Identity | None = None
    run: int = 0
    confidences: list[float] = field(default_factory=list)
    placed: Identity | None = None
    missed: int = 0


@dataclass
class Stabilizer:
    """Hysteresis over frames (mutable: the running state of one source)."""

    config: StabilizerConfig = field(default_factory=StabilizerConfig)
    tracks: list[_Track] = field(default_factory=list)
    # Tracks currently reporting each identity as placed.
    counts: dict[Identity, int] = field(default_factory=dict)

    def update(self, t: float, seen: Sequence[Observation]) -> list[TableEvent]:
        """Feed one frame's observations; the events it completes (removals first)."""
        cfg = self.config
        place_n, remove_n = max(1, cfg.place_frames), max(1, cfg.remove_frames)
        matched: set[int] = set()
        to_remove: list[Identity] = []
        to_place: list[tuple[Identity, float]] = []
        # Named cards claim tracks first; unread quads only keep an existing track alive.
        ordered = sorted(seen, key=lambda o: (o.kind == "unread", -o.confidence))
        for obs in ordered:
            i = self._nearest(obs, matched)
            if i is None:
                if obs.kind == "unread" or obs.value is None:
                    continue
                self.tracks.append(_Track(obs.centre, obs.size))
                i = len(self.tracks) - 1
            matched.add(i)
            track = self.tracks[i]
            track.missed = 0
            track.centre = obs.centre
            if obs.size > 0:
                track.size = obs.size
            if obs.kind == "unread" or obs.value is None:
                continue
            ident: Identity = (obs.kind, obs.value, obs.zone)
            if ident != track.candidate:
                track.candidate, track.run, track.confidences = ident, 0, []
            track.run += 1
            track.confidences = (track.confidences + [obs.confidence])[-cfg.confidence_window:]
            if track.run >= place_n and track.placed != ident:
                if track.placed is not None:
                    to_remove.append(track.placed)
                track.placed = ident
                to_place.append((ident, sum(track.confidences) / len(track.confidences)))
        keep: list[_Track] = []
        for i, track in enumerate(self.tracks):
            if i not in matched:
                track.missed += 1
                if track.placed is None and track.missed >= place_n:
                    continue  # never reported: forget it quietly
                if track.placed is not None and track.missed >= remove_n:
                    to_remove.append(track.placed)
                    continue
            keep.append(track)
        self.tracks = keep
        # Events are per identity, not per track: a card nudged within its zone is a new
        # track that takes over before the old one times out, and must change nothing.
        # Placements are counted first so that such a hand-over nets to zero.
        placed: list[TableEvent] = []
        removed: list[TableEvent] = []
        for ident, conf in to_place:
            self.counts[ident] = self.counts.get(ident, 0) + 1
            if self.counts[ident] == 1:
                placed.append(TableEvent(t, "placed", *ident, conf))
        for ident in to_remove:
            self.counts[ident] = self.counts.get(ident, 0) - 1
            if self.counts[ident] <= 0:
                del self.counts[ident]
                if not any(e.kind == ident[0] and e.value == ident[1] and e.zone == ident[2]
                           for e in placed):
                    removed.append(TableEvent(t, "removed", *ident))
                else:  # placed and removed in the same frame: nothing changed
                    placed = [e for e in placed if (e.kind, e.value, e.zone) != ident]
        return removed + placed

    def _nearest(self, obs: Observation, taken: set[int]) -> int | None:
        best, best_d = None, math.inf
        for i, track in enumerate(self.tracks):
            if i in taken:
                continue
            d = math.dist(obs.centre, track.centre)
            limit = self.config.match_distance * max(track.size, obs.size, 1.0)
            if d <= limit and d < best_d:
                best, best_d = i, d
        return best


# -- frames to observations ------------------------------------------------------------------


def _centre(corners: Sequence[Sequence[float]]) -> Point:
    xs = [float(p[0]) for p in corners]
    ys = [float(p[1]) for p in corners]
    return (sum(xs) / len(xs), sum(ys) / len(ys)) if xs else (0.0, 0.0)


def _size(corners: Sequence[Sequence[float]]) -> float:
    pts = [(float(p[0]), float(p[1])) for p in corners]
    if len(pts) < 3:
        return 0.0
    s = sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(pts, pts[1:] + pts[:1],
                                                              strict=True))
    return math.sqrt(abs(s) / 2.0)


def _zone(fit: HomographyFit | None, layout: Layout | None, point: Point) -> str:
    if fit is None or layout is None or not fit:
        return OFF_ZONE
    (bx, by), = fit.to_board([point])
    return layout.zone_at((bx, by))


def observations(result: Any, fit: HomographyFit | None = None,
                 layout: Layout | None = None) -> list[Observation]:
    """What a :class:`~vision.identify.IdentifyResult` shows, placed in the board's zones.

    Board fiducials are not observations (they are the board, not cards on it).
    """
    out = []
    for card in result.cards:
        c, s = _centre(card.corners), _size(card.corners)
        if card.card is not None:
            out.append(Observation("card", card.card.code, _zone(fit, layout, c),
                                   float(card.confidence), c, s))
        else:
            out.append(Observation("unread", None, _zone(fit, layout, c), 0.0, c, s))
    for code in result.codes:
        if code.data.startswith(FIDUCIAL_PREFIX):
            continue
        c = code.centre
        # A printed card is about 1.4 times its code's size; tracks compare card sizes.
        out.append(Observation("code", code.data, _zone(fit, layout, c), 1.0, c,
                               1.4 * _size(code.corners)))
    return out


# -- captures: the pictures behind recent readings -------------------------------------------


@dataclass
class Capture:
    """A picture of one card as the camera saw it: what it was read as (``card`` None: not
    read), where, and the crop around it (frame pixels, with a margin) that a correction
    teaches the deck profile."""

    id: str
    t: float
    zone: str
    card: str | None
    confidence: float
    crop: Any
    learned: str | None = None      # the card a player said it is, once learnt

    def to_json(self) -> dict[str, object]:
        return {"id": self.id, "t": round(self.t, 2), "zone": self.zone, "card": self.card,
                "confidence": round(self.confidence, 3), "learned": self.learned}

    def jpeg(self, quality: int = 85) -> bytes:
        """The crop as a JPEG file, for the tablet to show ("this card?")."""
        import cv2

        ok, data = cv2.imencode(".jpg", self.crop, [cv2.IMWRITE_JPEG_QUALITY, quality])
        return bytes(data.tobytes()) if ok else b""


# Margin around a card's corners in a capture, as a fraction of its size (as deck teaching
# crops: the learner finds the card's edges again inside it).
CAPTURE_MARGIN = 0.25


@dataclass
class _UnreadTrack:
    centre: Point
    size: float
    zone: str
    run: int = 0
    missed: int = 0
    capture: str = ""               # set once announced


class _Captures:
    """The watch loop's side of the captures: crops for placed cards, and unread cards that
    lie still (runs in the watch thread; the store it fills is the control's)."""

    def __init__(self, control: WatchControl, stab: Stabilizer) -> None:
        self.control = control
        self.stab = stab
        self.unread: list[_UnreadTrack] = []

    def frame(self, frame: Frame, result: Any, seen: Sequence[Observation],
              events: list[TableEvent]) -> list[dict[str, object]]:
        """The frame's events as dicts, placed cards carrying their capture id, followed by
        the unread-card announcements this frame completes."""
        cards = list(getattr(result, "cards", ()))
        pairs = list(zip(seen[:len(cards)], cards, strict=True))
        out: list[dict[str, object]] = []
        for event in events:
            data = event.to_json()
            if event.event == "placed" and event.kind == "card":
                obs = [(o, c) for o, c in pairs if o.kind == "card" and o.value == event.value
                       and o.zone == event.zone]
                if obs:
                    o, c = max(obs, key=lambda oc: oc[0].confidence)
                    cap = self.control._capture(frame, c.corners, event.zone, event.value,
                                                o.confidence)
                    if cap is not None:
                        data["capture"] = cap
            out.append(data)
        out.extend(self._unread(frame, [(o, c) for o, c in pairs if o.kind == "unread"
                                        and not getattr(c, "partial", False)]))
        return out

    def _unread(self, frame: Frame, pairs: list[tuple[Observation, Any]]
                ) -> list[dict[str, object]]:
        cfg = self.stab.config
        need = max(1, self.control.unread_frames)
        gone_after = max(1, cfg.remove_frames)
        matched: set[int] = set()
        out: list[dict[str, object]] = []
        for obs, card in pairs:
            if self._read_here(obs):
                continue        # a card read in other frames: the stabiliser follows it
            i = self._nearest(obs, matched)
            if i is None:
                self.unread.append(_UnreadTrack(obs.centre, obs.size, obs.zone))
                i = len(self.unread) - 1
            matched.add(i)
            track = self.unread[i]
            moved = obs.zone != track.zone
            track.centre, track.size, track.zone, track.missed = (
                obs.centre, obs.size or track.size, obs.zone, 0)
            track.run = 1 if moved else track.run + 1
            if track.run >= need and not track.capture:
                cap = self.control._capture(frame, card.corners, obs.zone, None, 0.0)
                if cap is not None:
                    track.capture = cap
                    out.append({"t": round(frame.t, 2), "event": "unread", "zone": obs.zone,
                                "capture": cap})
        keep: list[_UnreadTrack] = []
        for i, track in enumerate(self.unread):
            if i not in matched:
                track.missed += 1
                if track.missed >= gone_after:
                    if track.capture:
                        out.append({"t": round(frame.t, 2), "event": "unread",
                                    "zone": track.zone, "capture": track.capture,
                                    "gone": True})
                    continue
            keep.append(track)
        self.unread = keep
        return out

    def _read_here(self, obs: Observation) -> bool:
        limit = self.stab.config.match_distance
        return any((t.placed is not None or t.candidate is not None)
                   and math.dist(obs.centre, t.centre) <= limit * max(t.size, obs.size, 1.0)
                   for t in self.stab.tracks)

    def _nearest(self, obs: Observation, taken: set[int]) -> int | None:
        best, best_d = None, math.inf
        limit = self.stab.config.match_distance
        for i, track in enumerate(self.unread):
            if i in taken:
                continue
            d = math.dist(obs.centre, track.centre)
            if d <= limit * max(track.size, obs.size, 1.0) and d < best_d:
                best, best_d = i, d
        return best


# -- reaching into a running loop ------------------------------------------------------------

# A tap sees each frame and what was read on it, in the watch thread; it returns True when it
# has used the frame for itself (teaching a deck), so the frame makes no table events.
FrameTap = Callable[[Frame, Any], bool]


class WatchControl:
    """What another thread (the tablet's server) may do to a running :func:`watch_events`.

    ``set_profile`` swaps the deck profile the reader uses; the swap happens in the watch
    thread between two frames, so a frame is never read half with one profile and half with
    another. ``set_tap`` lends the frames to someone else (the deck teacher): while it says
    it used a frame, that frame changes nothing on the table. ``state`` says whether the
    source runs ("waiting" before the loop starts, "running", "ended"). ``captures`` and
    ``capture`` give the pictures of recent readings (:class:`Capture`), newest first.
    """

    # Captures kept (the oldest go first): a few minutes of a game, a few MB at most.
    MAX_CAPTURES = 32

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pending: tuple[Any] | None = None
        self._tap: FrameTap | None = None
        self.state = "waiting"
        self.source_name = ""
        self.reason = ""
        self.frames = 0
        self.tap_errors = 0
        # The profile the reader took up last through set_profile (None: none set yet).
        self.profile: Any = None
        # Frames an unread card must lie still before the table asks what it is.
        self.unread_frames = 6
        self._captures: OrderedDict[str, Capture] = OrderedDict()
        self._capture_ids = 0

    def set_profile(self, profile: Any) -> None:
        """Read with ``profile`` (a DeckProfile, or None for the built-in reading) from the
        next frame on."""
        with self._lock:
            self._pending = (profile,)

    def set_tap(self, tap: FrameTap | None) -> None:
        with self._lock:
            self._tap = tap

    @property
    def live(self) -> bool:
        return self.state == "running"

    def captures(self) -> list[Capture]:
        with self._lock:
            return list(reversed(self._captures.values()))

    def capture(self, capture_id: str) -> Capture | None:
        with self._lock:
            return self._captures.get(capture_id)

    def mark_learned(self, capture_id: str, card: str) -> None:
        with self._lock:
            cap = self._captures.get(capture_id)
            if cap is not None:
                cap.learned = card

    def _capture(self, frame: Frame, corners: Sequence[Sequence[float]], zone: str,
                 card: str | None, confidence: float) -> str | None:
        from vision.teach import card_crop

        if len(corners) < 3:
            return None
        crop = card_crop(frame.image, corners, CAPTURE_MARGIN)
        if crop.size == 0:
            return None
        with self._lock:
            self._capture_ids += 1
            cid = f"c{self._capture_ids}"
            self._captures[cid] = Capture(cid, frame.t, zone, card, float(confidence), crop)
            while len(self._captures) > self.MAX_CAPTURES:
                self._captures.popitem(last=False)
            return cid

    # -- called by the watch loop
    def _started(self, name: str) -> None:
        with self._lock:
            self.state, self.source_name, self.reason = "running", name, ""

    def _ended(self, reason: str) -> None:
        with self._lock:
            self.state, self.reason = "ended", reason

    def _apply(self, reader: Any) -> None:
        with self._lock:
            pending, self._pending = self._pending, None
        if pending is None:
            return
        from vision.pipeline import Recognizer

        # A new recognizer rather than a patched one: its glyph models are cached, so this
        # costs well under a millisecond, and nothing of the old profile lingers.
        old = reader.recognizer
        rec = Recognizer(config=getattr(old, "config", None), profile=pending[0])
        if hasattr(old, "stages"):
            rec.stages = old.stages
        reader.recognizer = rec
        self.profile = pending[0]

    def _offer(self, frame: Frame, result: Any) -> bool:
        with self._lock:
            self.frames += 1
            tap = self._tap
        if tap is None:
            return False
        try:
            return bool(tap(frame, result))
        except Exception as exc:  # a broken tap must not end the game's camera
            self.tap_errors += 1
            if self.tap_errors in (1, 10, 100):
                _warn(f"watch: the frame tap failed ({type(exc).__name__}: {exc})")
            return False


# -- the watch loop --------------------------------------------------------------------------


@dataclass(frozen=True)
class WatchConfig:
    """Tunables of ``watch_events``; each stage keeps its own config."""

    stabilizer: StabilizerConfig = field(default_factory=StabilizerConfig)
    source: SourceConfig = field(default_factory=SourceConfig)
    homography: HomographyConfig = field(default_factory=HomographyConfig)
    deck: str | None = None
    # A saved board calibration (python -m vision.board calibrate) for frames whose corner
    # codes are covered; None uses none.
    calibration: str | None = None
    # "auto": cameras and streams give their newest frame, files every frame at the
    # recognizer's pace; "realtime": files too follow their clock and drop frames;
    # "every": every frame of any source (a slow reader makes a camera lag).
    pace: str = "auto"
    # Frames read before cards are reported while the board has not been found, so that the
    # first frames (auto-exposure settling) do not put every card in zone "table".
    board_wait_frames: int = 3
    # Print frames/s on stderr every this many seconds (0: never).
    report_every: float = 0.0
    # Without a board layout every card is in zone "table".
    use_board: bool = True


def watch_events(
    source: str | int | Path,
    *,
    layout: str | Path | Layout | None = None,
    config: WatchConfig | None = None,
    stop: threading.Event | None = None,
    control: WatchControl | None = None,
) -> Iterator[dict[str, object]]:
    """Table events (FORMATS.md dicts) from a camera index, video file, URL or photo folder.

    The source, layout, calibration and recognizer are opened before this returns, so a
    missing camera or a broken layout raises here (:class:`~vision.sources.SourceError`,
    :class:`~vision.board.LayoutError`, :class:`~vision.board.CalibrationError`, all
    ``ValueError``), with a message to show, rather than at the first ``next()``.
    ``stop`` (a ``threading.Event``) ends the iteration between frames; ``control`` lets
    another thread swap the deck profile and borrow frames (:class:`WatchControl`).
    """
    cfg = config or WatchConfig()
    if cfg.pace not in ("auto", "realtime", "every"):
        raise ValueError(f"pace {cfg.pace!r}: expected 'auto', 'realtime' or 'every'")
    board: Layout | None = None
    calibration: Calibration | None = None
    if cfg.use_board:
        board = layout if isinstance(layout, Layout) else load_layout(layout or DEFAULT_LAYOUT)
        if cfg.calibration:
            calibration = load_calibration(cfg.calibration, board)
    from vision.identify import FrameReader

    reader = FrameReader(deck=cfg.deck)
    src_cfg = cfg.source
    if cfg.pace == "realtime" and not src_cfg.file_realtime:
        src_cfg = SourceConfig(src_cfg.photo_interval, src_cfg.live_timeout,
                               src_cfg.camera_size, file_realtime=True)
    try:
        src = open_source(source, src_cfg)
    except SourceError as exc:
        if control is not None:
            control._ended(str(exc))
        raise
    return _events(src, reader, board, calibration, cfg, stop, control)


def _events(src: FrameSource, reader: Any, board: Layout | None,
            calibration: Calibration | None, cfg: WatchConfig,
            stop: threading.Event | None,
            control: WatchControl | None = None) -> Iterator[dict[str, object]]:
    import cv2

    cv2.setNumThreads(1)
    every = cfg.pace == "every" or (cfg.pace == "auto" and not src.live)
    cam = CameraThread(src, "every" if every else "newest").start()
    tracker = BoardTracker(board, calibration, cfg.homography) if board is not None else None
    stab = Stabilizer(cfg.stabilizer)
    captures = _Captures(control, stab) if control is not None else None
    stats = _Stats(cfg.report_every)
    frames_seen = 0
    board_found = False
    failures = 0
    last_frame = time.monotonic()
    ended = "the source ended"
    if control is not None:
        control._started(src.name)
    try:
        while stop is None or not stop.is_set():
            frame = cam.get(timeout=0.25)
            if frame is None:
                if cam.ended:
                    break
                if src.live and time.monotonic() - last_frame > cfg.source.live_timeout:
                    ended = f"{src.name}: no frame for {cfg.source.live_timeout:g} s"
                    _warn(f"{ended}; stopping")
                    break
                continue
            last_frame = time.monotonic()
            if control is not None:
                control._apply(reader)
            start = time.perf_counter()
            try:
                result = reader.read(frame.image)
            except Exception as exc:  # one bad frame must not end a game night
                failures += 1
                if failures in (1, 10, 100):
                    _warn(f"{src.name}: frame {frame.index} could not be read "
                          f"({type(exc).__name__}: {exc}); skipping ({failures} so far)")
                continue
            if control is not None and control._offer(frame, result):
                continue
            fit = None
            if tracker is not None:
                h, w = frame.image.shape[:2]
                fit = tracker.update(((c.data, c.corners) for c in result.codes), (w, h))
                board_found = board_found or bool(fit)
            frames_seen += 1
            stats.frame(time.perf_counter() - start, cam, fit)
            if tracker is not None and not board_found and frames_seen <= cfg.board_wait_frames:
                continue
            seen = observations(result, fit, board)
            events = stab.update(frame.t, seen)
            produced = ([e.to_json() for e in events] if captures is None
                        else captures.frame(frame, result, seen, events))
            for item in produced:
                if stop is not None and stop.is_set():
                    return
                yield item
        if cam.error:
            ended = cam.error
            _warn(cam.error)
    finally:
        cam.stop()
        stats.close(cam)
        if control is not None:
            control._ended("stopped" if stop is not None and stop.is_set() else ended)


class _Stats:
    """Frames/s on stderr, for --verbose."""

    def __init__(self, every: float) -> None:
        self.every = every
        self.t0 = self.last = time.monotonic()
        self.processed = self.since = 0
        self.busy = 0.0
        self.fit_reason = ""

    def frame(self, seconds: float, cam: CameraThread, fit: HomographyFit | None) -> None:
        self.processed += 1
        self.since += 1
        self.busy += seconds
        if fit is not None:
            self.fit_reason = f"board: {fit.source}" + (f" ({fit.reason})" if fit.reason else "")
        now = time.monotonic()
        if self.every > 0 and now - self.last >= self.every:
            rate = self.since / (now - self.last)
            _warn(f"watch: {rate:.1f} frames/s processed, {cam.read_count} read, "
                  f"{cam.dropped} dropped, {1000 * self.busy / max(1, self.processed):.0f} "
                  f"ms/frame; {self.fit_reason}")
            self.last, self.since = now, 0

    def close(self, cam: CameraThread) -> None:
        if self.every > 0 and self.processed:
            span = max(1e-6, time.monotonic() - self.t0)
            _warn(f"watch: {self.processed} frames in {span:.1f} s "
                  f"({self.processed / span:.1f} frames/s), {cam.dropped} dropped")


def _warn(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


# -- command line ----------------------------------------------------------------------------


def run(args: argparse.Namespace) -> int:
    from vision.identify import RecognizerUnavailableError
    from vision.qr import ZbarMissingError

    if args.frames < 1 or (args.missing is not None and args.missing < 1):
        print("companion watch: --frames and --missing need at least 1", file=sys.stderr)
        return 2
    config = WatchConfig(
        stabilizer=StabilizerConfig(place_frames=args.frames,
                                    remove_frames=args.missing or args.frames),
        deck=args.deck,
        calibration=args.calibration,
        pace="realtime" if args.realtime else "auto",
        report_every=2.0 if args.verbose else 0.0,
        use_board=not args.no_board,
    )
    try:
        for event in watch_events(args.source, layout=args.layout, config=config):
            if args.json:
                print(json.dumps(event), flush=True)
            else:
                what = event.get("card") or f"[{event.get('code')}]"
                print(f"{float(str(event['t'])):8.2f}s  {event['event']:<8} {what:<24} "
                      f"{event['zone']}", flush=True)
    except (*WATCH_ERRORS, RecognizerUnavailableError, ZbarMissingError) as exc:
        print(f"companion watch: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return 0
