"""Label files that name the cards in photos, in the three shapes the project meets.

- ``file,card``: FORMATS.md "Deck profiles", one photo per card.
- ``file,width,height,cards,partial,notes``: the shared photo folders; ``cards`` and
  ``partial`` are ``;``-separated (rank ``A 2..10 J Q K`` then suit ``S H D C``).
- ``file,layout,rows,columns,notes`` with ``layout`` = ``grid``: one scan of a whole deck laid
  out as a grid; ``rows`` and ``columns`` are ``;``-separated ranks and suits (or card codes).

File paths are relative to the label file's folder unless absolute. Errors raise
:class:`LabelError` naming the file, the line and the bad value.
"""

from __future__ import annotations

import csv
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from companion.cards import Card, CardCodeError, Suit


class LabelError(ValueError):
    """A label file that cannot be used; the message names file, line and value."""


@dataclass(frozen=True)
class LabelRow:
    """One image and the cards it shows."""

    path: Path
    cards: tuple[Card, ...]
    partial: tuple[Card, ...] = ()
    notes: str = ""
    line: int = 0


@dataclass(frozen=True)
class GridSheet:
    """A scan of a whole deck laid out as a grid of touching cards."""

    path: Path
    rows: tuple[str, ...]
    columns: tuple[str, ...]
    notes: str = ""

    def card_at(self, row: int, col: int) -> Card:
        return grid_card(self.rows[row], self.columns[col])


@dataclass(frozen=True)
class Labels:
    source: Path
    rows: tuple[LabelRow, ...]
    grids: tuple[GridSheet, ...] = ()


def grid_card(row: str, col: str) -> Card:
    """The card where a grid row and column meet: one names the rank, the other the suit."""
    row, col = row.strip(), col.strip()
    for rank, suit in ((row, col), (col, row)):
        try:
            return Card.from_code(rank + suit)
        except CardCodeError:
            continue
        except ValueError:
            continue
    # Rows or columns may also be full card codes (one card per cell).
    for text in (row, col):
        try:
            return Card.from_code(text)
        except (CardCodeError, ValueError):
            continue
    raise LabelError(f"grid row {row!r} and column {col!r} do not name a card")


def _cards(text: str, where: str) -> tuple[Card, ...]:
    out = []
    for part in text.replace(",", ";").split(";"):
        part = part.strip()
        if not part:
            continue
        try:
            out.append(Card.from_code(part))
        except CardCodeError as exc:
            raise LabelError(f"{where}: {exc}") from None
    return tuple(out)


def _resolve(folder: Path, name: str) -> Path:
    p = Path(name.strip())
    return p if p.is_absolute() else folder / p


def read_labels(path: str | Path) -> Labels:
    """Parse a label file (any of the three shapes); a folder means its ``labels.csv``."""
    src = Path(path)
    if src.is_dir():
        src = src / "labels.csv"
    if not src.exists():
        raise LabelError(f"{src}: no such label file")
    try:
        text = src.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise LabelError(f"{src}: cannot be read as text ({exc})") from None
    reader = csv.DictReader(text.splitlines())
    header = [h.strip().lower() for h in (reader.fieldnames or [])]
    reader.fieldnames = header
    folder = src.parent
    rows: list[LabelRow] = []
    grids: list[GridSheet] = []
    if "file" not in header:
        raise LabelError(
            f"{src}: the header must start with 'file' and have a 'card' or 'cards' column "
            f"(found: {','.join(header) or 'nothing'})"
        )
    for n, rec in enumerate(reader, start=2):
        where = f"{src}, line {n}"
        name = (rec.get("file") or "").strip()
        if not name:
            continue
        if "layout" in header:
            layout = (rec.get("layout") or "").strip().lower()
            if layout != "grid":
                raise LabelError(f"{where}: layout {layout!r} is not supported (only 'grid')")
            g_rows = tuple(r for r in (rec.get("rows") or "").split(";") if r.strip())
            g_cols = tuple(c for c in (rec.get("columns") or "").split(";") if c.strip())
            if not g_rows or not g_cols:
                raise LabelError(f"{where}: a grid needs 'rows' and 'columns'")
            sheet = GridSheet(_resolve(folder, name), g_rows, g_cols, rec.get("notes") or "")
            for r in range(len(g_rows)):
                for c in range(len(g_cols)):
                    try:
                        sheet.card_at(r, c)
                    except LabelError as exc:
                        raise LabelError(f"{where}: {exc}") from None
            grids.append(sheet)
        elif "card" in header:
            cards = _cards(rec.get("card") or "", where)
            if len(cards) != 1:
                raise LabelError(f"{where}: 'card' must name exactly one card, got {rec['card']!r}")
            rows.append(LabelRow(_resolve(folder, name), cards, (), "", n))
        elif "cards" in header:
            rows.append(LabelRow(
                _resolve(folder, name),
                _cards(rec.get("cards") or "", where),
                _cards(rec.get("partial") or "", where),
                rec.get("notes") or "",
                n,
            ))
        else:
            raise LabelError(f"{src}: no 'card', 'cards' or 'layout' column")
    return Labels(src, tuple(rows), tuple(grids))


