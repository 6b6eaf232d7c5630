"""Start-up figures (issue 14 part 3): prints measurements, asserts nothing; writes only to a temporary folder.

* a new process running ``dunenb replay SAVE`` to the end of a 10-turn 6-House random-bot game (wall clock:
  interpreter start, imports, load, validation, replay of every action);
* ``dunenb --help``.

Run: ``.venv/bin/python benchmarks/bench_startup.py [--runs 7]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from dunenb.bots import make_bot
from dunenb.engine import make_config
from dunenb.jsonio import write_json_atomic
from dunenb.simulate import line_to_save, play_game

HOUSES = ["atreides", "harkonnen", "fremen", "emperor", "guild", "bene-gesserit"]


def _timed(argv: list[str], runs: int) -> list[float]:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "dunenb.cli", *argv], check=True, capture_output=True, env=env)
        times.append(time.perf_counter() - start)
    return times


def _show(name: str, times: list[float]) -> None:
    print(f"{name}: min {min(times) * 1000:.0f} ms, median {statistics.median(times) * 1000:.0f} ms, "
          f"max {max(times) * 1000:.0f} ms ({len(times)} runs)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    config = make_config(HOUSES, seed=3, turn_limit=10)
    played, final = play_game(config, {h: make_bot("random", seed=k) for k, h in enumerate(HOUSES)})
    with tempfile.TemporaryDirectory() as folder:
        print(f"save: {len(played)} actions, final turn {final.turn}")
        for stamped in (False, True):
            path = Path(folder) / f"game_{stamped}.json"
            write_json_atomic(path, line_to_save(config, played, validated=stamped))
            label = "stamped (GAP-68)" if stamped else "no stamp"
            _show(f"new process, dunenb replay SAVE to the end, {label}", _timed(["replay", str(path)], args.runs))
    _show("new process, dunenb --help", _timed(["--help"], args.runs))


if __name__ == "__main__":
    main()
