"""The card recognizer: frame -> card quadrilaterals -> rank and suit (or "don't know").

    >>> rec = Recognizer()
    >>> for reading in rec.read(frame):           # BGR or grey uint8, any size
    ...     print(reading.card, reading.confidence, reading.corners)

Steps:

1. :func:`vision.detect.detect` finds bright, card-shaped quadrilaterals (several masks:
   Otsu, unsaturated paper, regions closed by faint edges; touching cards are cut apart
   along edges).
2. Each card's corners are tried as its top-left (the two ways up when the card's shape
   does not tell; each way has two index corners, top-left and bottom-right).  Each corner
   is warped to an upright patch; the rank and the suit glyph under it are cut out as
   connected components (long printed lines removed) and compared, as HOG + coarse-pixel
   features, with the built-in exemplars (rendered from fonts by
   ``vision.build_glyph_model``) and with a taught :class:`DeckProfile`.  Suits also get
   colour (red/black ink relative to the paper), a club's waist and a heart's lobes as
   evidence.
3. The two index corners vote together; the middle of the card is looked at too: the
   number of pips must match the rank (a picture for J Q K), and the upright pips' shape
   adds suit evidence.
4. The card is named only when rank and suit each clearly beat the runner-up
   (``RecognizerConfig.abstain_margin``), both corners agree, the centre does not
   contradict, and the rank does not look as much like a lone "0" or "1" (a cut "10").
   Otherwise ``CardReading.card`` is None: a wrong card is far worse than no card.
"""

from __future__ import annotations

import functools
import math
from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.cards import Card, Suit
from vision.detect import (
    NEXT_CORNER,
    corner_quads,
    detect,
    detect_quads,
    median,
    noise_sigma,
    order_clockwise,
    outward_normals,
    quad_area,
    quad_sides,
    to_bgr,
    turn_quad,
)
from vision.glyphs import (
    RANK_CLASSES,
    RANK_MODEL_CLASSES,
    RED_SUITS,
    SUIT_CLASSES,
    Exemplars,
    builtin_model,
    glyph_features,
    side_notches,
    top_width,
)
from vision.native import kernels
from vision.neighbours import card_round_print, keep_read_guesses, snap_sides
from vision.timing import Stages

# the C kernels, with the compiled modules (see vision.native): _percentile, _paper_colour,
# _components and _long_lines hand them their loops
_KERNELS = kernels()

__all__ = [
    "CardQuad",
    "CardReading",
    "DeckProfile",
    "Recognizer",
    "RecognizerConfig",
    "rectify",
]


@dataclass(frozen=True)
class RecognizerConfig:
    """Every threshold and tunable of the recognizer."""

    # canonical upright card crop (width, height) in pixels; 63 x 88 mm
    crop_size: tuple[int, int] = (250, 350)
    # a suit glyph at most this much wider than tall (a flatter one is a piece of a glyph)
    suit_max_aspect: float = 1.7
    # a suit glyph is at least this tall (of its rank glyph's height; 0.57 and more in the
    # photos): a shorter one is a piece of it, the rest joined to a frame line or a pip
    suit_min_height: float = 0.42
    # corner index search window, as fractions of the crop (width, height)
    index_window: tuple[float, float] = (0.30, 0.44)
    # a "10" can be wider than the window (a jumbo index's nearly a quarter of the card's
    # width, set in from its edge): where a glyph level with a rank glyph and just right of
    # it runs off the window's right edge, that corner is warped again this wide (of the
    # crop's width), and what it shows counts only as a ten whose "0" is that glyph
    index_window_wide: float = 0.40
    # where no glyphs are cut at the ink threshold and the ink is red, and covers less than
    # faint_ink_share of the patch, a card's corner is cut again at a threshold halfway to
    # the paper (faint pink strokes)
    faint_ink: bool = True
    faint_ink_share: float = 0.2
    # where still no glyphs are cut, ink that starts in the index's column and runs off
    # the corner's right edge (a blurred suit glyph run into the big pip beside it) is cut
    # again at this share of the way from the ink threshold to its darkest levels (0: not;
    # the first of 0.25, 0.5, 0.75 at which it falls apart named 8 blurred cards more of
    # 3,000 and 2 wrong)
    merged_ink_darker: float = 0.5
    # where no glyphs are cut at the ink threshold, a piece of ink in the index's column
    # taller than a rank glyph may be (rank_height) and at most stacked_height of the card
    # -- a rank and the suit under it run together by a blur -- is cut across at the
    # stacked_rows rows of least ink (the most of the threshold less the level, summed
    # along each row) between stacked_band of its height, each cut read as a corner's
    # glyphs (0 rows: not)
    stacked_rows: int = 2
    stacked_height: float = 0.42
    stacked_band: tuple[float, float] = (0.5, 0.72)
    # ... and a cut-out so cut counts only where its rank's and suit's best similarities
    # add up to this (of such corners in blurred 12-card frames of the webcam and phone
    # decks, none below 1.4 read right, 22 of 53 from 1.4 to 1.5, 9 in 10 from 1.6)
    stacked_quality: float = 1.5
    # ... and a spade so read is named only where its corners prefer it to a club by
    # stacked_spade_margin (blurred that much, a club's pips look like spades too)
    stacked_spade_margin: float = 0.09
    # ... and a heart or diamond so read with no pips to read, by stacked_red_margin
    stacked_red_margin: float = 0.1
    # where still no glyphs are cut (after the fallbacks below), a piece of ink from the
    # index's column wider than beside_width times its height or running off the corner's
    # right edge, at most beside_height of a rank glyph's greatest height tall -- a suit run
    # into the big pip beside it by a blur -- is cut down at the beside_cols columns of
    # least ink between beside_band of its width, each cut read (and held to the rules of
    # a rank run into its suit, above)
    beside_cols: int = 2
    beside_width: float = 1.3
    beside_height: float = 1.6
    beside_band: tuple[float, float] = (0.2, 0.7)
    # ... only below a glyph that may be a rank, starting beside_below of its height lower
    beside_below: float = 0.25
    # a rank glyph's height as a fraction of the card height
    rank_height: tuple[float, float] = (0.035, 0.20)
    # the rank glyph must start within this fraction of the crop from the corner (x, y)
    rank_start: tuple[float, float] = (0.20, 0.26)
    # ink level with a rank glyph and close beside it is part of it (the "0" of a "10", a
    # piece broken off) where its height is between these times the glyph's ...
    rank_row_height: tuple[float, float] = (0.55, 1.6)
    # ... and, where it starts more than rank_row_drop of the glyph's height below the
    # glyph's top, at most rank_row_low times it: lower and that tall, it is a pip printed
    # beside the index (a big pip beside a covered 10's or 5's index joined the rank and
    # left no suit under it: of the 1,000 cards of 200 fanned phone-deck hands, 652 named;
    # 678 so, none wrong either way), where a taller stroke of a broken glyph starts at its
    # top (a blurred 4's stem)
    rank_row_drop: float = 0.25
    rank_row_low: float = 1.2
    # ink: darker than paper_level * ink_ratio, and at least ink_min_contrast darker
    ink_ratio: float = 0.68
    ink_min_contrast: float = 28.0
    paper_percentile: float = 80.0
    line_length: float = 0.22  # straight ink runs longer than this (of card height) are lines
    # detection
    detect_max_side: int = 800
    detect_min_side: int = 450
    min_card_area: float = 0.004  # of the (scaled) frame
    max_card_area: float = 0.9
    min_solidity: float = 0.88
    min_ring_solidity: float = 0.3  # a less solid blob must outline its whole hull
    min_rectangularity: float = 0.85
    max_side_ratio: float = 2.2
    # a quad that fails the checks above, its polygon cutting off at least refit_cut of
    # its convex hull's area, is tried again with lines fitted to its sides, taken where
    # refit_share of its outline runs along the region's (1.0: never)
    refit_cut: float = 1.05
    refit_share: float = 0.9
    # a region of Otsu's mask that is no quad is opened by a disk of despur_radius times
    # its deepest inside distance (half a card's short side, for a card): a card touching
    # a thin bright strip (a table's edge, a ruler, a cable, a sheet's rim) is one region
    # with it; opened, the strip is gone and the card is taken where one quad is left
    # and each strip taken off meets it along at most despur_contact of its short side
    # (a fanned card's strip beside the card over it runs along a whole side; 0: never)
    despur_radius: float = 0.3
    despur_contact: float = 0.5
    # ... and taken where its area is within these shares of the cards' lying apart, where
    # no long strip runs on along one of its sides, despur_on of the region's outline runs
    # along its sides and at most despur_ring of a ring round it is paper (a noisy table's
    # speckle; see _despurred)
    despur_size: tuple[float, float] = (0.5, 2.0)
    despur_on: float = 0.5
    despur_ring: float = 0.2
    despur_along: float = 0.3
    despur_turn: float = 12.0
    # a card's outline is also fitted from the four longest sides of its convex hull,
    # simplified to this share of its perimeter, when that gives back a corner cut off
    side_fit_eps: float = 0.006
    min_aspect: float = 0.35
    max_overlap: float = 0.5
    max_card_saturation: int = 70
    canny_low: int = 40
    canny_high: int = 120
    canny_faint: tuple[int, int] = (10, 30)  # for cards barely brighter than the table
    # ... looked for, in a picture whose noise (grey levels, at detection scale) is at least
    # detect_noise, after a Gaussian blur of detect_noise_blur x the noise (sigma, px): the
    # faint thresholds stand noise of 4 levels (a white card on a light grey table, found
    # by its faint edges, is lost when such a picture is smoothed), not of 8 (a webcam's
    # sensor noise of 12 levels per channel: edges everywhere)
    detect_noise: float = 6.0
    detect_noise_blur: float = 0.2
    # masks searched besides Otsu cut along edges: "otsu", "paper" (light and unsaturated,
    # cut along edges), "pale" (the same opened wider, not cut), "faint", "closed" (Otsu's
    # with its specks closed), "hull" (edge outlines filled), "local" (lighter than round
    # it), "shade" (lighter than the table's own light there, a shadow's edge kept: see
    # shade_box), "otsu2"
    detect_masks: tuple[str, ...] = ("otsu", "paper", "pale", "faint", "closed", "hull", "local",
                                     "shade")
    # a picture whose cards' paper is darker than dim_paper grey levels (a dim room, a
    # camera's exposure set by a lamp in view) is read brightened so that it stands at
    # dim_target: the cards are found in it as taken, but their glyphs were cut only
    # where the paper stood at 60 and more (0: never brightened) -- unless its noise is
    # more than 1 / dim_snr of the paper's level: so noisy, brightened, a 9's pips ran into
    # a picture and its index read as a Q
    dim_paper: float = 110.0
    dim_target: float = 200.0
    dim_snr: float = 8.0
    # ... and where the cards' paper as a whole is not so dark, each card not named whose
    # own paper is (a card in a shadow on a table lit elsewhere) is read again brightened
    # so, and taken where then named
    dim_each: bool = True
    # "local": lighter than the mean in a box round it (a quarter of the picture's short
    # side) by local_ratio x and local_offset grey levels -- a card in a shadow that
    # darkens the table round it too, below Otsu's threshold; made only where the table is
    # lit unevenly (its lighter tenth more than shade_ratio x as light as its darker tenth)
    local_ratio: float = 1.4
    local_offset: float = 8.0
    shade_ratio: float = 1.6
    # "shade": lighter, by local_ratio and local_offset too, than the table's own light,
    # the picture with every bright thing narrower than a square opened away, the square
    # shade_box x its short side and shade_card x the short side of the cards found lying
    # apart where that is more, up to shade_most x its short side (a card lying across a
    # shadow's edge, lit on one side and shaded on the other, is one region in it; in the
    # "local" mask, the mean round it taking light from both sides of the edge, it was two
    # or none; a card deep in the shadow, darker than the lit table, is paper in no other
    # mask); made, as that one, only where the table is lit unevenly, over the whole
    # frame; its gaps closed by a disk of shade_close px (a band along the shadow's edge
    # across a card, where the table's light, enlarged from an eighth of the size, steps
    # down a little late), its specks opened away by one of shade_open px
    shade_box: float = 0.15
    shade_card: float = 1.3
    shade_most: float = 0.25
    shade_close: int = 5
    shade_open: int = 3
    # ... and a quad of it is taken only where the mask holds shade_fill of it and more:
    # paper, its pips and index holes in it, not a ring of light lines round a darker
    # middle (a zone printed on a board, its frame a line lighter than the board)
    shade_fill: float = 0.35
    # ... and yields to a quad of another mask over it of shade_yield x its area and more:
    # that is the card, and its region took in some table beside it (a darker patch of
    # table beside the card makes the table next to it look lighter than the table)
    shade_yield: float = 0.75
    # a "hull", "closed" or "pale" quad is taken only where no other mask found a quad, or
    # only one between hull_frame and hull_yield x its area (a frame printed on the card)
    hull_yield: float = 0.35
    hull_frame: float = 0.12
    hull_side_ratio: float = 1.6  # ... and only when its opposite sides are this alike
    hull_gap: int = 7  # px (at detection scale) a card's outline may break and stay one
    # a "hull" or "closed" quad kept has each side moved onto the strongest edge (of
    # neighbour_contrast) within this share of its short side (0: not moved)
    hull_snap: float = 0.05
    # the masks besides Otsu are skipped when the cards found in it cover every bright
    # region but detect_left_over x the smallest card area
    detect_skip_clear: bool = True
    detect_left_over: float = 0.25
    # ... and where those cards, three or more of a size (single_min_cards, single_area),
    # cover every region of Otsu's mask on an evenly lit table, a region only a little
    # darker than Otsu's threshold that reaches the frame's edge and is larger than
    # detect_table_band x the median card is the table (its lighter part, in a light
    # gradient): not looked in (0: always looked in); only where each side of each card
    # found steps down by detect_band_step grey levels from paper to table (a card cut
    # short by the threshold, the rest of it in that region, does not along the cut)
    detect_table_band: float = 3.0
    detect_band_step: float = 20.0
    # ... and in a box left over where the cards found in Otsu's mask are three or more of
    # a size, the "closed" mask is made first: where it gives one quad of their size,
    # clear of them, and they and it leave no paper in the box (a card whose picture cut
    # its paper in two in Otsu's mask, the pieces joined), the other masks are not made
    # there (False: all are, always)
    detect_join_first: bool = True
    # the Otsu mask cut along edges is not searched inside plain Otsu regions that are one
    # card each (of single_area of the median, with single_min_cards of them), nor is any
    # outline of the other masks inside such a region's box made a card
    detect_skip_single: bool = True
    # a quad more than this x the median area of the quads kept (three or more) is the
    # outline of a sheet or of a lighter part of the table, not a card
    table_area: float = 3.5
    # ... unless it holds none of the cards kept: then it may be a card much nearer the
    # camera than they are, and is a guess (reported only where it names a card)
    oversized_guess: bool = True
    # a bright region of Otsu's mask that no card explains is read as a hand of overlapping
    # cards, but not where it reaches two sides of the picture and is larger than this x
    # the median card named (three or more named): the table's lighter part
    blob_table_area: float = 6.0
    # cards edge to edge (vision.neighbours): beside each found card that is no region of
    # its own, the same card across each side is proposed where its border is paper
    # (neighbour_paper of the points neighbour_inset of a card's short side inside it are
    # brighter than neighbour_paper_level x the median of the same points of the card) that
    # found cards cover at most neighbour_max_overlap of; its sides move onto an edge
    # (neighbour_contrast grey levels) within neighbour_reach; it may reach
    # neighbour_outside beyond the frame.  A proposed quad is reported only when read.
    detect_neighbours: bool = True
    neighbour_min_cards: int = 1
    neighbour_rounds: int = 2  # the quads proposed are models for the next round
    neighbour_paper: float = 0.75
    neighbour_paper_level: float = 0.85
    neighbour_inset: float = 0.05
    neighbour_max_overlap: float = 0.15
    neighbour_reach: float = 0.05
    neighbour_contrast: float = 4.0
    neighbour_outside: float = 0.05
    neighbour_max: int = 64
    neighbour_ink: float = 0.01  # of a grid of points over its face: darker than ink_ratio
    # classification
    aspect_weight: float = 0.25
    profile_bonus: float = 0.04
    red_threshold: float = 0.16  # redness (normalised by paper colour) above = red ink
    black_threshold: float = 0.07  # below = black ink; between = undecided
    colour_penalty: float = 0.25  # subtracted from suits of the other colour
    # a club's waist: side dent deeper than club_notch (of the width) -> club; shallower
    # than no_notch -> not a club (only for suit glyphs at least notch_min_height px tall)
    club_notch: float = 0.1
    no_notch: float = 0.05
    club_notch_max: float = 0.3  # deeper dents are a spade's stalk under its lobes
    # ... and a club's waist dents both sides: the shallower at least this deep (a jack of
    # spades' index glyph run into the dotted frame of its picture beside it dented its
    # right side 0.13, its left 0.03, and read as a club; of 1,238 club and spade glyphs
    # of the photos and drawn decks, every dent of 0.1 or more on one side with less than
    # this on the other, 7 spades' and 21 clubs')
    club_notch_other: float = 0.05
    # a shallower waist that dents both sides, each at least club_shallow_notch (and
    # neither as deep as club_notch): a club's too, less surely -- every other suit takes
    # notch_penalty * shallow_notch_share off (drawn clubs, their lobes set close, dent
    # 0.06 to 0.09 each side and read as near ties with a spade; of 18,078 club and spade
    # index glyphs of frames of real and drawn decks, blurred, moved, halved and tilted,
    # 1,663 dent so: 4 spades'); None: no such evidence
    club_shallow_notch: float | None = 0.06
    shallow_notch_share: float = 0.5
    notch_penalty: float = 0.12
    notch_min_height: int = 12
    # a black suit glyph's width at 30% of its height less its width at 10% (of its
    # width): at least spade_widening -> not a club; at most club_widening -> not a spade
    # (0.33 named a blurred drawn 6C, its lobes run together, a 6S; not weighed on a
    # covered corner, read with whole_rank: a surer suit alone named a K whose stem the
    # card over it hid a 7S)
    spade_widening: float = 0.36
    club_widening: float = 0.12
    widening_penalty: float = 0.06
    # width of a suit glyph 12% below its top: heart's lobes at least heart_top, a
    # diamond's point at most diamond_top
    heart_top: float = 0.68
    diamond_top: float = 0.45
    # deciding
    min_rank_similarity: float = 0.62
    # the named suit's glyph is at least this like a suit (0.86 and more in the photos; a
    # letter under a J on a printed page, 0.69)
    min_suit_similarity: float = 0.72
    abstain_margin: float = 0.035
    piece_margin: float = 0.0  # abstain when a lone "0"/"1" scores within this of the rank
    min_confidence: float = 0.5  # a card is named only at or above this confidence
    # club or spade is named, the other the runner-up, only when every index corner's suit
    # glyph by itself (before the waist check, which a spade's stalk can fool) prefers the
    # suit named by at least this much: the glyph and the shape evidence must agree.  A
    # little below 0 lets a small index through whose glyph is a near tie but whose shape
    # is clear (the spade's stalk taken for a club's waist left the glyph 0.04 and more
    # the other way)
    club_spade_margin: float = -0.025
    # index corners that disagree on the suit are overruled by the centre's pips when their
    # shapes name the suit by this margin (on the rank, when the pips counted are its)
    centre_settles_suit: float = 0.03
    # index corners that agree on a rank only just ahead of the one the middle's pips count
    # (each corner's first over it by at most this; both corners read, the counted rank
    # second in each) are settled by the count, the corners' near-tie no rival: a 9H whose
    # corners both read a Q by 0.003 and 0.01, its nine pips counted (0: not so settled;
    # 0.12 named an 8S that was not there in 12-card frames tilted and blurred)
    count_settles_tie: float = 0.05
    # a club or spade named where the middle's pips (two or more; an ace's one big pip
    # is no index glyph's shape: drawn spade aces' scored the club a little higher),
    # their shapes read, score the other black suit higher (by more than this) is not
    # named: the pips are bigger than the index's suit glyph, which on a small card (some
    # 110 px tall: the glyph 5 px across) makes a club's lobes look like a spade's point
    # (None: not checked)
    centre_black_veto: float | None = 0.0
    # ... and a heart or diamond where they score the other red suit higher (by more than
    # this): a blurred 9D, the middle's pips leaning to the heart, was named from its
    # corners and then dropped by the smeared-card check (its pips must be of the suit
    # named), never read again sharpened; not named at first, it is (webcam deck blurred
    # 2.2 px, 60 12-card frames: 377 -> 427 named, all diamonds, none wrong).  None: not
    # checked
    centre_red_veto: float | None = 0.0
    single_corner_factor: float = 1.6  # a card read from one corner only needs this x margin
    # the middle of the card: pip count and pip shape as a cross-check
    use_centre: bool = True
    centre_size: tuple[int, int] = (125, 175)
    # one blob alone in the middle (but for the indices), larger than a pip may be but at
    # most this tall (of the crop's height), about as wide as tall and centred, of no
    # court's colours, is an ace's pip (0: not looked for)
    ace_pip_height: float = 0.45
    line_thickness: float = 0.02  # ink thinner than this (of the crop's height) on average
    index_zone: tuple[float, float] = (0.24, 0.5)  # corner boxes holding the indices (x, y)
    # ink in an index zone larger than the index read (by this factor, each way) is no index
    index_slack: float = 1.3
    pip_height: tuple[float, float] = (0.05, 0.22)
    # ink along a side of the crop, in this share of its width (or height) next to it and
    # long along it, is the paper's shade, not print (a card photographed under a lamp,
    # its paper darker towards its edges): neither a pip nor anything that stops the pips
    # being counted
    centre_shade_band: float = 0.2
    picture_density: float = 0.3  # ink share of a big central blob that makes a picture
    # in a colour picture, a court's picture shows colours besides red (yellow, blue: at
    # least 0.12 of its box on the decks photographed), the blob of a small or blurred
    # card's pips run together only its ink's: a share of such colour below this is no
    # picture
    picture_colour: float = 0.03
    # a middle whose ink falls apart into no picture and no pips that count (a blurred
    # court's picture, lighter parts above the ink threshold, its frame cut away as lines)
    # is a picture where the box inside its margins shows at least this share of vivid
    # yellow (the decks photographed: courts 0.11 and more, blurred or not; number cards
    # 0.04 at most; a four-colour deck's blue and green pips none)
    picture_yellow: float = 0.08
    # a court named where the middle shows such colourless ink ("plain": a small or
    # blurred 9 of clubs whose pips run together) needs at least this confidence
    plain_court_confidence: float = 0.9
    centre_rank_bonus: float = 0.04
    centre_suit_weight: float = 0.5
    centre_below: float = 0.8  # the centre is looked at when the corners are less sure ...
    # ... and always for these ranks, which corners have been seen to confuse (a Q's loop
    # read as an 8; a 6 and a 9 are each other turned round; a blurred 4 or 3 read as a J,
    # a 4 as an A: the pips in the middle rule out a court card and an ace)
    centre_ranks: tuple[str, ...] = ("6", "8", "9", "Q", "J", "K", "A")
    # ... unless both index corners were read and name it at least this surely (on the
    # photos and frames checked, the middle changed no card read so from two corners
    # above 0.64: a looped Q read as an 8 from both corners stays below 0.65)
    centre_sure: float = 0.8
    # ... and always for a card shorter than this (px), whose index is a few px high (a
    # drawn 5 of spades some 100 px tall, its "5" read as an 8 by both corners at 0.81: the
    # pips counted rule the 8 out)
    centre_small_height: float = 110.0
    # where a card's index sits: this share of its width and height from its top-left corner
    index_at: tuple[float, float] = (0.1, 0.13)
    centre_pips_read: int = 2  # upright pips whose shape is read as suit evidence ...
    # (those whose middle lies above this share of the card's height: the pips of the top
    # half are printed upright, those of the bottom half upside down, and one on the middle
    # line -- a 3's, a 5's -- upright for one of the card's two ways up only, like an ace's:
    # a lone pip is read both ways up, see score_centres)
    centre_upright_above: float = 0.45
    centre_suit_below: float = 0.2  # ... when the corners' suit margin is below this
    # ... and when the index corners disagree on the rank (one of them is misread, and its
    # suit may be too: a 4H 87 px tall seen at 45 degrees, one corner reading a 2, the
    # other a 4, both a diamond by 0.2, was named 4D, its four pips counted)
    centre_suit_rank_split: bool = True
    # (named rank, the corners' runner-up) pairs where the middle must count the rank named,
    # looked at for that however sure the corners are: blurred, a 5's open top closes and it
    # reads as an 8 (drawn frames blurred, moved, tilted: 16 wrong 8s, most of them a 5 of
    # the same suit, one named at 0.83, above centre_sure); of 25,320 cards in frames of
    # real and drawn decks, blurred, moved, halved and tilted, none named right went
    # unnamed for it
    counted_pairs: tuple[tuple[str, str], ...] = (("8", "5"),)
    # overlapping cards: corners on the outline of a blob of cards (a fanned hand) read one
    # by one, as top-left corners of cards the size of the whole cards found in the frame
    read_overlaps: bool = True
    # the top card of a row whose outline is found as one card and not named: each end of
    # the outline read as a card (see Recognizer._row_tops)
    read_row_tops: bool = True
    max_overlap_corners: int = 16  # per blob
    # ... and, the stages done, each blob without the quads read in it (named or not, whole
    # or covered): a piece left of a card's size (blob_rest_area x the median card named
    # whole), filling blob_rest_fill of the box round it, in a card's proportions
    # (blob_rest_aspect, short side over long), is read as a card, kept where named (cards
    # touching one another: the first found leave the others apart)
    blob_rest: bool = True
    blob_rest_area: tuple[float, float] = (0.6, 1.4)
    blob_rest_fill: float = 0.85
    blob_rest_aspect: tuple[float, float] = (0.55, 0.85)
    # ... a piece of no card's shape (two cards meeting at a corner, a court's paper broken
    # round its picture) cut first where a line between two of its outline's deepest dents
    # leaves one of a card's shape; what is left cut again, up to blob_rest_split times in
    # all (0: never; a chain of touching cards needs a cut between each two)
    blob_rest_split: int = 4
    # ... and a piece of no card's shape whose box is smaller than a card (blob_rest_print:
    # the piece at least the first of the median card's area, its box between the second
    # and the third) taken for the frame printed in a card's middle, a court's picture
    # whose paper margins, thin, are lost to the masks' openings: read as the card round it
    # (see Recognizer._grown_prints), where that overlaps no card named by print_overlap
    blob_rest_print: tuple[float, float, float] = (0.2, 0.4, 1.0)
    # ... and before that, a piece of a card's area or more opened with a disc this wide (of
    # the square root of the median card's area), which parts it from a sliver of a
    # neighbour's paper that the quads read left (a covered card's quad, inferred, a little
    # off its card's outline): a part of a card's size and shape is read as a card
    blob_rest_open: float = 0.2
    # ... and last, a piece that shows a square corner of a card (a court touching others,
    # its paper broken round its picture): opened with a disc blob_rest_corner_open (of the
    # square root of a card's area) wide, its outline simplified to blob_rest_corner_poly
    # of a card's short side, each corner of two sides blob_rest_corner_edge of that long
    # and square within overlap_max_skew degrees taken for a corner of a card the size of
    # those named whole, either way round; the card covering blob_rest_corner_cover of the
    # piece's part and most of it, its sides moved onto the edges within
    # blob_rest_corner_snap of its short side, is read (where it overlaps no card named by
    # print_overlap); where it names none, the next most covering, blob_rest_corner_tries
    # in all.  A snap that changes a side's length by more than blob_rest_corner_keep of it
    # found lines in the cards, not their edges: the quad is read as it was found (also the
    # cluster's quads, below)
    blob_rest_corner_open: float = 0.05
    blob_rest_corner_poly: float = 0.03
    blob_rest_corner_edge: float = 0.25
    blob_rest_corner_cover: float = 0.9
    blob_rest_corner_snap: float = 0.05
    blob_rest_corner_tries: int = 2
    blob_rest_corner_keep: float = 0.12
    # ... and a piece several cards large (blob_rest_cluster x the median card named whole,
    # or more: cards touching in a cluster, their outlines run together) read as the cards
    # at its square corners (as above, but each card lying blob_rest_cluster_inside in the
    # piece rather than covering it), blob_rest_cluster_reads at most a piece
    blob_rest_cluster: float = 1.3
    blob_rest_cluster_inside: float = 0.9
    blob_rest_cluster_reads: int = 16
    # the pieces beside the cards so named looked at again, this many times at most (what a
    # card named leaves of its cluster may be a card's shape)
    blob_rest_again: int = 1
    overlap_factor: float = 1.5  # margin needed, times that of a whole card's single corner
    # ... and confidence (1.0 reads no overlapped corner)
    overlap_min_confidence: float = 0.5
    # ... and only where at least this share of the index patch is unsaturated, as paper is
    overlap_paper: float = 0.5
    overlap_paper_band: float = 0.65  # ... and of its top and left bands (the card's margin)
    overlap_max_skew: float = 15.0  # degrees a corner may be off square (a sheared guess
    # made a slanted J look like an A)
    # ... and only where at least this share of the card it would be lies on the blob or on
    # cards found (a card partly covered lies under the others; a corner of a printed page
    # beside the cards, read as a JC, would have been a card lying mostly on bare table)
    overlap_under: float = 0.7
    overlap_edge_length: float = 0.3  # a straight edge this long (of the patch) through
    # the glyphs means a covering card may have cut the index: no reading
    # overlapping cards, read from their index glyphs (vision.fan): rank-over-suit pairs of
    # ink components in the bright regions whole cards do not explain
    read_fans: bool = True
    fan_work_height: float = 180.0  # card height (px) at the pyramid level searched
    # where no card named whole sizes the search, it is sized from the glyphs and also from
    # each region's short side (about a card's height for a fan or a row), what that look
    # reads named only at fan_region_confidence (800 hands of the phone and webcam decks:
    # 2,158 -> 2,225 cards, none wrong; 2,288 without the floor, but 3 jumbo-deck "10"s
    # whose "0" the card over them cut named 6s in 40 rows)
    fan_region_sized: bool = True
    fan_region_confidence: float = 0.6
    fan_rank_ratio: float = 0.108  # rank glyph height / card height (the size's prior)
    # x the expected rank height (the webcam deck's index is half as tall again as the
    # phone deck's the search expects, and its glyphs, up to 1.7 x, were left out: 200
    # webcam-deck fans and 200 rows named 306 and 487 of 1,000 cards; up to 2, 322 and
    # 508, none wrong either way) ...
    fan_glyph_height: tuple[float, float] = (0.45, 2.0)
    fan_glyph_height_unsized: tuple[float, float] = (0.25, 2.0)  # ... without a whole card
    # the card's top edge beside the rank: points this far along it (of the card width)
    # and this far beyond it (of the card height) must not be paper of the region (0.05:
    # the edge is put where the phone deck's index would have it, and a jumbo or large
    # index sits lower -- 0.077 and 0.069 below the edge, not 0.045 -- so that 0.03 beyond
    # it was the covered card's own paper once a whole card sized the search)
    fan_edge_probe: tuple[float, ...] = (0.05, 0.11)
    fan_edge_out: float = 0.05
    fan_pair_distance: tuple[float, float] = (0.8, 2.2)  # rank centre -> suit centre, x size
    fan_pair_ratio: tuple[float, float] = (0.45, 1.35)  # suit size / rank size
    fan_corner_offset: tuple[float, float] = (0.045, 0.045)  # rank's top-left from the corner
    # the rank's top-left and height (of the card's width and height) as the phone deck's
    # cards read whole show it (CardReading.index), for which fan_corner_offset and
    # fan_rank_ratio hold: where the cards named whole show another, the covered corners
    # are looked for that much elsewhere and that much bigger (a webcam deck's large index)
    fan_index_reference: tuple[float, float, float] = (0.036, 0.034, 0.111)
    # ... where their rank is more than this share taller or shorter than the reference
    # (a row's top card's place scatters by a tenth), and only from places within these
    # bounds (x, y, height: a quad larger than its card shows its index elsewhere)
    fan_index_band: float = 0.25
    fan_index_bounds: tuple[tuple[float, float], ...] = ((0.01, 0.1), (0.01, 0.1), (0.05, 0.22))
    # degrees the card is turned from the rank-to-suit axis, tried in this order until its
    # edges are found
    fan_turns: tuple[float, ...] = (0.0, -5.0, 5.0, -10.0, 10.0)
    # the card's top and left edges are looked for this far (of the card) around the
    # corner guessed from the glyphs; they must rise by fan_edge_contrast grey levels and
    # bend by no more than fan_snap_bend (of the card height) over the index
    fan_snap_margin: float = 0.08
    fan_snap_reach: float = 0.03
    fan_edge_contrast: float = 25.0
    fan_side_contrast: float = 12.0  # the left edge may lie on the card before: fainter
    fan_snap_bend: float = 0.012
    # edges found leaning from the pose by up to fan_snap_max_lean degrees, both the same
    # way (to fan_snap_lean_agree degrees): the pose is turned by that much and the edges
    # looked for again, fan_snap_turns times at most
    fan_snap_turns: int = 2
    fan_snap_max_lean: float = 20.0
    fan_snap_lean_agree: float = 8.0
    # the top edge's two bands of columns (of the card width from its corner); the next
    # pair is tried where the one before finds the edge bent (a rounded corner)
    fan_snap_bands: tuple[tuple[float, float, float, float], ...] = (
        (0.02, 0.09, 0.10, 0.17), (0.05, 0.11, 0.12, 0.18))
    fan_edge_margin: float = 0.02  # ink this much (of the card) outside the rank is cut off
    # glyphs read this far (of the card height) from where the phone deck's index sits: not
    # the pair the pose was made from (0.03: a large index sits 0.024 lower; 0.035 let a
    # pair of glyphs in a frame moved 9 px be read as an AD, 0.05 a QH in a fan)
    fan_box_tolerance: float = 0.03
    fan_rank_shift: float = 0.05  # nor a rank read this far from the glyph paired (of it)
    fan_suit_slant: float = 25.0  # nor a suit this many degrees off straight under the rank
    # nor where the ink between the rank and the suit, in the rank's columns, covers more
    # than this share of the rank's box: a piece broken off the rank (0.03 and less in
    # 811 covered corners read right; a 9S's lost stem, 0.17, left a "Q"); on an outline's
    # corner, the ink up to half the rank's height above it too (0.03 and less in 110 read
    # right; a 7H's bar, 0.14, left a "J")
    fan_broken_rank: float = 0.08
    fan_edge_pad: int = 1  # px of the crop: a straight edge this near a glyph's box ...
    fan_cut_clear: float = 3.0  # ... and this near its ink (px of the patch) may cut it:
    # such a corner is named only at this confidence (a covering card's edge runs beside
    # most covered indices of a tight fan, touching the glyphs without cutting them: such
    # corners refused outright, 814 of 1,600 cards in fans and rows of real crops were
    # read; with this, 831, none wrong.  Kept for an edge that does cut a glyph short: a
    # 9H cut down its right side read as a TH at 0.55 -- which fan_broken_rank now refuses
    # too; without the floor, 800 more hands read 2% more, none wrong)
    fan_cut_confidence: float = 0.6
    fan_cut_extend: float = 0.1  # (each straight piece of edge found taken this much, of
    # the patch height, further both ways: an edge is found in pieces)
    fan_edge_paint: int = 3  # px: the edges are painted over this wide before reading,
    # each piece of edge found run on this much (of the patch height) both ways: across
    # the whole patch (a covering card's side is straight; a piece of it left unpainted
    # beside a rank, where the edge was not found, was cut with the rank as a stroke of
    # it: a "2" read with a line beside it, and no card named)
    fan_paint_extend: float = 2.0
    fan_factor: float = 1.0  # margin needed, times that of a whole card's single corner
    fan_rank_aspect: float = 1.0  # a rank glyph read wider than this x its height: no
    # ... nor one with blank columns between its parts this wide (x its height), for a 10
    # and for any other rank (a single stroke, but a covering card's edge beside it)
    fan_rank_gap: tuple[float, float] = (0.12, 0.05)
    # ... nor one in more pieces than the rank has (a 10 two, the others one), counting
    # those of at least this times the largest one's area
    fan_rank_part: float = 0.2
    # read or runner-up (a K too: a phone-deck AC, a covering card's edge beside its A,
    # read as a KC at 0.70, once in some 700 fanned hands): ...
    fan_hard_ranks: tuple[str, ...] = ("T", "J", "Q", "K")
    fan_hard_factor: float = 1.5  # ... this margin factor instead
    fan_min_confidence: float = 0.52  # (0.5: a margin just at the need; the covered
    # corners read at 0.50-0.52 included a heart taken for a diamond and a pip for a 4)
    # a covered corner's suit glyph is at least this like a suit (0.85 and more in the
    # fanned hands; letters and digits of a printed page beside a digit, 0.72 and less)
    fan_min_suit: float = 0.8
    fan_max_poses: int = 80  # per frame
    # a covered corner read as a card named already elsewhere is a second deck's copy of it
    # where its rank lies in no quad of that card and its own quad overlaps none of them by
    # more than this share of its area (where the first copy was named first, the corner
    # read two ways was left to stand on the other way's reading: a JS named a 4S); 0: a
    # card named once is not named again
    fan_second_copy: float = 0.2
    fan_quad_area: float = 1.3  # an unread quad this much bigger than a card read: a region
    # an unread quad whose area lies this much inside a card named at least inside_named_area
    # times as large is that card's print (a panel, a picture's frame: see _inside_named)
    inside_named_share: float = 0.85
    inside_named_area: float = 1.3
    # two covered cards named differently whose quads' corners lie within this (of the
    # card's short side) of one another are one card read two ways: neither is named
    one_card_corners: float = 0.1
    # an unread quad that may be a frame printed in a card's middle is read as the card
    # round it (see Recognizer._grown_prints): the card's paper ends where the picture gets
    # darker by this and a quarter of the paper's level; the card found may overlap a card
    # named by this share of its area
    grow_prints: bool = True
    print_edge_contrast: float = 20.0
    print_overlap: float = 0.1
    # a bright region no card found explained is looked into no further (covered corners,
    # the outline's corners, the rest of it) where the cards named whole (those found round
    # their printed frames among them) cover this share of it
    print_blob_cover: float = 0.9
    # ... as is one the cards named by then cover that much, before the covered corners are
    # looked for (the rest of touching cards' paper is read first, then the covered corners
    # where they still leave a region): a covered card counts only where named at least this
    # surely and its quad overlaps no other card named (cards touching; in a fan, the cards
    # over a covered card overlap its quad), a twentieth of its area at most
    fan_cover_partial: float = 0.55
    portrait_prior: float = 0.03  # bonus for the way up whose short sides are top and bottom
    clear_portrait: float = 0.78  # side ratio below which the card's upright way is certain
    # a quad at least clear_portrait square whose opposite sides are this near the same
    # length is no card, even at a slant, but maybe a row of cards: where its corners
    # disagree, its middle does not settle them (see Recognizer._squarish)
    row_parallel: float = 0.95
    # ... but a card whose index corners of that way show no glyph at all is read the other
    # way up too (seen at a steep slant along its length, a card looks wider than tall)
    other_way_up: bool = True
    # a card that may lie either way up (at least clear_portrait square) has the index
    # corners of the way its shape makes likelier (short sides top and bottom) read first,
    # and the other way's only where those two do not both read, agree on rank and suit,
    # each of at least this quality (best rank plus best suit score): in 3,226 such cards
    # of real and drawn frames, plain, tilted, blurred and halved, the other way won for
    # 920, never where the likelier way read so (at 1.5 neither).  None: both ways read.
    likely_way_quality: float | None = 1.6
    max_hypotheses: int = 2  # glyph cut-outs tried per corner
    # both index corners of every card are read.  A card lying apart (a region of its own
    # in the Otsu mask, the frame holding at least single_min_cards cards, its area within
    # single_area of their median -- a quad round two overlapping cards shows one card at
    # each index corner -- and single_min_height px tall or more) is a card: one named from
    # one index corner whose opposite shows none (a finger, glare, blur over it) needs
    # only apart_lone_confidence, not lone_corner_min_confidence.  (Reading the opposite
    # corner only where the first was unsure cost more than it saved: such a card's middle
    # was looked at instead, for the ranks corners confuse and below 0.8.  Reading both,
    # 12-card frames take some 0.5 ms less at the median and 1 ms at the slowest tenth;
    # blurred frames name 2,872 cards where they named 2,806, none more wrongly; where a
    # hard shadow or a spot of shade crosses a card, its shaded corner may now disagree
    # with the lit one: 3 cards fewer of 576)
    single_min_cards: int = 3
    single_area: tuple[float, float] = (0.7, 1.4)
    # (a card less tall has an index a few px high: one corner alone was misread, a K as
    # an A, a 7 as a J)
    single_min_height: float = 90.0
    apart_lone_confidence: float = 0.6
    # a card less tall than this (px) is found but never named: its index is some 6 px high
    # (cards 59-61 px tall were misread 5 times in 200; none taller, in 1,400)
    min_card_height: float = 64.0
    # a card whose outline's edges are this wide (of its height) or wider is smeared (out of
    # focus, or moving; sharp cards 0.01 and less, a 7 px motion blur of a 150 px card 0.02;
    # the width is counted in steps of a 300th of the height): it is named only where its
    # middle bears it out (above 1.0: never checked): its pips counted to the rank and, where
    # their shapes are read, of the suit; an ace's one pip (a smeared K or Q in both
    # corners reads as an A, and a picture allows an A)
    smear_ratio: float = 0.018
    # ... and a court card from this much on: its middle must show a picture (a 9 of clubs
    # moved a few px, its pips run together, reads as a Q when its outline is barely soft)
    court_smear_ratio: float = 0.013
    # ... and its pips bear it out only where none is more than this much larger than
    # another (by area)
    smear_pip_spread: float = 1.6
    # ... and a club or spade court, where the smear is wide (its edges over
    # smear_black_ratio of its height, as wide as the lobes of its suit glyph), only where
    # its corners prefer its suit to the other black one by smear_black_margin (their
    # alternatives' suit margin): a picture bears the rank out, not the suit, and such a
    # smear blurs a club into a spade's outline (a moved JC, its edges 9.7% of its height,
    # read as a JS at 0.72 in both corners, the suits 0.08 apart; of 22 black courts named
    # right at such margins in blurred frames, none smeared over 4%)
    smear_black_margin: float = 0.1
    smear_black_ratio: float = 0.06
    # ... and which court it is only from this many index corners read (a smeared KH read
    # as a JH at 0.81 from one corner, its other corner showing no index)
    smear_court_corners: int = 2
    # a club or spade whose card's edges are as wide as this share of its index's rank
    # glyph's height (blurred so that a club's lobes run into a spade's outline: a
    # small-index deck blurred 1.6 px, its clubs named as spades) is named only where its
    # middle's pips, their shapes read, do not prefer the other black suit
    # (centre_black_veto) ...
    blur_suit_ratio: float = 0.16
    # ... or, where its middle shows no pips to read (a court), only where blurred
    # less than this share or where its corners prefer its suit by smear_black_margin: a
    # small-index deck blurred 2.2 px named a QC as a QS and an AC as an AS, the suits
    # 0.07-0.1 apart, where a large-index deck blurred as much reads right (edges 0.16 of
    # its index)
    blur_index_ratio: float = 0.21
    # ... where the pips are read, blurred that much, they must prefer its suit to the other
    # black one by this much (small drawn clubs blurred 1.1 px, their pips 12 px across,
    # read as spades by the index and by the pips alike, the pips by 0.001 to 0.04; of 319
    # clubs and spades so blurred and named right, one was below that)
    blur_pip_margin: float = 0.05
    # a court (J, Q, K) whose index's rank glyph is under this share of the median of the
    # frame's named cards' (with index_size_cards or more named) is named only where its
    # middle shows a picture: in blurred, tilted and tinted 12-card frames of real crops, 5
    # of 7 wrong cards were such courts (a 9H's "9" cut short, read as a Q in both corners)
    index_size_ratio: float = 0.7
    index_size_cards: int = 3
    # a card under single_min_height named club or spade likewise (its suit glyph a few
    # pixels across: a 7C 74 px tall read as a 7S in both corners, the suits 0.048 apart)
    small_black_margin: float = 0.05
    # any club or spade named by the corners' suit alone (no pip's shape read in the
    # middle) needs them to prefer its suit to the other black one by this much
    black_tie_margin: float = 0.04
    max_alternatives: int = 4
    # a card read from one index corner whose opposite corner was looked at and shows no
    # index is named only at or above this confidence: the outline of a row of cards, each
    # covering most of the one before, has a card's shape but is no card (one end shows
    # the top card's index turned on its side, the other end no index); such an unread
    # quad is left to the fan stage, which reads the covered corners (above 1.0: never)
    lone_corner_min_confidence: float = 0.75
    # ... or, where the middle counts the rank's pips, where that corner alone prefers the
    # rank to any other by this much (the outline of a column of landscape cards, of a
    # card's shape, its end's big pip read as a 6 over a 4 by 0.017, and 6 pips in its
    # middle, was named a 6S)
    lone_count_margin: float = 0.035
    # ... and, where its middle is a picture, whose glyphs start no lower than this (of the
    # card's height) in its corner (of 1,174 cards named, the index starts at 0.04 of it
    # for half, below 0.06 for 99 in 100, and at 0.16 at most, a 7H read from both corners)
    lone_index_top: float = 0.12
    # a 10's "1" is at most this wide (of the rank glyph's height) across its middle rows
    ten_one_width: float = 0.4
    # a glyph within this many px (of the 250x350 card crop) of the cleared left rim of an
    # index patch, joined to ink along the rim, is cut by the card's found edge (an 8 whose
    # left stroke is lost reads as a 3): not read
    cut_glyph_gap: int = 3
    # an index whose glyphs come within this many px (of the pyramid level read) of the
    # picture's edge is not read: the edge may have cut a 4 into something like an A
    edge_margin: float = 2.0
    # a picture in which no card was named, of a card's proportions (short / long side at
    # least this; 1.0 takes square pictures of a card stretched to fit), is also read as
    # one card filling it: a photo cropped to the card shows no outline to find
    whole_frame_aspect: float = 0.45
    # ... and so is one whose rim (whole_frame_rim of its sides) is nearly all paper
    # (whole_frame_paper of the rim's pixels light and unsaturated), even when something was
    # named in it: a face card's picture holds small card-like frames
    whole_frame_rim: float = 0.03
    whole_frame_paper: float = 0.85
    # ... and never one whose rim is less paper than this (a table seen whole, where no card
    # was named, is no card)
    whole_frame_min_paper: float = 0.5
    # a card found but not named is read again, both index corners and the centre, from
    # restored pictures, each restoration in turn until one names it: "sharpen" (unsharp
    # masking: a blurred or small picture, whose thin strokes fade and whose glyphs run
    # together) and "sharpen hard".  Only cards not named pay for it, but a card none
    # names pays for every one (about 1.6 ms each, on a 12-card frame).  "denoise" (a
    # bilateral filter: sensor noise breaks strokes and makes specks) may be added; it
    # was tried between the two: of 57 cards it was tried on it named one, and 705 test
    # pictures read the same without it.
    retry_restore: tuple[str, ...] = ("sharpen", "sharpen hard")
    # the unsharp mask's blur: a box this wide (px of the patch) twice (a Gaussian's of
    # sigma ~2.8 for 7), and its amount; "sharpen hard" (a picture more out of focus, or
    # smaller) with retry_sharpen_hard
    retry_sharpen: tuple[int, float] = (7, 1.5)
    retry_sharpen_hard: tuple[int, float] = (9, 3.0)
    retry_denoise: tuple[int, float, float] = (5, 40.0, 3.0)  # diameter, colour and space sigma
    # a re-read names a card only when it is the card the first reading put first among
    # its alternatives (two readings of different pictures agree); a card of which no
    # glyphs were cut at first (no alternatives: its small suit glyph may have run into a
    # big pip beside it) is read again only with the restorations of retry_unled, only
    # when it lies apart and is of the usual size (see single_min_cards), and named
    # only when both its index corners name it (an outline that is no card's, or a card
    # with a printed code, may show one glyph-like shape)
    retry_unled: tuple[str, ...] = ("sharpen",)
    # a card still not named, whose corners show glyphs, is read once more from its quad
    # grown by this share about its middle, and named from it at retry_grow_confidence
    # (an outline found inside the card: 12-card frames of real crops 710 -> 713 of 720,
    # shrunk to half 652 -> 655, none wrong)
    retry_grow: float = 0.04
    retry_grow_confidence: float = 0.8
    # a card whose outline is smeared (out of focus, or moving: see smear_ratio), read
    # clearly enough by its corners but not named -- the smeared-card check dropped it
    # (its middle did not bear the reading out), or a rule for a blurred suit or a lone
    # corner set it aside -- is read again sharpened too, where at least this tall (px;
    # None: never): it kept its corners' confidence and was never looked at again (12-card
    # frames of the phone deck blurred 1.6 px 504 -> 570 of 720 named, 2.2 px 180 -> 246,
    # the webcam deck's 664 -> 689 and 427 -> 464, none wrong; drawn cards 91 to 104 px
    # tall, blurred, were named a spade for a club so, three in 2,400: an index a few px
    # high read twice is no surer)
    retry_smeared_height: float | None = 110.0
    # ... also a quad of a card's size (single_area) of which no index glyph was read at all
    # (its outline found inside the card on a table nearly as light as its paper, the index
    # cut by the window's edge)
    grow_unread: bool = True


