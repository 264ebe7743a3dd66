"""Game records (FORMATS.md "Game record"): a JSON Lines file, a header then one line a phase.

>>> import json
>>> header = parse_header({"game": "sinbad", "campaign": "c.toml"}, 1)
>>> header.campaign, header.bank
('c.toml', None)
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.cards import Card, CardCodeError
from companion.rules import Refusal
from companion.scenario import Campaign, Rules, ScenarioError, load_campaign
from companion.sinbad import (
    BankSetupError,
    Game,
    Outcome,
    RecordLineError,
    SinbadState,
    action_from_line,
)


class RecordError(Exception):
    """A record that cannot be replayed: malformed, refused by the rules, or unreadable.

    ``line_no`` is 1-based (the header is line 1); ``ruling`` is set when the rules refused.
    """

    def __init__(self, line_no: int, message: str, ruling: str | None = None) -> None:
        self.line_no = line_no
        self.message = message
        self.ruling = ruling
        where = f"line {line_no}: " if line_no else ""
        super().__init__(where + message)


@dataclass(frozen=True)
class Header:
    game: str
    campaign: str
    rules: Mapping[str, Any] = field(default_factory=dict)
    bank: tuple[Card, ...] | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    def as_line(self) -> dict[str, Any]:
        out: dict[str, Any] = {"game": self.game, "campaign": self.campaign}
        if self.rules:
            out["rules"] = dict(self.rules)
        if self.bank is not None:
            out["bank"] = [c.code for c in self.bank]
        out.update(self.extra)
        return out


def parse_header(data: object, line_no: int = 1) -> Header:
    if not isinstance(data, Mapping):
        raise RecordError(line_no, "the header is a JSON object such as "
                          "{\"game\": \"sinbad\", \"campaign\": \"scenarios/seven-seas.toml\"}")
    game = data.get("game")
    if game != "sinbad":
        raise RecordError(line_no, "the header's \"game\" must be \"sinbad\" or \"aladdin\" "
                          f"(got {game!r})")
    campaign = data.get("campaign")
    if not isinstance(campaign, str) or not campaign:
        raise RecordError(line_no, "the header names its \"campaign\" file")
    rules = data.get("rules", {})
    if not isinstance(rules, Mapping):
        raise RecordError(line_no, "the header's \"rules\" is an object of house-rule switches")
    bank: tuple[Card, ...] | None = None
    if "bank" in data and data["bank"] is not None:
        raw = data["bank"]
        if not isinstance(raw, list):
            raise RecordError(line_no, "the header's \"bank\" is a list of 8 card codes")
        try:
            bank = tuple(Card.from_code(c) for c in raw)
        except CardCodeError as exc:
            raise RecordError(line_no, f"the header's \"bank\": {exc}") from None
    extra = {k: v for k, v in data.items() if k not in ("game", "campaign", "rules", "bank")}
    return Header("sinbad", campaign, dict(rules), bank, extra)


def open_game(header: Header, base_dir: Path, line_no: int = 1) -> tuple[Game, SinbadState]:
    """The game and its starting state for a record header; the campaign path is relative to
    the record's folder (FORMATS.md)."""
    path = Path(header.campaign)
    if not path.is_absolute():
        path = base_dir / path
    try:
        campaign: Campaign = load_campaign(path)
        rules: Rules = campaign.rules.with_overrides(header.rules, "header rules")
    except ScenarioError as exc:
        raise RecordError(line_no, str(exc)) from None
    game = Game(campaign, rules)
    try:
        state = game.initial_state(header.bank)
    except BankSetupError as exc:
        raise RecordError(line_no, str(exc), "S1") from None
    return game, state


def read_lines(path: Path) -> list[tuple[int, Any]]:
    """The non-blank lines of a JSON Lines file, decoded, with their 1-based numbers."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RecordError(0, f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(0, f"{path}: cannot be read ({exc})") from None
    out: list[tuple[int, Any]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            out.append((number, json.loads(raw)))
        except json.JSONDecodeError as exc:
            raise RecordError(number, f"not valid JSON ({exc.msg} at column {exc.colno})") from None
    if not out:
        raise RecordError(0, f"{path}: the record is empty (it needs a header line)")
    return out


def refused(line_no: int, refusal: Refusal) -> RecordError:
    """The error that stops a replay at a line the rules refuse (any game)."""
    return RecordError(line_no, f"refused by {refusal.ruling}: {refusal.reason}", refusal.ruling)


def apply_line(game: Game, state: SinbadState, line: object, line_no: int) -> Outcome:
    """Apply one decoded record line; malformed lines and refusals raise RecordError."""
    try:
        action = action_from_line(line)
    except RecordLineError as exc:
        raise RecordError(line_no, str(exc)) from None
    outcome = game.apply(state, action)
    if outcome.refusal is not None:
        raise refused(line_no, outcome.refusal)
    return outcome


def replay_lines(game: Game, state: SinbadState,
                 lines: Iterable[tuple[int, Any]]) -> SinbadState:
    for line_no, line in lines:
        state = apply_line(game, state, line, line_no).state
    return state


def replay(path: str | Path) -> tuple[Game, SinbadState]:
    """Replay a record file to its final state (raises RecordError)."""
    record = Path(path)
    lines = read_lines(record)
    first_no, first = lines[0]
    header = parse_header(first, first_no)
    game, state = open_game(header, record.parent, first_no)
    return game, replay_lines(game, state, lines[1:])
