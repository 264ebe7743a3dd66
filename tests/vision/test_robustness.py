"""The real photos read again after the picture is changed as other cameras, tables and
light would change it (bench/vision_robustness.py): never a wrong card, and at least the
floors below (set a little under what was measured when they were written)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest
import realdata

from vision.pipeline import Recognizer

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

from vision_robustness import CHANGES, labelled, score  # noqa: E402

# (folder, change, floor): measured 64, 64, 64, 64, 64, 63, 64 of 64 and 83, 84, 79, 84,
# 84, 84, 85 of 85 (before a card read from one index corner was named where its middle
# counts it: 64, 62, 64, 64, 64, 63, 64 and 83, 83, 77, 83, 84, 84, 84; before cards not
# named were read again from restored patches, a blurred index spilling over the corner
# zone was no longer counted as a pip, small cards'
# rounded corners no longer cost their quads and faint edges were looked for in a noisy
# picture smoothed: 62, 61, 59, 59, 61, 63, 64 and 82, 82, 75, 80, 84, 84, 84; phone
# pictures shrunk to 400 px hold cards under 64 px tall, which are no longer named)
CASES = [
    ("webcam-grey", "jpeg q30", 63),
    ("webcam-grey", "dim x0.45", 63),
    ("webcam-grey", "blur 2px", 63),
    ("webcam-grey", "noise 12", 63),
    ("webcam-grey", "400 px", 62),
    ("webcam-grey", "slant 0.2", 62),
    ("webcam-grey", "light falloff", 63),
    ("phone-scenes", "turned 30", 82),
    ("phone-scenes", "light falloff", 83),
    ("phone-scenes", "400 px", 77),
    ("phone-scenes", "blur 2px", 83),
    ("phone-scenes", "noise 12", 84),
    ("phone-scenes", "jpeg q30", 84),
    ("phone-scenes", "dim x0.45", 85),
    # a dark picture, its paper at 25 to 35 grey levels (measured 63 and 85; none before
    # a dim picture's cards were read brightened)
    ("webcam-grey", "dark x0.2", 62),
    ("phone-scenes", "dark x0.2", 84),
    # overexposed 2.5 times (measured 78 of 85; a KH's picture was read as a covered JS
    # before a covered card's index inside a card of the usual size named whole was that
    # card's print; the webcam's grey table washes out to the paper's white: none found)
    ("phone-scenes", "bright x2.5", 76),
    # light of another colour (measured 64 and 85 under both, none wrong)
    ("webcam-grey", "warm light", 63),
    ("phone-scenes", "warm light", 84),
    ("phone-scenes", "cool light", 84),
]


@pytest.mark.parametrize(("folder", "change", "floor"), CASES)
def test_changed_pictures(rec: Recognizer, folder: str, change: str, floor: int) -> None:
    data = realdata.data_dir()
    assert data is not None
    right = 0
    wrong: list[str] = []
    for path, cards, partial in labelled(data / folder):
        img = cv2.imread(str(path), cv2.IMREAD_COLOR)
        said = [r.card.code for r in rec.read(CHANGES[change](img)) if r.card is not None]
        got = score(said, cards, partial)
        right += got[0]
        if got[1]:
            wrong.append(f"{path.name}: {said} for {cards}")
    assert wrong == []
    assert right >= floor, right


def test_the_changes_keep_the_picture_whole() -> None:
    img = cv2.imread(str(realdata.photos("webcam-grey")[0].path), cv2.IMREAD_COLOR)
    for name, change in CHANGES.items():
        out = change(img)
        assert out.dtype == img.dtype and out.ndim == 3, name
        assert min(out.shape[:2]) >= 200, name


@pytest.mark.parametrize(("colour", "floor"), [((200, 200, 200), 42), ((225, 225, 225), 44),
                                               ((235, 235, 235), 43), ((120, 170, 210), 46)])
def test_cards_on_a_light_table(rec: Recognizer, colour: tuple[int, int, int], floor: int) -> None:
    """Real card crops on a light table (grey, white, light wood), their paper hardly
    lighter (or darker) than it, Otsu's split taking the table with the cards: found from
    the paper opened wide ("pale") or from their outlines' edges ("hull", whose sides are
    moved onto the card's edges: it holds the card's rim and shadow too).  Measured 47, 48,
    47 and 48 of 48 (light wood 45 before grow_unread); 45, 43, 40 and 42 before the pale
    paper came first and the outlines were moved."""
    import frames

    crops = frames.card_crops(rec, realdata.photos("phone-scenes"))
    named = 0
    for seed in range(6):
        image, truth = frames.table_frame(crops, 8, seed=seed, colour=colour)
        said = [r.card.code for r in rec.read(image) if r.card is not None]
        assert [c for c in said if c not in truth] == [], (seed, said, truth)
        named += len(said)
    assert named >= floor, named


def test_a_card_found_inside_its_outline_on_a_light_table_is_read_grown(
        rec: Recognizer) -> None:
    """On a light wood table the paper's edge barely shows and a card's outline may be
    found a little inside the card: the window over its index corner then cuts the rank
    off and no glyph at all is read (a 2H and an AH).  Such a quad of a card's size is read
    again grown by retry_grow about its middle, as one whose corners disagreed always was
    (grow_unread), named only at retry_grow_confidence.  Eight 12-card frames: 94 of 96
    named, 92 without; none wrong (93 and 91 before the paper's shade along a card's
    edges was told from print: centre_shade_band)."""
    import dataclasses

    import frames

    crops = frames.card_crops(rec, realdata.photos("phone-scenes"))
    plain = Recognizer(dataclasses.replace(rec.config, grow_unread=False))
    named = named_before = 0
    for seed in range(8):
        image, truth = frames.table_frame(crops, 12, seed=seed, colour=(120, 160, 200))
        said = [r.card.code for r in rec.read(image) if r.card is not None]
        assert [c for c in said if c not in truth] == [], (seed, said, truth)
        named += len(said)
        named_before += sum(r.card is not None for r in plain.read(image))
    assert named >= 94 and named_before <= named - 2, (named, named_before)


@pytest.mark.parametrize("folder", ["phone-scenes", "webcam-grey"])
def test_small_cards_are_never_misread(rec: Recognizer, folder: str) -> None:
    """12-card frames of real crops shrunk to half and to 0.4 of 1280x720 (cards some 75 and
    60 px tall, their indices a few px high): one corner alone once misread a K as an A and
    a 7 as a J (both corners are read below single_min_height), and cards under 64 px
    were misread 5 times in 200 (they are found, not named: min_card_height)."""
    import frames

    crops = frames.card_crops(rec, realdata.photos(folder))
    named = 0
    for scale in (0.5, 0.4):
        for seed in range(8):
            image, truth = frames.table_frame(crops, 12, seed=seed)
            small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
            said = [r.card.code for r in rec.read(small) if r.card is not None]
            assert [c for c in said if c not in truth] == [], (scale, seed, said, truth)
            named += len(said)
    assert named >= 70, named  # measured 84 and 88 of 192


Blur = Callable[[np.ndarray], np.ndarray]


def _gauss(sigma: float) -> Blur:
    """A picture out of focus: a Gaussian blur of ``sigma`` px."""
    return lambda image: cv2.GaussianBlur(image, (0, 0), sigma)


def _moved(px: int) -> Blur:
    """A picture of cards moving: a blur ``px`` px long, sideways."""
    kernel = np.zeros((px, px), np.float32)
    kernel[px // 2, :] = 1.0 / px
    return lambda image: cv2.filter2D(image, -1, kernel)


def _named_blurred(rec: Recognizer, plain: Recognizer | None, folders: tuple[str, ...],
                   seeds: int, blurs: tuple[Blur, ...]) -> tuple[int, int]:
    """Cards named in 12-card frames of each folder's real crops (seeds 0 to ``seeds`` - 1)
    changed by each of ``blurs``: by ``rec``, none wrong (asserted), and by ``plain``."""
    import frames

    named = before = 0
    for folder in folders:
        crops = frames.card_crops(rec, realdata.photos(folder))
        for seed in range(seeds):
            image, truth = frames.table_frame(crops, 12, seed=seed)
            for blur in blurs:
                picture = blur(image)
                said = [r.card.code for r in rec.read(picture) if r.card is not None]
                assert [c for c in said if c not in truth] == [], (folder, seed, said, truth)
                named += len(said)
                if plain is not None:
                    before += sum(1 for r in plain.read(picture) if r.card is not None)
    return named, before


def test_blurred_frames_name_no_court_card_for_a_number(rec: Recognizer) -> None:
    """12-card frames of the webcam deck (2 to 9 only) out of focus: a blurred 4 or 3 in the
    corner looks like a J (three JC named in 12 frames); the pips in the middle are now
    looked at for every J, K and A too, and rule it out."""
    named, _ = _named_blurred(rec, None, ("webcam-grey",), 12, (_gauss(1.5),))
    assert named >= 55, named  # measured 65 of 144


def test_a_smeared_cards_middle_counts_its_pips_apart_from_its_index(rec: Recognizer) -> None:
    """A phone photo out of focus (2 px): the 10 of hearts, read from both its index
    corners, has a smeared outline, so its middle must bear it out -- looked at for that
    with the boxes of the index glyphs read, as everywhere else, it counts 10 pips (without
    them, a pip beside the index was taken into it: 9, and the card was not named)."""
    data = realdata.data_dir()
    assert data is not None
    img = cv2.imread(str(data / "phone-scenes" / "training-3cards_extreme.jpg"))
    said = [r.card.code for r in rec.read(CHANGES["blur 2px"](img)) if r.card is not None]
    assert "TH" in said and set(said) <= {"AC", "TH", "4S"}, said  # (labelled AC, 10H, 4S)


def test_unread_cards_are_read_again_restored(rec: Recognizer) -> None:
    """Blurred, noisy and small pictures: the cards not named at first are read again from
    sharpened or denoised index patches, and only then named (never otherwise)."""
    import dataclasses

    plain = Recognizer(dataclasses.replace(rec.config, retry_restore=(), retry_unled=()))
    data = realdata.data_dir()
    assert data is not None
    more = 0
    for path, cards, partial in labelled(data / "webcam-grey")[:40]:
        img = cv2.imread(str(path), cv2.IMREAD_COLOR)
        for change in ("blur 2px", "noise 12"):
            pic = CHANGES[change](img)
            said = [r.card.code for r in rec.read(pic) if r.card is not None]
            before = [r.card.code for r in plain.read(pic) if r.card is not None]
            assert score(said, cards, partial)[1] == 0, (path.name, change, said)
            assert all(c in said for c in before), (path.name, change, said, before)
            more += len(said) - len(before)
    assert more >= 1, more  # measured 1: most are read the first time now


@pytest.mark.sources
def test_named_cards_are_not_read_again(rec: Recognizer, monkeypatch: pytest.MonkeyPatch) -> None:
    """The second reading costs time only for cards not named."""
    calls: list[int] = []
    real = Recognizer._retry

    def counted(self: Recognizer, *args: object) -> object:
        calls.append(1)
        return real(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(Recognizer, "_retry", counted)
    photo = realdata.photos("webcam-grey")[0]
    said = [r.card for r in rec.read(photo.image()) if r.card is not None]
    assert len(said) == 1 and calls == []


def test_the_noise_of_a_picture_is_measured() -> None:
    """The detection's noise estimate (faint edges are looked for in a smoothed picture
    when it is high): about the sigma of the noise added, and near 0 for a clean photo."""
    import numpy as np

    from vision.detect import _Masks, _Shrunk
    from vision.pipeline import RecognizerConfig

    img = realdata.photos("webcam-grey")[0].image()
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    cfg = RecognizerConfig()
    colour = _Shrunk(img, 1.0, (img.shape[1], img.shape[0]))
    assert _Masks(gray, colour, cfg).noise < 1.0
    for sigma in (4.0, 8.0, 16.0):
        rng = np.random.default_rng(1)
        noisy = np.clip(gray + rng.normal(0, sigma, gray.shape), 0, 255).astype(np.uint8)
        assert abs(_Masks(noisy, colour, cfg).noise - sigma) < 0.2 * sigma + 0.5, sigma


@pytest.mark.parametrize(("name", "floor"), [("blur 3px", 35), ("noise 20", 62)])
def test_harsher_than_the_bench(rec: Recognizer, name: str, floor: int) -> None:
    """Webcam photos more out of focus, or noisier, than any change of the bench (the
    restored re-reads were not tuned on these): measured 37 and 64 of 64 (22 and 57 before
    them), never a wrong card."""
    import numpy as np

    data = realdata.data_dir()
    assert data is not None

    def change(img: np.ndarray) -> np.ndarray:
        if name == "blur 3px":
            return cv2.GaussianBlur(img, (0, 0), 3)
        rng = np.random.default_rng(0)
        return np.clip(img + rng.normal(0, 20, img.shape), 0, 255).astype(np.uint8)

    right = 0
    for path, cards, partial in labelled(data / "webcam-grey"):
        img = cv2.imread(str(path), cv2.IMREAD_COLOR)
        said = [r.card.code for r in rec.read(change(img)) if r.card is not None]
        got = score(said, cards, partial)
        assert got[1] == 0, (path.name, said, cards)
        right += got[0]
    assert right >= floor, right


@pytest.mark.parametrize(("folder", "floor"), [("webcam-grey", 60), ("phone-scenes", 18)])
def test_smeared_cards_are_named_only_where_the_middle_bears_them_out(
        rec: Recognizer, folder: str, floor: int) -> None:
    """12-card frames moved 7 px sideways while the camera looked: a smeared 3 read as a J in
    both index corners (a JS named in a frame of number cards), a smeared 2 as a 7.  A card
    whose outline is smeared (pipeline.edge_blur over smear_ratio of its height) is named
    only where its pips are counted to its rank, or a court card's picture is seen.
    Measured 73 and 25 of 144 read."""
    import frames
    import numpy as np

    crops = frames.card_crops(rec, realdata.photos(folder))
    kernel = np.zeros((7, 7), np.float32)
    kernel[3, :] = 1 / 7
    named = 0
    for seed in range(12):
        image, truth = frames.table_frame(crops, 12, seed=seed)
        said = [r.card.code for r in rec.read(cv2.filter2D(image, -1, kernel))
                if r.card is not None]
        assert [c for c in said if c not in truth] == [], (seed, said, truth)
        named += len(said)
    assert named >= floor, named


def test_a_nine_moved_a_little_is_not_named_a_queen(rec: Recognizer) -> None:
    """Webcam frames moved 5 px sideways: a 9 of clubs' pips run together and its "9" reads
    as a Q, with an outline only a little soft (edges 1.3% of its height: under
    ``smear_ratio``, which number cards pass).  A court card needs its picture from
    ``court_smear_ratio`` on -- the 9's middle shows none."""
    import frames
    import numpy as np

    crops = frames.card_crops(rec, realdata.photos("webcam-grey"))
    kernel = np.zeros((5, 5), np.float32)
    kernel[2, :] = 1 / 5
    named = 0
    for seed in (3, 31):
        image, truth = frames.table_frame(crops, 12, seed=seed)
        said = [r.card.code for r in rec.read(cv2.filter2D(image, -1, kernel))
                if r.card is not None]
        assert [c for c in said if c not in truth] == [], (seed, said, truth)
        named += len(said)
    assert named >= 13, named  # measured 16 of 24


