"""The card recognizer on the real photos of shared/data, untaught.

Each folder must be read at least as well as the fixed floors below, and never wrongly:
a wrong card is far worse than no card.  (Measured when these floors were set: webcam-grey
64/64, phone-scenes 83/85, deck-sheet cells 48/52, no wrong answers.)
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest
import realdata

from companion.cards import Card
from vision.pipeline import CardReading, Recognizer, RecognizerConfig


@pytest.mark.parametrize(
    ("folder", "floor"),
    [("webcam-grey", 0.97), ("phone-scenes", 0.94)],
)
def test_real_photos_untaught(rec: Recognizer, folder: str, floor: float) -> None:
    score = realdata.score_folder(rec, realdata.photos(folder))
    assert score.wrong == 0, score.wrongs
    assert score.correct / score.total >= floor, (score.line(folder), score.misses)


def test_deck_sheet_cells_untaught(rec: Recognizer) -> None:
    score = realdata.score_sheet(rec, realdata.deck_sheet_samples())
    assert score.wrong == 0, score.wrongs
    # the Italian deck's Q (a narrow O whose tail loops under it) is like no font's: the
    # model has drawn ones (vision.build_glyph_model), and the picture in the middle rules
    # out the 8 the corners take it for: measured 52 of 52 (48 before)
    assert score.correct >= 51, (score.line("deck-sheet"), score.misses)


def test_scribbled_card_is_not_guessed(rec: Recognizer) -> None:
    """training-Jhearts.jpg is the jack of spades scribbled over: say JS or nothing."""
    d = realdata.data_dir()
    assert d is not None
    img = cv2.imread(str(d / "phone-scenes" / "training-Jhearts.jpg"))
    said = [r.card.code for r in rec.read(img) if r.card is not None]
    assert set(said) <= {"JS"}


def test_reading_fields(rec: Recognizer) -> None:
    d = realdata.data_dir()
    assert d is not None
    img = cv2.imread(str(d / "webcam-grey" / "data1-train30.jpg"))
    (reading,) = rec.read(img)
    assert isinstance(reading, CardReading)
    assert reading.card == Card.from_code("9H")
    assert 0.5 <= reading.confidence <= 1.0
    assert len(reading.corners) == 4
    assert reading.alternatives[0][0] == "9H"
    assert all(isinstance(c, str) and isinstance(s, float) for c, s in reading.alternatives)


def test_grey_input_reads_ranks_without_guessing_colour(rec: Recognizer) -> None:
    d = realdata.data_dir()
    assert d is not None
    hits = 0
    for name, code in (("data1-train30.jpg", "9H"), ("data1-train29.jpg", "9S"),
                       ("data2-test21.jpg", "4S"), ("data2-test24.jpg", "4D")):
        grey = cv2.imread(str(d / "webcam-grey" / name), cv2.IMREAD_GRAYSCALE)
        readings = rec.read(grey)
        assert len(readings) == 1
        if readings[0].card is not None:
            assert readings[0].card.code == code
            hits += 1
    assert hits >= 2


def test_upright_corner_comes_first(rec: Recognizer) -> None:
    """Whichever way the photo is turned, the first corner is the card's top-left as it
    reads: the rank glyph lies next to it."""
    d = realdata.data_dir()
    assert d is not None
    img = cv2.imread(str(d / "webcam-grey" / "data2-test13.jpg"))  # 6S
    for rot in (None, cv2.ROTATE_90_CLOCKWISE, cv2.ROTATE_180, cv2.ROTATE_90_COUNTERCLOCKWISE):
        im = img if rot is None else cv2.rotate(img, rot)
        (reading,) = rec.read(im)
        assert reading.card == Card.from_code("6S")
        c = np.array(reading.corners)
        top = np.linalg.norm(c[1] - c[0]) + np.linalg.norm(c[3] - c[2])
        side = np.linalg.norm(c[3] - c[0]) + np.linalg.norm(c[2] - c[1])
        assert top < side  # short side on top: portrait
        # clockwise on screen (y down): positive shoelace area
        x, y = c[:, 0], c[:, 1]
        assert np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)) > 0


def test_abstain_margin_is_exposed() -> None:
    cfg = RecognizerConfig(abstain_margin=0.5)
    rec = Recognizer(cfg)
    d = realdata.data_dir()
    assert d is not None
    img = cv2.imread(str(d / "webcam-grey" / "data2-test1.jpg"))
    readings = rec.read(img)
    assert readings and all(r.card is None for r in readings)  # nothing is that sure


def test_deck_sheet_whole_scan(rec: Recognizer) -> None:
    """52 cards touching each other on a white scan: most are found and none misread."""
    score = realdata.score_sheet_whole(rec)
    assert score.wrong == 0, score.wrongs
    # measured 52 (51 before a picture in the middle put the looped QD's Q ahead of the 8
    # both corners hold first; 47 before cards were found beside their neighbours)
    assert score.correct >= 51, score.line("deck-sheet whole")


@pytest.fixture(scope="module")
def crops(rec: Recognizer) -> list[tuple[np.ndarray, str]]:
    import frames

    return frames.card_crops(rec, realdata.photos("phone-scenes"))


def test_twelve_cards_on_a_1280x720_table(rec: Recognizer, crops) -> None:
    import frames

    named = 0
    for seed in range(3):
        frame, codes = frames.table_frame(crops, 12, seed=seed)
        readings = rec.read(frame)
        said = [r.card.code for r in readings if r.card is not None]
        assert all(c in codes for c in said), (seed, said, codes)
        named += len(said)
    assert named >= 30  # of 36


def test_fanned_hands_are_never_misread(rec: Recognizer, crops) -> None:
    import frames

    named = 0
    for seed in range(12):
        frame, codes = frames.fan_frame(crops, 5, seed=seed, spread=10 + seed % 3 * 3)
        said = [r.card.code for r in rec.read(frame) if r.card is not None]
        assert all(c in codes for c in said), (seed, said, codes)
        assert len(said) == len(set(said))
        named += len(said)
    assert named >= 2  # some top cards (whole cards on top of others are hard to outline)


def test_pip_check_still_catches_the_queens_read_as_eights(rec: Recognizer) -> None:
    """The Italian deck's Q looks like an 8 in the corner; the pip check (a picture, not
    eight pips) is what stops "8" being said, and names the Q the corners have second.  It
    runs only when the corners are unsure or the rank is one corners confuse
    (``centre_ranks``): even with the confidence gate shut, those ranks must be checked."""
    sheet = [(img, c) for img, c in realdata.deck_sheet_samples() if c.rank == "Q"]
    blind = Recognizer(RecognizerConfig(use_centre=False))
    misread = [blind.read_crop(img).alternatives[0][0] for img, _ in sheet]
    assert any(c[0] == "8" for c in misread), misread  # what the check overrules
    said = [rec.read_crop(img).card for img, _ in sheet]
    assert said == [card for _, card in sheet], said
    gated = Recognizer(RecognizerConfig(centre_below=0.0))
    for img, card in sheet:
        said_gated = gated.read_crop(img).card
        assert said_gated is None or said_gated == card, (card.code, said_gated)


@pytest.mark.sources
def test_ink_split_off_the_index_is_split_once(rec: Recognizer, monkeypatch) -> None:
    """Ink round the index box, larger than the index: what lies off the box is counted,
    once -- a piece whose own box still crosses the index's is not split again (it was,
    relabelled each time until the 16-bit labels ran out: a heavily smeared frame took
    a second to read)."""
    from vision import pipeline

    crop = np.full((175, 125, 3), 230, np.uint8)
    crop[3:51, 3:41] = 20  # a thick frame of ink round the index ...
    crop[7:41, 6:19] = 230
    crop[12:30, 9:15] = 20  # ... and the index glyph inside it
    calls: list[int] = []
    real = pipeline._off_boxes

    def counting(*args, **kw):
        calls.append(args[1])
        return real(*args, **kw)

    monkeypatch.setattr(pipeline, "_off_boxes", counting)
    centre = pipeline.analyse_centre(crop, rec.config, rec.reader, True, [(5, 6, 19, 41)])
    assert centre.kind == "unknown"  # the frame is no pip
    assert len(calls) == 1, calls


@pytest.mark.sources
def test_both_index_corners_of_every_card_are_read(
    rec: Recognizer, crops, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Cards lying apart as well: the opposite corner was once read only where the first
    was unsure, and such a card's middle was looked at instead -- which cost more than the
    second corner (a middle for every 6, 8, 9, ace and court, and below 0.8)."""
    import frames

    from vision import pipeline

    frame, codes = frames.table_frame(crops, 12, seed=3)
    patches: list[int] = []
    real = pipeline._CornerWarp.patch

    def counting(self: pipeline._CornerWarp, k: int, width: int | None = None) -> np.ndarray:
        patches.append(k)
        return real(self, k, width)

    monkeypatch.setattr(pipeline._CornerWarp, "patch", counting)
    said = [r.card.code for r in rec.read(frame) if r.card is not None]
    assert len(said) >= 11 and set(said) <= set(codes), said
    assert len(patches) >= 2 * len(said)


