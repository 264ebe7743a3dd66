"""Content checks for the bundled scenario files (scenarios/).

The loader (companion check) decides whether a file is *valid*; these tests decide whether the
content is what the campaigns promise: enough scenarios and challenges, 2..4 paths of different
lengths, one flavor line per step, a Budge card per challenge, shortcuts that point at the next
challenge, a mix of good and bad effects, and short lines that can be read aloud in one breath.

Every rule lives in ``problems_in_scenario`` / ``problems_in_campaign``, which return a list of
readable problems; the tests on the real files expect none, and the tests at the bottom feed
broken copies to the same functions to show each rule can fail.
"""

from __future__ import annotations

import copy
import re
import subprocess
import sys
import tomllib
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "scenarios"

RESOURCES = {"muscle", "friends", "luck"}
SUITS = {"clubs", "diamonds", "hearts", "spades"}
EFFECT_KEYS = {
    "sleep", "scoreboard", "draw", "discard", "take", "lose_turn",
    "jaffar_skip", "jaffar_extra", "path_delta", "say",
}
KEBAB = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
MAX_LINE = 140  # one breath, read aloud
# Every narrated string of a scenario file, by key.
TEXT_KEYS = ("title", "intro", "text", "done")

Toml = dict[str, Any]


def load(path: Path) -> Toml:
    with path.open("rb") as fh:
        return tomllib.load(fh)


def campaign_files() -> list[Path]:
    return sorted(p for p in SCENARIOS.glob("*.toml"))


def scenario_files_of(campaign_path: Path) -> list[Path]:
    data = load(campaign_path)
    return [campaign_path.parent / name for name in data["scenarios"]]


def challenges(scenario: Toml) -> list[Toml]:
    return [s for s in scenario.get("steps", []) if s.get("kind") == "challenge"]


def events(scenario: Toml) -> list[Toml]:
    return [s for s in scenario.get("steps", []) if s.get("kind") == "event"]


def is_shortcut(event: Toml) -> bool:
    return any("path_delta" in e and e["path_delta"].get("steps", 0) < 0
               for e in event.get("effects", []))


def effect_sign(effect: Toml) -> str:
    """'good' or 'bad' for Sinbad, 'neutral' for narration."""
    (key, value), = effect.items()
    match key:
        case "sleep":
            return "good" if value > 0 else "bad"
        case "scoreboard":
            return "bad" if value == "winning" else "good"
        case "draw" | "take" | "jaffar_skip":
            return "good"
        case "discard" | "lose_turn" | "jaffar_extra":
            return "bad"
        case "path_delta":
            return "good" if value["steps"] < 0 else "bad"
    return "neutral"


def effect_kind(effect: Toml) -> str:
    """A finer label, e.g. ``sleep+``, ``path_delta-``, ``scoreboard=winning``."""
    (key, value), = effect.items()
    if key == "sleep":
        return "sleep+" if value > 0 else "sleep-"
    if key == "path_delta":
        return "path_delta-" if value["steps"] < 0 else "path_delta+"
    if key == "scoreboard":
        return f"scoreboard={value}"
    return key


# ---------------------------------------------------------------------------------------------
# The rules


def problems_in_effects(effects: Any, where: str) -> list[str]:
    out: list[str] = []
    if not isinstance(effects, list) or not effects:
        return [f"{where}: effects must be a non-empty list"]
    for j, effect in enumerate(effects):
        at = f"{where}.effects[{j}]"
        if not isinstance(effect, dict) or len(effect) != 1:
            out.append(f"{at}: each effect is a table with exactly one key, got {effect!r}")
            continue
        (key, value), = effect.items()
        if key not in EFFECT_KEYS:
            out.append(f"{at}: unknown effect key {key!r}")
            continue
        ok = True
        match key:
            case "sleep":
                ok = type(value) is int and value != 0
            case "scoreboard":
                ok = value in ("winning", "losing")
            case "draw" | "discard" | "jaffar_extra":
                ok = type(value) is int and value > 0
            case "take":
                ok = isinstance(value, list) and bool(value) and all(s in SUITS for s in value)
            case "lose_turn" | "jaffar_skip":
                ok = value is True
            case "path_delta":
                ok = (isinstance(value, dict) and set(value) == {"path", "steps"}
                      and isinstance(value["path"], str) and type(value["steps"]) is int
                      and value["steps"] != 0)
            case "say":
                ok = isinstance(value, str) and bool(value.strip())
        if not ok:
            out.append(f"{at}: bad value for {key}: {value!r}")
        if key == "say" and isinstance(value, str):
            out.extend(problems_in_line(value, f"{at}.say"))
    return out