@dataclass(frozen=True)
class CardReading:
    card: Card | None
    corners: tuple[tuple[float, float], ...]
    confidence: float
    alternatives: tuple[tuple[str, float], ...] = ()
    # known only by an index corner (a covered card): corners extrapolated from it
    partial: bool = False
    # where the index is printed, for a card named from its index corners: its rank
    # glyph's top-left (x, y) and height, as fractions of the card's width and height
    index: tuple[float, float, float] | None = None
    # not named, and holding one of our printed codes (see Recognizer.holds_code): one of
    # our own cards, not a frame printed in a playing card's middle
    coded: bool = False


def _canonical_rect(size: tuple[int, int]) -> np.ndarray:
    w, h = size
    return np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)


def rectify(
    image: np.ndarray,
    quad: np.ndarray | tuple[tuple[float, float], ...],
    size: tuple[int, int] = (250, 350),
) -> np.ndarray:
    """Warp the card with corners ``quad`` (clockwise from its top-left) to an upright
    ``size`` = (width, height) crop."""
    src = np.asarray(quad, np.float32).reshape(4, 2)
    m = cv2.getPerspectiveTransform(src, _canonical_rect(size))
    return cv2.warpPerspective(image, m, (int(size[0]), int(size[1])), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)


def unrectify_points(
    points: np.ndarray,
    quad: np.ndarray | tuple[tuple[float, float], ...],
    size: tuple[int, int] = (250, 350),
) -> np.ndarray:
    """Map points of a rectified crop back to image pixels."""
    src = np.asarray(quad, np.float32).reshape(4, 2)
    m = cv2.getPerspectiveTransform(_canonical_rect(size), src)
    pts = np.asarray(points, np.float32).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(pts, m).reshape(-1, 2)


@dataclass
class CardQuad:
    """One card found in a frame: its corners (image pixels, clockwise; the first corner is
    a top-left only once the card has been read) and its rectified upright crop."""

    corners: np.ndarray
    image: np.ndarray = field(repr=False)
    size: tuple[int, int] = (250, 350)

    _crop: np.ndarray | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._crop = None  # (see CornerRead.__post_init__)

    @property
    def crop(self) -> np.ndarray:
        # (made once, kept: see CornerRead)
        if self._crop is None:
            self._crop = rectify(self.image, self.corners, self.size)
        return self._crop

    @property
    def center(self) -> tuple[float, float]:
        c = self.corners.mean(axis=0)
        return float(c[0]), float(c[1])


# ---------------------------------------------------------------------------- index reading


@dataclass
class CornerRead:
    """What one index corner shows: per-class similarities and ink colour."""

    rank_scores: np.ndarray  # (13,)
    suit_scores: np.ndarray  # (4,)
    redness: float | None
    rank_feat: np.ndarray | None = None
    rank_aspect: float = 0.0
    suit_feat: np.ndarray | None = None
    suit_aspect: float = 0.0
    rank_mask: np.ndarray | None = field(default=None, repr=False)
    suit_mask: np.ndarray | None = field(default=None, repr=False)
    box: tuple[int, int, int, int] = (0, 0, 0, 0)  # around rank and suit, in the patch
    # the suit glyph's own club-minus-spade similarity, before the shape (waist) evidence
    club_over_spade: float = 0.0
    # the glyphs were cut at the lighter threshold for faint red ink (``faint_ink``): a
    # card read from such corners only is named where its middle bears the rank out
    faint: bool = False
    # a long straight line taken out of the ink (see ``line_length``) touched the rank
    # glyph: a stroke of it may have gone with the line (a blurred 4's stem, in a column
    # of ink run down into its suit's, read as a 2), and the middle is looked at
    lined: bool = False
    # the glyphs were cut apart from one piece of ink (a rank run into its suit, a suit into
    # the pip beside it: see ``stacked_rows``, ``beside_cols``): an index blurred that much
    # -- the middle is looked at, and the suit must be settled (Recognizer._stacked_suit)
    stacked: bool = False

    # (what the properties below worked out, kept: a compiled class has no instance
    # dictionary for functools.cached_property to keep them in, and would work them out
    # again at every look)
    _quality: float | None = field(default=None, init=False, repr=False, compare=False)
    _rank_list: list[float] | None = field(default=None, init=False, repr=False,
                                           compare=False)
    _suit_best: int | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # (compiled, a field not given to __init__ gets no default of itself)
        self._quality = self._rank_list = self._suit_best = None

    @property
    def quality(self) -> float:
        # asked for many times while the ways up are weighed; the scores are final by then
        # (the ufunc's own reduction: ndarray.max wraps it in Python)
        if self._quality is None:
            self._quality = float(np.maximum.reduce(self.rank_scores)
                                  + np.maximum.reduce(self.suit_scores))
        return self._quality

    @property
    def rank_list(self) -> list[float]:
        """The rank scores as a plain list (:meth:`Recognizer.decide` orders them often)."""
        if self._rank_list is None:
            self._rank_list = list(self.rank_scores.tolist())
        return self._rank_list

    @property
    def suit_best(self) -> int:
        """The index of the best suit score (the first of equal ones)."""
        if self._suit_best is None:
            self._suit_best = _argmax(self.suit_scores.tolist(), len(SUIT_CLASSES))
        return self._suit_best


def _edge_crosses(patch: np.ndarray, box: tuple[int, int, int, int], cfg: RecognizerConfig) -> bool:
    """Whether a long straight edge (a covering card's side) runs through or along the
    glyphs' box: then the index may be cut, and one glyph may look like another."""
    segs = fan_stage.edge_segments(patch, cfg)
    x0, y0, x1, y1 = box
    pad = 3
    rect = (x0 - pad, y0 - pad, x1 - x0 + 2 * pad, y1 - y0 + 2 * pad)
    for sx0, sy0, sx1, sy1 in segs.tolist():
        ok, _, _ = cv2.clipLine(rect, (int(sx0), int(sy0)), (int(sx1), int(sy1)))
        if ok:
            return True
    return False


def _card_box(
    piece: np.ndarray, card: float, cfg: RecognizerConfig
) -> tuple[tuple[float, float], tuple[float, float], float] | None:
    """The box (``cv2.minAreaRect``) round a piece of a blob (see
    :meth:`Recognizer._blob_rest`) where the piece is of a card's size (``blob_rest_area``
    x ``card``, the median card's area), fills ``blob_rest_fill`` of the box and has a
    card's proportions (``blob_rest_aspect``); else None.  The piece is measured by its
    convex hull: a court card's picture reaching its edges bites into its paper's outline
    (in a frame of 12 touching cards, two courts' pieces filled 0.42 and 0.49 of their
    boxes, each box a card's size and shape), and such a card lying alone in what is left
    is a card all the same."""
    lo, hi = cfg.blob_rest_area
    short, long_ = cfg.blob_rest_aspect
    area = float(cv2.contourArea(cv2.convexHull(piece)))
    if not lo * card <= area <= hi * card:
        return None
    (cx, cy), (bw, bh), angle = cv2.minAreaRect(piece)
    if (bw * bh <= 0 or area < cfg.blob_rest_fill * bw * bh
            or not short <= min(bw, bh) / max(bw, bh) <= long_):
        return None
    return (float(cx), float(cy)), (float(bw), float(bh)), float(angle)


def _opened_parts(
    piece: np.ndarray, shape: tuple[int, ...], k: int
) -> tuple[list[np.ndarray], np.ndarray, tuple[int, int]]:
    """The parts (outer outlines, in the mask's pixels) of the outline ``piece`` (in a mask
    of ``shape``) filled and opened with a disc ``k`` (odd) wide; with the opening, made in
    the piece's box grown by a pixel and cut to the mask, and that box's offset in the
    mask.  The opening lies inside the piece; the ring of background round it erodes the
    piece where the whole mask's background would, and the mask's own edges stay where
    they were: the same pixels and parts as the whole mask opened, at a fraction of the
    cost (the mask of a blob of twelve touching cards opened whole: 3 ms)."""
    x, y, w, h = cv2.boundingRect(piece)
    x0, y0 = max(0, x - 1), max(0, y - 1)
    x1, y1 = min(shape[1], x + w + 1), min(shape[0], y + h + 1)
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.drawContours(mask, [piece], -1, 255, -1, offset=(-x0, -y0))
    opened = np.asarray(cv2.morphologyEx(
        mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))), np.uint8)
    parts, _ = cv2.findContours(opened, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE,
                                offset=(x0, y0))
    return list(parts), opened, (x0, y0)


def _card_box_opened(
    piece: np.ndarray, shape: tuple[int, ...], card: float, cfg: RecognizerConfig
) -> tuple[tuple[float, float], tuple[float, float], float] | None:
    """The box (:func:`_card_box`) of the first part of ``piece`` (an outline in a mask of
    ``shape``) that has a card's size and shape once the piece is opened with a disc
    ``blob_rest_open`` x the square root of ``card`` (the median card's area) wide: a card
    joined to a sliver of a neighbour's paper by a neck narrower than that.  None where the
    piece is less than a card's area, or no part is such."""
    if float(cv2.contourArea(piece)) < cfg.blob_rest_area[0] * card:
        return None
    k = int(round(cfg.blob_rest_open * math.sqrt(card))) | 1
    parts, _, _ = _opened_parts(piece, shape, k)
    for part in parts:
        box = _card_box(part, card, cfg)
        if box is not None:
            return box
    return None


def _overlaps_any(q: np.ndarray, quads: list[np.ndarray], share: float) -> bool:
    """Whether the convex quad ``q`` overlaps one of ``quads`` by more than ``share`` of its
    own area."""
    least = share * abs(quad_area(q))
    return any(float(cv2.intersectConvexConvex(q, n)[0]) > least for n in quads)


