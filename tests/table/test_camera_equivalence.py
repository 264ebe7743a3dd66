"""The camera and the tablet produce the same game: demo games are turned into the table
events a camera would see (with noise), fed to the interpreter, and must give the same states
as the record lines themselves (ARCHITECTURE: the engine cannot tell them apart)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from table_helpers import FILM, TINY, open_session

from companion.cards import Card, Suit, full_deck
from companion.scenario import load_campaign
from companion.sinbad import Game, Phase, SinbadState, action_from_line
from companion.table.demo import DemoConfig, DemoSinbad
from companion.table.session import jaffar_counts, virtual_jaffar_cards


def demo_lines(game: Game, seed: int, limit: int) -> list[dict[str, Any]]:
    state, sinbad, played, lines = game.initial_state(), DemoSinbad(random.Random(seed)), 0, []
    while state.phase is not Phase.OVER and len(lines) < limit:
        if state.phase is Phase.JAFFAR:
            cards = virtual_jaffar_cards(seed, state, played, 6)
            k = max(jaffar_counts(game, state, cards))
            line: dict[str, Any] = {"jaffar": [c.code for c in cards[:k]]}
            played += k
        else:
            line = sinbad.choose(game, state, DemoConfig())
            sinbad.after(line)
        outcome = game.apply(state, action_from_line(line))
        assert outcome.ok
        state = outcome.state
        lines.append(line)
    return lines


class Camera:
    """Writes the table events of record lines, one every 1.5 s, with hands passing by."""

    def __init__(self, rng: random.Random) -> None:
        self.rng, self.t, self.events = rng, 0.0, []  # type: ignore[var-annotated]

    def emit(self, event: str, zone: str, card: Card | None = None, code: str | None = None,
             **extra: Any) -> None:
        self.t += 1.5
        item: dict[str, Any] = {"t": round(self.t, 2), "event": event, "zone": zone, **extra}
        if card is not None:
            item["card"] = card.code
            if event == "placed":
                item["confidence"] = round(self.rng.uniform(0.85, 1.0), 2)
        if code is not None:
            item["code"] = code
        self.events.append(item)
        if self.rng.random() < 0.1:                    # noise: placed and taken back
            ghost = self.rng.choice(full_deck()).code
            zone = self.rng.choice(["bank", "path:1", "jaffar", "path:2"])
            self.events.append({"t": round(self.t + 0.1, 2), "event": "placed", "card": ghost,
                                "zone": zone, "confidence": 0.9})
            self.events.append({"t": round(self.t + 0.4, 2), "event": "removed",
                                "card": ghost, "zone": zone})
            self.t += 0.5

    def control(self, event: str, **extra: Any) -> None:
        self.t += 1.5
        self.events.append({"t": round(self.t, 2), "event": event, **extra})


def camera_events(game: Game, lines: list[dict[str, Any]], rng: random.Random
                  ) -> list[dict[str, Any]]:
    cam = Camera(rng)
    state = game.initial_state()
    for line in lines:
        outcome = game.apply(state, action_from_line(line))
        after = outcome.state
        if "jaffar" in line:
            for code in line["jaffar"]:
                cam.emit("placed", "jaffar", Card.from_code(code))
            if not line["jaffar"]:
                cam.control("done")
        else:
            placed = {n.card: n.text for n in outcome.notes if n.kind == "placed"}
            _sinbad_events(cam, state, placed, line["sinbad"])
        # What the rules moved by themselves, as the players move it.
        for card in state.path_cards:
            if card not in after.path_cards:
                cam.emit("removed", "path:1", card)
                cam.emit("placed", "bank", card)
        for note in outcome.notes:
            if note.kind == "take" and note.suit is not None:
                cam.emit("removed", "bank", note.card or _any(note.suit, after))
            elif note.kind == "discard":
                for _ in range(note.count):
                    cam.emit("placed", "bank", _any(Suit.CLUBS, after))
            elif note.kind == "reshuffle":
                for _ in range(note.count):
                    cam.emit("removed", "bank", _any(Suit.DIAMONDS, after))
        state = after
    return cam.events


def _any(suit: Suit, state: SinbadState) -> Card:
    return next(c for c in full_deck() if c.suit is suit and state.visible(c) is None)


def _sinbad_events(cam: Camera, before: SinbadState, placed: dict[Card | None, str],
                   body: dict[str, Any]) -> None:
    if "budge" in body:
        cam.emit("placed", "budge", code=f"budge:{body['budge']}")
    action = body["action"]
    if action in ("draw", "pass"):
        cam.control("declare", action=action, count=body.get("count", 0))
        return
    if action == "draw_play":
        cam.control("declare", action="draw", count=1)
    for item in body.get("cards", []):
        card = Card.from_code(item["card"])
        if card.suit is Suit.SPADES:
            cam.emit("placed", "bank", card)
            continue
        # The path it went to (the engine chose the only one that fits).
        cam.emit("placed", f"path:{placed[card]}", card)
    complete = len(body.get("cards", [])) >= (1 if before.scoreboard == "winning" else 2)
    if action == "play" and not complete:
        cam.control("done")


@pytest.mark.parametrize("campaign, seed, limit", [(TINY, 1, 200), (TINY, 2, 200),
                                                   (FILM, 3, 1000), (FILM, 4, 1000)])
def test_camera_events_give_the_same_game(tmp_path: Path, campaign: Path, seed: int,
                                          limit: int) -> None:
    game = Game(load_campaign(campaign))
    lines = demo_lines(game, seed, limit)
    events = camera_events(game, lines, random.Random(seed))
    s = open_session(tmp_path, campaign, seed=seed)
    for event in events:
        s.table_event(event)
        assert s.questions() == [], (event, s.questions(), list(s.interpreter.log)[-5:])
    s.interpreter.flush()
    assert len(s.applied_lines()) == len(lines)
    state = game.initial_state()
    for line in lines:
        state = game.apply(state, action_from_line(line)).state
    assert s.game.public(s.state) == game.public(state)
    s.close()
