"""Small builders for rules tests: a campaign written to a temporary folder, and a driver."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

from companion.scenario import load_campaign
from companion.sinbad import Game, Outcome, Refusal, SinbadState, action_from_line

GATE = """
id = "gate"
title = "The Gate"
intro = "Once upon a time there was a gate."

[[steps]]
kind = "challenge"
id = "gate"
title = "The Locked Gate"
text = "The gate is locked."
[[steps.paths]]
id = "muscle"
need = ["muscle", "muscle"]
flavor = ["Flex.", "Crash."]
done = "The gate gives up."
[[steps.paths]]
id = "friends"
need = ["friends", "friends", "friends"]
flavor = ["One.", "Two.", "Three."]
done = "The gate opens politely."
[[steps.paths]]
id = "mixed"
need = ["luck", "muscle"]
flavor = ["Lucky.", "Push."]
done = "Mixed done."

[[budge]]
id = "nudge"
title = "BUDGE!"
text = "Jaffar shouts BUDGE!"
effects = [{ sleep = 1 }]
"""


def scenario_text(*, sid: str = "s1", steps: str, budge: str) -> str:
    return f'id = "{sid}"\ntitle = "Scenario {sid}"\nintro = "Intro {sid}."\n' + \
        textwrap.dedent(steps) + "\n" + textwrap.dedent(budge)


def challenge(cid: str, paths: dict[str, list[str]]) -> str:
    out = f'\n[[steps]]\nkind = "challenge"\nid = "{cid}"\ntitle = "Challenge {cid}"\n' \
          f'text = "{cid} begins."\n'
    for pid, need in paths.items():
        need_s = ", ".join(f'"{n}"' for n in need)
        flavor_s = ", ".join(f'"{pid} step {i + 1}."' for i in range(len(need)))
        out += f'[[steps.paths]]\nid = "{pid}"\nneed = [{need_s}]\nflavor = [{flavor_s}]\n' \
               f'done = "{pid} done."\n'
    return out


def event(eid: str, effects: str = "[]") -> str:
    return f'\n[[steps]]\nkind = "event"\nid = "{eid}"\ntext = "Event {eid}."\n' \
           f"effects = {effects}\n"


def budge(bid: str, effects: str = "[]") -> str:
    return f'\n[[budge]]\nid = "{bid}"\ntitle = "Budge {bid}"\ntext = "Budge {bid}."\n' \
           f"effects = {effects}\n"


def make_game(tmp_path: Path, scenarios: list[str], *, header: str = "",
              rules: dict[str, Any] | None = None) -> Game:
    names = []
    for i, text in enumerate(scenarios):
        name = f"s{i}.toml"
        (tmp_path / name).write_text(text)
        names.append(name)
    listed = ", ".join(f'"{n}"' for n in names)
    (tmp_path / "campaign.toml").write_text(f'id = "test"\ntitle = "Test"\n'
                                             f"scenarios = [{listed}]\n{header}")
    campaign = load_campaign(tmp_path / "campaign.toml")
    return Game(campaign, campaign.rules.with_overrides(rules or {}))


def gate_game(tmp_path: Path, **kw: Any) -> Game:
    return make_game(tmp_path, [GATE], **kw)


class Table:
    """Drives a game line by line, failing loudly when a line meant to pass is refused."""

    def __init__(self, game: Game, state: SinbadState | None = None) -> None:
        self.game = game
        self.state = state if state is not None else game.initial_state()
        self.notes: list[Any] = []

    def try_line(self, line: dict[str, Any]) -> Outcome:
        return self.game.apply(self.state, action_from_line(line))

    def ok(self, *lines: dict[str, Any]) -> Table:
        for line in lines:
            outcome = self.try_line(line)
            assert outcome.refusal is None, f"{line} was refused: {outcome.refusal}"
            self.state = outcome.state
            self.notes.extend(outcome.notes)
        return self

    def refused(self, line: dict[str, Any]) -> Refusal:
        outcome = self.try_line(line)
        assert outcome.refusal is not None, f"{line} was accepted"
        assert outcome.state is self.state
        return outcome.refusal

    def jaffar(self, *cards: str) -> Table:
        return self.ok({"jaffar": list(cards)})

    def sinbad(self, action: str, budge: str | None = None, **body: Any) -> Table:
        line: dict[str, Any] = {"action": action, **body}
        if budge:
            line["budge"] = budge
        return self.ok({"sinbad": line})

    def play(self, *cards: str, budge: str | None = None) -> Table:
        placed = []
        for c in cards:
            code, _, path = c.partition("@")
            placed.append({"card": code, "path": path} if path else {"card": code})
        return self.sinbad("play", budge, cards=placed)

    @property
    def public(self) -> dict[str, Any]:
        return self.game.public(self.state)

    def said(self) -> list[str]:
        return [n.text for n in self.notes if n.kind == "say"]
