"""The labelled real photos of ``shared/data`` and how readings are scored against them.

    python tests/vision/realdata.py [--taught] [--verbose]     # the per-folder report
"""

from __future__ import annotations

import csv
import os
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from companion.cards import Card  # noqa: E402


def data_dir() -> Path | None:
    for cand in (
        os.environ.get("COMPANION_DATA"),
        ROOT.parent / "shared" / "data",
        ROOT / "shared" / "data",
        Path("/work/shared/data"),
    ):
        if cand and Path(cand).is_dir():
            return Path(cand)
    return None


@dataclass
class Photo:
    path: Path
    cards: list[str]
    partial: list[str] = field(default_factory=list)

    def image(self) -> np.ndarray:
        img = cv2.imread(str(self.path), cv2.IMREAD_COLOR)
        assert img is not None, self.path
        return img


def photos(folder: str) -> list[Photo]:
    d = data_dir()
    assert d is not None
    out = []
    with open(d / folder / "labels.csv", newline="") as fh:
        for row in csv.DictReader(fh):
            cards = [Card.from_code(c).code for c in row["cards"].split(";") if c.strip()]
            part = (row.get("partial") or "").split(";")
            partial = [Card.from_code(c).code for c in part if c.strip()]
            out.append(Photo(d / folder / row["file"], cards, partial))
    return out


@dataclass
class Score:
    correct: int = 0
    wrong: int = 0
    missed: int = 0
    total: int = 0
    ms: list[float] = field(default_factory=list)
    wrongs: list[str] = field(default_factory=list)
    misses: list[str] = field(default_factory=list)

    def add(self, name: str, truth: list[str], partial: list[str], said: list[str]) -> None:
        want = Counter(truth)
        extra = Counter(partial)
        self.total += len(truth)
        for code in said:
            if want[code] > 0:
                want[code] -= 1
                self.correct += 1
            elif extra[code] > 0:
                extra[code] -= 1
            else:
                self.wrong += 1
                self.wrongs.append(f"{name}: said {code}, truth {';'.join(truth)}")
        left = sum(want.values())
        self.missed += left
        if left:
            self.misses.append(f"{name}: missed {[c for c, n in want.items() for _ in range(n)]}")

    def line(self, label: str) -> str:
        ms = f"{np.mean(self.ms):.1f} ms/image" if self.ms else ""
        rate = self.correct / max(1, self.total)
        return (f"{label:40s} correct {self.correct:3d}/{self.total:<3d} ({rate:6.1%})  "
                f"wrong {self.wrong:2d}  missed {self.missed:3d}  {ms}")


def score_folder(rec, items: list[Photo]) -> Score:
    sc = Score()
    for p in items:
        img = p.image()
        t = time.perf_counter()
        readings = rec.read(img)
        sc.ms.append((time.perf_counter() - t) * 1000)
        said = [r.card.code for r in readings if r.card is not None]
        sc.add(p.path.name, p.cards, p.partial, said)
    return sc


def deck_sheet_samples():
    from vision.profile import grid_samples

    d = data_dir()
    img = cv2.imread(str(d / "deck-sheet" / "cards.jpg"))
    with open(d / "deck-sheet" / "labels.csv", newline="") as fh:
        row = next(csv.DictReader(fh))
    return grid_samples(img, row["rows"].split(";"), row["columns"].split(";"))


def score_sheet_whole(rec) -> Score:
    """The whole deck-sheet scan read as one picture of 52 touching cards; each reading is
    checked against the grid cell its centre falls in."""
    d = data_dir()
    img = cv2.imread(str(d / "deck-sheet" / "cards.jpg"))
    with open(d / "deck-sheet" / "labels.csv", newline="") as fh:
        row = next(csv.DictReader(fh))
    ranks, suits = row["rows"].split(";"), row["columns"].split(";")
    h, w = img.shape[:2]
    sc = Score()
    t = time.perf_counter()
    readings = rec.read(img)
    sc.ms.append((time.perf_counter() - t) * 1000)
    sc.total = len(ranks) * len(suits)
    for r in readings:
        if r.card is None:
            continue
        cx = sum(p[0] for p in r.corners) / 4
        cy = sum(p[1] for p in r.corners) / 4
        truth = Card.from_code(ranks[int(cy / h * len(ranks))] + suits[int(cx / w * len(suits))])
        if r.card == truth:
            sc.correct += 1
        else:
            sc.wrong += 1
            sc.wrongs.append(f"cards.jpg: said {r.card.code} where {truth.code} lies")
    sc.missed = sc.total - sc.correct
    return sc


