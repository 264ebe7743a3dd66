"""Known wrong reads must be gone: cards of 12-card table frames built from real card crops
(the frames bench/vision_profile.py times) read as a card not in the frame -- a JS read as
JC (seeds 21, 37, 59: a spade's stalk under its lobes taken for a club's waist), a KS as KC
(seed 44) and a 4H as 9H from one corner (seed 35); an 8S as 3S in a webcam-grey frame
(seed 14).  Each must be read right or abstained."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest
import realdata

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

# seed 54: a KC read as KS from one corner, its small club cut to its top lobe (the rest
# joined to the picture's dotted frame): a suit glyph under 0.42 of its rank's height is no
# suit (suit_min_height)
SEEDS = (21, 35, 37, 44, 54, 59)
# a webcam-grey frame (seed 14): the 8S's index lay so near the card's found edge that the
# edge cut the 8's left stroke away and left a 3 (pipeline._runs_to_rim)
GREY_SEEDS = (14,)
# (folder, seed, at least this many cards named: the fixes abstain on the doubtful only)
FRAMES = [("phone-scenes", s, 7) for s in SEEDS] + [("webcam-grey", s, 9) for s in GREY_SEEDS]


@pytest.fixture(scope="module")
def folder_crops(reader):
    """The card crops of a photo folder, cut once per folder."""
    import frames

    cut: dict[str, list] = {}

    def crops(folder: str) -> list:
        if folder not in cut:
            cut[folder] = frames.card_crops(reader.recognizer, realdata.photos(folder))
        return cut[folder]

    return crops


@pytest.mark.parametrize(("folder", "seed", "least"), FRAMES)
def test_table_frame_names_no_card_that_is_not_there(reader, folder_crops, folder: str,
                                                      seed: int, least: int) -> None:
    import frames

    image, truth = frames.table_frame(folder_crops(folder), 12, seed=seed)
    said = [c.card.code for c in reader.read(image).cards if c.card is not None]
    extra = Counter(said) - Counter(truth)
    assert not extra, (folder, seed, dict(extra), truth)
    assert len(said) >= least, (folder, seed, said)


def test_grey_table_frames_are_read_whole(reader, folder_crops) -> None:
    """The webcam deck prints its pips in a framed panel and its indices near the card's
    edge: a corner index touching the centre crop's rim was once taken for something else
    in the middle, so no pips were counted and a 9 was not told from a Q (110 of 120)."""
    import frames

    named = 0
    for seed in range(10):
        image, truth = frames.table_frame(folder_crops("webcam-grey"), 12, seed=seed)
        said = [c.card.code for c in reader.read(image).cards if c.card is not None]
        assert [c for c in said if c not in truth] == [], (seed, said, truth)
        named += len(said)
    assert named >= 114, named  # measured 120 of 120


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


# (layout, seed, spread, step, jitter): two indices side by side -- an 8 and the 7 of the
# card over it (fan 390), or a 4 and a pip -- read as a 10, which has a narrow "1" first
# (pipeline._ten_shaped); a row's outline read as a KC from a scrap of the top card's picture
# at one corner, the opposite corner showing no index (row 34: lone_corner_min_confidence)
HANDS = [("fan", 350, 8.0, 0.26, 0.0), ("fan", 390, 8.0, 0.26, 0.0),
         ("row", 34, 0.0, 0.26, 2.5)]


@pytest.mark.parametrize("hand_args", HANDS)
def test_hand_names_no_card_that_is_not_there(fan_crops, hand_args) -> None:
    import frames

    from vision.pipeline import Recognizer

    layout, seed, spread, step, jitter = hand_args
    hand = frames.fan_hand(fan_crops, 5, seed=seed, spread=spread, layout=layout, step=step,
                           jitter=jitter)
    said = [r.card.code for r in Recognizer().read(hand.frame) if r.card is not None]
    assert [c for c in said if c not in hand.codes] == [], (hand_args, said, hand.codes)


def test_a_ten_must_start_with_a_narrow_one() -> None:
    import numpy as np

    from vision.pipeline import RecognizerConfig, _ten_shaped

    cfg = RecognizerConfig()
    ten = np.zeros((40, 40), np.uint8)
    ten[:, 2:8] = 255  # "1"
    ten[:, 14:38] = 255  # "0"
    two = np.zeros((40, 60), np.uint8)
    two[:, 0:24] = 255  # an 8 ...
    two[:, 30:54] = 255  # ... and a 7 beside it
    touching = np.full((40, 36), 255, np.uint8)
    assert _ten_shaped(ten, cfg) and _ten_shaped(touching, cfg) and _ten_shaped(None, cfg)
    assert not _ten_shaped(two, cfg)
    three = ten.copy()
    three[:, 10:12] = 255
    assert not _ten_shaped(three, cfg)


def test_club_against_spade_is_measured_from_the_alternatives() -> None:
    """The suit margin the smeared-court and small-card rules ask of a club or spade: twice
    the gap between the card and the same rank of the other black suit among its reading's
    alternatives (each the mean of a rank's and a suit's scores)."""
    import math

    from companion.cards import Card
    from vision.pipeline import _black_margin

    js = Card.from_code("JS")
    alts = (("JS", 0.845), ("JC", 0.8043), ("4S", 0.7416))
    assert _black_margin(js, alts) == pytest.approx(0.0814)
    assert _black_margin(Card.from_code("JC"), alts) == pytest.approx(-0.0814)
    # a red card, or the other black suit not among the alternatives: nothing to doubt
    assert _black_margin(Card.from_code("JH"), (("JH", 0.88), ("JD", 0.87))) == math.inf
    assert _black_margin(js, (("JS", 0.845), ("4S", 0.7416))) == math.inf


def test_a_covered_card_must_lie_under_the_cards_over_it() -> None:
    """A corner on a blob's outline stands for a covered card only where the card it would
    be lies on the blob or on cards found: one lying half on bare table is no card (a
    printed page's corner read as a JC)."""
    import numpy as np

    from vision.pipeline import _share_under

    blob = np.float32([[100, 100], [300, 100], [300, 400], [100, 400]]).reshape(-1, 1, 2)
    inside = np.float32([[120, 120], [220, 120], [220, 260], [120, 260]])
    half_out = inside + np.float32([130, 0])  # its right part beyond the blob
    assert _share_under(inside, blob, []) == 1.0
    assert 0.3 < _share_under(half_out, blob, []) < 0.7
    # ... unless a card found covers the rest
    found = np.float32([[300, 100], [400, 100], [400, 400], [300, 400]])
    assert _share_under(half_out, blob, [found]) == 1.0


def test_a_black_suit_the_corners_hardly_prefer_needs_the_middle() -> None:
    """A drawn AC, 1024x576 (vision.synth seed 533830): its small index clubs tie with a
    spade (0.037 apart), and its big pip, taller than a pip may be, its middle column taken
    for a long line, falls apart in the middle, so no pip's shape settles the suit -- it was
    named AS at 0.508.  A club or spade named on the corners' suit alone needs them to
    prefer it by black_tie_margin (over 3,021 drawn cards of 400 frames: 7 fewer named,
    and this one wrong gone); and the ace's pip, read as one (ace_pip_height), now names
    it AC."""
    import dataclasses

    from vision.pipeline import Recognizer
    from vision.synth import SynthConfig, random_frame

    frame = random_frame(533830, 11, 0, SynthConfig(width=1024, height=576))
    truth = {c.code for c in frame.playing_cards}
    assert "AC" in truth and "AS" not in truth
    rec = Recognizer()
    said = [r.card.code for r in rec.read(frame.image) if r.card is not None]
    assert [c for c in said if c not in truth] == [], said
    assert len(said) >= 8 and "AC" in said, said
    no_pip = dataclasses.replace(rec.config, ace_pip_height=0.0)
    said = [r.card.code for r in Recognizer(no_pip).read(frame.image) if r.card is not None]
    assert [c for c in said if c not in truth] == [], said
    loose = Recognizer(dataclasses.replace(no_pip, black_tie_margin=0.0))
    assert "AS" in [r.card.code for r in loose.read(frame.image) if r.card is not None]


@pytest.mark.parametrize("code", ["AC", "AS", "AH", "AD", "2C", "3S", "9S", "TC", "KC", "QS"])
def test_an_aces_big_pip_is_read_as_one_pip(code: str) -> None:
    """Drawn card faces' middles, sharp and blurred 1.5 px: an ace's pip, larger than a pip
    may be and smaller than a picture, its middle column a long straight run of ink that
    was cut out as a line, is one pip, its shape kept for the suit (ace_pip_height); the
    number cards' pips are counted as before, and a court's panel is no ace's pip.  With
    the rule off, the ace's middle is "unknown"."""
    import dataclasses

    import cv2

    import vision.synth as synth
    from companion.cards import Card
    from vision.pipeline import Recognizer, analyse_centre

    rec = Recognizer()
    off = dataclasses.replace(rec.config, ace_pip_height=0.0)
    face, _ = synth.render_card_face(Card.from_code(code), 200)
    middle = cv2.resize(face, rec.config.centre_size, interpolation=cv2.INTER_AREA)
    for blur in (0.0, 1.5):
        crop = cv2.GaussianBlur(middle, (0, 0), blur) if blur else middle
        seen = analyse_centre(crop, rec.config, rec.reader, True)
        before = analyse_centre(crop, off, rec.reader, True)
        if code[0] == "A":
            assert (seen.kind, seen.count, before.kind) == ("pips", 1, "unknown"), code
            assert len(seen.pip_masks) == 1
        else:
            assert (seen.kind, seen.count) == (before.kind, before.count), code
            assert seen.expected() == ({code[0]} if code[0] not in "JQK" else set()), code


@pytest.mark.parametrize("code", ["AC", "AS", "AH", "AD", "3C", "3S", "3H", "3D"])
def test_a_pip_printed_upright_one_way_only_reads_its_suit_either_way_up(code: str) -> None:
    """A card's corners may be read either way up (they show the same index), and its
    middle is cut out the same way: an ace's pip, and a 3's pip on the middle line, are
    printed upright for one of the two ways only.  Upside down, a small blurred club's
    stalk stood where its top lobe belongs and widened like a spade's point, and a heart's
    point like a diamond's top: the middle took the other suit (drawn faces 80 to 140 px
    wide, blurred up to 1.2 px, both ways up, 18 readings a card: AC 1, AH 9 -- every one
    upside down -- and 3C 2 took the other suit; drawn 640x480 frames named two ACs AS).
    A lone pip is read both ways up and counts the way it reads best
    (``Centre.either_way``); a pip on the middle line is not read where pips above it are
    (``centre_upright_above``).  Now every reading takes the card's suit."""
    import cv2
    import numpy as np

    from vision.glyphs import SUIT_CLASSES
    from vision.pipeline import Recognizer, _Pyramid
    from vision.synth import render_card_face

    rec = Recognizer()
    wrong = []
    # (a 3 80 px wide, blurred, reads its clubs' pips as spades either way up: too small)
    for width in (80, 100, 140) if code[0] == "A" else (100, 120, 140):
        face, _ = render_card_face(code, width)
        h, w = face.shape[:2]
        table = np.full((h + 40, w + 40, 3), (40, 90, 50), np.uint8)
        table[20 : 20 + h, 20 : 20 + w] = face
        quad = np.float32([[20, 20], [20 + w, 20], [20 + w, 20 + h], [20, 20 + h]])
        for blur in (0.0, 0.6, 1.2):
            pyr = _Pyramid(cv2.GaussianBlur(table, (0, 0), blur) if blur else table)
            for turn in (0, 2):  # the card's top-left corner, or the one opposite it
                middle = rec.centre(pyr, np.roll(quad, -turn, axis=0), True)
                assert middle.kind == "pips" and middle.suit_scores is not None, (width, blur)
                suit = SUIT_CLASSES[int(np.argmax(middle.suit_scores))]
                if suit != code[1]:
                    wrong.append((width, blur, turn, suit))
    assert wrong == [], wrong


def test_a_small_ace_of_clubs_read_upside_down_is_named_a_club() -> None:
    """A drawn 640x480 frame of nine cards some 110 px tall (vision.synth seed 9001): the
    AC's corners both read a spade by a little (its index's club a few px across), and its
    middle, read upside down (see the test above), took the spade too: the card was named
    AS.  Its pip read the way it is printed takes the club, and the card is named AC."""
    from vision.pipeline import Recognizer
    from vision.synth import SynthConfig, random_frame

    frame = random_frame(9001, 9, 0, SynthConfig(width=640, height=480))
    truth = {c.code for c in frame.playing_cards}
    assert "AC" in truth and "AS" not in truth
    said = [r.card.code for r in Recognizer().read(frame.image) if r.card is not None]
    assert "AC" in said and "AS" not in said, said
    assert all(c in truth for c in said) and len(said) >= 7, said


@pytest.mark.parametrize(("seed", "club"), [(1020, "2C"), (1043, "8C")])
def test_small_clubs_whose_pips_take_the_club_are_not_named_spades(seed: int, club: str) -> None:
    """Drawn cards some 110 px tall in a 1920x1080 frame (a webcam over a whole table):
    the index's club is 5 px across and its lobes look like a spade's point, so both
    corners took it for a spade by 0.05 to 0.1, while the pips in the middle, bigger,
    scored the club a little higher -- the card was named a spade.  Where the middle's
    pips score the other black suit higher, the card is not named (centre_black_veto):
    over 60 such frames the wrong spades went and no card read right was lost."""
    import dataclasses
    import math

    from vision.pipeline import Recognizer
    from vision.synth import SynthConfig, random_frame

    config = SynthConfig(width=1920, height=1080, card_height=(0.085, 0.12),
                         min_card_height=20, max_tilt_deg=30)
    frame = random_frame(seed, 8, config=config)
    truth = {c.code for c in frame.playing_cards}
    spade = club[0] + "S"
    assert club in truth and spade not in truth
    rec = Recognizer()
    said = [r.card.code for r in rec.read(frame.image) if r.card is not None]
    assert spade not in said, said
    assert len([c for c in said if c in truth]) >= 3, said
    # (without the veto -- and without the blur rule, which the small index, blurred as
    # wide as a fifth of it, also meets: see the test of blurred black suits below; and
    # without the shallow waist, which the club's pips show: see
    # test_a_clubs_shallow_waist_denting_both_sides_counts_for_a_club)
    plain = Recognizer(dataclasses.replace(rec.config, centre_black_veto=None,
                                           blur_suit_ratio=math.inf,
                                           club_shallow_notch=None))
    assert spade in [r.card.code for r in plain.read(frame.image) if r.card is not None]


def test_a_small_cards_middle_is_looked_at() -> None:
    """A drawn 5S some 107 px tall in a 640x480 frame of twelve cards (vision.synth seed
    500059): its "5" a few px high, both corners read an 8 at 0.81, sure enough that the
    middle was not looked at, and it was named 8S.  The middle of a card under
    centre_small_height is always looked at: its five pips rule the 8 out (240 drawn
    frames of mixed sizes: this wrong card gone, none read right lost; 12-card frames of
    real crops shrunk to half: 648 -> 652 of 720 named)."""
    import dataclasses

    from vision.pipeline import Recognizer
    from vision.synth import SynthConfig, random_frame

    frame = random_frame(500059, 12, config=SynthConfig(width=640, height=480))
    truth = {c.code for c in frame.playing_cards}
    assert "5S" in truth and "8S" not in truth
    rec = Recognizer()
    said = [r.card.code for r in rec.read(frame.image) if r.card is not None]
    assert "8S" not in said, said
    assert len([c for c in said if c in truth]) >= 6, said
    # (its runner-up a 5, the middle now counts its pips however tall the card: see
    # test_a_blurred_five_read_as_an_eight_is_not_named -- without that too)
    unlooked = Recognizer(dataclasses.replace(rec.config, centre_small_height=0.0,
                                              counted_pairs=()))
    assert "8S" in [r.card.code for r in unlooked.read(frame.image) if r.card is not None]


def _club_and_spade(dent_right_only: bool) -> np.ndarray:
    """A drawn suit glyph 40 px tall: a club (three lobes and a stem: its waist dents both
    sides), or a spade with a stroke run into its right side (a dent on that side only)."""
    m = np.zeros((40, 36), np.uint8)
    if dent_right_only:
        pts = np.array([[18, 0], [34, 22], [30, 30], [6, 30], [2, 22]], np.int32)
        cv2.fillPoly(m, [pts], 255)
        cv2.rectangle(m, (16, 28), (20, 39), 255, -1)
        cv2.rectangle(m, (22, 6), (30, 9), 255, -1)  # the stroke run into it
    else:
        cv2.circle(m, (18, 9), 9, 255, -1)
        cv2.circle(m, (8, 23), 8, 255, -1)
        cv2.circle(m, (28, 23), 8, 255, -1)
        cv2.rectangle(m, (16, 24), (20, 39), 255, -1)
    return m


def test_a_dent_in_one_side_of_a_suit_glyph_is_no_clubs_waist() -> None:
    """A club's waist dents both sides of its glyph; a dent in one side only is a stroke or
    speck run into it -- the phone deck's jack of spades, its index spade touching its
    picture's dotted frame, was dented 0.13 on the right, 0.03 on the left, and read as a
    club (see test_a_spade_run_into_the_frame_beside_it_is_no_club).  In a covered corner,
    whose glyph the card over it may cut down one side, one dent still counts."""
    import dataclasses

    from vision.glyphs import SUIT_CLASSES, side_notches
    from vision.pipeline import RecognizerConfig, adjust_suit_scores

    cfg = RecognizerConfig()
    club, spade = _club_and_spade(False), _club_and_spade(True)
    left, right = side_notches(club)
    assert min(left, right) >= cfg.club_notch_other and max(left, right) >= cfg.club_notch
    left, right = side_notches(spade)
    assert right >= cfg.club_notch and left < cfg.club_notch_other, (left, right)

    def scores(mask: np.ndarray, both_sides: bool, c: RecognizerConfig = cfg) -> list[float]:
        s = np.full(len(SUIT_CLASSES), 0.8, np.float32)
        adjust_suit_scores(s, mask, None, c, widening=False, both_sides=both_sides)
        return s.tolist()

    club_i, spade_i = SUIT_CLASSES.index("C"), SUIT_CLASSES.index("S")
    # the club: every other suit less likely; the one-sided dent: no evidence at all
    assert scores(club, True)[spade_i] < scores(club, True)[club_i]
    assert scores(spade, True)[spade_i] == scores(spade, True)[club_i]
    # ... but in a covered corner, and without the rule, the one dent counts
    assert scores(spade, False)[spade_i] < scores(spade, False)[club_i]
    anyside = dataclasses.replace(cfg, club_notch_other=0.0)
    assert scores(spade, True, anyside)[spade_i] < scores(spade, True, anyside)[club_i]


def _club_lobes_set_close() -> np.ndarray:
    """A drawn club 44 px tall whose three lobes overlap far: its waist dents each side
    about 0.08 of its width, short of club_notch (drawn decks' clubs so: 0.06 to 0.09)."""
    m = np.zeros((44, 40), np.uint8)
    for x, y in ((20, 11), (12, 23), (28, 23)):
        cv2.circle(m, (x, y), 11, 255, -1)
    cv2.rectangle(m, (18, 23), (22, 43), 255, -1)
    ys, xs = np.nonzero(m)
    return m[ys.min():ys.max() + 1, xs.min():xs.max() + 1]


def test_a_clubs_shallow_waist_denting_both_sides_counts_for_a_club() -> None:
    """A club whose lobes are set close dents both sides of its glyph less deeply than
    club_notch: no evidence at all, so a drawn deck's clubs tied with spades (0.01 to 0.03
    apart) and were named only at a second, sharpened look.  A dent of club_shallow_notch
    and more on both sides now counts for a club, by half the penalty of a deep waist
    (RecognizerConfig.shallow_notch_share); a spade, whose sides do not dent, is unmoved."""
    import dataclasses

    from vision.glyphs import SUIT_CLASSES, side_notches
    from vision.pipeline import RecognizerConfig, adjust_suit_scores

    cfg = RecognizerConfig()
    assert cfg.club_shallow_notch is not None
    club = _club_lobes_set_close()
    left, right = side_notches(club)
    assert cfg.club_shallow_notch <= min(left, right) <= max(left, right) < cfg.club_notch

    def scores(mask: np.ndarray, c: RecognizerConfig = cfg) -> list[float]:
        s = np.full(len(SUIT_CLASSES), 0.8, np.float32)
        adjust_suit_scores(s, mask, None, c, widening=False)
        return s.tolist()

    club_i, spade_i = SUIT_CLASSES.index("C"), SUIT_CLASSES.index("S")
    got = scores(club)
    assert got[club_i] - got[spade_i] == pytest.approx(
        cfg.notch_penalty * cfg.shallow_notch_share, abs=1e-6)
    # without the rule: no evidence either way
    off = scores(club, dataclasses.replace(cfg, club_shallow_notch=None))
    assert off[club_i] == off[spade_i]
    # a spade's sides do not dent: the rule takes nothing off it
    plain_spade = np.zeros((40, 36), np.uint8)
    pts = np.array([[18, 0], [34, 22], [30, 30], [6, 30], [2, 22]], np.int32)
    cv2.fillPoly(plain_spade, [pts], 255)
    cv2.rectangle(plain_spade, (16, 28), (20, 39), 255, -1)
    assert scores(plain_spade) == scores(
        plain_spade, dataclasses.replace(cfg, club_shallow_notch=None))


def test_drawn_clubs_with_lobes_set_close_are_named_at_the_first_look() -> None:
    """Three of vision.bench's 12-card frames (the speed goal's), read with no second
    look: their clubs (lobes set close, the waist's dent short of club_notch) tied with
    spades and were set aside, to be named only by a sharpened re-read, 1.5 to 2 ms a card
    (a KC and 5C, a JC, a 7C and 4C).  The shallow waist now names five of them at the
    first look; none wrong."""
    import dataclasses

    from vision.pipeline import Recognizer
    from vision.synth import SynthConfig, random_frame

    first = Recognizer(dataclasses.replace(Recognizer().config, retry_restore=(),
                                           retry_unled=()))
    before = Recognizer(dataclasses.replace(first.config, club_shallow_notch=None))
    named = unnamed_before = 0
    for i in (4, 12, 20):
        frame = random_frame(1000 + i, 12, 0, SynthConfig())  # (vision.bench's, seed 1)
        truth = [c.code for c in frame.playing_cards]
        said = [r.card.code for r in first.read(frame.image) if r.card is not None]
        assert [c for c in said if c not in truth] == [], (i, said, truth)
        named += len(said)
        unnamed_before += 12 - sum(1 for r in before.read(frame.image) if r.card is not None)
    assert named >= 35, named  # measured 35 of 36
    assert unnamed_before >= 5, unnamed_before  # measured 5 (KC, 5C, JC, 7C, 4C)


def test_blurred_real_clubs_with_a_shallow_waist_are_named(folder_crops) -> None:
    """12-card frames of real crops out of focus (phone deck 1.6 px, webcam deck 2.2 px):
    a blurred club's waist fills in to a shallow dent, and its corners tied with a spade;
    the shallow waist names more of them (measured 207 of 288, 199 without it), none
    wrong."""
    import dataclasses

    import frames

    from vision.pipeline import Recognizer

    rec = Recognizer()
    before = Recognizer(dataclasses.replace(rec.config, club_shallow_notch=None))
    named = named_before = 0
    for folder, sigma in (("phone-scenes", 1.6), ("webcam-grey", 2.2)):
        for seed in range(12):
            image, truth = frames.table_frame(folder_crops(folder), 12, seed=seed)
            picture = cv2.GaussianBlur(image, (0, 0), sigma)
            said = [r.card.code for r in rec.read(picture) if r.card is not None]
            assert [c for c in said if c not in truth] == [], (folder, seed, said, truth)
            named += len(said)
            named_before += sum(1 for r in before.read(picture) if r.card is not None)
    assert named >= named_before + 5, (named, named_before)



@pytest.mark.parametrize("seed", [57, 98, 129])
def test_a_blurred_five_read_as_an_eight_is_not_named(seed: int) -> None:
    """Drawn frames (vision.synth, 3 to 12 cards) blurred 1.6 px: a 5's open top closes
    and both index corners read an 8, a 5 second -- named an 8 of the 5's suit (once at
    0.83, too sure for its middle to be looked at).  An 8 whose runner-up is a 5
    (RecognizerConfig.counted_pairs) is named only where its middle counts 8 pips."""
    import dataclasses

    from vision.pipeline import Recognizer
    from vision.synth import SynthConfig, random_frame

    frame = random_frame(seed, 3 + seed % 10, config=SynthConfig(width=1280, height=720))
    truth = [c.code for c in frame.playing_cards]
    image = _blurred(frame.image, 1.6)
    rec = Recognizer()
    said = [r.card.code for r in rec.read(image) if r.card is not None]
    assert [c for c in said if c not in truth] == [], (seed, said, truth)
    assert said, seed
    plain = Recognizer(dataclasses.replace(rec.config, counted_pairs=()))
    wrong = [r.card.code for r in plain.read(image) if r.card is not None
             and r.card.code not in truth]
    assert [c[0] for c in wrong] == ["8"] and "5" + wrong[0][1] in truth, (seed, wrong, truth)

def _shrunk(image: np.ndarray, f: float) -> np.ndarray:
    return cv2.resize(image, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)


def _blurred(image: np.ndarray, sigma: float = 1.1) -> np.ndarray:
    return cv2.GaussianBlur(image, (0, 0), sigma)  # 1.1: a webcam slightly out of focus


def _tilted(image: np.ndarray) -> np.ndarray:
    from vision_robustness import tilted  # (bench/, on the path above)

    return tilted(image, 45)


def _warm(image: np.ndarray) -> np.ndarray:
    from vision_robustness import cast  # (bench/, on the path above)

    return cast(image, 0.4, 0.7, 1.0)  # a tungsten lamp's light, weak in blue


# the pictures changed as other cameras would take them (see bench/vision_robustness.py)
CHANGED = {
    "tilted 45": _tilted,
    "half": lambda i: _shrunk(i, 0.5),
    "0.4": lambda i: _shrunk(i, 0.4),
    "blurred": _blurred,
    "tilted 45, blurred": lambda i: _blurred(_tilted(i)),
    "blurred 1.6": lambda i: _blurred(i, 1.6),
    "blurred 2.2": lambda i: _blurred(i, 2.2),
    "warm, blurred 1.4": lambda i: _blurred(_warm(i), 1.4),
    "dim, blurred 1.4": lambda i: _blurred((i * 0.4).astype(np.uint8), 1.4),
}


def _read_changed(reader, crops: list, seed: int, change: str) -> tuple[list[str], list[str]]:
    """The cards named in a 12-card table frame of ``crops`` (seed ``seed``) changed by
    ``change`` (of CHANGED), and the cards in it; no card named may be one not there."""
    import frames

    image, truth = frames.table_frame(crops, 12, seed=seed)
    said = [c.card.code for c in reader.read(CHANGED[change](image)).cards
            if c.card is not None]
    assert not Counter(said) - Counter(truth), (change, seed, said, truth)
    return said, list(truth)


# (change, seed): 12-card frames of real crops, seen at 45 degrees or shrunk to half, where a
# jack of spades was named JC (measured: 3 such wrong cards in 2,160, none after; the same
# batteries named 15 + 11 + 6 cards more, mostly spade courts)
DENTED = [("tilted 45", 155), ("half", 109), ("half", 155)]


@pytest.mark.parametrize(("change", "seed"), DENTED)
def test_a_spade_run_into_the_frame_beside_it_is_no_club(reader, folder_crops, change: str,
                                                        seed: int) -> None:
    said, _ = _read_changed(reader, folder_crops("phone-scenes"), seed, change)
    assert said.count("JS") >= 1 and len(said) >= 10, (change, seed, said)


# (index style, four corners, row step, seed): rows of seven drawn cards turned on their
# sides, whose outline has a card's shape: one end's big pip read as a 6 over a 4 by 0.017,
# the opposite end showing no index, and six pips counted in the middle -- named 6S
ROWS_OF_LANDSCAPE_CARDS = [("standard", False, 0.26, 2024), ("standard", True, 0.30, 2034)]


@pytest.mark.parametrize(("style", "four", "step", "seed"), ROWS_OF_LANDSCAPE_CARDS)
def test_a_middle_that_counts_a_rank_does_not_choose_it_for_a_lone_corner(
        style: str, four: bool, step: float, seed: int) -> None:
    """A card named from one index corner, its opposite corner showing none, below
    lone_corner_min_confidence, is named where its middle counts the rank's pips only where
    the corner itself prefers that rank by lone_count_margin (of 4,800 cards in fans and
    rows of real and drawn decks: 3,152 named and 1 wrong before, 3,159 and none after)."""
    import dataclasses

    import frames

    from companion.cards import RANKS, SUITS, Card
    from vision.pipeline import Recognizer
    from vision.synth import render_card_face

    deck = [(render_card_face(Card.from_code(r + s.letter), 250, style, four_corners=four)[0],
             r + s.letter) for r in RANKS for s in SUITS]
    hand = frames.fan_hand(deck, 7, seed=seed, layout="row", step=step)
    rec = Recognizer()
    said = [r.card.code for r in rec.read(hand.frame) if r.card is not None]
    assert [c for c in said if c not in hand.codes] == [], (seed, said, hand.codes)
    assert len(said) >= 4, said  # (measured 7 and 4)
    unguarded = Recognizer(dataclasses.replace(rec.config, lone_count_margin=-1.0))
    assert [r.card.code for r in unguarded.read(hand.frame)
            if r.card is not None and r.card.code not in hand.codes] == ["6S"]


# webcam-deck 12-card frames blurred a little (sigma 1.1 px: a webcam slightly out of
# focus): a 4H's index ran down into its heart, and the column of ink from the 4's stem into
# the heart was taken out as a long straight line; the 4 without its stem read as a 2, in
# both corners, at 0.82 -- 14 wrong cards of 1,680 in 140 such frames, none after
BLURRED_FOURS = (104, 110, 119)


@pytest.mark.parametrize("seed", BLURRED_FOURS)
def test_a_rank_a_long_line_was_taken_beside_has_its_middle_looked_at(
        reader, folder_crops, seed: int) -> None:
    said, truth = _read_changed(reader, folder_crops("webcam-grey"), seed, "blurred")
    assert len(said) >= 11, (seed, said)
    if seed == 104:  # (its 4H now read right: its four pips rule the 2 out)
        assert "4H" in truth and "4H" in said, said


def test_a_picture_does_not_settle_corners_that_disagree_towards_an_ace(reader,
                                                                        folder_crops) -> None:
    """A KS seen at 45 degrees and blurred 1.1 px (12-card frame of real crops, seed 126):
    one corner read an A (a K second), the other a K (an A second), and the picture in the
    middle, which allows an ace (an ace of spades' ornate pip), settled it to AS.  A picture
    settles corners that disagree only towards a court (no ace was named right so in 700
    such frames, tilted, blurred and halved)."""
    said, truth = _read_changed(reader, folder_crops("phone-scenes"), 126, "tilted 45, blurred")
    assert "KS" in truth and "AS" not in truth
    assert len(said) >= 7, said


@pytest.mark.parametrize("seed", [518, 531])
def test_covered_corners_of_cards_too_small_to_name_name_nothing(reader, folder_crops,
                                                                 seed: int) -> None:
    """12-card frames of real crops shrunk to 0.4 (512 x 288), their cards 42 to 59 px
    tall: no card found whole is named under min_card_height, but the cards not found
    were read corner by corner as covered cards, and 7 of 337 so named were wrong (a QD,
    a KH).  A covered card is named only where it is as tall as a whole card must be."""
    _read_changed(reader, folder_crops("phone-scenes"), seed, "0.4")


# (deck, change, seed, the wrong card named without the blur rule): 12-card frames of real
# crops and drawn frames (vision.synth.random_frame, 3 to 12 cards), blurred as an
# out-of-focus camera does, where a club was named as a spade (or a spade as a club): the
# blur as wide as a fifth of the index's rank glyph, a club's lobes run into a spade's
# outline.  (Measured on 1,560 real frames and 1,070 drawn ones, plain, tilted, halved,
# blurred 1.1 to 2.2 px and smeared: 108 wrong cards before, 48 after, for 62 right ones of
# 18,581 not named.)  (The webcam deck's frame of seed 28 blurred 1.6 px, where a 4C was
# named without the rule, has all its 12 cards named right either way since blurred indices
# are cut apart: see test_blurred_index.py.)
_NO_BLUR_RULE = {"blur_suit_ratio": float("inf")}
_NO_PIP_MARGIN = {"blur_pip_margin": 0.0}
BLURRED_BLACK = [
    ("phone-scenes", "blurred 2.2", 3, "QS", _NO_BLUR_RULE),  # a QC: a court, no pips
    # (an AC of seed 45 blurred 2.2 px was named AS without the rule too, its one pip read
    # upside down; read the way it is printed, the pip takes the club with the rule or
    # without it: see test_a_pip_printed_upright_one_way_only_reads_its_suit_either_way_up)
    # a 7C, its seven pips taking the club (its index's shallow waist now takes the club
    # too: see test_a_clubs_shallow_waist_denting_both_sides_counts_for_a_club)
    ("drawn", "blurred 1.6", 20, "7S", {**_NO_BLUR_RULE, "club_shallow_notch": None}),
    ("drawn", "blurred 1.6", 32, "2S", _NO_BLUR_RULE),
    # (blurred as wide as a fifth of the index, the pips themselves hardly taking the club:
    # a 4C whose pips preferred the spade by 0.04, as its index did)
    ("drawn", "blurred 1.6", 80, "4S", _NO_PIP_MARGIN),
    # a 640 x 480 webcam's small cards (65 to 130 px tall, an index 6 to 10 px high) seen at
    # 45 degrees: a 9C, its pips 0.01 apart
    ("drawn 640x480", "tilted 45", 17, "9S", _NO_PIP_MARGIN),
]


@pytest.mark.parametrize(("deck", "change", "seed", "wrong", "unguard"), BLURRED_BLACK)
def test_a_black_suit_the_blur_leaves_unsettled_is_not_named(
        reader, folder_crops, deck: str, change: str, seed: int, wrong: str,
        unguard: dict[str, float]) -> None:
    """A club or spade on a card whose edges are blurred as wide as blur_suit_ratio of its
    index's rank glyph is named only where its middle's pips do not take the other black
    suit (from blur_index_ratio on, only where they take its suit by blur_pip_margin), or,
    with no pips to read, where blurred less than blur_index_ratio or its corners prefer
    its suit by smear_black_margin.  ``unguard``: the settings without which the wrong card
    is named."""
    import dataclasses

    import frames

    from vision.pipeline import Recognizer
    from vision.synth import SynthConfig, random_frame

    if deck.startswith("drawn"):
        size = (640, 480) if deck.endswith("640x480") else (1280, 720)
        drawn = random_frame(seed, 3 + seed % 10,
                             config=SynthConfig(width=size[0], height=size[1]))
        image = CHANGED[change](drawn.image)
        truth = [c.code for c in drawn.playing_cards]
    else:
        plain, truth = frames.table_frame(folder_crops(deck), 12, seed=seed)
        image = CHANGED[change](plain)
    assert wrong not in truth
    said = [c.card.code for c in reader.read(image).cards if c.card is not None]
    assert not Counter(said) - Counter(truth), (deck, change, seed, said, truth)
    assert said, (deck, change, seed)  # (the other cards are still named)
    unguarded = Recognizer(dataclasses.replace(reader.recognizer.config, **unguard))
    assert wrong in [r.card.code for r in unguarded.read(image) if r.card is not None]


@pytest.mark.parametrize("seed", [10, 145, 149])
def test_a_blurred_black_ace_is_named_where_its_pip_takes_its_suit(reader, seed: int) -> None:
    """Drawn frames (vision.synth, 3 to 12 cards) blurred 1.6 px: a black ace blurred as
    wide as blur_index_ratio of its index was named only where its corners preferred its
    suit by smear_black_margin, its one pip -- read upside down as often as not -- no
    evidence.  Read the way it is printed (``Centre.either_way``), the pip settles its suit
    as a number card's pips do (blur_pip_margin): of 150 frames blurred 1.6 px and 150
    moved 7 px, 13 aces more named, none wrong."""
    from vision.synth import SynthConfig, random_frame

    frame = random_frame(seed, 3 + seed % 10, config=SynthConfig(width=1280, height=720))
    truth = [c.code for c in frame.playing_cards]
    aces = [c for c in truth if c[0] == "A" and c[1] in "CS"]
    said = [c.card.code for c in reader.read(_blurred(frame.image, 1.6)).cards
            if c.card is not None]
    assert not Counter(said) - Counter(truth), (said, truth)
    assert aces and all(a in said for a in aces), (aces, said)


def test_a_red_card_whose_pips_take_the_other_red_suit_is_read_again_sharpened(
        reader, folder_crops) -> None:
    """A 12-card frame of the webcam deck blurred 2.2 px (seed 1): a 9D's corners read it at
    1.0, and its middle's pips, blurred, leaned to the heart; the smeared-card check (the
    pips must be of the suit named) then dropped it, and a card once named is not read
    again.  Pips taking the other red suit now keep the corners from naming it
    (``centre_red_veto``, as ``centre_black_veto`` does for black suits): read again
    sharpened, its pips take the diamond and it is named (60 such frames: 377 -> 427 named,
    all diamonds, none wrong).  (A smeared card set aside is now read again sharpened
    anyway, where 110 px tall or more -- ``retry_smeared_height``: both are off below.)"""
    import dataclasses

    import frames

    from vision.pipeline import Recognizer

    plain, truth = frames.table_frame(folder_crops("webcam-grey"), 12, seed=1)
    image = _blurred(plain, 2.2)
    said = [c.card.code for c in reader.read(image).cards if c.card is not None]
    assert not Counter(said) - Counter(truth), (said, truth)
    assert "9D" in said, said
    off = Recognizer(dataclasses.replace(reader.recognizer.config, centre_red_veto=None,
                                         retry_smeared_height=None))
    assert "9D" not in [r.card.code for r in off.read(image) if r.card is not None]
    veto = Recognizer(dataclasses.replace(reader.recognizer.config, retry_smeared_height=None))
    assert "9D" in [r.card.code for r in veto.read(image) if r.card is not None]


def test_corners_that_disagree_on_the_rank_have_their_suit_checked_by_the_pips(
        reader, folder_crops) -> None:
    """A 12-card frame of the webcam deck seen at 45 degrees (seed 55): a 4H 87 px tall,
    one corner reading a 2 and the other a 4, both its heart a diamond by 0.2; the middle's
    four pips counted settled the rank, and the card was named 4D.  Where the corners
    disagree on the rank, the pips' shapes are read too (``centre_suit_rank_split``): they
    take the heart, and the card is not named a diamond."""
    import dataclasses

    import frames

    from vision.pipeline import Recognizer

    plain, truth = frames.table_frame(folder_crops("webcam-grey"), 12, seed=55)
    image = _tilted(plain)
    assert "4H" in truth and "4D" not in truth
    said = [c.card.code for c in reader.read(image).cards if c.card is not None]
    assert not Counter(said) - Counter(truth), (said, truth)
    assert len(said) >= 10, said
    off = Recognizer(dataclasses.replace(reader.recognizer.config,
                                         centre_suit_rank_split=False))
    assert "4D" in [r.card.code for r in off.read(image) if r.card is not None]


# 12-card frames of real crops under warm light and blurred 1.4 px: a 9C, its pips run
# together, its index read as a Q, and its middle -- the white paper as saturated an
# orange-yellow as a court's picture -- taken for a picture: named QC (8 wrong cards of 398
# in 40 frames, 2 after, both a 9H read as a Q in both corners)
WARM_SEEDS = (306, 310, 321)


@pytest.mark.parametrize("seed", WARM_SEEDS)
def test_paper_tinted_by_the_light_is_no_picture(reader, folder_crops, seed: int) -> None:
    said, truth = _read_changed(reader, folder_crops("phone-scenes"), seed, "warm, blurred 1.4")
    assert "9C" in truth and "QC" not in truth
    assert len(said) >= 7, said


def test_white_balance_greys_the_paper_and_leaves_white_light_alone() -> None:
    """_white_balanced scales a crop's channels so that their 95th percentiles (the
    paper's levels) are the same: a card under warm light shows its picture's colours as
    under white light, and a crop under white light is left as it is (the very array)."""
    from companion.cards import Card
    from vision.pipeline import RecognizerConfig, _white_balanced, _yellow_share
    from vision.synth import render_card_face

    face = render_card_face(Card.from_code("9C"), 250, "standard")[0]
    assert _white_balanced(face) is face
    warm = _warm(face)
    balanced = _white_balanced(warm)
    paper = balanced[5:20, 60:190].reshape(-1, 3).astype(float).mean(axis=0)
    assert paper.max() - paper.min() < 0.05 * paper.max(), paper
    cfg = RecognizerConfig()
    # the warm paper is more saturated than card paper is; balanced (as a card's middle is
    # judged), it is no picture's yellow
    sat = cv2.cvtColor(warm[5:20, 60:190], cv2.COLOR_BGR2HSV)[:, :, 1]
    assert float(np.median(sat)) > cfg.max_card_saturation
    assert _yellow_share(balanced, 200.0, cfg) < cfg.picture_yellow


# (change, seed, the wrong court named without the rule): 12-card frames of real crops
# (phone deck) where a court was named whose index's rank glyph was some 0.6 of its
# neighbours' and whose middle showed no picture -- a 9H blurred, its "9" cut short, read as
# a Q in both corners; a small 10 of clubs lying on its side read as a J.  (In 720 blurred,
# tilted, dimmed and tinted frames, 5 of 7 wrong cards were such courts; over those and the
# other batteries, 7 wrong cards fewer and no right one lost.)
SHORT_INDEX = [
    ("warm, blurred 1.4", 319, "QH"),
    ("dim, blurred 1.4", 335, "QH"),
    ("half", 32, "JC"),
]


@pytest.mark.parametrize(("change", "seed", "wrong"), SHORT_INDEX)
def test_a_court_whose_index_is_short_of_its_neighbours_needs_a_picture(
        reader, folder_crops, change: str, seed: int, wrong: str) -> None:
    """A court whose index's rank glyph is under index_size_ratio of the median of the
    frame's named cards' is named only where its middle shows a picture."""
    import dataclasses

    import frames

    from vision.pipeline import Recognizer

    said, truth = _read_changed(reader, folder_crops("phone-scenes"), seed, change)
    assert wrong not in truth and len(said) >= 7, said
    plain, _ = frames.table_frame(folder_crops("phone-scenes"), 12, seed=seed)
    image = CHANGED[change](plain)
    unguarded = Recognizer(dataclasses.replace(reader.recognizer.config, index_size_ratio=0.0))
    assert wrong in [r.card.code for r in unguarded.read(image) if r.card is not None]


# (change, seed, the card): 12-card frames of the webcam deck's crops where both index
# corners read a rank only just ahead of the one the middle's pips count -- a 9H read as a
# Q in both (by 0.003 to 0.01), a 6H blurred 2.2 px as a 5 (by 0.009 to 0.018) -- and the
# card went unnamed, the count outvoted by two corners that agreed
COUNTED_TIES = [("half", 119, "9H"), ("blurred 2.2", 102, "6H")]


@pytest.mark.parametrize(("change", "seed", "card"), COUNTED_TIES)
def test_corners_that_agree_only_just_are_settled_by_the_pips_counted(
        reader, folder_crops, change: str, seed: int, card: str) -> None:
    """Index corners that both put a rank first by at most count_settles_tie (0.05) over
    the rank the middle's pips count, that rank second in each, are settled by the count.
    Measured on 12-card frames of both decks' crops and drawn ones (plain, blurred 1.1 to
    2.2 px, tilted, halved, tinted, dimmed; touching), seeds 100 to 159 and 200 to 259:
    27,402 cards named, 18 more and none wrong (0.12 named an 8S that was not there); fans
    and rows the same."""
    import dataclasses

    import frames

    from vision.pipeline import Recognizer

    said, truth = _read_changed(reader, folder_crops("webcam-grey"), seed, change)
    assert card in said and card in truth, (said, truth)
    plain, _ = frames.table_frame(folder_crops("webcam-grey"), 12, seed=seed)
    image = CHANGED[change](plain)
    outvoted = Recognizer(dataclasses.replace(reader.recognizer.config, count_settles_tie=0.0))
    before = [r.card.code for r in outvoted.read(image) if r.card is not None]
    assert before.count(card) == said.count(card) - 1, (before, said)
