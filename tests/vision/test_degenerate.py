"""Degenerate inputs: a clear message or an empty reading, never a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.identify import FrameReader
from vision.images import ImageLoadError, decode_image, load_image, to_bgr8
from vision.qr import QrReader


@pytest.fixture(scope="module")
def bad_files(tmp_path_factory: pytest.TempPathFactory, shared_dir: Path) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("degenerate")
    files = {
        "empty": d / "empty.jpg",
        "corrupt": d / "corrupt.jpg",
        "truncated": d / "truncated.jpg",
        "text": d / "notes.png",
        "folder": d / "a-folder.jpg",
        "tiny": d / "one-pixel.png",
        "black": d / "black.png",
        "white": d / "white.png",
        "grey16": d / "grey16.png",
    }
    files["empty"].write_bytes(b"")
    rng = np.random.default_rng(0)
    files["corrupt"].write_bytes(b"\xff\xd8\xff\xe0" + rng.bytes(3000))
    real = (shared_dir / "data/webcam-grey/data1-train1.jpg").read_bytes()
    files["truncated"].write_bytes(real[: len(real) // 3])
    files["text"].write_text("this is not a picture\n")
    files["folder"].mkdir()
    cv2.imwrite(str(files["tiny"]), np.full((1, 1, 3), 200, np.uint8))
    cv2.imwrite(str(files["black"]), np.zeros((480, 640, 3), np.uint8))
    cv2.imwrite(str(files["white"]), np.full((720, 1280, 3), 255, np.uint8))
    cv2.imwrite(str(files["grey16"]), np.full((60, 80), 40000, np.uint16))
    return files


def test_identify_subprocess_on_every_bad_input(repo_root: Path, bad_files: dict[str, Path]
                                                ) -> None:
    names = list(bad_files)
    proc = subprocess.run(
        [sys.executable, "-m", "companion", "identify", *(str(bad_files[n]) for n in names)],
        cwd=repo_root, capture_output=True, text=True, timeout=120,
        env={"OMP_NUM_THREADS": "1", "PATH": "/usr/bin:/bin"},
    )
    assert "Traceback" not in proc.stderr
    assert proc.returncode == 1  # some files were unreadable
    out = {Path(str(o["image"])).name: o for o in map(json.loads, proc.stdout.splitlines())}
    assert len(out) == len(names)
    by = {n: out[bad_files[n].name] for n in names}
    assert by["empty"]["error"] == "the file is empty (0 bytes)"
    assert "not an image" in str(by["corrupt"]["error"])
    assert "not an image" in str(by["text"]["error"])
    assert "folder" in str(by["folder"]["error"])
    # A truncated JPEG decodes partly (libjpeg fills the rest): a reading or an error line.
    assert "cards" in by["truncated"] or "error" in by["truncated"]
    for n in ("tiny", "black", "white", "grey16"):
        assert by[n]["cards"] == [] and by[n]["codes"] == [], n


def test_loader_messages_name_the_file(bad_files: dict[str, Path]) -> None:
    with pytest.raises(ImageLoadError, match=r"empty\.jpg: the file is empty"):
        load_image(bad_files["empty"])
    with pytest.raises(ImageLoadError, match="no such file"):
        load_image(bad_files["empty"].with_name("absent.jpg"))
    with pytest.raises(ImageLoadError, match="not an image OpenCV can decode"):
        decode_image(b"GIF89a\x00\x00", "x.gif")
    assert load_image(bad_files["grey16"]).dtype == np.uint8
    assert load_image(bad_files["grey16"]).shape == (60, 80, 3)


def test_odd_arrays_become_bgr8() -> None:
    assert to_bgr8(np.zeros((5, 4), np.uint8)).shape == (5, 4, 3)
    assert to_bgr8(np.zeros((5, 4, 4), np.uint8)).shape == (5, 4, 3)
    assert to_bgr8(np.ones((5, 4, 3), np.float32))[0, 0, 0] == 255
    with pytest.raises(ImageLoadError, match="unsupported image layout"):
        to_bgr8(np.zeros((5, 4, 2), np.uint8))


def _with_orientation(jpeg: bytes, orientation: int) -> bytes:
    """``jpeg`` with an EXIF block holding only its orientation tag (as a phone writes)."""
    import struct

    tiff = (b"MM\x00\x2a" + struct.pack(">I", 8) + struct.pack(">H", 1)
            + struct.pack(">HHIHH", 0x0112, 3, 1, orientation, 0) + struct.pack(">I", 0))
    app1 = b"Exif\x00\x00" + tiff
    return jpeg[:2] + b"\xff\xe1" + struct.pack(">H", len(app1) + 2) + app1 + jpeg[2:]


def test_photos_are_turned_as_their_exif_orientation_says() -> None:
    """A phone stores a portrait photo sideways, tagged to be shown turned a quarter: the
    corners reported are in the picture as shown, so it is decoded turned."""
    img = np.zeros((100, 200, 3), np.uint8)
    img[:, :50] = 255  # the left quarter white
    ok, buf = cv2.imencode(".jpg", img)
    assert ok
    shown = decode_image(_with_orientation(buf.tobytes(), 6))  # 6: turn 90 degrees clockwise
    assert shown.shape == (200, 100, 3)
    assert shown[:40].mean() > 200 and shown[60:].mean() < 40  # white now on top
    assert decode_image(buf.tobytes()).shape == (100, 200, 3)


def test_a_heic_photo_is_named_with_what_to_do() -> None:
    head = b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic" + bytes(64)
    with pytest.raises(ImageLoadError, match="HEIC/HEIF photo.*save it as JPEG"):
        decode_image(head, "IMG_0001.HEIC")


def test_sixteen_bit_and_grey_files_decode_to_bgr8(tmp_path: Path) -> None:
    deep = np.full((20, 30, 3), 40000, np.uint16)
    ok, png = cv2.imencode(".png", deep)
    assert ok
    out = decode_image(png.tobytes())
    assert out.dtype == np.uint8 and out.shape == (20, 30, 3) and int(out[0, 0, 0]) == 40000 >> 8
    ok, grey = cv2.imencode(".png", np.full((20, 30), 90, np.uint8))
    assert ok
    out = decode_image(grey.tobytes())
    assert out.shape == (20, 30, 3) and int(out[0, 0, 1]) == 90


@pytest.mark.parametrize(
    "image",
    [
        np.zeros((1, 1, 3), np.uint8),
        np.zeros((0, 0, 3), np.uint8),
        np.zeros((3, 500, 3), np.uint8),
        np.zeros((480, 640, 3), np.uint8),
        np.full((720, 1280, 3), 255, np.uint8),
        np.full((480, 640), 128, np.uint8),
    ],
    ids=["1x1", "0x0", "3x500", "black", "white", "grey2d"],
)
def test_frame_reader_and_qr_reader_on_degenerate_frames(image: np.ndarray) -> None:
    assert QrReader().read(image) == []
    assert QrReader().read(image, quads=[[(0, 0), (0, 0), (0, 0), (0, 0)]]) == []
    result = FrameReader().read(image)
    assert result.codes == () and result.cards == ()
    assert result.ms >= 0


@pytest.mark.sources
def test_a_fault_of_the_reader_is_not_taken_for_an_empty_table() -> None:
    """Pictures the reader cannot work on read as no cards (above); a fault of the reader's
    own -- here a setting of the wrong type, met where it is used (on the sources: the
    compiled reader refuses it as the settings are made) -- is raised for its caller to
    report (``companion identify`` prints an error line for that image, the camera loop
    warns and goes on) rather than taken for a table without cards."""
    from vision.pipeline import Recognizer, RecognizerConfig
    from vision.synth import random_frame

    frame = random_frame(3, 4).image
    assert [r for r in Recognizer().read(frame) if r.card is not None]
    with pytest.raises(TypeError):
        Recognizer(RecognizerConfig(ink_ratio="0.68")).read(frame)  # type: ignore[arg-type]
    assert Recognizer().read(np.array([["a"]], dtype=object)) == []
