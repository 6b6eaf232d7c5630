"""Saving, loading and replaying games of Le Dé de Fer.

A save is the JSON object ``{"format": "dunenb.iron-die/1", "players": [...], "seed": n, "actions": [...]}``;
every chance outcome is an action, so replay re-applies recorded dice and never re-rolls. Saves are
written atomically and validated strictly: a malformed save raises :class:`SaveFormatError` naming the
field and what is allowed.

>>> from dunenb.iron_die.engine import advance, new_game
>>> state = advance(new_game(["Stark", "Lannister"], seed=11))
>>> save = to_save(state)
>>> sorted(save), save["format"]
(['actions', 'format', 'players', 'seed'], 'dunenb.iron-die/1')
>>> from_save(save) == state
True
>>> from_save({**save, "seed": -1})
Traceback (most recent call last):
...
dunenb.errors.SaveFormatError: [save/seed] seed: expected a non-negative integer, got -1
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from dunenb.action_log import replay_action_log
from dunenb.errors import SaveFormatError
from dunenb.iron_die.actions import Action, action_from_dict
from dunenb.iron_die.engine import apply_action, new_game
from dunenb.iron_die.rules_data import load_rules
from dunenb.iron_die.state import IronDieState
from dunenb.jsonio import read_json, write_json_atomic

#: The format tag of an Iron Die save.
SAVE_FORMAT = "dunenb.iron-die/1"
#: The fields of a save, all required.
SAVE_FIELDS: tuple[str, ...] = ("format", "players", "seed", "actions")


def to_save(state: IronDieState) -> dict[str, Any]:
    """The save dict of a game (any position, finished or not)."""
    return {
        "format": SAVE_FORMAT,
        "players": list(state.players),
        "seed": state.seed,
        "actions": [action.to_dict() for action in state.actions],
    }


def replay(players: Sequence[str], seed: int, actions: Sequence[Action]) -> IronDieState:
    """Re-apply ``actions`` to a new game; an illegal action raises :class:`IllegalActionError`."""
    state = new_game(players, seed)
    for action in actions:
        state = apply_action(state, action)
    return state


def from_save(data: object) -> IronDieState:
    """Validate a save dict and replay it; raises :class:`SaveFormatError` naming the faulty field."""
    if not isinstance(data, dict):
        raise SaveFormatError(
            "save/type",
            f"save: expected a JSON object with fields {', '.join(SAVE_FIELDS)}, got {type(data).__name__}",
        )
    for field in SAVE_FIELDS:
        if field not in data:
            raise SaveFormatError(
                "save/missing-field", f"{field}: missing (required fields: {', '.join(SAVE_FIELDS)})"
            )
    extra = sorted(set(data) - set(SAVE_FIELDS))
    if extra:
        raise SaveFormatError(
            "save/unknown-field", f"{extra[0]}: unknown field (allowed: {', '.join(SAVE_FIELDS)})"
        )
    if data["format"] != SAVE_FORMAT:
        raise SaveFormatError("save/format", f"format: expected {SAVE_FORMAT!r}, got {data['format']!r}")
    players = data["players"]
    maximum = load_rules().max_players
    if (
        not isinstance(players, list)
        or not 2 <= len(players) <= maximum
        or not all(isinstance(name, str) and name.strip() for name in players)
        or len(set(players)) != len(players)
    ):
        raise SaveFormatError(
            "save/players",
            f"players: expected a list of 2 or more distinct non-empty names (at most {maximum}, GAP-59), "
            f"got {players!r}",
        )
    seed = data["seed"]
    if type(seed) is not int or seed < 0:
        raise SaveFormatError("save/seed", f"seed: expected a non-negative integer, got {seed!r}")
    raw_actions = data["actions"]
    if not isinstance(raw_actions, list):
        raise SaveFormatError(
            "save/actions", f"actions: expected a list of action objects, got {raw_actions!r}"
        )
    return replay_action_log(new_game(players, seed), raw_actions, action_from_dict, apply_action)


def save_game(path: str | os.PathLike[str], state: IronDieState) -> None:
    """Write the game to ``path`` atomically (see :func:`dunenb.jsonio.write_json_atomic`)."""
    write_json_atomic(path, to_save(state))


def load_game(path: str | os.PathLike[str]) -> IronDieState:
    """Read and replay a save file; raises :class:`SaveFormatError` on any problem."""
    return from_save(read_json(path))