def test_a_sharp_outline_is_measured_sharp() -> None:
    """The edge width of a drawn card's outline: a step of about 1 px when sharp, and as
    wide as the blur smears it."""
    import numpy as np

    from vision.pipeline import edge_blur

    img = np.full((400, 400), 60, np.uint8)
    quad = np.array([[100, 60], [260, 60], [260, 284], [100, 284]], np.float32)
    cv2.fillPoly(img, [quad.astype(np.int32)], 230)
    sharp = edge_blur(img, quad, 224.0)
    smeared = edge_blur(cv2.GaussianBlur(img, (0, 0), 3), quad, 224.0)
    assert sharp is not None and smeared is not None
    assert sharp <= 1.5 and smeared >= 4.0, (sharp, smeared)


def _smeared_frames(rec: Recognizer, folder: str, smear, seeds: range) -> tuple[int, list]:
    """Cards named right, and the wrong ones (seed, card), in 12-card frames of ``folder``'s
    real cards smeared by ``smear``."""
    import frames

    crops = frames.card_crops(rec, realdata.photos(folder))
    right, wrong = 0, []
    for seed in seeds:
        image, truth = frames.table_frame(crops, 12, seed=seed)
        said = [r.card.code for r in rec.read(smear(image)) if r.card is not None]
        right += sum(c in truth for c in said)
        wrong += [(seed, c) for c in said if c not in truth]
    return right, wrong


