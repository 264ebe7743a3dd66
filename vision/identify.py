"""One frame in, the cards and QR codes on it out: what ``companion identify`` prints.

:class:`FrameReader` joins the card recognizer (``vision.pipeline``) and the QR reader
(``vision.qr``), builds both once, and turns a frame into an :class:`IdentifyResult` whose
:meth:`~IdentifyResult.to_json` is the line FORMATS.md "Card identification output" defines.

A detected quad that carries a QR code is a printed card of ours (Budge, event, Aladdin ...),
not a playing card whose face could not be read, so it is reported under ``codes`` only.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.cards import Card
from vision.detect import quad_sides
from vision.qr import CodeReading, QrConfig, QrReader
from vision.timing import Stages

Point = tuple[float, float]


class RecognizerUnavailableError(RuntimeError):
    """The card recognizer (vision.pipeline) or a deck profile cannot be loaded."""


@dataclass(frozen=True)
class IdentifyConfig:
    """Tunables of the identify stage (the recognizer and QR reader keep their own)."""

    # Readings below this confidence are reported with "card": null; None keeps the
    # recognizer's own abstention rule.
    threshold: float | None = None
    # A code covering at least this fraction of a card quad marks the quad as a printed card.
    code_card_min_area: float = 0.04
    # a named quad about this square (short over long side, or squarer) is looked into for
    # a code all the same: a printed QR symbol on the board is a square whose finder
    # patterns can look like a looped Q (a playing card is 5:7, squarer only when seen
    # steeply from its side)
    square_quad: float = 0.86


@dataclass(frozen=True)
class CardResult:
    card: Card | None
    corners: tuple[Point, ...]
    confidence: float
    alternatives: tuple[tuple[str, float], ...] = ()
    # known only by its index corner (a covered card): the corners are the card's quad
    # extrapolated from that corner and its two edges at the 63 x 88 mm card shape
    partial: bool = False

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "card": self.card.code if self.card is not None else None,
            "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in self.corners],
            "confidence": round(float(self.confidence), 3),
        }
        if self.partial:
            out["partial"] = True
        return out


@dataclass(frozen=True)
class IdentifyResult:
    cards: tuple[CardResult, ...]
    codes: tuple[CodeReading, ...]
    ms: float

    def to_json(self, image: str) -> dict[str, object]:
        return {
            "image": image,
            "ms": round(self.ms, 1),
            "cards": [c.to_json() for c in self.cards],
            "codes": [c.to_json() for c in self.codes],
        }


def load_recognizer(
    deck: str | Path | None = None, threshold: float | None = None
) -> Any:
    """The ``Recognizer``, with a deck profile when ``deck`` is given."""
    try:
        from vision import pipeline
    except ImportError as exc:
        raise RecognizerUnavailableError(
            f"the card recognizer (vision.pipeline) cannot be imported: {exc}"
        ) from None
    config = None
    config_cls = getattr(pipeline, "RecognizerConfig", None)
    if threshold is not None and config_cls is not None:
        fields = {f.name for f in dataclasses.fields(config_cls)}
        if "min_confidence" in fields:
            config = config_cls(min_confidence=threshold)
    profile = None
    if deck is not None:
        profile = load_profile(deck)
    return pipeline.Recognizer(config=config, profile=profile)


def load_profile(path: str | Path) -> Any:
    """Load a deck profile written by ``companion deck teach``."""
    p = Path(path)
    if not p.exists():
        raise RecognizerUnavailableError(
            f"{p}: no such deck profile (make one with: companion deck teach {p} LABELS.csv)"
        )
    try:
        from vision.pipeline import DeckProfile
    except ImportError as exc:
        raise RecognizerUnavailableError(f"deck profiles cannot be loaded: {exc}") from None
    try:
        return DeckProfile.load(p)
    except Exception as exc:  # any failure inside the loader means "not a usable profile"
        raise RecognizerUnavailableError(
            f"{p}: not a deck profile this version can read ({type(exc).__name__}: {exc})"
        ) from None


def _inside(point: Point, poly: Sequence[Point]) -> bool:
    contour = np.asarray(poly, dtype=np.float32).reshape(-1, 1, 2)
    return cv2.pointPolygonTest(contour, (float(point[0]), float(point[1])), False) >= 0


def _squareness(quad: Sequence[Point]) -> float:
    """The mean of two opposite sides of ``quad`` over the mean of the other two, or its
    inverse: 1.0 for a square, 0.71 for a playing card seen square on."""
    sides = quad_sides(np.asarray(quad, dtype=np.float64).reshape(4, 2))
    a, b = sides[0] + sides[2], sides[1] + sides[3]
    return float(min(a, b) / max(a, b)) if max(a, b) > 0 else 0.0


def _area(poly: Sequence[Point]) -> float:
    if len(poly) < 3:
        return 0.0
    return float(abs(cv2.contourArea(np.asarray(poly, dtype=np.float32).reshape(-1, 1, 2))))


class FrameReader:
    """Reads cards and codes from frames; build once, then call :meth:`read` per frame."""

    def __init__(
        self,
        recognizer: Any = None,
        *,
        deck: str | Path | None = None,
        config: IdentifyConfig | None = None,
        qr_config: QrConfig | None = None,
    ) -> None:
        self.config = config or IdentifyConfig()
        self.qr = QrReader(qr_config)
        self.recognizer = recognizer or load_recognizer(deck, self.config.threshold)
        # CPU time per stage (recognizer's and "qr"), when enabled: bench/vision_profile.py
        self.stages = Stages()
        if hasattr(self.recognizer, "stages"):
            self.recognizer.stages = self.stages
        # codes read inside cards while the recognizer read them (see _holds_code_now)
        self._early: dict[tuple[tuple[float, float], ...], list[CodeReading]] = {}
        if hasattr(self.recognizer, "holds_code"):
            self.recognizer.holds_code = self._holds_code_now

    def _holds_code_now(self, quad: NDArray[Any]) -> bool:
        """For the recognizer: whether the card ``quad`` (frame pixels) holds a code; what
        it holds is kept for this frame's QR stage, which does not read that card again."""
        gray = getattr(self.recognizer, "frame_gray", None)
        if gray is None:
            return False
        codes = self.qr.read_quad(gray, np.asarray(quad, np.float64).reshape(4, 2).tolist(),
                                  gated=True)
        self._early[_quad_key(quad)] = codes
        return bool(codes)

    def read(self, image: NDArray[Any]) -> IdentifyResult:
        start = time.perf_counter()
        self._early = {}
        readings = list(self.recognizer.read(image)) if image.size else []
        # Only quads the recognizer could not name are worth a look inside: a playing card
        # it read carries no code, and skipping those keeps a 12-card frame fast.
        quads = []
        named = []
        early = self._early
        for r in readings:
            if len(r.corners) != 4:
                continue
            if early and _quad_key(r.corners) in early:
                named.append(r.corners)  # read already (its codes are in early)
            elif r.card is None or _squareness(r.corners) >= self.config.square_quad:
                quads.append(r.corners)
            else:
                named.append(r.corners)
        gray = getattr(self.recognizer, "frame_gray", None)
        # (where the cards found cover every bright region, no code is printed elsewhere:
        # the frame's finder pass is skipped)
        elsewhere = not getattr(self.recognizer, "frame_explained", False)
        with self.stages("qr"):
            codes = self.qr.read(image, quads=quads, skip=named, gray=gray,
                                 known=[c for found in early.values() for c in found],
                                 elsewhere=elsewhere)
        cards = []
        for r in readings:
            corners = tuple((float(x), float(y)) for x, y in r.corners)
            if self._holds_code(corners, codes):
                continue
            card = r.card
            if self.config.threshold is not None and r.confidence < self.config.threshold:
                card = None
            cards.append(
                CardResult(card, corners, float(r.confidence), tuple(r.alternatives or ()),
                           bool(getattr(r, "partial", False)))
            )
        ms = (time.perf_counter() - start) * 1000.0
        return IdentifyResult(tuple(cards), tuple(codes), ms)

    def _holds_code(self, corners: Sequence[Point], codes: Sequence[CodeReading]) -> bool:
        if not codes:
            return False  # (most frames: no outline to measure)
        area = _area(corners)
        if area <= 0:
            return False
        for code in codes:
            if _inside(code.centre, corners) and (
                _area(code.corners) >= self.config.code_card_min_area * area
            ):
                return True
        return False


def _quad_key(corners: Any) -> tuple[tuple[float, float], ...]:
    """The same four corners in any order (a card's reading turns its quad) as one key."""
    return tuple(sorted((round(float(x), 2), round(float(y), 2))
                        for x, y in np.asarray(corners, np.float64).reshape(-1, 2)))
