"""The vision sub-commands of ``companion``: identify, deck (teach / add), bench-vision, watch.

This module is imported every time ``companion`` starts, so it imports nothing heavy: each
handler imports OpenCV, pyzbar and the recognizer when it runs.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from companion.cards import Card


def register(subparsers: Any) -> None:
    """Add the vision sub-commands to ``companion``'s argparse sub-parsers."""
    p = subparsers.add_parser(
        "identify",
        help="read the cards and QR codes in photos (one JSON line per image)",
        description="Print one JSON object per image (FORMATS.md 'Card identification "
        "output'). Unreadable files give a line with an 'error' key and exit status 1.",
    )
    p.add_argument("images", nargs="+", metavar="IMAGE", help="image files (JPEG, PNG ...)")
    p.add_argument("--deck", metavar="PROFILE", help="a deck profile from 'companion deck teach'")
    p.add_argument(
        "--threshold", type=float, metavar="X",
        help="report cards read with confidence below X (0..1) as null",
    )
    p.set_defaults(func=run_identify)

    deck = subparsers.add_parser("deck", help="teach the recognizer a deck's look")
    deck_sub = deck.add_subparsers(dest="deck_command", metavar="ACTION")
    teach = deck_sub.add_parser(
        "teach",
        help="learn a deck from labelled photos, a deck sheet, or the camera card by card",
        description="LABELS.csv may be 'file,card' (one photo per card), the photo folders' "
        "'file,width,height,cards,partial,notes' (single-card rows are used) or a deck-sheet "
        "'file,layout,rows,columns,notes' grid. Or give --sheet IMAGE --grid 13x4. Or "
        "teach with the camera: --camera N, --video FILE or --url URL asks for each card in "
        "turn and learns it once it lies still, alone, under the camera (the profile is saved "
        "after every card; run it again to go on where it stopped).",
    )
    teach.add_argument("profile", metavar="PROFILE", help="where to write the deck profile")
    teach.add_argument("labels", nargs="?", metavar="LABELS.csv", help="label file or folder")
    teach.add_argument("--sheet", metavar="IMAGE", help="a flat scan of a deck laid out in a grid")
    teach.add_argument("--grid", default="13x4", metavar="RxC", help="rows x columns (13x4)")
    teach.add_argument(
        "--rows", metavar="LIST", help="';'-separated row names, top to bottom (default A;2..K)"
    )
    teach.add_argument(
        "--columns", metavar="LIST", help="';'-separated column names, left to right "
        "(default S;C;D;H)",
    )
    teach.add_argument("--name", default="", help="a name stored in the profile")
    live = teach.add_mutually_exclusive_group()
    live.add_argument("--camera", type=int, metavar="N", help="teach with camera N, card by card")
    live.add_argument("--video", metavar="FILE", help="teach from a video, card by card")
    live.add_argument("--url", metavar="URL", help="teach from a phone's stream (MJPEG/RTSP)")
    teach.add_argument(
        "--cards", metavar="LIST", help="with the camera: the cards to ask for (default all): "
        "codes (QH,10S), suits (H) or rank ranges (A-5, 2-9H)",
    )
    teach.add_argument(
        "--order", metavar="CODES", help="with --video: the cards in the order the video "
        "shows them, one appearance each; runs without questions",
    )
    teach.add_argument(
        "--add", action="store_true",
        help="with the camera: ask for cards the profile already has too (more photos)",
    )
    teach.set_defaults(func=run_deck_teach)

    add = deck_sub.add_parser("add", help="teach one more photo of a card (a correction)")
    add.add_argument("profile", metavar="PROFILE")
    add.add_argument("image", metavar="IMAGE")
    add.add_argument("card", metavar="CARD", help="the card the photo shows, e.g. QH")
    add.set_defaults(func=run_deck_add)
    deck.set_defaults(func=lambda args: _usage(deck))

    bench = subparsers.add_parser(
        "bench-vision",
        help="score the recognizer on labelled photo folders and time it",
        description="Same as 'python -m vision.bench'.",
    )
    add_bench_arguments(bench)
    bench.set_defaults(func=run_bench)

    watch = subparsers.add_parser(
        "watch",
        help="turn a video, camera, stream or photo folder into placed/removed table events",
        description="SOURCE is a video file, a camera index (0), a stream URL or a folder of "
        "photos. Prints table events (FORMATS.md 'Table events'), zones from the board "
        "layout found through its corner QR codes.",
    )
    watch.add_argument("source", metavar="SOURCE",
                       help="video file, camera index (0), stream URL or photo folder")
    watch.add_argument("--json", action="store_true", help="one JSON event per line")
    watch.add_argument("--deck", metavar="PROFILE", help="a deck profile")
    watch.add_argument("--layout", metavar="TOML",
                       help="board layout (default: the bundled calibration/sinbad-board.toml)")
    watch.add_argument("--no-board", action="store_true",
                       help="no board: every card is in zone 'table'")
    watch.add_argument("--calibration", metavar="JSON",
                       help="saved board calibration of this camera (python -m vision.board "
                       "calibrate)")
    watch.add_argument(
        "--frames", type=int, default=3, metavar="N",
        help="frames a card must be read the same before 'placed' (3); also the frames "
        "missing before 'removed' unless --missing is given",
    )
    watch.add_argument("--missing", type=int, metavar="M",
                       help="frames in a row a card must be missing before 'removed'")
    watch.add_argument("--realtime", action="store_true",
                       help="play a video file on its own clock, dropping frames like a camera")
    watch.add_argument("--verbose", action="store_true", help="frames/s on stderr")
    watch.set_defaults(func=run_watch)