def test_smeared_aces_need_their_one_pip(rec: Recognizer) -> None:
    """Phone cards moved 7 px on the diagonal: a smeared K or Q reads as an A in both index
    corners, and the picture in its middle allows an ace (KD named AD in 6 frames of 40, a
    TH named AH).  A smeared card named an ace needs the ace's one pip in its middle.
    Measured 6 of 480 read (a frame this smeared hardly shows an index), none wrong."""
    import numpy as np

    kernel = np.eye(7, dtype=np.float32) / 7
    right, wrong = _smeared_frames(rec, "phone-scenes",
                                   lambda img: cv2.filter2D(img, -1, kernel), range(40))
    assert wrong == [], wrong
    assert right >= 4, right


def test_smeared_pips_must_be_of_the_suit_named(rec: Recognizer) -> None:
    """Webcam cards out of focus (Gaussian blur of 2.5 px on cards some 150 px tall): hearts
    smear into diamonds' shape in both index corners (7H and 4H named 7D and 4D in 8 frames
    of 40).  The pips, larger than the index's suit, are read too: of a smeared card they
    must name the suit.  Measured 57 of 480 read; 1 wrong is left, a 7C named 7S where the
    pips' clubs smear into spades too (11 wrong before; 3 while a denoised re-read was
    tried as well)."""
    right, wrong = _smeared_frames(rec, "webcam-grey",
                                   lambda img: cv2.GaussianBlur(img, (0, 0), 2.5), range(40))
    assert [c for _, c in wrong if c[1] in "HD"] == [], wrong
    assert len(wrong) <= 3, wrong
    assert right >= 50, right