def problems_in_line(text: Any, where: str) -> list[str]:
    if not isinstance(text, str) or not text.strip():
        return [f"{where}: missing or empty text"]
    out = []
    if len(text) >= MAX_LINE:
        out.append(f"{where}: {len(text)} characters, keep it under {MAX_LINE}: {text!r}")
    if text != text.strip() or "  " in text or "\n" in text:
        out.append(f"{where}: stray whitespace in {text!r}")
    return out


def problems_in_path(path: Toml, where: str) -> list[str]:
    out: list[str] = []
    if not KEBAB.match(str(path.get("id", ""))):
        out.append(f"{where}.id: not a kebab-case id: {path.get('id')!r}")
    need = path.get("need")
    if not isinstance(need, list) or not need:
        return out + [f"{where}.need: must be a non-empty list"]
    for k, resource in enumerate(need):
        if resource not in RESOURCES:
            out.append(f"{where}.need[{k}]: {resource!r} is not muscle, friends or luck")
    if not 2 <= len(need) <= 5:
        out.append(f"{where}.need: length {len(need)}, keep paths 2 to 5 long")
    flavor = path.get("flavor")
    if not isinstance(flavor, list) or len(flavor) != len(need):
        out.append(f"{where}.flavor: needs exactly one line per step ({len(need)})")
    else:
        for k, line in enumerate(flavor):
            out.extend(problems_in_line(line, f"{where}.flavor[{k}]"))
    out.extend(problems_in_line(path.get("done"), f"{where}.done"))
    return out


def problems_in_challenge(step: Toml, where: str) -> list[str]:
    out: list[str] = []
    for key in ("title", "text"):
        out.extend(problems_in_line(step.get(key), f"{where}.{key}"))
    paths = step.get("paths", [])
    if not 2 <= len(paths) <= 4:
        out.append(f"{where}.paths: {len(paths)} paths, a challenge has 2 to 4")
    for p, path in enumerate(paths):
        out.extend(problems_in_path(path, f"{where}.paths[{p}]"))
    lengths = [len(p.get("need", [])) for p in paths]
    if len(set(lengths)) != len(lengths):
        out.append(f"{where}.paths: two paths have the same length {sorted(lengths)}")
    if lengths and not 2 <= min(lengths) <= 4:
        out.append(f"{where}.paths: the easiest path has {min(lengths)} steps, aim for 2 to 4")
    ids = [p.get("id") for p in paths]
    if len(set(ids)) != len(ids):
        out.append(f"{where}.paths: path ids repeat: {ids}")
    if len({tuple(p.get("need", [])) for p in paths}) != len(paths):
        out.append(f"{where}.paths: two paths need the same cards")
    return out


def problems_in_scenario(scn: Toml, name: str = "scenario") -> list[str]:
    out: list[str] = []
    if not KEBAB.match(str(scn.get("id", ""))):
        out.append(f"{name}.id: not a kebab-case id: {scn.get('id')!r}")
    for key in ("title", "intro"):
        out.extend(problems_in_line(scn.get(key), f"{name}.{key}"))
    steps = scn.get("steps", [])
    chs = challenges(scn)
    if not chs:
        out.append(f"{name}.steps: a scenario needs at least one challenge")
    step_ids = [s.get("id") for s in steps]
    if len(set(step_ids)) != len(step_ids):
        out.append(f"{name}.steps: step ids repeat: {step_ids}")
    for i, step in enumerate(steps):
        where = f"{name}.steps[{i}]"
        if not KEBAB.match(str(step.get("id", ""))):
            out.append(f"{where}.id: not a kebab-case id: {step.get('id')!r}")
        kind = step.get("kind")
        if kind == "challenge":
            out.extend(problems_in_challenge(step, where))
        elif kind == "event":
            out.extend(problems_in_line(step.get("text"), f"{where}.text"))
            out.extend(problems_in_effects(step.get("effects"), where))
            # An event's path_delta applies to the first challenge after it (S15c): that
            # challenge must exist in this scenario and have the path.
            deltas = [e["path_delta"] for e in step.get("effects", [])
                      if isinstance(e, dict) and isinstance(e.get("path_delta"), dict)]
            later = [s for s in steps[i + 1:] if s.get("kind") == "challenge"]
            for delta in deltas:
                if not later:
                    out.append(f"{where}: path_delta after the last challenge does nothing")
                elif delta.get("path") not in {p.get("id") for p in later[0].get("paths", [])}:
                    out.append(f"{where}: path_delta names {delta.get('path')!r}, which is not "
                               f"a path of the next challenge {later[0].get('id')!r}")
        else:
            out.append(f"{where}.kind: must be 'challenge' or 'event', got {kind!r}")
    budge = scn.get("budge", [])
    if len(budge) != len(chs):
        out.append(f"{name}.budge: {len(budge)} Budge cards for {len(chs)} challenges")
    # A Budge card may begin any challenge of its scenario, so a path_delta on it must name a
    # path that every challenge of the scenario has, or it would sometimes do nothing.
    common = set.intersection(*[{p.get("id") for p in c.get("paths", [])} for c in chs]) \
        if chs else set()
    for b, card in enumerate(budge):
        where = f"{name}.budge[{b}]"
        if not KEBAB.match(str(card.get("id", ""))):
            out.append(f"{where}.id: not a kebab-case id: {card.get('id')!r}")
        for key in ("title", "text"):
            out.extend(problems_in_line(card.get(key), f"{where}.{key}"))
        out.extend(problems_in_effects(card.get("effects"), where))
        for e in card.get("effects", []):
            if isinstance(e, dict) and isinstance(e.get("path_delta"), dict):
                if e["path_delta"].get("path") not in common:
                    out.append(f"{where}: path_delta names {e['path_delta'].get('path')!r}, "
                               f"not a path of every challenge here ({sorted(common)})")
    return out


