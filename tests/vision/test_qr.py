"""QR codes: segno-made codes decoded by zbar, in frames and inside card crops."""

from __future__ import annotations

import math
import sys
from typing import Any

import cv2
import numpy as np
import pytest

from vision.qr import CodeReading, QrConfig, QrReader, ZbarMissingError, require_zbar
from vision.synth import SynthConfig, qr_matrix, random_frame, render_frame


@pytest.fixture(scope="module")
def reader() -> QrReader:
    return QrReader()


def _symbol(data: str, px: int) -> np.ndarray:
    """A grey image of the code with a 4-module quiet zone, ``px`` pixels per module."""
    modules = np.pad(qr_matrix(data), 4)
    img = np.where(modules == 1, 0, 255).astype(np.uint8)
    return cv2.resize(img, None, fx=px, fy=px, interpolation=cv2.INTER_NEAREST)


def _max_corner_error(got: CodeReading, truth: np.ndarray) -> float:
    return float(np.abs(np.asarray(got.corners) - truth).max())


@pytest.mark.parametrize("angle", [0, 20, 75, 100, 160, 200, 250, 290, 340])
def test_rotated_code_round_trip_with_corners_from_its_top_left(
    reader: QrReader, angle: float
) -> None:
    data = "budge:swallow-guide"
    sym = _symbol(data, 6)
    side = sym.shape[0]
    quiet = 4 * 6
    inner = side - 2 * quiet
    canvas = 700
    rot = cv2.getRotationMatrix2D((side / 2, side / 2), angle, 1.0)
    rot[:, 2] += (canvas / 2 - side / 2, canvas / 2 - side / 2)
    frame = cv2.warpAffine(sym, rot, (canvas, canvas), borderValue=235)
    truth_local = np.array(
        [[quiet, quiet, 1], [quiet + inner, quiet, 1], [quiet + inner, quiet + inner, 1],
         [quiet, quiet + inner, 1]], dtype=np.float64
    )
    truth = truth_local @ rot.T
    found = reader.read_frame(cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR))
    assert [c.data for c in found] == [data]
    assert found[0].kind == "budge"
    assert _max_corner_error(found[0], truth) < 4.0


def test_codes_tilted_up_to_30_degrees_are_read_from_the_whole_frame(reader: QrReader) -> None:
    cfg = SynthConfig(max_tilt_deg=30, card_height=(0.3, 0.4))
    read = 0
    for seed in range(6):
        frame = render_frame(["7H"], ["aladdin:jasmine-green-1", f"event:storm-{seed}"],
                             seed=seed, config=cfg)
        found = {c.data: c for c in reader.read_frame(frame.image)}
        for truth in frame.codes:
            assert truth.data in found, (seed, truth.data)
            assert _max_corner_error(found[truth.data], np.asarray(truth.corners)) < 5.0
            read += 1
    assert read == 12


def test_codes_tilted_up_to_45_degrees_are_read_inside_detected_cards(reader: QrReader) -> None:
    # zbar alone misses some strongly slanted codes in the whole frame; rectifying the card
    # the detector found first is what makes them readable.
    from vision.pipeline import Recognizer

    recognizer = Recognizer()
    cfg = SynthConfig(max_tilt_deg=45, card_height=(0.3, 0.4))
    read = 0
    for seed in range(6):
        frame = render_frame(["7H"], ["aladdin:jasmine-green-1", f"event:storm-{seed}"],
                             seed=seed, config=cfg)
        found = {c.data: c for c in reader.read(frame.image, recognizer.find_cards(frame.image))}
        for truth in frame.codes:
            assert truth.data in found, (seed, truth.data)
            assert _max_corner_error(found[truth.data], np.asarray(truth.corners)) < 5.0
            read += 1
    assert read == 12


def test_small_code_is_read_inside_its_card_crop_and_mapped_to_the_frame(
    reader: QrReader,
) -> None:
    # Cards about 75 px tall in a 1280x720 frame: the code is ~2 px per module.
    cfg = SynthConfig(card_height=(0.10, 0.105), max_tilt_deg=25, max_blur_sigma=0.5)
    frame = render_frame(["QS", "2D"], ["budge:small-print"], seed=11, config=cfg)
    card = next(c for c in frame.cards if c.code)
    truth = frame.codes[0]
    plain = QrReader(QrConfig(try_upscale=False, try_threshold=False)).read_frame(frame.image)
    assert plain == []  # too small for a plain whole-frame scan ...
    found = reader.read_quad(frame.image, card.corners)  # ... but found in the rectified crop
    assert [c.data for c in found] == ["budge:small-print"]
    assert _max_corner_error(found[0], np.asarray(truth.corners)) < 3.0


