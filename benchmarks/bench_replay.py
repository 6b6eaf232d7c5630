"""Replay and tree-navigation figures (issue 2): prints measurements, asserts nothing.

* replaying 1,000 actions from a save (load + validate + replay every action);
* reaching any node of a 1,000-action tree with the cache warm, and from cold.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

import numpy as np

from dunenb.engine import make_config
from dunenb.play import advance
from dunenb.record import GameRecord
from dunenb.saves import load_game, save_game

TARGET_ACTIONS = 1_000


def build_record() -> tuple[GameRecord, list[int]]:
    config = make_config(["atreides", "harkonnen", "fremen", "guild", "emperor", "bene-gesserit"], seed=42,
                         secondary_storm=True)
    record = GameRecord(config)
    node = record.root
    while record.depth(node) < TARGET_ACTIONS:
        node = advance(record, node, until="step", seed=1)
    return record, record.mainline()


def main() -> None:
    record, line = build_record()
    print(f"tree: {len(line)} actions on the main line, turn {record.state_at(line[-1]).turn}")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.json"
        save_game(record, path)
        timings = []
        for _ in range(5):
            start = time.perf_counter()
            loaded = load_game(path)
            loaded.state_at(loaded.leaf())
            timings.append(time.perf_counter() - start)
    print(f"load + replay {len(line)} actions from a save: median {statistics.median(timings) * 1000:.0f} ms "
          f"({len(line) / statistics.median(timings):,.0f} actions/s)")
    generator = np.random.default_rng(0)
    targets = [line[int(i)] for i in generator.integers(len(line), size=2_000)]
    for node in line:
        record.state_at(node)
    start = time.perf_counter()
    for node in targets:
        record.state_at(node)
    warm = (time.perf_counter() - start) / len(targets)
    print(f"reach a random node, cache warm: {warm * 1e6:.1f} µs per node")
    cold = []
    for node in targets[:200]:
        record.clear_cache()
        start = time.perf_counter()
        record.state_at(node)
        cold.append(time.perf_counter() - start)
    print(f"reach a random node, cache cold (replay from the root): median {statistics.median(cold) * 1000:.1f} ms")
    record.clear_cache()
    for node in line:
        record.state_at(node)  # checkpoints every 32 plies; recent nodes cached
    record._recent.clear()
    partial = []
    for node in targets[:500]:
        start = time.perf_counter()
        record.state_at(node)
        partial.append(time.perf_counter() - start)
        record._recent.clear()
    print(f"reach a random node from checkpoints only: median {statistics.median(partial) * 1000:.2f} ms, "
          f"max {max(partial) * 1000:.2f} ms")


if __name__ == "__main__":
    main()
