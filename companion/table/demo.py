"""The bundled demo: a game of the film campaign played through the live session.

Nobody has to script it by hand: the demo plays the rules engine with a simple, sensible
policy. Jaffar plays from his shuffled virtual deck (``TableSession.auto_jaffar``); Sinbad keeps
a hidden hand of his own (the engine knows only its size, RULINGS S14), plays cards that fit a
path when he can (two when Losing), clowns with Antics when the girl is nearly asleep, and
otherwise draws. Every line goes through ``TableSession.apply_line``, so the journal, the
tablet and the narration all move exactly as in a real game.
"""

from __future__ import annotations

import itertools
import random
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from companion.cards import Card, Suit, full_deck
from companion.sinbad import Game, Phase, SinbadState, action_from_line
from companion.table.errors import RuleRefusedError, StaleStateError
from companion.table.session import TableSession, describe_line


@dataclass(frozen=True)
class DemoConfig:
    speed: float = 1.0              # 2 = twice as fast
    seconds_per_action: float = 2.0
    seed: int | None = None
    pause_after_game: float = 10.0  # the result stays on screen before the next game
    loop: bool = True               # start a new game when one ends
    antics_below: int = 4           # Sinbad clowns (Antics) when sleep is at most this
    max_actions: int = 5000         # a safety net: a game never takes this long


class DemoSinbad:
    """Sinbad's hidden hand and his policy. The hand is dealt from the cards nobody has seen
    on the table, and kept the size the engine says it is."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.hand: list[Card] = []

    def sync(self, state: SinbadState) -> None:
        """Make the hand agree with the table: no card that is visible elsewhere, and as many
        cards as the engine counts (draws add unseen cards, discards drop some)."""
        self.hand = [c for c in self.hand if state.visible(c) is None]
        while len(self.hand) > state.hand:
            self.hand.remove(self.rng.choice(self.hand))
        while len(self.hand) < state.hand:
            self.hand.append(self._unseen(state))

    def _unseen(self, state: SinbadState, exclude: tuple[Card, ...] = ()) -> Card:
        pool = [c for c in full_deck() if c not in self.hand and c not in exclude
                and state.visible(c) is None]
        return self.rng.choice(pool)

    def choose(self, game: Game, state: SinbadState, config: DemoConfig) -> dict[str, Any]:
        """Sinbad's line for this phase: the first of his preferences the rules accept."""
        self.sync(state)
        body: dict[str, Any] = {}
        if game.budge_due(state):
            body["budge"] = self.rng.choice(game.budge_cards(state)).id
        for action in self._preferences(game, state, config):
            line = {"sinbad": {**body, **action}}
            if game.apply(state, action_from_line(line)).ok:
                return line
        return {"sinbad": {**body, "action": "pass"}}     # nothing else fits: S13 lost turn

    def _preferences(self, game: Game, state: SinbadState, config: DemoConfig
                     ) -> Iterator[dict[str, Any]]:
        if state.now.lose_turn:
            yield {"action": "pass"}
            return
        winning = state.scoreboard == "winning"
        resources = [c for c in self.hand if c.suit is not Suit.SPADES]
        self.rng.shuffle(resources)
        spades = [c for c in self.hand if c.suit is Suit.SPADES]
        if state.sleep <= config.antics_below and spades:
            yield {"action": "play", "cards": [{"card": spades[0].code}]}
        if not winning:
            for a, b in itertools.permutations(resources, 2):
                yield {"action": "play", "cards": [{"card": a.code}, {"card": b.code}]}
        for card in resources:
            yield {"action": "play", "cards": [{"card": card.code}]}
        if not winning and state.draw_pile > 0:
            drawn = self._unseen(state)
            if drawn.suit is not Suit.SPADES:
                yield {"action": "draw_play", "cards": [{"card": drawn.code}]}
        yield {"action": "draw", "count": 1 if winning else 2}
        if spades:
            yield {"action": "play", "cards": [{"card": spades[0].code}]}

    def after(self, line: dict[str, Any]) -> None:
        """Cards that left the hand with this line (played, given); draws come with sync."""
        body = line.get("sinbad", {})
        for item in body.get("cards", []):
            card = Card.from_code(item["card"])
            if card in self.hand:
                self.hand.remove(card)
        if body.get("action") == "trade":
            give, take = Card.from_code(body["give"]), Card.from_code(body["take"])
            if give in self.hand:
                self.hand.remove(give)
            self.hand.append(take)


def demo_step(session: TableSession, sinbad: DemoSinbad, config: DemoConfig,
              source: str = "demo") -> bool:
    """Play one phase of the current game; False when the game is over."""
    state = session.state
    if state.phase is Phase.OVER:
        return False
    try:
        if state.phase is Phase.JAFFAR:
            snap = session.auto_jaffar(session.state_id, source=source)
            if snap["jaffar_last"]:
                session.say(describe_line({"jaffar": snap["jaffar_last"]}) + ".")
        else:
            game = session.game
            assert game is not None
            line = sinbad.choose(game, state, config)
            session.apply_line(line, session.state_id, source=source)
            sinbad.after(line)
            session.say(describe_line(line) + ".")
    except StaleStateError:
        pass                            # a tablet acted in between: look again next step
    except RuleRefusedError as exc:     # a tablet changed the table under us
        session.say(f"(demo) {exc.reason}")
    return session.state.phase is not Phase.OVER


def play_game(session: TableSession, seed: int = 0, config: DemoConfig = DemoConfig(),
              source: str = "demo") -> int:
    """Play the current game to its end as fast as possible; returns the actions taken."""
    sinbad = DemoSinbad(random.Random(seed))
    for count in range(1, config.max_actions + 1):
        if not demo_step(session, sinbad, config, source):
            return count
    return config.max_actions


def run_demo(session: TableSession, stop: threading.Event, config: DemoConfig = DemoConfig()
             ) -> None:
    """Play demo games at a watchable pace until ``stop`` is set."""
    rng = random.Random(config.seed)
    delay = config.seconds_per_action / config.speed
    session.say("Welcome to the table companion! This is a demo game: watch the Sleep Meter, "
                "the paths and the narration move. Open the address above on a tablet.")
    while not stop.is_set():
        sinbad = DemoSinbad(random.Random(rng.random()))
        for _ in range(config.max_actions):
            if stop.wait(delay) or not demo_step(session, sinbad, config):
                break
        if stop.is_set():
            return
        result = session.state.result
        session.say({"sinbad": "Sinbad wins the demo!", "jaffar": "Jaffar wins the demo!",
                     "draw": "The demo ends in a draw."}.get(result or "", "The demo ends.")
                    + (" A new demo game starts soon." if config.loop else ""))
        if not config.loop or stop.wait(config.pause_after_game / config.speed):
            return
        session.new_game(_campaign_path(session), title="Demo",
                         seed=rng.randrange(2**31))


def _campaign_path(session: TableSession) -> Any:
    from pathlib import Path

    return Path(session.campaign_path)
