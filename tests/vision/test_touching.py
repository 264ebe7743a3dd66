"""Cards lying edge to edge (vision.neighbours): the whole deck-sheet scan, a scan-like
frame rendered here from real card crops, and the proposal geometry on drawn pictures."""

from __future__ import annotations

from collections import Counter

import cv2
import numpy as np
import pytest
import realdata

from companion.cards import Card
from vision.detect import detect, quad_area
from vision.neighbours import card_round_print, keep_read_guesses, neighbour_quads
from vision.pipeline import (
    CardReading,
    Recognizer,
    RecognizerConfig,
    _covered_by,
    _inside_named,
)


@pytest.fixture(scope="module")
def crops(rec: Recognizer) -> list[tuple[np.ndarray, str]]:
    import frames

    return frames.card_crops(rec, realdata.photos("phone-scenes"))


def _twelve_touching(rec: Recognizer, crops: list[tuple[np.ndarray, str]], seed: int
                     ) -> tuple[list[str], list[str]]:
    """The cards named in a 1280x720 frame of twelve of ``crops`` touching one another
    (``seed``), and the cards laid; no card named that is not there, nor twice."""
    import frames

    frame, codes = frames.touching_frame(crops, 12, size=(1280, 720), seed=seed)
    said = [x.card.code for x in rec.read(frame) if x.card is not None]
    assert not Counter(said) - Counter(codes), (seed, said, codes)
    return said, codes


def test_deck_sheet_whole_scan_finds_touching_cards(rec: Recognizer) -> None:
    """52 cards edge to edge, white on white: the cards the masks cannot cut apart are
    found beside those they can (47/52 when written; 40 without)."""
    score = realdata.score_sheet_whole(rec)
    assert score.wrong == 0, score.wrongs
    assert score.correct >= 46, score.line("deck-sheet whole")


def _scan_frame(
    crops: list[tuple[np.ndarray, str]], rows: int, cols: int, seed: int,
    merged: set[tuple[int, int]],
) -> tuple[np.ndarray, list[str]]:
    """Card crops edge to edge on white paper, like a flat scan: a thin grey line between
    neighbours, except between the ``merged`` pairs (grid indices), where none shows."""
    rng = np.random.default_rng(seed)
    w, h = 1280, 720
    frame = np.full((h, w, 3), 232, np.uint8)
    ch, cw = crops[0][0].shape[:2]
    x0, y0 = (w - cols * cw) // 2, (h - rows * ch) // 2
    codes = []
    for k, idx in enumerate(rng.choice(len(crops), size=rows * cols, replace=False)):
        r, c = divmod(k, cols)
        crop, code = crops[idx]
        frame[y0 + r * ch: y0 + (r + 1) * ch, x0 + c * cw: x0 + (c + 1) * cw] = crop
        codes.append(code)
    grey = (150, 150, 150)
    for k in range(rows * cols):
        r, c = divmod(k, cols)
        xa, ya = x0 + c * cw, y0 + r * ch
        if c + 1 < cols and (k, k + 1) not in merged:
            cv2.line(frame, (xa + cw, ya + 8), (xa + cw, ya + ch - 8), grey, 2)
        if r + 1 < rows and (k, k + cols) not in merged:
            cv2.line(frame, (xa + 8, ya + ch), (xa + cw - 8, ya + ch), grey, 2)
    return frame, codes


def test_scan_of_touching_cards(rec: Recognizer, crops) -> None:
    """Twelve cards edge to edge, three of the lines between them missing: more cards
    are named with the neighbour proposals than without, none wrongly (18 against 7 over
    these six frames when written)."""
    without = Recognizer(RecognizerConfig(detect_neighbours=False))
    named = named_without = 0
    for seed in range(6):
        frame, codes = _scan_frame(crops, 3, 4, seed, {(1, 2), (7, 11), (4, 8)})
        said = [r.card.code for r in rec.read(frame) if r.card is not None]
        assert all(c in codes for c in said), (seed, said, codes)
        assert len(said) == len(set(said)), (seed, said)
        named += len(said)
        named_without += sum(r.card is not None for r in without.read(frame))
    assert named >= 15
    assert named >= named_without + 6


