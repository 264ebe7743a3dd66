"""Generate ``vision/data/glyphs.npz``, the built-in glyph exemplars.

    python -m vision.build_glyph_model [--out PATH]

Rank glyphs are rendered from the fonts found on this machine (Debian's fonts-dejavu,
fonts-liberation, fonts-urw-base35, fonts-noto-mono ...; whichever exist) with OpenCV's
font renderer, plus the Hershey fonts built into OpenCV, plus a drawn looped "Q" (a narrow O
whose tail crosses under it in a loop, as many European decks print it and no font here
does).  Suit glyphs come from the same fonts (U+2660..U+2666) and from shapes drawn
geometrically.  Every glyph is varied in width,
stroke weight, slant and resolution so that the exemplars cover printed card indices of
decks that were never seen.  Nothing is downloaded.
"""

from __future__ import annotations

import argparse
import glob
import math
import os
import sys

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.glyphs import (
    MODEL_PATH,
    RANK_CLASSES,
    RANK_MODEL_CLASSES,
    REJECT_CLASSES,
    SUIT_CLASSES,
    glyph_features,
    projection,
)

FONT_GLOBS = (
    "/usr/share/fonts/truetype/*/*.ttf",
    "/usr/share/fonts/opentype/*/*.otf",
    "/usr/share/fonts/truetype/*/*.otf",
    "/usr/share/texmf/fonts/opentype/public/tex-gyre/*.otf",
)
# italics, scripts, symbol and monospaced faces, hairlines: not how card indices look
SKIP_WORDS = ("Italic", "Oblique", "italic", "Math", "math", "Fallback", "D050000L",
              "StandardSymbols", "Z003", "ExtraLight", "Mono", "Thin", "Hairline", "cursor",
              "chorus", "_RI", "_RBI", "_RZI", "_I.", "_K.", "Ita.",
              # FreeFont maps glyphs wrongly in OpenCV's renderer; EB Garamond has only
              # old-style figures, which no card index uses
              "Free", "EBGaramond")
# suit symbols only from faces whose four suits were checked by eye (others miss them or
# draw other symbols in their place)
SUIT_FONTS = ("DejaVu", "Liberation", "C059", "Nimbus", "P052", "URWBookman", "URWGothic",
              "LinLibertine_R.", "LinBiolinum_R")
SUIT_CHARS = {"S": "\u2660", "C": "\u2663", "H": "\u2665", "D": "\u2666"}
RANK_TEXT = {r: ("10" if r == "T" else r) for r in RANK_MODEL_CLASSES}
# exemplars are compared in this many principal dimensions (98% of the variance), for speed
RANK_DIMS = 128
SUIT_DIMS = 64
HERSHEY = (
    cv2.FONT_HERSHEY_SIMPLEX,
    cv2.FONT_HERSHEY_DUPLEX,
    cv2.FONT_HERSHEY_COMPLEX,
    cv2.FONT_HERSHEY_TRIPLEX,
)


# the families used (Debian: fonts-dejavu-core, fonts-liberation, fonts-urw-base35).  More
# faces were tried (Lato, Open Sans, Cantarell, Carlito, Caladea, TeX Gyre, Libertine): they
# made the real decks' ranks *less* separable (a flat-topped 3 met more 5-like 3s), so the
# model keeps to these
FAMILIES = ("DejaVu", "Liberation", "C059", "Nimbus", "P052", "URWBookman", "URWGothic")


def font_files() -> list[str]:
    files: list[str] = []
    for pattern in FONT_GLOBS:
        files.extend(glob.glob(pattern))
    files = sorted(
        {
            f
            for f in files
            if not any(w in os.path.basename(f) for w in SKIP_WORDS)
            and os.path.basename(f).startswith(FAMILIES)
        }
    )
    return files


def _crop(mask: np.ndarray) -> np.ndarray | None:
    ys, xs = np.nonzero(mask > 127)
    if len(xs) < 10:
        return None
    return mask[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]