def test_a_card_lying_apart_is_named_from_one_corner_at_a_lower_confidence(rec, crops) -> None:
    """A card lying apart, whose opposite index corner shows no index (here: the second
    corner of a 3C in a 12-card frame), is a card for sure: named from its one corner at
    ``apart_lone_confidence`` (0.746 here), where a lone corner on any outline needs
    ``lone_corner_min_confidence`` (the outline of a row of cards has a card's shape)."""
    import frames

    frame, codes = frames.table_frame(crops, 12, seed=58)
    strict = Recognizer(RecognizerConfig(apart_lone_confidence=0.75))
    said = {r.card.code for r in rec.read(frame) if r.card is not None}
    said_strict = {r.card.code for r in strict.read(frame) if r.card is not None}
    assert said <= set(codes) and said_strict <= set(codes)
    assert said - said_strict == {"3C"}, (said, said_strict)


def test_a_quad_spanning_two_cards_is_not_taken_for_a_card_lying_apart(
    rec: Recognizer, crops
) -> None:
    """In a fanned hand a quad may span two cards (one card's index at each corner): such
    quads are not regions of their own, so a lone corner there needs the stricter
    confidence; cards apart on a table are."""
    import frames

    frame, codes = frames.fan_frame(crops, 5, seed=9, spread=10 + 9 % 3 * 3)
    from vision.detect import detect

    apart: list[bool] = []
    quads, _ = detect(frame, rec.config, apart)
    assert len(apart) == len(quads)
    assert rec._lying_apart(quads, apart) == [False] * len(quads)
    table, _ = frames.table_frame(crops, 12, seed=1)
    apart = []
    quads, _ = detect(table, rec.config, apart)
    assert sum(rec._lying_apart(quads, apart)) >= 8  # cards apart on a table
    said = [r.card.code for r in rec.read(frame) if r.card is not None]
    assert all(c in codes for c in said) and len(said) == len(set(said))