def _seen_steeply(crop, squash: float):
    """``crop`` (an upright card, 300 px at its longest) on a 640x480 table, seen at a slant
    along its length: its height shrunk to ``squash`` and its far edge to 85% of its width."""
    import numpy as np

    s = 300 / max(crop.shape[:2])
    crop = cv2.resize(crop, None, fx=s, fy=s)
    ch, cw = crop.shape[:2]
    table = np.full((480, 640, 3), (40, 90, 50), np.uint8)
    h = ch * squash
    x0, y0 = 320 - cw / 2, 240 - h / 2
    dst = np.float32([[x0 + 0.075 * cw, y0], [x0 + 0.925 * cw, y0], [x0 + cw, y0 + h],
                      [x0, y0 + h]])
    src = np.float32([[0, 0], [cw, 0], [cw, ch], [0, ch]])
    m = cv2.getPerspectiveTransform(src, dst)
    warped = cv2.warpPerspective(crop, m, (640, 480))
    mask = cv2.warpPerspective(np.full((ch, cw), 255, np.uint8), m, (640, 480))
    table[mask > 127] = warped[mask > 127]
    return table


@pytest.mark.parametrize(("folder", "floor"), [("webcam-grey", 60), ("phone-scenes", 35)])
def test_a_card_seen_steeply_along_its_length(rec: Recognizer, folder: str, floor: int) -> None:
    """Seen at 60 degrees along its length, a card looks wider than tall, and its outline
    alone gave the wrong way up: the corners read showed no glyph, and no card was named
    (0 and 9 of the webcam's 64 and the phone's 55 cards).  A card whose corners of that way
    show nothing is read the other way up too.  Measured 64 and 39, none wrong."""
    import frames

    right = 0
    for crop, code in frames.card_crops(rec, realdata.photos(folder)):
        said = [r.card.code for r in rec.read(_seen_steeply(crop, 0.5)) if r.card is not None]
        assert [c for c in said if c != code] == [], (code, said)
        right += code in said
    assert right >= floor, right


