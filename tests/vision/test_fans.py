"""Covered cards read from the index corners that show (vision.fan): fanned hands and rows
of cards each covering most of the one before, built from real card crops."""

from __future__ import annotations

import numpy as np
import pytest
import realdata

from vision.detect import order_clockwise
from vision.fan import (
    CARD_ASPECT,
    _place,
    blank,
    edge_segments,
    rank_gap,
    rank_parts,
    snap_corner,
)
from vision.identify import CardResult
from vision.pipeline import Recognizer, RecognizerConfig

# (layout, seed, spread, step, jitter): a spread of fans and rows at several angles
HANDS = [("fan", s, 10 + s % 3 * 3, 0.26, 0.0) for s in range(8)] + [
    ("row", s, 0.0, 0.22 + 0.04 * (s % 3), 4.0 * (s % 2)) for s in range(8)
]


@pytest.fixture(scope="module")
def crops():
    import frames

    return frames.card_crops(Recognizer(RecognizerConfig(read_fans=False)),
                             realdata.photos("phone-scenes"))


@pytest.fixture(scope="module")
def webcam():
    """Crops of the webcam deck's cards (a large index, grey paper)."""
    import frames

    return frames.card_crops(Recognizer(RecognizerConfig(read_fans=False)),
                             realdata.photos("webcam-grey"))


def _hand(crops, layout, seed, spread, step, jitter):
    import frames

    return frames.fan_hand(crops, 5, seed=seed, spread=spread, layout=layout, step=step,
                           jitter=jitter)


def _hidden_read(rec: Recognizer, crops) -> tuple[int, int, list[str]]:
    got = total = 0
    wrong: list[str] = []
    for layout, seed, spread, step, jitter in HANDS:
        hand = _hand(crops, layout, seed, spread, step, jitter)
        said = [r.card.code for r in rec.read(hand.frame) if r.card is not None]
        wrong += [f"{layout}{seed}:{c}" for c in said if c not in hand.codes]
        assert len(said) == len(set(said)), (layout, seed, said)
        total += len(hand.hidden)
        got += len(set(said) & set(hand.hidden))
    return got, total, wrong


def test_covered_cards_are_read_and_never_misread(crops) -> None:
    with_fans = _hidden_read(Recognizer(), crops)
    without = _hidden_read(Recognizer(RecognizerConfig(read_fans=False)), crops)
    assert with_fans[2] == [] and without[2] == []
    assert with_fans[1] == without[1] >= 50
    # the stage reads far more of the covered corners than outline corners alone did
    assert with_fans[0] >= 3 * max(1, without[0]), (with_fans, without)
    # (measured 33 of 51)
    assert with_fans[0] >= 0.60 * with_fans[1], with_fans


def test_a_covered_card_is_marked_partial_with_a_card_shaped_quad(crops) -> None:
    rec = Recognizer()
    partial = []
    for layout, seed, spread, step, jitter in HANDS[:4] + HANDS[8:12]:
        hand = _hand(crops, layout, seed, spread, step, jitter)
        for r in rec.read(hand.frame):
            if r.partial:
                assert r.card is not None  # only named covered cards are reported
                partial.append((r, hand))
    assert partial
    for r, hand in partial:
        q = np.array(r.corners, np.float32)
        w = float(np.hypot(*(q[1] - q[0])))
        h = float(np.hypot(*(q[3] - q[0])))
        assert w / h == pytest.approx(CARD_ASPECT, rel=0.02)
        # the first corner is the index corner read: the card's top-left, or its
        # bottom-right (the other index, upside down), and the quad covers the card
        k = hand.codes.index(r.card.code)
        truth = hand.quads[k]
        h_true = float(np.hypot(*(truth[3] - truth[0])))
        t = min((truth, np.roll(truth, -2, axis=0)), key=lambda t: np.hypot(*(q[0] - t[0])))
        off = np.hypot(*(q - t).T)
        assert off[0] < 0.05 * h_true  # the corner itself is found on the card's edges
        # the far corners are extrapolated along the card's edges as found near the index
        # (the size comes from the whole cards found, or the glyphs: less sure); within
        # 2.3 degrees for the fan stage's quads, 8.4 for the overlap stage's (a corner of
        # the blob's outline, its edges simplified: also covered cards, marked partial)
        for a, b in ((1, 0), (3, 0)):
            u, v = q[a] - q[b], t[a] - t[b]
            cos = float(u @ v) / float(np.linalg.norm(u) * np.linalg.norm(v))
            assert cos > np.cos(np.radians(10))
        card = CardResult(r.card, r.corners, r.confidence, r.alternatives, r.partial)
        assert card.to_json()["partial"] is True
    whole = CardResult(None, ((0, 0), (1, 0), (1, 1), (0, 1)), 0.0)
    assert "partial" not in whole.to_json()


def test_glyphs_away_from_a_card_corner_are_no_index(crops) -> None:
    """A pose guessed from two pips in the middle of a card finds no card edges where a
    corner would be, so it is dropped before any reading."""
    import cv2

    crop, _ = crops[0]
    big = cv2.resize(crop, (500, 700))
    img = np.full((900, 700, 3), (40, 80, 40), np.uint8)
    img[100:800, 100:600] = big
    cfg = RecognizerConfig()
    card_h = 700.0
    card_w = card_h * CARD_ASPECT

    def pose(x: float, y: float) -> np.ndarray:
        return order_clockwise(np.float32([[x, y], [x + card_w, y], [x + card_w, y + card_h],
                                           [x, y + card_h]]))

    snapped = snap_corner(img, pose(103, 96), cfg)  # near the true corner (100, 100)
    assert snapped is not None
    assert float(np.hypot(*(snapped[0] - (100, 100)))) < 4
    assert snap_corner(img, pose(300, 400), cfg) is None  # mid-card: paper all round


@pytest.mark.parametrize("degrees", [12.0, -12.0, 17.0])
def test_a_card_turned_from_its_pose_is_snapped_turned(degrees: float) -> None:
    """The pose's axis (rank to suit) is only roughly the card's: edges found leaning the
    same way turn the pose by their lean, and the corner is found on the card."""
    import math

    import cv2

    cfg = RecognizerConfig()
    img = np.full((900, 900, 3), (40, 80, 40), np.uint8)
    h = 600.0
    w = h * CARD_ASPECT
    t = math.radians(degrees)
    r = np.array([math.cos(t), math.sin(t)])
    d = np.array([-math.sin(t), math.cos(t)])
    o = np.array([300.0, 150.0])
    card = np.array([o, o + r * w, o + r * w + d * h, o + d * h])
    cv2.fillPoly(img, [np.round(card).astype(np.int32)], (235, 235, 235))
    # an upright pose about the card's rank glyph
    ox, oy = cfg.fan_corner_offset
    at = np.array([(ox + 0.05) * w, (oy + 0.054) * h])
    p0 = o + r * at[0] + d * at[1] - at
    pose = np.float32([p0, p0 + (w, 0), p0 + (w, h), p0 + (0, h)])
    assert snap_corner(img, pose, cfg, turns=0) is None  # the edges lean from the pose
    snapped = snap_corner(img, pose, cfg)
    assert snapped is not None
    assert float(np.hypot(*(snapped[0] - o))) < 5
    u = snapped[1] - snapped[0]
    assert abs(math.degrees(math.atan2(u[1], u[0])) - degrees) < 2


