"""``companion identify`` and ``companion deck`` run as real subprocesses."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.synth import SynthConfig, render_frame

PHONE = "data/phone-scenes"


def companion(repo: Path, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "companion", *args],
        cwd=repo, capture_output=True, text=True, timeout=timeout,
        env={"OMP_NUM_THREADS": "1", "PATH": "/usr/bin:/bin"},
    )


def lines(proc: subprocess.CompletedProcess[str]) -> list[dict[str, object]]:
    return [json.loads(line) for line in proc.stdout.splitlines()]


def assert_corners(corners: object) -> None:
    assert isinstance(corners, list) and len(corners) == 4
    for point in corners:
        assert isinstance(point, list) and len(point) == 2
        assert all(isinstance(v, (int, float)) for v in point)


@pytest.fixture(scope="module")
def synth_png(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, object]:
    frame = render_frame(["QH", "7C", "AS"], ["budge:swallow-guide"], seed=12,
                         config=SynthConfig(max_tilt_deg=25))
    path = tmp_path_factory.mktemp("synth") / "table.png"
    cv2.imwrite(str(path), frame.image)
    return path, frame


def test_identify_many_images_one_line_each_in_order(
    repo_root: Path, shared_dir: Path, synth_png: tuple[Path, object]
) -> None:
    png, _frame = synth_png
    green = shared_dir / PHONE / "training-green_many.jpg"
    webcam = shared_dir / "data/webcam-grey/data1-train10.jpg"
    proc = companion(repo_root, "identify", str(green), str(webcam), str(png))
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    out = lines(proc)
    assert [o["image"] for o in out] == [str(green), str(webcam), str(png)]
    for o in out:
        assert set(o) >= {"image", "ms", "cards", "codes"}
        assert isinstance(o["ms"], (int, float)) and o["ms"] >= 0
        for card in o["cards"]:  # type: ignore[union-attr]
            assert set(card) >= {"card", "corners", "confidence"}
            assert card["card"] is None or isinstance(card["card"], str)
            assert 0.0 <= card["confidence"] <= 1.0
            assert_corners(card["corners"])
        for code in o["codes"]:  # type: ignore[union-attr]
            assert set(code) >= {"data", "corners"}
            assert_corners(code["corners"])
    # six cards lie on the green cloth: the detector must at least find most of them
    assert len(out[0]["cards"]) >= 4  # type: ignore[arg-type]
    assert out[0]["codes"] == []


def test_identify_reports_the_printed_code_not_a_null_card(
    repo_root: Path, synth_png: tuple[Path, object]
) -> None:
    png, frame = synth_png
    out = lines(companion(repo_root, "identify", str(png)))[0]
    codes = out["codes"]
    assert [c["data"] for c in codes] == ["budge:swallow-guide"]  # type: ignore[union-attr]
    truth = frame.codes[0].corners  # type: ignore[attr-defined]
    got = codes[0]["corners"]  # type: ignore[index]
    assert max(abs(a - b) for p, q in zip(got, truth, strict=True)
               for a, b in zip(p, q, strict=True)) < 5
    # The QR card's quad is reported under codes only; three playing cards remain at most.
    assert len(out["cards"]) <= 3  # type: ignore[arg-type]


def test_identify_relative_paths_are_echoed_as_given(
    repo_root: Path, shared_dir: Path
) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "companion", "identify", "training-8cards_top.jpg",
         "training-Qhearts.jpg"],
        cwd=shared_dir / PHONE, capture_output=True, text=True, timeout=120,
        env={"OMP_NUM_THREADS": "1", "PYTHONPATH": str(repo_root), "PATH": "/usr/bin:/bin"},
    )
    assert proc.returncode == 0, proc.stderr
    out = lines(proc)
    assert [o["image"] for o in out] == ["training-8cards_top.jpg", "training-Qhearts.jpg"]
    assert len(out[0]["cards"]) >= 6  # type: ignore[arg-type]


def test_missing_file_gives_an_error_line_and_status_1_but_others_are_read(
    repo_root: Path, shared_dir: Path
) -> None:
    photo = shared_dir / PHONE / "training-Ahearts.jpg"
    proc = companion(repo_root, "identify", "no/such/photo.jpg", str(photo))
    assert proc.returncode == 1
    out = lines(proc)
    assert out[0] == {"image": "no/such/photo.jpg", "error": "no such file"}
    assert out[1]["image"] == str(photo) and "cards" in out[1]


def test_threshold_turns_unsure_readings_into_null(repo_root: Path, shared_dir: Path) -> None:
    photo = str(shared_dir / PHONE / "training-8cards_top.jpg")
    loose = lines(companion(repo_root, "identify", "--threshold", "0", photo))[0]
    strict = lines(companion(repo_root, "identify", "--threshold", "0.999", photo))[0]
    assert len(loose["cards"]) == len(strict["cards"])  # type: ignore[arg-type]
    assert any(c["card"] for c in loose["cards"])  # type: ignore[union-attr]
    for card in strict["cards"]:  # type: ignore[union-attr]
        assert card["card"] is None or card["confidence"] >= 0.999
    bad = companion(repo_root, "identify", "--threshold", "7", photo)
    assert bad.returncode == 2 and "between 0 and 1" in bad.stderr


def test_deck_teach_from_file_card_csv_then_identify_with_the_profile(
    repo_root: Path, shared_dir: Path, tmp_path: Path
) -> None:
    phone = shared_dir / PHONE
    csv_path = tmp_path / "labels.csv"
    csv_path.write_text(
        "file,card\n"
        f"{phone / 'training-Qhearts.jpg'},QH\n"
        f"{phone / 'training-7clubs.jpg'},7C\n"
        f"{phone / 'training-10spades.jpg'},10S\n"
    )
    profile = tmp_path / "deck.npz"
    proc = companion(repo_root, "deck", "teach", str(profile), str(csv_path))
    assert proc.returncode == 0, proc.stderr
    assert profile.exists()
    assert "taught 3 of 3" in proc.stdout
    scene = str(phone / "training-8cards_top.jpg")
    out = companion(repo_root, "identify", "--deck", str(profile), scene)
    assert out.returncode == 0, out.stderr
    assert len(lines(out)[0]["cards"]) >= 6  # type: ignore[arg-type]

    add = companion(repo_root, "deck", "add", str(profile),
                    str(phone / "training-Kdiamonds.jpg"), "KD")
    assert add.returncode == 0, add.stderr
    assert "learnt KD" in add.stdout


def test_deck_teach_accepts_the_photo_folders_label_format(
    repo_root: Path, shared_dir: Path, tmp_path: Path
) -> None:
    phone = shared_dir / PHONE
    (tmp_path / "labels.csv").write_text(
        "file,width,height,cards,partial,notes\n"
        f"{phone / 'training-2clubs.jpg'},1200,1600,2C,,single\n"
        f"{phone / 'training-green_many.jpg'},1200,1600,9D;4H;5C;JS;AC;2C,,many\n"
        f"{phone / 'training-Jdiamonds.jpg'},1200,1600,JD,,single\n"
    )
    profile = tmp_path / "p.npz"
    proc = companion(repo_root, "deck", "teach", str(profile), str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert "taught 2 of 2" in proc.stdout
    assert "skipping 1 photo(s) that show more than one card" in proc.stderr


def test_deck_teach_from_the_deck_sheet_grid(
    repo_root: Path, shared_dir: Path, tmp_path: Path
) -> None:
    profile = tmp_path / "sheet.npz"
    labels = shared_dir / "data/deck-sheet/labels.csv"
    proc = companion(repo_root, "deck", "teach", str(profile), str(labels))
    assert proc.returncode == 0, proc.stderr
    taught = int(proc.stdout.split("taught ")[1].split(" of ")[0])
    assert "of 52 card photo(s)" in proc.stdout
    assert taught >= 40
    assert profile.exists()


def test_deck_commands_refuse_bad_input_with_a_message(
    repo_root: Path, shared_dir: Path, tmp_path: Path
) -> None:
    photo = str(shared_dir / PHONE / "training-Ahearts.jpg")
    cases = [
        (["identify", "--deck", str(tmp_path / "none.npz"), photo], "no such deck profile"),
        (["deck", "add", str(tmp_path / "p.npz"), photo, "ZZ"], "not a card code"),
        (["deck", "add", str(tmp_path / "p.npz"), str(tmp_path / "x.jpg"), "AH"], "no such file"),
        (["deck", "teach", str(tmp_path / "p.npz"), str(tmp_path / "nope.csv")],
         "no such label file"),
        (["deck", "teach", str(tmp_path / "p.npz")], "give LABELS.csv"),
        (["deck", "teach", str(tmp_path / "p.npz"), "--sheet", photo, "--grid", "13"],
         "ROWSxCOLUMNS"),
    ]
    for args, message in cases:
        proc = companion(repo_root, *args)
        assert proc.returncode == 2, (args, proc.stderr)
        assert message in proc.stderr, (args, proc.stderr)
        assert "Traceback" not in proc.stderr
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"not a profile")
    proc = companion(repo_root, "identify", "--deck", str(junk), photo)
    assert proc.returncode == 2 and "junk.npz" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_watch_a_video_file_gives_stable_placed_and_removed_events(
    repo_root: Path, tmp_path: Path
) -> None:
    cfg = SynthConfig(width=640, height=480, max_tilt_deg=10, table="cloth",
                      max_noise_sigma=2, max_blur_sigma=0.3)
    both = render_frame(["9D", "4H"], ["budge:swallow-guide"], seed=5, config=cfg).image
    one = render_frame(["9D"], ["budge:swallow-guide"], seed=5, config=cfg).image
    video = tmp_path / "table.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 10, (640, 480))
    assert writer.isOpened()
    # 4H shows for 6 frames, then disappears; one blank frame in the middle is a hand
    # passing over the table, which must not count as a removal.
    for frame in [both] * 3 + [np.zeros_like(both)] + [both] * 3 + [one] * 6:
        writer.write(frame)
    writer.release()
    proc = companion(repo_root, "watch", str(video), "--json", "--frames", "3")
    assert proc.returncode == 0, proc.stderr
    events = lines(proc)
    placed = {(e.get("card") or e.get("code")) for e in events if e["event"] == "placed"}
    removed = [e for e in events if e["event"] == "removed"]
    assert placed == {"9D", "4H", "budge:swallow-guide"}
    assert removed == [{"t": removed[0]["t"], "event": "removed", "card": "4H", "zone": "table"}]
    assert 0.9 <= float(removed[0]["t"]) <= 1.0  # third frame without it, at 10 frames/s
    assert all(e["zone"] == "table" for e in events)
    bad = companion(repo_root, "watch", str(tmp_path / "missing.avi"))
    assert bad.returncode == 2 and "no such video file" in bad.stderr
