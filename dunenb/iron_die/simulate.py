"""Bot-against-bot games and seeded, deterministic simulations returning pandas DataFrames.

>>> table = simulate(4, seed=1)
>>> list(table.columns)[:6]
['game', 'seed', 'seat0_bot', 'seat1_bot', 'seat0_power', 'seat1_power']
>>> simulate(4, seed=1).equals(table)
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
import pandas as pd

from dunenb.errors import InputError
from dunenb.iron_die.bots import Bot, make_bot
from dunenb.iron_die.engine import apply_action, new_game, propose_chance
from dunenb.iron_die.options import TableOptions
from dunenb.iron_die.state import IronDieState


def play_game(
    players: Sequence[str], seed: int, bots: Sequence[Bot], options: TableOptions | None = None
) -> IronDieState:
    """Play a whole game, one bot per seat; chance nodes take the state's seeded proposals; ``options`` are
    the table's faith readings (IRON-GAP-17, IRON-GAP-18).

    >>> from dunenb.iron_die.bots import NaiveBot, OptimalBot
    >>> final = play_game(["Stark", "Lannister"], 3, [OptimalBot(), NaiveBot()])
    >>> final.is_over, max(final.power)
    (True, 5)
    """
    if len(bots) != len(players):
        raise InputError(
            "iron-die/bots", f"bots: expected one bot per player ({len(players)}), got {len(bots)}"
        )
    state = new_game(players, seed, options)
    while not state.is_over:
        if state.is_chance:
            action = propose_chance(state)
        else:
            assert state.current_player is not None
            action = bots[state.current_player].choose(state)
        state = apply_action(state, action)
    return state


def game_seeds(n_games: int, seed: int) -> list[int]:
    """The per-game seeds derived from a simulation seed (a numpy ``SeedSequence``).

    >>> game_seeds(3, 0) == game_seeds(3, 0)
    True
    """
    words = np.random.SeedSequence(seed).generate_state(max(n_games, 1), dtype=np.uint32)
    return [int(word) for word in words[:n_games]]


def simulate(
    n_games: int,
    seed: int = 0,
    bots: Sequence[str] = ("optimal", "naive"),
    progress: bool = False,
    options: TableOptions | None = None,
) -> pd.DataFrame:
    """Play ``n_games`` games between the named bots, rotating the seats each game (under the table
    ``options``).

    Deterministic for a given ``seed``. One row per game: ``game``, ``seed``, ``seatN_bot``,
    ``seatN_power``, ``winner_seat``, ``winner_bot``, ``rounds``, ``first_bot`` (who started round 1) and
    ``initiator_wins`` (rounds won by the player who declared).
    """
    if type(n_games) is not int or n_games < 0:
        raise InputError("iron-die/games", f"games: expected a non-negative integer, got {n_games!r}")
    if len(bots) < 2:
        raise InputError("iron-die/bots", f"bots: expected 2 or more bot names, got {list(bots)!r}")
    players = [make_bot(name, "bots") for name in bots]
    count = len(players)
    rows = []
    seeds = game_seeds(n_games, seed)
    iterator: Iterable[int] = range(n_games)
    if progress:
        from tqdm.auto import tqdm

        iterator = tqdm(iterator, desc="Iron Die games", unit="game")
    for game in iterator:
        seats = [players[(game + offset) % count] for offset in range(count)]
        names = [f"{bot.name}#{seat}" for seat, bot in enumerate(seats)]
        final = play_game(names, seeds[game], seats, options)
        assert final.winner is not None
        row: dict[str, object] = {"game": game, "seed": seeds[game]}
        row.update({f"seat{seat}_bot": bot.name for seat, bot in enumerate(seats)})
        row.update({f"seat{seat}_power": power for seat, power in enumerate(final.power)})
        row["winner_seat"] = final.winner
        row["winner_bot"] = seats[final.winner].name
        row["rounds"] = len(final.history)
        row["first_bot"] = seats[final.history[0].first_player].name
        row["initiator_wins"] = sum(1 for record in final.history if record.winner == record.first_player)
        rows.append(row)
    columns = ["game", "seed"]
    columns += [f"seat{s}_bot" for s in range(count)] + [f"seat{s}_power" for s in range(count)]
    columns += ["winner_seat", "winner_bot", "rounds", "first_bot", "initiator_wins"]
    return pd.DataFrame(rows, columns=columns)


def win_rates(table: pd.DataFrame) -> pd.DataFrame:
    """Games, wins and win rate per bot name from a :func:`simulate` table.

    >>> win_rates(simulate(6, seed=2))["games"].tolist()
    [6, 6]
    """
    bots = sorted(
        {
            name
            for column in table.columns
            if column.endswith("_bot") and column.startswith("seat")
            for name in table[column]
        }
    )
    games = {
        bot: int(
            (table.filter(like="_bot").drop(columns=["winner_bot", "first_bot"]) == bot).any(axis=1).sum()
        )
        for bot in bots
    }
    wins = table["winner_bot"].value_counts()
    summary = pd.DataFrame({"games": games, "wins": {bot: int(wins.get(bot, 0)) for bot in bots}})
    summary["win_rate"] = summary["wins"] / summary["games"].where(summary["games"] > 0)
    summary.index.name = "bot"
    return summary
