"""Known wrong reads must be gone: cards of 12-card table frames built from real card crops
(the frames bench/vision_profile.py times) read as a card not in the frame -- a JS read as
JC (seeds 21, 37, 59: a spade's stalk under its lobes taken for a club's waist), a KS as KC
(seed 44) and a 4H as 9H from one corner (seed 35).  Each must be read right or abstained."""

from __future__ import annotations

from collections import Counter

import cv2
import pytest
import realdata

from vision.identify import FrameReader

if realdata.data_dir() is None:  # a missing folder must fail the run, not skip it
    raise RuntimeError("the shared photos are missing: expected ../shared/data beside "
                       "the repository")

SEEDS = (21, 35, 37, 44, 59)


@pytest.fixture(scope="module")
def reader() -> FrameReader:
    cv2.setNumThreads(1)
    return FrameReader()


@pytest.fixture(scope="module")
def crops(reader):
    import frames

    return frames.card_crops(reader.recognizer, realdata.photos("phone-scenes"))


@pytest.mark.parametrize("seed", SEEDS)
def test_table_frame_names_no_card_that_is_not_there(reader, crops, seed) -> None:
    import frames

    image, truth = frames.table_frame(crops, 12, seed=seed)
    said = [c.card.code for c in reader.read(image).cards if c.card is not None]
    extra = Counter(said) - Counter(truth)
    assert not extra, (seed, dict(extra), truth)
    assert len(said) >= 7, (seed, said)  # the fix abstains on the doubtful, not on all


# fan rows (tests/vision/test_fans.py's "row" layout, its step and jitter rule): the outline
# of the whole row was taken for one card and read from one index corner only, the top
# card's (KD) index turned on its side read as JD, a card in neither row
ROW_SEEDS = (16, 21)


@pytest.fixture(scope="module")
def fan_crops():
    import frames

    from vision.pipeline import Recognizer, RecognizerConfig

    return frames.card_crops(Recognizer(RecognizerConfig(read_fans=False)),
                             realdata.photos("phone-scenes"))


@pytest.mark.parametrize("seed", ROW_SEEDS)
def test_fan_row_names_no_card_that_is_not_there(fan_crops, seed) -> None:
    import frames

    from vision.pipeline import Recognizer

    hand = frames.fan_hand(fan_crops, 5, seed=seed, layout="row", step=0.22 + 0.04 * (seed % 3),
                           jitter=4.0 * (seed % 2))
    said = [r.card.code for r in Recognizer().read(hand.frame) if r.card is not None]
    extra = [c for c in said if c not in hand.codes]
    assert not extra, (seed, extra, hand.codes)