def short_long_sides(quads: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Each of ``quads``' short and long side, each the mean of a pair of opposite sides
    (in the quads' own precision)."""
    sides = np.array([np.hypot(*(np.roll(q, -1, axis=0) - q).T) for q in quads])
    pair_a, pair_b = sides[:, 0] + sides[:, 2], sides[:, 1] + sides[:, 3]
    return np.minimum(pair_a, pair_b) / 2, np.maximum(pair_a, pair_b) / 2


def _card_size(quads: list[np.ndarray]) -> tuple[float, float]:
    """The median short and long side of ``quads`` (:func:`short_long_sides`); (0, 0) for
    none."""
    if not quads:
        return 0.0, 0.0
    short, long_ = short_long_sides(quads)
    return float(np.median(short)), float(np.median(long_))


def _square_corner_quads(outline: np.ndarray, card_w: float, card_h: float,
                         cfg: RecognizerConfig) -> list[np.ndarray]:
    """The quads of a ``card_w`` x ``card_h`` card at each square corner of ``outline``,
    either way round (its short side along one side of the corner, then along the other):
    the outline simplified to ``blob_rest_corner_poly`` x ``card_w``, a corner where two
    sides each ``blob_rest_corner_edge`` x ``card_w`` long or more meet within
    ``overlap_max_skew`` degrees of square, convex or not (the quad lies along both)."""
    eps = max(2.0, cfg.blob_rest_corner_poly * card_w)
    poly = cv2.approxPolyDP(outline, eps, True).reshape(-1, 2).astype(np.float32)
    n = len(poly)
    out: list[np.ndarray] = []
    if n < 3:
        return out
    shortest = cfg.blob_rest_corner_edge * card_w
    for i in range(n):
        p0 = poly[i]
        a, b = poly[i - 1] - p0, poly[(i + 1) % n] - p0
        la, lb = float(np.hypot(*a)), float(np.hypot(*b))
        if min(la, lb) < shortest:
            continue
        a, b = a / la, b / lb
        angle = math.degrees(math.acos(max(-1.0, min(1.0, float(a @ b)))))
        if abs(angle - 90.0) > cfg.overlap_max_skew:
            continue
        for along_b, along_a in ((card_w, card_h), (card_h, card_w)):
            out.append(np.array([p0, p0 + b * along_b, p0 + b * along_b + a * along_a,
                                 p0 + a * along_a], np.float32))
    return out


def _cut_between_dents(mask: np.ndarray, outline: np.ndarray, least: float, width: int,
                       card: float, cfg: RecognizerConfig) -> bool:
    """Cut ``mask`` (in place) where ``outline`` (of a region of it) is cut best into a
    piece of a card's shape (:func:`_card_box`): along a line ``width`` px wide between two
    of its deepest dents (convexity defects at least ``least`` px deep), the shortest such
    line that leaves such a piece.  Two cards touching at a corner, or along part of a
    side, dent their outline either side of where they meet.  Whether it was cut."""
    if len(outline) < 5:
        return False
    hull = cv2.convexHull(outline, returnPoints=False)
    try:
        defects = cv2.convexityDefects(outline, hull)
    except cv2.error:
        return False
    if defects is None:
        return False
    pts = outline.reshape(-1, 2).tolist()
    deep = sorted(((int(d), int(f)) for _, _, f, d in defects.reshape(-1, 4).tolist()
                   if int(d) / 256.0 >= least), reverse=True)[:5]
    lines = sorted(
        (math.dist(pts[f], pts[g]), (pts[f][0], pts[f][1]), (pts[g][0], pts[g][1]))
        for k, (_, f) in enumerate(deep) for _, g in deep[k + 1:])
    x, y, w, h = cv2.boundingRect(outline)
    region = np.zeros((h + 2, w + 2), np.uint8)
    cv2.drawContours(region, [outline - np.array([x - 1, y - 1], np.int32)], -1, 255,
                     thickness=cv2.FILLED)
    for _, a, b in lines:
        cut = region.copy()
        cv2.line(cut, (a[0] - x + 1, a[1] - y + 1), (b[0] - x + 1, b[1] - y + 1), 0, width)
        pieces, _ = cv2.findContours(cut, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        if any(_card_box(p, card, cfg) is not None for p in pieces):
            cv2.line(mask, a, b, 0, width)
            return True
    return False


def _big_unread(readings: list[CardReading], cfg: RecognizerConfig) -> list[CardReading]:
    """The quads found but not named that are larger than ``fan_quad_area`` x the median
    card named (all of them where none is): outlines round several cards (a fanned hand, a
    row), not one card that went unread."""
    named = [abs(_area(r.corners)) for r in readings if r.card is not None]
    least = cfg.fan_quad_area * median(named) if named else 0.0
    return [r for r in readings
            if r.card is None and len(r.corners) == 4 and abs(_area(r.corners)) > least]


def _drop_doubles(readings: list[CardReading]) -> list[CardReading]:
    """Without the unread 'cards' that are about twice the size of the cards read: two
    touching cards taken for one (no index sits where one would)."""
    areas = [abs(_area(r.corners)) for r in readings if r.card is not None]
    if len(areas) < 2:
        return readings
    med = median(areas)
    return [
        r for r in readings
        if r.card is not None or r.alternatives or abs(_area(r.corners)) < 1.6 * med
    ]


def _filled(
    outline: np.ndarray, value: int, size: tuple[int, int] | None = None
) -> tuple[np.ndarray, int, int] | None:
    """The region inside ``outline`` (picture pixels) filled with ``value`` in a mask of
    its box, and the box's left and top; the box kept inside a picture of ``size`` (width,
    height) where given; None for a box of no area."""
    pts = np.asarray(outline, np.float32).reshape(-1, 2)
    x0, y0 = (int(v) for v in np.floor(pts.min(axis=0)).tolist())
    x1, y1 = (int(v) for v in np.ceil(pts.max(axis=0)).tolist())
    if size is not None:
        x0, y0 = max(0, x0), max(0, y0)
        x1, y1 = min(size[0] - 1, x1), min(size[1] - 1, y1)
    if x1 <= x0 or y1 <= y0:
        return None
    region = np.zeros((y1 - y0 + 1, x1 - x0 + 1), np.uint8)
    cv2.fillPoly(region, [np.round(pts - (x0, y0)).astype(np.int32)], value)
    return region, x0, y0


def _covered_by(outline: np.ndarray, quads: list[np.ndarray], share: float) -> bool:
    """Whether at least ``share`` of the region inside ``outline`` (picture pixels) lies
    inside the ``quads``."""
    filled = _filled(outline, 1)
    if filled is None:
        return False
    region, x0, y0 = filled
    total = cv2.countNonZero(region)
    if total == 0:
        return False
    cover = np.zeros_like(region)
    for q in quads:
        cv2.fillConvexPoly(cover, np.round(np.asarray(q, np.float32).reshape(-1, 2)
                                           - (x0, y0)).astype(np.int32), 1)
    return cv2.countNonZero(cv2.bitwise_and(region, cover)) >= share * total


def _covering(readings: list[CardReading], cfg: RecognizerConfig) -> list[np.ndarray]:
    """The quads of the cards named in ``readings`` that cover their place of a bright
    region: each found whole, and each covered one named at least ``fan_cover_partial``
    surely whose quad overlaps no other card named by more than a twentieth of its area
    (cards touching, not a fan's, whose quads reach under the cards over them)."""
    named = [r for r in readings if r.card is not None and len(r.corners) == 4]
    quads = [np.array(r.corners, np.float32).reshape(4, 2) for r in named]
    return [q for i, (q, r) in enumerate(zip(quads, named, strict=True))
            if not r.partial or (0 < cfg.fan_cover_partial <= r.confidence
                                 and not _overlaps_any(q, quads[:i] + quads[i + 1:], 0.05))]


def _inside_named(readings: list[CardReading], cfg: RecognizerConfig) -> list[CardReading]:
    """``readings``, but no unread quad lying inside a card named: a card's own print.

    Where cards touch, their paper is one bright region, and the frame printed round a
    card's middle (a panel, a court's picture) is what outlines a card's shape; the card is
    then named from its index corner as a covered one is (its quad extrapolated from that
    corner), and the frame inside it, read as no card, would stand beside it as a card found
    but not read.  An unread quad whose area lies mostly (``inside_named_share``) inside a
    card named at least ``inside_named_area`` times as large is that card's print."""
    if not any(r.card is None and len(r.corners) == 4 for r in readings):
        return readings  # (most frames: every quad named)
    named = [(np.array(r.corners, np.float32).reshape(4, 2), abs(_area(r.corners)))
             for r in readings if r.card is not None and len(r.corners) == 4]
    if not named:
        return readings
    out = []
    for r in readings:
        if r.card is None and len(r.corners) == 4:
            q = np.array(r.corners, np.float32).reshape(4, 2)
            area = abs(_area(r.corners))
            if area > 0 and any(
                big >= cfg.inside_named_area * area
                and float(cv2.intersectConvexConvex(q, n)[0]) >= cfg.inside_named_share * area
                for n, big in named
            ):
                continue
        out.append(r)
    return out


def _one_card_two_ways(
    readings: list[CardReading], cfg: RecognizerConfig,
    whole: Callable[[np.ndarray], Card | None] | None = None,
) -> list[CardReading]:
    """``readings``, but not both of two covered cards (``partial``) named differently whose
    quads are one card's: each corner of one within ``one_card_corners`` x its short side
    of a corner of the other.  Each was read from a corner of the one place and they
    disagree: a JS lying where touching cards hid its outline was named from one index
    corner, and as a 4S from the other, its J beside the big spade of the card's middle; in
    a row of a deck with an index in every corner, a 3S named from an index showing above
    the top card had its quad inferred the wrong way, over the JD's.  ``whole`` reads the
    place as a card found whole (the surer one's quad; None: not named), and the one of
    the two that it names is kept; neither where it names neither, or without ``whole``.
    (The quads of a row's or a fan's cards overlap most of one another's, but their
    corners lie apart.)"""
    part = [(i, np.array(r.corners, np.float32).reshape(4, 2)) for i, r in enumerate(readings)
            if r.card is not None and r.partial and len(r.corners) == 4]
    if len(part) < 2:
        return readings
    bad: set[int] = set()
    for k, (i, a) in enumerate(part):
        near = cfg.one_card_corners * float(quad_sides(a).min())
        for j, b in part[k + 1:]:
            ci, cj = readings[i].card, readings[j].card
            if ci is None or cj is None or ci.code == cj.code:
                continue
            if not all(float(np.hypot(*(b - p).T).min()) < near for p in a):
                continue
            surer = a if readings[i].confidence >= readings[j].confidence else b
            read = whole(surer) if whole is not None else None
            bad.update(n for n, c in ((i, ci), (j, cj)) if read is None or c.code != read.code)
    return [r for i, r in enumerate(readings) if i not in bad]


def _under_none(readings: list[CardReading], cfg: RecognizerConfig) -> list[CardReading]:
    """``readings``, but no card where what was read lies on another card found whole.

    A whole card's quad that holds another whole card named is the outline of several (a
    row of cards and the top one on it).  A covered card's index (at ``index_at`` of its
    width and height from its top-left corner) that lies inside a card found whole, of
    about its size or of the usual size of the cards named whole, is that card's own
    print: the top card of a fan lies on them all.  So a covered card is dropped where it
    is not the card that the whole card's reading leads with (named, or sure of it but
    set aside for other reasons): a top 4S's own index was read from a covered-corner
    quad as an AS; a KH's picture, in a photo overexposed 2.5 times, from a quad a third
    of its size as a JS."""
    whole = [(i, np.array(r.corners, np.float32).reshape(-1, 1, 2), r) for i, r in
             enumerate(readings) if not r.partial and len(r.corners) == 4]
    if not whole:
        return readings
    out = list(readings)
    fx, fy = cfg.index_at
    # each whole card's corners (the float32 values, as plain floats) and their box
    points = {j: w.reshape(-1, 2).tolist() for j, w, _ in whole}
    boxes = {j: (min(x for x, _ in p), min(y for _, y in p), max(x for x, _ in p),
                 max(y for _, y in p)) for j, p in points.items()}
    named = [(j, boxes[j]) for j, _, w_r in whole if w_r.card is not None]
    # the usual size of a card named whole: a covered card's quad, extrapolated from its
    # corner, may come out smaller than the card whose print it lies in
    usual = median([abs(quad_area(w.reshape(4, 2))) for _, w, w_r in whole
                    if w_r.card is not None] or [0.0])
    for i, r in enumerate(readings):
        if r.card is None or len(r.corners) != 4:
            continue
        q = np.array(r.corners, np.float32)
        area = abs(quad_area(q))
        if r.partial:
            at = q[0] + fx * (q[1] - q[0]) + fy * (q[3] - q[0])
            under = any(
                (w_r.card.code if w_r.card else w_r.alternatives[0][0]) != r.card.code
                and abs(quad_area(w.reshape(4, 2))) <= 1.2 * max(area, usual)
                and cv2.pointPolygonTest(w, (float(at[0]), float(at[1])), False) > 0
                for _, w, w_r in whole
                if w_r.card is not None
                or (w_r.alternatives and w_r.confidence >= cfg.min_confidence)
            )
        else:
            size = float(np.sqrt(area))
            contour = q.reshape(-1, 1, 2)
            # (a corner farther than the reach outside the quad's box is farther than that
            # from the quad: most pairs of cards are ruled out so, without OpenCV's test)
            reach = 0.02 * size
            x0, y0, x1, y1 = boxes[i]
            x0, y0, x1, y1 = x0 - reach, y0 - reach, x1 + reach, y1 + reach
            under = any(
                j != i and x0 <= bx0 and y0 <= by0 and bx1 <= x1 and by1 <= y1
                and all(cv2.pointPolygonTest(contour, (x, y), True) > -reach
                        for x, y in points[j])
                for j, (bx0, by0, bx1, by1) in named
            )
        if under:
            out[i] = CardReading(None, r.corners, r.confidence, r.alternatives, r.partial)
    return out


def _area(corners: tuple[tuple[float, float], ...]) -> float:
    if len(corners) != 4:
        return 0.0
    if isinstance(corners, tuple):
        # (a reading's corners, asked for by several steps of a frame: worked out once)
        try:
            return _tuple_area(corners)
        except TypeError:  # (corners that are no plain numbers: not kept)
            pass
    return float(quad_area(np.array(corners, np.float32)))


@functools.lru_cache(maxsize=256)
def _tuple_area(corners: tuple[tuple[float, float], ...]) -> float:
    return float(quad_area(np.array(corners, np.float32)))


def _has_colour(image: np.ndarray) -> bool:
    if image.ndim != 3 or image.shape[2] < 3:
        return False
    # a colour frame mostly shows it in its first rows already: those alone first
    head = image[:70:7, ::7, :3].astype(np.int16)
    if bool(np.abs(head[:, :, 0] - head[:, :, 1]).max() > 2
            or np.abs(head[:, :, 1] - head[:, :, 2]).max() > 2):
        return True
    sub = image[::7, ::7, :3].astype(np.int16)
    return bool(np.abs(sub[:, :, 0] - sub[:, :, 1]).max() > 2
                or np.abs(sub[:, :, 1] - sub[:, :, 2]).max() > 2)


# how many pixels of a row OpenCV's perspective warp of a 4-channel picture works out at a
# time (see _Pyramid.warp)
WARP_LANES = 16


class _Pyramid:
    """The frame at halving resolutions, made when first needed."""

    def __init__(self, image: np.ndarray) -> None:
        self.levels = [image]
        self._bgra: dict[int, np.ndarray] = {}

    def level(self, i: int) -> np.ndarray:
        while len(self.levels) <= i:
            self.levels.append(cv2.pyrDown(self.levels[-1]))
        return self.levels[i]

    def warp(self, i: int, m: np.ndarray, size: tuple[int, int]) -> np.ndarray:
        """``cv2.warpPerspective`` of level ``i`` (linear, border replicated): warped from a
        4-channel copy of the level, made once, which OpenCV interpolates with SIMD (three
        channels it does one by one, at twice the cost), and the fourth channel dropped
        again.  Warped a whole number of WARP_LANES pixels wide and cut back to ``size``:
        OpenCV works out that many pixels of a row at a time and the rest of a row (its
        width's remainder) one by one, some three times as slowly a pixel -- a corner
        patch 75 px wide took 46 us, 80 wide 28 -- and rounding a little otherwise (a level
        apart, at a pixel here and there), so every pixel is of the one computation."""
        src = self._bgra.get(i)
        if src is None:
            src = self._bgra[i] = cv2.cvtColor(self.level(i), cv2.COLOR_BGR2BGRA)
        w, h = size
        wide = -(-w // WARP_LANES) * WARP_LANES
        out = cv2.warpPerspective(src, m, (wide, h), flags=cv2.INTER_LINEAR,
                                  borderMode=cv2.BORDER_REPLICATE)
        if wide != w:
            out = out[:, :w]
        return np.asarray(cv2.cvtColor(out, cv2.COLOR_BGRA2BGR), dtype=np.uint8)


# rank mask, rank width/height (log), suit mask, suit width/height (log), redness, and the
# box (x0, y0, x1, y1) in the patch around both glyphs
_Glyphs = tuple[np.ndarray, float, np.ndarray, float, "float | None", tuple[int, int, int, int]]


def _components(mask: np.ndarray) -> tuple[int, np.ndarray, np.ndarray]:
    """Connected components (8-connected) of a small mask: count, labels, stats.  16-bit
    labels: OpenCV's 32-bit path takes about three times as long on patches this size, and
    a corner patch or centre crop holds far fewer than 65535 components.  With the C
    kernels, labels and statistics are theirs (the same numbers: a patch's ink, mostly
    paper between a few glyphs, is labelled run by run in half the time), for a mask of
    fewer 2 x 2 blocks than 16-bit labels number (more, and OpenCV's own labelling may
    refuse it, as it does)."""
    if _KERNELS is not None:
        h, w = mask.shape[:2]
        blocks = ((h + 1) // 2) * ((w + 1) // 2)
        if (mask.ndim == 2 and mask.dtype == np.uint8 and mask.flags.c_contiguous
                and 0 < blocks < 65535):
            numbered: NDArray[np.uint16] = np.empty((h, w), np.uint16)
            boxes: NDArray[np.int32] = np.empty((blocks + 1, 5), np.int32)
            count = _KERNELS.cc_label(mask, h, w, numbered, boxes)
            return count, numbered, boxes[:count]
        n, found = cv2.connectedComponents(mask, connectivity=8, ltype=cv2.CV_16U)
        ids: NDArray[np.uint16] = np.asarray(found, dtype=np.uint16)
        if ids.flags.c_contiguous:
            box_area = np.empty((n, 5), np.int32)
            _KERNELS.cc_stats(ids, ids.shape[0], ids.shape[1], box_area)
            return n, ids, box_area
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8,
                                                           ltype=cv2.CV_16U)
    return n, labels, stats


class IndexReader:
    """Cuts the rank and suit glyphs out of an upright corner patch and scores them."""

    def __init__(self, cfg: RecognizerConfig, profile: DeckProfile | None) -> None:
        self.cfg = cfg
        self.profile = profile
        self.model = builtin_model()
        self.colour = True  # False while reading a grey picture: no red/black evidence
        w, h = cfg.crop_size
        self.pw = int(round(cfg.index_window[0] * w))
        self.ph = int(round(cfg.index_window[1] * h))
        self.pw_wide = max(self.pw, int(round(cfg.index_window_wide * w)))
        # the rows and columns along a patch's outer edges that are cleared before the
        # glyphs are cut (the card's edge, the table beyond it)
        self.rim = max(2, int(0.008 * h))

    # -- glyph extraction
    def glyphs(self, patch: np.ndarray) -> list[_Glyphs]:
        """Candidate (rank mask, rank aspect, suit mask, suit aspect, redness) cut-outs."""
        return self._glyphs(patch)[0]

    def _glyphs(
        self, patch: np.ndarray, narrow: int | None = None, faint: bool = False,
        unstack: bool = False,
    ) -> tuple[list[_Glyphs], bool, bool, bool, bool]:
        """The cut-outs of :meth:`glyphs`; whether a glyph level with a rank glyph, just
        right of it, runs off the patch's right edge (the "0" of a ten wider than the
        window); and whether they were cut at the lighter threshold for faint red ink
        (only with ``faint``, and ``faint_ink``); whether a long line taken out of the
        ink touched a rank glyph (see :attr:`CornerRead.lined`); and whether they were
        cut from a rank run into its suit (see :attr:`CornerRead.stacked`; only with
        ``unstack``).  ``narrow``: the patch is a wider one of a corner whose patch was this
        wide (see :meth:`_cut`)."""
        cfg = self.cfg
        v = _ink_channel(patch)
        paper = _percentile(v, cfg.paper_percentile)
        if paper < 60:
            return [], False, False, False, False
        thr = min(paper * cfg.ink_ratio, paper - cfg.ink_min_contrast)
        mask = _below(v, thr)
        ink = mask.copy()
        runs_off: list[bool] = []
        removed: list[np.ndarray] = []  # long lines taken out of the ink
        lined: list[bool] = []
        pieces: list[tuple[np.ndarray, list[list[int]]]] = []
        out = self._cut(patch, v, thr, mask, ink, narrow, runs_off, removed, lined, pieces)
        if not out and not removed and pieces and not self._rank_in_reach(pieces[0][1]):
            # no fallback below but the faint one can cut anything out (see _rank_in_reach)
            return self._faint_only(patch, v, thr, paper, ink, narrow, faint, runs_off)
        if not out and unstack and cfg.stacked_rows > 0 and pieces:
            # a rank run into its suit by a blur: cut apart where the ink is thinnest
            out = self._split_stacked(patch, v, thr, mask, pieces[0], ink, narrow, removed,
                                      lined)
            if out:
                return out, bool(runs_off), False, bool(lined), True
        # (the first cut's mask, for the last resort below: the fallbacks overwrite it)
        first = mask.copy() if not out and unstack and cfg.beside_cols > 0 and pieces else None
        if not out:
            # glyphs blurred into each other or into a pip: thin the ink and look again
            # (against the ink as found: thinning parts a glyph the card's edge cuts from
            # the rim)
            out = self._cut(patch, v, thr, cv2.erode(mask, _CROSS), ink, narrow, None, removed,
                            lined)
        if not out:
            # ... or keep only the ink's darker half: between blurred glyphs that touch,
            # the bridge is lighter than their strokes
            core = _percentile(v, 2.0)
            if thr - core > 2 * cfg.ink_min_contrast:
                dark = (core + thr) / 2
                out = self._cut(patch, v, dark, _below(v, dark), None, narrow, None, removed,
                                lined)
        if not out:
            # ... or faint red ink taken up to halfway to the paper (see _faint_cut)
            out = self._faint_cut(patch, v, thr, paper, ink, narrow, faint)
            if out:
                return out, bool(runs_off), True, False, False
        if not out and cfg.merged_ink_darker > 0:
            # ... or, where ink from the index's column runs off the patch's right edge (a
            # blurred suit glyph run into the big pip beside it), take that ink only where
            # darker, the rest as found: the bridge between them is lighter than either,
            # while the rank's strokes, blurred grey, would be lost at a darker threshold
            split = self._split_merged(v, mask, ink, thr)
            if split is not None:
                out = self._cut(patch, v, thr, split, ink, narrow, None, removed, lined)
        if not out and first is not None:
            # ... or, last, a suit run into the big pip beside it: cut apart where the ink is
            # thinnest
            out = self._split_beside(patch, v, thr, first, pieces[0], ink, narrow, removed,
                                     lined)
            if out:
                return out, bool(runs_off), False, bool(lined), True
        return out, bool(runs_off), False, bool(out) and bool(lined), False

    def _rank_in_reach(self, rows: list[list[int]]) -> bool:
        """Whether the ink of a patch's first cut (its components' statistics ``rows`` as
        plain lists, the background first: the ink below the threshold, its rim cleared, no
        long line taken out) holds a piece that a rank glyph may start in: one starting in
        the rank's columns and rows (``rank_start``) at least a rank's least height tall.
        Every fallback of :meth:`_glyphs` but the faint one cuts from ink inside this ink
        (thinned, darker, or cut apart), each piece of which lies inside one of these: where
        none of them starts so, none of those fallbacks finds a rank glyph to start from,
        and they are not made (a blank corner: the long side of a card read both ways up,
        the corners of a printed card)."""
        cfg = self.cfg
        W, H = cfg.crop_size
        sx_max, sy_max = cfg.rank_start[0] * W, cfg.rank_start[1] * H
        hmin = cfg.rank_height[0] * H
        return any(x < sx_max and y < sy_max and h >= hmin for x, y, _w, h, _a in rows[1:])

    def _faint_only(
        self, patch: np.ndarray, v: np.ndarray, thr: float, paper: float, ink: np.ndarray,
        narrow: int | None, faint: bool, runs_off: list[bool],
    ) -> tuple[list[_Glyphs], bool, bool, bool, bool]:
        """What :meth:`_glyphs` gives for a patch whose first cut found no glyph and
        whose ink holds no rank within reach (see :meth:`_rank_in_reach`): only the faint
        fallback can find one, lighter ink being more ink."""
        out = self._faint_cut(patch, v, thr, paper, ink, narrow, faint)
        return out, bool(runs_off), bool(out), False, False

    def _faint_cut(
        self, patch: np.ndarray, v: np.ndarray, thr: float, paper: float, ink: np.ndarray,
        narrow: int | None, faint: bool,
    ) -> list[_Glyphs]:
        """The last fallback of :meth:`_glyphs` (``faint``): red ink on a corner that is
        mostly paper, taken up to halfway to the paper -- the thin strokes of a small, soft
        red index are pink, lighter than the threshold, while its suit, solid, is not (a
        small 2 of hearts showed its heart and no 2).  (Not black ink: grey strokes so
        taken, of a card out of focus, gave clubs read as spades; nor a red card back's
        lattice.)"""
        cfg = self.cfg
        if not (faint and cfg.faint_ink and self.colour
                and cv2.countNonZero(ink) < cfg.faint_ink_share * ink.size
                and self._red_ink(patch, ink, v, thr)):
            return []
        light = (thr + paper) / 2
        return self._cut(patch, v, light, _below(v, light), None, narrow)

    def _split_stacked(
        self, patch: np.ndarray, v: np.ndarray, thr: float, mask: np.ndarray,
        pieces: tuple[np.ndarray, list[list[int]]], ink: np.ndarray, narrow: int | None,
        removed: list[np.ndarray], lined: list[bool],
    ) -> list[_Glyphs]:
        """The cut-outs of ``mask`` (the ink below ``thr`` in ``v``, its rim cleared and
        long lines taken out by a first cut, which gave its components' ``pieces``: labels
        and statistics) with each piece of ink in the index's column too tall for a rank
        glyph (at most ``stacked_height``) cut across at one of its rows of least ink
        (``stacked_rows``, ``stacked_band``): a blurred rank run into the suit under it.
        The cut-outs of every row tried, the least ink first."""
        cfg = self.cfg
        W, H = cfg.crop_size
        m = self.rim
        ph, pw = mask.shape
        hmax = cfg.rank_height[1] * H
        top = cfg.stacked_height * H
        x_max, y_max = cfg.rank_start[0] * W, cfg.rank_start[1] * H
        labels, rows = pieces
        out: list[_Glyphs] = []
        for i, (x, y, w, h, _a) in enumerate(rows):
            if (i == 0 or not hmax < h <= top or not m < x < x_max or not m < y < y_max
                    or x + w >= pw - 1 or y + h >= ph - 1):
                continue
            piece = labels[y:y + h, x:x + w] == i
            for r in _thinnest(piece, v[y:y + h, x:x + w], thr, 1, cfg.stacked_band,
                               cfg.stacked_rows):
                cut = mask.copy()
                cut[y + r, x:x + w][piece[r]] = 0
                out += self._cut(patch, v, thr, cut, ink, narrow, None, removed, lined)
        return out

    def _split_beside(
        self, patch: np.ndarray, v: np.ndarray, thr: float, mask: np.ndarray,
        pieces: tuple[np.ndarray, list[list[int]]], ink: np.ndarray, narrow: int | None,
        removed: list[np.ndarray], lined: list[bool],
    ) -> list[_Glyphs]:
        """The cut-outs of ``mask`` (as for :meth:`_split_stacked`) with each piece of ink
        that starts in the index's column and is wider than ``beside_width`` times its
        height or runs off the patch's right edge, at most ``beside_height`` of a rank's
        greatest height tall, cut down at one of its columns of least ink (``beside_cols``,
        ``beside_band``): a blurred suit run into the big pip printed beside it.  The
        cut-outs of every column tried, the least ink first."""
        cfg = self.cfg
        W, H = cfg.crop_size
        m = self.rim
        ph, pw = mask.shape
        hmin, hmax = cfg.rank_height[0] * H, cfg.rank_height[1] * H
        top = cfg.beside_height * hmax
        x_max, y_max = cfg.rank_start[0] * W, cfg.rank_start[1] * H
        labels, rows = pieces
        # the glyphs a rank may be (where a rank starts, of a rank's height): left and top
        # edges, right edge, and how far down a suit under it starts at the least
        ranks = [(rx, ry + cfg.beside_below * rh, rx + rw) for rx, ry, rw, rh, _a in rows[1:]
                 if hmin <= rh <= hmax and rx < x_max and ry < y_max]
        out: list[_Glyphs] = []
        for i, (x, y, w, h, _a) in enumerate(rows):
            if (i == 0 or not m < x < x_max or y <= m or y + h >= ph - 1 or h > top
                    or (w < cfg.beside_width * h and x + w < pw - 1)):
                continue
            if not any(below < y and rx0 < x + w and rx1 > x for rx0, below, rx1 in ranks):
                continue  # no rank starts above it: no suit (the "0" of a 10 beside its "1")
            piece = labels[y:y + h, x:x + w] == i
            for c in _thinnest(piece, v[y:y + h, x:x + w], thr, 0, cfg.beside_band,
                               cfg.beside_cols):
                cut = mask.copy()
                cut[y:y + h, x + c][piece[:, c]] = 0
                out += self._cut(patch, v, thr, cut, ink, narrow, None, removed, lined)
        return out

    def _split_merged(
        self, v: np.ndarray, mask: np.ndarray, ink: np.ndarray, thr: float
    ) -> np.ndarray | None:
        """The ink ``ink`` (``v`` below ``thr``) with each piece that starts in the index's
        column and runs off the patch's right edge taken again at ``merged_ink_darker`` of
        the way from ``thr`` to its own darkest levels; None where no piece does.  (``mask``
        is overwritten: the cut-outs before cleared its rim.)"""
        cfg = self.cfg
        pw = ink.shape[1]
        n, labels, stats = _components(ink)
        column = cfg.rank_start[0] * cfg.crop_size[0]
        merged = [(i, x, y, w, h) for i, (x, y, w, h, _a) in enumerate(stats.tolist())
                  if i > 0 and x < column and x + w >= pw - 1]
        if not merged:
            return None
        np.copyto(mask, ink)
        for i, x, y, w, h in merged:
            box = (slice(y, y + h), slice(x, x + w))
            piece = labels[box] == i
            levels = v[box][piece]
            core = float(np.partition(levels, len(levels) // 50)[len(levels) // 50])
            darker = thr - (thr - core) * cfg.merged_ink_darker
            mask[box][piece] = levels < darker
        return mask

    def _red_ink(self, patch: np.ndarray, ink: np.ndarray, v: np.ndarray, thr: float) -> bool:
        """Whether the ``ink`` of a corner patch (its pixels darker than ``thr`` in its ink
        channel ``v``) is red."""
        red = _redness(patch, ink, _paper_colour(patch, v, thr))
        return red is not None and red > self.cfg.red_threshold

    def _cut(
        self,
        patch: np.ndarray,
        v: np.ndarray,
        thr: float,
        mask: np.ndarray,
        ink: np.ndarray | None = None,
        narrow: int | None = None,
        runs_off: list[bool] | None = None,
        removed: list[np.ndarray] | None = None,
        lined: list[bool] | None = None,
        pieces: list[tuple[np.ndarray, list[list[int]]]] | None = None,
    ) -> list[_Glyphs]:
        """Cut-outs of rank and suit from the ink ``mask``.  ``narrow``: the patch is the
        wider one of a corner whose patch was ``narrow`` px wide; only a rank glyph that
        took in a glyph running off that patch's right edge is cut (the narrow patch gave
        the rest), and no glyph that starts beyond that edge is looked at (the pips beside
        a big index).  ``runs_off``: True is appended to it when a glyph level with a rank
        glyph, just right of it, runs off this patch's right edge (see :func:`_next_digit`);
        ``removed``: the long straight lines taken out of the ink (of this patch, by this
        cut or an earlier one, whose mask this may be made from) are appended to it;
        ``lined``: True is appended to it when one touches a rank glyph cut out (see
        :attr:`CornerRead.lined`); ``pieces``: the labels and statistics (as plain lists) of
        the mask's components as cut (its rim cleared, long lines taken out) are appended to
        it."""
        cfg = self.cfg
        H = cfg.crop_size[1]
        m = self.rim
        if ink is None:
            ink = mask.copy()
        mask[:m, :] = 0
        mask[:, :m] = 0
        n, labels, stats = _components(mask)
        # the components' stats as plain lists: a patch has a few, and numpy's overhead on
        # arrays that small is most of the cost of the loops below
        rows = stats.tolist()
        # long straight lines (the frame of a face card's picture, a panel's border) are
        # not glyphs; where a component is that long, cut the lines out so that a glyph
        # touching one survives
        L = max(9, int(cfg.line_length * H))
        if removed is None:
            removed = []
        n, labels, rows = _without_long_lines(mask, n, labels, rows, L, removed)
        if pieces is not None:
            pieces.append((labels, rows))
        ph, pw = mask.shape
        hmin = cfg.rank_height[0] * H
        hmax = cfg.rank_height[1] * H
        least = 0.25 * hmin
        near = m + cfg.cut_glyph_gap
        # (label, x0, y0, x1, y1, height) of each component that may be part of a glyph
        comps = []
        off_right = []  # touching the patch's right edge only
        for i in range(1, n):
            x, y, w, h, a = rows[i]
            if a < 6 or h < least:
                continue
            if narrow is not None and x >= narrow - 1 - m:
                continue  # beyond the narrow patch: a pip beside the index
            if x <= m or y <= m or y + h >= ph - 1:
                continue
            if x + w >= pw - 1:
                off_right.append((i, x, y, x + w, y + h, h))
                continue
            if x <= near and _runs_to_rim(labels, i, ink, (x, y, w, h), m):
                continue
            comps.append((i, x, y, x + w, y + h, h))
        W = cfg.crop_size[0]
        sx_max, sy_max = cfg.rank_start[0] * W, cfg.rank_start[1] * H
        starts = [j for j, c in enumerate(comps)
                  if hmin <= c[5] <= hmax and c[1] < sx_max and c[2] < sy_max]
        if runs_off is not None and off_right and any(
            _next_digit(comps[j], c) for j in starts for c in off_right
        ):
            runs_off.append(True)
        if not comps:
            return []
        starts.sort(key=lambda j: comps[j][2] + 0.5 * comps[j][1])
        out = []
        paper_col: np.ndarray | None = None
        row_lo, row_hi = cfg.rank_row_height
        row_low, row_drop = cfg.rank_row_low, cfg.rank_row_drop
        for st in starts[: cfg.max_hypotheses]:
            # the rank: the start and what lies beside it in its row or inside its box
            taken = [False] * len(comps)
            taken[st] = True
            rank = [comps[st][0]]
            _, x0, y0, x1, y1, _ = comps[st]
            changed = True
            while changed:
                changed = False
                for j, (i, cx0, cy0, cx1, cy1, ch) in enumerate(comps):
                    if taken[j]:
                        continue
                    hh = y1 - y0
                    vov = min(y1, cy1) - max(y0, cy0)
                    gap = max(cx0 - x1, x0 - cx1)
                    same_row = (
                        vov > 0.5 * min(hh, ch)
                        and gap < 0.6 * hh
                        and row_lo * hh < ch < row_hi * hh
                        and (ch < row_low * hh or cy0 - y0 <= row_drop * hh)
                    )
                    inside = cx0 >= x0 - 1 and cx1 <= x1 + 1 and cy0 >= y0 - 1 and cy1 <= y1 + 1
                    if same_row or inside:
                        taken[j] = True
                        rank.append(i)
                        x0, y0 = min(x0, cx0), min(y0, cy0)
                        x1, y1 = max(x1, cx1), max(y1, cy1)
                        changed = True
            rh = y1 - y0
            if (x1 - x0) > 2.0 * rh:
                continue
            if narrow is not None and not any(
                taken[j] and c[3] >= narrow - 1 and _next_digit(comps[st], c)
                for j, c in enumerate(comps)
            ):
                continue  # no "0" the narrow patch cut off beside this "1"
            # suit: the nearest component below, overlapping the rank's columns
            best = -1
            best_d = 0.0
            for j, (_, cx0, cy0, cx1, _cy1, ch) in enumerate(comps):
                if taken[j]:
                    continue
                if cy0 < y1 - 0.15 * rh or cy0 > y1 + 0.9 * rh:
                    continue
                if not (cfg.suit_min_height * rh <= ch <= 1.5 * rh):
                    continue
                if cx1 < x0 - 0.3 * rh or cx0 > x1 + 0.3 * rh:
                    continue
                d = cy0 - y1 + 0.5 * abs((cx0 + cx1) / 2 - (x0 + x1) / 2)
                if best < 0 or d < best_d:
                    best, best_d = j, d
            if best < 0:
                continue
            _, sx0, sy0, sx1, sy1, _ = comps[best]
            if sx1 - sx0 > cfg.suit_max_aspect * (sy1 - sy0):
                continue  # no suit is that flat: a piece of one (its lobes cut off)
            suit_ids = [comps[best][0]]
            for j, (i, cx0, cy0, cx1, cy1, _) in enumerate(comps):
                if taken[j] or j == best:
                    continue
                if cx0 >= sx0 and cx1 <= sx1 and cy0 >= sy0 and cy1 <= sy1:
                    suit_ids.append(i)
            rmask = _label_mask(labels, rank, (x0, y0, x1, y1))
            # (within 2 px: a thinned glyph lies a pixel further off)
            if lined is not None and any(
                    r[max(0, y0 - 2):y1 + 2, max(0, x0 - 2):x1 + 2].any() for r in removed):
                lined.append(True)
            smask = _label_mask(labels, suit_ids, (sx0, sy0, sx1, sy1))
            red = None
            if self.colour:
                if paper_col is None:
                    paper_col = _paper_colour(patch, v, thr)
                red = _redness(patch[sy0:sy1, sx0:sx1], smask, paper_col)
            out.append(
                (rmask, math.log((x1 - x0) / max(1, rh)), smask,
                 math.log((sx1 - sx0) / max(1, sy1 - sy0)), red,
                 (min(x0, sx0), y0, max(x1, sx1), sy1))
            )
        return out

    # -- scoring
    def read_patch(
        self, patch: np.ndarray, target: tuple[int, int] | None = None
    ) -> CornerRead | None:
        return self.read_patches([patch], target)[0]

    def read_patches(
        self,
        patches: list[np.ndarray],
        target: tuple[int, int] | None = None,
        wider: Callable[[int], np.ndarray] | None = None,
        whole_rank: bool = False,
        faint: bool = False,
        unstack: bool = True,
    ) -> list[CornerRead | None]:
        """For each patch, the best glyph cut-out; with ``target`` (rank, suit class
        indices, when teaching) the one that looks most like that card.  All glyphs of all
        patches are scored in one batch.  ``wider(i)``: patch ``i`` warped ``pw_wide``
        wide, asked for only where a glyph level with a rank glyph, just right of it, runs off
        its right edge; its cut-outs count only where they read as a ten (a "10" wider than
        the window: the "1" and the "0" both).  ``whole_rank``: a patch where such a glyph
        runs off the edge gives only what the wider patch reads (a covered corner, whose
        middle cannot bear its reading out: the "1" of a big "10" beside part of its "0"
        read as a 6), and its suit is not weighed by how it widens (``spade_widening``),
        nor its ink run together cut apart (``stacked_rows``, ``beside_cols``: a covered
        card's middle cannot settle its suit).  ``faint``: a patch showing no glyphs at the
        ink threshold is cut again at a lighter one where its ink is red (``faint_ink``):
        only for the index corners of a whole card, whose middle can bear a reading from
        such cut-outs out (:meth:`Recognizer._decide_staged`).  ``unstack``: ink run together
        may be cut apart (a patch where no such cut-out counts is read as if it may not)."""
        cfg = self.cfg
        cands = []
        wide: list[bool] = []
        faints: list[bool] = []  # cut at the lighter threshold (faint red ink)
        stacks: list[bool] = []  # cut from a rank run into its suit
        lines: list[bool] = []  # a long line taken out touched a rank glyph
        for pi, patch in enumerate(patches):
            found, runs_off, cut_faint, cut_lined, cut_stacked = self._glyphs(
                patch, faint=faint, unstack=unstack and not whole_rank)
            for g in ([] if runs_off and whole_rank else found if cut_stacked
                      else found[: cfg.max_hypotheses]):
                cands.append((pi, g))
                wide.append(False)
                faints.append(cut_faint)
                stacks.append(cut_stacked)
                lines.append(cut_lined)
            if runs_off and wider is not None:
                more, _, cut_faint, cut_lined, cut_stacked = self._glyphs(
                    wider(pi), patch.shape[1], faint)
                for g in more[: cfg.max_hypotheses]:
                    cands.append((pi, g))
                    wide.append(True)
                    faints.append(cut_faint)
                    stacks.append(cut_stacked)
                    lines.append(cut_lined)
        out: list[CornerRead | None] = [None] * len(patches)
        if not cands:
            return out
        feats = glyph_features([g[0] for _, g in cands] + [g[2] for _, g in cands])
        rf, sf = feats[: len(cands)], feats[len(cands) :]
        ra = np.array([g[1] for _, g in cands], np.float32)
        sa = np.array([g[3] for _, g in cands], np.float32)
        rs = self._scores(self.model.ranks, rf, ra, len(RANK_MODEL_CLASSES),
                          self.profile.ranks if self.profile else None)
        ss = self._scores(self.model.suits, sf, sa, len(SUIT_CLASSES),
                          self.profile.suits if self.profile else None)
        best_q = [-1e9] * len(patches)
        for k, (pi, (rmask, raspect, smask, saspect, red, box)) in enumerate(cands):
            if wide[k] and int(np.argmax(rs[k])) != _TEN:
                continue  # the wider patch is for a ten's "0" only
            glyph_cs = float(ss[k, _CLUB] - ss[k, _SPADE])
            adjust_suit_scores(ss[k], smask, red, cfg, widening=not whole_rank,
                               both_sides=not whole_rank)
            cr = CornerRead(rs[k], ss[k], red, rf[k], raspect, sf[k], saspect, rmask, smask, box,
                            glyph_cs, faints[k], lines[k], stacks[k])
            if stacks[k] and cr.quality < cfg.stacked_quality:
                continue  # cut where no rank and suit meet: no glyphs (see stacked_quality)
            q = cr.quality if target is None else float(rs[k, target[0]] + ss[k, target[1]])
            if out[pi] is None or q > best_q[pi]:
                out[pi], best_q[pi] = cr, q
        # a patch whose ink, cut apart, gave no cut-out that counts is read as if it could
        # not be (the other fallbacks of IndexReader._glyphs)
        again = [pi for pi in range(len(patches)) if out[pi] is None
                 and any(stacks[k] for k, (i, _) in enumerate(cands) if i == pi)]
        if again:
            for pi, r in zip(again, self.read_patches(
                    [patches[pi] for pi in again], target,
                    None if wider is None else (lambda j: wider(again[j])), whole_rank,
                    faint, unstack=False), strict=True):
                out[pi] = r
        return out

    def _scores(
        self,
        ex: Exemplars,
        f: NDArray[np.float32],
        a: NDArray[np.float32],
        n: int,
        taught: Exemplars | None,
    ) -> np.ndarray:
        s = ex.class_scores(f, a, n, self.cfg.aspect_weight)
        if taught is not None and len(taught):
            t = taught.class_scores(f, a, n, self.cfg.aspect_weight)
            s = np.maximum(s, np.where(t > -1, t + self.cfg.profile_bonus, -1))
        return s


# ---------------------------------------------------------------------------- recognizer


class _CornerWarp:
    """Warps the index corners of one card to upright patches: corner k (0..3, clockwise
    from the quad's top-left) seen as the top-left of the card turned k quarter turns."""

    def __init__(
        self, pyr: _Pyramid, quad: np.ndarray, cfg: RecognizerConfig, size: tuple[int, int],
        ways: list[int] | None = None,
    ) -> None:
        H = cfg.crop_size[1]
        self.q = order_clockwise(quad)
        self.sides = quad_sides(self.q)
        long_side = float(self.sides.max())
        lvl = 0
        while long_side / (2 ** (lvl + 1)) >= 1.3 * H:
            lvl += 1
        self.pyr, self.lvl = pyr, lvl
        self.img = pyr.level(lvl)
        self.qs = self.q / (2**lvl)
        self.rect = _canonical_rect(cfg.crop_size)
        self.size = size
        # which way up: the short sides are top and bottom, unless perspective makes the
        # card look square-ish; then both ways are tried
        a = (self.sides[0] + self.sides[2]) / 2
        b = (self.sides[1] + self.sides[3]) / 2
        self.ways = [0, 1]
        if ways is not None:
            self.ways = ways
        elif min(a, b) / max(a, b) < cfg.clear_portrait:
            self.ways = [0] if a < b else [1]

    def likely_ways(self) -> list[int]:
        """Of a card that may lie either way up, the way whose short sides are top and
        bottom (as :meth:`Recognizer._interpret` favours it); both where the sides are
        alike."""
        a = (self.sides[0] + self.sides[2]) / 2
        b = (self.sides[1] + self.sides[3]) / 2
        return [0] if a < b else [1] if b < a else list(self.ways)

    def other_way(self, cfg: RecognizerConfig) -> _CornerWarp:
        """The same card's corners read the other way up (of a card clear which way up it
        lies): its quad, already in order, is ordered the same again."""
        return _CornerWarp(self.pyr, self.q, cfg, self.size, [1 - self.ways[0]])

    def patch(self, k: int, width: int | None = None) -> np.ndarray:
        """Corner ``k``'s patch; ``width``: wider than the usual (pixel for pixel the same
        where they overlap, so a glyph box of one is a box of the other)."""
        m = cv2.getPerspectiveTransform(turn_quad(self.qs, k), self.rect)
        size = self.size if width is None else (width, self.size[1])
        return self.pyr.warp(self.lvl, m, size)

    def near_edge(self, margin: float) -> bool:
        """Whether the card reaches within ``margin`` px of the picture's edge."""
        h, w = self.img.shape[:2]
        q = self.qs
        return bool((q.min() < margin) or (q[:, 0].max() > w - 1 - margin)
                    or (q[:, 1].max() > h - 1 - margin))

    def inside(self, ks: list[int], reads: list[CornerRead | None], margin: float
               ) -> list[CornerRead | None]:
        """``reads`` (of corners ``ks``), each whose glyphs come within ``margin`` px of the
        picture's edge dropped: an index the edge cuts may read as another."""
        return [r if r is None or self.box_inside(k, r.box, margin) else None
                for k, r in zip(ks, reads, strict=True)]

    def box_inside(self, k: int, box: tuple[int, int, int, int], margin: float) -> bool:
        """Whether the glyph box (pixels of corner ``k``'s patch) lies at least ``margin``
        px inside the picture: an index the picture's edge cuts may read as another."""
        m = cv2.getPerspectiveTransform(self.rect, turn_quad(self.qs, k))
        x0, y0, x1, y1 = box
        pts = np.array([[[x0, y0], [x1, y0], [x1, y1], [x0, y1]]], np.float32)
        fx = cv2.perspectiveTransform(pts, m)[0]
        h, w = self.img.shape[:2]
        return bool(fx.min() >= margin and fx[:, 0].max() <= w - 1 - margin
                    and fx[:, 1].max() <= h - 1 - margin)


@dataclass
class _Interpretation:
    corners: np.ndarray  # clockwise from the card's top-left
    reads: list[CornerRead]
    score: float
    # the opposite index corner of this way up was read and shows no index
    lone: bool = False


class Recognizer:
    """Finds and reads playing cards in frames."""

    def __init__(
        self, config: RecognizerConfig | None = None, profile: DeckProfile | None = None
    ) -> None:
        self.config = config or RecognizerConfig()
        self.profile = profile
        self.reader = IndexReader(self.config, profile)
        # CPU time per stage, when enabled (bench/vision_profile.py)
        self.stages = Stages()
        # the last frame read, in grey (for the QR reader of vision.identify, which would
        # otherwise convert the same frame again)
        self.frame_gray: np.ndarray | None = None
        self.frame_explained = False
        # the edge widths (see edge_blurs) and heights of the cards of the frame being read,
        # measured already, by their readings' corners
        self._edge_widths: dict[tuple[tuple[float, float], ...], tuple[float | None, float]] = {}
        # asked, when set, of a card whose corners show no index at all before it is read
        # again restored: whether the card (its corners in the frame) holds one of our
        # printed codes -- then it is no playing card, and not worth the second look
        self.holds_code: Callable[[np.ndarray], bool] | None = None
        self._centre_rect = _canonical_rect(self.config.centre_size)

    # -- detection
    def find_cards(self, image: np.ndarray) -> list[CardQuad]:
        """Cards found in ``image`` (detection only): corners and rectified crops."""
        bgr = to_bgr(image)
        if bgr is None or min(bgr.shape[:2]) < 8:
            return []
        try:
            quads = detect_quads(bgr, self.config)
        except cv2.error:
            return []
        return [CardQuad(q, bgr, self.config.crop_size) for q in quads]

    # -- reading
    def prepare(self, image: np.ndarray) -> _Pyramid | None:
        """The picture as a BGR pyramid (None if it is no picture); notes whether it has
        colour at all (a grey picture gives no red/black evidence)."""
        bgr = to_bgr(image)
        if bgr is None or min(bgr.shape[:2]) < 8:
            return None
        self.reader.colour = _has_colour(image)
        return _Pyramid(bgr)

    def read(self, image: np.ndarray) -> list[CardReading]:
        """Every card found in ``image`` (BGR or grey uint8, any size), read or abstained.
        Sets :attr:`frame_explained`: whether the cards found cover every bright region of
        it (see :func:`vision.detect.detect`)."""
        self.frame_gray = None
        self.frame_explained = False
        self._edge_widths = {}
        try:
            with self.stages("detect"):
                pyr = self.prepare(image)
                if pyr is None:
                    return []
                apart: list[bool] = []
                bgr = pyr.levels[0]
                self.frame_gray = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
                guessed: list[bool] = []
                explained: list[bool] = []
                quads, blobs = detect(bgr, self.config, apart, self.frame_gray, guessed,
                                      explained)
                self.frame_explained = bool(explained and explained[0])
                gray = self.frame_gray
                bright = self._brightened(bgr, gray, quads)
            if bright is None:
                raw = self._read_quads(pyr, quads, apart)
                if self.config.dim_each:
                    raw = self._dim_read_again(bgr, gray, quads, apart, raw)
            else:
                # the cards found are read brightened (what else is looked for, in the
                # picture as taken)
                try:
                    self.frame_gray = cv2.cvtColor(bright, cv2.COLOR_BGR2GRAY)
                    raw = self._read_quads(_Pyramid(bright), quads, apart)
                finally:
                    self.frame_gray = gray
            if any(guessed):
                # quads guessed beside the cards found count only when they name a card
                n_quads = len(quads)
                raw, quads = keep_read_guesses(raw, quads, guessed)
                if len(quads) < n_quads:
                    # (a guess dropped may have been what covered a bright region)
                    self.frame_explained = False
            tops: list[CardReading] = []
            grown: list[CardReading] = []  # cards found round their printed frames
            if self.config.read_row_tops:
                with self.stages("fans"):
                    tops = self._row_tops(pyr, raw)
            raw = raw + tops
            if self.config.grow_prints:
                raw, grown = self._grown_prints(pyr, raw)
            # a bright region that the cards named whole explain needs no search (two cards
            # touching, each found whole; a card found round its printed frame)
            found = [np.array(r.corners, np.float32).reshape(4, 2) for r in raw
                     if r.card is not None and not r.partial and len(r.corners) == 4]
            if blobs and found:
                blobs = [b for b in blobs
                         if not _covered_by(b, found, self.config.print_blob_cover)]
            readings = _drop_doubles(raw)
            named_areas = [abs(_area(r.corners)) for r in raw if r.card is not None]
            blobs = [b for b in blobs if not self._table_part(b, named_areas, bgr.shape)]
            if blobs and quads:
                with self.stages("overlaps"):
                    readings += self.read_overlaps(pyr, quads, blobs, readings)
            # bright regions no card read explains: a blob of overlapping cards, or a quad
            # around several that could not be named
            # (an unread quad of a single card's size is one card, not an overlap: the
            # stage would cost a frame of separate cards time for little)
            regions = blobs + [np.array(r.corners, np.float32)
                               for r in _big_unread(raw, self.config)]
            if blobs and self.config.blob_rest:
                # the rest of touching cards' paper first: what it names is no search's
                with self.stages("overlaps"):
                    readings += self._rest_of_blobs(pyr, blobs, readings)
                covering = _covering(readings, self.config)
                regions = [b for b in regions
                           if not _covered_by(b, covering, self.config.print_blob_cover)]
            if regions and self.config.read_fans:
                with self.stages("fans"):
                    # (a row's top card does not size the search: see read_fans)
                    # (nor does a card found round its printed frame: its quad is
                    # inferred, and a covered corner sized from it was read as a spade)
                    fanned = fan_stage.read_fans(self, pyr, quads, regions, readings,
                                                 unsized=tops + grown)
                    readings += fanned
                if fanned and blobs and self.config.blob_rest:
                    # what the covered cards named leave of the paper, beside them
                    with self.stages("overlaps"):
                        readings += self._rest_of_blobs(pyr, blobs, readings, near=fanned)
            readings = self._unblurred(pyr, readings)
            readings = self._index_sized(pyr, readings)
            readings = _under_none(readings, self.config)
            readings = _inside_named(readings, self.config)
            readings = _one_card_two_ways(readings, self.config,
                                          lambda q: self.read_quad(pyr, q).card)
            named = any(r.card is not None for r in readings)
            paper = rim_paper(bgr, self.config)
            if paper >= self.config.whole_frame_paper or (
                paper >= self.config.whole_frame_min_paper and not named
            ):
                # (read again restored only when nothing else was named: a light grey
                # table's rim looks like paper too)
                whole = self._whole_frame(pyr, retry=not named)
                if whole is not None:
                    return [whole]  # what was found inside it is its print
            return readings
        except (cv2.error, ValueError):
            # (a picture OpenCV cannot work on, too small or degenerate; a TypeError is a
            # fault of the reader's own, the compiled one's too, and is for its caller to
            # report: companion identify and the camera loop say so, the frame unread)
            return []

    def _rest_of_blobs(
        self, pyr: _Pyramid, blobs: list[np.ndarray], readings: list[CardReading],
        near: list[CardReading] | None = None,
    ) -> list[CardReading]:
        """What :meth:`_blob_rest` names in ``blobs``, and then, ``blob_rest_again`` times,
        in the blobs where it named cards, beside those cards; with ``near`` (cards named
        since by another stage), only beside those and then beside what that names, once
        more than ``blob_rest_again``."""
        if near is None:
            out = more = self._blob_rest(pyr, blobs, readings)
        else:
            out, more = [], near
        for _ in range(self.config.blob_rest_again + (near is not None)):
            if not more:
                break
            # a blob where cards were found: its rest looked at again
            centres = [(sum(x for x, _ in r.corners) / len(r.corners),
                        sum(y for _, y in r.corners) / len(r.corners))
                       for r in more]
            again = [b for b in blobs if any(
                cv2.pointPolygonTest(b, c, False) >= 0 for c in centres)]
            more = self._blob_rest(pyr, again, readings + out, near=more)
            out = out + more
        return out

    def _brightened(
        self, bgr: np.ndarray, gray: np.ndarray, quads: list[np.ndarray]
    ) -> np.ndarray | None:
        """The picture brightened to put the paper of the cards found (``quads``) at
        ``dim_target``, where it is darker than ``dim_paper`` and the picture's noise no
        more than 1 / ``dim_snr`` of its level; else None."""
        cfg = self.config
        if not quads or cfg.dim_paper <= 0:
            return None
        paper = _paper_level(gray, quads)
        if not 0 < paper < cfg.dim_paper or paper < cfg.dim_snr * noise_sigma(gray):
            return None
        return np.asarray(cv2.convertScaleAbs(bgr, alpha=cfg.dim_target / paper), np.uint8)

    def _dim_read_again(
        self, bgr: np.ndarray, gray: np.ndarray, quads: list[np.ndarray],
        apart: list[bool], raw: list[CardReading],
    ) -> list[CardReading]:
        """``raw``, the readings of ``quads`` in the picture as taken, with each card not
        named whose own paper is dim (see ``dim_paper``) read again brightened, as a dim
        picture's cards are, and taken where then named: a card in a shadow on a table lit
        elsewhere, where the cards' paper as a whole is not dim."""
        cfg = self.config
        dim = [i for i, r in enumerate(raw) if r.card is None and not r.coded
               and 0 < _paper_level(gray, [quads[i]]) < cfg.dim_paper]
        if not dim:
            return raw
        part = [quads[i] for i in dim]
        bright = self._brightened(bgr, gray, part)
        if bright is None:
            return raw
        lone = self._lying_apart(quads, apart)
        try:
            self.frame_gray = cv2.cvtColor(bright, cv2.COLOR_BGR2GRAY)
            again = self._read_quads(_Pyramid(bright), part, lone=[lone[i] for i in dim])
        finally:
            self.frame_gray = gray
        out = list(raw)
        for i, r in zip(dim, again, strict=True):
            if r.card is not None:
                out[i] = r
        return out

    def _grown_prints(
        self, pyr: _Pyramid, readings: list[CardReading]
    ) -> tuple[list[CardReading], list[CardReading]]:
        """``readings`` with each quad found but not named that lies in no card named, and
        is no larger than the cards named, read again as the card round it, where it is a
        frame printed in a card's middle (:func:`vision.neighbours.card_round_print`):
        where cards touch, their paper is one region, and the panel round a card's pips or a
        court's picture frame is what outlines a card's shape.  The card is read as any card
        found whole is, and taken where it is named and overlaps no card named by more than
        ``print_overlap``; with the readings of the cards so found.  (Not a quad holding one
        of our codes: one of our own cards, whole.)"""
        cfg = self.config
        gray = self.frame_gray
        if gray is None or not any(r.card is None and not r.partial and not r.coded
                                   and len(r.corners) == 4 for r in readings):
            return readings, []  # (most frames: every quad named, or one of our own cards)
        named = [np.array(r.corners, np.float32).reshape(4, 2) for r in readings
                 if r.card is not None and len(r.corners) == 4]
        areas = [abs(quad_area(n)) for n in named]
        largest = median(areas) * cfg.fan_quad_area if areas else math.inf
        out = list(readings)
        grown: list[CardReading] = []
        for i, r in enumerate(readings):
            if r.card is not None or r.partial or r.coded or len(r.corners) != 4:
                continue
            q = np.array(r.corners, np.float32).reshape(4, 2)
            area = abs(quad_area(q))
            if not 0 < area <= largest or any(
                    float(cv2.intersectConvexConvex(q, n)[0]) > 0.5 * area for n in named):
                continue
            card = card_round_print(gray, q, cfg.print_edge_contrast)
            if card is None:
                continue
            card = order_clockwise(card)
            if _overlaps_any(card, named, cfg.print_overlap):
                continue
            reading = self._read_quads(pyr, [card])[0]
            if reading.card is None:
                continue
            out[i] = reading
            named.append(card)
            grown.append(reading)
        return out, grown

    def _table_part(
        self, blob: np.ndarray, named_areas: list[float], shape: tuple[int, ...]
    ) -> bool:
        """Whether a bright region of Otsu's mask that no card explains (``blob``, picture
        pixels) is the table's lighter part rather than a hand of overlapping cards: it
        reaches two sides of the picture and is larger than ``blob_table_area`` x the
        median card named (three or more named: ``named_areas``)."""
        cfg = self.config
        if len(named_areas) < cfg.single_min_cards:
            return False
        if float(cv2.contourArea(blob)) <= cfg.blob_table_area * median(named_areas):
            return False
        h, w = shape[:2]
        x0, y0 = (float(v) for v in blob.min(axis=0))
        x1, y1 = (float(v) for v in blob.max(axis=0))
        return int(x0 <= 2) + int(y0 <= 2) + int(x1 >= w - 3) + int(y1 >= h - 3) >= 2

    def _whole_frame(self, pyr: _Pyramid, retry: bool = True) -> CardReading | None:
        """The picture read as one card that fills it (a photo cropped to the card), when
        it has a card's proportions and the reading names a card; else None.  ``retry``:
        a reading that names none is read again restored (see :meth:`read_quad`)."""
        h, w = pyr.levels[0].shape[:2]
        if min(h, w) < 32 or min(h, w) / max(h, w) < self.config.whole_frame_aspect:
            return None
        quad = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)
        reading = self.read_quad(pyr, quad, retry)
        return reading if reading.card is not None else None

    def _row_tops(self, pyr: _Pyramid, raw: list[CardReading]) -> list[CardReading]:
        """The top cards of rows read as one card: the outline of a row of cards, each
        covering most of the one before, has a card's shape (five cards a fifth of a width
        apart make a card turned a quarter), and is found whole but not named.  The top
        card fills one end of it, as wide as a card whose height is the row's short side:
        each end is read as such a card, and one named from both its index corners, the
        other end not, is taken, unless that card is named already (two cards edge to edge
        taken for one: the end read is the card beside it, found whole).  Not where cards
        are named and the outline is no larger than they are (``fan_quad_area``): a card
        not named, whose ends would be read for nothing."""
        out: list[CardReading] = []
        seen = {r.card.code for r in raw if r.card is not None}
        for r in _big_unread(raw, self.config):
            q = np.asarray(r.corners, np.float32)
            sides = quad_sides(q)
            # (k: the first of the two shorter opposite sides, the row's ends)
            k = 0 if sides[0] + sides[2] < sides[1] + sides[3] else 1
            ends = (k, k + 2)
            length = (sides[k + 1] + sides[(k + 3) % 4]) / 2
            height = (sides[k] + sides[k + 2]) / 2
            t = fan_stage.CARD_ASPECT * height / max(1e-6, length)
            if not 0.3 <= t <= 0.85:
                continue  # little more than one card long, or over three: no such row
            found = []
            for e in ends:
                a, b = q[e], q[(e + 1) % 4]  # this end, along the quad's order
                c, d = q[(e + 2) % 4], q[(e + 3) % 4]  # the far end (c after b, d after c)
                quad = np.array([a, b, b + t * (c - b), a + t * (d - a)], np.float32)
                _, _, staged = self._stage_quad(pyr, order_clockwise(quad))
                reading = self._decide_staged(*staged)
                if reading.card is not None and len(staged[0].reads) == 2:
                    found.append(reading)  # (named from both index corners)
            if len(found) == 1 and found[0].card is not None and found[0].card.code not in seen:
                out.append(found[0])
        return out

    def read_overlaps(
        self,
        pyr: _Pyramid,
        quads: list[np.ndarray],
        blobs: list[np.ndarray],
        readings: list[CardReading],
    ) -> list[CardReading]:
        """Cards partly covered by others (a fanned hand): each corner that shows on the
        outline of their blob is read as a top-left index corner of a card the size of the
        whole cards found.  Only named cards are returned (no abstentions: most corners of
        such a blob are not index corners)."""
        cfg = self.config
        card_w, card_h = _card_size(quads)
        skip = [p for q in quads for p in q]
        seen = {r.card.code for r in readings if r.card is not None}
        out: list[CardReading] = []
        rect = _canonical_rect(cfg.crop_size)
        for blob in blobs:
            found = corner_quads(blob, card_w, card_h, skip, cfg.overlap_max_skew)
            for q in found[: cfg.max_overlap_corners]:
                if _share_under(q, blob, quads) < cfg.overlap_under:
                    continue
                lvl = 0
                while card_h / (2 ** (lvl + 1)) >= 1.3 * cfg.crop_size[1]:
                    lvl += 1
                m = cv2.getPerspectiveTransform(q / (2**lvl), rect)
                patch = pyr.warp(lvl, m, (self.reader.pw, self.reader.ph))
                if not _papery(patch, cfg):
                    continue  # no card's paper round an index: the table (a patterned rug)
                wide = (self.reader.pw_wide, self.reader.ph)
                read = self.reader.read_patches(
                    [patch], wider=functools.partial(_warp_any, pyr, lvl, m, wide),
                    whole_rank=True)[0]
                if read is None:
                    continue
                # (what the reading names first: each check below is the corner's alone,
                # so their order changes nothing but the cost -- a straight edge looked for
                # with a Hough transform, 2 million instructions a corner, where most
                # corners of touching cards name no card new and sure enough)
                corners = tuple((float(x), float(y)) for x, y in q)
                r = self.decide([read], corners, strict=cfg.overlap_factor)
                if (
                    r.card is None
                    or r.confidence < cfg.overlap_min_confidence
                    or r.card.code in seen
                ):
                    continue
                if _edge_crosses(patch, read.box, cfg):
                    continue
                if fan_stage.side_by_side(read, cfg, wide=False):
                    # two cards' glyphs side by side, the edge between them too faint to
                    # see (an A and a 3 read as a 10; a rank's width is left alone here:
                    # some decks' square A or Q, or wide 10, are read on outlines' corners)
                    continue
                if fan_stage.not_one_index(patch, fan_stage.ink_mask(patch, cfg), read, None,
                                           cfg) is not None:
                    # a rank with a piece broken off (a 7H's bar: read as a JH); a rank and
                    # a suit of two inks, two cards' glyphs
                    continue
                seen.add(r.card.code)
                out.append(CardReading(r.card, r.corners, r.confidence, r.alternatives, True))
        return out

    def _blob_rest(
        self, pyr: _Pyramid, blobs: list[np.ndarray], readings: list[CardReading],
        near: list[CardReading] | None = None,
    ) -> list[CardReading]:
        """Cards in a bright region of touching cards (a blob) that no stage found: the
        region without the quads read in it, and a band round each (their edges), where a
        piece of a card's size and shape is left (``blob_rest_area``, ``blob_rest_fill``,
        ``blob_rest_aspect``), read as a card, or a piece smaller than a card as the card
        round it (:meth:`_card_round_piece`), or a piece showing a card's square corner as
        that card (:meth:`_cards_at_corner`), or a piece several cards large as the cards at
        its square corners (:meth:`_cards_in_cluster`); those named (as a guess is: no
        card, no quad).  ``near``: the cards named by the pass before, where only the
        pieces beside them are looked at (what they leave of a piece may now be a card's
        shape), each read without a second look from restored pictures."""
        cfg = self.config
        found = [r for r in readings
                 if r.card is not None and not r.partial and len(r.corners) == 4]
        whole = [abs(_area(r.corners)) for r in found]
        if not whole:
            return []
        card = median(whole)
        lo = cfg.blob_rest_area[0]
        band = max(3, round(0.04 * math.sqrt(card)))
        quads = [np.asarray(r.corners, np.float32) for r in readings if len(r.corners) == 4]
        named = [np.asarray(r.corners, np.float32) for r in readings
                 if r.card is not None and len(r.corners) == 4]
        size = _card_size([np.asarray(r.corners, np.float32) for r in found])
        fh, fw = pyr.levels[0].shape[:2]
        opener = np.ones((5, 5), np.uint8)
        out: list[CardReading] = []
        taken: list[np.ndarray] = []  # the quads of the cards named here
        boxes = None if near is None else [
            (min(x for x, _ in r.corners) - band - 2, min(y for _, y in r.corners) - band - 2,
             max(x for x, _ in r.corners) + band + 2, max(y for _, y in r.corners) + band + 2)
            for r in near]

        def changed(piece: np.ndarray, x0: int, y0: int) -> bool:
            # (a piece beside a card named in the pass before, where only such pieces differ)
            if boxes is None:
                return True
            x, y, w, h = cv2.boundingRect(piece)
            x, y = x + x0, y + y0
            return any(x <= bx1 and bx0 <= x + w and y <= by1 and by0 <= y + h
                       for bx0, by0, bx1, by1 in boxes)

        for blob in blobs:
            filled = _filled(blob, 255, (fw, fh))
            if filled is None:
                continue
            rest, x0, y0 = filled
            for q in quads:
                qi = np.round(q - (x0, y0)).astype(np.int32)
                cv2.fillConvexPoly(rest, qi, 0)
                cv2.polylines(rest, [qi], True, 0, thickness=band)
            rest = cv2.morphologyEx(rest, cv2.MORPH_OPEN, opener)
            pieces, _ = cv2.findContours(rest, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
            for _ in range(cfg.blob_rest_split):
                # cards touching one another at a corner or along part of a side, or a card
                # and what is left of another (its paper broken round its picture): the
                # piece of no card's shape is cut where its outline dents deepest on either
                # side; what is left of a chain of cards, cut again
                odd = [p for p in pieces if lo * card <= cv2.contourArea(p)
                       and changed(p, x0, y0) and _card_box(p, card, cfg) is None]
                if not odd:
                    break
                cuts = [_cut_between_dents(rest, p, 0.15 * math.sqrt(card), band, card, cfg)
                        for p in odd]
                if not any(cuts):
                    break
                pieces, _ = cv2.findContours(rest, cv2.RETR_EXTERNAL,
                                             cv2.CHAIN_APPROX_SIMPLE)
            for piece in pieces:
                if not changed(piece, x0, y0):
                    continue
                box = _card_box(piece, card, cfg)
                if box is None and cfg.blob_rest_open > 0:
                    box = _card_box_opened(piece, rest.shape, card, cfg)
                if box is not None:
                    tries = [order_clockwise(np.asarray(cv2.boxPoints(box), np.float32)
                                             + np.array([x0, y0], np.float32))]
                else:
                    grown = self._card_round_piece(piece, card, (x0, y0), named)
                    tries = ([grown] if grown is not None else
                             self._cards_at_corner(piece, rest.shape, (x0, y0), named, size))
                    if not tries:
                        if cfg.blob_rest_cluster > 0:
                            for r in self._cards_in_cluster(pyr, piece, (x0, y0),
                                                            named + taken, size, card,
                                                            retry=near is None):
                                out.append(r)
                                taken.append(np.asarray(r.corners, np.float32))
                        continue
                for q in tries:
                    if _overlaps_any(q, taken, cfg.print_overlap):
                        continue  # (a card read already, from another piece of it)
                    # (looked at again, not from restored pictures as well: a card's shape
                    # left beside the cards named reads clearly or is none; 320 touching
                    # frames named the same cards either way)
                    reading = self.read_quad(pyr, q, retry=near is None)
                    if reading.card is not None:
                        out.append(reading)
                        taken.append(q)
                        break
        return out

    def _card_round_piece(self, piece: np.ndarray, card: float, origin: tuple[int, int],
                          quads: list[np.ndarray]) -> np.ndarray | None:
        """The card round a piece of a blob (see :meth:`_blob_rest`; ``origin``: the
        piece's offset in the picture) that is smaller than a card (``blob_rest_print`` of
        ``card``, the median card's area), taken for a frame printed in a card's middle
        (:func:`vision.neighbours.card_round_print`): a court's picture reaching near its
        card's edges leaves paper margins so thin that the masks' openings lose them, and
        the piece left is the picture.  None where there is no such card, or where it
        overlaps one of ``quads`` (the cards named) by more than ``print_overlap``."""
        cfg = self.config
        gray = self.frame_gray
        least, lo, hi = cfg.blob_rest_print
        if gray is None or float(cv2.contourArea(piece)) < least * card:
            return None
        (cx, cy), (bw, bh), angle = cv2.minAreaRect(piece)
        if not lo * card <= bw * bh <= hi * card:
            return None
        box = ((cx + origin[0], cy + origin[1]), (bw, bh), angle)
        found = card_round_print(gray, order_clockwise(np.asarray(cv2.boxPoints(box),
                                                                  np.float32)),
                                 cfg.print_edge_contrast)
        if found is None:
            return None
        q = order_clockwise(found)
        return None if _overlaps_any(q, quads, cfg.print_overlap) else q

    def _cards_in_cluster(
        self, pyr: _Pyramid, piece: np.ndarray, origin: tuple[int, int],
        quads: list[np.ndarray], size: tuple[float, float], card: float, retry: bool = True,
    ) -> list[CardReading]:
        """The cards named at the square corners of a piece of a blob several cards large
        (``blob_rest_cluster`` x ``card``, the median card's area, or more): cards touching
        one another in a cluster, each whole but for its outline, which runs into the
        others'.  Each card-sized quad at a square corner of the piece
        (:func:`_square_corner_quads`) lying ``blob_rest_cluster_inside`` in it, overlapping
        none of ``quads`` nor a card named here by more than ``print_overlap``, its sides
        moved onto the edges near them, is read whole (``blob_rest_cluster_reads`` at
        most; ``retry``: see :meth:`read_quad`)."""
        cfg = self.config
        gray = self.frame_gray
        card_w, card_h = size
        if gray is None or card_w <= 0 or float(cv2.contourArea(piece)) < (
                cfg.blob_rest_cluster * card):
            return []
        x, y, w, h = cv2.boundingRect(piece)
        mask = np.zeros((h, w), np.uint8)
        cv2.drawContours(mask, [piece], -1, 255, -1, offset=(-x, -y))
        out: list[CardReading] = []
        taken = list(quads)
        reads = 0
        for q in _square_corner_quads(piece, card_w, card_h, cfg):
            inside = np.zeros_like(mask)
            cv2.fillConvexPoly(inside, np.round(q).astype(np.int32) - (x, y), 255)
            if cv2.countNonZero(cv2.bitwise_and(mask, inside)) < (
                    cfg.blob_rest_cluster_inside * abs(quad_area(q))):
                continue
            g = order_clockwise(q + np.array(origin, np.float32))
            if _overlaps_any(g, taken, cfg.print_overlap):
                continue
            g = self._snapped_card(gray, g, card_w)
            if _overlaps_any(g, taken, cfg.print_overlap):
                continue
            reading = self.read_quad(pyr, g, retry)
            reads += 1
            if reading.card is not None:
                out.append(reading)
                taken.append(g)
            if reads >= cfg.blob_rest_cluster_reads:
                break
        return out

    def _snapped_card(self, gray: np.ndarray, q: np.ndarray, card_w: float) -> np.ndarray:
        """A card-sized quad ``q`` (clockwise; ``card_w``: its short side) with its sides
        moved onto the edges within ``blob_rest_corner_snap`` of that (:func:`snap_sides`,
        at least 2 px), where that keeps each side within
        ``blob_rest_corner_keep`` of its length; else ``q`` as it is: a side moved onto a
        line in the card's picture, or onto the paper of a card it touches, would read
        the card askew (a 4D as a 4H)."""
        cfg = self.config
        # (the sides compared before the corners are put in order again: a card lying
        # near 45 degrees may start from another corner once snapped)
        reach = max(2, round(cfg.blob_rest_corner_snap * card_w))
        g = snap_sides(gray, q, reach, cfg.neighbour_contrast)
        if cfg.blob_rest_corner_keep <= 0:
            return order_clockwise(g)
        before = np.hypot(*(np.roll(q, -1, axis=0) - q).T)
        after = np.hypot(*(np.roll(g, -1, axis=0) - g).T)
        if np.all(np.abs(after - before) <= cfg.blob_rest_corner_keep * before):
            return order_clockwise(g)
        return q

    def _cards_at_corner(
        self, piece: np.ndarray, shape: tuple[int, ...], origin: tuple[int, int],
        quads: list[np.ndarray], size: tuple[float, float],
    ) -> list[np.ndarray]:
        """The cards a piece of a blob (see :meth:`_blob_rest`: an outline in a mask of
        ``shape``, offset ``origin`` in the picture) may show a square corner of, ``size``
        (short side, long side) large, likeliest first, to be read in turn until one names a
        card: a court touching others, whose paper breaks round its picture, leaves a piece
        of no card's shape, but its paper's edges still meet at its corners.  Each such
        corner (:func:`_square_corner_quads`) of each part of the piece (opened
        ``blob_rest_corner_open`` wide, parting it from slivers; the piece and the part each
        the first of ``blob_rest_print`` of a card at least) gives a card either way round;
        those covering ``blob_rest_corner_cover`` of the part at least are taken, most
        covering first, ``blob_rest_corner_tries`` at most (what is left of a court's paper
        can lie more along its short side than the card does), their sides moved onto the
        edges near them.  None where there is none; none that overlaps one of ``quads``
        (the cards named) by more than ``print_overlap``."""
        cfg = self.config
        gray = self.frame_gray
        card_w, card_h = size
        least = cfg.blob_rest_print[0] * card_w * card_h
        if gray is None or card_w <= 0 or float(cv2.contourArea(piece)) < least:
            return []
        k = int(round(cfg.blob_rest_corner_open * math.sqrt(card_w * card_h))) | 1
        parts, opened, (x0, y0) = _opened_parts(piece, shape, k)
        covering: list[tuple[float, np.ndarray]] = []
        for part in parts:
            if float(cv2.contourArea(part)) < least:
                continue
            one = np.zeros_like(opened)
            cv2.drawContours(one, [part], -1, 255, -1, offset=(-x0, -y0))
            total = float(cv2.countNonZero(one))
            for q in _square_corner_quads(part, card_w, card_h, cfg):
                inside = np.zeros_like(one)
                cv2.fillConvexPoly(inside, np.round(q).astype(np.int32) - (x0, y0), 255)
                cover = cv2.countNonZero(cv2.bitwise_and(one, inside)) / total
                if cover >= cfg.blob_rest_corner_cover:
                    covering.append((cover, q))
        out: list[np.ndarray] = []
        covering.sort(key=lambda c: -c[0])  # (stable: equal covers in the order found)
        for _, q in covering[:cfg.blob_rest_corner_tries]:
            q = order_clockwise(q + np.array(origin, np.float32))
            q = self._snapped_card(gray, q, card_w)
            if not _overlaps_any(q, quads, cfg.print_overlap):
                out.append(q)
        return out

    def read_crop(self, crop: np.ndarray) -> CardReading:
        """Read an image that is one card filling the frame (a cell of a deck sheet).  It
        shows no outline to measure (nothing of a frame read before counts)."""
        self.frame_gray = None
        self._edge_widths = {}
        try:
            pyr = self.prepare(crop)
            if pyr is None:
                return CardReading(None, (), 0.0)
            h, w = pyr.levels[0].shape[:2]
            quad = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)
            return self.read_quad(pyr, quad)
        except (cv2.error, ValueError):  # (see read)
            return CardReading(None, (), 0.0)

    def interpretations(
        self, pyr: _Pyramid, quad: np.ndarray, target: tuple[int, int] | None = None
    ) -> list[_Interpretation]:
        """The ways the card in ``quad`` may be upright, best first, each with the reads of
        its two index corners.  With ``target`` (rank, suit class indices, when teaching)
        the way and cut-outs that look most like that card come first."""
        corner = _CornerWarp(pyr, quad, self.config, (self.reader.pw, self.reader.ph))
        ks = [k for k in range(4) if k % 2 in corner.ways]
        patches = [corner.patch(k) for k in ks]
        reads = self.reader.read_patches(patches, target,
                                         self._wider([(corner, k) for k in ks]))
        return self._interpret(corner.q, corner.sides, corner.ways, reads, target)

    def _wider(
        self,
        corners: list[tuple[_CornerWarp, int]],
        restore: Callable[[np.ndarray], np.ndarray] | None = None,
    ) -> Callable[[int], np.ndarray]:
        """For :meth:`IndexReader.read_patches`: the ``i``-th patch, of corner
        ``corners[i]`` (a card's warp, and which corner), warped wider (and restored as the
        others were, with ``restore``)."""
        width = self.reader.pw_wide

        def wider(i: int) -> np.ndarray:
            warp, k = corners[i]
            patch = warp.patch(k, width)
            return patch if restore is None else restore(patch)

        return wider

    def _interpret(
        self,
        q: np.ndarray,
        sides: np.ndarray,
        ways: list[int],
        patch_reads: list[CornerRead | None],
        target: tuple[int, int] | None = None,
        tried: set[int] | None = None,
    ) -> list[_Interpretation]:
        """The ways up, best first.  ``tried``: the corners (0..3) whose patches were read
        (None: every corner of ``ways``)."""
        cfg = self.config
        got = iter(patch_reads)
        reads: list[CornerRead | None] = [
            next(got) if k % 2 in ways else None for k in range(4)
        ]

        def qual(r: CornerRead | None) -> float:
            if r is None:
                return -9.0
            if target is None:
                return r.quality
            return float(r.rank_scores[target[0]] + r.suit_scores[target[1]])

        out = []
        for k in range(2):
            pair = [r for r in (reads[k], reads[k + 2]) if r is not None]
            # short side on top reads as portrait
            top = (sides[k] + sides[(k + 2) % 4]) / 2
            left = (sides[(k + 1) % 4] + sides[(k + 3) % 4]) / 2
            prior = cfg.portrait_prior if top < left else 0.0
            score = max(qual(reads[k]), qual(reads[k + 2])) + prior
            best_k = k if qual(reads[k]) >= qual(reads[k + 2]) else k + 2
            looked = [j for j in (k, k + 2) if k in ways and (tried is None or j in tried)]
            lone = len(pair) == 1 and len(looked) == 2
            out.append(_Interpretation(turn_quad(q, best_k), pair, score, lone))
        out.sort(key=lambda t: -t.score)
        return out

    def read_quad(self, pyr: _Pyramid, quad: np.ndarray, retry: bool = True) -> CardReading:
        """Read the card whose corners are ``quad`` (image pixels, any order); one not
        named is read again from restored pictures (``retry_restore``), when ``retry``."""
        corner, patches, staged = self._stage_quad(pyr, quad)
        reading = self._decide_staged(*staged)
        if (reading.card is None and retry and self.config.retry_restore
                and reading.confidence < self.config.min_confidence):
            reading = self._retry(pyr, corner, False, reading, False, patches,
                                  stacked=any(r.stacked for r in staged[0].reads))
        return reading

    def _stage_quad(
        self, pyr: _Pyramid, quad: np.ndarray
    ) -> tuple[_CornerWarp, list[np.ndarray], tuple[_Interpretation, CardReading, Centre | None]]:
        """The card in ``quad`` read and staged (see :meth:`_stage`), with its corners' warp
        and the index corners' patches read."""
        corner = _CornerWarp(pyr, quad, self.config, (self.reader.pw, self.reader.ph))
        ks = [k for k in range(4) if k % 2 in corner.ways]
        patches = [corner.patch(k) for k in ks]
        reads = self.reader.read_patches(patches, wider=self._wider([(corner, k) for k in ks]),
                                         faint=True)
        interps = self._interpret(corner.q, corner.sides, corner.ways, reads)
        return corner, patches, self._stage(pyr, interps, True)

    def _read_quads(
        self, pyr: _Pyramid, quads: list[np.ndarray], apart: list[bool] | None = None,
        lone: list[bool] | None = None,
    ) -> list[CardReading]:
        """Read many cards, their corner glyphs scored in batches: both index corners of
        each card, which must agree (see ``apart_lone_confidence`` for a card lying
        apart, ``apart``: each quad's flag from detection).  ``lone``, where given, is
        that flag of each quad as :meth:`_lying_apart` would make it, made among more
        quads than these."""
        cfg = self.config
        stages = self.stages
        size = (self.reader.pw, self.reader.ph)
        with stages("rectify"):
            warps = [_CornerWarp(pyr, q, cfg, size) for q in quads]
            single = self._lying_apart(quads, apart) if lone is None else lone
            # (of a card that may lie either way up, the likelier way's corners first)
            first = [w.ways if len(w.ways) == 1 or cfg.likely_way_quality is None
                     else w.likely_ways() for w in warps]
            jobs = [(i, k + h) for i, ws in enumerate(first) for k in ws for h in (0, 2)]
            patches = [warps[i].patch(k) for i, k in jobs]
        # the patches warped, kept for a card read again (retry_restore)
        warped = dict(zip(jobs, patches, strict=True))
        reads: list[list[CornerRead | None]] = [[None] * 4 for _ in quads]
        edge = [w.near_edge(cfg.edge_margin) for w in warps]

        def keep(i: int, k: int, r: CornerRead | None) -> CornerRead | None:
            # an index cut by the picture's edge is no reading
            if r is None or not edge[i] or warps[i].box_inside(k, r.box, cfg.edge_margin):
                return r
            return None

        with stages("read corners"):
            wide = self._wider([(warps[i], k) for i, k in jobs])
            for (i, k), r in zip(jobs, self.reader.read_patches(patches, wider=wide, faint=True),
                                 strict=True):
                reads[i][k] = keep(i, k, r)
        # the other way up's corners, where the likelier way's do not read clearly
        later = [(i, k + h) for i, w in enumerate(warps) if len(first[i]) < len(w.ways)
                 and not self._clear_way(reads[i], first[i][0])
                 for k in w.ways if k not in first[i] for h in (0, 2)]
        if later:
            with stages("rectify"):
                more = [warps[i].patch(k) for i, k in later]
                warped.update(zip(later, more, strict=True))
            with stages("read corners"):
                wide = self._wider([(warps[i], k) for i, k in later])
                for (i, k), r in zip(later, self.reader.read_patches(more, wider=wide,
                                                                     faint=True), strict=True):
                    reads[i][k] = keep(i, k, r)
        staged = []
        for w, rd in zip(warps, reads, strict=True):
            mine = [rd[k] for k in range(4) if k % 2 in w.ways]
            staged.append(self._stage(pyr, self._interpret(w.q, w.sides, w.ways, mine), False))
        with stages("pip check"):
            score_centres([c for _, _, c in staged if c is not None], self.reader, self.config)
        with stages("decide"):
            out = [self._decide_staged(*st, lone_at=cfg.apart_lone_confidence if one else None)
                   for st, one in zip(staged, single, strict=True)]
        smeared = [False] * len(out)
        if cfg.smear_ratio < 1.0:
            with stages("pip check"):
                out, smeared = self._unsmeared(pyr, out, [c for _, _, c in staged],
                                                  [len(b.reads) for b, _, _ in staged],
                                                  [[r.box for r in b.reads] for b, _, _ in staged])
        # whether a card whose corners show no index holds one of our codes, asked once
        coded: dict[int, bool] = {}

        def holds_code(i: int) -> bool:
            if i not in coded:
                coded[i] = self.holds_code is not None and self.holds_code(warps[i].q)
            return coded[i]

        if cfg.other_way_up:
            with stages("retry"):
                for i, reading in enumerate(out):
                    # (one of our printed cards shows no index either way up: its code is
                    # asked about first)
                    if (reading.card is None and len(warps[i].ways) == 1
                            and not any(reads[i]) and not smeared[i]
                            and (reading.alternatives or not holds_code(i))):
                        out[i] = self._other_way_up(pyr, warps[i], edge[i], reading)
        cards_sized: list[list[bool]] = []

        def sized() -> list[bool]:
            # (per quad: of a card's size, apart or not, made when first asked)
            if not cards_sized:
                cards_sized.append(self._lying_apart(quads, [True] * len(quads)))
            return cards_sized[0]

        if cfg.retry_restore or cfg.retry_unled:
            with stages("retry"):
                for i, reading in enumerate(out):
                    # (a card named clearly enough but set aside -- one index corner whose
                    # opposite shows none, a card too small -- is not for a sharper look,
                    # unless its outline is smeared: see retry_smeared_height)
                    if reading.card is None and (
                            reading.confidence < cfg.min_confidence
                            or (smeared[i] and cfg.retry_smeared_height is not None
                                and _card_height(warps[i].q) >= cfg.retry_smeared_height)):
                        if not reading.alternatives and holds_code(i):
                            continue
                        ks = [k for k in range(4) if k % 2 in warps[i].ways]
                        got = [warped.get((i, k)) for k in ks]
                        ready = [warps[i].patch(k) if g is None else g
                                 for k, g in zip(ks, got, strict=True)]
                        out[i] = self._retry(pyr, warps[i], edge[i], reading, single[i], ready,
                                             smeared[i], any(r is not None and r.stacked
                                                             for r in reads[i]))
                        if (out[i].card is None and cfg.retry_grow
                                and (reading.alternatives or (cfg.grow_unread and sized()[i]))
                                and not smeared[i] and not edge[i]):
                            out[i] = self._grown(pyr, warps[i], out[i])
        for i, holds in coded.items():
            if holds and out[i].card is None:
                out[i] = replace(out[i], coded=True)
        fh, fw = pyr.levels[0].shape[:2]  # (w is a warp above)
        return [CardReading(None, r.corners, r.confidence, r.alternatives)
                if r.card is not None and _cut_by_frame(r.corners, fw, fh) else r for r in out]

    def _grown(self, pyr: _Pyramid, warp: _CornerWarp, first: CardReading) -> CardReading:
        """A card not named, read again from its quad grown by ``retry_grow`` about its
        middle: an outline found a little inside the card (its side along another card's
        paper) cuts the "1" off an index's "10", and the corners disagree.  Named only where
        sure (``retry_grow_confidence``), in the quad found; not for a smeared card, whose
        reading its middle must bear out (grown, two smeared cards in 40 frames were named
        wrongly, an 8D and a JH), nor one at the picture's edge, which may cut its index."""
        cfg = self.config
        if len(warp.ways) != 1:
            return first
        middle = warp.q.mean(axis=0)
        grown = (middle + (warp.q - middle) * (1.0 + cfg.retry_grow)).astype(np.float32)
        again = self.read_quad(pyr, grown, retry=False)
        if again.card is None or again.confidence < cfg.retry_grow_confidence:
            return first
        return CardReading(again.card, first.corners, again.confidence, again.alternatives,
                           False, again.index)

    def _other_way_up(
        self, pyr: _Pyramid, warp: _CornerWarp, near_edge: bool, first: CardReading
    ) -> CardReading:
        """A card whose outline said which way up it lies (its long sides clearly the
        longer) but whose index corners of that way show no glyph at all, read the other way
        up: a card seen at a slant steeper than 45 degrees along its length looks wider than
        tall.  Its reading, where it names the card and its middle bears that out; else
        ``first``."""
        turned = warp.other_way(self.config)
        ks = [k for k in range(4) if k % 2 in turned.ways]
        reads = self.reader.read_patches([turned.patch(k) for k in ks],
                                         wider=self._wider([(turned, k) for k in ks]))
        if near_edge:
            reads = turned.inside(ks, reads, self.config.edge_margin)
        if not any(reads):
            return first
        interps = self._interpret(turned.q, turned.sides, turned.ways, reads)
        staged = self._stage(pyr, interps, True)
        reading = self._decide_staged(*staged)
        if reading.card is None:
            return first
        # each index corner must name the rank itself, and the middle bear it out (its pips
        # counted, or a picture for a court card): the outline of a row of cards, each
        # covering most of the one before, has a card's proportions the other way up, and
        # its ends show the index of the top card and of the bottom one (a 7S and an AS
        # that both had a J second, which a picture would have settled)
        rank = RANK_CLASSES.index(reading.card.rank)
        n = len(RANK_CLASSES)
        if any(_argmax(r.rank_list, n) != rank for r in staged[0].reads):
            return first
        middle = self._middle(pyr, staged)
        return reading if reading.card.rank in middle.expected() else first

    def _middle(
        self,
        pyr: _Pyramid,
        staged: tuple[_Interpretation, CardReading, Centre | None],
        restore: Callable[[np.ndarray], np.ndarray] | None = None,
    ) -> Centre:
        """The middle of a staged reading's card: the one staging looked at, else looked at
        now (restored as its corners were, with ``restore``)."""
        return staged[2] or self.centre(pyr, staged[0].corners, False, True, restore)

    def _unsmeared(
        self, pyr: _Pyramid, readings: list[CardReading], centres: list[Centre | None],
        corners_read: list[int] | None = None,
        indices: list[list[tuple[int, int, int, int]]] | None = None,
    ) -> tuple[list[CardReading], list[bool]]:
        """``readings``, but no card where the card's outline is smeared (its edges more
        than ``smear_ratio`` of its height wide: out of focus, or moving) and the middle
        does not bear the card out (see :meth:`_bears_out`): a smeared 3 or 2 reads as a J
        or a 7 in both index corners, its pips run together.  ``centres``: each reading's
        middle where it was looked at already, else None; ``corners_read``: how many index
        corners each reading rests on (two where not given); ``indices``: the boxes of the
        index glyphs each reading rests on, for a middle looked at now.  Also, per reading,
        whether it is smeared (for the re-read of one not named)."""
        looked = [i for i, r in enumerate(readings) if len(r.corners) == 4]
        smeared = [False] * len(readings)
        if not looked:
            return readings, smeared
        gray = self.frame_gray
        if gray is None or gray.shape[:2] != pyr.levels[0].shape[:2]:
            gray = self.frame_gray = cv2.cvtColor(pyr.levels[0], cv2.COLOR_BGR2GRAY)
        quads = [np.asarray(readings[i].corners, np.float32) for i in looked]
        heights = [_card_height(c) for c in quads]
        out = list(readings)
        widths = edge_blurs(gray, quads, heights)
        self._edge_widths.update(zip([readings[i].corners for i in looked],
                                     zip(widths, heights, strict=True), strict=True))
        for i, corners, height, width in zip(looked, quads, heights, widths, strict=True):
            card = readings[i].card
            if not self._smeared(width, height, card is not None and card.rank in "JQK"):
                continue
            smeared[i] = self._smeared(width, height)
            if card is None or self._bears_out(
                    pyr, card, corners, centres[i], alternatives=readings[i].alternatives,
                    corners_read=2 if corners_read is None else corners_read[i],
                    smear=0.0 if width is None or height <= 0 else width / height,
                    indices=() if indices is None else indices[i]):
                continue
            r = readings[i]
            out[i] = CardReading(None, r.corners, r.confidence, r.alternatives)
        return out, smeared

    def _unblurred(self, pyr: _Pyramid, readings: list[CardReading]) -> list[CardReading]:
        """``readings``, but no club or spade whose suit the blur leaves unsettled: a whole
        card (not one known by an index corner only) whose edges are as wide as
        ``blur_suit_ratio`` of its index's rank glyph's height -- blurred so that a
        club's lobes run into a spade's outline -- is named only where its middle's pips,
        their shapes read, do not prefer the other black suit (``centre_black_veto``), and
        from ``blur_index_ratio`` on prefer its own by ``blur_pip_margin``; or, where its
        middle shows no pips to read (a court), where blurred less than
        ``blur_index_ratio`` or its corners prefer its suit by ``smear_black_margin``."""
        cfg = self.config
        gray = self.frame_gray
        black = [i for i, card, index in _named_whole(readings)
                 if card.suit.letter in "CS" and index[2] > 0]
        if not black or gray is None:
            return readings
        # (most were measured already, as their cards were read)
        seen = self._edge_widths
        new = [i for i in black if readings[i].corners not in seen]
        if new:
            quads = [np.asarray(readings[i].corners, np.float32) for i in new]
            heights = [_card_height(q) for q in quads]
            seen.update(zip([readings[i].corners for i in new],
                            zip(edge_blurs(gray, quads, heights), heights, strict=True),
                            strict=True))
        out = list(readings)
        for i in black:
            r = readings[i]
            width, height = seen[r.corners]
            if width is None or height <= 0 or r.card is None or r.index is None:
                continue
            blur = width / (r.index[2] * height)
            if blur < cfg.blur_suit_ratio or not self._suit_unsettled(
                    pyr, r, np.asarray(r.corners, np.float32), blur):
                continue
            out[i] = CardReading(None, r.corners, r.confidence, r.alternatives)
        return out

    def _index_sized(self, pyr: _Pyramid, readings: list[CardReading]) -> list[CardReading]:
        """``readings``, but no court (J, Q, K) named whole whose index's rank glyph is
        under ``index_size_ratio`` of the median of the frame's named cards' (with
        ``index_size_cards`` or more named) unless its middle shows a picture: a glyph that
        much smaller than its neighbours' is a piece of one -- a blurred 9H's "9" cut
        short, read as a Q in both corners."""
        cfg = self.config
        named = [(i, index[2]) for i, _, index in _named_whole(readings)]
        if len(named) < cfg.index_size_cards:
            return readings
        least = cfg.index_size_ratio * median([size for _, size in named])
        out = list(readings)
        for i, size in named:
            r = readings[i]
            if size >= least or r.card is None or r.card.rank not in "JQK":
                continue
            middle = self.centre(pyr, np.asarray(r.corners, np.float32), False, True)
            if middle.kind != "picture":
                out[i] = CardReading(None, r.corners, r.confidence, r.alternatives)
        return out

    def _suit_unsettled(self, pyr: _Pyramid, reading: CardReading, corners: np.ndarray,
                        blur: float) -> bool:
        """For :meth:`_unblurred`: whether a club or spade so blurred (``blur``: its edges'
        width over its index's height) is not to be named."""
        cfg = self.config
        card = reading.card
        assert card is not None
        if card.rank not in "JQK" and cfg.centre_black_veto is not None:
            # (an ace's one pip too: read the way it is printed, see Centre.either_way)
            middle = self.centre(pyr, corners, True, True)
            if (middle.kind == "pips" and middle.count >= (1 if card.rank == "A" else 2)
                    and middle.suit_scores is not None):
                named = _CLUB if card.suit.letter == "C" else _SPADE
                other = _SPADE if named == _CLUB else _CLUB
                prefers = float(middle.suit_scores[named] - middle.suit_scores[other])
                # (blurred as wide as blur_index_ratio, the pips must take the suit by
                # blur_pip_margin)
                need = cfg.blur_pip_margin if blur >= cfg.blur_index_ratio else 0.0
                return prefers < -cfg.centre_black_veto or prefers < need
        return (blur >= cfg.blur_index_ratio
                and _black_margin(card, reading.alternatives) < cfg.smear_black_margin)

    def _bears_out(
        self,
        pyr: _Pyramid,
        card: Card,
        corners: np.ndarray,
        middle: Centre | None,
        restore: Callable[[np.ndarray], np.ndarray] | None = None,
        alternatives: Sequence[tuple[str, float]] = (),
        corners_read: int = 2,
        smear: float | None = None,
        indices: Sequence[tuple[int, int, int, int]] = (),
    ) -> bool:
        """Whether the middle of a smeared card bears its reading out: its pips counted to
        the rank, and where they are pips, their shapes of the suit (a smeared 7H reads as a
        7D in both corners, the pips being larger than the index's suit); a picture for a
        court card, but for an ace its one pip (a smeared K or Q reads as an A in both
        corners, and a picture allows an A).  ``middle``: the centre looked at already (its
        pips' shapes perhaps not read), else None; ``restore``: of the re-read.  A court's
        picture bears out that it is a court; which one, only a reading from both index
        corners (``corners_read``, ``smear_court_corners``); and where the smear is wide, a
        club's or spade's suit only a margin over the other black suit in the reading's
        ``alternatives`` (``smear_black_margin``, ``smear_black_ratio``; ``smear``: the
        edges' width over the card's height where measured already).  ``indices``: the
        boxes of the index glyphs read, for a middle looked at here (a pip near an index is
        counted apart from it only where the index's box is known)."""
        if middle is None:
            middle = self.centre(pyr, corners, False, True, restore, indices)
        if card.rank not in middle.expected():
            return False
        if card.rank == "A" and middle.kind != "pips":
            return False
        if middle.kind != "pips":
            # a court's picture: which court, the corners must say -- both of them; and a
            # club's or spade's suit by a clear margin
            if corners_read < self.config.smear_court_corners:
                return False
            if _black_margin(card, alternatives) >= self.config.smear_black_margin:
                return True
            if middle.apart:
                return False  # blurred more than the outline shows (a drawn QC read QS)
            share = self._smear_share(corners) if smear is None else smear
            return share < self.config.smear_black_ratio
        if middle.pip_spread > self.config.smear_pip_spread:
            return False  # pips run together, and counted as one
        if middle.suit_scores is None:
            middle = self.centre(pyr, corners, True, True, restore, indices)
        if middle.suit_scores is None:
            return True  # no pip's shape to read (a grey picture's are read all the same)
        return SUIT_CLASSES[int(np.argmax(middle.suit_scores))] == card.suit.letter

    def _retry(
        self,
        pyr: _Pyramid,
        warp: _CornerWarp,
        near_edge: bool,
        first: CardReading,
        single: bool,
        patches: list[np.ndarray],
        smeared: bool = False,
        stacked: bool = False,
    ) -> CardReading:
        """A card not named, read again from restored pictures (``retry_restore``): the
        first restoration that names it -- the card the first reading led with -- gives
        the reading; else the first reading stands.  ``single``: the card lies apart and is
        of the usual size; ``patches``: its index corners' patches, of every way up;
        ``smeared``: its outline is (see :meth:`_unsmeared`); ``stacked``: its first reading
        rested on an index whose rank ran into its suit (see :meth:`_stacked_suit`, which
        a sharper index, cut apart, must satisfy too)."""
        cfg = self.config
        lead = first.alternatives[0][0] if first.alternatives else None
        names = cfg.retry_restore
        if lead is None:
            names = cfg.retry_unled if single else ()
        ks = [k for k in range(4) if k % 2 in warp.ways]
        for name in names:
            restore = self._restorer(name)
            if lead is None:
                # both index corners must show glyphs: the opposite corner is read only
                # where the first one (of its way up) shows some
                reads: list[CornerRead | None] = [None] * len(ks)
                heads = [j for j, k in enumerate(ks) if k < 2]
                for j, r in zip(heads, self.reader.read_patches(
                        [restore(patches[j]) for j in heads],
                        wider=self._wider([(warp, ks[j]) for j in heads], restore)), strict=True):
                    reads[j] = r
                tails = [j for j, k in enumerate(ks) if k >= 2 and reads[ks.index(k - 2)]]
                if not tails:
                    continue
                for j, r in zip(tails, self.reader.read_patches(
                        [restore(patches[j]) for j in tails],
                        wider=self._wider([(warp, ks[j]) for j in tails], restore)), strict=True):
                    reads[j] = r
            else:
                reads = self.reader.read_patches(
                    [restore(p) for p in patches],
                    wider=self._wider([(warp, k) for k in ks], restore))
            if near_edge:
                reads = warp.inside(ks, reads, cfg.edge_margin)
            # (every corner of reads was looked at: one showing no index makes a lone one)
            tried = {k for k, r in zip(ks, reads, strict=True)
                     if lead is not None or r is not None or k < 2}
            interps = self._interpret(warp.q, warp.sides, warp.ways, reads, tried=tried)
            if lead is None and len(interps[0].reads) < 2:
                continue
            staged = self._stage(pyr, interps, True, restore=restore)
            reading = self._decide_staged(*staged, stacked=stacked)
            if reading.card is not None and (lead is None or reading.card.code == lead):
                # the middle, restored too, must bear it out: its pips counted, or a
                # picture for a court card (a blurred 9 read as a 4 in both the first and
                # the restored corners)
                middle = self._middle(pyr, staged, restore)
                if reading.card.rank not in middle.expected():
                    continue
                if smeared and not self._bears_out(pyr, reading.card, interps[0].corners,
                                                   middle, restore, reading.alternatives,
                                                   len(interps[0].reads)):
                    continue
                return reading
        return first

    def _restorer(self, name: str) -> Callable[[np.ndarray], np.ndarray]:
        """The picture restoration ``name`` of :attr:`RecognizerConfig.retry_restore`."""
        cfg = self.config
        if name in ("sharpen", "sharpen hard"):
            box, amount = cfg.retry_sharpen if name == "sharpen" else cfg.retry_sharpen_hard
            k = (int(box), int(box))

            def sharpen(img: np.ndarray) -> np.ndarray:
                # two box blurs: nearly a Gaussian's, at a fraction of its cost
                soft = cv2.blur(cv2.blur(img, k), k)
                return np.asarray(cv2.addWeighted(img, 1 + amount, soft, -amount, 0),
                                  dtype=np.uint8)

            return sharpen
        if name == "denoise":
            d, sc, ss = cfg.retry_denoise

            def denoise(img: np.ndarray) -> np.ndarray:
                return np.asarray(cv2.bilateralFilter(img, d, sc, ss), dtype=np.uint8)

            return denoise
        raise ValueError(f"unknown restoration {name!r}")

    def _lying_apart(self, quads: list[np.ndarray], apart: list[bool] | None) -> list[bool]:
        """Per quad: whether the card lies apart and is of the usual size, a card for sure
        (see ``apart_lone_confidence``)."""
        cfg = self.config
        if apart is None or len(quads) < cfg.single_min_cards:
            return [False] * len(quads)
        areas = [abs(quad_area(q)) for q in quads]
        med = median(areas)
        lo, hi = cfg.single_area
        least = cfg.single_min_height**2 * 5 / 7  # a 5:7 card that tall, in square px
        return [bool(a and lo * med <= s <= hi * med and s >= least)
                for a, s in zip(apart, areas, strict=True)]

    def _want_suit(self, reads: list[CornerRead]) -> bool:
        """Whether the pips' shapes are to be read too: the corners' suit is not clear."""
        suit = _mean_scores([r.suit_scores for r in reads])
        # the two best (float32 scalars, so that their difference is float32's too)
        s1, s2 = (suit.dtype.type(x) for x in sorted(suit.tolist())[-2:][::-1])
        return float(s1 - s2) < self.config.centre_suit_below

    def _stage(
        self,
        pyr: _Pyramid,
        interps: list[_Interpretation],
        score: bool,
        restore: Callable[[np.ndarray], np.ndarray] | None = None,
    ) -> tuple[_Interpretation, CardReading, Centre | None]:
        """The corners' reading of the best way up, and the centre if it is to be looked
        at (its pips' shapes scored now, or later in a batch)."""
        best = interps[0]
        corners = tuple((float(x), float(y)) for x, y in best.corners)
        if not best.reads:
            return best, CardReading(None, corners, 0.0), None
        reading = self.decide(best.reads, corners)
        centre = None
        cfg = self.config
        if cfg.use_centre and (
            reading.confidence < cfg.centre_below
            or (reading.card is not None and reading.card.rank in cfg.centre_ranks
                and (len(best.reads) < 2 or reading.confidence < cfg.centre_sure))
            or any(r.faint or r.stacked for r in best.reads)
            # (a court's own picture frame runs beside its index: its lines touch a court's
            # rank as a rule, and a court read below centre_sure is looked at anyway)
            or (any(r.lined for r in best.reads)
                and not (reading.card is not None and reading.card.rank in "JQK"))
            or _card_height(best.corners) < cfg.centre_small_height
            or self._counted_pair(best.reads, reading.alternatives[0][0][0]
                                  if reading.alternatives else None)
        ):
            # (the pips' shapes are read for a card read from an index run together: they
            # settle a red suit, see _stacked_suit)
            want_suit = (self._want_suit(best.reads) or any(r.stacked for r in best.reads)
                         or (cfg.centre_suit_rank_split and _rank_split(best.reads)))
            with self.stages("pip check"):
                centre = self.centre(pyr, best.corners, want_suit, score, restore,
                                     [r.box for r in best.reads])
        return best, reading, centre

    def _decide_staged(
        self, best: _Interpretation, reading: CardReading, centre: Centre | None,
        lone_at: float | None = None, stacked: bool = False,
    ) -> CardReading:
        """The card a staged reading names, or none (the rules below); ``lone_at``: the
        confidence a lone index corner needs, where lower than ``lone_corner_min_confidence``
        (a card lying apart: ``apart_lone_confidence``); ``stacked``: the card's index ran
        into one piece of ink when first read (see :meth:`_stacked_suit`)."""
        if centre is not None:
            reading = self.decide(best.reads, reading.corners, centre)
        if reading.card is not None and all(r.faint for r in best.reads) and not (
            centre is not None and reading.card.rank in centre.expected()
        ):
            # glyphs cut from faint ink only (a soft red index): named only where the
            # middle bears the rank out (a moved 2 of hearts, its faint "2" read as a 7)
            return CardReading(None, reading.corners, reading.confidence, reading.alternatives)
        if (reading.card is not None and self._counted_pair(best.reads, reading.card.rank)
                and not (centre is not None and centre.counts(reading.card.rank))):
            # a rank the corners may have made of their runner-up (a blurred 5 read as an
            # 8): named only where the middle counts it
            return CardReading(None, reading.corners, reading.confidence, reading.alternatives)
        height = _card_height(best.corners)
        if reading.card is not None and height < self.config.min_card_height:
            # so small that its index is a few px high: a blur, not a glyph (a K read as an
            # A, a 3 as a 5, once in fifty such cards)
            return CardReading(None, reading.corners, reading.confidence, reading.alternatives)
        # the margin by which the corners must prefer a club or spade to the other black
        # suit: a small card's (its suit glyph a few pixels across, where a club's lobes and
        # a spade's point look alike), and any card's where no pip's shape in the middle
        # settles it
        black_need = max(
            self.config.small_black_margin if height < self.config.single_min_height else 0.0,
            self.config.black_tie_margin if centre is None or centre.suit_scores is None
            else 0.0)
        if (reading.card is not None and black_need > 0
                and _black_margin(reading.card, reading.alternatives) < black_need):
            return CardReading(None, reading.corners, reading.confidence, reading.alternatives)
        if (reading.card is not None and (stacked or any(r.stacked for r in best.reads))
                and not self._stacked_suit(reading, centre)
                and not self._named_unstacked(best.reads, reading, lone_at)):
            return CardReading(None, reading.corners, reading.confidence, reading.alternatives)
        if best.lone and reading.card is not None and (
            (reading.confidence < (self.config.lone_corner_min_confidence if lone_at is None
                                   else min(lone_at, self.config.lone_corner_min_confidence))
             # (unless the middle counts the rank's pips, in a sharp picture of the card:
             # it stands for the other corner -- where the corner itself prefers the rank
             # by lone_count_margin: the middle bears a rank out, it does not choose one)
             and not (centre is not None and centre.counts(reading.card.rank)
                      and self._sharp(best.corners)
                      and _rank_margin(best.reads[0], reading.card.rank)
                      >= self.config.lone_count_margin))
            or (centre is not None and centre.kind == "picture"
                and best.reads[0].box[1] > self.config.lone_index_top * self.config.crop_size[1])
        ):
            # one index corner names it, the opposite shows none: maybe no card at all; nor
            # where the glyphs start well below the corner, where no index is printed, and
            # the middle is a picture (the outline of a row of cards and the top card on
            # it, read in the top card's picture: a stroke of its frame taken for a J)
            return CardReading(None, reading.corners, reading.confidence, reading.alternatives)
        if reading.card is None:
            return reading
        return CardReading(reading.card, reading.corners, reading.confidence,
                           reading.alternatives, reading.partial, self._index_place(best.reads))

    def _clear_way(self, reads: list[CornerRead | None], k: int) -> bool:
        """Whether both index corners of way ``k`` (corners k and k + 2 of ``reads``) read,
        agree on rank and suit, and each reads at least ``likely_way_quality``: the other
        way up need not be read then."""
        need = self.config.likely_way_quality
        a, b = reads[k], reads[k + 2]
        return (need is not None and a is not None and b is not None
                and a.quality >= need and b.quality >= need
                and not _rank_split([a, b]) and a.suit_best == b.suit_best)

    def _counted_pair(self, reads: list[CornerRead], rank: str | None) -> bool:
        """Whether index corners whose best real rank is ``rank`` have it and their
        runner-up as one of ``counted_pairs`` (the scores looked at only for a rank that
        begins a pair)."""
        pairs = self.config.counted_pairs
        if rank is None or not any(first == rank for first, _ in pairs):
            return False
        pair = _first_two_ranks(reads)
        return pair[0] == rank and pair in pairs

    def _stacked_suit(self, reading: CardReading, centre: Centre | None) -> bool:
        """Whether a card read from an index whose rank ran into its suit (see
        :attr:`CornerRead.stacked`) has its suit settled.  Blurred that much, a club's
        waist fills in and its lobes make a spade's outline, and a heart cut off below its
        lobes is a diamond's point: a spade needs its corners to prefer it to a club by
        ``stacked_spade_margin`` (a club's pips so blurred look like spades too); a heart
        or diamond needs its middle's pips, their shapes read, to prefer it to the other red
        suit, or, with none to read (a court, an ace), its corners by
        ``stacked_red_margin``."""
        card = reading.card
        assert card is not None
        cfg = self.config
        suit = card.suit.letter
        if suit == "C":
            return True
        if suit == "S":
            return _suit_margin(card, reading.alternatives) >= cfg.stacked_spade_margin
        if (centre is not None and centre.kind == "pips" and centre.count >= 2
                and centre.suit_scores is not None):
            scores = centre.suit_scores
            return bool(scores[SUIT_CLASSES.index(suit)]
                        >= scores[SUIT_CLASSES.index(_OTHER_SUIT[suit])])
        return _suit_margin(card, reading.alternatives) >= cfg.stacked_red_margin

    def _named_unstacked(
        self, reads: list[CornerRead], reading: CardReading, lone_at: float | None,
    ) -> bool:
        """Whether the index corners of ``reads`` not cut apart (see
        :attr:`CornerRead.stacked`) name the card of ``reading`` on their own, as a lone
        corner must (``lone_at``, see :meth:`_decide_staged`): a corner cut apart that
        agrees with them takes nothing away."""
        plain = [r for r in reads if not r.stacked]
        if not plain or len(plain) == len(reads):
            return False
        alone = self.decide(plain, reading.corners)
        need = self.config.lone_corner_min_confidence
        if lone_at is not None:
            need = min(need, lone_at)
        return alone.card == reading.card and alone.confidence >= need

    def _index_place(self, reads: list[CornerRead]) -> tuple[float, float, float] | None:
        """Where the surest of a card's index corners shows its rank (see
        :attr:`CardReading.index`)."""
        r = max(reads, key=lambda r: r.quality)
        if r.rank_mask is None:
            return None
        w, h = self.config.crop_size
        return (r.box[0] / w, r.box[1] / h, r.rank_mask.shape[0] / h)

    def _squarish(self, corners: tuple[tuple[float, float], ...]) -> bool:
        """Whether a quad is too near a square to be a card seen from above
        (``clear_portrait``): where its corners disagree, it may be the outline of two
        cards or more, a row taken for one card, whose corners are two cards' index corners
        and whose middle counts the pips of more than one card -- the middle settles
        nothing there (a webcam deck's 2H and 6D, at a row's ends, named an 8D from the 8
        pips in its middle; a 9S and a 6S an 8S)."""
        cfg = self.config
        s = quad_sides(np.asarray(corners, np.float64)).tolist()
        a, b = s[0] + s[2], s[1] + s[3]
        # seen at a slant, a card that looks that square is a trapezoid: its far side
        # shorter than its near one (a tilted camera's right readings so settled: opposite
        # sides 0.95 as long and less; rows' outlines 0.97 and more)
        parallel = min(min(s[0], s[2]) / max(s[0], s[2], 1e-6),
                       min(s[1], s[3]) / max(s[1], s[3], 1e-6))
        return bool(min(a, b) >= cfg.clear_portrait * max(a, b)
                    and parallel >= cfg.row_parallel)

    def _sharp(self, corners: np.ndarray) -> bool:
        """Whether the card's outline in the frame read is not smeared: its edges narrower
        than ``smear_ratio`` of its height, or too faint to measure, as :meth:`_unsmeared`
        takes them (see :func:`edge_blurs`; a blurred 7 of clubs, its pips counted right,
        reads as a 7 of spades)."""
        edges = self._edges(corners)
        return edges is not None and not self._smeared(*edges)

    def _edges(self, corners: np.ndarray) -> tuple[float | None, float] | None:
        """How wide the card's edges are in the frame read (None: too faint to measure;
        see :func:`edge_blur`), and its height; None without a frame."""
        gray = self.frame_gray
        if gray is None:
            return None
        q = np.asarray(corners, np.float32)
        height = _card_height(q)
        return edge_blur(gray, q, height), height

    def _smear_share(self, corners: np.ndarray) -> float:
        """How wide the card's edges are in the frame read, over its height (0.0 where too
        faint to measure, or without a frame)."""
        edges = self._edges(corners)
        if edges is None or edges[0] is None or edges[1] <= 0:
            return 0.0
        return edges[0] / edges[1]

    def _smeared(self, width: float | None, height: float, court: bool = False) -> bool:
        """Whether an outline whose edges are ``width`` px wide (None: too faint to
        measure, see :func:`edge_blurs`) smears a card ``height`` px tall: ``smear_ratio``
        of it, or for a court card ``court_smear_ratio``."""
        cfg = self.config
        ratio = cfg.court_smear_ratio if court else cfg.smear_ratio
        return width is not None and width >= ratio * height

    # -- the middle of the card: pips or a picture
    def centre(
        self,
        pyr: _Pyramid,
        corners: np.ndarray,
        want_suit: bool = True,
        score: bool = True,
        restore: Callable[[np.ndarray], np.ndarray] | None = None,
        indices: Sequence[tuple[int, int, int, int]] = (),
    ) -> Centre:
        """The middle of the card whose corners are ``corners`` (clockwise from its top
        left): its pips counted, or a picture.  ``indices``: the glyph boxes of the index
        corners read (pixels of a corner patch), whose index is no pip."""
        cfg = self.config
        W, H = cfg.centre_size
        q = np.asarray(corners, np.float32)
        long_side = float(np.hypot(*(q[2] - q[1])))
        lvl = 0
        while long_side / (2 ** (lvl + 1)) >= 1.3 * H:
            lvl += 1
        m = cv2.getPerspectiveTransform(q / (2**lvl), self._centre_rect)
        crop = pyr.warp(lvl, m, (W, H))
        if restore is not None:
            crop = restore(crop)
        scale = W / cfg.crop_size[0]
        boxes = [(x0 * scale, y0 * scale, x1 * scale, y1 * scale) for x0, y0, x1, y1 in indices]
        centre = analyse_centre(crop, cfg, self.reader, want_suit, boxes)
        if score:
            score_centres([centre], self.reader, cfg)
        return centre

    def decide(
        self,
        reads: list[CornerRead],
        corners: tuple[tuple[float, float], ...],
        centre: Centre | None = None,
        strict: float = 1.0,
    ) -> CardReading:
        # This runs some thirty times per frame on arrays of 4 and 15 scores: the sums are
        # made in numpy (float32, as the scores are), the orderings on plain lists.
        cfg = self.config
        rank = _mean_scores([r.rank_scores for r in reads])
        suit: NDArray[np.floating[Any]] = _mean_scores([r.suit_scores for r in reads])
        n_real = len(RANK_CLASSES)
        # a picture in the middle: no 10 whose "1" was lost, so the corners' likeness to
        # a lone "0" (a queen's loop) says nothing
        picture = centre is not None and centre.kind == "picture"
        upto = n_real if picture else len(rank)
        rl: list[float] = rank.tolist()
        sl: list[float] = suit.tolist()
        corner_rank = _argmax(rl, upto)
        corner_suit = _argmax(sl, len(sl))
        rank_agree = all(_argmax(r.rank_list, upto) == corner_rank for r in reads)
        suit_agree = all(r.suit_best == corner_suit for r in reads)
        veto = False
        if centre is not None:
            rank = rank + centre.rank_bonus(cfg)
            if centre.suit_scores is not None:
                w = cfg.centre_suit_weight
                suit = (suit + w * centre.suit_scores) / (1 + w)
                sl = suit.tolist()
            rl = rank.tolist()
            veto = centre.contradicts(RANK_MODEL_CLASSES[_argmax(rl, n_real)])
        piece = max(rl[n_real:]) if len(rl) > n_real and not picture else -1.0
        del rl[n_real:]
        ro = sorted(range(n_real), key=rl.__getitem__, reverse=True)
        so = sorted(range(len(sl)), key=sl.__getitem__, reverse=True)
        rivals = ro[1:]
        if picture and centre is not None and len(reads) >= 2:
            # a picture in the middle: the likeliest rank it allows, where every index
            # corner has it first or second among the real ranks, goes first, and the ranks
            # it rules out (2 to 10) are no rivals -- a looped Q that the corners take for
            # an 8, even where the 8 leads by more than the picture's bonus
            allowed = centre.expected()
            best = next((i for i in ro if RANK_CLASSES[i] in allowed), None)
            if best is not None and all(best in _top_two(r.rank_list, n_real) for r in reads):
                ro.remove(best)
                ro.insert(0, best)
                veto = False
                rivals = [i for i in ro[1:] if RANK_CLASSES[i] in allowed] or ro[1:]
        counted_tie = False  # the corners' near-tie settled by the pips counted
        if (cfg.count_settles_tie > 0 and centre is not None and centre.kind == "pips"
                and len(reads) >= 2 and rank_agree and corner_rank < n_real):
            counted = next((i for i in ro if centre.counts(RANK_CLASSES[i])), None)
            if counted is not None and counted != corner_rank and all(
                    _top_two(r.rank_list, n_real)[1] == counted
                    and r.rank_list[corner_rank] - r.rank_list[counted]
                    <= cfg.count_settles_tie for r in reads):
                counted_tie = True
                ro.remove(counted)
                ro.insert(0, counted)
                rivals = [i for i in ro[1:] if i != corner_rank]
                veto = False
        r1, r2 = rl[ro[0]], rl[rivals[0]]
        s1, s2 = sl[so[0]], sl[so[1]]
        need = cfg.abstain_margin * (1.0 if len(reads) >= 2 else cfg.single_corner_factor)
        need *= strict
        rank_conf = _margin_conf(r1 - r2, r1, need, cfg.min_rank_similarity)
        suit_conf = _margin_conf(s1 - s2, s1, need, cfg.min_suit_similarity)
        conf = min(rank_conf, suit_conf)
        settled = False  # the rank named by the centre where the corners disagree
        if (centre is not None and not (rank_agree and suit_agree and ro[0] == corner_rank)
                and not self._squarish(corners)):
            # the corners disagree: the middle of the card, read by itself, may settle it
            named = RANK_CLASSES[ro[0]]
            settled = (not rank_agree and centre.counts(named)) or (
                # a picture allows it (and none of 2 to 10), and every corner has it first
                # or second (a looped Q that the corners take for an 8) -- a court only: a
                # picture allows an ace (an ace of spades' ornate pip) but cannot tell it
                # from a court (a tilted, blurred KS whose corners read an A and a K, each
                # with the other second, was named AS; no ace was named right so in 700
                # frames of real crops, tilted, blurred and halved)
                centre.kind == "picture"
                and named in centre.expected() and named != "A"
                and all(ro[0] in _top_two(r.rank_list, n_real) for r in reads)
            )
            settled = settled or counted_tie
            rank_agree = rank_agree or settled
            suit_agree = suit_agree or centre.prefers(so[0], cfg.centre_settles_suit)
        agree = rank_agree and suit_agree
        if not agree or veto or (ro[0] != corner_rank and not settled) or so[0] != corner_suit:
            conf = min(conf, 0.49) * 0.5
        # the pair sums in float32, as the scores are: two float32 values add exactly as
        # doubles, and an array of C floats rounds each sum as float32 addition does (a few
        # list operations: numpy costs more on nine numbers)
        r3, s3 = ro[:3], so[:3]
        sums = array("f", [rl[ri] + sl[si] for ri in r3 for si in s3]).tolist()
        combos = sorted(zip([x / 2 for x in sums],
                            [_NAMES[ri][si] for ri in r3 for si in s3], strict=True),
                        reverse=True)
        alts = tuple([(c, round(sc, 4) if sc > 0.0 else 0.0)
                      for sc, c in combos[: cfg.max_alternatives]])
        card = None
        if {so[0], so[1]} == {_CLUB, _SPADE}:
            sign = 1.0 if so[0] == _CLUB else -1.0
            if any(sign * r.club_over_spade < cfg.club_spade_margin for r in reads):
                conf = min(conf, 0.49) * 0.5  # the glyph and the waist disagree
        if centre is not None and centre.count >= 2 and centre.suit_scores is not None:
            bar = cfg.centre_black_veto if so[0] in (_CLUB, _SPADE) else cfg.centre_red_veto
            other = _OTHER_SUIT_INDEX[so[0]]
            if bar is not None and float(centre.suit_scores[other]
                                         - centre.suit_scores[so[0]]) > bar:
                conf = min(conf, 0.49) * 0.5  # the pips take the other suit of its colour
        if (centre is not None and centre.kind == "plain" and RANK_CLASSES[ro[0]] in "JQK"
                and conf < cfg.plain_court_confidence):
            # a court whose middle shows ink the size of a picture but not one (pips run
            # together: a blurred 9 whose index looks like a Q's), unless the corners are
            # sure
            conf = min(conf, 0.49) * 0.5
        if piece > r1 - cfg.piece_margin:
            conf = min(conf, 0.49) * 0.5  # looks as much like a piece of a glyph (a lone 0)
        if (
            ro[0] == _TEN
            and not (centre is not None and centre.counts("T"))
            and not all(_ten_shaped(r.rank_mask, cfg) for r in reads)
        ):
            conf = min(conf, 0.49) * 0.5  # two glyphs side by side, but no "1" first
        if conf >= cfg.min_confidence:
            card = _CARDS[ro[0]][so[0]]
        return CardReading(card, corners, float(round(conf, 4)), alts)


# the code of each (rank class, suit class) pair ("QH"), made once
_NAMES: tuple[tuple[str, ...], ...] = tuple(
    tuple(r + s for s in SUIT_CLASSES) for r in RANK_CLASSES
)

# the card of each (rank class, suit class) pair, made once: cards are immutable values
_CARDS: tuple[tuple[Card, ...], ...] = tuple(
    tuple(Card(r, Suit.from_letter(s)) for s in SUIT_CLASSES) for r in RANK_CLASSES
)


# where an outline's edges are measured: along each side (fractions), and across it (in
# units of the reach, 8% of the card's height)
_BLUR_ALONG = np.array([0.3, 0.5, 0.7], np.float32)
_BLUR_ACROSS = np.arange(-1.0, 1.0001, 1 / 24, dtype=np.float32)


def edge_blur(gray: np.ndarray, corners: np.ndarray, height: float) -> float | None:
    """How wide (px) the outline of a card quad's second blurriest side is (see
    :func:`edge_blurs`)."""
    return edge_blurs(gray, [corners], [height])[0]


def edge_blurs(gray: np.ndarray, quads: list[np.ndarray], heights: list[float]
               ) -> list[float | None]:
    """For each card quad, how wide (px) the outline of its second blurriest side is: the
    median, over three places on the side, of the distance from where grey falls below 80%
    of the way from the table outside to the paper inside to where it falls below 20% (the
    first fall below each, from the paper outwards); None where fewer than two sides show
    a step (paper hardly lighter than the table, other cards beside it).  (All the quads
    of a frame in one pass: a card costs a few microseconds.)"""
    if not quads:
        return []
    q = np.asarray(quads, np.float32).reshape(-1, 4, 2)
    n_cards = len(q)
    reach = np.maximum(6.0, 0.08 * np.asarray(heights, np.float32))  # (N,)
    d = q.take(NEXT_CORNER, axis=1) - q
    nrm = outward_normals(q, d)
    base = q[:, :, None, :] + d[:, :, None, :] * _BLUR_ALONG[None, None, :, None]
    across = _BLUR_ACROSS[None, :] * reach[:, None]  # (N, T)
    # the points sampled, x and y apart (N x 4 x 3 x T each: a row per place on a side)
    rows = n_cards * 12
    mx, my = ((base[:, :, :, None, i] + across[:, None, None, :] * nrm[:, :, None, None, i]
               ).reshape(rows, -1) for i in (0, 1))
    prof = cv2.remap(gray, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    prof = prof.astype(np.float32)
    k = prof.shape[1] // 4
    # the middle value of each profile's inner and outer quarters (the paper, the table)
    inner = np.sort(prof[:, :k], axis=1)[:, k // 2]
    outer = np.sort(prof[:, -k:], axis=1)[:, k // 2]
    rise = inner - outer
    ratio = (prof - outer[:, None]) / np.maximum(rise, 1.0)[:, None]
    # from the paper outwards: the first sample below 80% of the step, and the first below
    # 20% (a speckled table beyond, or ink inside, does not count)
    below80 = ratio < 0.8
    below20 = ratio < 0.2
    count = (np.argmax(below20, axis=1) - np.argmax(below80, axis=1)).reshape(n_cards, 4, 3)
    width = np.maximum(count, 0) * (reach / 24)[:, None, None]
    step = ((rise >= 25) & below20.any(axis=1)).reshape(n_cards, 4, 3)
    width = np.where(step, width, np.inf)
    shown = np.count_nonzero(step, axis=2)  # (N, 4)
    mid = np.take_along_axis(np.sort(width, axis=2),
                             (np.maximum(shown - 1, 0) // 2)[..., None], axis=2)[..., 0]
    # the second blurriest: a blur smears two opposite sides at least, while one side may
    # look soft for its own reasons (a shadow, a card beside it)
    mid = np.where(shown > 0, mid, -np.inf)
    second = np.sort(mid, axis=1)[:, -2]
    enough = np.count_nonzero(shown > 0, axis=1) >= 2
    return [float(w) if ok else None for w, ok in zip(second.tolist(), enough.tolist(),
                                                      strict=True)]


# where a card's paper is sampled: a grid over the quad (fractions of its sides), its rim
# left out: across (u), down (v) and what is left of the way down (1 - v)
_PAPER_U, _PAPER_V = (g.reshape(-1, 1) for g in np.meshgrid(
    np.linspace(0.08, 0.92, 7, dtype=np.float32), np.linspace(0.08, 0.92, 7, dtype=np.float32)))
_PAPER_V1 = 1 - _PAPER_V


def _paper_level(gray: np.ndarray, quads: list[np.ndarray]) -> float:
    """How light the cards' paper is in ``gray``: the level three quarters of the way up
    the levels of a 7 x 7 grid of points over each quad (the pips and pictures on a card
    are darker; the table round it is not sampled); 0.0 without quads."""
    if not quads:
        return 0.0
    q = np.asarray(quads, np.float32).reshape(-1, 4, 1, 2)
    a, b, c, d = q[:, 0], q[:, 1], q[:, 2], q[:, 3]
    # (every quad's grid in one pass: corners blended, as a bilinear patch of the quad)
    pts = _PAPER_V1 * (_PAPER_U * (b - a) + a) + _PAPER_V * (_PAPER_U * (c - d) + d)
    h, w = gray.shape[:2]
    xs = np.clip(pts[..., 0].astype(np.intp), 0, w - 1)
    ys = np.clip(pts[..., 1].astype(np.intp), 0, h - 1)
    levels = gray[ys, xs].reshape(-1)
    k = (3 * (len(levels) - 1)) // 4
    return float(np.partition(levels, k)[k])


def _card_height(corners: np.ndarray) -> float:
    """The mean length of a card quad's two longer opposite sides (px)."""
    s = quad_sides(np.asarray(corners, np.float64).reshape(4, 2))
    return float(max(s[0] + s[2], s[1] + s[3]) / 2)


def _argmax(values: list[float], n: int) -> int:
    """``int(np.argmax(values[:n]))`` of a plain list (the first of equal maxima)."""
    head = values[:n] if n < len(values) else values
    return head.index(max(head))


def _top_two(values: list[float], n: int) -> tuple[int, int]:
    """The indices of the two largest of ``values[:n]``."""
    head = values[:n]
    first = head.index(max(head))
    second = max((i for i in range(len(head)) if i != first), key=head.__getitem__)
    return first, second


_CLUB = SUIT_CLASSES.index("C")
_TEN = RANK_CLASSES.index("T")


def _papery(patch: np.ndarray, cfg: RecognizerConfig) -> bool:
    """Whether a colour index patch shows a card's paper round its index: at least
    ``overlap_paper`` of it unsaturated, and ``overlap_paper_band`` of its top and left
    bands (the card's margin outside the index) (a grey patch: always)."""
    if patch.ndim != 3 or patch.shape[2] < 3:
        return True
    h, w = patch.shape[:2]
    band = cfg.overlap_paper_band
    top, left = max(2, h // 10), max(2, w // 8)
    if _KERNELS is not None and patch.dtype == np.uint8 and patch.shape[2] == 3:
        # (the same counts in one C pass: unsaturated; a tenth of the instructions)
        whole, in_top, in_left = _KERNELS.unsaturated(
            np.ascontiguousarray(patch), h, w, float(cfg.max_card_saturation), top, left)
        return bool(whole >= cfg.overlap_paper * (h * w)
                    and in_top >= band * w * top and in_left >= band * h * left)
    # (three channels' planes compared, not a reduction over the last, 3-long axis: a
    # twentieth of the time, 0.45 ms a patch)
    b, g, r = patch[..., 0], patch[..., 1], patch[..., 2]
    hi = np.maximum(np.maximum(b, g), r).astype(np.int32)
    lo = np.minimum(np.minimum(b, g), r).astype(np.int32)
    # HSV saturation below the card's: (hi - lo) * 255 < max_card_saturation * hi
    grey = (hi - lo) * 255 < cfg.max_card_saturation * np.maximum(hi, 1)
    return bool(
        np.count_nonzero(grey) >= cfg.overlap_paper * grey.size
        and np.count_nonzero(grey[:top]) >= band * w * top
        and np.count_nonzero(grey[:, :left]) >= band * h * left
    )


def _next_digit(first: tuple[int, ...], c: tuple[int, ...]) -> bool:
    """Whether component ``c`` may be the digit after ``first`` (both label, x0, y0, x1, y1,
    height): the "0" of a "10" sits on the same line, top and bottom level with the "1", just
    right of it.  (A pip beside an index is lower, or taller, or farther off.)"""
    h = first[5]
    tol = 0.15 * h
    gap = c[1] - first[3]
    return (abs(c[2] - first[2]) <= tol and abs(c[4] - first[4]) <= tol
            and -0.1 * h < gap < 0.4 * h)


# where a quad is sampled (shares of its sides from its first corner): 5 x 7 points
_UNDER_U, _UNDER_V = (a.reshape(-1) for a in np.meshgrid(np.linspace(0.1, 0.9, 5),
                                                         np.linspace(0.1, 0.9, 7)))


def _share_under(q: np.ndarray, blob: np.ndarray, quads: list[np.ndarray]) -> float:
    """The share of the quad ``q`` (a card partly covered, as it would be) that lies on the
    outline ``blob`` or on one of ``quads``: points spread over it, each inside one of
    them or not."""
    q = np.asarray(q, np.float64).reshape(4, 2)
    u, v = _UNDER_U[:, None], _UNDER_V[:, None]
    spread = (q[0] + u * (q[1] - q[0]) + v * (q[3] - q[0])
              + u * v * (q[2] - q[1] - q[3] + q[0]))
    outline = blob.reshape(-1, 1, 2).astype(np.float32)
    cards = [np.asarray(c, np.float32).reshape(-1, 1, 2) for c in quads]
    if _KERNELS is not None:
        # (in C: pointPolygonTest's rule, thirty-five points by hundreds of sides)
        shapes = [outline, *cards]
        inside = _KERNELS.inside_count(
            np.ascontiguousarray(spread), len(spread),
            np.concatenate([c.reshape(-1) for c in shapes]),
            np.array([len(c) for c in shapes], np.int32), len(shapes))
        return inside / len(spread)
    pts = spread.tolist()
    under = 0
    for x, y in pts:
        if cv2.pointPolygonTest(outline, (x, y), False) >= 0 or any(
                cv2.pointPolygonTest(c, (x, y), False) >= 0 for c in cards):
            under += 1
    return under / len(pts)


def _named_whole(
    readings: list[CardReading],
) -> list[tuple[int, Card, tuple[float, float, float]]]:
    """Each reading that names a card found whole (its four corners, not extrapolated from
    an index corner) and knows where its index is: its place, card and index."""
    return [(i, r.card, r.index) for i, r in enumerate(readings)
            if r.card is not None and r.index is not None and not r.partial
            and len(r.corners) == 4]


def _cut_by_frame(corners: tuple[tuple[float, float], ...], w: int, h: int,
                  tol: float = 1.5, uneven: float = 0.8) -> bool:
    """Whether a card quad is a card running out of the picture: one of its sides lies
    along the picture's edge, and its opposite sides differ in length by more than
    ``uneven`` (the cards of a scan fill it to its edges, but as rectangles).  Such a quad
    is the picture's edge and what shows of the card, not its outline; warped to a card's
    shape its index is stretched (a 4H cut by the top of the frame read as a 4D)."""
    if len(corners) != 4:
        return False
    # (plain numbers: numpy's scalars cost more than these few tests)
    pts = [(float(x), float(y)) for x, y in corners]
    on_edge = False
    for k in range(4):
        (ax, ay), (bx, by) = pts[k], pts[(k + 1) % 4]
        if ((abs(ax) <= tol and abs(bx) <= tol) or (abs(ay) <= tol and abs(by) <= tol)
                or (abs(ax - (w - 1)) <= tol and abs(bx - (w - 1)) <= tol)
                or (abs(ay - (h - 1)) <= tol and abs(by - (h - 1)) <= tol)):
            on_edge = True
    if not on_edge:
        return False
    s = quad_sides(np.asarray(pts, np.float64))
    return bool(min(s[0], s[2]) < uneven * max(s[0], s[2])
                or min(s[1], s[3]) < uneven * max(s[1], s[3]))


def _warp_any(pyr: _Pyramid, lvl: int, m: np.ndarray, size: tuple[int, int], _i: int
              ) -> np.ndarray:
    """``pyr.warp(lvl, m, size)``, whichever patch ``_i`` asks (read_patches' ``wider`` for
    one patch)."""
    return pyr.warp(lvl, m, size)


def _runs_to_rim(
    labels: np.ndarray, i: int, ink: np.ndarray, box: tuple[int, int, int, int], m: int
) -> bool:
    """Whether component ``i`` (``box``: x, y, w, h) is a glyph cut lengthwise by the
    patch's left edge: joined by unbroken ink of ``ink`` (the mask before its rim of
    ``m`` px was cleared) to ink in the rim along at least half its height.  That is a
    stroke beyond the card's found edge (an 8 missing its left stroke reads as a 3).  At
    the top edge a glyph's round top often grazes a tight outline and stays readable."""
    x, y, w, h = box
    if ink[y : y + h, :m].any(axis=1).mean() < 0.5:
        return False
    rows = np.flatnonzero(labels[y : y + h, x] == i) + y
    return bool(len(rows) and ink[rows, : x + 1].all(axis=1).any())


def _ten_shaped(mask: np.ndarray | None, cfg: RecognizerConfig) -> bool:
    """Whether a rank glyph read as a 10 is shaped like one: at most two runs of inked
    columns, the first one narrow (the "1") and the second wider; one run is a "10" whose
    digits touch.  Two indices side by side (an 8 beside the 7 of the card over it) are
    read as a 10 too.  The "1" is measured across its middle rows, where only its stem
    is: a serif font's "1" stands on a foot as wide as a digit."""
    if mask is None or mask.size == 0:
        return True
    cols = np.flatnonzero(mask.any(axis=0))
    if len(cols) == 0:
        return True
    breaks = np.flatnonzero(np.diff(cols) > 1)
    if len(breaks) == 0:
        return True
    if len(breaks) > 1:
        return False
    h = mask.shape[0]
    first = mask[h // 3 : max(h // 3 + 1, (2 * h) // 3), cols[0] : cols[breaks[0]] + 1] > 0
    inked = first.any(axis=1)
    if not inked.any():
        return True
    # each row's extent, from its first inked column to its last; the median row is the
    # stem's (a flag or a foot reaches into the band at one end only)
    left = first.argmax(axis=1)[inked]
    right = first.shape[1] - first[:, ::-1].argmax(axis=1)[inked]
    width = float(np.median(right - left))
    # and the "0" after it is wider than the "1"'s stem (an A beside a thin stroke -- the
    # edge of a card over it -- is no 10)
    zero = int(cols[-1] - cols[breaks[0] + 1] + 1)
    return bool(width <= cfg.ten_one_width * h and zero > width)


_SPADE = SUIT_CLASSES.index("S")


def _paper_light(v: np.ndarray, uneven: float = 1.3) -> np.ndarray | None:
    """The paper's brightness at each pixel of a card crop's ink channel ``v`` (the
    lightest level near it, smoothed), when it varies across the card by more than the
    factor ``uneven``; None when the light is even."""
    h, w = v.shape[:2]
    if (_KERNELS is not None and h >= 16 and w >= 16 and v.ndim == 2
            and v.dtype == np.uint8 and v.flags.c_contiguous):
        # (the same steps, OpenCV's numbers, in one pass in C)
        bg = np.empty((h // 4, w // 4), np.uint8)
        lo, hi = _KERNELS.paper_light(v, h, w, bg)
        if lo <= 0 or hi / lo < uneven:
            return None
        return cv2.resize(bg, (w, h), interpolation=cv2.INTER_LINEAR).astype(np.float32)
    if h >= 16 and w >= 16:
        # a quarter the size, from whole blocks of 4 x 4 pixels (OpenCV's fast path, a
        # quarter of the cost): the 3 rows and columns at most left over do not change a
        # light that varies smoothly across the card
        small = cv2.resize(v[: h - h % 4, : w - w % 4], (w // 4, h // 4),
                           interpolation=cv2.INTER_AREA)
    else:
        small = cv2.resize(v, (max(4, w // 4), max(4, h // 4)), interpolation=cv2.INTER_AREA)
    bg = cv2.dilate(small, _SQUARE9)
    bg = cv2.blur(bg, (5, 5))
    lo, hi, _, _ = cv2.minMaxLoc(bg)
    if lo <= 0 or hi / lo < uneven:
        return None
    return cv2.resize(bg, (w, h), interpolation=cv2.INTER_LINEAR).astype(np.float32)


def paper_rim(bgr: np.ndarray, cfg: RecognizerConfig) -> bool:
    """Whether the picture's rim is nearly all card paper (:func:`rim_paper`), as a photo
    cropped to a card is."""
    return rim_paper(bgr, cfg) >= cfg.whole_frame_paper


def rim_paper(bgr: np.ndarray, cfg: RecognizerConfig) -> float:
    """How much of the picture's rim (``whole_frame_rim`` of its sides) is card paper:
    the smaller of the shares that are unsaturated and light (at least 0.6 x the picture's
    bright level); 0.0 for a picture of no card's proportions."""
    h, w = bgr.shape[:2]
    if min(h, w) < 32 or min(h, w) / max(h, w) < cfg.whole_frame_aspect:
        return 0.0
    step = max(1, min(h, w) // 100)
    b = max(1, int(round(cfg.whole_frame_rim * min(h, w))))
    rim = np.concatenate([
        bgr[:b:step, ::step].reshape(-1, 3), bgr[h - b :: step, ::step].reshape(-1, 3),
        bgr[b : h - b : step, :b:step].reshape(-1, 3),
        bgr[b : h - b : step, w - b :: step].reshape(-1, 3),
    ]).astype(np.int16)
    # (the channels' maximum and minimum plane by plane: numpy reduces a row of three
    # values at a time slowly)
    b_, g_, r_ = rim[:, 0], rim[:, 1], rim[:, 2]
    sat = np.maximum(np.maximum(b_, g_), r_) - np.minimum(np.minimum(b_, g_), r_)
    unsaturated = float(np.mean(sat < cfg.max_card_saturation))
    if unsaturated < cfg.whole_frame_min_paper:
        return unsaturated
    grey = (b_ + g_ + r_) / 3.0
    # the channel sums of every 2 step-th pixel, added plane by plane (no copy of the
    # strided pixels first)
    sub = bgr[:: 2 * step, :: 2 * step]
    total = sub[:, :, 0].astype(np.int16)
    total += sub[:, :, 1]
    total += sub[:, :, 2]
    bright = _percentile_linear(total.reshape(-1), 95.0, 3.0)
    return min(unsaturated, float(np.mean(grey >= 0.6 * bright)))


def _percentile_linear(values: NDArray[np.integer[Any]], q: float, div: float = 1.0) -> float:
    """``np.percentile(values / div, q)`` of non-negative integers ``values`` (linear between
    the two order statistics around it), to the bit, read off their histogram: some 10 us
    on a frame's sample of thousands, where numpy's partitions take 170."""
    n = int(values.size)
    cum = np.bincount(values).cumsum()
    pos = (n - 1) * (q / 100)
    if pos >= n - 1:
        return (len(cum) - 1) / div  # the largest
    k = math.floor(pos)
    a = float(cum.searchsorted(k, side="right")) / div  # the k-th smallest (from 0)
    b = float(cum.searchsorted(k + 1, side="right")) / div
    t = pos - k
    # (numpy's interpolation, from the nearer of the two)
    return a + (b - a) * t if t < 0.5 else b - (b - a) * (1 - t)


def _rank_margin(read: CornerRead, rank: str) -> float:
    """By how much the corner ``read`` prefers ``rank`` to every other real rank."""
    scores = read.rank_list[: len(RANK_CLASSES)]
    mine = RANK_CLASSES.index(rank)
    return scores[mine] - max(s for i, s in enumerate(scores) if i != mine)


def _first_two_ranks(reads: Sequence[CornerRead]) -> tuple[str, str]:
    """The best real rank of index corners read together and its runner-up."""
    rank = _mean_scores([r.rank_scores for r in reads]).tolist()
    first, second = _top_two(rank, len(RANK_CLASSES))
    return RANK_CLASSES[first], RANK_CLASSES[second]


def _rank_split(reads: Sequence[CornerRead]) -> bool:
    """Whether index corners read disagree on the rank (the real ranks' best)."""
    if len(reads) < 2:
        return False
    first = _argmax(reads[0].rank_list, len(RANK_CLASSES))
    return any(_argmax(r.rank_list, len(RANK_CLASSES)) != first for r in reads[1:])


def _black_margin(card: Card, alternatives: Sequence[tuple[str, float]]) -> float:
    """:func:`_suit_margin` of a club or a spade; infinite for a red card."""
    return _suit_margin(card, alternatives) if card.suit.letter in "CS" else math.inf


# the other suit of each suit's colour
_OTHER_SUIT = {"C": "S", "S": "C", "H": "D", "D": "H"}
# ... by suit class index
_OTHER_SUIT_INDEX = tuple(SUIT_CLASSES.index(_OTHER_SUIT[s]) for s in SUIT_CLASSES)


def _suit_margin(card: Card, alternatives: Sequence[tuple[str, float]]) -> float:
    """How much more the corners' reading ``alternatives`` (card code, mean of its rank's
    and suit's scores) prefer the suit of ``card`` to the other suit of its colour, of the
    same rank (suit scores: twice the difference); infinite where the other is not among
    them (its suit not among the three best)."""
    scores = dict(alternatives)
    other = card.rank + _OTHER_SUIT[card.suit.letter]
    if card.code not in scores or other not in scores:
        return math.inf
    return 2 * (scores[card.code] - scores[other])


def _mean_scores(scores: list[NDArray[np.float32]]) -> NDArray[np.float32]:
    """The mean of one or two corners' scores (as np.mean would give it, without its
    overhead: this runs several times per card)."""
    if len(scores) == 1:
        return scores[0]
    if len(scores) == 2:
        return np.asarray((scores[0] + scores[1]) / 2, dtype=np.float32)
    return np.asarray(np.mean(scores, axis=0), dtype=np.float32)


def _margin_conf(margin: float, best: float, need: float, floor: float) -> float:
    """0..1; 0.5 exactly where the margin over the runner-up reaches ``need``."""
    if best < floor or need <= 0:
        return 0.0
    if margin < need:
        return 0.5 * max(0.0, margin) / need
    return 0.5 + 0.5 * min(1.0, (margin - need) / (3 * need))


_CROSS = cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3))
_SQUARE9 = np.ones((9, 9), np.uint8)
_SQUARE3 = np.ones((3, 3), np.uint8)


def _ink_channel(img: NDArray[np.uint8]) -> NDArray[np.uint8]:
    """Grey level in which black and red ink are both dark but yellow (face cards, panels)
    stays light: the darker of the grey and the green channel."""
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    # (OpenCV's minimum of two contiguous planes: numpy's on the strided green costs more)
    return np.asarray(cv2.min(gray, cv2.extractChannel(img, 1)), dtype=np.uint8)


def _open_line(mask: np.ndarray, n: int, vertical: bool) -> NDArray[np.uint8]:
    """``cv2.morphologyEx(mask, MORPH_OPEN, line of n)`` of a 0/1 mask, pixel for pixel, as
    two running sums: a minimum and a maximum over n pixels cost n steps a pixel, a box sum
    two.  Erosion: no hole in the window (outside the picture counts as ink, as
    morphology's default border does); dilation: any eroded pixel in it (same anchor)."""
    k = (1, n) if vertical else (n, 1)  # (width, height)
    a = n // 2
    anchor = (0, a) if vertical else (a, 0)
    holes = cv2.boxFilter(mask ^ 1, -1, k, anchor=anchor, normalize=False,
                          borderType=cv2.BORDER_CONSTANT)
    core = (holes == 0).view(np.uint8)
    hits = cv2.boxFilter(core, -1, k, anchor=anchor, normalize=False,
                         borderType=cv2.BORDER_CONSTANT)
    return np.asarray(hits > 0, dtype=np.uint8)


def _long_lines(mask: np.ndarray, rows: list[list[int]], n: int) -> NDArray[np.uint8]:
    """The straight vertical and horizontal ink runs of the 0/1 ``mask`` at least ``n`` px
    long (its openings by n x 1 and 1 x n lines), computed only in the columns and rows
    that can hold one: a run that long lies in a component at least that tall (or wide) --
    or, as the opening counts the outside of the picture as ink, in one that reaches a
    border and is half as long (or spans the picture).  ``rows``: the mask's components'
    statistics as plain lists (x, y, width, height, area; the background first)."""
    ph, pw = mask.shape
    half = n // 2 - 1
    out = np.zeros_like(mask)
    # (with the C kernels, theirs: the same openings, run by run)
    kernels = _KERNELS if mask.dtype == np.uint8 and mask.flags.c_contiguous else None
    # (plain numbers: a few components, where numpy's steps cost more than the tests)
    tall = [(x, x + w) for x, y, w, h, _a in rows[1:]
            if h >= n or h == ph or ((y == 0 or y + h == ph) and h >= half)]
    if tall:
        x0, x1 = min(a for a, _ in tall), max(b for _, b in tall)
        if kernels is not None:
            kernels.open_lines(mask, ph, pw, n, True, x0, x1, out)
        else:
            out[:, x0:x1] = _open_line(np.ascontiguousarray(mask[:, x0:x1]), n, True)
    wide = [(y, y + h) for x, y, w, h, _a in rows[1:]
            if w >= n or w == pw or ((x == 0 or x + w == pw) and w >= half)]
    if wide:
        y0, y1 = min(a for a, _ in wide), max(b for _, b in wide)
        if kernels is not None:
            kernels.open_lines(mask, ph, pw, n, False, y0, y1, out)
        else:
            out[y0:y1] |= _open_line(mask[y0:y1], n, False)
    return out


def _without_long_lines(
    mask: np.ndarray, n: int, labels: np.ndarray, rows: list[list[int]], length: int,
    taken: list[np.ndarray] | None = None,
) -> tuple[int, np.ndarray, list[list[int]]]:
    """The 0/1 ``mask`` (its ``n`` components, ``labels`` and statistics ``rows`` as
    plain lists) with its straight runs at least ``length`` px long taken out, widened by a
    pixel (in place), and its components again -- as they were where no component is that
    long.  ``taken``: the widened runs taken out are appended to it."""
    if n > 1 and max(max(r[2], r[3]) for r in rows[1:]) >= length:
        lines = _long_lines(mask, rows, length)
        if lines.any():
            # (0/1 masks: taking the widened lines away is mask and not lines)
            wide = cv2.dilate(lines, _SQUARE3)
            cv2.subtract(mask, wide, dst=mask)
            if taken is not None:
                taken.append(wide)
            n, labels, stats = _components(mask)
            rows = stats.tolist()
    return n, labels, rows


def _thinnest(piece: np.ndarray, levels: np.ndarray, thr: float, axis: int,
              band: tuple[float, float], count: int) -> list[int]:
    """Where a piece of ink (``piece``: its pixels in its box, ``levels`` the ink channel
    there) is thinnest: the ``count`` rows (``axis`` 1) or columns (``axis`` 0) between
    ``band`` of its extent holding less ink than both their neighbours -- ink counted as how
    far below the threshold ``thr``, summed across: a neck between two glyphs is narrow and
    light, a glyph's own thin stroke narrow but dark -- the least first."""
    depth = np.where(piece, thr - levels.astype(np.float32), np.float32(0)).sum(axis=axis)
    ink = depth.tolist()
    n = len(ink)
    lo, hi = max(int(band[0] * n), 1), min(int(band[1] * n), n - 2)
    thin = [i for i in range(lo, hi + 1) if ink[i] <= ink[i - 1] and ink[i] <= ink[i + 1]]
    thin.sort(key=lambda i: ink[i])
    return thin[:count]


def _label_mask(labels: np.ndarray, ids: list[int], box: tuple[int, int, int, int]
                ) -> NDArray[np.uint8]:
    """255 where the box (x0, y0, x1, y1) of ``labels`` is one of ``ids``, else 0."""
    x0, y0, x1, y1 = box
    if (_KERNELS is not None and labels.dtype == np.uint16 and labels.ndim == 2
            and labels.flags.c_contiguous and 1 <= len(ids) <= 8
            and 0 <= x0 <= x1 <= labels.shape[1] and 0 <= y0 <= y1 <= labels.shape[0]):
        # (one pass in C over the box, where OpenCV takes one call an id)
        out = np.empty((y1 - y0, x1 - x0), np.uint8)
        _KERNELS.label_mask(labels, labels.shape[0], labels.shape[1], x0, y0, x1, y1, ids, out)
        return out
    part = labels[y0:y1, x0:x1]
    # (OpenCV's compare gives 0/255 at once; a number as the second operand is compared
    # with every pixel, the stubs know only arrays there)
    m = cv2.compare(part, ids[0], cv2.CMP_EQ)  # type: ignore[call-overload]
    for i in ids[1:]:
        m |= cv2.compare(part, i, cv2.CMP_EQ)  # type: ignore[call-overload]
    return np.asarray(m, dtype=np.uint8)


def _percentile(gray: np.ndarray, q: float) -> float:
    """The ``q`` percentile (the k-th smallest level, no interpolation) of every other pixel
    of every other row of a uint8 picture, read off its histogram: a partition of the
    pixels costs about twice as much on a corner patch."""
    flat = gray[::2, ::2]
    n = flat.shape[0] * flat.shape[1]
    k = min(n - 1, max(0, int(n * q / 100.0)))
    if gray.dtype != np.uint8 or gray.ndim != 2:
        return float(np.partition(flat.reshape(-1), k)[k])
    if _KERNELS is not None and gray.flags.c_contiguous:
        return float(_KERNELS.level(gray, gray.shape[0], gray.shape[1], k))
    # (the array methods: numpy's functions wrap them in checks that cost more than the
    # 256 levels, some thirty times per frame)
    cum = cv2.calcHist([flat], [0], None, [256], [0, 256]).ravel().cumsum()
    return float(cum.searchsorted(k, side="right"))


def _below(v: NDArray[np.uint8], thr: float) -> NDArray[np.uint8]:
    """``(v < thr).astype(np.uint8)`` of a uint8 picture, in one OpenCV call: for whole
    levels, below ``thr`` is at most ceil(thr) - 1."""
    t = math.ceil(thr) - 1
    if t < 0:
        return np.zeros(v.shape, np.uint8)
    return np.asarray(cv2.threshold(v, t, 1, cv2.THRESH_BINARY_INV)[1], dtype=np.uint8)


def _paper_colour(img: np.ndarray, gray: np.ndarray, thr: float) -> np.ndarray | None:
    """Mean BGR colour of the paper (pixels lighter than the ink threshold)."""
    # every third pixel of every third row (a ninth of the patch): the rows taken as a
    # view, which OpenCV reads in place, the columns by the mask (copying out a strided
    # three-channel picture costs more than all the rest; cv2.mean sums whole levels: the
    # mean of the same pixels to the bit)
    if (_KERNELS is not None and img.dtype == np.uint8 and gray.dtype == np.uint8
            and img.ndim == 3 and img.shape[2] == 3 and img.shape[:2] == gray.shape
            and img.flags.c_contiguous and gray.flags.c_contiguous):
        # (the same pixels counted and summed in C: cv2.mean multiplies the sums by one
        # over the count)
        n, blue, green, red = _KERNELS.paper(img, gray, gray.shape[0], gray.shape[1],
                                             math.floor(thr))
        if n < 10:
            return None
        scale = 1.0 / n
        return np.array((blue * scale, green * scale, red * scale), np.float32) + 1.0
    sel: NDArray[np.uint8] = np.asarray(
        cv2.threshold(gray[::3], math.floor(thr), 1, cv2.THRESH_BINARY)[1], dtype=np.uint8)
    sel &= _every_third(sel.shape[1])
    if cv2.countNonZero(sel) < 10:
        return None
    return np.array(cv2.mean(img[::3], sel)[:3], np.float32) + 1.0


@functools.cache
def _every_third(width: int) -> NDArray[np.uint8]:
    """1 in every third column from the first, of a row ``width`` wide, else 0."""
    return np.asarray(np.arange(width) % 3 == 0, dtype=np.uint8)


def _redness(img: np.ndarray, ink: np.ndarray, paper: np.ndarray | None) -> float | None:
    """How red the ink is, relative to the paper's colour: ~0 black, > 0.2 red."""
    if paper is None or img.ndim != 3:
        return None
    if cv2.countNonZero(ink) < 4:
        return None
    # (a slice of a patch is read in place: OpenCV steps over its rows)
    col = np.array(cv2.mean(img, ink)[:3], np.float32) / paper
    b, g, r = (float(x) for x in col.tolist())  # relative to the paper
    red = r - max(b, g)
    if red <= 0.0 and max(b, g) - min(b, g, r) > _INK_CHROMA:
        # coloured but not red (a four-colour deck's blue diamonds, green clubs): no
        # evidence of colour at all, rather than "black"
        return None
    return red


# how far the channels of an ink (relative to the paper) may part and it still be black
_INK_CHROMA = 0.2


def adjust_suit_scores(
    scores: np.ndarray, mask: np.ndarray, red: float | None, cfg: RecognizerConfig,
    widening: bool = True, both_sides: bool = True,
) -> None:
    """Colour and shape evidence on top of the glyph similarity (in place); ``widening``:
    how a black suit widens below its top counts too (see ``spade_widening``);
    ``both_sides``: a club's waist must dent both sides of the glyph (see
    ``club_notch_other``; not in a covered corner, whose glyph the card over it may cut
    down one side)."""
    # (element by element, on the suit indices worked out once: this runs for every suit
    # glyph cut out, and a whole-array operation costs more than a few float32 updates)
    if red is not None:
        if red > cfg.red_threshold:
            for i in _BLACK_SUITS:
                scores[i] -= cfg.colour_penalty
        elif red < cfg.black_threshold:
            for i in _RED_SUITS:
                scores[i] -= cfg.colour_penalty
    tw = top_width(mask)
    if tw >= cfg.heart_top:
        scores[_DIAMOND] -= cfg.notch_penalty
    elif tw <= cfg.diamond_top:
        scores[_HEART] -= cfg.notch_penalty
    if mask.shape[0] >= cfg.notch_min_height:
        if widening and cfg.spade_widening > 0:
            # a spade widens from its point to its lobes; a club's top lobe is round, as
            # wide at a tenth of its height as at the waist below it
            wider = top_width(mask, 0.3) - top_width(mask, 0.1)
            if wider >= cfg.spade_widening:
                scores[_CLUB] -= cfg.widening_penalty
            elif wider <= cfg.club_widening:
                scores[_SPADE] -= cfg.widening_penalty
        left, right = side_notches(mask)
        notch = max(left, right)
        if notch > cfg.club_notch_max:
            pass  # deeper than a club's waist: a spade's stalk meeting its lobes, no evidence
        elif notch >= cfg.club_notch:
            if not both_sides or min(left, right) >= cfg.club_notch_other:
                for i in _NOT_CLUB:
                    scores[i] -= cfg.notch_penalty
        elif (cfg.club_shallow_notch is not None
              and min(left, right) >= cfg.club_shallow_notch):
            for i in _NOT_CLUB:
                scores[i] -= cfg.notch_penalty * cfg.shallow_notch_share
        elif notch <= cfg.no_notch:
            scores[_CLUB] -= cfg.notch_penalty * 0.5


_RED_SUITS = tuple(i for i, s in enumerate(SUIT_CLASSES) if s in RED_SUITS)
_BLACK_SUITS = tuple(i for i, s in enumerate(SUIT_CLASSES) if s not in RED_SUITS)
_DIAMOND = SUIT_CLASSES.index("D")
_HEART = SUIT_CLASSES.index("H")
_NOT_CLUB = tuple(i for i, s in enumerate(SUIT_CLASSES) if s != "C")


@dataclass
class Centre:
    """What the middle of a card shows."""

    # "pips", "picture", "plain" (a blob of ink the size of a picture, but without a
    # court's colours, or with pips beside it: pips run together) or "unknown"
    kind: str
    count: int = 0
    suit_scores: np.ndarray | None = None
    pip_masks: list[np.ndarray] = field(default_factory=list, repr=False)
    pip_red: float | None = None
    # the largest pip counted over the smallest (by area): two pips a blur runs together
    # count as one about twice the size
    pip_spread: float = 1.0
    # a picture told by its yellow alone, its ink fallen apart (see ``picture_yellow``):
    # blurred more than the card's outline may show
    apart: bool = False
    # the one pip read may be upside down: an ace's is printed upright for one of the
    # card's two ways up only, and the middle is cut out the way its corners were read
    # (the pips read of other cards lie above the middle line: upright either way up)
    either_way: bool = False

    def expected(self) -> set[str]:
        if self.kind == "pips":
            if self.count == 1:
                return {"A"}
            if 2 <= self.count <= 9:
                return {str(self.count)}
            if self.count == 10:
                return {"T"}
        if self.kind == "picture":
            return {"J", "Q", "K", "A"}
        return set()

    def rank_bonus(self, cfg: RecognizerConfig) -> NDArray[np.float32]:
        bonus = np.zeros(len(RANK_MODEL_CLASSES), np.float32)
        exp = self.expected()
        if not exp:
            return bonus
        for i, r in enumerate(RANK_CLASSES):
            if r in exp:
                bonus[i] += cfg.centre_rank_bonus
        return bonus

    def counts(self, rank: str) -> bool:
        """Whether the pips counted are exactly ``rank``'s (2 to 10)."""
        return self.kind == "pips" and self.count >= 2 and self.expected() == {rank}

    def prefers(self, suit: int, margin: float) -> bool:
        """Whether the pips' shapes name suit index ``suit``, ahead of the next by
        ``margin``."""
        if self.suit_scores is None:
            return False
        order = np.argsort(self.suit_scores)[::-1]
        return bool(
            int(order[0]) == suit
            and float(self.suit_scores[order[0]] - self.suit_scores[order[1]]) >= margin
        )

    def contradicts(self, rank: str) -> bool:
        exp = self.expected()
        if not exp:
            return False
        if self.kind == "picture":
            return rank not in exp
        return rank not in exp


def analyse_centre(
    crop: np.ndarray,
    cfg: RecognizerConfig,
    reader: IndexReader,
    want_suit: bool = True,
    indices: Sequence[tuple[float, float, float, float]] = (),
) -> Centre:
    """Count the pips of a card crop (upright, ``cfg.centre_size``), or see a picture.
    ``indices``: boxes (x0, y0, x1, y1, crop pixels) around the index glyphs read in the
    top left corner, or the bottom right one (the index is printed the same in both,
    turned).  Ink in an index zone larger than that index is then no index: a pip printed
    near the edge, or beside the index and run into it -- what of it lies off the index
    boxes is counted."""
    H, W = crop.shape[:2]
    v = _ink_channel(crop)
    paper = _percentile(v, 90)
    if paper < 60:
        return Centre("unknown")
    thr = min(paper * cfg.ink_ratio, paper - cfg.ink_min_contrast)
    lit = _paper_light(v)
    if lit is None:
        mask = _below(v, thr)
    else:
        # light falls unevenly across the card: ink is what is darker than the paper
        # around it, not than the paper of the whole card
        mask = ((v < lit * cfg.ink_ratio) & (v < lit - cfg.ink_min_contrast)).view(np.uint8)
    mg = max(2, int(0.025 * W))
    mask[:mg] = 0
    mask[-mg:] = 0
    mask[:, :mg] = 0
    mask[:, -mg:] = 0
    n, labels, stats = _components(mask)
    # the components' stats as plain lists: a card has a few dozen, and numpy's overhead
    # on arrays that small is most of the cost
    rows = stats.tolist()
    dens = cfg.picture_density
    colour = reader.colour
    balanced: list[np.ndarray] = []  # the crop white-balanced, made when first needed

    def shown() -> np.ndarray:
        """The crop as its colours are judged: white-balanced (see _white_balanced)."""
        if not balanced:
            balanced.append(_white_balanced(crop))
        return balanced[0]

    spans = [(x, y, x + w, y + h) for x, y, w, h, a in rows[1:]
             if w > 0.6 * W and h > 0.6 * H and a > dens * w * h and a < 0.85 * w * h]
    if spans:
        # a picture spanning most of the card (before its frame is cut away as lines: it
        # may be joined to the card's edge by that frame, or by the edge's shadow) -- in
        # colour, only where it shows a court's colours
        if not colour or any(_coloured(shown(), b, paper, cfg) for b in spans):
            return Centre("picture")
        return Centre("plain")
    zx, zy = cfg.index_zone[0] * W, cfg.index_zone[1] * H
    if cfg.ace_pip_height > 0:
        pip = _lone_pip(rows, W, H, mg, (zx, zy), cfg)
        if pip is not None and not (colour and _coloured(shown(), pip[1], paper, cfg)):
            # one pip alone in the middle, larger than a pip may be: an ace's (looked at
            # before long lines are cut out: its middle column is one)
            if not want_suit:
                return Centre("pips", 1)
            px0, py0, px1, py1 = pip[1]
            shape = (labels[py0:py1, px0:px1] == pip[0]).astype(np.uint8) * 255
            red = (_redness(crop[py0:py1, px0:px1], shape, _paper_colour(crop, v, thr))
                   if reader.colour else None)
            return Centre("pips", 1, None, [shape], red, either_way=True)
    L = max(9, int(0.3 * H))
    # long straight lines (a panel's border, a picture's frame) are not pips
    n, labels, rows = _without_long_lines(mask, n, labels, rows, L)
    # the index boxes in both corners (whole pixels, one wider all round); no index glyph
    # is much larger than the index read
    boxes: list[tuple[int, int, int, int]] = []
    for x0, y0, x1, y1 in indices:
        a0, b0 = max(0, int(x0) - 1), max(0, int(y0) - 1)
        a1, b1 = min(W, math.ceil(x1) + 1), min(H, math.ceil(y1) + 1)
        boxes += [(a0, b0, a1, b1), (W - a1, H - b1, W - a0, H - b0)]
    largest = (max(b[2] - b[0] for b in boxes) * cfg.index_slack,
               max(b[3] - b[1] for b in boxes) * cfg.index_slack) if boxes else (W, H)
    pips = []
    big: list[tuple[int, int, int, int]] = []  # boxes of ink the size of a picture
    other = 0
    shaded = False  # (ink taken for the paper's shade)
    least = 0.04 * H
    sizable = [(i, r) for i, r in enumerate(rows) if i and (r[3] >= least or r[2] >= least)]
    for i, (x, y, w, h, a) in sizable:
        if _in_index_zone(x, y, w, h, W, H, zx, zy):
            if w <= largest[0] and h <= largest[1]:
                continue  # a corner index (it may touch the crop's rim: printed near the edge)
            # larger than the index read: a pip printed near the edge, where there is no
            # index, or beside the index and run into it -- then what lies off the index
            # (a piece split off so is not split again: its box may still cross the index's)
            pieces = _off_boxes(labels, i, (x, y, w, h), boxes, len(rows) + len(sizable)
                                ) if i < n else None
            if pieces is not None:
                sizable += [p for p in pieces if p[1][3] >= least or p[1][2] >= least]
                continue
        if _shade(x, y, w, h, W, H, cfg.centre_shade_band):
            shaded = True
            continue  # the paper's shade along the card's edge, not print (see the config)
        if x <= mg or y <= mg or x + w >= W - mg or y + h >= H - mg:
            other += 1
            continue
        if a < cfg.line_thickness * H * max(w, h):
            continue  # a piece of a thin printed frame, broken where the print is faint
        if h > 0.3 * H or w > 0.45 * W:
            cx, cy = x + w / 2, y + h / 2
            if (
                a > cfg.picture_density * w * h
                and min(w, h) > 0.2 * W
                and 0.2 * W < cx < 0.8 * W
                and 0.2 * H < cy < 0.8 * H
            ):
                big.append((x, y, x + w, y + h))
            else:
                other += 1
            continue
        if (
            cfg.pip_height[0] * H <= h <= cfg.pip_height[1] * H
            and a >= 0.3 * w * h
            and w <= 1.6 * h
            and h <= 2.0 * w
        ):
            pips.append((i, x, y, w, h, a))
        elif a > 0.01 * H * H:
            other += 1
    if big:
        # a picture -- or the middle pips of a small or blurred card run into one blob (a
        # 9 of clubs): in colour, that blob shows none of a court's colours; in grey, pips
        # lie beside it, its outer ones still apart
        if colour:
            return Centre("picture" if any(_coloured(shown(), b, paper, cfg) for b in big)
                          else "plain")
        beside = sum(1 for p in pips
                     if not any(x0 <= p[1] + p[3] / 2 <= x1 and y0 <= p[2] + p[4] / 2 <= y1
                                for x0, y0, x1, y1 in big))
        return Centre("picture" if beside < 2 else "plain")
    def yellow() -> bool:
        """Whether the middle shows a court's yellow (a picture fallen apart)."""
        return colour and _yellow_share(shown(), paper, cfg) >= cfg.picture_yellow

    def unknown() -> Centre:
        """No pips that count: a picture where the middle shows a court's yellow."""
        return Centre("picture", apart=True) if yellow() else Centre("unknown")

    if not pips or other:
        return unknown()
    # the median pip area (whole pixel counts: as np.median gives it)
    areas = sorted(p[5] for p in pips)
    mid = len(areas) // 2
    med = float(areas[mid]) if len(areas) % 2 else (areas[mid - 1] + areas[mid]) / 2
    same = [p for p in pips if 0.5 * med <= p[5] <= 2.0 * med]
    odd = [p for p in pips if not 0.5 * med <= p[5] <= 2.0 * med]
    if odd and not (len(same) >= 2 and all(
            p[5] < 0.5 * med and _centred_in_index_zone(p[1], p[2], p[3], p[4], W, H, zx, zy)
            for p in odd)):
        # (ink smaller than a pip whose middle lies in an index zone is that index's suit,
        # the quad found a little off the card; pieces of a blurred picture are of all
        # sizes)
        return unknown()
    if shaded and yellow():
        # (a blurred court's picture in pieces, one taken for shade along the edge, the
        # others of a size, is a picture still by its yellow)
        return Centre("picture", apart=True)
    spread = max(p[5] for p in same) / max(1, min(p[5] for p in same))
    if not want_suit:
        return Centre("pips", len(same), pip_spread=spread)
    red = None
    # the upright pips (top half: the lower ones are printed upside down), whose shape
    # :func:`score_centres` reads
    pip_masks: list[np.ndarray] = []
    for p in same:
        i, x, y, w, h = p[:5]
        if ((y + h / 2 > cfg.centre_upright_above * H and len(same) > 1)
                or len(pip_masks) >= cfg.centre_pips_read):
            continue
        pip_masks.append((labels[y : y + h, x : x + w] == i).astype(np.uint8) * 255)
        if len(pip_masks) == 1 and reader.colour:
            red = _redness(crop[y : y + h, x : x + w], pip_masks[0], _paper_colour(crop, v, thr))
    return Centre("pips", len(same), None, pip_masks, red, spread, either_way=len(same) == 1)


def _shade(x: int, y: int, w: int, h: int, W: int, H: int, band: float) -> bool:
    """Whether the box (x, y, w, h) of ink in a W x H card crop is the paper's shade along
    a side: in the ``band`` (of the crop's width or height) next to that side, at least
    twice as long along it as across, and a sixth of the side long or more (0: never)."""
    if band <= 0:
        return False
    if h >= 2 * w and h >= H / 6 and (x + w <= band * W or x >= (1 - band) * W):
        return True
    return w >= 2 * h and w >= W / 6 and (y + h <= band * H or y >= (1 - band) * H)


def _centred_in_index_zone(x: int, y: int, w: int, h: int, W: int, H: int, zx: float,
                           zy: float) -> bool:
    """Whether the middle of the box (x, y, w, h) of a W x H card crop lies in a corner's
    index zone (``zx`` wide, ``zy`` tall)."""
    cx, cy = x + w / 2, y + h / 2
    return (cx <= zx or cx >= W - zx) and (cy <= zy or cy >= H - zy)


def _in_index_zone(x: int, y: int, w: int, h: int, W: int, H: int, zx: float, zy: float
                   ) -> bool:
    """Whether the box (x, y, w, h) of a W x H card crop lies in a corner's index zone
    (``zx`` wide, ``zy`` tall) -- or starts in the zone's outer half and is centred in it:
    a blurred index glyph, or one of a quad found a little too large, spills over it."""
    in_left = x + w <= zx or (x < zx / 2 and 2 * x + w <= 2 * zx)
    in_right = x >= W - zx or (x + w > W - zx / 2 and 2 * x + w >= 2 * (W - zx))
    return (in_left or in_right) and (y + h <= zy or y >= H - zy)


def _lone_pip(
    rows: list[list[int]], W: int, H: int, rim: int, zone: tuple[float, float],
    cfg: RecognizerConfig,
) -> tuple[int, tuple[int, int, int, int]] | None:
    """The label and box (x0, y0, x1, y1) of the one blob of ink in a card crop's middle
    (``rows``: its components' statistics, the background's first) where it is an ace's
    pip: every other blob at least 4% of the crop's height across lies in a corner's index
    ``zone`` (x, y); this one clear of the crop's ``rim``, centred, about as wide as tall,
    solid, taller than a pip may be (``pip_height``) and at most ``ace_pip_height``."""
    zx, zy = zone
    least = 0.04 * H
    found = None
    for i, (x, y, w, h, a) in enumerate(rows):
        if i == 0 or (h < least and w < least):
            continue
        if _in_index_zone(x, y, w, h, W, H, zx, zy):
            continue  # an index
        if found is not None:
            return None
        found = (i, (x, y, x + w, y + h), a)
    if found is None:
        return None
    i, (x0, y0, x1, y1), a = found
    w, h = x1 - x0, y1 - y0
    if (x0 <= rim or y0 <= rim or x1 >= W - rim or y1 >= H - rim
            or not cfg.pip_height[1] * H < h <= cfg.ace_pip_height * H
            or not 0.6 * h <= w <= 1.4 * h or a < 0.3 * w * h
            or abs(x0 + x1 - W) > 0.3 * W or abs(y0 + y1 - H) > 0.3 * H):
        return None
    return i, (x0, y0, x1, y1)


def _coloured(crop: np.ndarray, box: tuple[int, int, int, int], paper: float,
              cfg: RecognizerConfig) -> bool:
    """Whether the box (x0, y0, x1, y1) of a colour card crop shows colours besides red
    (``picture_colour``): vivid (see :func:`_vivid_share`), of a hue other than red's."""
    return _vivid_share(crop, box, paper, cfg, (13, 164)) >= cfg.picture_colour


def _yellow_share(crop: np.ndarray, paper: float, cfg: RecognizerConfig) -> float:
    """The share of the box inside a colour card crop's margins (15% of its width, 12% of
    its height) that is vivid yellow (see :func:`_vivid_share`)."""
    H, W = crop.shape[:2]
    box = (int(0.15 * W), int(0.12 * H), int(0.85 * W), int(0.88 * H))
    return _vivid_share(crop, box, paper, cfg, (18, 35))


def _white_balanced(crop: np.ndarray) -> np.ndarray:
    """A colour card crop with its paper made grey again where the light has coloured it
    (each channel scaled so that its 95th percentile, the paper's level in it, is the
    lightest's): under warm light a card's white paper is as saturated an orange-yellow as
    a court's picture, and the middle of a card whose pips a blur ran together was taken
    for one.  A crop whose channels' 95th percentiles lie within 15% of each other is left
    as it is."""
    if crop.ndim != 3 or crop.shape[2] < 3 or crop.size == 0:
        return crop
    img = crop if crop.shape[2] == 3 else np.ascontiguousarray(crop[:, :, :3])
    # (a pixel of every two by two: the levels as well, at a quarter of the cost -- this
    # runs for the middle of every card looked at for a picture)
    sub = cv2.resize(img, (max(1, img.shape[1] // 2), max(1, img.shape[0] // 2)),
                     interpolation=cv2.INTER_NEAREST)
    n = sub.shape[0] * sub.shape[1]
    k = (n * 95) // 100
    ref = np.array([max(1.0, float(cv2.calcHist([sub], [c], None, [256], [0, 256]).ravel()
                                   .cumsum().searchsorted(k, side="right")))
                    for c in range(3)])
    gains = ref.max() / ref
    if gains.max() < 1.15:
        return crop
    return np.asarray(np.clip(img * gains.astype(np.float32), 0, 255), np.uint8)


def _vivid_share(crop: np.ndarray, box: tuple[int, int, int, int], paper: float,
                 cfg: RecognizerConfig, hues: tuple[int, int]) -> float:
    """The share of the box (x0, y0, x1, y1) of a colour card crop that is vivid: more
    saturated than card paper is (``max_card_saturation``), not dark (against the
    ``paper``'s level), of a hue from ``hues[0]`` to ``hues[1]`` (OpenCV's half degrees);
    0.0 for an empty box."""
    x0, y0, x1, y1 = box
    hsv = cv2.cvtColor(crop[y0:y1, x0:x1], cv2.COLOR_BGR2HSV)
    hue, sat, val = cv2.split(hsv)
    vivid = ((sat > cfg.max_card_saturation) & (val > 0.3 * paper) & (hue >= hues[0])
             & (hue <= hues[1]))
    return float(np.count_nonzero(vivid)) / vivid.size if vivid.size else 0.0


def _off_boxes(
    labels: np.ndarray,
    i: int,
    bbox: tuple[int, int, int, int],
    boxes: list[tuple[int, int, int, int]],
    first: int,
) -> list[tuple[int, list[int]]] | None:
    """The pieces of component ``i`` of ``labels`` (its bounding box ``bbox``: x, y, w, h)
    that lie off ``boxes`` (x0, y0, x1, y1), as (label, stats row) pairs, relabelled in
    ``labels`` from ``first`` on; None if it overlaps none of the boxes."""
    x, y, w, h = bbox
    cut = [(max(x0, x), max(y0, y), min(x1, x + w), min(y1, y + h)) for x0, y0, x1, y1 in boxes]
    cut = [c for c in cut if c[0] < c[2] and c[1] < c[3]]
    if not cut or first + 64 >= 65535:
        return None
    region = labels[y : y + h, x : x + w]
    own = cv2.compare(region, i, cv2.CMP_EQ)  # type: ignore[call-overload]
    for x0, y0, x1, y1 in cut:
        own[y0 - y : y1 - y, x0 - x : x1 - x] = 0
    n, sub, stats = _components(np.asarray(own, dtype=np.uint8))
    out: list[tuple[int, list[int]]] = []
    for j, (px, py, pw, ph, pa) in enumerate(stats.tolist()[1 : min(n, 64)], 1):
        label = first + len(out)
        region[sub == j] = label
        out.append((label, [px + x, py + y, pw, ph, pa]))
    return out


def score_centres(centres: list[Centre], reader: IndexReader, cfg: RecognizerConfig) -> None:
    """Suit scores from the pips' shapes of each centre that has pips (in one batch)."""
    masks = [m for c in centres for m in c.pip_masks]
    if not masks:
        return
    # (a pip that may be upside down is read turned too, and the way up whose best suit
    # scores higher counts: upside down, a blurred club's stalk stands where its top lobe
    # belongs and widens like a spade's point, a heart's point like a diamond's top)
    turned = [np.ascontiguousarray(c.pip_masks[0][::-1, ::-1]) for c in centres
              if c.either_way and c.pip_masks]
    every = masks + turned
    f = glyph_features(every)
    a = np.array([np.log(m.shape[1] / m.shape[0]) for m in every], np.float32)
    sc = reader._scores(reader.model.suits, f, a, len(SUIT_CLASSES),
                        reader.profile.suits if reader.profile else None)
    i, j = 0, len(masks)  # (j: the next turned pip's, after all the pips as cut)
    for c in centres:
        n = len(c.pip_masks)
        if n:
            scores = _mean_scores(list(sc[i : i + n])).copy()
            adjust_suit_scores(scores, c.pip_masks[0], c.pip_red, cfg)
            if c.either_way:
                other = sc[j].copy()
                adjust_suit_scores(other, every[j], c.pip_red, cfg)
                j += 1
                if float(other.max()) > float(scores.max()):
                    scores = other
            c.suit_scores = scores
        i += n


from vision import fan as fan_stage  # noqa: E402  (the fan stage uses the reader above)
from vision.profile import DeckProfile  # noqa: E402  (profile uses the reader above)
