"""Teaching a deck with the camera: ``companion deck teach PROFILE --video/--camera`` and the
state machine behind it (vision.teach), on real MJPG videos of REAL card crops shown one at a
time, with gaps, a hand passing over a card and a card that never lies still."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import cv2
import numpy as np
import pytest
import realdata
import teach_video as tv

from vision.identify import FrameReader
from vision.pipeline import DeckProfile
from vision.teach import Teacher, TeachError, parse_cards
from vision.watch import WatchConfig, WatchControl, watch_events

REPO = Path(__file__).resolve().parents[2]
WEBCAM = "webcam-grey"


def companion(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "companion", *args], cwd=REPO, input=stdin,
        capture_output=True, text=True, timeout=60,
        env={**os.environ, "OMP_NUM_THREADS": "1"},
    )


@pytest.fixture(scope="module")
def crops() -> dict[str, np.ndarray]:
    cv2.setNumThreads(1)
    found = tv.real_crops(WEBCAM, "train")
    assert len(found) >= 16, sorted(found)
    return found


@pytest.fixture(scope="module")
def reader() -> FrameReader:
    return FrameReader()


def profile_cards(path: Path) -> list[str]:
    return DeckProfile.load(path).cards


# -- choosing cards ---------------------------------------------------------------------------


def test_parse_cards() -> None:
    assert len(parse_cards("all")) == 52
    assert parse_cards("QH, 10s") == ["QH", "TS"]
    assert parse_cards("H") == [f"{r}H" for r in "A23456789TJQK"]
    assert parse_cards("hearts") == parse_cards("H")
    assert parse_cards("2-4H") == ["2H", "3H", "4H"]
    assert len(parse_cards("A-5")) == 20
    assert parse_cards("QH QH KH") == ["QH", "KH"]
    for bad in ("", "ZZ", "K-AH", "1H"):
        with pytest.raises(TeachError):
            parse_cards(bad)


# -- the state machine ------------------------------------------------------------------------


def feed(teacher: Teacher, reader: FrameReader, frames: list[np.ndarray],
         t0: float = 0.0) -> list[str]:
    notes: list[str] = []
    for i, f in enumerate(frames):
        notes += teacher.feed(t0 + i / tv.FPS, f, reader.read(f))
    return notes


def test_teacher_takes_redoes_skips_and_saves(
        tmp_path: Path, crops: dict[str, np.ndarray], reader: FrameReader) -> None:
    a, b, c = sorted(crops)[:3]
    path = tmp_path / "deck.profile"
    teacher = Teacher.open(path, [a, b, c])
    assert teacher.prompt().endswith(f"Show the {tv_name(a)}, alone, under the camera")
    frames = tv.shots_frames(crops, [tv.Shot(a)], gap=4)
    first = len(frames) - 4            # up to the card's last frame, not yet taken away
    notes = feed(teacher, reader, frames[:first])
    assert teacher.phase == "taken" and teacher.taught == [a]
    assert any(f"took the {tv_name(a)} (the built-in reading already agreed)" in n
               for n in notes)
    assert set(profile_cards(path)) == {a}, "saved at once, before the card is taken away"
    # Redo while the card still lies there: forgotten (in the file too), and it must be
    # shown anew (taken away first), not taken again from the same look.
    teacher.redo()
    assert teacher.current == a and teacher.phase == "clear" and teacher.taught == []
    assert profile_cards(path) == []
    feed(teacher, reader, frames[first:], t0=10)
    assert teacher.phase == "waiting" and teacher.current == a
    feed(teacher, reader, frames, t0=20)
    assert teacher.taught == [a] and teacher.current == b and teacher.phase == "waiting"
    # Two cards at once are refused until one is taken away.
    two = tv._table(np.random.default_rng(1))
    tv._paste(two, crops[b], 200, 240, 0.1)
    tv._paste(two, crops[c], 450, 240, -0.1)
    notes = feed(teacher, reader, [two] * 6, t0=30)
    assert teacher.phase == "many" and teacher.taught == [a]
    assert any("more than one card" in n for n in notes)
    assert teacher.skip() == [f"skipped the {tv_name(b)}", teacher.prompt()]
    assert teacher.phase == "clear"           # the cards are still there
    notes = teacher.finish()
    assert teacher.finished and teacher.skipped == [b]
    assert "not shown: " + c in notes[-1]
    status = teacher.status().to_json()
    assert status["done"] == 1 and status["total"] == 3 and status["skipped"] == [b]


def tv_name(code: str) -> str:
    from companion.cards import Card

    return Card.from_code(code).name


def test_teacher_resume_skips_cards_it_has(tmp_path: Path, crops: dict[str, np.ndarray],
                                           reader: FrameReader) -> None:
    a, b = sorted(crops)[:2]
    path = tmp_path / "deck.profile"
    DeckProfile.teach([(tv.shots_frames(crops, [tv.Shot(a)])[10], _card(a))]).save(path)
    teacher = Teacher.open(path, [a, b])
    assert teacher.queue == [b] and teacher.status().done == 1
    again = Teacher.open(path, [a, b], add=True)
    assert again.queue == [a, b]
    (tmp_path / "junk.profile").write_bytes(b"not a profile")
    with pytest.raises(TeachError, match="not a readable deck profile"):
        Teacher.open(tmp_path / "junk.profile", [a])


def _card(code: str):  # type: ignore[no-untyped-def]
    from companion.cards import Card

    return Card.from_code(code)


# -- the command line on real videos ----------------------------------------------------------


def test_cli_video_order_skips_and_resumes(tmp_path: Path,
                                           crops: dict[str, np.ndarray]) -> None:
    a, b, c, d = sorted(crops)[4:8]
    video = tv.write_video(tmp_path / "first.avi", tv.shots_frames(
        crops, [tv.Shot(a), tv.Shot(b, still=11, hand=3), tv.Shot(c, sliding=True),
                tv.Shot(d)]))
    profile = tmp_path / "deck.profile"
    order = ",".join([a, b, c, d])
    run = companion("deck", "teach", str(profile), "--video", str(video), "--order", order)
    assert run.returncode == 0, run.stderr
    assert f"skipped the {tv_name(c)}: it never lay still alone" in run.stdout
    assert f"took the {tv_name(b)}" in run.stdout      # after the hand had passed
    taught = profile_cards(profile)
    assert set(taught) == {a, b, d}
    # Resume: a second recording of all four; only the missing one is learnt.
    video2 = tv.write_video(tmp_path / "second.avi", tv.shots_frames(
        crops, [tv.Shot(a), tv.Shot(b), tv.Shot(c), tv.Shot(d)], seed=5))
    run = companion("deck", "teach", str(profile), "--video", str(video2), "--order", order)
    assert run.returncode == 0, run.stderr
    assert run.stdout.count("is already in the profile") == 3
    assert "1 card(s) taught this time, 4/4 in the profile" in run.stdout
    again = profile_cards(profile)
    assert set(again) == {a, b, c, d}
    assert sorted(x for x in again if x != c) == sorted(taught), "known cards untouched"


def test_cli_interactive_skip_from_the_keyboard(tmp_path: Path,
                                               crops: dict[str, np.ndarray]) -> None:
    """A person at the terminal: Enter skips the card asked for, the video (played on its
    own clock, as a camera) shows the next ones.  (Each card lies still for a second, with a
    second of empty table between: on its own clock the video drops the frames a busy
    machine is too slow for, and on a loaded machine a gap of a third of a second was too
    few frames to see the first card taken away.)"""
    a, b, c = sorted(crops)[8:11]
    frames = tv.shots_frames(crops, [tv.Shot(b, still=30), tv.Shot(c, still=30)], gap=30)
    video = tv.write_video(tmp_path / "live.avi", frames, fps=30.0)
    profile = tmp_path / "deck.profile"
    run = companion("deck", "teach", str(profile), "--video", str(video),
                    "--cards", f"{a},{b},{c}", stdin="\n")
    assert run.returncode == 0, run.stderr
    assert f"skipped the {tv_name(a)}" in run.stdout
    assert f"[0/3] Show the {tv_name(a)}, alone, under the camera" in run.stdout
    assert set(profile_cards(profile)) == {b, c}


@pytest.mark.parametrize("args, message", [
    (["--video", "missing.avi"], "missing.avi: no such video file"),
    (["--video", "garbage.avi"], "cannot be opened as a video"),
    (["--camera", "7"], "camera 7 cannot be opened"),
    (["--url", "http://127.0.0.1:9/video"], "cannot connect to this stream"),
    (["--camera", "0", "--order", "QH"], "--order needs --video"),
    (["--camera", "0", "--cards", "QX"], "--cards QX: not a card"),
    (["labels.csv", "--camera", "0"], "not both at once"),
])
def test_cli_bad_sources_say_what_to_do(tmp_path: Path, args: list[str], message: str) -> None:
    (tmp_path / "garbage.avi").write_bytes(b"this is not a video at all" * 40)
    run = subprocess.run(
        [sys.executable, "-m", "companion", "deck", "teach", "deck.profile", *args],
        cwd=tmp_path, capture_output=True, text=True, timeout=60,
        env={**os.environ, "PYTHONPATH": str(REPO), "OMP_NUM_THREADS": "1"})
    assert run.returncode == 2
    assert message in run.stderr
    assert "Traceback" not in run.stderr
    assert not (tmp_path / "deck.profile").exists()


def test_taught_deck_reads_its_photos_at_least_as_well(
        tmp_path: Path, crops: dict[str, np.ndarray]) -> None:
    codes = sorted(crops)[:10]
    video = tv.write_video(tmp_path / "deck.avi", tv.shots_frames(
        crops, [tv.Shot(c, still=5) for c in codes], gap=4))
    profile = tmp_path / "webcam.profile"
    run = companion("deck", "teach", str(profile), "--video", str(video), "--order",
                    ",".join(codes))
    assert run.returncode == 0, run.stderr
    assert set(profile_cards(profile)) == set(codes)
    photos = [p for p in realdata.photos(WEBCAM)
              if "test" in p.path.name and p.cards[0] in codes]
    assert len(photos) >= 8
    names = [str(p.path) for p in photos]

    def score(*deck: str) -> tuple[int, int]:
        out = companion("identify", *deck, *names)
        assert out.returncode == 0, out.stderr
        right = wrong = 0
        for line, photo in zip(out.stdout.splitlines(), photos, strict=True):
            said = [c["card"] for c in json.loads(line)["cards"] if c["card"]]
            right += photo.cards[0] in said
            wrong += sum(s != photo.cards[0] for s in said)
        return right, wrong

    base_right, base_wrong = score()
    right, wrong = score("--deck", str(profile))
    assert right >= base_right and wrong <= base_wrong
    assert right == len(photos) and wrong == 0


# -- the watch loop's hooks -------------------------------------------------------------------


def test_watch_control_lends_frames_and_swaps_the_profile(
        tmp_path: Path, crops: dict[str, np.ndarray]) -> None:
    a, b = sorted(crops)[12:14]
    video = tv.write_video(tmp_path / "table.avi", tv.shots_frames(
        crops, [tv.Shot(a), tv.Shot(b)], gap=6))
    control = WatchControl()
    seen: list[int] = []
    lent = threading.Event()

    def tap(frame, result) -> bool:  # type: ignore[no-untyped-def]
        # The first card is shown to the teacher: no table events for it.
        seen.append(frame.index)
        if frame.index < 22:
            return True
        lent.set()
        return False

    control.set_tap(tap)
    events = list(watch_events(video, config=WatchConfig(use_board=False), control=control))
    placed = [e["card"] for e in events if e["event"] == "placed"]
    assert placed == [b], events
    assert lent.is_set() and seen == list(range(len(seen)))
    assert control.state == "ended" and control.frames == len(seen)
    # A profile set from another thread is used from the next frame on.
    reader = FrameReader()
    prof = DeckProfile(name="x")
    control.set_profile(prof)
    control._apply(reader)
    assert reader.recognizer.profile is prof and control.profile is prof
    control._apply(reader)          # nothing pending: the same recognizer
    assert reader.recognizer.profile is prof


def test_watch_control_hears_a_source_that_cannot_open(tmp_path: Path) -> None:
    control = WatchControl()
    with pytest.raises(ValueError, match="no such video file"):
        watch_events(tmp_path / "none.avi", config=WatchConfig(use_board=False),
                     control=control)
    assert control.state == "ended" and "no such video file" in control.reason