def test_crop_given_by_the_card_detector_is_decoded(reader: QrReader) -> None:
    from vision.pipeline import Recognizer

    frame = render_frame(["5C"], ["budge:lamp", "scenario:amazons"], seed=4,
                         config=SynthConfig(max_tilt_deg=30))
    quads = Recognizer().find_cards(frame.image)
    assert len(quads) >= 2
    in_crops: list[CodeReading] = []
    for quad in quads:
        in_crops += reader.read_crop(quad.crop, np.asarray(quad.corners).tolist())
    assert sorted(c.data for c in in_crops) == ["budge:lamp", "scenario:amazons"]
    for reading in in_crops:
        truth = next(t for t in frame.codes if t.data == reading.data)
        assert _max_corner_error(reading, np.asarray(truth.corners)) < 6.0
    merged = reader.read(frame.image, cards=quads)
    assert sorted(c.data for c in merged) == ["budge:lamp", "scenario:amazons"]


def test_no_codes_in_a_frame_of_playing_cards(reader: QrReader) -> None:
    frame = random_frame(5, 10, 0)
    assert reader.read(frame.image) == []


def test_same_code_seen_by_both_passes_is_reported_once(reader: QrReader) -> None:
    frame = render_frame(["AH"], ["budge:once"], seed=2)
    card = next(c for c in frame.cards if c.code)
    found = reader.read(frame.image, quads=[card.corners])
    assert [c.data for c in found] == ["budge:once"]


def test_two_cards_with_the_same_code_are_two_readings(reader: QrReader) -> None:
    frame = render_frame([], ["event:twin", "event:twin"], seed=3)
    found = reader.read(frame.image)
    assert [c.data for c in found] == ["event:twin", "event:twin"]
    (ax, ay), (bx, by) = found[0].centre, found[1].centre
    assert math.hypot(ax - bx, ay - by) > 50


def test_code_under_uneven_light_on_dark_table(reader: QrReader) -> None:
    cfg = SynthConfig(table="dark", light_strength=0.9, max_noise_sigma=8)
    found = reader.read(render_frame([], ["budge:dim-corner"], seed=9, config=cfg).image)
    assert [c.data for c in found] == ["budge:dim-corner"]


def test_json_shape() -> None:
    reading = CodeReading("budge:x", ((1.0, 2.0), (3.04, 2.0), (3.0, 4.0), (1.0, 4.0)))
    assert reading.to_json() == {
        "data": "budge:x", "corners": [[1.0, 2.0], [3.0, 2.0], [3.0, 4.0], [1.0, 4.0]]
    }


def test_missing_zbar_gives_an_install_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    # A module set to None in sys.modules makes its import fail exactly as an absent one does.
    monkeypatch.setitem(sys.modules, "pyzbar", None)
    monkeypatch.setitem(sys.modules, "pyzbar.pyzbar", None)
    with pytest.raises(ZbarMissingError, match="apt-get install -y libzbar0"):
        require_zbar()
    with pytest.raises(ZbarMissingError):
        QrReader()


def test_finder_patterns_are_found_in_a_code_and_not_in_playing_cards() -> None:
    from vision.qr import finder_patterns

    sym = _symbol("budge:finder", 4)  # 4 px per module: finders 28 px across
    found = finder_patterns(cv2.pyrDown(sym))
    assert len(found) == 3
    side = sym.shape[0] / 2
    for f in found:  # at three corners of the code, about 7 modules (14 px here) across
        assert 10 <= f.side <= 18
        assert min(f.x, side - f.x) < 0.4 * side and min(f.y, side - f.y) < 0.4 * side
    frame = random_frame(5, 10, 0)
    gray = cv2.cvtColor(frame.image, cv2.COLOR_BGR2GRAY)
    assert QrReader()._code_sites(gray) == []  # no pair of finder patterns