def test_frames_of_separate_cards_are_unchanged_by_the_stage(crops) -> None:
    import frames

    on, off = Recognizer(), Recognizer(RecognizerConfig(read_fans=False))
    for seed in range(2):
        frame, codes = frames.table_frame(crops, 12, seed=seed)
        said_on = [r.card.code for r in on.read(frame) if r.card is not None]
        said_off = [r.card.code for r in off.read(frame) if r.card is not None]
        assert all(c in codes for c in said_on)
        assert set(said_off) <= set(said_on)


def test_covered_cards_under_a_card_read_at_its_outline_corner_are_read(crops) -> None:
    """A card read from a corner on the blob's outline has a quad extrapolated over the
    cards on top of it: only its own index there is taken as read, not every glyph inside
    that quad.  And a row whose outline was taken for one (unread) card is no card size:
    its covered corners are sized from their glyphs."""
    rec = Recognizer()
    hand = _hand(crops, "fan", 100, 11, 0.26, 0.0)
    readings = rec.read(hand.frame)
    said = {r.card.code for r in readings if r.card is not None}
    # (without the fan stage, every covered card read is the overlap stage's)
    outline = [r for r in Recognizer(RecognizerConfig(read_fans=False)).read(hand.frame)
               if r.card is not None and r.partial]
    assert outline  # the bottom card, read from its corner on the outline
    assert said <= set(hand.codes)
    assert said & set(hand.hidden) - {r.card.code for r in outline}  # and one under it
    row = _hand(crops, "row", 110, 0.0, 0.3, 0.0)
    said = [r.card.code for r in rec.read(row.frame) if r.card is not None]
    assert set(said) <= set(row.codes)
    assert len(set(said) & set(row.hidden)) >= 3


def test_a_rank_glyph_joined_to_a_far_stroke_is_no_rank() -> None:
    """A covering card's edge (a dark line) beside a 3 joined into one rank glyph looks
    like a 10; a 10's own digits nearly touch."""
    ten = np.zeros((40, 30), np.uint8)
    ten[:, 2:6] = 1
    ten[:, 9:28] = 1
    three_and_line = np.zeros((40, 44), np.uint8)
    three_and_line[:, 0:18] = 1
    three_and_line[:20, 41:43] = 1
    cfg = RecognizerConfig()
    assert rank_gap(ten) <= cfg.fan_rank_gap[0]
    assert rank_gap(three_and_line) > cfg.fan_rank_gap[0]
    assert rank_gap(np.ones((40, 20), np.uint8)) == 0.0


def test_a_rank_glyph_joined_to_a_piece_of_pip_is_no_rank() -> None:
    """A 10's 0 with a piece of the pip beside it read as one glyph looks like a 9: a
    rank is in one piece (a 10 in two), beside specks too small to count."""
    ten = np.zeros((40, 30), np.uint8)
    ten[:, 2:6] = 1
    ten[:, 9:28] = 1
    cfg = RecognizerConfig()
    assert rank_parts(ten, cfg.fan_rank_part) == 2
    zero_and_pip = np.zeros((40, 44), np.uint8)
    zero_and_pip[:, 0:18] = 1
    zero_and_pip[15:, 24:42] = 1
    assert rank_parts(zero_and_pip, cfg.fan_rank_part) == 2
    speck = np.zeros((40, 30), np.uint8)
    speck[:, 0:18] = 1
    speck[0:3, 26:28] = 1
    assert rank_parts(speck, cfg.fan_rank_part) == 1


def test_a_covering_cards_edge_is_painted_out_before_reading() -> None:
    """The reader is shown the patch without the long straight edges in it, so that a
    dark edge beside a glyph is not read as a stroke of it."""
    cfg = RecognizerConfig()
    patch = np.full((154, 75, 3), 220, np.uint8)
    patch[40:70, 20:32] = 30  # a glyph
    cv2_line = __import__("cv2").line
    patch[:, 56:] = 250  # a covering card, its edge a dark line
    cv2_line(patch, (55, 0), (55, 153), (60, 60, 60), 2)
    segs = edge_segments(patch, cfg)
    assert len(segs)
    shown = blank(patch, segs, cfg)
    assert shown[100, 52:60].min() > 150  # the edge is gone ...
    assert shown[50, 25].max() < 60  # ... the glyph is not


def test_two_cards_glyphs_side_by_side_on_an_outline_corner_are_no_index(crops) -> None:
    """A fan whose blob outline has a corner at an AC's index with the 3S's beside it, the
    edge between the two cards too faint to be found: "A" and "3" were cut as one rank, a
    10, with the 3S's spade under it -- a TS named where a TC lay.  A rank in parts further
    apart than a 10's digits is two cards' glyphs, on an outline's corner as in the fan
    stage."""
    shown = _hand(crops, "fan", 130, 8, 0.26, 0.0)
    said = [r.card.code for r in Recognizer().read(shown.frame) if r.card is not None]
    assert set(said) <= set(shown.codes), (said, shown.codes)


def test_the_top_card_of_a_row_read_as_one_outline_is_named_whole(crops) -> None:
    """Five cards in a row, each covering most of the one before, make an outline of a
    card's shape (a card turned a quarter), found whole and not named.  Each end of it is
    read as a card as tall as the row: the top card, named from both its index corners,
    is the one end that names a card."""
    whole = {True: 0, False: 0}
    for seed in range(10):
        row = _hand(crops, "row", seed, 0.0, 0.22 + 0.04 * (seed % 3), 4.0 * (seed % 2))
        for tops in (True, False):
            readings = Recognizer(RecognizerConfig(read_row_tops=tops)).read(row.frame)
            said = [r.card.code for r in readings if r.card is not None]
            assert set(said) <= set(row.codes) and len(said) == len(set(said))
            whole[tops] += any(r.card is not None and r.card.code == row.codes[-1]
                               and not r.partial for r in readings)
    # (measured 10 of 10, and 0 without: the fan stage named some from their corner)
    assert whole[True] >= 9 and whole[False] <= 2, whole


