"""Scenario and campaign loading (FORMATS.md): typed values, and one clear message per broken file
naming the file, the key path and the bad value."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from rules_helpers import GATE

from companion.cards import Suit
from companion.scenario import (
    Challenge,
    Event,
    ScenarioError,
    load_any,
    load_campaign,
    load_scenario,
)

REPO = Path(__file__).resolve().parents[2]


def write(tmp_path: Path, text: str, name: str = "s.toml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_the_tiny_gate_loads_into_typed_values(shared_dir: Path) -> None:
    scenario = load_scenario(shared_dir / "examples" / "tiny-gate.toml")
    assert scenario.id == "gate" and len(scenario.challenges) == 1
    gate = scenario.challenges[0]
    assert isinstance(gate, Challenge)
    assert gate.paths[0].need == (Suit.CLUBS, Suit.CLUBS)
    assert gate.paths[1].flavor_line(2) == "The Bald Cook climbs over and opens the gate."
    assert scenario.budge[0].effects[0].kind == "sleep"


def test_campaign_paths_are_relative_to_the_campaign_file(shared_dir: Path) -> None:
    campaign = load_campaign(shared_dir / "examples" / "tiny-campaign.toml")
    assert [s.id for s in campaign.scenarios] == ["gate"]
    assert campaign.start_sleep == 10 and campaign.start_scoreboard == "losing"


def test_events_and_effects_are_typed(tmp_path: Path) -> None:
    text = GATE.replace('[[steps]]\nkind = "challenge"', '''[[steps]]
kind = "event"
id = "storm"
text = "A black wind blows."
effects = [{ sleep = -1 }, { take = ["clubs", "hearts"] },
           { path_delta = { path = "muscle", steps = -1 } }]

[[steps]]
kind = "challenge"''', 1)
    scenario = load_scenario(write(tmp_path, text))
    storm = scenario.steps[0]
    assert isinstance(storm, Event)
    assert [e.kind for e in storm.effects] == ["sleep", "take", "path_delta"]
    assert storm.effects[1].suits == (Suit.CLUBS, Suit.HEARTS)
    assert storm.effects[2].path == "muscle" and storm.effects[2].amount == -1


BROKEN = [
    # (what is broken, replace this, with this, key path expected, value expected)
    ("missing id", 'id = "gate"\n', "", "id", "missing"),
    ("unknown resource", 'need = ["muscle", "muscle"]', 'need = ["muscle", "brains"]',
     "steps[0].paths[0].need[1]", "'brains'"),
    ("antics on a path", 'need = ["muscle", "muscle"]', 'need = ["muscle", "antics"]',
     "steps[0].paths[0].need[1]", "'antics'"),
    ("wrong budge count", '[[budge]]\nid = "nudge"',
     '[[budge]]\nid = "extra"\n[[budge]]\nid = "nudge"', "budge", "2"),
    ("unknown effect", "effects = [{ sleep = 1 }]", "effects = [{ sneeze = 1 }]",
     "budge[0].effects[0].sneeze", "1"),
    ("path_delta to an unknown path", "effects = [{ sleep = 1 }]",
     'effects = [{ path_delta = { path = "tunnel", steps = -1 } }]',
     "budge[0].effects[0].path_delta.path", "'tunnel'"),
    ("bad step kind", 'kind = "challenge"', 'kind = "riddle"', "steps[0].kind", "'riddle'"),
    ("flavor lines do not match the steps", 'flavor = ["Flex.", "Crash."]',
     'flavor = ["Flex."]', "steps[0].paths[0].flavor", "Flex."),
    ("sleep is not a number", "effects = [{ sleep = 1 }]", 'effects = [{ sleep = "lots" }]',
     "budge[0].effects[0].sleep", "'lots'"),
    ("duplicate path ids", 'id = "friends"', 'id = "muscle"', "steps[0].paths[1].id",
     "'muscle'"),
    ("a path with no steps", 'need = ["muscle", "muscle"]\nflavor = ["Flex.", "Crash."]',
     "need = []", "steps[0].paths[0].need", "[]"),
    ("scoreboard value", "effects = [{ sleep = 1 }]", 'effects = [{ scoreboard = "tied" }]',
     "budge[0].effects[0].scoreboard", "'tied'"),
    ("take an unknown suit", "effects = [{ sleep = 1 }]", 'effects = [{ take = ["stars"] }]',
     "budge[0].effects[0].take[0]", "'stars'"),
    ("an id printed in a QR code has a space", 'id = "nudge"', 'id = "nudge me"',
     "budge[0].id", "'nudge me'"),
]


@pytest.mark.parametrize(("what", "old", "new", "key_path", "value"), BROKEN,
                         ids=[b[0] for b in BROKEN])
def test_broken_scenarios_are_refused_with_file_key_path_and_value(
        tmp_path: Path, what: str, old: str, new: str, key_path: str, value: str) -> None:
    assert old in GATE, f"test setup: {old!r} not in the example"
    path = write(tmp_path, GATE.replace(old, new, 1))
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    message = str(info.value)
    assert str(path) in message
    assert info.value.key_path == key_path, message
    assert value in message, message


def test_bad_toml_syntax_names_the_line(tmp_path: Path) -> None:
    path = write(tmp_path, GATE.replace('title = "The Locked Gate"', 'title = "The Locked Gate'))
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    assert str(path) in str(info.value) and "line 9" in str(info.value)


def test_event_path_delta_must_name_a_path_of_the_next_challenge(tmp_path: Path) -> None:
    text = GATE.replace('[[steps]]\nkind = "challenge"', '''[[steps]]
kind = "event"
id = "shortcut"
text = "A secret door."
effects = [{ path_delta = { path = "luck", steps = -1 } }]

[[steps]]
kind = "challenge"''', 1)
    with pytest.raises(ScenarioError) as info:
        load_scenario(write(tmp_path, text))
    assert info.value.key_path == "steps[0].effects[0].path_delta.path"
    assert "gate" in str(info.value)


def test_campaign_errors_name_the_campaign_or_the_scenario(tmp_path: Path) -> None:
    campaign = write(tmp_path, 'id = "c"\nscenarios = ["missing.toml"]\n', "c.toml")
    with pytest.raises(ScenarioError) as info:
        load_campaign(campaign)
    assert info.value.key_path == "scenarios[0]" and "missing.toml" in str(info.value)
    write(tmp_path, GATE.replace('need = ["muscle", "muscle"]', 'need = ["muscle", 7]'),
          "missing.toml")
    with pytest.raises(ScenarioError) as info:
        load_campaign(campaign)
    assert "missing.toml" in info.value.file and info.value.key_path.endswith("need[1]")
    bad_rules = write(tmp_path, 'id = "c"\nscenarios = ["g.toml"]\nstart_sleep = 11\n', "b.toml")
    write(tmp_path, GATE, "g.toml")
    with pytest.raises(ScenarioError, match="start_sleep"):
        load_campaign(bad_rules)


def test_load_any_tells_campaigns_from_scenarios(shared_dir: Path) -> None:
    assert load_any(shared_dir / "examples" / "tiny-campaign.toml").id == "tiny"
    assert load_any(shared_dir / "examples" / "tiny-gate.toml").id == "gate"
    with pytest.raises(ScenarioError, match="campaign file, not a scenario"):
        load_scenario(shared_dir / "examples" / "tiny-campaign.toml")


def test_companion_check_says_which_files_pass(tmp_path: Path) -> None:
    write(tmp_path, GATE, "good.toml")
    write(tmp_path, GATE.replace("sleep = 1", "sleep = true"), "bad.toml")
    run = subprocess.run([sys.executable, "-m", "companion", "check", str(tmp_path)],
                         capture_output=True, text=True, cwd=REPO, timeout=60)
    assert run.returncode == 1
    assert "ok   " + str(tmp_path / "good.toml") in run.stdout
    assert "FAIL " + str(tmp_path / "bad.toml") in run.stdout
    assert "budge[0].effects[0].sleep" in run.stdout
    assert "1 of 2 file(s) pass" in run.stdout


def test_companion_check_passes_the_bundled_scenarios() -> None:
    run = subprocess.run([sys.executable, "-m", "companion", "check", "scenarios"],
                         capture_output=True, text=True, cwd=REPO, timeout=60)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "FAIL" not in run.stdout
