"""Battle benchmarks: print figures (no assertions). Run: ``.venv/bin/python benchmarks/bench_battle.py``."""

from __future__ import annotations

import time

from dunenb.analysis.battle_odds import optimal_plans, plan_matrix
from dunenb.battle.case import load_example_case
from dunenb.battle.resolve import _fates_distribution, _merged_fates, enumerate_battle, resolve_battle


def timed(label: str, func, repeat: int = 1):
    start = time.perf_counter()
    for _ in range(repeat):
        result = func()
    elapsed = (time.perf_counter() - start) / repeat
    print(f"{label:<58} {elapsed * 1000:10.3f} ms")
    return result


def main() -> None:
    case = load_example_case("shield_example_4")
    _fates_distribution.cache_clear()
    _merged_fates.cache_clear()
    dist = timed("exact resolution, 2 shield rolls (cold cache)", lambda: resolve_battle(case.battle))
    print(f"{'':<4}{len(list(enumerate_battle(case.battle)))} chance leaves merged into {len(dist)} outcomes")
    timed("exact resolution, 2 shield rolls (warm cache, mean of 200)", lambda: resolve_battle(case.battle), 200)

    analysis = load_example_case("analysis_arrakeen")
    _fates_distribution.cache_clear()
    _merged_fates.cache_clear()
    matrix = timed("plan matrix, analysis_arrakeen (cold cache)", lambda: plan_matrix(analysis))
    rows, cols = matrix.win_first.shape
    print(f"{'':<4}{rows} x {cols} plans = {rows * cols} cells")
    equilibrium = timed("equilibrium by LP (win margin)", lambda: optimal_plans(analysis, matrix=matrix))
    print(f"{'':<4}value {equilibrium.value:+.4f}; support {len(equilibrium.first)} / {len(equilibrium.second)} plans")
    timed("equilibrium by LP (token balance)", lambda: optimal_plans(analysis, metric="tokens", matrix=matrix))


if __name__ == "__main__":
    main()