def test_covered_corners_of_a_large_index_deck_are_read() -> None:
    """A drawn deck with large indices, in rows and fans: its index sits lower in the
    corner than the phone deck's (0.069 of the card below its top edge, not 0.045), so the
    covered card's own paper lay where the search looked for the table beyond its top edge,
    and its glyphs fell outside where the phone deck's are allowed (2 of 64 covered corners
    read; now 39), none wrongly."""
    import frames

    from companion.cards import RANKS, SUITS, Card
    from vision.synth import render_card_face

    deck = [(render_card_face(Card.from_code(r + s.letter), 250, "large")[0], r + s.letter)
            for r in RANKS for s in SUITS]
    rec = Recognizer()
    got = total = 0
    for seed in range(16):
        shown = frames.fan_hand(deck, 5, seed=seed, layout=("row", "fan")[seed % 2],
                                step=0.26, spread=12.0)
        said = [r.card.code for r in rec.read(shown.frame) if r.card is not None]
        assert set(said) <= set(shown.codes), (seed, said, shown.codes)
        got += len(set(said) & set(shown.hidden))
        total += len(shown.hidden)
    assert total == 64 and got >= 32, got


def test_a_covering_cards_edge_found_in_part_is_painted_out_across_the_patch() -> None:
    """A covering card's edge found only in part (its line faint above the glyphs) is
    painted out along the whole line: the part left beside the rank was cut with it as
    a stroke (a row's 2H read with a line beside it, named nothing)."""
    cfg = RecognizerConfig()
    patch = np.full((154, 75, 3), 220, np.uint8)
    patch[20:60, 20:40] = 30  # a rank glyph
    cv2 = __import__("cv2")
    cv2.line(patch, (56, 0), (56, 153), (60, 60, 60), 2)  # the covering card's edge ...
    found = np.float32([[56, 80, 56, 130]])  # ... found only below the glyph
    shown = blank(patch, found, cfg)
    assert shown[12:150, 55:58].min() > 150  # the whole line is gone, above it too
    assert shown[40, 30].max() < 60  # the glyph is not


@pytest.mark.parametrize("hand", [("row", 8, 0.0, 0.2, 5.0), ("row", 17, 0.0, 0.23, 5.0)])
def test_a_row_and_its_top_card_read_as_one_outline_name_no_card(crops, hand) -> None:
    """A row of cards whose outline runs into the top card's was found as one quad, and read
    from one corner only, in the top card's picture: a vertical stroke of its frame taken
    for a J (a KD named JD).  A reading from one corner whose opposite shows no index must
    start near the corner, where indices are printed."""
    layout, seed, spread, step, jitter = hand
    shown = _hand(crops, layout, seed, spread, step, jitter)
    said = [r.card.code for r in Recognizer().read(shown.frame) if r.card is not None]
    assert [c for c in said if c not in shown.codes] == [], (said, shown.codes)


def test_a_covered_big_ten_is_not_read_as_another_rank() -> None:
    """Rows of a drawn jumbo-index deck: a covered TC's "10" is wider than the index patch,
    and the "1" with part of the "0" was read as a 6 (6C named in 3 of 40 rows).  A covered
    corner whose rank glyph has a glyph beside it running off the patch is not read: its
    middle, under the other cards, cannot bear the reading out.  Measured none wrong."""
    import frames

    from companion.cards import RANKS, SUITS, Card
    from vision.synth import render_card_face

    deck = []
    for rank in RANKS:
        for suit in SUITS:
            card = Card.from_code(rank + suit.letter)
            deck.append((render_card_face(card, 250, "jumbo")[0], card.code))
    rec = Recognizer()
    wrong = []
    for seed in range(40):
        shown = frames.fan_hand(deck, 5, seed=seed, layout="row", step=0.30)
        said = [r.card.code for r in rec.read(shown.frame) if r.card is not None]
        wrong += [(seed, c) for c in said if c not in shown.codes]
    assert wrong == []


def test_the_top_cards_own_index_is_not_read_as_a_covered_card(crops) -> None:
    """A fan whose top card (a 4S) is found whole but not named (its outline runs into
    the cards under it): a covered-corner quad laid on the top card's own index read it as
    an AS.  A covered card's index that lies inside a card found whole, of about its size,
    is that card's print; a reading of it naming another card than the whole card's reading
    leads with is dropped (found in 800 drawn hands; the 4S is still read, from its other
    index corner)."""
    hand = _hand(crops, "fan", 426, 10, 0.26, 0.0)
    said = [r.card.code for r in Recognizer().read(hand.frame) if r.card is not None]
    assert "AS" not in said and "4S" in said, said
    assert all(c in hand.codes for c in said), (said, hand.codes)


def test_a_rows_outline_read_the_other_way_up_is_no_card(crops) -> None:
    """A row whose outline is taken for one card, and whose top card is not found: its
    outline has a card's proportions the other way up, and its two ends show the bottom
    card's index (a 7S) and the top card's (an AS), which both had a J second; the top
    card's ornate ace in the middle, taken for a picture, settled that J.  Read the other
    way up, each index corner must name the card itself (found in 800 drawn hands)."""
    hand = _hand(crops, "row", 737, 0.0, 0.23, 5.0)
    said = [r.card.code for r in Recognizer().read(hand.frame) if r.card is not None]
    assert "JS" not in said and all(c in hand.codes for c in said), (said, hand.codes)


def test_an_ace_beside_a_covering_cards_edge_is_no_ten(crops) -> None:
    """In a row, an AD's index with the edge of the 3H over it, a thin stroke just right of
    the A, was read as a 10 (the A's middle rows as narrow as a "1"): a 10's "0" is wider
    than its "1"'s stem (found in 800 drawn hands)."""
    hand = _hand(crops, "row", 625, 0.0, 0.23, 2.5)
    said = [r.card.code for r in Recognizer().read(hand.frame) if r.card is not None]
    assert "TD" not in said and all(c in hand.codes for c in said), (said, hand.codes)
    from vision.pipeline import _ten_shaped

    ten = np.zeros((40, 30), np.uint8)
    ten[:, 2:6] = 1
    ten[5:35, 10:28] = 1
    ten[12:28, 15:23] = 0
    ace_and_edge = np.zeros((40, 30), np.uint8)
    for row in range(40):  # an A's legs, from its apex to a base 20 px wide
        half = row // 4
        ace_and_edge[row, max(0, 12 - half) : max(0, 12 - half) + 3] = 1
        ace_and_edge[row, 10 + half : 13 + half] = 1
    ace_and_edge[:, 27:29] = 1
    cfg = RecognizerConfig()
    assert _ten_shaped(ten, cfg)
    assert not _ten_shaped(ace_and_edge, cfg)