def score_sheet(rec, samples) -> Score:
    sc = Score()
    for img, card in samples:
        t = time.perf_counter()
        r = rec.read_crop(img)
        sc.ms.append((time.perf_counter() - t) * 1000)
        sc.add(card.code, [card.code], [], [r.card.code] if r.card else [])
    return sc


def _loo(parts, samples, read):
    """Leave-one-out: each sample read with a profile taught from all the others."""
    from vision.pipeline import Recognizer
    from vision.profile import DeckProfile

    sc = Score()
    for i, (item, truth, partial) in enumerate(samples):
        prof = DeckProfile.merge(p for j, p in enumerate(parts) if j != i)
        rec = Recognizer(profile=prof)
        t = time.perf_counter()
        said = read(rec, item)
        sc.ms.append((time.perf_counter() - t) * 1000)
        sc.add(str(i), truth, partial, said)
    return sc


def frame_ms(rec, repeats: int = 5) -> tuple[float, int, int]:
    """Median CPU ms per composed 1280x720 frame with 12 real cards; cards named, wrong."""
    import frames

    crops = frames.card_crops(rec, photos("phone-scenes"))
    times, named, wrong = [], 0, 0
    for seed in range(4):
        frame, codes = frames.table_frame(crops, 12, seed=seed)
        said = [r.card.code for r in rec.read(frame) if r.card is not None]
        named += len(said)
        wrong += sum(c not in codes for c in said)
        for _ in range(repeats):
            t = time.process_time()
            rec.read(frame)
            times.append((time.process_time() - t) * 1000)
    return float(np.median(times)), named, wrong


def main() -> int:
    cv2.setNumThreads(1)
    from vision.pipeline import Recognizer
    from vision.profile import DeckProfile

    verbose = "--verbose" in sys.argv
    taught = "--taught" in sys.argv
    rec = Recognizer()
    results = []
    for folder in ("webcam-grey", "phone-scenes"):
        results.append((f"{folder} untaught", score_folder(rec, photos(folder))))
    sheet = deck_sheet_samples()
    results.append(("deck-sheet cells untaught", score_sheet(rec, sheet)))
    results.append(("deck-sheet whole scan untaught", score_sheet_whole(rec)))
    if taught:
        items = photos("webcam-grey")
        train = [p for p in items if "train" in p.path.name]
        test = [p for p in items if "test" in p.path.name]
        prof = DeckProfile.teach((p.image(), Card.from_code(p.cards[0])) for p in train)
        results.append(("webcam-grey taught data1 -> data2",
                        score_folder(Recognizer(profile=prof), test)))
        prof = DeckProfile.teach((p.image(), Card.from_code(p.cards[0])) for p in test)
        results.append(("webcam-grey taught data2 -> data1",
                        score_folder(Recognizer(profile=prof), train)))
        items = photos("phone-scenes")
        singles = [p for p in items if len(p.cards) == 1 and not p.partial
                   and p.path.name.startswith("training-") and "test" not in p.path.name
                   and "green" not in p.path.name]
        scenes = [p for p in items if p not in singles]
        prof = DeckProfile.teach((p.image(), Card.from_code(p.cards[0])) for p in singles)
        results.append(("phone-scenes taught singles -> others",
                        score_folder(Recognizer(profile=prof), scenes)))
        parts = [DeckProfile.teach([(p.image(), Card.from_code(p.cards[0]))]) for p in singles]
        results.append(("phone-scenes singles, leave-one-out", _loo(
            parts, [(p.image(), p.cards, p.partial) for p in singles],
            lambda r, img: [x.card.code for x in r.read(img) if x.card is not None])))
        parts = [DeckProfile.teach([s]) for s in sheet]
        results.append(("deck-sheet whole scan taught (its cells)",
                        score_sheet_whole(Recognizer(profile=DeckProfile.merge(parts)))))
        results.append(("deck-sheet cells, leave-one-out", _loo(
            parts, [(img, [c.code], []) for img, c in sheet],
            lambda r, img: [x.code for x in [r.read_crop(img).card] if x is not None])))
    for label, sc in results:
        print(sc.line(label))
        if verbose:
            for x in sc.wrongs:
                print("    WRONG", x)
            for x in sc.misses:
                print("    MISS ", x)
    if "--frames" in sys.argv:
        ms, named, wrong = frame_ms(rec)
        print(f"1280x720 frame, 12 cards: {ms:.1f} ms CPU (median); "
              f"named {named}/48, wrong {wrong}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
