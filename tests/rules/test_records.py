"""Game records and `companion replay` (FORMATS.md "Game record"): the worked examples, golden
records with their expected states, and refusals that name the line and the ruling."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.record import RecordError, replay
from companion.sinbad import action_from_line, action_to_line

REPO = Path(__file__).resolve().parents[2]
RECORDS = REPO / "tests" / "data" / "records"


def run_replay(record: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion", "replay", str(record)],
                          capture_output=True, text=True, cwd=REPO, timeout=60)


@pytest.mark.parametrize("name", ["tiny-midgame", "tiny-win"])
def test_shared_examples_replay_to_their_expected_state(shared_dir: Path, name: str) -> None:
    examples = shared_dir / "examples"
    run = run_replay(examples / f"{name}.jsonl")
    assert run.returncode == 0, run.stderr
    got = json.loads(run.stdout)
    want = json.loads((examples / f"{name}.expected.json").read_text())
    assert {k: got.get(k) for k in want} == want


@pytest.mark.parametrize("name", ["midgame", "sinbad-wins", "jaffar-wins", "draw"])
def test_golden_records(name: str) -> None:
    game, state = replay(RECORDS / f"{name}.jsonl")
    want = json.loads((RECORDS / f"{name}.expected.json").read_text())
    assert game.public(state) == want


def test_golden_results_cover_every_ending() -> None:
    results = {json.loads((RECORDS / f"{n}.expected.json").read_text())["result"]
               for n in ("midgame", "sinbad-wins", "jaffar-wins", "draw")}
    assert results == {None, "sinbad", "jaffar", "draw"}


@pytest.mark.parametrize(("name", "line", "ruling"), [
    ("refused-after-end", 6, "S12"),
    ("refused-wrong-path", 3, "S8b"),
])
def test_refused_records_exit_1_naming_line_and_ruling(name: str, line: int, ruling: str) -> None:
    run = run_replay(RECORDS / f"{name}.jsonl")
    assert run.returncode == 1
    assert run.stdout == ""
    assert f"line {line}:" in run.stderr and ruling in run.stderr


def test_malformed_lines_name_the_line(tmp_path: Path) -> None:
    header = json.dumps({"game": "sinbad", "campaign": str(RECORDS / "golden-campaign.toml")})
    cases = {
        '{"jaffar": ["ZZ"]}': "not a card code",
        '{"jaffar": ["3S"], "sinbad": {}}': "exactly one",
        '{"jaffar": "3S"}': "list of card codes",
        "[1, 2]": "JSON object",
        '{"jaffar": ["3S"': "not valid JSON",
    }
    for bad, words in cases.items():
        record = tmp_path / "r.jsonl"
        record.write_text(header + "\n" + bad + "\n")
        with pytest.raises(RecordError) as info:
            replay(record)
        assert info.value.line_no == 2 and words in str(info.value), str(info.value)


def test_sinbad_line_malformed_bodies(tmp_path: Path) -> None:
    for body, words in [({"action": "fly"}, "one of draw"),
                        ({"action": "draw", "count": 3}, "1 or 2"),
                        ({"action": "play", "cards": []}, "needs \"cards\""),
                        ({"action": "play", "cards": ["2C", "3C", "4C"]}, "at most 2"),
                        ({"action": "trade", "give": "2C"}, "\"give\" and to \"take\"")]:
        with pytest.raises(ValueError, match=words):
            action_from_line({"sinbad": body})


def test_header_problems(tmp_path: Path) -> None:
    record = tmp_path / "r.jsonl"
    for header, words in [({"game": "chess", "campaign": "x"}, "\"game\" must be"),
                          ({"game": "sinbad"}, "campaign"),
                          ({"game": "sinbad", "campaign": "nowhere.toml"}, "no such file"),
                          ({"game": "sinbad", "campaign": str(RECORDS / "golden-campaign.toml"),
                            "bank": ["2C"] * 8}, "2 of each suit")]:
        record.write_text(json.dumps(header) + "\n")
        with pytest.raises(RecordError, match=words):
            replay(record)
    with pytest.raises(RecordError, match="no such file"):
        replay(tmp_path / "absent.jsonl")
    (tmp_path / "empty.jsonl").write_text("\n")
    with pytest.raises(RecordError, match="empty"):
        replay(tmp_path / "empty.jsonl")


def test_the_cli_reports_unreadable_records_without_a_traceback(tmp_path: Path) -> None:
    run = run_replay(tmp_path / "absent.jsonl")
    assert run.returncode == 1 and "no such file" in run.stderr
    assert "Traceback" not in run.stderr


def test_lines_round_trip_through_actions() -> None:
    for path in sorted(RECORDS.glob("*.jsonl")):
        for raw in path.read_text().splitlines()[1:]:
            line = json.loads(raw)
            try:
                action = action_from_line(line)
            except ValueError:
                continue
            again = action_to_line(action)
            assert action_from_line(again) == action


def test_replay_routes_aladdin_records() -> None:
    run = run_replay(RECORDS / "aladdin-example.jsonl")
    assert run.returncode == 0, run.stderr
    state = json.loads(run.stdout)
    assert state["game"] == "aladdin" and state["turn"] == 5 and state["draw_pile"] == 38
    assert state["discard_top"] == "lamp-2" and state["winner"] is None