def test_a_covered_index_a_covering_edge_runs_against_is_read_when_sure(crops) -> None:
    """In a tight fan the edge of the card on top runs against most covered indices'
    glyphs without cutting them (fan0's 2H and 3D, read at 1.0 and 0.74).  Refused outright,
    20 fanned hands read 42 of their 80 covered cards; named where sure
    (``fan_cut_confidence``), 51, none wrongly.  Below that floor such a corner is not
    named: fan3's 9D reads right at 0.57, but an edge may have cut a glyph short."""
    import frames

    def read(rec: Recognizer, hand) -> list[str]:
        return [r.card.code for r in rec.read(hand.frame) if r.card is not None]

    now, refused = Recognizer(), Recognizer(RecognizerConfig(fan_cut_confidence=2.0))
    got = {"now": 0, "refused": 0}
    for seed in range(20):
        hand = frames.fan_hand(crops, 5, seed=seed, spread=10 + seed % 3 * 3)
        for name, rec in (("now", now), ("refused", refused)):
            said = read(rec, hand)
            assert set(said) <= set(hand.codes), (seed, name, said, hand.codes)
            got[name] += len(set(said) & set(hand.codes[:-1]))
    assert got["now"] >= got["refused"] + 6, got  # (51 and 42)
    assert "2H" in read(now, frames.fan_hand(crops, 5, seed=0, spread=10))
    fan3 = frames.fan_hand(crops, 5, seed=3, spread=10)
    assert "9D" not in read(now, fan3)
    assert "9D" in read(Recognizer(RecognizerConfig(fan_cut_confidence=0.0)), fan3)


def _fans_named(deck, n: int, seeds: range, now: Recognizer, before: Recognizer
                ) -> tuple[int, int, dict[int, set[str]]]:
    """Cards named in fanned hands of ``n`` cards (seeds ``seeds``) by ``now`` and by
    ``before`` -- never a card not in the hand -- and what ``now`` named in each."""
    import frames

    got = {"now": 0, "before": 0}
    said_now: dict[int, set[str]] = {}
    for seed in seeds:
        hand = frames.fan_hand(deck, n, seed=seed, spread=10 + seed % 3 * 3)
        for name, rec in (("now", now), ("before", before)):
            said = {r.card.code for r in rec.read(hand.frame) if r.card is not None}
            assert said <= set(hand.codes), (seed, name, said, hand.codes)
            got[name] += len(said)
            if name == "now":
                said_now[seed] = said
    return got["now"], got["before"], said_now


def test_a_pip_beside_a_covered_index_is_no_part_of_its_rank(crops) -> None:
    """The phone deck prints a 10's and a 5's first big pip just right of the index: in a
    covered corner snapped a little off, the pip lies inside the patch, level with the
    rank and close beside it, and was taken for a piece of the rank (up to 1.6 x its
    height) -- the rank then had no suit under it, and the corner showed nothing.  Ink
    starting well below the rank's top joins it only up to ``rank_row_low`` x its height:
    30 fanned hands named 105 cards, now 112, none wrongly (fan11's 10H, fan29's 10D and
    5H among them)."""
    now, before, said_now = _fans_named(crops, 5, range(30), Recognizer(),
                                        Recognizer(RecognizerConfig(rank_row_low=1.6)))
    assert now >= before + 5, (now, before)  # (112 and 105)
    assert "TH" in said_now[11]
    assert {"TD", "5H"} <= said_now[29]


def test_a_covered_king_needs_the_surer_margin(crops) -> None:
    """A phone-deck AC under a 10C, the 10's edge beside its A, reads as a K by a clear
    margin (0.85 against an 8's 0.79 and its own A's 0.79): a K read or runner-up in a
    covered corner needs the margin of the ranks a cut index turns into
    (``fan_hard_ranks``), which its 0.70 does not reach."""
    import frames

    hand = frames.fan_hand(crops, 5, seed=1064, spread=13)
    assert "AC" in hand.codes and "KC" not in hand.codes

    def said(rec: Recognizer) -> list[str]:
        return [r.card.code for r in rec.read(hand.frame) if r.card is not None]

    assert set(said(Recognizer())) <= set(hand.codes)
    assert "KC" in said(Recognizer(RecognizerConfig(fan_hard_ranks=("T", "J", "Q"))))


def test_a_larger_index_than_the_phone_decks_is_looked_for_in_covered_corners(webcam) -> None:
    """The covered corners are looked for among ink the size of the phone deck's rank
    glyph; the webcam deck's index is half as tall again, and its glyphs, more than 1.7 x
    that size, were left out (``fan_glyph_height``, now up to 2 x): 30 fanned hands of
    three name more cards, none wrongly (fan1006's 3D, fan1012's 5D)."""
    before = Recognizer(RecognizerConfig(fan_glyph_height=(0.45, 1.7),
                                         fan_glyph_height_unsized=(0.25, 1.7)))
    now, before_named, said_now = _fans_named(webcam, 3, range(1000, 1030), Recognizer(),
                                              before)
    assert now >= before_named + 3, (now, before_named)
    assert "3D" in said_now[1006] and "5D" in said_now[1012]


def test_a_taller_stroke_from_the_rank_top_is_part_of_it() -> None:
    """Blurred by 2 px, the webcam deck's 4 of hearts falls apart into its bar and a stem
    taller than the rest: starting at the rank's top, the stem is still part of the rank
    (``rank_row_drop``); kept out as a pip would be, the card reads as a 4D or a 2D and is
    not named."""
    import cv2

    photo = next(p for p in realdata.photos("webcam-grey") if p.path.name == "data1-train10.jpg")
    assert photo.cards == ["4H"]
    blurred = cv2.GaussianBlur(photo.image(), (0, 0), 2)

    def named(rec: Recognizer) -> list[str]:
        return [r.card.code for r in rec.read(blurred) if r.card is not None]

    assert named(Recognizer()) == ["4H"]
    assert named(Recognizer(RecognizerConfig(rank_row_drop=-1.0))) == []


def test_a_rank_with_a_piece_broken_off_is_no_rank(crops, webcam) -> None:
    """A covered index whose rank broke at a thin stroke: the rest of a 9S without its
    stem read as a Q (fan stage), a webcam-deck 7H's stem without its bar, cut off by the
    edge of the card over it, as a J (a corner of the hand's outline).  The ink the rank
    lost lies between it and its suit, or just above it (``fan_broken_rank``).  The 9S's
    stem, a stroke taller than the rest starting well below its top, is no longer joined
    to the rank either (``rank_row_low``): either rule keeps the QS out."""
    import frames

    def said(rec: Recognizer, hand) -> list[str]:
        return [r.card.code for r in rec.read(hand.frame) if r.card is not None]

    off = Recognizer(RecognizerConfig(fan_broken_rank=10.0))
    for deck, n, seed, spread in ((crops, 5, 1017, 16), (webcam, 7, 1039, 10)):
        hand = frames.fan_hand(deck, n, seed=seed, spread=spread)
        assert set(said(Recognizer(), hand)) <= set(hand.codes), (seed, hand.codes)
    assert "JH" in said(off, frames.fan_hand(webcam, 7, seed=1039, spread=10))
    nine = frames.fan_hand(crops, 5, seed=1017, spread=16)
    assert "QS" not in said(off, nine)
    assert "QS" in said(Recognizer(RecognizerConfig(fan_broken_rank=10.0, rank_row_low=1.6)), nine)


