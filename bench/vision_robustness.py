"""How the card reading holds up when the camera, the light or the framing change.

    .venv/bin/python bench/vision_robustness.py [FOLDER ...] [--only NAME ...] [--deck PROFILE]

Each labelled folder (a ``labels.csv`` in the format of shared/data; default: the photo
folders of shared/data) is read again after each change below, and the cards read right,
wrongly and missed are printed per change.  The changes stand for cameras, tables and
light the photos do not show: turned pictures, small pictures, strong JPEG compression,
dim and overexposed light, light falling off across the table, out-of-focus blur, sensor
noise, a camera looking at the table at a slant or tilted, light of another colour, and a
grey camera.  Numbers, not a test: a wrong card is the figure to watch (it must stay 0).
"""

from __future__ import annotations

import argparse
import csv
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.cards import Card  # noqa: E402

Image = np.ndarray


def turned(img: Image, degrees: float) -> Image:
    """The picture turned about its centre, grown to hold all of it (edges mirrored)."""
    h, w = img.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), degrees, 1.0)
    c, s = abs(m[0, 0]), abs(m[0, 1])
    nw, nh = int(h * s + w * c), int(h * c + w * s)
    m[0, 2] += nw / 2 - w / 2
    m[1, 2] += nh / 2 - h / 2
    return cv2.warpAffine(img, m, (nw, nh), borderMode=cv2.BORDER_REPLICATE)


def long_side(img: Image, side: int) -> Image:
    f = side / max(img.shape[:2])
    return cv2.resize(img, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)


def jpeg(img: Image, quality: int) -> Image:
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)


def gain(img: Image, g: float) -> Image:
    return np.clip(img.astype(np.float32) * g, 0, 255).astype(np.uint8)


def light_falloff(img: Image) -> Image:
    """Light falling from 110% at the right edge to 35% at the left."""
    w = img.shape[1]
    ramp = np.linspace(0.35, 1.1, w, dtype=np.float32)[None, :, None]
    return np.clip(img * ramp, 0, 255).astype(np.uint8)


def noise(img: Image, sigma: float) -> Image:
    rng = np.random.default_rng(0)
    return np.clip(img + rng.normal(0, sigma, img.shape), 0, 255).astype(np.uint8)


def slant(img: Image, t: float) -> Image:
    """The far edge shrunk by ``t`` of the width at each side: a camera tilted away."""
    h, w = img.shape[:2]
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    dst = np.float32([[w * t, 0], [w * (1 - t), 0], [w, h], [0, h]])
    return cv2.warpPerspective(img, cv2.getPerspectiveTransform(src, dst), (w, h),
                               borderMode=cv2.BORDER_REPLICATE)


def tilted(img: Image, degrees: float) -> Image:
    """The table seen by a camera tilted ``degrees`` from looking straight down (a pinhole
    as wide as the picture; the near edge at the bottom), scaled to fit the picture: the
    far side shrinks and the whole picture is foreshortened top to bottom."""
    h, w = img.shape[:2]
    f = float(max(w, h))
    k = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1]], np.float64)
    a = -np.radians(degrees)
    r = np.array([[1, 0, 0], [0, np.cos(a), -np.sin(a)], [0, np.sin(a), np.cos(a)]])
    hm = k @ r @ np.linalg.inv(k)
    corners = np.float32([[0, 0], [w, 0], [w, h], [0, h]]).reshape(-1, 1, 2)
    out = cv2.perspectiveTransform(corners, hm).reshape(-1, 2)
    lo, hi = out.min(axis=0), out.max(axis=0)
    s = min(w / (hi[0] - lo[0]), h / (hi[1] - lo[1]))
    fit = np.array([[s, 0, -lo[0] * s], [0, s, -lo[1] * s], [0, 0, 1]], np.float64)
    return cv2.warpPerspective(img, fit @ hm, (w, h), borderMode=cv2.BORDER_REPLICATE)


def cast(img: Image, blue: float, green: float, red: float) -> Image:
    """The picture under light of another colour: each channel scaled (a tungsten lamp's
    warm light is weak in blue, a window's on an overcast day weak in red)."""
    scaled = img.astype(np.float32) * np.float32([blue, green, red])
    return np.clip(scaled, 0, 255).astype(np.uint8)


def grey(img: Image) -> Image:
    return cv2.cvtColor(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)