def test_stage_times_are_recorded_only_when_enabled(crops) -> None:
    import frames

    from vision.identify import FrameReader

    reader = FrameReader()
    frame, _ = frames.table_frame(crops, 12, seed=0)
    reader.read(frame)
    assert reader.stages.reset() == {}  # off by default: no clock reads
    reader.stages.enabled = True
    reader.read(frame)
    spent = reader.stages.reset()
    assert {"detect", "rectify", "read corners", "decide", "qr"} <= set(spent)
    assert all(t >= 0 for t in spent.values())


def _shrunk_middle(rec: Recognizer, name: str, width: int, blur: float) -> np.ndarray:
    """The middle crop of a phone photo's card as a card ``width`` px wide, out of focus
    (``blur`` of its width), shows it."""
    img = cv2.imread(str(realdata.data_dir() / "phone-scenes" / name))
    (reading,) = rec.read(img)
    h = int(width * 1.4)
    m = cv2.getPerspectiveTransform(np.float32(reading.corners),
                                    np.float32([[0, 0], [width, 0], [width, h], [0, h]]))
    small = cv2.warpPerspective(img, m, (width, h), flags=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), blur * width)
    return cv2.resize(small, rec.config.centre_size, interpolation=cv2.INTER_LINEAR)


SHRUNK = [(120, 0.02), (100, 0.015), (90, 0.02), (70, 0.015), (60, 0.01)]