@pytest.mark.sources
def test_a_rank_and_a_suit_of_two_inks_are_no_index(monkeypatch) -> None:
    """An index is printed in one ink: a black rank over a red suit is two cards' glyphs
    (a drawn jumbo deck's fan: a 7S's "7" and the heart of the 9H under it, on a corner of
    the hand's outline, read as a 7H)."""
    import frames

    from companion.cards import RANKS, SUITS, Card
    from vision import fan
    from vision.synth import render_card_face

    deck = [(render_card_face(Card.from_code(r + s.letter), 250, "jumbo")[0], r + s.letter)
            for r in RANKS for s in SUITS]
    hand = frames.fan_hand(deck, 5, seed=4012, spread=10)
    said = [r.card.code for r in Recognizer().read(hand.frame) if r.card is not None]
    assert set(said) <= set(hand.codes) and "AH" in said, (said, hand.codes)
    with monkeypatch.context() as m:
        m.setattr(fan, "two_inks", lambda *args: False)
        said = [r.card.code for r in Recognizer().read(hand.frame) if r.card is not None]
        assert "7H" in said

    from vision.pipeline import CornerRead

    cfg = RecognizerConfig()
    patch = np.full((154, 75, 3), 225, np.uint8)
    patch[20:55, 20:40] = (30, 30, 30)  # a black rank
    patch[62:85, 22:40] = (40, 40, 200)  # a red suit under it
    rank = np.full((35, 20), 255, np.uint8)
    read = CornerRead(np.zeros(14, np.float32), np.zeros(4, np.float32), 0.6,
                      rank_mask=rank, box=(20, 20, 40, 85))
    ink = fan.ink_mask(patch, cfg)
    assert fan.two_inks(patch, ink, read, None, cfg)
    patch[20:55, 20:40] = (40, 40, 200)  # the rank red too
    assert not fan.two_inks(patch, fan.ink_mask(patch, cfg), read, None, cfg)


def test_a_rows_outline_whose_ends_disagree_is_not_settled_by_its_middle(webcam) -> None:
    """A row of webcam-deck cards found as one quad, as square as no card seen from above
    and as no card at a slant either (its opposite sides as long): its two index corners
    are two cards' (a 2H and a 6D; a 9S and a 6S), and its middle counts the pips of more
    than one card (8).  Such a middle does not settle the corners' disagreement (it named
    an 8D and an 8S); the row's top card is named from its own corners."""
    import frames

    off = Recognizer(RecognizerConfig(row_parallel=1.01))
    for n, seed, wrong in ((3, 5000, "8D"), (4, 5186, "8S")):
        hand = frames.fan_hand(webcam, n, seed=seed, layout="row", step=0.22)
        said = [r.card.code for r in Recognizer().read(hand.frame) if r.card is not None]
        assert set(said) <= set(hand.codes) and hand.codes[-1] in said, (said, hand.codes)
        assert wrong in [r.card.code for r in off.read(hand.frame) if r.card is not None]
    rec = Recognizer()
    assert rec._squarish(((0, 0), (300, 0), (300, 295), (0, 295)))  # a row's outline
    assert not rec._squarish(((0, 0), (214, 0), (214, 300), (0, 300)))  # a card
    assert not rec._squarish(((0, 0), (300, 0), (270, 300), (30, 300)))  # a card at a slant


def test_covered_corners_are_looked_for_where_the_decks_own_index_is(webcam) -> None:
    """The covered corners are looked for as the phone deck prints its index; the webcam
    deck's is a third bigger and further in, so that in its rows the poses missed the
    card's corner.  Where the cards named whole show another index (CardReading.index),
    the corners are looked for a second time as they show it: 12 rows of four webcam-deck
    cards, 4 -> 10 of their 36 covered cards, none wrongly."""
    import frames

    from vision.fan import index_config

    # (the look sized by the regions left out of both: it finds some of them too)
    now = Recognizer(RecognizerConfig(fan_region_sized=False))
    phone_only = Recognizer(RecognizerConfig(fan_index_band=10.0, fan_region_sized=False))
    got = {"now": 0, "phone_only": 0}
    for seed in range(12):
        hand = frames.fan_hand(webcam, 4, seed=seed, layout="row", step=0.26)
        for name, rec in (("now", now), ("phone_only", phone_only)):
            said = [r.card.code for r in rec.read(hand.frame) if r.card is not None]
            assert set(said) <= set(hand.codes), (seed, name, said, hand.codes)
            got[name] += len(set(said) & set(hand.codes[:-1]))
    assert got["now"] >= got["phone_only"] + 4, got  # (10 and 4)

    cfg = RecognizerConfig()
    rx, ry, rh = cfg.fan_index_reference
    # the phone deck's own places, scattered as a row's top card's are: no change
    assert index_config(cfg, [(rx + 0.01, ry - 0.01, rh * 1.1)]) is cfg
    # a quad smaller than its card shows its index elsewhere: left out
    assert index_config(cfg, [(0.14, 0.24, 0.05)]) is cfg
    big = index_config(cfg, [(0.056, 0.031, 0.173), (0.05, 0.03, 0.17), (0.06, 0.04, 0.18)])
    assert big.fan_rank_ratio == pytest.approx(cfg.fan_rank_ratio * 0.173 / rh)
    assert big.fan_corner_offset == pytest.approx(
        (cfg.fan_corner_offset[0] + 0.056 - rx, cfg.fan_corner_offset[1] + 0.031 - ry))


def test_a_hand_no_whole_card_sizes_is_also_searched_at_its_regions_size() -> None:
    """Where no card named whole sizes the search, the glyphs size it (a rank is about a
    ninth of its card) -- wrong for a deck whose index is another size; a second look takes
    each region's short side for a card's height: 12 fans of a drawn standard-index deck,
    whose top cards are not found apart from the hand, 19 -> 27 of their 48 covered cards,
    none wrongly (``fan_region_sized``)."""
    import frames

    from companion.cards import RANKS, SUITS, Card
    from vision.synth import render_card_face

    deck = [(render_card_face(Card.from_code(r + s.letter), 250, "standard")[0], r + s.letter)
            for r in RANKS for s in SUITS]
    now, glyphs_only = Recognizer(), Recognizer(RecognizerConfig(fan_region_sized=False))
    got = {"now": 0, "glyphs_only": 0}
    for seed in range(12):
        hand = frames.fan_hand(deck, 5, seed=seed, spread=10 + seed % 3 * 3)
        for name, rec in (("now", now), ("glyphs_only", glyphs_only)):
            said = [r.card.code for r in rec.read(hand.frame) if r.card is not None]
            assert set(said) <= set(hand.codes), (seed, name, said, hand.codes)
            got[name] += len(set(said) & set(hand.codes[:-1]))
    assert got["now"] >= got["glyphs_only"] + 5, got  # (27 and 19)


