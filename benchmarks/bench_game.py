"""Whole-game figures (issue 4): prints measurements, asserts nothing.

* a full 6-House and 8-House bot game to victory or 15 turns (random bots; heuristic bots too), actions per
  second (issue 14 item 4: 6 Houses; issue 10: 8 Houses, every House power on);
* reaching turn 10 of a saved game from cold (load + replay), and one step of the replay slider;
* memory of a 2,000-action record with every state cached (issue 14 item 5: about 3.4 KiB a state).
"""

from __future__ import annotations

import gc
import statistics
import tempfile
import time
from pathlib import Path

from dunenb.bots import make_bot
from dunenb.engine import make_config
from dunenb.jsonio import write_json_atomic
from dunenb.ruleset import HOUSE_IDS
from dunenb.saves import load_game
from dunenb.simulate import line_to_save, play_game

HOUSES = ["atreides", "harkonnen", "fremen", "emperor", "guild", "bene-gesserit"]


def games(bot: str, count: int, houses: list[str] = HOUSES) -> None:
    times, cpus, actions, turns, winners = [], [], [], [], 0
    for seed in range(count):
        config = make_config(houses, seed=seed, turn_limit=15)
        bots = {h: make_bot(bot, seed=seed + k) for k, h in enumerate(houses)}
        start, cpu = time.perf_counter(), time.process_time()
        played, final = play_game(config, bots)
        times.append(time.perf_counter() - start)
        cpus.append(time.process_time() - cpu)  # CPU time: less dependent on the load of a shared machine
        actions.append(len(played))
        turns.append(final.turn)
        winners += final.winner is not None
    print(f"{bot:9s} bots, {len(houses)} Houses, victory or 15 turns: median {statistics.median(times):.2f} s per game "
          f"(min {min(times):.2f} s, max {max(times):.2f} s; CPU median {statistics.median(cpus):.2f} s), "
          f"{sum(actions) / sum(times):,.0f} actions/s, "
          f"median {statistics.median(actions):.0f} actions, median {statistics.median(turns):.0f} turns, "
          f"{winners}/{count} won before the limit")


def replay_figures() -> None:
    config = make_config(HOUSES, seed=3, turn_limit=15)
    played, _ = play_game(config, {h: make_bot("random", seed=k) for k, h in enumerate(HOUSES)})
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.json"
        write_json_atomic(path, line_to_save(config, played))
        cold = []
        for _ in range(3):
            start = time.perf_counter()
            record = load_game(path)
            line = record.mainline()
            turn10 = next(n for n in line if record.state_at(n).turn >= 10)
            cold.append(time.perf_counter() - start)
        print(f"load a {len(line)}-action save and reach turn 10 (node {record.depth(turn10)}) from cold: "
              f"median {statistics.median(cold) * 1000:.0f} ms")
        from dunenb.widgets.replay_browser import ReplayBrowser

        browser = ReplayBrowser(record)
        browser.go(record.depth(turn10))
        steps = []
        for index in range(record.depth(turn10), record.depth(turn10) + 100):
            start = time.perf_counter()
            browser.go(index + 1)
            steps.append(time.perf_counter() - start)
        print(f"replay slider, one step (state + map + House panel + alternatives): median "
              f"{statistics.median(steps) * 1000:.1f} ms, max {max(steps) * 1000:.1f} ms")


def memory_figures() -> None:
    import tracemalloc

    from dunenb.record import GameRecord

    config = make_config(HOUSES, seed=3, turn_limit=15)
    played, _ = play_game(config, {h: make_bot("random", seed=k) for k, h in enumerate(HOUSES)})
    played = played[:2000]
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    record = GameRecord(config)
    node = record.root
    for action in played:
        node = record.add_move(node, action)  # every state stays cached (RECENT_CACHE_SIZE is larger)
    gc.collect()
    used = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    states = len(played) + 1
    print(f"a {len(played)}-action record with its {states} states cached: {used / 1024:,.0f} KiB, "
          f"{used / states / 1024:.2f} KiB a state")


if __name__ == "__main__":
    games("random", 20)
    games("heuristic", 10)
    games("random", 10, list(HOUSE_IDS))
    games("heuristic", 10, list(HOUSE_IDS))
    replay_figures()
    memory_figures()