def test_pips_run_together_are_no_picture(rec: Recognizer) -> None:
    """A small 9 of clubs out of focus: its middle pips run into one blob the size of a
    picture, and with its blurred "9" read as a Q the picture made it a sure QC (three
    times in the 280 blurred frames in colour; in 240 cards of frames shrunk to 0.75 three
    times, once the outlines were found a few tenths of a pixel differently).  A court's
    picture has colours besides the ink's (yellow, blue); the blob of black pips has none,
    and is "plain" -- while the courts, shrunk and blurred the same, still show a picture."""
    from vision.pipeline import analyse_centre

    rec.reader.colour = True
    for width, blur in SHRUNK:
        crop = _shrunk_middle(rec, "training-9clubs.jpg", width, blur)
        kind = analyse_centre(crop, rec.config, rec.reader, False).kind
        assert kind == "plain", (width, blur, kind)
    courts = [f"training-{r}{s}.jpg" for r in "JQK"
              for s in ("clubs", "diamonds", "hearts", "spades")]
    kinds = [analyse_centre(_shrunk_middle(rec, name, width, blur), rec.config, rec.reader,
                            False).kind
             for name in courts for width, blur in SHRUNK]
    assert "plain" not in kinds, kinds
    assert kinds.count("picture") >= 44, kinds  # measured 49 of 60 (48 before)


def test_a_soft_red_index_is_cut_at_a_lighter_threshold(rec: Recognizer, crops) -> None:
    """The phone deck's 7 of hearts in 12-card frames: its index's thin strokes, soft, come
    out pink -- lighter than the ink threshold, while the solid heart under them is not --
    and no rank glyph was cut in either corner.  Where nothing is cut and the ink is red,
    the corner is cut again at a threshold halfway to the paper."""
    import frames

    for seed in (1, 12, 14):
        frame, codes = frames.table_frame(crops, 12, seed=seed)
        assert "7H" in codes
        said = [r.card.code for r in rec.read(frame) if r.card is not None]
        assert "7H" in said and set(said) <= set(codes), (seed, said)
    strict = Recognizer(RecognizerConfig(faint_ink=False))
    frame, _ = frames.table_frame(crops, 12, seed=1)
    assert "7H" not in [r.card.code for r in strict.read(frame) if r.card is not None]


