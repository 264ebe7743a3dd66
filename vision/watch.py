"""``companion watch SOURCE``: a video, camera or stream turned into table events.

Each frame read goes through :class:`vision.identify.FrameReader`; what it sees (playing cards
by code, printed cards by QR text) is placed in a zone of the board layout and fed to a
:class:`Stabilizer`, which only reports a card *placed* after it has been seen in N frames in
a row, and *removed* after it has been missing for N frames in a row, so that one misread or
a hand passing over the table changes nothing. Events follow FORMATS.md "Table events".

Board layout (optional, ``--layout``): JSON ``{"zones": [{"name": "path:1", "polygon":
[[x, y], ...]}]}`` in frame pixels. Without one every card is in zone ``"table"``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

Point = tuple[float, float]


@dataclass(frozen=True)
class Observation:
    """One thing seen in one frame: a card code or a QR text, in a zone."""

    kind: str  # "card" or "code"
    value: str
    zone: str
    confidence: float = 1.0


@dataclass(frozen=True)
class TableEvent:
    t: float
    event: str  # "placed" or "removed"
    kind: str
    value: str
    zone: str
    confidence: float | None = None

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"t": round(self.t, 2), "event": self.event,
                                  self.kind: self.value, "zone": self.zone}
        if self.event == "placed" and self.kind == "card" and self.confidence is not None:
            out["confidence"] = round(self.confidence, 3)
        return out


@dataclass(frozen=True)
class StabilizerConfig:
    # Frames in a row a thing must be seen before "placed", or missed before "removed".
    frames: int = 3


@dataclass
class _Track:
    seen: int = 0
    missed: int = 0
    placed: bool = False
    confidence: float = 0.0


@dataclass
class Stabilizer:
    """Hysteresis over frames (mutable: it is the running state of one source)."""

    config: StabilizerConfig = field(default_factory=StabilizerConfig)
    tracks: dict[tuple[str, str, str], _Track] = field(default_factory=dict)

    def update(self, t: float, seen: Sequence[Observation]) -> list[TableEvent]:
        n = max(1, self.config.frames)
        events: list[TableEvent] = []
        now = {(o.kind, o.value, o.zone): o for o in seen}
        for key, obs in now.items():
            track = self.tracks.setdefault(key, _Track())
            track.seen += 1
            track.missed = 0
            track.confidence = max(track.confidence, obs.confidence)
            if not track.placed and track.seen >= n:
                track.placed = True
                events.append(TableEvent(t, "placed", *key, track.confidence))
        for key, track in list(self.tracks.items()):
            if key in now:
                continue
            track.missed += 1
            track.seen = 0
            if track.placed and track.missed >= n:
                events.append(TableEvent(t, "removed", *key))
                del self.tracks[key]
            elif not track.placed and track.missed >= n:
                del self.tracks[key]
        return events


@dataclass(frozen=True)
class Zone:
    name: str
    polygon: tuple[Point, ...]


def load_layout(path: str | Path) -> tuple[Zone, ...]:
    """Zones from a board layout JSON file (see the module docstring)."""
    p = Path(path)
    try:
        data = json.loads(p.read_text())
        zones = tuple(
            Zone(str(z["name"]), tuple((float(x), float(y)) for x, y in z["polygon"]))
            for z in data["zones"]
        )
    except FileNotFoundError:
        raise ValueError(f"{p}: no such layout file") from None
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ValueError(
            f"{p}: not a board layout ({type(exc).__name__}: {exc}); expected "
            '{"zones": [{"name": ..., "polygon": [[x, y], ...]}]}'
        ) from None
    return zones


def zone_of(point: Point, zones: Sequence[Zone]) -> str:
    import cv2
    import numpy as np

    for zone in zones:
        contour = np.asarray(zone.polygon, np.float32).reshape(-1, 1, 2)
        if len(zone.polygon) >= 3 and cv2.pointPolygonTest(contour, point, False) >= 0:
            return zone.name
    return "table" if not zones else "off-board"


def _centre(corners: Sequence[Sequence[float]]) -> Point:
    xs = [float(p[0]) for p in corners]
    ys = [float(p[1]) for p in corners]
    return (sum(xs) / len(xs), sum(ys) / len(ys)) if xs else (0.0, 0.0)


def observations(result: Any, zones: Sequence[Zone]) -> list[Observation]:
    out = []
    for card in result.cards:
        if card.card is not None:
            out.append(Observation("card", card.card.code, zone_of(_centre(card.corners), zones),
                                   card.confidence))
    for code in result.codes:
        out.append(Observation("code", code.data, zone_of(code.centre, zones)))
    return out


def frames(source: str, every: int) -> Iterator[tuple[float, Any]]:
    """(seconds since start, frame) from a video file, camera index or URL."""
    import cv2

    target: int | str = int(source) if source.isdigit() else source
    if isinstance(target, str) and "://" not in target and not Path(target).exists():
        raise ValueError(f"{source}: no such video file")
    cap = cv2.VideoCapture(target)
    if not cap.isOpened():
        raise ValueError(f"{source}: cannot be opened as a video, camera or stream")
    fps = cap.get(cv2.CAP_PROP_FPS) or 0.0
    live = isinstance(target, int) or "://" in str(target) or fps <= 0
    start = time.monotonic()
    index = 0
    try:
        while True:
            ok, frame = cap.read()
            if not ok:
                return
            if index % max(1, every) == 0:
                t = time.monotonic() - start if live else index / fps
                yield t, frame
            index += 1
    finally:
        cap.release()


def run(args: argparse.Namespace) -> int:
    import cv2

    from vision.identify import FrameReader, RecognizerUnavailableError
    from vision.qr import ZbarMissingError

    cv2.setNumThreads(1)
    try:
        zones = load_layout(args.layout) if args.layout else ()
        reader = FrameReader(deck=args.deck)
        stream = frames(args.source, args.every)
        stab = Stabilizer(StabilizerConfig(frames=args.frames))
        for t, frame in stream:
            for event in stab.update(t, observations(reader.read(frame), zones)):
                if args.json:
                    print(json.dumps(event.to_json()), flush=True)
                else:
                    what = event.value if event.kind == "card" else f"[{event.value}]"
                    print(f"{event.t:8.2f}s  {event.event:<8} {what:<24} {event.zone}",
                          flush=True)
    except (ValueError, RecognizerUnavailableError, ZbarMissingError) as exc:
        print(f"companion watch: {exc}", file=sys.stderr)
        return 2
    return 0