def render_text(face: cv2.FontFace, text: str, size: int = 96) -> np.ndarray | None:
    img = np.zeros((size * 2, size * 3), np.uint8)
    cv2.putText(img, text, (size // 2, int(size * 1.4)), (255, 255, 255), face, size)
    return _crop(img)


def render_hershey(font: int, text: str, thickness: int) -> np.ndarray | None:
    img = np.zeros((200, 300), np.uint8)
    cv2.putText(img, text, (30, 150), font, 3.5, 255, thickness, cv2.LINE_AA)
    return _crop(img)


def render_ten(face: cv2.FontFace, gap: float, size: int = 96) -> np.ndarray | None:
    one = render_text(face, "1", size)
    zero = render_text(face, "0", size)
    if one is None or zero is None:
        return None
    h = max(one.shape[0], zero.shape[0])
    g = int(round(gap * h))
    w = one.shape[1] + zero.shape[1] + max(g, 0)
    canvas = np.zeros((h, w + 2), np.uint8)
    canvas[h - one.shape[0] :, : one.shape[1]] = one
    x0 = one.shape[1] + g
    region = canvas[h - zero.shape[0] :, x0 : x0 + zero.shape[1]]
    np.maximum(region, zero[:, : region.shape[1]], out=region)
    return _crop(canvas)


def _geometric_suits() -> dict[str, list[np.ndarray]]:
    out: dict[str, list[np.ndarray]] = {s: [] for s in SUIT_CLASSES}
    n = 200
    for variant in range(4):
        # diamond: rhombus, width ratio and side curvature vary
        ratio = (0.62, 0.7, 0.78, 0.85)[variant]
        bend = (0.0, 0.06, 0.12, 0.0)[variant]
        pts = []
        cx, cy, hh = n / 2, n / 2, n * 0.45
        hw = hh * ratio
        corners = [(cx, cy - hh), (cx + hw, cy), (cx, cy + hh), (cx - hw, cy)]
        for i in range(4):
            a, b = np.array(corners[i]), np.array(corners[(i + 1) % 4])
            mid = (a + b) / 2
            towards = np.array([cx, cy]) - mid
            for t in np.linspace(0, 1, 20, endpoint=False):
                p = a + (b - a) * t + towards * bend * 4 * t * (1 - t)
                pts.append(p)
        img = np.zeros((n, n), np.uint8)
        cv2.fillPoly(img, [np.array(pts, np.int32)], 255, cv2.LINE_AA)
        out["D"].append(img)
        # heart: two circles and a point
        img = np.zeros((n, n), np.uint8)
        r = n * (0.22 + 0.02 * variant)
        off = r * 0.95
        top = n * 0.32
        cv2.circle(img, (int(cx - off), int(top)), int(r), 255, -1, cv2.LINE_AA)
        cv2.circle(img, (int(cx + off), int(top)), int(r), 255, -1, cv2.LINE_AA)
        tip = n * (0.88 + 0.02 * (variant % 2))
        tri = np.array(
            [
                (cx - off - r * 0.97, top + r * 0.25),
                (cx + off + r * 0.97, top + r * 0.25),
                (cx, tip),
            ],
            np.int32,
        )
        cv2.fillPoly(img, [tri], 255, cv2.LINE_AA)
        out["H"].append(img)
        # spade: an upside-down heart plus a stem
        sp = cv2.flip(img, 0)
        sp = cv2.resize(sp, (n, int(n * 0.8)))
        canvas = np.zeros((n, n), np.uint8)
        canvas[: sp.shape[0]] = sp
        stem_w = n * (0.05 + 0.02 * variant)
        stem = np.array(
            [(cx - stem_w, n * 0.6), (cx + stem_w, n * 0.6), (cx + stem_w * 3, n * 0.98),
             (cx - stem_w * 3, n * 0.98)],
            np.int32,
        )
        cv2.fillPoly(canvas, [stem], 255, cv2.LINE_AA)
        out["S"].append(canvas)
        # club: three circles plus a stem
        img = np.zeros((n, n), np.uint8)
        r = n * (0.18 + 0.015 * variant)
        cv2.circle(img, (int(cx), int(n * 0.25)), int(r), 255, -1, cv2.LINE_AA)
        cv2.circle(img, (int(cx - r * 1.15), int(n * 0.52)), int(r), 255, -1, cv2.LINE_AA)
        cv2.circle(img, (int(cx + r * 1.15), int(n * 0.52)), int(r), 255, -1, cv2.LINE_AA)
        cv2.fillPoly(
            img,
            [np.array([(cx - r * 0.5, n * 0.4), (cx + r * 0.5, n * 0.4), (cx, n * 0.6)], np.int32)],
            255,
        )
        stem = np.array(
            [(cx - stem_w, n * 0.5), (cx + stem_w, n * 0.5), (cx + stem_w * 3, n * 0.97),
             (cx - stem_w * 3, n * 0.97)],
            np.int32,
        )
        cv2.fillPoly(img, [stem], 255, cv2.LINE_AA)
        out["C"].append(img)
    return {k: [c for c in (_crop(v) for v in vs) if c is not None] for k, vs in out.items()}


def _looped_queens() -> list[np.ndarray]:
    """The queen's "Q" of many European decks, which no font here has: a tall narrow O
    whose tail crosses under it in a loop, running out to both sides.  Drawn, not
    rendered, in a few proportions and weights."""
    out = []
    n = 240
    for ratio, loop, weight in ((0.58, 0.55, 0.05), (0.66, 0.6, 0.07), (0.74, 0.5, 0.045),
                                (0.62, 0.7, 0.085)):
        img = np.zeros((n, n), np.uint8)
        t = max(2, int(weight * n))
        cx, oy = n / 2, n * 0.36
        b = n * 0.3  # the O's half height
        a = b * ratio
        cv2.ellipse(img, (int(cx), int(oy)), (int(a), int(b)), 0, 0, 360, 255, t, cv2.LINE_AA)
        # the loop, across the O's foot
        ly, lb, la = oy + b * 1.05, b * 0.38, a * loop * 1.25
        cv2.ellipse(img, (int(cx), int(ly)), (int(la), int(lb)), 0, 0, 360, 255, t, cv2.LINE_AA)
        # the tail's ends, out and down to either side
        y0 = ly + lb * 0.5
        cv2.line(img, (int(cx - la * 0.9), int(y0 - lb * 0.6)),
                 (int(cx - a * 1.25), int(y0 + lb * 0.1)), 255, t, cv2.LINE_AA)
        cv2.line(img, (int(cx + la * 0.9), int(y0 - lb * 0.2)),
                 (int(cx + a * 1.2), int(y0 + lb * 0.6)), 255, t, cv2.LINE_AA)
        g = _crop(img)
        if g is not None:
            out.append(g)
    return out


def augment(glyph: np.ndarray, rng: np.random.Generator, count: int) -> list[np.ndarray]:
    """Variants of one rendered glyph (ink 255 on 0): width, weight, slant, resolution."""
    out = [glyph]
    for _ in range(count):
        g = glyph
        h, w = g.shape
        sx = float(rng.uniform(0.72, 1.2))
        g = cv2.resize(g, (max(2, int(w * sx)), h), interpolation=cv2.INTER_AREA)
        pad = int(0.15 * h) + 4
        g = cv2.copyMakeBorder(g, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0)
        hh, ww = g.shape
        ang = float(rng.uniform(-5, 5))
        shear = float(rng.uniform(-0.08, 0.08))
        m = cv2.getRotationMatrix2D((ww / 2, hh / 2), ang, 1.0)
        m[0, 1] += shear
        m[0, 2] -= shear * hh / 2
        g = cv2.warpAffine(g, m, (ww, hh), flags=cv2.INTER_LINEAR)
        k = int(rng.integers(-2, 3)) * max(1, h // 40)
        if k > 0:
            g = cv2.dilate(g, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * k + 1, 2 * k + 1)))
        elif k < 0:
            g = cv2.erode(g, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (-2 * k + 1, -2 * k + 1)))
        target = int(rng.choice([9, 12, 16, 22, 40]))
        scale = target / max(1, h)
        small = cv2.resize(g, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        small = cv2.GaussianBlur(small, (3, 3), float(rng.uniform(0.3, 0.9)))
        thr = float(rng.uniform(90, 170))
        small = np.where(small > thr, 255, 0).astype(np.uint8)
        c = _crop(small)
        if c is not None and c.shape[0] >= 4:
            out.append(c)
    return out


def prune(
    feats: np.ndarray, labels: np.ndarray, aspects: np.ndarray, max_sim: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Drop exemplars nearly identical (cosine > max_sim, similar width) to one kept of the
    same class: fewer exemplars read faster and the file stays small."""
    keep: list[int] = []
    f32 = feats.astype(np.float32)
    for c in np.unique(labels):
        idx = np.nonzero(labels == c)[0]
        kept_c: list[int] = []
        for i in idx:
            if kept_c:
                sims = f32[kept_c] @ f32[i]
                close = np.abs(aspects[kept_c].astype(np.float32) - float(aspects[i])) < 0.15
                if np.any((sims > max_sim) & close):
                    continue
            kept_c.append(int(i))
        keep.extend(kept_c)
    k = np.array(keep)
    return feats[k], labels[k], aspects[k]


def build(out_path: str, augments: int = 12, seed: int = 7, max_sim: float = 0.9) -> dict[str, int]:
    rng = np.random.default_rng(seed)
    rank_glyphs: list[tuple[int, np.ndarray]] = []
    suit_glyphs: list[tuple[int, np.ndarray]] = []
    reject_glyphs: list[tuple[int, np.ndarray]] = []
    files = font_files()
    for path in files:
        face = cv2.FontFace(path)
        for ci, r in enumerate(RANK_CLASSES):
            if r == "T":
                for gap in (-0.02, 0.06, 0.16):
                    g = render_ten(face, gap)
                    if g is not None:
                        rank_glyphs.append((ci, g))
            else:
                g = render_text(face, RANK_TEXT[r])
                if g is not None:
                    rank_glyphs.append((ci, g))
        for ci, r in enumerate(REJECT_CLASSES, start=len(RANK_CLASSES)):
            g = render_text(face, r)
            if g is not None:
                reject_glyphs.append((ci, g))
        if not any(w in os.path.basename(path) for w in SUIT_FONTS):
            continue
        # a font without suit symbols draws '?' (or a fallback) instead: skip those
        question = render_text(face, "?")
        drawn = {s: render_text(face, SUIT_CHARS[s]) for s in SUIT_CLASSES}
        shapes = {g.shape for g in drawn.values() if g is not None}
        if question is not None and question.shape in shapes:
            continue
        if len(shapes) < 4:
            continue
        for ci, s in enumerate(SUIT_CLASSES):
            g = drawn[s]
            if g is not None:
                suit_glyphs.append((ci, g))
    for font in HERSHEY:
        for th in (3, 6, 9):
            for ci, r in enumerate(RANK_MODEL_CLASSES):
                g = render_hershey(font, RANK_TEXT[r], th)
                if g is not None:
                    (rank_glyphs if ci < len(RANK_CLASSES) else reject_glyphs).append((ci, g))
    for s, gs in _geometric_suits().items():
        for g in gs:
            suit_glyphs.append((SUIT_CLASSES.index(s), g))

    def feats(
        glyphs: list[tuple[int, np.ndarray]], n_aug: int, gen: np.random.Generator = rng
    ) -> tuple[NDArray[np.float16], NDArray[np.int16], NDArray[np.float16]]:
        vs: list[np.ndarray] = []
        ls: list[int] = []
        asp: list[float] = []
        for ci, g in glyphs:
            for v in augment(g, gen, n_aug):
                vs.append(v)
                ls.append(ci)
                asp.append(math.log(v.shape[1] / v.shape[0]))
        fs = glyph_features(vs)
        return fs.astype(np.float16), np.array(ls, np.int16), np.array(asp, np.float16)

    rf, rl, ra = prune(*feats(rank_glyphs, augments), max_sim)
    sf, sl, sa = prune(*feats(suit_glyphs, augments * 2), max_sim)
    # the reject shapes (a lone "0" or "1") from their own generator, so that adding them
    # leaves the exemplars of the real classes as they were
    xf, xl, xa = prune(
        *feats(reject_glyphs, augments // 2, np.random.default_rng(seed + 1000)), max_sim
    )
    # the drawn looped queens, also from their own generator
    queen = RANK_CLASSES.index("Q")
    qf, ql, qa = prune(
        *feats([(queen, g) for g in _looped_queens()], augments,
               np.random.default_rng(seed + 2000)), max_sim
    )
    rf, rl, ra = (np.concatenate([rf, qf, xf]), np.concatenate([rl, ql, xl]),
                  np.concatenate([ra, qa, xa]))
    os.makedirs(os.path.dirname(out_path) or ".", exist_ok=True)
    np.savez_compressed(
        out_path,
        rank_feats=rf,
        rank_labels=rl,
        rank_aspects=ra,
        suit_feats=sf,
        suit_labels=sl,
        suit_aspects=sa,
        rank_proj=projection(rf, RANK_DIMS).astype(np.float16),
        suit_proj=projection(sf, SUIT_DIMS).astype(np.float16),
        fonts=np.array([os.path.basename(f) for f in files]),
    )
    return {"fonts": len(files), "rank_exemplars": len(rl), "suit_exemplars": len(sl)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(MODEL_PATH))
    parser.add_argument("--augments", type=int, default=12)
    parser.add_argument("--max-sim", type=float, default=0.9)
    args = parser.parse_args(argv)
    stats = build(args.out, args.augments, max_sim=args.max_sim)
    size = os.path.getsize(args.out)
    print(f"wrote {args.out}: {stats}, {size / 1024:.0f} KiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