def test_a_card_read_from_faint_ink_only_needs_its_middle(rec: Recognizer) -> None:
    """Index corners whose glyphs were cut at the lighter threshold for faint red ink (a 2
    of hearts moved 7 px: its faint "2" read as a 7 at confidence 0.85) name a card only
    where the middle bears the rank out; the same reads not so cut name it."""
    from vision import pipeline

    def read(faint: bool) -> pipeline.CornerRead:
        ranks = np.full(len(pipeline.RANK_MODEL_CLASSES), 0.55, np.float32)
        ranks[pipeline.RANK_CLASSES.index("7")] = 0.83
        ranks[pipeline.RANK_CLASSES.index("2")] = 0.74
        suits = np.full(len(pipeline.SUIT_CLASSES), 0.6, np.float32)
        suits[pipeline.SUIT_CLASSES.index("H")] = 0.9
        return pipeline.CornerRead(ranks, suits, 0.5, faint=faint)

    corners = np.array([[0, 0], [250, 0], [250, 350], [0, 350]], np.float32)
    reading = rec.decide([read(False)], ((0.0, 0.0),) * 4)
    assert reading.card == Card.from_code("7H")
    for centre, faint, named in [
        (None, False, "7H"), (None, True, None),
        (pipeline.Centre("unknown"), True, None),
        (pipeline.Centre("pips", 2), True, None),  # (vetoed, faint or not)
        (pipeline.Centre("pips", 7), True, "7H"),
    ]:
        best = pipeline._Interpretation(corners, [read(faint)], 0.0)
        got = rec._decide_staged(best, reading, centre).card
        assert got == (Card.from_code(named) if named else None), (centre, faint, got)


def test_a_picture_in_the_middle_puts_the_court_both_corners_hold_second_first(
    rec: Recognizer,
) -> None:
    """The deck-sheet's queen of diamonds: both index corners take its looped Q for an 8
    (8 first, a lone "0" second, Q third), by more than the picture's bonus makes up.  The
    picture rules the 8 out, and the Q is second among real ranks in each corner: it is
    named.  Where one corner does not hold the Q first or second, nothing is."""
    from vision import pipeline

    def read(scores: dict[str, float]) -> pipeline.CornerRead:
        ranks = np.full(len(pipeline.RANK_MODEL_CLASSES), 0.6, np.float32)
        for rank, score in scores.items():
            ranks[pipeline.RANK_MODEL_CLASSES.index(rank)] = score
        suits = np.array([0.55, 0.95, 0.52, 0.6], np.float32)  # C D H S
        return pipeline.CornerRead(ranks, suits, 0.5)

    corners = ((0.0, 0.0), (250.0, 0.0), (250.0, 350.0), (0.0, 350.0))
    picture = pipeline.Centre("picture")
    looped = [read({"8": 0.804, "0": 0.794, "Q": 0.769, "6": 0.75}),
              read({"8": 0.808, "0": 0.785, "Q": 0.762, "9": 0.754})]
    assert rec.decide(looped, corners).card == Card.from_code("8D")  # the corners alone
    assert rec.decide(looped, corners, picture).card == Card.from_code("QD")
    # (a picture and no court or ace near the top of a corner: nothing named)
    third = [looped[0], read({"8": 0.808, "6": 0.79, "Q": 0.762})]
    assert rec.decide(third, corners, picture).card is None
    # (the middle unread: the 8 stands, as the corners say)
    assert rec.decide(looped, corners, pipeline.Centre("unknown")).card == Card.from_code("8D")



