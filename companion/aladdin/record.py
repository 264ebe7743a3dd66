"""Game records of Aladdin (FORMATS.md "Game record"): JSON Lines, a header then one action
a line (the vocabulary is in ``actions.py`` and README.md).

The header names the game, the players in seat order, the house rules, and the deal: either
written out (``"deal"``) or as the ``"seed"`` that :meth:`Deal.from_seed` turns into it (both
may be given; they must then agree). Extra keys are kept and ignored.

>>> header = parse_header({"game": "aladdin", "players": ["Ann", "Ben"], "seed": 7})
>>> header.rules.genies, len(header.deal.draw)
(2, 46)
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.aladdin.actions import Action, AladdinLineError, action_from_line, action_to_line
from companion.aladdin.engine import Game, Outcome
from companion.aladdin.state import AladdinState, Deal, Rules, SetupError
from companion.record import RecordError, read_lines, refused

_HEADER_KEYS = ("game", "players", "rules", "seed", "deal")


@dataclass(frozen=True)
class AladdinHeader:
    """Line 1 of an Aladdin record."""

    players: tuple[str, ...]
    deal: Deal
    rules: Rules = field(default_factory=Rules)
    seed: int | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    def as_line(self, *, with_deal: bool = True) -> dict[str, Any]:
        """The header line; the deal is written out unless asked not to (a seed alone is
        enough for this program, but a written deal can be read by any other)."""
        out: dict[str, Any] = {"game": "aladdin", "players": list(self.players),
                               "rules": self.rules.as_mapping()}
        if self.seed is not None:
            out["seed"] = self.seed
        if with_deal or self.seed is None:
            out["deal"] = self.deal.to_json()
        out.update(self.extra)
        return out


def parse_header(data: object, line_no: int = 1) -> AladdinHeader:
    """The header of a record; raises RecordError (ruling A1/A2 where one applies)."""
    if not isinstance(data, Mapping):
        raise RecordError(line_no, "the header is a JSON object such as {\"game\": \"aladdin\", "
                          "\"players\": [\"Ann\", \"Ben\"], \"seed\": 7}")
    if data.get("game") != "aladdin":
        raise RecordError(line_no, f"the header's \"game\" must be \"aladdin\" "
                          f"(got {data.get('game')!r})")
    players = data.get("players")
    if not isinstance(players, list):
        raise RecordError(line_no, "the header's \"players\" is a list of 2 to 6 names, "
                          "in seat order from the dealer's left", "A1")
    rules_raw = data.get("rules", {})
    if not isinstance(rules_raw, Mapping):
        raise RecordError(line_no, "the header's \"rules\" is an object such as "
                          "{\"genies\": 2}", "A2")
    seed = data.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise RecordError(line_no, f"the header's \"seed\" is a whole number (got {seed!r})")
    try:
        rules = Rules.from_mapping(rules_raw)
        if "deal" in data and data["deal"] is not None:
            deal = Deal.from_json(data["deal"])
            if seed is not None and deal != Deal.from_seed(len(players), seed):
                raise SetupError("the header's \"deal\" is not the deal of its \"seed\"", "A1")
        elif seed is not None:
            deal = Deal.from_seed(len(players), seed)
        else:
            raise SetupError("the header needs the \"deal\" or the \"seed\" that made it", "A1")
        Game(rules).setup(players, deal)                 # checks the players against the deal
    except SetupError as exc:
        raise RecordError(line_no, str(exc), exc.ruling) from None
    extra = {k: v for k, v in data.items() if k not in _HEADER_KEYS}
    return AladdinHeader(tuple(players), deal, rules, seed, extra)


def open_game(header: AladdinHeader) -> tuple[Game, AladdinState]:
    """The game and its state after the deal."""
    game = Game(header.rules)
    return game, game.setup(header.players, header.deal)


def apply_line(game: Game, state: AladdinState, line: object, line_no: int) -> Outcome:
    """Apply one decoded record line; malformed lines and refusals raise RecordError."""
    try:
        action = action_from_line(line)
    except AladdinLineError as exc:
        raise RecordError(line_no, str(exc), exc.ruling) from None
    outcome = game.apply(state, action)
    if outcome.refusal is not None:
        raise refused(line_no, outcome.refusal)
    return outcome


def replay_lines(game: Game, state: AladdinState,
                 lines: Iterable[tuple[int, Any]]) -> AladdinState:
    for line_no, line in lines:
        state = apply_line(game, state, line, line_no).state
    return state


def replay(path: str | Path) -> tuple[Game, AladdinState]:
    """Replay a record file to its final state; ``game.public(state)`` is what ``companion
    replay`` prints. Raises :class:`companion.record.RecordError` naming the line (and the
    ruling, when the rules refused it)."""
    lines = read_lines(Path(path))
    first_no, first = lines[0]
    game, state = open_game(parse_header(first, first_no))
    return game, replay_lines(game, state, lines[1:])


def record_text(header: AladdinHeader, actions: Sequence[Action]) -> str:
    """A whole record as JSON Lines text (one compact JSON object a line)."""
    lines = [header.as_line()] + [action_to_line(a) for a in actions]
    return "".join(json.dumps(line, separators=(", ", ": ")) + "\n" for line in lines)


def write_record(path: str | Path, header: AladdinHeader, actions: Sequence[Action]) -> None:
    Path(path).write_text(record_text(header, actions), encoding="utf-8")
