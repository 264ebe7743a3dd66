"""Teaching a deck with the camera, one card at a time: from the terminal or from the tablet.

A :class:`Teacher` asks for each card of a selection in turn. Fed the camera's frames (each
with what :class:`vision.identify.FrameReader` read on it), it waits until exactly one card
lies still under the camera for a few frames, learns that card from the sharpest of those
frames (``DeckProfile.add`` on a crop around the card), saves the profile at once (Ctrl-C or
a crash loses nothing), and waits for the card to be taken away before it asks for the next.
A person may skip a card, redo the last one, or finish early; a partly taught profile is
resumed (cards it already has are not asked again, unless ``add``).

Scripted mode (``companion deck teach PROFILE --video FILE --order CODES``) runs without a
person: each appearance of a card in the video (frames with a card between frames without
one) is the next card of the order; an appearance in which no card ever lay still alone is
reported as skipped.

:class:`CameraTeaching` is the tablet's side: it borrows the frames of the running watch loop
(``vision.watch.WatchControl``), so the table's camera is not opened twice, and hands every
improved profile back to that loop's reader.

    teacher = Teacher.open("deck.profile", parse_cards("all"))
    for frame in frames:
        for line in teacher.feed(frame.t, frame.image, reader.read(frame.image)):
            print(line)
"""

from __future__ import annotations

import argparse
import math
import queue
import re
import sys
import threading
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.cards import RANKS, Card, CardCodeError, Suit, full_deck

Image = NDArray[Any]
Point = tuple[float, float]

# A profile name on the tablet becomes a file name in DATA/decks.
NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$")
PROFILE_SUFFIX = ".profile"
ACTIVE_FILE = "active"


class TeachError(ValueError):
    """Bad teaching input (a card list, a profile that cannot be read); the message says why."""


class CorrectionError(TeachError):
    """A correction from the tablet that cannot be learnt; ``status`` is the HTTP answer
    (404 no such picture, 409 no usable deck profile or a deck being taught, 422 no card
    index in the picture, 500 the profile cannot be written) and ``extra`` goes in its body.
    Nothing was changed."""

    def __init__(self, status: int, reason: str, **extra: Any) -> None:
        super().__init__(reason)
        self.status = status
        self.extra = extra


# The deck a correction starts when no deck profile is active (as the teach screen's default).
DEFAULT_DECK = "table"


# -- which cards ------------------------------------------------------------------------------


_RANK_RANGE = re.compile(r"^(A|[2-9]|10|T|J|Q|K)-(A|[2-9]|10|T|J|Q|K)([SHDC])?$")


def parse_cards(spec: str) -> list[str]:
    """Card codes from ``all``, codes (``QH,10S``), suits (``H``, ``hearts``) and rank ranges
    (``A-5`` in every suit, ``2-9H`` in one), separated by commas or spaces."""
    out: list[str] = []
    tokens = [t for t in re.split(r"[,\s]+", spec.strip()) if t]
    if not tokens:
        raise TeachError("--cards: name some cards, e.g. all, QH,KH, H or A-5")
    for token in tokens:
        upper = token.upper()
        if upper == "ALL":
            out.extend(c.code for c in full_deck())
            continue
        suit = _suit_of(token)
        if suit is not None:
            out.extend(Card(rank, suit).code for rank in RANKS)
            continue
        m = _RANK_RANGE.match(upper)
        if m:
            lo, hi = (RANKS.index("T" if r == "10" else r) for r in m.group(1, 2))
            if lo > hi:
                raise TeachError(f"--cards {token}: the range runs backwards (A is low)")
            suits = [Suit.from_letter(m.group(3))] if m.group(3) else [
                c.suit for c in full_deck()[:: len(RANKS)]]
            out.extend(Card(r, s).code for s in suits for r in RANKS[lo:hi + 1])
            continue
        try:
            out.append(Card.from_code(token).code)
        except CardCodeError as exc:
            raise TeachError(f"--cards {token}: not a card, suit or rank range ({exc})") from None
    return list(dict.fromkeys(out))


def _suit_of(token: str) -> Suit | None:
    if len(token) == 1:
        try:
            return Suit.from_letter(token)
        except (ValueError, KeyError):
            return None
    try:
        return Suit.from_word(token)
    except (ValueError, KeyError):
        return None


def card_name(code: str) -> str:
    return Card.from_code(code).name


# -- looking at one frame ---------------------------------------------------------------------


