"""Scenario and campaign files (FORMATS.md "Scenario and campaign files") as typed values.

A file that breaks the format is refused with one :class:`ScenarioError` naming the file, the
key path (``steps[2].paths[0].need[1]``) and the bad value.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path as FsPath
from typing import Any

from companion.cards import Suit

PATH_RESOURCES = ("muscle", "friends", "luck")
"""Resources a path may need. Antics (spades) always go to the bank, so no path can need them."""

EFFECT_KEYS = (
    "sleep", "scoreboard", "draw", "discard", "take", "lose_turn",
    "jaffar_skip", "jaffar_extra", "path_delta", "say",
)
SCOREBOARD_STATES = ("losing", "winning")


class ScenarioError(ValueError):
    """A scenario or campaign file that breaks FORMATS.md."""

    def __init__(self, file: str, key_path: str, value: object, reason: str) -> None:
        self.file = file
        self.key_path = key_path
        self.value = value
        self.reason = reason
        where = f"{file}: {key_path}" if key_path else file
        shown = "" if value is _NO_VALUE else f" (got {_show(value)})"
        super().__init__(f"{where}: {reason}{shown}")


class _NoValue:
    def __repr__(self) -> str:
        return "<missing>"


_NO_VALUE: Any = _NoValue()


def _show(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


# ---------------------------------------------------------------------------------------------
# Values


@dataclass(frozen=True)
class Effect:
    """One effect of the S13 vocabulary. ``amount`` carries the number of n-valued effects."""

    kind: str
    amount: int = 0
    suits: tuple[Suit, ...] = ()
    path: str | None = None
    text: str = ""
    scoreboard: str = ""

    def describe(self) -> str:
        """A short phrase a player understands: ``sleep +1``, ``Sinbad draws 2``."""
        match self.kind:
            case "sleep":
                return f"sleep {self.amount:+d}"
            case "scoreboard":
                return f"Jaffar is {self.scoreboard}"
            case "draw":
                return f"Sinbad draws {self.amount}"
            case "discard":
                return f"Sinbad discards {self.amount} to the bank"
            case "take":
                return "Sinbad takes " + ", ".join(s.word for s in self.suits) + " from the bank"
            case "lose_turn":
                return "Sinbad loses a turn"
            case "jaffar_skip":
                return "Jaffar skips his next phase"
            case "jaffar_extra":
                return f"Jaffar plays {self.amount} extra"
            case "path_delta":
                return f"path {self.path} {self.amount:+d} step(s)"
            case _:
                return self.text


@dataclass(frozen=True)
class Path:
    id: str
    need: tuple[Suit, ...]
    flavor: tuple[str, ...] = ()
    done: str = ""

    def flavor_line(self, step: int) -> str:
        """The flavor line for the ``step``-th card (0-based); empty when the author wrote none."""
        return self.flavor[step] if step < len(self.flavor) else ""


@dataclass(frozen=True)
class Challenge:
    id: str
    title: str
    text: str
    paths: tuple[Path, ...]
    kind: str = "challenge"

    def path(self, path_id: str) -> Path | None:
        return next((p for p in self.paths if p.id == path_id), None)


@dataclass(frozen=True)
class Event:
    id: str
    text: str
    effects: tuple[Effect, ...] = ()
    kind: str = "event"


Step = Challenge | Event


@dataclass(frozen=True)
class BudgeCard:
    id: str
    title: str
    text: str
    effects: tuple[Effect, ...] = ()


@dataclass(frozen=True)
class Scenario:
    id: str
    title: str
    intro: str
    steps: tuple[Step, ...]
    budge: tuple[BudgeCard, ...]
    source: str = ""

    @property
    def challenges(self) -> tuple[Challenge, ...]:
        return tuple(s for s in self.steps if isinstance(s, Challenge))

    def budge_card(self, budge_id: str) -> BudgeCard | None:
        return next((b for b in self.budge if b.id == budge_id), None)


@dataclass(frozen=True)
class Rules:
    """House-rule switches (RULINGS.md variants). Defaults are the rulings' defaults."""

    jaffar_chain: bool = False
    genies: int = 2

    def with_overrides(self, overrides: Mapping[str, object], where: str = "rules") -> Rules:
        """These rules with ``overrides`` applied (S15l); unknown switches are ignored."""
        values: dict[str, Any] = {"jaffar_chain": self.jaffar_chain, "genies": self.genies}
        if "jaffar_chain" in overrides:
            chain = overrides["jaffar_chain"]
            if not isinstance(chain, bool):
                raise ScenarioError(where, "jaffar_chain", chain, "must be true or false")
            values["jaffar_chain"] = chain
        if "genies" in overrides:
            genies = overrides["genies"]
            if not isinstance(genies, int) or isinstance(genies, bool) or not 1 <= genies <= 3:
                raise ScenarioError(where, "genies", genies, "must be a whole number from 1 to 3")
            values["genies"] = genies
        return Rules(**values)

    def as_dict(self) -> dict[str, object]:
        return {"jaffar_chain": self.jaffar_chain, "genies": self.genies}


