"""Benchmark of dunenb.imperium: whole 4-player bot games and exact next-hand draw odds.

Run: ``.venv/bin/python benchmarks/bench_imperium.py [--games N]``. Targets (issue 13): a 4-player game with
random bots under 0.5 s; the next-hand odds of a 20-card deck with a 10-card discard under 10 ms. Prints
one line per figure.
"""

from __future__ import annotations

import argparse
import statistics
import time

from dunenb.imperium.bots import make_bot
from dunenb.imperium.odds import card_odds, hand_odds
from dunenb.imperium.simulate import play_game
from dunenb.iron_die.simulate import game_seeds

#: A 20-card deck after a few purchases (starter cards and 10 bought cards, 12 distinct ids).
DECK_20 = {
    "convincing_argument": 2,
    "dagger": 2,
    "diplomacy": 1,
    "dune_the_desert_planet": 2,
    "reconnaissance": 1,
    "signet_ring": 1,
    "seek_allies": 1,
    "space_travel": 2,
    "the_voice": 2,
    "arrakis_liaison": 3,
    "the_spice_must_flow": 2,
    "sardaukar_legion": 1,
}
DISCARD_10 = {"arrakis_liaison": 2, "dagger": 1, "fremen_camp": 2, "imperial_spy": 2, "crysknife": 1, "stilgar": 2}
#: The worst case for the enumeration: 20 different cards (C(20, 5) = 15504 hands).
DISTINCT_20 = {f"card{i:02d}": 1 for i in range(20)}


def games(bot: str, count: int) -> tuple[float, float, int]:
    """Median and max seconds per 4-player game, and the mean number of actions."""
    times, plies = [], []
    for seed in game_seeds(count, 7):
        bots = [make_bot(bot, seed + seat) for seat in range(4)]
        start = time.perf_counter()
        final = play_game(["A", "B", "C", "D"], seed, bots)
        times.append(time.perf_counter() - start)
        plies.append(len(final.actions))
    return statistics.median(times), max(times), round(statistics.mean(plies))


def best_of(function, repeat: int = 20) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games per bot kind (default 20)")
    args = parser.parse_args()
    print("Dune: Imperium - benchmark")
    for bot in ("random", "heuristic"):
        median, worst, plies = games(bot, args.games)
        print(
            f"4-player game, {bot} bots: median {median * 1000:6.1f} ms, max {worst * 1000:6.1f} ms "
            f"({plies} actions on average, {args.games} games; target < 500 ms)"
        )
    hands = hand_odds(DECK_20, DISCARD_10)
    elapsed = best_of(lambda: hand_odds(DECK_20, DISCARD_10))
    cards = best_of(lambda: card_odds(DECK_20, DISCARD_10))
    print(
        f"next-hand odds, 20-card deck (12 ids) + 10-card discard: {elapsed * 1000:.2f} ms for {len(hands)} hands "
        f"(exact), per-card odds {cards * 1000:.2f} ms (best of 20; target < 10 ms)"
    )
    worst = best_of(lambda: hand_odds(DISTINCT_20, DISCARD_10), repeat=5)
    print(f"next-hand odds, 20 distinct cards (worst case, 15504 hands): {worst * 1000:.1f} ms (best of 5)")
    short = best_of(lambda: hand_odds({"dagger": 2, "diplomacy": 1}, DISCARD_10))
    print(f"next-hand odds, 3-card deck + 10-card discard (reshuffle case): {short * 1000:.2f} ms (best of 20)")


if __name__ == "__main__":
    main()