@dataclass(frozen=True)
class TeachConfig:
    """Tunables of teaching with a camera."""

    # Frames in a row one card must lie still, alone, before it is taken.
    steady_frames: int = 4
    # Between two frames the card's centre may move this fraction of its size, and its size
    # change by this fraction, and still count as lying still (a webcam's noise, not a hand).
    steady_move: float = 0.08
    steady_size: float = 0.10
    # Frames learnt per card: the sharpest of the still ones (two views beat one blur).
    samples: int = 2
    # Frames of the still run kept to choose from.
    keep_frames: int = 8
    # The card counts as taken away after this many frames without a card spanning at least
    # this many seconds: a hand passing over the card for a moment is not a gap.
    clear_frames: int = 3
    clear_seconds: float = 0.3
    # Margin around the card's corners in the crop that is learnt, as a fraction of its size:
    # the learner finds the card's edges again inside it.
    crop_margin: float = 0.25


@dataclass(frozen=True)
class Sighting:
    """One frame in which exactly one card was found."""

    t: float
    centre: Point
    size: float
    crop: Image
    sharpness: float
    read: str | None


def _quad_geometry(corners: Sequence[Sequence[float]]) -> tuple[Point, float]:
    pts = np.asarray(corners, np.float32).reshape(-1, 2)
    centre = (float(pts[:, 0].mean()), float(pts[:, 1].mean()))
    area = float(abs(cv2.contourArea(pts.reshape(-1, 1, 2)))) if len(pts) >= 3 else 0.0
    return centre, math.sqrt(area)


def card_crop(image: Image, corners: Sequence[Sequence[float]], margin: float) -> Image:
    """The part of ``image`` around a card's corners, with ``margin`` (fraction of its size)."""
    pts = np.asarray(corners, np.float32).reshape(-1, 2)
    _, size = _quad_geometry(corners)
    pad = margin * max(size, 1.0)
    h, w = image.shape[:2]
    x0 = max(0, int(math.floor(float(pts[:, 0].min()) - pad)))
    y0 = max(0, int(math.floor(float(pts[:, 1].min()) - pad)))
    x1 = min(w, int(math.ceil(float(pts[:, 0].max()) + pad)))
    y1 = min(h, int(math.ceil(float(pts[:, 1].max()) + pad)))
    return np.ascontiguousarray(image[y0:y1, x0:x1]).copy()


def sharpness(image: Image) -> float:
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    if gray.size == 0:
        return 0.0
    return float(cv2.Laplacian(gray, cv2.CV_64F).var())


# -- the teacher ------------------------------------------------------------------------------


@dataclass(frozen=True)
class TeachStatus:
    """What the teacher is doing, for the terminal and the tablet."""

    phase: str          # waiting, seen, many, taken, clear, known, finished
    card: str | None    # the card asked for
    steady: int         # frames the card has lain still so far
    steady_needed: int
    done: int           # cards of the selection the profile has
    total: int
    taught: tuple[str, ...]
    skipped: tuple[str, ...]
    message: str
    last: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "phase": self.phase,
            "card": self.card,
            "card_name": card_name(self.card) if self.card else None,
            "steady": self.steady,
            "steady_needed": self.steady_needed,
            "done": self.done,
            "total": self.total,
            "taught": list(self.taught),
            "skipped": list(self.skipped),
            "message": self.message,
            "last": dict(self.last),
        }