@dataclass(frozen=True)
class Campaign:
    id: str
    title: str
    scenarios: tuple[Scenario, ...]
    start_sleep: int = 10
    start_scoreboard: str = "losing"
    rules: Rules = field(default_factory=Rules)
    source: str = ""

    @property
    def challenge_count(self) -> int:
        return sum(len(s.challenges) for s in self.scenarios)


# ---------------------------------------------------------------------------------------------
# Loading


class _Reader:
    """Typed access to one parsed TOML document, raising ScenarioError with key paths."""

    def __init__(self, file: str) -> None:
        self.file = file

    def fail(self, key_path: str, value: object, reason: str) -> ScenarioError:
        return ScenarioError(self.file, key_path, value, reason)

    def table(self, data: object, key_path: str) -> Mapping[str, Any]:
        if not isinstance(data, Mapping):
            raise self.fail(key_path, data, "must be a table")
        return data

    def string(self, data: Mapping[str, Any], key: str, where: str, *,
               required: bool = True, default: str = "", nonempty: bool = False) -> str:
        path = _join(where, key)
        if key not in data:
            if required:
                raise self.fail(path, _NO_VALUE, "is missing")
            return default
        value = data[key]
        if not isinstance(value, str):
            raise self.fail(path, value, "must be a string")
        if nonempty and not value.strip():
            raise self.fail(path, value, "must not be empty")
        return value

    def ident(self, data: Mapping[str, Any], key: str, where: str) -> str:
        value = self.string(data, key, where, nonempty=True)
        if any(ch.isspace() for ch in value) or ":" in value:
            raise self.fail(_join(where, key), value,
                            "an id may not contain spaces or ':' (it is printed in QR codes)")
        return value

    def integer(self, value: object, key_path: str, *, low: int | None = None,
                high: int | None = None) -> int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise self.fail(key_path, value, "must be a whole number")
        if low is not None and value < low:
            raise self.fail(key_path, value, f"must be at least {low}")
        if high is not None and value > high:
            raise self.fail(key_path, value, f"must be at most {high}")
        return value

    def array(self, data: Mapping[str, Any], key: str, where: str, *,
              required: bool = True) -> Sequence[Any]:
        path = _join(where, key)
        if key not in data:
            if required:
                raise self.fail(path, _NO_VALUE, "is missing")
            return ()
        value = data[key]
        if not isinstance(value, list):
            raise self.fail(path, value, "must be a list")
        return value


def _join(where: str, key: str) -> str:
    return f"{where}.{key}" if where else key


