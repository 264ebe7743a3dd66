"""Board layouts, the fiducial homography (round trips, degenerate inputs), calibration files."""

from __future__ import annotations

import json
import math
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.board import (
    DEFAULT_LAYOUT,
    GAME_ZONES,
    BoardTracker,
    CalibrationError,
    HomographyFit,
    LayoutError,
    board_svg,
    calibrate,
    estimate_homography,
    load_calibration,
    load_layout,
    main,
    render_board,
    save_calibration,
)
from vision.qr import QrReader


def random_homography(rng: np.random.Generator, size: tuple[int, int] = (960, 720)) -> np.ndarray:
    """A plausible overhead camera: the board fills most of the frame, mildly tilted."""
    w, h = size
    m = 0.06
    quad = np.array([[m * w, m * h], [(1 - m) * w, m * h], [(1 - m) * w, (1 - m) * h],
                     [m * w, (1 - m) * h]]) + rng.uniform(-0.05, 0.05, (4, 2)) * [w, h]
    src = np.array([[0, 0], [420, 0], [420, 297], [0, 297]], np.float32)
    return cv2.getPerspectiveTransform(src, quad.astype(np.float32)).astype(np.float64)


def project(h: np.ndarray, points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    out = cv2.perspectiveTransform(np.asarray(points, np.float64).reshape(-1, 1, 2), h)
    return [(float(x), float(y)) for x, y in out.reshape(-1, 2)]


def fiducial_codes(h: np.ndarray, skip: tuple[str, ...] = ()) -> list[tuple[str, list]]:
    layout = load_layout()
    return [(f.text, project(h, list(f.corners))) for f in layout.fiducials
            if f.corner_name not in skip]


def test_the_bundled_layout_has_the_game_zones_and_four_corner_fiducials() -> None:
    layout = load_layout()
    assert layout.size == (420.0, 297.0)
    names = [z.name for z in layout.zones]
    assert set(names) == set(GAME_ZONES) - {"table"}
    assert sorted(f.corner_name for f in layout.fiducials) == ["bl", "br", "tl", "tr"]
    for zone in layout.zones:
        assert layout.zone_at(zone.centre) == zone.name
    assert layout.zone_at((2.0, 2.0)) == "table"
    # Path lanes are numbered left to right.
    xs = [layout.zone(f"path:{i}").centre[0] for i in range(1, 5)]
    assert xs == sorted(xs)


@pytest.mark.parametrize(("text", "message"), [
    ("size = [420, 297\n", "not valid TOML"),
    ("zones = []\n", "size: expected [width, height] in mm (got None)"),
    ('size = [420, -1]\n', "size[1]: expected a positive number (got -1)"),
    ('size = [420, 297]\n[[zones]]\nname = "bank"\nrect = [0, 0, "x", 5]\n',
     "zones[0].rect[2]: expected a number (got 'x')"),
    ('size = [420, 297]\n[[zones]]\nname = "bank"\nrect = [400, 0, 50, 5]\n',
     "zones[0].rect: outside the 420 x 297 mm board"),
    ('size = [420, 297]\n[[zones]]\nname = "table"\nrect = [0, 0, 5, 5]\n',
     "zones[0].name: 'table' is what lies outside every zone"),
    ('size = [420, 297]\n[[zones]]\nname = "a"\nrect = [0, 0, 5, 5]\n'
     '[[zones]]\nname = "a"\npolygon = [[0, 0], [5, 0], [5, 5]]\n',
     "zones[1].name: zone names must be unique (got 'a')"),
    ('size = [420, 297]\n[[zones]]\nname = "a"\npolygon = [[0, 0], [5, 0], [9, 0]]\n',
     "zones[0].polygon: the polygon has no area"),
    ('size = [420, 297]\n[[zones]]\nname = "a"\nrect = [0, 0, 5, 5]\n',
     "fiducials: expected at least three [[fiducials]]"),
    ('size = [420, 297]\n[[zones]]\nname = "a"\nrect = [0, 0, 5, 5]\n'
     + "".join(f'[[fiducials]]\ntext = "board:x:{i}"\ncenter = [{20 + 100 * i}, 30]\nsize = 20\n'
               for i in range(3)),
     "fiducials: the fiducials lie nearly on one line"),
    ('size = [420, 297]\n[[zones]]\nname = "a"\nrect = [0, 0, 5, 5]\n'
     + '[[fiducials]]\ntext = "tl"\ncenter = [20, 20]\nsize = 20\n' * 3,
     "fiducials[0].text: expected a QR text starting with 'board:' (got 'tl')"),
])
def test_a_broken_layout_is_refused_naming_file_key_and_value(
    tmp_path: Path, text: str, message: str
) -> None:
    path = tmp_path / "board.toml"
    path.write_text(text)
    with pytest.raises(LayoutError) as err:
        load_layout(path)
    assert str(err.value).startswith(str(path)) and message in str(err.value)
    with pytest.raises(LayoutError, match="no such layout file"):
        load_layout(tmp_path / "missing.toml")


def test_homography_round_trip_board_frame_board() -> None:
    rng = np.random.default_rng(7)
    layout = load_layout()
    for _ in range(20):
        h = random_homography(rng)
        codes = fiducial_codes(h)
        # Corners as a camera reports them: half a pixel of noise.
        codes = [(t, [(x + rng.normal(0, 0.5), y + rng.normal(0, 0.5)) for x, y in c])
                 for t, c in codes]
        fit = estimate_homography(layout, codes)
        assert fit, fit.reason
        assert fit.error_mm < 1.0
        pts = [(float(x), float(y)) for x, y in rng.uniform([0, 0], [420, 297], (50, 2))]
        back = fit.to_board(project(h, pts))
        assert max(math.dist(a, b) for a, b in zip(pts, back, strict=True)) < 1.5
        for zone in layout.zones:
            (fx, fy), = project(h, [zone.centre])
            (bx, by), = fit.to_board([(fx, fy)])
            assert layout.zone_at((bx, by)) == zone.name


def test_three_fiducials_are_enough_and_fewer_fail_with_the_reason() -> None:
    layout = load_layout()
    h = random_homography(np.random.default_rng(3))
    assert estimate_homography(layout, fiducial_codes(h, skip=("br",)))
    fit = estimate_homography(layout, fiducial_codes(h, skip=("br", "tl")))
    assert not fit and fit.board_to_frame is None
    assert fit.reason == "saw 2 of 4 board fiducials (tr, bl); need 3"
    with pytest.raises(ValueError, match="no board homography"):
        fit.to_board([(1.0, 1.0)])
    none = estimate_homography(layout, [("budge:swallow-guide", [(0, 0)] * 4)])
    assert not none and "saw 0 of 4" in none.reason


def test_degenerate_fits_are_refused_with_a_reason() -> None:
    layout = load_layout()
    h = random_homography(np.random.default_rng(5))
    # A mirror image (the board seen from below, or a misprinted board).
    flip = np.array([[-1, 0, 960], [0, 1, 0], [0, 0, 1]], np.float64) @ h
    fit = estimate_homography(layout, fiducial_codes(flip))
    assert not fit and "mirrored" in fit.reason
    # Two fiducials swapped (the wrong board, or the corners read in the wrong places).
    codes = fiducial_codes(h)
    swapped = [(codes[0][0], codes[2][1]), (codes[1][0], codes[1][1]),
               (codes[2][0], codes[0][1]), (codes[3][0], codes[3][1])]
    bad = estimate_homography(layout, swapped)
    assert not bad and bad.reason
    # A board a few pixels across.
    tiny = np.diag([0.05, 0.05, 1.0])
    small = estimate_homography(layout, fiducial_codes(tiny))
    assert not small and "frame pixels" in small.reason
    # All corners on one point, and corners that are not numbers.
    same = estimate_homography(layout, [(t, [(5.0, 5.0)] * 4) for t, _ in codes])
    assert not same and same.reason
    nan = estimate_homography(layout, [(t, [(math.nan, 0.0)] * 4) for t, _ in codes])
    assert not nan and "finite" in nan.reason


def test_real_qr_codes_on_a_warped_board_give_the_homography() -> None:
    cv2.setNumThreads(1)
    layout = load_layout()
    board = render_board(layout, 3.0)
    h = random_homography(np.random.default_rng(11))
    scale = np.diag([1 / 3.0, 1 / 3.0, 1.0])
    frame = cv2.warpPerspective(board, h @ scale, (960, 720), flags=cv2.INTER_AREA,
                                borderValue=(90, 110, 140))
    codes = QrReader().read_frame(frame)
    assert sorted(c.data for c in codes if c.data.startswith("board:")) == sorted(
        f.text for f in layout.fiducials)
    fit = estimate_homography(layout, [(c.data, c.corners) for c in codes])
    assert fit, fit.reason
    pts = [(30.0, 40.0), (210.0, 148.5), (400.0, 280.0)]
    assert max(math.dist(a, b) for a, b in zip(pts, fit.to_board(project(h, pts)),
                                               strict=True)) < 3.0


def test_tracker_falls_back_to_last_good_then_to_a_calibration(tmp_path: Path) -> None:
    layout = load_layout()
    h = random_homography(np.random.default_rng(2))
    tracker = BoardTracker(layout)
    assert not tracker.update([], (960, 720))
    assert tracker.update(fiducial_codes(h), (960, 720)).source == "frame"
    held = tracker.update(fiducial_codes(h, skip=("tl", "tr")), (960, 720))
    assert held and held.source == "last good" and "saw 2 of 4" in held.reason
    saved = estimate_homography(layout, fiducial_codes(h))
    path = save_calibration(tmp_path / "cam.json", layout, saved, (960, 720), "0")
    cal = load_calibration(path, layout)
    fresh = BoardTracker(layout, cal)
    fit = fresh.update([], (960, 720))
    assert fit.source == "calibration"
    assert saved.board_to_frame is not None
    assert np.allclose(fit.board_to_frame, saved.board_to_frame)
    # The same camera at half the resolution: the calibration is scaled.
    half = fresh.update([], (480, 360))
    (x, y), = half.to_frame([(210.0, 148.5)])
    (fx, fy), = project(h, [(210.0, 148.5)])
    assert math.isclose(x, fx / 2, abs_tol=0.01) and math.isclose(y, fy / 2, abs_tol=0.01)


def test_calibration_files_that_cannot_be_used_are_refused(tmp_path: Path) -> None:
    layout = load_layout()
    with pytest.raises(CalibrationError, match="no such calibration file"):
        load_calibration(tmp_path / "none.json")
    junk = tmp_path / "junk.json"
    junk.write_text("{not json")
    with pytest.raises(CalibrationError, match="junk.json: not a board calibration"):
        load_calibration(junk)
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"layout": "chess", "board_to_frame": np.eye(3).tolist(),
                                 "frame_size": [640, 480]}))
    with pytest.raises(CalibrationError, match="made for board 'chess', not 'sinbad'"):
        load_calibration(other, layout)
    singular = tmp_path / "singular.json"
    singular.write_text(json.dumps({"layout": "sinbad", "board_to_frame": [[0] * 3] * 3,
                                    "frame_size": [640, 480]}))
    with pytest.raises(CalibrationError, match="invertible"):
        load_calibration(singular)
    with pytest.raises(CalibrationError, match="nothing to save"):
        save_calibration(tmp_path / "x.json", layout, HomographyFit.failed("no board"), (1, 1))


