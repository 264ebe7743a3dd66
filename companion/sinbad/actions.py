"""Actions of Sinbad vs. Jaffar as values, and their game-record lines (FORMATS.md).

One action is one record line: a whole Jaffar phase or a whole Sinbad phase.

>>> line = {"sinbad": {"action": "draw", "count": 2}}
>>> action_to_line(action_from_line(line)) == line
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.cards import Card, CardCodeError


class RecordLineError(ValueError):
    """A game-record line that is not well formed (as opposed to one the rules refuse)."""

    def __init__(self, line: object, reason: str) -> None:
        self.line = line
        self.reason = reason
        super().__init__(f"{reason}: {_show(line)}")


def _show(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 120 else text[:117] + "..."


@dataclass(frozen=True)
class JaffarPlays:
    """Jaffar's phase: the cards he plays, in order (empty for a skipped phase)."""

    cards: tuple[Card, ...]


@dataclass(frozen=True)
class Placement:
    """One card Sinbad plays; ``path`` None lets the engine choose the only path that fits."""

    card: Card
    path: str | None = None


@dataclass(frozen=True)
class Draw:
    count: int


@dataclass(frozen=True)
class Play:
    placements: tuple[Placement, ...]


@dataclass(frozen=True)
class DrawPlay:
    placement: Placement


@dataclass(frozen=True)
class Trade:
    give: Card
    take: Card


@dataclass(frozen=True)
class Pass:
    """A lost turn."""


SinbadAction = Draw | Play | DrawPlay | Trade | Pass


@dataclass(frozen=True)
class SinbadTurn:
    """Sinbad's phase: the Budge card (when a challenge begins), one action, and the cards an
    effect made him discard, when he names them (S15h)."""

    action: SinbadAction
    budge: str | None = None
    effect_discards: tuple[Card, ...] = ()


Action = JaffarPlays | SinbadTurn


def _card(value: object, line: object) -> Card:
    try:
        return Card.from_code(value)  # type: ignore[arg-type]
    except CardCodeError as exc:
        raise RecordLineError(line, str(exc)) from None


def _placement(value: object, line: object) -> Placement:
    if isinstance(value, str):
        return Placement(_card(value, line))
    if not isinstance(value, Mapping) or "card" not in value:
        raise RecordLineError(line, "each played card is {\"card\": \"QH\", \"path\": \"id\"}")
    path = value.get("path")
    if path is not None and (not isinstance(path, str) or not path):
        raise RecordLineError(line, f"a path is named by its id, not {path!r}")
    return Placement(_card(value["card"], line), path)


def _count(value: object, line: object, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise RecordLineError(line, f"{what} must be a whole number")
    return value


def action_from_line(line: object) -> Action:
    """Parse one record line (already decoded from JSON) into an action."""
    if not isinstance(line, Mapping):
        raise RecordLineError(line, "a record line is a JSON object")
    keys = set(line) & {"jaffar", "sinbad"}
    if len(keys) != 1:
        raise RecordLineError(line, "a record line has exactly one of \"jaffar\" or \"sinbad\"")
    if "jaffar" in line:
        cards = line["jaffar"]
        if not isinstance(cards, list):
            raise RecordLineError(line, "\"jaffar\" is a list of card codes")
        return JaffarPlays(tuple(_card(c, line) for c in cards))
    body = line["sinbad"]
    if not isinstance(body, Mapping):
        raise RecordLineError(line, "\"sinbad\" is an object with an \"action\"")
    budge = body.get("budge")
    if budge is not None and (not isinstance(budge, str) or not budge):
        raise RecordLineError(line, "\"budge\" is a Budge card id")
    discards: tuple[Card, ...] = ()
    effect_cards = body.get("effect_cards")
    if effect_cards is not None:
        if not isinstance(effect_cards, Mapping) or not isinstance(
                effect_cards.get("discard", []), list):
            raise RecordLineError(line, "\"effect_cards\" is {\"discard\": [card codes]}")
        discards = tuple(_card(c, line) for c in effect_cards.get("discard", []))
    kind = body.get("action")
    action: SinbadAction
    if kind == "draw":
        count = _count(body.get("count", 1), line, "\"count\"")
        if count not in (1, 2):
            raise RecordLineError(line, "a draw takes 1 or 2 cards")
        action = Draw(count)
    elif kind in ("play", "draw_play"):
        raw = body.get("cards")
        if not isinstance(raw, list) or not raw:
            raise RecordLineError(line, f"\"{kind}\" needs \"cards\": a list of played cards")
        placements = tuple(_placement(c, line) for c in raw)
        if kind == "play":
            if len(placements) > 2:
                raise RecordLineError(line, "Sinbad plays at most 2 cards")
            action = Play(placements)
        else:
            if len(placements) != 1:
                raise RecordLineError(line, "\"draw_play\" plays exactly 1 card")
            action = DrawPlay(placements[0])
    elif kind == "trade":
        if "give" not in body or "take" not in body:
            raise RecordLineError(line, "a trade names the card to \"give\" and to \"take\"")
        action = Trade(_card(body["give"], line), _card(body["take"], line))
    elif kind == "pass":
        action = Pass()
    else:
        raise RecordLineError(line, "\"action\" is one of draw, play, draw_play, trade, pass")
    return SinbadTurn(action, budge, discards)


def _placement_line(p: Placement) -> dict[str, Any]:
    out: dict[str, Any] = {"card": p.card.code}
    if p.path is not None:
        out["path"] = p.path
    return out


def action_to_line(action: Action) -> dict[str, Any]:
    """The record line of an action (the inverse of :func:`action_from_line`)."""
    if isinstance(action, JaffarPlays):
        return {"jaffar": [c.code for c in action.cards]}
    body: dict[str, Any] = {}
    if action.budge is not None:
        body["budge"] = action.budge
    a = action.action
    if isinstance(a, Draw):
        body.update(action="draw", count=a.count)
    elif isinstance(a, Play):
        body.update(action="play", cards=[_placement_line(p) for p in a.placements])
    elif isinstance(a, DrawPlay):
        body.update(action="draw_play", cards=[_placement_line(a.placement)])
    elif isinstance(a, Trade):
        body.update(action="trade", give=a.give.code, take=a.take.code)
    else:
        body["action"] = "pass"
    if action.effect_discards:
        body["effect_cards"] = {"discard": [c.code for c in action.effect_discards]}
    return {"sinbad": body}
