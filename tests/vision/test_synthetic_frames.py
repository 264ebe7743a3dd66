"""Drawn 1280x720 table frames (vision.synth: 3 to 12 cards at random poses, tilted up to
45 degrees, on the bundled tables, with light, blur and noise): never a wrong card, most
cards read, the tens and the small clubs and spades among them.  Where the two index
corners disagree, the pips in the middle (their count, their shapes) settle it.

The drawn index is OpenCV's duplex face: its "10" is wider than 1.6 times its height and
its "1" stands on a foot as wide as a digit, both of which the reader once refused, and at
this size a club's or spade's glyph is a near tie that its shape decides."""

from __future__ import annotations

from collections import Counter

import cv2
import numpy as np
import pytest

from vision.pipeline import Recognizer, RecognizerConfig, _ten_shaped
from vision.synth import SynthConfig, random_frame

SEEDS = range(100, 140)


@pytest.fixture(scope="module")
def tally(rec: Recognizer) -> dict[str, Counter[str]]:
    seen: Counter[str] = Counter()
    read: Counter[str] = Counter()
    wrong: Counter[str] = Counter()
    for seed in SEEDS:
        frame = random_frame(seed, max(1, 12 - 3 * (seed % 4)), 0, SynthConfig())
        truth = [c.code for c in frame.playing_cards]
        said = [r.card.code for r in rec.read(frame.image) if r.card is not None]
        seen.update(truth)
        read.update(c for c in said if c in truth)
        wrong.update(c for c in said if c not in truth)
    return {"seen": seen, "read": read, "wrong": wrong}


def test_no_drawn_card_is_misread(tally) -> None:
    assert not tally["wrong"], dict(tally["wrong"])


def test_most_drawn_cards_are_read(tally) -> None:
    seen, read = sum(tally["seen"].values()), sum(tally["read"].values())
    # measured 279 of 300 (93%); 224 before the wide tens, the near-tie suits, the corners
    # that disagree and the outlines with a corner cut off on the light table were settled
    assert read >= 0.88 * seen, (read, seen)


def test_the_drawn_tens_are_read(tally) -> None:
    tens = [c for c in tally["seen"] if c.startswith("T")]
    seen = sum(tally["seen"][c] for c in tens)
    read = sum(tally["read"][c] for c in tens)
    assert seen >= 10 and read >= 0.8 * seen, (read, seen)  # measured 25 of 26; were 0


def test_the_small_clubs_and_spades_are_read(tally) -> None:
    black = [c for c in tally["seen"] if c[1] in "CS"]
    seen = sum(tally["seen"][c] for c in black)
    read = sum(tally["read"][c] for c in black)
    assert read >= 0.8 * seen, (read, seen)  # measured 140 of 158; were 104


def _text_mask(text: str, font: int) -> np.ndarray:
    """The ink of ``text`` cropped to its box, as the reader cuts a rank glyph."""
    img = np.zeros((80, 200), np.uint8)
    cv2.putText(img, text, (10, 60), font, 1.5, 255, 3, cv2.LINE_8)
    ys, xs = np.nonzero(img)
    return (img[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1] > 0).astype(np.uint8)


@pytest.mark.parametrize("font", [cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_SIMPLEX,
                                  cv2.FONT_HERSHEY_COMPLEX])
def test_a_ten_is_ten_shaped_with_or_without_a_foot(font: int) -> None:
    assert _ten_shaped(_text_mask("10", font), RecognizerConfig())


@pytest.mark.parametrize("text", ["87", "47", "98"])
def test_two_digits_side_by_side_are_not_ten_shaped(text: str) -> None:
    assert not _ten_shaped(_text_mask(text, cv2.FONT_HERSHEY_DUPLEX), RecognizerConfig())


def test_cards_on_a_lighter_part_of_the_table_are_found(rec: Recognizer) -> None:
    """A plain light table, lit brighter in its middle: a mask outlines that lighter part
    as one big quad around six of the cards.  Kept first (the biggest), it pushed those
    cards out before it was dropped as no card; they are picked again without it."""
    frame = random_frame(1013, 9, 1, SynthConfig(width=1280, height=720))
    truth = [c.code for c in frame.playing_cards]
    readings = rec.read(frame.image)
    # the nine cards and the printed QR card; no quad bigger than a card
    assert len(readings) == 10
    areas = [abs(cv2.contourArea(np.float32(r.corners))) for r in readings]
    assert max(areas) < 1.5 * float(np.median(areas))
    said = [r.card.code for r in readings if r.card is not None]
    assert not [c for c in said if c not in truth]
    assert len(said) >= 8, said  # measured 8 (an ace of clubs abstained); were 3