def problems_in_campaign(camp: Toml, scenarios: list[Toml], name: str = "campaign") -> list[str]:
    out: list[str] = []
    if not KEBAB.match(str(camp.get("id", ""))):
        out.append(f"{name}.id: not a kebab-case id: {camp.get('id')!r}")
    out.extend(problems_in_line(camp.get("title"), f"{name}.title"))
    if "start_sleep" in camp and not (type(camp["start_sleep"]) is int
                                      and 1 <= camp["start_sleep"] <= 10):
        out.append(f"{name}.start_sleep: must be 1..10, got {camp['start_sleep']!r}")
    if camp.get("start_scoreboard", "losing") not in ("losing", "winning"):
        out.append(f"{name}.start_scoreboard: got {camp['start_scoreboard']!r}")
    rules = camp.get("rules", {})
    if "jaffar_chain" in rules and not isinstance(rules["jaffar_chain"], bool):
        out.append(f"{name}.rules.jaffar_chain: must be true or false")
    scenario_ids = [s.get("id") for s in scenarios]
    if len(set(scenario_ids)) != len(scenario_ids):
        out.append(f"{name}: scenario ids repeat: {scenario_ids}")
    for kind, ids in (
        ("Budge card", [b.get("id") for s in scenarios for b in s.get("budge", [])]),
        ("event", [e.get("id") for s in scenarios for e in events(s)]),
        ("challenge", [c.get("id") for s in scenarios for c in challenges(s)]),
    ):
        repeated = [i for i, n in Counter(ids).items() if n > 1]
        if repeated:
            out.append(f"{name}: {kind} ids used twice: {repeated}")
    # Events after the final challenge are read after Sinbad has won (S15f): narration only.
    if scenarios:
        last = scenarios[-1].get("steps", [])
        tail_start = max((i for i, s in enumerate(last) if s.get("kind") == "challenge"),
                         default=len(last))
        for step in last[tail_start + 1:]:
            for e in step.get("effects", []):
                if set(e) != {"say"}:
                    out.append(f"{name}: event {step.get('id')!r} comes after the final "
                               f"challenge, so only 'say' means anything there, got {e!r}")
    return out


# ---------------------------------------------------------------------------------------------
# The real files


def all_scenario_files() -> list[Path]:
    return sorted(p for p in SCENARIOS.rglob("*.toml") if p.parent != SCENARIOS)


def test_there_are_files() -> None:
    assert (SCENARIOS / "seven-seas.toml").is_file()
    assert (SCENARIOS / "quick.toml").is_file()
    assert len(all_scenario_files()) >= 7


@pytest.mark.parametrize("path", sorted(SCENARIOS.rglob("*.toml")), ids=lambda p: p.name)
def test_every_file_parses(path: Path) -> None:
    load(path)


def test_every_scenario_file_belongs_to_a_campaign() -> None:
    used = {p.resolve() for c in campaign_files() for p in scenario_files_of(c)}
    for path in all_scenario_files():
        assert path.resolve() in used, f"{path} is in no campaign"


