"""Game records of Aladdin: the line vocabulary, headers, the round trip (write a record,
replay it, same state), the README's worked example, and bad lines refused with their line
number and ruling (A1..A8)."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path
from typing import Any

import pytest
from aladdin_helpers import make_table

from companion.aladdin import AladdinLineError, Deal, action_from_line, action_to_line
from companion.aladdin.record import AladdinHeader, parse_header, record_text, write_record
from companion.aladdin.record import replay as replay_aladdin
from companion.aladdin.sim import simulate
from companion.aladdin.state import AladdinState
from companion.record import RecordError

README = Path(__file__).resolve().parents[2] / "companion" / "aladdin" / "README.md"

EVERY_KIND: list[dict[str, Any]] = [
    {"draw": "pile"}, {"draw": "discard"}, {"draw": "pile", "card": "abu-red-1"},
    {"discard": "abu-red-1"}, {"lamp": "lamp-2"}, {"rub": 3, "face": "genie"},
    {"rub": 1, "face": "poof"}, {"ask": {"player": 2, "character": "rajah"}},
    {"give": "rajah-blue-1"}, {"keep": True, "return": "abu-green-2"}, {"keep": False},
    {"jafar": {"player": 3, "card": "jafar-1"}}, {"carpet": "carpet-1", "toss": "up"},
    {"carpet": "carpet-6", "toss": "down"},
    {"swap": {"player": 2, "take": "rajah-blue-1", "give": "abu-green-2"}},
    {"take_nothing": True}, {"take_nothing": True, "player": 2},
    {"shuffle": ["lamp-1", "abu-red-2"]},
]


def write(tmp_path: Path, lines: list[Any], name: str = "game.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("".join((json.dumps(x) if not isinstance(x, str) else x) + "\n"
                            for x in lines), encoding="utf-8")
    return path


HEADER = {"game": "aladdin", "players": ["Ann", "Ben", "Cy"], "rules": {"genies": 2}, "seed": 7}


@pytest.mark.parametrize("line", EVERY_KIND)
def test_every_line_kind_round_trips(line: dict[str, Any]) -> None:
    assert action_to_line(action_from_line(line)) == line


def test_qr_texts_in_lines_are_written_back_as_ids_and_extra_keys_ignored() -> None:
    action = action_from_line({"discard": "aladdin:abu-red-1", "t": 12.5, "by": "camera"})
    assert action_to_line(action) == {"discard": "abu-red-1"}


@pytest.mark.parametrize("line, words", [
    ({}, "exactly one of"), ({"draw": "pile", "discard": "abu-red-1"}, "exactly one of"),
    ([1], "JSON object"), ({"draw": "hand"}, "\"pile\" or \"discard\""),
    ({"rub": 5, "face": "genie"}, "1 to 4"), ({"rub": 2}, "face"),
    ({"rub": 2, "face": "djinn"}, "face"), ({"keep": True}, "giving one back"),
    ({"keep": "yes"}, "true or false"), ({"carpet": "carpet-1"}, "toss"),
    ({"ask": {"player": 0, "character": "abu"}}, "seat number"),
    ({"ask": {"player": 2, "character": "genie"}}, "one of aladdin"),
    ({"swap": {"player": 2, "take": "abu-red-1"}}, "not an Aladdin card"),
    ({"jafar": "jafar-1"}, "expected"), ({"shuffle": "all"}, "list of card ids"),
    ({"take_nothing": False}, "is true"), ({"discard": "abu-purple-1"}, "not an Aladdin"),
])
def test_malformed_lines_raise(line: object, words: str) -> None:
    with pytest.raises(AladdinLineError, match=re.escape(words)):
        action_from_line(line)


@pytest.mark.parametrize("ask", [{"player": 2, "character": "rajah-blue"},
                                 {"player": 2, "character": "rajah", "colour": "blue"},
                                 {"player": 2, "character": "rajah-blue-1"}])
def test_a4_a_wish_by_colour_is_refused_as_the_ruling(ask: dict[str, Any]) -> None:
    with pytest.raises(AladdinLineError, match="never a colour") as info:
        action_from_line({"ask": ask})
    assert info.value.ruling == "A4"


def test_record_round_trip_of_a_hand_played_game(tmp_path: Path) -> None:
    ben = ["sultan-red-1", "rajah-blue-1", "rajah-yellow-1", "jafar-1", "carpet-1"]
    t = make_table([["aladdin-green-1", "jasmine-green-1", "abu-green-1", "rajah-green-1",
                     "lamp-1"], ben, ["aladdin-red-1", "jasmine-red-1", "abu-red-1", "jafar-2",
                                      "carpet-2"]], genies=3)
    t.do({"draw": "pile"}, {"lamp": "lamp-1"}, {"jafar": {"player": 2, "card": "jafar-1"}},
         {"rub": 1, "face": "genie"}, {"ask": {"player": 3, "character": "abu"}},
         {"give": "abu-red-1"}, {"keep": True, "return": "carpet-1"},
         {"rub": 4, "face": "poof"}, {"draw": "pile"}, {"carpet": "carpet-2", "toss": "up"},
         {"swap": {"player": 1, "take": "abu-green-1", "give": "aladdin-red-1"}})
    header = AladdinHeader(t.state.players, Deal(t.start.hands, t.start.draw), t.game.rules)
    path = tmp_path / "hand.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in [header.as_line()] + t.lines),
                    encoding="utf-8")
    game, state = replay_aladdin(path)
    assert state == t.state and game.rules.genies == 3
    assert game.public(state) == t.public and state.turn == 3


@pytest.mark.parametrize("seed", range(8))
def test_record_round_trip_of_simulated_games(tmp_path: Path, seed: int) -> None:
    sim = simulate(players=2 + seed % 5, seed=seed, genies=1 + seed % 3)
    path = tmp_path / f"sim{seed}.jsonl"
    write_record(path, sim.header, sim.actions)
    game, state = replay_aladdin(path)
    assert state == sim.final
    assert json.loads(json.dumps(game.public(state))) == game.public(state)
    if sim.final.over:
        assert game.public(state)["winner"] == sim.final.winner


def test_a_seed_alone_stands_for_its_deal(tmp_path: Path) -> None:
    sim = simulate(players=3, seed=4)
    seeded = AladdinHeader(("Ann", "Ben", "Cy"), Deal.from_seed(3, 7), seed=7)
    assert "deal" not in seeded.as_line(with_deal=False)
    text = record_text(seeded, [])
    (tmp_path / "s.jsonl").write_text(text, encoding="utf-8")
    _, state = replay_aladdin(tmp_path / "s.jsonl")
    assert state.hands == tuple(tuple(sorted(h)) for h in Deal.from_seed(3, 7).hands)
    assert sim.header.as_line()["deal"] == sim.header.deal.to_json()


def test_the_readme_worked_example_replays_to_the_state_it_shows(tmp_path: Path) -> None:
    text = README.read_text(encoding="utf-8")
    record = re.search(r"```jsonl\n(.*?)```", text, re.S)
    shown = re.search(r"It prints:\n\n```json\n(.*?)```", text, re.S)
    assert record and shown
    path = tmp_path / "example.jsonl"
    path.write_text(record.group(1), encoding="utf-8")
    game, state = replay_aladdin(path)
    assert game.public(state) == json.loads(shown.group(1))


def refused_at(path: Path) -> RecordError:
    with pytest.raises(RecordError) as info:
        replay_aladdin(path)
    return info.value


def test_bad_lines_name_the_line_and_the_ruling(tmp_path: Path) -> None:
    cases: list[tuple[list[Any], int, str | None, str]] = [
        ([HEADER, {"draw": "discard"}], 2, "A3", "discard pile is empty"),
        ([HEADER, {"draw": "pile"}, {"discard": "abu-blue-2"}, {"draw": "pile"},
          {"discard": "sultan-green-2"}], 5, "A3", "does not hold"),
        ([HEADER, {"draw": "pile"}, {"discard": "abu-blue-2"}, {"draw": "discard"},
          {"lamp": "lamp-7"}, {"rub": 1, "face": "genie"},
          {"ask": {"player": 1, "character": "aladdin-green"}}], 7, "A4", "never a colour"),
        ([HEADER, {"draw": "pile"}, {"discard": "abu-blue-2"}, {"draw": "pile"},
          {"lamp": "lamp-7"}, {"jafar": {"player": 1, "card": "jafar-1"}}], 6, "A5",
         "does not hold"),
        ([HEADER, {"draw": "pile"}, {"carpet": "carpet-4", "toss": "up"}], 3, "A6",
         "does not hold"),
        ([HEADER, {"shuffle": []}], 2, "A7", "still has"),
        ([HEADER, {"draw": "pile"}, {"dance": True}], 3, None, "exactly one of"),
        ([HEADER, {"draw": "pile"}, "{not json"], 3, None, "not valid JSON"),
        ([{**HEADER, "rules": {"genies": 4}}], 1, "A2", "1, 2 or 3"),
        ([{**HEADER, "rules": {"jaffar_chain": True}}], 1, "A2", "unknown house rule"),
        ([{**HEADER, "game": "sinbad"}], 1, None, "must be \"aladdin\""),
        ([{**HEADER, "players": ["Solo"]}], 1, "A1", "2 to 6"),
        ([{"game": "aladdin", "players": ["Ann", "Ben"]}], 1, "A1", "\"deal\" or the \"seed\""),
        ([{**HEADER, "deal": Deal.from_seed(3, 8).to_json()}], 1, "A1", "not the deal of"),
        ([{**HEADER, "seed": "seven"}], 1, None, "whole number"),
    ]
    for number, (lines, line_no, ruling, words) in enumerate(cases):
        error = refused_at(write(tmp_path, lines, f"bad{number}.jsonl"))
        assert (error.line_no, error.ruling) == (line_no, ruling), (lines, error)
        assert words in error.message, error.message
        assert str(error).startswith(f"line {line_no}: ")


def test_lines_after_the_win_are_refused_by_a8(tmp_path: Path) -> None:
    sim = next(s for s in (simulate(players=2, seed=k) for k in range(20)) if s.final.over)
    path = tmp_path / "won.jsonl"
    write_record(path, sim.header, sim.actions)
    with path.open("a", encoding="utf-8") as out:
        out.write(json.dumps({"draw": "pile"}) + "\n")
    error = refused_at(path)
    assert (error.line_no, error.ruling) == (len(sim.actions) + 2, "A8")


def test_an_empty_or_missing_record_is_refused(tmp_path: Path) -> None:
    (tmp_path / "empty.jsonl").write_text("\n", encoding="utf-8")
    assert "empty" in refused_at(tmp_path / "empty.jsonl").message
    assert "no such file" in refused_at(tmp_path / "nope.jsonl").message


def test_header_extra_keys_are_kept() -> None:
    header = parse_header({**HEADER, "table": "kitchen"})
    assert header.extra == {"table": "kitchen"} and header.as_line()["table"] == "kitchen"


def test_replayed_states_are_frozen(tmp_path: Path) -> None:
    _, state = replay_aladdin(write(tmp_path, [HEADER, {"draw": "pile"}]))
    assert isinstance(state, AladdinState)
    with pytest.raises(dataclasses.FrozenInstanceError):
        state.turn = 9  # type: ignore[misc]