def test_calibrate_a_fixed_camera_from_a_video(tmp_path: Path) -> None:
    cv2.setNumThreads(1)
    layout = load_layout()
    board = render_board(layout, 3.0)
    h = random_homography(np.random.default_rng(4))
    frame = cv2.warpPerspective(board, h @ np.diag([1 / 3.0, 1 / 3.0, 1.0]), (960, 720),
                                flags=cv2.INTER_AREA)
    video = tmp_path / "cam.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 5, (960, 720))
    for _ in range(3):
        writer.write(frame)
    writer.release()
    out = tmp_path / "cal" / "table.json"
    fit = calibrate(str(video), layout, out, frames=3)
    assert fit and out.exists()
    cal = load_calibration(out, layout)
    assert cal.frame_size == (960, 720) and len(cal.fit.fiducials) == 4
    (x, y), = cal.fit.to_frame([(210.0, 148.5)])
    (fx, fy), = project(h, [(210.0, 148.5)])
    assert math.dist((x, y), (fx, fy)) < 3.0
    # A video with no board in it writes nothing and says why.
    blank = tmp_path / "blank.avi"
    writer = cv2.VideoWriter(str(blank), cv2.VideoWriter_fourcc(*"MJPG"), 5, (320, 240))
    writer.write(np.full((240, 320, 3), 128, np.uint8))
    writer.release()
    fit = calibrate(str(blank), layout, tmp_path / "none.json", frames=2)
    assert not fit and "saw 0 of 4" in fit.reason and not (tmp_path / "none.json").exists()


