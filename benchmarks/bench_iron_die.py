"""Benchmark of dunenb.iron_die: optimal policies solved from scratch, an advise query, simulation speed.

Run: ``.venv/bin/python benchmarks/bench_iron_die.py [--games N]``. Every solve starts from empty caches
(dice tables, result tables, faith claims and policies are rebuilt). Prints one line per figure.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from dunenb.iron_die.initiator import initiator_policy
from dunenb.iron_die.options import TableOptions
from dunenb.iron_die.results import CHALLENGES, parse_result
from dunenb.iron_die.simulate import simulate
from dunenb.iron_die.solver import beat_policy, clear_caches, reply_numerators, score_policy

TARGETS = {"military": "24", "faith": "2/3", "intrigue": "full-house"}


def timed(function: Callable[[], object], repeat: int = 3) -> float:
    """Best wall time of ``repeat`` runs of ``function`` from empty caches, in seconds."""
    best = float("inf")
    for _ in range(repeat):
        clear_caches()
        start = time.perf_counter()
        function()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="games for the simulation throughput")
    args = parser.parse_args()
    print("Le Dé de Fer - benchmark (best of 3, caches cleared before each run)")
    for challenge in CHALLENGES:
        target = parse_result(challenge, TARGETS[challenge])
        score = timed(lambda c=challenge: score_policy(c).start_value())
        beat = timed(lambda c=challenge, t=target: beat_policy(c, t).best_keep_indexes(2))
        replies = timed(lambda c=challenge: reply_numerators(c))
        print(
            f"{challenge:<9} expected-score policy {score * 1000:7.1f} ms | beat {TARGETS[challenge]:<10} "
            f"{beat * 1000:7.1f} ms | every target at once {replies * 1000:7.1f} ms (from scratch)"
        )
    for label, options in (
        ("+ - x /", TableOptions(faith_operations="arithmetic")),
        ("high tie-break", TableOptions(faith_tiebreak="high")),
    ):
        target = parse_result("faith", TARGETS["faith"], options=options)
        score = timed(lambda o=options: score_policy("faith", o).start_value())
        beat = timed(lambda t=target: beat_policy("faith", t).best_keep_indexes(2))
        first = timed(lambda o=options: initiator_policy(2, options=o).start_value())
        print(
            f"faith, {label:<14} expected-score policy {score * 1000:7.1f} ms | beat 2/3 {beat * 1000:7.1f} ms | "
            f"first player (exact) {first * 1000:7.1f} ms (from scratch)"
        )
    exact = timed(lambda: initiator_policy(2).start_value())
    floats = timed(lambda: initiator_policy(2, exact=False).start_value())
    print(
        f"first player (b), 2 players: exact {exact * 1000:7.1f} ms | float {floats * 1000:7.1f} ms "
        "(from scratch)"
    )
    clear_caches()
    policy = initiator_policy(2)
    start = time.perf_counter()
    ranked = beat_policy("faith", parse_result("faith", "2/3")).ranked_keeps((6, 6, 4, 4, 2), 2)
    warm = time.perf_counter() - start
    print(
        f"advise query (faith, beat 2/3, dice 6,6,4,4,2, 2 rolls left): {warm * 1000:.2f} ms "
        f"(solving its policy; dice tables already built), {len(ranked)} keeps ranked"
    )
    start = time.perf_counter()
    policy.ranked_keeps((6, 6, 4, 4, 2), 2)
    print(f"advise query on a solved policy (first player): {(time.perf_counter() - start) * 1000:.3f} ms")
    simulate(10, seed=99)  # warm the policy caches
    start = time.perf_counter()
    table = simulate(args.games, seed=0)
    elapsed = time.perf_counter() - start
    optimal = (table["winner_bot"] == "optimal").mean()
    print(
        f"simulation optimal vs naive: {args.games} games in {elapsed:.2f} s = "
        f"{args.games / elapsed:.0f} games/s (optimal wins {optimal:.1%})"
    )


if __name__ == "__main__":
    main()