@pytest.mark.parametrize(("folder", "name", "change", "card"), [
    ("webcam-grey", "data1-train31.jpg", "dim x0.45", "9C"),
    ("webcam-grey", "data2-test9.jpg", "dim x0.45", "7S"),
    ("phone-scenes", "training-green_many.jpg", "400 px", "5C"),
])
def test_one_index_corner_and_the_middle_counted_name_a_card(
        rec: Recognizer, folder: str, name: str, change: str, card: str) -> None:
    """One index corner read, the opposite one showing none (too dim, too small): such a
    "lone" reading needs more confidence (a corner alone may be no card at all) -- or, now,
    a middle whose pips count the rank, in a card whose outline is not smeared (a blurred
    7 of clubs, its pips counted right, reads as a 7 of spades), which stands for the other
    corner.  These cards were found and not named."""
    img = cv2.imread(str(realdata.data_dir() / folder / name), cv2.IMREAD_COLOR)
    said = [r.card.code for r in rec.read(CHANGES[change](img)) if r.card is not None]
    assert card in said, said
    truth = next(cards for path, cards, _ in labelled(realdata.data_dir() / folder)
                 if path.name == name)
    assert score(said, truth, [])[1] == 0, (said, truth)


def test_cards_in_a_shadow_across_the_table(rec: Recognizer) -> None:
    """A hard shadow across half the table (a lamp's, a player's) darkens cards and table
    to 0.4: the shadowed cards' paper falls below Otsu's threshold, with the lit table.
    Lighter than the table round them, they are found by the "local" mask, made where the
    table is lit unevenly, and those lying across the shadow's edge (and courts deep in
    it, their paper broken by the picture) by the "shade" mask.  Measured 93 of 96; 81
    without the shade mask, 39 without both."""

    import frames

    crops = frames.card_crops(rec, realdata.photos("phone-scenes"))
    named = 0
    for seed in range(8):
        image, truth = frames.table_frame(crops, 12, seed=seed)
        dark = _half_in_shadow(image, seed)
        said = [r.card.code for r in rec.read(dark) if r.card is not None]
        assert [c for c in said if c not in truth] == [], (seed, said, truth)
        named += len(said)
    assert named >= 90, named


def _half_in_shadow(image: np.ndarray, seed: int) -> np.ndarray:
    """``image`` with a hard shadow across part of it, its edge a straight line at any
    angle through a point well inside the picture: the light beyond the edge 0.4 of that
    before it, the edge some 15 px soft."""
    import math

    rng = np.random.default_rng(500 + seed)
    h, w = image.shape[:2]
    ang = rng.uniform(0, math.pi)
    cx, cy = rng.uniform(300, 980), rng.uniform(200, 520)
    yy, xx = np.mgrid[0:h, 0:w]
    side = ((xx - cx) * math.cos(ang) + (yy - cy) * math.sin(ang)) > 0
    soft = cv2.GaussianBlur(side.astype(np.float32), (0, 0), 6)
    return np.asarray((image * (1 - 0.6 * soft[..., None])).clip(0, 255), np.uint8)


def _across_a_shadow(image: np.ndarray, seed: int, strength: float = 0.6) -> np.ndarray:
    """``image`` (a 1280x720 frame of three rows of cards) with the shadow of a straight
    edge falling across its middle row, nearly level: the light below it ``1 - strength``
    of that above, the edge some 10 px soft."""
    import math

    rng = np.random.default_rng(900 + seed)
    h, w = image.shape[:2]
    ang = rng.uniform(-0.3, 0.3)
    cy = h / 2 + rng.uniform(-25, 25)
    yy, xx = np.mgrid[0:h, 0:w]
    side = ((yy - cy) * math.cos(ang) - (xx - w / 2) * math.sin(ang)) > 0
    soft = cv2.GaussianBlur(side.astype(np.float32), (0, 0), 4)
    return np.asarray((image * (1 - strength * soft[..., None])).clip(0, 255), np.uint8)


def _read_across_a_shadow(rec: Recognizer, plain: Recognizer, folder: str
                          ) -> list[tuple[list[str], list[str], list[str]]]:
    """The 12-card frames of ``folder``'s deck (8 seeds) with a shadow's edge across the
    middle row (:func:`_across_a_shadow`): each frame's cards, those ``rec`` names (none
    wrong) and those ``plain`` names."""
    import frames

    crops = frames.card_crops(rec, realdata.photos(folder))
    out = []
    for seed in range(8):
        image, truth = frames.table_frame(crops, 12, seed=seed)
        dark = _across_a_shadow(image, seed)
        said = [r.card.code for r in rec.read(dark) if r.card is not None]
        assert [c for c in said if c not in truth] == [], (seed, said, truth)
        out.append((truth, said, [r.card.code for r in plain.read(dark) if r.card is not None]))
    return out


@pytest.mark.parametrize(("folder", "floor", "gain"), [
    ("phone-scenes", 86, 14), ("webcam-grey", 72, 30),
])
def test_a_card_across_a_shadows_edge_is_found_whole(
        rec: Recognizer, folder: str, floor: int, gain: int) -> None:
    """A card lying across a shadow's edge is paper at two levels: in Otsu's mask its lit
    part alone, in the "local" mask (lighter than the mean round it, which takes light
    from both sides of the edge) its shaded part or nothing.  The "shade" mask compares
    the picture with the table's own light, a grey opening of it that keeps the shadow's
    edge, and holds the card whole; made over the whole frame, it holds the cards deep in
    the shadow too, darker than the lit table.  12-card frames, the edge across the middle
    row (8 seeds, 96 cards): measured 89 (phone deck) and 77 (webcam deck, its paper
    greyer) named, 72 and 42 without the shade mask; none wrong."""
    import dataclasses

    plain = Recognizer(dataclasses.replace(
        rec.config, detect_masks=tuple(m for m in rec.config.detect_masks if m != "shade")))
    read = _read_across_a_shadow(rec, plain, folder)
    named = sum(len(said) for _, said, _ in read)
    before = sum(len(was) for _, _, was in read)
    assert named >= floor and named >= before + gain, (named, before)


