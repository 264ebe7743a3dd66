"""Shared pieces of the simulator tests: campaigns, and a written-out stress campaign whose
effects are large enough to run the rare rules (S11 reshuffles, anonymous takes, lost turns,
skipped and extra Jaffar phases, path deltas) in almost every game."""

from __future__ import annotations

from pathlib import Path

from companion.scenario import load_campaign
from companion.sinbad import Game

ROOT = Path(__file__).resolve().parents[2]
QUICK = ROOT / "scenarios" / "quick.toml"
SEVEN_SEAS = ROOT / "scenarios" / "seven-seas.toml"

STRESS_CAMPAIGN = """\
id = "stress"
title = "Stress"
scenarios = ["one.toml", "two.toml"]
start_sleep = 9
"""

STRESS_ONE = """\
id = "one"
title = "One"
intro = "The pile runs dry at once."

[[steps]]
kind = "event"
id = "flood"
text = "Cards everywhere."
effects = [{ draw = 30 }, { discard = 3 }, { sleep = -1 }]

[[steps]]
kind = "challenge"
id = "first"
title = "First"
text = "Go."
[[steps.paths]]
id = "m"
need = ["muscle", "muscle", "muscle"]
[[steps.paths]]
id = "f"
need = ["friends", "luck"]

[[steps]]
kind = "event"
id = "quiet"
text = "Quiet."
effects = [{ take = ["clubs", "hearts", "diamonds", "spades"] }, { jaffar_skip = true },
           { path_delta = { path = "l", steps = 2 } }]

[[steps]]
kind = "challenge"
id = "second"
title = "Second"
text = "Go again."
[[steps.paths]]
id = "l"
need = ["luck", "luck"]
[[steps.paths]]
id = "h"
need = ["friends", "friends", "muscle", "friends"]

[[budge]]
id = "heavy"
title = "Heavy"
text = "Draw, drop, take."
effects = [{ draw = 12 }, { discard = 2 }, { take = ["spades", "clubs"] },
           { lose_turn = true }]

[[budge]]
id = "light"
title = "Light"
text = "Shorter, and Jaffar busy."
effects = [{ path_delta = { path = "h", steps = -2 } }, { jaffar_extra = 1 },
           { scoreboard = "winning" }]
"""

STRESS_TWO = """\
id = "two"
title = "Two"
intro = "Again."

[[steps]]
kind = "challenge"
id = "third"
title = "Third"
text = "Last."
[[steps.paths]]
id = "m"
need = ["muscle", "friends"]
[[steps.paths]]
id = "d"
need = ["luck", "luck", "luck"]

[[steps]]
kind = "event"
id = "after"
text = "Read after the last challenge."
effects = [{ say = "Good night." }]

[[budge]]
id = "odd"
title = "Odd"
text = "Lose one, draw many."
effects = [{ discard = 1 }, { draw = 20 }, { sleep = 1 }, { jaffar_skip = true }]
"""


def write_stress(folder: Path) -> Path:
    (folder / "one.toml").write_text(STRESS_ONE, encoding="utf-8")
    (folder / "two.toml").write_text(STRESS_TWO, encoding="utf-8")
    path = folder / "stress.toml"
    path.write_text(STRESS_CAMPAIGN, encoding="utf-8")
    return path


def game_of(path: Path) -> Game:
    return Game(load_campaign(path))
