"""Actions of Aladdin: The Magic Carpet Game as values, and their game-record lines.

One action is one record line, a JSON object with exactly one *action key* (below); other
keys are the action's own (``card``, ``face``, ``return``, ``toss``) or extras that readers
ignore (a timestamp, say). Players are seat numbers from 1; cards are ids (``abu-red-1``; the
QR text ``aladdin:abu-red-1`` is accepted and written back as the bare id).

Lines (RULINGS in brackets):

- ``{"draw": "pile"}`` (optional ``"card": id``, checked) / ``{"draw": "discard"}``:
  :class:`Draw` (A3)
- ``{"discard": id}``: :class:`Discard` (A3)
- ``{"lamp": id}``: :class:`PlayLamp` (A4)
- ``{"jafar": {"player": 3, "card": "jafar-1"}}``: :class:`PlayJafar` (A5)
- ``{"rub": 3, "face": "genie"|"poof"}``: :class:`Rub`, special lamp 1..4 and its face (A4, A2)
- ``{"ask": {"player": 2, "character": "rajah"}}``: :class:`Ask` (A4)
- ``{"give": id}``: :class:`Give` (A4)
- ``{"keep": true, "return": id}``: :class:`Keep`; ``{"keep": false}``: :class:`Decline` (A4)
- ``{"carpet": id, "toss": "up"|"down"}``: :class:`PlayCarpet` (A6)
- ``{"swap": {"player": 2, "take": id, "give": id}}``: :class:`Swap` (A6)
- ``{"take_nothing": true}`` (optional ``"player"``): :class:`TakeNothing` (A6)
- ``{"shuffle": [ids, top first]}``: :class:`Shuffle` (A7)

>>> line = {"ask": {"player": 2, "character": "rajah"}}
>>> action_to_line(action_from_line(line)) == line
True
>>> action_from_line({"draw": "pile"})
Draw(source='pile', card=None)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from companion.aladdin.cards import AladdinCard, AladdinCardError, Character
from companion.aladdin.state import SPECIAL_LAMP_COUNT, Face


class AladdinLineError(ValueError):
    """A record line that is not well formed (as opposed to one the rules refuse).

    ``ruling`` is set when the malformation is itself a rule (asking for a colour, A4).
    """

    def __init__(self, line: object, reason: str, ruling: str | None = None) -> None:
        self.line = line
        self.reason = reason
        self.ruling = ruling
        super().__init__(f"{reason}: {_show(line)}")


def _show(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 120 else text[:117] + "..."


@dataclass(frozen=True)
class Draw:
    """A3: the current player draws from the ``pile`` or the ``discard`` top; ``card`` is what
    the camera saw, checked against the known pile."""

    source: Literal["pile", "discard"]
    card: AladdinCard | None = None


@dataclass(frozen=True)
class Discard:
    """A3: discard the drawn card, or keep it and discard this other one."""

    card: AladdinCard


@dataclass(frozen=True)
class PlayLamp:
    """A4: a regular Lamp card from the hand to the discard pile; the lamp magic begins."""

    card: AladdinCard


@dataclass(frozen=True)
class PlayJafar:
    """A5: another player interrupts a Lamp with a Jafar card."""

    player: int
    card: AladdinCard


@dataclass(frozen=True)
class Rub:
    """A4: the lamp magic turns special lamp ``lamp`` (1..4); chance shows ``face``."""

    lamp: int
    face: Face


@dataclass(frozen=True)
class Ask:
    """A4: a Genie wish, by character name, put to another player."""

    player: int
    character: Character


@dataclass(frozen=True)
class Give:
    """A4: the asked player gives one card of the wished character (their pick)."""

    card: AladdinCard


@dataclass(frozen=True)
class Keep:
    """A4: the asker keeps the card and gives ``give_back`` (any other card of theirs)."""

    give_back: AladdinCard


@dataclass(frozen=True)
class Decline:
    """A4: the asker returns the card they were given."""


@dataclass(frozen=True)
class PlayCarpet:
    """A6: toss a Magic Carpet; ``up`` is carpet side up (chance when the companion tosses)."""

    card: AladdinCard
    up: bool


@dataclass(frozen=True)
class Swap:
    """A6: after an ``up`` toss, take ``take`` from ``player``'s hand and give ``give``."""

    player: int
    take: AladdinCard
    give: AladdinCard


@dataclass(frozen=True)
class TakeNothing:
    """A6: after an ``up`` toss, take no card (``player``: whose hand was looked at, if said)."""

    player: int | None = None


@dataclass(frozen=True)
class Shuffle:
    """A7 (chance): the discard pile but its top card becomes the draw pile, in this order
    (top first)."""

    cards: tuple[AladdinCard, ...]


Action = (Draw | Discard | PlayLamp | PlayJafar | Rub | Ask | Give | Keep | Decline
          | PlayCarpet | Swap | TakeNothing | Shuffle)

ACTION_KEYS: tuple[str, ...] = ("draw", "discard", "lamp", "jafar", "rub", "ask", "give", "keep",
                                "carpet", "swap", "take_nothing", "shuffle")


def _card(value: object, line: object) -> AladdinCard:
    try:
        return AladdinCard.parse(value)
    except AladdinCardError as exc:
        raise AladdinLineError(line, str(exc)) from None