@pytest.mark.parametrize("path", campaign_files(), ids=lambda p: p.name)
def test_campaign_files_point_at_existing_scenarios(path: Path) -> None:
    for scn in scenario_files_of(path):
        assert scn.is_file(), f"{path.name} names {scn}, which does not exist"


@pytest.mark.parametrize("path", all_scenario_files(), ids=lambda p: p.name)
def test_scenario_content(path: Path) -> None:
    assert problems_in_scenario(load(path), path.name) == []


@pytest.mark.parametrize("path", campaign_files(), ids=lambda p: p.name)
def test_campaign_content(path: Path) -> None:
    scenarios = [load(p) for p in scenario_files_of(path)]
    assert problems_in_campaign(load(path), scenarios, path.name) == []


def test_ids_are_unique_across_all_campaigns() -> None:
    # Budge ids are printed as QR codes ("budge:<id>"), so two campaigns must not share one.
    files = all_scenario_files()
    budge = Counter(b["id"] for p in files for b in load(p).get("budge", []))
    event = Counter(e["id"] for p in files for e in events(load(p)))
    assert [i for i, n in budge.items() if n > 1] == []
    assert [i for i, n in event.items() if n > 1] == []


def seven_seas() -> list[Toml]:
    return [load(p) for p in scenario_files_of(SCENARIOS / "seven-seas.toml")]


def test_seven_seas_size() -> None:
    camp = load(SCENARIOS / "seven-seas.toml")
    assert camp["id"] == "seven-seas"
    scns = seven_seas()
    assert len(scns) >= 6
    assert sum(len(challenges(s)) for s in scns) >= 14
    for s in scns:
        assert 1 <= len(challenges(s)) <= 3, s["id"]


def test_seven_seas_follows_the_film() -> None:
    # FILM.md's episodes in order: Basra first, the return to Basra (and Jaffar) last.
    scns = seven_seas()
    assert scns[0]["id"] == "basra"
    assert challenges(scns[-1])[-1]["id"] == "jaffar"
    assert "asleep" in " ".join(str(e) for e in events(scns[-1])[-1]["effects"]).lower()


def test_seven_seas_has_shortcuts_and_mixed_paths() -> None:
    scns = seven_seas()
    assert sum(is_shortcut(e) for s in scns for e in events(s)) >= 2
    for s in scns:
        mixed = [p for c in challenges(s) for p in c["paths"] if len(set(p["need"])) > 1]
        assert mixed, f"{s['id']} has no mixed path"


def test_seven_seas_budge_cards_cover_the_vocabulary() -> None:
    kinds = {effect_kind(e) for s in seven_seas() for b in s["budge"] for e in b["effects"]}
    wanted = {"sleep+", "draw", "take", "jaffar_skip", "path_delta-",
              "sleep-", "discard", "lose_turn", "jaffar_extra", "scoreboard=winning",
              "path_delta+"}
    assert wanted - kinds == set()


def test_every_scenario_with_several_challenges_offers_a_choice_of_budge() -> None:
    # Not all good, not all bad: the player's choice of order should matter somewhere.
    for s in seven_seas():
        signs = [{effect_sign(e) for e in b["effects"]} for b in s["budge"]]
        if len(signs) >= 2:
            assert len({frozenset(x) for x in signs}) > 1, s["id"]
    all_signs = Counter(effect_sign(e) for s in seven_seas() for b in s["budge"]
                        for e in b["effects"])
    assert all_signs["good"] >= 4 and all_signs["bad"] >= 4


def test_events_are_a_mix_of_good_and_bad() -> None:
    signs = Counter(effect_sign(e) for s in seven_seas() for ev in events(s)
                    for e in ev["effects"])
    assert signs["good"] >= 3 and signs["bad"] >= 3


def test_seven_seas_stays_short_enough_to_win() -> None:
    # Balance aim until the simulator tunes it: the easiest path of each challenge is 2..4
    # cards, and the whole campaign's easiest route stays moderate.
    easiest = [min(len(p["need"]) for p in c["paths"]) for s in seven_seas()
               for c in challenges(s)]
    assert all(2 <= n <= 4 for n in easiest)
    assert sum(easiest) <= 3 * len(easiest)


def test_quick_game_is_small() -> None:
    camp = load(SCENARIOS / "quick.toml")
    scns = [load(p) for p in scenario_files_of(SCENARIOS / "quick.toml")]
    assert camp["id"] == "quick" and len(scns) == 1
    (scn,) = scns
    assert len(challenges(scn)) == 2
    assert len(events(scn)) == 1
    for c in challenges(scn):
        lengths = sorted(len(p["need"]) for p in c["paths"])
        # At least 3: two cards can be played in one Losing turn, so a 2-card path would be
        # over before the table has read its text.
        assert 3 <= lengths[0] and lengths[-1] <= 5, c["id"]