def test_a_glyph_placed_in_a_narrower_patch_stays_inside_it() -> None:
    """A rank read from a wider patch (a big "10") may be measured against the narrower
    one: where the glyph fits nowhere in it, its points lie on the patch's edge, not past
    it (they indexed the patch: an IndexError that ended the frame's reading)."""
    ink = np.zeros((40, 15), bool)
    ink[5:25, 5:15] = True
    mask = np.ones((20, 14), np.uint8)  # 14 wide from x 5: 4 px past the patch
    pts = _place(mask, ink, 5, 19, 5)
    assert len(pts) == mask.size
    assert pts[:, 0].max() <= 14 and pts[:, 1].max() <= 39
    # where it fits, it is placed as before: over the ink
    fits = _place(np.ones((20, 10), np.uint8), ink, 0, 15, 5)
    assert fits[:, 0].min() == 5 and fits[:, 0].max() == 14


def _poses_pair_by_pair(stats, cents, pixels, card_h, region, origin_xy, cfg):
    """index_poses worked one pair of glyphs at a time, as it was written first (the pairs
    chosen as it chooses them)."""
    from vision.fan import glyph_pairs, on_paper

    ii, jj, d, dist = glyph_pairs(stats, cents, cfg)
    ox, oy = cfg.fan_corner_offset
    rad = np.radians(np.asarray(cfg.fan_turns, np.float32))
    cos, sin = np.cos(rad)[:, None], np.sin(rad)[:, None]
    probe = np.asarray(cfg.fan_edge_probe, np.float32)[None, :, None]
    out = []
    for i, j in zip(ii, jj, strict=True):
        axis = d[i, j] / dist[i, j]
        down = np.concatenate([cos * axis[0] - sin * axis[1], sin * axis[0] + cos * axis[1]],
                              axis=1)
        right = np.stack([down[:, 1], -down[:, 0]], axis=1)
        dirs = np.concatenate([right, down])
        x, y = pixels[i][:, :1], pixels[i][:, 1:].astype(np.float64)
        # x u + y v with one rounding of y v's sum, as a fused multiply-add rounds it
        proj = (y * dirs[:, 1] + (x * dirs[:, 0]).astype(np.float64)).astype(np.float32)
        lo_, hi_ = proj.min(axis=0), proj.max(axis=0)
        nt = len(down)
        ch = (np.full(nt, card_h, np.float32) if card_h is not None
              else (hi_[nt:] - lo_[nt:]) / cfg.fan_rank_ratio)
        cw = ch * CARD_ASPECT
        origin = right * (lo_[:nt] - ox * cw)[:, None] + down * (lo_[nt:] - oy * ch)[:, None]
        pts = (origin[:, None, :] + right[:, None, :] * (probe * cw[:, None, None])
               - down[:, None, :] * (cfg.fan_edge_out * ch)[:, None, None]
               - np.asarray(origin_xy, np.float32))
        paper = on_paper(pts, region)
        quads = [np.array([o, o + r * w, o + r * w + dn * h, o + dn * h], np.float32)
                 for o, r, dn, w, h, bad in zip(origin, right, down, cw, ch, paper.any(axis=1),
                                                strict=True) if not bad]
        if quads:
            out.append((quads, (float(cents[i, 0]), float(cents[i, 1]))))
    return out


def _same_poses(got, want) -> bool:
    return len(got) == len(want) and all(
        p.rank == rank and len(p.turned) + 1 == len(quads)
        and all(a.dtype == np.float32 and a.tobytes() == b.tobytes()
                for a, b in zip((p.quad, *p.turned), quads, strict=True))
        for p, (quads, rank) in zip(got, want, strict=True))


@pytest.mark.sources
def test_index_poses_of_every_pair_at_once_are_those_of_each_pair_alone(
        crops, webcam, monkeypatch) -> None:
    """The poses are worked out for all pairs of glyphs together; pair by pair gives the
    same quads to the bit, in the same order: on the glyphs of fans, rows and crowded
    cards (sized and unsized) and on random glyph sets."""
    import frames

    from vision import fan

    seen = []
    real = fan.index_poses

    def kept(*args):
        seen.append(args)
        return real(*args)

    monkeypatch.setattr(fan, "index_poses", kept)
    rec = Recognizer()
    for layout, seed, spread, step, jitter in HANDS[::3]:
        rec.read(_hand(crops, layout, seed, spread, step, jitter).frame)
    rec.read(frames.touching_frame(webcam, 12, size=(1280, 720), seed=1)[0])
    assert len(seen) >= 6
    assert sum(len(real(*args)) for args in seen) > 200
    for args in seen:
        for card_h in (args[3], None):
            call = (*args[:3], card_h, *args[4:])
            assert _same_poses(real(*call), _poses_pair_by_pair(*call))
    rng = np.random.default_rng(5)
    for t in range(300):
        n = int(rng.integers(2, 24))
        stats = np.zeros((n, 5), np.float32)
        stats[:, 2:4] = rng.integers(3, 20, (n, 2))
        cents = (rng.random((n, 2)) * 120).astype(np.float32)
        # (a glyph's hull has two points at least)
        pixels = [(c + rng.standard_normal((int(rng.integers(2, 12)), 2)) * 5).astype(
            np.float32) for c in cents]
        region = (rng.random((130, 140)) < 0.5).astype(np.uint8)
        call = (stats, cents, pixels, None if t % 2 else float(rng.uniform(20, 200)), region,
                (int(rng.integers(-5, 5)), int(rng.integers(-5, 5))), rec.config)
        assert _same_poses(real(*call), _poses_pair_by_pair(*call))


def _in_one_index(point, quad) -> bool:
    """Whether ``point`` lies in ``quad``'s index corner, worked for that one quad alone."""
    o = quad[0].astype(np.float64)
    m = np.stack([quad[1] - o, quad[3] - o], axis=1)
    if abs(np.linalg.det(m)) < 1e-6:
        return False
    u, v = np.linalg.solve(m, np.array(point, np.float64) - o)
    return bool(-0.05 < u < 0.3 and -0.05 < v < 0.3)


