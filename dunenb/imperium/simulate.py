"""Bot games and seeded simulations: each game as a save plus ``summary.csv``.

>>> table = simulate(2, players=3, seed=1)
>>> list(table.columns)[:5], len(table)
(['game', 'seed', 'rounds', 'winner', 'winner_leader'], 2)
>>> simulate(2, players=3, seed=1).equals(table)
True
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from dunenb.errors import InputError
from dunenb.imperium.bots import BOTS, make_bot
from dunenb.imperium.effects import victory_points
from dunenb.imperium.engine import apply_action, new_game, propose_chance
from dunenb.imperium.save import save_game
from dunenb.imperium.state import ImperiumState
from dunenb.iron_die.simulate import game_seeds


def play_game(
    names: Sequence[str], seed: int, bots: Sequence[Any], leaders: Sequence[str] | None = None
) -> ImperiumState:
    """A whole game, one bot per seat; chance nodes take the state's seeded proposals."""
    if len(bots) != len(names):
        raise InputError("imperium/bots", f"bots: expected one bot per player ({len(names)}), got {len(bots)}")
    state = new_game(names, seed, leaders)
    while not state.is_over:
        action = propose_chance(state) if state.is_chance else bots[state.actor].choose(state)  # type: ignore[index]
        state = apply_action(state, action)
    return state


def vp_by_round(state: ImperiumState) -> list[list[int]]:
    """VP of each seat at the end of each round (replayed from the actions), for the VP race chart."""
    rows: list[list[int]] = []
    replay = new_game(state.names, state.seed, state.leaders)
    last_round = 1
    for action in state.actions:
        replay = apply_action(replay, action)
        if replay.round > last_round or replay.is_over:
            rows.append([victory_points(replay, s) for s in range(len(state.names))])
            last_round = replay.round
    return rows


def check_bots(bots: Sequence[str], players: int) -> list[str]:
    """One bot name per seat (a shorter list repeats), or :class:`InputError`."""
    names = list(bots)
    if not names or any(name not in BOTS for name in names) or len(names) > players:
        raise InputError(
            "imperium/bots",
            f"--bots: {','.join(names)!r} is not allowed "
            f"(allowed: 1 to {players} of {', '.join(BOTS)}, comma-separated)",
        )
    return [names[i % len(names)] for i in range(players)]


def simulate(
    n_games: int,
    players: int = 4,
    bots: Sequence[str] = ("random",),
    seed: int = 0,
    out: str | os.PathLike[str] | None = None,
    progress: bool = False,
) -> pd.DataFrame:
    """Play ``n_games`` seeded bot games; with ``out`` write ``game_NNNN.json`` saves and ``summary.csv``.

    One row per game: ``game``, ``seed``, ``rounds``, ``winner`` (names joined by ``+`` when shared),
    ``winner_leader``, then ``pN_bot``, ``pN_leader`` and ``pN_vp`` for each seat N = 1.. .
    """
    if type(n_games) is not int or n_games < 0:
        raise InputError("imperium/games", f"--games: expected an integer >= 0, got {n_games!r}")
    if type(players) is not int or not 2 <= players <= 4:
        raise InputError("imperium/players", f"--players: expected 2, 3 or 4, got {players!r}")
    seat_bots = check_bots(bots, players)
    folder = None if out is None else Path(out)
    if folder is not None:
        folder.mkdir(parents=True, exist_ok=True)
    iterator: Any = range(n_games)
    if progress:
        from tqdm.auto import tqdm

        iterator = tqdm(iterator, desc="Imperium games", unit="game")
    seeds = game_seeds(n_games, seed)
    rows = []
    for game in iterator:
        names = [f"{bot}{seat + 1}" for seat, bot in enumerate(seat_bots)]
        agents = [make_bot(bot, seeds[game] + seat) for seat, bot in enumerate(seat_bots)]
        final = play_game(names, seeds[game], agents)
        if folder is not None:
            save_game(folder / f"game_{game + 1:04d}.json", final)
        row: dict[str, Any] = {
            "game": game + 1,
            "seed": seeds[game],
            "rounds": final.round,
            "winner": "+".join(final.names[w] for w in final.winners),
            "winner_leader": "+".join(final.leaders[w] for w in final.winners),
        }
        for seat in range(players):
            row[f"p{seat + 1}_bot"] = seat_bots[seat]
            row[f"p{seat + 1}_leader"] = final.leaders[seat]
            row[f"p{seat + 1}_vp"] = victory_points(final, seat)
        rows.append(row)
    table = pd.DataFrame(rows, columns=_columns(players))
    if folder is not None:
        table.to_csv(folder / "summary.csv", index=False)
    return table


def _columns(players: int) -> list[str]:
    columns = ["game", "seed", "rounds", "winner", "winner_leader"]
    for seat in range(1, players + 1):
        columns += [f"p{seat}_bot", f"p{seat}_leader", f"p{seat}_vp"]
    return columns