def test_companion_check_accepts_every_file() -> None:
    result = subprocess.run([sys.executable, "-m", "companion", "check", "scenarios/"],
                            cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr


# ---------------------------------------------------------------------------------------------
# The rules themselves can fail: broken copies of a real scenario


@pytest.fixture
def basra() -> Toml:
    return load(SCENARIOS / "seven-seas" / "01-basra.toml")


def first_challenge(scn: Toml) -> Toml:
    return challenges(scn)[0]


def test_rule_same_path_lengths(basra: Toml) -> None:
    ch = first_challenge(basra)
    ch["paths"][1]["need"] = ch["paths"][0]["need"][:]
    ch["paths"][1]["flavor"] = ch["paths"][0]["flavor"][:]
    assert any("same length" in p for p in problems_in_scenario(basra))


def test_rule_flavor_per_step(basra: Toml) -> None:
    first_challenge(basra)["paths"][0]["flavor"].pop()
    assert any("one line per step" in p for p in problems_in_scenario(basra))


def test_rule_done_line(basra: Toml) -> None:
    del first_challenge(basra)["paths"][0]["done"]
    assert any(p.endswith(".done: missing or empty text") for p in problems_in_scenario(basra))


def test_rule_antics_never_fill_a_path(basra: Toml) -> None:
    first_challenge(basra)["paths"][0]["need"][0] = "antics"
    assert any("not muscle, friends or luck" in p for p in problems_in_scenario(basra))


def test_rule_path_count(basra: Toml) -> None:
    ch = first_challenge(basra)
    ch["paths"] = ch["paths"][:1]
    assert any("a challenge has 2 to 4" in p for p in problems_in_scenario(basra))


def test_rule_budge_count(basra: Toml) -> None:
    basra["budge"].pop()
    assert any("Budge cards for" in p for p in problems_in_scenario(basra))


def test_rule_unknown_effect(basra: Toml) -> None:
    basra["budge"][0]["effects"] = [{"teleport": 1}]
    assert any("unknown effect key" in p for p in problems_in_scenario(basra))


def test_rule_two_keys_in_one_effect(basra: Toml) -> None:
    basra["budge"][0]["effects"] = [{"sleep": 1, "draw": 1}]
    assert any("exactly one key" in p for p in problems_in_scenario(basra))


def test_rule_bad_effect_value(basra: Toml) -> None:
    basra["budge"][0]["effects"] = [{"take": ["swords"]}]
    assert any("bad value for take" in p for p in problems_in_scenario(basra))


def test_rule_shortcut_must_name_next_challenge_path(basra: Toml) -> None:
    shortcut = next(e for e in events(basra) if is_shortcut(e))
    shortcut["effects"] = [{"path_delta": {"path": "no-such-path", "steps": -1}}]
    assert any("not a path of the next challenge" in p for p in problems_in_scenario(basra))


def test_rule_budge_path_delta_needs_a_path_everywhere(basra: Toml) -> None:
    basra["budge"][0]["effects"] = [{"path_delta": {"path": "luck", "steps": -1}}]
    assert any("not a path of every challenge" in p for p in problems_in_scenario(basra))


def test_rule_long_line(basra: Toml) -> None:
    basra["intro"] = "BASRA! " * 30
    assert any("keep it under" in p for p in problems_in_scenario(basra))


def test_rule_kebab_ids(basra: Toml) -> None:
    basra["budge"][0]["id"] = "Mother_Reads"
    assert any("kebab-case" in p for p in problems_in_scenario(basra))


def test_rule_duplicate_ids_across_scenarios(basra: Toml) -> None:
    other = copy.deepcopy(basra)
    other["id"] = "basra-again"
    camp = {"id": "x", "title": "X", "scenarios": []}
    found = problems_in_campaign(camp, [basra, other])
    assert any("Budge card ids used twice" in p for p in found)
    assert any("event ids used twice" in p for p in found)


def test_rule_effects_after_the_final_challenge(basra: Toml) -> None:
    basra["steps"].append({"kind": "event", "id": "too-late", "text": "Too late.",
                           "effects": [{"sleep": 1}]})
    camp = {"id": "x", "title": "X", "scenarios": []}
    assert any("after the final challenge" in p for p in problems_in_campaign(camp, [basra]))
