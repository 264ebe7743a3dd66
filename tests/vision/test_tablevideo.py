"""End to end: a scripted game rendered as a table video, read back by watch_events."""

from __future__ import annotations

import json
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.board import load_layout
from vision.tablevideo import (
    ScriptError,
    TableRenderer,
    TableVideoConfig,
    example_script,
    main,
    parse_script,
    render_video,
)
from vision.watch import watch_events


def key(e: dict[str, object]) -> tuple[object, ...]:
    return (e["event"], e.get("card") or e.get("code"), e["zone"])


def test_the_watcher_recovers_the_scripted_events_from_the_rendered_video(
    tmp_path: Path,
) -> None:
    cv2.setNumThreads(1)
    script = example_script()
    video = tmp_path / "table.avi"
    start = time.perf_counter()
    renderer = render_video(script, video, config=TableVideoConfig(fps=4.0, seed=3))
    rendered = time.perf_counter() - start
    assert renderer.hands, "the video must have hands passing over the table"
    start = time.perf_counter()
    got = list(watch_events(str(video)))
    watched = time.perf_counter() - start
    truth = [e.to_json() for e in script]
    print(f"\nrendered {renderer.frame_count} frames in {rendered:.1f} s; watched in "
          f"{watched:.1f} s ({renderer.frame_count / watched:.1f} frames/s)")
    for g in got:
        print("   ", json.dumps(g))
    # Same cards, same zones, same order.
    assert [key(e) for e in got] == [key(e) for e in truth]
    # Each event is reported after it happened, within the stabilizer's delay plus the time
    # the hand that laid the card keeps covering it.
    delays = [float(str(g["t"])) - float(str(e["t"])) for g, e in zip(got, truth, strict=True)]
    print(f"    delays: {', '.join(f'{d:.2f}' for d in delays)} s")
    assert all(0.0 <= d <= 2.5 for d in delays), delays
    for g in got:
        if "card" in g and g["event"] == "placed":
            assert 0.0 < float(str(g["confidence"])) <= 1.0


def test_rendering_is_deterministic_and_shows_the_scripted_cards() -> None:
    script = example_script()[:3]
    a = TableRenderer(script, config=TableVideoConfig(seed=5, width=480, height=360))
    b = TableRenderer(script, config=TableVideoConfig(seed=5, width=480, height=360))
    assert np.array_equal(a.frame(17), b.frame(17))
    assert [p.value for p in a.state_at(4.5)] == ["event:shipwreck", "7C",
                                                  "budge:swallow-guide"]
    assert a.state_at(0.5) == ()


@pytest.mark.parametrize(("lines", "message"), [
    (['{"t": 1, "event": "removed", "card": "QH", "zone": "path:1"}'],
     "x.jsonl:1: QH is not on the table in zone path:1"),
    (['{"t": 1, "event": "placed", "card": "QH", "zone": "path:9"}'],
     "x.jsonl:1: zone: expected one of"),
    (['{"t": 2, "event": "placed", "card": "QH", "zone": "path:1"}',
      '{"t": 1, "event": "placed", "card": "2S", "zone": "path:2"}'],
     "x.jsonl:2: t 1 comes before the previous event's 2.0"),
    (['{"t": 1, "event": "placed", "card": "ZZ", "zone": "path:1"}'], "not a card code"),
    (['{"t": 1, "event": "placed", "zone": "path:1"}'], "give exactly one of 'card'"),
    (['{"t": 1, "event": "moved", "card": "QH", "zone": "path:1"}'], "event: expected"),
    (['{"t": 1, "event": "placed", "card": "QH", "zone": "path:1"}',
      '{"t": 2, "event": "placed", "card": "qh", "zone": "bank"}'],
     "x.jsonl:2: QH is already on the table (zone path:1)"),
    (["not json"], "x.jsonl:1: not JSON"),
    ([""], "x.jsonl: no events"),
])
def test_scripts_the_renderer_cannot_play_are_refused(lines: list[str], message: str) -> None:
    with pytest.raises(ScriptError) as err:
        parse_script(lines, "x.jsonl", load_layout())
    assert message in str(err.value)


def test_the_command_writes_an_example_and_renders_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    events, out = tmp_path / "events.jsonl", tmp_path / "out.avi"
    assert main([str(events), "--example"]) == 0
    assert [json.loads(x) for x in events.read_text().splitlines()] == [
        e.to_json() for e in example_script()]
    events.write_text("\n".join(events.read_text().splitlines()[:2]) + "\n")
    assert main([str(events), str(out), "--size", "320x240", "--fps", "2", "--no-hands"]) == 0
    cap = cv2.VideoCapture(str(out))
    n = int(cap.get(cv2.CAP_PROP_FRAME_COUNT))
    cap.release()
    assert n == 10  # 2.5 s + 2.5 s tail at 2 frames/s
    capsys.readouterr()
    assert main([str(tmp_path / "none.jsonl"), str(out)]) == 2
    assert "no such events file" in capsys.readouterr().err
    assert main([str(events), str(out), "--size", "big"]) == 2
    assert "--size big" in capsys.readouterr().err