def add_bench_arguments(p: argparse.ArgumentParser) -> None:
    """The benchmark's options, shared by ``companion bench-vision`` and ``vision.bench``."""
    p.add_argument("folders", nargs="*", metavar="DIR", help="folders holding a labels.csv")
    p.add_argument("--deck", metavar="PROFILE", help="read with this deck profile")
    p.add_argument("--threshold", type=float, metavar="X", help="abstain below confidence X")
    p.add_argument("--json", action="store_true", help="print the results as one JSON object")
    p.add_argument(
        "--teach-split", metavar="TEACH_DIR",
        help="teach a profile from one single-card photo per card of TEACH_DIR, then score "
        "the folders with it (photos used for teaching are not scored)",
    )
    p.add_argument("--save-profile", metavar="PATH", help="keep the --teach-split profile here")
    p.add_argument(
        "--frames", type=int, default=24, metavar="N",
        help="synthetic 1280x720 frames (12, 9, 6, 3 cards in turn) to time and score; "
        "0 skips (24)",
    )
    p.add_argument("--seed", type=int, default=1, help="seed of the synthetic frames (1)")
    p.add_argument(
        "--speed-reads", type=int, default=5, metavar="N",
        help="read each 12-card synthetic frame N times and time its fastest read, what the "
        "reader costs without the machine's other work (5; 1: the one scored read)",
    )
    p.add_argument(
        "--limit", type=int, default=0, metavar="N", help="score at most N images per folder"
    )
    p.add_argument("--quiet", action="store_true", help="no per-image lines")


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help(sys.stderr)
    return 2


def _err(message: str) -> None:
    print(f"companion: {message}", file=sys.stderr)


# -- identify ------------------------------------------------------------------------------


def run_identify(args: argparse.Namespace) -> int:
    from vision.identify import FrameReader, IdentifyConfig, RecognizerUnavailableError
    from vision.images import ImageLoadError, decode_image, read_bytes
    from vision.qr import ZbarMissingError

    if args.threshold is not None and not 0.0 <= args.threshold <= 1.0:
        _err(f"--threshold {args.threshold}: give a confidence between 0 and 1")
        return 2
    _single_thread()
    try:
        reader = FrameReader(deck=args.deck, config=IdentifyConfig(threshold=args.threshold))
    except (RecognizerUnavailableError, ZbarMissingError) as exc:
        _err(str(exc))
        return 2
    status = 0
    for name in args.images:
        try:
            image = decode_image(read_bytes(name), name)
        except ImageLoadError as exc:
            _print_json({"image": name, "error": exc.reason})
            status = 1
            continue
        try:
            result = reader.read(image)
        except Exception as exc:  # one frame that breaks the reader must not stop the batch
            _print_json({"image": name, "error": f"reading failed: {type(exc).__name__}: {exc}"})
            status = 1
            continue
        _print_json(result.to_json(name))
    return status


def _print_json(obj: dict[str, object]) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def _single_thread() -> None:
    # The table machine is shared with the web server and the game; OpenCV's thread pool
    # buys little on small frames and makes timings noisy.
    import cv2

    cv2.setNumThreads(1)


# -- deck ----------------------------------------------------------------------------------