class Teacher:
    """The state machine of teaching one card at a time (thread-safe: the camera thread feeds
    it while the tablet's requests skip, redo and finish)."""

    def __init__(
        self,
        cards: Sequence[str],
        *,
        base: Any = None,
        path: str | Path | None = None,
        add: bool = False,
        scripted: bool = False,
        config: TeachConfig | None = None,
        name: str = "",
        on_change: Callable[[Any], None] | None = None,
    ) -> None:
        from vision.pipeline import DeckProfile

        if not cards:
            raise TeachError("no cards to teach")
        self.config = config or TeachConfig()
        self.path = Path(path) if path is not None else None
        self.name = name or (self.path.stem if self.path else "")
        self.base = base if base is not None else DeckProfile(name=self.name)
        self.selection = [Card.from_code(c).code for c in cards]
        self.known = set(self.base.cards)
        self.add = add
        self.scripted = scripted
        self.on_change = on_change
        # Scripted: every card of the order appears in the video, taught or not, so each one
        # keeps its place; a person is simply not asked for what the profile already has.
        self.queue = [c for c in self.selection
                      if scripted or add or c not in self.known]
        self.pos = 0
        self.pieces: list[tuple[str, Any]] = []     # (code, profile of that card alone)
        self.taught: list[str] = []
        self.skipped: list[str] = []
        self.history: list[tuple[str, str, int]] = []   # (taught|skipped, code, pos)
        self.profile = self.base
        self.phase = "waiting"
        self.run: list[Sighting] = []
        self.appeared = False
        self.clear_count = 0
        self.clear_since: float | None = None
        self.last_count = 0
        self.message = ""
        self.last: dict[str, Any] = {}
        self.save_error = ""
        self._lock = threading.RLock()
        self._notes: list[str] = []
        if not self.queue:
            self.phase = "finished"
            self._note("every card asked for is already in the profile (use --add to teach "
                       "more photos of them)")
        else:
            self._enter_card()

    @classmethod
    def open(cls, path: str | Path, cards: Sequence[str], **kwargs: Any) -> Teacher:
        """A teacher writing ``path``, resuming the profile already there."""
        from vision.pipeline import DeckProfile
        from vision.profile import DeckProfileError

        p = Path(path)
        base = None
        if p.exists():
            try:
                base = DeckProfile.load(p)
            except DeckProfileError as exc:
                raise TeachError(f"{exc}; give another PROFILE path or remove this file") \
                    from None
        return cls(cards, base=base, path=p, **kwargs)

    # -- reading the state
    @property
    def current(self) -> str | None:
        return self.queue[self.pos] if self.pos < len(self.queue) else None

    @property
    def finished(self) -> bool:
        return self.phase == "finished"

    def status(self) -> TeachStatus:
        with self._lock:
            have = self.known | set(self.taught)
            return TeachStatus(
                self.phase, self.current if not self.finished else None, len(self.run),
                self.config.steady_frames, sum(c in have for c in self.selection),
                len(self.selection), tuple(self.taught), tuple(self.skipped), self.message,
                dict(self.last))

    def prompt(self) -> str:
        with self._lock:
            code = self.current
            if code is None or self.finished:
                return ""
            st = self.status()
            return (f"[{st.done}/{st.total}] Show the {card_name(code)}, alone, under the "
                    "camera")

    # -- the person's buttons
    def skip(self) -> list[str]:
        with self._lock:
            code = self.current
            if self.finished or code is None:
                return self._take_notes()
            if self.phase == "taken":
                self._advance()     # already learnt: skipping only stops waiting for it
            else:
                self.skipped.append(code)
                self.history.append(("skipped", code, self.pos))
                self._note(f"skipped the {card_name(code)}")
                self._advance()
            if not self.finished and self.last_count > 0:
                self.phase = "clear"   # the skipped card is still there: not the next one
            return self._take_notes()

    def redo(self) -> list[str]:
        """Forget the last card taught or skipped and ask for it again."""
        with self._lock:
            if not self.history:
                self._note("nothing to redo yet")
                return self._take_notes()
            kind, code, pos = self.history.pop()
            if kind == "taught":
                i = max(i for i, (c, _) in enumerate(self.pieces) if c == code)
                del self.pieces[i]
                self.taught.reverse()
                self.taught.remove(code)
                self.taught.reverse()
                self._rebuild()
                self._save()
            else:
                self.skipped.remove(code)
            self.pos = pos
            self._enter_card()
            # The card lying there is the one being redone: make the person show it anew.
            self.phase = "clear" if self.last_count > 0 else "waiting"
            self._note(f"again: the {card_name(code)}")
            return self._take_notes()

    def finish(self) -> list[str]:
        with self._lock:
            if not self.finished:
                self.phase = "finished"
                self.run = []
                self._note(self.summary())
            return self._take_notes()

    def end_of_source(self) -> list[str]:
        """The video ended: an appearance still going counts as having ended."""
        with self._lock:
            if not self.finished and self.appeared:
                self._appearance_over()
            return self._take_notes()

    def summary(self) -> str:
        st = self.status()
        parts = [f"{len(self.taught)} card(s) taught this time, {st.done}/{st.total} in the "
                 "profile"]
        if self.skipped:
            parts.append("skipped: " + " ".join(self.skipped))
        missing = [c for c in self.queue[self.pos:] if c not in self.skipped]
        if missing and self.phase != "taken":
            parts.append("not shown: " + " ".join(missing))
        return "; ".join(parts)

    # -- frames
    def feed(self, t: float, image: Image, result: Any) -> list[str]:
        """One frame and what the reader read on it; returns what a person should hear."""
        cards = list(getattr(result, "cards", ()))
        with self._lock:
            self.last_count = len(cards)
            if self.finished:
                return self._take_notes()
            if not cards:
                self._clear_frame(t)
                return self._take_notes()
            self.clear_count, self.clear_since = 0, None
            self.appeared = True
            if self.phase in ("taken", "clear", "known"):
                return self._take_notes()
            if len(cards) > 1:
                if self.phase != "many":
                    self._note("more than one card under the camera: show one card alone")
                self.phase, self.run = "many", []
                return self._take_notes()
            one = cards[0]
            centre, size = _quad_geometry(one.corners)
            if getattr(one, "partial", False) or size < 8:
                self.phase, self.run = "seen", []     # covered: a hand is over it
                return self._take_notes()
            crop = card_crop(image, one.corners, self.config.crop_margin)
            read = one.card.code if getattr(one, "card", None) is not None else None
            s = Sighting(t, centre, size, crop, sharpness(crop), read)
            if self.run and self._still(self.run[-1], s):
                self.run = (self.run + [s])[-self.config.keep_frames:]
            else:
                self.run = [s]
            self.phase = "seen"
            if len(self.run) >= self.config.steady_frames:
                self._take()
            return self._take_notes()

    def _still(self, a: Sighting, b: Sighting) -> bool:
        cfg = self.config
        size = max(a.size, b.size, 1.0)
        return (math.dist(a.centre, b.centre) <= cfg.steady_move * size
                and abs(a.size - b.size) <= cfg.steady_size * size)

    def _clear_frame(self, t: float) -> None:
        self.clear_count += 1
        if self.clear_since is None:
            self.clear_since = t
        cfg = self.config
        # (a video's frame times are index / fps: 0.3 may come out as 0.2999...)
        if self.clear_count < cfg.clear_frames or t - self.clear_since < cfg.clear_seconds - 1e-6:
            if self.phase in ("seen", "many"):
                self.run = []
            return
        self.run = []
        if self.phase == "taken":
            self.appeared = False
            self._advance()
        elif self.phase == "clear":
            self.appeared = False
            self.phase = "waiting"
            self._note(self.prompt())
        elif self.appeared:
            self._appearance_over()
        elif self.phase in ("seen", "many"):
            self.phase = "waiting"

    def _appearance_over(self) -> None:
        self.appeared = False
        code = self.current
        if self.phase == "taken":
            self._advance()
            return
        if not self.scripted or code is None:
            self.phase, self.run = "waiting", []
            return
        if self.phase == "known":
            self._note(f"the {card_name(code)} is already in the profile")
        else:
            self.skipped.append(code)
            self.history.append(("skipped", code, self.pos))
            self._note(f"skipped the {card_name(code)}: it never lay still alone under the "
                       "camera")
        self._advance()

    def _take(self) -> None:
        from vision.pipeline import DeckProfile

        code = self.current
        assert code is not None
        card = Card.from_code(code)
        piece = DeckProfile(name=self.name)
        for s in sorted(self.run, key=lambda s: -s.sharpness):
            if len(piece.cards) >= self.config.samples:
                break
            piece.add(s.crop, card)
        reads = Counter(s.read for s in self.run)
        if not piece.cards:
            self._note(f"no card index could be found on the {card_name(code)}: turn it, or "
                       "give it more light, and show it again")
            self.phase, self.run = "seen", []
            return
        agreed = reads[code] * 2 > len(self.run)
        others = [(c, n) for c, n in reads.most_common() if c not in (None, code)]
        read_as = others[0][0] if others and not agreed else None
        self.pieces.append((code, piece))
        self.taught.append(code)
        self.history.append(("taught", code, self.pos))
        self._rebuild()
        self._save()
        self.last = {"card": code, "agreed": agreed, "read_as": read_as,
                     "samples": len(piece.cards)}
        if agreed:
            how = "the built-in reading already agreed"
        elif read_as:
            how = f"the camera had read it as the {card_name(read_as)}"
        else:
            how = "the camera could not read it before"
        saved = f"; NOT SAVED: {self.save_error}" if self.save_error else ""
        self._note(f"took the {card_name(code)} ({how}); take it away{saved}")
        self.phase, self.run = "taken", []

    def _advance(self) -> None:
        self.pos += 1
        self.run = []
        if self.pos >= len(self.queue):
            self.phase = "finished"
            self._note("all cards done: " + self.summary())
            return
        self._enter_card()
        self._note(self.prompt())

    def _enter_card(self) -> None:
        code = self.current
        known = code is not None and code in self.known and not self.add
        self.phase = "known" if known else "waiting"
        self.run = []

    def _rebuild(self) -> None:
        from vision.pipeline import DeckProfile

        self.profile = DeckProfile.merge([self.base, *(p for _, p in self.pieces)],
                                         name=self.name or self.base.name)
        if self.on_change is not None:
            self.on_change(self.profile)

    def _save(self) -> None:
        if self.path is None:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.profile.save(self.path)
            self.save_error = ""
        except OSError as exc:
            self.save_error = f"{self.path}: cannot write the profile ({exc.strerror or exc})"

    def _note(self, text: str) -> None:
        if text:
            self.message = text
            self._notes.append(text)

    def _take_notes(self) -> list[str]:
        notes, self._notes = self._notes, []
        return notes


