"""Frame sources: a camera, a video file, a phone stream (MJPEG/RTSP URL), a folder of photos.

:func:`open_source` turns what a person typed (``0``, ``table.avi``, ``http://phone:8080/video``,
``photos/``) into a :class:`FrameSource` whose :meth:`~FrameSource.read` gives
:class:`Frame` values (index, seconds since the source started, BGR image) until it ends.
A source that cannot be opened raises :class:`SourceError`, saying which camera, file or URL
and what to try.

:class:`CameraThread` reads a source in a background thread and hands frames over through a
queue of one guarded by a lock: in ``"newest"`` mode a slow reader always gets the latest frame
and older ones are dropped (never queued up); in ``"every"`` mode the thread waits for the
reader, so every frame is processed (a video file, deterministic). ``stop()`` ends it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import cv2
from numpy.typing import NDArray

Image = NDArray[Any]

PHOTO_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp")
VIDEO_HINT = ("OpenCV reads MJPG/XVID .avi and most .mp4 files; if this one will not open, "
              "convert it: ffmpeg -i IN -c:v mjpeg -q:v 3 OUT.avi")


class SourceError(ValueError):
    """A frame source that cannot be opened or read; the message says what to try."""


@dataclass(frozen=True)
class Frame:
    index: int
    t: float  # seconds since the source started
    image: Image


@dataclass(frozen=True)
class SourceConfig:
    """Tunables of frame sources."""

    # Seconds between photos of a folder source (each photo is one frame).
    photo_interval: float = 1.0
    # A live source that gives no frame for this long is treated as ended (unplugged camera,
    # phone app closed).
    live_timeout: float = 5.0
    # Requested capture size for cameras, (width, height); None keeps the driver's default.
    camera_size: tuple[int, int] | None = None
    # When a file is read, follow its clock: no frame is handed over before its time, as
    # from a camera (False reads as fast as the consumer goes).
    file_realtime: bool = False


class FrameSource(Protocol):
    """What :class:`CameraThread` and ``vision.watch`` need of a source."""

    name: str
    live: bool
    fps: float

    def read(self) -> Frame | None: ...

    def close(self) -> None: ...


def parse_source(spec: str | int | Path) -> str | int | Path:
    """``"0"`` -> camera 0; a URL stays a string; anything else is a path."""
    if isinstance(spec, int | Path):
        return spec
    text = spec.strip()
    if text.isdigit():
        return int(text)
    if "://" in text:
        return text
    return Path(text)


class CaptureSource:
    """A camera index, video file or URL read through ``cv2.VideoCapture``."""

    def __init__(self, target: int | str | Path, config: SourceConfig | None = None) -> None:
        self.config = config or SourceConfig()
        self.target = target
        self.live = not isinstance(target, Path)
        if isinstance(target, Path):
            self.name = str(target)
            self._cap = cv2.VideoCapture(str(target))
            if not self._cap.isOpened():
                self._cap.release()
                raise SourceError(f"{target}: cannot be opened as a video. {VIDEO_HINT}")
        elif isinstance(target, int):
            self.name = f"camera {target}"
            self._cap = cv2.VideoCapture(target)
            if not self._cap.isOpened():
                self._cap.release()
                raise SourceError(
                    f"camera {target} cannot be opened: no such camera, or another program "
                    f"is using it. Try another index (0, 1, 2 ...), check that the webcam is "
                    f"plugged in (ls /dev/video*) and that you may use it (group 'video'), "
                    f"or use a phone: companion watch http://PHONE-IP:8080/video")
            if self.config.camera_size:
                self._cap.set(cv2.CAP_PROP_FRAME_WIDTH, self.config.camera_size[0])
                self._cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self.config.camera_size[1])
        else:
            self.name = target
            self._cap = cv2.VideoCapture(target)
            if not self._cap.isOpened():
                self._cap.release()
                raise SourceError(
                    f"{target}: cannot connect to this stream. Check that the phone's camera "
                    f"app is streaming, that the phone and this machine are on the same "
                    f"network, and the URL (an IP Webcam app serves MJPEG at "
                    f"http://PHONE-IP:8080/video; RTSP looks like rtsp://PHONE-IP:8554/live)")
        fps = float(self._cap.get(cv2.CAP_PROP_FPS) or 0.0)
        self.fps = fps if 0.5 < fps < 1000 else 0.0
        self._index = 0
        self._start: float | None = None

    def read(self) -> Frame | None:
        if self._start is None:
            self._start = time.monotonic()
        ok, image = self._cap.read()
        if not ok or image is None or image.size == 0:
            return None
        if self.live or self.fps <= 0:
            t = time.monotonic() - self._start
        else:
            t = self._index / self.fps
            if self.config.file_realtime:
                delay = self._start + t - time.monotonic()
                if delay > 0:
                    time.sleep(delay)
        frame = Frame(self._index, t, image)
        self._index += 1
        return frame

    def close(self) -> None:
        self._cap.release()


class FolderSource:
    """The photos of a folder, in name order, one frame each, ``photo_interval`` apart."""

    live = False

    def __init__(self, folder: Path, config: SourceConfig | None = None) -> None:
        self.config = config or SourceConfig()
        self.name = str(folder)
        self.files = sorted(p for p in folder.iterdir()
                            if p.is_file() and p.suffix.lower() in PHOTO_SUFFIXES)
        if not self.files:
            raise SourceError(f"{folder}: the folder holds no photos "
                              f"({', '.join(PHOTO_SUFFIXES)})")
        self.fps = 1.0 / self.config.photo_interval if self.config.photo_interval > 0 else 0.0
        self._index = 0
        self._delivered = 0
        self.skipped: list[str] = []

    def read(self) -> Frame | None:
        from vision.images import ImageLoadError, load_image

        while self._index < len(self.files):
            path = self.files[self._index]
            self._index += 1
            try:
                image = load_image(path)
            except ImageLoadError as exc:
                # One unreadable photo in a folder is skipped, not fatal.
                self.skipped.append(str(exc))
                continue
            i = self._delivered
            self._delivered += 1
            return Frame(i, i * self.config.photo_interval, image)
        return None

    def close(self) -> None:
        self._index = len(self.files)


def open_source(spec: str | int | Path, config: SourceConfig | None = None) -> FrameSource:
    """A frame source for a camera index, video file, URL or folder; :class:`SourceError`."""
    target = parse_source(spec)
    if isinstance(target, Path):
        if not target.exists():
            raise SourceError(f"{target}: no such video file or folder")
        if target.is_dir():
            return FolderSource(target, config)
        if target.stat().st_size == 0:
            raise SourceError(f"{target}: the file is empty (0 bytes)")
    return CaptureSource(target, config)


def iter_frames(source: FrameSource) -> Iterator[Frame]:
    """Every frame of a source, in order, in the calling thread; closes it at the end."""
    try:
        while True:
            frame = source.read()
            if frame is None:
                return
            yield frame
    finally:
        source.close()


class CameraThread:
    """Reads a source in a background thread; hands frames over through a queue of one.

    ``mode="newest"``: the slot always holds the newest frame; a frame not taken before the
    next arrives is dropped (counted in :attr:`dropped`), so the consumer works at its own
    pace on fresh frames and nothing queues up. ``mode="every"``: the reader thread waits
    until the slot is taken, so no frame is lost.

        with CameraThread(open_source("0")) as cam:
            while (frame := cam.get()) is not None:
                ...
    """

    def __init__(self, source: FrameSource, mode: str = "newest") -> None:
        if mode not in ("newest", "every"):
            raise ValueError(f"mode {mode!r}: expected 'newest' or 'every'")
        self.source = source
        self.mode = mode
        self.dropped = 0
        self.read_count = 0
        self.error: str | None = None
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        self._slot: Frame | None = None
        self._ended = False
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"frames:{source.name}",
                                        daemon=True)

    def start(self) -> CameraThread:
        self._thread.start()
        return self

    def __enter__(self) -> CameraThread:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def ended(self) -> bool:
        with self._lock:
            return self._ended and (self._slot is None or self._stop.is_set())

    def _run(self) -> None:
        try:
            while not self._stop.is_set():
                frame = self.source.read()
                if frame is None:
                    break
                with self._changed:
                    if self.mode == "every":
                        while self._slot is not None and not self._stop.is_set():
                            self._changed.wait(0.1)
                    elif self._slot is not None:
                        self.dropped += 1
                    self._slot = frame
                    self.read_count += 1
                    self._changed.notify_all()
        except Exception as exc:  # a driver error ends the source; the reader hears why
            self.error = f"{self.source.name}: reading failed ({type(exc).__name__}: {exc})"
        finally:
            self.source.close()
            with self._changed:
                self._ended = True
                self._changed.notify_all()

    def get(self, timeout: float | None = None) -> Frame | None:
        """The next frame (newest in "newest" mode); None once the source has ended or stopped.

        With a ``timeout``, None also when no frame came in time (check :attr:`ended`).
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._changed:
            while self._slot is None and not self._ended and not self._stop.is_set():
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining <= 0:
                    return None
                self._changed.wait(remaining if remaining is not None else 0.5)
            if self._stop.is_set():
                return None  # stopped: a frame still in the slot is stale
            frame, self._slot = self._slot, None
            self._changed.notify_all()
            return frame

    def stop(self, timeout: float = 2.0) -> None:
        """Ask the thread to end, wake anyone waiting, and join it."""
        self._stop.set()
        with self._changed:
            self._changed.notify_all()
        if self._thread.is_alive() and threading.current_thread() is not self._thread:
            self._thread.join(timeout)