def _drawn_pair(line: int | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Two white 60x84 'cards' with ink, edge to edge on a dark table, and their quads;
    ``line``: the grey of the line between them (None: none)."""
    img = np.full((200, 300), 60, np.uint8)
    a = np.array([[50, 50], [110, 50], [110, 134], [50, 134]], np.float32)
    b = a + np.array([60, 0], np.float32)
    for q in (a, b):
        x0, y0 = (int(v) for v in q[0])
        img[y0:y0 + 84, x0:x0 + 60] = 230
        cv2.circle(img, (x0 + 30, y0 + 42), 8, 30, -1)  # a pip
        cv2.putText(img, "7", (x0 + 3, y0 + 14), cv2.FONT_HERSHEY_SIMPLEX, 0.4, 20, 1)
    if line is not None:
        cv2.line(img, (110, 52), (110, 132), line, 1)
    return cv2.GaussianBlur(img, (5, 5), 0), a, b


def test_neighbour_beside_a_touching_card() -> None:
    cfg = RecognizerConfig()
    blur, a, b = _drawn_pair(200)
    out = neighbour_quads([a], [False], blur, 120.0, cfg)
    assert len(out) == 1
    q = out[0]
    # every corner within 3 px of the card beside
    assert max(min(float(np.hypot(*(p - c))) for c in b) for p in q) < 3.0
    assert abs(quad_area(q)) == pytest.approx(quad_area(b), rel=0.1)


def test_no_neighbour_for_a_card_alone_or_beside_blank_paper() -> None:
    cfg = RecognizerConfig()
    blur, a, b = _drawn_pair(None)
    # a card that is a region of its own touches nothing: nothing is looked for
    assert neighbour_quads([a], [True], blur, 120.0, cfg) == []
    # beside the card a blank of paper, no ink: no card
    blank = blur.copy()
    x0, y0 = (int(v) for v in b[0])
    blank[y0 + 4:y0 + 80, x0 + 4:x0 + 56] = 230
    assert neighbour_quads([a], [False], blank, 120.0, cfg) == []


def test_cards_lying_apart_propose_nothing(crops) -> None:
    """A table of separate cards costs nothing more: no quad is guessed beside them (one
    quad per card; a quad from the last-resort masks, flagged too, lies on a card: a court
    whose thin margin beside its picture Otsu's mask broke)."""
    import frames

    cfg = RecognizerConfig()
    for seed in range(3):
        frame, _ = frames.table_frame(crops, 12, seed=seed)
        guessed: list[bool] = []
        quads, _ = detect(frame, cfg, [], None, guessed)
        assert len(guessed) == len(quads) == 12
        # (table_frame deals the cards on a 4 x 3 grid, each within 20 px of its cell's
        # middle)
        for q, g in zip(quads, guessed, strict=True):
            cx, cy = q.mean(axis=0)
            cell = ((cx // 320 + 0.5) * 320, (cy // 240 + 0.5) * 240)
            assert not g or max(abs(cx - cell[0]), abs(cy - cell[1])) < 30, (seed, q)


def test_unread_or_repeated_guesses_are_dropped() -> None:
    q = np.array([[0, 0], [60, 0], [60, 84], [0, 84]], np.float32)
    far = q + np.array([200, 0], np.float32)
    seven = Card.from_code("7H")
    corners = tuple((float(x), float(y)) for x, y in q)
    readings = [
        CardReading(seven, corners, 0.9),  # found outright
        CardReading(seven, corners, 0.8),  # a guess over it naming the same card
        CardReading(None, (), 0.0),  # a guess naming nothing
        CardReading(Card.from_code("8S"), corners, 0.9),  # a guess naming a card
    ]
    quads = [q, q + 2, far, far]
    kept, kept_quads = keep_read_guesses(readings, quads, [False, True, True, True])
    assert [r.card.code for r in kept if r.card] == ["7H", "8S"]
    assert len(kept_quads) == 2


def test_a_card_whose_outline_was_found_inside_it_is_read_from_a_grown_quad(crops) -> None:
    """The top card of a fan (a TH), its left side along the paper of the card under it,
    was found some 7 px inside: its index's "1" was cut off, one corner read a Q and the
    other a 10, and the card was not named.  A card not named whose corners show glyphs is
    read once more from its quad grown by ``retry_grow`` (4%), named only where sure;
    60 frames of 12 real crops 710 -> 713 of 720, none wrong."""
    import frames

    hand = frames.fan_hand(crops, 3, seed=5010, spread=13)
    said = [r for r in Recognizer().read(hand.frame) if r.card is not None and not r.partial]
    assert [r.card.code for r in said] == ["TH"]
    # the quad reported is the one found
    assert np.abs(np.array(said[0].corners) - hand.quads[-1]).max() < 12
    unsure = Recognizer(RecognizerConfig(retry_grow=0.0)).read(hand.frame)
    assert "TH" not in [r.card.code for r in unsure if r.card is not None and not r.partial]


def _panelled_cards(touching: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A grey picture of a white 100x140 card whose pips sit in a cream panel framed by a
    dark line (30 px of paper round it), on a dark table; with ``touching``, a second such
    card against its right side.  The card's quad and its panel's (clockwise)."""
    img = np.full((260, 360), 55, np.uint8)
    card = np.array([[60, 60], [160, 60], [160, 200], [60, 200]], np.float32)
    lefts = (60, 160) if touching else (60,)
    for x0 in lefts:
        img[60:200, x0:x0 + 100] = 225
        cv2.rectangle(img, (x0 + 30, 90), (x0 + 70, 170), 205, -1)  # the panel
        cv2.rectangle(img, (x0 + 30, 90), (x0 + 70, 170), 40, 1)  # its frame
        cv2.circle(img, (x0 + 50, 130), 6, 30, -1)  # a pip
    panel = np.array([[90, 90], [130, 90], [130, 170], [90, 170]], np.float32)
    return cv2.GaussianBlur(img, (3, 3), 0), card, panel


@pytest.mark.parametrize("touching", [False, True])
def test_the_card_round_a_printed_panel(touching: bool) -> None:
    """A panel printed in a card's middle has paper all round it: the card's edge lies
    where that paper gives way to the table, as far out on one side as on the opposite --
    also where a card touching it runs the paper on past one side."""
    img, card, panel = _panelled_cards(touching)
    got = card_round_print(img, panel, 20.0)
    assert got is not None
    # every corner within 2 px of the card's
    assert max(min(float(np.hypot(*(p - c))) for c in card) for p in got) <= 2.0


def test_no_card_round_a_card_or_a_panel_with_paper_all_the_way() -> None:
    img, card, panel = _panelled_cards(False)
    # a card's own outline has the table outside it, no margin of paper
    assert card_round_print(img, card + np.array([[1, 1], [-1, 1], [-1, -1], [1, -1]],
                                                 np.float32), 20.0) is None
    # paper as far as the search reaches on both sides: no edge to go by
    wide = img.copy()
    wide[20:240, 20:340] = 225
    wide[90:171, 90:131] = img[90:171, 90:131]
    assert card_round_print(wide, panel, 20.0) is None


def test_an_unread_quad_inside_a_card_named_is_dropped() -> None:
    card = ((0.0, 0.0), (100.0, 0.0), (100.0, 140.0), (0.0, 140.0))
    panel = ((30.0, 30.0), (70.0, 30.0), (70.0, 110.0), (30.0, 110.0))
    apart = tuple((x + 300, y) for x, y in panel)
    readings = [CardReading(Card.from_code("7C"), card, 0.6, partial=True),
                CardReading(None, panel, 0.0), CardReading(None, apart, 0.0)]
    kept = _inside_named(readings, RecognizerConfig())
    assert [r.corners for r in kept] == [card, apart]


def test_touching_cards_are_read_round_their_panels(rec: Recognizer) -> None:
    """The webcam deck prints its pips in a framed panel.  Where its cards touch, their
    paper is one bright region and each panel is what outlines a card's shape: such a quad,
    not named, is read as the card round it (``grow_prints``; a card named from an index
    corner inside the card so found gives way to it), and one left inside a card named is
    that card's print, no card of its own (``_inside_named``).  Ten 640x480 frames of six
    touching cards: 54 named (49 found whole), no quad left unread when written; 41 (17)
    and 34 without either; none wrong either way.  Since a piece of a blob is read as a
    card by its hull, parted from slivers, or round a picture (``blob_rest_print``), 59
    (55 whole), and 50 (26) and 34 without either: those pieces are some of the cards the
    panels find; since the blob's rest is read before its covered corners, 59 (57), and 51
    (40) and 34 without either."""
    import frames

    crops = frames.card_crops(rec, realdata.photos("webcam-grey"))
    old = Recognizer(RecognizerConfig(grow_prints=False, inside_named_share=2.0))
    tally = {"new": [0, 0, 0], "old": [0, 0, 0]}
    for seed in range(10):
        frame, codes = frames.touching_frame(crops, 6, seed=seed)
        for name, r in (("new", rec), ("old", old)):
            got = r.read(frame)
            said = [x.card.code for x in got if x.card is not None]
            assert not Counter(said) - Counter(codes), (name, seed, said, codes)
            tally[name][0] += len(said)
            tally[name][1] += sum(x.card is not None and not x.partial for x in got)
            tally[name][2] += sum(x.card is None for x in got)
    named, whole, unread = tally["new"]
    assert named >= 57 and whole >= 52 and unread <= 3, tally
    assert named >= tally["old"][0] + 6 and whole >= tally["old"][1] + 15, tally
    assert unread <= tally["old"][2] - 25, tally


def test_touching_cards_left_apart_by_the_cards_read_are_read(
        rec: Recognizer, crops: list[tuple[np.ndarray, str]]) -> None:
    """The phone deck has no printed panel to outline a card by: where its cards touch,
    some are named from their index corners and the rest of their bright region is one
    piece of several cards.  That region without the quads read in it leaves the others
    apart, a piece of a card's size and shape each, read as a card (``blob_rest``; a piece
    of no card's shape cut first between its outline's dents, ``blob_rest_split``).  Ten
    640x480 frames of six touching cards: 56 named when written (55 without the cut), 47
    without either; none wrong."""
    import frames

    plain = Recognizer(RecognizerConfig(blob_rest=False))
    named = named_before = 0
    for seed in range(10):
        frame, codes = frames.touching_frame(crops, 6, seed=seed)
        said = [x.card.code for x in rec.read(frame) if x.card is not None]
        assert not Counter(said) - Counter(codes), (seed, said, codes)
        named += len(said)
        named_before += sum(x.card is not None for x in plain.read(frame))
    assert named >= 53 and named >= named_before + 6, (named, named_before)


@pytest.mark.sources
def test_a_blob_without_its_card_read_leaves_the_card_beside_it(
        rec: Recognizer, crops: list[tuple[np.ndarray, str]], monkeypatch) -> None:
    """Two real cards side by side, touching along a long side: their bright region, the
    first card read in it, leaves the second, read as that card, its quad about the card's;
    with nothing read in the region, the piece is two cards' size, and each card is read at
    its square corners (none without that step: the piece is not looked at)."""
    from vision import pipeline

    looked: list[object] = []
    real = pipeline.Recognizer.read_quad

    def counting(self: Recognizer, *args: object, **kw: object) -> object:
        looked.append(args)
        return real(self, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(pipeline.Recognizer, "read_quad", counting)
    (first, code1), (second, code2) = crops[4], crops[17]
    img = np.zeros((480, 640, 3), np.uint8)
    img[:] = (40, 90, 50)
    h, w = first.shape[:2]
    img[150:150 + h, 200:200 + w] = first
    img[150:150 + h, 200 + w:200 + 2 * w] = second
    quad1 = ((200.0, 150.0), (200.0 + w, 150.0), (200.0 + w, 150.0 + h), (200.0, 150.0 + h))
    read1 = CardReading(Card.from_code(code1), quad1, 0.9)
    blob = np.array([[200, 150], [200 + 2 * w, 150], [200 + 2 * w, 150 + h], [200, 150 + h]],
                    np.float32)
    pyr = rec.prepare(img)
    assert pyr is not None
    got = rec._blob_rest(pyr, [blob], [read1])
    assert [r.card.code for r in got if r.card is not None] == [code2]
    corners = np.array(got[0].corners, np.float32)
    want = np.array([[200 + w, 150], [200 + 2 * w, 150], [200 + 2 * w, 150 + h],
                     [200 + w, 150 + h]], np.float32)
    # (the corners in any order: a card lies either way up)
    assert all(np.hypot(*(corners - p).T).min() < 8 for p in want), corners
    # nothing read in the region (a card of that size named elsewhere): the piece is two
    # cards' size, no card's shape, and is read at its square corners (blob_rest_cluster),
    # both cards; not at all without that
    away = tuple((x, y + 300.0) for x, y in quad1)
    elsewhere = [CardReading(Card.from_code(code1), away, 0.9)]
    both = rec._blob_rest(pyr, [blob], elsewhere)
    assert sorted(r.card.code for r in both if r.card is not None) == sorted([code1, code2])
    looked.clear()
    plain = Recognizer(RecognizerConfig(blob_rest_cluster=0.0))
    assert plain._blob_rest(pyr, [blob], elsewhere) == []
    assert looked == []


def test_two_cards_touching_at_a_corner_are_cut_apart_between_the_dents() -> None:
    """Two cards' shapes touching at a corner, one region: cut along the shortest line
    between two of its outline's deepest dents that leaves a piece of a card's shape, each
    card is a piece of its own (and no cut where no such line leaves one: a blob)."""
    from vision.pipeline import _card_box, _cut_between_dents

    cfg = RecognizerConfig()
    mask = np.zeros((400, 500), np.uint8)
    a = cv2.boxPoints(((150.0, 200.0), (90.0, 126.0), 0.0))
    # (b's corner nearest a some 3 px into a's top right corner)
    b = cv2.boxPoints(((262.0, 108.0), (90.0, 126.0), 30.0))
    for q in (a, b):
        cv2.fillConvexPoly(mask, np.round(q).astype(np.int32), 255)
    card = 90.0 * 126.0
    (one,), _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    assert _card_box(one, card, cfg) is None  # (two cards: no card's size)
    _cut_between_dents(mask, one, 0.15 * card**0.5, 4, card, cfg)
    pieces, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    boxes = [_card_box(p, card, cfg) for p in pieces]
    assert sum(b is not None for b in boxes) == 2, [cv2.contourArea(p) for p in pieces]
    # a round blob has no dents: nothing is cut
    blob = np.zeros((400, 500), np.uint8)
    cv2.circle(blob, (250, 200), 120, 255, -1)
    (round_,), _ = cv2.findContours(blob, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    before = blob.copy()
    _cut_between_dents(blob, round_, 0.15 * card**0.5, 4, card, cfg)
    assert (blob == before).all()


def test_a_piece_bitten_by_a_courts_picture_is_a_card_and_half_a_card_is_not() -> None:
    """A court card's picture reaching its edges bites into its paper's outline: the piece
    left is a card's size and shape by its convex hull (half its area cut away in three
    bites from its sides, as a queen's picture does), and the box round it is the card's.
    A card cut in half along its diagonal, or two cards' size, is no card."""
    from vision.pipeline import _card_box

    cfg = RecognizerConfig()
    card = 90.0 * 126.0
    mask = np.zeros((300, 300), np.uint8)
    cv2.rectangle(mask, (100, 80), (189, 205), 255, -1)
    # the picture: a band across the middle reaching both long sides, and a bite into a
    # short side
    cv2.rectangle(mask, (95, 110), (194, 175), 0, -1)
    cv2.rectangle(mask, (130, 190), (160, 210), 0, -1)
    pieces, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    joined = np.zeros_like(mask)
    cv2.rectangle(joined, (100, 80), (189, 205), 255, -1)
    cv2.rectangle(joined, (100, 110), (189, 175), 0, -1)
    cv2.rectangle(joined, (100, 110), (110, 175), 255, -1)  # (its pieces joined at one side)
    (piece,), _ = cv2.findContours(joined, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    assert cv2.contourArea(piece) < 0.6 * card  # (less than a card's paper by its area)
    box = _card_box(piece, card, cfg)
    assert box is not None
    (cx, cy), (bw, bh), _ = box
    assert abs(cx - 144.5) < 2 and abs(cy - 142.5) < 2, box
    assert sorted((bw, bh)) == pytest.approx([89.0, 125.0], abs=2), box
    # (apart, the bitten card's pieces are each too small to be a card)
    assert all(_card_box(p, card, cfg) is None for p in pieces)
    half = np.zeros_like(mask)
    cv2.fillConvexPoly(half, np.array([[100, 80], [189, 80], [100, 205]], np.int32), 255)
    (tri,), _ = cv2.findContours(half, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    assert _card_box(tri, card, cfg) is None
    two = np.zeros((300, 300), np.uint8)
    cv2.rectangle(two, (20, 80), (199, 205), 255, -1)
    (both,), _ = cv2.findContours(two, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    assert _card_box(both, card, cfg) is None


def test_courts_touching_their_neighbours_are_read(
        rec: Recognizer, crops: list[tuple[np.ndarray, str]]) -> None:
    """Twelve real cards touching one another in a 1280x720 frame (seed 0): the queen of
    spades touches the 2 of hearts at a corner, the jack of clubs the 8 and 10 of hearts,
    and each court's picture breaks its paper up in the Otsu mask.  The cards read round
    them leave each alone, its paper's outline bitten by its picture: read as a card
    (both were missed while a piece was measured by its own area: 10 of 12 named)."""
    said, codes = _twelve_touching(rec, crops, 0)
    assert {"QS", "JC"} <= set(codes)
    assert {"QS", "JC"} <= set(said), said
    assert len(said) == 12, said


def test_a_court_whose_paper_margins_are_lost_is_read_round_its_picture(
        rec: Recognizer, crops: list[tuple[np.ndarray, str]]) -> None:
    """Twelve real cards touching one another (1280x720, seed 101): the queen of spades,
    touching the 4 of diamonds at a corner, is no card's shape in what the cards read leave
    of their bright region -- her paper's margins, thin round her picture, are lost to the
    masks' openings, and the piece left is the picture, smaller than a card.  The card round
    it (found outward from the picture's box to the table) is read: she is named (she was
    not, before), and no card named is wrong."""
    said, _ = _twelve_touching(rec, crops, 101)
    assert "QS" in said, said
    assert len(said) >= 10, said


def test_a_card_joined_to_a_sliver_of_its_neighbour_is_parted_from_it() -> None:
    """A card's piece joined by a narrow neck to a sliver of a neighbour's paper (which the
    neighbour's quad, inferred, left) is no card's shape; opened with a disc a fifth of a
    card's side wide, the card is a part of its own, and its box the card's.  A piece less
    than a card's area is not looked at, and a piece of two cards' size is none."""
    from vision.pipeline import _card_box, _card_box_opened

    cfg = RecognizerConfig()
    card = 90.0 * 126.0
    mask = np.zeros((320, 320), np.uint8)
    cv2.rectangle(mask, (100, 80), (189, 205), 255, -1)
    # the sliver: a neighbour's corner, a triangle 40 px along, met by a 6 px neck
    cv2.fillConvexPoly(mask, np.array([[100, 200], [60, 260], [100, 240]], np.int32), 255)
    cv2.rectangle(mask, (94, 200), (100, 206), 255, -1)
    (piece,), _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    assert _card_box(piece, card, cfg) is None
    box = _card_box_opened(piece, mask.shape, card, cfg)
    assert box is not None
    (cx, cy), (bw, bh), _ = box
    assert abs(cx - 144.5) < 3 and abs(cy - 142.5) < 3, box
    assert sorted((bw, bh)) == pytest.approx([89.0, 125.0], abs=3), box
    small = np.zeros_like(mask)
    cv2.rectangle(small, (100, 80), (159, 165), 255, -1)
    (part,), _ = cv2.findContours(small, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    assert _card_box_opened(part, mask.shape, card, cfg) is None
    two = np.zeros_like(mask)
    cv2.rectangle(two, (20, 80), (199, 205), 255, -1)
    (both,), _ = cv2.findContours(two, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    assert _card_box_opened(both, mask.shape, card, cfg) is None


def test_a_card_beside_a_covered_cards_inferred_quad_is_read(
        rec: Recognizer, crops: list[tuple[np.ndarray, str]]) -> None:
    """Twelve real cards touching one another (1280x720, seed 105): the 10 of hearts touches
    the 10 of spades, which is named from its corner, its quad inferred a little off its
    outline; what that leaves of the 10 of spades' paper joins the 10 of hearts' piece, no
    card's shape.  Parted from it, the 10 of hearts is read (it was not, before); no card
    named is wrong."""
    said, _ = _twelve_touching(rec, crops, 105)
    assert "TH" in said, said
    assert len(said) >= 11, said


def test_a_square_corner_gives_a_card_either_way_round() -> None:
    """Each square corner of an outline, its two sides a quarter of a card's short side long
    or more, gives the card at it both ways round: a card-shaped outline's own quad is among
    them.  A round outline has no corner, nor does a corner of 120 degrees give a card."""
    from vision.pipeline import _square_corner_quads

    cfg = RecognizerConfig()
    mask = np.zeros((320, 320), np.uint8)
    cv2.rectangle(mask, (100, 80), (189, 205), 255, -1)
    (outline,), _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    quads = _square_corner_quads(outline, 89.0, 125.0, cfg)
    assert len(quads) == 8
    card = np.array([[100, 80], [189, 80], [189, 205], [100, 205]], np.float32)
    assert any(all(float(np.hypot(*(q - p).T).min()) < 1.5 for p in card) for q in quads)
    # each quad has the card's sides, either way round
    for q in quads:
        sides = sorted(np.hypot(*(np.roll(q, -1, axis=0) - q).T).tolist())
        assert sides == pytest.approx([89.0, 89.0, 125.0, 125.0], abs=0.01)
    disc = np.zeros_like(mask)
    cv2.circle(disc, (160, 160), 90, 255, -1)
    (round_,), _ = cv2.findContours(disc, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    assert _square_corner_quads(round_, 89.0, 125.0, cfg) == []
    wide = np.zeros_like(mask)
    # a triangle's corners: 30, 30 and 120 degrees
    cv2.fillConvexPoly(wide, np.array([[40, 200], [280, 200], [160, 131]], np.int32), 255)
    (tri,), _ = cv2.findContours(wide, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    assert _square_corner_quads(tri, 89.0, 125.0, cfg) == []


def test_a_court_touching_others_is_read_from_its_papers_corner(
        rec: Recognizer, crops: list[tuple[np.ndarray, str]]) -> None:
    """Twelve real cards touching one another (1280x720, seed 111): the king of clubs'
    paper breaks round his picture and joins the cards he touches; what the cards read
    leave of it is no card's shape, nor his picture's box a card's middle, but his paper's
    edges meet square at a corner, and the card there is read: all twelve are named, each
    once (the king was not named before; two pieces of him, each read, named him twice
    until a card read here is not read again from another piece)."""
    said, codes = _twelve_touching(rec, crops, 111)
    assert Counter(said) == Counter(codes), (said, codes)


def test_a_courts_corner_that_names_nothing_one_way_round_is_read_the_other(
        rec: Recognizer, crops: list[tuple[np.ndarray, str]]) -> None:
    """Twelve real cards touching one another (1280x720, seeds 114 and 145): the jack and
    the king of clubs, each touching others, their paper broken round the picture.  What
    is left of the jack's paper lies more along his short side than his card does, so the
    card at its square corner covering most of it lies the wrong way round and names
    nothing; the card the other way round there, next most covering, is read and names him
    (``blob_rest_corner_tries``).  Neither was named when only the first was read; none
    wrong either way."""
    first = Recognizer(RecognizerConfig(blob_rest_corner_tries=1))
    for seed, code in ((114, "JC"), (145, "KC")):
        said, codes = _twelve_touching(rec, crops, seed)
        before, _ = _twelve_touching(first, crops, seed)
        assert code in said and code not in before, (seed, said, before)


def test_a_corner_card_snapped_out_of_its_shape_is_read_as_found(
        rec: Recognizer, crops: list[tuple[np.ndarray, str]]) -> None:
    """Twelve real cards crowded to a 640x480 frame (scale 0.7, seed 30): the 4D lies in a
    cluster of touching cards, and the card-sized quad at a square corner of what is left
    of their region is on it.  Moving its sides onto the edges near them finds lines in
    the cards instead (its sides 74, 125, 93 and 120 px, from 83 and 118), and the
    skewed quad read a 4H; a quad whose sides the snap changes by more than
    ``blob_rest_corner_keep`` is read as found, and names the 4D."""
    import frames

    frame, codes = frames.touching_frame(crops, 12, seed=30, scale=0.7)
    said = [x.card.code for x in rec.read(frame) if x.card is not None]
    assert not Counter(said) - Counter(codes) and "4D" in said, (said, codes)
    loose = Recognizer(RecognizerConfig(blob_rest_corner_keep=0.0))
    said_loose = [x.card.code for x in loose.read(frame) if x.card is not None]
    assert "4H" in said_loose and "4H" not in codes, said_loose


def test_a_chain_of_touching_cards_is_cut_again_and_again(rec: Recognizer) -> None:
    """Twelve of the webcam deck's cards touching one another (1280x720, seed 215): what
    the cards read leave of their bright region holds a chain of cards, each touching the
    next.  One cut between two dents parts the first of them; what is left is cut again
    (``blob_rest_split`` times in all), and every card is named, each once: cut once, two
    stay unnamed (where neither the cluster's square corners nor a second look at what the
    cards named leave find them: they do)."""
    import frames

    crops = frames.card_crops(rec, realdata.photos("webcam-grey"))
    frame, codes = frames.touching_frame(crops, 12, size=(1280, 720), seed=215)
    said = [x.card.code for x in rec.read(frame) if x.card is not None]
    assert Counter(said) == Counter(codes), (said, codes)
    once = Recognizer(RecognizerConfig(blob_rest_split=1, blob_rest_cluster=0.0,
                                       blob_rest_again=0))
    said_once = [x.card.code for x in once.read(frame) if x.card is not None]
    assert not Counter(said_once) - Counter(codes), said_once
    assert len(said_once) < len(codes), said_once


def test_a_cluster_of_touching_cards_is_read_at_its_square_corners(
        rec: Recognizer, crops: list[tuple[np.ndarray, str]]) -> None:
    """Twelve of the phone deck's cards touching one another (1280x720, seeds 102 and 178),
    five and more of them in one cluster: what the cards read leave of their bright region
    is one piece several cards large, of no card's shape however it is cut, but their
    paper's edges meet square at its corners, and each card-sized quad there lying in the
    piece is read whole (``blob_rest_cluster``): 9 and 10 named when written, 7 and 7
    without; none wrong either way (seed 102's 8S and TC, their corners against one
    another's paper, were named by no stage)."""
    plain = Recognizer(RecognizerConfig(blob_rest_cluster=0.0))
    for seed, least in ((102, 9), (178, 10)):
        said, codes = _twelve_touching(rec, crops, seed)
        before, _ = _twelve_touching(plain, crops, seed)
        assert len(said) >= least and len(said) >= len(before) + 2, (seed, said, before)


def test_the_rest_beside_a_card_found_in_it_is_looked_at_again(
        rec: Recognizer, crops: list[tuple[np.ndarray, str]]) -> None:
    """What a card named in a blob's rest leaves of its piece may be a card's shape that
    was not one before it was named: the pieces beside the cards so named are looked at
    once more (``blob_rest_again``).  Twelve touching cards (1280x720): the phone deck's,
    seed 166, and the webcam deck's, seed 1, all twelve named when written, eleven without;
    none wrong either way."""
    import frames

    once = Recognizer(RecognizerConfig(blob_rest_again=0))
    webcam = frames.card_crops(rec, realdata.photos("webcam-grey"))
    for deck, seed in ((crops, 166), (webcam, 1)):
        said, codes = _twelve_touching(rec, deck, seed)
        before, _ = _twelve_touching(once, deck, seed)
        assert Counter(said) == Counter(codes), (seed, said, codes)
        assert len(before) < len(codes), (seed, before)


def test_one_card_read_two_ways_from_its_corners_is_not_named() -> None:
    """Two covered cards named differently on one card's quad (its corners in another
    order: read from its other corner) are one card read two ways: neither is named, but
    the one that the place read as a whole card names (its quad the surer one's).  A row's
    cards, each a fifth of a card's width along, overlap as much but keep theirs; so do a
    card named whole and one reading of one card."""
    from vision.pipeline import _one_card_two_ways

    cfg = RecognizerConfig()
    q = ((1089.0, 429.0), (1100.0, 323.0), (1248.0, 337.0), (1237.0, 442.0))
    other = ((1245.0, 338.0), (1235.0, 443.0), (1088.0, 426.0), (1098.0, 321.0))
    js = CardReading(Card.from_code("JS"), q, 0.56, partial=True)
    fs = CardReading(Card.from_code("4S"), other, 0.5, partial=True)
    apart = CardReading(Card.from_code("2H"), ((0.0, 0.0), (105.0, 0.0), (105.0, 148.0),
                                               (0.0, 148.0)), 0.9)
    assert _one_card_two_ways([apart, js, fs], cfg) == [apart]
    asked: list[np.ndarray] = []

    def reads(name: str | None):  # the place read whole names ``name``
        def whole(quad: np.ndarray) -> Card | None:
            asked.append(quad)
            return None if name is None else Card.from_code(name)
        return whole

    assert _one_card_two_ways([apart, js, fs], cfg, reads("JS")) == [apart, js]
    assert np.array_equal(asked[-1], np.array(q, np.float32))  # (the surer one's quad)
    assert _one_card_two_ways([apart, fs, js], cfg, reads("4S")) == [apart, fs]
    assert _one_card_two_ways([apart, js, fs], cfg, reads(None)) == [apart]
    assert _one_card_two_ways([apart, js, fs], cfg, reads("5S")) == [apart]
    asked.clear()
    assert _one_card_two_ways([js, CardReading(Card.from_code("JS"), other, 0.6,
                                               partial=True)], cfg) == [
        js, CardReading(Card.from_code("JS"), other, 0.6, partial=True)]
    whole = CardReading(Card.from_code("4S"), other, 0.9)
    assert _one_card_two_ways([js, whole], cfg) == [js, whole]
    row = [CardReading(Card.from_code(code), tuple((x + 0.22 * 105 * k, y)
                                                   for x, y in apart.corners), 0.7,
                       partial=True)
           for k, code in enumerate(("3C", "9D", "KH"))]
    assert _one_card_two_ways(row, cfg) == row
    # two cards meeting at one corner (the second turned a quarter about it) keep theirs
    turned = CardReading(Card.from_code("5D"), tuple((-y, x) for x, y in apart.corners), 0.7,
                         partial=True)
    pair = [CardReading(Card.from_code("2H"), apart.corners, 0.7, partial=True), turned]
    assert _one_card_two_ways(pair, cfg) == pair
    assert _one_card_two_ways([*row, turned], cfg, reads("JS")) == [*row, turned]
    assert asked == []  # (no place read where no two readings disagree on it)


def test_a_court_card_touching_others_is_not_named_two_ways(
        rec: Recognizer, crops: list[tuple[np.ndarray, str]]) -> None:
    """Twelve real cards touching one another (1280x720, seed 109): a jack of spades whose
    outline its neighbours hide is read from both index corners, once as the JS and once
    (its J beside the big spade in its middle) as a 4S.  Read as a whole card, the place
    is the JS: the JS is named, the 4S not (it was, before), and no card named is wrong."""
    said, codes = _twelve_touching(rec, crops, 109)
    assert "4S" not in codes
    assert "JS" in said, said
    assert len(said) >= 10, said


def test_a_region_the_cards_found_cover_is_searched_no_further() -> None:
    """A bright region that the cards named whole cover needs no search for covered
    corners: cards found round their printed frames (the crowded frames of the webcam
    deck: 209 -> 152 ms), two touching cards each found whole."""
    region = np.array([[0, 0], [200, 0], [200, 100], [0, 100]], np.float32)
    left = np.array([[0, 0], [100, 0], [100, 100], [0, 100]], np.float32)
    right = left + np.array([96, 0], np.float32)
    assert _covered_by(region, [left, right], 0.9)
    assert not _covered_by(region, [left], 0.9)
    assert not _covered_by(region, [left, right - np.array([30, 0], np.float32)], 0.9)


def test_only_cards_lying_apart_from_the_others_named_cover_a_region() -> None:
    """Before covered corners are looked for, a region the cards named by then cover needs
    none (``_covering``): a card found whole covers its place; a covered card named from a
    corner (its quad inferred) only where named at least ``fan_cover_partial`` surely and
    its quad overlaps no other card named (touching cards do not; a fan's covered card's
    quad reaches under the cards over it, which may hide another covered card's index)."""
    from vision.pipeline import _covering

    cfg = RecognizerConfig()
    card = ((0.0, 0.0), (100.0, 0.0), (100.0, 140.0), (0.0, 140.0))

    def moved(dx: float, dy: float = 0.0) -> tuple[tuple[float, float], ...]:
        return tuple((x + dx, y + dy) for x, y in card)

    whole = CardReading(Card.from_code("2H"), card, 0.9)
    beside = CardReading(Card.from_code("5C"), moved(102), 0.7, partial=True)
    unsure = CardReading(Card.from_code("4S"), moved(204), 0.5, partial=True)
    under = CardReading(Card.from_code("9D"), moved(0, 30), 0.9, partial=True)
    unnamed = CardReading(None, moved(306), 0.3)
    got = _covering([whole, beside, unsure, unnamed], cfg)
    assert [g.tolist() for g in got] == [np.array(c, np.float32).tolist()
                                         for c in (card, moved(102))]
    # a covered card overlapping another card named covers nothing; the whole card does
    got = _covering([whole, under], cfg)
    assert [g.tolist() for g in got] == [np.array(card, np.float32).tolist()]
    # touching at an edge (a pixel's overlap) is no overlap
    touching = CardReading(Card.from_code("5C"), moved(99), 0.7, partial=True)
    assert len(_covering([whole, touching], cfg)) == 2
    assert len(_covering([whole, beside], RecognizerConfig(fan_cover_partial=0.0))) == 1


def test_a_second_decks_copy_of_a_card_named_is_named_apart_from_it(
        rec: Recognizer, crops: list[tuple[np.ndarray, str]]) -> None:
    """Twelve real cards touching one another (1280x720, seed 109) hold two jacks of
    spades.  The rest of the cards' paper, read before the covered corners, names one of
    them; the other, whose outline its neighbours hide, is named from one index corner as
    a 4S (its J beside the big spade of its middle) and from the other as the JS.  That
    JS lies apart from the first one's quad: a second deck's copy (``fan_second_copy``),
    the place is read whole, and both jacks are named, the 4S not.  Where a card named is
    never named again, the 4S stood alone."""
    said, codes = _twelve_touching(rec, crops, 109)
    assert Counter(codes)["JS"] == 2 and Counter(said)["JS"] == 2, said
    once = Recognizer(RecognizerConfig(fan_second_copy=0.0))
    frame_codes = _twelve_touching_said(once, crops, 109)
    assert "4S" in frame_codes and Counter(frame_codes)["JS"] == 1, frame_codes


def test_no_covered_corner_is_looked_for_inside_a_card_named_whole(
        rec: Recognizer, crops: list[tuple[np.ndarray, str]]) -> None:
    """A card named whole covers what lies inside it, found whole or named whole from the
    rest of touching cards' paper (no detected quad of its own): no covered corner is
    looked for there (the pips of touching cards so named cost a touching frame some 2 ms
    and named nothing).  A real card alone in a region is named from its index corners by
    the covered-corner search while the card named lies elsewhere; with that card's quad
    on it, nothing is; a card named from a covered corner there holds only its index."""
    import math

    import frames

    from vision import fan as fan_stage
    from vision.pipeline import _Pyramid

    def placed(crop: np.ndarray, dx: float) -> tuple[tuple[float, float], ...]:
        ch, cw = crop.shape[:2]
        c, s = math.cos(0.3), math.sin(0.3)
        return tuple((320 + dx + (x - cw / 2) * c - (y - ch / 2) * s,
                      240 + (x - cw / 2) * s + (y - ch / 2) * c)
                     for x, y in ((0, 0), (cw, 0), (cw, ch), (0, ch)))

    named_free = 0
    for crop, code in crops[5:40:5]:
        frame = np.full((480, 640, 3), (40, 90, 50), np.uint8)
        frames.lay(frame, crop, 320, 240, 0.3, 1.0)
        region = np.array(placed(crop, 0), np.float32)
        other = Card.from_code("3H" if code == "2H" else "2H")

        def fans(corners: tuple[tuple[float, float], ...], partial: bool = False,
                 frame: np.ndarray = frame, region: np.ndarray = region,
                 other: Card = other) -> list[str]:
            reading = CardReading(other, corners, 0.9, partial=partial)
            return [r.card.code for r in fan_stage.read_fans(
                rec, _Pyramid(frame), [], [region], [reading]) if r.card is not None]

        free = fans(placed(crop, 400))
        assert free in ([], [code]), (code, free)
        named_free += free == [code]
        assert fans(placed(crop, 0)) == [], code
        assert fans(placed(crop, 0), partial=True) in ([], [code]), code
    assert named_free >= 6, named_free


def _twelve_touching_said(rec: Recognizer, crops: list[tuple[np.ndarray, str]], seed: int
                          ) -> list[str]:
    """The cards named in a 1280x720 frame of twelve of ``crops`` touching (``seed``),
    wrong ones too."""
    import frames

    frame, _ = frames.touching_frame(crops, 12, size=(1280, 720), seed=seed)
    return [x.card.code for x in rec.read(frame) if x.card is not None]


def test_a_piece_opened_near_it_is_the_whole_mask_opened() -> None:
    """A blob's piece opened in its own box grown by a pixel (``_opened_parts``, 3 ms less
    a piece in a blob of twelve touching cards) gives the very pixels of the whole mask
    opened, and the parts found in it come in the same order with the same points: for
    pieces of every size, in the middle of the mask and against each of its edges, necks
    narrower and wider than the disc, discs of 1 to 41 px."""
    from vision.pipeline import _opened_parts

    rng = np.random.default_rng(61)
    cut = 0
    for i in range(300):
        h, w = (int(v) for v in rng.integers(20, 300, 2))
        whole = np.zeros((h, w), np.uint8)
        for _ in range(int(rng.integers(1, 4))):  # blobs joined by necks, or apart
            c = rng.uniform(-10, (w + 10, h + 10))
            axes = rng.uniform(3, (w / 2, h / 2))
            cv2.ellipse(whole, (int(c[0]), int(c[1])), (int(axes[0]), int(axes[1])),
                        float(rng.uniform(0, 180)), 0, 360, 255, -1)
        if i % 3 == 0:  # a rectangle against an edge of the mask
            x, y = int(rng.integers(0, w // 2)), int(rng.integers(0, h // 2))
            cv2.rectangle(whole, (x, y), (w - 1, h - 1) if i % 2 else (0, 0), 255, -1)
        pieces, _ = cv2.findContours(whole, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        k = int(rng.integers(0, 21)) * 2 + 1
        disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
        for piece in pieces:
            mask = np.zeros((h, w), np.uint8)
            cv2.drawContours(mask, [piece], -1, 255, -1)
            want = cv2.morphologyEx(mask, cv2.MORPH_OPEN, disc)
            parts, got, (x0, y0) = _opened_parts(piece, (h, w), k)
            gh, gw = got.shape
            cut += int((gh, gw) != (h, w))
            assert not want[:y0].any() and not want[y0 + gh:].any()
            assert not want[:, :x0].any() and not want[:, x0 + gw:].any()
            assert np.array_equal(got, want[y0:y0 + gh, x0:x0 + gw])
            wanted, _ = cv2.findContours(want, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
            assert len(parts) == len(wanted)
            assert all(np.array_equal(a, b) for a, b in zip(parts, wanted, strict=True))
    assert cut > 200  # (most pieces were opened in less than the whole mask)