def test_a_card_in_the_shade_of_a_lit_table_is_read_brightened(rec: Recognizer) -> None:
    """A dim picture's cards are read brightened (dim_paper); in a picture whose cards are
    mostly lit, a card deep in a shadow has paper as dim, and is read brightened too where
    it is not named as taken (dim_each).  The webcam deck's greyer paper, the row of cards
    below a shadow's edge leaving 0.4 of the light (8 frames, 32 cards): measured 28 named,
    24 without; none wrong."""
    import dataclasses

    plain = Recognizer(dataclasses.replace(rec.config, dim_each=False))
    read = _read_across_a_shadow(rec, plain, "webcam-grey")
    # (the row in the shadow: the last four cards laid)
    named = sum(c in said for truth, said, _ in read for c in truth[8:])
    before = sum(c in was for truth, _, was in read for c in truth[8:])
    assert named >= 26 and named >= before + 3, (named, before)


def test_a_shade_quad_yields_to_a_card_found_nearly_its_size(rec: Recognizer) -> None:
    """The "shade" mask's region may take in some of the table beside a card (a darker
    patch of it makes the paper's neighbour look lighter than the table; a shadow's edge
    beside the card); its quad, a little bigger than the card, was picked over the card's
    own and read as no card.  Where another mask finds a quad of nearly its size over it
    (``shade_yield``), that one is the card.  A frame half in shadow (seed 3 of
    test_cards_in_a_shadow_across_the_table): its 5S, across the shadow's edge, named with
    the rule and not without it, the other cards named alike.  (In phone photos, a JC
    tilted 30 degrees and a 7C in cool light needed it before the mask was closed.)"""
    import dataclasses

    import frames

    crops = frames.card_crops(rec, realdata.photos("phone-scenes"))
    image, truth = frames.table_frame(crops, 12, seed=3)
    dark = _half_in_shadow(image, 3)
    said = {r.card.code for r in rec.read(dark) if r.card is not None}
    free = Recognizer(dataclasses.replace(rec.config, shade_yield=float("inf")))
    unruled = {r.card.code for r in free.read(dark) if r.card is not None}
    assert said <= set(truth) and "5S" in said
    assert said - unruled == {"5S"} and unruled <= said


def test_a_blurred_suit_run_into_the_pip_beside_it_is_cut_apart(rec: Recognizer) -> None:
    """12-card frames of the phone deck out of focus (1.5 px): its big pips stand close
    beside the index, and blurred, the suit glyph runs into the pip, one piece running off
    the corner's right edge, so no suit was cut and the card was not named (a 6, 4 or 8 of
    clubs or spades, a J of clubs).  That piece is now taken again at a darker threshold,
    the rank as found (merged_ink_darker), or, where that fails, cut down at its thinnest
    column (beside_cols): measured 77 of 96 named, 47 with neither (74 without the first,
    the second taking up most of it); none wrong."""
    import dataclasses

    plain = Recognizer(dataclasses.replace(rec.config, merged_ink_darker=0.0, beside_cols=0))
    named, before = _named_blurred(rec, plain, ("phone-scenes",), 8, (_gauss(1.5),))
    assert named >= 70 and named >= before + 25, (named, before)


def _suit_shape(kind: str) -> np.ndarray:
    """A black suit glyph's mask, 30 px tall: a spade (a point widening to two lobes, a
    stalk) or a club (three round lobes, a stalk)."""
    m = np.zeros((30, 26), np.uint8)
    if kind == "S":
        cv2.fillPoly(m, [np.array([[13, 0], [26, 14], [0, 14]], np.int32)], 255)
        cv2.circle(m, (7, 16), 6, 255, -1)
        cv2.circle(m, (19, 16), 6, 255, -1)
    else:
        cv2.circle(m, (13, 6), 6, 255, -1)
        cv2.circle(m, (6, 16), 6, 255, -1)
        cv2.circle(m, (20, 16), 6, 255, -1)
    cv2.fillPoly(m, [np.array([[13, 16], [18, 29], [8, 29]], np.int32)], 255)
    return m


@pytest.mark.parametrize(("kind", "favoured"), [("S", "S"), ("C", "C")])
def test_a_spade_widens_from_its_point_and_a_clubs_top_lobe_does_not(
    rec: Recognizer, kind: str, favoured: str
) -> None:
    """The club-or-spade evidence of a suit glyph's shape besides its waist: how much wider
    it is at 30% of its height than at 10% (a spade's point widening to its lobes; a club's
    round top lobe as wide there as at its waist).  Scores tied between club and spade are
    moved towards the shape's suit, and by nothing with the cue off."""
    import dataclasses

    from vision.glyphs import SUIT_CLASSES
    from vision.pipeline import adjust_suit_scores

    mask = _suit_shape(kind)
    club, spade = SUIT_CLASSES.index("C"), SUIT_CLASSES.index("S")
    # (the waist's evidence off: club_notch out of reach, no shallow waist, no_notch below
    # any dent)
    widening = dataclasses.replace(rec.config, club_notch=9.0, club_shallow_notch=None,
                                   no_notch=-1.0)
    scores = np.full(len(SUIT_CLASSES), 0.9, np.float32)
    adjust_suit_scores(scores, mask, None, widening)
    assert (scores[spade] > scores[club]) == (favoured == "S"), scores
    off = np.full(len(SUIT_CLASSES), 0.9, np.float32)
    adjust_suit_scores(off, mask, None, dataclasses.replace(widening, spade_widening=0.0))
    assert off[spade] == off[club]


