"""The table's journal: an append-only SQLite log of every change to every saved game.

One row of ``entries`` is one journaled change, and its ``id`` is the ``state_id`` the tablets
see. Kinds: ``start`` (a new game), ``line`` (one game-record line the rules accepted),
``undo``, ``redo``, and ``resume`` (the table switched back to this game: nothing changes in
the game, but state ids keep rising for every tablet across game switches). Nothing is ever
deleted or updated in ``entries``: undo appends. The game's state is the fold of its entries
(see :func:`fold_lines`).

Durability: WAL mode with ``synchronous=FULL`` makes every commit reach the disk before
:meth:`Journal.append` returns, so a ``kill -9`` or a pulled plug loses nothing that a tablet
was shown (the session publishes only after the commit).
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.table.errors import JournalError, NotFoundError

SCHEMA_VERSION = 1
ENTRY_KINDS = ("start", "line", "undo", "redo", "resume")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    created REAL NOT NULL,
    title TEXT NOT NULL,
    campaign TEXT NOT NULL,          -- absolute path of the campaign file
    rules TEXT NOT NULL,             -- JSON: house-rule overrides of the record header
    seed INTEGER NOT NULL,           -- seeds the virtual Jaffar deck (auto_jaffar)
    -- A summary kept beside the log so that listing games needs no replay.
    updated REAL NOT NULL,
    last_state_id INTEGER NOT NULL DEFAULT 0,
    turn INTEGER NOT NULL DEFAULT 0,
    sleep INTEGER,
    scenario TEXT,
    result TEXT
);
CREATE TABLE IF NOT EXISTS entries (
    id INTEGER PRIMARY KEY AUTOINCREMENT,   -- the state_id; AUTOINCREMENT never reuses one
    game_id INTEGER NOT NULL REFERENCES games(id),
    kind TEXT NOT NULL CHECK (kind IN ('start', 'line', 'undo', 'redo', 'resume')),
    line TEXT,                              -- JSON record line (kind 'line'), else NULL
    source TEXT NOT NULL DEFAULT '',        -- tablet, camera, auto, demo ...
    created REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS entries_by_game ON entries (game_id, id);
"""


@dataclass(frozen=True)
class Entry:
    state_id: int
    kind: str
    line: Any | None
    source: str
    created: float


@dataclass(frozen=True)
class GameRow:
    id: int
    created: float
    title: str
    campaign: str
    rules: dict[str, Any]
    seed: int
    updated: float
    last_state_id: int
    turn: int
    sleep: int | None
    scenario: str | None
    result: str | None

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id, "title": self.title, "campaign": self.campaign,
            "rules": dict(self.rules), "created": self.created, "updated": self.updated,
            "state_id": self.last_state_id, "turn": self.turn, "sleep": self.sleep,
            "scenario": self.scenario, "result": self.result,
        }


@dataclass(frozen=True)
class Summary:
    """What :meth:`Journal.append` records beside an entry, for listing games."""

    turn: int
    sleep: int | None
    scenario: str | None
    result: str | None


