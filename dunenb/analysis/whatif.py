"""What-if odds for a branch (issue 15 item 8): from any node of a record, ``n`` seeded bot continuations give each
House's win rate with a 95% interval, and its mean spice and settlements at the end.

Continuation ``k`` replaces the position's chance generator by one seeded from ``(seed, k)`` (the god state is
fine for this analysis tool: the real future is unknown) and gives each House a bot seeded from
``(seed, k, House)``; the bots decide from their own Houses' views, as in games. The interval is
**Clopper-Pearson** (exact binomial, ``scipy.stats.binomtest(...).proportion_ci(method="exact")``): it never
leaves 0..1 and keeps its 95% coverage for the small ``n`` a notebook can afford. Deterministic for a seed,
with or without Dask.

>>> from dunenb.engine import make_config
>>> from dunenb.record import GameRecord
>>> record = GameRecord(make_config(["atreides", "harkonnen"], seed=1, turn_limit=2))
>>> table = whatif_odds(record, record.root, n=2, seed=0, bots="random", progress=False)
>>> list(table.columns)
['house', 'wins', 'games', 'win_rate', 'ci_low', 'ci_high', 'mean_spice', 'mean_settlements']
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
from scipy.stats import binomtest

from dunenb.bots import BOTS, make_bot
from dunenb.errors import InputError
from dunenb.record import GameRecord
from dunenb.state import GameState

NO_WINNER = "(no winner)"  # a continuation that reached the turn limit or cap (GAP-36c, GAP-60) undecided
MAX_ACTIONS = 60_000  # loop guard for one continuation


def _derived_seed(*parts: int) -> int:
    return int(np.random.SeedSequence([int(p) for p in parts]).generate_state(1)[0])


def continuation(state: GameState, k: int, *, seed: int, bots: Mapping[str, str]) -> dict[str, Any]:
    """Play continuation ``k`` from ``state`` to the end; returns the winner and each House's spice and
    settlements at the end."""
    from dunenb.analysis.game_stats import cities_owned
    from dunenb.engine import CHANCE, apply_action, current_player, sample_chance

    houses = state.config.houses
    players = {h: make_bot(bots[h], seed=_derived_seed(seed, k, i + 1)) for i, h in enumerate(houses)}
    state = dataclasses.replace(state, rng_seed=_derived_seed(seed, k, 0))
    for _ in range(MAX_ACTIONS):
        actor = current_player(state)
        if actor is None:
            break
        state = apply_action(state, sample_chance(state) if actor == CHANCE else players[actor].choose(state))
    else:
        raise InputError("whatif/loop", f"continuation {k} did not end within {MAX_ACTIONS} actions")
    owned = cities_owned(state)
    return {"winner": state.winner, "turn": state.turn,
            "spice": {h: state.houses[h].spice for h in houses},
            "settlements": {h: len(owned.get(h, ())) for h in houses}}


def _bots_for(houses: Sequence[str], bots: str | Sequence[str] | Mapping[str, str]) -> dict[str, str]:
    if isinstance(bots, str):
        chosen = {h: bots for h in houses}
    elif isinstance(bots, Mapping):
        chosen = dict(bots)
    else:
        if len(bots) != len(houses):
            raise InputError("whatif/bots", f"give one bot name, or one per House ({len(houses)})")
        chosen = dict(zip(houses, bots, strict=True))
    missing = sorted(set(houses) - set(chosen))
    unknown = sorted({b for b in chosen.values() if b not in BOTS})
    if missing or unknown:
        raise InputError("whatif/bots", f"bots: missing Houses {missing}, unknown bots {unknown}; "
                         f"allowed bots: {', '.join(BOTS)}")
    return chosen


def odds_table(results: Sequence[dict[str, Any]], houses: Sequence[str]) -> pd.DataFrame:
    """Win rate per House (and the undecided share) with its 95% Clopper-Pearson interval, from results."""
    n = len(results)
    rows = []
    for house in [*houses, NO_WINNER]:
        wins = sum(1 for r in results if (r["winner"] or NO_WINNER) == house)
        interval = binomtest(wins, n).proportion_ci(confidence_level=0.95, method="exact")
        decided = house != NO_WINNER
        rows.append({
            "house": house, "wins": wins, "games": n, "win_rate": wins / n,
            "ci_low": float(interval.low), "ci_high": float(interval.high),
            "mean_spice": float(np.mean([r["spice"][house] for r in results])) if decided else np.nan,
            "mean_settlements": float(np.mean([r["settlements"][house] for r in results])) if decided else np.nan,
        })
    return pd.DataFrame(rows)


def whatif_odds(
    record: GameRecord, node: int, *, n: int, seed: int = 0,
    bots: str | Sequence[str] | Mapping[str, str] = "heuristic", turn_limit: int | None = None,
    progress: bool = True, dask: Any = None, workers: int | None = None,
) -> pd.DataFrame:
    """Each House's odds of winning from ``node`` over ``n`` seeded bot continuations (see the module docstring).

    ``bots``: one bot name, one per House (in table order) or a mapping. ``turn_limit`` (optional) ends the
    continuations earlier than the game's own limit, to keep an analysis short; ``dask``/``workers`` run the
    continuations as Dask tasks (:func:`dunenb.distributed.run_indexed`): same table for the same seed.
    """
    from dunenb.distributed import run_indexed

    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise InputError("whatif/n", f"n must be a positive number of continuations, not {n!r}")
    state = record.state_at(node)
    if turn_limit is not None:
        if turn_limit < state.turn:
            raise InputError("whatif/turn-limit", f"turn_limit {turn_limit} is before the node's turn {state.turn}")
        state = dataclasses.replace(state, config=dataclasses.replace(state.config, turn_limit=turn_limit))
    chosen = _bots_for(state.config.houses, bots)
    results: dict[int, dict[str, Any]] = {}
    task = functools.partial(continuation, state, seed=seed, bots=chosen)
    run_indexed(task, range(n), results.__setitem__, dask=dask, workers=workers, progress=progress,
                desc="continuations")
    return odds_table([results[k] for k in range(n)], state.config.houses)
