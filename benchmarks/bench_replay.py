"""Replay and tree-navigation figures (issue 2): prints measurements, asserts nothing.

* replaying 1,000 actions from a save (load + validate + replay every action), with the engine's stamp (GAP-68:
  the tree built at once, each state computed and checked on demand) and without it (validated at load);
* reaching any node of a 1,000-action tree with the cache warm, and from cold;
* any node of a long record with branches (about 4,000 nodes) from its checkpoints only: median, 99th percentile.
"""

from __future__ import annotations

import json
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
        plain = Path(folder) / "plain.json"
        data = json.loads(path.read_text(encoding="utf-8"))
        data.pop("validated", None)
        plain.write_text(json.dumps(data, indent=1), encoding="utf-8")
        for name, source in (("stamped (GAP-68)", path), ("without stamp", plain)):
            timings = []
            for _ in range(7):
                start = time.perf_counter()
                loaded = load_game(source)
                loaded.state_at(loaded.leaf())
                timings.append(time.perf_counter() - start)
            median = statistics.median(timings)
            print(f"load + replay {len(line)} actions from a save, {name}: min {min(timings) * 1000:.0f} ms, median "
                  f"{median * 1000:.0f} ms, max {max(timings) * 1000:.0f} ms ({len(line) / median:,.0f} actions/s)")
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
        record.state_at(node)  # checkpoints every CHECKPOINT_EVERY plies; recent nodes cached
    record._recent.clear()
    partial = []
    for node in targets[:500]:
        start = time.perf_counter()
        record.state_at(node)
        partial.append(time.perf_counter() - start)
        record._recent.clear()
    print(f"reach a random node from checkpoints only: median {statistics.median(partial) * 1000:.2f} ms, "
          f"max {max(partial) * 1000:.2f} ms")


def branched_record() -> GameRecord:
    """A 3,000-action main line with 20 variations of 50 actions from random points of it."""
    config = make_config(["atreides", "harkonnen", "fremen", "guild", "emperor", "bene-gesserit"], seed=7)
    record = GameRecord(config)
    node = record.root
    while record.depth(node) < 3_000 and not record.state_at(node).is_over:
        node = advance(record, node, until="step", seed=2)
    line = record.mainline()
    generator = np.random.default_rng(3)
    for branch in range(20):
        node = line[int(generator.integers(len(line)))]
        for _ in range(50):
            node = advance(record, node, until="step", seed=100 + branch)
    return record


def checkpoint_figures() -> None:
    record = branched_record()
    for node in record.node_ids:
        record.state_at(node)  # every checkpoint (each CHECKPOINT_EVERY plies of every line) is in place
    generator = np.random.default_rng(4)
    targets = [record.node_ids[int(i)] for i in generator.integers(len(record), size=2_000)]
    times = []
    for node in targets:
        record._recent.clear()
        start = time.perf_counter()
        record.state_at(node)
        times.append(time.perf_counter() - start)
    times.sort()
    print(f"any node of a {len(record):,}-node record with branches, from checkpoints only ({len(times)} random "
          f"nodes): median {statistics.median(times) * 1000:.2f} ms, 99th percentile "
          f"{times[int(len(times) * 0.99)] * 1000:.2f} ms, max {times[-1] * 1000:.2f} ms")


if __name__ == "__main__":
    main()
    checkpoint_figures()