@pytest.mark.sources
def test_a_card_both_corners_name_surely_is_not_looked_at_in_the_middle(
    rec: Recognizer, crops, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A court, 6, 8, 9 or ace (``centre_ranks``) whose two index corners both name it at
    ``centre_sure`` or above keeps the corners' reading without a look at its middle
    (over the 705 photos and frames checked, the middle changed no card read so: the
    looped queens read as 8s stay below 0.65).  The same frame, the gate shut, names the
    same cards, looking at more middles; what those added was confidence only, and a
    card skipped keeps enough for the table, which asks about readings below its
    ``min_confidence``."""
    import frames

    from companion.table.interpreter import InterpreterConfig
    from vision import pipeline

    assert rec.config.centre_sure >= InterpreterConfig().min_confidence
    ranks = set(rec.config.centre_ranks)
    cards = [(crop, code) for crop, code in crops if code[0] in ranks]
    frame, codes = frames.table_frame(cards, 10, seed=2)
    looked: list[int] = []
    real = pipeline.Recognizer.centre

    def counting(self: Recognizer, *args, **kw):
        looked.append(1)
        return real(self, *args, **kw)

    monkeypatch.setattr(pipeline.Recognizer, "centre", counting)
    before = Recognizer(RecognizerConfig(centre_sure=1.01)).read(frame)
    looked_shut = len(looked)
    looked.clear()
    after = rec.read(frame)
    said = sorted(r.card.code for r in after if r.card is not None)
    assert said == sorted(r.card.code for r in before if r.card is not None)
    assert len(said) >= 8 and set(said) <= set(codes), (said, codes)
    assert len(looked) < looked_shut, (len(looked), looked_shut)
    lowered = [r for r in after if r.card is not None and any(
        b.card == r.card and b.confidence > r.confidence for b in before)]
    assert lowered and all(r.confidence >= rec.config.centre_sure for r in lowered)


def test_the_papers_shade_along_its_edges_is_no_print(rec: Recognizer, crops) -> None:
    """The phone deck's cards were photographed under a lamp, their paper darker towards
    their edges: cut from a quad found a few px inside the card, the middle's ink mask
    holds bands along its sides, and what the long lines' removal leaves of them (at the
    crop's rim, or beside it) was taken for print that is neither pips nor a picture, so
    no pips were counted ("unknown": the 7 of hearts, 4 px inside).  Ink in the band along
    a side (``centre_shade_band``), long along it, is the paper's shade.  Over every card
    of the deck, cut exactly and 2 to 6 px inside: more middles are counted, and none
    counted right before is counted wrong now (measured: 115 right against 112 of 220)."""
    from vision.pipeline import analyse_centre, rectify

    none = RecognizerConfig(centre_shade_band=0.0)
    pips = {"A": 1, "T": 10, **{str(i): i for i in range(2, 10)}}

    def middle(crop: np.ndarray, inset: int) -> np.ndarray:
        h, w = crop.shape[:2]
        q = np.float32([[inset, inset], [w - 1 - inset, inset],
                        [w - 1 - inset, h - 1 - inset], [inset, h - 1 - inset]])
        return rectify(crop, q, rec.config.centre_size)

    seven = middle(next(c for c, code in crops if code == "7H"), 4)
    centre = analyse_centre(seven, rec.config, rec.reader, False)
    assert (centre.kind, centre.count) == ("pips", 7), centre
    assert analyse_centre(seven, none, rec.reader, False).kind == "unknown"
    right = {"now": 0, "before": 0}
    for crop, code in crops:
        for inset in (0, 2, 4, 6):
            m = middle(crop, inset)
            now = analyse_centre(m, rec.config, rec.reader, False)
            before = analyse_centre(m, none, rec.reader, False)
            if before.kind == "pips" and before.count == pips.get(code[0]):
                assert (now.kind, now.count) == (before.kind, before.count), (code, inset)
            right["now"] += now.kind == "pips" and now.count == pips.get(code[0])
            right["before"] += before.kind == "pips" and before.count == pips.get(code[0])
    assert right["now"] > right["before"], right

def test_the_shaded_seven_of_hearts_is_named_by_its_pips(rec: Recognizer) -> None:
    """The phone deck's 7 of hearts among twelve cards touching one another (1280x720,
    seeds 112 and 132): one index corner read, its "7" faint, so it is named only where
    the middle counts seven pips; its paper's shade along the sides (and the bottom
    index's heart, a little off the index zone in the quad found) left the middle
    unknown, and it went unnamed.  Now it is named; not without the shade taken for
    what it is."""
    import frames

    crops = frames.card_crops(rec, realdata.photos("phone-scenes"))
    none = Recognizer(RecognizerConfig(centre_shade_band=0.0))
    for seed in (112, 132):
        frame, codes = frames.touching_frame(crops, 12, size=(1280, 720), seed=seed)
        said = [x.card.code for x in rec.read(frame) if x.card is not None]
        assert "7H" in said and not set(said) - set(codes), (seed, said)
        assert "7H" not in [x.card.code for x in none.read(frame) if x.card is not None]
