"""Deck profiles: what ``companion deck teach`` learns about one physical deck.

A profile holds the rank and suit glyphs cut from photos of that deck's cards, labelled with
what they are.  The recognizer compares every glyph it reads with these as well as with the
built-in font exemplars, so a deck whose index font is unusual becomes readable once taught.

    profile = DeckProfile.teach([(image, Card.from_code("QH")), ...])
    profile.add(image, card)            # a person's correction
    profile.save("deck.npz"); DeckProfile.load("deck.npz")

For a flat photo of a whole deck in a grid, :func:`grid_samples` cuts it into per-card
samples first.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

import numpy as np

from companion.cards import Card, Suit
from vision.glyphs import FEATURE_DIM, RANK_CLASSES, SUIT_CLASSES, Exemplars

if TYPE_CHECKING:
    from vision.pipeline import RecognizerConfig

PROFILE_FORMAT = "table-companion-deck-profile"
PROFILE_VERSION = 1


class DeckProfileError(ValueError):
    """A deck profile file that cannot be used (missing, not a profile, damaged)."""


class DeckProfile:
    def __init__(
        self,
        ranks: Exemplars | None = None,
        suits: Exemplars | None = None,
        cards: Sequence[str] = (),
        name: str = "",
    ) -> None:
        self.ranks = ranks if ranks is not None else Exemplars.empty()
        self.suits = suits if suits is not None else Exemplars.empty()
        self.cards: list[str] = list(cards)  # codes of the samples learnt, in order
        self.name = name
        self.skipped: list[str] = []  # samples in which no card index could be found

    def __repr__(self) -> str:
        return (
            f"DeckProfile({self.name!r}, {len(self.cards)} samples, {len(self.ranks)} rank and "
            f"{len(self.suits)} suit glyphs)"
        )

    # -- learning
    @classmethod
    def teach(
        cls,
        samples: Iterable[tuple[np.ndarray, Card]],
        config: RecognizerConfig | None = None,
        name: str = "",
    ) -> DeckProfile:
        """Learn a deck from photos, each showing one known card (alone or the biggest)."""
        prof = cls(name=name)
        learner = _Learner(config)
        for image, card in samples:
            learner.add(prof, image, card)
        return prof

    def add(self, image: np.ndarray, card: Card, config: RecognizerConfig | None = None) -> bool:
        """Learn one more photo of ``card``; False if no index could be found in it."""
        return _Learner(config).add(self, image, card)

    @classmethod
    def merge(cls, profiles: Iterable[DeckProfile], name: str = "") -> DeckProfile:
        """One profile holding everything the given ones learnt."""
        out = cls(name=name)
        for p in profiles:
            out.ranks.extend(p.ranks.feats, p.ranks.labels, p.ranks.aspects)
            out.suits.extend(p.suits.feats, p.suits.labels, p.suits.aspects)
            out.cards.extend(p.cards)
            out.skipped.extend(p.skipped)
            out.name = out.name or p.name
        return out

    # -- files
    def save(self, path: str | os.PathLike[str]) -> None:
        meta = {
            "format": PROFILE_FORMAT,
            "version": PROFILE_VERSION,
            "name": self.name,
            "cards": self.cards,
            "feature_dim": FEATURE_DIM,
        }
        # Written beside the old file, flushed to disk, then renamed over it: a crash at any
        # moment leaves either the old profile or the new one, never half of one.
        tmp = f"{os.fspath(path)}.tmp"
        with open(tmp, "wb") as fh:
            np.savez_compressed(
                fh,
                meta=np.array(json.dumps(meta)),
                rank_feats=self.ranks.feats.astype(np.float16),
                rank_labels=self.ranks.labels,
                rank_aspects=self.ranks.aspects.astype(np.float16),
                suit_feats=self.suits.feats.astype(np.float16),
                suit_labels=self.suits.labels,
                suit_aspects=self.suits.aspects.astype(np.float16),
            )
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
        _sync_folder(os.path.dirname(os.path.abspath(os.fspath(path))))

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> DeckProfile:
        try:
            with open(path, "rb") as fh, np.load(fh, allow_pickle=False) as z:
                meta = json.loads(str(z["meta"]))
                if meta.get("format") != PROFILE_FORMAT:
                    raise DeckProfileError(f"{path}: not a deck profile")
                if meta.get("version") != PROFILE_VERSION or meta.get("feature_dim") != FEATURE_DIM:
                    raise DeckProfileError(
                        f"{path}: deck profile of another version; teach the deck again"
                    )
                ranks = Exemplars(
                    z["rank_feats"].astype(np.float32),
                    z["rank_labels"].astype(np.int16),
                    z["rank_aspects"].astype(np.float32),
                )
                suits = Exemplars(
                    z["suit_feats"].astype(np.float32),
                    z["suit_labels"].astype(np.int16),
                    z["suit_aspects"].astype(np.float32),
                )
        except DeckProfileError:
            raise
        except FileNotFoundError:
            raise DeckProfileError(f"{path}: no such deck profile") from None
        except Exception as exc:  # zip/npz/json errors of a damaged or foreign file
            raise DeckProfileError(f"{path}: not a readable deck profile ({exc})") from None
        for ex in (ranks, suits):
            if ex.feats.ndim != 2 or ex.feats.shape[1] != FEATURE_DIM or not (
                len(ex.labels) == len(ex.aspects) == ex.feats.shape[0]
            ):
                raise DeckProfileError(f"{path}: damaged deck profile")
        if len(ranks) and (ranks.labels.min() < 0 or ranks.labels.max() >= len(RANK_CLASSES)):
            raise DeckProfileError(f"{path}: damaged deck profile")
        if len(suits) and (suits.labels.min() < 0 or suits.labels.max() >= len(SUIT_CLASSES)):
            raise DeckProfileError(f"{path}: damaged deck profile")
        return cls(ranks, suits, meta.get("cards", []), meta.get("name", ""))


def _sync_folder(folder: str) -> None:
    """Make a rename in ``folder`` durable (where the system allows opening a folder)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