def single_card_rows(labels: Labels) -> tuple[LabelRow, ...]:
    """Rows whose photo shows exactly one whole card and nothing partial: usable to teach."""
    return tuple(r for r in labels.rows if len(r.cards) == 1 and not r.partial)


def one_per_card(rows: Sequence[LabelRow]) -> tuple[LabelRow, ...]:
    """The first single-card photo of each card."""
    seen: set[Card] = set()
    out = []
    for r in rows:
        if len(r.cards) == 1 and r.cards[0] not in seen:
            seen.add(r.cards[0])
            out.append(r)
    return tuple(out)


def parse_grid_spec(spec: str) -> tuple[int, int]:
    """``13x4`` -> (13 rows, 4 columns)."""
    try:
        rows, cols = (int(v) for v in spec.lower().split("x"))
    except ValueError:
        raise LabelError(f"--grid {spec!r}: write ROWSxCOLUMNS, for example 13x4") from None
    if rows < 1 or cols < 1:
        raise LabelError(f"--grid {spec!r}: rows and columns must be positive")
    return rows, cols


DEFAULT_RANK_ORDER = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
DEFAULT_SUIT_ORDER = tuple(s.letter for s in (Suit.SPADES, Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS))


def sheet_from_options(image: str | Path, grid: str, rows: str | None, columns: str | None
                       ) -> GridSheet:
    """A :class:`GridSheet` from ``--sheet IMAGE --grid 13x4 --rows ... --columns ...``."""
    n_rows, n_cols = parse_grid_spec(grid)
    row_names = tuple(rows.split(";")) if rows else None
    col_names = tuple(columns.split(";")) if columns else None
    if row_names is None:
        row_names = DEFAULT_RANK_ORDER if n_rows == 13 else DEFAULT_SUIT_ORDER
    if col_names is None:
        col_names = DEFAULT_SUIT_ORDER if n_cols == 4 else DEFAULT_RANK_ORDER
    if len(row_names) != n_rows or len(col_names) != n_cols:
        raise LabelError(
            f"--grid {grid} needs {n_rows} row names and {n_cols} column names "
            f"(got {len(row_names)} and {len(col_names)}); pass --rows and --columns"
        )
    sheet = GridSheet(Path(image), tuple(row_names), tuple(col_names))
    for r in range(n_rows):
        for c in range(n_cols):
            sheet.card_at(r, c)
    return sheet


def iter_grid_cells(sheet: GridSheet, width: int, height: int
                    ) -> Iterator[tuple[Card, tuple[int, int, int, int]]]:
    """Each card of a sheet with its cell box ``(x0, y0, x1, y1)`` in an image of that size."""
    n_rows, n_cols = len(sheet.rows), len(sheet.columns)
    for r in range(n_rows):
        for c in range(n_cols):
            x0, x1 = round(c * width / n_cols), round((c + 1) * width / n_cols)
            y0, y1 = round(r * height / n_rows), round((r + 1) * height / n_rows)
            yield sheet.card_at(r, c), (x0, y0, x1, y1)