def test_a_point_is_in_an_index_corner_of_the_cards_asked_together_as_of_each_alone() -> None:
    """IndexCorners asks every card at once (one solve for them all, and for every point
    with hold_all); each card asked alone answers the same, for cards of any pose, a flat
    quad among them, and points on, near and off their index corners."""
    from vision.fan import IndexCorners

    rng = np.random.default_rng(3)
    answers = {True: 0, False: 0}
    assert not IndexCorners([]).hold((1.0, 2.0))
    for t in range(2000):
        quads = []
        for _ in range(int(rng.integers(1, 6))):
            w, h = rng.uniform(20, 300), rng.uniform(20, 300)
            a = rng.uniform(0, 2 * np.pi)
            r, d = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
            o = rng.uniform(0, 800, 2)
            quads.append(np.array([o, o + w * r, o + w * r + h * d, o + h * d], np.float32))
        if t % 7 == 0:
            quads[0][3] = quads[0][1]  # a flat quad: no card
        k = int(rng.integers(len(quads)))
        q = quads[k].astype(np.float64)
        u, v = rng.uniform(-0.1, 0.35, 2)
        near = q[0] + u * (q[1] - q[0]) + v * (q[3] - q[0])
        points = (tuple(near), tuple(rng.uniform(0, 800, 2)), tuple(map(float, q[0])))
        wants = []
        for point in points:
            want = any(_in_one_index(point, quad) for quad in quads)
            assert IndexCorners(quads).hold(point) == want
            answers[want] += 1
            wants.append(want)
        # every point asked at once too (the poses of a region are)
        assert IndexCorners(quads).hold_all(np.array(points)).tolist() == wants
    assert min(answers.values()) > 500
    assert IndexCorners(quads).hold_all(np.zeros((0, 2))).tolist() == []
    assert IndexCorners([]).hold_all(np.ones((3, 2))).tolist() == [False] * 3


def test_each_glyphs_pixels_gathered_in_one_pass_are_its_own_in_row_order() -> None:
    """component_pixels gathers every wanted component's pixels in one pass over the label
    image; each is the component's own, in the rows' order, as looking at each alone
    finds it (components left out, the largest label among them, none wanted); with
    ``row_ends``, each row's first and last of them, whose convex hull is the whole
    component's to the bit."""
    import cv2

    from vision.fan import component_pixels

    rng = np.random.default_rng(4)
    shown = {True: 0, False: 0}  # components with pixels between their rows' ends, or not
    for t in range(200):
        h, w = int(rng.integers(5, 90)), int(rng.integers(5, 90))
        ink = (rng.random((h, w)) < rng.uniform(0.1, 0.6)).astype(np.uint8)
        n, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8,
                                                               ltype=cv2.CV_16U)
        ids = np.nonzero(rng.random(n) < 0.6)[0]
        ids = ids[ids > 0]
        if t % 5 == 0:
            ids = ids[ids < n - 1]  # the largest label not wanted
        origin = (int(rng.integers(-50, 50)), int(rng.integers(-50, 50)))
        got = component_pixels(labels, ids, origin)
        ends = component_pixels(labels, ids, origin, row_ends=True)
        assert len(got) == len(ends) == len(ids)
        for lab, pts, few in zip(ids.tolist(), got, ends, strict=True):
            yy, xx = np.nonzero(labels == lab)
            want = np.stack([xx + origin[0], yy + origin[1]], axis=1).astype(np.float32)
            assert pts.dtype == np.float32 and pts.tobytes() == want.tobytes()
            # each row's first and last pixel, in order; the same convex hull
            row = yy[:, None] == yy[None, :]
            first = ~np.tril(row, -1).any(axis=1)
            last = ~np.triu(row, 1).any(axis=1)
            assert few.tobytes() == want[first | last].tobytes()
            assert cv2.convexHull(few).tobytes() == cv2.convexHull(want).tobytes()
            shown[len(few) < len(want)] += 1
    assert component_pixels(labels, ids[:0], (0, 0)) == []
    assert min(shown.values()) > 100


