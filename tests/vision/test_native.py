"""The compiled card reader (vision/native.py, scripts/build_native.py): used where it is
current, never where it is not, and reading every picture exactly as its sources do."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import cv2
import frames
import pytest
import realdata

from vision import native
from vision.synth import SynthConfig, random_frame

REPO = Path(__file__).resolve().parents[2]


def _python(code: str, **env: str) -> str:
    """What ``code`` prints, run by a fresh interpreter from the repository."""
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=120,
        env={"PATH": "/usr/bin:/bin", "OMP_NUM_THREADS": "1", **env}, check=True)
    return proc.stdout.strip()


_STATUS = "import vision.native as n; print(n.status); print(n.in_use())"


def test_the_tests_run_the_compiled_card_reader() -> None:
    """``./test`` compiles the card reader (scripts/setup.sh) and the tests run it, but where
    the sources are asked for."""
    if os.environ.get(native.PURE_ENV, "") not in ("", "0"):
        assert native.status.startswith("sources: ") and native.in_use() == "sources"
    else:
        assert native.status == "compiled", native.status
        assert native.in_use() == "compiled"
    assert _python(_STATUS).splitlines() == ["compiled", "compiled"]
    said = _python(_STATUS, COMPANION_PURE_PYTHON="1").splitlines()
    assert said == [f"sources: {native.PURE_ENV} is set", "sources"]


def test_a_build_of_other_sources_or_none_is_not_used(tmp_path: Path) -> None:
    """A build whose digest is not the sources' (a source edited since, another Python) is
    left alone, and so is a folder holding none: the sources run."""
    other = tmp_path / "other"
    shutil.copytree(native.build_dir(), other)
    stamp = other / "vision" / native.STAMP
    assert stamp.read_text().strip() == native.digest()
    stamp.write_text("0" * 64 + "\n")
    status, used = _python(_STATUS, COMPANION_NATIVE_DIR=str(other)).splitlines()
    assert status.startswith("sources: compiled from other sources") and used == "sources"
    status, used = _python(_STATUS, COMPANION_NATIVE_DIR=str(tmp_path / "none")).splitlines()
    assert status.startswith("sources: not compiled") and used == "sources"
    # (the copy, its digest put back, is used)
    stamp.write_text(native.digest() + "\n")
    assert _python(_STATUS, COMPANION_NATIVE_DIR=str(other)).splitlines() == [
        "compiled", "compiled"]


def test_the_digest_follows_every_compiled_source(tmp_path: Path) -> None:
    """One byte more in any compiled module's source, or in the C kernels', is another
    digest."""
    first = native.digest()
    copy = tmp_path / "vision"
    shutil.copytree(native.PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__", "data"))
    for name in [f"{m}.py" for m in native.MODULES] + [f"{native.KERNELS}.c"]:
        source = copy / name
        text = source.read_bytes()
        source.write_bytes(text + b"\n")
        code = ("import sys, vision.native as n; n.PACKAGE = __import__('pathlib').Path("
                f"{str(copy)!r}); print(n.digest())")
        assert _python(code) not in ("", first), name
        source.write_bytes(text)


def _identify(paths: list[Path], **env: str) -> list[dict[str, object]]:
    """``companion identify``'s lines for ``paths``, but the time each took."""
    proc = subprocess.run(
        [sys.executable, "-m", "companion", "identify", *map(str, paths)],
        cwd=REPO, capture_output=True, text=True, timeout=900,
        env={"PATH": "/usr/bin:/bin", "OMP_NUM_THREADS": "1", **env})
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    for line in lines:
        line.pop("ms")
    return lines


