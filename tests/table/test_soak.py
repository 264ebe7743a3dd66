"""Soak: thousands of journaled actions (many short games, undo and redo bursts) with the
journal growing by a bounded amount per change and the process's memory staying flat."""

from __future__ import annotations

import gc
import os
import random
import time
from pathlib import Path

import pytest
from table_helpers import TINY, open_session, rss_kib

from companion.sinbad import Phase
from companion.table.demo import DemoConfig, DemoSinbad, demo_step
from companion.table.journal import Journal

ACTIONS = 3000


@pytest.mark.slow
def test_thousands_of_actions_stay_bounded(tmp_path: Path) -> None:
    s = open_session(tmp_path, TINY, seed=1)
    lazy = s.subscribe()                          # a subscriber that never reads
    rng = random.Random(5)
    sinbad = DemoSinbad(random.Random(6))
    config = DemoConfig()
    games = 1
    changes = 0
    baseline = 0
    started = time.perf_counter()
    while changes < ACTIONS:
        if s.state.phase is Phase.OVER:
            s.new_game(TINY, seed=games)
            sinbad = DemoSinbad(random.Random(games))
            games += 1
            continue
        demo_step(s, sinbad, config, source="soak")
        changes += 1
        if rng.random() < 0.2 and s.snapshot()["view"]["can_undo"]:
            steps = rng.randint(1, 3)
            for _ in range(steps):
                if s.snapshot()["view"]["can_undo"]:
                    s.undo(s.state_id)
                    changes += 1
            for _ in range(rng.randint(0, steps)):
                if s.snapshot()["view"]["can_redo"]:
                    s.redo(s.state_id)
                    changes += 1
            sinbad.sync(s.state)
        if changes >= 500 and not baseline:
            gc.collect()
            baseline = rss_kib()
    elapsed = time.perf_counter() - started
    gc.collect()
    growth = rss_kib() - baseline
    entries = s.journal.entry_count()
    size = os.path.getsize(tmp_path / Journal.FILE_NAME)
    wal = tmp_path / (Journal.FILE_NAME + "-wal")
    wal_size = os.path.getsize(wal) if wal.exists() else 0
    print(f"soak: {changes} changes in {games} games, {changes / elapsed:.0f} changes/s, "
          f"journal {size // 1024} KiB ({size / entries:.0f} B/entry) + WAL "
          f"{wal_size // 1024} KiB, RSS +{growth} KiB")
    assert games > 20
    assert entries >= ACTIONS
    assert size / entries < 300                  # bytes per journaled change
    # SQLite checkpoints the WAL every 1000 pages, so it stays near 4 MiB at most.
    assert wal_size < 6 * 1024 * 1024
    assert growth < 8 * 1024                     # KiB: flat, not growing with the history
    assert lazy.pending() <= s.config.subscriber_queue and lazy.dropped > 0
    lazy.close()
    s.close()


def test_a_long_game_keeps_a_bounded_undo_memory(tmp_path: Path) -> None:
    """Undo state is checkpoints, not one state per line; undo still reaches the start."""
    from table_helpers import FILM

    s = open_session(tmp_path, FILM, seed=3)
    sinbad = DemoSinbad(random.Random(3))
    for _ in range(300):
        if not demo_step(s, sinbad, DemoConfig()):
            break
    n = len(s.applied_lines())
    assert n >= 250
    kept = len(s._checkpoints)
    assert kept <= n // s.config.checkpoint_every + s.config.recent_states + 2
    first = None
    while s.snapshot()["view"]["can_undo"]:
        first = s.undo(s.state_id)
    assert first is not None and first["turn"] == 0 and s.applied_lines() == []
    s.close()