class NothingLearntError(ValueError):
    """No card index could be found in the image to learn from."""


def learn_correction(
    path: str | os.PathLike[str],
    image: np.ndarray,
    card: Card,
    *,
    create: bool = True,
    name: str = "",
    config: RecognizerConfig | None = None,
) -> tuple[DeckProfile, bool]:
    """One more image of ``card`` added to the profile file at ``path``, saved atomically.

    What ``companion deck add`` does, and the tablet's corrections during a game. Returns the
    profile as saved and whether it was started here. Nothing is written unless the image
    was learnt: :class:`DeckProfileError` for a file that cannot be read (or a missing one
    when ``create`` is False), :class:`NothingLearntError` when no card index was found,
    ``OSError`` when the file cannot be written.
    """
    created = not os.path.exists(path)
    if created:
        if not create:
            raise DeckProfileError(f"{os.fspath(path)}: no such deck profile")
        profile = DeckProfile(name=name or os.path.splitext(os.path.basename(path))[0])
    else:
        profile = DeckProfile.load(path)
    if not profile.add(image, card, config):
        raise NothingLearntError(
            f"no card index could be found in the picture of the {card.name}")
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    profile.save(path)
    return profile, created


class _Learner:
    def __init__(self, config: RecognizerConfig | None) -> None:
        from vision.pipeline import Recognizer

        self.rec = Recognizer(config)

    def add(self, prof: DeckProfile, image: np.ndarray, card: Card) -> bool:
        target = (RANK_CLASSES.index(card.rank), SUIT_CLASSES.index(card.suit.letter))
        best = None
        pyr = self.rec.prepare(image) if isinstance(image, np.ndarray) else None
        if pyr is not None and min(pyr.levels[0].shape[:2]) >= 16:
            bgr = pyr.levels[0]
            quads = [cq.corners for cq in self.rec.find_cards(bgr)]
            h, w = bgr.shape[:2]
            whole = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)
            from vision.pipeline import paper_rim

            # a picture cropped to the card (its rim is paper) is the card itself, though
            # outlines may be found inside it
            if not quads or paper_rim(bgr, self.rec.config):
                quads.append(whole)
            for quad in quads:
                interp = self.rec.interpretations(pyr, quad, target)[0]
                for r in interp.reads:
                    if r.rank_feat is None or r.suit_feat is None:
                        continue
                    s = float(r.rank_scores[target[0]] + r.suit_scores[target[1]])
                    if best is None or s > best[0]:
                        best = (s, interp)
        if best is None:
            prof.skipped.append(card.code)
            return False
        for r in best[1].reads:
            if r.rank_feat is None or r.suit_feat is None:
                continue
            prof.ranks.extend(
                r.rank_feat[None, :], np.array([target[0]]), np.array([r.rank_aspect])
            )
            prof.suits.extend(
                r.suit_feat[None, :], np.array([target[1]]), np.array([r.suit_aspect])
            )
        prof.cards.append(card.code)
        return True


def grid_samples(
    image: np.ndarray,
    rows: Sequence[str],
    columns: Sequence[str],
    inset: float = 0.01,
) -> list[tuple[np.ndarray, Card]]:
    """Cut a flat photo of a deck laid out in a grid into (card image, card) samples.

    ``rows`` are ranks top to bottom (``A 2 .. 10 J Q K``), ``columns`` suits left to right
    (``S C D H``): each cell is one card.  For ``deck-sheet/labels.csv`` style layouts.
    """
    h, w = image.shape[:2]
    nr, nc = len(rows), len(columns)
    out = []
    for i, r in enumerate(rows):
        for j, s in enumerate(columns):
            y0, y1 = h * i / nr, h * (i + 1) / nr
            x0, x1 = w * j / nc, w * (j + 1) / nc
            dy, dx = inset * (y1 - y0), inset * (x1 - x0)
            cell = image[int(y0 + dy) : int(y1 - dy), int(x0 + dx) : int(x1 - dx)]
            out.append((np.ascontiguousarray(cell), Card.from_code(r + Suit.from_letter(s).letter)))
    return out
