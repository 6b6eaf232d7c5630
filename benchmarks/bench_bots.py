"""Bot strength figures: prints measurements, asserts nothing (no timing is checked anywhere).

(a) Heuristic against random seats in mixed 4-House games (two of each, seats alternating from game to game):
    the share of games each bot kind wins outright, and, counting games stopped by the turn limit too, the
    share each kind leads at the end (most cities and Sietchs owned, then most spice), and the tokens each kind
    loses to storms and to worms per House per game.
(b) Heuristic self-play, 6 Houses, victory or 15 turns: median turns, share of games won before the limit,
    mean tokens in the tanks, in the reserve and on Dune and mean spice per House at the end, the share of
    Houses stranded at the end (no token on Dune, 10 or more in the reserve), tokens destroyed by storms (their
    moves, double storms, landing or moving into one) and by worms (Shai-Hulud) per House per game, median
    seconds per game.

Usage: ``.venv/bin/python benchmarks/bench_bots.py --games 20``.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
from tqdm.auto import tqdm

from dunenb.bots import make_bot
from dunenb.bots.standings import standing_leader
from dunenb.engine import apply_action, current_player, initial_state, make_config
from dunenb.play import next_action
from dunenb.ruleset import HOUSE_IDS
from dunenb.state import GameConfig, GameState

SIX = ["atreides", "harkonnen", "fremen", "emperor", "guild", "bene-gesserit"]
TURN_LIMIT = 15


def play_counting_losses(config: GameConfig, bots: dict) -> tuple[GameState, dict[str, dict[str, int]]]:
    """Play one game like :func:`dunenb.simulate.play_game`, adding up the engine's ``tokens-destroyed`` events:
    per House, tokens lost to a storm (cause names a storm) and to a worm (cause ``Shai-Hulud``)."""
    state = initial_state(config)
    lost = {h: {"storm": 0, "worm": 0} for h in config.houses}
    while current_player(state) is not None:
        state = apply_action(state, next_action(state, bots))
        for event in state.events:
            if event.kind == "tokens-destroyed":
                cause = str(event.data.get("cause", ""))
                kind = "worm" if cause == "Shai-Hulud" else "storm" if "storm" in cause else None
                if kind is not None:
                    lost[event.data["house"]][kind] += int(event.data["count"])
    return state, lost


def mixed_games(count: int, seed: int) -> None:
    """(a) 4 Houses drawn per game, two heuristic and two random seats."""
    wins = {"heuristic": 0, "random": 0}
    leads = {"heuristic": 0, "random": 0}
    undecided = 0
    destroyed = {"heuristic": {"storm": 0, "worm": 0}, "random": {"storm": 0, "worm": 0}}
    for index in tqdm(range(count), desc="heuristic vs random", leave=False):
        game_seed = seed + index
        generator = np.random.default_rng([game_seed, 4])
        houses = [str(h) for h in generator.choice(HOUSE_IDS, size=4, replace=False)]
        kinds = {h: ("heuristic" if (k + index) % 2 == 0 else "random") for k, h in enumerate(houses)}
        bots = {h: make_bot(kinds[h], seed=game_seed * 31 + k) for k, h in enumerate(houses)}
        final, lost = play_counting_losses(make_config(houses, seed=game_seed, turn_limit=TURN_LIMIT), bots)
        for h in houses:
            for cause in ("storm", "worm"):
                destroyed[kinds[h]][cause] += lost[h][cause]
        if final.winner is None:
            undecided += 1
        else:
            wins[kinds[final.winner]] += 1
        leads[kinds[standing_leader(final)]] += 1
    print(f"(a) mixed 4-House games, 2 heuristic + 2 random seats, {count} games, victory or {TURN_LIMIT} turns:")
    print(f"    won outright: heuristic {wins['heuristic'] / count:.0%}, random {wins['random'] / count:.0%}, "
          f"no winner {undecided / count:.0%}")
    print(f"    leading at the end (winner, else most cities/Sietchs then spice): heuristic "
          f"{leads['heuristic'] / count:.0%}, random {leads['random'] / count:.0%}")
    seats = 2 * count  # Houses of each kind over all games
    print(f"    tokens destroyed per House per game: heuristic storms {destroyed['heuristic']['storm'] / seats:.2f}, "
          f"worms {destroyed['heuristic']['worm'] / seats:.2f}; random storms "
          f"{destroyed['random']['storm'] / seats:.2f}, worms {destroyed['random']['worm'] / seats:.2f}")


def self_play(count: int, seed: int) -> None:
    """(b) 6 heuristic Houses."""
    times, turns, tanks, reserve, dune, spice, won = [], [], [], [], [], [], 0
    storms = worms = 0
    for index in tqdm(range(count), desc="heuristic self-play", leave=False):
        game_seed = seed + index
        config = make_config(SIX, seed=game_seed, turn_limit=TURN_LIMIT)
        bots = {h: make_bot("heuristic", seed=game_seed + k) for k, h in enumerate(SIX)}
        start = time.perf_counter()
        final, lost = play_counting_losses(config, bots)
        times.append(time.perf_counter() - start)
        storms += sum(lost[h]["storm"] for h in SIX)
        worms += sum(lost[h]["worm"] for h in SIX)
        turns.append(final.turn)
        won += final.winner is not None and final.turn < TURN_LIMIT
        tanks.extend(final.houses[h].tanks.total for h in SIX)
        reserve.extend(final.houses[h].reserve.total for h in SIX)
        dune.extend(sum(t.total for (owner, _a, _s), t in final.forces.items() if owner == h) for h in SIX)
        spice.extend(final.houses[h].spice for h in SIX)
    print(f"(b) heuristic self-play, 6 Houses, {count} games, victory or {TURN_LIMIT} turns:")
    print(f"    median turns {statistics.median(turns):.1f}, won before turn {TURN_LIMIT}: {won / count:.0%}, "
          f"mean tokens per House at the end: tanks {statistics.mean(tanks):.1f}, reserve "
          f"{statistics.mean(reserve):.1f}, on Dune {statistics.mean(dune):.1f} (of 20), "
          f"stranded Houses {sum(d == 0 and r >= 10 for d, r in zip(dune, reserve, strict=True)) / len(dune):.0%}, "
          f"mean spice per House at the end {statistics.mean(spice):.1f}, "
          f"tokens destroyed per House per game: storms {storms / (6 * count):.2f}, worms {worms / (6 * count):.2f}, "
          f"median {statistics.median(times):.2f} s per game (max {max(times):.2f} s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games per measurement (default 20)")
    parser.add_argument("--seed", type=int, default=0, help="first game seed (default 0)")
    args = parser.parse_args()
    mixed_games(args.games, args.seed)
    self_play(args.games, args.seed)


if __name__ == "__main__":
    main()
