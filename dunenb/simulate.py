"""Bot-only games: play many, save each, and summarise them as a pandas table (issue 4, simulation).

Deterministic for a seed: game ``i`` uses configuration seed ``seed + i`` and bot seeds derived from it.

>>> table = simulate(games=2, houses=["atreides", "harkonnen"], bots=["random"], seed=3, turn_limit=2,
...                  progress=False)
>>> list(table.columns[:4])
['game', 'seed', 'houses', 'winner']
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dunenb.actions import Action
from dunenb.bots import BOTS, make_bot
from dunenb.engine import apply_action, current_player, fresh_seed, initial_state, make_config
from dunenb.errors import InputError, from_os_error
from dunenb.gcpause import BetweenActions, older_objects_set_aside
from dunenb.jsonio import write_json_atomic, write_text_atomic
from dunenb.play import next_action
from dunenb.ruleset import HOUSE_IDS
from dunenb.saves import SAVE_FORMAT, validation_stamp
from dunenb.state import GameConfig, GameState

if TYPE_CHECKING:
    import pandas as pd

# Issue 14 item 4: NumPy, pandas and tqdm are imported by the functions that use them (a mixed set of Houses, the
# summary table, the progress bar), not with the module: playing games needs none of them, and pandas' objects
# (tens of thousands) were walked by every full garbage collection of a bot game.
MAX_ACTIONS_PER_GAME = 200_000  # loop guard
#: The columns of ``DIR/powers.csv`` (issue 10 item 6): how many times each power acted, per game, turn and House.
POWER_COLUMNS = ["game", "turn", "house", "power", "count"]
#: (turn, house, power ID) -> how many events of that turn named the power
PowerUses = Counter[tuple[int, str, str]]


def powers_acted(before: GameState, after: GameState) -> list[tuple[str, str]]:
    """``(house, power ID)`` for every power an event of the transition ``before`` → ``after`` names in
    ``data["powers"]`` (an event naming two powers counts for each). The House is the one that used the power:
    its holder before the action (the borrower during a lend, ALLIANCE-12), else after it, else its owner; a
    power outside ``data/powers.json`` (a leader's K-21 power) is the event's House's."""
    from dunenb.powers import holder, load_powers, owner

    known = load_powers()
    acted = []
    for event in after.events:
        for power_id in event.data.get("powers", ()):
            if power_id in known:
                house = holder(before, power_id) or holder(after, power_id) or owner(power_id)
            else:
                # a leader's power (leaders.md): the House that used it; an answered question names its asker
                house = str(event.data.get("asker") or event.data.get("house", ""))
            acted.append((house, power_id))
    return acted


def play_game(config: GameConfig, bots: Mapping[str, Any], *, uses: PowerUses | None = None,
              ) -> tuple[list[Action], GameState]:
    """Play one game to its end with these bots; returns the actions and the final state. ``uses``, if given,
    counts the powers that acted (:func:`powers_acted`) by the turn of the action that made them act."""
    with older_objects_set_aside():  # issue 14 item 4: the collector walks what the game makes, not the rest
        state = initial_state(config)
        actions: list[Action] = []
        between_actions = BetweenActions()  # issue 14 item 4: no garbage collection inside an action
        for _ in range(MAX_ACTIONS_PER_GAME):
            if current_player(state) is None:
                return actions, state
            with between_actions:
                action = next_action(state, bots)
                before, state = state, apply_action(state, action)
            actions.append(action)
            if uses is not None:
                for house, power_id in powers_acted(before, state):
                    uses[(before.turn, house, power_id)] += 1
    raise InputError("simulate/loop", f"game with seed {config.seed} did not end within {MAX_ACTIONS_PER_GAME} actions")


def line_to_save(config: GameConfig, actions: Sequence[Action], *, validated: bool = False) -> dict[str, Any]:
    """A saved game (``dunenb.save/1``) holding one line of actions; ``validated=True`` (only for a line every
    action of which was played by ``apply_action``) stamps it so that it loads without an eager replay (GAP-68)."""
    nodes = [{"id": i + 1, "parent": i, "action": a.to_dict()} for i, a in enumerate(actions)]
    save = {"format": SAVE_FORMAT, "config": config.to_dict(), "nodes": nodes}
    if validated:
        save["validated"] = validation_stamp(save["config"], nodes)
    return save


def _houses_for(game_seed: int, houses: Sequence[str] | None) -> tuple[str, ...]:
    if houses is not None:
        return tuple(houses)
    import numpy as np

    generator = np.random.default_rng([game_seed, 7])
    count = int(generator.integers(2, 9))
    return tuple(str(h) for h in generator.choice(HOUSE_IDS, size=count, replace=False))


def game_summary(index: int, config: GameConfig, state: GameState, bots: Mapping[str, Any], actions: int) -> dict:
    """One row of the summary table."""
    from dunenb.analysis.game_stats import cities_owned

    owned = cities_owned(state)
    row: dict[str, Any] = {
        "game": index, "seed": config.seed, "houses": ",".join(config.houses), "winner": state.winner,
        "turns": state.turn, "actions": actions,
        "bots": ",".join(f"{h}={getattr(bots[h], 'name', '?')}" for h in config.houses),
    }
    for house in HOUSE_IDS:
        if house in config.houses:
            row[f"spice_{house}"] = state.houses[house].spice
            row[f"cities_{house}"] = len(owned.get(house, ()))
    return row


def power_rows(index: int, uses: PowerUses) -> list[dict[str, Any]]:
    """The rows of ``powers.csv`` for game ``index`` (:data:`POWER_COLUMNS`), by turn, House and power."""
    return [{"game": index, "turn": turn, "house": house, "power": power_id, "count": count}
            for (turn, house, power_id), count in sorted(uses.items())]


def play_indexed_game(
    index: int, *, seed: int, houses: Sequence[str] | None, bots: Sequence[str], turn_limit: int | None,
    secondary_storm: bool,
) -> tuple[GameConfig, list[Action], GameState, dict[str, Any], list[dict[str, Any]]]:
    """Play game ``index`` of a simulation (configuration seed ``seed + index``): the one implementation both
    the single-process run and the Dask tasks (dunenb/distributed.py) use, so their files are equal. The last
    item is the game's rows of ``powers.csv`` (:func:`power_rows`)."""
    game_seed = seed + index
    chosen = _houses_for(game_seed, houses)
    if len(bots) not in (1, len(chosen)):
        raise InputError("simulate/bots", f"give one bot name, or one per House ({len(chosen)})")
    names = list(bots) * len(chosen) if len(bots) == 1 else list(bots)
    config = make_config(chosen, seed=game_seed, turn_limit=turn_limit, secondary_storm=secondary_storm)
    pairs = enumerate(zip(chosen, names, strict=True))
    players = {h: make_bot(name, seed=game_seed * 31 + k) for k, (h, name) in pairs}
    uses: PowerUses = Counter()
    actions, final = play_game(config, players, uses=uses)
    return config, actions, final, players, power_rows(index, uses)


def simulate(
    *, games: int, houses: Sequence[str] | None, bots: Sequence[str], seed: int | None = None,
    turn_limit: int | None = 15, out: str | os.PathLike[str] | None = None, progress: bool = True,
    secondary_storm: bool = False, dask: Any = None, workers: int | None = None,
) -> pd.DataFrame:
    """Play ``games`` bot-only games; write each as ``game_NNNN.json`` (and ``summary.csv``, ``powers.csv``) into
    ``out``.

    ``houses=None`` draws a mixed set of 2 to 8 Houses per game; ``bots`` is one bot name for everyone or
    one per House (in the order of ``houses``). ``seed=None`` draws a fresh 128-bit first seed (GAP-62); the
    summary's ``seed`` column gives each game's, to replay it. ``dask``: ``"local"``, a scheduler address or a
    client runs the games as Dask tasks (dunenb/distributed.py): the same files, byte for byte, and a rerun resumes.
    """
    import pandas as pd
    from tqdm.auto import tqdm

    if seed is None:
        seed = fresh_seed()
    folder = _check_options(games=games, houses=houses, bots=bots, seed=seed, turn_limit=turn_limit, out=out,
                            secondary_storm=secondary_storm)
    settings: dict[str, Any] = {"seed": seed, "houses": houses, "bots": bots, "turn_limit": turn_limit,
                "secondary_storm": secondary_storm}
    if dask is not None:
        from dunenb.distributed import simulate_rows

        rows, powers = simulate_rows(games, settings, folder, dask=dask, workers=workers, progress=progress)
    else:
        rows, powers = [], []
        for index in tqdm(range(games), desc="games", disable=not progress):
            config, actions, final, players, game_powers = play_indexed_game(index, **settings)
            if folder is not None:
                write_json_atomic(folder / f"game_{index:04d}.json", line_to_save(config, actions, validated=True))
            rows.append(game_summary(index, config, final, players, len(actions)))
            powers.extend(game_powers)
    table = pd.DataFrame(rows)
    if folder is not None:  # atomic like the saves: a full disk never leaves a cut summary
        write_text_atomic(folder / "summary.csv", table.to_csv(index=False))
        write_text_atomic(folder / "powers.csv", pd.DataFrame(powers, columns=POWER_COLUMNS).to_csv(index=False))
        if dask is not None:
            from dunenb.distributed import finish_simulation

            finish_simulation(folder)  # the per-game resume records are no longer needed
    return table


def _check_options(
    *, games: int, houses: Sequence[str] | None, bots: Sequence[str], seed: int, turn_limit: int | None,
    out: str | os.PathLike[str] | None, secondary_storm: bool,
) -> Path | None:
    """Validate every option before the first game is played or written (GAP-59); returns the folder, created.

    The first game's configuration stands for all: the Houses are the same in every game (or drawn, always
    valid, for ``houses=None``) and seeds only grow.
    """
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise InputError("simulate/games", f"--games must be an integer >= 1, not {games!r}")
    if isinstance(bots, str) or not bots:
        raise InputError("simulate/bots", f"give one bot name, or one per House; allowed: {', '.join(BOTS)}")
    unknown = [b for b in bots if b not in BOTS]
    if unknown:
        raise InputError("simulate/bots", f"unknown bot(s) {unknown}; allowed: {', '.join(BOTS)}")
    if houses is None and len(bots) != 1:
        raise InputError("simulate/bots", "with mixed Houses (2 to 8 a game) give one bot name for everyone")
    if houses is not None and len(bots) not in (1, len(houses)):
        raise InputError("simulate/bots", f"give one bot name, or one per House ({len(houses)})")
    make_config(_houses_for(seed, houses), seed=seed, turn_limit=turn_limit, secondary_storm=secondary_storm)
    if out is None:
        return None
    folder = Path(out)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise InputError("file/not-a-directory", f"--out {folder}: is a file; give a folder") from None
    except OSError as error:
        raise from_os_error(error, folder) from None
    if not os.access(folder, os.W_OK | os.X_OK):
        raise InputError("file/permission", f"--out {folder}: this folder is not writable")
    return folder