CHANGES: dict[str, Callable[[Image], Image]] = {
    "as taken": lambda i: i,
    "turned 30": lambda i: turned(i, 30),
    "turned 45": lambda i: turned(i, 45),
    "turned -100": lambda i: turned(i, -100),
    "640 px": lambda i: long_side(i, 640),
    "400 px": lambda i: long_side(i, 400),
    "jpeg q30": lambda i: jpeg(i, 30),
    "dim x0.45": lambda i: gain(i, 0.45),
    "dark x0.2": lambda i: gain(i, 0.2),
    "bright x1.5": lambda i: gain(i, 1.5),
    "bright x2.5": lambda i: gain(i, 2.5),
    "light falloff": light_falloff,
    "blur 2px": lambda i: cv2.GaussianBlur(i, (0, 0), 2),
    "noise 12": lambda i: noise(i, 12),
    "slant 0.2": lambda i: slant(i, 0.2),
    "tilted 30": lambda i: tilted(i, 30),
    "tilted 45": lambda i: tilted(i, 45),
    "warm light": lambda i: cast(i, 0.4, 0.7, 1.0),
    "cool light": lambda i: cast(i, 1.1, 0.95, 0.7),
    "grey": grey,
}


def labelled(folder: Path) -> list[tuple[Path, list[str], list[str]]]:
    """(image, cards, partial cards) per row of the folder's labels.csv (rows that list
    no cards, such as a deck-sheet grid, are left out)."""
    out = []
    with open(folder / "labels.csv", newline="") as fh:
        for row in csv.DictReader(fh):
            cards = [Card.from_code(c).code for c in (row.get("cards") or "").split(";")
                     if c.strip()]
            partial = [Card.from_code(c).code for c in (row.get("partial") or "").split(";")
                       if c.strip()]
            if cards:
                out.append((folder / row["file"], cards, partial))
    return out


def score(said: list[str], cards: list[str], partial: list[str]) -> tuple[int, int, int]:
    """(right, wrong, missed): a partial card read is neither right nor wrong."""
    want, extra = Counter(cards), Counter(partial)
    right = wrong = 0
    for code in said:
        if want[code] > 0:
            want[code] -= 1
            right += 1
        elif extra[code] > 0:
            extra[code] -= 1
        else:
            wrong += 1
    return right, wrong, sum(want.values())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("folders", nargs="*", type=Path, help="folders with a labels.csv")
    ap.add_argument("--only", nargs="+", choices=sorted(CHANGES), help="changes to run")
    ap.add_argument("--deck", help="a deck profile to read with")
    args = ap.parse_args(argv)
    from vision.bench import labelled_folders
    from vision.identify import load_recognizer
    from vision.labels import LabelError

    try:
        # (a folder without a labels.csv stands for the labelled folders inside it)
        folders = labelled_folders(args.folders, lambda line: print(line, file=sys.stderr))
    except LabelError as exc:
        print(f"vision_robustness: {exc}", file=sys.stderr)
        return 2
    folders = folders or [ROOT.parent / "shared" / "data" / n
                          for n in ("webcam-grey", "phone-scenes")]

    cv2.setNumThreads(1)
    rec = load_recognizer(args.deck)
    names = args.only or list(CHANGES)
    print(f"{'folder':<16} {'change':<14} {'cards':>5} {'right':>6} {'wrong':>6} {'missed':>6}"
          f" {'read':>7}")
    for folder in folders:
        rows = labelled(folder)
        for name in names:
            tot = [0, 0, 0]
            wrongs: list[str] = []
            for path, cards, partial in rows:
                img = cv2.imread(str(path), cv2.IMREAD_COLOR)
                if img is None:
                    print(f"vision_robustness: {path}: not an image", file=sys.stderr)
                    return 2
                said = [r.card.code for r in rec.read(CHANGES[name](img)) if r.card is not None]
                got = score(said, cards, partial)
                tot = [a + b for a, b in zip(tot, got, strict=True)]
                if got[1]:
                    wrongs.append(f"{path.name}: read {said}, there {cards}")
            n = sum(len(c) for _, c, _ in rows)
            print(f"{folder.name:<16} {name:<14} {n:5d} {tot[0]:6d} {tot[1]:6d} {tot[2]:6d}"
                  f" {tot[0] / max(1, n):7.1%}", flush=True)
            for w in wrongs:
                print(f"    wrong: {w}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
