"""The vision benchmark: how well and how fast the recognizer reads labelled photos.

    python -m vision.bench [--deck PROFILE] [--json] DIR...
    companion bench-vision DIR...

Each DIR holds a ``labels.csv`` (``file,width,height,cards,partial,notes``, or a deck-sheet
grid). Labels give no positions, so a reading is matched to the labels by card identity within
its image: a named card that is labelled is *correct* (each label counts once), a named card
that is not labelled (or is a second reading of one) is *wrong*, labelled cards not read are
*missed*, and quads reported with no card are *abstentions*. Reading a card listed as
``partial`` counts neither way (it is shown as a bonus).

Timing is the time :class:`vision.identify.FrameReader` spends per image, file decoding
excluded, on one core (``cv2.setNumThreads(1)``), plus the same on synthetic 1280x720 frames
with up to 12 cards, which is what a webcam hands the table.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.cards import RANKS, SUITS, Card

# the speed goal: milliseconds a 1280x720 frame of up to 12 cards, on one core
SPEED_GOAL_MS = 15.0


@dataclass(frozen=True)
class BenchConfig:
    """What the synthetic part of the benchmark renders."""

    frames: int = 24
    seed: int = 1
    width: int = 1280
    height: int = 720
    max_cards: int = 12
    # Every other synthetic frame also carries one printed QR card.
    code_every: int = 2
    # each frame of max_cards cards (the speed goal's, on one core) is read this many
    # times and its fastest read counted, in CPU time of this process: what the reader
    # costs, not what the machine's other work adds to a read now and then
    speed_reads: int = 5


@dataclass(frozen=True)
class ImageScore:
    """The outcome for one image."""

    correct: tuple[Card, ...]
    wrong: tuple[Card, ...]
    missed: tuple[Card, ...]
    partial_found: tuple[Card, ...]
    abstained: int


def score_image(
    labelled: Sequence[Card], partial: Sequence[Card], read: Iterable[Card | None]
) -> ImageScore:
    """Match readings to labels by identity (see the module docstring)."""
    remaining = Counter(labelled)
    partial_left = Counter(partial)
    correct: list[Card] = []
    wrong: list[Card] = []
    bonus: list[Card] = []
    abstained = 0
    for card in read:
        if card is None:
            abstained += 1
        elif remaining[card] > 0:
            remaining[card] -= 1
            correct.append(card)
        elif partial_left[card] > 0:
            partial_left[card] -= 1
            bonus.append(card)
        else:
            wrong.append(card)
    missed = tuple(remaining.elements())
    return ImageScore(tuple(correct), tuple(wrong), missed, tuple(bonus), abstained)


@dataclass
class Tally:
    """Running totals over many images (a mutable accumulator, not a value)."""

    name: str
    images: int = 0
    errors: int = 0
    labelled: int = 0
    correct: int = 0
    wrong: int = 0
    missed: int = 0
    abstained: int = 0
    partial_found: int = 0
    codes_expected: int = 0
    codes_found: int = 0
    ms: list[float] = field(default_factory=list)
    suit: dict[str, Counter[str]] = field(default_factory=dict)
    rank: dict[str, Counter[str]] = field(default_factory=dict)
    # the rendered frames holding the most cards (the speed goal's case): how many cards,
    # and each one's time
    full_cards: int = 0
    full_ms: list[float] = field(default_factory=list)
    full_reads: int = 1  # reads of each such frame, the fastest counted (CPU time)

    def add(self, labelled: Sequence[Card], score: ImageScore, ms: float) -> None:
        self.images += 1
        self.labelled += len(labelled)
        self.correct += len(score.correct)
        self.wrong += len(score.wrong)
        self.missed += len(score.missed)
        self.abstained += score.abstained
        self.partial_found += len(score.partial_found)
        self.ms.append(ms)
        for outcome, cards in (
            ("labelled", labelled), ("correct", score.correct), ("missed", score.missed),
            ("wrong", score.wrong),
        ):
            for card in cards:
                self.suit.setdefault(card.suit.letter, Counter())[outcome] += 1
                self.rank.setdefault(card.rank, Counter())[outcome] += 1

    def merge(self, other: Tally) -> None:
        for name in ("images", "errors", "labelled", "correct", "wrong", "missed", "abstained",
                     "partial_found", "codes_expected", "codes_found"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.ms.extend(other.ms)
        if other.full_ms:
            self.full_cards = max(self.full_cards, other.full_cards)
            self.full_ms.extend(other.full_ms)
            self.full_reads = other.full_reads
        for mine, theirs in ((self.suit, other.suit), (self.rank, other.rank)):
            for key, counts in theirs.items():
                mine.setdefault(key, Counter()).update(counts)

    @property
    def precision(self) -> float | None:
        named = self.correct + self.wrong
        return self.correct / named if named else None

    @property
    def recall(self) -> float | None:
        return self.correct / self.labelled if self.labelled else None

    def to_json(self) -> dict[str, Any]:
        ms = sorted(self.ms)
        full = sorted(self.full_ms)
        return {
            "name": self.name,
            "images": self.images,
            "errors": self.errors,
            "labelled": self.labelled,
            "correct": self.correct,
            "wrong": self.wrong,
            "missed": self.missed,
            "abstained": self.abstained,
            "partial_found": self.partial_found,
            "codes_expected": self.codes_expected,
            "codes_found": self.codes_found,
            "precision": _round(self.precision),
            "recall": _round(self.recall),
            "ms_median": _round(statistics.median(ms)) if ms else None,
            "ms_mean": _round(statistics.fmean(ms)) if ms else None,
            "ms_p90": _round(ms[min(len(ms) - 1, int(0.9 * len(ms)))]) if ms else None,
            # (rendered frames only: those holding full_cards cards, their median and
            # slowest)
            "full_cards": self.full_cards or None,
            "full_frames": len(full),
            "full_reads": self.full_reads if full else None,
            "ms_full_median": _round(statistics.median(full)) if full else None,
            "ms_full_max": _round(full[-1]) if full else None,
            "per_suit": {k: dict(self.suit[k]) for k in _suit_order(self.suit)},
            "per_rank": {k: dict(self.rank[k]) for k in _rank_order(self.rank)},
        }


def _round(v: float | None) -> float | None:
    return None if v is None else round(v, 3)


def _suit_order(keys: Iterable[str]) -> list[str]:
    order = [s.letter for s in SUITS]
    return sorted(keys, key=lambda k: order.index(k) if k in order else 99)


def _rank_order(keys: Iterable[str]) -> list[str]:
    return sorted(keys, key=lambda k: RANKS.index(k) if k in RANKS else 99)


# -- running -------------------------------------------------------------------------------


def bench_folder(
    reader: Any, folder: Path, *, limit: int = 0, exclude: frozenset[Path] = frozenset(),
    log: Any = None,
) -> Tally:
    """Score every labelled image of a folder."""
    from vision.images import ImageLoadError, load_image
    from vision.labels import read_labels

    labels = read_labels(folder)
    tally = Tally(folder.name or str(folder))
    jobs: list[tuple[Path, tuple[Card, ...], tuple[Card, ...]]] = [
        (row.path, row.cards, row.partial) for row in labels.rows
        if row.path.resolve() not in exclude
    ]
    for sheet in labels.grids:
        cards = tuple(sheet.card_at(r, c) for r in range(len(sheet.rows))
                      for c in range(len(sheet.columns)))
        jobs.append((sheet.path, cards, ()))
    if limit > 0:
        jobs = jobs[:limit]
    for path, cards, partial in jobs:
        try:
            image = load_image(path)
        except ImageLoadError as exc:
            tally.errors += 1
            if log:
                log(f"  {path.name}: ERROR {exc.reason}")
            continue
        result = reader.read(image)
        score = score_image(cards, partial, (c.card for c in result.cards))
        tally.add(cards, score, result.ms)
        if log:
            log(_image_line(path.name, score, result.ms))
    return tally


def _image_line(name: str, score: ImageScore, ms: float) -> str:
    parts = [f"  {name:<34.34} {ms:7.1f} ms"]
    if score.correct:
        parts.append("ok " + " ".join(c.code for c in score.correct))
    if score.wrong:
        parts.append("WRONG " + " ".join(c.code for c in score.wrong))
    if score.missed:
        parts.append("missed " + " ".join(c.code for c in score.missed))
    if score.abstained:
        parts.append(f"null x{score.abstained}")
    return "  ".join(parts)


def warm_up(reader: Any) -> None:
    """One read, not timed, of a drawn frame the benchmark does not score: the first read
    of a process pays for what is made once (OpenCV's and numpy's first calls, caches),
    some 5 ms that no later frame costs."""
    from vision.synth import SynthConfig, random_frame

    reader.read(random_frame(999_999, 6, 1, SynthConfig()).image)


def bench_synthetic(reader: Any, config: BenchConfig) -> Tally:
    """Time (and score) the reader on rendered 1280x720 frames with up to 12 cards."""
    from vision.synth import SynthConfig, random_frame

    synth = SynthConfig(width=config.width, height=config.height)
    tally = Tally(f"synthetic {config.width}x{config.height}")
    for i in range(config.frames):
        # 12, 9, 6, 3 cards in turn: the busy case first, always present.
        n_cards = max(1, config.max_cards - 3 * (i % 4))
        n_codes = 1 if config.code_every and i % config.code_every == 1 else 0
        frame = random_frame(config.seed * 1000 + i, n_cards, n_codes, synth)
        cpu = time.process_time()
        result = reader.read(frame.image)
        cpu_ms = [(time.process_time() - cpu) * 1000.0]
        cards = frame.playing_cards
        tally.add(cards, score_image(cards, (), (c.card for c in result.cards)), result.ms)
        if n_cards == config.max_cards:
            tally.full_cards = n_cards
            tally.full_reads = max(1, config.speed_reads)
            for _ in range(tally.full_reads - 1):
                cpu = time.process_time()
                reader.read(frame.image)
                cpu_ms.append((time.process_time() - cpu) * 1000.0)
            tally.full_ms.append(min(cpu_ms))
        tally.codes_expected += len(frame.codes)
        found = {c.data for c in result.codes}
        tally.codes_found += sum(1 for c in frame.codes if c.data in found)
    return tally


def teach_profile(teach_dir: Path, save_to: Path, log: Any) -> tuple[Path, frozenset[Path]]:
    """Teach a profile from one single-card photo per card; returns it and the photos used."""
    from vision.images import ImageLoadError, load_image
    from vision.labels import one_per_card, read_labels, single_card_rows
    from vision.pipeline import DeckProfile

    rows = one_per_card(single_card_rows(read_labels(teach_dir)))
    used: list[Path] = []

    def samples() -> Iterable[tuple[Any, Card]]:
        for row in rows:
            try:
                image = load_image(row.path)
            except ImageLoadError:
                continue
            used.append(row.path.resolve())
            yield image, row.cards[0]

    profile = DeckProfile.teach(samples(), name=teach_dir.name)
    target = save_to
    profile.save(target)
    skipped = list(getattr(profile, "skipped", []))
    log(f"taught {len(used) - len(skipped)} of {len(used)} cards from {teach_dir} -> {target}")
    return target, frozenset(used)


def labelled_folders(paths: Sequence[Path], note: Callable[[str], None]) -> list[Path]:
    """The folders to score: each path that holds a labels.csv, and for one that does
    not, its subfolders that do (``vision.bench ../shared/data`` scores them all).  A
    path that is a file (a README beside the folders, caught by a shell's ``*``) is
    skipped with a note; a folder with no labels.csv in it or in any subfolder is an
    error (:class:`LabelError`), as is being given only files."""
    from vision.labels import LabelError

    out: list[Path] = []
    for p in paths:
        if p.is_file():
            note(f"vision.bench: skipping {p}: a file, not a folder of photos")
            continue
        if (p / "labels.csv").is_file():
            out.append(p)
            continue
        if not p.is_dir():
            raise LabelError(f"{p}: no such folder")
        subs = sorted(d for d in p.iterdir() if (d / "labels.csv").is_file())
        if not subs:
            raise LabelError(f"{p}: no labels.csv in this folder (nor in a folder inside it)")
        out += subs
    if paths and not out:
        raise LabelError("no folder with a labels.csv to score")
    return out


def run(args: argparse.Namespace) -> int:
    """Run the benchmark for parsed arguments (see :func:`vision.commands.add_bench_arguments`)."""
    import cv2

    from vision.identify import FrameReader, IdentifyConfig, RecognizerUnavailableError
    from vision.labels import LabelError
    from vision.qr import ZbarMissingError

    cv2.setNumThreads(1)
    quiet = args.quiet or args.json
    log = None if quiet else (lambda line: print(line, flush=True))

    def note(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    if args.speed_reads < 1:
        print(f"vision.bench: --speed-reads {args.speed_reads}: give 1 or more reads",
              file=sys.stderr)
        return 2
    try:
        folders = labelled_folders([Path(f) for f in args.folders], note)
    except LabelError as exc:
        print(f"vision.bench: {exc}", file=sys.stderr)
        return 2
    deck = args.deck
    exclude: frozenset[Path] = frozenset()
    with tempfile.TemporaryDirectory(prefix="bench-profile-") as scratch:
        try:
            if args.teach_split:
                teach_dir = Path(args.teach_split)
                target = Path(args.save_profile or Path(scratch) / "deck.npz")
                profile_path, exclude = teach_profile(teach_dir, target, note)
                deck = str(profile_path)
            reader = FrameReader(deck=deck, config=IdentifyConfig(threshold=args.threshold))
        except (RecognizerUnavailableError, ZbarMissingError, LabelError) as exc:
            print(f"vision.bench: {exc}", file=sys.stderr)
            return 2
    if args.teach_split and not args.save_profile:
        deck = f"taught from {args.teach_split} (not kept; --save-profile keeps it)"

    warm_up(reader)
    tallies: list[Tally] = []
    try:
        for folder in folders:
            if log:
                log(f"{folder}:")
            tallies.append(bench_folder(reader, folder, limit=args.limit, exclude=exclude,
                                        log=log))
    except LabelError as exc:
        print(f"vision.bench: {exc}", file=sys.stderr)
        return 2
    synth = None
    if args.frames > 0:
        synth = bench_synthetic(reader, BenchConfig(frames=args.frames, seed=args.seed,
                                                    speed_reads=args.speed_reads))
    if args.json:
        print(json.dumps(_report_json(tallies, synth, deck), indent=1))
    else:
        print(format_report(tallies, synth, deck))
    return 0


def _total(tallies: Sequence[Tally]) -> Tally:
    total = Tally("all folders")
    for t in tallies:
        total.merge(t)
    return total


def _report_json(tallies: Sequence[Tally], synth: Tally | None, deck: str | None
                 ) -> dict[str, Any]:
    return {
        "deck": deck,
        "folders": [t.to_json() for t in tallies],
        "total": _total(tallies).to_json() if tallies else None,
        "synthetic": synth.to_json() if synth else None,
    }


def _pct(v: float | None) -> str:
    return "   -" if v is None else f"{100 * v:5.1f}%"


def format_report(tallies: Sequence[Tally], synth: Tally | None, deck: str | None) -> str:
    """The human-readable tables."""
    lines = [f"deck profile: {deck or 'none (built-in recognizer)'}", ""]
    head = (f"{'set':<24} {'images':>6} {'cards':>6} {'correct':>7} {'wrong':>6} {'missed':>6} "
            f"{'null':>5} {'bonus':>5} {'precision':>9} {'recall':>7} {'ms med':>7} {'ms p90':>7}")
    lines += [head, "-" * len(head)]
    rows = list(tallies)
    if len(tallies) > 1:
        rows.append(_total(tallies))
    if synth is not None:
        rows.append(synth)
    for t in rows:
        j = t.to_json()
        lines.append(
            f"{t.name:<24.24} {t.images:>6} {t.labelled:>6} {t.correct:>7} {t.wrong:>6} "
            f"{t.missed:>6} {t.abstained:>5} {t.partial_found:>5} {_pct(t.precision):>9} "
            f"{_pct(t.recall):>7} {_ms(j['ms_median']):>7} {_ms(j['ms_p90']):>7}"
        )
    errors = sum(t.errors for t in tallies)
    if errors:
        lines.append(f"({errors} image(s) could not be loaded)")
    if synth is not None and synth.codes_expected:
        lines.append(
            f"QR codes on synthetic frames: {synth.codes_found}/{synth.codes_expected} read"
        )
    if synth is not None and synth.full_ms:
        j = synth.to_json()
        reads = (f", the fastest of {synth.full_reads} reads each"
                 if synth.full_reads > 1 else "") + ", CPU time"
        lines.append(
            f"synthetic frames of {synth.full_cards} cards ({j['full_frames']}{reads}): "
            f"{_ms(j['ms_full_median'])} ms median, {_ms(j['ms_full_max'])} ms the slowest "
            f"(goal: {SPEED_GOAL_MS:g} ms a 1280x720 frame of up to 12 cards)"
        )
    if tallies:
        total = _total(tallies)
        lines += ["", "by suit (photos)      cards correct missed  wrong*"]
        for key in _suit_order(total.suit):
            c = total.suit[key]
            lines.append(f"  {key:<18} {c['labelled']:>6} {c['correct']:>7} {c['missed']:>6} "
                         f"{c['wrong']:>7}")
        lines += ["by rank (photos)      cards correct missed  wrong*"]
        for key in _rank_order(total.rank):
            c = total.rank[key]
            name = "10" if key == "T" else key
            lines.append(f"  {name:<18} {c['labelled']:>6} {c['correct']:>7} {c['missed']:>6} "
                         f"{c['wrong']:>7}")
        lines.append("* wrong: readings that named a card of this suit/rank that was not there")
    from vision import native

    lines.append("times: per image (wall clock; the 12-card frames' CPU time, one core), file "
                 "decoding excluded, one OpenCV thread, after one read not timed; card reader: "
                 f"{native.status}")
    return "\n".join(lines)


def _ms(v: float | None) -> str:
    return "-" if v is None else f"{v:.1f}"


def build_parser() -> argparse.ArgumentParser:
    from vision.commands import add_bench_arguments

    parser = argparse.ArgumentParser(
        prog="python -m vision.bench",
        description="Score the card recognizer on labelled photo folders and time it.",
    )
    add_bench_arguments(parser)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return run(args)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
