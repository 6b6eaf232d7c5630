"""Time exact 2d20 odds queries (target: one query under 1 ms), cold (caches cleared) and cached.

Run: ``.venv/bin/python benchmarks/bench_2d20.py [--repeat N]``. Prints microseconds per query.
"""

from __future__ import annotations

import argparse
import itertools
import time
from collections.abc import Callable

from dunenb.adventures import exact_odds as odds_module
from dunenb.adventures.exact_odds import odds, opposed_odds
from dunenb.adventures.skill_test import Assist, SkillTest

TARGET_US = 1000.0


def clear_caches() -> None:
    """Empty every cache of the odds module, so the next query is computed from scratch."""
    for cached in (
        odds_module.odds,
        odds_module._odds_cached,
        odds_module.pool_counts,
        odds_module.die_counts,
    ):
        cached.cache_clear()


def per_call_us(
    function: Callable[[], object], repeat: int, before: Callable[[], None] | None = None
) -> float:
    """Mean wall-clock microseconds of ``function`` over ``repeat`` calls (``before`` is not timed)."""
    total = 0.0
    for _ in range(repeat):
        if before is not None:
            before()
        start = time.perf_counter()
        function()
        total += time.perf_counter() - start
    return total / repeat * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=2000, help="repetitions per figure (default 2000)")
    repeat = parser.parse_args().repeat

    def query() -> object:
        return odds(7, 7, True, 3, 2).to_dict(2)

    def query_assist() -> object:
        return odds(6, 5, False, 2, 1, Assist(7, 6, True)).to_dict(3)

    def query_helpers() -> object:
        return odds(6, 5, True, 3, 1, Assist(7, 6, True), True, None, (Assist(5, 5), Assist(6, 4))).to_dict(6)

    def query_opposed() -> object:
        return opposed_odds(SkillTest(7, 7, True, 3), SkillTest(6, 6, False, 2), base=2).to_dict()

    def query_frames() -> object:
        result = odds(7, 7, True, 3, 2)
        return result.successes(), result.complications(), result.p_success_table()

    rows = [
        ("cold: 5d20 focus, to_dict", per_call_us(query, repeat, clear_caches)),
        ("cold: 4d20 + assist die, to_dict", per_call_us(query_assist, repeat, clear_caches)),
        ("cached: 5d20 focus, to_dict", per_call_us(query, repeat * 10)),
        ("cached: 4d20 + assist die, to_dict", per_call_us(query_assist, repeat * 10)),
        ("cold: 5d20 + automatic 1 + 3 helpers, to_dict", per_call_us(query_helpers, repeat, clear_caches)),
        ("cold: opposed 5d20 focus vs 4d20, to_dict", per_call_us(query_opposed, repeat, clear_caches)),
        ("cached: opposed 5d20 focus vs 4d20, to_dict", per_call_us(query_opposed, repeat)),
        ("cached: pandas Series x3", per_call_us(query_frames, repeat)),
    ]
    grid = list(itertools.product(range(4, 9), range(4, 9), (False, True), range(4), range(1, 6)))

    def sweep() -> None:
        for skill, drive, focus, extra, comp_range in grid:
            odds(skill, drive, focus, extra, comp_range).p_success(2)

    sweeps = max(1, repeat // 500)
    sweep_us = per_call_us(sweep, sweeps, clear_caches) / len(grid)
    rows.append((f"cold sweep of {len(grid)} set-ups, per set-up", sweep_us))

    width = max(len(label) for label, _ in rows)
    print(f"exact 2d20 odds, {repeat} repetitions per figure (time.perf_counter)")
    for label, micros in rows:
        verdict = "ok" if micros < TARGET_US else "OVER 1 ms"
        print(f"  {label:<{width}}  {micros:9.1f} us  {verdict}")


if __name__ == "__main__":
    main()