# -- the command line -------------------------------------------------------------------------


COMMANDS_HELP = "Enter or s: skip this card; r: redo the last; q: finish"


def run_cli(args: argparse.Namespace) -> int:
    """``companion deck teach PROFILE --camera N | --video FILE | --url URL``."""
    from vision.identify import FrameReader, RecognizerUnavailableError
    from vision.qr import ZbarMissingError
    from vision.sources import CameraThread, SourceConfig, SourceError, open_source

    def err(text: str) -> int:
        print(f"companion: deck teach: {text}", file=sys.stderr)
        return 2

    scripted = args.order is not None
    if scripted and args.video is None:
        return err("--order needs --video FILE (a recorded video, cards in that order)")
    if scripted and args.cards is not None:
        return err("give --order or --cards, not both (--order names the cards)")
    try:
        cards = parse_cards(args.order if scripted else (args.cards or "all"))
        teacher = Teacher.open(args.profile, cards, add=args.add, scripted=scripted,
                               name=args.name)
    except TeachError as exc:
        return err(str(exc))
    if args.camera is not None:
        spec: str | int | Path = args.camera
    elif args.video is not None:
        spec = Path(args.video)
    else:
        spec = str(args.url)
    cv2.setNumThreads(1)
    try:
        # Without a profile: "did the built-in reading agree" is about the recognizer alone.
        reader = FrameReader()
    except (RecognizerUnavailableError, ZbarMissingError) as exc:
        return err(str(exc))
    if isinstance(spec, int):
        # OpenCV's own warnings about a missing camera only repeat our message, less clearly.
        cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_ERROR)
    try:
        # A video shown to a person plays on its own clock; a scripted one as fast as we read.
        source = open_source(spec, SourceConfig(file_realtime=not scripted))
    except SourceError as exc:
        return err(str(exc))
    if teacher.finished:
        print(teacher.message)
        source.close()
        return 0
    out = sys.stdout
    print(f"Teaching {args.profile}: {len(teacher.queue)} card(s) to show"
          + ("" if scripted else f" ({COMMANDS_HELP})"), file=out)
    print(teacher.prompt(), file=out, flush=True)
    commands: queue.Queue[str] = queue.Queue()
    if not scripted:
        threading.Thread(target=_read_commands, args=(commands,), daemon=True,
                         name="teach-keys").start()
    cam = CameraThread(source, "every" if scripted else "newest").start()
    status = 0
    try:
        while not teacher.finished:
            for note in _commands(teacher, commands):
                print(note, file=out, flush=True)
            frame = cam.get(timeout=0.25)
            if frame is None:
                if cam.ended:
                    if cam.error:
                        print(f"companion: deck teach: {cam.error}", file=sys.stderr)
                    break
                continue
            try:
                result = reader.read(frame.image)
            except Exception as exc:  # one frame that breaks the reader is skipped
                print(f"frame {frame.index}: reading failed ({type(exc).__name__})",
                      file=sys.stderr)
                continue
            for note in teacher.feed(frame.t, frame.image, result):
                print(note, file=out, flush=True)
        for note in teacher.end_of_source():
            print(note, file=out, flush=True)
    except KeyboardInterrupt:
        status = 130
        print("", file=out)
    finally:
        cam.stop()
    if not teacher.finished:
        if not scripted and status == 0:
            print(f"{source.name} ended", file=sys.stderr)
        for note in teacher.finish():
            print(note, file=out)
    if teacher.save_error:
        print(f"companion: deck teach: {teacher.save_error}", file=sys.stderr)
        return 1
    if teacher.path is not None and teacher.path.exists():
        print(f"deck profile: {teacher.path}", file=out)
    elif status == 0:
        print("companion: deck teach: no card was learnt; nothing written", file=sys.stderr)
        return 1
    return status