def _seat(value: object, line: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise AladdinLineError(line, "a player is named by seat number, from 1")
    return value


def _object(value: object, line: object, shape: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise AladdinLineError(line, f"expected {shape}")
    return value


def action_from_line(line: object) -> Action:
    """Parse one record line (already decoded from JSON) into an action.

    Raises :class:`AladdinLineError` for a line that is not well formed.
    """
    if not isinstance(line, Mapping):
        raise AladdinLineError(line, "a record line is a JSON object")
    keys = [k for k in ACTION_KEYS if k in line]
    if len(keys) != 1:
        raise AladdinLineError(line, "a record line has exactly one of "
                               + ", ".join(f'"{k}"' for k in ACTION_KEYS))
    key = keys[0]
    value = line[key]
    if key == "draw":
        if value not in ("pile", "discard"):
            raise AladdinLineError(line, "\"draw\" is \"pile\" or \"discard\"")
        seen = line.get("card")
        return Draw("pile" if value == "pile" else "discard",
                    None if seen is None else _card(seen, line))
    if key == "discard":
        return Discard(_card(value, line))
    if key == "lamp":
        return PlayLamp(_card(value, line))
    if key == "jafar":
        body = _object(value, line, "\"jafar\": {\"player\": 3, \"card\": \"jafar-1\"}")
        return PlayJafar(_seat(body.get("player"), line), _card(body.get("card"), line))
    if key == "rub":
        if isinstance(value, bool) or not isinstance(value, int) \
                or not 1 <= value <= SPECIAL_LAMP_COUNT:
            raise AladdinLineError(line, "\"rub\" names a special lamp by position, 1 to 4")
        try:
            face = Face(line.get("face"))
        except ValueError:
            raise AladdinLineError(line, "a rub records the face turned up: "
                                   "\"face\": \"genie\" or \"poof\"") from None
        return Rub(value, face)
    if key == "ask":
        body = _object(value, line, "\"ask\": {\"player\": 2, \"character\": \"rajah\"}")
        seat = _seat(body.get("player"), line)
        if "colour" in body or "color" in body:
            raise AladdinLineError(line, "a Genie wish names a character, never a colour", "A4")
        raw = body.get("character")
        try:
            character = Character.parse(raw)
        except ValueError:
            if isinstance(raw, str) and "-" in raw:
                raise AladdinLineError(line, "a Genie wish names a character, never a colour "
                                       "or a card (\"rajah\", not \"rajah-blue\")", "A4") from None
            raise AladdinLineError(line, "\"character\" is one of aladdin, jasmine, abu, "
                                   "rajah, sultan") from None
        return Ask(seat, character)
    if key == "give":
        return Give(_card(value, line))
    if key == "keep":
        if value is True:
            if "return" not in line:
                raise AladdinLineError(line, "keeping the card means giving one back: "
                                       "{\"keep\": true, \"return\": card id}")
            return Keep(_card(line["return"], line))
        if value is False:
            return Decline()
        raise AladdinLineError(line, "\"keep\" is true or false")
    if key == "carpet":
        toss = line.get("toss")
        if toss not in ("up", "down"):
            raise AladdinLineError(line, "a carpet line records the toss: "
                                   "\"toss\": \"up\" or \"down\"")
        return PlayCarpet(_card(value, line), toss == "up")
    if key == "swap":
        body = _object(value, line,
                       "\"swap\": {\"player\": 2, \"take\": card id, \"give\": card id}")
        return Swap(_seat(body.get("player"), line), _card(body.get("take"), line),
                    _card(body.get("give"), line))
    if key == "take_nothing":
        if value is not True:
            raise AladdinLineError(line, "\"take_nothing\" is true")
        looked = line.get("player")
        return TakeNothing(None if looked is None else _seat(looked, line))
    # shuffle
    if not isinstance(value, list):
        raise AladdinLineError(line, "\"shuffle\" is the new draw pile: a list of card ids, "
                               "top first")
    return Shuffle(tuple(_card(c, line) for c in value))


def action_to_line(action: Action) -> dict[str, Any]:
    """The record line of an action (the inverse of :func:`action_from_line`)."""
    if isinstance(action, Draw):
        out: dict[str, Any] = {"draw": action.source}
        if action.card is not None:
            out["card"] = action.card.id
        return out
    if isinstance(action, Discard):
        return {"discard": action.card.id}
    if isinstance(action, PlayLamp):
        return {"lamp": action.card.id}
    if isinstance(action, PlayJafar):
        return {"jafar": {"player": action.player, "card": action.card.id}}
    if isinstance(action, Rub):
        return {"rub": action.lamp, "face": action.face.value}
    if isinstance(action, Ask):
        return {"ask": {"player": action.player, "character": action.character.value}}
    if isinstance(action, Give):
        return {"give": action.card.id}
    if isinstance(action, Keep):
        return {"keep": True, "return": action.give_back.id}
    if isinstance(action, Decline):
        return {"keep": False}
    if isinstance(action, PlayCarpet):
        return {"carpet": action.card.id, "toss": "up" if action.up else "down"}
    if isinstance(action, Swap):
        return {"swap": {"player": action.player, "take": action.take.id,
                         "give": action.give.id}}
    if isinstance(action, TakeNothing):
        out = {"take_nothing": True}
        if action.player is not None:
            out["player"] = action.player
        return out
    return {"shuffle": [c.id for c in action.cards]}
