"""Scale-out figures (issue 15 item 7): games per second of ``simulate`` in this process and on a local Dask
cluster of 1 and 2 worker processes (cluster start-up excluded), and the Dask overhead per task (an empty task's
round trip). Prints measurements, asserts nothing. On a shared machine the figures move with its load.

Usage: ``.venv/bin/python benchmarks/bench_dask.py --games 40``.
"""

from __future__ import annotations

import argparse
import tempfile
import time

from dunenb.distributed import dask_client, task_overhead
from dunenb.simulate import simulate

SETTINGS = {"houses": None, "bots": ["random"], "seed": 0, "turn_limit": 6, "progress": False}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    args = parser.parse_args()
    def single_process() -> float:
        started = time.perf_counter()
        with tempfile.TemporaryDirectory() as out:
            simulate(games=args.games, out=out, **SETTINGS)
        return args.games / (time.perf_counter() - started)

    single = single_process()
    print(f"single process: {single:.2f} games/s ({args.games} mixed 2-8 House random-bot games, 6 turns)")
    for workers in (1, 2):
        with dask_client("local", workers) as client, tempfile.TemporaryDirectory() as out:
            started = time.perf_counter()
            simulate(games=args.games, out=out, dask=client, **SETTINGS)
            rate = args.games / (time.perf_counter() - started)
        print(f"dask local, {workers} worker(s): {rate:.2f} games/s ({rate / single:.2f}x single process)")
    print(f"single process again: {single_process():.2f} games/s (the machine's load moves the figures)")
    print(f"dask overhead: {task_overhead('local', 1) * 1000:.1f} ms per task (empty task, 1 worker)")


if __name__ == "__main__":
    main()
