"""Saving, loading and replaying Dune: Imperium games, and each player's view.

A save is ``{"format": "dunenb.imperium/1", "players": [...], "leaders": [...], "seed": n, "actions": [...]}``;
every draw is an action, so a replay re-applies the recorded cards and never re-draws. Reading is strict:
a malformed save raises :class:`SaveFormatError` naming the field and what is allowed.

>>> from dunenb.imperium.engine import advance, new_game
>>> state = advance(new_game(["A", "B"], seed=4))
>>> from_save(to_save(state)) == state
True
>>> from_save({**to_save(state), "leaders": ["nobody", "paul_atreides"]})
Traceback (most recent call last):
...
dunenb.errors.SaveFormatError: [save/leaders] leaders: expected 2 distinct leaders among \
paul_atreides, leto_atreides, vladimir_harkonnen, glossu_rabban, ilban_richese, helena_richese, \
memnon_thorvald, ariana_thorvald, got ['nobody', 'paul_atreides']
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Sequence
from typing import Any

from dunenb.action_log import replay_action_log
from dunenb.errors import DuneError, SaveFormatError
from dunenb.imperium.actions import action_from_dict
from dunenb.imperium.effects import victory_points
from dunenb.imperium.engine import apply_action, last_round, new_game
from dunenb.imperium.rules_data import load_rules
from dunenb.imperium.state import ImperiumState
from dunenb.jsonio import read_json, write_json_atomic

#: The format tag of a Dune: Imperium save.
SAVE_FORMAT = "dunenb.imperium/1"
#: The fields of a save, all required.
SAVE_FIELDS: tuple[str, ...] = ("format", "players", "leaders", "seed", "actions")


def to_save(state: ImperiumState) -> dict[str, Any]:
    """The save dict of a game at any position."""
    return {
        "format": SAVE_FORMAT,
        "players": list(state.names),
        "leaders": list(state.leaders),
        "seed": state.seed,
        "actions": [action.to_dict() for action in state.actions],
    }


def replay(names: Sequence[str], leaders: Sequence[str], seed: int, actions: Sequence[Any]) -> ImperiumState:
    """Re-apply ``actions`` to a new game; an illegal action raises :class:`IllegalActionError`."""
    state = new_game(names, seed, leaders)
    for action in actions:
        state = apply_action(state, action)
    return state


def from_save(data: object) -> ImperiumState:
    """Validate a save dict and replay it; raises :class:`SaveFormatError` naming the faulty field."""
    if not isinstance(data, dict):
        raise SaveFormatError("save/type", f"save: expected a JSON object with fields {', '.join(SAVE_FIELDS)}")
    for field in SAVE_FIELDS:
        if field not in data:
            raise SaveFormatError("save/missing-field", f"{field}: missing (required fields: {', '.join(SAVE_FIELDS)})")
    extra = sorted(set(data) - set(SAVE_FIELDS))
    if extra:
        raise SaveFormatError("save/unknown-field", f"{extra[0]}: unknown field (allowed: {', '.join(SAVE_FIELDS)})")
    if data["format"] != SAVE_FORMAT:
        raise SaveFormatError("save/format", f"format: expected {SAVE_FORMAT!r}, got {data['format']!r}")
    names = data["players"]
    if (
        not isinstance(names, list)
        or not 2 <= len(names) <= 4
        or not all(isinstance(n, str) and n.strip() for n in names)
        or len(set(names)) != len(names)
    ):
        raise SaveFormatError("save/players", f"players: expected 2 to 4 distinct non-empty names, got {names!r}")
    leaders = data["leaders"]
    known = load_rules().leaders
    if (
        not isinstance(leaders, list)
        or len(leaders) != len(names)
        or len(set(leaders)) != len(leaders)
        or not all(isinstance(x, str) and x in known for x in leaders)
    ):
        raise SaveFormatError(
            "save/leaders", f"leaders: expected {len(names)} distinct leaders among {', '.join(known)}, got {leaders!r}"
        )
    seed = data["seed"]
    if type(seed) is not int or seed < 0:
        raise SaveFormatError("save/seed", f"seed: expected a non-negative integer, got {seed!r}")
    raw_actions = data["actions"]
    if not isinstance(raw_actions, list):
        raise SaveFormatError("save/actions", f"actions: expected a list of action objects, got {raw_actions!r}")
    return replay_action_log(new_game(names, seed, leaders), raw_actions, action_from_dict, apply_action)


def save_game(path: str | os.PathLike[str], state: ImperiumState) -> None:
    """Write the game to ``path`` atomically."""
    write_json_atomic(path, to_save(state))


def load_game(path: str | os.PathLike[str]) -> ImperiumState:
    """Read and replay a save file; raises :class:`SaveFormatError` on any problem."""
    try:
        return from_save(read_json(path))
    except SaveFormatError:
        raise
    except DuneError as error:  # e.g. bad player names reaching new_game
        raise SaveFormatError("save/invalid", f"{path}: {error.message}") from None


def _counts(cards: Sequence[str]) -> dict[str, int]:
    return dict(sorted(Counter(cards).items()))


def view(state: ImperiumState, seat: int | None = None) -> dict[str, Any]:
    """The position as ``seat`` sees it (``None``: a spectator): other players' hands and intrigues are counts,
    every deck is a size (the own deck as its contents, no order exists, and its known top card under Prescience,
    IMP-GAP-33), another player's secret factions are ``None`` until shown (IMP-GAP-35), and the generator is left
    out."""
    rules = load_rules()
    task = state.pending
    players = []
    for index, p in enumerate(state.players):
        own = index == seat
        players.append(
            {
                "name": state.names[index],
                "leader": p.leader,
                "vp": victory_points(state, index),
                "solari": p.solari,
                "spice": p.spice,
                "water": p.water,
                "influence": dict(zip(rules.factions, p.influence, strict=True)),
                "garrison": p.garrison,
                "conflict": p.conflict,
                "supply": p.supply,
                "agents_left": p.agents_left,
                "swordmaster": p.swordmaster,
                "council": p.council,
                "mentat": p.mentat,
                "mentat_next_round": p.mentat_next,
                "hand": list(p.hand) if own else len(p.hand),
                "intrigues": list(p.intrigues) if own else len(p.intrigues),
                "deck": _counts(p.deck + p.deck_top) if own else p.deck_size,
                "deck_top": list(p.deck_top) if own else None,
                "reserved": list(p.reserved),
                "secret_factions": list(p.secret_factions) if own or p.secret_shown else None,
                "used_powers": list(p.used_powers),
                "discard": list(p.discard),
                "played": list(p.played),
                "revealed": list(p.revealed),
                "persuasion": p.persuasion,
                "swords": p.swords,
                "revealed_turn": p.done,
            }
        )
    return {
        "seat": seat,
        "round": state.round,
        "phase": state.phase,
        "first_player": state.names[state.first],
        "pending": None
        if task is None
        else {"kind": task.kind, "player": None if task.player < 0 else state.names[task.player]},
        "conflict": state.conflict,
        "conflict_deck": last_round() - len(state.conflicts_seen),
        "row": list(state.row),
        "imperium_deck": len(state.imperium_deck),
        "reserve": dict(state.reserve),
        "intrigue_deck": len(state.intrigue_deck),
        "spaces": {
            s.id: (None if state.occupied[i] < 0 else state.names[state.occupied[i]])
            for i, s in enumerate(rules.spaces)
        },
        "bonus_spice": {s.id: state.bonus_spice[i] for i, s in enumerate(rules.spaces) if s.maker},
        "alliances": {
            f: (None if h < 0 else state.names[h]) for f, h in zip(rules.factions, state.alliances, strict=True)
        },
        "control": {
            c: (None if h < 0 else state.names[h]) for c, h in zip(rules.control_spaces, state.control, strict=True)
        },
        "players": players,
        "winners": [state.names[w] for w in state.winners],
    }
