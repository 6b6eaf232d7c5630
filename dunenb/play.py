"""Driving a game forward: one step, or until a milestone, with chance sampled and bots deciding.

Used by the CLI, the notebooks and the benchmarks; it only calls the engine's public functions.

>>> from dunenb.engine import make_config
>>> from dunenb.record import GameRecord
>>> record = GameRecord(make_config(["atreides", "harkonnen"], seed=5, turn_limit=3))
>>> node = advance(record, record.root, until="game-over")
>>> record.state_at(node).is_over
True
"""

from __future__ import annotations

from collections.abc import Mapping

from dunenb.actions import Action
from dunenb.bots.random_bot import RandomBot
from dunenb.engine import CHANCE, current_player, sample_chance
from dunenb.errors import InputError
from dunenb.gcpause import BetweenActions, older_objects_set_aside
from dunenb.record import GameRecord
from dunenb.state import GameState

MILESTONES = ("step", "storm-moved", "spice-blow-done", "turn", "game-over")


def next_action(state: GameState, bots: Mapping[str, RandomBot] | None = None, *, seed: int = 0) -> Action:
    """The action that plays next: the generator's chance outcome, or the acting House's bot decision."""
    actor = current_player(state)
    if actor == CHANCE:
        return sample_chance(state)
    bot = (bots.get(actor) if bots and actor is not None else None) or RandomBot(seed=seed)
    return bot.choose(state)


def _reached(before: GameState, after: GameState, until: str) -> bool:
    if until == "step" or after.is_over:
        return True
    kinds = {e.kind for e in after.events}
    if until == "storm-moved":
        return "storm-moved" in kinds
    if until == "spice-blow-done":
        return before.phase in ("spice-blow", "setup") and after.phase not in ("spice-blow", "setup")
    if until == "turn":
        return after.turn != before.turn
    return False


def advance(
    record: GameRecord, node: int, *, until: str = "step", bots: Mapping[str, RandomBot] | None = None,
    seed: int = 0, max_actions: int = 100_000,
) -> int:
    """Extend the record from ``node`` until the milestone is reached; returns the node reached.

    Milestones: ``step`` (one action), ``storm-moved`` (a storm has moved), ``spice-blow-done``,
    ``turn`` (a new turn began), ``game-over``. Existing children are followed, not duplicated.
    """
    if until not in MILESTONES:
        raise InputError("play/until", f"until {until!r} is not one of {', '.join(MILESTONES)}")
    between_actions = BetweenActions()  # issue 14 item 4: no garbage collection inside an action
    with older_objects_set_aside():  # issue 14 item 4: the collector walks what the game makes, not the rest
        for _ in range(max_actions):
            state = record.state_at(node)
            if state.is_over:
                return node
            with between_actions:
                node = record.add_move(node, next_action(state, bots, seed=seed))
            if _reached(state, record.state_at(node), until):
                return node
    raise InputError("play/loop", f"no {until!r} within {max_actions} actions (loop guard)")


def play_turns(
    record: GameRecord, node: int, turns: int, *, bots: Mapping[str, RandomBot] | None = None, seed: int = 0,
) -> int:
    """Play ``turns`` more turns from ``node`` (each ends when the next turn begins), stopping early if the game
    ends; returns the node reached. Used by ``dunenb new --play-turns`` and ``dunenb continue``.

    >>> from dunenb.engine import make_config
    >>> record = GameRecord(make_config(["atreides", "harkonnen"], seed=5))
    >>> record.state_at(play_turns(record, record.root, 1)).turn
    2
    """
    for _ in range(turns):
        if record.state_at(node).is_over:  # a huge number of turns stops with the game (GAP-59)
            break
        node = advance(record, node, until="turn", bots=bots, seed=seed)
    return node