def test_blurred_clubs_and_spades_are_told_apart_by_how_they_widen(rec: Recognizer) -> None:
    """12-card frames of real crops out of focus (1.5 px): a small club or spade in the
    index corner, blurred, scores about the same as either, and the card was not named; how
    the glyph widens below its top (spade_widening, club_widening) now parts them: measured
    89 and 99 of 120 named, 86 and 94 without it; none wrong (drawn frames, whose small
    index suits tie most often: 698 of 720 against 693)."""
    import dataclasses

    plain = Recognizer(dataclasses.replace(rec.config, spade_widening=0.0))
    named, before = _named_blurred(rec, plain, ("phone-scenes", "webcam-grey"), 10,
                                   (_gauss(1.5),))
    assert named >= 180 and named >= before + 4, (named, before)


def test_a_blurred_courts_picture_that_falls_apart_is_a_picture_by_its_yellow(
    rec: Recognizer,
) -> None:
    """Out of focus, a court's picture falls apart in the middle's ink (its lighter parts
    above the threshold, its frame cut away as lines) into pieces neither a picture nor
    pips, so a smeared court, which its middle must bear out, was not named.  Its yellow
    still shows (picture_yellow); no number card's middle does: every court of the phone
    deck blurred 2.2 px reads as a picture, no number card does (with the rule off, three
    courts read as no picture)."""
    import dataclasses

    import frames

    from vision.pipeline import analyse_centre

    off = dataclasses.replace(rec.config, picture_yellow=9.0)
    W, H = rec.config.centre_size
    crops = frames.card_crops(rec, realdata.photos("phone-scenes"))
    courts = without = 0
    for crop, code in crops:
        middle = cv2.GaussianBlur(cv2.resize(crop, (W, H), interpolation=cv2.INTER_AREA),
                                  (0, 0), 2.2)
        kind = analyse_centre(middle, rec.config, rec.reader, False).kind
        if code[0] in "JQK":
            assert kind == "picture", code
            courts += 1
            without += analyse_centre(middle, off, rec.reader, False).kind != "picture"
        else:
            assert kind != "picture", code
    assert courts >= 10 and without >= 2, (courts, without)


def test_blurred_courts_are_named_by_their_pictures_yellow(rec: Recognizer) -> None:
    """12-card frames of the phone deck out of focus (1.5 px) or moved (5 px sideways):
    measured 186 and 170 of 240 named, 178 and 166 without picture_yellow; none wrong.
    (Read again sharpened where set aside -- ``retry_smeared_height``, off here -- many of
    those courts are named anyway: 383 in all, 376 without picture_yellow.)"""
    import dataclasses

    once = dataclasses.replace(rec.config, retry_smeared_height=None)
    plain = Recognizer(dataclasses.replace(once, picture_yellow=9.0))
    named, before = _named_blurred(Recognizer(once), plain, ("phone-scenes",), 20,
                                   (_gauss(1.5), _moved(5)))
    assert named >= 340 and named >= before + 8, (named, before)


@pytest.mark.parametrize(("folder", "degrees", "floor"), [
    ("webcam-grey", 30, 63), ("webcam-grey", 45, 60),
    ("phone-scenes", 30, 82), ("phone-scenes", 45, 80),
])
def test_the_table_seen_by_a_tilted_camera(
        rec: Recognizer, folder: str, degrees: int, floor: int) -> None:
    """The real photos as a camera tilted 30 and 45 degrees from looking straight down
    would see them (the far side shrunk, the picture foreshortened: ``tilted`` in
    bench/vision_robustness.py).  Measured 64 and 62 of 64, 84 and 82 of 85 (80 at 45 degrees
    before the "shade" mask, 77 before oversized_guess), none wrong."""
    data = realdata.data_dir()
    assert data is not None
    right = 0
    for path, cards, partial in labelled(data / folder):
        img = cv2.imread(str(path), cv2.IMREAD_COLOR)
        said = [r.card.code for r in rec.read(CHANGES[f"tilted {degrees}"](img))
                if r.card is not None]
        got = score(said, cards, partial)
        assert got[1] == 0, (path.name, said, cards)
        right += got[0]
    assert right >= floor, right


def _near_and_far(crops, seed: int) -> tuple[np.ndarray, list[str], str]:
    """A 1280x720 frame of four real cards far from the camera (some 100 x 140 px) and one
    much nearer it, 2.2 times as long (4.8 times the area): a picture taken at a slant.
    The frame, the far cards and the near card."""
    import frames

    rng = np.random.default_rng(seed)
    frame = np.zeros((720, 1280, 3), np.uint8)
    frame[:] = (40, 90, 50)
    picked = rng.permutation(len(crops))[:5]
    for k, i in enumerate(picked[:4]):
        frames.lay(frame, crops[i][0], 170 + 250 * k, 130, rng.uniform(0, 6.28), 0.8)
    near = crops[picked[4]]
    frames.lay(frame, near[0], 640, 470, rng.uniform(-0.4, 0.4), 1.75)
    return frame, [crops[i][1] for i in picked[:4]], near[1]