class _Progress:
    """A one-line progress counter on a terminal; silent when stderr is not a terminal."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.tty = sys.stderr.isatty()
        self.done = 0

    def step(self, what: str) -> None:
        self.done += 1
        if self.tty:
            sys.stderr.write(f"\r  {self.done}/{self.total} {what:<40.40}")
            sys.stderr.flush()

    def close(self) -> None:
        if self.tty and self.done:
            sys.stderr.write("\n")


def teach_samples(
    args: argparse.Namespace, progress_factory: Any = _Progress
) -> Iterator[tuple[Any, Card, str]]:
    """The (image, card, where) samples the teach options name, loading images lazily."""
    from vision.images import ImageLoadError, load_image
    from vision.labels import (
        GridSheet,
        LabelRow,
        iter_grid_cells,
        read_labels,
        sheet_from_options,
        single_card_rows,
    )

    sheets: list[GridSheet] = []
    rows: list[LabelRow] = []
    if args.labels:
        labels = read_labels(args.labels)
        sheets.extend(labels.grids)
        usable = single_card_rows(labels)
        skipped = len(labels.rows) - len(usable)
        if skipped:
            print(f"skipping {skipped} photo(s) that show more than one card", file=sys.stderr)
        rows.extend(usable)
    if args.sheet:
        sheets.append(sheet_from_options(args.sheet, args.grid, args.rows, args.columns))
    total = len(rows) + sum(len(s.rows) * len(s.columns) for s in sheets)
    progress = progress_factory(total)
    try:
        for row in rows:
            progress.step(f"{row.cards[0].code} {row.path.name}")
            try:
                image = load_image(row.path)
            except ImageLoadError as exc:
                print(f"\nskipping {exc}", file=sys.stderr)
                continue
            yield image, row.cards[0], str(row.path)
        for sheet in sheets:
            image = load_image(sheet.path)
            h, w = image.shape[:2]
            for card, (x0, y0, x1, y1) in iter_grid_cells(sheet, w, h):
                progress.step(f"{card.code} {sheet.path.name}")
                yield _framed_cell(image[y0:y1, x0:x1]), card, f"{sheet.path}[{card.code}]"
    finally:
        progress.close()


def _framed_cell(cell: Any) -> Any:
    """A grid cell with a dark margin, so the card's own edges can be found as in a photo."""
    import cv2

    h, w = cell.shape[:2]
    pad = max(4, int(0.12 * max(h, w)))
    return cv2.copyMakeBorder(cell, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=(40, 40, 40))


def run_deck_teach(args: argparse.Namespace) -> int:
    from vision.images import ImageLoadError
    from vision.labels import LabelError

    live = args.camera is not None or args.video is not None or args.url is not None
    if live and (args.labels or args.sheet):
        _err("deck teach: teach from photos (LABELS.csv, --sheet) or from the camera "
             "(--camera, --video, --url), not both at once")
        return 2
    if live:
        from vision.teach import run_cli

        return run_cli(args)
    if args.cards is not None or args.order is not None or args.add:
        _err("deck teach: --cards, --order and --add go with --camera, --video or --url")
        return 2
    if not args.labels and not args.sheet:
        _err("deck teach: give LABELS.csv, --sheet IMAGE --grid 13x4, or teach with the "
             "camera: --camera N (or --video FILE, --url URL)")
        return 2
    try:
        from vision.pipeline import DeckProfile
    except ImportError as exc:
        _err(f"the card recognizer (vision.pipeline) cannot be imported: {exc}")
        return 2
    _single_thread()
    taught: list[str] = []

    def samples() -> Iterator[tuple[Any, Card]]:
        for image, card, _where in teach_samples(args):
            taught.append(card.code)
            yield image, card

    try:
        profile = DeckProfile.teach(samples(), name=args.name or Path(args.profile).stem)
    except (LabelError, ImageLoadError) as exc:
        _err(str(exc))
        return 2
    skipped = list(getattr(profile, "skipped", []))
    learnt = len(taught) - len(skipped)
    if learnt <= 0:
        _err(f"deck teach: no card index could be learnt from {len(taught)} sample(s); "
             "nothing written")
        return 1
    try:
        profile.save(args.profile)
    except OSError as exc:
        _err(f"{args.profile}: cannot write the profile ({exc.strerror or exc})")
        return 1
    print(f"taught {learnt} of {len(taught)} card photo(s); profile written to {args.profile}")
    if skipped:
        print(f"no card index found in: {' '.join(skipped)}", file=sys.stderr)
    return 0


def run_deck_add(args: argparse.Namespace) -> int:
    from companion.cards import Card, CardCodeError
    from vision.images import ImageLoadError, load_image

    try:
        card = Card.from_code(args.card)
    except CardCodeError as exc:
        _err(str(exc))
        return 2
    try:
        image = load_image(args.image)
    except ImageLoadError as exc:
        _err(str(exc))
        return 2
    try:
        from vision.profile import DeckProfileError, NothingLearntError, learn_correction
    except ImportError as exc:
        _err(f"the card recognizer (vision.pipeline) cannot be imported: {exc}")
        return 2
    _single_thread()
    # The same step as a correction made on the tablet during a game (vision.teach).
    try:
        _profile, created = learn_correction(args.profile, image, card)
    except DeckProfileError as exc:
        _err(f"{exc}; the profile is unchanged")
        return 2
    except NothingLearntError:
        _err(f"{args.image}: no card index could be found; the profile is unchanged")
        return 1
    except OSError as exc:
        _err(f"{args.profile}: cannot write the profile ({exc.strerror or exc})")
        return 1
    if created:
        print(f"{args.profile}: new deck profile", file=sys.stderr)
    print(f"learnt {card.code} from {args.image}; profile written to {args.profile}")
    return 0


# -- bench ---------------------------------------------------------------------------------


def run_bench(args: argparse.Namespace) -> int:
    from vision.bench import run

    return run(args)


def run_watch(args: argparse.Namespace) -> int:
    from vision.watch import run

    return run(args)