def _parse_toml(path: FsPath) -> Mapping[str, Any]:
    shown = str(path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise ScenarioError(shown, "", _NO_VALUE, "no such file") from None
    except OSError as exc:
        raise ScenarioError(shown, "", _NO_VALUE, f"cannot be read: {exc.strerror}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ScenarioError(shown, "", _NO_VALUE, "is not UTF-8 text") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(shown, "", _NO_VALUE, f"is not valid TOML: {exc}") from None


def _resource(reader: _Reader, value: object, key_path: str) -> Suit:
    if not isinstance(value, str):
        raise reader.fail(key_path, value, "must be a resource name such as \"muscle\"")
    try:
        suit = Suit.from_word(value)
    except ValueError:
        raise reader.fail(key_path, value, "unknown resource; use muscle, friends or luck "
                          "(or clubs, hearts, diamonds)") from None
    if suit is Suit.SPADES:
        raise reader.fail(key_path, value, "no path can need antics: antics always go to the bank")
    return suit


def _effects(reader: _Reader, data: Mapping[str, Any], where: str) -> tuple[Effect, ...]:
    items = reader.array(data, "effects", where, required=False)
    effects: list[Effect] = []
    for i, item in enumerate(items):
        item_path = f"{_join(where, 'effects')}[{i}]"
        table = reader.table(item, item_path)
        if not table:
            raise reader.fail(item_path, item, "an effect table needs one key, such as sleep = -1")
        for key, value in table.items():
            effects.append(_effect(reader, key, value, f"{item_path}.{key}"))
    return tuple(effects)


def _effect(reader: _Reader, key: str, value: object, key_path: str) -> Effect:
    match key:
        case "sleep":
            amount = reader.integer(value, key_path, low=-10, high=10)
            return Effect("sleep", amount=amount)
        case "scoreboard":
            if value not in SCOREBOARD_STATES:
                raise reader.fail(key_path, value, "must be \"winning\" or \"losing\"")
            return Effect("scoreboard", scoreboard=str(value))
        case "draw" | "discard" | "jaffar_extra":
            return Effect(key, amount=reader.integer(value, key_path, low=0, high=52))
        case "take":
            if not isinstance(value, list) or not value:
                raise reader.fail(key_path, value, "must be a list of suit names, "
                                  "such as [\"clubs\"]")
            suits: list[Suit] = []
            for j, word in enumerate(value):
                try:
                    suits.append(Suit.from_word(str(word)) if isinstance(word, str)
                                 else _bad_suit())
                except ValueError:
                    raise reader.fail(f"{key_path}[{j}]", word, "unknown suit; use clubs, "
                                      "diamonds, hearts or spades") from None
            return Effect("take", suits=tuple(suits))
        case "lose_turn" | "jaffar_skip":
            if value is not True:
                raise reader.fail(key_path, value, "must be true")
            return Effect(key)
        case "path_delta":
            table = reader.table(value, key_path)
            path_id = reader.string(table, "path", key_path, nonempty=True)
            if "steps" not in table:
                raise reader.fail(f"{key_path}.steps", _NO_VALUE, "is missing")
            steps = reader.integer(table["steps"], f"{key_path}.steps", low=-10, high=10)
            if steps == 0:
                raise reader.fail(f"{key_path}.steps", steps, "must not be 0")
            return Effect("path_delta", amount=steps, path=path_id)
        case "say":
            if not isinstance(value, str) or not value.strip():
                raise reader.fail(key_path, value, "must be narration text")
            return Effect("say", text=value)
        case _:
            raise reader.fail(key_path, value, "unknown effect; known effects are "
                              + ", ".join(EFFECT_KEYS))


def _bad_suit() -> Suit:
    raise ValueError("not a suit")


def _path(reader: _Reader, data: object, where: str) -> Path:
    table = reader.table(data, where)
    path_id = reader.ident(table, "id", where)
    need_raw = reader.array(table, "need", where)
    if not need_raw:
        raise reader.fail(_join(where, "need"), need_raw, "a path needs at least one card")
    need = tuple(_resource(reader, v, f"{where}.need[{i}]") for i, v in enumerate(need_raw))
    flavor_raw = reader.array(table, "flavor", where, required=False)
    flavor: list[str] = []
    for i, line in enumerate(flavor_raw):
        if not isinstance(line, str):
            raise reader.fail(f"{where}.flavor[{i}]", line, "must be a string")
        flavor.append(line)
    if flavor and len(flavor) != len(need):
        raise reader.fail(_join(where, "flavor"), flavor_raw,
                          f"needs one line per step: {len(need)} line(s), not {len(flavor)}")
    done = reader.string(table, "done", where, required=False)
    return Path(path_id, need, tuple(flavor), done)


def _step(reader: _Reader, data: object, where: str) -> Step:
    table = reader.table(data, where)
    kind = reader.string(table, "kind", where)
    if kind == "event":
        return Event(reader.ident(table, "id", where),
                     reader.string(table, "text", where, required=False),
                     _effects(reader, table, where))
    if kind == "challenge":
        challenge_id = reader.ident(table, "id", where)
        paths_raw = reader.array(table, "paths", where)
        if not paths_raw:
            raise reader.fail(_join(where, "paths"), paths_raw,
                              "a challenge needs at least one path")
        paths = tuple(_path(reader, p, f"{where}.paths[{i}]") for i, p in enumerate(paths_raw))
        seen: set[str] = set()
        for i, p in enumerate(paths):
            if p.id in seen:
                raise reader.fail(f"{where}.paths[{i}].id", p.id, "two paths share this id")
            seen.add(p.id)
        return Challenge(challenge_id,
                         reader.string(table, "title", where, required=False,
                                       default=challenge_id),
                         reader.string(table, "text", where, required=False),
                         paths)
    raise reader.fail(_join(where, "kind"), kind, "must be \"event\" or \"challenge\"")


def load_scenario(path: str | FsPath) -> Scenario:
    """Load and validate one scenario file."""
    fs_path = FsPath(path)
    reader = _Reader(str(path))
    data = _parse_toml(fs_path)
    return scenario_from_data(data, reader)


def scenario_from_data(data: Mapping[str, Any], reader: _Reader) -> Scenario:
    if "scenarios" in data and "steps" not in data:
        raise reader.fail("", _NO_VALUE, "this is a campaign file, not a scenario")
    scenario_id = reader.ident(data, "id", "")
    title = reader.string(data, "title", "", required=False, default=scenario_id)
    intro = reader.string(data, "intro", "", required=False)
    steps_raw = reader.array(data, "steps", "")
    steps = tuple(_step(reader, s, f"steps[{i}]") for i, s in enumerate(steps_raw))
    challenges = [s for s in steps if isinstance(s, Challenge)]
    if not challenges:
        raise reader.fail("steps", _NO_VALUE, "a scenario needs at least one challenge")
    step_ids: set[str] = set()
    for i, step in enumerate(steps):
        if step.id in step_ids:
            raise reader.fail(f"steps[{i}].id", step.id, "two steps share this id")
        step_ids.add(step.id)
    budge_raw = reader.array(data, "budge", "", required=False)
    budge: list[BudgeCard] = []
    for i, item in enumerate(budge_raw):
        where = f"budge[{i}]"
        table = reader.table(item, where)
        budge.append(BudgeCard(reader.ident(table, "id", where),
                               reader.string(table, "title", where, required=False),
                               reader.string(table, "text", where, required=False),
                               _effects(reader, table, where)))
    if len(budge) != len(challenges):
        raise reader.fail("budge", len(budge),
                          f"a scenario has one Budge card per challenge: {len(challenges)} "
                          f"challenge(s) need {len(challenges)} Budge card(s)")
    budge_ids: set[str] = set()
    for i, card in enumerate(budge):
        if card.id in budge_ids:
            raise reader.fail(f"budge[{i}].id", card.id, "two Budge cards share this id")
        budge_ids.add(card.id)
    # path_delta targets must exist (S15d): an event's, in the first challenge after it;
    # a Budge card's, in some challenge of the scenario (the one it begins is the player's choice).
    for i, step in enumerate(steps):
        if isinstance(step, Event):
            following = next((s for s in steps[i + 1:] if isinstance(s, Challenge)), None)
            for j, effect in enumerate(step.effects):
                if effect.kind != "path_delta":
                    continue
                if following is None or following.path(effect.path or "") is None:
                    target = following.id if following else "(none: no challenge follows)"
                    raise reader.fail(f"steps[{i}].effects[{j}].path_delta.path", effect.path,
                                      f"no such path in the next challenge {target}")
    all_paths = {p.id for c in challenges for p in c.paths}
    for i, card in enumerate(budge):
        for j, effect in enumerate(card.effects):
            if effect.kind == "path_delta" and effect.path not in all_paths:
                raise reader.fail(f"budge[{i}].effects[{j}].path_delta.path", effect.path,
                                  "no challenge of this scenario has such a path")
    return Scenario(scenario_id, title, intro, steps, tuple(budge), reader.file)


def load_campaign(path: str | FsPath) -> Campaign:
    """Load and validate a campaign file and every scenario it names."""
    fs_path = FsPath(path)
    reader = _Reader(str(path))
    data = _parse_toml(fs_path)
    if "steps" in data and "scenarios" not in data:
        raise reader.fail("", _NO_VALUE, "this is a scenario file, not a campaign "
                          "(a campaign lists its scenarios in `scenarios = [...]`)")
    campaign_id = reader.ident(data, "id", "")
    title = reader.string(data, "title", "", required=False, default=campaign_id)
    names = reader.array(data, "scenarios", "")
    if not names:
        raise reader.fail("scenarios", names, "a campaign needs at least one scenario")
    scenarios: list[Scenario] = []
    for i, name in enumerate(names):
        if not isinstance(name, str) or not name.strip():
            raise reader.fail(f"scenarios[{i}]", name, "must be a file path")
        target = FsPath(name)
        if not target.is_absolute():
            target = fs_path.parent / target
        if not target.is_file():
            raise reader.fail(f"scenarios[{i}]", name, f"no such scenario file ({target})")
        scenarios.append(load_scenario(target))
    seen: set[str] = set()
    for i, scenario in enumerate(scenarios):
        if scenario.id in seen:
            raise reader.fail(f"scenarios[{i}]", names[i], f"scenario id {scenario.id!r} is used "
                              "twice in this campaign")
        seen.add(scenario.id)
    start_sleep = 10
    if "start_sleep" in data:
        start_sleep = reader.integer(data["start_sleep"], "start_sleep", low=1, high=10)
    start_scoreboard = reader.string(data, "start_scoreboard", "", required=False,
                                     default="losing")
    if start_scoreboard not in SCOREBOARD_STATES:
        raise reader.fail("start_scoreboard", start_scoreboard,
                          "must be \"winning\" or \"losing\"")
    rules = Rules()
    if "rules" in data:
        rules = Rules().with_overrides(reader.table(data["rules"], "rules"), str(path))
    return Campaign(campaign_id, title, tuple(scenarios), start_sleep, start_scoreboard,
                    rules, str(path))


def load_any(path: str | FsPath) -> Campaign | Scenario:
    """Load a campaign or a scenario file, whichever it is."""
    data = _parse_toml(FsPath(path))
    if "scenarios" in data:
        return load_campaign(path)
    return scenario_from_data(data, _Reader(str(path)))


def single_scenario_campaign(scenario: Scenario) -> Campaign:
    """A campaign of one scenario, so that a lone scenario file can be played or simulated."""
    return Campaign(scenario.id, scenario.title, (scenario,), source=scenario.source)