def test_zbar_is_not_run_on_a_frame_without_codes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whole-frame zbar costs some 25 ms on 1280x720: with the finder gate it runs only
    where finder patterns show (and the frame-wide pass stays available)."""
    import vision.qr as qr_module
    from vision.identify import FrameReader

    calls: list[tuple[int, ...]] = []
    real = qr_module._decode_gray

    def counting(pyzbar: object, gray: np.ndarray, density: int = 1) -> list:
        calls.append(gray.shape)
        return real(pyzbar, gray, density)

    monkeypatch.setattr(qr_module, "_decode_gray", counting)
    frame = random_frame(5, 10, 0)
    assert FrameReader().read(frame.image).codes == ()
    assert calls == []
    with_code = render_frame(["QS", "2D"], ["budge:gate"], seed=11)
    assert [c.data for c in FrameReader().read(with_code.image).codes] == ["budge:gate"]
    assert calls and all(s[0] * s[1] < 1280 * 720 for s in calls)
    calls.clear()
    always = QrReader(QrConfig(frame_pass="always"))
    assert always.read(frame.image) == [] and calls  # the old whole-frame pass


@pytest.mark.sources
def test_a_printed_card_is_not_read_again_restored(monkeypatch: pytest.MonkeyPatch) -> None:
    """A card whose corners show no index is read again turned a quarter (a card seen
    nearly square) and sharpened (a blurred playing card), and looked round for the card
    it may be a printed frame of -- unless it holds one of our codes: the recognizer asks
    the QR reader first, and the QR stage does not decode that card a second time."""
    import vision.pipeline as pipeline
    import vision.qr as qr_module
    from vision.identify import FrameReader

    frame = render_frame(["QS", "2D"], ["budge:gate"], seed=11)

    def counted(name: str) -> list[object]:
        """Calls of the recognizer's method ``name``, counted (and made as before)."""
        calls: list[object] = []
        real = getattr(pipeline.Recognizer, name)

        def counting(self: pipeline.Recognizer, *args: object, **kw: object) -> object:
            calls.append(args)
            return real(self, *args, **kw)

        monkeypatch.setattr(pipeline.Recognizer, name, counting)
        return calls

    retried = counted("_retry")  # read again restored
    turned = counted("_other_way_up")  # read again turned a quarter
    rounded: list[object] = []  # looked round for a card (a frame printed in its middle)
    real_round = pipeline.card_round_print

    def counting_round(*args: object, **kw: object) -> object:
        rounded.append(args)
        return real_round(*args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(pipeline, "card_round_print", counting_round)
    decoded: list[str] = []
    real_decode = qr_module._decode_gray

    def counting_decode(pyzbar: object, gray: np.ndarray, density: int = 1) -> list:
        found = real_decode(pyzbar, gray, density)
        decoded.extend(r.data for r in found)
        return found

    monkeypatch.setattr(qr_module, "_decode_gray", counting_decode)
    reader = FrameReader()
    result = reader.read(frame.image)
    assert [c.data for c in result.codes] == ["budge:gate"]
    assert sorted(c.card.code for c in result.cards if c.card) == ["2D", "QS"]
    assert decoded == ["budge:gate"]  # once
    assert retried == [] and turned == []  # nor read turned a quarter (no index either way)
    assert rounded == []  # one of our own cards, whole
    # without the question the printed card is read again, turned and restored, and
    # looked round (what the question saves)
    reader.recognizer.holds_code = None
    decoded.clear()
    result = reader.read(frame.image)
    assert [c.data for c in result.codes] == ["budge:gate"]
    assert len(retried) == 1 and len(turned) == 1 and len(rounded) == 1


def test_the_frame_is_searched_for_codes_only_where_paper_is_left(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Where the cards found cover every bright region of the frame, no code is printed
    anywhere else: the frame's finder pass is skipped.  A code on paper that no card
    quad covers (a round scrap on the table beside the cards) is still found by it."""
    import vision.qr as qr_module
    from vision.identify import FrameReader

    looked: list[int] = []
    real = qr_module.finder_patterns

    def counting(*args: object, **kwargs: object) -> list:
        looked.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(qr_module, "finder_patterns", counting)
    reader = FrameReader()
    cards = render_frame(["QS", "2D", "7C", "KH"], [], seed=3)
    result = reader.read(cards.image)
    assert reader.recognizer.frame_explained and not result.codes
    assert looked == []
    # a scrap of paper, round, with a code on it: no card's outline
    scrap = cards.image.copy()
    cv2.circle(scrap, (1090, 560), 120, (235, 235, 235), -1)
    code = cv2.cvtColor(_symbol("budge:scrap", 5), cv2.COLOR_GRAY2BGR)
    h, w = code.shape[:2]
    scrap[560 - h // 2 : 560 - h // 2 + h, 1090 - w // 2 : 1090 - w // 2 + w] = code
    result = reader.read(scrap)
    assert not reader.recognizer.frame_explained
    assert [c.data for c in result.codes] == ["budge:scrap"]
    assert looked


def test_a_window_round_finder_patterns_is_scanned_every_other_line() -> None:
    """Around finder patterns found in a card, zbar scans every second row and column (about
    half the time) and reads the code as it does line by line, its corners within a pixel
    or two; where that reads nothing, every line is scanned."""
    import vision.qr as qr_module
    from vision.qr import _load_pyzbar

    pyzbar = _load_pyzbar()
    matrix = qr_matrix("budge:sparse")
    module = 5
    code = np.kron(1 - np.asarray(matrix, np.uint8), np.ones((module, module), np.uint8)) * 255
    window = np.full((190, 180), 235, np.uint8)
    window[20 : 20 + code.shape[0], 15 : 15 + code.shape[1]] = code
    window = cv2.GaussianBlur(window, (0, 0), 0.8)
    every, sparse = (qr_module._decode_gray(pyzbar, window, d) for d in (1, 2))
    assert [r.data for r in sparse] == [r.data for r in every] == ["budge:sparse"]
    assert np.abs(np.subtract(sparse[0].corners, every[0].corners)).max() <= 3
    assert qr_module._zbar_sparse(pyzbar, window, 2)  # read by the sparse scan itself
    # a blank window: nothing, whichever way it is scanned
    assert qr_module._decode_gray(pyzbar, np.full((190, 180), 235, np.uint8), 2) == []


@pytest.mark.sources
def test_regions_the_other_masks_explain_need_no_finder_pass(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A bright region left after Otsu's mask (a card it did not find whole) sends the
    other masks there; where the cards they find cover it, the frame is explained all the
    same and its finder pass skipped (a court whose picture broke its paper region: 6 of
    40 frames of 12 real cards; each pass some 0.7 ms)."""
    import vision.detect as detect_module
    import vision.qr as qr_module
    from vision.identify import FrameReader

    left: list[object] = []
    real_left_over = detect_module._Masks.left_over

    def recording(self: object, quads: list, min_px: float) -> object:
        boxes = real_left_over(self, quads, min_px)  # type: ignore[arg-type]
        left.append(boxes)
        return boxes

    looked: list[int] = []
    real_finder = qr_module.finder_patterns

    def counting(*args: object, **kwargs: object) -> list:
        looked.append(1)
        return real_finder(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(detect_module._Masks, "left_over", recording)
    monkeypatch.setattr(qr_module, "finder_patterns", counting)
    reader = FrameReader()
    frame = random_frame(34, 6, 0, SynthConfig(width=1280, height=720))
    result = reader.read(frame.image)
    assert left[0], "Otsu's mask left a region: the other masks were made"
    assert left[-1] == [] and reader.recognizer.frame_explained
    assert looked == [] and not result.codes


def _numpys_corner_order(points: list[tuple[float, float]], orientation: str | None
                         ) -> tuple[tuple[float, float], ...]:
    """zbar's outline put clockwise from the code's top-left, as numpy puts it: sorted by
    np.arctan2 from the mean point, rolled to the point furthest towards "up + left"."""
    pts = np.asarray(points, np.float64)
    if len(pts) != 4:
        pts = np.asarray(cv2.boxPoints(cv2.minAreaRect(pts.astype(np.float32))), np.float64)
    rel = pts - pts.mean(axis=0)
    order = np.argsort(np.arctan2(rel[:, 1], rel[:, 0]))
    pts, rel = pts[order], rel[order]
    up = {"UP": (0.0, -1.0), "RIGHT": (1.0, 0.0), "DOWN": (0.0, 1.0),
          "LEFT": (-1.0, 0.0)}[orientation or "UP"]
    start = int(np.argmax(rel @ np.array([up[0] + up[1], up[1] - up[0]])))
    return tuple((float(x), float(y)) for x, y in np.roll(pts, -start, axis=0))


def test_code_corners_are_put_in_numpys_order() -> None:
    """A decoded code's outline (zbar's points, in any order) comes out clockwise from the
    code's top-left as zbar's orientation says, in plain floats: the order numpy's
    arctan2, sort and argmax give -- for squares turned every way, any four points, points
    on whole pixels, outlines of three or five points (their least box), and degenerate
    ones whose points lie at one angle from the centre (where that order is numpy's
    own)."""
    from vision.qr import _order_corners

    square = [(10.0, 10.0), (50.0, 10.0), (50.0, 50.0), (10.0, 50.0)]
    assert _order_corners(square[::-1], "UP") == tuple(square)
    assert _order_corners(square, "RIGHT") == tuple(square[1:] + square[:1])
    assert _order_corners(square, "DOWN") == tuple(square[2:] + square[:2])
    assert _order_corners(square, "LEFT") == tuple(square[3:] + square[:3])
    rng = np.random.default_rng(41)
    ties = 0
    for i in range(20000):
        n = 4 if i % 10 else int(rng.integers(3, 7))
        c = rng.uniform(0, 1000, 2)
        spread = (50.0, 30.0, 3.0)[i % 3]
        pts = c + rng.normal(0, spread, (n, 2))
        if i % 3:
            pts = np.round(pts)  # (whole pixels, as zbar's: points at one angle happen)
        points = [(float(x), float(y)) for x, y in pts]
        orientation = [None, "UP", "LEFT", "DOWN", "RIGHT"][i % 5]
        assert _order_corners(points, orientation) == _numpys_corner_order(points, orientation)
        if n == 4:
            rel = pts - pts.mean(axis=0)
            angles = np.sort(np.arctan2(rel[:, 1], rel[:, 0]))
            ties += int((np.diff(angles) < 1e-9).any())
    assert ties > 50


def test_sparse_scans_read_codes_as_pyzbar_reads_them() -> None:
    """zbar called straight (``_zbar_sparse``: a new scanner each time, set for QR codes
    alone, the picture's own pixels) reads what ``pyzbar.decode`` reads, scanning every
    line: the same texts, outlines, boxes and orientations -- in windows of drawn frames
    with two codes, whole frames, halved ones, a view that skips rows and columns, a
    colour frame (its first channel, as pyzbar takes it) and a picture too small to hold
    a code."""
    from pyzbar import pyzbar

    from vision.qr import _zbar_sparse

    rng = np.random.default_rng(43)
    pictures: list[np.ndarray] = [np.zeros((5, 5), np.uint8)]
    for seed in range(12):
        frame = render_frame(["QH"], [f"budge:w-{seed}", f"event:e{seed}"], seed=seed).image
        grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        pictures += [grey, cv2.resize(grey, None, fx=0.5, fy=0.5), grey[::2, 1::3], frame]
        for _ in range(4):
            y = int(rng.integers(0, grey.shape[0] - 200))
            x = int(rng.integers(0, grey.shape[1] - 200))
            h, w = (int(v) for v in rng.integers(60, 200, 2))
            pictures.append(grey[y:y + h, x:x + w])

    def read(symbols: list[Any]) -> list[Any]:
        return [(d.data, [tuple(p) for p in d.polygon], tuple(d.rect), d.orientation)
                for d in symbols]

    codes = 0
    for pic in pictures:
        theirs = read(pyzbar.decode(pic, symbols=[pyzbar.ZBarSymbol.QRCODE]))
        assert read(_zbar_sparse(pyzbar, pic, 1)) == theirs
        codes += len(theirs)
    assert codes >= 40
    # a shop's barcode beside a code: zbar reads both, the scan for QR codes the code alone
    both = np.full((260, 520), 255, np.uint8)
    both[20:240, 300:500] = cv2.resize(_symbol("budge:w-0", 6), (200, 220))
    both[40:200, 20:250] = np.repeat(_ean13("4006381333931"), 2)[None] * 255
    assert {d.data for d in pyzbar.decode(both)} == {b"4006381333931", b"budge:w-0"}
    assert [d.data for d in _zbar_sparse(pyzbar, both, 1)] == [b"budge:w-0"]


def _ean13(digits: str) -> np.ndarray:
    """The bars of an EAN-13 barcode, one value a module (0 a bar, 1 a space) with ten
    modules of quiet zone each side."""
    left = ["0001101", "0011001", "0010011", "0111101", "0100011", "0110001", "0101111",
            "0111011", "0110111", "0001011"]
    right = ["".join("1" if c == "0" else "0" for c in code) for code in left]
    parity = ["LLLLLL", "LLGLGG", "LLGGLG", "LLGGGL", "LGLLGG", "LGGLLG", "LGGGLL", "LGLGLG",
              "LGLGGL", "LGGLGL"][int(digits[0])]
    bits = "101"
    for d, p in zip(digits[1:7], parity, strict=True):
        bits += left[int(d)] if p == "L" else right[int(d)][::-1]
    bits += "01010" + "".join(right[int(d)] for d in digits[7:]) + "101"
    return np.array([1] * 10 + [1 - int(b) for b in bits] + [1] * 10, np.uint8)
