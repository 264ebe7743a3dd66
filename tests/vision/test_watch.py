"""The stabilizer's hysteresis, observations on the board, and watch_events' edges."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.board import LayoutError, estimate_homography, load_layout, render_board
from vision.identify import FrameReader
from vision.sources import SourceError
from vision.synth import render_card_face
from vision.watch import (
    Observation,
    Stabilizer,
    StabilizerConfig,
    WatchConfig,
    observations,
    watch_events,
)


def card(value: str, zone: str = "path:1", x: float = 100.0, conf: float = 0.9) -> Observation:
    return Observation("card", value, zone, conf, (x, 200.0), 120.0)


def unread(x: float = 100.0) -> Observation:
    return Observation("unread", None, "path:1", 0.0, (x, 200.0), 120.0)


def run(stab: Stabilizer, frames: list[list[Observation]]) -> list[tuple[int, str, str, str]]:
    out = []
    for i, seen in enumerate(frames):
        for e in stab.update(float(i), seen):
            out.append((i, e.event, e.value, e.zone))
    return out


def test_placed_after_n_frames_removed_after_m_missing() -> None:
    stab = Stabilizer(StabilizerConfig(place_frames=3, remove_frames=4))
    events = run(stab, [[card("QH")]] * 5 + [[]] * 5)
    assert events == [(2, "placed", "QH", "path:1"), (8, "removed", "QH", "path:1")]


def test_a_hand_passing_shorter_than_m_frames_changes_nothing() -> None:
    stab = Stabilizer(StabilizerConfig(place_frames=3, remove_frames=4))
    events = run(stab, [[card("QH")]] * 4 + [[]] * 3 + [[card("QH")]] * 4)
    assert events == [(2, "placed", "QH", "path:1")]


def test_an_identity_flipping_between_two_readings_is_not_reported() -> None:
    stab = Stabilizer(StabilizerConfig(place_frames=3, remove_frames=4))
    flips = [[card("QH")], [card("QD")]] * 6
    assert run(stab, flips) == []
    # Once it settles, it is reported: the flips ended on one QD, two more make three.
    assert run(stab, [[card("QD")]] * 3) == [(1, "placed", "QD", "path:1")]


def test_a_misread_does_not_change_a_placed_card_but_a_lasting_change_does() -> None:
    stab = Stabilizer(StabilizerConfig(place_frames=3, remove_frames=4))
    frames = [[card("9D")]] * 3 + [[card("9H")]] + [[card("9D")]] * 2 + [[card("6S")]] * 3
    assert run(stab, frames) == [
        (2, "placed", "9D", "path:1"), (8, "removed", "9D", "path:1"),
        (8, "placed", "6S", "path:1"),
    ]


def test_unread_frames_keep_a_card_on_the_table() -> None:
    stab = Stabilizer(StabilizerConfig(place_frames=2, remove_frames=2))
    events = run(stab, [[card("KS")]] * 2 + [[unread()]] * 6 + [[]] * 2)
    assert events == [(1, "placed", "KS", "path:1"), (9, "removed", "KS", "path:1")]
    # An unread quad alone never starts a card.
    assert run(Stabilizer(), [[unread()]] * 10) == []


def test_confidence_is_the_average_of_the_run() -> None:
    stab = Stabilizer(StabilizerConfig(place_frames=3))
    events = []
    for i, c in enumerate((0.6, 0.9, 0.9)):
        events += stab.update(float(i), [card("AS", conf=c)])
    assert len(events) == 1 and events[0].confidence == pytest.approx(0.8)
    assert events[0].to_json() == {"t": 2.0, "event": "placed", "card": "AS", "zone": "path:1",
                                   "confidence": 0.8}


def test_a_card_moved_to_another_zone_is_removed_then_placed() -> None:
    stab = Stabilizer(StabilizerConfig(place_frames=2, remove_frames=3))
    frames = [[card("2C", "path:1", 100)]] * 3 + [[card("2C", "path:2", 400)]] * 4
    assert run(stab, frames) == [
        (1, "placed", "2C", "path:1"), (4, "placed", "2C", "path:2"),
        (5, "removed", "2C", "path:1"),
    ]


def test_a_card_nudged_within_its_zone_changes_nothing() -> None:
    stab = Stabilizer(StabilizerConfig(place_frames=2, remove_frames=2))
    frames = [[card("2C", x=100)]] * 3 + [[card("2C", x=300)]] * 4
    assert run(stab, frames) == [(1, "placed", "2C", "path:1")]


def test_two_cards_are_followed_separately() -> None:
    stab = Stabilizer(StabilizerConfig(place_frames=2, remove_frames=2))
    both = [card("QH", "path:1", 100), card("QS", "path:2", 400)]
    events = run(stab, [both] * 3 + [[both[1]]] * 3)
    assert events == [(1, "placed", "QH", "path:1"), (1, "placed", "QS", "path:2"),
                      (4, "removed", "QH", "path:1")]


def _board_frame(cards: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """The bundled board seen straight on at 2 px/mm, with cards laid in the path lanes."""
    layout = load_layout()
    img = render_board(layout, 2.0)
    for i, code in enumerate(cards):
        cx, cy = layout.zone(f"path:{i + 1}").centre
        face, mask = render_card_face(code, 126)
        x0, y0 = int(cx * 2 - 63), int(cy * 2 - 88)
        roi = img[y0:y0 + face.shape[0], x0:x0 + face.shape[1]]
        roi[mask > 127] = face[mask > 127]
    return img, np.diag([2.0, 2.0, 1.0])


def test_observations_place_cards_in_zones_and_skip_the_fiducials() -> None:
    cv2.setNumThreads(1)
    image, _h = _board_frame(["9D", "KS"])
    layout = load_layout()
    result = FrameReader().read(image)
    fit = estimate_homography(layout, [(c.data, c.corners) for c in result.codes])
    assert fit, fit.reason
    obs = observations(result, fit, layout)
    named = {(o.value, o.zone) for o in obs if o.kind == "card"}
    assert ("9D", "path:1") in named and ("KS", "path:2") in named
    assert not [o for o in obs if o.value and o.value.startswith("board:")]


def test_watch_events_raises_at_the_call_for_bad_sources_and_layouts(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="no such video file"):
        watch_events(str(tmp_path / "missing.avi"))
    bad = tmp_path / "bad.toml"
    bad.write_text('size = [420, "wide"]\n')
    with pytest.raises(LayoutError, match=r"bad\.toml: size\[1\]: expected a number"):
        watch_events(str(tmp_path / "missing.avi"), layout=bad)
    with pytest.raises(ValueError, match="pace"):
        watch_events(0, config=WatchConfig(pace="fast"))


def _video(path: Path, frames: list[np.ndarray], fps: float = 10.0) -> Path:
    h, w = frames[0].shape[:2]
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), fps, (w, h))
    assert writer.isOpened()
    for f in frames:
        writer.write(f)
    writer.release()
    return path


def test_watch_events_on_a_board_video_and_stop_ends_it(tmp_path: Path) -> None:
    cv2.setNumThreads(1)
    both, _ = _board_frame(["9D", "KS"])
    one, _ = _board_frame(["9D"])
    video = _video(tmp_path / "board.avi", [both] * 4 + [one] * 6)
    events = list(watch_events(str(video), config=WatchConfig(
        stabilizer=StabilizerConfig(place_frames=2, remove_frames=3))))
    assert [(e["event"], e.get("card"), e["zone"]) for e in events] == [
        ("placed", "9D", "path:1"), ("placed", "KS", "path:2"), ("removed", "KS", "path:2")]
    assert events[0]["t"] == pytest.approx(0.1) and events[2]["t"] == pytest.approx(0.6)
    # stop: set after the first event, nothing more comes.
    stop = threading.Event()
    it = watch_events(str(video), stop=stop)
    first = next(it)
    stop.set()
    assert first["event"] == "placed" and list(it) == []


def test_companion_watch_reports_bad_input_without_a_traceback(tmp_path: Path,
                                                                repo_root: Path) -> None:
    video = _video(tmp_path / "v.avi", [np.zeros((120, 160, 3), np.uint8)] * 2)
    broken = tmp_path / "broken.toml"
    broken.write_text("size = [420, 297]\nzones = []\n")
    cases = [
        ([str(video), "--layout", str(broken)], "broken.toml: zones"),
        ([str(video), "--calibration", str(tmp_path / "nope.json")], "no such calibration"),
        (["97"], "camera 97"),
        ([str(tmp_path)], "holds no photos"),
        ([str(video), "--frames", "0"], "at least 1"),
    ]
    for args, message in cases:
        proc = subprocess.run([sys.executable, "-m", "companion", "watch", *args],
                              cwd=repo_root, capture_output=True, text=True, timeout=60,
                              env={"OMP_NUM_THREADS": "1", "PATH": "/usr/bin:/bin"})
        assert proc.returncode == 2, (args, proc.stderr)
        assert message in proc.stderr, (args, proc.stderr)
        assert "Traceback" not in proc.stderr