@pytest.mark.slow
def test_compiled_and_sources_read_every_picture_alike(tmp_path: Path) -> None:
    """Every shared photo, and drawn and composed frames of many kinds (sharp, blurred,
    small, noisy, fanned, touching, with QR codes), read by ``companion identify`` compiled
    and from the sources: the same lines (but the time each took), every corner and
    confidence to the digit."""
    pictures = sorted(p for p in realdata.data_dir().rglob("*")  # type: ignore[union-attr]
                      if p.suffix.lower() in (".jpg", ".jpeg", ".png"))
    assert len(pictures) >= 100
    made = tmp_path / "frames"
    made.mkdir()
    configs = [SynthConfig(), SynthConfig(width=640, height=480),
               SynthConfig(max_blur_sigma=2.2), SynthConfig(card_height=(0.15, 0.22)),
               SynthConfig(max_blur_sigma=1.6, max_noise_sigma=9.0)]
    for seed in range(24):
        drawn = random_frame(seed, 3 + seed % 10, seed % 3, configs[seed % len(configs)])
        image = drawn.image
        if seed % 5 == 4:
            image = cv2.GaussianBlur(image, (0, 0), 1.6)
        path = made / f"drawn-{seed}.png"
        cv2.imwrite(str(path), image)
        pictures.append(path)
    photos = realdata.photos("phone-scenes")
    from vision.pipeline import Recognizer

    crops = frames.card_crops(Recognizer(), photos)
    composed = [frames.table_frame(crops, 12, seed=s, qr=[f"budge:n-{s}"])[0] for s in range(4)]
    composed += [frames.fan_frame(crops, 5, seed=s)[0] for s in range(4)]
    composed += [frames.touching_frame(crops, 6, seed=s)[0] for s in range(4)]
    composed += [frames.strip_frame(crops, 6, seed=s)[0] for s in range(4)]
    for i, image in enumerate(composed):
        path = made / f"composed-{i}.png"
        cv2.imwrite(str(path), image)
        pictures.append(path)
    compiled = _identify(pictures)
    sources = _identify(pictures, COMPANION_PURE_PYTHON="1")
    assert len(compiled) == len(pictures)
    differ = [(a, b) for a, b in zip(compiled, sources, strict=True) if a != b]
    assert not differ, differ[:3]
    # (cards were read: the comparison is of readings, not of empty lines)
    named = sum(1 for line in compiled for card in line["cards"]  # type: ignore[attr-defined]
                if card["card"] is not None)
    assert named > 400, named


def test_the_build_says_whether_it_is_current(tmp_path: Path) -> None:
    """``scripts/build_native.py --check`` (what ``./run`` asks before compiling in the
    background): 0 for the current build, 3 for none, compiling nothing."""
    def check(where: Path) -> int:
        return subprocess.run(
            [sys.executable, "scripts/build_native.py", "--check"], cwd=REPO,
            env={"PATH": "/usr/bin:/bin", "COMPANION_NATIVE_DIR": str(where)},
            capture_output=True, text=True, timeout=60).returncode

    assert check(native.build_dir()) == 0
    assert check(tmp_path / "none") == 3
    assert not (tmp_path / "none").exists()


def test_what_a_reader_object_works_out_it_keeps() -> None:
    """A corner's quality and best suit, a card's crop and a frame's masks are worked out
    once and kept, compiled as from the sources (a compiled class has no instance
    dictionary, where functools.cached_property keeps a value: it would work them out at
    every look, the local-light mask some 0.7 ms each)."""
    import numpy as np

    from vision.detect import _Masks, _Shrunk
    from vision.pipeline import CardQuad, CornerRead, RecognizerConfig

    read = CornerRead(np.array([0.2, 0.9], np.float32), np.array([0.1, 0.3], np.float32), None)
    assert (read.quality, read.suit_best) == (np.float32(0.9) + np.float32(0.3), 1)
    read.rank_scores[1] = 0.0  # (never done: the scores are final when first looked at)
    read.suit_scores[0] = 0.5
    assert (read.quality, read.suit_best) == (np.float32(0.9) + np.float32(0.3), 1)
    assert read.rank_list is read.rank_list
    card = CardQuad(np.array([[0, 0], [25, 0], [25, 35], [0, 35]], np.float32),
                    np.zeros((40, 30, 3), np.uint8))
    assert card.crop is card.crop
    grey = np.random.default_rng(0).integers(0, 255, (90, 160)).astype(np.uint8)
    masks = _Masks(grey, _Shrunk(cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR), 1.0, (160, 90)),
                   RecognizerConfig())
    assert masks.local_bright is masks.local_bright
    for name in ("noise", "bright_split", "shaded"):
        first = getattr(masks, name)
        assert getattr(masks, f"_{name}") == first, name
