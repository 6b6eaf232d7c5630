"""Start-up figures (issue 14 part 3): prints measurements, asserts nothing; writes only to a temporary folder.

* a new process running ``dunenb replay SAVE`` to the end of a 10-turn 6-House random-bot game (wall clock:
  interpreter start, imports, load, validation, replay of every action);
* ``dunenb --help``.

Each figure is printed twice: *with bytecode cache* is what an installed package does (pip writes the ``.pyc``
files; here the first, untimed run writes them into a temporary ``PYTHONPYCACHEPREFIX`` folder), *from source*
compiles every module at each start (``PYTHONDONTWRITEBYTECODE=1`` and no cache, as in an environment that sets
that variable). Wall clock and the child's CPU time (user + system, less dependent on the load of a shared machine).

Run: ``.venv/bin/python benchmarks/bench_startup.py [--runs 7]``.
"""

from __future__ import annotations

import argparse
import os
import resource
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


def _environment(cache: Path | None) -> dict[str, str]:
    """The child's environment: this checkout first on the path; a bytecode cache in ``cache``, or none."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    env.pop("PYTHONPYCACHEPREFIX", None)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if cache is None:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        env["PYTHONPYCACHEPREFIX"] = tempfile.mkdtemp()  # an empty cache folder: nothing is read, nothing written
    else:
        env["PYTHONPYCACHEPREFIX"] = str(cache)
    return env


def _timed(argv: list[str], runs: int, cache: Path | None) -> tuple[list[float], list[float]]:
    """Wall-clock and CPU seconds of ``runs`` new processes running ``dunenb ARGV`` (after one untimed run)."""
    env = _environment(cache)
    command = [sys.executable, "-m", "dunenb.cli", *argv]
    subprocess.run(command, check=True, capture_output=True, env=env)  # writes the bytecode cache, if any
    walls, cpus = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True, env=env)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return walls, cpus


def _show(name: str, measured: tuple[list[float], list[float]]) -> None:
    walls, cpus = measured
    print(f"{name}: wall min {min(walls) * 1000:.0f} / median {statistics.median(walls) * 1000:.0f} / max "
          f"{max(walls) * 1000:.0f} ms; CPU min {min(cpus) * 1000:.0f} / median {statistics.median(cpus) * 1000:.0f}"
          f" / max {max(cpus) * 1000:.0f} ms ({len(walls)} runs)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    config = make_config(HOUSES, seed=3, turn_limit=10)
    played, final = play_game(config, {h: make_bot("random", seed=k) for k, h in enumerate(HOUSES)})
    with tempfile.TemporaryDirectory() as folder:
        print(f"save: {len(played)} actions, final turn {final.turn}")
        cache = Path(folder) / "pycache"
        for where, label in ((cache, "with bytecode cache"), (None, "from source")):
            for stamped in (False, True):
                path = Path(folder) / f"game_{stamped}.json"
                write_json_atomic(path, line_to_save(config, played, validated=stamped))
                save = "stamped (GAP-68)" if stamped else "no stamp"
                _show(f"new process, dunenb replay SAVE to the end, {save}, {label}",
                      _timed(["replay", str(path)], args.runs, where))
            _show(f"new process, dunenb --help, {label}", _timed(["--help"], args.runs, where))


if __name__ == "__main__":
    main()