@pytest.mark.sources
def test_corner_looks_give_numpys_numbers(crops, monkeypatch: pytest.MonkeyPatch) -> None:
    """The looks at a covered corner's patch, made without gathering pixels, give what the
    plain numpy reckoning gives, on the corners read in a row of cards and on random
    patches: the ink (``ink_mask``: numpy's 80th percentile of the ink channel), whether
    rank and suit are in two inks (``two_inks``: the paper's mean colour, numpy's mean of
    the pixels off the ink, for the patch's ink and for random, empty and nearly full
    ones), the ink joined to a glyph's (``_with_joined``: as numpy's isin of the labels
    under it finds it), and whether an edge cuts a glyph (``_cut_glyphs``: the same
    whether judge hands it the ink and the glyphs' places or it finds them)."""
    import math

    import cv2
    import frames

    from vision import fan
    from vision.pipeline import _ink_channel

    cfg = RecognizerConfig()
    seen: list[tuple] = []
    real = fan.judge

    def kept(rec, p, patch, read, segs, c=None):
        seen.append((patch, read, segs, c or cfg))
        return real(rec, p, patch, read, segs, c)

    monkeypatch.setattr(fan, "judge", kept)
    rec = Recognizer()
    for seed in range(3):
        rec.read(frames.fan_hand(crops, 6, seed=seed, layout="row", jitter=3.0).frame)
    monkeypatch.setattr(fan, "judge", real)
    corners = [(p, r, s, c) for p, r, s, c in seen if r is not None and r.rank_mask is not None
               and r.suit_mask is not None]
    assert len(corners) >= 10

    def ink_ref(patch, c):
        v = _ink_channel(patch)
        paper = float(np.percentile(v[::2, ::2], c.paper_percentile))
        return v < min(paper * c.ink_ratio, paper - c.ink_min_contrast)

    rng = np.random.default_rng(53)
    pictures = [p for p, _, _, _ in seen] + [
        rng.integers(0, int(rng.integers(1, 257)), (int(h), int(w), 3)).astype(np.uint8)
        for h, w in rng.integers(1, 80, (400, 2))]
    for pic in pictures:
        assert np.array_equal(fan.ink_mask(pic, cfg), ink_ref(pic, cfg)), pic.shape

    def two_inks_ref(patch, ink, read, c):
        x0, y0, x1, _ = read.box
        at = _place(read.rank_mask, ink, x0, x1, y0)
        paper = patch[~ink]
        if len(paper) < 10 or not len(at):
            return False
        xs, ys = at[:, 0].astype(np.intp), at[:, 1].astype(np.intp)
        b, g, r = (patch[ys, xs].mean(axis=0) + 1.0) / (paper.mean(axis=0) + 1.0)
        rank_red = float(r - max(b, g))
        return ((rank_red > c.red_threshold and read.redness < c.black_threshold)
                or (rank_red < c.black_threshold and read.redness > c.red_threshold))

    answers = []
    for patch, read, _, c in corners:
        ink = fan.ink_mask(patch, c)
        for mask in (ink, rng.random(ink.shape) < 0.3, np.zeros_like(ink),
                     rng.random(ink.shape) < 0.9995):
            got = fan.two_inks(patch, mask, read, None, c)
            assert got == two_inks_ref(patch, mask, read, c)
            answers.append(got)
        # the reds weighed exactly: a threshold at the very ratio met is met as numpy's
        x0, y0, x1, _ = read.box
        at = _place(read.rank_mask, ink, x0, x1, y0)
        xs, ys = at[:, 0].astype(np.intp), at[:, 1].astype(np.intp)
        b, g, r = (patch[ys, xs].mean(axis=0) + 1.0) / (patch[~ink].mean(axis=0) + 1.0)
        rank_red = float(r - max(b, g))
        fields = {f: getattr(c, f) for f in c.__dataclass_fields__}
        black = read.redness + 1.0  # the suit black
        below = c.__class__(**{**fields, "red_threshold": math.nextafter(rank_red, -1.0),
                               "black_threshold": black})
        at_it = c.__class__(**{**fields, "red_threshold": rank_red, "black_threshold": black})
        assert fan.two_inks(patch, ink, read, None, below)
        assert fan.two_inks(patch, ink, read, None, at_it) == (rank_red < black
                                                               and read.redness > rank_red)
    assert not all(answers)

    # the ink joined to a glyph's: as numpy's isin of the labels under it finds it, for the
    # glyphs placed on the patch's ink and on the ink thinned (placed partly off it, on
    # the paper, which is joined to nothing)
    joins = 0
    for patch, read, _, c in corners:
        ink = fan.ink_mask(patch, c)
        thin = cv2.erode(ink.view(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
        for given in (ink, thin):
            n, labels = cv2.connectedComponents(given.view(np.uint8), connectivity=8,
                                                ltype=cv2.CV_16U)
            x0, y0, x1, y1 = read.box
            for mask, top in ((read.rank_mask, y0),
                              (read.suit_mask, y1 - read.suit_mask.shape[0])):
                pts = _place(mask, given, x0, x1, top)
                ids = np.unique(labels[pts[:, 1].astype(np.int32), pts[:, 0].astype(np.int32)])
                ids = ids[ids > 0]
                want = pts
                if len(ids):
                    yy, xx = np.nonzero(np.isin(labels, ids))
                    want = np.concatenate([pts, np.stack([xx, yy], axis=1).astype(np.float32)])
                assert np.array_equal(fan._with_joined(pts, labels, n), want)
                joins += len(want) > len(pts)
    assert joins > 10
    # and the cut look the same whether judge hands it the ink and the glyphs' places or
    # it finds them
    cuts = []
    for patch, read, segs, c in corners:
        if not len(segs):
            continue
        for clear in (c.fan_cut_clear, 6.0):
            cc = c.__class__(**{**{f: getattr(c, f) for f in c.__dataclass_fields__},
                                "fan_cut_clear": clear})
            ink = fan.ink_mask(patch, cc)
            x0, y0, x1, y1 = read.box
            placed = (ink, _place(read.rank_mask, ink, x0, x1, y0),
                      _place(read.suit_mask, ink, x0, x1, y1 - read.suit_mask.shape[0]))
            got = fan._cut_glyphs(patch, read, segs, cc)
            assert fan._cut_glyphs(patch, read, segs, cc, placed) == got
            cuts.append(got)
    assert any(cuts) and not all(cuts)


@pytest.mark.sources
def test_a_warped_part_is_the_whole_patchs(crops, monkeypatch: pytest.MonkeyPatch) -> None:
    """``warp_part`` (a covered corner's edges looked for on only the part of its patch
    that holds them) gives the whole patch's very pixels: OpenCV's for the whole patch,
    cut to the part -- for the poses snapped in rows and fans, and for random quads,
    patches and parts of every size (one pixel to the whole)."""
    import cv2
    import frames

    from vision import fan

    asked: list[tuple] = []
    real = fan.warp_part

    def kept(img, m, size, whole):
        asked.append((img, m, size, whole))
        return real(img, m, size, whole)

    monkeypatch.setattr(fan, "warp_part", kept)
    rec = Recognizer()
    rec.read(frames.fan_hand(crops, 6, seed=2, layout="row", jitter=3.0).frame)
    rec.read(frames.fan_frame(crops, 5, seed=1)[0])
    monkeypatch.setattr(fan, "warp_part", real)
    assert len(asked) >= 100 and {a[2][1] for a in asked} >= {41, 112}
    rng = np.random.default_rng(59)
    img = asked[0][0]
    for _ in range(3000):
        w, h = (int(v) for v in rng.integers(1, 200, 2))
        centre = rng.uniform(0, min(img.shape[:2]) - 1, 2)
        quad = (centre + rng.normal(0, 60, (4, 2))).astype(np.float32)
        m = cv2.getPerspectiveTransform(quad, np.float32([[0, 0], [w, 0], [w, h], [0, h]]))
        size = (int(rng.integers(1, w + 1)), int(rng.integers(1, h + 1)))
        asked.append((img, m, size, (w, h)))
    cut = 0
    for img, m, size, whole in asked:
        part = fan.warp_part(img, m, size, whole)
        full = cv2.warpPerspective(img, m, whole, flags=cv2.INTER_LINEAR,
                                   borderMode=cv2.BORDER_REPLICATE)
        ph, pw = part.shape[:2]
        assert pw >= size[0] and ph >= size[1]
        assert np.array_equal(part, full[:ph, :pw]), (size, whole)
        cut += pw < whole[0]
    assert cut > 1000  # (narrower than the patch, as well as shorter)


def test_an_edge_along_a_glyph_cuts_it_and_one_clear_of_it_does_not() -> None:
    """``_cut_glyphs``: a straight edge running through a glyph's box within
    ``fan_cut_clear`` px of that glyph's ink may have cut it -- the suit's, for an edge
    just under it, which is far from the rank's; an edge through neither box cuts nothing;
    and the same whether the ink and the glyphs' places are handed to it or found."""
    from vision import fan
    from vision.pipeline import CornerRead

    cfg = RecognizerConfig()
    patch = np.full((154, 75, 3), 225, np.uint8)
    patch[20:55, 20:40] = (30, 30, 30)  # the rank
    patch[62:85, 22:40] = (30, 30, 30)  # the suit under it
    read = CornerRead(np.zeros(14, np.float32), np.zeros(4, np.float32), 0.6,
                      rank_mask=np.full((35, 20), 255, np.uint8),
                      suit_mask=np.full((23, 18), 255, np.uint8), box=(20, 20, 40, 85))
    under_suit = np.array([[10, 85, 60, 85]], np.float32)
    under_index = np.array([[10, 120, 60, 120]], np.float32)
    beside_rank = np.array([[41, 22, 41, 50]], np.float32)  # just past the rank's box
    ink = fan.ink_mask(patch, cfg)
    placed = (ink, _place(read.rank_mask, ink, 20, 40, 20), _place(read.suit_mask, ink, 20, 40, 62))
    for given in (None, placed):
        assert fan._cut_glyphs(patch, read, under_suit, cfg, given)
        assert not fan._cut_glyphs(patch, read, under_index, cfg, given)
        assert not fan._cut_glyphs(patch, read, beside_rank, cfg, given)
        assert fan._cut_glyphs(patch, read, np.concatenate([under_index, under_suit]), cfg,
                               given)