class Journal:
    """The SQLite journal of a data folder (``companion.sqlite3``). Not thread-safe by itself:
    the session serialises every call under its lock."""

    FILE_NAME = "companion.sqlite3"

    def __init__(self, conn: sqlite3.Connection, path: Path) -> None:
        self._conn = conn
        self.path = path

    @classmethod
    def open(cls, data_dir: Path) -> Journal:
        data_dir = Path(data_dir).expanduser()
        try:
            data_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise JournalError(f"cannot create the data folder {data_dir}: {exc}") from None
        path = data_dir / cls.FILE_NAME
        try:
            # isolation_level=None: we open our own transactions, so a commit is exactly
            # where we say it is.
            conn = sqlite3.connect(path, timeout=10.0, isolation_level=None,
                                   check_same_thread=False)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute("PRAGMA foreign_keys=ON")
            conn.executescript(_SCHEMA)
            row = conn.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
            if row is None:
                conn.execute("INSERT INTO meta (key, value) VALUES ('schema', ?)",
                             (str(SCHEMA_VERSION),))
            elif int(row[0]) > SCHEMA_VERSION:
                raise JournalError(f"{path} was written by a newer companion "
                                   f"(schema {row[0]}); upgrade to open it")
        except sqlite3.DatabaseError as exc:
            raise JournalError(f"cannot open the journal {path}: {exc}") from None
        return cls(conn, path)

    def close(self) -> None:
        self._conn.close()

    # -- games -----------------------------------------------------------------------------

    def create_game(self, title: str, campaign: str, rules: dict[str, Any], seed: int,
                    summary: Summary) -> tuple[int, int]:
        """A new game and its ``start`` entry, in one transaction: (game_id, state_id)."""
        now = time.time()
        with self._transaction() as conn:
            cur = conn.execute(
                "INSERT INTO games (created, title, campaign, rules, seed, updated) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (now, title, campaign, json.dumps(rules, sort_keys=True), seed, now))
            game_id = int(cur.lastrowid or 0)
            state_id = self._insert_entry(conn, game_id, "start", None, "", now, summary)
        return game_id, state_id

    def game(self, game_id: int) -> GameRow:
        row = self._conn.execute(f"SELECT {_GAME_COLUMNS} FROM games WHERE id=?",
                                 (game_id,)).fetchone()
        if row is None:
            raise NotFoundError(f"no saved game {game_id} in {self.path}")
        return _game_row(row)

    def games(self) -> list[GameRow]:
        rows = self._conn.execute(f"SELECT {_GAME_COLUMNS} FROM games ORDER BY id").fetchall()
        return [_game_row(r) for r in rows]

    def latest_game(self) -> int | None:
        """The game changed most recently (the one to resume)."""
        row = self._conn.execute(
            "SELECT game_id FROM entries ORDER BY id DESC LIMIT 1").fetchone()
        return int(row[0]) if row else None

    # -- entries ---------------------------------------------------------------------------

    def append(self, game_id: int, kind: str, line: Any | None, source: str,
               summary: Summary) -> int:
        """Append one entry and commit it to disk; returns its state_id."""
        if kind not in ENTRY_KINDS:
            raise ValueError(f"unknown journal entry kind {kind!r}")
        with self._transaction() as conn:
            return self._insert_entry(conn, game_id, kind, line, source, time.time(), summary)

    def entries(self, game_id: int) -> Iterator[Entry]:
        """The game's entries, oldest first, streamed (a long game is never all in memory)."""
        cur = self._conn.execute(
            "SELECT id, kind, line, source, created FROM entries WHERE game_id=? ORDER BY id",
            (game_id,))
        while True:
            rows = cur.fetchmany(256)
            if not rows:
                return
            for state_id, kind, line, source, created in rows:
                yield Entry(int(state_id), str(kind),
                            json.loads(line) if line is not None else None,
                            str(source), float(created))

    def entry_count(self, game_id: int | None = None) -> int:
        if game_id is None:
            row = self._conn.execute("SELECT COUNT(*) FROM entries").fetchone()
        else:
            row = self._conn.execute("SELECT COUNT(*) FROM entries WHERE game_id=?",
                                     (game_id,)).fetchone()
        return int(row[0])

    def last_state_id(self, game_id: int) -> int:
        row = self._conn.execute("SELECT MAX(id) FROM entries WHERE game_id=?",
                                 (game_id,)).fetchone()
        return int(row[0] or 0)

    # -- internals -------------------------------------------------------------------------

    def _insert_entry(self, conn: sqlite3.Connection, game_id: int, kind: str,
                      line: Any | None, source: str, now: float, summary: Summary) -> int:
        text = None if line is None else json.dumps(line, separators=(",", ":"))
        cur = conn.execute(
            "INSERT INTO entries (game_id, kind, line, source, created) VALUES (?, ?, ?, ?, ?)",
            (game_id, kind, text, source, now))
        state_id = int(cur.lastrowid or 0)
        conn.execute(
            "UPDATE games SET updated=?, last_state_id=?, turn=?, sleep=?, scenario=?, "
            "result=? WHERE id=?",
            (now, state_id, summary.turn, summary.sleep, summary.scenario, summary.result,
             game_id))
        return state_id

    def _transaction(self) -> _Transaction:
        return _Transaction(self._conn)


class _Transaction:
    """``BEGIN IMMEDIATE`` ... ``COMMIT`` (or ``ROLLBACK`` on an exception)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    def __enter__(self) -> sqlite3.Connection:
        try:
            self._conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            raise JournalError(f"the journal is busy or cannot be written: {exc}") from None
        return self._conn

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        if exc_type is None:
            try:
                self._conn.execute("COMMIT")
            except sqlite3.DatabaseError as err:
                self._conn.execute("ROLLBACK")
                raise JournalError(f"the journal cannot be written: {err}") from None
        else:
            self._conn.execute("ROLLBACK")


_GAME_COLUMNS = ("id, created, title, campaign, rules, seed, updated, last_state_id, turn, "
                 "sleep, scenario, result")


def _game_row(row: tuple[Any, ...]) -> GameRow:
    (gid, created, title, campaign, rules, seed, updated, last, turn, sleep, scenario,
     result) = row
    return GameRow(int(gid), float(created), str(title), str(campaign), json.loads(rules),
                   int(seed), float(updated), int(last), int(turn),
                   None if sleep is None else int(sleep), scenario, result)


@dataclass(frozen=True)
class Fold:
    """The lines in force after folding a game's entries: ``applied`` then the redo stack
    (top last)."""

    applied: tuple[Any, ...]
    redo: tuple[Any, ...]
    last_state_id: int


def fold_lines(entries: Iterator[Entry]) -> Fold:
    """Fold entries into the applied lines and the redo stack.

    ``line`` pushes and clears redo; ``undo`` moves the top applied line to redo; ``redo``
    moves it back. An undo with nothing to undo cannot be journaled (the session refuses it),
    so meeting one means a damaged journal.
    """
    applied: list[Any] = []
    redo: list[Any] = []
    last = 0
    for entry in entries:
        last = entry.state_id
        if entry.kind == "line":
            applied.append(entry.line)
            redo.clear()
        elif entry.kind == "undo":
            if not applied:
                raise JournalError(f"journal entry {entry.state_id}: undo with nothing to undo")
            redo.append(applied.pop())
        elif entry.kind == "redo":
            if not redo:
                raise JournalError(f"journal entry {entry.state_id}: redo with nothing to redo")
            applied.append(redo.pop())
    return Fold(tuple(applied), tuple(redo), last)
