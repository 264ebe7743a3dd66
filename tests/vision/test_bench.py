"""The vision benchmark: scoring rules, and real runs on small folders."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from companion.cards import Card
from vision.bench import Tally, score_image
from vision.synth import random_frame, write_folder


def cards(*codes: str) -> list[Card]:
    return [Card.from_code(c) for c in codes]


def test_score_by_identity_within_the_image() -> None:
    s = score_image(cards("QH", "TC", "2S"), cards("4D"),
                    [*cards("QH", "9C", "4D", "QH"), None])
    assert [c.code for c in s.correct] == ["QH"]
    assert [c.code for c in s.wrong] == ["9C", "QH"]  # a second QH is one too many
    assert sorted(c.code for c in s.missed) == ["2S", "TC"]
    assert [c.code for c in s.partial_found] == ["4D"]  # bonus, never counted against
    assert s.abstained == 1


def test_nothing_read_is_all_missed_and_no_labels_makes_everything_wrong() -> None:
    s = score_image(cards("AS", "AS"), (), [])
    assert len(s.missed) == 2 and not s.correct and not s.wrong
    s = score_image((), (), cards("KH"))
    assert [c.code for c in s.wrong] == ["KH"] and not s.missed


def test_tally_precision_recall_and_breakdowns() -> None:
    t = Tally("t")
    labelled = cards("QH", "QS", "3H")
    t.add(labelled, score_image(labelled, (), [*cards("QH", "3S"), None]), 10.0)
    assert (t.correct, t.wrong, t.missed, t.abstained) == (1, 1, 2, 1)
    assert t.precision == 0.5 and t.recall == 1 / 3
    j = t.to_json()
    assert j["per_suit"]["H"] == {"labelled": 2, "correct": 1, "missed": 1}
    assert j["per_suit"]["S"] == {"labelled": 1, "missed": 1, "wrong": 1}
    assert j["per_rank"]["Q"] == {"labelled": 2, "correct": 1, "missed": 1}
    assert j["ms_median"] == 10.0


def test_bench_json_on_a_synthetic_folder_and_a_real_one(
    repo_root: Path, shared_dir: Path, tmp_path: Path
) -> None:
    folder = tmp_path / "synth"
    write_folder(folder, [random_frame(s, 4, 1) for s in range(3)])
    (folder / "gone.png").write_bytes(b"")  # listed below but empty: counted as an error
    with (folder / "labels.csv").open("a") as fh:
        fh.write("gone.png,10,10,AS,,broken file\n")
    proc = subprocess.run(
        [sys.executable, "-m", "vision.bench", "--json", "--frames", "2", "--limit", "4",
         str(folder), str(shared_dir / "data/webcam-grey")],
        cwd=repo_root, capture_output=True, text=True, timeout=120,
        env={"OMP_NUM_THREADS": "1", "PATH": "/usr/bin:/bin"},
    )
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    synth, webcam = report["folders"]
    assert synth["images"] == 3 and synth["errors"] == 1 and synth["labelled"] == 12
    assert webcam["images"] == 4 and webcam["labelled"] == 4
    for part in (synth, webcam, report["total"], report["synthetic"]):
        assert part["correct"] + part["missed"] == part["labelled"]
        assert part["ms_median"] > 0
    assert report["synthetic"]["images"] == 2
    assert report["synthetic"]["labelled"] == 12 + 9
    assert report["synthetic"]["codes_expected"] == 1
    assert report["synthetic"]["codes_found"] == 1
    # the speed goal's case, timed apart: the one frame of 12 cards of the two
    full = report["synthetic"]
    assert full["full_cards"] == 12 and full["full_frames"] == 1
    assert 0 < full["ms_full_median"] == full["ms_full_max"]
    assert full["full_reads"] == 5  # (its fastest read of five)
    assert report["total"]["full_frames"] == 0 and report["total"]["ms_full_median"] is None


def test_bench_vision_command_prints_a_table(repo_root: Path, shared_dir: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "companion", "bench-vision", "--frames", "1", "--limit", "3",
         "--quiet", str(shared_dir / "data/phone-scenes")],
        cwd=repo_root, capture_output=True, text=True, timeout=120,
        env={"OMP_NUM_THREADS": "1", "PATH": "/usr/bin:/bin"},
    )
    assert proc.returncode == 0, proc.stderr
    assert "precision" in proc.stdout and "phone-scenes" in proc.stdout
    assert "synthetic 1280x720" in proc.stdout
    assert "synthetic frames of 12 cards (1, the fastest of 5 reads each, CPU time):" in proc.stdout
    assert "goal: 15 ms" in proc.stdout
    assert "by suit" in proc.stdout and "by rank" in proc.stdout


def test_teach_split_scores_only_photos_not_used_for_teaching(
    repo_root: Path, shared_dir: Path, tmp_path: Path
) -> None:
    phone = shared_dir / "data/phone-scenes"
    (tmp_path / "labels.csv").write_text(
        "file,width,height,cards,partial,notes\n"
        f"{phone / 'training-Qspades.jpg'},1600,1200,QS,,single\n"
        f"{phone / 'training-9spades.jpg'},1600,1200,9S,,single\n"
        f"{phone / 'training-Adiamonds.jpg'},1200,1600,AD,,single\n"
        f"{phone / 'training-8cards_top.jpg'},1200,1600,QS;9S;AD;10H;AC;4S;7C;6C,,scene\n"
    )
    proc = subprocess.run(
        [sys.executable, "-m", "vision.bench", "--json", "--frames", "0", "--teach-split",
         str(tmp_path), "--save-profile", str(tmp_path / "p.npz"), str(tmp_path)],
        cwd=repo_root, capture_output=True, text=True, timeout=120,
        env={"OMP_NUM_THREADS": "1", "PATH": "/usr/bin:/bin"},
    )
    assert proc.returncode == 0, proc.stderr
    assert "taught 3 of 3" in proc.stderr
    report = json.loads(proc.stdout)
    (folder,) = report["folders"]
    assert folder["images"] == 1 and folder["labelled"] == 8
    assert report["deck"] == str(tmp_path / "p.npz")
    assert (tmp_path / "p.npz").exists()
    assert report["synthetic"] is None


def test_bench_refuses_a_folder_without_labels(repo_root: Path, tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "vision.bench", str(tmp_path)],
        cwd=repo_root, capture_output=True, text=True, timeout=60,
        env={"OMP_NUM_THREADS": "1", "PATH": "/usr/bin:/bin"},
    )
    assert proc.returncode == 2
    assert "no labels.csv" in proc.stderr and "Traceback" not in proc.stderr


def test_bench_scores_the_labelled_folders_inside_a_folder_and_skips_files(
    repo_root: Path, shared_dir: Path, tmp_path: Path
) -> None:
    """``vision.bench ../shared/data`` (or ``../shared/data/*``, which takes in the README
    beside the folders) scores every labelled folder in it; a stray file is skipped with
    a note, not a reason to score nothing."""
    data = tmp_path / "data"
    for name, seeds in (("one", (1, 2)), ("two", (3,))):
        write_folder(data / name, [random_frame(s, 3, 0) for s in seeds])
    (data / "README.md").write_text("photos\n")
    (data / "empty").mkdir()
    for args in ([str(data)], [str(p) for p in sorted(data.iterdir())]):
        proc = subprocess.run(
            [sys.executable, "-m", "vision.bench", "--json", "--frames", "0", *args],
            cwd=repo_root, capture_output=True, text=True, timeout=120,
            env={"OMP_NUM_THREADS": "1", "PATH": "/usr/bin:/bin"},
        )
        if args == [str(data)]:
            assert proc.returncode == 0, proc.stderr
            report = json.loads(proc.stdout)
            assert [f["images"] for f in report["folders"]] == [2, 1]
        else:  # README.md skipped with a note; the empty folder is an error: said so
            assert proc.returncode == 2
            assert "skipping" in proc.stderr and "README.md" in proc.stderr
            assert "empty" in proc.stderr and "no labels.csv" in proc.stderr
            assert "Traceback" not in proc.stderr
    proc = subprocess.run(
        [sys.executable, "-m", "vision.bench", "--json", "--frames", "0",
         str(data / "README.md"), str(data / "one"), str(data / "two")],
        cwd=repo_root, capture_output=True, text=True, timeout=120,
        env={"OMP_NUM_THREADS": "1", "PATH": "/usr/bin:/bin"},
    )
    assert proc.returncode == 0, proc.stderr
    assert "skipping" in proc.stderr
    assert [f["images"] for f in json.loads(proc.stdout)["folders"]] == [2, 1]


def test_the_speed_goals_frames_are_timed_by_their_fastest_read(repo_root: Path) -> None:
    """Each 12-card frame is read --speed-reads times and its fastest read counted (one
    read: the scored one); fewer than one read is refused, saying what to give."""
    def bench(*extra: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "vision.bench", "--frames", "1", *extra],
            cwd=repo_root, capture_output=True, text=True, timeout=120,
            env={"OMP_NUM_THREADS": "1", "PATH": "/usr/bin:/bin"},
        )

    one = bench("--json", "--speed-reads", "1")
    assert one.returncode == 0, one.stderr
    assert json.loads(one.stdout)["synthetic"]["full_reads"] == 1
    three = bench("--speed-reads", "3")
    assert three.returncode == 0, three.stderr
    assert ("synthetic frames of 12 cards (1, the fastest of 3 reads each, CPU time):"
            in three.stdout)
    refused = bench("--speed-reads", "0")
    assert refused.returncode == 2 and "give 1 or more reads" in refused.stderr
    assert refused.stdout == ""