def _read_commands(commands: queue.Queue[str]) -> None:
    for line in sys.stdin:
        commands.put(line.strip().lower())


def _commands(teacher: Teacher, commands: queue.Queue[str]) -> list[str]:
    notes: list[str] = []
    while True:
        try:
            cmd = commands.get_nowait()
        except queue.Empty:
            return notes
        if cmd in ("", "s", "skip"):
            notes += teacher.skip()
        elif cmd in ("r", "redo", "u", "undo"):
            notes += teacher.redo()
        elif cmd in ("q", "f", "finish", "quit"):
            notes += teacher.finish()
        else:
            notes.append(f"{cmd!r}? {COMMANDS_HELP}")


# -- the tablet's side ------------------------------------------------------------------------


def profile_path(decks: Path, name: str) -> Path:
    if not NAME_RE.match(name):
        raise TeachError("a deck name is 1 to 40 letters, digits, '-' or '_' (such as "
                         "'red-bicycle')")
    return decks / f"{name}{PROFILE_SUFFIX}"


def active_profile(decks: Path) -> tuple[Path | None, str]:
    """The deck profile the table's camera reads with (the last one taught on the tablet),
    and a warning when the one named cannot be used (the camera then reads without)."""
    marker = decks / ACTIVE_FILE
    try:
        name = marker.read_text(encoding="utf-8").strip()
    except OSError:
        return None, ""
    try:
        path = profile_path(decks, name)
    except TeachError:
        return None, f"{marker}: {name!r} is not a deck name; reading without a deck profile"
    from vision.pipeline import DeckProfile
    from vision.profile import DeckProfileError

    try:
        DeckProfile.load(path)
    except DeckProfileError as exc:
        return None, f"{exc}; reading without a deck profile"
    return path, ""


