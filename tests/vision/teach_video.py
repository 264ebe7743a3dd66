"""Videos of cards shown one at a time under a camera, for the deck-teaching tests.

Each card is a REAL card, cut (rectified) out of a single-card photo of ``shared/data``, laid
on a noisy table one at a time: it slides in, lies still (with a pixel of camera jitter), and
is taken away; between cards the table is empty. A card may be covered for a few frames by a
hand (a skin-coloured palm and arm passing over it), or never lie still (pushed across the
table the whole time). Written with ``cv2.VideoWriter`` as MJPG .avi, as a webcam recording.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import realdata

SIZE = (640, 480)
FPS = 10.0


@dataclass(frozen=True)
class Shot:
    """One appearance of a card: ``still`` frames lying still, ``hand`` of them (in the
    middle) covered by a passing hand; ``sliding`` cards move all the time."""

    code: str
    still: int = 7
    hand: int = 0
    sliding: bool = False


def real_crops(folder: str = "webcam-grey", which: str = "train") -> dict[str, np.ndarray]:
    """code -> an upright crop of that card, cut from a real single-card photo wherever the
    built-in recognizer finds the card's outline (whether or not it reads it)."""
    from vision.pipeline import Recognizer, rectify

    rec = Recognizer()
    out: dict[str, np.ndarray] = {}
    for p in realdata.photos(folder):
        if len(p.cards) != 1 or which not in p.path.name or p.cards[0] in out:
            continue
        img = p.image()
        quads = [r.corners for r in rec.read(img) if len(r.corners) == 4]
        if quads:
            out[p.cards[0]] = rectify(img, quads[0], (126, 176))
    return out


def _table(rng: np.random.Generator) -> np.ndarray:
    w, h = SIZE
    frame = np.empty((h, w, 3), np.uint8)
    frame[:] = (60, 80, 70)
    noise = rng.normal(0, 4, (h, w, 1)).astype(np.float32)
    return np.clip(frame.astype(np.float32) + noise, 0, 255).astype(np.uint8)


def _paste(frame: np.ndarray, crop: np.ndarray, cx: float, cy: float, angle: float,
           scale: float = 1.2) -> None:
    ch, cw = crop.shape[:2]
    c, s = math.cos(angle), math.sin(angle)
    src = np.float32([[0, 0], [cw, 0], [cw, ch], [0, ch]])
    dst = np.float32([[cx + scale * ((x - cw / 2) * c - (y - ch / 2) * s),
                       cy + scale * ((x - cw / 2) * s + (y - ch / 2) * c)] for x, y in src])
    m = cv2.getPerspectiveTransform(src, dst)
    h, w = frame.shape[:2]
    warped = cv2.warpPerspective(crop, m, (w, h))
    mask = cv2.warpPerspective(np.full((ch, cw), 255, np.uint8), m, (w, h))
    frame[mask > 127] = warped[mask > 127]


def _hand(frame: np.ndarray, cx: float, cy: float, k: int) -> None:
    """A palm with fingers and an arm reaching in from the right edge, over the card."""
    skin = (120, 150, 205)
    px, py = int(cx + 40 - 12 * k), int(cy + 20)
    cv2.ellipse(frame, (px, py), (70, 55), 20, 0, 360, skin, -1)
    for i in range(4):
        cv2.line(frame, (px - 40, py - 40 + 22 * i), (px - 110, py - 60 + 26 * i), skin, 18)
    cv2.line(frame, (px + 40, py + 10), (SIZE[0] + 20, py + 90), skin, 80)


def shots_frames(crops: dict[str, np.ndarray], shots: list[Shot], seed: int = 0,
                 gap: int = 6) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    w, h = SIZE
    frames = [_table(rng) for _ in range(gap)]
    for n, shot in enumerate(shots):
        crop = crops[shot.code]
        cx, cy = w / 2 + 30 * ((n % 3) - 1), h / 2
        angle = 0.15 * ((n % 2) * 2 - 1)
        for k in range(2):   # sliding in from the left
            f = _table(rng)
            _paste(f, crop, cx - 160 + 70 * k, cy + 20 - 10 * k, angle - 0.3 + 0.15 * k)
            frames.append(f)
        first_hand = 2   # the hand comes before the card could have been taken
        for k in range(shot.still):
            f = _table(rng)
            if shot.sliding:
                _paste(f, crop, cx - 100 + 40 * k, cy, angle + 0.05 * k)
            else:
                jx, jy = rng.integers(-1, 2, 2)
                _paste(f, crop, cx + jx, cy + jy, angle)
            if first_hand <= k < first_hand + shot.hand:
                _hand(f, cx, cy, k - first_hand)
            frames.append(f)
        for _ in range(gap):
            frames.append(_table(rng))
    return frames


def write_video(path: Path, frames: list[np.ndarray], fps: float = FPS) -> Path:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), fps, SIZE)
    assert writer.isOpened(), f"OpenCV cannot write MJPG to {path}"
    for f in frames:
        writer.write(f)
    writer.release()
    return path


def board_video(path: Path, face: np.ndarray, zone: str, *, frames: int = 30,
                first: int = 5, last: int | None = None, seed: int = 0) -> Path:
    """A table video of the printed board (corner QR codes and all, ``vision.tablevideo``)
    with one REAL card ``face`` (a card's picture, upright) lying in ``zone`` from frame
    ``first`` to ``last`` (default: to the end). No hands pass."""
    from vision import tablevideo as tvid

    cfg = tvid.TableVideoConfig(passes_per_minute=0.0, hand_probability=0.0, seed=seed)
    renderer = tvid.TableRenderer([], config=cfg)
    cx, cy = tvid._slots(renderer.layout, zone, cfg)[0]
    corners = tvid._to_frame(renderer.h, tvid._card_corners((cx, cy), cfg.card_mm, 0.03))
    mask = np.full(face.shape[:2], 255, np.uint8)
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), cfg.fps,
                             (cfg.width, cfg.height))
    assert writer.isOpened(), f"OpenCV cannot write MJPG to {path}"
    end = frames if last is None else last
    for i in range(frames):
        f = renderer.frame(i).astype(np.float32)
        if first <= i < end:
            tvid._paste(f, face, mask, corners)
        writer.write(np.clip(f, 0, 255).astype(np.uint8))
    writer.release()
    return path
