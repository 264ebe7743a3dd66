"""The recognizer's shortcuts for speed give, pixel for pixel and card for card, what the
plain computations they replace give."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
import realdata

from vision.detect import _outline_covered, detect, order_clockwise
from vision.pipeline import Recognizer, RecognizerConfig, _long_lines


def _blotches(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """A 0/1 mask of ink blotches, with a straight line or two and ink at the borders."""
    k = int(rng.integers(0, 4)) * 2 + 1
    noise = rng.integers(0, 255, (h, w), dtype=np.uint8)
    mask = (cv2.GaussianBlur(noise, (k, k), 0) < rng.integers(70, 160)).astype(np.uint8)
    if rng.random() < 0.5:
        mask[:, rng.integers(0, w)] = 1
    if rng.random() < 0.5:
        mask[rng.integers(0, h), : rng.integers(1, w + 1)] = 1
    return mask


def test_long_lines_are_the_openings_by_lines() -> None:
    rng = np.random.default_rng(7)
    for _ in range(1500):
        h, w = int(rng.integers(5, 180)), int(rng.integers(5, 130))
        mask = _blotches(rng, h, w)
        n = int(rng.integers(2, 90))
        _, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8,
                                                          ltype=cv2.CV_16U)
        if len(stats) < 2:
            continue
        want = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((n, 1), np.uint8)) | (
            cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((1, n), np.uint8)))
        assert np.array_equal(_long_lines(mask, stats.tolist(), n), want), (h, w, n)


def test_outline_coverage_stops_only_where_the_count_is_decided() -> None:
    rng = np.random.default_rng(3)
    for _ in range(300):
        c = (rng.normal(0, 1, (60, 1, 2)).cumsum(axis=0) * 3 + 100).astype(np.int32)
        quad = order_clockwise(np.float32(cv2.boxPoints(cv2.minAreaRect(c))))
        tol = float(rng.uniform(1, 8))
        share = float(rng.uniform(0.3, 1.0))
        pts = [quad[i] + (quad[(i + 1) % 4] - quad[i]) * t
               for i in range(4) for t in np.linspace(0.1, 0.9, 8)]
        near = sum(abs(cv2.pointPolygonTest(c, (float(x), float(y)), True)) <= tol
                   for x, y in pts)
        assert _outline_covered(c, quad, tol, share) == (near / len(pts) >= share)


@pytest.fixture(scope="module")
def crops():
    import frames

    return frames.card_crops(Recognizer(), realdata.photos("phone-scenes"))


def test_skipping_the_cut_mask_inside_single_cards_finds_the_same_cards(crops) -> None:
    """Cards apart (the cut mask skipped altogether), touching ones, a QR card, a fan."""
    import frames

    images = [frames.table_frame(crops, 12, seed=s)[0] for s in range(8)]
    images.append(frames.table_frame(crops, 12, seed=1, qr=["budge:test"])[0])
    images.append(frames.fan_frame(crops, 5, seed=0)[0])
    on, off = RecognizerConfig(), RecognizerConfig(detect_skip_single=False)
    for img in images:
        quads_on, blobs_on = detect(img, on)
        quads_off, blobs_off = detect(img, off)
        assert len(quads_on) == len(quads_off)
        for a, b in zip(quads_on, quads_off, strict=True):
            assert np.array_equal(a, b)
        assert len(blobs_on) == len(blobs_off)


@pytest.mark.sources
def test_the_other_masks_do_not_trace_again_a_card_found_whole(monkeypatch) -> None:
    """On a light table the masks besides Otsu's are made over the whole frame; their
    outlines inside the box of a card that is a plain Otsu region of its own are not made
    cards again, nor a last-resort mask's a little beyond it (the card's rim and shadow:
    such a quad would be dropped for the card found).  The same cards are found, as near
    their drawn corners (a tie between two tracings of one card may move a corner by a
    pixel or two), for a quarter of the outline fitting the frame needs without the
    shortcuts."""
    import vision.detect as det
    from vision.synth import SynthConfig, random_frame

    fitted = [0]
    fit = det._rough_quad  # (where every outline's quad is begun)

    def counted(*args, **kwargs):
        fitted[0] += 1
        return fit(*args, **kwargs)

    monkeypatch.setattr(det, "_rough_quad", counted)
    # (the table's lighter part looked in too, as on a table that could hold a card there)
    on = RecognizerConfig(detect_table_band=0.0)
    off = RecognizerConfig(detect_skip_single=False, detect_table_band=0.0)
    calls = {"on": 0, "off": 0}
    for seed in (1000, 1004, 1035, 1044):
        frame = random_frame(seed, 12, 0, SynthConfig(width=1280, height=720))
        fitted[0] = 0
        guessed_on: list[bool] = []
        quads_on, _ = detect(frame.image, on, [], None, guessed_on)
        calls["on"] += fitted[0]
        fitted[0] = 0
        guessed_off: list[bool] = []
        quads_off, _ = detect(frame.image, off, [], None, guessed_off)
        calls["off"] += fitted[0]
        # (the cards; not the guesses, reported only where they read as cards: a patch of
        # the wood's grain in the "shade" mask of seed 1044, lit unevenly by its grain)
        quads_on = [q for q, g in zip(quads_on, guessed_on, strict=True) if not g]
        quads_off = [q for q, g in zip(quads_off, guessed_off, strict=True) if not g]
        assert len(quads_on) == len(quads_off) == 12
        truth = [np.float32(c.corners) for c in frame.cards]
        for a, b in zip(quads_on, quads_off, strict=True):
            assert np.abs(a - b).max() < 3.0
            drawn = min(truth, key=lambda t: float(np.abs(t.mean(0) - a.mean(0)).sum()))
            err_on = np.hypot(*(a[:, None] - drawn[None]).transpose(2, 0, 1)).min(1).max()
            err_off = np.hypot(*(b[:, None] - drawn[None]).transpose(2, 0, 1)).min(1).max()
            assert err_on <= err_off + 0.5
    # (measured 63 of 252, the "shade" mask's outlines counted on the table whose grain
    # lights it unevenly, seed 1044's, made over the whole frame; 57 of 246 while it was
    # made only where paper was left over -- 356 while a court's printed frame among the
    # quads sent the other masks to its card too; without a margin round the cards for the
    # last-resort masks' outlines, 96)
    assert calls["on"] < 0.3 * calls["off"], calls


def _speckled_mask(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """A 0/255 mask of paper regions, some inside another's hole (cards in a table's
    gap, frames printed in cards, nested down several levels), peppered with holes."""
    mask = np.zeros((h, w), np.uint8)
    for _ in range(int(rng.integers(1, 6))):
        x0, y0 = int(rng.integers(0, w - 8)), int(rng.integers(0, h - 8))
        x1, y1 = int(rng.integers(x0 + 8, w + 1)), int(rng.integers(y0 + 8, h + 1))
        value = 255
        while x1 - x0 > 6 and y1 - y0 > 6:
            cv2.rectangle(mask, (x0, y0), (x1 - 1, y1 - 1), value, cv2.FILLED)
            step = int(rng.integers(1, 5))
            x0, y0, x1, y1 = x0 + step, y0 + step, x1 - step, y1 - step
            value = 255 - value
    holes = rng.random((h, w)) < rng.uniform(0.0, 0.08)
    mask[holes] = 0
    if rng.random() < 0.5:
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    return mask


def test_outlines_traced_level_by_level_are_the_two_level_traces() -> None:
    """A mask peppered with holes has its outer outlines traced level by level (its
    holes not followed one by one): the same outlines, point for point, in the same
    order as the two-level trace, whatever the size asked for and the offset."""
    from vision.detect import outer_outlines

    rng = np.random.default_rng(11)
    nested = 0
    for _ in range(400):
        h, w = int(rng.integers(16, 160)), int(rng.integers(16, 200))
        mask = _speckled_mask(rng, h, w)
        least = float(rng.choice([0.0, 16.0, 0.01 * h * w, 0.1 * h * w]))
        offset = (int(rng.integers(0, 9)), int(rng.integers(0, 9)))
        want = outer_outlines(mask, least, offset, speckled=False)
        got = outer_outlines(mask, least, offset, speckled=True)
        assert len(got) == len(want)
        for a, b in zip(got, want, strict=True):
            assert np.array_equal(a, b)
        _, hier = cv2.findContours(mask, cv2.RETR_TREE, cv2.CHAIN_APPROX_NONE)
        nested += hier is not None and int((hier[0][:, 3] != -1).sum()) > 1
    assert nested > 200  # (components inside holes inside components, often)


def test_a_paper_mask_peppered_with_holes_is_told_from_a_clean_one() -> None:
    from vision.detect import _speckled

    clean = np.zeros((450, 800), np.uint8)
    clean[20:430, 30:770] = 255
    for x in range(60, 700, 90):
        clean[100:220, x : x + 60] = 0  # cards' worth of holes: few and large
    assert not _speckled(clean)
    rng = np.random.default_rng(5)
    speckled = clean.copy()
    speckled[rng.random(clean.shape) < 0.03] = 0
    assert _speckled(speckled)
    assert not _speckled(255 - clean)  # (mostly off: no table in it)


def test_the_lighter_part_of_an_evenly_lit_table_is_not_looked_in() -> None:
    """A light table lit from one side: its lighter part is a region only a little
    darker than Otsu's threshold, which the cards found in Otsu's mask do not cover.  It
    reaches the frame's edges and is many cards large: the table, not looked in with the
    other masks (the frame counts as explained), and the same cards are found."""
    from vision.synth import SynthConfig, random_frame

    frame = random_frame(1000, 12, 0, SynthConfig(width=1280, height=720))
    on, off = RecognizerConfig(), RecognizerConfig(detect_table_band=0.0)
    explained_on: list[bool] = []
    explained_off: list[bool] = []
    quads_on, _ = detect(frame.image, on, [], None, [], explained_on)
    quads_off, _ = detect(frame.image, off, [], None, [], explained_off)
    assert explained_on == [True] and explained_off == [False]
    assert len(quads_on) == len(quads_off) == 12
    for a, b in zip(quads_on, quads_off, strict=True):
        assert np.array_equal(a, b)


def test_a_card_in_a_shadow_on_the_lighter_part_of_the_table_is_looked_for() -> None:
    """A card in a shadow cast over it and the table round it, dimmer than Otsu's
    threshold: a region of its own in that light band, not the table's lighter part --
    looked in and read."""
    from vision.synth import SynthConfig, random_frame

    frame = random_frame(1000, 12, 0, SynthConfig(width=1280, height=720))
    card = frame.cards[3]
    corners = np.float32(card.corners)
    h, w = frame.image.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    cx, cy = corners.mean(axis=0)
    reach = 0.9 * float(np.ptp(corners[:, 1]))
    shade = np.clip(1.3 - np.hypot(xx - cx, yy - cy) / reach, 0, 1)
    image = (frame.image * (1 - 0.25 * shade)[..., None]).clip(0, 255).astype(np.uint8)
    said = {r.card.code for r in Recognizer().read(image) if r.card is not None}
    assert card.card is not None and card.card.code in said
    assert said <= {c.code for c in frame.playing_cards}


def _straddling(shaded: float) -> tuple[np.ndarray, np.ndarray]:
    """An 800x450 picture of a green table whose lower half lies in a shadow (its light
    ``shaded`` of the upper half's, the edge some 6 px soft) and three cards with pips: one
    lit, one shaded, one across the shadow's edge; and the mask of the last one."""
    h, w = 450, 800
    img = np.zeros((h, w, 3), np.float32)
    img[:] = (50, 110, 60)
    paper = np.zeros((h, w), np.uint8)
    for x0, y0 in ((100, 40), (560, 270), (330, 150)):  # lit, shaded, across
        img[y0:y0 + 150, x0:x0 + 105] = (225, 228, 230)
        for px, py in ((30, 30), (70, 75), (30, 120)):
            cv2.circle(img, (x0 + px, y0 + py), 9, (40, 40, 200), -1)
    paper[150:300, 330:435] = 1
    yy = np.mgrid[0:h, 0:w][0].astype(np.float32)
    light = 1 - (1 - shaded) * cv2.GaussianBlur((yy > 225).astype(np.float32), (0, 0), 3)
    return (img * light[..., None]).clip(0, 255).astype(np.uint8), paper


def test_the_tables_own_light_keeps_a_shadows_edge() -> None:
    """The "shade" mask: lighter than the table's own light, which is the picture with
    every bright thing narrower than shade_box of its short side opened away.  An opening
    keeps a shadow's edge where a mean spreads it, so a card across the edge is one region,
    the table on neither side of the edge in it."""
    from vision.detect import _Masks, _Shrunk

    img, across = _straddling(0.4)
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    masks = _Masks(gray, _Shrunk(img, 1.0, (800, 450)), RecognizerConfig())
    assert masks.shaded
    over = masks.shade_mask()
    assert over is not None
    n, labels = cv2.connectedComponents(over)
    at = labels[225, 340]  # the card across the edge, on the edge, beside its pips
    assert at != 0
    region = labels == at
    inside = int((region & (across > 0)).sum())
    assert inside >= 0.9 * int(across.sum())  # nearly all its paper (not its pips)
    assert int((region & (across == 0)).sum()) <= 0.02 * int(across.sum())
    # the lit and the shaded cards are regions too, and of the table nothing is
    assert n - 1 == 3, n
    # a picture lit evenly makes no shade mask
    even, _ = _straddling(1.0)
    gray = cv2.cvtColor(even, cv2.COLOR_BGR2GRAY)
    assert _Masks(gray, _Shrunk(even, 1.0, (800, 450)), RecognizerConfig()).shade_mask() is None


def test_the_square_that_opens_the_cards_away_is_bigger_than_the_cards() -> None:
    """The table's light is the picture with every bright thing a square does not fit in
    opened away; a card as wide as the square or wider (a camera nearer the table) stays in
    it, its paper taken for the table's light, and in a shadow it is no paper then.  The
    square is made bigger than the cards found lying apart (shade_card of their short
    side), up to shade_most of the picture's short side."""
    from vision.detect import _Masks, _Shrunk

    h, w = 450, 800
    img = np.zeros((h, w, 3), np.float32)
    img[:] = (50, 110, 60)
    for x0, y0 in ((100, 40), (500, 260)):  # one lit, one in the shadow: plain paper
        img[y0:y0 + 150, x0:x0 + 105] = (225, 228, 230)
    yy = np.mgrid[0:h, 0:w][0].astype(np.float32)
    light = 1 - 0.6 * cv2.GaussianBlur((yy > 225).astype(np.float32), (0, 0), 3)
    img = (img * light[..., None]).clip(0, 255).astype(np.uint8)
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    cfg = RecognizerConfig()
    masks = _Masks(gray, _Shrunk(img, 1.0, (w, h)), cfg)
    assert cfg.shade_box * h < 105 < cfg.shade_most * h  # (the square a card's width)
    shaded = (slice(270, 400), slice(510, 595))  # inside the card in the shadow
    small = masks.shade_mask()
    assert small is not None and int(small[shaded].mean()) < 128
    big = masks.shade_mask(105.0)
    assert big is not None and int(big[shaded].min()) == 255
    assert int(big[100:150, 300:400].max()) == 0  # (the lit table is none)
    assert int(big[330:400, 100:300].max()) == 0  # (nor the shaded one)


def test_a_boards_printed_zones_are_no_paper_to_the_shade_mask() -> None:
    """The printed board lies on a wooden table, lit unevenly to the "shade" mask; each zone
    printed on it is framed by a line lighter than the board, and with the opening of 3 px
    that keeps a card's corner beside its index, that frame is a ring in the mask, whose
    outline is a card's shape.  A quad of the mask is taken only where the mask holds
    shade_fill of it (the zones: 0.08 to 0.16; cards in a shadow 0.6 and more).  The
    empty board: its four corner codes' cards and nothing else; without the rule, every
    zone too (the tablet asked which card lay on each)."""
    import dataclasses

    from vision import tablevideo as tvid

    renderer = tvid.TableRenderer([], config=tvid.TableVideoConfig(
        passes_per_minute=0.0, hand_probability=0.0, seed=0))
    frame = np.clip(renderer.frame(3), 0, 255).astype(np.uint8)
    cfg = RecognizerConfig()
    quads, _ = detect(frame, cfg, [], None, [])
    assert len(quads) == 4  # the codes' cards at the board's corners
    quads, _ = detect(frame, dataclasses.replace(cfg, shade_fill=0.0), [], None, [])
    assert len(quads) > 10


def test_a_box_shrunk_alone_is_the_box_of_the_whole_frame_shrunk() -> None:
    """The colour the paper masks need, shrunk for a box alone (the part of the frame it
    needs, from the start of its first period to a period after it), pixel for pixel as
    the whole frame shrunk: for every ratio whose resize repeats itself every 5 px or
    fewer, and for frames shrunk otherwise (halved first, or not at all)."""
    from fractions import Fraction

    from vision.detect import _shrink, _Shrunk

    rng = np.random.default_rng(17)
    ratios = sorted({Fraction(p, q) for q in range(1, 6) for p in range(q, 2 * q + 1)})
    sizes = [(1280, 720, 0.625), (1920, 1080, 800 / 1920), (640, 480, 1.0)]
    for r in ratios:  # frames the detection scale shrinks by r along both sides
        k = int(rng.integers(40, 1600 // (2 * r.numerator)))
        sizes.append((r.numerator * 2 * k, r.numerator * k, float(1 / r)))
    alone = 0
    for W, H, scale in sizes:
        image = rng.integers(0, 256, (H, W, 3), dtype=np.uint8)
        whole = _shrink(image, scale)
        h, w = whole.shape[:2]
        for _ in range(25):
            x0, y0 = int(rng.integers(0, w - 1)), int(rng.integers(0, h - 1))
            x1, y1 = int(rng.integers(x0 + 1, w + 1)), int(rng.integers(y0 + 1, h + 1))
            shrunk = _Shrunk(image, scale, (w, h))
            assert np.array_equal(shrunk.region((x0, y0, x1, y1)), whole[y0:y1, x0:x1])
            alone += shrunk._whole is None
    assert alone > 0.6 * 25 * len(sizes)  # (most boxes were shrunk alone)


@pytest.mark.sources
def test_a_courts_printed_frame_among_the_quads_leaves_nothing_to_look_at(monkeypatch) -> None:
    """The quads the other masks are asked about include a court's printed frame, a quad
    inside its card's: filled with the card's, the picture inside it is covered too (filled
    together, two polygons' overlap stays unfilled, and the picture, darker than the paper
    but not than the table, was looked at with every other mask for nothing)."""
    import vision.detect as det

    gray = np.full((450, 800), 40, np.uint8)
    card = np.float32([[300, 100], [460, 100], [460, 330], [300, 330]])
    frame = np.float32([[330, 140], [430, 140], [430, 290], [330, 290]])
    cv2.fillPoly(gray, [card.astype(np.int32)], 235)
    cv2.fillPoly(gray, [frame.astype(np.int32)], 150)  # the picture: lighter than the table
    colour = cv2.cvtColor(gray, cv2.COLOR_GRAY2BGR)
    masks = det._Masks(gray, det._Shrunk(colour, 1.0, (800, 450)), RecognizerConfig())
    min_px = RecognizerConfig().min_card_area * gray.size
    assert masks.left_over([card, frame], min_px) == []
    assert masks.left_over([frame, card], min_px) == []

    # a drawn frame of 12 cards apart, three of them courts: none of the other masks made
    from vision.synth import SynthConfig, random_frame

    made = [0]
    more = det._Masks.more

    def counted(self, roi=None, only=None):
        made[0] += 1
        return more(self, roi, only)

    monkeypatch.setattr(det._Masks, "more", counted)
    image = random_frame(1056, 12, 0, SynthConfig(width=1280, height=720)).image
    explained: list[bool] = []
    quads, _ = detect(image, RecognizerConfig(), [], None, [], explained)
    assert len(quads) == 12 and explained == [True] and made[0] == 0


def _masks_made(monkeypatch) -> list[str]:
    """The names of the other masks :func:`detect` makes from now on, in order."""
    import vision.detect as det

    made: list[str] = []
    more = det._Masks.more

    def counted(self, roi=None, only=None):
        masks = more(self, roi, only)
        made.extend(name for name, _ in masks)
        return masks

    monkeypatch.setattr(det._Masks, "more", counted)
    return made


@pytest.mark.sources
def test_a_card_its_picture_cut_in_two_is_joined_by_the_closed_mask_alone(
    crops, monkeypatch
) -> None:
    """A court whose picture runs to its edges is two regions of Otsu's mask, neither a
    card: left over, in a box of its own.  The "closed" mask, made first there, joins
    them into the card, which covers all the box holds: no other mask is made there
    (without the shortcut, all five are, each box), and the same cards are found, within
    a few pixels, and read the same."""
    import frames

    made = _masks_made(monkeypatch)
    on, off = RecognizerConfig(), RecognizerConfig(detect_join_first=False)
    for seed in (1, 3, 11, 20):  # (each frame holds one such court)
        image, codes = frames.table_frame(crops, 12, seed=seed)
        made.clear()
        quads_on, _ = detect(image, on, [], None, [], [])
        assert made == ["closed"]
        made.clear()
        quads_off, _ = detect(image, off, [], None, [], [])
        assert made == ["paper", "pale", "faint", "closed", "hull"]
        assert len(quads_on) == len(quads_off) == 12
        for q in quads_on:
            assert min(float(np.abs(q - b).max()) for b in quads_off) < 4.0
        said_on = {r.card.code for r in Recognizer(on).read(image) if r.card is not None}
        said_off = {r.card.code for r in Recognizer(off).read(image) if r.card is not None}
        assert said_on == said_off == set(codes)


@pytest.mark.sources
def test_paper_the_joined_card_leaves_uncovered_is_looked_at_with_every_mask(
    crops, monkeypatch
) -> None:
    """The same frame with a scrap of paper on the table beside such a court, in its box:
    the joined card leaves paper uncovered, and the other masks are made there after all."""
    import frames

    made = _masks_made(monkeypatch)
    image, codes = frames.table_frame(crops, 12, seed=11)
    detect(image, RecognizerConfig(), [], None, [], [])
    assert made == ["closed"]
    scrap = image.copy()
    cv2.rectangle(scrap, (70, 200), (120, 250), (235, 235, 235), cv2.FILLED)
    made.clear()
    quads, _ = detect(scrap, RecognizerConfig(), [], None, [], [])
    assert made[0] == "closed" and {"paper", "faint", "hull"} <= set(made)
    said = {r.card.code for r in Recognizer().read(scrap) if r.card is not None}
    assert said == set(codes)


def test_a_joined_card_is_one_quad_of_the_cards_size_clear_of_them() -> None:
    """What the "closed" mask gives a box is taken for the card joined only as one quad,
    of the size of the cards found (``single_area`` of their median), overlapping none."""
    from vision.detect import _joined, _Shapes, quad_area

    def cand(x: float, y: float, w: float = 50.0, h: float = 70.0):
        q = np.float32([[x, y], [x + w, y], [x + w, y + h], [x, y + h]])
        return (quad_area(q), q, q.reshape(-1, 1, 2))

    cfg = RecognizerConfig()
    found = [cand(0, 0), cand(100, 0), cand(200, 0)]
    card = float(np.median([t[0] for t in found]))
    shapes = _Shapes()
    assert _joined([cand(300, 0)], found, card, shapes, cfg)
    assert _joined([cand(300, 0, 48, 66)], found, card, shapes, cfg)
    assert not _joined([], found, card, shapes, cfg)
    assert not _joined([cand(300, 0), cand(300, 100)], found, card, shapes, cfg)
    assert not _joined([cand(300, 0, 100, 70)], found, card, shapes, cfg)  # two cards' size
    assert not _joined([cand(300, 0, 25, 70)], found, card, shapes, cfg)  # half a card's
    assert not _joined([cand(220, 30)], found, card, shapes, cfg)  # over a card found


def test_a_card_found_short_on_a_light_table_is_looked_for_whole() -> None:
    """A lone card on a light grey table, its lower part dimmer than Otsu's threshold in a
    noisy webcam picture: Otsu's mask gives the card cut short, the rest of it lies in the
    light band with the table.  The table's lighter part is passed over only where three
    cards or more of a size are found (the printed frame in the card aside): here the
    other masks look, find the whole card, and it is read."""
    import realdata

    photo = next(p for p in realdata.photos("webcam-grey") if p.path.name == "data1-train20.jpg")
    image = photo.image()
    noise = np.random.default_rng(0).normal(0, 12, image.shape)
    image = np.clip(image + noise, 0, 255).astype(np.uint8)
    said = [r.card.code for r in Recognizer().read(image) if r.card is not None]
    assert said == photo.cards == ["6D"]


def test_a_card_cut_short_among_several_is_looked_for_whole() -> None:
    """Seven drawn cards on a table lit unevenly: one card's far part is dimmer than Otsu's
    threshold, and Otsu's mask gives it cut short, the rest of it in the light band with
    the table.  Its cut side shows no step down from paper to table (a card's edges do:
    35 grey levels and more on the drawn frames whose table band is passed over), so the
    band is looked in, the whole card found and read; not asking for the step, it is
    missed."""
    from vision.synth import SynthConfig, random_frame

    frame = random_frame(282237, 7, 0, SynthConfig(width=1000, height=750))
    truth = sorted(c.code for c in frame.playing_cards)
    for cfg, want in ((RecognizerConfig(), truth),
                      (RecognizerConfig(detect_band_step=-255.0), [c for c in truth if c != "3C"])):
        said = sorted(r.card.code for r in Recognizer(cfg).read(frame.image) if r.card is not None)
        assert said == want, cfg.detect_band_step


@pytest.mark.sources
def test_the_tables_lighter_part_is_no_hand_of_cards(monkeypatch) -> None:
    """Three drawn cards and one of ours on a beige table lit from one side: its lighter
    part is a region of Otsu's mask that no card explains, eight cards large and reaching
    into the frame's corner -- the table, not a hand of overlapping cards to read corner by
    corner (6.5 ms for nothing); the cards and the code are read all the same.  (With
    fewer than three cards named, such a region is still looked at: a lone card in a
    photo's white vignette is found there.)"""
    from vision import fan as fan_stage
    from vision.identify import FrameReader
    from vision.synth import SynthConfig, random_frame

    looked = [0]
    read_fans = fan_stage.read_fans

    def counted(*args, **kwargs):
        looked[0] += 1
        return read_fans(*args, **kwargs)

    monkeypatch.setattr(fan_stage, "read_fans", counted)
    frame = random_frame(1035, 3, 1, SynthConfig(width=1280, height=720))
    for cfg, fans in ((RecognizerConfig(), 0), (RecognizerConfig(blob_table_area=1e9), 1)):
        looked[0] = 0
        result = FrameReader(recognizer=Recognizer(cfg)).read(frame.image)
        assert looked[0] == fans
        assert sorted(c.card.code for c in result.cards if c.card is not None) == sorted(
            c.code for c in frame.playing_cards)
        assert [c.data for c in result.codes] == [c.data for c in frame.codes]


def test_paper_left_uncovered_is_counted_in_a_box_as_in_the_whole_frame() -> None:
    """What the quads leave of a mask, eroded, counted inside a box (worked out in the box
    grown by the erosion's reach) is what the whole frame's gives inside it: boxes inside
    the frame, at its edges and the whole of it, quads partly off the frame."""
    from vision.detect import _Masks, _Shrunk

    rng = np.random.default_rng(23)
    cfg = RecognizerConfig()
    for _ in range(150):
        h, w = int(rng.integers(20, 200)), int(rng.integers(20, 260))
        gray = rng.integers(0, 256, (h, w), dtype=np.uint8)
        masks = _Masks(gray, _Shrunk(cv2.cvtColor(gray, cv2.COLOR_GRAY2BGR), 1.0, (w, h)), cfg)
        mask = _blotches(rng, h, w) * np.uint8(rng.choice([1, 255]))
        polys = []
        for _ in range(int(rng.integers(0, 5))):
            c = rng.uniform([-20, -20], [w + 20, h + 20])
            side = rng.uniform(5, 0.6 * min(h, w) + 6)
            a = rng.uniform(0, np.pi)
            turn = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
            quad = np.array([[-1, -1.4], [1, -1.4], [1, 1.4], [-1, 1.4]]) * side / 2 @ turn.T
            polys.append(np.round(quad + c).astype(np.int32))
        whole = masks._uncovered(mask, polys)
        for _ in range(10):
            x0, y0 = int(rng.integers(0, w)), int(rng.integers(0, h))
            x1, y1 = int(rng.integers(x0, w + 1)), int(rng.integers(y0, h + 1))
            if rng.random() < 0.2:
                x0, y0, x1, y1 = 0, 0, w, h
            want = cv2.countNonZero(whole[y0:y1, x0:x1]) if x1 > x0 and y1 > y0 else 0
            assert masks._uncovered_count(mask, polys, (x0, y0, x1, y1)) == want


def test_a_warp_is_made_a_whole_number_of_lanes_wide() -> None:
    """The reader's warps are made a whole number of ``WARP_LANES`` pixels wide and cut
    back: the pixels of the wider warp, each of OpenCV's vector code, and within a level of
    those of the warp made at the width asked (whose last pixels of a row OpenCV works out
    one by one, rounding a little otherwise); at a multiple of the lanes, the very same."""
    from vision.pipeline import WARP_LANES, _Pyramid

    rng = np.random.default_rng(29)
    photo = cv2.imread(str(realdata.photos("phone-scenes")[0].path))
    pyr = _Pyramid(photo)
    bgra = cv2.cvtColor(photo, cv2.COLOR_BGR2BGRA)
    h0, w0 = photo.shape[:2]
    apart = 0
    for i in range(300):
        w, h = (75, 154) if i % 3 == 0 else (int(rng.integers(1, 140)), int(rng.integers(1, 180)))
        centre = rng.uniform([0, 0], [w0, h0])
        side = rng.uniform(10, 300)
        turn = rng.uniform(0, 2 * np.pi)
        rot = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
        quad = np.array([[-1, -1.4], [1, -1.4], [1, 1.4], [-1, 1.4]]) * side / 2 @ rot.T + centre
        quad += rng.normal(0, 0.05 * side, (4, 2))
        m = cv2.getPerspectiveTransform(quad.astype(np.float32),
                                        np.float32([[0, 0], [w, 0], [w, h], [0, h]]))
        got = pyr.warp(0, m, (w, h))
        wide = -(-w // WARP_LANES) * WARP_LANES
        want = cv2.cvtColor(cv2.warpPerspective(bgra, m, (wide, h), flags=cv2.INTER_LINEAR,
                                                borderMode=cv2.BORDER_REPLICATE)[:, :w],
                            cv2.COLOR_BGRA2BGR)
        assert got.shape == (h, w, 3) and np.array_equal(got, want)
        plain = cv2.cvtColor(cv2.warpPerspective(bgra, m, (w, h), flags=cv2.INTER_LINEAR,
                                                 borderMode=cv2.BORDER_REPLICATE),
                             cv2.COLOR_BGRA2BGR)
        diff = np.abs(got.astype(np.int16) - plain)
        assert diff.max() <= 1
        if w % WARP_LANES == 0:
            assert not diff.any()
        apart += bool(diff.any())
    assert apart > 0  # (the one-by-one pixels do round otherwise, now and then)


@pytest.mark.sources
def test_the_other_way_up_is_read_only_where_the_likelier_way_is_unclear(monkeypatch) -> None:
    """A card at least clear_portrait square may lie either way up: the index corners of
    the way its shape makes likelier are read first, and the other way's only where those
    two do not read clearly (likely_way_quality).  Three of vision.bench's 12-card frames
    (the speed goal's) read to the corner and the confidence as with both ways read, from
    fewer corner patches (measured 74 against 90)."""
    import dataclasses

    from vision import pipeline
    from vision.pipeline import _CornerWarp, _Pyramid
    from vision.synth import SynthConfig, random_frame

    read = [0]
    patches_read = pipeline.IndexReader.read_patches

    def counted(self, patches, *args, **kwargs):
        read[0] += len(patches)
        return patches_read(self, patches, *args, **kwargs)

    monkeypatch.setattr(pipeline.IndexReader, "read_patches", counted)
    likely = Recognizer()
    both = Recognizer(dataclasses.replace(likely.config, likely_way_quality=None))
    counts = {"likely": 0, "both": 0}

    def said(rec: Recognizer, image: np.ndarray, key: str) -> list[tuple[object, ...]]:
        read[0] = 0
        out = [(r.card, r.corners, r.confidence, r.alternatives) for r in rec.read(image)]
        counts[key] += read[0]
        return out

    for seed in (1004, 1012, 1020):
        image = random_frame(seed, 12, 0, SynthConfig()).image
        assert said(likely, image, "likely") == said(both, image, "both"), seed
    assert counts["likely"] <= counts["both"] - 12, counts  # measured 74 against 90

    # the likelier way: short sides top and bottom, whichever pair of sides that is
    pyr = _Pyramid(np.zeros((400, 400, 3), np.uint8))
    size = (likely.reader.pw, likely.reader.ph)
    tall = np.float32([[100, 100], [190, 100], [190, 200], [100, 200]])  # 90 wide, 100 tall
    wide = np.float32([[100, 100], [200, 100], [200, 190], [100, 190]])
    square = np.float32([[100, 100], [200, 100], [200, 200], [100, 200]])
    assert _CornerWarp(pyr, tall, likely.config, size).likely_ways() == [0]
    assert _CornerWarp(pyr, wide, likely.config, size).likely_ways() == [1]
    assert _CornerWarp(pyr, square, likely.config, size).likely_ways() == [0, 1]


def test_a_corner_near_a_card_found_is_told_as_point_by_point() -> None:
    """A blob's corner already accounted for (``detect.FoundCorners``, nearer than a limit
    to a corner of the cards found) is told with all the corners at once as one at a time
    tells it: float32 distances right at the limit too, float64 corners and points, no
    corners."""
    from vision.detect import FoundCorners

    rng = np.random.default_rng(8)
    told = {True: 0, False: 0}
    for i in range(4000):
        points = rng.uniform(0, 1280, (int(rng.integers(1, 60)), 2)).astype(np.float32)
        corner = points[int(rng.integers(len(points)))] + rng.normal(0, 20, 2)
        corner = corner.astype(np.float64 if i % 9 == 0 else np.float32)
        d = corner - points
        lengths = [np.hypot(*row) for row in d]
        limit = float(rng.choice(lengths)) if i % 3 == 0 else float(rng.uniform(1, 40))
        if i % 5 == 0:  # a hair either side of a distance
            limit = float(np.nextafter(np.float32(limit), np.float32(rng.choice([0, 1e9]))))
        elif i % 5 == 1 and i % 3 == 0:  # between two float32 lengths: compared as float32
            step = float(np.spacing(np.float32(limit)))
            limit += float(rng.choice([0.25, 0.75])) * step
        want = any(np.hypot(*(corner - s)) < limit for s in points)
        assert FoundCorners(list(points)).near(corner, limit) == want
        assert FoundCorners(list(points.astype(np.float64))).near(corner, limit) == (
            any(np.hypot(*(corner - s)) < limit for s in points.astype(np.float64)))
        told[want] += 1
    assert min(told.values()) > 1000
    assert not FoundCorners([]).near(np.zeros(2, np.float32), 5.0)
