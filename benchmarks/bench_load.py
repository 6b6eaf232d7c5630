"""Loading big saves (issue 15 item 5): prints measurements, asserts nothing; writes only to a temporary folder.

Two shapes of a save of legal nodes, about ``--mb`` megabytes each:

* *variations*: one random-bot game plus many random-bot variations branching from its main line: every node
  is a distinct action, so loading replays every one through the rules;
* *repeats*: one game's line repeated with fresh ids: the loader merges each repeat into the existing nodes.

Each is loaded without the engine's stamp (validated in full at load) and with it (GAP-68: the tree is built at
once; then the end of the first line is computed on demand, every action on its path checked).

Run: ``.venv/bin/python benchmarks/bench_load.py [--mb 60]`` (60 MB takes minutes to build).
"""

from __future__ import annotations

import argparse
import gc
import json
import tempfile
import time
from pathlib import Path

import numpy as np

from dunenb.bots.random_bot import RandomBot
from dunenb.engine import CHANCE, current_player, make_config, sample_chance
from dunenb.jsonio import read_json
from dunenb.record import GameRecord
from dunenb.saves import load_game, record_to_dict, validation_stamp

BYTES_PER_NODE = 165  # about, in the indented JSON of a save


def _play(record: GameRecord, node: int, seed: int) -> int:
    bots: dict[str, RandomBot] = {}
    while True:
        state = record.state_at(node)
        actor = current_player(state)
        if actor is None:
            return node
        if actor == CHANCE:
            action = sample_chance(state)
        else:
            action = bots.setdefault(actor, RandomBot(seed=seed * 17 + len(bots))).choose(state)
        node = record.add_move(node, action)


def variations(megabytes: float) -> dict:
    """A save of distinct legal nodes: a main game and random-bot variations from random points of it."""
    config = make_config(["atreides", "harkonnen", "fremen", "guild", "emperor", "bene-gesserit"], seed=42,
                         turn_limit=12)
    record = GameRecord(config)
    _play(record, record.root, 0)
    line = record.mainline()
    generator = np.random.default_rng(1)
    seed = 0
    while len(record) * BYTES_PER_NODE < megabytes * 1e6:
        seed += 1
        _play(record, line[int(generator.integers(len(line)))], seed)
    return record_to_dict(record)


def repeats(line_save: dict, megabytes: float) -> dict:
    """The first game's line of ``line_save`` repeated with fresh ids until the save has ``megabytes``."""
    line, expected = [], 0
    for node in line_save["nodes"]:
        if node["parent"] != expected:
            break
        line.append(node)
        expected = node["id"]
    nodes: list[dict] = []
    while len(nodes) * BYTES_PER_NODE < megabytes * 1e6:
        parent = 0
        for node in line:
            nodes.append({"id": len(nodes) + 1, "parent": parent, "action": node["action"]})
            parent = len(nodes)
    return {**line_save, "nodes": nodes}


def _measure(name: str, data: dict, folder: Path) -> None:
    plain = {key: value for key, value in data.items() if key != "validated"}
    stamped = {**plain, "validated": validation_stamp(plain["config"], plain["nodes"])}
    for label, save in ((f"{name}, no stamp", plain), (f"{name}, stamped (GAP-68)", stamped)):
        path = folder / f"{name}.json"
        path.write_text(json.dumps(save, indent=1), encoding="utf-8")
        gc.collect()
        start = time.process_time()
        read_json(path)  # the JSON parse alone, for the split
        parsed_at = time.process_time()
        gc.collect()
        loading = time.process_time()
        record = load_game(path)  # what a user runs: read, validate (or not: GAP-68) and build
        done = time.process_time()
        record.state_at(record.leaf())
        leaf_at = time.process_time()
        print(f"{label}: {path.stat().st_size / 1e6:.1f} MB, {len(save['nodes']):,} nodes -> {len(record):,} in "
              f"the tree; load_game {done - loading:.1f} s (of which the JSON parse about {parsed_at - start:.1f} "
              f"s); then the end of the first line ({record.depth(record.leaf())} actions) {leaf_at - done:.2f} s "
              "(CPU)")
        del record


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=5.0, help="size of each save in megabytes (default 5)")
    parser.add_argument("--keep", type=Path, default=None,
                        help="a JSON file: the variations save is read from it if it exists, else written there")
    args = parser.parse_args()
    if args.keep is not None and args.keep.exists():
        built = json.loads(args.keep.read_text(encoding="utf-8"))
    else:
        start = time.process_time()
        built = variations(args.mb)
        print(f"built {len(built['nodes']):,} nodes in {time.process_time() - start:.0f} s (CPU)")
        if args.keep is not None:
            args.keep.write_text(json.dumps(built), encoding="utf-8")
    with tempfile.TemporaryDirectory() as folder:
        _measure("variations", built, Path(folder))
        _measure("repeats", repeats(built, args.mb), Path(folder))


if __name__ == "__main__":
    main()