def test_print_writes_the_svg_and_png_and_the_png_codes_decode(tmp_path: Path) -> None:
    svg, png = tmp_path / "board.svg", tmp_path / "board.png"
    assert main(["print", str(DEFAULT_LAYOUT), str(svg), "--png", str(png), "--dpi", "60"]) == 0
    text = svg.read_text()
    assert text.startswith("<?xml") and 'width="420mm" height="297mm"' in text
    for label in ("Jaffar plays", "Path 1", "Path 4", "Bank", "Budge card",
                  "Sinbad vs. Jaffar", "board:sinbad:tl", "board:sinbad:br"):
        assert label in text
    assert text == board_svg(load_layout())
    image = cv2.imread(str(png))
    assert image.shape[:2] == (round(297 * 60 / 25.4), round(420 * 60 / 25.4))
    found = sorted(c.data for c in QrReader().read_frame(image))
    assert found == ["board:sinbad:bl", "board:sinbad:br", "board:sinbad:tl", "board:sinbad:tr"]


def test_the_committed_board_files_are_current(repo_root: Path) -> None:
    committed = repo_root / "calibration" / "sinbad-board.svg"
    assert committed.read_text() == board_svg(load_layout()), \
        "regenerate: python -m vision.board print calibration/sinbad-board.toml " \
        "calibration/sinbad-board.svg --png calibration/sinbad-board.png"
    assert (repo_root / "calibration" / "sinbad-board.png").stat().st_size < 1_000_000


def test_the_board_command_reports_errors_without_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", str(tmp_path / "none.toml")]) == 2
    assert "no such layout file" in capsys.readouterr().err
    assert main(["calibrate", str(tmp_path / "none.avi")]) == 2
    assert "no such video file" in capsys.readouterr().err