def test_a_card_much_nearer_the_camera_than_the_others_is_read(rec: Recognizer) -> None:
    """A quad more than table_area x the median of the others is taken for the outline of a
    sheet or of the table's lighter part; but in a picture taken at a slant the near cards
    are that much bigger than the far ones (a phone photo tilted 45 degrees lost its
    nearest card so). Such a quad holding none of the cards found is a guess, reported
    where it names a card (oversized_guess): the near card named in 12 of 12 frames, 0
    without; none wrong."""
    import dataclasses

    import frames

    crops = frames.card_crops(rec, realdata.photos("phone-scenes"))
    plain = Recognizer(dataclasses.replace(rec.config, oversized_guess=False))
    named = named_before = 0
    for seed in range(12):
        frame, far, near = _near_and_far(crops, seed)
        said = [r.card.code for r in rec.read(frame) if r.card is not None]
        assert set(said) <= {*far, near}, (seed, said, far, near)
        named += near in said
        named_before += near in [r.card.code for r in plain.read(frame) if r.card is not None]
    assert named >= 11, named
    assert named_before <= 1, named_before


def test_a_small_card_at_a_slant_its_index_at_the_corner_is_found(rec: Recognizer) -> None:
    """The webcam's large-index deck seen by a camera tilted 45 degrees: each card some
    130 px tall, its far side short, and the index so close to the corner that it breaks
    the ring of paper round the printed frame in the middle (Otsu's mask). The polygon of
    that ring cut the rounded corners off by more than they are, its sides lay off the
    outline, and the card was refused: only its printed frame was found (40 of 64 named).
    Such a ring is now fitted again with lines along its sides (``refit_share``), taken
    where no other mask finds the card (62 of 64)."""
    import dataclasses

    data = realdata.data_dir()
    assert data is not None
    before = Recognizer(dataclasses.replace(rec.config, refit_share=1.0))
    named = named_before = 0
    for path, cards, _ in labelled(data / "webcam-grey"):
        img = CHANGES["tilted 45"](cv2.imread(str(path), cv2.IMREAD_COLOR))
        named += sum(1 for r in rec.read(img) if r.card is not None and r.card.code in cards)
        named_before += sum(1 for r in before.read(img) if r.card is not None)
    assert named >= 60, named
    assert named_before <= 45, named_before


def _dim_room(image: np.ndarray, light: float, noise: float, seed: int) -> np.ndarray:
    """``image`` as a camera in a dim room would take it: warm light (blue x0.55, green
    x0.8), ``light`` of the exposure, and sensor noise of ``noise`` grey levels."""
    from vision_robustness import cast

    dim = cast(image, 0.55, 0.8, 1.05).astype(np.float32) * light
    dim += np.random.default_rng(seed).normal(0.0, noise, dim.shape).astype(np.float32)
    return np.clip(dim, 0, 255).astype(np.uint8)


def test_a_dim_pictures_cards_are_read_brightened(rec: Recognizer) -> None:
    """A dim room, a camera's exposure set by a lamp in view: the cards' paper at 40 to 55
    grey levels.  They were found but not read (glyphs are cut only where the paper stands
    at 60 and more): 0 of 64 and 0 of 85 at a fifth of the light.  Where the cards' paper
    is darker than dim_paper, they are read from the picture brightened to dim_target --
    unless it is too noisy for that (dim_snr): brightened, a 9's pips and noise ran into a
    picture and its index read as a Q.  Measured 53 of 64 and 83 of 85 at 0.3 of the light
    with noise 6, and no card at all, none wrong, at noise 10."""
    import dataclasses

    data = realdata.data_dir()
    assert data is not None
    unbright = Recognizer(dataclasses.replace(rec.config, dim_paper=0.0))
    noisy = Recognizer(dataclasses.replace(rec.config, dim_snr=0.0))
    for folder, floor in (("webcam-grey", 50), ("phone-scenes", 80)):
        right = before = 0
        for i, (path, cards, partial) in enumerate(labelled(data / folder)):
            img = cv2.imread(str(path), cv2.IMREAD_COLOR)
            dim = _dim_room(img, 0.3, 6.0, i)
            said = [r.card.code for r in rec.read(dim) if r.card is not None]
            got = score(said, cards, partial)
            assert got[1] == 0, (path.name, said, cards)
            right += got[0]
            before += sum(1 for r in unbright.read(dim) if r.card is not None)
        assert right >= floor, (folder, right)
        assert before <= 2, (folder, before)
    wrong_if_brightened = 0
    for i, (path, cards, partial) in enumerate(labelled(data / "webcam-grey")):
        img = cv2.imread(str(path), cv2.IMREAD_COLOR)
        dark = _dim_room(img, 0.3, 10.0, i)
        said = [r.card.code for r in rec.read(dark) if r.card is not None]
        assert score(said, cards, partial)[1] == 0, (path.name, said, cards)
        said = [r.card.code for r in noisy.read(dark) if r.card is not None]
        wrong_if_brightened += score(said, cards, partial)[1]
    assert wrong_if_brightened > 0