class CameraTeaching:
    """Teaching from the tablet with the frames of the table's running camera loop."""

    def __init__(self, control: Any, decks: Path, config: TeachConfig | None = None) -> None:
        self.control = control
        self.decks = Path(decks)
        self.config = config or TeachConfig()
        self.teacher: Teacher | None = None
        self.deck = ""
        self.log: list[str] = []
        self._lock = threading.RLock()

    def status(self) -> dict[str, Any]:
        with self._lock:
            cam = self.control
            out: dict[str, Any] = {
                "camera": True,
                "camera_state": cam.state,
                "camera_name": cam.source_name,
                "camera_reason": cam.reason,
                "frames": cam.frames,
                "active": self.teacher is not None and not self.teacher.finished,
                "deck": self.deck,
                "decks": self.decks_known(),
                "log": self.log[-8:],
            }
            if self.teacher is not None:
                out.update(self.teacher.status().to_json())
                out["prompt"] = self.teacher.prompt()
                out["profile"] = str(self.teacher.path)
            return out

    def decks_known(self) -> list[str]:
        if not self.decks.is_dir():
            return []
        return sorted(p.stem for p in self.decks.glob(f"*{PROFILE_SUFFIX}"))

    def start(self, name: str, cards: str = "all", add: bool = False) -> dict[str, Any]:
        path = profile_path(self.decks, name)
        selection = parse_cards(cards)
        with self._lock:
            if self.teacher is not None and not self.teacher.finished:
                raise TeachError(f"already teaching the deck {self.deck!r}: finish it first")
            teacher = Teacher.open(path, selection, add=add, config=self.config, name=name,
                                   on_change=self.control.set_profile)
            self.teacher, self.deck, self.log = teacher, name, []
            self._remember(teacher.prompt() or teacher.message)
            # The camera reads with what this deck already has from now on.
            if path.exists():
                self.control.set_profile(teacher.profile)
                self._mark_active(name)
            self.control.set_tap(self._tap)
            return self.status()

    def skip(self) -> dict[str, Any]:
        return self._button("skip")

    def redo(self) -> dict[str, Any]:
        return self._button("redo")

    def finish(self) -> dict[str, Any]:
        return self._button("finish")

    def _button(self, what: str) -> dict[str, Any]:
        with self._lock:
            teacher = self.teacher
            if teacher is None or teacher.finished:
                raise TeachError("no deck is being taught: start teaching first")
            notes = getattr(teacher, what)()
            for note in notes:
                self._remember(note)
            self._after(teacher)
            return self.status()

    def _tap(self, frame: Any, result: Any) -> bool:
        with self._lock:
            teacher = self.teacher
            if teacher is None or teacher.finished:
                return False
            for note in teacher.feed(frame.t, frame.image, result):
                self._remember(note)
            self._after(teacher)
            return True

    def _after(self, teacher: Teacher) -> None:
        if teacher.taught or (teacher.path is not None and teacher.path.exists()):
            self._mark_active(self.deck)
        if teacher.finished:
            # The table's camera goes back to the game, reading with the taught deck.
            self.control.set_tap(None)

    # -- corrections during a game: "that card is really the queen of spades"

    def profile_status(self) -> dict[str, Any]:
        """The deck profile corrections go into (the active one), without loading it."""
        marker = self.decks / ACTIVE_FILE
        try:
            name = marker.read_text(encoding="utf-8").strip()
        except OSError:
            name = ""
        out: dict[str, Any] = {"deck": None, "profile": None, "problem": "",
                               "suggested_deck": DEFAULT_DECK, "decks": self.decks_known()}
        if not name:
            return out
        try:
            path = profile_path(self.decks, name)
        except TeachError:
            out["problem"] = f"{marker}: {name!r} is not a deck name"
            return out
        if not path.exists():
            out["problem"] = f"{path}: no such deck profile"
            return out
        out["deck"], out["profile"] = name, str(path)
        return out

    def learn(self, capture_id: str, card: Card, deck: str | None = None) -> dict[str, Any]:
        """Teach the deck profile the camera's picture ``capture_id`` as ``card`` (the same
        step as ``companion deck add``), save it at once, and read with it from the next
        frame. ``deck`` names the deck to learn into (started when new); without it, the
        active deck. Raises :class:`CorrectionError` having changed nothing."""
        from vision.profile import DeckProfileError, NothingLearntError, learn_correction

        with self._lock:
            if self.teacher is not None and not self.teacher.finished:
                raise CorrectionError(409, f"the deck {self.deck!r} is being taught on the "
                                      "camera: finish that first")
            cap = self.control.capture(capture_id)
            if cap is None:
                raise CorrectionError(404, f"the camera has no picture {capture_id!r} (it "
                                      "keeps only the most recent ones)")
            if deck is not None:
                path = profile_path(self.decks, deck)          # TeachError: a bad name
            else:
                status = self.profile_status()
                if status["profile"] is None:
                    why = (f"the active deck profile cannot be used ({status['problem']})"
                           if status["problem"] else "no deck profile is active")
                    raise CorrectionError(
                        409, f"{why}, so this card cannot be remembered. Name a deck to start "
                        f"one (such as {DEFAULT_DECK!r}), or only put the game right.",
                        profile=None, suggested_deck=DEFAULT_DECK)
                path = Path(status["profile"])
            try:
                profile, created = learn_correction(path, cap.crop, card, name=path.stem)
            except DeckProfileError as exc:
                raise CorrectionError(409, f"{exc}. Nothing was changed: teach the deck "
                                      "again, or name another deck.", profile=str(path)) \
                    from None
            except NothingLearntError as exc:
                raise CorrectionError(422, f"{exc}: the deck profile is unchanged") from None
            except OSError as exc:
                raise CorrectionError(500, f"{path}: cannot write the profile "
                                      f"({exc.strerror or exc})") from None
            self.control.set_profile(profile)
            self.control.mark_learned(capture_id, card.code)
            self._mark_active(path.stem)
            self._remember(f"learnt the {card.name} from the game")
            return {"learned": card.code, "card_name": card.name, "deck": path.stem,
                    "profile": str(path), "created": created, "samples": len(profile.cards)}

    def _mark_active(self, name: str) -> None:
        try:
            self.decks.mkdir(parents=True, exist_ok=True)
            (self.decks / ACTIVE_FILE).write_text(name + "\n", encoding="utf-8")
        except OSError as exc:
            self._remember(f"cannot remember the deck for next time ({exc.strerror or exc})")

    def _remember(self, note: str) -> None:
        if note:
            self.log = (self.log + [note])[-20:]
