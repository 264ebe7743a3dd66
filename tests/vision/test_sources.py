"""Frame sources on real video files and photo folders, and the camera thread's hand-over."""

from __future__ import annotations

import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.sources import (
    CameraThread,
    Frame,
    SourceConfig,
    SourceError,
    iter_frames,
    open_source,
    parse_source,
)


def numbered(i: int, size: tuple[int, int] = (160, 120)) -> np.ndarray:
    """A frame that says its own number: the mean grey level is 10 * i."""
    return np.full((size[1], size[0], 3), 10 * i, np.uint8)


def number_of(frame: Frame) -> int:
    return int(round(float(frame.image.mean()) / 10))


def write_video(path: Path, n: int, fps: float = 10.0) -> Path:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), fps, (160, 120))
    assert writer.isOpened()
    for i in range(n):
        writer.write(numbered(i % 25))
    writer.release()
    return path


def test_parse_source() -> None:
    assert parse_source("0") == 0 and parse_source(" 2 ") == 2
    assert parse_source("http://10.0.0.5:8080/video") == "http://10.0.0.5:8080/video"
    assert parse_source("rtsp://phone/live") == "rtsp://phone/live"
    assert parse_source("table.avi") == Path("table.avi")


def test_a_video_file_gives_every_frame_in_order_with_its_time(tmp_path: Path) -> None:
    video = write_video(tmp_path / "v.avi", 12, fps=10)
    src = open_source(str(video))
    assert not src.live and src.fps == pytest.approx(10)
    frames = list(iter_frames(src))
    assert [f.index for f in frames] == list(range(12))
    assert [number_of(f) for f in frames] == list(range(12))
    assert [f.t for f in frames] == pytest.approx([i / 10 for i in range(12)])


def test_a_folder_of_photos_in_name_order_skipping_unreadable_ones(tmp_path: Path) -> None:
    for i in (3, 1, 2):
        cv2.imwrite(str(tmp_path / f"p{i}.png"), numbered(i))
    (tmp_path / "p15.jpg").write_bytes(b"not a jpeg")
    (tmp_path / "notes.txt").write_text("ignored")
    src = open_source(tmp_path, SourceConfig(photo_interval=0.5))
    frames = list(iter_frames(src))
    assert [number_of(f) for f in frames] == [1, 2, 3]
    assert [f.t for f in frames] == [0.0, 0.5, 1.0]
    assert len(src.skipped) == 1 and "p15.jpg" in src.skipped[0]  # type: ignore[attr-defined]


def test_sources_that_cannot_be_opened_say_what_to_try(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="no such video file or folder"):
        open_source(tmp_path / "missing.avi")
    empty = tmp_path / "empty.avi"
    empty.write_bytes(b"")
    with pytest.raises(SourceError, match="empty"):
        open_source(empty)
    junk = tmp_path / "junk.avi"
    junk.write_bytes(b"this is not a video" * 100)
    with pytest.raises(SourceError, match="cannot be opened as a video.*ffmpeg"):
        open_source(junk)
    (tmp_path / "photos").mkdir()
    with pytest.raises(SourceError, match="holds no photos"):
        open_source(tmp_path / "photos")
    with pytest.raises(SourceError, match="camera 97 cannot be opened.*another index"):
        open_source("97")


def test_camera_thread_every_mode_hands_over_every_frame(tmp_path: Path) -> None:
    video = write_video(tmp_path / "v.avi", 15)
    with CameraThread(open_source(video), mode="every") as cam:
        got = []
        while (frame := cam.get(timeout=5)) is not None:
            got.append(number_of(frame))
            time.sleep(0.005)  # a reader slower than the decoder
    assert got == list(range(15)) and cam.dropped == 0 and cam.ended


def test_camera_thread_newest_mode_drops_old_frames_for_a_slow_reader(tmp_path: Path) -> None:
    # On its own clock at 50 frames/s the file behaves like a camera; the reader takes
    # 60 ms per frame, so it can only see about one frame in three, always a newer one.
    video = write_video(tmp_path / "v.avi", 25, fps=50)
    cam = CameraThread(open_source(video, SourceConfig(file_realtime=True)), "newest").start()
    got = []
    while (frame := cam.get(timeout=5)) is not None:
        got.append(frame.index)
        time.sleep(0.06)
    cam.stop()
    assert got == sorted(set(got)), "frames came out of order or twice"
    assert cam.dropped > 0 and len(got) < 20
    assert cam.dropped + len(got) == 25
    assert got[-1] >= 20  # the newest frame wins, the backlog never builds up


def test_stop_ends_the_thread_promptly(tmp_path: Path) -> None:
    video = write_video(tmp_path / "v.avi", 100, fps=10)  # 10 s on its own clock
    cam = CameraThread(open_source(video, SourceConfig(file_realtime=True))).start()
    assert cam.get(timeout=5) is not None
    start = time.monotonic()
    cam.stop()
    assert time.monotonic() - start < 1.0
    assert cam.get(timeout=1) is None and cam.ended
