"""Synthetic frames: seeded, with ground truth that matches the pixels."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cards import Card, full_deck
from vision.labels import read_labels
from vision.synth import (
    TABLES,
    SynthConfig,
    random_frame,
    render_card_face,
    render_frame,
    render_qr_card,
    render_table,
    write_folder,
)


def _poly_mask(shape: tuple[int, ...], corners: object, shrink: float = 1.0) -> np.ndarray:
    pts = np.asarray(corners, dtype=np.float64)
    centre = pts.mean(axis=0)
    pts = centre + (pts - centre) * shrink
    mask = np.zeros(shape[:2], np.uint8)
    cv2.fillPoly(mask, [np.round(pts).astype(np.int32)], 255)
    return mask


def test_same_seed_same_frame_and_different_seed_different_frame() -> None:
    a = random_frame(21, 6, 1)
    b = random_frame(21, 6, 1)
    c = random_frame(22, 6, 1)
    assert np.array_equal(a.image, b.image)
    assert a.cards == b.cards
    assert not np.array_equal(a.image, c.image)


def test_frame_has_the_requested_size_cards_and_codes() -> None:
    cfg = SynthConfig(width=1280, height=720)
    frame = render_frame(["QH", "TC", "2s"], ["budge:swallow-guide"], seed=3, config=cfg)
    assert frame.image.shape == (720, 1280, 3)
    assert frame.image.dtype == np.uint8
    assert sorted(c.code for c in frame.playing_cards) == ["2S", "QH", "TC"]
    assert [c.data for c in frame.codes] == ["budge:swallow-guide"]
    assert len(frame.cards) == 4


def test_truth_corners_outline_bright_cards_that_do_not_overlap() -> None:
    frame = random_frame(8, 12, 0, SynthConfig(table="dark"))
    grey = cv2.cvtColor(frame.image, cv2.COLOR_BGR2GRAY)
    union = np.zeros(grey.shape, np.int32)
    for card in frame.cards:
        xs = [p[0] for p in card.corners]
        ys = [p[1] for p in card.corners]
        assert 0 <= min(xs) and max(xs) < 1280 and 0 <= min(ys) and max(ys) < 720
        inside = _poly_mask(grey.shape, card.corners, 0.9) > 0
        ring = (_poly_mask(grey.shape, card.corners, 1.25) > 0) & ~(
            _poly_mask(grey.shape, card.corners, 1.05) > 0)
        # A white card on a dark table: the card's border region is much brighter than the
        # band just outside it (which may touch a neighbour, hence the median).
        assert np.percentile(grey[inside], 60) > np.median(grey[ring]) + 60
        union += _poly_mask(grey.shape, card.corners) > 0
    assert union.max() == 1


def test_corners_are_clockwise_from_the_cards_top_left() -> None:
    frame = render_frame(["9D"], seed=5, config=SynthConfig(max_tilt_deg=0))
    (tl, tr, br, bl) = (np.array(p) for p in frame.cards[0].corners)
    # Clockwise on screen (y down) means a positive cross product of consecutive edges.
    (ax, ay), (bx, by) = tr - tl, br - tr
    assert ax * by - ay * bx > 0
    # Untilted: a 5:7 rectangle, short side from top-left to top-right.
    top, side = np.linalg.norm(tr - tl), np.linalg.norm(bl - tl)
    assert top / side == pytest.approx(5 / 7, rel=0.02)
    assert abs(np.dot(tr - tl, bl - tl)) / (top * side) < 0.01


def test_perspective_tilt_makes_opposite_sides_unequal() -> None:
    cfg = SynthConfig(max_tilt_deg=45)
    ratios = []
    for seed in range(10):
        c = np.array(render_frame(["AS"], seed=seed, config=cfg).cards[0].corners)
        sides = np.linalg.norm(np.roll(c, -1, axis=0) - c, axis=1)
        ratios.append(max(sides[0] / sides[2], sides[2] / sides[0],
                          sides[1] / sides[3], sides[3] / sides[1]))
    assert max(ratios) > 1.15


def test_qr_truth_lies_inside_its_card() -> None:
    frame = render_frame(["KS"], ["aladdin:jasmine-green-1"], seed=6)
    card = next(c for c in frame.cards if c.code)
    contour = np.asarray(card.corners, np.float32).reshape(-1, 1, 2)
    for x, y in frame.codes[0].corners:
        assert cv2.pointPolygonTest(contour, (x, y), False) > 0


def test_every_card_face_is_distinct_and_coloured_by_suit() -> None:
    seen = set()
    for card in full_deck():
        face, mask = render_card_face(card, 150)
        assert face.shape == (210, 150, 3) and mask.shape == (210, 150)
        seen.add(face.tobytes())
        b, g, r = (face[..., i].astype(int) for i in range(3))
        red_ink = int(((r - g > 100) & (mask > 0)).sum())
        if card.suit.letter in "HD":
            assert red_ink > 100, card
        elif card.rank not in "JQK":  # court panels are orange, pip cards have no red
            assert red_ink == 0, card
    assert len(seen) == 52


def test_qr_card_face_carries_the_symbol_where_it_says() -> None:
    face, mask, corners = render_qr_card("budge:x", 300)
    (x0, y0), _, (x1, y1), _ = corners
    symbol = face[int(y0):int(y1), int(x0):int(x1)]
    assert set(np.unique(symbol)) <= {0, 255}
    assert mask[int(y0), int(x0)] == 255


@pytest.mark.parametrize("table", TABLES)
def test_table_textures(table: str) -> None:
    img = render_table(table, 320, 240, np.random.default_rng(0))
    assert img.shape == (240, 320, 3)
    mean = float(img.mean())
    if table == "dark":
        assert mean < 60
    if table == "cloth":
        b, g, r = img.reshape(-1, 3).mean(axis=0)
        assert g > r and g > b
    if table == "wood":
        # Grain: brightness varies along y far more than along x.
        grey = img.mean(axis=2)
        assert grey.mean(axis=1).std() > grey.mean(axis=0).std()


def test_unknown_table_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown table"):
        render_table("marble", 10, 10, np.random.default_rng(0))


def test_too_many_cards_for_the_frame_is_refused() -> None:
    with pytest.raises(ValueError, match="cannot fit"):
        render_frame([c.code for c in full_deck()], seed=1,
                     config=SynthConfig(width=160, height=120))


def test_written_folder_has_labels_in_the_shared_format(tmp_path: Path) -> None:
    frames = [random_frame(s, 3, 1) for s in range(2)]
    labels_path = write_folder(tmp_path, frames)
    assert labels_path.read_text().splitlines()[0] == "file,width,height,cards,partial,notes"
    labels = read_labels(tmp_path)
    assert len(labels.rows) == 2
    for row, frame in zip(labels.rows, frames, strict=True):
        assert row.path.exists()
        assert sorted(row.cards, key=_key) == sorted(frame.playing_cards, key=_key)
        img = cv2.imread(str(row.path))
        assert img is not None and np.array_equal(img, frame.image)


def test_labels_write_ten_as_10(tmp_path: Path) -> None:
    frame = render_frame(["TS"], seed=0)
    write_folder(tmp_path, [frame])
    assert ",10S," in (tmp_path / "labels.csv").read_text()


def _key(card: Card) -> tuple[int, int]:
    return card.sort_key
